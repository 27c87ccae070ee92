"""Options of one migration, shared by every stage and rule."""
from __future__ import annotations

import os
from dataclasses import dataclass, field


def default_jobs() -> int:
    """The one default of every --jobs: one worker per CPU this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


# Full analysis up to 4 MiB: the largest hand-written CUDA files in wide use are about 240 KB, the largest CMake files
# of very large projects under 100 KB; a file past 4 MiB is generated (docs/engine.md, "Size policy").
MAX_FILE_SIZE = 4 * 1024 * 1024


@dataclass(frozen=True)
class Options:
    hip_version: str = ""  # target HIP version "major.minor"; "" = the installed hipcc's, else the newest known
    engine: str = "builtin"  # builtin | hipify-perl | auto
    launch_syntax: str = "chevron"  # chevron (keep <<<>>>) | ggl (hipLaunchKernelGGL)
    translate_comments: bool = False
    portable: bool = False  # Python: rewrite to device-agnostic torch APIs (torch.Stream, torch.accelerator, ...)
    unsafe_fixes: bool = False
    exclude: tuple[str, ...] = ()
    jobs: int = 1
    max_file_size: int = MAX_FILE_SIZE  # full analysis up to here; above it the size policy (migrate/stages/rewrite.py)
    over_size: str = "rename"  # a C++ file over max_file_size: rename (names and headers only) | copy (INP005)
    suppressions: bool = True  # honour `hipmigrate: ignore[...]` comments (migrate/suppress.py); False: --no-suppressions
    in_place: bool = False  # --in-place: the tree is migrated where it stands, there is no copy to speak of
    offload_arch: tuple[str, ...] = ()  # AMD targets written into build files; () = the target HIP's defaults
    project_names: frozenset[str] = field(default_factory=frozenset)  # #define'd or declared as types in the project's headers
    # HIP libraries the project's sources need whatever its build files say (roctx64 for NVTX 3, which is header-only
    # on CUDA but a library on ROCm): migrate/cpp/project_names.py needed_libraries
    needed_libraries: frozenset[str] = field(default_factory=frozenset)
    # helpers the project's headers compile for NVIDIA only (CPP049), for CPP050 at their calls in other files: (name,
    # where and why, "overloaded" when another declaration of the name stays): migrate/stages/rewrite.py's first wave
    guarded_helpers: tuple[tuple[str, str, str], ...] = ()
