#!/usr/bin/env python3
"""Write the cub pack's header rows for CUB's own headers (scripts/packgen/cub_headers.py says which), from the
installed headers, without regenerating every pack (scripts/gen_packs.py, which makes the same rows, needs its
downloads):

    python scripts/gen_cub_headers.py [--cuda-include /usr/local/cuda/include] [--hip-root R ...]

The HIP roots default to the toolchains scripts/install-toolchain installs; a hipCUB header that the oldest root
lacks gets `since`, the release of the first root that has it. The [headers] table of rules/mappings/cub.toml is
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

from scripts.packgen.cub_headers import same_path_rows  # noqa: E402
from scripts.packgen.packs import toml_key, toml_row  # noqa: E402

PACK = ROOT / "rules" / "mappings" / "cub.toml"
TOOLCHAIN = Path("/opt/hipmigrate/toolchain")
ROOTS = [("5.7", TOOLCHAIN / "include"), ("6.4", TOOLCHAIN / "hip-6.4/root/usr/include"),
         ("7.2", TOOLCHAIN / "hip-7.2/root/usr/include")]
SOURCE = "same path in hipCUB"


def hipcub_files(include: Path) -> set[str]:
    root = include / "hipcub"
    return {p.relative_to(include).as_posix() for p in root.rglob("*.hpp")} if root.is_dir() else set()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cuda-include", type=Path, default=Path("/usr/local/cuda/include"))
    ap.add_argument("--hip-root", action="append", default=[], metavar="RELEASE=INCLUDE",
                    help="a HIP release and its include folder (repeatable; default: the installed toolchains)")
    args = ap.parse_args(argv)
    roots = [(r.split("=", 1)[0], Path(r.split("=", 1)[1])) for r in args.hip_root] or ROOTS
    by_release = [(release, hipcub_files(include)) for release, include in roots if (include / "hipcub").is_dir()]
    if not by_release:
        raise SystemExit("gen_cub_headers: no hipCUB headers under the HIP roots (run scripts/install-toolchain)")
    text = PACK.read_text(encoding="utf-8")
    head, sep, _ = text.partition("\n[headers]\n")
    if not sep:
        raise SystemExit(f"gen_cub_headers: {PACK} has no [headers] table")
    headers = tomllib.loads(text)["headers"]
    kept = {k: v for k, v in headers.items() if not k.startswith("cub/") or k == "cub/cub.cuh"}
    every = set().union(*(files for _, files in by_release))
    rows = same_path_rows(args.cuda_include, every, set(kept))
    if not rows:
        raise SystemExit(f"gen_cub_headers: no CUB headers under {args.cuda_include}")
    lines = [f"{toml_key(k)} = {toml_row(v)}" for k, v in sorted(kept.items())]
    for name, hip in sorted(rows.items()):
        row = {"hip": hip}
        having = [release for release, files in by_release if hip in files]
        if having and having[0] != by_release[0][0]:
            row["since"] = having[0]
        lines.append(f"{toml_key(name)} = {toml_row(row)}  # {SOURCE}")
    out = head + sep + "\n".join(sorted(lines, key=lambda l: re.match(r'"?([^"=]+)', l).group(1))) + "\n"
    tomllib.loads(out)  # must parse
    PACK.write_text(out, encoding="utf-8")
    print(f"{PACK.relative_to(ROOT)}: {len(rows)} CUB header rows ({sum(1 for h in rows.values() if h != 'hipcub/hipcub.hpp')} "
          f"with a hipCUB header of the same path)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
