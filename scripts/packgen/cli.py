"""main of scripts/gen_packs.py: options, then the stages from inputs to the written packs and the summary (the
hipify-perl runs in convert.py, the rows in rows.py, the summary in summary.py)."""
from __future__ import annotations

import argparse
import os
import re
import shutil
from pathlib import Path

from .convert import Conversion, convert
from .cuda_names import scan_cuda
from .declared import DEFAULT_DECLARED, load_declared
from .families import DEFAULT_SUITES, LEGACY_WHEELS
from .fetch import fetch_hip_headers, fetch_wheels, log, version_key
from .hipify import hipify_version
from .lexer import read_text
from .packs import load_overrides, validate, write_pack
from .rows import Rows, apply_overrides, apply_probe, index_hip, make_rows
from .summary import summary

ROOT = Path(__file__).resolve().parent.parent.parent


def default_hipify() -> str:
    prefix = os.environ.get("HIPMIGRATE_TOOLCHAIN", "/opt/hipmigrate/toolchain")
    for cand in (Path(prefix) / "bin" / "hipify-perl", shutil.which("hipify-perl")):
        if cand and Path(cand).is_file():
            return str(cand)
    return str(Path(prefix) / "bin" / "hipify-perl")


def options(argv: list[str] | None, doc: str) -> argparse.Namespace:
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
    return ap.parse_args(argv)


def cuda_declarations(cuda_inc: Path, cuda_version: str, wheels: dict, cache: Path,
                      unpinned: bool) -> tuple[dict, dict, set[str]]:
    """Stage 2: the names the CUDA headers declare (with those of CUDA 12.8's runtime that newer headers dropped),
    the header files by family, and the attribute macros."""
    decls, cuda_headers, sstats, attr_macros = scan_cuda(cuda_inc, [p for _, p in wheels.values()])
    dropped = 0
    for _, legacy_inc in fetch_wheels(cache, unpinned, LEGACY_WHEELS).values():
        old_decls, old_headers, _, _ = scan_cuda(legacy_inc, [])
        for name, d in old_decls.items():
            if name not in decls and d.kind != "macro" and not d.internal:
                decls[name] = d
                dropped += 1
        for header, fam in old_headers.items():
            cuda_headers.setdefault(header, fam)
    log(f"{dropped} names of CUDA 12.8's runtime headers that CUDA {cuda_version}'s no longer declare")
    log(f"scanned {sstats['headers']} CUDA headers: {len(decls)} declared names, {len(cuda_headers)} header files")
    return decls, cuda_headers, attr_macros


def overrides_of(args: argparse.Namespace, out_dir: Path) -> dict:
    """Stage 6's input: --overrides, else <out>/overrides.toml, else the repository's."""
    ov_path = Path(args.overrides) if args.overrides else out_dir / "overrides.toml"
    if not args.overrides and not ov_path.exists():
        ov_path = ROOT / "rules" / "mappings" / "overrides.toml"
    return load_overrides(ov_path)


def write(out_dir: Path, cuda_version: str, wheels: dict, sets: list, suites: list[str], hipify_full: str,
          conv: Conversion, rows: Rows, declared_file: str) -> str:
    """Stage 7: every pack, with the line that says what it was generated from (returned)."""
    packs, sources, inspected_by, probed = rows.packs, rows.sources, rows.inspected_by, rows.probed
    second, second_label = conv.second, conv.second_label
    releases = sorted({s.version.split("-")[0].split("+")[0] for s in sets if s.package == "libamdhip64-dev"},
                      key=lambda v: [int(x) for x in re.findall(r"\d+", v)])
    libs = ", ".join(f"{d.replace('nvidia-', '').replace('-cu13', '')} {v}" for d, (v, _) in sorted(wheels.items()))
    engines = f"hipify-perl {hipify_full}" + (f" (then {second_label} for the names it leaves alone)" if second else "")
    probed_releases = sorted(load_declared(Path(declared_file)).releases, key=version_key) if probed else []
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
                + (" `# same path in hipCUB`: a CUB header hipify-perl leaves alone, its hipCUB header of the same path,"
                   " else hipCUB's umbrella header (scripts/packgen/library_headers.py)." if fam == "cub" else "")
                + (" `# same path in rocThrust`: a header of Thrust's CUDA system, rocThrust's HIP system header of the"
                   " same path (scripts/packgen/library_headers.py)." if fam == "thrust" else "")
                + (" `# the value of X`: a CUDA enumerator with no row of its own that its enum gives the value of X"
                   " (a deprecated spelling), X's row." if any(sources["names"].get(n, "").startswith("the value of ")
                                                              for n in packs[fam]["names"]) else "")
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
    return generated


def main(argv: list[str] | None = None, doc: str = __doc__) -> int:
    """Run the generator; `doc` is the usage text whose first paragraph describes it (gen_packs.py's docstring)."""
    args = options(argv, doc)
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

    decls, cuda_headers, attr_macros = cuda_declarations(cuda_inc, cuda_version, wheels, cache, args.unpinned)
    conv = convert(hipify, hipify_full, args.second_hipify_perl, suite_hipify, decls, cuda_headers, cache)
    hip = index_hip(sets, Path(args.installed_hip))
    rows = make_rows(conv, decls, cuda_headers, attr_macros, cuda_inc, sets, hip, hipify_release)
    apply_overrides(rows, overrides_of(args, out_dir), sets, hip)
    apply_probe(rows, sets, args.declared)
    validate(rows.packs)
    generated = write(out_dir, cuda_version, wheels, sets, suites, hipify_full, conv, rows, args.declared)
    bad = summary(out_dir, generated, hipify_full, decls, conv, hip, rows, args.declared, args.installed_hip)
    if args.keep_work:
        print(f"scratch files: {conv.work}")
    else:
        shutil.rmtree(conv.work, ignore_errors=True)
    return 0 if not bad else 1
