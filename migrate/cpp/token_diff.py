"""Which identifiers an external engine renamed: align the identifier tokens of its input and output."""
from __future__ import annotations

import difflib
import re

IDENT = re.compile(rb"(?<!\w)[A-Za-z_]\w*")
MAX_TOKENS = 200_000  # beyond this the alignment costs more than it is worth; counts come from the engine


def renamed(old: bytes, new: bytes, expected: dict[str, str]) -> list[tuple[int, int, str, str]] | None:
    """(start, end, old name, new name) for each identifier of `old` replaced in `new`, or None when the files
    are too large to align. Replaced runs of equal length pair one for one; in uneven runs (an engine that
    also inserted tokens, such as HIP_SYMBOL) an old name pairs with the next occurrence of its `expected`
    new name."""
    a = [(m.start(), m.end(), m.group()) for m in IDENT.finditer(old)]
    b = [m.group() for m in IDENT.finditer(new)]
    if len(a) > MAX_TOKENS or len(b) > MAX_TOKENS:
        return None
    matcher = difflib.SequenceMatcher(None, [t[2] for t in a], b, autojunk=False)
    out = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace":
            continue
        if i2 - i1 == j2 - j1:
            for (start, end, before), after in zip(a[i1:i2], b[j1:j2]):
                out.append((start, end, before.decode("ascii"), after.decode("ascii")))
            continue
        j = j1
        for start, end, before in a[i1:i2]:
            want = expected.get(before.decode("ascii"), "").encode()
            k = next((k for k in range(j, j2) if b[k] == want), None) if want else None
            if k is not None:
                out.append((start, end, before.decode("ascii"), want.decode("ascii")))
                j = k + 1
    return out
