"""Samples are golden trees: samples/<name>/src migrates to exactly samples/<name>/expected (for HIP 5.2,
the HIP of Debian 12's hipcc), and every migrated translation unit compiles for gfx90a with hipcc."""
import difflib
import shutil
from pathlib import Path

import pytest

from migrate import api
from migrate.cpp import hipify_perl
from migrate.options import Options
from tests.compile import compile_unit, torch_extension_unit
from tests.helpers import golden_release, read_tree

SAMPLES = sorted(p.parent for p in (Path(__file__).resolve().parent.parent / "samples").glob("*/src"))


def options(sample: Path, **more) -> Options:
    """Each golden tree is migrated for its sample's release (tests/helpers.py: golden_release)."""
    return Options(hip_version=golden_release(sample), **more)


def uses_torch(sample: Path) -> bool:
    """A PyTorch extension unit in the sample: compiling it needs torch's headers (tests/compile.py)."""
    return any(torch_extension_unit(p) for p in (sample / "src").rglob("*.cpp"))


# the samples as compile checks: those with a PyTorch extension unit also need torch
COMPILED = [pytest.param(s, id=s.name, marks=[pytest.mark.torch] if uses_torch(s) else []) for s in SAMPLES]


def compiler(sample: Path, request) -> tuple[str, str]:
    """(hipcc, target) for the sample's release: Debian's HIP 5.2 for gfx90a, or HIP 6.4 for gfx942."""
    if golden_release(sample) == "5.2":
        return request.getfixturevalue("hipcc"), "gfx90a"
    return request.getfixturevalue("hipcc64"), "gfx942"


def migrated(sample: Path) -> dict[str, bytes]:
    _, result = api.analyse(sample / "src", options(sample))
    return {r.path: (r.new if r.new is not None else (sample / "src" / r.path).read_bytes()) for r in result.files}


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_golden(sample, update_golden):
    got = migrated(sample)
    expected_dir = sample / "expected"
    if update_golden:
        shutil.rmtree(expected_dir, ignore_errors=True)
        for rel, data in got.items():
            (expected_dir / rel).parent.mkdir(parents=True, exist_ok=True)
            (expected_dir / rel).write_bytes(data)
    expected = read_tree(expected_dir)
    assert sorted(got) == sorted(expected)
    for rel in got:
        if got[rel] != expected[rel]:
            diff = "".join(difflib.unified_diff(expected[rel].decode().splitlines(True), got[rel].decode().splitlines(True),
                                                f"expected/{rel}", f"got/{rel}"))
            pytest.fail(f"{sample.name}/{rel} differs from the golden tree (pytest --update-golden rewrites it):\n{diff}")


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_golden_is_idempotent(sample):
    _, result = api.analyse(sample / "expected", options(sample))
    assert [r.path for r in result.changed] == []


@pytest.mark.hipcc
@pytest.mark.parametrize("sample", COMPILED)
def test_golden_compiles_for_amd(sample, request, tmp_path):
    hipcc, target = compiler(sample, request)
    sources = sorted(p for p in (sample / "expected").rglob("*") if p.suffix in (".cu", ".cpp", ".hip"))
    assert sources
    for source in sources:
        proc = compile_unit(hipcc, source, [source.parent], tmp_path, target)
        assert proc.returncode == 0, f"{source}:\n{proc.stderr[-4000:]}"


@pytest.mark.hipcc
@pytest.mark.parametrize("sample", COMPILED)
def test_hipify_perl_engine_with_the_same_post_rules_builds_for_amd(sample, hipify, request, tmp_path):
    """hipify-perl translates, then the same C++ rules run: the HIP 5.2 fallbacks make its output build
    with Debian 12's hipcc, which hipify-perl's own output (with __shfl_down_sync) would not."""
    hipcc, target = compiler(sample, request)
    out = tmp_path / "out"
    _, result = api.analyse(sample / "src", options(sample, engine="hipify-perl"))
    assert result.engine.name == "hipify-perl" and result.engine.version.startswith(("6.", "7."))
    for r in result.files:
        (out / r.path).parent.mkdir(parents=True, exist_ok=True)
        (out / r.path).write_bytes(r.new if r.new is not None else (sample / "src" / r.path).read_bytes())
    codes = {f.code for f in result.findings}
    assert "MAP001" in codes  # runtime conversions, counted from hipify-perl's own renames
    for source in sorted(p for p in out.rglob("*") if p.suffix in (".cu", ".cpp")):
        text = source.read_text()
        assert "cuda_runtime.h" not in text and "_sync(" not in text
        proc = compile_unit(hipcc, source, [source.parent], tmp_path, target)
        assert proc.returncode == 0, f"{source}:\n{proc.stderr[-4000:]}"


def test_hipify_perl_in_several_processes_translates_and_reports_as_one(hipify):
    """--jobs N splits the files over N hipify-perl processes of about the same size in bytes: the translation,
    the warnings and the per-file conversion counts are those of one process over all the files."""
    files = {f"{s.name}/{p.relative_to(s / 'src').as_posix()}": p.read_bytes()
             for s in SAMPLES for p in sorted((s / "src").rglob("*")) if p.suffix in (".cu", ".cuh", ".cpp", ".h")}
    assert hipify_perl.groups({"a": b"x" * 10, "b": b"x" * 5, "c": b"x" * 5, "d": b"x"}, 2) == [["a", "d"], ["b", "c"]]
    assert hipify_perl.groups(files, 64) == [[rel] for rel in sorted(files)]
    tool = hipify_perl.find()
    one = hipify_perl.run(tool, files, jobs=1)
    three = hipify_perl.run(tool, files, jobs=3)
    assert len(files) >= 8 and one.data == three.data and one.converted == three.converted
    assert one.findings == three.findings and any(one.findings.values())
    assert any(one.data[rel] != files[rel] for rel in files)


def test_hipify_perl_engine_findings_are_on_the_source_lines(hipify, tmp_path):
    """hipify-perl adds an include line at the top of a file with kernels; the post-rules run on its output, and
    their findings are put back on the source's lines, where the engine's own warnings and the conversions are."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_text("#include <cuda_runtime.h>\n__global__ void k() {}\nvoid f(cudaStream_t s, cudaEvent_t e) {\n"
                              "    cudaStreamWaitEvent(s, e);\n}\n")
    _, result = api.analyse(src, Options(hip_version="5.2", engine="hipify-perl"))
    (r,) = result.files
    assert r.new.decode().splitlines()[-2] == "    hipStreamWaitEvent(s, e, 0);"
    assert [(f.code, f.span.line, f.span.column) for f in r.findings if f.code in ("CPP015", "MAP001")] == [
        ("MAP001", 3, 8), ("MAP001", 3, 24), ("MAP001", 4, 5), ("CPP015", 4, 5)]
