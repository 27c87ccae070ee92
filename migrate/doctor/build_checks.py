"""The doctor's checks of the build toolchain: hipcc and every HIP toolchain found, hipconfig, clang, the platform,
nvcc, hipify-perl and the targets (checks.py puts them first in the report)."""
from __future__ import annotations

import re

from migrate import targets as amd_targets
from migrate import toolchain
from migrate.doctor import parsers
from migrate.doctor import probe as keys
from migrate.doctor.facts import hip_version, hipconfig_full
from migrate.doctor.model import Area, Check, Status
from migrate.doctor.probe import Probe

OK, WARNING, ERROR, INFO = Status.OK, Status.WARNING, Status.ERROR, Status.INFO
BUILD = Area.BUILD

Targets = tuple[str, ...]

PLATFORM_FIX = "export HIP_PLATFORM=amd"
AMD_PLATFORMS = ("amd", "hcc")  # "hcc" is the old spelling hipcc still accepts
NVIDIA_PLATFORMS = ("nvidia", "nvcc")


def check_hipcc(p: Probe, targets: Targets) -> Check:
    path = p.tools.get("hipcc")
    if path is None:
        return Check("hipcc", ERROR, "hipcc not found (looked on PATH, in $ROCM_PATH/bin and /opt/rocm/bin): "
                     "nothing can be compiled for AMD", toolchain.INSTALL_HINT)
    version = hip_version(p)
    return Check("hipcc", OK, f"{path}, HIP {version}" if version else f"{path}, HIP version unknown (no hipconfig)")


def check_toolchains(p: Probe, targets: Targets) -> tuple[Check, ...]:
    """One line per HIP toolchain found: its version, where it is, and the targets it compiles for (probed)."""
    out = []
    for tc in p.toolchains:
        label = f"toolchain HIP {tc.hip_version or '?'}" + (" (default)" if tc.default else "")
        compiles = ", ".join(tc.compiles) or "no probed target"
        detail = (f"{tc.hipcc} ({toolchain.provenance(tc.origin)}; {tc.clang or 'clang unknown'}); compiles for {compiles}"
                  + (f"; not for {', '.join(tc.rejects)}" if tc.rejects else ""))
        if tc.default:
            detail += "; used by run, scan and build unless --hip-version or --hipcc picks another"
        out.append(Check(label, OK if tc.compiles else WARNING, detail,
                         None if tc.compiles else "check the toolchain's device libraries (rocm-device-libs)"))
    return tuple(out)


def check_hipconfig(p: Probe, targets: Targets) -> Check:
    path = p.tools.get("hipconfig")
    if path is None:
        return Check("hipconfig", WARNING, "hipconfig not found: HIP's version, paths and platform cannot be read",
                     toolchain.INSTALL_HINT)
    out = p.output(keys.HIPCONFIG_VERSION)
    if out is None or not out.ok:
        return Check("hipconfig", WARNING, f"{path} --version failed: {out.first_line() if out else 'not run'}",
                     toolchain.INSTALL_HINT)
    full = hipconfig_full(p)
    parts = [f"HIP {parsers.parse_first_word(out.stdout)}"]
    parts += [f"{label} {value}" for label, value in (("HIP_PATH", full.hip_path), ("ROCM_PATH", full.rocm_path),
                                                      ("runtime", full.runtime)) if value]
    if p.rocm_release:
        parts.append(f"ROCm release {p.rocm_release}")
    return Check("hipconfig", OK, f"{path}: " + ", ".join(parts))


def check_clang(p: Probe, targets: Targets) -> Check:
    if "hipconfig" not in p.tools:
        return Check("hip-clang", INFO, "not checked: no hipconfig to name the clang behind hipcc")
    full = hipconfig_full(p)
    if full.clang is None:
        return Check("hip-clang", WARNING, "hipconfig --full names no clang: hipcc may not find its compiler",
                     toolchain.INSTALL_HINT)
    return Check("hip-clang", OK, f"{full.clang}" + (f" in {full.clang_dir}" if full.clang_dir else ""))


def check_platform(p: Probe, targets: Targets) -> Check:
    if "hipconfig" not in p.tools:
        return Check("hip-platform", INFO, "not checked: no hipconfig")
    full = hipconfig_full(p)
    if full.platform in AMD_PLATFORMS:
        runtime = f", runtime {full.runtime}" if full.runtime else ""
        return Check("hip-platform", OK, f"with HIP_PLATFORM=amd, hipconfig reports platform {full.platform}{runtime}")
    return Check("hip-platform", ERROR, f"even with HIP_PLATFORM=amd, hipconfig reports platform "
                 f"{full.platform or 'nothing'}: this HIP cannot build for AMD GPUs", toolchain.INSTALL_HINT)


