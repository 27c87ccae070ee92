#!/usr/bin/env python3
"""Write the header rows of the cub and thrust packs for the libraries' own headers (scripts/packgen/library_headers.py
says which), from the installed headers, without regenerating every pack (scripts/gen_packs.py, which makes the same
rows, needs its downloads):

    python scripts/gen_library_headers.py [--cuda-include /usr/local/cuda/include] [--hip-root R ...]

The HIP roots default to the toolchains scripts/install-toolchain installs; a HIP header that the oldest root with
the library lacks gets `since`, the release of the first root that has it. The [headers] table of each pack is
written again; the rest of the file stays as it is.
"""
from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.packgen.library_headers import LIBRARIES, Library, hip_files, same_path_rows  # noqa: E402
from scripts.packgen.packs import toml_key, toml_row  # noqa: E402

TOOLCHAIN = Path("/opt/hipmigrate/toolchain")
ROOTS = [("5.7", TOOLCHAIN / "include"), ("6.4", TOOLCHAIN / "hip-6.4/root/usr/include"),
         ("7.2", TOOLCHAIN / "hip-7.2/root/usr/include")]


def write_pack(library: Library, cuda_include: Path, roots: list[tuple[str, Path]]) -> str:
    pack = ROOT / "rules" / "mappings" / f"{library.family}.toml"
    by_release = [(release, files) for release, include in roots if (files := hip_files(library, include))]
    if not by_release:
        raise SystemExit(f"gen_library_headers: no {library.hip_prefix} headers under the HIP roots "
                         "(run scripts/install-toolchain)")
    text = pack.read_text(encoding="utf-8")
    head, sep, _ = text.partition("\n[headers]\n")
    if not sep:
        raise SystemExit(f"gen_library_headers: {pack} has no [headers] table")
    headers = tomllib.loads(text)["headers"]
    kept = {k: v for k, v in headers.items() if "# " + library.source not in _row_line(text, k)}
    every = set().union(*(files for _, files in by_release))
    rows = same_path_rows(library, cuda_include, every, set(kept))
    if not rows:
        raise SystemExit(f"gen_library_headers: no {library.prefix} headers under {cuda_include}")
    lines = [f"{toml_key(k)} = {toml_row(v)}" for k, v in sorted(kept.items())]
    for name, hip in sorted(rows.items()):
        row = {"hip": hip}
        having = [release for release, files in by_release if hip in files]
        if having and having[0] != by_release[0][0]:
            row["since"] = having[0]
        lines.append(f"{toml_key(name)} = {toml_row(row)}  # {library.source}")
    out = head + sep + "\n".join(sorted(lines, key=lambda l: re.match(r'"?([^"=]+)', l).group(1))) + "\n"
    tomllib.loads(out)  # must parse
    pack.write_text(out, encoding="utf-8")
    same = sum(1 for h in rows.values() if h != library.umbrella)
    return f"{pack.relative_to(ROOT)}: {len(rows)} header rows of {library.prefix} ({same} with a header of the same path)"


def _row_line(text: str, key: str) -> str:
    """The pack's line for header `key` (its comment says where the row came from)."""
    m = re.search(rf"^{re.escape(toml_key(key))} = [^\n]*", text, re.M)
    return m.group(0) if m else ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cuda-include", type=Path, default=Path("/usr/local/cuda/include"))
    ap.add_argument("--hip-root", action="append", default=[], metavar="RELEASE=INCLUDE",
                    help="a HIP release and its include folder (repeatable; default: the installed toolchains)")
    args = ap.parse_args(argv)
    roots = [(r.split("=", 1)[0], Path(r.split("=", 1)[1])) for r in args.hip_root] or ROOTS
    for library in LIBRARIES:
        print(write_pack(library, args.cuda_include, roots))
    return 0


if __name__ == "__main__":
    sys.exit(main())
