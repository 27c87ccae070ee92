"""The shell text of a Dockerfile's instructions, as the shell reads it, and where each of its bytes lies in the file.

- Shell form (`RUN make && ...`, `CMD python app.py`, `ENTRYPOINT ...`, `HEALTHCHECK CMD ...`): the instruction's
  text as written, but for its line continuations, which are written as bash reads one (`shell_form`: the `\\r` of
  `\\r\\n`, blanks after the escape and a `# escape=`` backtick would end bash's command there), byte for byte.
- The heredoc a `RUN` runs as its script (`RUN <<EOF`, `RUN <<EOF bash -e`), its body read the same way.
- Exec form that runs a shell with a command string: `RUN ["/bin/sh", "-c", "..."]`, `CMD ["bash", "-lc", "..."]`,
  `ENTRYPOINT ["/bin/bash", "-o", "pipefail", "-c", "..."]` (also through `/usr/bin/env bash`): the JSON string
  after the shell's options, decoded (`\\"`, `\\\\`, `\\n`, `\\uXXXX`, ...). The shell is `sh`, `bash`, `dash`, `ash`,
  `zsh`, `ksh` or `mksh` by its base name; the options must hold `c` (`-c`, `-lc`, `-ec`); `-o NAME`/`-O NAME`
  and `--rcfile FILE`/`--init-file FILE` take their value.
- Plain exec form (`CMD ["python", "train.py"]`, `ENTRYPOINT ["/bin/sh", "-c"]` without its string) runs no shell
  command string: there is nothing to read. A string that is not valid JSON (Docker then runs the instruction in
  shell form) is not read either.

Readers parse `ShellText.text` with the bash grammar, turn its byte offsets into file offsets with `at` (an offset
inside an escape sequence's text maps to the escape's first byte, so a span of whole characters maps to the bytes
that write them), and write new text into the file through `escape`: inside a JSON string `\\` and `"` get a
backslash. `exact` says whether a span is written byte for byte (no escape inside), for readers that do arithmetic
on the file's bytes of what they read.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Iterator

from migrate.deploy.context import parse, walk
from migrate.deploy.docker_instructions import HEREDOC, shell_words

SHELLS = {"sh", "bash", "dash", "ash", "zsh", "ksh", "mksh"}
_VALUED_LONG = {"--rcfile", "--init-file"}
_ESCAPES = {ord('"'): b'"', ord("\\"): b"\\", ord("/"): b"/", ord("b"): b"\b", ord("f"): b"\f", ord("n"): b"\n",
            ord("r"): b"\r", ord("t"): b"\t"}
_LINE_END = re.compile(rb"[ \t]*\r?\n")
_INSTRUCTIONS = ("run_instruction", "cmd_instruction", "entrypoint_instruction")


@dataclass(frozen=True)
class ShellText:
    """Shell source in a Dockerfile: `text` as the shell reads it."""

    text: bytes
    start: int  # the file byte of text[0] (shell form: text is as long as the file's bytes from there)
    sources: tuple[int, ...] = ()  # exec form: the file byte each byte of text comes from, then the string's end
    quote: str = ""  # '"' for the content of a JSON string or a double-quoted YAML scalar, "'" for a single-quoted one

    def at(self, offset: int) -> int:
        """The file byte of `text[offset]` (`len(text)`: the end)."""
        return self.sources[offset] if self.sources else self.start + offset

    def exact(self, start: int, end: int) -> bool:
        """Whether `text[start:end]` is the file's bytes as written (no escape sequence inside)."""
        return not self.sources or self.sources[end] - self.sources[start] == end - start

    def escape(self, new: str) -> str:
        """`new` as it must be written at this place of the file."""
        if self.quote == "'":
            return new.replace("'", "''")
        if self.quote != '"':
            return new
        out = new.replace("\\", "\\\\").replace('"', '\\"')
        return out.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")


def decode_json_string(data: bytes, start: int, end: int) -> tuple[bytes, tuple[int, ...]] | None:
    """The UTF-8 bytes of the JSON string content `data[start:end]` (quotes excluded) and, for each, the file byte
    it comes from (then `end`); None for an invalid escape or a raw control character."""
    out = bytearray()
    sources: list[int] = []
    i = start
    while i < end:
        byte = data[i]
        if byte == 0x5C:  # backslash
            kind = data[i + 1] if i + 1 < end else None
            if kind in _ESCAPES:
                char, size = _ESCAPES[kind], 2
            elif kind == ord("u"):
                found = _unicode(data, i, end)
                if found is None:
                    return None
                char, size = found
            else:
                return None
            out += char
            sources += [i] * len(char)
            i += size
            continue
        if byte < 0x20:
            return None
        out.append(byte)
        sources.append(i)
        i += 1
    sources.append(end)
    return bytes(out), tuple(sources)


