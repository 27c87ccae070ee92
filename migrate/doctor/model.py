"""What `hipmigrate doctor` finds: one `Check` per question asked of the machine, and a `Summary` that answers
the two questions users have: can I build for AMD here, and can I run on an AMD GPU here."""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Status(str, Enum):
    OK = "ok"
    WARNING = "warning"
    ERROR = "error"
    INFO = "info"


class Area(str, Enum):
    """What a failed check stands in the way of: compiling for AMD, or running on an AMD GPU."""
    BUILD = "build"
    RUN = "run"


@dataclass(frozen=True)
class Check:
    name: str  # stable, short: "hipcc", "target gfx90a", "/dev/kfd", "env HIP_PLATFORM"
    status: Status
    detail: str  # what was found, one sentence
    fix: str | None = None  # one command or instruction; None when nothing needs doing
    area: Area = Area.BUILD

    @property
    def blocks_build(self) -> bool:
        return self.status is Status.ERROR and self.area is Area.BUILD


@dataclass(frozen=True)
class Gpu:
    """One AMD GPU as a tool reported it."""
    index: int
    gfx: str | None  # "gfx90a"; None when the tool does not say
    name: str | None  # marketing name, "AMD Instinct MI210"
    compute_units: int | None
    source: str  # the tool: "rocminfo", "rocm-smi", "amd-smi"

    @property
    def label(self) -> str:
        return f"{self.name or 'AMD GPU'} ({self.gfx or 'gfx unknown'})"


@dataclass(frozen=True)
class ToolchainInfo:
    """One HIP toolchain found on the machine, with the AMD targets it was probed for."""
    hipcc: str
    hip_version: str | None  # major.minor
    full_version: str | None  # as hipconfig prints it
    clang: str | None
    origin: str  # where it was found (PATH, hipmigrate, /opt/rocm-6.4.0, --hipcc, ...)
    compiles: tuple[str, ...]  # targets a one-line kernel compiled for
    rejects: tuple[str, ...]  # targets it failed for
    default: bool = False  # the toolchain used when none is chosen (the newest)


@dataclass(frozen=True)
class Summary:
    can_build: bool
    can_run: bool
    build_note: str
    run_note: str
    targets: tuple[str, ...]
    gpus: tuple[Gpu, ...]

    @property
    def message(self) -> str:
        return f"{self.build_note} {self.run_note}"


@dataclass(frozen=True)
class DoctorReport:
    checks: tuple[Check, ...]
    summary: Summary
    toolchains: tuple[ToolchainInfo, ...] = ()

    def counts(self) -> dict[str, int]:
        return {s.value: sum(1 for c in self.checks if c.status is s) for s in Status}

    def check(self, name: str) -> Check:
        """The check called `name` (KeyError without one)."""
        for c in self.checks:
            if c.name == name:
                return c
        raise KeyError(name)
