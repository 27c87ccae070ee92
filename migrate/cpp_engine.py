"""The built-in C++ engine: the C++ rules over one source file (a byte-order mark is kept aside)."""
from __future__ import annotations

from migrate import newlines
from migrate.cpp import continuations, platform
from migrate.cpp.context import CppContext
from migrate.fixing import Translation, run_rules
from migrate.model import Edit, Finding, RuleKind
from migrate.options import Options
from migrate.packs import Packs

BOM = b"\xef\xbb\xbf"


def translate(path: str, data: bytes, options: Options, packs: Packs, target: str, rules) -> Translation:
    bom = data.startswith(BOM)
    body = data[len(BOM):] if bom else data

    def run(text: bytes, edits: list[Edit]) -> Translation:
        return _translate(path, text, options, packs, target, rules, edits)

    result = newlines.translated(body, run)
    return Translation(BOM + result.data, result.findings) if bom else result


def _translate(path: str, body: bytes, options: Options, packs: Packs, target: str, rules,
               edits: list[Edit]) -> Translation:
    """The C++ rules over `body` (no byte-order mark); `edits` receives every edit applied."""
    ctx = CppContext(path, body, options, packs, target)
    result = run_rules(ctx, rules, what="identifiers there were migrated token by token: review those lines",
                       extra_edits=recording(edits, continuations.layout))
    return Translation(result.data, hip_compiled(ctx.data, result.findings))


def recording(edits: list[Edit], extra=None):
    """An `extra_edits` hook for run_rules that adds `extra`'s layout edits (when given) and records in `edits`
    every edit the output is made of."""
    def hook(data: bytes, applied) -> list[Edit]:
        more = extra(data, list(applied.edits)) if extra else []
        edits[:] = sorted([*applied.edits, *more], key=lambda e: (e.start, e.end > e.start))
        return more
    return hook


UNSUPPORTED = "CPP006"  # an identifier left as it is for want of a HIP counterpart


def hip_compiled(data: bytes, findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    """The findings, less the reports (rule findings without a fix, and identifiers with no HIP counterpart) in
    code a HIP build skips: the CUDA side of `#ifdef USE_ROCM ... #else`, a branch for newer CUDA behind `#if
    CUDART_VERSION >= 12000`, and the like (migrate.cpp.platform). Conversions and fixes stay."""
    skipped = platform.not_compiled(data)
    if not skipped:
        return findings
    return tuple(f for f in findings if not platform.inside(skipped, f.span.start)
                 or (f.fix is not None or f.kind not in (RuleKind.CPP, RuleKind.HAZARD)) and f.code != UNSUPPORTED)
