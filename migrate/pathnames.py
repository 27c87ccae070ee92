"""A file's name as text output shows it: as it is, or quoted the way git quotes names (core.quotePath=false).

Names are kept as `str` throughout, as os.fsdecode makes them: a byte that is not UTF-8 is a surrogate (U+DC80 to
U+DCFF) and round-trips to the same file. Output meant for a line-oriented reader (text, annotations, diff headers)
shows a name that holds such a byte, a control character (a newline would split the line), a line or paragraph
separator, an invisible format character (a bidirectional override would reorder what is shown), a double quote or a
backslash in double quotes, with C escapes (`\\n`, `\\t`, `\\"`, `\\\\`) and each other such byte in octal
(`"bad\\377name.cu"`); `git apply` and `git diff` read and write names so. JSON output keeps the name itself.
"""
from __future__ import annotations

import unicodedata

NAMED = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r", '"': '\\"',
         "\\": "\\\\"}
UNSHOWN = ("Cc", "Cf", "Zl", "Zp", "Cs")  # controls, format characters, separators, surrogates (bytes not UTF-8)


def shown(name: str) -> str:
    """`name` for a line of text output: itself when every character shows as itself, else quoted."""
    if name.isprintable() and '"' not in name and "\\" not in name:
        return name
    return '"' + "".join(_escaped(c) for c in name) + '"'


def quoted(name: str) -> str:
    """`name` inside a message: in single quotes, or quoted with escapes as `shown` quotes it."""
    said = shown(name)
    return f"'{name}'" if said == name else said


def _escaped(c: str) -> str:
    if c in NAMED:
        return NAMED[c]
    if unicodedata.category(c) not in UNSHOWN:
        return c
    if 0xDC80 <= ord(c) <= 0xDCFF:  # a byte that is not UTF-8
        return f"\\{ord(c) - 0xDC00:03o}"
    return "".join(f"\\{b:03o}" for b in c.encode("utf-8", "surrogatepass"))


def prefixed(prefix: str, name: str) -> str:
    """`a/NAME` of a diff header: quoted whole, prefix inside the quotes, as git writes it."""
    quoted = shown(name)
    return f'"{prefix}{quoted[1:]}' if quoted.startswith('"') else prefix + name
