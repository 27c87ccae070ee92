"""How much work a migration leaves, per file and for the repository (shown by `hipmigrate scan`).

Pure functions over a `MigrationResult`, for the files an engine or the build rules looked at:

- lines changed: lines of the file that the migration rewrites, adds or removes (a rewritten line counts
  once; from a line diff of the old and new text);
- hazards fixed: portability-hazard findings (rule kind HAZARD) whose fix the run applied (its outcome, decided
  where the fixes are applied: under the fix policy, not left out for overlapping another fix);
- hazards to review: every other hazard finding, and their weight by severity: WEIGHTS (warning 1,
  error 3);
- effort class: the larger of the class of the review weight (REVIEW_LIMITS: 0 trivial, up to 5 small,
  up to 20 moderate, up to 60 large, more very large) and the class of the changed-lines fraction
  (CHANGED_LIMITS: up to 5% trivial, up to 20% small, more moderate). The fraction counts from MIN_CHANGED
  (10) changed lines on, so a renamed header in a small file stays trivial; automatic changes alone never
  make the effort more than moderate, since they only need reading.
"""
from __future__ import annotations

from dataclasses import dataclass

from migrate.linediff import LineDiff
from migrate.model import FileResult, Finding, MigrationResult, RuleKind, Severity

WEIGHTS = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 3}
CLASSES = ("trivial", "small", "moderate", "large", "very large")
REVIEW_LIMITS = (0, 5, 20, 60)  # the most review weight of trivial, small, moderate, large
CHANGED_LIMITS = (0.05, 0.20)  # the largest changed-lines fraction of trivial, small (above: moderate)
MIN_CHANGED = 10  # fewer changed lines than this are trivial whatever the fraction


@dataclass(frozen=True)
class FileEffort:
    path: str  # "" for the repository total
    lines: int
    lines_changed: int
    hazards_fixed: int
    hazards_to_review: int
    review_weight: int
    effort: str

    @property
    def changed_fraction(self) -> float:
        return self.lines_changed / self.lines if self.lines else 0.0


@dataclass(frozen=True)
class Effort:
    files: tuple[FileEffort, ...]  # in the result's file order
    total: FileEffort
    unsafe_fixes: bool

    @property
    def effort(self) -> str:
        return self.total.effort


def changed_lines(old: bytes, new: bytes) -> int:
    """Lines rewritten, added or removed between `old` and `new` (a rewritten line counts once): the lines the
    unified diff shows."""
    if old == new:
        return 0
    return LineDiff(old, new).changed


def effort_class(weight: int, lines_changed: int, lines: int) -> str:
    by_review = next((i for i, limit in enumerate(REVIEW_LIMITS) if weight <= limit), len(REVIEW_LIMITS))
    fraction = lines_changed / lines if lines and lines_changed >= MIN_CHANGED else 0.0
    by_changes = next((i for i, limit in enumerate(CHANGED_LIMITS) if fraction <= limit), len(CHANGED_LIMITS))
    return CLASSES[max(by_review, by_changes)]


def is_fixed(f: Finding) -> bool:
    """Whether the run applied the finding's fix (the outcome recorded on it)."""
    return f.fix is not None and f.fix.applied


def file_effort(r: FileResult, changed: int | None = None) -> FileEffort:
    """`changed`: the file's changed lines when the caller has counted them already."""
    hazards = [f for f in r.findings if f.kind is RuleKind.HAZARD]
    fixed = [f for f in hazards if is_fixed(f)]
    review = [f for f in hazards if not is_fixed(f)]
    weight = sum(WEIGHTS[f.severity] for f in review)
    if changed is None:
        changed = changed_lines(r.old, r.new) if r.old is not None and r.new is not None else 0
    return FileEffort(r.path, r.lines, changed, len(fixed), len(review), weight, effort_class(weight, changed, r.lines))


def estimate(result: MigrationResult, unsafe_fixes: bool = False, changed: dict[str, int] | None = None) -> Effort:
    """The effort of every file that was read and migrated (or found unchanged), and of all of them. `changed`:
    the changed files' changed lines by path, when the caller has counted them already. `unsafe_fixes` is the policy
    the fixes were applied under, recorded with the estimate."""
    changed = changed or {}
    files = tuple(file_effort(r, changed.get(r.path)) for r in result.files if r.old is not None)
    lines = sum(f.lines for f in files)
    changed = sum(f.lines_changed for f in files)
    weight = sum(f.review_weight for f in files)
    total = FileEffort("", lines, changed, sum(f.hazards_fixed for f in files),
                       sum(f.hazards_to_review for f in files), weight, effort_class(weight, changed, lines))
    return Effort(files, total, unsafe_fixes)

