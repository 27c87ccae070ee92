"""The rich consoles the CLI prints to."""
from __future__ import annotations

from rich.console import Console


def new_console(**options) -> Console:
    """A console that never reads `:name:` as an emoji code (rich's default would print `a.cu:100:8` as `a.cu💯8`),
    soft-wrapped unless told otherwise."""
    return Console(**{"soft_wrap": True, **options, "emoji": False})
