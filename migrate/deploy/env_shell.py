"""Environment-variable sites in bash (tree-sitter-bash) for `migrate.deploy.env`: `export X=v`, `X=v`,
`X=v cmd ...`, `local/declare X=v`, `env [-i] [-u X] X=v cmd`, `docker run -e X=v` (`--env`, also podman and
nerdctl), `unset X`, reads `$X`, `${X}`, `${X:-default}` (also inside double quotes); `export X` alone re-exports the
variable it reads. The Dockerfile and YAML finders read their embedded shell text through `bash_sites`.
"""
from __future__ import annotations

import tree_sitter

from migrate.deploy.context import walk
from migrate.deploy.env_site import Access, EnvSite, NAME


def _text(data: bytes, node: tree_sitter.Node) -> str:
    return data[node.start_byte:node.end_byte].decode("utf-8", "surrogateescape")


def _shell_value(data: bytes, node: tree_sitter.Node | None, base: int):
    """(text, start, end, quote) of a literal shell word, or None."""
    if node is None:
        return None
    text = _text(data, node)
    if node.type in ("word", "number"):
        if "\\" in text or "`" in text or "$" in text:
            return None
        return text, base + node.start_byte, base + node.end_byte, ""
    if node.type == "string":
        if any(c.type != "string_content" for c in node.named_children) or "\\" in text:
            return None
        return text[1:-1], base + node.start_byte + 1, base + node.end_byte - 1, '"'
    if node.type == "raw_string":
        return text[1:-1], base + node.start_byte + 1, base + node.end_byte - 1, "'"
    return None


def _shell_site(name: tree_sitter.Node, access: Access, data: bytes, base: int, value=None) -> EnvSite:
    if value is None:
        return EnvSite(_text(data, name), base + name.start_byte, base + name.end_byte, access, syntax="shell")
    text, start, end, quote = value
    return EnvSite(_text(data, name), base + name.start_byte, base + name.end_byte, access, text, start, end, quote,
                   "shell")


def bash_sites(root: tree_sitter.Node, data: bytes, base: int):
    """Sites in a bash tree over `data`, whose byte 0 is byte `base` of the file."""
    for node in walk(root):
        if node.type == "variable_assignment":
            name = node.child_by_field_name("name")
            if name is None or name.type != "variable_name":
                continue
            value = node.child_by_field_name("value")
            if value is None:  # X= : the empty string, unless the grammar failed on what follows (X=${{ m.sm }})
                failed = any(c.type == "ERROR" for c in node.children)
                literal = None if failed else ("", base + node.end_byte, base + node.end_byte, "")
            else:
                literal = _shell_value(data, value, base)
            site = _shell_site(name, Access.SET, data, base, literal)
            if literal is None:
                site = EnvSite(site.name, site.start, site.end, Access.SET, syntax="shell")
            yield site
        elif node.type == "declaration_command":
            for child in node.named_children:
                if child.type == "variable_name":  # export X: re-exports what it reads
                    yield _shell_site(child, Access.READ, data, base)
        elif node.type == "unset_command":
            words = [_text(data, c) for c in node.named_children if c.type == "word"]
            if "-f" in words:
                continue
            for child in node.named_children:
                if child.type == "variable_name" or (child.type == "word" and NAME.fullmatch(_text(data, child))):
                    yield _shell_site(child, Access.UNSET, data, base)
        elif node.type == "command":
            yield from _env_command(node, data, base)
        elif node.type in ("simple_expansion", "expansion"):
            yield from _expansion(node, data, base)


def _assignment_word(arg: tree_sitter.Node, data: bytes, base: int, skip: int = 0) -> EnvSite | None:
    """A word `X=v` (its first `skip` bytes left out: `--env=X=v`) as a SET site; None when it is not one."""
    if arg.type == "concatenation" and arg.named_children and arg.named_children[0].type == "word":
        head, rest = arg.named_children[0], arg.named_children[1:]
        text = _text(data, head)[skip:]
        match = NAME.fullmatch(text[:-1])
        if not (text.endswith("=") and match):
            return None
        start = base + head.start_byte + skip
        literal = _shell_value(data, rest[0], base) if len(rest) == 1 else None
        if literal is None:
            return EnvSite(match.group(), start, start + match.end(), Access.SET, syntax="shell")
        return EnvSite(match.group(), start, start + match.end(), Access.SET, *literal, "shell")
    text = _text(data, arg)[skip:]
    match = NAME.match(text)
    if arg.type != "word" or not match or text[match.end():match.end() + 1] != "=":
        return None
    start = base + arg.start_byte + skip
    value = text[match.end() + 1:]
    if any(c in value for c in "\\`$"):
        return EnvSite(match.group(), start, start + match.end(), Access.SET, syntax="shell")
    return EnvSite(match.group(), start, start + match.end(), Access.SET, value,
                   start + len(text[:match.end() + 1].encode("utf-8", "surrogateescape")), base + arg.end_byte, "", "shell")


def _container_env(node: tree_sitter.Node, data: bytes, base: int):
    """`docker run -e X=v` / `--env X=v` / `--env=X=v` (also podman, and `docker exec`/`create`)."""
    args = node.children_by_field_name("argument")
    for i, arg in enumerate(args):
        text = _text(data, arg)
        site = None
        if text in ("-e", "--env") and i + 1 < len(args):
            site = _assignment_word(args[i + 1], data, base)
        elif text.startswith("--env="):
            site = _assignment_word(arg, data, base, len("--env="))
        if site is not None:
            yield site


def _env_command(node: tree_sitter.Node, data: bytes, base: int):
    """`env [-i] [-u X] X=v ... cmd`: its assignments and unsets."""
    name = node.child_by_field_name("name")
    if name is not None and _text(data, name) in ("docker", "podman", "nerdctl"):
        yield from _container_env(node, data, base)
        return
    if name is None or _text(data, name) != "env":
        return
    args = node.children_by_field_name("argument")
    i = 0
    while i < len(args):
        arg = args[i]
        text = _text(data, arg)
        if arg.type == "word" and text in ("-u", "--unset") and i + 1 < len(args):
            target = args[i + 1]
            if NAME.fullmatch(_text(data, target)):
                yield _shell_site(target, Access.UNSET, data, base)
            i += 2
            continue
        if arg.type == "word" and text.startswith("-"):
            i += 1
            continue
        site = _assignment_word(arg, data, base)
        if site is not None:
            yield site
        else:
            return  # the command env runs
        i += 1


def _expansion(node: tree_sitter.Node, data: bytes, base: int):
    named = node.named_children
    if not named or named[0].type != "variable_name":
        return
    default = None
    if node.type == "expansion":
        ops = [c for c in node.children if not c.is_named]
        op = _text(data, ops[1]) if len(ops) > 2 else ""
        if op in (":-", "-", ":=", "=") and len(named) == 2:
            default = _shell_value(data, named[1], base)
    yield _shell_site(named[0], Access.READ, data, base, default)
