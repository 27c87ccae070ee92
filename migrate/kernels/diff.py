"""The stage behind `hipmigrate build DST --kernels`: compile each unit of the original CUDA tree with nvcc and
each migrated unit with hipcc for every AMD target, pair the kernels, work out the occupancy of each side and the
findings. A compile is done once per unit, architecture and compiler arguments within a process."""
from __future__ import annotations

import hashlib
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from migrate import toolchain
from migrate.errors import UsageError
from migrate.kernels import amdgpu, findings, occupancy, ptxas
from migrate.kernels.demangle import base_name, demangle
from migrate.kernels.hardware import amd_target, nvidia_arch, tables
from migrate.kernels.model import Column, KernelDiff, KernelRow, Usage
from migrate.kernels.pairing import pair
from migrate.kernels.sources import Sources, scan
from migrate.stages import verify

DEFAULT_ARCH = "sm_90"
ASSUMED_BLOCK = 256
CUDA_INCLUDE = toolchain.TOOLCHAIN / "cuda" / "include"  # the CUDA library headers scripts/install-toolchain unpacks
ARCH = re.compile(r"\b(?:sm|compute)_(\d+)a?\b|CMAKE_CUDA_ARCHITECTURES\s+\"?(\d+)")
BUILD_FILES = ("Makefile", "makefile", "GNUmakefile", "CMakeLists.txt", "setup.py", "*.mk", "*.cmake")
_compiled: dict[tuple, tuple[list[Usage], str | None]] = {}


def project_arch(source: Path) -> str:
    """The newest NVIDIA architecture the project's build files name that the hardware tables know, else sm_90."""
    named = set()
    for pattern in BUILD_FILES:
        for path in source.rglob(pattern):
            text = path.read_text(errors="replace")
            named |= {f"sm_{a or b}" for a, b in ARCH.findall(text)}
    known = sorted((n for n in named if n in tables().nvidia), key=lambda n: int(n[3:]))
    return known[-1] if known else DEFAULT_ARCH


def cuda_args(args: list[str], root: Path, source: Path) -> list[str]:
    """The HIP unit's include paths moved back onto the original tree, its defines and standard, and the CUDA library
    headers."""
    out = []
    for a in args:
        if a.startswith("-I"):
            path = Path(a[2:])
            try:
                a = f"-I{source / path.relative_to(root)}"
            except ValueError:
                pass
        out.append(a)
    return out + ([f"-I{CUDA_INCLUDE}"] if CUDA_INCLUDE.is_dir() else [])


def _memo(key: tuple, run) -> tuple[list[Usage], str | None]:
    if key not in _compiled:
        _compiled[key] = run()
    return _compiled[key]


def _tree_hash(tree: Path) -> str:
    digest = hashlib.sha256()
    for p in sorted(tree.rglob("*")):
        if p.is_file() and p.suffix in (".cu", ".cuh", ".h", ".hpp", ".cpp", ".hip", ".inl", ".inc", ".cc"):
            digest.update(os.fsencode(p.as_posix()) + p.read_bytes())  # a name as its own bytes
    return digest.hexdigest()


def _named(usages: list[Usage], names: dict[str, str]) -> list[Usage]:
    seen, out = set(), []
    for u in usages:
        if u.mangled not in seen:  # a kernel of a header compiled in several units: once
            seen.add(u.mangled)
            out.append(Usage(**{**u.__dict__, "name": names.get(u.mangled, u.mangled)}))
    return out


