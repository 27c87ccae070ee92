"""Fetching: wheels (pip) and Debian packages (private apt configuration), and what their HIP headers declare."""
from __future__ import annotations

import glob
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from .families import HIP_PACKAGES, WHEELS
from .lexer import identifiers_in, read_text


def log(msg: str) -> None:
    print(f"gen_packs: {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, text=True, **kw)


def fetch_wheels(cache: Path, unpinned: bool, which: dict[str, str] | None = None) -> dict[str, tuple[str, Path]]:
    """dist name -> (version, include dir) of each NVIDIA wheel of `which` (default WHEELS)."""
    wheels_dir = cache / "wheels"
    inc_root = cache / "cuda-libs"
    wheels_dir.mkdir(parents=True, exist_ok=True)
    out: dict[str, tuple[str, Path]] = {}
    for dist, version in (WHEELS if which is None else which).items():
        stem = dist.replace("-", "_")
        pattern = f"{stem}-{version}-*.whl" if not unpinned else f"{stem}-*.whl"
        found = sorted(wheels_dir.glob(pattern))
        if not found:
            spec = dist if unpinned else f"{dist}=={version}"
            log(f"pip download --no-deps {spec}")
            try:
                run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(wheels_dir), spec],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            except subprocess.CalledProcessError as exc:
                if unpinned:
                    raise SystemExit(f"gen_packs: pip download {spec} failed:\n{exc.stderr}")
                log(f"pinned {spec} not available ({exc.stderr.strip().splitlines()[-1:]}), trying the newest")
                run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "-d", str(wheels_dir), dist],
                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            found = sorted(wheels_dir.glob(f"{stem}-*.whl"))
        whl = found[-1]
        ver = whl.name.split("-")[1]
        dest = inc_root / f"{stem}-{ver}"
        stamp = dest / ".done"
        if not stamp.exists():
            shutil.rmtree(dest, ignore_errors=True)
            with zipfile.ZipFile(whl) as z:
                for member in z.namelist():
                    m = re.match(r"(?:.*/)?include/(.+)$", member)
                    if m and not member.endswith("/") and "/include/" in "/" + member:
                        target = dest / "include" / m.group(1)
                        target.parent.mkdir(parents=True, exist_ok=True)
                        with z.open(member) as src, open(target, "wb") as dst:
                            shutil.copyfileobj(src, dst)
            stamp.parent.mkdir(parents=True, exist_ok=True)
            stamp.write_text(whl.name + "\n")
        out[dist] = (ver, dest / "include")
    return out


def machine_mirror() -> str:
    """The Debian mirror URI of this machine's own apt sources (never a built-in hostname)."""
    uris: list[str] = []
    for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for line in Path(f).read_text(errors="replace").splitlines():
            if line.startswith("URIs:"):
                uris.extend(line.split()[1:])
    for f in ["/etc/apt/sources.list"] + sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        if os.path.exists(f):
            for line in Path(f).read_text(errors="replace").splitlines():
                parts = line.split()
                if parts and parts[0] == "deb":
                    uri = next((p for p in parts[1:] if not p.startswith("[")), None)
                    if uri:
                        uris.append(uri)
    for uri in uris:
        if "-security" not in uri and re.search(r"/debian/?$", uri):
            return uri.rstrip("/")
    raise SystemExit("gen_packs: no Debian mirror found in the machine's apt sources")


def debian_version(v: str) -> str:
    """'1:5.3.3+dfsg-2~deb12u1' -> '5.3'."""
    v = v.split(":", 1)[-1]
    m = re.match(r"(\d+)\.(\d+)", v)
    if not m:
        raise ValueError(v)
    return f"{m.group(1)}.{m.group(2)}"


def version_key(v: str) -> tuple[int, int]:
    a, _, b = v.partition(".")
    return int(a), int(b or 0)


@dataclass
class HeaderSet:
    suite: str
    package: str
    version: str       # full Debian version
    release: str       # major.minor
    root: Path         # extracted usr/include


def fetch_hip_headers(cache: Path, suites: list[str], refresh: bool) -> tuple[list[HeaderSet], dict[str, tuple[str, Path]]]:
    """Headers of HIP_PACKAGES in each suite (+ each suite's hipify-perl, to name the installed one)."""
    base = cache / "debian"
    sets: list[HeaderSet] = []
    hipify_perls: dict[str, tuple[str, Path]] = {}
    mirror = None
    for suite in suites:
        sdir = base / suite
        index = sdir / "index.json"
        data = json.loads(index.read_text()) if index.exists() and not refresh else None
        # a cache made before a package joined HIP_PACKAGES: fetch only the packages it never asked for
        # (older caches have no "asked": every package they hold, and hipify-perl, was asked for)
        asked = set(data.get("asked", list(data["packages"]) + ["hipify-perl"])) if data else set()
        wanted = [p for p in HIP_PACKAGES + ["hipify-perl"] if p not in asked]
        if data is None or wanted:
            if mirror is None:
                mirror = machine_mirror()
            data = _apt_fetch_suite(sdir, suite, mirror, data, wanted if data else None)
            index.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        for pkg, ver in sorted(data["packages"].items()):
            sets.append(HeaderSet(suite, pkg, ver, debian_version(ver), sdir / "root" / pkg / "usr" / "include"))
        if data.get("hipify-perl"):
            hipify_perls[suite] = (data["hipify-perl"], sdir / "root" / "hipify-perl" / "usr" / "bin" / "hipify-perl")
    return sets, hipify_perls


