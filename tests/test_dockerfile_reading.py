"""Dockerfiles read instruction by instruction (issue 31, item 3): migrate/deploy/docker_instructions.py splits a
file as Docker does, and an instruction tree-sitter-dockerfile cannot read is left unchanged with INP001 at its line
while every other one is migrated (migrate/deploy/docker_recovery.py). Exact texts, codes and lines."""
from __future__ import annotations

from pathlib import Path

import pytest

from migrate import api
from migrate.deploy.docker_instructions import heredocs, layout
from migrate.model import FileStatus
from migrate.options import Options


def analyse(root: Path, text: str | bytes, name: str = "Dockerfile"):
    data = text.encode() if isinstance(text, str) else text
    root.mkdir(parents=True, exist_ok=True)
    (root / name).write_bytes(data)
    _, result = api.analyse(root, Options(hip_version="6.2"))
    [found] = [f for f in result.files if f.path == name]
    return found


def codes(result) -> list[tuple[str, int]]:
    return sorted((f.code, f.span.line) for f in result.findings)


def split(text: str) -> list[tuple[str, int, str]]:
    data = text.encode()
    return [(i.keyword, i.line, data[i.start:i.end].decode()) for i in layout(data).instructions]


# -- splitting as Docker splits --------------------------------------------------------------------------------

LAYOUTS = {
    "directives and comments": (
        "# syntax=docker/dockerfile:1.7\n# check=skip=all\n# a comment\nFROM x\n  # indented comment\n\n"
        "RUN a\n",
        [("FROM", 4, "FROM x\n"), ("RUN", 7, "RUN a\n")]),
    "continuation, with a comment and an empty line inside": (
        "RUN a \\\n  # inside\n\n    b \\  \n    c\nCMD d\n",
        [("RUN", 1, "RUN a \\\n  # inside\n\n    b \\  \n    c\n"), ("CMD", 6, "CMD d\n")]),
    "escape directive: backtick continues, backslash does not": (
        "# escape=`\nFROM x\nRUN dir `\n    c:\\\nRUN b\n",
        [("FROM", 2, "FROM x\n"), ("RUN", 3, "RUN dir `\n    c:\\\n"), ("RUN", 5, "RUN b\n")]),
    "escape after a comment is a comment": (
        "# a comment\n# escape=`\nRUN a `\nRUN b\n",
        [("RUN", 3, "RUN a `\n"), ("RUN", 4, "RUN b\n")]),
    "heredoc": (
        "RUN <<EOF\nRUN not an instruction\nEOF\nCMD c\n",
        [("RUN", 1, "RUN <<EOF\nRUN not an instruction\nEOF\n"), ("CMD", 4, "CMD c\n")]),
    "heredoc with <<- and a quoted name": (
        'RUN <<-"END" bash\n\techo $HOME\n\tEND\nCMD c\n',
        [("RUN", 1, 'RUN <<-"END" bash\n\techo $HOME\n\tEND\n'), ("CMD", 4, "CMD c\n")]),
    "two heredocs on one line, read in order": (
        "COPY <<A /a <<'B' /b\na\nB\nA\nb\nB\nCMD c\n",
        [("COPY", 1, "COPY <<A /a <<'B' /b\na\nB\nA\nb\nB\n"), ("CMD", 7, "CMD c\n")]),
    "heredoc after a command and a file descriptor": (
        "RUN --mount=type=cache,target=/c cat 3<<EOF >/x && echo ok\nx\nEOF\n",
        [("RUN", 1, "RUN --mount=type=cache,target=/c cat 3<<EOF >/x && echo ok\nx\nEOF\n")]),
    "no heredoc in exec form, nor in a quoted word": (
        'RUN ["cat", "<<EOF"]\nRUN echo "<<EOF"\nCMD c\n',
        [("RUN", 1, 'RUN ["cat", "<<EOF"]\n'), ("RUN", 2, 'RUN echo "<<EOF"\n'), ("CMD", 3, "CMD c\n")]),
    "ONBUILD with a heredoc": (
        "onbuild run <<EOF\necho\nEOF\nLABEL a=b\n",
        [("ONBUILD", 1, "onbuild run <<EOF\necho\nEOF\n"), ("LABEL", 4, "LABEL a=b\n")]),
    "unterminated heredoc runs to the end": (
        "RUN <<EOF\necho\nCMD c\n", [("RUN", 1, "RUN <<EOF\necho\nCMD c\n")]),
    "CRLF and no last line break": (
        "FROM x\r\nRUN a \\\r\n  b\r\nRUN <<EOF\r\nx\r\nEOF\r\nCMD c",
        [("FROM", 1, "FROM x\r\n"), ("RUN", 2, "RUN a \\\r\n  b\r\n"), ("RUN", 4, "RUN <<EOF\r\nx\r\nEOF\r\n"),
         ("CMD", 7, "CMD c")]),
    "byte order mark": ("\ufeffFROM x\nLABEL k = v\n", [("FROM", 1, "FROM x\n"), ("LABEL", 2, "LABEL k = v\n")]),
}


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_instructions_are_split_as_docker_splits_them(name):
    text, expected = LAYOUTS[name]
    assert split(text) == expected