def check_nvcc(p: Probe, targets: Targets) -> Check:
    """nvcc on PATH makes hipcc pick the NVIDIA platform unless HIP_PLATFORM says amd."""
    nvcc = p.tools.get("nvcc")
    out = p.output(keys.HIPCONFIG_PLATFORM)
    picked = parsers.parse_first_word(out.stdout) if out is not None and out.ok else None
    chosen = p.env.get("HIP_PLATFORM")
    if chosen in NVIDIA_PLATFORMS:
        return Check("nvcc", INFO, f"HIP_PLATFORM={chosen} selects NVIDIA (see env HIP_PLATFORM)")
    if chosen in AMD_PLATFORMS:
        where = f"nvcc is on PATH ({nvcc}), but " if nvcc else ""
        return Check("nvcc", OK, f"{where}HIP_PLATFORM={chosen} makes hipcc build for AMD")
    if picked in NVIDIA_PLATFORMS:
        why = f"nvcc is on PATH ({nvcc}), so" if nvcc else "without HIP_PLATFORM"
        return Check("nvcc", WARNING, f"{why} hipcc picks the NVIDIA platform (hipconfig --platform: {picked}) "
                     "unless HIP_PLATFORM=amd; hipmigrate build sets it itself, your own make or cmake runs do not",
                     PLATFORM_FIX)
    if nvcc:
        return Check("nvcc", INFO, f"nvcc is on PATH ({nvcc}); hipconfig --platform still says "
                     f"{picked or 'nothing'}; setting HIP_PLATFORM=amd makes the choice explicit", PLATFORM_FIX)
    return Check("nvcc", OK, "no nvcc on PATH: hipcc picks AMD by itself")


def check_hipify_perl(p: Probe, targets: Targets) -> Check:
    """hipify-perl, which `--engine hipify-perl` runs: optional (the built-in engine needs nothing), so its absence
    is information; a HIPIFY_PERL that names no file, or a script perl cannot run, is a warning."""
    env = p.env.get("HIPIFY_PERL")
    if p.hipify_perl is None:
        if env:
            return Check("hipify-perl", WARNING, f"HIPIFY_PERL={env} is not a file, and nothing else is searched while "
                         "it is set: --engine hipify-perl fails", "point HIPIFY_PERL at hipify-perl, or unset it")
        return Check("hipify-perl", INFO, "not found (looked on PATH, in $ROCM_PATH/bin and in "
                     f"{toolchain.TOOLCHAIN}/bin): --engine hipify-perl is unavailable; the built-in engine needs "
                     "nothing", "sudo scripts/install-toolchain installs it (or ROCm's hipify-perl package)")
    out = p.output(keys.HIPIFY_PERL_VERSION)
    if out is None or not out.ok:
        return Check("hipify-perl", WARNING, f"{p.hipify_perl} does not run with perl: "
                     f"{out.first_line() if out else 'not run'}", "install perl (apt-get install perl)")
    version = re.search(r"\d+\.\d+(?:\.\d+)?", out.text)
    return Check("hipify-perl", OK, f"{p.hipify_perl}, HIP {version.group() if version else 'version unknown'} "
                 "(for --engine hipify-perl)")


def check_targets(p: Probe, targets: Targets) -> tuple[Check, ...]:
    if "hipcc" not in p.tools:
        return tuple(Check(f"target {t}", INFO, "not checked: no hipcc") for t in targets)
    checks = []
    for t in targets:
        accepted = p.accepted.get(t)
        if accepted is None:
            checks.append(Check(f"target {t}", INFO, "not probed"))
        elif accepted:
            checks.append(Check(f"target {t}", OK, f"hipcc compiles device code for {t}"))
        else:
            clang = hipconfig_full(p).clang if "hipconfig" in p.tools else None
            by = f"hipcc (HIP {hip_version(p) or '?'}" + (f", {clang})" if clang else ")")
            checks.append(Check(f"target {t}", ERROR, f"{by} cannot compile a one-line kernel for {t}",
                                f"drop --offload-arch={t}, or install {amd_targets.needs(t)}"))
    return tuple(checks)
