"""The Python dependencies and package-index URLs of a requirements file or a pyproject.toml, with byte spans.

Requirements files (tree-sitter-requirements): every requirement line, and the URL of `-i`/`--index-url`,
`--extra-index-url`, `-f`/`--find-links`.

pyproject.toml (tree-sitter-toml): the PEP 508 strings of `[project] dependencies`,
`[project.optional-dependencies]`, `[build-system] requires` and `[dependency-groups]`; the entries of
`[tool.poetry.dependencies]` and `[tool.poetry.group.<name>.dependencies]` (the key is the package, the string or the
`version` of an inline table its constraint); and as index URLs the strings of every `url`, `index-url`,
`extra-index-url` and `find-links` key (`[[tool.uv.index]]`, `[[tool.poetry.source]]`, `[[tool.pdm.source]]`,
`[tool.uv]`, `[tool.uv.sources]`). Strings with escapes are skipped: their bytes are not their text.

Each `Dependency` (migrate/deploy/requirement.py) says where its name and each pinned version lie in the file, and
which bytes to delete to drop it (the whole line in a requirements file or under poetry; the array element and its
comma in pyproject arrays).
"""
from __future__ import annotations

import re

import tree_sitter

from migrate.deploy.conda_env import pip_requirements
from migrate.deploy.context import walk
from migrate.deploy.pip_commands import pip_commands
from migrate.deploy.requirement import INDEX_OPTIONS, Dependency, IndexUrl, Version, pep508
from migrate.deploy.rocm_wheels import torch_release

URL_KEYS = {"url", "index-url", "extra-index-url", "find-links"}
_POETRY_PIN = re.compile(r"([\^~]|===?|~=|!=|<=|>=|<|>)?\s*([0-9][^\s,;\"'|]*)")


def _line_bounds(data: bytes, start: int, end: int) -> tuple[int, int]:
    """From the start of start's line through the newline ending end's line."""
    first = data.rfind(b"\n", 0, start) + 1
    last = data.find(b"\n", end)
    return first, len(data) if last < 0 else last + 1


def _text(data: bytes, node: tree_sitter.Node) -> str:
    return data[node.start_byte:node.end_byte].decode("utf-8", "surrogateescape")


def requirement_file(data: bytes, root: tree_sitter.Node) -> tuple[list[Dependency], list[IndexUrl]]:
    deps: list[Dependency] = []
    urls: list[IndexUrl] = []
    lines = {data.count(b"\n", 0, node.start_byte) for node in root.children if node.type == "requirement"}
    for node in root.children:
        if node.type == "global_opt":
            option = next((c for c in node.children if c.type == "option"), None)
            url = next((c for c in node.children if c.type in ("url", "path")), None)
            if option is not None and url is not None and _text(data, option) in INDEX_OPTIONS:
                line = data.count(b"\n", 0, node.start_byte)  # an option on a requirement's line serves that one
                urls.append(IndexUrl(_text(data, url), url.start_byte, url.end_byte, line if line in lines else -1))
        elif node.type == "requirement":
            package = next((c for c in node.children if c.type == "package"), None)
            if package is None:
                continue
            versions = []
            for spec in (c for c in node.children if c.type == "version_spec"):
                operator = ""
                for part in spec.children:
                    if part.type == "version_cmp":
                        operator = _text(data, part)
                    elif part.type == "version":
                        versions.append(Version(operator, _text(data, part), part.start_byte, part.end_byte))
            url_node = next((n for n in walk(node, "url")), None)
            deps.append(Dependency(
                _text(data, package), package.start_byte, package.end_byte, tuple(versions),
                _text(data, url_node) if url_node is not None else "",
                url_node.start_byte if url_node is not None else -1,
                _line_bounds(data, node.start_byte, node.end_byte), (node.start_byte, node.end_byte),
                data.count(b"\n", 0, node.start_byte)))
    return deps, urls


def _key(data: bytes, node: tree_sitter.Node) -> str:
    """A TOML key as text: bare, quoted or dotted (`tool.poetry.dependencies`)."""
    if node.type == "dotted_key":
        return ".".join(_key(data, c) for c in node.children if c.type != ".")
    text = _text(data, node)
    return text[1:-1] if node.type == "quoted_key" else text


def _string(data: bytes, node: tree_sitter.Node) -> tuple[str, int, int] | None:
    """A TOML string's text and the bytes of its content; None for strings with escapes."""
    raw = data[node.start_byte:node.end_byte]
    quote = 3 if raw[:3] in (b'"""', b"'''") else 1
    content = raw[quote:len(raw) - quote]
    if raw[:1] == b'"' and b"\\" in content:
        return None
    return content.decode("utf-8", "surrogateescape"), node.start_byte + quote, node.end_byte - quote