def _apt_fetch_suite(sdir: Path, suite: str, mirror: str, data: dict | None = None,
                     packages: list[str] | None = None) -> dict:
    """Download and unpack `packages` (default: all of HIP_PACKAGES and hipify-perl) of one suite into
    sdir/root/<package>; `data` is the suite's index so far (None: start afresh)."""
    log(f"fetching {suite}'s package list (private apt configuration, mirror of the machine's sources)")
    if data is None:
        shutil.rmtree(sdir, ignore_errors=True)
    for d in ("lists/partial", "cache/archives/partial", "debs", "root"):
        (sdir / d).mkdir(parents=True, exist_ok=True)
    keyring = "/usr/share/keyrings/debian-archive-keyring.gpg"
    (sdir / "sources.list").write_text(f"deb [signed-by={keyring}] {mirror} {suite} main\n")
    opts = ["-o", f"Dir::Etc::SourceList={sdir / 'sources.list'}", "-o", "Dir::Etc::SourceParts=-",
            "-o", f"Dir::State::Lists={sdir / 'lists'}", "-o", f"Dir::Cache={sdir / 'cache'}",
            "-o", "Dir::State::Status=/dev/null", "-o", "APT::Get::List-Cleanup=0",
            "-o", "Debug::NoLocking=1", "-o", "APT::Sandbox::User=root"]
    run(["apt-get", *opts, "update", "-qq"], stdout=subprocess.DEVNULL)
    if data is None:
        data = {"packages": {}, "hipify-perl": None}
    todo = packages if packages is not None else HIP_PACKAGES + ["hipify-perl"]
    data["asked"] = sorted(set(data.get("asked", list(data["packages"]) + ["hipify-perl"])) | set(todo))
    for pkg in todo:
        res = subprocess.run(["apt-get", *opts, "download", pkg], cwd=sdir / "debs", text=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if res.returncode != 0:
            log(f"  {suite}: no {pkg}")
            continue
        deb = sorted((sdir / "debs").glob(f"{pkg}_*.deb"))[-1]
        ver = run(["dpkg-deb", "-f", str(deb), "Version"], stdout=subprocess.PIPE).stdout.strip()
        run(["dpkg-deb", "-x", str(deb), str(sdir / "root" / pkg)])
        log(f"  {suite}: {pkg} {ver}")
        if pkg == "hipify-perl":
            data["hipify-perl"] = ver
        else:
            data["packages"][pkg] = ver
    shutil.rmtree(sdir / "debs", ignore_errors=True)
    shutil.rmtree(sdir / "cache", ignore_errors=True)
    return data


def hip_identifiers(root: Path) -> set[str]:
    """Identifiers declared (present outside comments) in a HIP header tree; the NVIDIA-platform headers
    (nvidia_detail/, nvcc_detail/, hipCUB's backend/cub/, and files such as hiprand_kernel_nvcc.h) are left out:
    they only map HIP names onto CUDA ones (hiprandStateSobol64 is in HIP 5.3's hiprand_kernel_nvcc.h alone)."""
    names: set[str] = set()
    if not root.is_dir():
        return names
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        if is_nvidia_backend(rel):
            continue
        if path.suffix not in (".h", ".hpp", ".cuh", ".inl", "") and not path.name.endswith(".h.in"):
            continue
        names |= identifiers_in(read_text(path))
    return names


def is_nvidia_backend(rel: str) -> bool:
    """A HIP header (path under include/) that only the NVIDIA platform reads."""
    name = rel.rsplit("/", 1)[-1]
    return ("nvidia_detail/" in rel or "nvcc_detail/" in rel or "/backend/cub/" in f"/{rel}"
            or "_nvcc" in name or "nvidia" in name)


def installed_release(hip_dir: Path) -> str:
    """major.minor of the HIP headers in hip_dir (hip_version.h)."""
    ver = hip_dir / "hip_version.h"
    if ver.is_file():
        text = read_text(ver)
        major = re.search(r"#define\s+HIP_VERSION_MAJOR\s+(\d+)", text)
        minor = re.search(r"#define\s+HIP_VERSION_MINOR\s+(\d+)", text)
        if major and minor:
            return f"{major.group(1)}.{minor.group(1)}"
    return "5.2"


def cached_hip(cache: Path) -> list[tuple[str, Path]]:
    """(major.minor, the Debian suite's unpacked root) of each HIP release cached, oldest first; the suite's
    packages are under ROOT/<package>/usr/include (libamdhip64-dev, libhipsparse-dev, ...)."""
    found = []
    for root in sorted(cache.glob("debian/*/root")):
        hip = root / "libamdhip64-dev" / "usr" / "include" / "hip"
        if hip.is_dir():
            found.append((installed_release(hip), root))
    return sorted(found, key=lambda r: version_key(r[0]))


def hip_header_files(root: Path) -> set[str]:
    out = set()
    if root.is_dir():
        for path in root.rglob("*"):
            if path.is_file():
                out.add(path.relative_to(root).as_posix())
    return out
