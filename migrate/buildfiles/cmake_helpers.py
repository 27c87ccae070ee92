"""What the CMake rules share: the CUDA -> HIP library tables, placing inserted and deleted lines, the
languages and sources a file uses, and rewriting nvcc options inside CMake arguments.

The imported-target names were read from the HIP packages' own CMake configs (Debian 12's
libamdhip64-dev, libhiprand-dev, libhipsparse-dev in /usr/lib/x86_64-linux-gnu/cmake, and the trixie/sid
-dev packages of hipBLAS, hipFFT, hipSOLVER, hipCUB, RCCL and HIP 6 for the rest):
hip::host, hip::device, hip::amdhip64 (find_package(hip)); roc::hipblas (hipblas); hip::hiprand (hiprand);
hip::hipfft (hipfft); roc::hipsparse (hipsparse); roc::hipsolver (hipsolver); hip::hipcub (hipcub);
roc::rccl (rccl); hiprtc::hiprtc (hiprtc, HIP 6 packages only: HIP 5.2 keeps hipRTC in libamdhip64).
roc::hipblaslt (hipblaslt) and roc::rocthrust (rocthrust) are the names the hipBLASLt and rocThrust
documentation gives; neither is packaged in Debian 12. MIOpen (miopen, no namespace) is read from sid's
libmiopen-dev 6.4.3 (miopen-targets.cmake); cuDNN has no CMake package of NVIDIA's, but projects (and
cudnn_frontend) find it as CUDNN and link CUDNN::cudnn or CUDNN::cudnn_all.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from migrate.buildfiles.cmake import Arg, CMakeContext, Command
from migrate.buildfiles.make import Word  # one option word with its byte span, for both build languages
from migrate.buildfiles.nvcc_options import translate_option
from migrate.edits import decoded, encoded
from migrate.model import Edit


# ---------------------------------------------------------------------------------------------- libraries

@dataclass(frozen=True)
class HipLibrary:
    target: str | None  # the imported target to link; None when there is no counterpart
    package: str | None  # the find_package() name that defines it
    note: str = ""  # a caveat (the finding becomes a warning) or, without a target, why there is none


HOST = HipLibrary("hip::host", "hip")
BLAS = HipLibrary("roc::hipblas", "hipblas")
BLASLT = HipLibrary("roc::hipblaslt", "hipblaslt", "hipBLASLt is a separate ROCm package (not in Debian 12) and "
                    "supports only some AMD targets (gfx90a, gfx94x and newer); check it is installed")
RAND = HipLibrary("hip::hiprand", "hiprand")
FFT = HipLibrary("hip::hipfft", "hipfft")
SPARSE = HipLibrary("roc::hipsparse", "hipsparse")
SOLVER = HipLibrary("roc::hipsolver", "hipsolver")
RCCL = HipLibrary("roc::rccl", "rccl")
HIPRTC = HipLibrary("hiprtc::hiprtc", "hiprtc")
HIPCUB = HipLibrary("hip::hipcub", "hipcub")
ROCTHRUST = HipLibrary("roc::rocthrust", "rocthrust")
MIOPEN = HipLibrary("MIOpen", "miopen")

# The part after "CUDA::" of FindCUDAToolkit's imported targets.
CUDA_TARGETS: dict[str, HipLibrary] = {
    "cudart": HOST, "cudart_static": HOST, "cuda_driver": HOST,
    "cublas": BLAS, "cublas_static": BLAS, "cublasLt": BLASLT, "cublasLt_static": BLASLT,
    "curand": RAND, "curand_static": RAND, "cufft": FFT, "cufft_static": FFT,
    "cusparse": SPARSE, "cusparse_static": SPARSE, "cusolver": SOLVER, "cusolver_static": SOLVER,
    "nvrtc": HIPRTC, "nvrtc_static": HIPRTC,
    "nvToolsExt": HipLibrary(None, None, "NVTX has no imported target in HIP: roctx (libroctx64, from roctracer) "
                             "has the same push/pop/mark calls as roctxRangePush"),
    "nvtx3": HipLibrary(None, None, "NVTX has no imported target in HIP: roctx (libroctx64, from roctracer) has the "
                        "same push/pop/mark calls as roctxRangePush"),
    "cupti": HipLibrary(None, None, "CUPTI is NVIDIA's profiling interface: use rocprofiler or roctracer"),
    "nvml": HipLibrary(None, None, "NVML is NVIDIA's management library: use amd_smi"),
    "OpenCL": HipLibrary(None, None, "ROCm's OpenCL is found with find_package(OpenCL) as OpenCL::OpenCL"),
    "cufftw": HipLibrary(None, None, "the FFTW interface of cuFFT has no packaged HIP counterpart: call hipFFT"),
}
# Other namespaced targets of CUDA's C++ libraries.
OTHER_TARGETS: dict[str, HipLibrary] = {
    "CUB::CUB": HIPCUB, "CCCL::CUB": HIPCUB, "Thrust::Thrust": ROCTHRUST, "CCCL::Thrust": ROCTHRUST,
}

# Plain library names (as linked with target_link_libraries(app cublas)) -> HIP library names.
LIBRARY_NAMES: dict[str, str] = {
    "cudart": "amdhip64", "cudart_static": "amdhip64", "cuda": "amdhip64", "cublas": "hipblas",
    "cublasLt": "hipblaslt", "curand": "hiprand", "cufft": "hipfft", "cusparse": "hipsparse",
    "cusolver": "hipsolver", "nccl": "rccl", "nvrtc": "hiprtc", "cudnn": "MIOpen",
}

# FindCUDA / FindCUDAToolkit result variables that hold libraries.
LIBRARY_VARIABLES: dict[str, HipLibrary] = {
    "CUDA_LIBRARIES": HOST, "CUDA_CUDART_LIBRARY": HOST, "CUDA_cudart_static_LIBRARY": HOST,
    "CUDA_CUDA_LIBRARY": HOST, "CUDA_cuda_driver_LIBRARY": HOST, "CUDA_cudart_LIBRARY": HOST,
    "CUDA_CUBLAS_LIBRARIES": BLAS, "CUDA_cublas_LIBRARY": BLAS, "CUDA_cublas_static_LIBRARY": BLAS,
    "CUDA_cublasLt_LIBRARY": BLASLT,
    "CUDA_CUFFT_LIBRARIES": FFT, "CUDA_cufft_LIBRARY": FFT, "CUDA_curand_LIBRARY": RAND,
    "CUDA_cusparse_LIBRARY": SPARSE, "CUDA_cusolver_LIBRARY": SOLVER, "CUDA_nvrtc_LIBRARY": HIPRTC,
    "CUDA_cupti_LIBRARY": CUDA_TARGETS["cupti"], "CUDA_nvToolsExt_LIBRARY": CUDA_TARGETS["nvToolsExt"],
}

# Every HIP imported target above -> its package (to know which find_package a file needs).
HIP_TARGET_PACKAGES: dict[str, str] = {
    lib.target: lib.package for lib in [*CUDA_TARGETS.values(), *OTHER_TARGETS.values()] if lib.target and lib.package
}
HIP_TARGET_PACKAGES["hip::device"] = "hip"

NAMESPACED = re.compile(r"(?<!\w)(?<!::)((?:CUDA|CUB|CCCL|Thrust|CUDNN)::\w+)")
VARIABLE_REF = re.compile(r"\$\{(\w+)\}")
HIP_TARGET = re.compile(r"(?<!\w)(?<!::)((?:hip|roc|hiprtc)::\w+)")


def hip_library(target: str, ctx: CMakeContext) -> HipLibrary | None:
    """The HIP library for a CUDA namespaced target ("CUDA::cublas", "CUB::CUB", "CUDNN::cudnn"), None if
    unknown. Every CUDNN:: target (cudnn, cudnn_all, the cudnn_ops/cnn/adv/graph parts) is MIOpen's one library."""
    if target.startswith("CUDNN::"):
        return MIOPEN
    if target.startswith("CUDA::"):
        lib = CUDA_TARGETS.get(target[6:])
    else:
        lib = OTHER_TARGETS.get(target)
    return _for_version(lib, ctx)


