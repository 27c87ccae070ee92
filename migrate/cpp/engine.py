"""The built-in C++ engine: the C++ rules over one source file (a byte-order mark is kept aside)."""
from __future__ import annotations

from migrate.cpp import continuations
from migrate.cpp.context import CppContext
from migrate.fixing import Translation, run_rules
from migrate.options import Options
from migrate.packs import Packs

BOM = b"\xef\xbb\xbf"


def translate(path: str, data: bytes, options: Options, packs: Packs, target: str, rules) -> Translation:
    bom = data.startswith(BOM)
    ctx = CppContext(path, data[len(BOM):] if bom else data, options, packs, target)
    result = run_rules(ctx, rules, what="identifiers there were migrated token by token: review those lines",
                       extra_edits=lambda body, applied: continuations.realign(body, list(applied.edits)))
    return Translation((BOM if bom else b"") + result.data, result.findings) if bom else result
