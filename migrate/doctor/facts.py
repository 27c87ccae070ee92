"""Facts the doctor's checks read off a `Probe`: the HIP version, the GPUs each ROCm tool lists, what an override
or a group membership means."""
from __future__ import annotations

import re

from migrate.doctor import parsers
from migrate.doctor import probe as keys
from migrate.doctor.model import Gpu
from migrate.doctor.probe import Probe


def hipconfig_full(p: Probe) -> parsers.HipConfig:
    out = p.output(keys.HIPCONFIG_FULL)
    return parsers.parse_hipconfig_full(out.stdout if out is not None else "")


def hip_version(p: Probe) -> str | None:
    out = p.output(keys.HIPCONFIG_VERSION)
    if out is not None and out.ok and parsers.parse_first_word(out.stdout):
        return parsers.parse_first_word(out.stdout)
    return hipconfig_full(p).hip_version


def rocminfo_version(p: Probe) -> str:
    """rocminfo has no --version: the Debian package's version, else the ROCm release."""
    out = p.output(keys.ROCMINFO_PACKAGE)
    if out is not None and out.ok and out.stdout.strip():
        return f"package {out.stdout.strip()}"
    if p.rocm_release:
        return f"ROCm {p.rocm_release}"
    return "version not reported"


def rocm_smi_gpus(p: Probe) -> tuple[Gpu, ...]:
    out = p.output(keys.ROCM_SMI_PRODUCT_JSON)
    gpus = parsers.parse_rocm_smi_json(out.stdout) if out is not None and out.ok else ()
    if not gpus:
        out = p.output(keys.ROCM_SMI_PRODUCT)
        gpus = parsers.parse_rocm_smi_product(out.stdout) if out is not None and out.ok else ()
    return gpus


def amd_smi_gpus(p: Probe) -> tuple[Gpu, ...]:
    out = p.output(keys.AMD_SMI_ASIC)
    return parsers.parse_amd_smi_asic(out.stdout) if out is not None and out.ok else ()


def found_gpus(p: Probe) -> tuple[Gpu, ...]:
    """The AMD GPUs, from the first tool that lists any: rocminfo's GPU agents, then rocm-smi, then amd-smi."""
    out = p.output(keys.ROCMINFO)
    if out is not None and out.ok:
        gpus = parsers.rocminfo_gpus(parsers.parse_rocminfo(out.stdout))
        if gpus:
            return gpus
    return rocm_smi_gpus(p) or amd_smi_gpus(p)


def describe(gpus: tuple[Gpu, ...]) -> str:
    """'2 AMD GPUs: 2 x AMD Instinct MI210 (gfx90a)'."""
    labels = list(dict.fromkeys(g.label for g in gpus))
    counted = ", ".join(f"{sum(1 for g in gpus if g.label == label)} x {label}" for label in labels)
    return f"{len(gpus)} AMD GPU{'s' if len(gpus) != 1 else ''}: {counted}"


def gfx_of_override(value: str) -> str | None:
    """HSA_OVERRIDE_GFX_VERSION's 'major.minor.stepping' as a gfx name: 10.3.0 -> gfx1030, 9.0.10 -> gfx90a."""
    m = re.fullmatch(r"\s*(\d+)\.(\d+)\.(\d+)\s*", value)
    if not m:
        return None
    major, minor, stepping = (int(x) for x in m.groups())
    return f"gfx{major}{minor:x}{stepping:x}"


def group_fix(p: Probe) -> str:
    existing = [g for g in keys.ACCESS_GROUPS if g in p.user.existing_groups] or list(keys.ACCESS_GROUPS)
    missing = [g for g in existing if g not in p.user.groups] or existing
    return f"sudo usermod -aG {','.join(missing)} $USER"


def missing_access(node) -> str:
    if not node.readable and not node.writable:
        return "read or write"
    return "read" if not node.readable else "write"
