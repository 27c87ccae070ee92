"""The project files a translation unit includes, read from its `#include` lines.

Every `#include "..."` and `#include <...>` is followed, whatever `#if` it stands under (an over-approximation:
a header behind a branch the compiler does not take still counts). A quoted name is looked up in the including
file's folder first, then in the include folders; an angled one in the include folders only. Only files inside
the project's tree are followed; system and toolkit headers are the environment.
"""
from __future__ import annotations

import re
from pathlib import Path

INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^">\n]+)[">]', re.MULTILINE)


def closure(root: Path, unit: str, include: list[str]) -> list[str]:
    """The unit and every project file it reaches through includes, as paths relative to root, unit first."""
    root = root.resolve()
    dirs = [root / d for d in include]
    seen, order, todo = {unit}, [unit], [unit]
    while todo:
        rel = todo.pop()
        path = root / rel
        try:
            text = path.read_bytes()
        except OSError:
            continue
        for quote, name in INCLUDE.findall(text):
            name = name.decode("utf-8", "replace").strip()
            where = ([path.parent] if quote == b'"' else []) + dirs
            for folder in where:
                candidate = (folder / name).resolve()
                if candidate.is_file() and candidate.is_relative_to(root):
                    found = candidate.relative_to(root).as_posix()
                    if found not in seen:
                        seen.add(found)
                        order.append(found)
                        todo.append(found)
                    break
    return order
