"""Compile many small translation units (rule examples) a batch at a time, with each one's verdict as exact as if it
were compiled alone.

A compile of a small unit is mostly the parse of the headers it includes, once for the host and once per offload
target: 1 to 3 s for a few lines of code. A batch is one unit that holds several snippets of the same includes:
the includes once at the top, then each snippet's code in a namespace of its own (`namespace hipmigrate_batch_N`)
after a `#line 1 "snippet-N.cu"` directive, so that every diagnostic names the snippet it is in. The namespaces
keep the snippets apart (one snippet's declarations are not visible to another's code), and a snippet goes into a
batch only where that cannot change its verdict:

- its includes come first (they are hoisted), and it has no #line or #pragma once; the macros it defines or
  undefines are saved before it and restored after it (`#pragma push_macro`/`pop_macro`), so that none reaches
  the snippets after it;
- its tree parses without an error (an unbalanced brace would spill into the next snippet);
- it has no `extern "C"` block and declares no operator (those reach past a namespace), and names none of its own
  declarations `::name` (the global name, which in a batch it is not);
- it has no `using namespace` at its top level (the nominated names would meet its own elsewhere than alone);
- no name that it declares at its top level is also declared at the global scope by its headers: alone, such a
  declaration would be a redeclaration of the header's, or an overload beside it, where in its namespace it is
  neither. The compiler says which names the headers declare: a probe unit of the includes and a `using ::NAME;`
  per name, checked (-fsyntax-only, host side) with every error kept; a name without an error is declared there.
  Such a snippet is compiled alone.

A batch that fails is resolved by its diagnostics: a snippet with an error of its own fails with that error, the
others are batched again; errors that name no snippet (a backend error without a location) split the batch in
two. A snippet compiled alone is compiled exactly as given.
"""
from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from migrate.cpp.parse import parse
from tests.compile import run_cached

NAMESPACE = "hipmigrate_batch_"
BATCH = 24  # snippets per batch at most
IDENT = re.compile(r"[A-Za-z_]\w*")
SNIPPET = re.compile(r"snippet-(\d+)\.cu\b")


@dataclass(frozen=True)
class Compiler:
    """How to compile one source for one toolchain: `command(source, out)` gives the argument list, `suffix` the
    source's suffix, `probe(source)` the syntax check of the host side that finds the names the headers declare
    (None: no check, for a compiler whose verdict only chooses what the others compile), `error` tells an error line
    from the rest."""

    command: Callable[[Path, Path], list[str]]
    suffix: str
    env: dict[str, str] | None = None
    probe: Callable[[Path], list[str]] | None = None
    error: re.Pattern = re.compile(r":\s*(fatal )?error\b")  # clang's `file:3:5: error:`, nvcc's `file(3): error:`


def _includes_and_body(code: str) -> tuple[tuple[str, ...], str, tuple[str, ...]] | None:
    """(the leading include lines, the code with them blanked, the macros it defines or undefines), or None when an
    include comes after other code or directives, or it has a #line or #pragma once."""
    includes, body, macros, leading = [], [], [], True
    for line in code.splitlines():
        stripped = line.strip()
        directive = re.match(r"#\s*(\w+)\s*(\w*)", stripped)
        if directive and directive.group(1) == "include":
            if not leading:
                return None
            includes.append(stripped)
            body.append("")
            continue
        if stripped and not stripped.startswith("//"):
            leading = False
        if directive:
            if directive.group(1) == "line" or (directive.group(1) == "pragma" and directive.group(2) == "once"):
                return None
            if directive.group(1) in ("define", "undef"):
                macros.append(directive.group(2))
        body.append(line)
    return tuple(includes), "\n".join(body) + "\n", tuple(dict.fromkeys(macros))


def _declarator_name(node) -> str | None:
    """The name a declarator declares; "" for a qualified one (a member defined out of line: its class is the
    snippet's own); None for an operator or a shape not known here."""
    while node is not None:
        kind = node.type
        if kind in ("identifier", "field_identifier", "type_identifier", "namespace_identifier"):
            return node.text.decode()
        if kind in ("qualified_identifier", "destructor_name"):
            return ""
        if kind in ("operator_name", "operator_cast"):
            return None
        if kind == "template_function":
            node = node.child_by_field_name("name")
            continue
        inner = node.child_by_field_name("declarator")
        if inner is None:
            named = [c for c in node.named_children if c.type not in ("attribute_declaration", "type_qualifier",
                                                                       "ms_pointer_modifier")]
            inner = named[0] if named else None
        node = inner
    return None


