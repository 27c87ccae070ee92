"""How many of the names the packs write each installed HIP release really declares, per pack.

    python benchmarks/declared.py [--from-file rules/data/declared.toml] [--packs rules/mappings]

For each installed HIP toolchain (Debian's HIP 5.2 with the library headers scripts/install-toolchain adds, HIP 6.4
in its root) and each pack, the HIP names of the pack's rows (`hip` and `older`, once each) are compiled against the
pack's HIP headers (scripts/packgen/probe.py: one unit per pack, `using ::NAME;` per name, clang -fsyntax-only) and
counted: declared by the pack's own headers; declared only when every pack's headers (and HIP's own top-level
headers) are included; switches (macros the headers only test); missing. A pack whose headers a toolchain lacks
altogether (hipBLASLt and roctx in HIP 5.2 here) is shown as not installed. Then the rows the engine writes for that
release without a word (`since` not newer than it) and how many of those the release declares.

--from-file reads a probe's result (scripts/probe_packs.py writes rules/data/declared.toml) instead of compiling.
A measurement, not a test: exit 0 whatever the numbers, 2 without a toolchain.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "scripts"))

from migrate.packs import load_packs, version_tuple  # noqa: E402
from packgen.declared import families_to_probe, load_declared  # noqa: E402
from packgen.probe import probe  # noqa: E402
from probe_packs import compilers  # noqa: E402


def live(pack_dir: Path) -> dict[str, dict[str, dict]]:
    """release -> family -> {state: set of names, headers_missing: [...]} by compiling now."""
    families = families_to_probe(pack_dir)
    out: dict[str, dict[str, dict]] = {}
    for comp in compilers([]):
        start = time.time()
        results = probe(comp, families)
        out[comp.release] = {fam: {"declared": r.declared, "elsewhere": r.elsewhere, "switches": r.switches,
                                   "missing": r.missing, "headers_missing": sorted(r.headers_missing)}
                             for fam, r in results.items()}
        print(f"probed HIP {comp.release} with {comp.hipcc} in {time.time() - start:.0f} s", file=sys.stderr)
    return out


def from_file(path: Path) -> dict[str, dict[str, dict]]:
    declared = load_declared(path)
    return {release: {fam: {key: set(data.get(key, ())) for key in ("declared", "elsewhere", "switches", "missing")}
                      | {"headers_missing": data.get("headers_missing", [])}
                      for fam, data in entry.get("families", {}).items()}
            for release, entry in declared.releases.items()}


def _written(m, target: tuple[int, int]) -> str | None:
    """The name the engine writes for `target` without a warning: `hip`, or `older` below `since`; None when it
    writes a name it calls too new."""
    if not m.newer_than(target):
        return m.hip
    return m.older or None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--packs", type=Path, default=REPO / "rules" / "mappings")
    ap.add_argument("--from-file", type=Path, help="a probe's result instead of compiling now")
    args = ap.parse_args(argv)
    packs = load_packs(args.packs)
    results = from_file(args.from_file) if args.from_file else live(args.packs)
    if not results:
        print("no HIP toolchain installed (scripts/install-toolchain)", file=sys.stderr)
        return 2
    releases = sorted(results, key=version_tuple)
    names: dict[str, set[str]] = {}
    for m in packs.names.values():
        names.setdefault(m.family, set()).add(m.hip)
        if m.older:
            names[m.family].add(m.older)
    header = f"{'pack':<20}{'names':>6}"
    for release in releases:
        header += f"  | HIP {release}: {'declared':>8} {'other hdr':>9} {'switch':>6} {'missing':>7} {'rows ok':>13}"
    print(header)
    totals = {r: [0, 0, 0, 0, 0, 0] for r in releases}
    for fam in sorted(names):
        line = f"{fam:<20}{len(names[fam]):>6}"
        for release in releases:
            data = results[release].get(fam)
            if data is None:
                line += f"  | {'(not probed)':>61}"
                continue
            if data["headers_missing"] and not data["declared"]:
                line += f"  | {'not installed: ' + ', '.join(data['headers_missing']):>61}"
                continue
            written = [_written(m, version_tuple(release)) for m in packs.names.values() if m.family == fam]
            rows = [name for name in written if name is not None]
            ok = [name for name in rows if name not in data["missing"]]
            counts = [len(data["declared"]), len(data["elsewhere"]), len(data["switches"]), len(data["missing"])]
            line += (f"  | {'':8}{counts[0]:>8} {counts[1]:>9} {counts[2]:>6} {counts[3]:>7} "
                     f"{f'{len(ok)}/{len(rows)}':>13}")
            for k, c in enumerate(counts + [len(ok), len(rows)]):
                totals[release][k] += c
        print(line)
    line = f"{'total':<20}{sum(len(v) for v in names.values()):>6}"
    for release in releases:
        t = totals[release]
        line += f"  | {'':8}{t[0]:>8} {t[1]:>9} {t[2]:>6} {t[3]:>7} {f'{t[4]}/{t[5]}':>13}"
    print(line)
    since = {h.hip: h.since for h in packs.headers.values() if h.hip}
    for release in releases:
        for fam, data in sorted(results[release].items()):
            if data["headers_missing"] and data["declared"]:
                why = [f"{h} (HIP {since[h]} and later)" if since.get(h) and version_tuple(since[h]) > version_tuple(
                    release) else f"{h} (not installed here)" for h in data["headers_missing"]]
                print(f"HIP {release}, {fam}: headers missing: {', '.join(why)}; their names count as missing")
    print("declared: by the pack's own HIP headers; other hdr: only with every pack's headers and HIP's own included "
          "(the migrated file must include it); switch: a macro the headers only test; rows ok: of the rows the "
          "engine migrates for that release without a warning (the `hip` name from `since`, the `older` one below "
          "it), those whose written name the release declares")
    return 0


if __name__ == "__main__":
    sys.exit(main())
