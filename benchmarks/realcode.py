"""Real code as the yardstick (issue 30): public CUDA projects migrated and every unit compiled for gfx942.

    python benchmarks/realcode.py --mirrors /work/.mirror --cache /tmp/realcode [--json FILE]

For each project of benchmarks/realcode.toml: its snapshot is extracted from the mirror folder into the cache
(benchmarks/realcode_fetch.py); it is migrated by this checkout's hipmigrate (`run --hip-version V
--output-format json`) with the built-in engine and with `--engine hipify-perl`, for each HIP toolchain V of
`--hip`; every unit is compiled with nvcc (`-arch=sm_90`) as it is, with each toolchain's hipcc (`-x hip
--offload-arch=gfx942 -c`) after each migration, and its human HIP port where the project has one. Each failure is
classified by its first error (benchmarks/realcode_classify.py), and hipmigrate's JSON report is read for a blocker
in the failing unit or a header it includes (benchmarks/realcode_predict.py). Prints the tables as Markdown;
`--json` writes them and every unit's outcome.
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.realcode_classify import classify  # noqa: E402
from benchmarks.realcode_compile import Job, compile_all, hip_job, hipcc, nvcc_job  # noqa: E402
from benchmarks.realcode_fetch import STAMP, extract, missing_blobs  # noqa: E402
from benchmarks.realcode_includes import closure  # noqa: E402
from benchmarks.realcode_manifest import MANIFEST, Project, load, units_in  # noqa: E402
from benchmarks.realcode_perl import hipify  # noqa: E402
from benchmarks.realcode_predict import blockers_of, load_report, predict  # noqa: E402
from benchmarks.realcode_summary import UnitResult, as_json, render  # noqa: E402

# the migrations: this checkout's hipmigrate with its built-in engine, hipify-perl as its users run it
# (benchmarks/realcode_perl.py), and hipmigrate's own --engine hipify-perl (slow: opt-in)
ENGINE_FLAG = {"hipmigrate": "builtin", "hipify-perl": None, "hipmigrate-perl": "hipify-perl"}


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def migrate_for(version: str) -> str:
    """The --hip-version a toolchain's migration asks for: the toolchain's own release where the mapping packs know
    it, else the newest they know below it (7.2 is migrated for 7.1 while the packs stop at 7.1)."""
    from migrate.packs import default_packs, version_tuple

    packs = default_packs()
    if packs.check_release(version) is None:
        return version
    below = [r for r in packs.releases if version_tuple(r) <= version_tuple(version)]
    return below[-1] if below else version


def migrate(project: Project, src: Path, cache: Path, engine: str, version: str, jobs: int,
            keep: bool = False) -> tuple[Path, dict]:
    """The project migrated by this checkout's hipmigrate into CACHE/NAME/ENGINE-V, and its JSON report (`keep`:
    the last run's migration, where it finished)."""
    out = cache / project.name / f"{engine}-{version}"
    report_file = cache / project.name / f"{engine}-{version}.json"
    stamp = cache / project.name / STAMP  # the tree's extraction: a migration older than it is stale
    fresh = out.is_dir() and stamp.exists() and out.stat().st_mtime >= stamp.stat().st_mtime
    if keep and fresh and (ENGINE_FLAG[engine] is None or load_report(report_file)):
        log(f"{project.name}: {engine} for HIP {version}: the last migration kept")
        return out, load_report(report_file)
    exclude = project.exclude + ((f"*{project.port[1]}",) if project.port else ())
    start = time.monotonic()
    if ENGINE_FLAG[engine] is None:
        status, errors = hipify(src, out, exclude, jobs)
        log(f"{project.name}: {engine}: exit {status} in {time.monotonic() - start:.0f} s")
        if errors:
            log(errors)
        return out, {}
    if out.exists():
        shutil.rmtree(out)
    argv = [sys.executable, "-m", "migrate", "run", str(src), "--out", str(out), "--hip-version", migrate_for(version),
            "--engine", ENGINE_FLAG[engine], "--output-format", "json", "--no-progress", "-j", str(jobs)]
    for pattern in exclude:
        argv += ["--exclude", pattern]
    with report_file.open("w", encoding="utf-8") as sink:
        done = subprocess.run(argv, cwd=ROOT, stdout=sink, stderr=subprocess.PIPE, text=True)
    log(f"{project.name}: {engine} for HIP {migrate_for(version)}: exit {done.returncode} in {time.monotonic() - start:.0f} s")
    if done.returncode not in (0, 1):
        log(done.stderr[-2000:])
    return out, load_report(report_file)


def port_include(project: Project, unit: str) -> list[str]:
    """Include folders of a unit's human port: the project's turned into the port's, then the project's own, then
    the original unit's folder (ports often include the original's headers)."""
    turned = [project.port_path(d + "/") or d for d in project.include]
    return [d.rstrip("/") for d in dict.fromkeys([*turned, *project.include, str(Path(unit).parent)])]


