"""What scripts/gen_packs.py prints at the end (stage 8): the rows of each pack by source, what each hipify-perl,
the overrides and the probe did, the families HIP keeps the names of (NCCL, cooperative groups), and the runtime pack
checked against the installed HIP headers."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

from .convert import Conversion
from .cuda_names import CUDA_BF16_HEADERS, HIP_BF16_HEADER
from .families import FAMILIES, FAMILY_ORDER
from .fetch import installed_release, version_key
from .lexer import read_text
from .rows import HipIndex, Rows


def summary(out_dir: Path, generated: str, hipify_full: str, decls: dict, conv: Conversion, hip: HipIndex, rows: Rows,
            declared_file: str, installed_hip: str) -> list[str]:
    """Print the summary; the runtime rows whose HIP name the installed headers lack though their `since` is not
    above the installed release (the run fails on any)."""
    packs, sources = rows.packs, rows.sources
    first, second, second_label, sec = conv.first, conv.second, conv.second_label, conv.sec
    converted, unsupported_warned, exp_names, odd = first.converted, first.unsupported, first.exp_names, first.odd
    lines2, disagree, header_odd = conv.lines2, conv.disagree, conv.header_odd
    second_rows, second_left = rows.second_rows, rows.second_left
    second_header_rows, second_header_left = rows.second_header_rows, rows.second_header_left
    bf16_first, bf16_taken, rccl_sets, nccl_kept = rows.bf16_first, rows.bf16_taken, rows.rccl_sets, rows.nccl_kept
    unsupported_left, applied, ov_notes, probed = rows.unsupported_left, rows.applied, rows.override_notes, rows.probed
    by_set, all_hip_ids, installed_ids = hip.by_set, hip.ids, hip.installed_ids
    headers_missing = rows.headers_missing(hip)
    print(f"packs written to {out_dir} ({generated})")
    src_count = {fam: Counter(sources["names"].get(n, f"hipify-perl {hipify_full}") for n in p["names"])
                 for fam, p in packs.items()}
    print(f"{'family':<20}{'code':<8}{'names':>7}{'unsupp.':>9}{'headers':>9}   rows by source")
    tot = Counter()
    for fam, p in packs.items():
        by_src = ", ".join(f"{c} {k}" for k, c in sorted(src_count[fam].items(), key=lambda kv: (-kv[1], kv[0])))
        print(f"{fam:<20}{FAMILIES[fam][0]:<8}{len(p['names']):>7}{len(p['unsupported']):>9}{len(p['headers']):>9}"
              f"   {by_src or '-'}")
        tot.update({"names": len(p["names"]), "unsupported": len(p["unsupported"]), "headers": len(p["headers"])})
        tot.update(src_count[fam])
    print(f"{'total':<28}{tot['names']:>7}{tot['unsupported']:>9}{tot['headers']:>9}   "
          + ", ".join(f"{tot[k]} {k}" for k in sorted({k for c in src_count.values() for k in c}, key=lambda k: -tot[k])))
    print(f"overrides applied: {applied}; unsupported by hipify-perl's warnings: "
          f"{sum(1 for n in unsupported_warned if n not in converted and n not in second_rows)}; "
          f"unconverted CUDA API names: {len(unsupported_left)}")
    print(f"converted only with -experimental: {sum(1 for n in exp_names if n in converted)}; "
          f"rows whose HIP name no inspected header declares: "
          f"{sum(1 for p in packs.values() for r in p['names'].values() if r['hip'] not in all_hip_ids)}")
    bf16_since = Counter(r["since"] for p in packs.values() for n, r in p["names"].items()
                         if sources["names"].get(n, "").startswith("amd_hip_bf16.h"))
    bf16_unsupp = sorted(n for n in packs["fp16"]["unsupported"] if "bfloat16" in n or "bf16" in n.lower())
    print(f"bfloat16: {len(bf16_first)} functions of {'/'.join(CUDA_BF16_HEADERS)} that {HIP_BF16_HEADER} declares "
          f"under the same name (first there: " + ", ".join(f"{c} in {v}" for v, c in sorted(Counter(
              bf16_first.values()).items(), key=lambda kv: version_key(kv[0]))) + "); rows mapping the name to itself: "
          f"{sum(bf16_since.values())} after overrides.toml (since: " + ", ".join(f"{v} {c}" for v, c in sorted(
              bf16_since.items(), key=lambda kv: version_key(kv[0]))) + ")"
          + (f"; rows of a hipify-perl already: {', '.join(bf16_taken)}" if bf16_taken else "")
          + f"; fp16 names with bfloat16/bf16 in them left [unsupported]: {len(bf16_unsupp)}")
    if second:
        second_rows_fam = Counter(decls[n].family for n in second_rows)
        fams = sorted(set(second_rows_fam) | set(second_left), key=FAMILY_ORDER.index)
        print(f"{second_label} over the {len(lines2)} names hipify-perl {hipify_full} leaves alone: converts "
              f"{len(sec.converted)} ({sum(1 for n in sec.exp_names if n in sec.converted)} with -experimental); "
              f"rows: {len(second_rows)} ({tot[second_label]} left after overrides.toml), "
              f"left out: {sum(len(v) for v in second_left.values())} (per family rows/left out: "
              + ", ".join(f"{f} {second_rows_fam[f]}/{len(second_left[f])}" for f in fams) + ")")
        for fam in fams:
            if second_left[fam]:
                print(f"  {fam}, left out ({len(second_left[fam])}): " + "; ".join(second_left[fam][:8])
                      + ("; ..." if len(second_left[fam]) > 8 else ""))
        dis_fam = Counter(decls[n].family for n in disagree)
        print(f"{second_label} answers differently for {len(disagree)} of the {len(converted)} names hipify-perl "
              f"{hipify_full} converts (their rows keep {hipify_full}'s answer; per family: "
              + ", ".join(f"{f} {dis_fam[f]}" for f in sorted(dis_fam, key=FAMILY_ORDER.index)) + ")")
        for fam in sorted(dis_fam, key=FAMILY_ORDER.index):
            ex = [f"{n}: {a} / {b}" for n, (a, b) in sorted(disagree.items()) if decls[n].family == fam]
            print(f"  {fam}: " + "; ".join(ex[:6]) + ("; ..." if len(ex) > 6 else ""))
        print(f"{second_label} over the headers hipify-perl {hipify_full} leaves alone: "
              + (", ".join(f"{h} -> {hip}" for h, hip in sorted(second_header_rows.items())) or "no rows")
              + (f"; left out (not shipped by an inspected package): {', '.join(second_header_left)}" if second_header_left else ""))
    else:
        print("no second hipify-perl (none newer among the inspected suites, or --second-hipify-perl none)")
    # NCCL: RCCL keeps the names, so its headers decide what is supported
    nccl_unsupp = sorted(packs["nccl"]["unsupported"])
    if rccl_sets:
        vers = []
        for s, _ in rccl_sets:
            h = s.root / "rccl" / "rccl.h"
            txt = read_text(h) if h.is_file() else ""
            api = ".".join(m.group(1) for m in re.finditer(r"#define\s+NCCL_(?:MAJOR|MINOR|PATCH)\s+(\d+)", txt))
            vers.append(f"{s.suite} {s.version}" + (f", NCCL API {api}" if api else ""))
        print(f"nccl: RCCL's headers (librccl-dev: {'; '.join(vers)}) declare {len(nccl_kept)} of the NCCL names "
              f"checked (kept as they are); {len(nccl_unsupp)} they lack are [unsupported]: {', '.join(nccl_unsupp)}")
    else:
        print(f"nccl: no inspected suite packages librccl-dev; the {len(nccl_unsupp)} [unsupported] names are "
              f"hipify-perl's verdict and the names no HIP header declares")
    # Cooperative groups: HIP keeps the names (namespace cooperative_groups of hip/hip_cooperative_groups.h)
    cg = sorted(n for n, d in decls.items() if d.family == "cooperative_groups" and not d.internal and d.kind != "macro")
    hip_core = set().union(*(ids for s, ids, _ in by_set if s.package == "libamdhip64-dev")) if by_set else set()
    cg_missing = [n for n in cg if n not in hip_core]
    print(f"cooperative_groups: of {len(cg)} public names, hipify-perl {hipify_full} renames "
          f"{sum(1 for n in cg if n in converted)}" + (f", {second_label} {sum(1 for n in cg if n in sec.converted)}" if second else "")
          + f"; HIP's headers declare {len(cg) - len(cg_missing)} under the same name; not declared: {', '.join(cg_missing) or '-'}")
    lower: dict[str, list[str]] = defaultdict(list)
    for ident in all_hip_ids:
        lower[ident.lower()].append(ident)
    for fam, p in packs.items():
        for name, row in sorted(p["names"].items()):
            if row["hip"] not in all_hip_ids and lower.get(row["hip"].lower()):
                print(f"  {fam}: {name} -> {row['hip']} is not declared, but {', '.join(sorted(lower[row['hip'].lower()]))} is")
    if odd:
        print(f"lines hipify-perl turned into something else than a name ({len(odd)}): " + "; ".join(odd[:20]))
    if header_odd:
        print(f"headers converted differently in <> and \"\" ({len(header_odd)}): " + "; ".join(header_odd[:10]))
    if headers_missing:
        print(f"header rows whose HIP header no inspected package ships ({len(headers_missing)}): " + "; ".join(headers_missing))
    for note in ov_notes:
        print(f"override {note}")
    if probed:
        print(f"probe ({declared_file}): since lowered for {len(probed.lowered)} rows, raised for {len(probed.raised)}; "
              f"{len(probed.dropped)} rows to [unsupported] (no probed HIP declares their name); "
              f"{len(probed.removed)} names a newer HIP no longer declares (left as they are)")
        for title, items in (("lowered", probed.lowered), ("raised", probed.raised), ("to [unsupported]", probed.dropped),
                             ("removed in a newer HIP", probed.removed), ("declared by another family's header",
                             probed.elsewhere), ("switches (macros the headers only test)", probed.switches),
                             ("older name not declared", probed.older_missing),
                             ("not probed (headers not installed)", probed.not_counted)):
            if items:
                print(f"  {title} ({len(items)}): " + "; ".join(items[:12]) + ("; ..." if len(items) > 12 else ""))
    rt = packs["runtime"]["names"]
    declared = [n for n, r in rt.items() if r["hip"] in installed_ids]
    missing = [n for n, r in rt.items() if r["hip"] not in installed_ids]
    inst = installed_release(Path(installed_hip))
    bad = [n for n in missing if version_key(rt[n]["since"]) <= version_key(inst)]
    print(f"runtime pack: {len(declared)} HIP names declared in {installed_hip} (HIP {inst}), {len(missing)} not"
          f" (all of those with since > {inst}: {'yes' if not bad else 'NO: ' + ', '.join(bad[:20])})")
    # The same with every identifier of the folder, comments and nvidia_detail/ included: a name found
    # only there is not usable on AMD (the rows' `since` stays above the installed release).
    raw: set[str] = set()
    for path in Path(installed_hip).rglob("*"):
        if path.is_file():
            raw.update(re.findall(r"[A-Za-z_]\w*", read_text(path)))
    only_raw = sorted(r["hip"] for r in rt.values() if r["hip"] in raw and r["hip"] not in installed_ids
                      and version_key(r["since"]) > version_key(inst))
    if only_raw:
        print(f"  named in {installed_hip} only by comments or nvidia_detail/ (not declared for AMD, "
              f"since > {inst}): {', '.join(only_raw)}")
    return bad
