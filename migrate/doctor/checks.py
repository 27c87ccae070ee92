"""The doctor's checks. Each is a small function of (probe, targets) that returns one `Check`, or a tuple of them
where it judges several things of a kind (one per target, one per GPU model). They judge the facts gathered in a
`Probe` and never touch the machine, so a test can describe any machine by building a Probe.

`CHECKS` is their order in the report: the build toolchain, the targets, ROCm's tools, the GPUs, device access,
the runtime, PyTorch, then the environment variables.
"""
from __future__ import annotations

from typing import Callable, Iterable

from migrate.doctor import parsers
from migrate.doctor import probe as keys
from migrate.doctor.build_checks import (AMD_PLATFORMS, NVIDIA_PLATFORMS, PLATFORM_FIX, Targets, check_clang,
                                         check_hipcc, check_hipconfig, check_hipify_perl, check_nvcc,
                                         check_platform, check_targets, check_toolchains)
from migrate.doctor.facts import (amd_smi_gpus, describe, found_gpus, gfx_of_override, group_fix, hip_version,
                                  missing_access, rocm_smi_gpus, rocminfo_version)
from migrate.doctor.model import Area, Check, DoctorReport, Status, Summary
from migrate.doctor.probe import Probe

OK, WARNING, ERROR, INFO = Status.OK, Status.WARNING, Status.ERROR, Status.INFO
BUILD, RUN = Area.BUILD, Area.RUN

CheckFn = Callable[[Probe, Targets], "Check | tuple[Check, ...]"]

NO_GPU_FIX = ("run on a machine with an AMD GPU and the amdgpu kernel driver "
              "(in a container: --device=/dev/kfd --device=/dev/dri)")
DRIVER_FIX = "load the amdgpu kernel driver (sudo modprobe amdgpu) on a machine with an AMD GPU"
TORCH_FIX = ("pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/rocm6.4 "
             "(the rocmX.Y index that matches your ROCm)")
RUNTIME_FIX = "install the HIP runtime: apt-get install libamdhip64-5 (Debian 12), or ROCm's hip-runtime-amd"

# Consumer RDNA GPUs missing from ROCm's support list, and the supported ISA that HSA_OVERRIDE_GFX_VERSION is
# commonly set to for them (RDNA2 -> gfx1030, RDNA3 -> gfx1100). Information only: the override is unsupported.
CONSUMER_OVERRIDES = {**{f"gfx103{n}": "10.3.0" for n in range(1, 7)}, "gfx1102": "11.0.0", "gfx1103": "11.0.0"}


# --- ROCm's diagnostic tools ------------------------------------------------------------------------------------

def check_rocminfo(p: Probe, targets: Targets) -> Check:
    path = p.tools.get("rocminfo")
    if path is None:
        return Check("rocminfo", WARNING, "rocminfo not found: it is the first tool to ask whether the ROCm runtime "
                     "sees a GPU", "apt-get install rocminfo (Debian/Ubuntu), or ROCm's rocminfo package", RUN)
    version = rocminfo_version(p)
    out = p.output(keys.ROCMINFO)
    info = parsers.parse_rocminfo(out.text if out else "")
    if out is not None and out.ok and info.gpus:
        parts = [f"HSA runtime {info.runtime_version}"] if info.runtime_version else []
        if info.kfd_version:
            parts.append(f"amdgpu driver {info.kfd_version}")
        parts.append(f"{len(info.gpus)} GPU agent{'s' if len(info.gpus) != 1 else ''}")
        return Check("rocminfo", OK, f"{path} ({version}): " + ", ".join(parts), area=RUN)
    if out is not None and out.ok:
        return Check("rocminfo", WARNING, f"{path} ({version}) lists no GPU agent", DRIVER_FIX, RUN)
    said = info.message or (out.first_line() if out else "") or "no output"
    return Check("rocminfo", WARNING, f"{path} ({version}) fails: {said}", DRIVER_FIX, RUN)


