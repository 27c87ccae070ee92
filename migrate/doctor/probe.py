"""The machine's facts that the doctor's checks judge, gathered in one place.

`Probe` is plain data: tool paths, the text each diagnostic command printed, the relevant environment variables,
device files and the user's groups. `Probe.of_this_machine()` fills it by running the real tools; tests build one
by hand to describe any machine (a GPU hipcc cannot target, conflicting variables, no hipcc at all) without
mocking anything. The checks never look at the machine themselves.
"""
from __future__ import annotations

import ctypes.util
import glob
import grp
import importlib.util
import os
import pwd
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from migrate import toolchain
from migrate.doctor.model import ToolchainInfo

# The commands the doctor runs, by the key their output is stored under (written as a user would type them).
HIPCONFIG_VERSION = "hipconfig --version"
HIPCONFIG_FULL = "HIP_PLATFORM=amd hipconfig --full"
HIPCONFIG_PLATFORM = "hipconfig --platform"  # in the user's own environment: what hipcc picks unforced
ROCMINFO = "rocminfo"
ROCMINFO_PACKAGE = "dpkg-query -W rocminfo"
ROCM_SMI_VERSION = "rocm-smi --version"
ROCM_SMI_PRODUCT = "rocm-smi --showproductname"
ROCM_SMI_PRODUCT_JSON = "rocm-smi --showproductname --json"
AMD_SMI_VERSION = "amd-smi version"
AMD_SMI_ASIC = "amd-smi static --asic --json"
TORCH_VERSIONS = "python -c 'import torch; print(torch.__version__, torch.version.hip, torch.version.cuda)'"
HIPIFY_PERL_VERSION = "hipify-perl --version"

TOOLS = ("hipcc", "hipconfig", "nvcc", "rocminfo", "rocm-smi", "amd-smi")
ENV_NAMES = ("HIP_PLATFORM", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
             "HSA_OVERRIDE_GFX_VERSION", "ROCM_PATH", "HIPIFY_PERL")
ACCESS_GROUPS = ("video", "render")
TIMEOUT = 60
TORCH_TIMEOUT = 180  # importing torch can take long on a cold disk


@dataclass(frozen=True)
class Output:
    """What one command printed. `returncode` None: it could not be run (timed out, or failed to start)."""
    returncode: int | None
    stdout: str = ""
    stderr: str = ""

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def text(self) -> str:
        return self.stdout + self.stderr

    def first_line(self) -> str:
        """The first non-empty line of stdout, else of stderr ('' when silent)."""
        for stream in (self.stdout, self.stderr):
            for line in stream.splitlines():
                if line.strip():
                    return line.strip()
        return ""


@dataclass(frozen=True)
class Node:
    """A device file and whether this process may open it for reading and writing."""
    path: str
    readable: bool
    writable: bool

    @property
    def usable(self) -> bool:
        return self.readable and self.writable


@dataclass(frozen=True)
class User:
    name: str
    uid: int
    groups: frozenset[str]  # names of the groups this process has
    existing_groups: frozenset[str] = frozenset(ACCESS_GROUPS)  # which of video/render exist on the system

    @property
    def is_root(self) -> bool:
        return self.uid == 0


