"""Compiler flags for compile checks: from compile_commands.json when there is one, else include paths,
defines and the C++ standard read off the migrated CMake files and Makefiles."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from migrate.buildfiles.cmake import CMakeContext
from migrate.buildfiles import make_eval
from migrate.buildfiles.make import runs_hip_compiler
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


def _shell_words(text: str) -> list[str]:
    """The arguments a shell makes of a command line (quotes removed: -I"C:\\Program Files\\x" is one)."""
    try:
        return shlex.split(text)
    except ValueError:  # an unbalanced quote
        return text.split()


def _make_flags(made: make_eval.Evaluation) -> list[str]:
    """-I/-D/-std= of the recipes that run nvcc or hipcc, expanded as make would; where no recipe does, of
    every variable's final value and every recipe. Only the branches make takes count, and of several C++
    standards the last one (the one the compiler keeps)."""
    values = {name: made.value(name).split() for name in made.names("file", "command line", "override", "default")}
    compiler = [r.command for r in made.recipes
                if r.command.split() and runs_hip_compiler(r.command.split()[0], values)]
    texts = compiler or [made.value(name) for name in made.names()] + [r.command for r in made.recipes]
    out = []
    for text in texts:
        words = _shell_words(made.expand(text))
        for i, word in enumerate(words):
            if word in ("-I", "-D") and i + 1 < len(words):
                word += words[i + 1]
            if "$" in word:
                continue
            if word.startswith("-I") and len(word) > 2:
                d = Path(word[2:])
                out.append(f"-I{d if d.is_absolute() else made.path.parent / d}")
            elif word.startswith("-D") and len(word) > 2 or word.startswith("-std=") and len(word) > 5:
                out.append(word)
    standards = [f for f in out if f.startswith("-std=")]
    return [f for f in out if not f.startswith("-std=")] + standards[-1:]


MAKEFILES = ("GNUmakefile", "makefile", "Makefile")  # the first one of a folder is the one make reads


def project_flags(root: Path, make_vars: dict[str, str] | None = None) -> list[str]:
    """Flags that apply to every unit: what the build files say, de-duplicated, with a C++ standard.
    Makefiles are read as `make NAME=VALUE ...` would with `make_vars`; a `.mk` file counts on its own only
    where no Makefile includes it."""
    out: list[str] = []
    paths = [p for p in sorted(root.rglob("*")) if ".hipmigrate" not in p.parts and p.is_file()]
    makefiles = [p for p in paths if p.name in MAKEFILES and
                 next(p.parent / n for n in MAKEFILES if (p.parent / n).is_file()) == p]
    made = {p: make_eval.evaluate(p, make_vars, root) for p in makefiles}
    included = {f.resolve() for m in made.values() for f in m.files}
    for path in paths:
        if path.name == "CMakeLists.txt" or path.suffix == ".cmake":
            out += _cmake_flags(path, root)
        elif path in made:
            out += _make_flags(made[path])
        elif path.suffix == ".mk" and path.resolve() not in included:
            out += _make_flags(make_eval.evaluate(path, make_vars, root))
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