def check_rocm_smi(p: Probe, targets: Targets) -> Check:
    path = p.tools.get("rocm-smi")
    if path is None:
        return Check("rocm-smi", INFO, "rocm-smi not installed (optional: rocminfo or amd-smi also list GPUs)",
                     "apt-get install rocm-smi (Debian/Ubuntu), or ROCm's rocm-smi-lib", RUN)
    out = p.output(keys.ROCM_SMI_VERSION)
    fields = parsers.parse_version_fields(out.text) if out is not None and out.ok else {}
    if not fields:
        return Check("rocm-smi", WARNING, f"{path} --version failed: {out.first_line() if out else 'not run'}",
                     area=RUN)
    version = ", ".join(f"{label} {value}" for label, value in fields.items() if value)
    gpus = rocm_smi_gpus(p)
    listed = f"lists {len(gpus)} GPU{'s' if len(gpus) != 1 else ''}" if gpus else "lists no GPU"
    return Check("rocm-smi", OK, f"{path}: {version}; {listed}", area=RUN)


def check_amd_smi(p: Probe, targets: Targets) -> Check:
    path = p.tools.get("amd-smi")
    if path is None:
        return Check("amd-smi", INFO, "amd-smi not installed (optional: the successor of rocm-smi, ROCm 6 and later)",
                     "install ROCm's amd-smi-lib package", RUN)
    out = p.output(keys.AMD_SMI_VERSION)
    fields = parsers.parse_version_fields(out.text) if out is not None and out.ok else {}
    if not fields:
        return Check("amd-smi", WARNING, f"{path} version failed: {out.first_line() if out else 'not run'}", area=RUN)
    version = ", ".join(f"{label} {value}" for label, value in fields.items() if value)
    gpus = amd_smi_gpus(p)
    listed = f"lists {len(gpus)} GPU{'s' if len(gpus) != 1 else ''}" if gpus else "lists no GPU"
    return Check("amd-smi", OK, f"{path}: {version}; {listed}", area=RUN)


# --- the GPUs ---------------------------------------------------------------------------------------------------

def check_gpus(p: Probe, targets: Targets) -> Check:
    gpus = found_gpus(p)
    if gpus:
        return Check("gpus", OK, f"{describe(gpus)} (from {gpus[0].source})", area=RUN)
    asked = [t for t in ("rocminfo", "rocm-smi", "amd-smi") if t in p.tools]
    if p.kfd is None:
        why = "no AMD GPU on this machine: no /dev/kfd"
        info = parsers.parse_rocminfo(p.output(keys.ROCMINFO).text) if p.output(keys.ROCMINFO) else None
        if info is not None and info.message:
            why += f", and rocminfo says: {info.message}"
        return Check("gpus", ERROR, why, NO_GPU_FIX, RUN)
    if not asked:
        return Check("gpus", ERROR, "no rocminfo, rocm-smi or amd-smi to list the GPUs behind /dev/kfd",
                     "apt-get install rocminfo (Debian/Ubuntu), or ROCm's rocminfo package", RUN)
    return Check("gpus", ERROR, f"/dev/kfd exists but {', '.join(asked)} list no AMD GPU", DRIVER_FIX, RUN)


def check_gpu_targets(p: Probe, targets: Targets) -> tuple[Check, ...]:
    """Each GPU model against the targets: code built only for other targets does not run on it."""
    gpus = found_gpus(p)
    bases = {t.split(":")[0] for t in targets}
    checks = []
    for gfx in dict.fromkeys(g.gfx for g in gpus):
        same = tuple(g for g in gpus if g.gfx == gfx)
        which = f"GPU {', '.join(str(g.index) for g in same)} ({same[0].name or 'AMD GPU'})"
        if gfx is None:
            checks.append(Check("gpu gfx unknown", INFO, f"{which}: {same[0].source} does not report its gfx "
                                "target", area=RUN))
            continue
        if gfx in bases:
            checks.append(Check(f"gpu {gfx}", OK, f"{which} is {gfx}, one of the targets", area=RUN))
        else:
            checks.append(Check(f"gpu {gfx}", WARNING, f"{which} is {gfx}, not among the targets "
                                f"{', '.join(targets)}: code built for them does not run on it",
                                f"add --offload-arch={gfx}", RUN))
        if gfx in CONSUMER_OVERRIDES:
            override = CONSUMER_OVERRIDES[gfx]
            checks.append(Check(f"gpu {gfx} support", INFO, f"{gfx} is a consumer RDNA GPU that ROCm does not "
                                f"support; some run it with HSA_OVERRIDE_GFX_VERSION={override} (treated as "
                                f"{gfx_of_override(override)}), unsupported and at their own risk", area=RUN))
    return tuple(checks)


# --- device access ----------------------------------------------------------------------------------------------

