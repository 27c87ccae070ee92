"""Every code hipmigrate reports, with its title: one table.

Rule codes (CPP, HAZ, PY, BLD0xx-2xx) come from the rule classes, MAP codes from the mapping packs, BLD9xx from
the compiler-diagnostic causes (migrate/verify/diagnostics.py), PRF from the kernel diff
(migrate/kernels/findings.py) and CHK001 from the suppression check; the codes
that no rule class carries (problems with the input, an engine's messages, the compile check's own) are written
here. `hipmigrate rules CODE` explains any of them, and scripts/gen_rule_docs.py writes the list of codes in
docs/codes.md and docs/rules/ from this table. Renderers name codes from it: the command hands it to them
(migrate.formats.Context), so that no renderer loads the rules.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from migrate.model import RuleKind, Severity
from migrate.packs import PackError


@dataclass(frozen=True)
class Code:
    code: str
    title: str  # one line: what the finding says is wrong
    kind: RuleKind
    severity: Severity
    doc: str = ""  # what it means and what to do, in paragraphs
    source: str = "engine"  # "rule" (a rule class), "pack" (a mapping pack) or "engine" (hipmigrate itself)
    rule: type | None = None  # the rule class, for rule codes
    home: str = "migrate/codes.py"  # the file that defines it, relative to the repository
    name: str = ""  # the rule class's name, for rule codes and CHK001
    family: str = ""  # the API family, for pack codes
    rows: int = 0  # how many names the pack renames, for pack codes


def _input(code: str, title: str, doc: str, severity: Severity = Severity.WARNING) -> Code:
    return Code(code, title, RuleKind.INPUT, severity, doc)


# the codes no rule class carries; exit statuses in docs/commands.md, "Exit status"
ENGINE_CODES = (
    _input("INP001", "a file that does not parse cleanly",
           "The parser of its language (tree-sitter, libcst) met a syntax error. A file that does not parse at all "
           "is copied unchanged; one with local errors is migrated outside them (a Dockerfile instruction the "
           "grammar cannot read is left unchanged, with this code at its line, and the other instructions are "
           "migrated). Fix the syntax error at the line named, or leave the file out with --exclude."),
    _input("INP002", "binary content in a source file",
           "NUL bytes in the first 8 KiB: the file is copied unchanged. Exclude it with --exclude if it is not "
           "source."),
    _input("INP003", "a file that is not UTF-8",
           "It is migrated byte for byte and keeps its encoding; the finding names the first byte that is not "
           "UTF-8. Convert the file to UTF-8 when you can."),
    _input("INP004", "a file or folder that cannot be read",
           "Permissions, or not a regular file (a FIFO, a socket, a device): it is left out of the output or copied "
           "unchanged. Fix its permissions, or remove it from the tree.", Severity.ERROR),
    _input("INP005", "a file over --max-file-size",
           "It is copied unchanged. Raise --max-file-size to migrate it."),
    _input("INP011", "a C++ file over --max-file-size, renamed only",
           "Past the size limit of full analysis (4 MiB by default), a C++ file goes through one linear pass: the "
           "CUDA names and headers the mapping packs know are renamed, and nothing else runs (no rule, no hazard "
           "check, no tree). Raise --max-file-size to analyse it, or give --over-size copy to copy such files "
           "unchanged (INP005)."),
    _input("INP006", "a symbolic link that does not resolve",
           "A loop or a missing target: copied as a link, not migrated. Fix or remove the link."),
    _input("INP007", "a fix that overlaps another fix",
           "Two fixes edit the same bytes; the first one is applied and this one is left out whole. Edit the place "
           "by hand."),
    _input("INP008", "an internal error while migrating this file",
           "A bug in hipmigrate met in this file: the finding names the exception and where it was raised, the "
           "file is copied unchanged, every other file is migrated, and the command exits 2. Please report it.",
           Severity.ERROR),
    _input("INP009", "a symbolic link out of the source tree",
           "What it points to is not migrated; the copy links to the same absolute target. Copy the file into the "
           "tree to migrate it."),
    _input("INP010", "code nested deeper than hipmigrate follows",
           "A RecursionError: the input nests hundreds of levels deep. The file is copied unchanged."),
    _input("INP012", "a file that vanished or changed while the run was in progress",
           "It was listed, then deleted or moved before it was read or copied, or (`--in-place`) edited between "
           "the moment it was read and the moment it would have been replaced. It is left out of the output, or "
           "(`--in-place`) not replaced, so the edit made meanwhile is kept. Run again once the tree is settled.",
           Severity.ERROR),
    _input("INP014", "a vendored library that already supports HIP",
           "A library under third_party/, external/, extern/, vendor/, deps/, 3rdparty/, contrib/ or a git submodule "
           "whose C++ files already name a HIP macro or header in a preprocessor line (GLM tests __HIP__) is copied "
           "byte for byte: it tells nvcc and hipcc apart itself, and renaming its CUDA tests would send hipcc down "
           "its nvcc branches. One finding names the library and the line that shows it. Move it out of those "
           "folders to have it migrated.", Severity.INFO),
    _input("INP013", "more findings of one code in a file than are listed",
           "A file with more than 1,000 findings of one code (a generated table, a pasted block) keeps the first "
           "1,000 of them, in the engine's order, and this one finding says how many more there are. Every fix was "
           "applied and every count (the statistics, the totals by code) includes them; only the listing is cut. "
           "Look at the file's diff for the rest.", Severity.INFO),
    Code("ENG001", "hipify-perl's own warning", RuleKind.ENGINE, Severity.ERROR,
         "With --engine hipify-perl, each warning hipify-perl prints (an unsupported identifier, mostly) becomes a "
         "finding on its line: an error, as CPP006 is, for the name it leaves stops the build."),
    Code("BLD907", "compiler warning", RuleKind.BUILD, Severity.WARNING,
         "A warning hipcc printed while compile-checking a migrated unit."),
    Code("BLD909", "a compile the machine cannot check", RuleKind.BUILD, Severity.ERROR,
         "The unit needs headers this machine lacks to be compiled for AMD: a PyTorch extension unit with no torch "
         "whose C++ headers are importable, for example. Install them (see `hipmigrate doctor`) and run again."),
)


def _build_codes() -> list[Code]:
    from migrate.verify import diagnostics

    causes = [(code, title) for _, code, title, _ in diagnostics.CAUSES]
    causes += [diagnostics.NEWER[1:], diagnostics.MISSING_LIBRARY[1:]]
    return [Code(code, title, RuleKind.BUILD, Severity.ERROR,
                 "A compile error of the migrated code, grouped by its cause (`hipmigrate build`).",
                 home="migrate/verify/diagnostics.py") for code, title in causes]


def _kernel_codes() -> list[Code]:
    from migrate.kernels.findings import CODES

    return [Code(c.code, c.title, c.kind, c.severity, c.doc().split("\n\n", 1)[1], home="migrate/kernels/findings.py")
            for c in CODES]


def title(doc: str, limit: int = 160) -> str:
    """A rule's title from its documentation: the first paragraph up to its first `: ` or `. ` outside brackets and
    code, cut at a word before `limit` characters."""
    text = " ".join(doc.split("\n\n")[0].split())
    depth, code = 0, False
    for i, ch in enumerate(text):
        if ch == "`":
            code = not code
        elif not code and ch in "([":
            depth += 1
        elif not code and ch in ")]":
            depth -= 1
        elif not code and depth == 0 and ch in ":." and text[i + 1:i + 2] in (" ", ""):
            text = text[:i]
            break
    return text if len(text) <= limit else text[:text.rfind(" ", 0, limit - 3)] + " ..."


def _rule_code(rule, source: str = "rule") -> Code:
    parts = rule.__module__.split(".")
    home = "/".join(parts[1:] if parts[:2] == ["migrate", "rules"] else parts) + ".py"
    return Code(rule.code, title(rule.doc()) or rule.name(), rule.kind, rule.severity, rule.doc(), source,
                rule if source == "rule" else None, home, rule.name())


def code_table(registry, packs) -> dict[str, Code]:
    """Every code, in code order; a code defined twice is an error (PackError)."""
    from migrate.suppress import UnusedSuppression

    found: dict[str, Code] = {}
    entries = [_rule_code(r) for r in registry.rules]
    rows = Counter(m.family for m in packs.names.values())
    entries += [Code(code, f"CUDA names of {family} renamed to HIP", RuleKind.MAPPING, Severity.INFO,
                     source="pack", home=f"rules/mappings/{family}.toml", family=family, rows=rows[family])
                for family, code in packs.families.items()]
    entries += [*ENGINE_CODES, *_build_codes(), *_kernel_codes(), _rule_code(UnusedSuppression, "engine")]
    for entry in entries:
        if entry.code in found:
            raise PackError(f"code {entry.code} is defined twice: {_where(found[entry.code])} and {_where(entry)}")
        found[entry.code] = entry
    return dict(sorted(found.items()))


def rule_name(table: dict[str, Code], code: str) -> str:
    """The name of the rule class that carries `code`; "" when no rule class does."""
    entry = table.get(code)
    return entry.name if entry is not None and entry.source == "rule" else ""


def _where(entry: Code) -> str:
    if entry.rule is not None:
        return f"{entry.rule.__module__}.{entry.rule.__name__}"
    return f"the {entry.source} code '{entry.title}'"
