"""The built-in C++ engine: the C++ rules over one source file (a byte-order mark is kept aside)."""
from __future__ import annotations

from migrate.cpp import continuations, platform
from migrate.cpp.context import CppContext
from migrate.fixing import Translation, run_rules
from migrate.model import Finding, RuleKind
from migrate.options import Options
from migrate.packs import Packs

BOM = b"\xef\xbb\xbf"


def translate(path: str, data: bytes, options: Options, packs: Packs, target: str, rules) -> Translation:
    bom = data.startswith(BOM)
    ctx = CppContext(path, data[len(BOM):] if bom else data, options, packs, target)
    result = run_rules(ctx, rules, what="identifiers there were migrated token by token: review those lines",
                       extra_edits=lambda body, applied: continuations.realign(body, list(applied.edits)))
    result = Translation(result.data, hip_compiled(ctx.data, result.findings))
    return Translation((BOM if bom else b"") + result.data, result.findings) if bom else result


def hip_compiled(data: bytes, findings: tuple[Finding, ...]) -> tuple[Finding, ...]:
    """The findings, less the reports (rule findings without a fix) in code a HIP build skips: the CUDA side
    of `#ifdef USE_ROCM ... #else` and the like (migrate.cpp.platform). Conversions and fixes stay."""
    skipped = platform.not_compiled(data)
    if not skipped:
        return findings
    return tuple(f for f in findings if f.fix is not None or f.kind not in (RuleKind.CPP, RuleKind.HAZARD)
                 or not platform.inside(skipped, f.span.start))
