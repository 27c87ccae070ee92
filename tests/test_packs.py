"""The mapping packs: schema validation, one generated Valid and Invalid case per row, and the HIP
runtime names checked against the installed HIP headers."""
import importlib.util
import re
import sys
from pathlib import Path

import pytest

from migrate.cpp_engine import translate
from migrate.options import Options
from migrate.packs import PackError, default_packs, load_packs, rules_root, version_tuple
from migrate.registry import default_registry
from migrate.testing import row_snippet

PACKS = default_packs()
FAMILIES = sorted(PACKS.families)


@pytest.fixture(scope="module")
def rename_rule():
    return [r() for r in default_registry().cpp() if r.code == "MAP000"]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_row_renames_in_code_and_nowhere_else(family, rename_rule):
    failures = []
    rows = [m for m in PACKS.names.values() if m.family == family]
    for m in rows:
        snippet = row_snippet(m, m.cuda)
        got = translate("row.cu", snippet.encode(), Options(), PACKS, PACKS.newest, rename_rule)
        want = row_snippet(m, m.hip) if m.hip != m.cuda else snippet
        if got.data.decode() != want:
            failures.append(f"{m.cuda}: {got.data.decode()!r} != {want!r}")
        elif m.hip != m.cuda and [f.code for f in got.findings] != [m.code]:
            failures.append(f"{m.cuda}: findings {[f.code for f in got.findings]}")
        untouched = f'const char* s = "{m.cuda}"; // {m.cuda}\nint my_{m.cuda} = 0;\n'
        if translate("row.cu", untouched.encode(), Options(), PACKS, PACKS.newest, rename_rule).findings:
            failures.append(f"{m.cuda}: renamed inside a string, a comment or a longer name")
    assert not failures, f"{len(failures)} of {len(rows)} rows fail:\n" + "\n".join(failures[:30])


def test_packs_cover_the_families_of_the_issue():
    assert {"runtime", "driver", "device", "fp16", "cooperative_groups", "cublas", "curand", "cufft", "cusparse",
            "cusolver", "nccl", "cub", "thrust"} <= set(PACKS.families)
    counts = {fam: sum(1 for m in PACKS.names.values() if m.family == fam) for fam in FAMILIES}
    assert counts["runtime"] > 300 and counts["cublas"] > 200 and counts["driver"] > 100, counts


def test_some_well_known_rows():
    names, headers = PACKS.names, PACKS.headers
    assert names["cudaMalloc"].hip == "hipMalloc" and names["cudaMalloc"].family == "runtime"
    assert names["cublasSgemm"].hip == "hipblasSgemm" and names["CUBLAS_OP_N"].hip == "HIPBLAS_OP_N"
    assert names["curandCreateGenerator"].hip == "hiprandCreateGenerator"
    assert names["__shfl_down_sync"].older == "__shfl_down" and names["__shfl_down_sync"].older_drop_arg == 0
    assert headers["cuda_runtime.h"].hip == "hip/hip_runtime.h"


