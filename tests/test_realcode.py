"""The real-code harness's pure parts (benchmarks/realcode_*.py): the failure classifier, the first-error reader,
the manifest's shape and its globs, and the blocker prediction. No network, no fetched code, no compiler."""
import subprocess

import pytest

from benchmarks.realcode_classify import classify, environment
from benchmarks.realcode_compile import first_error
from benchmarks.realcode_fetch import extract
from benchmarks.realcode_manifest import ManifestError, glob_regex, load, project_of, units_in
from benchmarks.realcode_perl import excluded
from benchmarks.realcode_predict import blockers_of, predict


@pytest.mark.parametrize("message, cause", [
    ("'cuda/barrier' file not found", "file not found: cuda/* (libcu++)"),
    ('cannot open source file "cuda/std/atomic"', "file not found: cuda/* (libcu++)"),
    ("'mma.h' file not found", "file not found: mma.h"),
    ("device-side kernel call/launch is not supported", "dynamic parallelism: a kernel launched from device code"),
    ("use of undeclared identifier '__fadd_rd'", "undeclared identifier __fadd_rd"),
    ('identifier "__fadd_rd" is undefined', "undeclared identifier __fadd_rd"),
    ("use of undeclared identifier 'std::isfinite'", "undeclared identifier std::isfinite"),
    ("no matching function for call to 'atomicAdd'", "no matching function atomicAdd"),
    ("no matching function for call to 'max<float>'", "no matching function max"),
    ("call to 'min' is ambiguous", "ambiguous call min"),
    ("redefinition of '_cudaGetErrorEnum'", "redefinition _cudaGetErrorEnum"),
    ("invalid output constraint '=l' in asm", "inline asm: invalid constraint '=l'"),
    ("no member named 'block_tile_memory' in namespace 'cooperative_groups'",
     "no block_tile_memory in cooperative_groups"),
    ("no member named 'x' in 'struct Foo<int, 4>'", "no x in Foo"),
    ("unknown type name 'cudaTextureObject_t'", "unknown type cudaTextureObject_t"),
    ("array subscript is not an integer", "array subscript is not an integer"),
    ("cannot initialize a parameter of type 'void **' with an rvalue of type 'int **'", "conversion int -> void"),
    ("'tex2D<float>' is unavailable: The image/texture API not supported on the device",
     "textures: no image API on the target"),
    ("'__hadd2' is unavailable: not on this target", "unavailable: __hadd2"),
    ('"GLM requires CUDA 7.0 or higher"', "#error: GLM requires CUDA 7.0 or higher"),
    ("expected ';' after expression", "syntax: expected ';' after expression"),
    ("invalid operands to binary expression ('hipTextureObject_t' (aka '__hip_texture *') and 'unsigned int')",
     "invalid operands hipTextureObject_t, unsigned int"),
    ("invalid instruction", "inline asm: not AMD assembly"),
    ("reference to __global__ function 'cdp_kernel' in __global__ function",
     "dynamic parallelism: a kernel launched from device code"),
    ("variable has incomplete type 'void'", "incomplete type void"),
    ("use of overloaded operator '/' is ambiguous (with operand types 'float2' and 'int')", "ambiguous operator /"),
    ("something 'odd' at 42 places", "other: something '_' at N places"),
    (None, "no error message"),
])
def test_causes(message, cause):
    assert classify(message) == cause


def test_error_directive_named_from_its_line():
    assert classify("needs CUDA 11", "#  error needs CUDA 11\n") == "#error: needs CUDA 11"
    assert classify("needs CUDA 11", "int x;\n") == "other: needs CUDA N"


def test_assembler_errors_by_their_place():
    assert classify("unexpected token at start of statement", None, "<inline asm>") == "inline asm: not AMD assembly"


def test_environment_headers():
    assert environment("file not found: GL/glew.h")
    assert environment("file not found: mpi.h")
    assert environment("file not found: EGL/egl.h")
    assert environment("file not found: internal/accessors.hpp")  # Debian's rocWMMA 7.2.4 package lacks them
    assert not environment("file not found: cuda/* (libcu++)")
    assert not environment("undeclared identifier GL")


@pytest.mark.parametrize("output, expected", [
    ("In file included from a.cu:1:\nCommon/helper.h:12:5: error: use of undeclared identifier 'x'\n1 error",
     ("use of undeclared identifier 'x'", "Common/helper.h", 12)),
    ("a.cu:3:10: fatal error: 'GL/glew.h' file not found\n", ("'GL/glew.h' file not found", "a.cu", 3)),
    ('src/k.cu(40): error: identifier "foo" is undefined\n', ('identifier "foo" is undefined', "src/k.cu", 40)),
    ("warning: x\nclang: error: unknown argument: '-rdc'\n", ("unknown argument: '-rdc'", None, None)),
    ("nvcc fatal   : Unsupported gpu architecture 'compute_10'\n",
     ("Unsupported gpu architecture 'compute_10'", None, None)),
    ("a.cu:1:1: warning: unused\n", (None, None, None)),
])
def test_first_error(output, expected):
    assert first_error(output) == expected


def test_manifest_shape():
    projects = load()
    assert len(projects) >= 4
    for p in projects:
        assert p.repo.count("/") == 1 and len(p.commit) == 40 and p.units and p.why and "\n" not in p.why
        assert all(not u.startswith("/") for u in p.units + p.include)
        if p.port:
            assert len(p.port) == 2 and p.port[0] != p.port[1]


