"""The rich consoles the CLI prints to."""
from __future__ import annotations

from rich.console import Console


def new_console(**options) -> Console:
    """A console that never reads `:name:` as an emoji code (rich's default would print `a.cu:100:8` as `a.cu💯8`),
    soft-wrapped unless told otherwise."""
    return Console(**{"soft_wrap": True, **options, "emoji": False})


def captured(draw, width: int, color: bool = False) -> str:
    """What `draw(console)` prints on a console `width` columns wide, as text (with ANSI colours when `color`): how
    the rich renderers stay functions from a model to text."""
    import io

    buffer = io.StringIO()
    console = new_console(file=buffer, width=width, force_terminal=color, color_system="auto" if color else None)
    draw(console)
    return buffer.getvalue()