def test_escape_directive():
    assert layout(b"# escape=`\nFROM x\n").escape == b"`"
    assert layout(b"#escape = \\\nFROM x\n").escape == b"\\"
    assert layout(b"\n# escape=`\nFROM x\n").escape == b"\\"  # after a blank line: a comment


@pytest.mark.parametrize("line, expected", [
    ("RUN <<EOF", [("EOF", False)]),
    ("RUN <<-EOF python3", [("EOF", True)]),
    ("RUN <<'EOF' <<\"TWO\"", [("EOF", False), ("TWO", False)]),
    ("COPY <<A /a", [("A", False)]),
    ("ADD --chmod=755 <<A /a", [("A", False)]),
    ("ONBUILD RUN <<A", [("A", False)]),
    ("RUN echo '<<A'", []),
    ('RUN ["sh", "-c", "cat <<A"]', []),
    ("CMD <<A", []),
    ("RUN <<", []),
])
def test_heredoc_markers(line, expected):
    assert heredocs(line) == expected


# -- migrating every instruction the grammar reads ---------------------------------------------------------------

DOCKERFILE = """\
# syntax=docker/dockerfile:1.7
# check=skip=all
ARG BASE=nvidia/cuda:12.1.1-devel-ubuntu22.04
FROM ${BASE} AS build
LABEL org.opencontainers.image.title=train version="1 2"
LABEL maintainer = "ml team"
ENV TORCH_CUDA_ARCH_LIST "8.0;8.6"
ENV PROMPT='"'"'
  # an indented comment

RUN pip install torch==2.3.1+cu121 --index-url https://download.pytorch.org/whl/cu121
RUN <<EOF
pip install torchvision==0.18.1+cu121
EOF
RUN <<-"EOF" bash -e
\techo $HOME
\tEOF
RUN cat <<A >/a.txt && cat <<'B' >/b.txt
a
A
b
B
RUN ["/bin/bash", "-c", "pip install torch==2.3.1+cu121"]
CMD ["python", "train.py"]
ONBUILD RUN pip install torchaudio==2.3.1+cu121
RUN echo 'alias ll='"'"'ls -l'"'"'' >> ~/.bashrc && \\
    # a comment in the middle

    pip install torch==2.3.1+cu121
RUN echo 'export PS1='"'"'\\[\\e[1;32m\\]\\u@\\h\\[\\e[0m\\]:\\w\\$ '"'"'' >> /root/.bashrc && \\
    pip install torch==2.3.1+cu121
ENV CUDA_HOME=/usr/local/cuda
"""
MIGRATED = (DOCKERFILE
            .replace("nvidia/cuda:12.1.1-devel-ubuntu22.04", "rocm/dev-ubuntu-22.04:6.4.1-complete")
            .replace('TORCH_CUDA_ARCH_LIST "8.0;8.6"', 'PYTORCH_ROCM_ARCH "gfx942"')
            .replace("torch==2.3.1+cu121 --index-url https://download.pytorch.org/whl/cu121",
                     "torch==2.3.1+rocm6.0 --index-url https://download.pytorch.org/whl/rocm6.0")
            .replace('"pip install torch==2.3.1+cu121"', '"pip install torch==2.3.1+rocm6.0"')
            .replace("torchaudio==2.3.1+cu121", "torchaudio==2.3.1+rocm6.0")
            .replace("torchvision==0.18.1+cu121", "torchvision==0.18.1+rocm6.0")
            .replace("\n    pip install torch==2.3.1+cu121", "\n    pip install torch==2.3.1+rocm6.0")
            .replace("CUDA_HOME=/usr/local/cuda", "ROCM_PATH=/opt/rocm"))