def check_kfd(p: Probe, targets: Targets) -> Check:
    if p.kfd is None:
        return Check("/dev/kfd", ERROR, "no /dev/kfd: this machine has no AMD GPU, or the amdgpu kernel driver is "
                     "not loaded", NO_GPU_FIX, RUN)
    if p.kfd.usable:
        return Check("/dev/kfd", OK, f"readable and writable by {p.user.name}", area=RUN)
    return Check("/dev/kfd", ERROR, f"{p.user.name} cannot {missing_access(p.kfd)} /dev/kfd", group_fix(p), RUN)


def check_render_nodes(p: Probe, targets: Targets) -> Check:
    if not p.render_nodes:
        return Check("/dev/dri/renderD*", ERROR, "no /dev/dri/renderD* render node", NO_GPU_FIX, RUN)
    names = ", ".join(n.path.rsplit("/", 1)[-1] for n in p.render_nodes)
    blocked = [n for n in p.render_nodes if not n.usable]
    if not blocked:
        return Check("/dev/dri/renderD*", OK, f"{names}: readable and writable by {p.user.name}", area=RUN)
    return Check("/dev/dri/renderD*", ERROR, f"{p.user.name} cannot open "
                 f"{', '.join(n.path for n in blocked)} for reading and writing", group_fix(p), RUN)


def check_groups(p: Probe, targets: Targets) -> Check:
    user = p.user
    if user.is_root:
        return Check("groups", OK, "running as root: the device files need no group membership", area=RUN)
    existing = [g for g in keys.ACCESS_GROUPS if g in user.existing_groups]
    if not existing:
        return Check("groups", INFO, "neither a video nor a render group exists on this system", area=RUN)
    missing = [g for g in existing if g not in user.groups]
    if not missing:
        return Check("groups", OK, f"{user.name} is in {' and '.join(existing)}", area=RUN)
    nodes = [n for n in (p.kfd, *p.render_nodes) if n is not None]
    blocked = any(not n.usable for n in nodes)
    status = ERROR if blocked else WARNING
    return Check("groups", status, f"{user.name} is not in {' and '.join(missing)}: ROCm's device files "
                 "belong to these groups (log in again after adding)", group_fix(p), RUN)


def check_hip_runtime(p: Probe, targets: Targets) -> Check:
    if p.hip_runtime:
        return Check("hip runtime", OK, p.hip_runtime, area=RUN)
    return Check("hip runtime", ERROR, "libamdhip64 (the HIP runtime) not found: HIP programs cannot start",
                 RUNTIME_FIX, RUN)


# --- PyTorch ----------------------------------------------------------------------------------------------------

def check_torch(p: Probe, targets: Targets) -> Check:
    if not p.torch_installed:
        return Check("pytorch", INFO, f"PyTorch is not installed for {p.python} (needed only by PyTorch projects; "
                     "on ROCm use a ROCm wheel)", area=RUN)
    out = p.output(keys.TORCH_VERSIONS)
    versions = parsers.parse_torch_versions(out.stdout) if out is not None and out.ok else None
    if versions is None:
        said = (out.stderr.strip().splitlines() or ["no output"])[-1] if out else "not run"
        return Check("pytorch", WARNING, f"import torch failed: {said}", TORCH_FIX, RUN)
    if versions.hip:
        return Check("pytorch", OK, f"torch {versions.version}, a ROCm build (HIP {versions.hip})", area=RUN)
    if versions.cuda:
        return Check("pytorch", WARNING, f"torch {versions.version} is a CUDA build (CUDA {versions.cuda}): it "
                     "cannot use AMD GPUs", TORCH_FIX, RUN)
    return Check("pytorch", WARNING, f"torch {versions.version} is a CPU-only build: it uses no GPU", TORCH_FIX, RUN)


# --- environment variables --------------------------------------------------------------------------------------

def check_visible_devices(p: Probe, targets: Targets) -> Check:
    name = "env *_VISIBLE_DEVICES"
    cuda = p.env.get("CUDA_VISIBLE_DEVICES")
    others = {v: p.env[v] for v in ("HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES") if v in p.env}
    if cuda is None and not others:
        return Check(name, OK, "no device-selection variable set: every GPU is visible", area=RUN)
    settings = ", ".join(f"{k}={v}" for k, v in (("CUDA_VISIBLE_DEVICES", cuda), *others.items()) if v is not None)
    if cuda is None:
        return Check(name, OK, settings, area=RUN)
    if not others:
        return Check(name, INFO, f"{settings}: HIP honours it too, so it also selects AMD GPUs", area=RUN)
    if any(v != cuda for v in others.values()):
        return Check(name, WARNING, f"{settings}: HIP honours all three, so only the GPUs every one of them allows "
                     "remain (ROCR_VISIBLE_DEVICES filters first, the others index what is left)",
                     "unset CUDA_VISIBLE_DEVICES (select AMD GPUs with HIP_VISIBLE_DEVICES or ROCR_VISIBLE_DEVICES)",
                     RUN)
    return Check(name, INFO, f"{settings}: the same value, so they agree", area=RUN)


