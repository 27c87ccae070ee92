"""The AMD GPU targets hipmigrate knows (rules/data/amd_targets.toml), and the check of --offload-arch values."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache

from migrate.errors import UsageError
from migrate.packs import rules_root

FEATURES = re.compile(r"(?::(?:xnack|sramecc)[+-])*")


@dataclass(frozen=True)
class Target:
    name: str  # gfx942
    products: str
    wave: int  # the default wavefront size: 64 on GCN/CDNA, 32 on RDNA
    since: str = ""  # the first ROCm release that supports it, "major.minor" ("" = not recorded)
    image: bool = True  # whether HIP's texture and surface functions compile for it (rule HAZ029)

    def needs(self) -> str:
        """What to install for this target, as a clause: "ROCm 7.2 or later, whose clang supports gfx1250"."""
        if self.since:
            return f"ROCm {self.since} or later, whose clang supports {self.name}"
        return f"a HIP/ROCm whose clang supports {self.name}"


@lru_cache(maxsize=1)
def known() -> dict[str, Target]:
    data = tomllib.loads((rules_root() / "data" / "amd_targets.toml").read_text(encoding="utf-8"))
    return {name: Target(name, row["products"], row["wave"], row.get("since", ""), row.get("image", True))
            for name, row in data["targets"].items()}


def without_images(targets) -> list[str]:
    """The targets (feature suffixes allowed) for which HIP's texture and surface functions do not compile."""
    table = known()
    return [t for t in targets if base(t) in table and not table[base(t)].image]


def needs(target: str) -> str:
    """What to install for `target` (feature suffixes allowed), as Target.needs says; any name is accepted."""
    found = known().get(base(target))
    return found.needs() if found else Target(base(target), "", 0).needs()


def base(target: str) -> str:
    """The processor of a target with feature suffixes: gfx90a:xnack+ -> gfx90a."""
    return target.split(":", 1)[0]


def check(values: tuple[str, ...] | list[str], option: str = "--offload-arch") -> tuple[str, ...]:
    """The values, each a known AMD target (with optional :xnack+/:sramecc- suffixes); a usage error names the
    bad one and the known targets."""
    table = known()
    for value in values:
        name, _, rest = value.partition(":")
        if name in table and FEATURES.fullmatch(f":{rest}" if rest else ""):
            continue
        hint = " (an NVIDIA architecture: AMD targets are gfx names)" if re.match(r"(sm|compute)_\d+", value) else ""
        raise UsageError(f"{option} {value!r}: not an AMD GPU target{hint}; known targets: {', '.join(table)} "
                         "(optionally with :xnack+/- or :sramecc+/-)")
    return tuple(values)


def defaults_for(hip_version: str | None) -> tuple[str, ...]:
    """The targets to build for when none is given: MI300X (gfx942) from HIP 6 on; MI200 and the first MI300
    target (gfx90a, gfx940) for HIP 5.x, whose clang cannot compile for gfx942."""
    major = int(hip_version.split(".")[0]) if hip_version and hip_version.split(".")[0].isdigit() else 0
    return ("gfx942",) if major >= 6 else ("gfx90a", "gfx940")
