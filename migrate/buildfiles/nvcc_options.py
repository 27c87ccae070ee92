"""nvcc command-line options and what hipcc/clang takes instead: one table, shared by the CMake and
Makefile rules.

The API is one function over a list of words (the way a command line or a flags variable splits):

    translate_option(words, i) -> Translation(words, consumed, reason)

looks at `words[i]` (and the value after it, for options such as `-Xcompiler -fopenmp`) and says what
replaces the `consumed` words that make up that option:

- `Translation([words[i]], 1, "")`: not an nvcc-only option (`-O3`, `-I...`, `${VAR}`); keep it as is.
- a non-empty list: the clang words that do the same (`--use_fast_math` -> `["-ffast-math"]`).
- `[]`: the option is not needed by clang (`--expt-relaxed-constexpr`, `-arch=sm_80`, `-ccbin g++`); drop it.
- `None`: the option has no counterpart for AMD GPUs (`-Xptxas -v`, `--maxrregcount 64`); drop it and
  tell the user why (`reason`).

`translate_options(words)` runs it over a whole list and returns the new list and the lost options;
`is_architecture_option(word)` says whether a word selects NVIDIA architectures (which callers replace
with `--offload-arch=...` or `CMAKE_HIP_ARCHITECTURES`); `LIBRARIES` maps CUDA library names (as in
`-lcublas`) to the HIP ones.

nvcc accepts one or two leading dashes for every option and a value either after `=` or as the next word;
both spellings are understood here (nvcc's short `-t`, for `--threads`, only with `=` or a number after it:
`-t=0`, `-t=$(NPROC)`, `-t 4`). The clang options were checked with Debian 12's hipcc (clang 15):
`-ffast-math`, `-gline-tables-only`, `-fgpu-rdc`, `-fgpu-default-stream=per-thread`,
`-fgpu-flush-denormals-to-zero`, `-fno-hip-fp32-correctly-rounded-divide-sqrt`, `-ffp-contract=off`,
`-Rpass-analysis=kernel-resource-usage` and `-save-temps` all compile and link a HIP program for gfx90a.
"""
from __future__ import annotations

import re
from typing import Callable, NamedTuple, Sequence


class Translation(NamedTuple):
    words: list[str] | None  # the replacement; [] = drop, None = no counterpart (drop and warn)
    consumed: int  # how many input words the option took (1, or 2 with a separate value)
    reason: str  # why; "" when the word is kept unchanged


ARCHITECTURE_REASON = ("NVIDIA architectures: the AMD targets come from --offload-arch (CMAKE_HIP_ARCHITECTURES "
                       "in CMake)")

# CUDA library (as in -l<name>) -> HIP library, or None when there is none.
LIBRARIES: dict[str, str | None] = {
    "cudart": "amdhip64", "cudart_static": "amdhip64", "cuda": "amdhip64",
    "cublas": "hipblas", "cublas_static": "hipblas", "cublasLt": "hipblaslt", "cublasLt_static": "hipblaslt",
    "curand": "hiprand", "curand_static": "hiprand", "cufft": "hipfft", "cufft_static": "hipfft",
    "cusparse": "hipsparse", "cusparse_static": "hipsparse", "cusolver": "hipsolver",
    "cusolver_static": "hipsolver", "nccl": "rccl", "nvrtc": "hiprtc", "nvToolsExt": "roctx64",
    "cudnn": "MIOpen", "cudadevrt": None, "cupti": None, "nvidia-ml": None, "culibos": None,
}
_LIBRARY_LOST = {
    "cudadevrt": "the device runtime serves dynamic parallelism, which HIP does not support",
    "cupti": "CUPTI is NVIDIA's profiling interface: use rocprofiler/roctracer",
    "nvidia-ml": "NVML is NVIDIA's management library: use amd_smi (libamd_smi)",
    "culibos": "an NVIDIA-internal helper of the static CUDA libraries; not needed",
}

