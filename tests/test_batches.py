"""Batches of snippets (tests/batches.py) give each snippet the verdict it gets compiled alone: a clash with a header's
name, a macro of an earlier snippet, a `::name` of its own and an error of its own all come out as alone."""
from __future__ import annotations

import pytest

from migrate import toolchain
from tests import batches

HEAD = "#include <hip/hip_runtime.h>\n"
SNIPPETS = {
    "kernel": HEAD + "__global__ void k(float* p) { p[0] = 1; }\n",
    # HIP's headers declare min(int, int) for device code: alone this is a redefinition, in a namespace it is not
    "header-name": HEAD + "__device__ int min(int a, int b) { return a < b ? a : b; }\n",
    "defines": HEAD + "#define N 4\n__global__ void k2(float* p) { p[N] = 1; }\n",
    # N is the snippet before's: it must not reach this one
    "uses-macro": HEAD + "__global__ void k3(float* p) { p[N] = 1; }\n",
    "global-name": HEAD + "void f();\nvoid g() { ::f(); }\n",
    "own-error": HEAD + "void h() { undeclared_call(); }\n",
    "last": HEAD + "__global__ void k4(int* p) { p[threadIdx.x] = 2; }\n",
}


@pytest.mark.hipcc
def test_a_batch_gives_every_snippet_its_verdict_alone(hipcc64):
    compiles = []
    base = [hipcc64, "-x", "hip", "-std=c++17", "-ferror-limit=0"]

    def command(src, out):
        compiles.append(src.read_text().count(f"namespace {batches.NAMESPACE}") or 1)
        return [*base, "--offload-arch=gfx942", "-c", str(src), "-o", str(out)]

    compiler = batches.Compiler(command, ".hip", env=toolchain.amd_env(),
                                probe=lambda src: [*base, "--offload-arch=gfx942", "--cuda-host-only", "-fsyntax-only",
                                                   str(src)])
    snippets = [batches.Snippet(key, code) for key, code in SNIPPETS.items()]
    grouped, lone = batches.groups(snippets)
    assert [s.key for s in lone] == ["global-name"]
    verdicts = {}
    for group in grouped:
        for batch in batches.batches(compiler, group):
            verdicts.update(batches.resolve(compiler, batch))
    verdicts.update(batches.resolve(compiler, lone))
    failed = {key for key, error in verdicts.items() if error}
    assert failed == {"header-name", "uses-macro", "own-error"}
    assert "undeclared_call" in verdicts["own-error"] and "'N'" in verdicts["uses-macro"]
    alone = {key for key, code in SNIPPETS.items() if batches.alone(compiler, batches.Snippet(key, code))}
    assert alone == failed
    # the five without a clash or a `::name` went into one batch, which failed in two of them; the other three
    # passed as a batch of their own; the two others were compiled alone
    assert compiles[:4] == [5, 3, 1, 1]
