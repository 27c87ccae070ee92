"""Environment-variable sites in a Dockerfile (tree-sitter-dockerfile) for `migrate.deploy.env`: `ENV X=v Y=w`,
`ENV X v`, `ARG X=v` (`ARG X` alone is read from --build-arg), `${X}`/`$X` in instructions, and the shell text of
`RUN`, `CMD` and `ENTRYPOINT` (migrate/deploy/docker_shell.py): shell form as it is written (bash reads Docker's
backslash-newline continuations the same way), and the command string of exec form that runs a shell
(`RUN ["/bin/sh", "-c", "..."]`), JSON-decoded, parsed with the bash grammar; a site's spans there cover the escapes
that write it, and its `outer` is `"`.
"""
from __future__ import annotations

from dataclasses import replace

import tree_sitter

from migrate.deploy import docker_shell
from migrate.deploy.env_site import Access, EnvSite, NAME
from migrate.deploy.env_shell import bash_sites


def _docker_value(ctx, node: tree_sitter.Node | None):
    if node is None:
        return None
    text = ctx.node_text(node)
    if node.named_children or "\\" in text or "$" in text:
        return None  # built from other variables
    if node.type == "unquoted_string":
        return text, node.start_byte, node.end_byte, ""
    if node.type in ("double_quoted_string", "single_quoted_string"):
        return text[1:-1], node.start_byte + 1, node.end_byte - 1, text[0]
    return None


def docker_sites(ctx):
    data = ctx.data
    for node in ctx.nodes("env_pair", "arg_instruction", "expansion"):
        if node.type in ("env_pair", "arg_instruction"):
            name = node.child_by_field_name("name")
            if name is None or not NAME.fullmatch(ctx.node_text(name)):
                continue
            value = node.child_by_field_name("value" if node.type == "env_pair" else "default")
            if value is None and node.type == "arg_instruction":
                yield EnvSite(ctx.node_text(name), name.start_byte, name.end_byte, Access.READ, syntax="docker")
                continue
            literal = _docker_value(ctx, value) if value is not None else ("", name.end_byte + 1, name.end_byte + 1, "")
            if value is None and data[name.end_byte:name.end_byte + 1] != b"=":
                literal = None
            if literal is None:
                yield EnvSite(ctx.node_text(name), name.start_byte, name.end_byte, Access.SET, syntax="docker")
            else:
                yield EnvSite(ctx.node_text(name), name.start_byte, name.end_byte, Access.SET, *literal, "docker")
        elif node.type == "expansion":
            variable = next((c for c in node.named_children if c.type == "variable"), None)
            if variable is not None:
                yield EnvSite(ctx.node_text(variable), variable.start_byte, variable.end_byte, Access.READ,
                              syntax="docker")
    for root, shell in docker_shell.trees(ctx):  # RUN, CMD, ENTRYPOINT: shell form, or exec form with `sh -c`
        for site in bash_sites(root, shell.text, 0):
            yield _placed(site, shell)


def _placed(site: EnvSite, shell) -> EnvSite:
    """A site found in a `docker_shell.ShellText`, with its offsets in the file (inside an exec-form JSON string,
    `outer` says so: new values are written with single quotes and JSON's escapes)."""
    def at(offset: int | None) -> int | None:
        return None if offset is None else shell.at(offset)

    return replace(site, start=at(site.start), end=at(site.end), value_start=at(site.value_start),
                   value_end=at(site.value_end), outer=shell.quote)