def test_manifest_rejects_what_is_missing():
    good = {"name": "x", "repo": "a/b", "commit": "0" * 40, "units": ["*.cu"], "why": "one line"}
    assert project_of(good).name == "x"
    for key in ("repo", "commit", "units", "why"):
        with pytest.raises(ManifestError, match=key):
            project_of({k: v for k, v in good.items() if k != key})
    with pytest.raises(ManifestError, match="unknown"):
        project_of({**good, "unit": ["*.cu"]})
    with pytest.raises(ManifestError, match="commit"):
        project_of({**good, "commit": "HEAD"})
    with pytest.raises(ManifestError, match="submodules"):
        project_of({**good, "submodules": [["third_party/glm", "g-truc/glm"]]})


def _commit(repo, name: str, text: str) -> str:
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / name).parent.mkdir(parents=True, exist_ok=True)
    (repo / name).write_text(text)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    return subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def test_submodules_extracted_from_their_own_mirrors(tmp_path):
    mirrors = tmp_path / "mirrors"
    top = _commit(mirrors / "a+b" / "repo", "src/k.cu", "#include <glm/glm.hpp>\n")
    sub = _commit(mirrors / "c+d" / "repo", "glm/glm.hpp", "// glm\n")
    project = project_of({"name": "x", "repo": "a/b", "commit": top, "units": ["src/*.cu"], "why": "one line",
                          "submodules": [["third_party/glm", "c/d", sub]]})
    tree = extract(project, mirrors, tmp_path / "cache")
    assert (tree / "src/k.cu").read_text() == "#include <glm/glm.hpp>\n"
    assert (tree / "third_party/glm/glm/glm.hpp").read_text() == "// glm\n"


def test_port_path():
    p = project_of({"name": "h", "repo": "a/b", "commit": "0" * 40, "units": ["src/*-cuda/*.cu"], "why": "w",
                    "port": ["-cuda/", "-hip/"]})
    assert p.port_path("src/adam-cuda/main.cu") == "src/adam-hip/main.cu"
    assert p.port_path("src/other/main.cu") is None


@pytest.mark.parametrize("pattern, path, matches", [
    ("Samples/**/*.cu", "Samples/0_Introduction/clock/clock.cu", True),
    ("Samples/**/*.cu", "Samples/clock.cu", True),
    ("*.cu", "src/runner.cu", False),
    ("src/*.cu", "src/runner.cu", True),
    ("src/*-cuda/*.cu", "src/adam-cuda/main.cu", True),
    ("src/*-cuda/*.cu", "src/adam-hip/main.cu", False),
])
def test_globs(pattern, path, matches):
    assert bool(glob_regex(pattern).fullmatch(path)) is matches


def test_prediction_reads_blockers_as_the_text_report_does():
    report = {"findings": [
        {"path": "a.cu", "line": 10, "code": "HAZ005", "severity": "error", "message": "PTX"},
        {"path": "h.cuh", "line": 3, "code": "CPP006", "severity": "error", "message": "no HIP counterpart"},
        {"path": "g.cuh", "line": 5, "code": "CPP006", "severity": "warning", "message": "in a guarded helper"},
        {"path": "a.cu", "line": 1, "code": "MAP001", "severity": "info", "message": "renamed"},
    ]}
    found = blockers_of(report)
    assert sorted(found) == ["a.cu", "h.cuh"]
    p = predict(found, ["a.cu"], "a.cu", 15)
    assert (p.blocker, p.error, p.near, p.in_file, p.codes) == (True, True, True, True, ("HAZ005",))
    p = predict(found, ["a.cu"], "./a.cu", 40)
    assert (p.near, p.in_file) == (False, True)
    p = predict(found, ["b.cu", "h.cuh"], "b.cu", 2)
    assert (p.blocker, p.error, p.near, p.in_file, p.codes) == (True, True, False, False, ("CPP006",))
    assert not predict(found, ["b.cu"]).blocker
    assert not predict(found, ["b.cu", "g.cuh"]).blocker  # a warning is no blocker, whatever its code


@pytest.mark.parametrize("rel, patterns, out", [
    ("Common/GL/glew.h", ["Common/GL/"], True),
    ("Common/helper_cuda.h", ["Common/GL/"], False),
    ("src/adam-hip/main.cu", ["*-hip/"], True),
    ("src/adam-cuda/main.cu", ["*-hip/"], False),
    ("a/b/data/x.bin", ["data/"], True),
    ("a/data", ["data/"], False),  # a file named like the folder
    ("x/y.ppm", ["*.ppm"], True),
])
def test_excluded(rel, patterns, out):
    assert excluded(rel, patterns) is out


def test_units_named_by_the_makefile(tmp_path):
    (tmp_path / "a-cuda").mkdir()
    for name in ("main.cu", "utils.cu", "kernels.cu"):
        (tmp_path / "a-cuda" / name).write_text("")
    (tmp_path / "a-cuda" / "Makefile").write_text("CC = nvcc\nsource = main.cu kernels.cu\nobj = $(source:.cu=.o)\n")
    (tmp_path / "b-cuda").mkdir()
    (tmp_path / "b-cuda" / "x.cu").write_text("")
    p = project_of({"name": "h", "repo": "a/b", "commit": "0" * 40, "units": ["*-cuda/*.cu"], "why": "w",
                    "make_variable": "source"})
    assert units_in(p, tmp_path) == ["a-cuda/kernels.cu", "a-cuda/main.cu", "b-cuda/x.cu"]