_ARCH_VALUE = re.compile(r"^(?:sm_|compute_|lto_)\d+[a-z]?$|^(?:native|all|all-major)$")
_TRUE = {"true", "1", "yes", "on"}

Handler = Callable[[str | None], tuple[list[str] | None, str]]


def _fixed(words: list[str] | None, reason: str) -> Handler:
    return lambda value: (list(words) if words is not None else None, reason)


def _boolean(when_true: list[str] | None, when_false: list[str] | None, reason: str) -> Handler:
    return lambda value: ((when_true if (value or "true").lower() in _TRUE else when_false), reason)


def _host_options(value: str | None) -> tuple[list[str] | None, str]:
    # nvcc splits -Xcompiler's value at commas; -Wl,/-Wa,/-Wp, values are a single option already.
    value = value or ""
    if value.startswith(("-Wl,", "-Wa,", "-Wp,")):
        return [value], "hipcc gives host options to clang directly"
    return [v for v in value.split(",") if v], "hipcc gives host options to clang directly"


def _linker_options(value: str | None) -> tuple[list[str] | None, str]:
    return ["-Wl," + (value or "")], "clang passes linker options with -Wl,"


def _prefixed(prefix: str) -> Handler:
    return lambda value: ([prefix + (value or "")], "the clang spelling of the same option")


def _library(value: str | None) -> tuple[list[str] | None, str]:
    name = value or ""
    if name in LIBRARIES:
        hip = LIBRARIES[name]
        if hip is None:
            return None, _LIBRARY_LOST[name]
        return ["-l" + hip], f"lib{name} is a CUDA library: lib{hip} is its HIP counterpart"
    return ["-l" + name], ""


def _default_stream(value: str | None) -> tuple[list[str] | None, str]:
    if value == "per-thread":
        return ["-fgpu-default-stream=per-thread"], "clang's spelling of the per-thread default stream"
    return [], "the legacy default stream is HIP's default"


def _language(value: str | None) -> tuple[list[str] | None, str]:
    if value == "cu":
        return ["-x", "hip"], "clang compiles CUDA-syntax sources as the language HIP"
    return ["-x", value or ""], ""


def _std(value: str | None) -> tuple[list[str] | None, str]:
    return ["-std=" + (value or "")], "the clang spelling of the same option"


# name (without leading dashes) -> (takes a value, handler)
_OPTIONS: dict[str, tuple[bool, Handler]] = {}


def _add(names: str, takes_value: bool, handler: Handler) -> None:
    for name in names.split():
        _OPTIONS[name] = (takes_value, handler)


_add("use_fast_math use-fast-math", False, _fixed(["-ffast-math"], "clang's fast math (it also assumes no NaN or "
                                                  "infinity, a little more than nvcc's)"))
_add("lineinfo generate-line-info", False, _fixed(["-gline-tables-only"], "clang's line tables without full debug "
                                                  "information"))
_add("expt-relaxed-constexpr expt-extended-lambda extended-lambda", False,
     _fixed([], "clang allows constexpr calls and __device__ lambdas across host and device by default"))
_add("Xcompiler compiler-options", True, _host_options)
_add("Xlinker linker-options", True, _linker_options)
_add("rdc relocatable-device-code", True, _boolean(["-fgpu-rdc"], [], "relocatable device code is -fgpu-rdc in "
                                                   "clang (also needed when linking)"))
_add("dc device-c", False, _fixed(["-fgpu-rdc", "-c"], "relocatable device code is -fgpu-rdc in clang (also needed "
                                  "when linking)"))
_add("arch gpu-architecture code gpu-code gencode generate-code", True, _fixed([], ARCHITECTURE_REASON))
_add("Xptxas ptxas-options", True, _fixed(None, "ptxas is NVIDIA's assembler: AMD's code generator has no such "
                                          "options"))
