"""The requirements and index URLs of `pip install` command lines in shell scripts, Dockerfile `RUN`/`CMD`/`ENTRYPOINT`
instructions (shell form, or the command string of exec form with `sh -c`) and YAML `run:`/`script:`/`command:`
scalars, with byte spans, in the same form as a requirements file's (migrate/deploy/requirement.py), so the
wheel rules (PY040-PY044) read `RUN pip install torch==2.3.1+cu121 --index-url .../whl/cu121` like a requirements
file.

A command is found by its words: `pip`/`pip3`/`pip3.11`, `python -m pip`, `uv pip`, then `install`; its arguments
run to the end of the command (`&&`, `||`, `;`, `|`, or a line end that no backslash continues). Quoted words
count without their quotes. Options that take a value (`-r FILE`, `--target DIR`, ...) are skipped with it;
`-i`/`--index-url`/`--extra-index-url`/`-f`/`--find-links` give index URLs. Words built at run time (`$TORCH`,
`"torch==${V}"`) are not read, nor, inside an exec-form JSON string, a word written with an escape sequence
(`torch\u003d\u003d2.3`): rules edit inside the bytes of what they read. Dropping a requirement deletes the word
(with its quotes, escaped or not) and the blank before it.
"""
from __future__ import annotations

import re

from migrate.deploy import yaml_shell
from migrate.deploy.docker_shell import ShellText, shell_texts
from migrate.deploy.requirement import INDEX_OPTIONS, Dependency, IndexUrl, pep508

# A pip install at the start of a command: the region's start, or after a separator (not `echo pip install`).
PIP_INSTALL = re.compile(r"(?:^|(?<=[;&|(`\n]))[ \t]*(?:sudo\s+(?:-\S+\s+)*)?"
                         r"(?:python[\d.]*\s+-m\s+pip|uv\s+pip|pip[\d.]*)\s+install(?=\s)")
END = re.compile(r"&&|\|\||[;|]|(?<!\\)\n")
WORD = re.compile(r"'([^']*)'|\"([^\"$`\\]*)\"|((?:[^\s'\"\\;&|]|\\[^\n])+)")
VALUED = {"-r", "--requirement", "-c", "--constraint", "-t", "--target", "--prefix", "--root", "--src",
          "--upgrade-strategy", "--platform", "--python-version", "--implementation", "--abi", "--only-binary",
          "--no-binary", "-e", "--editable", "--trusted-host", "--cache-dir", "--log", "--progress-bar",
          "--config-settings", "-C", "--global-option", "--report"}


SCRIPT_KEYS = (*yaml_shell.SCRIPT_KEYS, "command", "args")


def regions(ctx) -> list[ShellText]:
    """The shell text of a script's commands, a Dockerfile's RUN/CMD/ENTRYPOINT instructions (shell form, or exec
    form with `sh -c`: migrate/deploy/docker_shell.py), or the `run:`/`script:`/`command:` scalars of a YAML file (CI
    steps, compose and Kubernetes commands)."""
    if ctx.kind == "shell":
        nodes = [n for n in ctx.nodes("command", "redirected_statement") if n.type == "command"]
        return [ShellText(ctx.data[n.start_byte:n.end_byte], n.start_byte) for n in nodes]
    if ctx.kind == "yaml":
        return [shell for shell in yaml_shell.shell_texts(ctx, SCRIPT_KEYS) if b"install" in shell.text]
    return list(shell_texts(ctx))


def pip_commands(ctx) -> tuple[list[Dependency], list[IndexUrl]]:
    deps: list[Dependency] = []
    urls: list[IndexUrl] = []
    seen: set[int] = set()
    for shell in regions(ctx):
        # bytes that are not UTF-8 stay one character each, so that a character's offset maps back to its byte
        text = shell.text.decode("utf-8", "surrogateescape")
        for command in PIP_INSTALL.finditer(text):
            where = shell.at(len(text[:command.start()].encode("utf-8", "surrogateescape")))
            if where in seen:
                continue
            seen.add(where)
            end = END.search(text, command.end())
            _read_arguments(text, command.end(), end.start() if end else len(text), shell, deps, urls, len(seen))
    return deps, urls


def _read_arguments(text: str, start: int, stop: int, shell: ShellText, deps: list, urls: list, group: int) -> None:
    def offset(char: int) -> int:
        return len(text[:char].encode("utf-8", "surrogateescape"))

    def at(char: int) -> int:
        return shell.at(offset(char))

    # a word written with escapes (inside an exec-form JSON string) is not read: rules edit inside its bytes
    words = [(m.start(m.lastindex), m.end(m.lastindex), m.group(m.lastindex), m.start())
             for m in WORD.finditer(text, start, stop) if m.group(0) != "\\"
             and shell.exact(offset(m.start(m.lastindex)), offset(m.end(m.lastindex)))]
    skip_next = False
    for index, (begin, end, word, outer) in enumerate(words):
        if skip_next:
            skip_next = False
            continue
        option, _, value = word.partition("=")
        if word in INDEX_OPTIONS or option in INDEX_OPTIONS and value:
            if value:
                urls.append(IndexUrl(value, at(end - len(value)), at(end), group))
            elif index + 1 < len(words):
                nb, ne, nword, _ = words[index + 1]
                urls.append(IndexUrl(nword, at(nb), at(ne), group))
                skip_next = True
            continue
        if word.startswith("-"):
            skip_next = word in VALUED
            continue
        if "$" in word or "/" in word or word.startswith("."):
            continue  # run-time values, paths and URLs are not requirements hipmigrate can read
        blank = outer
        while blank > start and text[blank - 1] in " \t":
            blank -= 1
        found = pep508(word, at(begin), (at(blank), at(outer + (end - begin) + (outer != begin) * 2)), group)
        if found is not None:
            deps.append(found)