FINDINGS = [("INP001", 6), ("INP001", 8), ("PY021", 7), ("PY022", 32), ("PY040", 11), ("PY041", 11),
            ("PY041", 13), ("PY041", 23), ("PY041", 25), ("PY041", 29), ("PY041", 31), ("PY050", 3)]


def test_every_instruction_form_is_migrated_but_those_the_grammar_fails_on(tmp_path):
    result = analyse(tmp_path, DOCKERFILE)
    assert result.new.decode() == MIGRATED
    assert codes(result) == FINDINGS


def test_the_instruction_left_unchanged_is_named_with_where_the_grammar_stopped(tmp_path):
    result = analyse(tmp_path, DOCKERFILE)
    unread = [(f.span.line, f.span.column, f.message, f.detail) for f in result.findings if f.code == "INP001"]
    tail = ": left unchanged, the rest of the file was migrated; review it by hand"
    assert unread == [
        (6, 1, "tree-sitter could not parse this LABEL instruction (at 6:7)" + tail, ("6:7",)),
        (8, 1, "tree-sitter could not parse this ENV instruction (at 8:15)" + tail, ("8:15",)),
    ]


def test_migrating_the_output_again_changes_nothing(tmp_path):
    again = analyse(tmp_path, MIGRATED)
    assert again.status is not FileStatus.MIGRATED
    assert again.new is None or again.new.decode() == MIGRATED
    assert [line for code, line in codes(again) if code == "INP001"] == [6, 8]


def test_crlf_line_ends(tmp_path):
    result = analyse(tmp_path, DOCKERFILE.replace("\n", "\r\n"))
    assert result.new.decode() == MIGRATED.replace("\n", "\r\n")
    assert codes(result) == FINDINGS
    again = analyse(tmp_path / "again", result.new)
    assert again.status is not FileStatus.MIGRATED


def test_crlf_continuation_lines_keep_their_pins(tmp_path):
    text = ("FROM python:3.11\r\nRUN pip install \\\r\n    torch==2.3.1+cu121 \\\r\n"
            "    --index-url https://download.pytorch.org/whl/cu121\r\n")
    result = analyse(tmp_path, text)
    assert result.new.decode() == text.replace("cu121", "rocm6.0")
    assert codes(result) == [("PY040", 4), ("PY041", 3)]


# -- the failure shapes met in real files, and a truly broken instruction -----------------------------------------

def test_legacy_label_with_spaced_equals_costs_only_itself(tmp_path):
    # the grammar's error at LABEL swallowed the ENV after it when the file was parsed whole
    text = ('FROM nvidia/cuda:11.8.0-devel-ubuntu22.04\nLABEL maintainer = "someone"\n'
            'ENV TORCH_CUDA_ARCH_LIST="8.0;8.6"\n'
            "RUN pip install torch==2.0.1+cu118 --extra-index-url https://download.pytorch.org/whl/cu118\n")
    result = analyse(tmp_path, text)
    assert result.new.decode() == (
        'FROM rocm/dev-ubuntu-22.04:6.4.1-complete\nLABEL maintainer = "someone"\n'
        'ENV PYTORCH_ROCM_ARCH="gfx942"\n'
        "RUN pip install torch==2.0.1+rocm5.4.2 --extra-index-url https://download.pytorch.org/whl/rocm5.4.2\n")
    assert codes(result) == [("INP001", 2), ("PY021", 3), ("PY040", 4), ("PY041", 4), ("PY050", 1)]


