"""Rule base classes and the example cases every rule carries (they are the rule's tests)."""
from __future__ import annotations

from dataclasses import dataclass
from sys import intern
from typing import ClassVar, Iterable

from migrate.edits import readable
from migrate.model import Applicability, Edit, Finding, Fix, RuleKind, Severity


@dataclass(frozen=True)
class Valid:
    """Code the rule must not flag."""

    code: str
    options: tuple[tuple[str, object], ...] = ()
    path: str = ""  # for file rules: the example's file name (default: the rule's example_path)


@dataclass(frozen=True)
class Invalid:
    """Code the rule must flag; `fixed` is the exact text after its fixes, `line` the first finding's line."""

    code: str
    fixed: str | None = None
    line: int | None = None
    message: str | None = None
    options: tuple[tuple[str, object], ...] = ()
    path: str = ""  # for file rules: the example's file name (default: the rule's example_path)


class Rule:
    """A rule: a stable code, a kind, a severity, documentation (the docstring) and examples."""

    code: ClassVar[str]
    kind: ClassVar[RuleKind]
    severity: ClassVar[Severity] = Severity.INFO
    phase: ClassVar[int] = 0  # lower phases run first
    applicability: ClassVar[Applicability] = Applicability.SAFE
    fixable: ClassVar[bool] = True
    # its fixed text may be what another rule rewrites (a wrong port undone: `torch.hip` -> `torch.cuda`, then made
    # device-generic by --portable): after such a fix the engine runs the rules again (migrate/fixing.py)
    feeds_other_rules: ClassVar[bool] = False
    examples: ClassVar[list[Valid | Invalid]] = []

    @classmethod
    def name(cls) -> str:
        return cls.__name__

    @classmethod
    def doc(cls) -> str:
        """The rule's documentation: its class docstring, else its module's (one rule per module)."""
        import sys

        module = sys.modules.get(cls.__module__)
        return (cls.__doc__ or getattr(module, "__doc__", None) or "").strip()

    def finding(self, ctx, start: int, end: int, message: str, *, edits: Iterable[Edit] = (),
                title: str = "", severity: Severity | None = None, family: str = "",
                code: str | None = None, applicability: Applicability | None = None,
                matched: str | None = None, detail: tuple[str, ...] = ()) -> Finding:
        """`matched` is the source text of [start, end) when the rule already has it (read from the file if not);
        `detail`: what the finding names, for listings that must not parse the message or the text again. The texts
        are interned: a file's findings repeat a few messages thousands of times (a quarter of their memory)."""
        edits = tuple(ctx.separated(e) for e in edits)
        fix = Fix(intern(readable(title)), edits, applicability or self.applicability) if edits else None
        return Finding(code or self.code, self.kind, self.severity if severity is None else severity,
                       intern(readable(message)), ctx.span(start, end), fix, family,
                       intern(readable(ctx.text(start, end) if matched is None else matched)),
                       tuple(readable(d) for d in detail))


class CppRule(Rule):
    """A rule over one C++/CUDA file; `check` receives a `migrate.cpp.context.CppContext`."""

    kind = RuleKind.CPP

    def check(self, ctx) -> Iterable[Finding]:
        raise NotImplementedError


class FileRule(Rule):
    """A rule over one build, Python or deployment file: `file_kind` says which ("cmake", "make", "python",
    "shell", ...), or `file_kinds` when the rule reads several; examples are written to a file named
    `example_path` unless they name their own `path`."""

    file_kind: ClassVar[str] = ""
    file_kinds: ClassVar[tuple[str, ...]] = ()
    example_path: ClassVar[str]

    @classmethod
    def kinds(cls) -> tuple[str, ...]:
        return cls.file_kinds or (cls.file_kind,)

    def check(self, ctx) -> Iterable[Finding]:
        raise NotImplementedError


class HazardRule(CppRule):
    """A C++/CUDA rule for code that renaming cannot port (a portability hazard)."""

    kind = RuleKind.HAZARD


class CMakeRule(FileRule):
    """A rule over CMake files; its examples are written to CMakeLists.txt."""

    kind = RuleKind.BUILD
    file_kind = "cmake"
    example_path = "CMakeLists.txt"


class MakeRule(FileRule):
    """A rule over Makefiles; its examples are written to Makefile."""

    kind = RuleKind.BUILD
    file_kind = "make"
    example_path = "Makefile"


class PythonRule(FileRule):
    """A rule over Python files (read with libcst); its examples are written to train.py unless it names another."""

    kind = RuleKind.PYTHON
    file_kind = "python"
    example_path = "train.py"


class DeployRule(FileRule):
    """A rule over deployment files (requirements, pyproject, shell, Docker, YAML, .env): each names the file kinds
    it reads and the file its examples are written to."""

    kind = RuleKind.PYTHON


class EnvRule(DeployRule):
    """A rule over environment variables, wherever a file sets or reads them."""

    file_kinds = ("python", "shell", "docker", "yaml", "dotenv")
