"""Real Python and deployment files from public projects, labelled line by line, against what hipmigrate does.

`benchmarks/pyreal.toml` names each file (repository, commit, path), why it is there, and its labels: `rewrite`
(line -> a text the new line must contain), `report` (lines where a finding of warning or error must be), `keep`
(lines that must come out as they went in; every line without a label must too). The labels were made from the
PyTorch-on-ROCm facts (docs/python.md) without looking at hipmigrate's output. The files are read from local git
mirrors (MIRRORS/owner+name/repo, as the fetch tool leaves them), laid out under a scratch folder as
`owner+name/path`, migrated in one run, and scored:

- rewrites right: the line changed and its new text holds the label's text;
- reports found: a warning or error at the line (an applied fix with one counts), or a fix left for the user
  (an unsafe one without --unsafe-fixes);
- keeps kept: labelled keep lines unchanged; a change on any other line is a wrong port;
- files skipped: a file copied unchanged for a parse failure (INP001) or skipped.

    python benchmarks/pyreal.py --mirrors /work/.mirror [--hip-version 6.4] [--json FILE] [-v]
"""
from __future__ import annotations

import argparse
import difflib
import json
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

MANIFEST = HERE / "pyreal.toml"


@dataclass
class Score:
    file: str
    rewrites: int = 0
    rewrites_right: int = 0
    reports: int = 0
    reports_found: int = 0
    keeps: int = 0
    keeps_kept: int = 0
    wrong: list[str] = field(default_factory=list)  # lines changed that should not have been
    missed: list[str] = field(default_factory=list)  # labels not met
    noise: list[str] = field(default_factory=list)  # warnings on keep lines
    skipped: bool = False


def changed_lines(old: list[str], new: list[str]) -> dict[int, str]:
    """Old line number (1-based) -> the new text of the block that replaced it ('' when deleted); lines only
    inserted between old ones change none of them."""
    out: dict[int, str] = {}
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            for i in range(i1, i2):  # line for line where the block kept its length
                out[i + 1] = new[j1 + i - i1] if i2 - i1 == j2 - j1 else "\n".join(new[j1:j2])
    return out


def score(entry: dict, old: bytes, result) -> Score:
    from migrate.model import Severity

    s = Score(f"{entry['project']}:{entry['path']}")
    if result is None or result.new is None or any(f.code == "INP001" for f in result.findings):
        s.skipped = True
    old_lines = old.decode("utf-8", "replace").splitlines()
    new = result.new if result is not None and result.new is not None else old
    changes = changed_lines(old_lines, new.decode("utf-8", "replace").splitlines())
    warned = {f.span.line for f in (result.findings if result is not None else ())
              if f.severity >= Severity.WARNING or (f.fix is not None and not f.fix.applied)}
    rewrite = {int(k): v for k, v in entry.get("rewrite", {}).items()}
    report = set(entry.get("report", []))
    keep = set(entry.get("keep", []))
    for line, text in sorted(rewrite.items()):
        s.rewrites += 1
        if line in changes and text in changes[line]:
            s.rewrites_right += 1
        else:
            s.missed.append(f"rewrite {line}: {changes.get(line, '(unchanged)')!r} lacks {text!r}")
    for line in sorted(report):
        s.reports += 1
        if line in warned:
            s.reports_found += 1
        else:
            s.missed.append(f"report {line}: no warning there")
    for line in sorted(keep):
        s.keeps += 1
        if line not in changes:
            s.keeps_kept += 1
    for line in sorted(changes):
        if line not in rewrite and line not in report:
            s.wrong.append(f"{line}: {old_lines[line - 1] if line <= len(old_lines) else ''!r} -> {changes[line]!r}")
    s.noise = [str(line) for line in sorted(warned & (keep | (set(range(1, len(old_lines) + 1)) - set(rewrite)
                                                                 - report)))]
    return s


def read_blob(mirrors: Path, repo: str, commit: str, path: str) -> bytes:
    from benchmarks.realcode_fetch import git_dir

    return subprocess.run(["git", f"--git-dir={git_dir(mirrors, repo)}", "show", f"{commit}:{path}"],
                          capture_output=True, check=True).stdout


def main(argv=None) -> int:
    from migrate import api
    from migrate.options import Options

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirrors", type=Path, required=True, help="folder of git mirrors (owner+name/repo)")
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    ap.add_argument("--hip-version", default="6.4")
    ap.add_argument("--json", type=Path, help="write every file's score here")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every label missed and line changed")
    args = ap.parse_args(argv)
    entries = tomllib.loads(args.manifest.read_text())["file"]
    with tempfile.TemporaryDirectory(prefix="pyreal-") as tmp:
        src = Path(tmp) / "src"
        originals = {}
        for entry in entries:
            rel = f"{entry['project'].replace('/', '+')}/{entry['path']}"
            data = read_blob(args.mirrors, entry["project"], entry["commit"], entry["path"])
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            (src / rel).write_bytes(data)
            originals[rel] = data
        _, result = api.analyse(src, Options(hip_version=args.hip_version))
    by_path = {r.path: r for r in result.files}
    scores = [score(e, originals[f"{e['project'].replace('/', '+')}/{e['path']}"],
                    by_path.get(f"{e['project'].replace('/', '+')}/{e['path']}")) for e in entries]
    print(f"{'file':<72} {'rewrites':>8} {'reports':>8} {'keeps':>8} {'wrong':>5}")
    for s in scores:
        print(f"{s.file[:72]:<72} {s.rewrites_right:>3}/{s.rewrites:<4} {s.reports_found:>3}/{s.reports:<4} "
              f"{s.keeps_kept:>3}/{s.keeps:<4} {len(s.wrong):>5}{'  SKIPPED' if s.skipped else ''}")
        if args.verbose:
            for line in s.missed + [f"changed {w}" for w in s.wrong] + [f"warning on keep line {n}" for n in s.noise]:
                print(f"    {line}")
    total = {k: sum(getattr(s, k) for s in scores)
             for k in ("rewrites", "rewrites_right", "reports", "reports_found", "keeps", "keeps_kept")}
    wrong, skipped = sum(len(s.wrong) for s in scores), sum(s.skipped for s in scores)
    projects = len({e["project"] for e in entries})
    print(f"\n{len(scores)} files from {projects} projects: rewrites {total['rewrites_right']}/{total['rewrites']} "
          f"right, reports {total['reports_found']}/{total['reports']} found, keeps {total['keeps_kept']}/"
          f"{total['keeps']} kept, {wrong} other lines changed, {skipped} files skipped, "
          f"{sum(len(s.noise) for s in scores)} warnings on lines labelled or left keep")
    if args.json:
        args.json.write_text(json.dumps({"total": total, "files": [asdict(s) for s in scores]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
