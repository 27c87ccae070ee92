"""What the corpus's code templates are written with (benchmarks/corpus.py): the words identifiers are made of,
fresh names, the parts of one file as they are added, and the error-check macros a file defines."""
from __future__ import annotations

import random
from string import Template
from textwrap import dedent

VERBS = ("scale", "accumulate", "reduce", "normalize", "smooth", "update", "project", "blend", "filter",
         "transform", "integrate", "advance", "gather", "scatter", "clamp", "compute", "relax", "pack")
NOUNS = ("field", "particles", "matrix", "vector", "signal", "image", "mesh", "tensor", "spectrum", "volume",
         "samples", "weights", "bias", "state", "flux", "density", "velocity", "pressure", "charge", "lattice")

class Names:
    """Fresh identifiers: never the same twice in the corpus."""

    def __init__(self, rng: random.Random, used: set[str]):
        self.rng = rng
        self.used = used  # shared by the whole corpus, so that headers can be included together

    def fresh(self, style: str = "snake") -> str:
        verb, noun = self.rng.choice(VERBS), self.rng.choice(NOUNS)
        base = {"snake": f"{verb}_{noun}",
                "camel": f"{verb}{noun.capitalize()}",
                "kernel": f"{verb}{noun.capitalize()}Kernel",
                "type": f"{noun.capitalize()}{verb.capitalize()}er",
                "macro": f"{verb.upper()}_{noun.upper()}"}[style]
        name, n = base, 1
        while name in self.used:
            n += 1
            name = f"{base}{n}"
        self.used.add(name)
        return name


class FileBuilder:
    """The parts of one file: its includes, the check macros it needs, and its body blocks."""

    def __init__(self, rng: random.Random, used: set[str]):
        self.rng = rng
        self.names = Names(rng, used)
        self.headers: set[str] = set()
        self.checks: set[str] = set()
        self.blocks: list[str] = []

    def add(self, template: str, headers: tuple[str, ...] = (), checks: tuple[str, ...] = (), **values) -> None:
        self.headers.update(headers)
        self.checks.update(checks)
        self.blocks.append(Template(dedent(template).strip("\n")).substitute(values) + "\n")

    def lines(self) -> int:
        return sum(b.count("\n") + 1 for b in self.blocks)

    def pick(self, *options):
        return self.rng.choice(options)


CHECK_MACROS = {
    "CUDA_CHECK": ("cudaError_t", "cudaSuccess", "cudaGetErrorString(status_)"),
    "CUBLAS_CHECK": ("cublasStatus_t", "CUBLAS_STATUS_SUCCESS", "\"cuBLAS failure\""),
    "CURAND_CHECK": ("curandStatus_t", "CURAND_STATUS_SUCCESS", "\"cuRAND failure\""),
    "CUFFT_CHECK": ("cufftResult", "CUFFT_SUCCESS", "\"cuFFT failure\""),
    "CUSPARSE_CHECK": ("cusparseStatus_t", "CUSPARSE_STATUS_SUCCESS", "cusparseGetErrorString(status_)"),
    "NCCL_CHECK": ("ncclResult_t", "ncclSuccess", "ncclGetErrorString(status_)"),
}


def check_macro(name: str, exit_call: str) -> str:
    status_type, ok, message = CHECK_MACROS[name]
    body = [f"#ifndef {name}",
            f"#define {name}(call)",
            "    do {",
            f"        {status_type} status_ = (call);",
            f"        if (status_ != {ok}) {{",
            f"            std::fprintf(stderr, \"%s:%d: %s failed: %s\\n\", __FILE__, __LINE__, #call, {message});",
            f"            {exit_call};",
            "        }",
            "    } while (0)"]
    width = max(len(line) for line in body[1:]) + 2
    macro = [line.ljust(width) + "\\" for line in body[1:-1]] + [body[-1]]
    return "\n".join([body[0], *macro, "#endif"]) + "\n"
