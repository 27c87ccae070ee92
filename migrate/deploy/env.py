"""Where a file sets, unsets or reads environment variables: one finder shared by the environment-variable rules
(PY020-PY039) for the four kinds of files they read.

- python (libcst, names seen through imports: `import os as _os`, `from os import environ`):
  `os.environ["X"] = v`, `os.environ["X"]`, `del os.environ["X"]`, `"X" in os.environ`, `os.environ.get("X", d)`,
  `os.getenv("X", d)`, `os.putenv("X", v)`, `os.unsetenv("X")`, `os.environ.setdefault("X", v)`,
  `os.environ.pop("X")`, `os.environ.update({"X": v})` / `update(X=v)`; dictionaries that become a process's
  environment: `{**os.environ, "X": v}`, `dict(os.environ, X=v)`, a dict literal or `dict(...)` passed as `env=` to
  subprocess.run/call/check_call/check_output/Popen (or asyncio's create_subprocess_exec/shell), directly or through
  a name; and `env["X"] = v` / `del env["X"]` / `env.update(...)` / `env.pop("X")` on a name bound to a copy of the
  environment (`os.environ.copy()`, `dict(os.environ)`, `{**os.environ}`) or passed as `env=`.
- shell (tree-sitter-bash): `export X=v`, `X=v`, `X=v cmd ...`, `local/declare X=v`, `env [-i] [-u X] X=v cmd`,
  `unset X`, reads `$X`, `${X}`, `${X:-default}` (also inside double quotes); `export X` alone re-exports the
  variable it reads.
- docker (tree-sitter-dockerfile): `ENV X=v Y=w`, `ENV X v`, `ARG X=v` (`ARG X` alone is read from --build-arg),
  `${X}`/`$X` in instructions, and the shell text of `RUN`, `CMD` and `ENTRYPOINT` (migrate/deploy/docker_shell.py):
  shell form as it is written (bash reads Docker's backslash-newline continuations the same way), and the command
  string of exec form that runs a shell (`RUN ["/bin/sh", "-c", "..."]`), JSON-decoded, parsed with the bash grammar;
  a site's spans there cover the escapes that write it, and its `outer` is `"`.
- yaml (tree-sitter-yaml): `env:`, `environment:` and `variables:` at any level: a map (`X: v`, GitLab's
  `X: {value: v}`), a Kubernetes list (`- name: X` with `value: v` or `valueFrom:`), a compose list (`- X=v`, and
  `- X` which passes the host's X through); and the shell text of `run:`, `script:`, `before_script:`,
  `after_script:` (a scalar or a list of scalars), parsed with the bash grammar. The keys of a Kubernetes
  ConfigMap's `data` and a Secret's `stringData` (a container takes them as variables through `envFrom`, or one
  through `valueFrom: configMapKeyRef`/`secretKeyRef`) are variables set, their values literal values; a Secret's
  `data` (base64) is not read. A `configMapKeyRef`/`secretKeyRef` in the same file that names such a key by its
  object's name and the key gets the key's span in `also`, so that a rename (`rename`) renames it too; references
  from other files are not followed (neither is `envFrom` to the ConfigMap's keys, which needs no edit).

Each site is an `EnvSite`: the variable's name and the byte span of the name as written (inside the quotes of a
Python or YAML string), what the site does (`Access`), and for a literal value (or a read's literal default) its
text and span (inside its quotes) with the quote it is written in. A value built at run time (`"$HOME/x"`,
`f"{x}"`, `str(n)`, `valueFrom:`) gives `value=None`. Names that are not literal (`os.environ[key]`) give no site.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass, replace

import libcst as cst
import tree_sitter

from migrate.deploy import docker_shell, yaml_shell
from migrate.deploy import yaml_nodes as y
from migrate.deploy.context import parse, walk
from migrate.model import Edit

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Access(enum.Enum):
    SET = "set"
    UNSET = "unset"
    READ = "read"


@dataclass(frozen=True)
class EnvSite:
    name: str
    start: int  # span of the name as written
    end: int
    access: Access
    value: str | None = None  # SET: the literal value; READ: the literal default; None: none, or built at run time
    value_start: int | None = None
    value_end: int | None = None
    quote: str = ""  # the quote around the value as written ("" when bare)
    syntax: str = ""  # what the value is written in: "python", "shell", "docker" (ENV/ARG) or "yaml"
    outer: str = ""  # shell text inside a quoted YAML scalar or a JSON string (Dockerfile exec form): its quote
    also: tuple[tuple[int, int], ...] = ()  # other spans naming this variable, renamed with it (a ConfigMap key's refs)

    @property
    def literal(self) -> bool:
        return self.value is not None and self.value_start is not None


# -- rules' helpers ------------------------------------------------------------------------------------------

_SHELL_SPECIAL = re.compile(r"[\s;&|<>()$`\\\"'*?\[\]#~{}!]")


def written(site: EnvSite, text: str) -> str:
    """`text` as the new value of `site`: bare shell words that need it get double quotes (`gfx90a;gfx940`)."""
    if site.syntax in ("shell", "docker") and not site.quote and _SHELL_SPECIAL.search(text):
        quote = "'" if site.outer == '"' else '"'  # inside a double-quoted YAML scalar or JSON string, " would end it
        text = f"{quote}{text}{quote}"
    if site.outer == '"':  # YAML's double-quoted scalars and JSON strings escape \ and " alike
        text = text.replace("\\", "\\\\").replace('"', '\\"')
    return text


def rename(site: EnvSite, new_name: str, new_value: str | None = None) -> list[Edit]:
    """Edits that rename the variable at `site` and, when `new_value` is given, replace its literal value."""
    edits = [Edit(site.start, site.end, new_name)] + [Edit(start, end, new_name) for start, end in site.also]
    if new_value is not None and site.literal and new_value != site.value:
        edits.append(Edit(site.value_start, site.value_end, written(site, new_value)))
    return edits


def sets(sites: list[EnvSite], name: str) -> bool:
    return any(s.name == name and s.access is Access.SET for s in sites)


def taken(sites: list[EnvSite], site: EnvSite, target: str, sources: tuple[str, ...] = ()) -> bool:
    """Whether renaming the SET `site` to `target` would set `target` twice in this file: the file sets `target`
    already, or sets another of `sources` (all renamed to `target`) before `site`."""
    if sets(sites, target):
        return True
    return any(s.access is Access.SET and s.name in sources and s.name != site.name and s.start < site.start
               for s in sites)


def describe(site: EnvSite) -> str:
    """`X=v`, `X` (set at run time) or `X` for a read, as messages quote it."""
    if site.access is Access.SET and site.value is not None:
        return f"{site.name}={site.value}"
    return site.name


# -- the finder ----------------------------------------------------------------------------------------------

# Every variable the rules under rules/env/ look at starts with one of these.
RULE_PREFIXES = (b"CUDA_", b"NCCL_", b"NVIDIA_", b"TORCH_CUDA_")


def rule_sites(ctx) -> list[EnvSite]:
    """`env_sites` for the rules: a file that names none of the variables they know is not parsed for sites."""
    if not any(prefix in ctx.data for prefix in RULE_PREFIXES):
        return []
    return env_sites(ctx)


def env_sites(ctx) -> list[EnvSite]:
    """Every site of `ctx`'s file in document order (computed once per context: several rules ask)."""
    return ctx.once("env_sites", _env_sites)