def _type_names(node, names: set[str]) -> None:
    """Names a declaration's type part declares: a struct, class, union or enum, and an unscoped enum's values."""
    for kind in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
        if node.type == kind:
            name = node.child_by_field_name("name")
            if name is not None:
                names.add(name.text.decode())
            if kind == "enum_specifier" and not any(c.type in ("class", "struct") for c in node.children):
                body = node.child_by_field_name("body")
                for value in (body.named_children if body is not None else ()):
                    if value.type == "enumerator":
                        names.add(value.child_by_field_name("name").text.decode())


def top_level_names(body: str) -> set[str] | None:
    """The names the snippet declares outside any function, or None when it cannot go into a batch."""
    tree = parse(body.encode())
    if tree.root_node.has_error:
        return None
    names: set[str] = set()
    pending = list(tree.root_node.named_children)
    while pending:
        node = pending.pop()
        kind = node.type
        if kind in ("comment", "preproc_include", "preproc_def", "preproc_function_def", "preproc_call"):
            continue
        if kind in ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"):
            skip = {(c.start_byte, c.end_byte) for field in ("name", "condition")
                    for c in node.children_by_field_name(field)}
            pending.extend(c for c in node.named_children if (c.start_byte, c.end_byte) not in skip)
            continue
        if kind == "linkage_specification":
            return None
        if kind == "template_declaration":
            pending.extend(c for c in node.named_children if c.type != "template_parameter_list")
            continue
        if kind == "namespace_definition":
            name = node.child_by_field_name("name")
            if name is None:  # an anonymous namespace's names are the snippet's own, as at the top level
                body_node = node.child_by_field_name("body")
                pending.extend(body_node.named_children if body_node is not None else ())
                continue
            names.add(name.text.decode())
            continue
        if kind in ("namespace_alias_definition", "alias_declaration"):
            names.add(node.child_by_field_name("name").text.decode())
            continue
        if kind == "using_declaration":
            names.add(node.named_children[-1].text.decode().rsplit("::", 1)[-1])
            continue
        if kind == "using_directive":
            return None
        if kind in ("static_assert_declaration", "empty_declaration"):
            continue
        if kind in ("function_definition", "declaration", "type_definition", "field_declaration"):
            type_node = node.child_by_field_name("type")
            if type_node is not None:
                _type_names(type_node, names)
            for d in node.children_by_field_name("declarator"):
                name = _declarator_name(d)
                if name is None:
                    return None
                if name:
                    names.add(name)
            continue
        if kind in ("struct_specifier", "class_specifier", "union_specifier", "enum_specifier"):
            _type_names(node, names)
            continue
        return None  # a shape this reading does not know: compiled alone
    return names


@dataclass
class Snippet:
    key: str
    code: str
    alone: bool = False  # compiled on its own in any case (one known to fail, say)
    includes: tuple[str, ...] = ()
    body: str = ""
    macros: tuple[str, ...] = ()
    names: set[str] | None = None

    def batchable(self) -> bool:
        split = None if self.alone else _includes_and_body(self.code)
        if split is None:
            return False
        self.includes, self.body, self.macros = split
        self.names = top_level_names(self.body)
        # a name of its own written `::name` would name the global one, which in a batch it is not
        if self.names and re.search(r"::\s*(%s)\b" % "|".join(map(re.escape, sorted(self.names))), self.body):
            self.names = None
        return self.names is not None


def batch_source(snippets: list[Snippet]) -> str:
    parts = [*snippets[0].includes, ""]
    for i, s in enumerate(snippets):
        parts += [f'#pragma push_macro("{m}")' for m in s.macros]
        parts += [f'#line 1 "snippet-{i}.cu"', f"namespace {NAMESPACE}{i} {{", s.body, "}"]
        parts += [f'#pragma pop_macro("{m}")' for m in s.macros]
    return "\n".join(parts) + "\n"


def _first_error(compiler: Compiler, output: str) -> str:
    return next((line for line in output.splitlines() if compiler.error.search(line)), output[-300:])