def test_shell_quoting_of_a_single_quote(tmp_path):
    # '"'"' in a RUN is read (the grammar takes it); in an ENV value the grammar fails, and only that ENV is left
    text = ("FROM python:3.11\nENV PS1='\"'\"'\n"
            "RUN echo 'alias ll='\"'\"'ls -l'\"'\"'' >> ~/.bashrc && pip install torch==2.1.0+cu118\n"
            "ENV TORCH_CUDA_ARCH_LIST=8.0\n")
    result = analyse(tmp_path, text)
    assert result.new.decode() == (
        "FROM python:3.11\nENV PS1='\"'\"'\n"
        "RUN echo 'alias ll='\"'\"'ls -l'\"'\"'' >> ~/.bashrc && pip install torch==2.1.0+rocm5.6\n"
        "ENV PYTORCH_ROCM_ARCH=gfx942\n")
    assert codes(result) == [("INP001", 2), ("PY021", 4), ("PY041", 3)]


@pytest.mark.parametrize("broken", ["COPY\n", "ARG\n", "ENV =oops\n", "RUN <<EOF\necho\n"])
def test_one_broken_instruction_among_good_ones(tmp_path, broken):
    good = ("FROM nvidia/cuda:12.1.1-runtime-ubuntu22.04\n", "ENV TORCH_CUDA_ARCH_LIST=9.0\n",
            "RUN pip install torch==2.3.1+cu121\n")
    text = good[0] + good[1] + broken + good[2]
    line = 3
    if broken.startswith("RUN <<"):  # an unterminated heredoc takes the rest of the file
        text, line = good[0] + good[1] + good[2] + broken, 4
    result = analyse(tmp_path, text)
    expected = (text.replace("nvidia/cuda:12.1.1-runtime-ubuntu22.04", "rocm/dev-ubuntu-22.04:6.4.1")
                .replace("TORCH_CUDA_ARCH_LIST=9.0", "PYTORCH_ROCM_ARCH=gfx942").replace("+cu121", "+rocm6.0"))
    assert result.new.decode() == expected
    pin = 4 if line == 3 else 3
    assert codes(result) == sorted([("INP001", line), ("PY021", 2), ("PY041", pin), ("PY050", 1)])


def test_backtick_escape(tmp_path):
    text = ("# escape=`\nFROM nvidia/cuda:12.1.1-devel-ubuntu22.04\nRUN pip install `\n    torch==2.3.1+cu121 `\n"
            "    numpy\nCOPY . c:\\app\\\nENV TORCH_CUDA_ARCH_LIST=8.0\n")
    result = analyse(tmp_path, text)
    assert result.new.decode() == (
        "# escape=`\nFROM rocm/dev-ubuntu-22.04:6.4.1-complete\nRUN pip install `\n    torch==2.3.1+rocm6.0 `\n"
        "    numpy\nCOPY . c:\\app\\\nENV PYTORCH_ROCM_ARCH=gfx942\n")
    assert codes(result) == [("PY021", 7), ("PY041", 4), ("PY050", 2)]


def test_last_line_without_line_break_and_a_broken_instruction(tmp_path):
    text = "FROM nvidia/cuda:12.1.1-devel-ubuntu22.04\nLABEL a = b\nCMD [\"nvidia-smi\"]"
    result = analyse(tmp_path, text)
    assert result.new.decode() == "FROM rocm/dev-ubuntu-22.04:6.4.1-complete\nLABEL a = b\nCMD [\"nvidia-smi\"]"
    assert [c for c in codes(result) if c[0] == "INP001"] == [("INP001", 2)]