def _env_sites(ctx) -> list[EnvSite]:
    kind = getattr(ctx, "kind", "")
    if kind == "python":
        found = _python_sites(ctx) if ctx.wrapper is not None else []
    elif kind in ("shell", "dotenv"):
        found = list(_bash_sites(ctx.root, ctx.data, 0))
    elif kind == "docker":
        found = list(_docker_sites(ctx))
    elif kind == "yaml":
        found = list(_yaml_sites(ctx))
    else:
        found = []
    unique = {(s.start, s.end, s.access): s for s in found}
    return sorted(unique.values(), key=lambda s: (s.start, s.end))


# -- shell -------------------------------------------------------------------------------------------------

def _text(data: bytes, node: tree_sitter.Node) -> str:
    return data[node.start_byte:node.end_byte].decode("utf-8", "replace")


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


def _bash_sites(root: tree_sitter.Node, data: bytes, base: int):
    """Sites in a bash tree over `data`, whose byte 0 is byte `base` of the file."""
    for node in walk(root):
        if node.type == "variable_assignment":
            name = node.child_by_field_name("name")
            if name is None or name.type != "variable_name":
                continue
            value = node.child_by_field_name("value")
            if value is None:  # X= : the empty string
                literal = ("", base + node.end_byte, base + node.end_byte, "")
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
                   start + len(text[:match.end() + 1].encode()), base + arg.end_byte, "", "shell")


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


