"""The files a compile may read through `#include`, found without running the compiler (for the compile cache's key).

Conservative: every `#include`, `#include_next` and `#import` line of every file reached is followed, whatever `#if`
it stands under, and a name is looked up in every folder the compiler could search for it (the including file's
folder for a quoted name, then each -iquote, -I, -isystem and -idirafter folder of the arguments and each folder of
CPATH, C_INCLUDE_PATH and CPLUS_INCLUDE_PATH), not only the first that has it: every file that could be the one
included is listed. Headers of the compiler's own folders (hip_runtime.h, the C++ library) are not searched: the
compiler's version line stands for them. A name given by a macro (`#include HEADER`) cannot be followed: the scan
says so and the compile is not cached.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

DIRECTIVE = re.compile(rb'^[ \t]*#[ \t]*(?:include|include_next|import)\b[ \t]*(.*)$', re.MULTILINE)
NAMED = re.compile(rb'^(?:"([^"\n]+)"|<([^>\n]+)>)')
FOLDER_FLAGS = ("-iquote", "-I", "-isystem", "-idirafter")  # each with its folder attached or as the next argument
FILE_FLAGS = ("-include", "-imacros")  # files read before the unit
PATH_VARIABLES = ("CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH")


@dataclass(frozen=True)
class Scanned:
    files: tuple[Path, ...]  # the unit first, then every file it may include, each once (absolute)
    computed: str = ""  # the first `#include MACRO` met ("path: line text"): the file list is then incomplete


def search_folders(args: Sequence[str], cwd: Path, env: Mapping[str, str]) -> tuple[list[Path], list[Path]]:
    """(folders searched for an included name, files the arguments include before the unit), relative ones taken
    from `cwd`, in the order given."""
    folders, files = [], []
    i = 0
    while i < len(args):
        arg = args[i]
        for flag, into in [*((f, folders) for f in FOLDER_FLAGS), *((f, files) for f in FILE_FLAGS)]:
            if arg == flag and i + 1 < len(args):
                into.append(cwd / args[i + 1])
                i += 1
                break
            if arg.startswith(flag) and len(arg) > len(flag) and into is folders:
                into.append(cwd / arg[len(flag):].removeprefix("="))
                break
        i += 1
    for name in PATH_VARIABLES:
        folders += [cwd / p for p in env.get(name, "").split(os.pathsep) if p]
    return folders, files


def scan(unit: Path, args: Sequence[str], cwd: Path, env: Mapping[str, str], tree: Path | None = None,
         memo: dict[Path, tuple] | None = None) -> Scanned:
    """The unit and every file it may include (see the module's docstring). `memo` keeps the included names of
    files outside `tree` (the environment's headers, which do not change while it lives), by path, size,
    modification time and inode; a file of the tree is read every time (a timestamp may not show a rewrite)."""
    folders, forced = search_folders(args, cwd, env)
    seen: dict[Path, None] = {}
    todo = [unit, *forced]
    computed = ""
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen[path] = None
        names, odd = _includes(path, memo if tree is None or not path.is_relative_to(tree) else None)
        if odd and not computed:
            computed = f"{path}: {odd}"
        for quoted, name in names:
            if os.path.isabs(name):
                candidates = [Path(os.path.normpath(name))]
            else:  # normalised, so that `#include "../detail/x.inl"` from detail/ names one file, not a longer path
                candidates = [Path(os.path.normpath(d / name)) for d in ([path.parent] if quoted else []) + folders]
            todo += [c for c in candidates if c not in seen and _is_file(c)]
    return Scanned(tuple(seen), computed)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name too long, a folder that cannot be searched: not a file the compile can read
        return False


def _includes(path: Path, memo: dict[Path, tuple] | None) -> tuple[list[tuple[bool, str]], str]:
    """((quoted?, name) of each include line, the first include line whose name is not written out)."""
    try:
        stat = path.stat()
        stamp = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
        if memo is not None and memo.get(path, (None,))[0] == stamp:
            return memo[path][1]
        data = path.read_bytes()
    except OSError:
        return [], ""
    names, odd = [], ""
    for m in DIRECTIVE.finditer(data):
        named = NAMED.match(m.group(1))
        if named:
            names.append((named.group(1) is not None, (named.group(1) or named.group(2)).decode("utf-8", "replace")))
        elif not odd:
            odd = m.group(0).decode("utf-8", "replace").strip()
    if memo is not None:
        memo[path] = (stamp, (names, odd))
    return names, odd
