"""No rule introduces a wrong port: `torch.hip`, `HIPExtension`, a "hip"/"rocm" device string or the "rccl"
backend exist nowhere in PyTorch for ROCm. Checked on the fixed text of every Python and deployment rule's
examples, on their output through every rule of their file kind at once, and on the migrated corpus and sample."""
import re
from pathlib import Path

import pytest

from migrate import api
from migrate.contexts import CONTEXTS
from migrate.fixing import run_rules
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry
from migrate.rule import FileRule, Invalid
from migrate.filekinds import rule_kind

WRONG_PORT = re.compile(r"torch\.hip\b|HIPExtension|['\"](?:hip|rocm)(?::\d+)?['\"]|['\"]rccl['\"]")
REGISTRY = default_registry()
PY_KINDS = {"python", "requirements", "pyproject", "docker", "yaml", "shell"}
RULES = [r for r in REGISTRY.rules if issubclass(r, FileRule) and set(r.kinds()) & PY_KINDS]
EXAMPLES = [pytest.param(rule, ex, id=f"{rule.code}-{i}") for rule in RULES for i, ex in enumerate(rule.examples)
            if isinstance(ex, Invalid)]
ROOT = Path(__file__).resolve().parent.parent


def wrong(text: str) -> list[str]:
    return [line for line in text.splitlines() if WRONG_PORT.search(line)]


@pytest.mark.parametrize("rule, example", EXAMPLES)
def test_examples_fixed_text_has_no_wrong_port(rule, example):
    assert wrong(example.fixed or "") == [] or wrong(example.code) != [], "the fix introduced a wrong port"
    path = example.path or rule.example_path
    kind = rule_kind(path)
    options = Options(**dict(example.options)) if example.options else Options()
    packs = default_packs()
    out = run_rules(CONTEXTS[kind](path, example.code.encode(), options, packs, packs.newest),
                    [r() for r in REGISTRY.for_kind(kind)]).data.decode()
    assert wrong(out) == [], f"every {kind} rule together on {rule.code}'s example"


def test_migrated_corpus_and_sample_have_no_wrong_port():
    for tree in (ROOT / "tests" / "python_corpus" / "src", ROOT / "samples" / "pytorch_ddp" / "src"):
        for portable in (False, True):
            _, result = api.analyse(tree, Options(hip_version="6.2", portable=portable))
            left = {r.path: wrong(r.new.decode()) for r in result.files if r.new is not None and wrong(r.new.decode())}
            assert left == {}, (tree, portable)


def test_the_pattern_catches_wrong_ports():
    assert wrong('torch.hip.synchronize()\nx.to("hip:0")\nd = torch.device("rocm")\nb = "rccl"\n') == [
        "torch.hip.synchronize()", 'x.to("hip:0")', 'd = torch.device("rocm")', 'b = "rccl"']
    assert wrong('torch.cuda.synchronize()\nx.to("cuda:0")\nprint(torch.version.hip)\n') == []
