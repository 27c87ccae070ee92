"""CUDA versions written as a template rather than a number, wherever text names a CUDA wheel: a wheel index whose
last segment is `cu` and a placeholder (`.../whl/cu${CUDA_VERSION}`, `.../whl/cu$CU`, `.../whl/cu${{ matrix.cuda }}`,
`.../whl/cu{ver}` in a Python f-string or a `.format` template, `.../whl/cu%s`) or a shell variable named for CUDA
that holds the whole tag (`.../whl/"$CU_VERSION"/torch_stable.html`), and a CUDA local version built the
same way (`torch==2.1.0+cu${CUDA}`, `+cu{cuda_tag}`); in Python strings and `.env` files also NVIDIA's CUDA image
with a templated tag (`f"nvidia/cuda:{ver}-devel-ubuntu22.04"`, `BASE_IMAGE=nvidia/cuda:${CUDA}-runtime-ubuntu22.04`).

The literal forms (`/whl/cu121`, `+cu121`) belong to the wheel rules (PY040, PY041) and NVIDIA's image tags with a
placeholder in Dockerfiles, YAML and shell text to PY050; this reader finds what those cannot, since a
placeholder has no version to map. An index counts when its word is a URL or names a `/whl/` folder (not a path
such as `site-packages/nvidia/cu${MAJOR}/lib`). In Python only string literals are read (libcst); in the other
kinds every line but shell-style comment lines.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import libcst as cst

PLACEHOLDER = r"(?:\$\{\{[^}\n]*\}\}|\{\{[^}\n]*\}\}|\$\{[^}\n]*\}|\$[A-Za-z_]\w*|\{[^{}\n]*\}|%(?:\(\w+\))?s)"
CU_NAME = r"(?:[A-Za-z0-9]+_)*(?:[Cc][Uu]|[Cc][Uu][Dd][Aa])(?:_[A-Za-z0-9]+)*"  # CU_VERSION, CUDA_TAG, TORCH_CU
INDEX = re.compile(r"/(cu" + PLACEHOLDER + r"|\"?\$\{?" + CU_NAME + r"\}?\"?)(?=/|[\s\"'`),;]|$)", re.M)
LOCAL = re.compile(r"[\w.}]\+(cu" + PLACEHOLDER + r")(?![\w.])", re.M)  # `}`: f"torch=={v}+cu{c}"
IMAGE = re.compile(r"(?<![\w./-])((?:[\w.-]+/)?nvidia/cuda:[^\s\"'`]*?" + PLACEHOLDER + r"[^\s\"'`]*)")
IMAGE_KINDS = ("python", "dotenv")  # the other kinds' images are PY050's (migrate/deploy/container_images.py)


@dataclass(frozen=True)
class Templated:
    what: str  # "index", "local" or "image"
    tag: str  # the templated tag as written: "cu${CUDA_VERSION}"
    start: int  # bytes of the tag
    end: int


def templated(ctx) -> list[Templated]:
    """Every templated CUDA tag of the file, in order; cached on the context."""
    return ctx.once("cuda_templates", _templated)


def _templated(ctx) -> list[Templated]:
    whole = ctx.data.decode("utf-8", "surrogateescape")
    if not (INDEX.search(whole) or LOCAL.search(whole) or (ctx.kind in IMAGE_KINDS and IMAGE.search(whole))):
        return []  # the cheap test first: most files hold none, and Python's strings need the tree
    if ctx.kind == "python":
        regions = _python_strings(ctx)
    else:
        regions = [(0, ctx.data)]
    found = []
    for base, raw in regions:
        text = raw.decode("utf-8", "surrogateescape")
        patterns = [("index", INDEX), ("local", LOCAL)] + ([("image", IMAGE)] if ctx.kind in IMAGE_KINDS else [])
        for what, pattern in patterns:
            for match in pattern.finditer(text):
                if ctx.kind != "python" and _commented(text, match.start(1)):
                    continue
                if what == "index" and not _url(text, match.start(1)):
                    continue  # a path such as site-packages/nvidia/cu${MAJOR}/lib, not a wheel index
                start = base + len(text[:match.start(1)].encode("utf-8", "surrogateescape"))
                found.append(Templated(what, match[1], start, start + len(match[1].encode("utf-8", "surrogateescape"))))
    return sorted(found, key=lambda t: t.start)


def _url(text: str, at: int) -> bool:
    """Does the word that `at` lies in start as a URL (`https://...`, `file:///...`) or name a wheel folder?"""
    word = re.split(r"[\s\"'`=(]", text[max(0, at - 2000):at])[-1]
    return "://" in word or "/whl/" in word + "/"


def _commented(text: str, at: int) -> bool:
    line = text[text.rfind("\n", 0, at) + 1:at]
    return line.lstrip().startswith("#")


class _Strings(cst.CSTVisitor):
    def __init__(self) -> None:
        self.nodes: list[cst.CSTNode] = []

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        self.nodes.append(node)

    def visit_FormattedString(self, node: cst.FormattedString) -> bool:
        self.nodes.append(node)
        return False  # its expressions are code, and the node's own text is read whole


def _python_strings(ctx) -> list[tuple[int, bytes]]:
    if ctx.wrapper is None:
        return []
    strings = _Strings()
    ctx.wrapper.module.visit(strings)
    spans = [ctx.byte_span(n) for n in strings.nodes]
    return [(start, ctx.data[start:end]) for start, end in spans]
