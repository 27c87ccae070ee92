"""The kernel diff as text (a rich table, also the report's terminal section), JSON and plain cells that the
Markdown and HTML report sections lay out: per kernel, CUDA against each AMD target."""
from __future__ import annotations

import json

from rich.console import Console
from rich.table import Table

from migrate.kernels import state
from migrate.kernels.demangle import without_parameters
from migrate.kernels.model import Column, KernelDiff, KernelRow
from migrate.kernels.occupancy import Occupancy
from migrate.render.json import finding_dict

HEADERS = ("kernel", "block", "target HIP", "registers", "shared B", "spills+scratch", "CUDA occupancy",
           "AMD occupancy", "ratio")


def occupancy_text(o: Occupancy | None) -> str:
    """`25% 8/32 LDS`: the fraction, resident of the most warps (SM) or waves (CU), and what limits it."""
    return "-" if o is None else f"{o.fraction:.0%} {o.resident}/{o.most} {o.limit}"


def cells(k: KernelRow, c: Column, first: bool = True) -> tuple[str, ...]:
    """The strings of one kernel's row for one AMD target (kernel, block and CUDA's occupancy on its first row only);
    an assumed block size is marked with a star."""
    cuda, amd = k.cuda, c.usage
    extra = f" +{k.dynamic_shared} dyn" if k.dynamic_shared else ""
    registers = f"{cuda.registers if cuda else '-'} / " + (f"{amd.registers}v {amd.sgprs}s {amd.agprs}a" if amd else "-")
    shared = f"{cuda.shared if cuda else '-'} / {amd.shared if amd else '-'}{extra}"
    spills = (f"{cuda.spills}+{cuda.scratch} / " if cuda else "- / ") + (f"{amd.spills}+{amd.scratch}" if amd else "-")
    ratio = f"{c.ratio:.2f}" if c.ratio is not None else "-"
    block = f"{k.block}{'*' if k.block_from == 'assumed' else ''}" if first else ""
    return (without_parameters(k.name) if first else "", block, f"{c.target} {c.hip_version}", registers, shared, spills,
            occupancy_text(k.cuda_occupancy) if first else "", occupancy_text(c.occupancy), ratio)


def table_rows(diff: KernelDiff) -> list[tuple[KernelRow, Column, tuple[str, ...]]]:
    return [(k, c, cells(k, c, i == 0)) for k in diff.kernels for i, c in enumerate(k.amd)]


def legend(diff: KernelDiff) -> str:
    return (f"CUDA {diff.cuda_arch} (nvcc) / each AMD target (hipcc). Registers: per thread / VGPRs, SGPRs, AGPRs "
            "per lane. Shared: static bytes per block, + a constant launch's dynamic bytes. Spills: spilled bytes "
            "(CUDA) or registers (AMD) + stack or scratch bytes. Occupancy: resident warps per SM or waves per CU of "
            "the most, and what limits it; block sizes with * are assumed. Ratio: AMD's occupancy over CUDA's "
            f"(a finding below {diff.min_ratio})")


def render_text(diff: KernelDiff, console: Console) -> None:
    console.print(f"[bold]kernels[/]: {len(diff.kernels)}. {legend(diff)}", highlight=False)
    table = Table(title_justify="left")
    for h in HEADERS:
        table.add_column(h, overflow="fold", justify="right" if h == "ratio" else "left")
    for _, _, row in table_rows(diff):
        table.add_row(*row)
    console.print(table)
    for f in sorted(diff.findings, key=lambda f: (f.span.path, f.span.line, f.code)):
        console.print(f"{f.span.path}:{f.span.line}: {f.code} {f.message}", markup=False, highlight=False)
    for p in diff.problems:
        console.print(f"not compiled: {p}", markup=False, highlight=False)


def as_dict(diff: KernelDiff) -> dict:
    """The state's record with what it implies: each side's occupancy, the ratios and the findings."""
    doc = state.as_dict(diff)
    for k, d in zip(diff.kernels, doc["kernels"]):
        d["cuda_occupancy"] = _occupancy(k.cuda_occupancy)
        d["occupancy"] = {f"{c.target}@{c.hip_version}": {**_occupancy(c.occupancy), "ratio": c.ratio}
                          if c.occupancy else None for c in k.amd}
        d["findings"] = [finding_dict(f) for f in k.findings]
    return doc


def _occupancy(o: Occupancy | None) -> dict | None:
    return None if o is None else {"resident": o.resident, "most": o.most, "blocks": o.blocks, "limit": o.limit,
                                   "fraction": round(o.fraction, 4)}


def render_json(diff: KernelDiff) -> str:
    return json.dumps(as_dict(diff), indent=2) + "\n"