def compile_text(compiler: Compiler, text: str, folder: Path) -> tuple[int, str]:
    """(exit status, all the compiler printed) of `text` compiled in `folder`, or of the same compile made before
    (the compile cache: tests/compile.py)."""
    source = folder / f"unit{compiler.suffix}"
    source.write_text(text)
    cmd = compiler.command(source, folder / "unit.o")
    proc = run_cached(cmd, source, folder / "unit.o", dict(os.environ) if compiler.env is None else compiler.env, "",
                      folder)
    return proc.returncode, proc.stderr


def alone(compiler: Compiler, snippet: Snippet) -> str | None:
    """None when the snippet compiles as it stands, else its first error line."""
    with tempfile.TemporaryDirectory(prefix="hipmigrate-snippet-") as tmp:
        code, output = compile_text(compiler, snippet.code, Path(tmp))
    return None if code == 0 else _first_error(compiler, output)


def resolve(compiler: Compiler, snippets: list[Snippet]) -> dict[str, str | None]:
    """key -> None (compiles) or its first error line, for snippets that all have the same includes."""
    if len(snippets) == 1:
        return {snippets[0].key: alone(compiler, snippets[0])}
    with tempfile.TemporaryDirectory(prefix="hipmigrate-batch-") as tmp:
        folder = Path(tmp)
        code, output = compile_text(compiler, batch_source(snippets), folder)
    if code == 0:
        return {s.key: None for s in snippets}
    errors: dict[int, str] = {}
    unplaced = False
    for line in output.splitlines():
        if not compiler.error.search(line):
            continue
        m = SNIPPET.search(line)
        if m:
            errors.setdefault(int(m.group(1)), line)
        elif "unit" + compiler.suffix in line or not errors:
            unplaced = True  # an error in the batch's own lines, or one with no place
    if unplaced or not errors:
        half = len(snippets) // 2
        return {**resolve(compiler, snippets[:half]), **resolve(compiler, snippets[half:])}
    verdicts = {snippets[i].key: line for i, line in errors.items()}
    rest = [s for i, s in enumerate(snippets) if i not in errors]
    if rest:
        verdicts.update(resolve(compiler, rest))
    return verdicts


def declared(compiler: Compiler, includes: tuple[str, ...], names: set[str]) -> set[str] | None:
    """Those of `names` that the includes declare at the global scope (None when the probe cannot tell)."""
    order = sorted(names)
    text = "\n".join([*includes, "namespace hipmigrate_probe {", *(f"using ::{n};" for n in order), "}"]) + "\n"
    first = len(includes) + 2  # the line of the first using-declaration
    with tempfile.TemporaryDirectory(prefix="hipmigrate-probe-") as tmp:
        source = Path(tmp) / f"probe{compiler.suffix}"
        source.write_text(text)
        proc = subprocess.run(compiler.probe(source), capture_output=True, text=True, cwd=tmp, env=compiler.env)
    absent = set()
    for m in re.finditer(rf"probe{re.escape(compiler.suffix)}:(\d+):\d+: error: (.*)", proc.stdout + proc.stderr):
        line = int(m.group(1))
        if not first <= line < first + len(order):
            return None  # an error in the includes: no name can be told
        if "no member named" in m.group(2):
            absent.add(order[line - first])
    return set(order) - absent


def groups(snippets: list[Snippet]) -> tuple[list[list[Snippet]], list[Snippet]]:
    """(the batchable snippets by their includes, the others)."""
    by: dict[tuple[str, ...], list[Snippet]] = {}
    lone: list[Snippet] = []
    for s in snippets:
        if s.batchable():
            by.setdefault(s.includes, []).append(s)
        else:
            lone.append(s)
    return list(by.values()), lone


def batches(compiler: Compiler, group: list[Snippet]) -> list[list[Snippet]]:
    """A group of the same includes as batches of at most BATCH, those that declare a name its headers also
    declare each on its own."""
    if len(group) > 1 and compiler.probe is not None:
        clash = declared(compiler, group[0].includes, set().union(*(s.names for s in group)))
        alone_ = [s for s in group if clash is None or s.names & clash]
        group = [s for s in group if s not in alone_]
    else:
        alone_ = []
    return [group[i:i + BATCH] for i in range(0, len(group), BATCH)] + [[s] for s in alone_]
