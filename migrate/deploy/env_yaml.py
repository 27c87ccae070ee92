"""Environment-variable sites in YAML (tree-sitter-yaml) for `migrate.deploy.env`: `env:`, `environment:` and
`variables:` at any level: a map (`X: v`, GitLab's `X: {value: v}`), a Kubernetes list (`- name: X` with `value: v` or
`valueFrom:`), a compose list (`- X=v`, and `- X` which passes the host's X through); and the shell text of `run:`,
`script:`, `before_script:`, `after_script:` (a scalar or a list of scalars), parsed with the bash grammar.

The keys of a Kubernetes ConfigMap's `data` and a Secret's `stringData` (a container takes them as variables
through `envFrom`, or one through `valueFrom: configMapKeyRef`/`secretKeyRef`) are variables set, their values
literal values; a Secret's `data` (base64) is not read. A `configMapKeyRef`/`secretKeyRef` in the same file that
names such a key by its object's name and the key gets the key's span in `also`, so that a rename (`env.rename`)
renames it too; references from other files are not followed (neither is `envFrom` to the ConfigMap's keys, which
needs no edit).
"""
from __future__ import annotations

from dataclasses import replace

import tree_sitter

from migrate.deploy import yaml_shell
from migrate.deploy import yaml_nodes as y
from migrate.deploy.context import parse
from migrate.deploy.env_site import Access, EnvSite, NAME
from migrate.deploy.env_shell import bash_sites


ENV_KEYS = ("env", "environment", "variables")
SCRIPT_KEYS = yaml_shell.SCRIPT_KEYS


def _unwrap(node: tree_sitter.Node | None) -> tree_sitter.Node | None:
    while node is not None and node.type in ("block_node", "flow_node") and node.named_children:
        node = node.named_children[0]
    return node


def _scalar(ctx, node: tree_sitter.Node | None):
    """(text, start, end, quote) of a plain or quoted scalar, or None (also for one that a CI system fills in when
    the job runs: `${{ matrix.sm }}` in GitHub Actions, `$[[ inputs.arch ]]` in GitLab)."""
    node = _unwrap(node)
    if node is None:
        return None
    text = ctx.node_text(node)
    if "${{" in text or "$[[" in text:
        return None
    if node.type == "plain_scalar":
        return text, node.start_byte, node.end_byte, ""
    if node.type == "double_quote_scalar" and "\\" not in text:
        return text[1:-1], node.start_byte + 1, node.end_byte - 1, '"'
    if node.type == "single_quote_scalar" and "''" not in text[1:-1]:
        return text[1:-1], node.start_byte + 1, node.end_byte - 1, "'"
    return None


def _pairs(node: tree_sitter.Node | None):
    """(key, value) nodes of a block or flow mapping; a pair with no key (`- : X`) names nothing and is left out."""
    for pair in y.pairs(node):
        key = y.key_node(pair)
        if key is not None:
            yield key, y.value_node(pair)


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
            name_end = start + len(key.encode("utf-8", "surrogateescape"))
            if not eq:
                site = EnvSite(key, start, name_end, Access.READ, syntax="yaml")
            else:
                site = EnvSite(key, start, name_end, Access.SET, rest, name_end + 1, end, quote, "yaml")
        if site is not None:
            yield site


def _yaml_script(ctx, node: tree_sitter.Node | None):
    """Shell text in a `run:`/`script:` value: a scalar, a block scalar, or a list of scalars."""
    for shell in yaml_shell.value_texts(ctx.data, node):
        for site in bash_sites(parse("shell", shell.text).root_node, shell.text, shell.start):
            yield replace(site, outer=shell.quote) if shell.quote else site


def yaml_sites(ctx):
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
