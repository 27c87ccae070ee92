"""A dependency as every deployment file gives it (migrate/deploy/dependencies.py for requirements files and
pyproject.toml, migrate/deploy/pip_commands.py for `pip install` lines): its name, pinned versions and the bytes to
drop it (Dependency), a package-index URL (IndexUrl), and one PEP 508 string read into a Dependency (pep508)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from migrate.deploy.rocm_wheels import normalise

INDEX_OPTIONS = {"-i", "--index-url", "--extra-index-url", "-f", "--find-links"}
_PEP508 = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*")
_PIN = re.compile(r"(===?|~=|!=|<=|>=|<|>)\s*([^\s,;\"']+)")


@dataclass(frozen=True)
class Version:
    operator: str  # "==", ">=", ... ("" for a bare poetry version)
    text: str
    start: int  # bytes of the version text in the file
    end: int


@dataclass(frozen=True)
class Dependency:
    name: str  # as written
    start: int  # bytes of the name
    end: int
    versions: tuple[Version, ...]
    url: str  # a direct reference (`name @ URL`), "" otherwise
    url_start: int
    drop: tuple[int, int]  # bytes to delete to drop the dependency
    whole: tuple[int, int]  # the dependency's text (a requirement line's requirement, a pyproject string's content)
    group: int = -1  # the `pip install` command (or requirements line) it belongs to; -1: the file as a whole

    @property
    def key(self) -> str:
        return normalise(self.name)

    def pinned(self) -> str | None:
        """The exactly pinned version (`==`, `===`, or a bare poetry version), if any."""
        for v in self.versions:
            if v.operator in ("==", "===", "") and not v.text.endswith("*"):
                return v.text
        return None


@dataclass(frozen=True)
class IndexUrl:
    url: str
    start: int  # bytes of the URL text
    end: int
    group: int = -1  # the `pip install` command (or requirements line with a requirement) it belongs to; -1: the file



def pep508(text: str, start: int, drop: tuple[int, int], group: int = -1) -> Dependency | None:
    match = _PEP508.match(text)
    if not match:
        return None
    rest_at = match.end()
    rest = text[rest_at:]

    def at(char: int) -> int:  # character offset in text -> byte offset in the file
        return start + len(text[:char].encode("utf-8", "surrogateescape"))

    url, url_start = "", -1
    versions = []
    if rest.startswith("@"):
        url_text = rest[1:].split(";", 1)[0]
        stripped = url_text.strip()
        url = stripped
        url_start = at(rest_at + 1 + url_text.index(stripped)) if stripped else -1
    else:
        spec = rest.split(";", 1)[0]
        for pin in _PIN.finditer(spec):
            begin = rest_at + pin.start(2)
            versions.append(Version(pin[1], pin[2], at(begin), at(begin + len(pin[2]))))
    name_start = at(match.start(1))
    return Dependency(match[1], name_start, at(match.end(1)), tuple(versions), url, url_start, drop,
                      (start, at(len(text.rstrip()))), group)
