"""Conda environment files (`environment.yml`, `environment-gpu.yaml`, `conda-cuda.yml`, or any YAML file whose
top-level mapping has a `dependencies:` list and a `channels:` list): their channels, their conda packages and the
requirements of their `- pip:` sub-list, with byte spans.

A conda package is read as `[channel::]name[ version[ build]]` or `name=version=build` (`cudatoolkit=11.3`,
`pytorch::pytorch=2.1.0=py3.10_cuda11.8*`, `cudnn >=8`). Only plain scalars and quoted scalars without escapes are
read: their bytes are then their text, so rules can edit inside them.

The pip sub-list is read like a requirements file (migrate/deploy/dependencies.py): each entry is a PEP 508
requirement, or an index option (`--extra-index-url URL`, `-f URL`, `--index-url=URL`); its entries share one group,
as the requirements of one `pip install` command do, and dropping one deletes its line.
"""
from __future__ import annotations

import fnmatch
import posixpath
import re
from dataclasses import dataclass

import tree_sitter

from migrate.deploy import yaml_nodes as y
from migrate.deploy.requirement import INDEX_OPTIONS, Dependency, IndexUrl, pep508

NAMES = ("environment*.yml", "environment*.yaml", "*-environment*.yml", "*-environment*.yaml", "*_environment*.yml",
         "*_environment*.yaml", "conda*.yml", "conda*.yaml", "env.yml", "env.yaml")
_SPEC = re.compile(r"(?:([\w.-]+)::)?([A-Za-z0-9_][\w.-]*)\s*(.*)")


@dataclass(frozen=True)
class Entry:
    """One scalar of a conda environment file: its text (quotes removed) and the bytes of that text."""

    text: str
    start: int
    end: int
    drop: tuple[int, int]  # bytes to delete to drop it (its line in a block list)


@dataclass(frozen=True)
class Package:
    """A conda package: the name, the channel written before `::` ("" if none), and the rest of the spec."""

    entry: Entry
    channel: str
    name: str
    rest: str  # version and build ("=11.3", ">=8", "2.1.0=py3.10_cuda11.8*")


@dataclass(frozen=True)
class CondaEnv:
    channels: tuple[Entry, ...]
    packages: tuple[Package, ...]
    pip: tuple[Entry, ...]


def named_like_conda(path: str) -> bool:
    name = posixpath.basename(path).lower()
    return any(fnmatch.fnmatchcase(name, p) for p in NAMES)


def conda_env(ctx) -> CondaEnv | None:
    """The conda environment a YAML context holds, or None when it is not a conda environment file; cached."""
    return ctx.once("conda_env", _conda_env) if ctx.kind == "yaml" else None


def _conda_env(ctx) -> CondaEnv | None:
    data = ctx.data
    if b"dependencies" not in data:
        return None
    top = next(y.documents(ctx.root), None)
    deps = y.get(data, top, "dependencies") if top is not None else None
    if deps is None or not _is_sequence(y.value_node(deps)):
        return None
    channels = y.get(data, top, "channels")
    if channels is None and not named_like_conda(ctx.path):
        return None
    packages: list[Package] = []
    pip: list[Entry] = []
    for item in y.items(y.value_node(deps)):
        sub = y.get(data, item, "pip") if y.mapping(item) is not None else None
        if sub is not None:
            pip.extend(e for e in (_entry(data, n) for n in y.items(y.value_node(sub))) if e is not None)
            continue
        entry = _entry(data, item)
        match = _SPEC.fullmatch(entry.text.strip()) if entry is not None else None
        if match:
            packages.append(Package(entry, match[1] or "", match[2], match[3].strip()))
    listed = [] if channels is None else [_entry(data, n) for n in y.items(y.value_node(channels))]
    return CondaEnv(tuple(e for e in listed if e is not None), tuple(packages), tuple(pip))


def _is_sequence(node: tree_sitter.Node | None) -> bool:
    while node is not None and node.type in ("block_node", "flow_node"):
        node = node.named_children[0] if node.named_child_count else None
    return node is not None and node.type in ("block_sequence", "flow_sequence")


def _entry(data: bytes, node: tree_sitter.Node) -> Entry | None:
    while node.type in ("flow_node", "block_node") and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type == "plain_scalar":
        start, end = node.start_byte, node.end_byte
    elif node.type in ("double_quote_scalar", "single_quote_scalar"):
        start, end = node.start_byte + 1, node.end_byte - 1
        if (b"\\" if node.type == "double_quote_scalar" else b"''") in data[start:end]:
            return None
    else:
        return None
    return Entry(data[start:end].decode("utf-8", "surrogateescape"), start, end, _drop(data, node))


def _drop(data: bytes, node: tree_sitter.Node) -> tuple[int, int]:
    item = node
    while item.parent is not None and item.type != "block_sequence_item" and item.type != "flow_sequence":
        item = item.parent
    if item.type == "block_sequence_item":
        return y.lines(data, item.start_byte, item.end_byte)
    start, end = node.start_byte, node.end_byte
    after = re.match(rb"\s*,\s*", data[end:])
    if after:
        return start, end + after.end()
    before = re.search(rb",\s*$", data[item.start_byte:start])  # the last item: the comma before it goes
    return (item.start_byte + before.start() if before else start), end


def pip_requirements(ctx, group: int) -> tuple[list[Dependency], list[IndexUrl]]:
    """The requirements and index URLs of a conda environment's `- pip:` sub-list, all in `group`."""
    env = conda_env(ctx)
    deps: list[Dependency] = []
    urls: list[IndexUrl] = []
    for entry in env.pip if env is not None else ():
        text = entry.text

        def at(char: int, entry: Entry = entry, text: str = text) -> int:
            return entry.start + len(text[:char].encode("utf-8", "surrogateescape"))

        option = re.match(r"(-[-\w]+)(?:=|\s+)(\S+)\s*$", text)
        if option and option[1] in INDEX_OPTIONS:
            urls.append(IndexUrl(option[2], at(option.start(2)), at(option.end(2)), group))
        elif not text.startswith("-") and "$" not in text:
            found = pep508(text, entry.start, entry.drop, group)
            if found is not None:
                deps.append(found)
    return deps, urls