def variable_library(variable: str, ctx: CMakeContext) -> HipLibrary | None:
    """The HIP library for a FindCUDA library variable ("CUDA_CUBLAS_LIBRARIES"), None if not one."""
    return _for_version(LIBRARY_VARIABLES.get(variable), ctx)


def _for_version(lib: HipLibrary | None, ctx: CMakeContext) -> HipLibrary | None:
    if lib is HIPRTC and ctx.target_tuple < (6, 0):
        return HipLibrary("hip::host", "hip", "before HIP 6.0 hipRTC is part of libamdhip64 (hip::host); from 6.0 "
                          "it is the separate hiprtc package (hiprtc::hiprtc)")
    return lib


def required_packages(ctx: CMakeContext) -> list[str]:
    """The HIP packages this file's links need, "hip" first, then in order of first use: from CUDA::
    targets, FindCUDA library variables, cuda_add_cublas_to_target-style commands and HIP targets."""
    found: list[str] = ["hip"]
    for command in ctx.commands:
        if command.name == "find_package":
            continue
        if command.name == "cuda_add_cublas_to_target":
            found.append("hipblas")
        elif command.name == "cuda_add_cufft_to_target":
            found.append("hipfft")
        for arg in command.args:
            for m in NAMESPACED.finditer(arg.text):
                lib = hip_library(m.group(1), ctx)
                if lib and lib.package:
                    found.append(lib.package)
            for m in VARIABLE_REF.finditer(arg.text):
                lib = variable_library(m.group(1), ctx)
                if lib and lib.package:
                    found.append(lib.package)
            for m in HIP_TARGET.finditer(arg.text):
                if m.group(1) in HIP_TARGET_PACKAGES:
                    found.append(HIP_TARGET_PACKAGES[m.group(1)])
    return list(dict.fromkeys(found))