def test_bfloat16_rows_follow_the_target():
    """HIP >= 5.7: hip/hip_bf16.h, __hip_bfloat16 and CUDA's intrinsic names; older: hip_bfloat16."""
    names, headers, unsupported = PACKS.names, PACKS.headers, PACKS.unsupported
    bf16 = headers["cuda_bf16.h"]
    assert (bf16.hip, bf16.since, bf16.older) == ("hip/hip_bf16.h", "5.7", "hip/hip_bfloat16.h")
    assert (bf16.hip_for((5, 2)), bf16.hip_for((5, 7)), bf16.hip_for((6, 2))) == (
        "hip/hip_bfloat16.h", "hip/hip_bf16.h", "hip/hip_bf16.h")
    for cuda in ("__nv_bfloat16", "nv_bfloat16"):
        assert (names[cuda].hip, names[cuda].since, names[cuda].older) == ("__hip_bfloat16", "5.7", "hip_bfloat16")
    for cuda in ("__nv_bfloat162", "nv_bfloat162"):
        assert (names[cuda].hip, names[cuda].since, names[cuda].older) == ("__hip_bfloat162", "5.7", "")
    assert names["__nv_bfloat16_raw"].hip == "__hip_bfloat16_raw" and names["__nv_bfloat16_raw"].since == "6.4"
    # intrinsics HIP's amd_hip_bf16.h declares keep their name; a name HIP 5.2 had for __half keeps 5.2
    for cuda, since in (("__float2bfloat16", "5.7"), ("__bfloat162float", "5.7"), ("__float22bfloat162_rn", "5.7"),
                        ("__low2bfloat16", "5.7"), ("__hmax", "5.7"), ("__hmul", "5.2"), ("__hadd2", "5.2")):
        assert (names[cuda].hip, names[cuda].since) == (cuda, since), cuda
        assert names[cuda].newer_than((5, 2)) == (since != "5.2") and not names[cuda].newer_than((5, 7))
    # ... and those it lacks stay unsupported
    assert {"__float2bfloat16_rn", "__floats2bfloat162_rn", "make_bfloat162", "__hfma_relu"} <= set(unsupported)
    assert not {"__float2bfloat16", "__nv_bfloat162", "nv_bfloat162"} & set(unsupported)


def declared_names(include_dir: Path) -> set[str]:
    """Identifiers in the HIP headers used on the AMD platform (the nvidia_* headers are left out)."""
    names: set[str] = set()
    for path in include_dir.rglob("*"):
        if "nvidia" in path.relative_to(include_dir).as_posix():
            continue
        if path.is_file() and path.suffix in (".h", ".hpp", ".inl", ""):
            names.update(re.findall(r"[A-Za-z_]\w*", path.read_text(errors="replace")))
    return names


@pytest.mark.hipcc
@pytest.mark.parametrize("which", ["hipcc", "hipcc64", "hipcc72"])
def test_runtime_names_against_installed_hip_headers(request, which):
    """A runtime row whose `since` is at or below an installed HIP (Debian's 5.2, 6.4 and 7.2 in their roots) must name
    something its headers declare; one the headers declare must not claim a newer `since`."""
    from migrate import toolchain

    tc = toolchain.choose(hipcc=request.getfixturevalue(which))
    installed = tc.short_version
    assert installed, "hipconfig --version gave no version"
    include = Path("/usr/include/hip") if tc.enter is None else Path(tc.enter).parent.parent / "root/usr/include/hip"
    declared = declared_names(include)
    rows = [m for m in PACKS.names.values() if m.family == "runtime"]
    missing = [m.hip for m in rows if version_tuple(m.since) <= version_tuple(installed) and m.hip not in declared]
    too_new = [m.hip for m in rows if version_tuple(m.since) > version_tuple(installed) and m.hip in declared]
    assert missing == [], f"claimed in HIP <= {installed} but not declared in {include}: {missing[:20]}"
    assert too_new == [], f"declared in HIP {installed} but marked newer: {too_new[:20]}"