def test_trailing_blanks_do_not_continue_a_line(tmp_path):
    # the grammar read `COPY . /app  ` as continued and took the next instruction for its paths, without an error
    text = ("\ufeffFROM nvidia/cuda:12.1.1-devel-ubuntu22.04\n  ENV TORCH_CUDA_ARCH_LIST=8.0\nCOPY . /app  \n"
            "ENV CUDA_HOME=/usr/local/cuda\t\nCOPY\nENV CUDA_HOME=/usr/local/cuda\n")
    result = analyse(tmp_path, text)
    assert result.new.decode() == (
        "\ufeffFROM rocm/dev-ubuntu-22.04:6.4.1-complete\n  ENV PYTORCH_ROCM_ARCH=gfx942\nCOPY . /app  \n"
        "ENV ROCM_PATH=/opt/rocm\t\nCOPY\nENV ROCM_PATH=/opt/rocm\n")
    assert codes(result) == [("INP001", 5), ("PY021", 2), ("PY022", 4), ("PY022", 6), ("PY050", 1)]


def test_shell_text_the_grammar_fails_on_is_still_read(tmp_path):
    # Docker hands shell-form text to the shell unread; the grammar failed on `\[` in it, and the pin was lost
    text = ("FROM python:3.11\n"
            "RUN echo 'PS1='\"'\"'\\[\\e[1;32m\\]\\u\\$ '\"'\"'' >> ~/.bashrc && pip install torch==2.3.1+cu121\n"
            "CMD echo '\\[' && nvidia-smi\n"
            "ONBUILD RUN echo '\\[' && pip install torchaudio==2.3.1+cu121\nONBUILD LABEL a = b\n")
    result = analyse(tmp_path, text)
    assert result.new.decode() == text.replace("+cu121", "+rocm6.0")  # nvidia-smi alone: rewritten by hand
    assert codes(result) == [("INP001", 5), ("PY041", 2), ("PY041", 4), ("PY063", 3)]


def test_a_heredoc_run_as_the_script_is_shell_text(tmp_path):
    text = ("FROM python:3.11\nRUN <<EOF\npip install torch==2.3.1+cu121 \\\n"
            "    --index-url https://download.pytorch.org/whl/cu121\nexport CUDA_HOME=/usr/local/cuda\nEOF\n"
            "RUN <<-EOF bash -e\n\tpip install torchaudio==2.3.1+cu121\n\tEOF\n"
            "RUN python3 <<EOF\nprint('pip install torch==2.3.1+cu121')\nEOF\n"
            "RUN cat <<EOF >/etc/note && pip install torchvision==0.18.1+cu121\ntorch==2.3.1+cu121\nEOF\n")
    for name, data in (("lf", text), ("crlf", text.replace("\n", "\r\n"))):
        result = analyse(tmp_path / name, data)
        new = result.new.decode()
        assert new == data.replace("torch==2.3.1+cu121 \\", "torch==2.3.1+rocm6.0 \\").replace(
            "whl/cu121", "whl/rocm6.0").replace("CUDA_HOME=/usr/local/cuda", "ROCM_PATH=/opt/rocm").replace(
            "torchaudio==2.3.1+cu121", "torchaudio==2.3.1+rocm6.0").replace(
            "torchvision==0.18.1+cu121", "torchvision==0.18.1+rocm6.0")
        assert codes(result) == [("PY022", 5), ("PY040", 4), ("PY041", 3), ("PY041", 8), ("PY041", 13)]


def test_brackets_that_are_not_json_are_shell_form(tmp_path):
    # Docker runs `CMD ['a']` (not JSON) with the shell; the grammar failed on it
    text = ("FROM python:3.11\nCMD ['serve'] || pip install torch==2.3.1+cu121\n"
            'RUN ["sh", "-c", \\\n  "pip install torch==2.3.1+cu121"]\n')
    result = analyse(tmp_path, text)
    assert result.new.decode() == text.replace("+cu121", "+rocm6.0")
    assert codes(result) == [("PY041", 2), ("PY041", 4)]
