#!/usr/bin/env python3
"""(Re)generate the mapping packs rules/mappings/<family>.toml (format: docs/packs.md).

How the rows are derived:

1. Candidate CUDA names are collected from CUDA header text with a small tokenizer of our own:
   the CUDA toolkit headers (default /usr/local/cuda/include) and the include/ folders of the
   NVIDIA library wheels (cuBLAS, cuRAND, cuFFT, cuSPARSE, cuSOLVER, NVRTC, NCCL) fetched with
   `pip download` into the cache. Each declaration gives a name, a kind (function, type, enum,
   macro, namespace) and, through the header that declares it, an API family. The runtime headers
   of CUDA 12.8 (the nvidia-cuda-runtime-cu12 wheel) add the non-macro names CUDA 13 dropped
   (cudaThreadSynchronize, cudaThreadExit, ...), which code written for older toolkits still calls.
   The header file names themselves are the candidates of the [headers] tables.
2. The candidates are written one per line into a scratch file (names as `NAME()`, namespaces as
   `NAME::x()`, headers as `#include <HEADER>`) and the installed hipify-perl runs once over it.
   What each line became is the HIP name; hipify-perl's warnings say which names it knows as
   unsupported. (Names that hipify-perl only converts with -experimental get a second run with
   that flag.)
   A second, newer hipify-perl (by default the newest one packaged by the inspected suites, e.g.
   sid's 7.0.2 next to the toolchain's 6.0.2; --second-hipify-perl) then runs over the names and
   headers the first one leaves alone. Its answer becomes a row only when the HIP name is declared
   by the inspected HIP headers -- those of the family's HIP library where it has one (cuSOLVER:
   libhipsolver-dev, cuBLAS: libhipblas-dev, ...) -- and is not a C++ keyword; a header row only when
   an inspected package ships the header (a flat `hipsolver.h` is looked up as `hipsolver/hipsolver.h`,
   the packages' layout). Such rows carry the comment `# hipify-perl <version>` in the packs, and the
   summary counts them per family, with the answers left out and where the two hipify-perls disagree
   on names the first one converts (the first one's answer is kept there).
3. `since`: the HIP headers of several Debian suites (libamdhip64-dev and the HIP library -dev
   packages) are downloaded through a private apt configuration that reuses the mirror of the
   machine's own apt sources; a HIP name's `since` is the major.minor version of the oldest package
   whose headers declare it, else the version of hipify-perl.
   RCCL keeps the NCCL names: an NCCL name that librccl-dev's headers declare is supported as it is
   (neither a row nor [unsupported]), one they lack is [unsupported].
   bfloat16 (bf16_functions_hip_shares): the functions that CUDA's cuda_bf16.h/.hpp declare and HIP's
   amd_hip_bf16.h (HIP >= 5.7) declares under the same name become rows mapping the name to itself, marked
   `# amd_hip_bf16.h <release>`; hipify-perl calls most of them unsupported or maps them to themselves.
4. rules/mappings/overrides.toml (hand-written, commented) is applied last; it alone gives header rows a
   `since` and an `older` header (cuda_bf16.h), which the summary checks against the packages' files.

The output is sorted and deterministic for the same inputs; downloads and hipify-perl's results are
cached under --cache, so a second run takes seconds. The summary ends with a check of the runtime
pack against the installed HIP headers (--installed-hip): a HIP name they do not declare must have
`since` above their release.

Usage: python scripts/gen_packs.py [--hipify-perl PATH] [--second-hipify-perl PATH|none|auto]
                                  [--out rules/mappings] [--cache DIR]
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # packgen/ is next to this file

from packgen import cli  # noqa: E402
# what tests/test_packs.py calls through this module
from packgen.cuda_names import HIP_BF16_HEADER, bf16_functions_hip_shares, scan_cuda  # noqa: E402
from packgen.fetch import HeaderSet  # noqa: E402
from packgen.packs import header_row_since  # noqa: E402

__all__ = ["HIP_BF16_HEADER", "HeaderSet", "bf16_functions_hip_shares", "header_row_since", "main"]


def main(argv: list[str] | None = None) -> int:
    return cli.main(argv, __doc__)


if __name__ == "__main__":
    sys.exit(main())
