"""A C++ file over the size limit (--max-file-size): renamed, not analysed.

Full analysis builds a tree-sitter tree of about thirty times the file's size and runs every rule over it. A file
past the limit (a generated kernel table, an amalgamation) instead goes through one linear pass over its tokens:
identifiers that a mapping pack renames for the target release, and the headers of `#include` lines. Comments and
string literals are left alone. No tree is made and no rule or hazard check runs; migrate/stages/rewrite.py reports
that as INP011.
Migrating the output again changes nothing: every name written is a HIP name, which no pack renames.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from migrate.context import newline_of
from migrate.edits import next_line
from migrate.packs import Packs, version_tuple

TOKENS = re.compile(rb"""
    (?P<comment>//(?:\\\r?\n|[^\n])*|/\*.*?(?:\*/|\Z))
  | (?P<raw>R"(?P<delim>[^()\\\s"]{0,16})\(.*?\)(?P=delim)")
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n]){1,8}')
  | (?P<include>^[ \t]*\#[ \t]*include[ \t]*[<"](?P<header>[^>"\r\n]+)[>"])
  | (?P<word>[A-Za-z_]\w*)
""", re.M | re.S | re.X)
RUNTIME = "hip/hip_runtime.h"


@dataclass(frozen=True)
class Renamed:
    data: bytes
    names: int  # identifiers renamed
    headers: int  # include lines changed


def rename(data: bytes, packs: Packs, target: str) -> Renamed:
    """`data` with the packs' names and headers for HIP `target`, in one pass."""
    key = version_tuple(target)
    names = {m.cuda.encode(): m.hip.encode() for m in packs.names.values() if not m.newer_than(key)}
    headers = {h.cuda.encode(): h.hip_for(key).encode() for h in packs.headers.values()}
    out: list[bytes] = []
    pos = renamed = included = 0
    has_runtime = False
    for m in TOKENS.finditer(data):
        kind = m.lastgroup
        if kind == "word":
            new = names.get(m.group())
            if new is None:
                continue
            out += [data[pos:m.start()], new]
            pos = m.end()
            renamed += 1
        elif kind == "include":
            header = m.group("header")
            has_runtime = has_runtime or header == RUNTIME.encode()
            new = headers.get(header)
            if new is None:
                continue
            has_runtime = has_runtime or new == RUNTIME.encode()
            out += [data[pos:m.start("header")], new] if new else [data[pos:m.start()]]
            pos = m.end("header") if new else next_line(data, m.end())
            included += 1
    out.append(data[pos:])
    text = b"".join(out)
    if renamed and not has_runtime:
        text = f"#include <{RUNTIME}>{newline_of(data)}".encode() + text
    return Renamed(text, renamed, included)