def jobs_for(project: Project, src: Path, units: list[str], trees: dict, versions: list[str],
             baselines_all: bool = False) -> list[Job]:
    """nvcc for the original; per toolchain, hipcc for hipmigrate's output, and for the baselines (hipify-perl, the
    human port) with the first toolchain only unless `baselines_all`."""
    jobs = [nvcc_job(u, src, project.include, project.defines, project.nvcc) for u in units]
    for version in versions:
        baseline = baselines_all or version == versions[0]
        for u in units:
            for engine in ENGINE_FLAG:
                if engine != "hipmigrate" and not baseline:
                    continue
                tree = trees.get((engine, version))
                if tree and (tree / u).is_file():
                    # what --exclude left out is found in the original tree, after the migrated folders
                    include = [*project.include, *(str(src / d) for d in project.include)] if project.exclude \
                        else project.include
                    jobs.append(hip_job(engine, version, u, tree, u, include, project.defines))
            ported = project.port_path(u)
            if baseline and ported and (src / ported).is_file():
                jobs.append(hip_job("port", version, u, src, ported, port_include(project, u), project.defines))
    return jobs


def run_project(project: Project, args, versions: list[str]) -> list[UnitResult]:
    src = extract(project, args.mirrors, args.cache)
    units = units_in(project, src)
    if args.limit:
        units = units[:args.limit]
    log(f"{project.name}: {len(units)} units at {project.commit[:10]}"
        + (f" ({missing_blobs(project, args.cache)} blobs missing from the mirror)"
           if missing_blobs(project, args.cache) else ""))
    trees, reports = {}, {}
    for version in versions:
        for engine in args.engines:
            if engine == "hipify-perl" and version != versions[0]:
                # hipify-perl's translation knows no HIP release: migrated once
                trees[(engine, version)] = trees[(engine, versions[0])]
                reports[(engine, version)] = reports[(engine, versions[0])]
                continue
            trees[(engine, version)], reports[(engine, version)] = migrate(project, src, args.cache, engine,
                                                                          version, args.jobs,
                                                                          args.keep_migrations)
    jobs = jobs_for(project, src, units, trees, versions, args.baselines_all)
    done = [0]

    def progress(job, outcome):
        done[0] += 1
        if done[0] % 20 == 0 or done[0] == len(jobs):
            log(f"{project.name}: {done[0]}/{len(jobs)} compiles")

    outcomes = compile_all(jobs, args.jobs, None if args.no_compile_cache else args.cache / "compiles", progress)
    results = {u: UnitResult(project.name, u) for u in units}
    for job, outcome in outcomes.items():
        r = results[job.unit]
        r.outcomes[job.variant] = outcome
        if not outcome.ok:
            r.causes[job.variant] = classify(outcome.error, source_line(Path(job.root), outcome),
                                             outcome.error_file)
    for version in versions:
        key, variant = ("hipmigrate", version), f"hipmigrate@{version}"
        if key not in trees:
            continue
        found = blockers_of(reports[key])
        for u, r in results.items():
            if variant in r.outcomes:
                o = r.outcomes[variant]
                files = closure(trees[key], u, [str(Path(u).parent), *project.include])
                r.predictions[variant] = predict(found, files, o.error_file, o.error_line)
    return list(results.values())


def source_line(root: Path, outcome) -> str | None:
    """The line a failure's first error points at, where it is a file that can be read."""
    if not outcome.error_file or not outcome.error_line:
        return None
    try:
        with open(root / outcome.error_file, encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                if number == outcome.error_line:
                    return line
    except OSError:
        pass
    return None


def toolchains(requested: list[str]) -> list[str]:
    present = []
    for version in requested:
        if hipcc(version).exists():
            present.append(version)
        else:
            log(f"HIP {version}: no toolchain at {hipcc(version)}, left out")
    return present


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mirrors", type=Path, required=True, help="folder of git mirrors (owner+name/repo)")
    ap.add_argument("--cache", type=Path, required=True, help="folder for trees and compiles, outside the repository")
    ap.add_argument("--manifest", type=Path, default=MANIFEST)
    ap.add_argument("--project", action="append", default=[], help="only this project (repeatable)")
    ap.add_argument("--hip", default="6.4,7.2", help="HIP toolchains, comma-separated (absent ones left out)")
    ap.add_argument("--engines", default="hipmigrate,hipify-perl", help="migrations: hipmigrate, hipify-perl, hipmigrate-perl")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="compiles at a time")
    ap.add_argument("--limit", type=int, default=0, help="only the first N units of each project (a quick look)")
    ap.add_argument("--baselines-all", action="store_true",
                    help="compile hipify-perl's output and the human port with every toolchain, not the first only")
    ap.add_argument("--keep-migrations", action="store_true", help="reuse the last run's migrations")
    ap.add_argument("--no-compile-cache", action="store_true", help="compile everything again")
    ap.add_argument("--json", type=Path, help="write the tables and every unit's outcome here")
    args = ap.parse_args(argv)
    args.cache = args.cache.resolve()
    if args.cache.is_relative_to(ROOT):
        ap.error("--cache must lie outside the repository")
    args.engines = [e for e in args.engines.split(",") if e]
    if unknown := set(args.engines) - set(ENGINE_FLAG):
        ap.error(f"unknown engines: {', '.join(sorted(unknown))}")
    versions = toolchains([v for v in args.hip.split(",") if v])
    if not versions:
        ap.error("no HIP toolchain found")
    projects = [p for p in load(args.manifest) if not args.project or p.name in args.project]
    results = []
    for project in projects:
        try:
            results += run_project(project, args, versions)
        except FileNotFoundError as e:
            log(f"{project.name}: skipped: {e}")
    print(render(results, versions))
    if args.json:
        data = {"manifest": [{"name": p.name, "repo": p.repo, "commit": p.commit} for p in projects],
                "hip": versions, "engines": args.engines, **as_json(results, versions)}
        args.json.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
