"""The error every layer raises for bad arguments or a bad tree: the CLI prints its message and exits 2."""
from __future__ import annotations


class UsageError(Exception):
    """Bad arguments or a bad tree: exit status 2, with a message that says what to do."""
