"""CPP059's hipBLAS functions that take arrays of matrices as `const void* []`, against the hipBLAS headers of the
installed HIP 6.4 and 7.2 toolchains."""
import re

import pytest

from migrate import toolchain

PROTOTYPE = re.compile(r"hipblasStatus_t\s+(hipblas\w+)\s*\(([^;{()]*)\)\s*;")
ARRAY = re.compile(r"const\s+void\s*\*\s*\w+\s*\[\]")


@pytest.mark.hipcc
def test_the_functions_and_positions_are_those_the_hipblas_headers_declare():
    from migrate.rules.cpp.batched_matrix_array_argument import FUNCTIONS, POSITIONS

    headers = [toolchain.TOOLCHAIN / f"hip-{v}" / "root" / "usr" / "include" / "hipblas" / "hipblas.h" for v in ("6.4", "7.2")]
    assert all(h.is_file() for h in headers), "no hipBLAS headers installed (scripts/install-toolchain)"
    found = set()
    for header in headers:
        for m in PROTOTYPE.finditer(header.read_text(errors="replace")):
            positions = tuple(i for i, p in enumerate(m.group(2).split(",")) if ARRAY.match(p.strip()))
            if positions:
                found.add((m.group(1), positions))
    assert found == {(name, POSITIONS) for name in FUNCTIONS}
