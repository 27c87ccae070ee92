#!/usr/bin/env python3
"""Probe every mapping of the packs against the installed HIP toolchains, and record what their headers declare.

    python scripts/probe_packs.py [--out rules/data/declared.toml] [--hipcc PATH ...] [--families cublas,...]
                                  [--no-regenerate] [--cache DIR]

For each installed toolchain (migrate.toolchain finds them: Debian's HIP 5.2, with the library headers that
scripts/install-toolchain unpacks into /opt/hipmigrate/toolchain/include, and HIP 6.4 in its root) and each API
family of the packs, one translation unit includes the family's HIP headers and names every HIP identifier its rows
write (`hip` and `older`); clang (-fsyntax-only -ferror-limit=0) says which it does not declare (scripts/packgen/
probe.py). A name the family's headers lack is compiled once more with every family's headers, so a name another
header declares (hiprtc.h's HIPRTC_JIT_* in the driver API) is told apart from one no header declares; a missing
macro that the headers only test (`#if defined(HIPCUB_STDERR)`) is a switch, not a missing name.

The rows probed are those scripts/gen_packs.py generates before it applies a probe (it is run with --declared none
into a scratch folder, from its cache), so a name that a probe moved out of [names] is probed again, and those of the
packs kept by hand (rules/mappings/cudnn.toml), whose result is recorded but not applied. The result goes
to rules/data/declared.toml (per release: the toolchain, and per family the names declared, missing, declared only
by another family's header, and the switches), and then scripts/gen_packs.py regenerates the packs, applying it
(packgen/declared.py): `since` follows the releases whose headers declare the name, so the engine writes a name for
target X only when X's headers declare it (docs/packs.md, "Probed releases").
"""
from __future__ import annotations

import argparse
import contextlib
import io
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

import gen_packs  # noqa: E402
from packgen.declared import DEFAULT_DECLARED, families_to_probe, write_declared  # noqa: E402
from packgen.families import FAMILIES  # noqa: E402
from packgen.fetch import version_key  # noqa: E402
from packgen.probe import Compiler, probe  # noqa: E402


def compilers(explicit: list[str]) -> list[Compiler]:
    """One Compiler per installed HIP release (the newest toolchain of each), oldest first."""
    from migrate import toolchain

    found = toolchain.discover_all()
    chosen: dict[str, Compiler] = {}
    for tc in found:
        if explicit and tc.hipcc not in explicit:
            continue
        release = tc.short_version
        if not release or release in chosen:
            continue
        target = "gfx942" if version_key(release) >= (6, 0) else "gfx90a"
        root = str(Path(tc.enter).parent.parent / "root") if tc.enter else "/"
        hip_include = Path(root) / (tc.rocm_path or "/usr").lstrip("/") / "include" / "hip"
        chosen[release] = Compiler(release, tc.hipcc, tuple(str(d) for d in tc.include_dirs()), target,
                                   f"{tc.label}, {tc.hip_version}", root, str(hip_include))
    return [chosen[r] for r in sorted(chosen, key=version_key)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=str(DEFAULT_DECLARED), help="where the result goes (default rules/data/declared.toml)")
    ap.add_argument("--hipcc", action="append", default=[], help="probe only this hipcc (repeatable)")
    ap.add_argument("--families", default="", help="comma-separated families (default: all)")
    ap.add_argument("--cache", default="/tmp/hipmigrate-gen-cache", help="scripts/gen_packs.py's download cache")
    ap.add_argument("--no-regenerate", action="store_true", help="write the result only, leave the packs as they are")
    args = ap.parse_args(argv)

    comps = compilers(args.hipcc)
    if not comps:
        print("probe_packs: no HIP toolchain installed (run scripts/install-toolchain)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="hipmigrate-probe-packs-") as tmp:
        print(f"probe_packs: generating the packs before any probe into {tmp} (scripts/gen_packs.py --declared none)",
              file=sys.stderr, flush=True)
        with contextlib.redirect_stdout(io.StringIO()):  # its summary is the second run's to print
            if gen_packs.main(["--out", tmp, "--cache", args.cache, "--declared", "none"]) not in (0, 1):
                return 2
        for pack in sorted((ROOT / "rules" / "mappings").glob("*.toml")):  # packs kept by hand (cudnn.toml) too
            if pack.name != "overrides.toml" and pack.stem not in FAMILIES:
                shutil.copyfile(pack, Path(tmp) / pack.name)
        families = families_to_probe(Path(tmp))
    if args.families:
        keep = set(args.families.split(","))
        families = {f: v for f, v in families.items() if f in keep}
    results = {}
    for comp in comps:
        start = time.time()
        results[comp.release] = (comp, probe(comp, families))
        per = results[comp.release][1]
        print(f"HIP {comp.release} ({comp.hipcc}): {sum(len(r.declared) for r in per.values())} declared, "
              f"{sum(len(r.missing) for r in per.values())} missing, "
              f"{sum(len(r.elsewhere) for r in per.values())} only through another family's header "
              f"({time.time() - start:.0f} s)", flush=True)
    out = Path(args.out)
    write_declared(out, results, merge=bool(args.families or args.hipcc))
    print(f"written {out}")
    if args.no_regenerate:
        return 0
    print("probe_packs: regenerating the packs with the result (scripts/gen_packs.py)", file=sys.stderr, flush=True)
    return gen_packs.main(["--cache", args.cache, "--declared", str(out)])


if __name__ == "__main__":
    sys.exit(main())