@pytest.mark.parametrize(("text", "message"), [
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[names]\ncudaX = { hip = "hipX", kind = "function" }\n',
     "[names] cudaX: missing since"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[names]\ncudaX = { hip = "hipX", kind = "verb", since = "5.0" }\n',
     "[names] cudaX: kind must be one of"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[names]\ncudaX = { hip = "hipX", kind = "type", since = "5" }\n',
     "[names] cudaX: since must look like 6.2"),
    ('[pack]\nfamily = "x"\ncode = "M1"\n', "[pack] code must look like MAP001"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\ninspected_from = "five"\n', "[pack] inspected_from must look like 5.2"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[names]\ncudaX = { hip = "hipX", kind = "type", since = "5.0", colour = "red" }\n',
     "[names] cudaX: unknown key 'colour'"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[stuff]\n', "unknown table(s) stuff"),
    ('[pack\n', "cannot read mapping pack"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[headers]\n"a.h" = { hip = "b.h", since = "5" }\n',
     "[headers] a.h: since must look like 6.2"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[headers]\n"a.h" = { hip = "b.h", older = "c.h" }\n',
     "[headers] a.h: older needs since"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[headers]\n"a.h" = { hip = "b.h", since = "5.7", older = "" }\n',
     "[headers] a.h: older must name a header"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[headers]\n"a.h" = { hip = "b.h", since = 5.7 }\n',
     "[headers] a.h: 'since' must be str"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[headers]\n"a.h" = { hip = "b.h", kind = "type" }\n',
     "[headers] a.h: unknown key 'kind'"),
    ('[pack]\nfamily = "x"\ncode = "MAP099"\n[headers]\n"a.h" = { since = "5.7" }\n', "[headers] a.h: missing hip"),
])
def test_bad_packs_are_refused_with_the_file_named(tmp_path, text, message):
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises(PackError) as err:
        load_packs(tmp_path)
    assert str(tmp_path / "bad.toml") in str(err.value) and message in str(err.value)


def test_a_since_at_the_oldest_release_inspected_is_not_called_newer(tmp_path):
    """since <= inspected_from: the name was in the oldest release inspected and may be older still."""
    (tmp_path / "lib.toml").write_text('[pack]\nfamily = "lib"\ncode = "MAP090"\ninspected_from = "5.5"\n[names]\n'
                                       'cuA = { hip = "hipA", kind = "function", since = "5.5" }\n'
                                       'cuB = { hip = "hipB", kind = "function", since = "6.4" }\n')
    packs = load_packs(tmp_path)
    a, b = packs.names["cuA"], packs.names["cuB"]
    assert (a.since_is_floor, b.since_is_floor) == (True, False)
    assert (a.newer_than((5, 2)), b.newer_than((5, 2)), b.newer_than((6, 4))) == (False, True, False)


def test_header_rows_with_since_and_older(tmp_path):
    """A header row's `since` and `older` work as a name's: the older header below `since`, never when `since`
    is only the oldest release inspected; a too-new header without `older` is renamed with a warning."""
    (tmp_path / "lib.toml").write_text(
        '[pack]\nfamily = "lib"\ncode = "MAP090"\ninspected_from = "5.2"\n[headers]\n'
        '"new.h" = { hip = "hip/new.h", since = "5.7", older = "hip/old.h" }\n'
        '"floor.h" = { hip = "hip/floor.h", since = "5.2", older = "hip/never.h" }\n'
        '"bare.h" = { hip = "hip/bare.h", since = "6.4" }\n'
        '"plain.h" = { hip = "hip/plain.h" }\n')
    packs = load_packs(tmp_path)
    new, floor, bare, plain = (packs.headers[h] for h in ("new.h", "floor.h", "bare.h", "plain.h"))
    assert (new.since_is_floor, floor.since_is_floor) == (False, True)
    assert (new.hip_for((5, 2)), new.hip_for((5, 7)), floor.hip_for((5, 0))) == ("hip/old.h", "hip/new.h", "hip/floor.h")
    assert (bare.newer_than((6, 2)), bare.hip_for((6, 2)), plain.newer_than((5, 0))) == (True, "hip/bare.h", False)
    assert packs.newest == "6.4"
    rule = [r() for r in default_registry().cpp() if r.code == "CPP001"]
    source = b"#include <new.h>\n#include <bare.h>\n#include <plain.h>\n"
    got = translate("h.cu", source, Options(), packs, "5.2", rule)
    assert got.data.decode() == "#include <hip/old.h>\n#include <hip/bare.h>\n#include <hip/plain.h>\n"
    assert [(f.severity.label, f.message) for f in got.findings] == [
        ("info", "<new.h> is <hip/old.h> in HIP before 5.7 (target 5.2); <hip/new.h> from 5.7"),
        ("warning", "<bare.h> is <hip/bare.h> in HIP, which needs HIP 6.4 (target 5.2): build with a newer HIP or "
                    "pass --hip-version 6.4"),
        ("info", "<plain.h> is <hip/plain.h> in HIP")]
    assert translate("h.cu", source, Options(), packs, "6.4", rule).data.decode() == (
        "#include <hip/new.h>\n#include <hip/bare.h>\n#include <hip/plain.h>\n")


