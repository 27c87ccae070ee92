"""Which kind each file is: the one table of name patterns (and the one content sniff) that `run`, `scan`, `diff`,
`check` and the file contexts (migrate/contexts.py) go by.

A kind is `cpp` (the C++ engine), one of RULE_KINDS (the file rules of that kind read it), or, for everything else,
`other` (copied byte for byte); `link`, `special` (a FIFO, socket or device) and `unreadable` (a folder that cannot be
listed) come from the file system. Patterns are matched against the file's name in lower case (`exact` ones keep
their case) and, when they hold a `/`, against its folder and name (`requirements/base.txt`); the first kind that
matches wins. An extension-less file that starts with a POSIX shell's `#!` line is a shell script.

    >>> kind_of("requirements/base.txt"), kind_of("docker/Dockerfile.train"), kind_of("kernel.cu")
    ('requirements', 'docker', 'cpp')
"""
from __future__ import annotations

import fnmatch
import re
import stat
from dataclasses import dataclass
from pathlib import Path

CPP = "cpp"
SHELL_SHEBANG = re.compile(rb"#![ \t]*/\S*/(?:env[ \t]+)?(?:ba|da|k|z)?sh\b")


@dataclass(frozen=True)
class Kind:
    name: str
    patterns: tuple[str, ...] = ()  # fnmatch patterns of the lower-case name (or folder/name when they hold a /)
    exact: tuple[str, ...] = ()  # whole names, case kept

    def matches(self, folder: str, name: str) -> bool:
        lower = name.lower()
        return name in self.exact or any(
            fnmatch.fnmatchcase(f"{folder}/{lower}" if "/" in p else lower, p) for p in self.patterns)


TABLE = (
    Kind(CPP, tuple(f"*{s}" for s in (".cu", ".cuh", ".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx",
                                      ".h++", ".inl", ".ipp", ".tpp", ".hip"))),
    Kind("cmake", ("*.cmake",), exact=("CMakeLists.txt",)),
    Kind("make", ("*.mk", "*.make"), exact=("Makefile", "makefile", "GNUmakefile")),
    Kind("python", ("*.py", "*.pyw")),
    Kind("pyproject", ("pyproject.toml",)),
    Kind("requirements", ("*requirements*.txt", "*requirements*.in", "constraints*.txt", "constraints*.in",
                          "requirements/*.txt", "requirements/*.in")),
    Kind("docker", ("dockerfile", "containerfile", "dockerfile.*", "containerfile.*", "*.dockerfile",
                    "*.containerfile", "dockerfile-*", "dockerfile_*", "containerfile-*", "containerfile_*")),
    Kind("yaml", ("*.yml", "*.yaml")),
    Kind("shell", ("*.sh", "*.bash", ".envrc")),
    Kind("dotenv", (".env", ".env.*", "*.env")),
)
RULE_KINDS = tuple(k.name for k in TABLE if k.name != CPP)  # the kinds file rules handle (migrate/contexts.py)
CPP_SUFFIXES = frozenset(p[1:] for p in TABLE[0].patterns)


def kind_of(rel: str) -> str | None:
    """The kind of the file at `rel` (forward slashes) by its name and folder: cpp or a rule kind; None otherwise."""
    folders, _, name = rel.rpartition("/")
    folder = folders.rpartition("/")[2]
    return next((k.name for k in TABLE if k.matches(folder, name)), None)


def rule_kind(rel: str) -> str | None:
    """The kind of a file that file rules handle, by its path; None for C++/CUDA and every other file."""
    kind = kind_of(rel)
    return kind if kind != CPP else None


def is_cpp(path: Path) -> bool:
    return path.suffix.lower() in CPP_SUFFIXES


def sniffed(path: Path) -> str | None:
    """The kind an extension-less file's content gives it: `shell` for a POSIX shell's #! line."""
    try:
        with open(path, "rb") as fh:
            return "shell" if SHELL_SHEBANG.match(fh.read(64)) else None
    except OSError:
        return None


def classify(path: Path, rel: str) -> str:
    """The kind of the file at `path` (`rel`: its path in the tree): link, special, cpp, a rule kind or other."""
    if path.is_symlink():
        return "link"
    try:
        regular = stat.S_ISREG(path.stat().st_mode)
    except OSError:
        regular = True  # let reading report it
    if not regular:
        return "special"
    kind = kind_of(rel)
    if kind is None and "." not in path.name:
        kind = sniffed(path)
    return kind or "other"
