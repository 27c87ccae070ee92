"""Per-kernel measurements of a benchmark: the launches a profiler saw (migrate/bench/ncu.py,
migrate/bench/rocprof.py), grouped by kernel into `Kernel` records of the results file (format 2, docs/bench.md).

A kernel is known by the demangled name its profiler prints. Nsight Compute and rocprofv3 print the same C++ name
in different styles (`void k<256>(const float *, int)` against `k<256>(float const*, int)`, or no parameters
at all), so kernels are paired across files by `key`: the name without a leading `void`, without the parameter
list, and without spaces:

    >>> key("void reduceSum<256>(const float *, float *, int)")
    'reduceSum<256>'
    >>> key("saxpy(int, float, float const*, float*)")
    'saxpy'
    >>> key("(anonymous namespace)::fill(float*)")
    '(anonymousnamespace)::fill'
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Launch:
    """One kernel launch as a profiler reports it; grid in blocks and block in threads (x, y, z), or None."""
    name: str
    duration_ns: float
    grid: tuple[int, int, int] | None = None
    block: tuple[int, int, int] | None = None


@dataclass(frozen=True)
class Kernel:
    """Every launch of one kernel over a benchmark's profiled runs, in launch order."""
    name: str  # demangled, as the profiler printed it (the first spelling met)
    key: str  # what pairs it with a kernel of another file: see key()
    runs: int  # profiled runs that succeeded (the launches are theirs)
    durations_ns: tuple[float, ...]  # one per launch
    configs: tuple[tuple[tuple[int, int, int] | None, tuple[int, int, int] | None, int], ...]  # (grid, block, launches)

    @property
    def launches(self) -> int:
        return len(self.durations_ns)

    @property
    def total_ns(self) -> float:
        return sum(self.durations_ns)

    def as_dict(self) -> dict:
        return {"name": self.name, "key": self.key, "runs": self.runs, "launches": self.launches,
                "durations_ns": list(self.durations_ns),
                "configs": [{"grid": None if g is None else list(g), "block": None if b is None else list(b),
                             "launches": n} for g, b, n in self.configs]}

    @staticmethod
    def from_dict(d: dict) -> "Kernel":
        return Kernel(name=d["name"], key=d["key"], runs=d["runs"],
                      durations_ns=tuple(float(x) for x in d["durations_ns"]),
                      configs=tuple((_dims(c["grid"]), _dims(c["block"]), c["launches"]) for c in d["configs"]))


def _dims(value) -> tuple[int, int, int] | None:
    return None if value is None else (int(value[0]), int(value[1]), int(value[2]))


def key(name: str) -> str:
    """The pairing key of a demangled kernel name (see the module's docstring)."""
    text = name.strip()
    if text.startswith("void "):
        text = text[len("void "):]
    if text.endswith(")"):
        depth = 0
        for i in range(len(text) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(text[i], 0)
            if depth == 0:
                if i > 0:  # "(anonymous namespace)::f" alone is a name, not a parameter list
                    text = text[:i]
                break
    return "".join(text.split())


def group(runs: list[list[Launch]]) -> tuple[Kernel, ...]:
    """The kernels of a benchmark from the launches of each profiled run that succeeded, in order of first launch.
    Two names with one key (overloads that differ in their parameters only) stay apart under their full names,
    spaces removed."""
    keys: dict[str, set[str]] = {}
    for launches in runs:
        for launch in launches:
            keys.setdefault(key(launch.name), set()).add("".join(launch.name.split()))
    order: list[str] = []
    names: dict[str, str] = {}
    durations: dict[str, list[float]] = {}
    configs: dict[str, dict] = {}
    for launches in runs:
        for launch in launches:
            k = key(launch.name)
            if len(keys[k]) > 1:
                k = "".join(launch.name.split())
            if k not in names:
                order.append(k)
                names[k] = launch.name
                durations[k], configs[k] = [], {}
            durations[k].append(launch.duration_ns)
            shape = (launch.grid, launch.block)
            configs[k][shape] = configs[k].get(shape, 0) + 1
    return tuple(Kernel(names[k], k, len(runs), tuple(durations[k]),
                        tuple((g, b, n) for (g, b), n in configs[k].items())) for k in order)