_add("maxrregcount", True, _fixed(None, "no register limit option for AMD GPUs: bound register use with "
                                  "__launch_bounds__"))
_add("Xnvlink nvlink-options", True, _fixed(None, "nvlink is NVIDIA's device linker: clang links device code itself"))
_add("Xcudafe", True, _fixed(None, "options of nvcc's EDG front end: silence clang warnings with -Wno-<warning>"))
_add("diag-suppress diag_suppress diag-warn diag-error", True,
     _fixed(None, "nvcc diagnostic numbers mean nothing to clang: use -Wno-<warning>"))
_add("ccbin compiler-bindir", True, _fixed([], "hipcc compiles host code with its own clang"))
_add("default-stream", True, _default_stream)
_add("ftz", True, _boolean(["-fgpu-flush-denormals-to-zero"], [], "clang's denormal flushing for device code"))
_add("prec-div prec-sqrt", True, _boolean([], ["-fno-hip-fp32-correctly-rounded-divide-sqrt"],
                                          "clang's correctly rounded float division and sqrt (the default)"))
_add("fmad", True, _boolean([], ["-ffp-contract=off"], "clang contracts a*b+c into FMA by default"))
_add("G device-debug", False, _fixed(["-g"], "clang emits device debug information with -g"))
_add("cudart cudadevrt", True, _fixed([], "the HIP runtime is always the shared libamdhip64"))
_add("threads t", True, _fixed([], "nvcc's parallel compilation of architectures; clang has no such option"))
_add("Wno-deprecated-gpu-targets", False, _fixed([], "an nvcc warning about old NVIDIA architectures"))
_add("keep", False, _fixed(["-save-temps"], "clang keeps intermediate files with -save-temps"))
_add("keep-dir", True, _fixed([], "-save-temps writes next to the output"))
_add("res-usage resource-usage", False, _fixed(["-Rpass-analysis=kernel-resource-usage"],
                                               "clang reports kernel register and LDS use with this remark"))
_add("ptx cubin fatbin", False, _fixed(None, "PTX and cubin are NVIDIA formats: clang produces AMD code objects "
                                       "with --cuda-device-only (or hipcc --genco)"))
_add("dlink device-link", False, _fixed(None, "clang links relocatable device code at the final link (-fgpu-rdc "
                                        "--hip-link): there is no separate device-link step"))
_add("forward-unknown-to-host-compiler forward-unknown-opts extra-device-vectorization source-in-ptx", False,
     _fixed([], "an nvcc-only switch that clang does not need"))
_add("x", True, _language)
_add("std", True, _std)
_add("include-path", True, _prefixed("-I"))
_add("system-include", True, lambda v: (["-isystem", v or ""], "the clang spelling of the same option"))
_add("define-macro", True, _prefixed("-D"))
_add("undefine-macro", True, _prefixed("-U"))
_add("library-path", True, _prefixed("-L"))
_add("library", True, _library)
_add("optimize", True, _prefixed("-O"))
_add("machine", True, _prefixed("-m"))
_add("output-file", True, lambda v: (["-o", v or ""], "the clang spelling of the same option"))
_add("compile", False, _fixed(["-c"], "the clang spelling of the same option"))
_add("pre-include", True, lambda v: (["-include", v or ""], "the clang spelling of the same option"))

# Options clang spells the same way (-std=c++17, -x c++): left alone when the translation changes nothing.
_SHARED = {"std", "x", "G"}
# nvcc's -Werror takes a warning class (-Werror all-warnings); gcc's and clang's plain -Werror is kept.
_WERROR_KINDS = {"all-warnings": ["-Werror"], "cross-execution-space-call": [], "reorder": [],
                 "deprecated-declarations": ["-Werror=deprecated-declarations"], "default-stream-launch": []}


