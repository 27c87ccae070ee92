"""Compile verification helpers: compiler diagnostics and the line maps between migrated and original sources."""
