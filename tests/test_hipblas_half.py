"""CPP041's hipBLAS half-precision functions against the hipBLAS headers of the installed toolchains."""
import re

import pytest

from migrate import toolchain

HIP64 = toolchain.TOOLCHAIN / "hip-6.4"
HALF = re.compile(r"hipblasStatus_t\s+(hipblas\w+)\s*\(([^;{]*?)\)\s*;", re.S)


@pytest.mark.hipcc
def test_the_half_precision_functions_are_those_the_hipblas_headers_declare():
    """CPP041's functions are the hipBLAS functions whose prototypes take hipblasHalf, in HIP 5.2's hipBLAS 0.54 and
    HIP 6.4's hipBLAS 2."""
    from migrate.rules.cpp.hipblas_half_argument import FUNCTIONS

    headers = [toolchain.EXTRA_INCLUDE / "hipblas" / "hipblas.h", HIP64 / "root" / "usr" / "include" / "hipblas" / "hipblas.h"]
    headers = [h for h in headers if h.is_file()]
    if not headers:
        pytest.skip("no hipBLAS headers installed (scripts/install-toolchain)")
    found = set()
    for header in headers:
        found |= {m.group(1) for m in HALF.finditer(header.read_text(errors="replace")) if "hipblasHalf" in m.group(2)}
    assert found <= FUNCTIONS and {"hipblasHgemm", "hipblasHgemmStridedBatched"} <= found
    if len(headers) == 2:
        assert found == FUNCTIONS