def check_hsa_override(p: Probe, targets: Targets) -> Check:
    value = p.env.get("HSA_OVERRIDE_GFX_VERSION")
    if value is None:
        return Check("env HSA_OVERRIDE_GFX_VERSION", OK, "not set", area=RUN)
    forced = gfx_of_override(value)
    as_what = f" as {forced}" if forced else ""
    return Check("env HSA_OVERRIDE_GFX_VERSION", WARNING, f"HSA_OVERRIDE_GFX_VERSION={value} makes the runtime "
                 f"treat every GPU{as_what}: meant only to run consumer GPUs that ROCm does not support, and wrong "
                 "for any other", "unset HSA_OVERRIDE_GFX_VERSION", RUN)


def check_hip_platform_env(p: Probe, targets: Targets) -> Check:
    value = p.env.get("HIP_PLATFORM")
    if value is None:
        return Check("env HIP_PLATFORM", OK, "not set (hipmigrate build sets HIP_PLATFORM=amd itself)")
    if value in AMD_PLATFORMS:
        return Check("env HIP_PLATFORM", OK, f"HIP_PLATFORM={value}")
    if value in NVIDIA_PLATFORMS:
        return Check("env HIP_PLATFORM", ERROR, f"HIP_PLATFORM={value}: hipcc builds for NVIDIA GPUs, not AMD",
                     PLATFORM_FIX)
    return Check("env HIP_PLATFORM", WARNING, f"HIP_PLATFORM={value} is neither amd nor nvidia", PLATFORM_FIX)


CHECKS: tuple[CheckFn, ...] = (
    check_hipcc, check_toolchains, check_hipconfig, check_clang, check_platform, check_nvcc, check_hipify_perl,
    check_targets,
    check_rocminfo, check_rocm_smi, check_amd_smi, check_gpus, check_gpu_targets,
    check_kfd, check_render_nodes, check_groups, check_hip_runtime,
    check_torch, check_visible_devices, check_hsa_override, check_hip_platform_env,
)


def run(p: Probe, targets: Iterable[str], checks: Iterable[CheckFn] = CHECKS) -> DoctorReport:
    targets = tuple(targets)
    found: list[Check] = []
    for fn in checks:
        result = fn(p, targets)
        found.extend(result if isinstance(result, tuple) else (result,))
    return DoctorReport(tuple(found), summarize(found, p, targets), p.toolchains)


def summarize(checks: Iterable[Check], p: Probe, targets: Targets) -> Summary:
    checks = list(checks)
    build_errors = [c.name for c in checks if c.blocks_build]
    run_errors = [c.name for c in checks if c.status is ERROR and c.area is RUN]
    gpus = found_gpus(p)
    can_build = not build_errors
    can_run = bool(gpus) and p.kfd is not None and not run_errors
    if can_build:
        version = hip_version(p)
        build_note = (f"Can build for AMD: hipcc{f' (HIP {version})' if version else ''} compiles for "
                      f"{', '.join(targets)}.")
    else:
        build_note = f"Cannot build for AMD: {', '.join(build_errors)} failed."
    if p.kfd is None:
        run_note = ("There is no AMD GPU on this machine (no /dev/kfd): "
                    + ("programs build but cannot run here." if can_build else "programs cannot run here."))
    elif can_run:
        bases = {t.split(":")[0] for t in targets}
        unmatched = [gfx for gfx in dict.fromkeys(g.gfx for g in gpus) if gfx and gfx not in bases]
        run_note = f"Can run on {describe(gpus)}."
        if unmatched:
            run_note += (f" No target matches {', '.join(unmatched)}: add "
                         + " ".join(f"--offload-arch={gfx}" for gfx in unmatched) + ".")
    else:
        run_note = f"Cannot run on an AMD GPU here: {', '.join(run_errors) or 'gpus'} failed."
    return Summary(can_build, can_run, build_note, run_note, targets, gpus)