def _array_drop(data: bytes, array: tree_sitter.Node, element: tree_sitter.Node) -> tuple[int, int]:
    """The bytes that drop one element of a TOML array with its comma: its whole line when it stands alone on it
    (with its comma and comment), else the element and the comma that separates it from a neighbour."""
    first, last = _line_bounds(data, element.start_byte, element.end_byte)
    before = data[first:element.start_byte]
    after = data[element.end_byte:last].split(b"#", 1)[0]
    if not before.strip() and after.strip() in (b"", b","):
        return first, last
    items = [c for c in array.children if c.type not in ("[", "]", ",", "comment")]
    index = next(i for i, c in enumerate(items) if c.id == element.id)
    if index + 1 < len(items):
        return element.start_byte, items[index + 1].start_byte
    if index > 0:
        return items[index - 1].end_byte, element.end_byte
    return element.start_byte, element.end_byte


def _header(data: bytes, table: tree_sitter.Node) -> str:
    key = next((c for c in table.children if c.type in ("bare_key", "dotted_key", "quoted_key")), None)
    return _key(data, key) if key is not None else ""


def _pyproject_arrays(data: bytes, header: str, pair: tree_sitter.Node) -> bool:
    """Whether a pair of this table holds PEP 508 strings."""
    key = _key(data, pair.children[0])
    return ((header == "project" and key == "dependencies") or header == "project.optional-dependencies"
            or (header == "build-system" and key == "requires") or header == "dependency-groups")


def _poetry_table(header: str) -> bool:
    return header == "tool.poetry.dependencies" or bool(
        re.fullmatch(r"tool\.poetry\.group\.[^.]+\.dependencies", header)) or header == "tool.poetry.dev-dependencies"


def pyproject_file(data: bytes, root: tree_sitter.Node) -> tuple[list[Dependency], list[IndexUrl]]:
    deps: list[Dependency] = []
    urls: list[IndexUrl] = []
    for table in (c for c in root.children if c.type in ("table", "table_array_element")):
        header = _header(data, table)
        for pair in (c for c in table.children if c.type == "pair"):
            key_node, value = pair.children[0], pair.children[-1]
            if table.type == "table" and _pyproject_arrays(data, header, pair) and value.type == "array":
                for element in (c for c in value.children if c.type == "string"):
                    found = _string(data, element)
                    if found is None:
                        continue
                    dep = pep508(found[0], found[1], _array_drop(data, value, element))
                    if dep is not None:
                        deps.append(dep)
            elif table.type == "table" and _poetry_table(header):
                versions = []
                strings = [value] if value.type == "string" else [
                    p.children[-1] for p in value.children
                    if p.type == "pair" and _key(data, p.children[0]) == "version" and p.children[-1].type == "string"
                ] if value.type == "inline_table" else []
                for string in strings:
                    found = _string(data, string)
                    if found is None:
                        continue
                    text, start, _ = found
                    for pin in _POETRY_PIN.finditer(text):
                        begin = start + len(text[:pin.start(2)].encode("utf-8", "surrogateescape"))
                        versions.append(Version(pin[1] or "", pin[2], begin, begin + len(pin[2].encode("utf-8", "surrogateescape"))))
                name = _key(data, key_node)
                deps.append(Dependency(name, key_node.start_byte, key_node.end_byte, tuple(versions), "", -1,
                                       _line_bounds(data, pair.start_byte, pair.end_byte),
                                       (pair.start_byte, pair.end_byte)))
            for candidate in walk(pair, "pair"):
                if _key(data, candidate.children[0]) not in URL_KEYS:
                    continue
                target = candidate.children[-1]
                strings = [target] if target.type == "string" else [c for c in target.children if c.type == "string"]
                for string in strings:
                    found = _string(data, string)
                    if found is not None:
                        urls.append(IndexUrl(*found))
    return deps, urls


def dependencies(ctx) -> tuple[list[Dependency], list[IndexUrl]]:
    """Dependencies and index URLs of a requirements or pyproject context, of the `pip install` commands of a
    shell script, Dockerfile or YAML file (migrate/deploy/pip_commands.py), and of a conda environment file's `- pip:`
    sub-list (migrate/deploy/conda_env.py); cached on the context."""
    return ctx.once("dependencies", _dependencies)


def _dependencies(ctx) -> tuple[list[Dependency], list[IndexUrl]]:
    if ctx.kind in ("shell", "docker"):
        return pip_commands(ctx)
    if ctx.kind == "yaml":  # CI steps and the `- pip:` sub-list of a conda environment file
        deps, urls = pip_commands(ctx)
        group = 1 + max((d.group for d in deps), default=0)
        more_deps, more_urls = pip_requirements(ctx, max(group, 1 + max((u.group for u in urls), default=0)))
        return deps + more_deps, urls + more_urls
    reader = requirement_file if ctx.kind == "requirements" else pyproject_file
    return reader(ctx.data, ctx.root)


def pinned_torch(deps: list[Dependency], group: int = -1) -> tuple[int, int, int] | None:
    """The torch release that a `pip install` command (or a requirements line) `group` pins, else the file: torch
    itself first, else torchvision or torchaudio. A Dockerfile that installs torch==2.3.1 and later
    torch==2.5.1 --index-url .../cu124 pairs that index with 2.5.1."""
    mine = [d for d in deps if d.group == group] if group != -1 else []
    for among in (mine, deps):
        for name in ("torch", "torchvision", "torchaudio"):
            for dep in among:
                version = dep.pinned() if dep.key == name else None
                if version:
                    found = torch_release(name, version)
                    if found:
                        return found
    return None