def found_packages(ctx: CMakeContext) -> set[str]:
    """Lower-cased names of the packages the file already looks for (CUDA's own excluded; cuDNN's counts as
    miopen, which BLD020 makes it)."""
    found = {c.args[0].value.lower() for c in ctx.named("find_package")
             if c.args and c.args[0].value not in ("CUDA", "CUDAToolkit")}
    return {"miopen" if name == "cudnn" else name for name in found}


# ------------------------------------------------------------------------------------------------ layout

def line_start(data: bytes, pos: int) -> int:
    return data.rfind(b"\n", 0, pos) + 1


def line_end(data: bytes, pos: int) -> int:
    """The offset of the newline ending the line that holds `pos` (or the end of the data)."""
    end = data.find(b"\n", pos)
    return len(data) if end < 0 else end


def indentation(ctx: CMakeContext, command: Command) -> str:
    start = line_start(ctx.data, command.start)
    prefix = ctx.data[start:command.start]
    return decoded(prefix) if not prefix.strip() else ""


def insert_after(ctx: CMakeContext, command: Command, lines: Sequence[str]) -> Edit:
    """Put `lines` on lines of their own after the line where `command` ends, indented like it."""
    at = line_end(ctx.data, command.end)
    if ctx.data[at - 1:at] == b"\r":
        at -= 1
    pad = indentation(ctx, command)
    return Edit(at, at, "".join(ctx.newline + pad + line for line in lines))


def delete_command(ctx: CMakeContext, command: Command) -> Edit:
    """Remove a command; with its whole line when nothing else is on it."""
    start, end = command.start, command.end
    first = line_start(ctx.data, start)
    last = line_end(ctx.data, end)
    if not ctx.data[first:start].strip() and not ctx.data[end:last].strip():
        return Edit(first, min(last + 1, len(ctx.data)), "")
    while start > first and ctx.data[start - 1:start] in (b" ", b"\t"):
        start -= 1
    return Edit(start, end, "")


def name_span(command: Command) -> tuple[int, int]:
    """The bytes of the command's name as written."""
    return command.start, command.start + len(command.name)


