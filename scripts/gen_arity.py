"""Regenerate rules/data/arity.toml: the mapped functions whose HIP counterpart takes other argument counts.

    python scripts/gen_arity.py [--cuda /usr/local/cuda/include] [--cache DIR] [--out FILE]

For each function the mapping packs rename (CUDA name -> HIP name), the prototypes are read from the headers:
CUDA's from the toolkit here and from the NVIDIA wheels that scripts/gen_packs.py caches (cuBLAS, cuSPARSE,
cuSOLVER, cuFFT, cuRAND, NCCL, CUDA 12.8's runtime), HIP's from each HIP release it caches (Debian's
libamdhip64-dev and the hip* library packages: 5.2/5.3, 5.7, 6.4; hipBLASLt only in sid's, 7.1). A prototype gives the argument counts it
accepts: its parameters, fewer when trailing ones have defaults (CUDA's `__dv(x)`, HIP's `__dparm(x)`, or
`= x`); overloads add theirs (CUDA's C++ `cudaEventCreate(event, flags)`). A function gets a row when a count
that CUDA accepts is not accepted by some inspected HIP release: `cuda` and each release's [fewest, most]
(-1: variadic), and `defaults`, CUDA's default argument texts for the trailing parameters. Rule CPP015 reads it.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT))

from packgen.fetch import cached_hip  # noqa: E402
from packgen.lexer import read_text, strip_comments  # noqa: E402

HIP_PACKAGES = ("libamdhip64-dev", "libhipblas-dev", "libhipsparse-dev", "libhipsolver-dev", "libhipfft-dev",
                "libhiprand-dev", "librccl-dev", "libhipblaslt-dev", "libhipblas-common-dev")
DEFAULT = re.compile(r"__dv\s*\((.*)\)\s*$|__dparm\s*\((.*)\)\s*$|=\s*(.+)$", re.S)
NOT_BEFORE = {"return", "else", "case", "throw", "new", "delete", "sizeof", "typedef", "define"}


def header_text(roots: list[Path]) -> str:
    parts = []
    for root in roots:
        for path in sorted(root.rglob("*.h")) + sorted(root.rglob("*.hpp")):
            text = strip_comments(read_text(path))
            parts.append(text.replace("\\\r\n", " ").replace("\\\n", " "))
    return "\n".join(parts)


def parameters(inside: str) -> list[str]:
    """The parameters of a prototype, split at the commas outside parentheses, brackets and angle brackets."""
    params, depth, current = [], 0, []
    for ch in inside:
        if ch in "([<{":
            depth += 1
        elif ch in ")]>}":
            depth -= 1
        if ch == "," and depth == 0:
            params.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    last = "".join(current).strip()
    if last and last != "void":
        params.append(last)
    return params


def closing(text: str, start: int) -> int:
    """The index after the parenthesis that closes the one at `start`, or -1."""
    depth = 0
    for i in range(start, min(len(text), start + 4000)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


class Headers:
    """The text of some headers, with the places where each name is followed by `(`."""

    def __init__(self, text: str):
        self.text = text
        self.at: dict[str, list[re.Match]] = {}
        for m in re.finditer(r"(?<![\w.>:])([A-Za-z_]\w*)\s*\(", text):
            self.at.setdefault(m.group(1), []).append(m)
        # `#define cublasSaxpy cublasSaxpy_v2`: the name code writes is the other's (a legacy prototype of the
        # same name, cublas.h's, is not what it calls)
        self.alias = {m.group(1): m.group(2) for m in
                      re.finditer(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([A-Za-z_]\w*)[ \t]*$", text, re.M)}


def prototypes(name: str, headers: Headers) -> list[list[str]]:
    """The parameter lists of the declarations and definitions of `name` (calls left out: a declaration's name
    follows a type, a call's follows `=`, `(`, `return`, ...)."""
    found = []
    text = headers.text
    seen = {name}
    while name in headers.alias and headers.alias[name] not in seen:
        name = headers.alias[name]
        seen.add(name)
    for m in headers.at.get(name, []):
        before = text[max(0, m.start() - 80):m.start()].rstrip()
        word = re.search(r"(\w+)$", before)
        if not before or before[-1] not in "*&" and (word is None or word.group(1) in NOT_BEFORE):
            continue
        end = closing(text, m.end() - 1)
        if end < 0:
            continue
        params = parameters(text[m.end():end - 1])
        if any(not _declares(p) for p in params):
            continue
        found.append(params)
    return found


def _declares(param: str) -> bool:
    """A parameter of a declaration: a type and a name (or a pointer), `...`, or a bare type with a default."""
    param = DEFAULT.sub("", param).strip()
    return param == "..." or bool(re.search(r"[\w>\]]\s*[\s*&]\s*\w+(\s*\[[^\]]*\])?$|[*&]$", param))


def accepted(protos: list[list[str]]) -> tuple[int, int, list[str]] | None:
    """(fewest, most, defaults of the longest prototype's trailing parameters); most -1 when variadic."""
    if not protos:
        return None
    fewest, most, defaults = 10 ** 6, 0, []
    for params in protos:
        trailing = []
        for p in reversed(params):
            m = DEFAULT.search(p)
            if m is None:
                break
            trailing.insert(0, next(g for g in m.groups() if g is not None).strip())
        variadic = bool(params) and params[-1].strip() == "..."
        fewest = min(fewest, len(params) - len(trailing) - (1 if variadic else 0))
        count = -1 if variadic else len(params)
        if most != -1 and (count == -1 or count > most or count == most and len(trailing) > len(defaults)):
            most, defaults = count, trailing
    return fewest, most, defaults


def takes(span: tuple[int, int], n: int) -> bool:
    return span[0] <= n and (span[1] == -1 or n <= span[1])


def hip_roots(cache: Path) -> dict[str, list[Path]]:
    """release -> include folders of the HIP packages of that Debian suite."""
    return {release: [root / pkg / "usr" / "include" for pkg in HIP_PACKAGES if (root / pkg).is_dir()]
            for release, root in cached_hip(cache)}


def rows(mapped: dict[str, str], cuda_text: Headers, hip_texts: dict[str, Headers]) -> list[str]:
    lines = []
    for cuda_name, hip_name in sorted(mapped.items()):
        cuda = accepted(prototypes(cuda_name, cuda_text))
        if cuda is None:
            continue
        counts = range(cuda[0], (cuda[1] if cuda[1] != -1 else cuda[0] + 1) + 1)
        spans = {}
        for release, text in hip_texts.items():
            hip = accepted(prototypes(hip_name, text))
            if hip is not None:
                spans[release] = hip
        if not any(not takes(s[:2], n) for s in spans.values() for n in counts):
            continue
        releases = ", ".join(f'"{r}" = [{s[0]}, {s[1]}]' for r, s in spans.items())
        defaults = ", ".join('"' + d.replace("\\", "\\\\").replace('"', '\\"') + '"' for d in cuda[2])
        lines.append(f'{cuda_name} = {{ hip = "{hip_name}", cuda = [{cuda[0]}, {cuda[1]}], defaults = [{defaults}], '
                     f"releases = {{ {releases} }} }}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuda", type=Path, default=Path("/usr/local/cuda/include"))
    ap.add_argument("--cache", type=Path, default=Path(os.environ.get("HIPMIGRATE_GEN_CACHE", "/tmp/hipmigrate-gen-cache")))
    ap.add_argument("--out", type=Path, default=ROOT / "rules" / "data" / "arity.toml")
    args = ap.parse_args(argv)
    from migrate.packs import default_packs

    packs = default_packs(str(ROOT / "rules" / "mappings"))
    mapped = {m.cuda: m.hip for m in packs.names.values() if m.kind == "function" and m.hip}
    wheels = sorted(args.cache.glob("cuda-libs/*/include"))
    hips = hip_roots(args.cache)
    if not args.cuda.is_dir() or not hips:
        print(f"need CUDA's headers ({args.cuda}) and the HIP headers that scripts/gen_packs.py caches in "
              f"{args.cache}: run scripts/gen_packs.py first", file=sys.stderr)
        return 2
    cuda_text = Headers(header_text([args.cuda, *wheels]))
    hip_texts = {release: Headers(header_text(roots)) for release, roots in hips.items()}
    found = rows(mapped, cuda_text, hip_texts)
    lines = ["# Generated by scripts/gen_arity.py -- do not edit.",
             f"# CUDA prototypes from {args.cuda} and {len(wheels)} NVIDIA wheels; HIP's from Debian's packages of HIP "
             f"{', '.join(hips)}.",
             "# A row for each renamed function whose HIP counterpart, in some inspected release, does not take an",
             "# argument count CUDA's takes: [fewest, most] arguments (-1: variadic); `defaults`: CUDA's defaults for",
             "# the trailing parameters of its longest prototype.", "",
             "[inspected]", f"releases = [{', '.join(chr(34) + r + chr(34) for r in hips)}]", "", "[functions]", *found]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    print(f"{args.out}: {len(found)} of {len(mapped)} renamed functions differ, HIP {', '.join(hips)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
