"""The output formats: every command that prints (run, scan, diff, check, report, bench, compare, doctor, build) picks
its renderer here.

One module per format in this package, each with `FORMAT = Format(name, summary, views)`: `views` maps what the
format can show to a pure function `render(model, context) -> str`:

| view | model | commands |
|---|---|---|
| migration | migrate.report.model.Migration | run, scan, diff |
| check | migrate.check.result.CheckResult | check |
| report | migrate.report.model.Report | report |
| compare | migrate.stages.bench.CompareResult | compare |
| doctor | migrate.doctor.DoctorReport | doctor |
| build | migrate.model.BuildResult | build |
| kernels | migrate.kernels.model.KernelDiff | build --kernels |
| bench | migrate.bench.results.Results | bench |

Adding a format is one file here (or `register(Format(...))` from a plug-in); each command offers the formats that
render its view, in `rank` order.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Callable

from migrate.errors import UsageError

VIEWS = ("migration", "check", "report", "compare", "doctor", "build", "kernels", "bench")
CODED = ("migration", "check", "report")  # the views whose renderers name codes (rules, titles): given Context.codes


@dataclass(frozen=True)
class Context:
    """What a renderer may need besides its model: the command, --statistics, the terminal it writes to (text
    formats: its width, and whether it takes colours), and for the CODED views the code table (migrate.codes)."""

    command: str = ""
    statistics: bool = False
    width: int = 160
    color: bool = False
    codes: dict = field(default_factory=dict)  # code -> migrate.codes.Code


@dataclass(frozen=True)
class Format:
    name: str  # the --output-format value
    summary: str  # one line for --help
    views: dict[str, Callable[[object, Context], str]] = field(default_factory=dict)
    rank: int = 100  # the order of the choices


_table: dict[str, Format] = {}


def table() -> dict[str, Format]:
    """Every format: the modules of this package, found once, and those registered since."""
    if not _table:
        for info in pkgutil.iter_modules(__path__):
            found = getattr(importlib.import_module(f"{__name__}.{info.name}"), "FORMAT", None)
            if isinstance(found, Format):
                _table.setdefault(found.name, found)
    return _table


def register(fmt: Format) -> None:
    """Add (or replace) a format."""
    table()[fmt.name] = fmt


def names(view: str) -> tuple[str, ...]:
    """The formats that render `view`, in rank order."""
    return tuple(f.name for f in sorted(table().values(), key=lambda f: (f.rank, f.name)) if view in f.views)


def render(name: str, view: str, model, context: Context = Context()) -> str:
    fmt = table().get(name)
    if fmt is None or view not in fmt.views:
        raise UsageError(f"--output-format {name!r}: choose one of {', '.join(names(view))}")
    return fmt.views[view](model, context)
