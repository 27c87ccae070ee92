"""--select / --ignore: rule codes or code prefixes (`HAZ`, `MAP00`, `PY009`).

The most specific entry wins, as in ruff: `--select HAZ --ignore HAZ001` keeps every hazard but HAZ001, and
`--ignore HAZ --select HAZ003` keeps only HAZ003 of them. Without --select every code is selected. An entry that
is no prefix of any known code is a usage error (a typo must not silently select nothing).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from migrate.errors import UsageError


def _normalise(entries: Iterable[str]) -> tuple[str, ...]:
    out = []
    for entry in entries:
        out.extend(p.strip().upper() for p in entry.split(",") if p.strip())
    return tuple(out)


@dataclass(frozen=True)
class Selection:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    @classmethod
    def of(cls, select: Iterable[str], ignore: Iterable[str], known: Iterable[str] | None = None) -> "Selection":
        selection = cls(_normalise(select), _normalise(ignore))
        if known is not None:
            codes = set(known)
            for option, entries in (("--select", selection.select), ("--ignore", selection.ignore)):
                for entry in entries:
                    if entry != "ALL" and not any(code.startswith(entry) for code in codes):
                        raise UsageError(f"{option} {entry}: no rule code starts with it (`hipmigrate rules` lists them)")
        return selection

    @staticmethod
    def _best(code: str, entries: tuple[str, ...]) -> int:
        """Length of the longest entry that is a prefix of code (ALL counts as 0), -1 when none is."""
        best = -1
        for entry in entries:
            if entry == "ALL":
                best = max(best, 0)
            elif code.startswith(entry):
                best = max(best, len(entry))
        return best

    def selected(self, code: str) -> bool:
        chosen = self._best(code, self.select) if self.select else 0
        return chosen >= 0 and chosen > self._best(code, self.ignore)
