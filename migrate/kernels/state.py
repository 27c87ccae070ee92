"""DST/.hipmigrate/kernels.json: what `build --kernels` measured (each kernel's usage per side, its block size
and source line), from which `report` rebuilds the rows, occupancy and findings (migrate.kernels.diff.row).

`{"format": "hipmigrate-state", "version": 2, "part": "kernels", "cuda_arch": "sm_90", "min_ratio": 0.5,
"columns": [["gfx942", "6.4"]], "problems": [...], "kernels": [{"name", "path", "line", "block", "block_from",
"dynamic_shared", "cuda": USAGE | null, "amd": {"gfx942@6.4": USAGE}}]}`; a run with another toolchain keeps the
columns of the others (one file holds HIP 5.2's gfx90a beside HIP 6.4's gfx942), a run for another CUDA
architecture replaces the file.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from migrate.kernels.model import KernelDiff, Usage

FILE = "kernels.json"
HEADER = {"format": "hipmigrate-state", "version": 2, "part": "kernels"}


def _key(column: tuple[str, str]) -> str:
    return f"{column[0]}@{column[1]}"


def as_dict(diff: KernelDiff) -> dict:
    return {**HEADER, "cuda_arch": diff.cuda_arch, "min_ratio": diff.min_ratio,
            "columns": [list(c) for c in diff.targets], "problems": list(diff.problems),
            "kernels": [{"name": k.name, "path": k.path, "line": k.line, "block": k.block, "block_from": k.block_from,
                         "dynamic_shared": k.dynamic_shared,
                         "cuda": dataclasses.asdict(k.cuda) if k.cuda else None,
                         "amd": {_key((c.target, c.hip_version)): dataclasses.asdict(c.usage)
                                 for c in k.amd if c.usage is not None}}
                        for k in diff.kernels]}


def from_dict(doc: dict) -> KernelDiff:
    from migrate.kernels.diff import row

    if any(doc.get(k) != v for k, v in HEADER.items()):
        raise ValueError("not a kernels record of version 2 of the state format; run `hipmigrate build --kernels` again")
    columns = tuple(tuple(c) for c in doc["columns"])
    kernels = []
    for k in doc["kernels"]:
        by_column = {tuple(key.split("@", 1)): Usage(**u) for key, u in k["amd"].items()}
        cuda = Usage(**k["cuda"]) if k["cuda"] else None
        kernels.append(row(k["name"], (k["path"], k["line"]), (k["block"], k["block_from"]), k["dynamic_shared"],
                           cuda, by_column, columns, doc["cuda_arch"], doc["min_ratio"]))
    return KernelDiff(doc["cuda_arch"], columns, tuple(kernels), tuple(doc["problems"]), doc["min_ratio"])


def merged(new: dict, old: dict | None) -> dict:
    """`new`, with the columns of `old` that another toolchain made (same CUDA architecture) kept after its own."""
    if not old or old.get("cuda_arch") != new["cuda_arch"] or any(old.get(k) != v for k, v in HEADER.items()):
        return new
    mine = {_key(tuple(c)) for c in new["columns"]}
    kept = [c for c in old["columns"] if _key(tuple(c)) not in mine]
    if not kept:
        return new
    carried = {k["name"]: k for k in old["kernels"]}
    names = set()
    for k in new["kernels"]:
        names.add(k["name"])
        extra = carried.get(k["name"], {}).get("amd", {})
        k["amd"].update({key: u for key, u in extra.items() if key not in mine})
    new["kernels"] += [{**k, "amd": {key: u for key, u in k["amd"].items() if key not in mine}}
                       for k in old["kernels"] if k["name"] not in names]
    new["columns"] += kept
    return new


def save(diff: KernelDiff, state: Path) -> None:
    path = state / FILE
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = None
    state.mkdir(exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(merged(as_dict(diff), old)) + "\n", encoding="utf-8")
    tmp.replace(path)


def load(state: Path) -> KernelDiff | None:
    path = state / FILE
    if not path.is_file():
        return None
    return from_dict(json.loads(path.read_text(encoding="utf-8")))