def test_gen_packs_finds_the_bf16_functions_hip_declares(tmp_path, monkeypatch):
    """scripts/gen_packs.py: a function of cuda_bf16.h/.hpp that amd_hip_bf16.h declares (not merely calls)
    under the same name, with the first release that declares it; an `operator*=` body does not hide what
    follows it."""
    spec = importlib.util.spec_from_file_location("gen_packs", Path(__file__).resolve().parent.parent / "scripts" / "gen_packs.py")
    gen_packs = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "gen_packs", gen_packs)  # its dataclasses look their module up
    spec.loader.exec_module(gen_packs)
    cuda = tmp_path / "cuda"
    cuda.mkdir()
    (cuda / "cuda_bf16.h").write_text("#define __H__ __host__ __device__\n"
                                      "__H__ __nv_bfloat16 __float2bfloat16(const float a);\n"
                                      "__H__ __nv_bfloat16 __hmax_nan(const __nv_bfloat16 a, const __nv_bfloat16 b);\n")
    (cuda / "cuda_bf16.hpp").write_text("__H__ __nv_bfloat16 __hmax(const __nv_bfloat16 a, const __nv_bfloat16 b) { return a; }\n"
                                        "__H__ float __bfloat162float(const __nv_bfloat16 a) { return 0.0f; }\n")
    sets = []
    for release, body in (("5.2", ""),
                          ("5.7", "__HD__ inline float __bfloat162float(__hip_bfloat16 a) { return __hmax_nan(a); }\n"),
                          ("6.4", "__HD__ __hip_bfloat16& operator*=(__hip_bfloat16& l, const __hip_bfloat16& r) "
                                  "{ l = l; return l; }\n__HD__ __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) "
                                  "{ return a; }\n__HD__ inline float __bfloat162float(__hip_bfloat16 a) { return 0; }\n")):
        root = tmp_path / release
        if body:
            header = root / gen_packs.HIP_BF16_HEADER
            header.parent.mkdir(parents=True)
            header.write_text("#define __HD__ __host__ __device__\n// __float2bfloat16 only in a comment\n" + body)
        sets.append(gen_packs.HeaderSet("s", "libamdhip64-dev", release, release, root))
    assert gen_packs.bf16_functions_hip_shares(cuda, sets, set()) == {"__bfloat162float": "5.7", "__hmax": "6.4"}

    # a header row is dated when its HIP header comes after the family's oldest release inspected
    (tmp_path / "5.7" / "hip" / "hip_math_constants.h").write_text("#define HIP_PI_F 3.14f\n")
    (tmp_path / "6.4" / "hip").mkdir(parents=True, exist_ok=True)
    (tmp_path / "6.4" / "hip" / "hip_math_constants.h").write_text("#define HIP_PI_F 3.14f\n")
    (tmp_path / "6.4" / "hip" / "hip_bfloat16.h").write_text("struct hip_bfloat16 {};\n")
    (tmp_path / "5.2" / "hip").mkdir(parents=True)
    (tmp_path / "5.2" / "hip" / "hip_bfloat16.h").write_text("struct hip_bfloat16 {};\n")
    assert gen_packs.header_row_since(sets, "device", "hip/hip_math_constants.h") == "5.7"
    assert gen_packs.header_row_since(sets, "fp16", "hip/hip_bfloat16.h") == ""  # already in the oldest
    assert gen_packs.header_row_since(sets, "device", "hip/none.h") == ""
    hipblas = [gen_packs.HeaderSet("s", "libhipblas-dev", r, r, tmp_path / "blas" / r) for r in ("5.5", "6.4")]
    for r in ("5.5", "6.4"):
        (tmp_path / "blas" / r / "hipblas").mkdir(parents=True)
        (tmp_path / "blas" / r / "hipblas" / "hipblas.h").write_text("#define HIPBLAS_H\n")
    assert gen_packs.header_row_since(sets + hipblas, "cublas", "hipblas/hipblas.h") == ""  # its floor is 5.5

    row = '[names]\ncudaX = { hip = "hipX", kind = "type", since = "5.0" }\n'
    (tmp_path / "a.toml").write_text('[pack]\nfamily = "a"\ncode = "MAP091"\n' + row)
    (tmp_path / "b.toml").write_text('[pack]\nfamily = "b"\ncode = "MAP092"\n' + row)
    with pytest.raises(PackError, match="'cudaX' is already mapped by"):
        load_packs(tmp_path)


