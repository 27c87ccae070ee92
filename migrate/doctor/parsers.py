"""Pure functions over the text that ROCm's diagnostic tools print. No tool is run here: the tests feed recorded
outputs from tests/fixtures/doctor/, and `checks` feeds what the probe captured.

Every parser tolerates noise around what it reads (colour codes, warnings printed before JSON, `#` comment lines
at the top of a recorded fixture) and returns empty results, never raises, on text it does not recognise.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

from migrate.doctor.model import Gpu

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
GFX = re.compile(r"gfx[0-9a-f]{3,4}")


def strip_ansi(text: str) -> str:
    return ANSI.sub("", text)


# --- rocminfo -------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Agent:
    """One HSA agent of rocminfo: a CPU or a GPU. For a GPU, `name` is its gfx target."""
    name: str
    marketing_name: str | None
    device_type: str | None  # "CPU" or "GPU"
    compute_units: int | None


@dataclass(frozen=True)
class RocmInfo:
    kfd_loaded: bool | None  # the "ROCk module ... is loaded / is NOT loaded" line; None without one
    kfd_version: str | None  # "6.10.5" from "ROCk module version 6.10.5 is loaded" (newer rocminfo)
    message: str | None  # that line as printed, e.g. "ROCk module is NOT loaded, possibly no GPU devices"
    runtime_version: str | None  # "Runtime Version: 1.14" of the HSA System Attributes
    agents: tuple[Agent, ...]

    @property
    def gpus(self) -> tuple[Agent, ...]:
        return tuple(a for a in self.agents if (a.device_type or "").upper() == "GPU")


AGENT_HEADER = re.compile(r"^\s*Agent\s+\d+\s*$")
AGENT_FIELD = re.compile(r"^  (?! )([A-Za-z][^:]*?):\s*(.*?)\s*$")  # two-space indent: the agent's own fields
ROCK = re.compile(r"ROCk module(?: version (\S+))? is (NOT )?loaded")
RUNTIME = re.compile(r"^Runtime Version:\s*(\S+)", re.M)


def _int_prefix(value: str) -> int | None:
    m = re.match(r"\s*(\d+)", value)
    return int(m.group(1)) if m else None


def parse_rocminfo(text: str) -> RocmInfo:
    """rocminfo's report: the kernel-module line, the HSA runtime version and each agent's Name, Marketing Name,
    Device Type and Compute Unit count. Nested sections (cache, pools, ISA info) are indented deeper and ignored."""
    text = strip_ansi(text)
    rock = ROCK.search(text)
    message = None
    if rock:
        line_start = text.rfind("\n", 0, rock.start()) + 1
        line_end = text.find("\n", rock.end())
        message = text[line_start:line_end if line_end >= 0 else len(text)].strip()
    runtime = RUNTIME.search(text)
    agents: list[dict[str, str]] = []
    for line in text.splitlines():
        if AGENT_HEADER.match(line):
            agents.append({})
            continue
        if not agents:
            continue
        m = AGENT_FIELD.match(line)
        if m and m.group(1) not in agents[-1]:
            agents[-1][m.group(1)] = m.group(2)
    parsed = tuple(
        Agent(name=a.get("Name", ""), marketing_name=a.get("Marketing Name") or None,
              device_type=a.get("Device Type") or None,
              compute_units=_int_prefix(a["Compute Unit"]) if "Compute Unit" in a else None)
        for a in agents if a.get("Name"))
    return RocmInfo(kfd_loaded=None if rock is None else rock.group(2) is None,
                    kfd_version=rock.group(1) if rock else None, message=message,
                    runtime_version=runtime.group(1) if runtime else None, agents=parsed)


def rocminfo_gpus(info: RocmInfo) -> tuple[Gpu, ...]:
    return tuple(Gpu(index=i, gfx=_gfx(a.name), name=a.marketing_name, compute_units=a.compute_units,
                     source="rocminfo") for i, a in enumerate(info.gpus))


# --- rocm-smi ---------------------------------------------------------------------------------------------------

SMI_LINE = re.compile(r"^GPU\[(\d+)\]\s*:\s*([^:]+?)\s*:\s*(.*?)\s*$")


def parse_rocm_smi_product(text: str) -> tuple[Gpu, ...]:
    """`rocm-smi --showproductname`: lines such as 'GPU[0] : Card Series: AMD Instinct MI300X' and
    'GPU[0] : GFX Version: gfx942' (older releases spell 'Card series' and lack the GFX Version line)."""
    fields: dict[int, dict[str, str]] = {}
    for line in strip_ansi(text).splitlines():
        m = SMI_LINE.match(line.strip())
        if m:
            fields.setdefault(int(m.group(1)), {})[m.group(2).lower()] = m.group(3)
    return tuple(_smi_gpu(index, f) for index, f in sorted(fields.items()))


def parse_rocm_smi_json(text: str) -> tuple[Gpu, ...]:
    """`rocm-smi --showproductname --json`: {"card0": {"Card Series": ..., "GFX Version": "gfx90a", ...}, ...}."""
    doc = load_json(text)
    if not isinstance(doc, dict):
        return ()
    cards = []
    for key, value in doc.items():
        m = re.fullmatch(r"card(\d+)", str(key))
        if m and isinstance(value, dict):
            cards.append((int(m.group(1)), {str(k).lower(): str(v) for k, v in value.items()}))
    return tuple(_smi_gpu(index, f) for index, f in sorted(cards))


def _smi_gpu(index: int, f: dict[str, str]) -> Gpu:
    name = f.get("card series") or f.get("card model")
    return Gpu(index=index, gfx=_gfx(f.get("gfx version", "")), name=_known(name), compute_units=None,
               source="rocm-smi")


def parse_version_fields(text: str) -> dict[str, str | None]:
    """'label version: value' pieces separated by newlines or '|', as `rocm-smi --version` and `amd-smi version`
    print them. The label loses a trailing ' version'; 'N/A' becomes None.

    rocm-smi: 'ROCM-SMI version: 3.0.0+e68c0d1' / 'ROCM-SMI-LIB version: 7.5.0'
    amd-smi:  'AMDSMI Tool: 25.3.0+ede62f2 | AMDSMI Library version: 25.3.0 | ROCm version: 6.4.0 | ...'
    Only values that look like versions (a leading digit, or N/A) are kept.
    """
    out: dict[str, str | None] = {}
    lines = [line for line in strip_ansi(text).splitlines() if not line.lstrip().startswith("#")]
    for piece in re.split(r"[|\n]", "\n".join(lines)):
        label, sep, value = piece.partition(":")
        label, value = label.strip(), value.strip()
        if not sep or not label or " " in value or not (value[:1].isdigit() or value == "N/A"):
            continue  # not a version: 'ERROR:root:...' lines, 'Platform: Linux Baremetal'
        label = re.sub(r"\s+version$", "", label, flags=re.I)
        out[label] = _known(value)
    return out


# --- amd-smi ----------------------------------------------------------------------------------------------------

def parse_amd_smi_asic(text: str) -> tuple[Gpu, ...]:
    """`amd-smi static --asic --json`: a list of {"gpu": N, "asic": {"market_name", "target_graphics_version",
    "num_compute_units", ...}} (amd-smi 24/25), or the same list under "gpu_data" (amd-smi 26)."""
    doc = load_json(text)
    if isinstance(doc, dict):
        doc = doc.get("gpu_data", [doc])
    if not isinstance(doc, list):
        return ()
    gpus = []
    for position, entry in enumerate(doc):
        if not isinstance(entry, dict):
            continue
        entry = {str(k).lower(): v for k, v in entry.items()}
        asic = entry.get("asic")
        if not isinstance(asic, dict):
            continue
        asic = {str(k).lower(): v for k, v in asic.items()}
        index = entry.get("gpu")
        units = asic.get("num_compute_units")
        gpus.append(Gpu(index=index if isinstance(index, int) else position,
                        gfx=_gfx(str(asic.get("target_graphics_version", ""))),
                        name=_known(str(asic.get("market_name", "")) or None),
                        compute_units=units if isinstance(units, int) else None, source="amd-smi"))
    return tuple(gpus)


# --- hipconfig --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HipConfig:
    hip_version: str | None  # "5.2.21153-0"
    hip_path: str | None
    rocm_path: str | None
    compiler: str | None  # "clang"
    platform: str | None  # "amd" / "nvidia"
    runtime: str | None  # "rocclr" / "cuda"
    clang: str | None  # "Debian clang version 15.0.6": the clang behind hipcc
    clang_dir: str | None  # where that clang is (HIP_CLANG_PATH, else clang's InstalledDir)


HIPCONFIG_FIELD = re.compile(r"^(HIP version|HIP_PATH|ROCM_PATH|HIP_COMPILER|HIP_PLATFORM|HIP_RUNTIME|HIP_CLANG_PATH|"
                             r"InstalledDir)\s*:\s*(.*?)\s*$", re.M)
CLANG_LINE = re.compile(r"^(\S.*?clang version \S+)", re.M)


def parse_hipconfig_full(text: str) -> HipConfig:
    """`hipconfig --full`: the '== hipconfig' fields, and the clang version banner of the '== hip-clang' part."""
    text = strip_ansi(text)
    fields: dict[str, str] = {}
    for m in HIPCONFIG_FIELD.finditer(text):
        fields.setdefault(m.group(1), m.group(2))
    clang = CLANG_LINE.search(text)
    return HipConfig(hip_version=fields.get("HIP version") or None, hip_path=fields.get("HIP_PATH") or None,
                     rocm_path=fields.get("ROCM_PATH") or None, compiler=fields.get("HIP_COMPILER") or None,
                     platform=fields.get("HIP_PLATFORM") or None, runtime=fields.get("HIP_RUNTIME") or None,
                     clang=clang.group(1) if clang else None,
                     clang_dir=fields.get("HIP_CLANG_PATH") or fields.get("InstalledDir") or None)


def parse_first_word(text: str) -> str | None:
    """`hipconfig --version` ('5.2.21153-0', no newline) and `hipconfig --platform` ('amd'): the first word of the
    first non-empty line that is not a `#` comment."""
    for line in strip_ansi(text).splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line.split()[0]
    return None


# --- PyTorch ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TorchVersions:
    version: str
    hip: str | None  # torch.version.hip: set on ROCm builds
    cuda: str | None  # torch.version.cuda: set on CUDA builds


def parse_torch_versions(text: str) -> TorchVersions | None:
    """The line `print(torch.__version__, torch.version.hip, torch.version.cuda)` printed, e.g.
    '2.4.1+rocm6.1 6.1.40091-a8dbc0c19 None'. Earlier lines (warnings on import) are skipped."""
    for line in reversed(strip_ansi(text).splitlines()):
        words = line.split()
        if len(words) == 3 and re.match(r"\d+\.\d+", words[0]):
            return TorchVersions(words[0], _known(words[1]), _known(words[2]))
    return None


# --- helpers ----------------------------------------------------------------------------------------------------

def load_json(text: str):
    """The JSON document in `text`, starting at the first line that opens an object or a list: tools print
    warnings before it, and recorded fixtures start with `#` comments. None when there is none."""
    decoder = json.JSONDecoder()
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith(("{", "[")):
            try:
                return decoder.raw_decode(text, offset + len(line) - len(line.lstrip()))[0]
            except json.JSONDecodeError:
                pass
        offset += len(line)
    return None


def _gfx(value: str | None) -> str | None:
    m = GFX.search((value or "").lower())
    return m.group(0) if m else None


def _known(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return None if value in ("", "N/A", "None", "n/a") else value
