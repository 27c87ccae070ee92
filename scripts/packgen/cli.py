"""main of scripts/gen_packs.py: options, then the stages from inputs to the written packs and the summary."""
from __future__ import annotations

import argparse
import os
import re
import shutil
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from .cuda_names import CUDA_API, CUDA_BF16_HEADERS, HIP_BF16_HEADER, NOISE, bf16_functions_hip_shares, scan_cuda
from .declared import DEFAULT_DECLARED, apply_declared, load_declared
from .families import CXX_KEYWORDS, DEFAULT_SUITES, FAMILIES, FAMILY_ORDER, FAMILY_PACKAGES, LEGACY_WHEELS
from .fetch import (HeaderSet, fetch_hip_headers, fetch_wheels, hip_header_files, hip_identifiers, installed_release,
                    log, version_key)
from .hipify import NameResults, convert_names, hipify_version, line_name, pick_second_hipify, run_hipify
from .lexer import read_text
from .packs import header_row_since, load_overrides, validate, write_pack

ROOT = Path(__file__).resolve().parent.parent.parent


def default_hipify() -> str:
    prefix = os.environ.get("HIPMIGRATE_TOOLCHAIN", "/opt/hipmigrate/toolchain")
    for cand in (Path(prefix) / "bin" / "hipify-perl", shutil.which("hipify-perl")):
        if cand and Path(cand).is_file():
            return str(cand)
    return str(Path(prefix) / "bin" / "hipify-perl")


