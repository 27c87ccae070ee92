"""Deployment files parsed with the tree-sitter grammars published on PyPI: shell scripts and `.env` files
(tree-sitter-bash),
Dockerfiles (tree-sitter-dockerfile), YAML (tree-sitter-yaml: Kubernetes, compose, CI workflows),
requirements files (tree-sitter-requirements) and pyproject.toml (tree-sitter-toml).

Rules find their sites in the tree and edit the file's bytes at node spans, so every other byte stays. A valid file
that a grammar fails on is read through a copy with the same offsets (`recovered`; Dockerfiles through
migrate/deploy/docker_recovery.py, instruction by instruction), never skipped for that.
"""
from __future__ import annotations

import re
import threading
import warnings
from functools import cached_property
from typing import Iterator

import tree_sitter
import tree_sitter_bash
import tree_sitter_dockerfile
import tree_sitter_requirements
import tree_sitter_toml
import tree_sitter_yaml

from migrate.context import FileContext, Unread
from migrate.deploy import docker_recovery

_GRAMMARS = {
    "shell": tree_sitter_bash,
    "dotenv": tree_sitter_bash,  # KEY=value lines, `export` allowed: shell assignments as far as the grammar goes
    "docker": tree_sitter_dockerfile,
    "yaml": tree_sitter_yaml,
    "requirements": tree_sitter_requirements,
    "pyproject": tree_sitter_toml,
}
_languages: dict[str, tree_sitter.Language] = {}
_local = threading.local()


def language(kind: str) -> tree_sitter.Language:
    if kind not in _languages:
        with warnings.catch_warnings():  # tree-sitter-dockerfile 0.2 hands over an int, which tree-sitter deprecates
            warnings.simplefilter("ignore", DeprecationWarning)
            _languages[kind] = tree_sitter.Language(_GRAMMARS[kind].language())
    return _languages[kind]


def parse(kind: str, data: bytes) -> tree_sitter.Tree:
    parsers = getattr(_local, "parsers", None)
    if parsers is None:
        parsers = _local.parsers = {}
    if kind not in parsers:
        parsers[kind] = tree_sitter.Parser(language(kind))
    return parsers[kind].parse(data)


# Options pip takes on a line of their own; a requirement line followed by one (`torch==2.3.0 --index-url URL`,
# `torch==1.9.0+cu111 -f https://.../torch_stable.html`) is a form real files use, which tree-sitter-requirements
# rejects.
_LINE_OPTION = re.compile(rb"[ \t](?=(?:-i|--index-url|--extra-index-url|-f|--find-links|--trusted-host|--pre|"
                          rb"--prefer-binary|--no-index|--only-binary|--no-binary)(?:[ \t=]|$))", re.M)


_BRACED = re.compile(rb"\$\{[^}\n]*\}")
_PIP_VARIABLE = re.compile(rb"\$\{[A-Z0-9_]+\}")  # the only form pip expands


def recovered(kind: str, data: bytes) -> Iterator[bytes]:
    """Copies of a valid file that its grammar reads where it fails on the file itself, each a byte-for-byte match
    of the file's offsets (a blank becomes a line break; a line break is added after the last byte): the file's own
    bytes keep their positions, so nodes and edits refer to them.

    - every grammar: a last line without its line break (a compose file ending `runtime: nvidia`);
    - requirements files: a requirement and an option on one line (`torch==2.3.0 --index-url .../cu121`): the blank
      before the option becomes a line break, as if the option stood on the next line; a variable pip expands
      (`${CUDA}`, in a version or a URL) becomes as many `0`s, with or without that split;
    - shell scripts: a `;` inside `${...}` (`${ARCHS:-8.0;9.0}`) becomes a `,`."""
    ended = data if data.endswith(b"\n") or not data else data + b"\n"
    if ended is not data:
        yield ended
    if kind == "requirements":
        split = _LINE_OPTION.sub(lambda m: b"\n" if _after_requirement(ended, m.start()) else m[0], ended)
        if split != ended:
            yield split
        # pip expands `${NAME}` in requirements files (`torch==2.1.0+cu${CUDA}`, `--index-url .../cu${CUDA}`)
        for copy in dict.fromkeys((ended, split)):
            expanded = _PIP_VARIABLE.sub(lambda m: b"0" * len(m[0]), copy)
            if expanded != copy:
                yield expanded
    if kind in ("shell", "dotenv"):
        # `${TORCH_CUDA_ARCH_LIST:-8.0;9.0}`: bash reads a `;` inside `${...}` as part of the word, the grammar does not
        braced = _BRACED.sub(lambda m: m[0].replace(b";", b","), ended)
        if braced != ended:
            yield braced


