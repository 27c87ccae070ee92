"""The packs' rows (stages 4 to 6 of scripts/gen_packs.py): the HIP header sets indexed by release; rows from the
hipify-perls' answers and from CUDA's bfloat16 functions that HIP declares under the same name, and the names left
unsupported; then the hand-written overrides and the probe of the installed toolchains, applied to them."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .convert import Conversion
from .library_headers import LIBRARIES, same_path_rows
from .cuda_names import CUDA_API, NOISE, bf16_functions_hip_shares
from .declared import Applied, apply_declared, load_declared
from .families import CXX_KEYWORDS, FAMILIES, FAMILY_PACKAGES
from .fetch import HeaderSet, hip_header_files, hip_identifiers, log, version_key
from .packs import header_row_since


@dataclass
class HipIndex:
    """The identifiers and header files of each inspected HIP header set, and of the installed HIP headers."""

    by_set: list[tuple[HeaderSet, set[str], set[str]]]
    installed_ids: set[str]

    def __post_init__(self):
        self.ids: set[str] = set().union(*(ids for _, ids, _ in self.by_set)) if self.by_set else set()
        self.files: set[str] = set().union(*(f for _, _, f in self.by_set)) if self.by_set else set()

    def since_of(self, hip_name: str, packages: tuple[str, ...] | None = None) -> str | None:
        found = [s.release for s, ids, _ in self.by_set
                 if hip_name in ids and (packages is None or s.package in packages)]
        return min(found, key=version_key) if found else None

    def header_since(self, hip_header: str) -> str | None:
        found = [s.release for s, _, files in self.by_set if hip_header in files]
        return min(found, key=version_key) if found else None


def index_hip(sets: list[HeaderSet], installed_hip: Path) -> HipIndex:
    log("indexing HIP header sets")
    by_set = [(s, hip_identifiers(s.root), hip_header_files(s.root)) for s in sets]
    return HipIndex(by_set, hip_identifiers(installed_hip))


@dataclass
class Rows:
    """The packs (family -> names, unsupported, headers), where rows come from, and what made them."""

    packs: dict[str, dict]
    sources: dict[str, dict[str, str]]  # table -> key -> where the row comes from, for rows not from the first
    second_rows: dict[str, str]  # the second hipify-perl's answers that became rows
    second_left: dict[str, list[str]]  # family -> "NAME -> HIP (why)", those that did not
    second_header_rows: dict[str, str]
    second_header_left: list[str]
    bf16_first: dict[str, str]  # CUDA bfloat16 function -> the first HIP release declaring it
    bf16_taken: list[str]  # of those, rows of a hipify-perl already
    rccl_sets: list[tuple[HeaderSet, set[str]]]
    nccl_kept: list[str]  # NCCL API names that RCCL declares (supported under the same name)
    unsupported_left: list[str]  # CUDA API names no row converts and no HIP header declares
    applied: int = 0  # overrides applied
    override_notes: list[str] = field(default_factory=list)
    inspected_by: dict[str, list[str]] = field(default_factory=dict)  # family -> releases inspected
    probed: Applied | None = None  # what the probe changed, when there is one

    def headers_missing(self, hip: HipIndex) -> list[str]:
        """Header rows whose HIP header (or older one) no inspected package ships."""
        return [f"{h} -> {r[key]}" for p in self.packs.values() for h, r in sorted(p["headers"].items())
                for key in ("hip", "older") if r.get(key) and r[key] not in hip.files]


def make_rows(conv: Conversion, decls: dict, cuda_headers: dict[str, str], attr_macros: set[str], cuda_inc: Path,
         sets: list[HeaderSet], hip: HipIndex, hipify_release: str) -> Rows:
    converted, unsupported_warned, second_label = conv.first.converted, conv.first.unsupported, conv.second_label
    by_set, all_hip_ids, all_hip_files, since_of = hip.by_set, hip.ids, hip.files, hip.since_of
    # which answers of the second hipify-perl become rows: the HIP name must be declared by the
    # inspected headers (those of the family's HIP library, where it has one)
    second_rows: dict[str, str] = {}
    second_left: dict[str, list[str]] = defaultdict(list)   # family -> "NAME -> HIP (why)"
    for name, hip in sorted(conv.sec.converted.items()):
        d = decls[name]
        pkgs = FAMILY_PACKAGES.get(d.family)
        if hip in CXX_KEYWORDS:
            second_left[d.family].append(f"{name} -> {hip} (a C++ keyword)")
        elif since_of(hip, pkgs) is None:
            where = "/".join(pkgs) if pkgs else "any inspected package"
            second_left[d.family].append(f"{name} -> {hip} (not declared in {where})")
        else:
            second_rows[name] = hip
    second_header_rows: dict[str, str] = {}
    second_header_left: list[str] = []
    for h, hip in sorted(conv.sec_headers.items()):
        folder = f"{hip.rsplit('.', 1)[0]}/{hip}"  # hipsolver.h -> hipsolver/hipsolver.h (the packages' layout)
        if hip in all_hip_files:
            second_header_rows[h] = hip
        elif "/" not in hip and folder in all_hip_files:
            second_header_rows[h] = folder
        else:
            second_header_left.append(f"{h} -> \"{hip}\"")

    # 4b. CUDA's bfloat16 functions that HIP's amd_hip_bf16.h declares under the same name: rows mapping the
    # name to itself. `since` is the first HIP release whose headers have the name at all: older than the
    # bf16 header where HIP had the name for __half (__hadd in hip_fp16.h), which a token cannot tell apart.
    bf16_first = bf16_functions_hip_shares(cuda_inc, sets, attr_macros)
    bf16_rows = {n: since_of(n, ("libamdhip64-dev",)) for n in bf16_first if n not in converted and n not in second_rows}
    bf16_taken = sorted(n for n in bf16_first if n not in bf16_rows)  # rows of a hipify-perl already

    # 5. packs
    packs = {fam: {"names": {}, "unsupported": {}, "headers": {}} for fam in FAMILIES}
    sources: dict[str, dict[str, str]] = {"names": {}, "headers": {}}  # rows not from the first hipify-perl
    for name, hip in sorted(converted.items()):
        d = decls[name]
        since = since_of(hip) or hipify_release  # no inspected header declares it: hipify-perl's version
        packs[d.family]["names"][name] = {"hip": hip, "kind": d.kind, "since": since}
    for name, hip in sorted(second_rows.items()):
        d = decls[name]
        packs[d.family]["names"][name] = {"hip": hip, "kind": d.kind, "since": since_of(hip, FAMILY_PACKAGES.get(d.family))}
        sources["names"][name] = second_label
    for name, since in sorted(bf16_rows.items()):
        d = decls[name]
        packs[d.family]["names"][name] = {"hip": name, "kind": d.kind, "since": since}
        sources["names"][name] = f"amd_hip_bf16.h {bf16_first[name]}"
    # 4c. an enumerator with no row of its own whose enum gives another enumerator the same value (a deprecated
    # spelling beside the new one) gets that one's row
    taken = {**converted, **second_rows, **{n: n for n in bf16_rows}}
    for name, d in sorted(decls.items()):
        twin = next((t for t in d.twins if t in taken), None) if name not in taken else None
        if twin is not None:
            packs[d.family]["names"][name] = dict(packs[decls[twin].family]["names"][twin])
            sources["names"][name] = f"the value of {twin}"
    rccl_sets = [(s, ids) for s, ids, _ in by_set if s.package == "librccl-dev"]
    rccl_ids: set[str] = set().union(*(ids for _, ids in rccl_sets)) if rccl_sets else set()
    nccl_kept: list[str] = []  # NCCL API names that RCCL declares (supported under the same name)
    unsupported_left: list[str] = []
    for name, d in sorted(decls.items()):
        if name in converted or name in second_rows or name in bf16_rows or name in sources["names"]:
            continue
        api = not (d.kind == "namespace" or d.internal or not CUDA_API.match(name) or NOISE.search(name)
                   or name in attr_macros)
        if d.family == "nccl" and name in rccl_ids:
            if api or name in unsupported_warned:
                nccl_kept.append(name)
            continue  # RCCL keeps the NCCL names: whatever it declares is supported as it is
        if name in unsupported_warned:
            packs[d.family]["unsupported"][name] = {"kind": d.kind}
            continue
        if not api:
            continue
        if name in all_hip_ids:
            continue  # HIP keeps the name (e.g. __half)
        packs[d.family]["unsupported"][name] = {"kind": d.kind}
        unsupported_left.append(name)
    for h, hip in sorted(conv.header_map.items()):
        packs[cuda_headers[h]]["headers"][h] = {"hip": hip}
    for h, hip in sorted(second_header_rows.items()):
        packs[cuda_headers[h]]["headers"][h] = {"hip": hip}
        sources["headers"][h] = second_label
    for library in LIBRARIES:
        for h, hip in same_path_rows(library, cuda_inc, all_hip_files, set(packs[library.family]["headers"])).items():
            packs[library.family]["headers"][h] = {"hip": hip}
            sources["headers"][h] = library.source

    for fam, p in packs.items():
        for row in p["headers"].values():
            since = header_row_since(sets, fam, row["hip"]) if row["hip"] else ""
            if since:
                row["since"] = since
    return Rows(packs, sources, second_rows, second_left, second_header_rows, second_header_left, bf16_first,
                bf16_taken, rccl_sets, nccl_kept, unsupported_left)


def apply_overrides(rows: Rows, overrides: dict, sets: list[HeaderSet], hip: HipIndex) -> None:
    """Stage 6: the hand-written rows of overrides.toml replace the generated ones (rows changes in place)."""
    packs, sources = rows.packs, rows.sources
    by_set, all_hip_files, since_of, header_since = hip.by_set, hip.files, hip.since_of, hip.header_since
    applied = 0
    ov_notes: list[str] = []
    oldest_hip = min((s for s in sets if s.package == "libamdhip64-dev"), key=lambda s: version_key(s.release), default=None)
    oldest_ids = next((ids for s, ids, _ in by_set if s is oldest_hip), set())
    oldest_files = next((files for s, _, files in by_set if s is oldest_hip), set())
    for fam, tables in overrides.items():
        for table in ("names", "unsupported", "headers"):
            for key, row in tables.get(table, {}).items():
                if table == "names":
                    found = since_of(row["hip"])
                    note = f"{key}: since {row['since']} (headers inspected: {found or 'none'})"
                    if row.get("older"):
                        note += _older(row["older"], oldest_ids, oldest_hip)
                    ov_notes.append(note)
                elif table == "headers" and row["hip"] and row["hip"] not in all_hip_files:
                    ov_notes.append(f"header {key} -> {row['hip']}: NOT shipped by any inspected package")
                elif table == "headers" and "since" in row:
                    found = header_since(row["hip"])
                    note = f"header {key} -> {row['hip']}: since {row['since']} (shipped from: {found or 'none'})"
                    if row.get("older"):
                        note += _older(row["older"], oldest_files, oldest_hip)
                    ov_notes.append(note)
                for p in packs.values():
                    if table == "headers":
                        p["headers"].pop(key, None)
                    else:
                        p["names"].pop(key, None)
                        p["unsupported"].pop(key, None)
                packs[fam][table][key] = dict(row)
                if table == "unsupported":
                    sources["names"].pop(key, None)
                else:
                    sources[table][key] = "overrides.toml"
                applied += 1
        for key in tables.get("drop", {}).get("names", []):
            for p in packs.values():
                p["names"].pop(key, None)
                p["unsupported"].pop(key, None)
                p["headers"].pop(key, None)
            sources["names"].pop(key, None)
            sources["headers"].pop(key, None)
            applied += 1
        applied += _apply_renamed(packs[fam]["names"], sources, tables, ov_notes)
    rows.applied, rows.override_notes = applied, ov_notes


def _apply_renamed(names: dict, sources: dict, tables: dict, notes: list[str]) -> int:
    """[<family>.renamed] suffix, since: the family's HIP library dropped the suffix at `since` (hipBLAS 3.0 in ROCm
    7.0: `hipblasCaxpy_v2` became `hipblasCaxpy`). Every generated row whose HIP name ends with the suffix gets the
    plain name from `since` on and keeps the suffixed one as `older`, from the row's own `since` (`older_since`); rows
    of [names] above are left alone."""
    renamed = tables.get("renamed")
    if not renamed:
        return 0
    suffix, since = renamed["suffix"], renamed["since"]
    count = 0
    for cuda, row in names.items():
        if sources["names"].get(cuda) == "overrides.toml" or not row["hip"].endswith(suffix) or row.get("older"):
            continue
        names[cuda] = {"hip": row["hip"][:-len(suffix)], "kind": row["kind"], "since": since, "older": row["hip"],
                       "older_since": row["since"]}
        sources["names"][cuda] = f"overrides.toml: {suffix} dropped in {since}"
        count += 1
    notes.append(f"renamed: {count} rows whose HIP name ends with {suffix}: the plain name from {since}, "
                 f"the {suffix} one before")
    return count


def _older(older: str, known: set[str], oldest_hip: HeaderSet | None) -> str:
    """The note on an override's `older` name or header: whether the oldest inspected HIP has it."""
    return f", older {older} {'in' if older in known else 'NOT in'} HIP {oldest_hip.release if oldest_hip else '?'}"


def apply_probe(rows: Rows, sets: list[HeaderSet], declared: str) -> None:
    """Stage 6b: the probe of the installed toolchains (scripts/probe_packs.py; `declared`, its file or `none`):
    `since` follows what their headers declare (rows changes in place)."""
    packs, sources = rows.packs, rows.sources
    inspected_by = {fam: sorted({s.release for s in sets if s.package in FAMILY_PACKAGES.get(fam, ("libamdhip64-dev",))},
                                key=version_key) for fam in packs}
    probed = None
    if declared != "none" and Path(declared).is_file():
        sources.setdefault("unsupported", {})
        probed = apply_declared(packs, sources, load_declared(Path(declared)), inspected_by)
    rows.inspected_by, rows.probed = inspected_by, probed