def test_the_shipped_packs_are_all_loaded():
    shipped = {p.stem for p in (rules_root() / "mappings").glob("*.toml")} - {"overrides"}
    assert len(shipped) == len(PACKS.families)


def test_names_cuda_13_dropped_are_still_mapped():
    """cudaThreadSynchronize and cudaThreadExit left CUDA 13's headers; old code still calls them."""
    names = PACKS.names
    assert (names["cudaThreadSynchronize"].hip, names["cudaThreadExit"].hip) == ("hipDeviceSynchronize",
                                                                                 "hipDeviceReset")


def test_the_shipped_packs_know_hip_7_1_and_7_2():
    """Generated with experimental's HIP 7.2.4 headers and hipify-perl 7.2.4, and probed against the HIP 7.2 root."""
    assert PACKS.releases[-3:] == ("7.0", "7.1", "7.2") and PACKS.newest == "7.2"
    assert PACKS.check_release("7.2") is None and PACKS.check_release("7.1") is None
    assert PACKS.check_release("7.3") == ("the mapping packs know HIP 5.2 to 7.2 (5.2, 5.3, 5.4, 5.5, 5.7, 6.1, 6.4, "
                                          "7.0, 7.1, 7.2); give one of those or a release between them")
    batch, library = PACKS.names["cudaMemcpyBatchAsync"], PACKS.names["cudaLibraryLoadData"]
    assert (batch.hip, batch.since, batch.lacking) == ("hipMemcpyBatchAsync", "7.2", "6.4")
    assert (library.hip, library.since) == ("hipLibraryLoadData", "7.2")


HIPBLAS_V2_SOURCE = (b"#include <cublas_v2.h>\nvoid f(cublasHandle_t h, int n, const cuComplex* a, const cuComplex* x, "
                     b"cuComplex* y) { cublasCaxpy(h, n, a, x, 1, y, 1); }\n")


def test_hipblas_3_dropped_the_v2_suffix_so_7_x_writes_the_plain_name():
    """hipBLAS 3.0 (ROCm 7.0) renamed hipblasCaxpy_v2 to hipblasCaxpy: every `_v2` row has the plain name from 7.0
    and the `_v2` one before (overrides.toml, [cublas.renamed])."""
    v2 = [m for m in PACKS.names.values() if m.older.endswith("_v2")]
    assert len(v2) == 209 and {(m.family, m.since, m.older_since) for m in v2} == {("cublas", "7.0", "6.4")}
    assert not [m for m in PACKS.names.values() if m.hip.endswith("_v2") and m.family == "cublas"]
    rules = [r() for r in default_registry().cpp()]
    new, old = (translate("a.cu", HIPBLAS_V2_SOURCE, Options(), PACKS, t, rules) for t in ("7.2", "6.4"))
    assert b"{ hipblasCaxpy(h, n, a, x, 1, y, 1); }" in new.data and b"hipblasCaxpy_v2(h" in old.data
    assert [f.message for f in old.findings if f.code == "CPP005"] == [
        "hipblasCaxpy needs HIP 7.0 (target 6.4): hipblasCaxpy_v2 used instead"]
    assert [f.code for f in new.findings if f.code == "CPP005"] == []
    oldest = translate("a.cu", HIPBLAS_V2_SOURCE, Options(), PACKS, "5.2", rules)
    assert [(f.severity.label, f.message) for f in oldest.findings if f.code == "CPP005"] == [
        ("warning", "hipblasCaxpy needs HIP 7.0 (target 5.2), and hipblasCaxpy_v2, used instead, HIP 6.4: build with a "
                    "newer HIP or pass --hip-version 6.4")]


