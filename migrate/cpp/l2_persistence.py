"""CUDA's persisting-L2 controls that HIP lacks and hipmigrate writes for AMD GPUs, which have no persisting L2: the
block migrate/cpp/l2_persistence.h (namespace NAMESPACE), which CPP067 writes into a file and whose uses it qualifies.
CPP006 leaves them to CPP067."""
import re

from migrate.cpp import blocks

NAMESPACE = "hipmigrate_runtime"
MARKER = "HIPMIGRATE_L2_PERSISTENCE"
LIMIT = "cudaLimitPersistingL2CacheSize"
RESET = "cudaCtxResetPersistingL2Cache"
NAMES = frozenset({LIMIT, RESET})
NAME = re.compile(rb"(?<![\w:.>])(cuda(?:LimitPersistingL2CacheSize|CtxResetPersistingL2Cache))\b")
# the calls that take the limit, with its argument's place: those naming it are qualified too
LIMIT_CALLS = {"cudaDeviceSetLimit": 0, "cudaDeviceGetLimit": 1}
SINCE = (7, 0)  # hipLimit_t holds CUDA's value 6 from HIP 7 (its scratch limits are 0x1000 and up)


def owned(name: str) -> bool:
    return name in NAMES


def block(newline: str = "\n") -> str:
    """The persisting-L2 controls, as the block CPP067 writes into a file (guarded by MARKER)."""
    return blocks.text("l2_persistence.h", newline)
