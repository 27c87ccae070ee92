"""Find the rules: import every module of the package migrate.rules (rules/) by name and collect the concrete
Rule subclasses.

Built from a package name, never from an import-time global list, so tests can load a registry of their own.
"""
from __future__ import annotations

import importlib
import importlib.util
import inspect
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from migrate.packs import RULES_PACKAGE, PackError
from migrate.rule import CppRule, FileRule, Rule


@dataclass(frozen=True)
class Registry:
    rules: tuple[type[Rule], ...]

    def by_code(self, code: str) -> type[Rule] | None:
        return next((r for r in self.rules if r.code == code), None)

    def cpp(self) -> list[type[CppRule]]:
        return [r for r in self.rules if issubclass(r, CppRule)]

    def for_kind(self, kind: str) -> list[type[FileRule]]:
        """The rules of one non-C++ file kind ("cmake", "make", ...), in phase order."""
        return [r for r in self.rules if issubclass(r, FileRule) and kind in r.kinds()]


def rule_modules(package: str) -> list[str]:
    """The names of the public modules of `package` and its sub-packages (modules whose name starts with `_`
    are helpers, not rules), in a fixed order."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise PackError(f"{package} is no package of rules")
    names = []
    for folder in map(Path, spec.submodule_search_locations):
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if not any(part.startswith("_") for part in parts):
                names.append(".".join((package, *parts)))
    return sorted(names)


def load_registry(package: str = RULES_PACKAGE) -> Registry:
    """Import every rule module of `package` by its name (so tracebacks, coverage and `python -m` name it as
    installed) and collect the concrete Rule subclasses; a code used twice is an error."""
    found: dict[str, type[Rule]] = {}
    for name in rule_modules(package):
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if not issubclass(cls, Rule) or cls.__module__ != module.__name__ or "code" not in cls.__dict__:
                continue
            if cls.code in found:
                raise PackError(f"{module.__file__}: rule code {cls.code} is already used by "
                                f"{found[cls.code].__module__}.{found[cls.code].__name__}")
            found[cls.code] = cls
    rules = sorted(found.values(), key=lambda r: (r.phase, r.code))
    return Registry(tuple(rules))


@lru_cache(maxsize=4)
def default_registry(package: str = RULES_PACKAGE) -> Registry:
    return load_registry(package)
