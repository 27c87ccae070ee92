"""An `#include` of a HIP library header by its old top-level name (`<hipblas.h>`, `<hiprand.h>`, ...).

ROCm 5 moved the library headers into per-library folders and later releases dropped the top-level
wrappers; Debian's packages ship only the folder layout. hipify-perl still writes the flat names, so
this rule runs after either engine and points the include at the header that exists.
"""
from migrate.cpp.includes import includes
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

MOVED = {
    "hipblas.h": "hipblas/hipblas.h", "hiprand.h": "hiprand/hiprand.h",
    "hiprand_kernel.h": "hiprand/hiprand_kernel.h", "hipsparse.h": "hipsparse/hipsparse.h",
    "hipfft.h": "hipfft/hipfft.h", "hipfftXt.h": "hipfft/hipfftXt.h", "hipsolver.h": "hipsolver/hipsolver.h",
    "rocblas.h": "rocblas/rocblas.h", "rocrand.h": "rocrand/rocrand.h", "rccl.h": "rccl/rccl.h",
    "hipcub.hpp": "hipcub/hipcub.hpp", "rocprim.hpp": "rocprim/rocprim.hpp",
}


class FlatHipLibraryHeader(CppRule):
    code = "CPP007"
    phase = 1
    examples = [
        Invalid("#include <hipblas.h>\n", fixed="#include <hipblas/hipblas.h>\n", line=1),
        Invalid('#include "hiprand.h"\n#include <hipfft.h>\n', fixed='#include "hiprand/hiprand.h"\n#include <hipfft/hipfft.h>\n'),
        Valid("#include <hipblas/hipblas.h>\n"),
        Valid('#include "my/hipblas.h"\n'),
    ]

    def check(self, ctx):
        for m, name in includes(ctx):
            new = MOVED.get(name)
            if new is not None:
                yield self.finding(ctx, m.start(2), m.end(2), f"<{name}> is <{new}> since ROCm 5",
                                   edits=[Edit(m.start(2), m.end(2), new)], title=f"Include {new}")
