"""Simple commands of the shell text a file runs, read with tree-sitter-bash: a shell script whole, a Dockerfile's
`RUN`/`CMD`/`ENTRYPOINT`/`HEALTHCHECK` shell text (migrate/deploy/docker_shell.py), and a YAML file's script steps
(migrate/deploy/yaml_shell.py); with whether a command's output is read by what follows, and whether its exit
status is. For the rules over diagnostic commands (`nvidia-smi`, `nvcc --version`, `which nvcc`).
"""
from __future__ import annotations

import os
import re
from typing import Iterator

import tree_sitter

from migrate.deploy import docker_shell, yaml_shell
from migrate.deploy.context import walk
from migrate.deploy.docker_shell import ShellText

CAPTURING = ("command_substitution", "process_substitution")
REFERENCE = re.compile(r'"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?')  # a command named by a variable: $SMI, "${NVCC}"


def pieces(ctx, needle: bytes) -> list[tuple[tree_sitter.Node, ShellText]]:
    """(tree, text) of each piece of shell text of the file that may hold `needle`."""
    if needle not in ctx.data:
        return []
    if ctx.kind == "shell":
        return [(ctx.root, ShellText(ctx.data, 0))]
    if ctx.kind == "yaml":
        return [(root, shell) for root, shell in yaml_shell.trees(ctx) if needle in shell.text]
    return docker_shell.trees(ctx)


def commands(ctx, name: str) -> Iterator[tuple[ShellText, tree_sitter.Node, tree_sitter.Node]]:
    """(text, command, name node) of every simple command that runs `name` (also by a path: /usr/bin/name)."""
    for root, shell in pieces(ctx, name.encode()):
        for command in walk(root, "command"):
            node = command.child_by_field_name("name")
            if node is not None and os.path.basename(text(shell, node)) == name:
                yield shell, command, node


def through_variables(ctx, name: str) -> Iterator[tuple[ShellText, tree_sitter.Node, str]]:
    """(text, command, origin) of every simple command named by a variable (`$SMI -L`, `"${NVCC}" -V`) that the same
    shell text sets once, to a literal that runs `name` (`SMI=nvidia-smi`, `NVCC=/usr/local/cuda/bin/nvcc`); the
    origin says where (`SMI, set at line 2`)."""
    for root, shell in pieces(ctx, name.encode()):
        settings: dict[str, list[tree_sitter.Node]] = {}
        for assignment in walk(root, "variable_assignment"):
            variable = assignment.child_by_field_name("name")
            if variable is not None:
                settings.setdefault(text(shell, variable), []).append(assignment)
        for command in walk(root, "command"):
            node = command.child_by_field_name("name")
            match = REFERENCE.fullmatch(text(shell, node)) if node is not None else None
            found = settings.get(match.group(1), []) if match else []
            value = found[0].child_by_field_name("value") if len(found) == 1 else None
            if value is None or value.type not in ("word", "string", "raw_string") or value.named_children and \
                    any(c.type != "string_content" for c in value.named_children):
                continue
            if os.path.basename(text(shell, value).strip("'\"")) == name:
                at = shell.at(found[0].start_byte)
                yield shell, command, f"{match.group(1)}, set at line {ctx.span(at, at).line}"


def text(shell: ShellText, node: tree_sitter.Node) -> str:
    return shell.text[node.start_byte:node.end_byte].decode("utf-8", "surrogateescape")


def output_parsed(shell: ShellText, command: tree_sitter.Node) -> bool:
    """Is the command's output read: captured, piped on, or written to a file (not /dev/null)?"""
    node = command
    while node.parent is not None:
        parent = node.parent
        if parent.type in CAPTURING:
            return True
        if parent.type == "pipeline" and parent.children and parent.children[-1] != node:
            return True
        if parent.type == "redirected_statement" and parent.child_by_field_name("body") == node:
            for redirect in parent.children_by_field_name("redirect"):
                descriptor = redirect.child_by_field_name("descriptor")
                target = redirect.child_by_field_name("destination")
                to_stdout = descriptor is None or text(shell, descriptor) == "1"
                if redirect.type == "file_redirect" and to_stdout and target is not None \
                        and text(shell, target) != "/dev/null":
                    return True
        if parent.type in ("program", "compound_statement", "if_statement", "while_statement", "for_statement"):
            return False
        node = parent
    return False


STATEMENTS = ("program", "compound_statement", "do_group", "else_clause", "subshell")


def status_read(shell: ShellText, command: tree_sitter.Node) -> bool:
    """Is the command's exit status what the script asks for: a condition (`if`, `while`, `!`), one side of `&&` or
    `||`, or a command whose output is thrown away (`> /dev/null`), rather than a statement of its own?"""
    node = command
    while node.parent is not None:
        parent = node.parent
        if parent.type in ("list", "negated_command", "test_command"):
            return True
        if parent.type in ("if_statement", "elif_clause", "while_statement") and _condition(parent, node):
            return True
        if parent.type == "redirected_statement":
            return True  # output parsed (output_parsed says so) or thrown away: either way not a plain statement
        if parent.type in STATEMENTS or parent.type in ("if_statement", "elif_clause"):
            return False
        node = parent
    return False


def _condition(parent: tree_sitter.Node, node: tree_sitter.Node) -> bool:
    """Is `node` in the condition of the `if`, `elif` or `while` `parent` (before its `then` or `do`)?"""
    for child in parent.children:
        if child.type in ("then", "do_group"):
            return False
        if child == node:
            return True
    return False
