"""Deployment files (shell, Dockerfile, YAML, requirements, pyproject.toml) parsed with tree-sitter grammars."""
