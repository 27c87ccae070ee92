"""libcu++'s barrier, asynchronous copies and pipelines (<cuda/barrier>, <cuda/pipeline>), which no ROCm release
ships: the block migrate/cpp/cuda_barrier.h (namespace NAMESPACE), which CPP068 writes in place of the
include and whose names it qualifies, where the file uses nothing of libc++ beyond it. HAZ016 reports the rest."""
import re

from migrate.cpp import blocks
from migrate.cpp.includes import includes
from migrate.cpp.parse import Context

NAMESPACE = "hipmigrate_cuda"
MARKER = "HIPMIGRATE_CUDA_BARRIER"
HEADERS = frozenset({"cuda/barrier", "cuda/pipeline"})
NAMES = frozenset({"barrier", "thread_scope", "thread_scope_system", "thread_scope_device", "thread_scope_block",
                   "thread_scope_thread", "aligned_size_t", "memcpy_async", "pipeline", "make_pipeline",
                   "pipeline_consumer_wait_prior", "pipeline_shared_state", "pipeline_role"})
USE = re.compile(rb"(?<![\w:])((?:::[ \t]*)?cuda[ \t]*::[ \t]*)(\w+)")
IN_CODE = (Context.CODE, Context.MACRO, Context.USER_SCOPE)  # cuda::name reads as a user's namespace to the tree


def libcudacxx(header: str) -> bool:
    """Whether an included HEADER is libcu++'s (`cuda/...` without an extension; a project's `cuda/kernels.h` is not)."""
    return header.startswith("cuda/") and "." not in header.rsplit("/", 1)[-1]


def plan(ctx):
    """(the libcu++ include lines, the uses of its names in code) where the block stands for all of them: every
    libcu++ include is <cuda/barrier> or <cuda/pipeline> and every `cuda::` name is one the block has; None
    otherwise (nothing of it, or more than the block has)."""
    return ctx.once("cuda_barrier", _plan)


def _plan(ctx):
    data = ctx.data
    if b"cuda" not in data:
        return None
    lines = [m for m, header in includes(ctx) if libcudacxx(header)]
    if any(m.group(2).decode("utf-8", "replace") not in HEADERS for m in lines):
        return None
    uses = []
    for m in USE.finditer(data):
        if ctx.locate(m.start(2), m.end(2))[0] not in IN_CODE:
            continue
        name = m.group(2).decode("ascii", "replace")
        if name not in NAMES:
            return None
        uses.append(m)
    if not lines and not uses:
        return None
    return lines, uses


def block(newline: str = "\n") -> str:
    """libcu++'s barrier, copies and pipelines, as the block CPP068 writes (guarded by MARKER)."""
    return blocks.text("cuda_barrier.h", newline)
