"""Find the rules: import every .py under rules/ and collect the concrete Rule subclasses.

Built from a path, never from an import-time global list, so tests can load a registry of their own.
"""
from __future__ import annotations

import importlib.util
import inspect
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from migrate.packs import PackError, rules_root
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


def _import(path: Path, root: Path):
    name = "hipmigrate_rules." + ".".join(path.relative_to(root).with_suffix("").parts)
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def load_registry(root: Path) -> Registry:
    found: dict[str, type[Rule]] = {}
    for path in sorted(root.rglob("*.py")):
        if path.name.startswith("_"):
            continue
        module = _import(path, root)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if not issubclass(cls, Rule) or cls.__module__ != module.__name__ or "code" not in cls.__dict__:
                continue
            if cls.code in found:
                raise PackError(f"{path}: rule code {cls.code} is already used by {found[cls.code].__name__}")
            found[cls.code] = cls
    rules = sorted(found.values(), key=lambda r: (r.phase, r.code))
    return Registry(tuple(rules))


@lru_cache(maxsize=4)
def default_registry(root: str | None = None) -> Registry:
    return load_registry(Path(root) if root else rules_root())