def main(argv: list[str] | None = None, doc: str = __doc__) -> int:
    """Run the generator; `doc` is the usage text whose first paragraph describes it (gen_packs.py's docstring)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hipify-perl", default=default_hipify(), help="hipify-perl to run (default: the toolchain's)")
    ap.add_argument("--out", default=str(ROOT / "rules" / "mappings"), help="folder of the packs (default rules/mappings)")
    ap.add_argument("--cache", default="/tmp/hipmigrate-gen-cache", help="download cache (default /tmp/hipmigrate-gen-cache)")
    ap.add_argument("--cuda-include", default="/usr/local/cuda/include", help="CUDA toolkit headers")
    ap.add_argument("--installed-hip", default="/usr/include/hip", help="HIP headers checked at the end")
    ap.add_argument("--suites", default=",".join(DEFAULT_SUITES), help="Debian suites whose HIP headers give `since`")
    ap.add_argument("--overrides", help="hand-written corrections (default: <out>/overrides.toml)")
    ap.add_argument("--refresh", action="store_true", help="download the Debian packages again")
    ap.add_argument("--unpinned", action="store_true", help="take the newest NVIDIA wheels instead of the pinned ones")
    ap.add_argument("--keep-work", action="store_true", help="keep hipify-perl's scratch files (printed)")
    ap.add_argument("--second-hipify-perl", default="auto",
                    help="hipify-perl run over the names the first one leaves alone: a path, `none`, or `auto` "
                         "(default: the newest hipify-perl of the inspected suites, when newer than the first)")
    ap.add_argument("--declared", default=str(DEFAULT_DECLARED),
                    help="what the installed toolchains' headers declare (scripts/probe_packs.py writes it; default "
                         "rules/data/declared.toml), applied last; `none`: leave `since` as the Debian packages give it")
    args = ap.parse_args(argv)

    hipify = args.hipify_perl
    if not Path(hipify).is_file():
        raise SystemExit(f"gen_packs: no hipify-perl at {hipify} (run scripts/install-toolchain or pass --hipify-perl)")
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    out_dir = Path(args.out)
    out_dir.mkdir(parents=True, exist_ok=True)
    cuda_inc = Path(args.cuda_include)
    cuda_h = cuda_inc / "cuda.h"
    if not cuda_h.is_file():
        raise SystemExit(f"gen_packs: no CUDA headers in {cuda_inc}")
    cv = int(re.search(r"#define\s+CUDA_VERSION\s+(\d+)", read_text(cuda_h)).group(1))
    cuda_version = f"{cv // 1000}.{cv % 1000 // 10}"

    # 1. inputs
    wheels = fetch_wheels(cache, args.unpinned)
    suites = [s for s in args.suites.split(",") if s]
    sets, suite_hipify = fetch_hip_headers(cache, suites, args.refresh)
    hipify_full, hipify_release = hipify_version(hipify, suite_hipify)
    log(f"hipify-perl {hipify_full} ({hipify}); CUDA {cuda_version}; "
        f"HIP header sets: {', '.join(sorted({f'{s.package} {s.release}' for s in sets}))}")

    # 2. CUDA declarations and headers
    decls, cuda_headers, sstats, attr_macros = scan_cuda(cuda_inc, [p for _, p in wheels.values()])
    dropped = 0
    for _, legacy_inc in fetch_wheels(cache, args.unpinned, LEGACY_WHEELS).values():
        old_decls, old_headers, _, _ = scan_cuda(legacy_inc, [])
        for name, d in old_decls.items():
            if name not in decls and d.kind != "macro" and not d.internal:
                decls[name] = d
                dropped += 1
        for header, fam in old_headers.items():
            cuda_headers.setdefault(header, fam)
    log(f"{dropped} names of CUDA 12.8's runtime headers that CUDA {cuda_version}'s no longer declare")
    log(f"scanned {sstats['headers']} CUDA headers: {len(decls)} declared names, {len(cuda_headers)} header files")

    # 3. hipify-perl
    cand_names = sorted(n for n, d in decls.items() if d.kind != "namespace")
    cand_ns = sorted(n for n, d in decls.items() if d.kind == "namespace" and not d.internal)
    lines = [f"{n}()" for n in cand_names] + [f"{n}::x()" for n in cand_ns]
    hdrs = sorted(cuda_headers)
    work = Path(tempfile.mkdtemp(prefix="gen-packs-", dir=str(cache)))
    log(f"running hipify-perl over {len(lines)} names and {len(hdrs)} headers")
    hcache = cache / "hipify"
    first = convert_names(hipify, lines, work, hcache, "names", "experimental")
    converted, unsupported_warned, exp_names, odd = first.converted, first.unsupported, first.exp_names, first.odd
    res_h = run_hipify(hipify, [f"#include <{h}>" for h in hdrs], work, "headers_angle", cache=hcache)
    res_q = run_hipify(hipify, [f'#include "{h}"' for h in hdrs], work, "headers_quote", cache=hcache)

    header_map: dict[str, str] = {}
    header_odd: list[str] = []
    for k, h in enumerate(hdrs, 1):
        a = re.fullmatch(r"#include <(.*)>", res_h.out[k])
        q = re.fullmatch(r'#include "(.*)"', res_q.out[k])
        ha = a.group(1) if a else None
        hq = q.group(1) if q else None
        if ha != hq:
            header_odd.append(f"{h}: <{ha}> vs \"{hq}\"")
        if ha is not None and ha != h:
            header_map[h] = ha

    # 3b. the second (newer) hipify-perl, over the names and headers the first one leaves alone
    second = pick_second_hipify(args.second_hipify_perl, hipify, hipify_full, suite_hipify)
    second_label = f"hipify-perl {second[1]}" if second else None
    sec = NameResults()
    sec_headers: dict[str, str] = {}
    lines2: list[str] = []
    disagree: dict[str, tuple[str, str]] = {}
    if second:
        lines2 = [src for src in lines if line_name(src) not in converted]
        odd_headers = {o.split(":", 1)[0] for o in header_odd}
        hdrs2 = [h for h in hdrs if h not in header_map and h not in odd_headers]
        log(f"running {second_label} ({second[0]}) over the {len(lines2)} names and {len(hdrs2)} headers "
            f"hipify-perl {hipify_full} leaves alone")
        sec = convert_names(second[0], lines2, work, hcache, "names2", "experimental2")
        # for the summary only: where the two disagree on the names the first one converts
        lines_c = [src for src in lines if line_name(src) in converted]
        sec_c = convert_names(second[0], lines_c, work, hcache, "names2c", "experimental2c")
        disagree = {n: (hip, sec_c.converted.get(n, n)) for n, hip in converted.items() if sec_c.converted.get(n, n) != hip}
        res_h2 = run_hipify(second[0], [f"#include <{h}>" for h in hdrs2], work, "headers2", cache=hcache)
        for k, h in enumerate(hdrs2, 1):
            a = re.fullmatch(r"#include <(.*)>", res_h2.out[k])
            if a and a.group(1) != h:
                sec_headers[h] = a.group(1)

    # 4. HIP declarations by release
    log("indexing HIP header sets")
    by_set: list[tuple[HeaderSet, set[str], set[str]]] = []
    for s in sets:
        by_set.append((s, hip_identifiers(s.root), hip_header_files(s.root)))
    all_hip_ids: set[str] = set().union(*(ids for _, ids, _ in by_set)) if by_set else set()
    all_hip_files: set[str] = set().union(*(f for _, _, f in by_set)) if by_set else set()
    installed_ids = hip_identifiers(Path(args.installed_hip))

    def since_of(hip_name: str, packages: tuple[str, ...] | None = None) -> str | None:
        found = [s.release for s, ids, _ in by_set if hip_name in ids and (packages is None or s.package in packages)]
        return min(found, key=version_key) if found else None

    # which answers of the second hipify-perl become rows: the HIP name must be declared by the
    # inspected headers (those of the family's HIP library, where it has one)
    second_rows: dict[str, str] = {}
    second_left: dict[str, list[str]] = defaultdict(list)   # family -> "NAME -> HIP (why)"
    for name, hip in sorted(sec.converted.items()):
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
    for h, hip in sorted(sec_headers.items()):
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
    rccl_sets = [(s, ids) for s, ids, _ in by_set if s.package == "librccl-dev"]
    rccl_ids: set[str] = set().union(*(ids for _, ids in rccl_sets)) if rccl_sets else set()
    nccl_kept: list[str] = []  # NCCL API names that RCCL declares (supported under the same name)
    unsupported_left: list[str] = []
    for name, d in sorted(decls.items()):
        if name in converted or name in second_rows or name in bf16_rows:
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
    for h, hip in sorted(header_map.items()):
        packs[cuda_headers[h]]["headers"][h] = {"hip": hip}
    for h, hip in sorted(second_header_rows.items()):
        packs[cuda_headers[h]]["headers"][h] = {"hip": hip}
        sources["headers"][h] = second_label

    for fam, p in packs.items():
        for row in p["headers"].values():
            since = header_row_since(sets, fam, row["hip"]) if row["hip"] else ""
            if since:
                row["since"] = since

    # 6. overrides
    ov_path = Path(args.overrides) if args.overrides else out_dir / "overrides.toml"
    if not args.overrides and not ov_path.exists():
        ov_path = ROOT / "rules" / "mappings" / "overrides.toml"
    overrides = load_overrides(ov_path)
    applied = 0
    ov_notes: list[str] = []
    oldest_hip = min((s for s in sets if s.package == "libamdhip64-dev"), key=lambda s: version_key(s.release), default=None)
    oldest_ids = next((ids for s, ids, _ in by_set if s is oldest_hip), set())
    oldest_files = next((files for s, _, files in by_set if s is oldest_hip), set())

    def header_since(hip_header: str) -> str | None:
        found = [s.release for s, _, files in by_set if hip_header in files]
        return min(found, key=version_key) if found else None
    for fam, tables in overrides.items():
        for table in ("names", "unsupported", "headers"):
            for key, row in tables.get(table, {}).items():
                if table == "names":
                    found = since_of(row["hip"])
                    note = f"{key}: since {row['since']} (headers inspected: {found or 'none'})"
                    if row.get("older"):
                        ok = row["older"] in oldest_ids
                        note += f", older {row['older']} {'in' if ok else 'NOT in'} HIP {oldest_hip.release if oldest_hip else '?'}"
                    ov_notes.append(note)
                elif table == "headers" and row["hip"] and row["hip"] not in all_hip_files:
                    ov_notes.append(f"header {key} -> {row['hip']}: NOT shipped by any inspected package")
                elif table == "headers" and "since" in row:
                    found = header_since(row["hip"])
                    note = f"header {key} -> {row['hip']}: since {row['since']} (shipped from: {found or 'none'})"
                    if row.get("older"):
                        ok = row["older"] in oldest_files
                        note += f", older {row['older']} {'in' if ok else 'NOT in'} HIP {oldest_hip.release if oldest_hip else '?'}"
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
    # 6b. the probe of the installed toolchains (scripts/probe_packs.py): `since` follows what their headers declare
    inspected_by = {fam: sorted({s.release for s in sets if s.package in FAMILY_PACKAGES.get(fam, ("libamdhip64-dev",))},
                                key=version_key) for fam in packs}
    probed = None
    if args.declared != "none" and Path(args.declared).is_file():
        sources.setdefault("unsupported", {})
        probed = apply_declared(packs, sources, load_declared(Path(args.declared)), inspected_by)
    validate(packs)
    headers_missing = [f"{h} -> {r[key]}" for p in packs.values() for h, r in sorted(p["headers"].items())
                       for key in ("hip", "older") if r.get(key) and r[key] not in all_hip_files]

    # 7. write
    releases = sorted({s.version.split("-")[0].split("+")[0] for s in sets if s.package == "libamdhip64-dev"},
                      key=lambda v: [int(x) for x in re.findall(r"\d+", v)])
    libs = ", ".join(f"{d.replace('nvidia-', '').replace('-cu13', '')} {v}" for d, (v, _) in sorted(wheels.items()))
    engines = f"hipify-perl {hipify_full}" + (f" (then {second_label} for the names it leaves alone)" if second else "")
    probed_releases = sorted(load_declared(Path(args.declared)).releases, key=version_key) if probed else []
    generated = (f"scripts/gen_packs.py from CUDA {cuda_version} headers ({libs}), {engines}, "
                 f"HIP headers {'/'.join(releases)} (Debian {'/'.join(suites)})"
                 + (f", checked by compiling against the installed HIP {'/'.join(probed_releases)} "
                    f"(scripts/probe_packs.py)" if probed_releases else ""))
    bf16_legend = (" `# amd_hip_bf16.h X`: a function of CUDA's cuda_bf16.h that HIP's amd_hip_bf16.h declares under"
                   " the same name from HIP X (`since` is older where HIP had the name before, for __half).")

    def legend(fam: str) -> str:
        """What the row comments of this family's pack mean (the bf16 mark only where the pack has one)."""
        bf16 = any(sources["names"].get(n, "").startswith("amd_hip_bf16.h") for n in packs[fam]["names"])
        return (f"Rows without a comment: hipify-perl {hipify_full}."
                + (f" `# {second_label}`: a name hipify-perl {hipify_full} leaves alone, converted by {second_label}"
                   f" to a name the inspected HIP headers declare." if second else "")
                + (bf16_legend if bf16 else "")
                + " `# overrides.toml`: a hand-checked row."
                + (" `# probe: ...`: what compiling against the installed HIP toolchains found (scripts/probe_packs.py)."
                   if any(k in packs[fam]["unsupported"] for k in sources.get("unsupported", {})) else ""))
    # The oldest release inspected of each family's HIP library (its Debian packages, and the probed toolchains whose
    # headers have the library): a `since` at or below it only says the name was already there, maybe long before.
    def inspected_from(fam: str) -> str:
        return inspected_by[fam][0] if inspected_by[fam] else ""
    def inspected(fam: str) -> list[str]:
        return inspected_by[fam]
    for fam, p in packs.items():
        write_pack(out_dir / f"{fam}.toml", fam, generated, p["names"], p["unsupported"], p["headers"],
                   sources=sources, legend=legend(fam), inspected_from=inspected_from(fam), inspected=inspected(fam))

    # 8. summary
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
        print(f"probe ({args.declared}): since lowered for {len(probed.lowered)} rows, raised for {len(probed.raised)}; "
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
    inst = installed_release(Path(args.installed_hip))
    bad = [n for n in missing if version_key(rt[n]["since"]) <= version_key(inst)]
    print(f"runtime pack: {len(declared)} HIP names declared in {args.installed_hip} (HIP {inst}), {len(missing)} not"
          f" (all of those with since > {inst}: {'yes' if not bad else 'NO: ' + ', '.join(bad[:20])})")
    # The same with every identifier of the folder, comments and nvidia_detail/ included: a name found
    # only there is not usable on AMD (the rows' `since` stays above the installed release).
    raw: set[str] = set()
    for path in Path(args.installed_hip).rglob("*"):
        if path.is_file():
            raw.update(re.findall(r"[A-Za-z_]\w*", read_text(path)))
    only_raw = sorted(r["hip"] for r in rt.values() if r["hip"] in raw and r["hip"] not in installed_ids
                      and version_key(r["since"]) > version_key(inst))
    if only_raw:
        print(f"  named in {args.installed_hip} only by comments or nvidia_detail/ (not declared for AMD, "
              f"since > {inst}): {', '.join(only_raw)}")
    if args.keep_work:
        print(f"scratch files: {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if not bad else 1
