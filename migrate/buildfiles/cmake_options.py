"""nvcc options inside CMake arguments: splitting an argument into option words, rewriting them with the table of
migrate/buildfiles/nvcc_options.py, and the generator expressions that test for the CUDA language or nvcc."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from migrate.buildfiles.cmake import Arg, CMakeContext
from migrate.buildfiles.make import Word  # one option word with its byte span, for both build languages
from migrate.buildfiles.nvcc_options import translate_option
from migrate.edits import encoded
from migrate.model import Edit


@dataclass(frozen=True)
class Words:
    """Options that sit together: the words of one quoted flags string ("sep" " "), the elements of a ;-list
    (";"), or plain arguments of a command ("args")."""

    words: tuple[Word, ...]
    sep: str  # " ", ";" or "args"


@dataclass(frozen=True)
class Rewritten:
    edits: list[Edit]
    lost: list[tuple[Word, str, str]]  # (its words' span, option, reason) of each option without counterpart
    emptied: bool  # every word was dropped
    changed: bool


_SEPARATORS = {" ": b" \t", ";": b";", "args": b" \t\r\n"}


def split_words(text: str, offset: int, sep: str) -> Words:
    """The words of `text` (which starts at byte `offset` of the file), split at blanks or at ';'."""
    pattern = r"[^\s]+" if sep == " " else r"[^;]+"
    words = []
    for m in re.finditer(pattern, text):
        start = offset + len(encoded(text[:m.start()]))
        words.append(Word(m.group(), start, start + len(encoded(m.group()))))
    return Words(tuple(words), sep)


def rewrite_options(ctx: CMakeContext, group: Words) -> Rewritten:
    """Translate the nvcc options among `group`'s words (migrate.buildfiles.nvcc_options) into edits."""
    words = group.words
    texts = [w.text for w in words]
    plan: list[tuple[int, int, list[str] | None]] = []  # (first, count, replacement or None = drop)
    lost: list[tuple[Word, str, str]] = []
    i = 0
    while i < len(words):
        new, consumed, reason = translate_option(texts, i)
        if new is None:
            option = " ".join(texts[i:i + consumed])
            lost.append((Word(option, words[i].start, words[i + consumed - 1].end), option, reason))
        if new != texts[i:i + consumed]:
            plan.append((i, consumed, new or None))
        i += consumed
    if not plan:
        return Rewritten([], [], False, False)
    dropped = {k for first, count, new in plan if new is None for k in range(first, first + count)}
    edits = []
    joiner = " " if group.sep == "args" else group.sep
    for first, count, new in plan:
        if new is not None:
            edits.append(Edit(words[first].start, words[first + count - 1].end, joiner.join(new)))
    blank = _SEPARATORS[group.sep]
    k = 0
    while k < len(words):
        if k not in dropped:
            k += 1
            continue
        run_end = k
        while run_end + 1 < len(words) and run_end + 1 in dropped:
            run_end += 1
        start, end = words[k].start, words[run_end].end
        after = run_end + 1
        before = k - 1
        if after < len(words) and not ctx.data[end:words[after].start].strip(blank):
            end = words[after].start
        elif before >= 0 and not ctx.data[words[before].end:start].strip(blank):
            start = words[before].end
        elif group.sep == "args":
            while start > 0 and ctx.data[start - 1:start] in (b" ", b"\t"):
                start -= 1
        edits.append(Edit(start, end, ""))
        k = run_end + 1
    return Rewritten(edits, lost, len(dropped) == len(words), True)


def payload(text: str) -> tuple[int, int] | None:
    """For a generator expression `$<condition:payload>` (the whole of `text`), the span of the payload."""
    if not (text.startswith("$<") and text.endswith(">")):
        return None
    depth, i = 0, 0
    while i < len(text):
        if text.startswith("$<", i):
            depth += 1
            i += 2
            continue
        if text[i] == ">":
            depth -= 1
            if depth == 0 and i != len(text) - 1:
                return None  # two expressions side by side
        elif text[i] == ":" and depth == 1:
            return i + 1, len(text) - 1
        i += 1
    return None


def option_groups(args: Iterable[Arg]) -> list[tuple[Arg | None, Words]]:
    """Group the arguments of a compile/link options command into option words: each generator
    expression's payload, each quoted or ;-listed argument on its own, and the plain arguments together
    (returned with arg None)."""
    plain: list[Word] = []
    out: list[tuple[Arg | None, Words]] = []
    for arg in args:
        text, offset = arg.text, arg.start
        if arg.text.startswith("["):
            continue
        if arg.quoted:
            text, offset = arg.text[1:-1], arg.start + 1
        span = payload(text)
        if span is not None:
            head = text[:span[0]]
            offset += len(encoded(head))
            text = text[span[0]:span[1]]
        elif not arg.quoted and ";" not in text and "$<" not in text:
            plain.append(Word(text, arg.start, arg.end))
            continue
        elif "$<" in text:
            continue  # a generator expression among other text: left alone
        if text.startswith("SHELL:"):
            out.append((arg, split_words(text[6:], offset + 6, " ")))
        else:
            out.append((arg, split_words(text, offset, ";")))
    if plain:
        out.insert(0, (None, Words(tuple(plain), "args")))
    return out


OPTION_COMMANDS = ("target_compile_options", "add_compile_options", "target_link_options", "add_link_options")
LANGUAGE_EXPRESSION = re.compile(r"\$<(COMPILE_LANGUAGE|LINK_LANGUAGE):([^>$]*)>")
LANG_AND_ID_EXPRESSION = re.compile(r"\$<(COMPILE_LANG_AND_ID|LINK_LANG_AND_ID):(CUDA),([^>$]*)>")
COMPILER_ID_EXPRESSION = re.compile(r"\$<(CUDA)_COMPILER_ID:([^>$]*)>")


def language_expression_edits(arg: Arg) -> list[Edit]:
    """Edits turning CUDA into HIP in the generator expressions of one argument:
    $<COMPILE_LANGUAGE:CUDA> (and lists such as CXX,CUDA), $<LINK_LANGUAGE:CUDA>,
    $<COMPILE_LANG_AND_ID:CUDA,NVIDIA> (-> HIP,Clang) and $<CUDA_COMPILER_ID:NVIDIA> (-> HIP, Clang)."""
    edits: list[Edit] = []
    for m in LANGUAGE_EXPRESSION.finditer(arg.text):
        names = m.group(2).split(",")
        if "CUDA" not in names:
            continue
        new = []
        for n in names:
            n = "HIP" if n == "CUDA" else n
            if n not in new:
                new.append(n)
        edits.append(Edit(arg.start + m.start(2), arg.start + m.end(2), ",".join(new)))
    for pattern, language, ids in ((LANG_AND_ID_EXPRESSION, 2, 3), (COMPILER_ID_EXPRESSION, 1, 2)):
        for m in pattern.finditer(arg.text):
            edits.append(Edit(arg.start + m.start(language), arg.start + m.end(language), "HIP"))
            names = ",".join("Clang" if n == "NVIDIA" else n for n in m.group(ids).split(","))
            if names != m.group(ids):
                edits.append(Edit(arg.start + m.start(ids), arg.start + m.end(ids), names))
    return edits