def test_run_migrates_a_sample_for_hip_7_2(tmp_path):
    from click.testing import CliRunner

    from migrate.cli import main

    sample = Path(__file__).resolve().parent.parent / "samples" / "saxpy_streams" / "src"
    result = CliRunner().invoke(main, ["run", str(sample), "--out", str(tmp_path / "out"), "--hip-version", "7.2"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == [
        "hipmigrate run: 2 files, 2 migrated, 0 skipped; engine builtin 0.1.0; target HIP 7.2",
        "no blockers: nothing found that stops a build for HIP 7.2 (`hipmigrate build` compiles it to be sure)"]
    assert "--offload-arch=gfx942" in (tmp_path / "out" / "Makefile").read_text()


@pytest.mark.parametrize(("row", "message"), [
    ('{ hip = "hipX", kind = "function", since = "7.0", older_since = "6.4" }', "older_since needs older"),
    ('{ hip = "hipX", kind = "function", since = "7.0", older = "hipX_v2", older_since = "7.1" }', "before since"),
])
def test_older_since_needs_older_and_an_earlier_release(tmp_path, row, message):
    (tmp_path / "x.toml").write_text(f'[pack]\nfamily = "x"\ncode = "MAP099"\n[names]\ncuX = {row}\n')
    with pytest.raises(PackError, match=message):
        load_packs(tmp_path)


def test_gen_packs_finds_enumerators_of_the_same_value(tmp_path, monkeypatch):
    """scripts/gen_packs.py: enumerators of one enum with the same value, written as the number twice or as the other
    name (CUDA's deprecated CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED beside
    CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED), are each other's twins; another enum's are not."""
    spec = importlib.util.spec_from_file_location("gen_packs", Path(__file__).resolve().parent.parent / "scripts" / "gen_packs.py")
    gen_packs = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "gen_packs", gen_packs)
    spec.loader.exec_module(gen_packs)
    cuda = tmp_path / "cuda"
    cuda.mkdir()
    (cuda / "cuda.h").write_text("typedef enum CUdevice_attribute_enum {\n"
                                 "    CU_DEVICE_ATTRIBUTE_A = 101,\n"
                                 "    CU_DEVICE_ATTRIBUTE_OLD = 0x66, /**< Deprecated */\n"
                                 "    CU_DEVICE_ATTRIBUTE_NEW = 102,\n"
                                 "    CU_DEVICE_ATTRIBUTE_ALIAS = CU_DEVICE_ATTRIBUTE_NEW,\n"
                                 "} CUdevice_attribute;\n"
                                 "enum CUother { CU_OTHER = 102 };\n")
    names, _, _, _ = gen_packs.scan_cuda(cuda, [])
    assert names["CU_DEVICE_ATTRIBUTE_OLD"].twins == ("CU_DEVICE_ATTRIBUTE_NEW", "CU_DEVICE_ATTRIBUTE_ALIAS")
    assert names["CU_DEVICE_ATTRIBUTE_ALIAS"].twins == ("CU_DEVICE_ATTRIBUTE_OLD", "CU_DEVICE_ATTRIBUTE_NEW")
    assert names["CU_DEVICE_ATTRIBUTE_A"].twins == () and names["CU_OTHER"].twins == ()
