"""Speed of the Python and deployment rules: files/s over a generated tree of 1,000 files, against PyTorch's
own hipify (torch.utils.hipify, the anchor) over the same tree, in one run.

    python benchmarks/python.py [--files 1000] [--keep DIR]

The tree is the 33 files of tests/python_corpus/src (Python, requirements, pyproject.toml, Dockerfiles,
Kubernetes/compose/CI YAML, shell), copied round-robin into package folders until there are --files of them,
each copy made distinct (a numbered helper appended). hipmigrate migrates it in memory (`api.analyse`: scan,
every rule, fixes); PyTorch's hipify rewrites a copy of it out of place (its regex pass, the one that PyTorch
runs over extension sources on ROCm) with the same file extensions. Both run in child processes, timed around
the whole process (imports included). The script also counts the lines each leaves with a wrong port
(`torch.hip`, `HIPExtension`, a "hip"/"rocm" device string, the "rccl" backend). A measurement, not a test:
exit 0 whatever the numbers; 1 if a tool failed; 2 when torch (hence the anchor) is missing.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
CORPUS = REPO / "tests" / "python_corpus" / "src"
EXTENSIONS = (".py", ".txt", ".toml", ".yml", ".yaml", ".sh", ".train")  # .train: docker/Dockerfile.train
WRONG_PORT = re.compile(r"torch\.hip\b|HIPExtension|['\"](?:hip|rocm)(?::\d+)?['\"]|['\"]rccl['\"]")


def variant(rel: str, data: str, n: int) -> str:
    """A distinct copy: one more definition, in the file's own language (comments for the others)."""
    if rel.endswith(".py"):
        return data + f"\n\ndef _variant_{n}():\n    return {n}\n"
    if rel.endswith((".toml", ".txt", ".yml", ".yaml", ".sh")) or "Dockerfile" in rel:
        return data + f"# variant {n}\n"
    return data


def generate(root: Path, files: int) -> int:
    sources = sorted(p for p in CORPUS.rglob("*") if p.is_file())
    for i in range(files):
        src = sources[i % len(sources)]
        rel = src.relative_to(CORPUS).as_posix()
        dest = root / f"pkg{i // len(sources):03d}" / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(variant(rel, src.read_text(), i))
    return sum(p.read_bytes().count(b"\n") for p in root.rglob("*") if p.is_file())


def changed(src: Path, out: Path) -> int:
    return sum(1 for p in src.rglob("*") if p.is_file() and (out / p.relative_to(src)).is_file()
               and (out / p.relative_to(src)).read_bytes() != p.read_bytes())


def wrong_ports(root: Path) -> int:
    return sum(len(WRONG_PORT.findall(p.read_text(errors="replace"))) for p in root.rglob("*") if p.is_file())


def child(mode: str, src: Path, out: Path) -> None:
    """Runs in the child process: one tool over the tree; prints one JSON line."""
    start = time.perf_counter()
    if mode == "hipmigrate":
        from migrate.api import analyse
        from migrate.options import Options
        inventory, result = analyse(src, Options(hip_version="6.2"))
        files = len(inventory.by_rules)
        out.mkdir()
        for r in result.files:  # written out so that the output can be checked like the anchor's
            (out / r.path).parent.mkdir(parents=True, exist_ok=True)
            (out / r.path).write_bytes(r.new if r.new is not None else (src / r.path).read_bytes())
    else:
        from torch.utils.hipify import hipify_python
        results = hipify_python.hipify(project_directory=str(src), output_directory=str(out), extensions=EXTENSIONS,
                                       header_extensions=(), includes=("*",), show_progress=False,
                                       is_pytorch_extension=True)
        files = len(results)
    print(json.dumps({"seconds": time.perf_counter() - start, "files": files}))


def run_child(mode: str, src: Path, out: Path) -> tuple[float, dict]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--child", mode, str(src), str(out)], cwd=REPO,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"{mode} failed:\n{proc.stderr[-2000:]}")
    return wall, json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--keep", type=Path, default=None, help="work in this (empty or new) folder and keep it")
    parser.add_argument("--child", nargs=3, metavar=("MODE", "SRC", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], Path(args.child[1]), Path(args.child[2]))
        return 0
    try:
        import torch.utils.hipify  # noqa: F401
    except ImportError:
        print("torch is not installed: the anchor (torch.utils.hipify) cannot run; pip install torch==2.13.0")
        return 2
    work = args.keep or Path(tempfile.mkdtemp(prefix="hipmigrate-pybench-"))
    work.mkdir(parents=True, exist_ok=True)
    src = work / "tree"
    lines = generate(src, args.files)
    print(f"tree: {args.files} files, {lines} lines, from {CORPUS.relative_to(REPO)} ({work})")
    rows = []
    for mode in ("hipmigrate", "torch-hipify"):
        out = work / f"out-{mode}"
        shutil.rmtree(out, ignore_errors=True)  # torch's hipify copies the tree only into a new folder
        try:
            wall, stats = run_child(mode, src, out)
        except RuntimeError as exc:
            print(exc)
            return 1
        rows.append((mode, wall, stats, wrong_ports(out), changed(src, out)))
    print(f"\n{'tool':<14} {'files':>6} {'seconds':>8} {'files/s':>9} {'changed':>8} {'wrong ports left':>17}")
    for mode, wall, stats, wrong, n_changed in rows:
        print(f"{mode:<14} {stats['files']:>6} {wall:>8.2f} {stats['files'] / wall:>9.1f} {n_changed:>8} {wrong:>17}")
    (_, ours, our_stats, _, _), (_, theirs, their_stats, _, _) = rows
    ratio = (our_stats["files"] / ours) / (their_stats["files"] / theirs)
    print(f"\nhipmigrate / torch hipify, in files/s: {ratio:.2f}")
    print(f"wrong ports in the input tree: {wrong_ports(src)}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