# -- docker --------------------------------------------------------------------------------------------------

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


def _docker_sites(ctx):
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
        for site in _bash_sites(root, shell.text, 0):
            yield _placed(site, shell)


def _placed(site: EnvSite, shell) -> EnvSite:
    """A site found in a `docker_shell.ShellText`, with its offsets in the file (inside an exec-form JSON string,
    `outer` says so: new values are written with single quotes and JSON's escapes)."""
    def at(offset: int | None) -> int | None:
        return None if offset is None else shell.at(offset)

    return replace(site, start=at(site.start), end=at(site.end), value_start=at(site.value_start),
                   value_end=at(site.value_end), outer=shell.quote)


# -- yaml ----------------------------------------------------------------------------------------------------

ENV_KEYS = ("env", "environment", "variables")
SCRIPT_KEYS = yaml_shell.SCRIPT_KEYS


def _unwrap(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    while node is not None and node.type in ("block_node", "flow_node") and node.named_children:
        node = node.named_children[0]
    return node


def _scalar(ctx, node: tree_sitter.Node | None):
    """(text, start, end, quote) of a plain or quoted scalar, or None."""
    node = _unwrap(node)
    if node is None:
        return None
    text = ctx.node_text(node)
    if node.type == "plain_scalar":
        return text, node.start_byte, node.end_byte, ""
    if node.type == "double_quote_scalar" and "\\" not in text:
        return text[1:-1], node.start_byte + 1, node.end_byte - 1, '"'
    if node.type == "single_quote_scalar" and "''" not in text[1:-1]:
        return text[1:-1], node.start_byte + 1, node.end_byte - 1, "'"
    return None


def _pairs(node: tree_sitter.Node | None):
    """(key, value) nodes of a block or flow mapping."""
    for pair in y.pairs(node):
        yield y.key_node(pair), y.value_node(pair)


def _yaml_site(name, value, access: Access = Access.SET) -> EnvSite | None:
    text, start, end, _ = name
    if not NAME.fullmatch(text):
        return None
    if value is None:
        return EnvSite(text, start, end, access, syntax="yaml")
    return EnvSite(text, start, end, access, *value, "yaml")


def _yaml_env(ctx, node: tree_sitter.Node | None):
    """The variables of an `env:`/`environment:`/`variables:` value."""
    for key, value in _pairs(node):
        name = _scalar(ctx, key)
        if name is None:
            continue
        if _unwrap(value) is None:  # `X:` with no value: compose passes the host's X through
            site = _yaml_site(name, None, Access.READ)
        elif dict((ctx.node_text(k), v) for k, v in _pairs(value)).get("value") is not None:  # GitLab {value: v}
            inner = dict((ctx.node_text(k), v) for k, v in _pairs(value))["value"]
            site = _yaml_site(name, _scalar(ctx, inner))
        else:
            site = _yaml_site(name, _scalar(ctx, value))
        if site is not None:
            yield site
    for item in y.items(node):
        fields = {ctx.node_text(k): v for k, v in _pairs(item)}
        if "name" in fields:  # Kubernetes
            name = _scalar(ctx, fields["name"])
            if name is None:
                continue
            site = _yaml_site(name, _scalar(ctx, fields["value"]) if "value" in fields else None)
        else:  # compose: X=v, or X alone
            scalar = _scalar(ctx, item)
            if scalar is None:
                continue
            text, start, end, quote = scalar
            key, eq, rest = text.partition("=")
            if not NAME.fullmatch(key):
                continue
            name_end = start + len(key.encode())
            if not eq:
                site = EnvSite(key, start, name_end, Access.READ, syntax="yaml")
            else:
                site = EnvSite(key, start, name_end, Access.SET, rest, name_end + 1, end, quote, "yaml")
        if site is not None:
            yield site


def _yaml_script(ctx, node: tree_sitter.Node | None):
    """Shell text in a `run:`/`script:` value: a scalar, a block scalar, or a list of scalars."""
    for shell in yaml_shell.value_texts(ctx.data, node):
        for site in _bash_sites(parse("shell", shell.text).root_node, shell.text, shell.start):
            yield replace(site, outer=shell.quote) if shell.quote else site


def _yaml_sites(ctx):
    for pair in ctx.nodes("block_mapping_pair", "flow_pair"):
        key = _scalar(ctx, pair.child_by_field_name("key"))
        if key is None:
            continue
        value = pair.child_by_field_name("value")
        if key[0] in ENV_KEYS:
            yield from _yaml_env(ctx, value)
        elif key[0] in SCRIPT_KEYS:
            yield from _yaml_script(ctx, value)
    yield from _stored_sites(ctx)


# A ConfigMap's `data` and a Secret's `stringData` become a container's environment through `envFrom` (or one key
# through `valueFrom: configMapKeyRef`/`secretKeyRef`); a Secret's `data` holds base64, not the values.
STORES = {"ConfigMap": ("data", "configMapKeyRef"), "Secret": ("stringData", "secretKeyRef")}


def _key_refs(ctx) -> dict[tuple[str, str, str], list[tuple[int, int]]]:
    """(`configMapKeyRef`/`secretKeyRef`, object name, key) -> spans of the `key:` scalars naming it in this file."""
    found: dict[tuple[str, str, str], list[tuple[int, int]]] = {}
    data = ctx.data
    for pair in ctx.nodes(*y.PAIRS):
        ref = y.key(data, pair)
        if ref not in ("configMapKeyRef", "secretKeyRef"):
            continue
        value = y.value_node(pair)
        name, key = y.get(data, value, "name"), y.get(data, value, "key")
        name_text = y.scalar(data, y.value_node(name)) if name is not None else None
        scalar = _scalar(ctx, y.value_node(key)) if key is not None else None
        if name_text is not None and scalar is not None:
            found.setdefault((ref, name_text, scalar[0]), []).append((scalar[1], scalar[2]))
    return found


def _stored_sites(ctx):
    """The keys of ConfigMaps' `data` and Secrets' `stringData` as variables set; a `configMapKeyRef`/`secretKeyRef`
    of this file that names one by its object and key is renamed with it (`also`)."""
    data = ctx.data
    if b"ConfigMap" not in data and b"Secret" not in data:
        return
    refs = None
    for kind, top in y.kubernetes_objects(data, ctx.root):
        if kind not in STORES:
            continue
        values, ref = STORES[kind]
        store = y.get(data, top, values)
        if store is None:
            continue
        metadata = y.get(data, top, "metadata")
        object_name = y.field(data, y.value_node(metadata), "name") if metadata is not None else None
        for key, value in _pairs(y.value_node(store)):
            name = _scalar(ctx, key)
            site = _yaml_site(name, _scalar(ctx, value)) if name is not None else None
            if site is None:
                continue
            if refs is None:
                refs = _key_refs(ctx)
            also = tuple(refs.get((ref, object_name, site.name), ())) if object_name is not None else ()
            yield replace(site, also=also) if also else site


# -- python --------------------------------------------------------------------------------------------------

ENVIRON = "os.environ"
READERS = {"os.getenv", "os.environ.get"}
SETTERS = {"os.putenv", "os.environ.setdefault"}
UNSETTERS = {"os.unsetenv", "os.environ.pop"}
SUBPROCESS = {"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output",
              "subprocess.Popen", "asyncio.create_subprocess_exec", "asyncio.create_subprocess_shell"}


class _Module(cst.CSTVisitor):
    """One walk: what every name is bound to, and the nodes the sites are read from."""

    def __init__(self) -> None:
        self.assigned: dict[str, list[cst.BaseExpression]] = {}
        self.subscript_targets: list[tuple[cst.Subscript, Access, cst.BaseExpression | None]] = []
        self.subscripts: list[cst.Subscript] = []
        self.calls: list[cst.Call] = []
        self.dicts: list[cst.Dict] = []
        self.comparisons: list[cst.Comparison] = []

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self.assigned.setdefault(target.target.value, []).append(node.value)
            elif isinstance(target.target, cst.Subscript):
                self.subscript_targets.append((target.target, Access.SET, node.value))

    def visit_Del(self, node: cst.Del) -> None:
        targets = node.target.elements if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            value = target.value if isinstance(target, cst.Element) else target
            if isinstance(value, cst.Subscript):
                self.subscript_targets.append((value, Access.UNSET, None))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        self.subscripts.append(node)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    def visit_Dict(self, node: cst.Dict) -> None:
        self.dicts.append(node)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self.comparisons.append(node)


def _py_string(ctx, node: cst.CSTNode | None):
    """(text, start, end, quote) of a plain string literal's content, or None (f-strings, bytes, escapes)."""
    if not isinstance(node, cst.SimpleString):
        return None
    prefix = node.prefix.lower()
    if "b" in prefix or "f" in prefix:
        return None
    raw = node.raw_value
    if "\\" in raw or "\n" in raw:
        return None
    start, end = ctx.byte_span(node)
    return raw, start + len(node.prefix) + len(node.quote), end - len(node.quote), node.quote


class _PythonFinder:
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.module = _Module()
        ctx.wrapper.module.visit(self.module)
        self.sites: list[EnvSite] = []
        self.env_names: set[str] = set()  # names bound to a copy of the environment, or passed as env=

    def qualified(self, node: cst.CSTNode) -> set[str]:
        if isinstance(node, (cst.Name, cst.Attribute)):
            return self.ctx.qualified_names(node)
        return set()

    def is_environ(self, node: cst.CSTNode | None) -> bool:
        return node is not None and ENVIRON in self.qualified(node)

    def is_environ_copy(self, node: cst.BaseExpression) -> bool:
        """`os.environ`, `os.environ.copy()`, `dict(os.environ, ...)`, `{**os.environ, ...}`."""
        if self.is_environ(node):
            return True
        if isinstance(node, cst.Call):
            if "os.environ.copy" in self.qualified(node.func):
                return True
            positional = [a for a in node.args if a.keyword is None and not a.star]
            return self.is_dict_call(node) and bool(positional) and self.is_environ(positional[0].value)
        if isinstance(node, cst.Dict):
            return any(isinstance(e, cst.StarredDictElement) and self.is_environ(e.value) for e in node.elements)
        return False

    def is_dict_call(self, node: cst.Call) -> bool:
        return "builtins.dict" in self.qualified(node.func)

    def add(self, name_node: cst.CSTNode, access: Access, value: cst.CSTNode | None = None,
            keyword: bool = False) -> None:
        if keyword:
            if not isinstance(name_node, cst.Name):
                return
            text = name_node.value
            start, end = self.ctx.byte_span(name_node)
        else:
            found = _py_string(self.ctx, name_node)
            if found is None or not NAME.fullmatch(found[0]):
                return
            text, start, end, _ = found
        literal = _py_string(self.ctx, value) if value is not None else None
        if literal is None:
            self.sites.append(EnvSite(text, start, end, access, syntax="python"))
        else:
            self.sites.append(EnvSite(text, start, end, access, *literal, "python"))

    def add_mapping(self, node: cst.BaseExpression) -> None:
        """The variables a dict literal or a dict(...) call sets."""
        if isinstance(node, cst.Dict):
            for element in node.elements:
                if isinstance(element, cst.DictElement):
                    self.add(element.key, Access.SET, element.value)
        elif isinstance(node, cst.Call) and self.is_dict_call(node):
            for arg in node.args:
                if arg.keyword is not None:
                    self.add(arg.keyword, Access.SET, arg.value, keyword=True)
                elif not arg.star:
                    self.add_mapping(arg.value)
        elif isinstance(node, cst.Name):
            for value in self.module.assigned.get(node.value, []):
                if isinstance(value, (cst.Dict, cst.Call)):
                    self.add_mapping(value)

    def run(self) -> list[EnvSite]:
        m = self.module
        for name, values in m.assigned.items():
            if any(self.is_environ_copy(v) for v in values):
                self.env_names.add(name)
        for node in m.dicts:  # {**os.environ, "X": v} wherever it is built
            if self.is_environ_copy(node):
                self.add_mapping(node)
        for call in m.calls:
            self.call(call)
        handled = set()
        for target, access, value in m.subscript_targets:
            handled.add(id(target))
            if self.is_environ(target.value) or (isinstance(target.value, cst.Name)
                                                 and target.value.value in self.env_names):
                self.add(self.key(target), access, value)
        for node in m.subscripts:
            if id(node) not in handled and self.is_environ(node.value):
                self.add(self.key(node), Access.READ)
        for node in m.comparisons:
            for target in node.comparisons:
                if isinstance(target.operator, (cst.In, cst.NotIn)) and self.is_environ(target.comparator):
                    self.add(node.left, Access.READ)
        return self.sites

    @staticmethod
    def key(node: cst.Subscript) -> cst.CSTNode | None:
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            return node.slice[0].slice.value
        return None

    def call(self, call: cst.Call) -> None:
        names = self.qualified(call.func)
        positional = [a.value for a in call.args if a.keyword is None and not a.star]
        if isinstance(call.func, cst.Attribute) and isinstance(call.func.value, cst.Name) \
                and call.func.value.value in self.env_names:
            method = call.func.attr.value
            names = names | {f"os.environ.{method}"} if method in ("update", "pop", "setdefault") else names
        if names & READERS and positional:
            self.add(positional[0], Access.READ, positional[1] if len(positional) > 1 else None)
        elif names & SETTERS and positional:
            self.add(positional[0], Access.SET, positional[1] if len(positional) > 1 else None)
        elif names & UNSETTERS and positional:
            self.add(positional[0], Access.UNSET)
        elif "os.environ.update" in names:
            for arg in call.args:
                if arg.keyword is not None:
                    self.add(arg.keyword, Access.SET, arg.value, keyword=True)
                elif not arg.star:
                    self.add_mapping(arg.value)
        elif names & SUBPROCESS:
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == "env":
                    self.add_mapping(arg.value)
                    if isinstance(arg.value, cst.Name):
                        self.env_names.add(arg.value.value)
        elif self.is_dict_call(call) and self.is_environ_copy(call):
            self.add_mapping(call)


def _python_sites(ctx) -> list[EnvSite]:
    finder = _PythonFinder(ctx)
    # names passed as env= are found while reading the calls; their subscript assignments are read after that
    for call in finder.module.calls:
        if finder.qualified(call.func) & SUBPROCESS:
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == "env" and isinstance(arg.value, cst.Name):
                    finder.env_names.add(arg.value.value)
    return finder.run()
