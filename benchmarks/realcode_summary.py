"""The real-code harness's tables: per project the units that compile in each variant and the ratios, per cause
the failures with an example unit, and how many failures hipmigrate's report predicted.

A migration's failure counts against it only where the original compiles with nvcc; a failure whose cause is the
environment (another system's header, benchmarks/realcode_classify.py) is counted apart. Variants are `nvcc`,
`hipmigrate@V`, `hipify-perl@V` and `port@V` for each HIP toolchain V.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field

from benchmarks.realcode_classify import environment
from benchmarks.realcode_compile import Outcome
from benchmarks.realcode_predict import Prediction

ENGINES = ("hipmigrate", "hipify-perl", "hipmigrate-perl")


@dataclass
class UnitResult:
    project: str
    unit: str
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    causes: dict[str, str] = field(default_factory=dict)
    predictions: dict[str, Prediction] = field(default_factory=dict)  # hipmigrate@V only

    def ok(self, variant: str) -> bool:
        o = self.outcomes.get(variant)
        return bool(o and o.ok)

    def counted_failure(self, variant: str) -> bool:
        """Failed where the original compiles, for a cause of the migration's (not the environment's)."""
        o = self.outcomes.get(variant)
        return bool(o and not o.ok and self.ok("nvcc") and not environment(self.causes.get(variant, "")))


def ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "-"


def project_rows(results: list[UnitResult], versions: list[str]) -> list[dict]:
    """One row per project and HIP version."""
    by_project = defaultdict(list)
    for r in results:
        by_project[r.project].append(r)
    rows = []
    for name, units in by_project.items():
        for v in versions:
            hm, hp, port = f"hipmigrate@{v}", f"hipify-perl@{v}", f"port@{v}"
            with_port = [u for u in units if port in u.outcomes]
            row = {
                "project": name, "hip": v, "units": len(units),
                "nvcc_ok": sum(u.ok("nvcc") for u in units),
                "hipmigrate_ok": sum(u.ok(hm) for u in units),
                "hipmigrate_ok_where_nvcc": sum(u.ok(hm) and u.ok("nvcc") for u in units),
                "hipify_perl_ok": sum(u.ok(hp) for u in units) if any(hp in u.outcomes for u in units) else None,
                "port_units": len(with_port),
                "port_ok": sum(u.ok(port) for u in with_port),
                "hipmigrate_ok_where_port": sum(u.ok(hm) for u in with_port),
                "environment": sum(1 for u in units if not u.ok(hm) and environment(u.causes.get(hm, ""))),
                # nvcc compiles these, and the migration fails only on another system's header: not counted against it
                "environment_where_nvcc": sum(1 for u in units if u.ok("nvcc") and not u.ok(hm)
                                              and environment(u.causes.get(hm, ""))),
            }
            row.update(prediction_counts(units, hm))
            rows.append(row)
    return rows


def prediction_counts(units: list[UnitResult], variant: str) -> dict:
    failed = [u for u in units if u.counted_failure(variant)]
    compiled = [u for u in units if u.ok(variant)]
    pred = [u.predictions.get(variant) for u in failed]
    comp = [u.predictions.get(variant) for u in compiled]
    return {
        "failures": len(failed),
        "predicted": sum(1 for p in pred if p and p.blocker),
        "predicted_near": sum(1 for p in pred if p and p.near),
        "predicted_in_file": sum(1 for p in pred if p and p.in_file),
        "predicted_error": sum(1 for p in pred if p and p.error),
        "compiling": len(compiled),
        "compiling_with_blocker": sum(1 for p in comp if p and p.blocker),
        "compiling_with_error": sum(1 for p in comp if p and p.error),
    }


def total_row(rows: list[dict], version: str) -> dict:
    mine = [r for r in rows if r["hip"] == version]
    total = {"project": "all", "hip": version}
    for key in mine[0] if mine else ():
        if key not in total:
            values = [r[key] for r in mine if r[key] is not None]
            total[key] = sum(values) if values else None
    return total


def cause_table(results: list[UnitResult], variant: str) -> list[dict]:
    """The causes of the variant's failures, most units first: count, projects, an example unit and its error."""
    counts, example, projects = Counter(), {}, defaultdict(set)
    for r in results:
        if variant not in r.outcomes or r.ok(variant) or (variant != "nvcc" and not r.ok("nvcc")):
            continue
        cause = r.causes.get(variant, "no error message")
        counts[cause] += 1
        projects[cause].add(r.project)
        example.setdefault(cause, (f"{r.project}:{r.unit}", r.outcomes[variant].error or ""))
    return [{"cause": c, "count": n, "environment": environment(c), "projects": sorted(projects[c]),
             "example": example[c][0], "first_error": example[c][1][:200]}
            for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def _fmt(row: dict) -> list[str]:
    hp = row["hipify_perl_ok"]
    port = f"{row['port_ok']}/{row['port_units']}" if row["port_units"] else "-"
    return [row["project"], row["hip"], str(row["units"]), str(row["nvcc_ok"]), str(row["hipmigrate_ok"]),
            "-" if hp is None else str(hp), port, ratio(row["hipmigrate_ok_where_nvcc"], row["nvcc_ok"]),
            ratio(row["hipmigrate_ok_where_nvcc"], row["nvcc_ok"] - row["environment_where_nvcc"]),
            ratio(row["hipmigrate_ok"], hp or 0) if hp is not None else "-",
            ratio(row["hipmigrate_ok_where_port"], row["port_ok"]) if row["port_units"] else "-",
            str(row["environment"]), f"{row['predicted']}/{row['failures']}",
            f"{row['predicted_in_file']}/{row['failures']}", f"{row['predicted_near']}/{row['failures']}",
            f"{row['compiling_with_blocker']}/{row['compiling']}"]


HEAD = ["project", "HIP", "units", "nvcc ok", "hipmigrate ok", "hipify-perl ok", "human port ok",
        "hipmigrate/nvcc (of nvcc's)", "hipmigrate/nvcc (less the environment)", "hipmigrate/hipify-perl", "hipmigrate/port", "env", "failures predicted",
        "predicted in the failing file", "predicted near the line", "compiling with a blocker"]


def markdown(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join([*lines, *("| " + " | ".join(r) + " |" for r in rows)])


def render(results: list[UnitResult], versions: list[str], top: int = 20) -> str:
    rows = project_rows(results, versions)
    table = [_fmt(r) for r in rows] + [_fmt(total_row(rows, v)) for v in versions]
    parts = ["## Per project", markdown(HEAD, table)]
    variants = ["nvcc"] + [f"{e}@{v}" for v in versions for e in (*ENGINES, "port")]
    for variant in variants:
        causes = cause_table(results, variant)
        if not causes:
            continue
        parts.append(f"## Causes: {variant} ({sum(c['count'] for c in causes)} failures"
                     f"{'' if variant == 'nvcc' else ' of units nvcc compiles'})")
        parts.append(markdown(["count", "cause", "example", "first error"],
                              [[str(c["count"]), c["cause"] + (" (environment)" if c["environment"] else ""),
                                c["example"], c["first_error"][:90].replace("|", "\\|")] for c in causes[:top]]))
    return "\n\n".join(parts)


def as_json(results: list[UnitResult], versions: list[str]) -> dict:
    rows = project_rows(results, versions)
    variants = ["nvcc"] + [f"{e}@{v}" for v in versions for e in (*ENGINES, "port")]
    return {
        "projects": rows,
        "totals": [total_row(rows, v) for v in versions],
        "causes": {v: cause_table(results, v) for v in variants},
        "units": [{"project": r.project, "unit": r.unit,
                   "outcomes": {k: {**asdict(o), "cause": r.causes.get(k)} for k, o in r.outcomes.items()},
                   "predictions": {k: asdict(p) for k, p in r.predictions.items()}} for r in results],
    }
