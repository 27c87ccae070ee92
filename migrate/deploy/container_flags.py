"""Where `docker run` / `podman run` options live in shell scripts and YAML, and the ROCm device options.

Shell scripts (tree-sitter-bash): each `command` node that runs `docker`, `podman` or `nvidia-docker` (directly or
after `sudo`) with `run` or `create`. YAML: each scalar that holds such a command line (a CI `run:` block, a
`command:` string) and the `options:` string of a CI job's `container:` (GitHub Actions passes it to
`docker create`). Offsets are character offsets into the region's text (bytes that are not UTF-8 kept one
character each); `region_bytes` turns them into file bytes.
"""
from __future__ import annotations

import re
from typing import Iterator

from migrate.deploy import yaml_nodes as y

ROCM_DEVICE_OPTIONS = "--device=/dev/kfd --device=/dev/dri --group-add video"
_RUNS = re.compile(r"(?<![\w/-])(?:sudo\s+(?:-\S+\s+)*)?(?:docker|podman|nvidia-docker)(?:\s+container)?\s+"
                   r"(?:run|create)\b")
GPUS = re.compile(r"(?<![\w-])--gpus(?:=|[ \t]+)(?P<value>'[^'\n]*'|\"[^\"\n]*\"|[^\s'\"]+)")
RUNTIME = re.compile(r"(?P<space>[ \t]*)(?<![\w-])--runtime(?:=|[ \t]+)(?P<q>['\"]?)nvidia(?P=q)(?![\w-])")
NVIDIA_DOCKER = re.compile(r"(?<![\w/-])nvidia-docker(?![\w-])")


def regions(ctx) -> Iterator[tuple[int, str]]:
    """(byte start, text) of each piece of the file that holds container run options."""
    if ctx.kind == "shell":
        for command in ctx.nodes("command"):
            text = ctx.data[command.start_byte:command.end_byte].decode("utf-8", "surrogateescape")
            if _RUNS.search(text):
                yield command.start_byte, text
        return
    data = ctx.data
    for node in y.scalars(ctx.root):
        text = data[node.start_byte:node.end_byte].decode("utf-8", "surrogateescape")
        parents = y.path(data, node)
        is_options = len(parents) >= 2 and parents[-1] == "options" and parents[-2] == "container"
        if is_options or _RUNS.search(text):
            yield node.start_byte, text


def region_bytes(start: int, text: str, offset: int) -> int:
    """The file byte of character `offset` of a region's text (decoded with surrogateescape, so that bytes that are
    not UTF-8 count one each, as in the file)."""
    return start + len(text[:offset].encode("utf-8", "surrogateescape"))
