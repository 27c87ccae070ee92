"""Turn every rule's examples (and every mapping-pack row) into test cases.

A rule's Invalid example is run through the engine with that rule and the pack renames: the rule must report
at least one finding, the output must equal `fixed` exactly, a second pass must change nothing, and the
output must parse without new tree-sitter errors. A Valid example must give no finding of the rule.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from migrate.cpp import parse
from migrate.cpp_engine import translate
from migrate.model import Finding
from migrate.options import Options
from migrate.packs import Mapping, Packs
from migrate.fixing import allowed, run_rules
from migrate.rule import FileRule, Invalid, Rule, Valid
from migrate.contexts import CONTEXTS
from migrate.filekinds import rule_kind


@dataclass(frozen=True)
class Outcome:
    output: str
    findings: tuple[Finding, ...]  # of the rule under test
    second_pass_edits: int
    new_parse_errors: bool


def example_options(example: Valid | Invalid, packs: Packs) -> tuple[Options, str]:
    settings = dict(example.options)
    target = str(settings.pop("hip_version", packs.newest))
    return replace(Options(), **settings), target


def example_rules(rule: type[Rule], rules: list) -> list:
    """The rule under test and the pack-driven renames (which every output shows), in phase order."""
    return [r for r in rules if type(r) is rule or r.code == "MAP000"]


def run_example(rule: type[Rule], example: Valid | Invalid, packs: Packs, rules: list) -> Outcome:
    """`rules`: instances of every C++ rule; a C++ example runs with `example_rules` of them, a build-file
    example with its own rule alone, in a file named the rule's `example_path`."""
    options, target = example_options(example, packs)
    source = example.code.encode()
    if issubclass(rule, FileRule):
        path = example.path or rule.example_path
        kind = rule_kind(path)
        assert kind in rule.kinds(), f"{rule.code}: example file {path} is a {kind} file, not {rule.kinds()}"
        context = CONTEXTS[kind]

        def run(data: bytes):
            return run_rules(context(path, data, options, packs, target), [rule()])

        def broken(data: bytes) -> bool:  # a part left unread (a Dockerfile's instruction) counts too
            ctx = context(path, data, options, packs, target)
            return bool(ctx.parse_errors() or ctx.unread())
    else:
        rules = example_rules(rule, rules)

        def run(data: bytes):
            return translate(example.path or "example.cu", data, options, packs, target, rules)

        def broken(data: bytes) -> bool:
            return parse.parse(data).root_node.has_error
    first = run(source)
    second = run(first.data)
    edits = sum(1 for f in second.findings if allowed(f, options))  # fixes the options would apply
    errors = broken(first.data) and not broken(source)
    mine = tuple(f for f in first.findings if f.code == rule.code or _pack_code(rule, f))
    return Outcome(first.data.decode(), mine, edits, errors)


def _pack_code(rule: type[Rule], f: Finding) -> bool:
    # The pack-driven rule reports with the code of the pack that mapped the name (MAP001, MAP006, ...).
    return rule.code == "MAP000" and f.code.startswith("MAP") and f.code != "MAP000"


def example_id(rule: type[Rule], index: int, example: Valid | Invalid) -> str:
    kind = "invalid" if isinstance(example, Invalid) else "valid"
    return f"{rule.code}-{kind}-{index}"


def row_snippet(m: Mapping, name: str) -> str:
    """A small piece of code that uses `name` as a `m.kind` is used."""
    return {
        "function": f"void use() {{ {name}(a, b); }}\n",
        "type": f"void use() {{ {name} value; }}\n",
        "namespace": f"void use() {{ {name}::thing(); }}\n",
    }.get(m.kind, f"int use() {{ return (int){name}; }}\n")