@dataclass(frozen=True)
class Probe:
    tools: Mapping[str, str] = field(default_factory=dict)  # tool name -> path, for the tools found
    outputs: Mapping[str, Output] = field(default_factory=dict)  # command key (above) -> what it printed
    env: Mapping[str, str] = field(default_factory=dict)  # the variables of ENV_NAMES that are set
    accepted: Mapping[str, bool] = field(default_factory=dict)  # AMD target -> hipcc compiles for it
    kfd: Node | None = None  # /dev/kfd, None when absent
    render_nodes: tuple[Node, ...] = ()  # /dev/dri/renderD*
    user: User = field(default_factory=lambda: User("user", 1000, frozenset()))
    hip_runtime: str | None = None  # the HIP runtime library found (libamdhip64)
    rocm_release: str | None = None  # $ROCM_PATH/.info/version of an AMD ROCm install
    torch_installed: bool = False  # importable by the Python running hipmigrate
    python: str = "python"
    toolchains: tuple[ToolchainInfo, ...] = ()  # every HIP toolchain found, the default (newest) first
    hipify_perl: str | None = None  # the hipify-perl `--engine hipify-perl` would run ($HIPIFY_PERL first)

    def output(self, key: str) -> Output | None:
        return self.outputs.get(key)

    @classmethod
    def of_this_machine(cls, targets: Iterable[str], hipcc: str | None = None) -> "Probe":
        """Run the real tools. Takes seconds: one small compile per toolchain and target, and a Python importing
        torch. The hipcc and hipconfig checked in detail are those of the default toolchain (`hipcc`, else the
        newest found)."""
        targets = tuple(targets)
        found = toolchain.discover_all(hipcc)
        tools = {name: path for name in TOOLS if (path := _find(name))}
        if found:
            tools["hipcc"] = found[0].hipcc
            tools.pop("hipconfig", None)
            if found[0].hipconfig:
                tools["hipconfig"] = found[0].hipconfig
        env = {name: os.environ[name] for name in ENV_NAMES if name in os.environ}
        outputs: dict[str, Output] = {}

        def run(key: str, tool: str, *args: str, amd: bool = False, timeout: int = TIMEOUT) -> Output | None:
            if tool not in tools:
                return None
            outputs[key] = _run([tools[tool], *args], amd, timeout)
            return outputs[key]

        run(HIPCONFIG_VERSION, "hipconfig", "--version", amd=True)
        run(HIPCONFIG_FULL, "hipconfig", "--full", amd=True)
        run(HIPCONFIG_PLATFORM, "hipconfig", "--platform")
        run(ROCMINFO, "rocminfo")
        if "rocminfo" in tools and shutil.which("dpkg-query"):
            outputs[ROCMINFO_PACKAGE] = _run(["dpkg-query", "-W", "-f=${Version}", "rocminfo"], False, TIMEOUT)
        run(ROCM_SMI_VERSION, "rocm-smi", "--version")
        product = run(ROCM_SMI_PRODUCT_JSON, "rocm-smi", "--showproductname", "--json")
        if product is not None and not product.ok:
            run(ROCM_SMI_PRODUCT, "rocm-smi", "--showproductname")
        run(AMD_SMI_VERSION, "amd-smi", "version")
        run(AMD_SMI_ASIC, "amd-smi", "static", "--asic", "--json")

        from migrate.cpp import hipify_perl

        perl_script = hipify_perl.find()
        if perl_script is not None:
            outputs[HIPIFY_PERL_VERSION] = _run(["perl", str(perl_script), "--version"], False, TIMEOUT)
        torch_installed = _importable("torch")
        if torch_installed:
            outputs[TORCH_VERSIONS] = _run(
                [sys.executable, "-c", "import torch; print(torch.__version__, torch.version.hip, torch.version.cuda)"],
                False, TORCH_TIMEOUT)
        infos = _toolchains(found, targets)
        accepted = {t: t in infos[0].compiles for t in targets} if infos else {}
        return cls(tools=tools, outputs=outputs, env=env, accepted=accepted, kfd=_node("/dev/kfd"),
                   render_nodes=tuple(n for p in sorted(glob.glob("/dev/dri/renderD*")) if (n := _node(p))),
                   user=_user(), hip_runtime=_hip_runtime(), rocm_release=_rocm_release(),
                   torch_installed=torch_installed, python=sys.executable, toolchains=infos,
                   hipify_perl=str(perl_script) if perl_script else None)


# The targets each toolchain is probed for besides the ones asked about: the current Instinct and Radeon families.
PROBED_TARGETS = ("gfx908", "gfx90a", "gfx940", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1201", "gfx1250")


def _toolchains(found: tuple[toolchain.Toolchain, ...], targets: tuple[str, ...]) -> tuple[ToolchainInfo, ...]:
    """Each toolchain with the targets a one-line kernel really compiles for (the compiles run in parallel)."""
    wanted = tuple(dict.fromkeys((*PROBED_TARGETS, *targets)))
    pairs = [(tc, t) for tc in found for t in wanted]
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        results = list(pool.map(lambda pair: toolchain.accepts_target(pair[0].hipcc, pair[1]), pairs))
    ok = {(tc.hipcc, t): r for (tc, t), r in zip(pairs, results)}
    return tuple(ToolchainInfo(tc.hipcc, tc.short_version, tc.hip_version, tc.clang, tc.origin,
                               tuple(t for t in wanted if ok[(tc.hipcc, t)]),
                               tuple(t for t in wanted if not ok[(tc.hipcc, t)]), i == 0)
                 for i, tc in enumerate(found))


def _find(name: str) -> str | None:
    return shutil.which(name) if name == "nvcc" else toolchain.which(name)


def _run(cmd: list[str], amd: bool, timeout: int) -> Output:
    env = toolchain.amd_env() if amd else dict(os.environ)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=timeout, env=env,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Output(None, "", f"timed out after {timeout} s")
    except OSError as exc:
        return Output(None, "", str(exc))
    return Output(proc.returncode, proc.stdout, proc.stderr)


def _importable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _node(path: str) -> Node | None:
    if not os.path.exists(path):
        return None
    return Node(path, os.access(path, os.R_OK), os.access(path, os.W_OK))


def _user() -> User:
    uid = os.geteuid()
    try:
        name = pwd.getpwuid(uid).pw_name
    except KeyError:
        name = str(uid)
    names = set()
    for gid in {os.getegid(), *os.getgroups()}:
        try:
            names.add(grp.getgrgid(gid).gr_name)
        except KeyError:
            pass
    existing = set()
    for group in ACCESS_GROUPS:
        try:
            grp.getgrnam(group)
            existing.add(group)
        except KeyError:
            pass
    return User(name, uid, frozenset(names), frozenset(existing))


def _hip_runtime() -> str | None:
    for root in (os.environ.get("ROCM_PATH"), "/opt/rocm"):
        if root:
            found = sorted(glob.glob(str(Path(root) / "lib" / "libamdhip64.so*")))
            if found:
                return found[0]
    return ctypes.util.find_library("amdhip64")


def _rocm_release() -> str | None:
    for root in (os.environ.get("ROCM_PATH"), "/opt/rocm"):
        if root and (Path(root) / ".info" / "version").is_file():
            return (Path(root) / ".info" / "version").read_text(errors="replace").strip() or None
    return None
