"""hipify-perl over the candidates (stage 3 of scripts/gen_packs.py): every CUDA name and header through the first
hipify-perl, then through the second (newer) one those it leaves alone, and where the two disagree."""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .fetch import log
from .hipify import NameResults, convert_names, line_name, pick_second_hipify, run_hipify


@dataclass
class Conversion:
    """What the hipify-perls made of the candidates."""

    work: Path  # hipify-perl's scratch files
    first: NameResults  # the first hipify-perl over the names
    header_map: dict[str, str]  # CUDA header -> the first hipify-perl's HIP header
    header_odd: list[str]  # headers converted differently in <> and ""
    second: tuple[str, str] | None  # the second hipify-perl: (path, version)
    second_label: str | None
    sec: NameResults  # the second hipify-perl over the names the first leaves alone
    sec_headers: dict[str, str]  # CUDA header -> the second hipify-perl's HIP header
    lines2: list[str]  # the candidates the second hipify-perl was given
    disagree: dict[str, tuple[str, str]]  # name -> both answers, among the names the first converts


def convert(hipify: str, hipify_full: str, second_choice: str, suite_hipify: dict, decls: dict,
            cuda_headers: dict[str, str], cache: Path) -> Conversion:
    """`second_choice`: --second-hipify-perl (a path, `none` or `auto`)."""
    cand_names = sorted(n for n, d in decls.items() if d.kind != "namespace")
    cand_ns = sorted(n for n, d in decls.items() if d.kind == "namespace" and not d.internal)
    lines = [f"{n}()" for n in cand_names] + [f"{n}::x()" for n in cand_ns]
    hdrs = sorted(cuda_headers)
    work = Path(tempfile.mkdtemp(prefix="gen-packs-", dir=str(cache)))
    log(f"running hipify-perl over {len(lines)} names and {len(hdrs)} headers")
    hcache = cache / "hipify"
    first = convert_names(hipify, lines, work, hcache, "names", "experimental")
    converted = first.converted
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
    second = pick_second_hipify(second_choice, hipify, hipify_full, suite_hipify)
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
    return Conversion(work, first, header_map, header_odd, second, second_label, sec, sec_headers, lines2, disagree)
