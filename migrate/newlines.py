"""Lines that end in a lone CR (classic Mac OS line endings, or such lines mixed into a file): compilers, CMake, make
and Python take a lone CR as a line break, but tree-sitter's grammars and the rules' line patterns see one long line,
so a file of them would migrate nothing. The rules run on a copy with each lone CR made an LF (same length, so every
offset stays valid); their edits are then applied to the file's own bytes, and the line breaks they insert are CRs
where the file has no LF at all."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from migrate.edits import splice
from migrate.fixing import Translation
from migrate.model import Edit

LONE_CR = re.compile(rb"\r(?!\n)")


def has_lone_cr(data: bytes) -> bool:
    return b"\r" in data and LONE_CR.search(data) is not None


def translated(data: bytes, run: Callable[[bytes, list[Edit]], Translation]) -> Translation:
    """`run(text, edits)` translates `text` and fills `edits` with the edits it applied; for a file with lone CRs it
    gets the copy with LFs, and the result is its edits applied to `data` itself."""
    if not has_lone_cr(data):
        return run(data, [])
    edits: list[Edit] = []
    result = run(LONE_CR.sub(b"\n", data), edits)
    if b"\n" not in data:  # CR only: the inserted line breaks are CRs too
        edits = [replace(e, text=e.text.replace("\r\n", "\r").replace("\n", "\r")) for e in edits]
    return Translation(splice(data, edits), result.findings)