def kernel_diff(root: Path, targets: tuple[str, ...] = (), tc: toolchain.Toolchain | None = None, *,
                cuda_arch: str | None = None, jobs: int | None = 1, min_ratio: float = 0.5,
                make_vars: dict[str, str] | None = None, source: Path | None = None) -> KernelDiff:
    """The per-kernel diff of the migrated tree `root` against the CUDA tree `run` migrated it from (run.json's
    source, or `source`), for `targets` (the toolchain's defaults when empty) and the CUDA architecture `cuda_arch`
    (the build files', else sm_90)."""
    root = root.resolve()
    source = (source or verify.source_root(root))
    if source is None:
        raise UsageError(f"{root}: the kernel diff needs the CUDA tree it was migrated from, which "
                         f"{verify.STATE}/run.json names; migrate it with `hipmigrate run SRC --out DST` first")
    source = source.resolve()
    tc = tc or toolchain.choose()
    targets = targets or tc.default_targets()
    cuda_arch = cuda_arch or project_arch(source)
    if nvidia_arch(cuda_arch) is None:
        raise UsageError(f"--cuda-arch {cuda_arch}: not in rules/data/hardware.toml (it has {', '.join(tables().nvidia)})")
    unknown = [t for t in targets if amd_target(t) is None]
    if unknown:
        raise UsageError(f"--offload-arch {unknown[0]}: not in rules/data/hardware.toml (it has {', '.join(tables().amd)})")
    hip_units, _ = verify.units(root)
    args, _, host = verify.unit_args(root, source, hip_units, tc, make_vars)
    units = [u for u in hip_units if u not in host and (source / u.relative_to(root)).is_file()]
    state = (_tree_hash(source), _tree_hash(root))
    work = [(u, None) for u in units] + [(u, t) for u in units for t in targets]

    def compile_one(item):
        unit, target = item
        if target is None:
            original = source / unit.relative_to(root)
            flags = cuda_args(args[unit], root, source)
            return _memo(("nvcc", str(original), cuda_arch, tuple(flags), state[0]),
                         lambda: ptxas.compile_unit(original, cuda_arch, flags))
        return _memo(("hipcc", tc.hipcc, str(unit), target, tuple(args[unit]), state[1]),
                     lambda: amdgpu.compile_unit(tc, unit, target, args[unit]))

    with ThreadPoolExecutor(max_workers=max(1, jobs or os.cpu_count() or 1)) as pool:
        results = list(pool.map(compile_one, work))
    problems = [f"{u.relative_to(root).as_posix()} ({t or cuda_arch}): {why}"
                for (u, t), (_, why) in zip(work, results) if why]
    names = demangle([k.mangled for usages, _ in results for k in usages])
    cuda = _named([k for (u, t), (usages, _) in zip(work, results) if t is None for k in usages], names)
    release = tc.short_version or "?"
    amd = {(t, release): _named([k for (u, tt), (usages, _) in zip(work, results) if tt == t for k in usages], names)
           for t in targets}
    kernels = rows(cuda, amd, scan(source), cuda_arch, min_ratio)
    return KernelDiff(cuda_arch, tuple(amd), kernels, tuple(problems), min_ratio)


def rows(cuda: list[Usage], amd: dict[tuple[str, str], list[Usage]], sources: Sources, cuda_arch: str,
         min_ratio: float) -> tuple[KernelRow, ...]:
    """One row per kernel of either side; `amd` by (target, HIP release)."""
    sides: dict[str, tuple[Usage | None, dict[tuple[str, str], Usage]]] = {}
    for column, usages in amd.items():
        for name, c, a in pair(cuda, usages):
            entry = sides.setdefault(name, (c, {}))
            if a is not None:
                entry[1][column] = a
    out = []
    for name, (c, by_column) in sides.items():
        short = base_name(name)
        definition = next(iter(sources.definitions.get(short, ())), None)
        block, block_from = sources.block(short, definition.launch_bounds if definition else None)
        place = (definition.path, definition.line) if definition else ("", 0)
        out.append(row(name, place, (block or ASSUMED_BLOCK, block_from or "assumed"), sources.dynamic_shared(short),
                       c, by_column, tuple(amd), cuda_arch, min_ratio))
    return tuple(sorted(out, key=lambda r: (r.path == "", r.path, r.line, r.name)))


def row(name: str, place: tuple[str, int], block: tuple[int, str], dynamic: int, c: Usage | None,
        by_column: dict[tuple[str, str], Usage], columns: tuple[tuple[str, str], ...], cuda_arch: str,
        min_ratio: float) -> KernelRow:
    """A kernel's row: the occupancy of each side for its block size and dynamic shared memory, and its findings.
    Also what the report rebuilds from kernels.json."""
    threads, block_from = block
    cuda_occ = occupancy.cuda(nvidia_arch(cuda_arch), c.registers, c.shared + dynamic, threads) if c else None
    out = []
    for target, hip_version in columns:
        a = by_column.get((target, hip_version))
        occ = occupancy.amd(amd_target(target), a.registers, a.agprs, a.sgprs, a.shared + dynamic, threads) if a else None
        ratio = occ.fraction / cuda_occ.fraction if occ and cuda_occ and cuda_occ.fraction else None
        out.append(Column(target, hip_version, a, occ, ratio))
    path, line = place
    found = [f for col in out for f in findings.check(name, path, line, threads, block_from, dynamic, c, col,
                                                      min_ratio)] if path else []
    return KernelRow(name, path, line, threads, block_from, dynamic, c, cuda_occ, tuple(out), tuple(found))
