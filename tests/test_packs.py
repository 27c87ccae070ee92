"""The mapping packs: schema validation, one generated Valid and Invalid case per row, and the HIP
runtime names checked against the installed HIP headers."""
import re
from pathlib import Path

import pytest

from migrate.cpp.engine import translate
from migrate.options import Options
from migrate.packs import PackError, default_packs, load_packs, rules_root, version_tuple
from migrate.registry import default_registry
from migrate.testing import row_snippet
from migrate.toolchain import installed_hip_version

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


def declared_names(include_dir: Path) -> set[str]:
    """Identifiers in the HIP headers used on the AMD platform (the nvidia_* headers are left out)."""
    names: set[str] = set()
    for path in include_dir.rglob("*"):
        if "nvidia" in path.relative_to(include_dir).as_posix():
            continue
        if path.is_file() and path.suffix in (".h", ".hpp", ".inl", ""):
            names.update(re.findall(r"[A-Za-z_]\w*", path.read_text(errors="replace")))
    return names


def test_runtime_names_against_installed_hip_headers(hipcc):
    """A runtime row whose `since` is at or below the installed HIP must name something its headers declare;
    one the headers declare must not claim a newer `since`."""
    installed = installed_hip_version()
    assert installed, "hipconfig --version gave no version"
    declared = declared_names(Path("/usr/include/hip"))
    rows = [m for m in PACKS.names.values() if m.family == "runtime"]
    missing = [m.hip for m in rows if version_tuple(m.since) <= version_tuple(installed) and m.hip not in declared]
    too_new = [m.hip for m in rows if version_tuple(m.since) > version_tuple(installed) and m.hip in declared]
    assert missing == [], f"claimed in HIP <= {installed} but not declared in /usr/include/hip: {missing[:20]}"
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


def test_a_name_in_two_packs_is_refused(tmp_path):
    row = '[names]\ncudaX = { hip = "hipX", kind = "type", since = "5.0" }\n'
    (tmp_path / "a.toml").write_text('[pack]\nfamily = "a"\ncode = "MAP091"\n' + row)
    (tmp_path / "b.toml").write_text('[pack]\nfamily = "b"\ncode = "MAP092"\n' + row)
    with pytest.raises(PackError, match="'cudaX' is already mapped by"):
        load_packs(tmp_path)


def test_the_shipped_packs_are_all_loaded():
    shipped = {p.stem for p in (rules_root() / "mappings").glob("*.toml")} - {"overrides"}
    assert len(shipped) == len(PACKS.families)