def _after_requirement(data: bytes, pos: int) -> bool:
    """Whether the text before `pos` on its line is a requirement (not blank, a comment or an option)."""
    start = data.rfind(b"\n", 0, pos) + 1
    head = data[start:pos].strip()
    return bool(head) and not head.startswith((b"#", b"-"))


def walk(node: tree_sitter.Node, *types: str) -> Iterator[tree_sitter.Node]:
    """`node` and its descendants in document order; only those of `types` when given."""
    stack = [node]
    while stack:
        n = stack.pop()
        if not types or n.type in types:
            yield n
        stack.extend(reversed(n.children))


class GrammarContext(FileContext):
    """One deployment file and its tree; `kind` picks the grammar."""

    kind = ""
    all_or_nothing = True  # a file that does not parse is copied unchanged

    @cached_property
    def tree(self) -> tree_sitter.Tree:
        """The file's tree; where the grammar fails on a valid file, the tree of a copy it reads, with the same byte
        offsets (`recovered`)."""
        tree = parse(self.kind, self.data)
        if not tree.root_node.has_error:
            return tree
        for copy in recovered(self.kind, self.data):
            again = parse(self.kind, copy)
            if not again.root_node.has_error:
                return again
        return tree

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node

    def nodes(self, *types: str) -> Iterator[tree_sitter.Node]:
        return walk(self.root, *types)

    def node_text(self, node: tree_sitter.Node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "surrogateescape")

    def parse_errors(self) -> list[tuple[int, int]]:
        if not self.root.has_error:
            return []
        return [(s.line, s.column) for s in (self.span(n.start_byte, n.start_byte)
                for n in walk(self.root) if n.type == "ERROR" or n.is_missing)][:5]


class ShellContext(GrammarContext):
    kind = "shell"


class DotenvContext(GrammarContext):
    """`.env` files (docker compose's `env_file`, python-dotenv): KEY=value lines, read with the bash grammar."""

    kind = "dotenv"


class DockerContext(GrammarContext):
    """A Dockerfile: an instruction the grammar cannot read is left out of the tree and reported on its own
    (migrate/deploy/docker_recovery.py); the others are migrated."""

    kind = "docker"

    @cached_property
    def reading(self) -> docker_recovery.Reading:
        return docker_recovery.read(self.data, lambda data: parse("docker", data))

    @cached_property
    def tree(self) -> tree_sitter.Tree:
        return self.reading.tree

    def unread(self) -> tuple[Unread, ...]:
        out = []
        for blanked in self.reading.blanked:
            instruction = blanked.instruction
            start = self.span(instruction.start, instruction.start)
            text = self.data[instruction.start:instruction.lines_end]
            column = start.column + len(text) - len(text.lstrip(b" \t\f\v\r"))
            places = tuple((s.line, s.column) for s in (self.span(at, at) for at in blanked.errors))
            name = instruction.keyword if instruction.keyword.isalpha() else ""
            out.append(Unread(f"{name} instruction" if name else "instruction", start.line, column, places))
        return tuple(out)


class YamlContext(GrammarContext):
    kind = "yaml"


class RequirementsContext(GrammarContext):
    kind = "requirements"


class PyprojectContext(GrammarContext):
    kind = "pyproject"