def delete_args(ctx: CMakeContext, first: Arg, last: Arg) -> Edit:
    """Remove arguments first..last with the blank space before them."""
    start = first.start
    while start > 0 and ctx.data[start - 1:start] in (b" ", b"\t", b"\n", b"\r"):
        start -= 1
    return Edit(start, last.end, "")


# --------------------------------------------------------------------------------------- languages, sources

def enabled_languages(ctx: CMakeContext) -> set[str]:
    """Languages the file enables with project() or enable_language()."""
    out: set[str] = set()
    for command in ctx.named("project", "enable_language"):
        args = command.args[1:] if command.name == "project" else command.args
        out.update(a.value for a in args)
    return out


TARGET_KEYWORDS = {"WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL", "STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE",
                   "IMPORTED", "GLOBAL", "ALIAS", "UNKNOWN", "PRIVATE", "PUBLIC", "FILE_SET", "TYPE", "BASE_DIRS",
                   "FILES", "HEADERS", "CXX_MODULES"}
SOURCE_COMMANDS = ("add_executable", "add_library", "target_sources", "cuda_add_executable", "cuda_add_library")


def source_args(command: Command) -> list[Arg]:
    """The source-file arguments of a target command (add_executable, target_sources, cuda_add_library...)."""
    out = []
    for arg in command.args[1:]:
        if arg.value == "OPTIONS" and command.name.startswith("cuda_"):
            break
        if arg.value not in TARGET_KEYWORDS:
            out.append(arg)
    return out


def is_cu_source(arg: Arg) -> bool:
    value = arg.value
    return value.endswith(".cu") and "$<" not in value and not arg.text.startswith("[")


def has_cu_sources(ctx: CMakeContext) -> bool:
    return any(is_cu_source(a) for c in ctx.named(*SOURCE_COMMANDS) for a in source_args(c))


def hip_language_sources(ctx: CMakeContext) -> set[str]:
    """Sources (as written) already given LANGUAGE HIP by set_source_files_properties or set_property."""
    covered: set[str] = set()
    for command in ctx.named("set_source_files_properties", "set_property"):
        values = [a.value for a in command.args]
        if command.name == "set_source_files_properties":
            if "PROPERTIES" not in values:
                continue
            cut = values.index("PROPERTIES")
            props = values[cut + 1:]
            if any(props[i] == "LANGUAGE" and props[i + 1] == "HIP" for i in range(0, len(props) - 1, 2)):
                covered.update(values[:cut])
        elif values[:1] == ["SOURCE"] and "PROPERTY" in values:
            cut = values.index("PROPERTY")
            if values[cut + 1:cut + 3] == ["LANGUAGE", "HIP"]:
                covered.update(v for v in values[1:cut] if v not in ("DIRECTORY", "TARGET_DIRECTORY"))
    return covered


def needs_hip_language(ctx: CMakeContext) -> bool:
    """True when the file (once migrated) compiles with CMake's HIP language: it enables CUDA or HIP, or
    builds .cu sources (which the migration marks LANGUAGE HIP)."""
    return bool(enabled_languages(ctx) & {"CUDA", "HIP"}) or has_cu_sources(ctx) or bool(hip_language_sources(ctx))


def amd_architectures(ctx: CMakeContext) -> str:
    """The configured AMD targets as a CMake list: "gfx90a;gfx940"."""
    return ";".join(ctx.targets)


# ------------------------------------------------------------------------------------------ option words

@dataclass(frozen=True)
class Words:
    """Options that sit together: the words of one quoted flags string ("sep" " "), the elements of a ;-list
    (";"), or plain arguments of a command ("args")."""

    words: tuple[Word, ...]
    sep: str  # " ", ";" or "args"


@dataclass(frozen=True)
class Rewritten:
    edits: list[Edit]
    lost: list[tuple[Word, str, str]]  # (its words' span, option, reason) of each option without counterpart
    emptied: bool  # every word was dropped
    changed: bool


_SEPARATORS = {" ": b" \t", ";": b";", "args": b" \t\r\n"}