def _unicode(data: bytes, i: int, end: int) -> tuple[bytes, int] | None:
    """A `\\uXXXX` escape at `i` (a surrogate pair takes two): its UTF-8 bytes and its length in the file."""
    def hex4(at: int) -> int | None:
        digits = data[at:at + 4]
        if at + 4 > end or len(digits) != 4:
            return None
        try:
            return int(digits, 16)
        except ValueError:
            return None

    code = hex4(i + 2)
    if code is None:
        return None
    if 0xD800 <= code < 0xDC00 and data[i + 6:i + 8] == b"\\u":
        low = hex4(i + 8)
        if low is not None and 0xDC00 <= low < 0xE000:
            return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)).encode("utf-8"), 12
    if 0xD800 <= code < 0xE000:
        return None  # a lone surrogate: not text
    return chr(code).encode("utf-8"), 6


def _shell_index(words: list[str]) -> int | None:
    if not words or os.path.basename(words[0]) not in SHELLS:
        return None
    has_c = False
    i = 1
    while i < len(words):
        word = words[i]
        if word == "--" or word == "-":
            i += 1
            break
        if word.startswith("--"):
            i += 2 if word in _VALUED_LONG else 1
            continue
        if len(word) > 1 and word[0] in "-+":
            letters = word[1:]
            has_c = has_c or (word[0] == "-" and "c" in letters)
            i += 1 + letters.count("o") + letters.count("O")
            continue
        break
    return i if has_c and i < len(words) else None


def shell_form(raw: bytes, start: int, escape: bytes) -> ShellText:
    """The shell text of a shell-form instruction (or a heredoc script) written as `raw` from the file byte `start`,
    byte for byte the same length: a line continuation Docker reads (the escape character, maybe blanks, maybe
    `\\r`, then `\\n`) is written as bash reads one, a backslash just before the `\\n` (the escape's own byte and
    the blanks become blanks; under `# escape=`` the backtick becomes the backslash); any other `\\r` of a `\\r\\n`
    becomes a blank (bash would read it as part of the last word)."""
    text = bytearray(raw)
    for match in _LINE_END.finditer(raw):
        last = match.end() - 2  # the byte before the line break
        if match.start() > 0 and raw[match.start() - 1:match.start()] == escape:
            text[match.start() - 1] = 0x20
            text[last] = 0x5C
        elif raw[last:last + 1] == b"\r":
            text[last] = 0x20
    return ShellText(bytes(text), start)


def shell_texts(ctx) -> Iterator[ShellText]:
    """Every piece of shell text of a Dockerfile context, in document order."""
    data = ctx.data
    for node in ctx.nodes("shell_command", *_INSTRUCTIONS):
        if node.type == "shell_command":
            yield shell_form(data[node.start_byte:node.end_byte], node.start_byte, ctx.reading.escape)
            script = heredoc_script(ctx, node)
            if script is not None:
                yield script
            continue
        array = next((c for c in node.children if c.type == "json_string_array"), None)
        if array is None:
            continue
        strings = [c for c in array.children if c.type == "json_string"]
        decoded = [decode_json_string(data, s.start_byte + 1, s.end_byte - 1) for s in strings]
        if any(d is None for d in decoded):
            continue
        words = [d[0].decode("utf-8", "surrogateescape") for d in decoded]
        index = command_string(words)
        if index is not None:
            text, sources = decoded[index]
            yield ShellText(text, strings[index].start_byte + 1, sources, '"')


def heredoc_script(ctx, command) -> ShellText | None:
    """The body of the heredoc a `RUN` runs as its shell script: `RUN <<EOF` (BuildKit runs it with the default
    shell) or `RUN <<EOF bash -e` (the shell reads it); None when another program reads it (`RUN python3 <<EOF`,
    `RUN cat <<EOF >/etc/pip.conf`) or the shell runs a `-c` string instead."""
    parent = command.parent
    if parent is None or parent.type != "run_instruction" or not any(True for _ in walk(command, "heredoc_marker")):
        return None
    words = [w for w in shell_words(ctx.node_text(command)) if not HEREDOC.fullmatch(w)]
    if words and (os.path.basename(words[0]) not in SHELLS or _shell_index(words) is not None):
        return None
    block = next((c for c in parent.children if c.type == "heredoc_block"), None)
    lines = [c for c in block.children if c.type == "heredoc_line"] if block is not None else []
    end = next((c for c in block.children if c.type == "heredoc_end"), None) if block is not None else None
    if not lines or end is None:
        return None
    start = lines[0].start_byte
    return shell_form(ctx.data[start:end.start_byte], start, b"\\")  # bash reads its own continuations


def command_string(words: list[str]) -> int | None:
    """The index of the shell's command string in an exec-form argument list (also through `env`:
    `["/usr/bin/env", "bash", "-c", "..."]`), or None when it runs no shell command string (`["python", "x.py"]`,
    `["sh", "script.sh"]`, `["bash", "-c"]` alone)."""
    skip = 0
    if words and os.path.basename(words[0]) == "env":
        skip = 1
        while skip < len(words) and "=" in words[skip] and not words[skip].startswith("-"):
            skip += 1
    found = _shell_index(words[skip:])
    return None if found is None else found + skip


def trees(ctx):
    """(bash tree, ShellText) for each piece of shell text of a Dockerfile context (parsed once per file: the env
    finder and PY063 both read them)."""
    return ctx.once("docker_shell_trees",
                    lambda c: [(parse("shell", shell.text).root_node, shell) for shell in shell_texts(c)])
