"""Deployment files parsed with the tree-sitter grammars published on PyPI: shell scripts and `.env` files
(tree-sitter-bash),
Dockerfiles (tree-sitter-dockerfile), YAML (tree-sitter-yaml: Kubernetes, compose, CI workflows),
requirements files (tree-sitter-requirements) and pyproject.toml (tree-sitter-toml).

Rules find their sites in the tree and edit the file's bytes at node spans, so every other byte stays.
"""
from __future__ import annotations

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

from migrate.context import FileContext

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
        return parse(self.kind, self.data)

    @property
    def root(self) -> tree_sitter.Node:
        return self.tree.root_node

    def nodes(self, *types: str) -> Iterator[tree_sitter.Node]:
        return walk(self.root, *types)

    def node_text(self, node: tree_sitter.Node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def parse_errors(self) -> list[tuple[int, int]]:
        if not self.root.has_error:
            return []
        return [(n.start_point[0] + 1, n.start_point[1] + 1)
                for n in walk(self.root) if n.type == "ERROR" or n.is_missing][:5]


class ShellContext(GrammarContext):
    kind = "shell"


class DotenvContext(GrammarContext):
    """`.env` files (docker compose's `env_file`, python-dotenv): KEY=value lines, read with the bash grammar."""

    kind = "dotenv"


class DockerContext(GrammarContext):
    kind = "docker"


class YamlContext(GrammarContext):
    kind = "yaml"


class RequirementsContext(GrammarContext):
    kind = "requirements"


class PyprojectContext(GrammarContext):
    kind = "pyproject"
