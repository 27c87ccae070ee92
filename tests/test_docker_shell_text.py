"""Dockerfile shell text (migrate/deploy/docker_shell.py): the command string of exec form, JSON strings decoded
byte for byte, every rule's exec-form fix still JSON and shell, and bytes that are not UTF-8 before a `RUN`."""
from __future__ import annotations

import pytest

from migrate import api
from migrate.deploy.context import parse
from migrate.options import Options

@pytest.mark.parametrize(("words", "index"), [
    (["/bin/sh", "-c", "x"], 2), (["bash", "-lc", "x"], 2), (["bash", "-o", "pipefail", "-c", "x"], 4),
    (["bash", "-eo", "pipefail", "-c", "x", "--"], 4), (["/usr/bin/env", "bash", "-c", "x"], 3),
    (["env", "A=1", "sh", "-c", "x"], 4), (["bash", "--login", "-c", "x"], 3), (["bash", "-c"], None),
    (["sh", "script.sh"], None), (["python", "-c", "x"], None), (["bash", "+c", "x"], None), ([], None)])
def test_exec_form_command_string(words, index):
    from migrate.deploy.docker_shell import command_string
    assert command_string(words) == index


def test_json_string_decoding_maps_each_byte():
    from migrate.deploy.docker_shell import decode_json_string
    raw = b'a\\"\\u00e9\\ud83d\\ude00\\\\b'
    text, sources = decode_json_string(raw, 0, len(raw))
    assert text.decode() == 'a"\u00e9\U0001F600\\b'
    assert sources == (0, 1, 3, 3, 9, 9, 9, 9, 21, 23, 24)
    assert decode_json_string(b"\\x", 0, 2) is None and decode_json_string(b"\\ud800", 0, 6) is None


def _exec_form_fixes():
    from migrate.registry import default_registry
    from migrate.rule import Invalid
    for rule in default_registry().rules:
        for example in rule.examples:
            path = example.path or getattr(rule, "example_path", "")
            if isinstance(example, Invalid) and example.fixed and path == "Dockerfile" and '["' in example.fixed:
                yield pytest.param(example, id=f"{rule.code}-{rule.examples.index(example)}")


@pytest.mark.parametrize("example", list(_exec_form_fixes()))
def test_exec_form_fixes_stay_json_and_shell(example):
    """Every rule example that edits inside an exec-form string leaves valid JSON whose shell string parses."""
    import json

    from migrate.deploy.docker_shell import command_string
    for before, after in zip(example.code.splitlines(), example.fixed.splitlines()):
        instruction, _, rest = after.partition(" ")
        if instruction == "HEALTHCHECK":
            rest = rest.partition(" ")[2]
        if before == after or not rest.startswith("["):
            continue
        words = json.loads(rest)
        index = command_string(words)
        assert index is not None, after
        assert not parse("shell", words[index].encode()).root_node.has_error, after


def test_bytes_that_are_not_utf8_do_not_shift_the_docker_run_fix(tmp_path):
    """Found by benchmarks/fuzz.py: bytes that are not UTF-8 in a `docker run` line before `--gpus all` counted as
    three bytes each, so the fix landed inside --ipc (`--i--device=...`), further each run."""
    script = (b"#!/bin/sh\ndocker run -e TAG=\x9a\x86\x87\xb6\xab\xff\xfe --gpus all --ipc=host -v \"$PWD\":/ws img \\\n"
              b"    python train.py\n")
    (tmp_path / "train.sh").write_bytes(script)
    _, result = api.analyse(tmp_path, Options(hip_version="7.0"))
    new = result.files[0].new
    assert new == script.replace(b"--gpus all", b"--device=/dev/kfd --device=/dev/dri --group-add video")
    (tmp_path / "train.sh").write_bytes(new)
    _, again = api.analyse(tmp_path, Options(hip_version="7.0"))
    assert again.files[0].new in (None, new)
