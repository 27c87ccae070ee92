"""hipify-perl: running it over candidate lines and reading its output and warnings."""
from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .fetch import debian_version
from .lexer import IDENT_RE


WARN = re.compile(r'^\s*warning: (?P<file>.*?):(?P<line>\d+): (?P<what>unsupported device function|unsupported identifier|'
                  r'experimental identifier|deprecated identifier|removed identifier) "(?P<name>[^"]+)"(?P<rest>.*)$')
WARN_LEFT = re.compile(r"^\s*warning: (?P<file>.*?):#(?P<line>\d+) : (?P<text>.*)$")
# hipify-perl 7.x words its warnings differently: `FILE:LINE: warning: unsupported HIP identifier: NAME`,
# `FILE:LINE: warning: unsupported device function "NAME": LINE TEXT`; they are read into the same kinds.
WARN_NEW = re.compile(r'^\s*(?P<file>.*?):(?P<line>\d+): warning: (?P<what>unsupported HIP identifier|'
                      r'unsupported device data type identifier|unsupported device function|'
                      r'experimental ROCm HIP identifier|deprecated CUDA identifier|removed CUDA identifier)'
                      r'(?: "(?P<qname>[^"]+)")?: (?P<name>\S+)(?P<rest>.*)$')
WARN_NEW_KIND = {
    "unsupported HIP identifier": "unsupported identifier",
    "unsupported device data type identifier": "unsupported identifier",
    "unsupported device function": "unsupported device function",
    "experimental ROCm HIP identifier": "experimental identifier",
    "deprecated CUDA identifier": "deprecated identifier",
    "removed CUDA identifier": "removed identifier",
}


@dataclass
class HipifyResult:
    out: dict[int, str] = field(default_factory=dict)          # line -> output line
    warnings: dict[int, list[tuple[str, str, str]]] = field(default_factory=lambda: defaultdict(list))
    left: set[int] = field(default_factory=set)                # lines flagged as unconverted cuda*