def split_words(text: str, offset: int, sep: str) -> Words:
    """The words of `text` (which starts at byte `offset` of the file), split at blanks or at ';'."""
    pattern = r"[^\s]+" if sep == " " else r"[^;]+"
    words = []
    for m in re.finditer(pattern, text):
        start = offset + len(encoded(text[:m.start()]))
        words.append(Word(m.group(), start, start + len(encoded(m.group()))))
    return Words(tuple(words), sep)


def rewrite_options(ctx: CMakeContext, group: Words) -> Rewritten:
    """Translate the nvcc options among `group`'s words (migrate.buildfiles.nvcc_options) into edits."""
    words = group.words
    texts = [w.text for w in words]
    plan: list[tuple[int, int, list[str] | None]] = []  # (first, count, replacement or None = drop)
    lost: list[tuple[Word, str, str]] = []
    i = 0
    while i < len(words):
        new, consumed, reason = translate_option(texts, i)
        if new is None:
            option = " ".join(texts[i:i + consumed])
            lost.append((Word(option, words[i].start, words[i + consumed - 1].end), option, reason))
        if new != texts[i:i + consumed]:
            plan.append((i, consumed, new or None))
        i += consumed
    if not plan:
        return Rewritten([], [], False, False)
    dropped = {k for first, count, new in plan if new is None for k in range(first, first + count)}
    edits = []
    joiner = " " if group.sep == "args" else group.sep
    for first, count, new in plan:
        if new is not None:
            edits.append(Edit(words[first].start, words[first + count - 1].end, joiner.join(new)))
    blank = _SEPARATORS[group.sep]
    k = 0
    while k < len(words):
        if k not in dropped:
            k += 1
            continue
        run_end = k
        while run_end + 1 < len(words) and run_end + 1 in dropped:
            run_end += 1
        start, end = words[k].start, words[run_end].end
        after = run_end + 1
        before = k - 1
        if after < len(words) and not ctx.data[end:words[after].start].strip(blank):
            end = words[after].start
        elif before >= 0 and not ctx.data[words[before].end:start].strip(blank):
            start = words[before].end
        elif group.sep == "args":
            while start > 0 and ctx.data[start - 1:start] in (b" ", b"\t"):
                start -= 1
        edits.append(Edit(start, end, ""))
        k = run_end + 1
    return Rewritten(edits, lost, len(dropped) == len(words), True)


def payload(text: str) -> tuple[int, int] | None:
    """For a generator expression `$<condition:payload>` (the whole of `text`), the span of the payload."""
    if not (text.startswith("$<") and text.endswith(">")):
        return None
    depth, i = 0, 0
    while i < len(text):
        if text.startswith("$<", i):
            depth += 1
            i += 2
            continue
        if text[i] == ">":
            depth -= 1
            if depth == 0 and i != len(text) - 1:
                return None  # two expressions side by side
        elif text[i] == ":" and depth == 1:
            return i + 1, len(text) - 1
        i += 1
    return None


def option_groups(args: Iterable[Arg]) -> list[tuple[Arg | None, Words]]:
    """Group the arguments of a compile/link options command into option words: each generator
    expression's payload, each quoted or ;-listed argument on its own, and the plain arguments together
    (returned with arg None)."""
    plain: list[Word] = []
    out: list[tuple[Arg | None, Words]] = []
    for arg in args:
        text, offset = arg.text, arg.start
        if arg.text.startswith("["):
            continue
        if arg.quoted:
            text, offset = arg.text[1:-1], arg.start + 1
        span = payload(text)
        if span is not None:
            head = text[:span[0]]
            offset += len(encoded(head))
            text = text[span[0]:span[1]]
        elif not arg.quoted and ";" not in text and "$<" not in text:
            plain.append(Word(text, arg.start, arg.end))
            continue
        elif "$<" in text:
            continue  # a generator expression among other text: left alone
        if text.startswith("SHELL:"):
            out.append((arg, split_words(text[6:], offset + 6, " ")))
        else:
            out.append((arg, split_words(text, offset, ";")))
    if plain:
        out.insert(0, (None, Words(tuple(plain), "args")))
    return out


