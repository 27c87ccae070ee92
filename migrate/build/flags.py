"""Compiler flags for compile checks: from compile_commands.json when there is one, else include paths,
defines and the C++ standard read off the migrated CMake files and Makefiles."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from migrate.build.cmake import CMakeContext
from migrate.build.make import MakeContext
from migrate.options import Options
from migrate.packs import default_packs

DEFAULT_STD = "-std=c++17"
CMAKE_DIRS = ("include_directories", "target_include_directories")
CMAKE_DEFS = ("add_compile_definitions", "add_definitions", "target_compile_definitions")
CMAKE_VARS = re.compile(r"\$\{(?:CMAKE_CURRENT_SOURCE_DIR|CMAKE_SOURCE_DIR|PROJECT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR)\}")
KEYWORDS = {"PUBLIC", "PRIVATE", "INTERFACE", "SYSTEM", "BEFORE", "AFTER"}
# A device function or variable declared here and defined in another unit: without relocatable device code
# (-fgpu-rdc, nvcc's -rdc=true) hipcc links each unit's device code on its own, even under -c, and stops at
# "lld: error: undefined hidden symbol".
EXTERN_DEVICE = re.compile(rb"\bextern\s+(?:\"C\"\s+)?(?:__host__\s+)?__device__\b|\b__device__\s+extern\b")


def _rebase(path: Path, source: Path | None, root: Path) -> Path:
    """A path of the original tree, moved to the same place in the migrated tree."""
    if source is not None:
        try:
            return root / path.relative_to(source)
        except ValueError:
            pass
    return path


def compile_database(root: Path, source: Path | None = None) -> dict[Path, list[str]]:
    """Per-file -I/-D/-std flags from a compile_commands.json at the root or in build/. Its paths name
    the original tree (it was made there); they are rebased onto the migrated one."""
    for candidate in (root / "compile_commands.json", root / "build" / "compile_commands.json"):
        if not candidate.is_file():
            continue
        try:
            entries = json.loads(candidate.read_text())
        except ValueError:
            return {}
        out = {}
        for e in entries:
            args = e.get("arguments") or shlex.split(e.get("command", ""))
            directory = _rebase(Path(e.get("directory", root)), source, root)
            kept = []
            for a in args:
                if a.startswith("-I"):
                    d = Path(a[2:])
                    kept.append(f"-I{_rebase(d if d.is_absolute() else directory / d, source, root)}")
                elif a.startswith(("-D", "-std=")):
                    kept.append(a)
            out[_rebase((directory / e["file"]).resolve(), source, root).resolve()] = kept
        return out
    return {}


def _cmake_flags(path: Path, root: Path) -> list[str]:
    ctx = CMakeContext(path.relative_to(root).as_posix(), path.read_bytes(), Options(), default_packs(), "7.0")
    out = []
    for command in ctx.named(*CMAKE_DIRS, *CMAKE_DEFS, "set"):
        values = [a.value for a in command.args]
        if command.name == "set" and values[:1] == ["CMAKE_CXX_STANDARD"] and len(values) > 1:
            out.append(f"-std=c++{values[1]}")
        elif command.name in CMAKE_DIRS:
            for v in values[1 if command.name.startswith("target") else 0:]:
                if v not in KEYWORDS and "$<" not in v:
                    d = Path(CMAKE_VARS.sub(str(path.parent), v))
                    out.append(f"-I{d if d.is_absolute() else path.parent / d}")
        elif command.name in CMAKE_DEFS:
            for v in values[1 if command.name.startswith("target") else 0:]:
                if v not in KEYWORDS:
                    out.append(v if v.startswith("-D") else f"-D{v}")
    return out


def _make_flags(path: Path, root: Path) -> list[str]:
    ctx = MakeContext(path.relative_to(root).as_posix(), path.read_bytes(), Options(), default_packs(), "7.0")
    out = []
    for line in ctx.lines:
        for w in line.words if line.kind in ("assign", "recipe") else ():
            if w.text.startswith("-I") and "$" not in w.text:
                d = Path(w.text[2:])
                out.append(f"-I{d if d.is_absolute() else path.parent / d}")
            elif w.text.startswith(("-D", "-std=")) and "$" not in w.text:
                out.append(w.text)
    return out


def project_flags(root: Path) -> list[str]:
    """Flags that apply to every unit: what the build files say, de-duplicated, with a C++ standard."""
    out: list[str] = []
    for path in sorted(root.rglob("*")):
        if ".hipmigrate" in path.parts or not path.is_file():
            continue
        if path.name == "CMakeLists.txt" or path.suffix == ".cmake":
            out += _cmake_flags(path, root)
        elif path.name in ("Makefile", "makefile", "GNUmakefile") or path.suffix == ".mk":
            out += _make_flags(path, root)
    if not any(f.startswith("-std=") for f in out):
        out.append(DEFAULT_STD)
    return list(dict.fromkeys(out))


def unit_flags(root: Path, unit: Path, base: list[str], extra: list[str], database: dict[Path, list[str]]) -> list[str]:
    """The unit's own flags from the compile `database`, else `base` (with -fgpu-rdc when the unit uses device
    code of another unit); then `extra` (toolchain headers) and the unit's folder and the tree's root as include
    paths."""
    own = database.get(unit.resolve())
    flags = own if own is not None else base
    if not any(f.startswith("-std=") for f in flags):
        flags = [*flags, DEFAULT_STD]
    if "-fgpu-rdc" not in flags and EXTERN_DEVICE.search(unit.read_bytes()):
        flags = [*flags, "-fgpu-rdc"]
    return [*flags, *extra, f"-I{unit.parent}", f"-I{root}"]