def _split(word: str) -> tuple[str, str | None, int]:
    """(name, glued value or None, number of leading dashes)."""
    dashes = len(word) - len(word.lstrip("-"))
    body = word[dashes:]
    if "=" in body:
        name, value = body.split("=", 1)
        return name, value, dashes
    return body, None, dashes


def translate_option(words: Sequence[str], i: int) -> Translation:
    """What replaces the nvcc option at `words[i]`; see the module docstring."""
    word = words[i]
    keep = Translation([word], 1, "")
    if not word.startswith("-") or word == "-" or word.startswith("--") and len(word) == 2:
        return keep
    if word.startswith("-l") and not word.startswith("--") and _split(word)[0] not in _OPTIONS:
        new, reason = _library(word[2:])
        return keep if new == [word] else Translation(new, 1, reason)
    name, value, dashes = _split(word)
    if name == "Werror" and dashes == 1:
        if value is None and i + 1 < len(words) and words[i + 1] in _WERROR_KINDS:
            return Translation(list(_WERROR_KINDS[words[i + 1]]), 2, "nvcc's warning classes as errors")
        if value in _WERROR_KINDS:
            return Translation(list(_WERROR_KINDS[value]), 1, "nvcc's warning classes as errors")
        return keep
    if name not in _OPTIONS:
        return keep
    takes_value, handler = _OPTIONS[name]
    consumed = 1
    if takes_value and value is None:
        if i + 1 >= len(words):
            return keep
        value, consumed = words[i + 1], 2
    if name in ("arch", "code", "gpu-architecture", "gpu-code") and not _ARCH_VALUE.match(value or ""):
        return keep  # e.g. macOS's -arch x86_64
    if name in ("gencode", "generate-code") and "arch=" not in (value or "") and "code=" not in (value or ""):
        return keep
    if name == "t" and consumed == 2 and not (value or "").isdigit():
        return keep  # nvcc's -t (--threads) takes a count; `-t DIR` is another tool's (install -t)
    if name in ("Xlinker", "linker-options") and "," not in (value or ""):
        return keep if dashes == 1 and name == "Xlinker" else Translation(["-Xlinker", value or ""], consumed, "")
    new, reason = handler(value)
    original = list(words[i:i + consumed])
    if handler is _host_options and new and _holds_nvcc_options(new):
        return keep  # host options that are nvcc's (a quote misplaced): what the user meant is not known
    if name in _SHARED and dashes == 1 and (new == original or new == ["".join(original)] and consumed == 1):
        return keep
    if new == original:
        return Translation(original, consumed, "")
    return Translation(new, consumed, reason)


def _holds_nvcc_options(options: list[str]) -> bool:
    """Whether the words of `options` hold an option that this module rewrites: written out as they are, a
    second migration would change them again (the fix would not be idempotent)."""
    words = [w for option in options for w in option.replace('"', "").replace("'", "").split()]  # as a shell would
    words.append("-O2")  # what may follow them on the line: an option that takes a value takes it
    return translate_options(words) != (words, [])


def translate_options(words: Sequence[str]) -> tuple[list[str], list[tuple[str, str]]]:
    """Every option of `words` translated: the new words, and (option as written, reason) for each one
    that has no counterpart and was dropped."""
    out: list[str] = []
    lost: list[tuple[str, str]] = []
    i = 0
    while i < len(words):
        new, consumed, reason = translate_option(words, i)
        if new is None:
            lost.append((" ".join(words[i:i + consumed]), reason))
        else:
            out.extend(new)
        i += consumed
    return out, lost


def is_architecture_option(word: str) -> bool:
    """True for -arch=sm_80, -gencode=..., --gpu-architecture=..., -code=... (a glued value) and for the
    bare option names -arch, -gencode, ... (whose value is the next word)."""
    name, value, dashes = _split(word)
    if dashes == 0:
        return False
    if name in ("arch", "code", "gpu-architecture", "gpu-code"):
        return value is None or bool(_ARCH_VALUE.match(value))
    return name in ("gencode", "generate-code")
