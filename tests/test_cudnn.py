"""cuDNN -> MIOpen: the cudnn pack against MIOpen's header, every cuDNN name mapped or given a concept, the sample's
CPU reference against NumPy, and the rules on code as hipify-perl and as MIOpen users write it."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from migrate import api, toolchain
from migrate.cpp import cudnn_calls, cudnn_find
from migrate.cpp_engine import translate
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry
from tests.compile import hipcc_compile
from tests.conftest import need_tool

ROOT = Path(__file__).resolve().parent.parent
PACKS = default_packs()
RULES = [r() for r in default_registry().cpp()]
CUDNN_INCLUDE = toolchain.TOOLCHAIN / "cuda" / "include"  # cuDNN 9.28's headers, from install-toolchain
CUDNN_HEADERS = ("cudnn_graph.h", "cudnn_ops.h", "cudnn_cnn.h", "cudnn_adv.h", "cudnn_version.h", "cudnn_gnn_ops.h",
                 "cudnn_subquadratic_ops.h")
SAMPLE = ROOT / "samples" / "cudnn_conv"


def migrated(source: str, target: str = "6.4", path: str = "net.cu") -> tuple[str, list]:
    result = translate(path, source.encode(), Options(), PACKS, target, RULES)
    return result.data.decode(), list(result.findings)


def test_every_pack_row_names_what_miopen_declares(tmp_path, hipcc64):
    """Each MIOpen name of the cudnn pack is used the way its kind says (a function's address, a type's pointer, an
    enumerator's value) in one file that HIP 6.4 compiles against MIOpen 3.4's header."""
    rows = sorted((m.hip, m.kind) for m in PACKS.names.values() if m.family == "cudnn")
    assert len(rows) == 174
    uses = {"function": "(void)&{};", "type": "{}* p{} = 0; (void)p{};", "enum": "(void){};"}
    body = "\n".join("    " + uses[kind].format(*[hip] + [i] * 2) for i, (hip, kind) in enumerate(rows))
    source = tmp_path / "pack.cpp"
    source.write_text(f"#include <miopen/miopen.h>\nvoid use() {{\n{body}\n}}\n")
    proc = hipcc_compile(hipcc64, source, [], tmp_path, "gfx942")
    assert proc.returncode == 0, proc.stderr[-3000:]
    headers = {h.hip for h in PACKS.headers.values() if h.family == "cudnn"}
    assert headers == {"miopen/miopen.h", "miopen/version.h"}


def cudnn_names() -> set[str]:
    if not (CUDNN_INCLUDE / "cudnn.h").is_file():
        need_tool("a cuDNN at " + str(CUDNN_INCLUDE), mark="nvcc")  # skips (fails in CI): scripts/install-toolchain unpacks it
    names = set()
    for header in CUDNN_HEADERS:
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", (CUDNN_INCLUDE / header).read_text(), flags=re.S)
        names |= set(re.findall(r"\b(?:cudnn[A-Z]\w*|CUDNN_\w+)", text))
    return names


@pytest.mark.nvcc
def test_every_cudnn_name_is_mapped_rewritten_or_given_a_concept():
    """Every name cuDNN 9.28's headers declare has a row, a rule that rewrites it, or a MIOpen concept of its own
    (never the generic 'port it by hand')."""
    import sys

    rule = next(r for r in default_registry().rules if r.code == "CPP033")
    module = sys.modules[rule.__module__]
    names = cudnn_names()
    assert len(names) > 1300
    rows = {n for n in names if n in PACKS.names}
    rewritten = {n for n in names - rows if n in cudnn_calls.SHAPES or n in cudnn_find.HELPERS or n in module.HANDLED}
    generic = sorted(n for n in names - rows - rewritten if module.concept(n) == module.FALLBACK)
    assert len(rows) == 174 and len(rewritten) == 10 and generic == []


def test_cpu_reference_matches_numpy(tmp_path):
    """samples/cudnn_conv/src/conv_reference.h against NumPy: the forward pass from strided windows of the padded
    input, the gradients as transposed Jacobians of that forward pass built from unit vectors; padding, strides 1 to
    3, dilation 2, non-square filters."""
    np = pytest.importorskip("numpy")
    driver = tmp_path / "drive.cpp"
    driver.write_text(
        '#include "conv_reference.h"\n#include <cstdio>\nint main() {\n    ConvShape s;\n'
        '    if (std::scanf("%d %d %d %d %d %d %d %d %d %d", &s.n, &s.c, &s.h, &s.w, &s.k, &s.r, &s.s, &s.pad, '
        '&s.stride, &s.dilation) != 10) return 1;\n'
        "    std::vector<float> x(s.x_size()), w(s.w_size()), dy(s.y_size());\n"
        '    for (auto* v : {&x, &w, &dy}) for (float& e : *v) if (std::scanf("%f", &e) != 1) return 1;\n'
        '    for (double v : reference_forward(s, x, w)) std::printf("%.17g\\n", v);\n'
        '    for (double v : reference_backward_data(s, dy, w)) std::printf("%.17g\\n", v);\n'
        '    for (double v : reference_backward_filter(s, x, dy)) std::printf("%.17g\\n", v);\n}\n')
    program = tmp_path / "drive"
    subprocess.run([need_tool("g++"), "-O1", "-std=c++17", "-I", str(SAMPLE / "src"), str(driver), "-o",
                    str(program)], check=True)

    def forward(x, w, pad, stride, dilation):
        n, c, h, wd = x.shape
        k, _, r, s = w.shape
        padded = np.zeros((n, c, h + 2 * pad, wd + 2 * pad))
        padded[:, :, pad:pad + h, pad:pad + wd] = x
        oh = (h + 2 * pad - dilation * (r - 1) - 1) // stride + 1
        ow = (wd + 2 * pad - dilation * (s - 1) - 1) // stride + 1
        y = np.zeros((n, k, oh, ow))
        for p in range(oh):
            for q in range(ow):
                window = padded[:, :, p * stride:p * stride + dilation * (r - 1) + 1:dilation,
                                q * stride:q * stride + dilation * (s - 1) + 1:dilation]
                y[:, :, p, q] = np.einsum("ncrs,kcrs->nk", window, w)
        return y

    rng = np.random.default_rng(7)
    for shape in [(2, 3, 10, 10, 4, 3, 3, 1, 2, 1), (1, 2, 7, 6, 3, 3, 2, 0, 1, 1), (2, 2, 9, 8, 2, 3, 3, 2, 1, 2),
                  (2, 3, 6, 7, 2, 5, 3, 1, 3, 1)]:
        n, c, h, wd, k, r, s, pad, stride, dilation = shape
        x = rng.uniform(-1, 1, (n, c, h, wd)).astype(np.float32).astype(np.float64)
        w = rng.uniform(-1, 1, (k, c, r, s)).astype(np.float32).astype(np.float64)
        y = forward(x, w, pad, stride, dilation)
        dy = rng.uniform(-1, 1, y.shape).astype(np.float32).astype(np.float64)
        given = " ".join(map(str, shape)) + "\n" + "\n".join(repr(float(v)) for v in [*x.ravel(), *w.ravel(),
                                                                                          *dy.ravel()])
        out = np.array(subprocess.run([str(program)], input=given, capture_output=True, text=True,
                                      check=True).stdout.split(), float)
        jx = np.stack([forward(e.reshape(x.shape), w, pad, stride, dilation).ravel() for e in np.eye(x.size)], 1)
        jw = np.stack([forward(x, e.reshape(w.shape), pad, stride, dilation).ravel() for e in np.eye(w.size)], 1)
        want = np.concatenate([y.ravel(), jx.T @ dy.ravel(), jw.T @ dy.ravel()])
        assert out.shape == want.shape and np.abs(out - want).max() < 1e-12, shape


def test_sample_migration_says_what_it_did():
    """The sample's migration: no error, and warnings only for the three algorithm queries that became MIOpen's
    find step (each says it allocates scratch buffers)."""
    _, result = api.analyse(SAMPLE / "src", Options(hip_version="6.4"))
    serious = sorted((f.span.path, f.span.line, f.code) for f in result.findings if f.severity.label != "info")
    assert serious == [("cudnn_conv.cu", 118, "CPP031"), ("cudnn_conv.cu", 140, "CPP031"),
                       ("cudnn_conv.cu", 165, "CPP031")]
    codes = {f.code for f in result.findings}
    assert {"MAP018", "CPP030", "CPP031", "BLD105"} <= codes and not codes & {"CPP006", "CPP033", "HAZ016", "HAZ025"}


def test_hipdnn_spelling_is_read_as_cudnn():
    """hipify-perl's output: hipDNN's names become MIOpen's, and the argument rules apply to them."""
    text, findings = migrated("#include <hipDNN.h>\nvoid f(hipdnnTensorDescriptor_t x, hipdnnHandle_t h) {\n"
                              "    hipdnnSetTensor4dDescriptor(x, HIPDNN_TENSOR_NCHW, HIPDNN_DATA_HALF, 1, 2, 3, 4);\n"
                              "    hipdnnSoftmaxForward(h, HIPDNN_SOFTMAX_FAST, HIPDNN_SOFTMAX_MODE_INSTANCE, &a, x, p, "
                              "&b, x, q);\n}\n")
    assert text == ("#include <miopen/miopen.h>\nvoid f(miopenTensorDescriptor_t x, miopenHandle_t h) {\n"
                    "    miopenSet4dTensorDescriptor(x, miopenHalf, 1, 2, 3, 4);\n"
                    "    miopenSoftmaxForward_V2(h, &a, x, p, &b, x, q, MIOPEN_SOFTMAX_FAST, "
                    "MIOPEN_SOFTMAX_MODE_INSTANCE);\n}\n")
    assert sorted((f.span.line, f.code) for f in findings if f.code.startswith("CPP03")) == [
        (1, "CPP032"), (2, "CPP032"), (2, "CPP032"), (3, "CPP030"), (3, "CPP032"), (4, "CPP030"), (4, "CPP032")]


def test_scaling_factors_in_cudnn_spelling():
    """HAZ025 before the migration: beta = 1 and a factor it cannot follow are warnings (the code builds; MIOpen
    rejects the call when it runs), 1 and 0 nothing."""
    call = "    cudnnConvolutionForward(h, &alpha, xD, x, wD, w, cD, algo, ws, n, &beta, yD, y);\n"
    source = ("void a(cudnnHandle_t h) {\n    const float alpha = 1.0f, beta = {beta};\n" + call + "}\n")
    for beta, want in (("1.0f", ["warning"]), ("0.0f", []), ("0", [])):
        _, findings = migrated(source.replace("{beta}", beta))
        assert [f.severity.label for f in findings if f.code == "HAZ025"] == want, beta
    _, findings = migrated("void b(cudnnHandle_t h, const void* alpha, const void* beta) {\n"
                           + call.replace("&alpha", "alpha").replace("&beta", "beta") + "}\n")
    assert [(f.severity.label, f.span.line) for f in findings if f.code == "HAZ025"] == [("warning", 2)]


def test_a_file_without_cudnn_is_left_to_the_other_rules():
    text, findings = migrated("int cudnn_like = 3;\nvoid f() { cudaDeviceSynchronize(); }\n")
    assert text == "#include <hip/hip_runtime.h>\nint cudnn_like = 3;\nvoid f() { hipDeviceSynchronize(); }\n"
    assert not [f for f in findings if f.family == "cudnn"]


def test_the_find_step_block_is_written_once(tmp_path):
    """Migrating the output again changes nothing: the helper calls name no cuDNN function, and the block is
    there once."""
    first, _ = migrated((SAMPLE / "src" / "cudnn_conv.cu").read_text())
    again, _ = migrated(first)
    assert again == first and first.count(cudnn_find.MARKER + ":") == 2  # its opening line and its end


@pytest.mark.nvcc
def test_the_other_families_migrate_and_build(tmp_path, hipcc64):
    """tests/fixtures/cudnn/layers.cu (pooling, activation, softmax, batch normalization, LRN, dropout, tensor
    operations and reductions, N-d and NHWC descriptors) compiles with nvcc against cuDNN 9.28; migrated, it
    compiles against MIOpen 3.4 with every call rewritten and nothing left to report."""
    source = ROOT / "tests" / "fixtures" / "cudnn" / "layers.cu"
    proc = subprocess.run([need_tool("nvcc"), "-arch=sm_90", "-std=c++17", "--cuda", str(source), "-o",
                           str(tmp_path / "layers.ii"), f"-I{CUDNN_INCLUDE}"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
    text, findings = migrated(source.read_text(), path="layers.cu")
    assert {f.code for f in findings} == {"MAP018", "CPP030", "CPP001"}
    assert all(f.severity.label == "info" for f in findings)
    assert not re.search(r"\b(?:cudnn|CUDNN_)", re.sub(r"//[^\n]*", "", text))
    for line in ("miopenSet4dTensorDescriptorEx(l.x, miopenFloat, n, c, h, w, c * h * w, 1, w * c, c)",
                 "miopenSetTensorDescriptor(l.filter, miopenHalf, 5, filterDims, nullptr)",
                 "miopenPoolingForward(l.handle, l.pool, &one, l.x, x, &zero, l.y, y, false, nullptr, 0)",
                 "miopenSetActivationDescriptor(l.act, miopenActivationTANH, 1.0, 1.0, 0.0)",
                 "miopenDropoutForward(l.handle, l.drop, l.x, l.x, x, l.x, scratch, reserve, reserveBytes)"):
        assert line in text, line
    migrated_file = tmp_path / "layers.cu"
    migrated_file.write_text(text)
    proc = hipcc_compile(hipcc64, migrated_file, [], tmp_path, "gfx942")
    assert proc.returncode == 0, proc.stderr[-3000:]
