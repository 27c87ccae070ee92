"""rules/data/arity.toml (made by scripts/gen_arity.py from the CUDA and HIP prototypes), which CPP015 reads."""
import tomllib
from pathlib import Path

from migrate.packs import rules_root
from tests.helpers import load_script



def test_prototypes_defaults_overloads_and_aliases(monkeypatch):
    gen = load_script(monkeypatch, "gen_arity")
    cuda = gen.Headers(
        "extern __host__ cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,"
        " unsigned int flags __dv(0));\n"
        "static __inline__ __host__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags)\n"
        "{ return ::cudaEventCreateWithFlags(event, flags); }\n"
        "extern __host__ cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t *event);\n"
        "#define cublasSaxpy cublasSaxpy_v2\n"
        "void cublasSaxpy(int n, float alpha, const float *x, int incx, float *y, int incy);\n"
        "cublasStatus_t CUBLASWINAPI cublasSaxpy_v2(cublasHandle_t handle, int n, const float *alpha,"
        " const float *x, int incx, float *y, int incy);\n"
        "int printf_like(const char *fmt, ...);\n")
    hip = gen.Headers(
        "hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags);\n"
        "hipError_t hipEventCreate(hipEvent_t* event);\n"
        "hipblasStatus_t hipblasSaxpy(hipblasHandle_t handle, int n, const float* alpha, const float* x,"
        " int incx, float* y, int incy);\n")
    assert gen.accepted(gen.prototypes("cudaStreamWaitEvent", cuda)) == (2, 3, ["0"])
    assert gen.accepted(gen.prototypes("cudaEventCreate", cuda)) == (1, 2, [])
    assert gen.accepted(gen.prototypes("cublasSaxpy", cuda)) == (7, 7, [])  # the v2 API, not cublas.h's
    assert gen.accepted(gen.prototypes("printf_like", cuda)) == (1, -1, [])
    # the call inside cudaEventCreate's body is not a prototype of cudaEventCreateWithFlags
    assert gen.prototypes("cudaEventCreateWithFlags", cuda) == []
    mapped = {"cudaStreamWaitEvent": "hipStreamWaitEvent", "cudaEventCreate": "hipEventCreate",
              "cublasSaxpy": "hipblasSaxpy"}
    assert gen.rows(mapped, cuda, {"5.2": hip}) == [
        'cudaEventCreate = { hip = "hipEventCreate", cuda = [1, 2], defaults = [], releases = { "5.2" = [1, 1] } }',
        'cudaStreamWaitEvent = { hip = "hipStreamWaitEvent", cuda = [2, 3], defaults = ["0"], '
        'releases = { "5.2" = [3, 3] } }']


def test_the_installed_hip_agrees_with_the_data(monkeypatch, hipcc):
    """Each row's HIP 5.2 counts are what the installed HIP's headers (5.2 here) declare."""
    gen = load_script(monkeypatch, "gen_arity")
    rows = tomllib.loads((rules_root() / "data" / "arity.toml").read_text())["functions"]
    installed = gen.Headers(gen.header_text([Path("/usr/include/hip")]))
    checked = 0
    for name, row in rows.items():
        span = row["releases"].get("5.2")
        if span is None or not row["hip"].startswith("hip") or "sparse" in row["hip"]:
            continue  # library functions: their headers are other packages
        assert list(gen.accepted(gen.prototypes(row["hip"], installed))[:2]) == span, name
        checked += 1
    assert checked >= 15
    assert rows["cudaStreamWaitEvent"]["releases"]["5.2"] == [3, 3]