OPTION_COMMANDS = ("target_compile_options", "add_compile_options", "target_link_options", "add_link_options")
LANGUAGE_EXPRESSION = re.compile(r"\$<(COMPILE_LANGUAGE|LINK_LANGUAGE):([^>$]*)>")
LANG_AND_ID_EXPRESSION = re.compile(r"\$<(COMPILE_LANG_AND_ID|LINK_LANG_AND_ID):(CUDA),([^>$]*)>")
COMPILER_ID_EXPRESSION = re.compile(r"\$<(CUDA)_COMPILER_ID:([^>$]*)>")


def language_expression_edits(arg: Arg) -> list[Edit]:
    """Edits turning CUDA into HIP in the generator expressions of one argument:
    $<COMPILE_LANGUAGE:CUDA> (and lists such as CXX,CUDA), $<LINK_LANGUAGE:CUDA>,
    $<COMPILE_LANG_AND_ID:CUDA,NVIDIA> (-> HIP,Clang) and $<CUDA_COMPILER_ID:NVIDIA> (-> HIP, Clang)."""
    edits: list[Edit] = []
    for m in LANGUAGE_EXPRESSION.finditer(arg.text):
        names = m.group(2).split(",")
        if "CUDA" not in names:
            continue
        new = []
        for n in names:
            n = "HIP" if n == "CUDA" else n
            if n not in new:
                new.append(n)
        edits.append(Edit(arg.start + m.start(2), arg.start + m.end(2), ",".join(new)))
    for pattern, language, ids in ((LANG_AND_ID_EXPRESSION, 2, 3), (COMPILER_ID_EXPRESSION, 1, 2)):
        for m in pattern.finditer(arg.text):
            edits.append(Edit(arg.start + m.start(language), arg.start + m.end(language), "HIP"))
            names = ",".join("Clang" if n == "NVIDIA" else n for n in m.group(ids).split(","))
            if names != m.group(ids):
                edits.append(Edit(arg.start + m.start(ids), arg.start + m.end(ids), names))
    return edits


# ----------------------------------------------------------------------------------------- properties

FALSE_VALUES = {"OFF", "FALSE", "NO", "N", "0", "IGNORE", "NOTFOUND", ""}


@dataclass(frozen=True)
class PropertySetting:
    """One property set on targets, or one CMAKE_<property> default set with set()."""

    command: Command
    targets: tuple[str, ...]  # empty for a set() of the CMAKE_ variable
    name: Arg
    values: tuple[Arg, ...]

    @property
    def enabled(self) -> bool:
        """True unless every value is a false constant of CMake (OFF, FALSE, 0, ...)."""
        return not self.values or not all(v.value.upper() in FALSE_VALUES for v in self.values)


def property_settings(ctx: CMakeContext, name: str) -> list[PropertySetting]:
    """Where the file sets target property `name` (set_target_properties, set_property(TARGET ...)) or its
    CMAKE_<name> default (set(CMAKE_<name> ...))."""
    out = []
    for command in ctx.named("set_target_properties", "set_property", "set"):
        args = command.args
        values = [a.value for a in args]
        if command.name == "set":
            if values[:1] == ["CMAKE_" + name]:
                kept = [a for a in args[1:] if a.value not in ("CACHE", "PARENT_SCOPE")][:1]
                out.append(PropertySetting(command, (), args[0], tuple(kept)))
        elif command.name == "set_target_properties" and "PROPERTIES" in values:
            cut = values.index("PROPERTIES")
            for i in range(cut + 1, len(args) - 1, 2):
                if values[i] == name:
                    out.append(PropertySetting(command, tuple(values[:cut]), args[i], (args[i + 1],)))
        elif values[:1] == ["TARGET"] and "PROPERTY" in values:
            cut = values.index("PROPERTY")
            if cut + 1 < len(args) and values[cut + 1] == name:
                targets = tuple(v for v in values[1:cut] if v not in ("APPEND", "APPEND_STRING"))
                out.append(PropertySetting(command, targets, args[cut + 1], tuple(args[cut + 2:])))
    return out