def run_hipify(hipify: str, lines: list[str], workdir: Path, tag: str, extra: list[str] | None = None,
               cache: Path | None = None) -> HipifyResult:
    """Run hipify-perl once over `lines` (one candidate a line); results are cached by content."""
    src = workdir / f"{tag}.cu"
    dst = workdir / f"{tag}.hip"
    text = "\n".join(lines) + "\n"
    src.write_text(text)
    key = hashlib.sha256(Path(hipify).read_bytes() + repr(extra).encode() + text.encode()).hexdigest()[:24]
    hit = cache / f"{tag}-{key}" if cache else None
    if hit and (hit / "out").is_file() and (hit / "err").is_file():
        shutil.copyfile(hit / "out", dst)
        stderr = (hit / "err").read_text()
    else:
        res = subprocess.run(["perl", hipify, *(extra or []), f"-o={dst}", str(src)], text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if res.returncode != 0:
            raise SystemExit(f"gen_packs: hipify-perl failed on {src}:\n{res.stderr[-2000:]}")
        stderr = res.stderr
        if hit:
            hit.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(dst, hit / "out")
            (hit / "err").write_text(stderr)
    out_lines = dst.read_text().split("\n")
    if out_lines and out_lines[-1] == "":
        out_lines.pop()
    if len(out_lines) == len(lines) + 1 and out_lines[0] == '#include "hip/hip_runtime.h"':
        out_lines = out_lines[1:]
    if len(out_lines) != len(lines):
        raise SystemExit(f"gen_packs: hipify-perl output of {src} has {len(out_lines)} lines for {len(lines)}")
    result = HipifyResult()
    for k, line in enumerate(out_lines, 1):
        result.out[k] = line
    for wl in stderr.splitlines():
        m = WARN.match(wl)
        if m:
            result.warnings[int(m.group("line"))].append((m.group("what"), m.group("name"), m.group("rest").strip()))
            continue
        m = WARN_NEW.match(wl)
        if m:
            name = m.group("qname") or m.group("name")
            rest = "" if m.group("qname") else m.group("rest").strip()
            result.warnings[int(m.group("line"))].append((WARN_NEW_KIND[m.group("what")], name, rest))
            continue
        m = WARN_LEFT.match(wl)
        if m:
            result.left.add(int(m.group("line")))
    return result


def hipify_version(hipify: str, candidates: dict[str, tuple[str, Path]]) -> tuple[str, str]:
    """(full version, major.minor) of the hipify-perl in use: the Debian package version when the
    file is byte-identical to a suite's hipify-perl, else what `-version` prints."""
    data = Path(hipify).read_bytes()
    for suite, (ver, path) in sorted(candidates.items()):
        if path.is_file() and path.read_bytes() == data:
            full = re.match(r"(\d+(?:\.\d+)*)", ver.split(":", 1)[-1]).group(1)
            return full, debian_version(ver)
    res = subprocess.run(["perl", hipify, "-version"], text=True, capture_output=True)
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", res.stderr + res.stdout)
    if not m:
        raise SystemExit("gen_packs: cannot tell hipify-perl's version")
    return m.group(0), f"{m.group(1)}.{m.group(2)}"


@dataclass
class NameResults:
    """What one hipify-perl made of the candidate lines."""
    converted: dict[str, str] = field(default_factory=dict)     # CUDA name -> HIP name
    unsupported: dict[str, str] = field(default_factory=dict)   # CUDA name -> warning kind
    experimental: dict[str, str] = field(default_factory=dict)  # CUDA name -> warning text / how converted
    exp_names: list[str] = field(default_factory=list)          # names given a second run with -experimental
    odd: list[str] = field(default_factory=list)                # lines that became something else than a name


def line_name(src: str) -> str:
    """The CUDA name of a candidate line (`NAME()` or `NAME::x()`)."""
    return src[: -len("::x()")] if src.endswith("::x()") else src[:-2]


def convert_names(hipify: str, lines: list[str], work: Path, hcache: Path, tag: str, exp_tag: str) -> NameResults:
    """Run hipify-perl over the candidate lines, then once more with -experimental over the names
    its warnings call experimental and that it left as they were."""
    res = run_hipify(hipify, lines, work, tag, cache=hcache)
    out = NameResults()
    for k, src in enumerate(lines, 1):
        name = line_name(src)
        outl = res.out[k]
        m = re.fullmatch(r"(.*)::x\(\)", outl) if src.endswith("::x()") else re.fullmatch(r"(.*)\(\)", outl)
        new = m.group(1) if m else None
        for what, wname, rest in res.warnings.get(k, []):
            if wname != name:
                continue  # hipify-perl matches its lists as substrings
            if what in ("unsupported identifier", "unsupported device function"):
                out.unsupported[name] = what
            elif what == "experimental identifier":
                out.experimental[name] = rest
        if new is None or not IDENT_RE.match(new):
            out.odd.append(f"{src} -> {outl}")
            continue
        if new != name:
            out.converted[name] = new
    out.exp_names = sorted(n for n in out.experimental if n not in out.converted)
    if out.exp_names:
        res_x = run_hipify(hipify, [f"{n}()" for n in out.exp_names], work, exp_tag, ["-experimental"], cache=hcache)
        for k, n in enumerate(out.exp_names, 1):
            m = re.fullmatch(r"(.*)\(\)", res_x.out[k])
            if m and IDENT_RE.match(m.group(1)) and m.group(1) != n:
                out.converted[n] = m.group(1)
                out.experimental[n] = "converted with -experimental"
    return out


def _version_tuple(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", v))


def pick_second_hipify(choice: str, primary: str, primary_full: str,
                       candidates: dict[str, tuple[str, Path]]) -> tuple[str, str] | None:
    """(path, version) of the hipify-perl that gets the names the first one leaves alone: `choice`
    when it is a path, none for "none", else ("auto") the newest hipify-perl of the inspected suites
    when it is newer than the first one."""
    if choice == "none":
        return None
    if choice != "auto":
        if not Path(choice).is_file():
            raise SystemExit(f"gen_packs: no hipify-perl at {choice}")
        return choice, hipify_version(choice, candidates)[0]
    primary_bytes = Path(primary).read_bytes()
    best: tuple[str, str] | None = None
    for _suite, (ver, path) in sorted(candidates.items()):
        if not path.is_file() or path.read_bytes() == primary_bytes:
            continue
        full = re.match(r"(\d+(?:\.\d+)*)", ver.split(":", 1)[-1]).group(1)
        if _version_tuple(full) > _version_tuple(primary_full) and (best is None or _version_tuple(full) > _version_tuple(best[1])):
            best = (str(path), full)
    return best
