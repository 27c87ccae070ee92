"""rules/data/device_prop.toml (made by scripts/gen_device_prop.py from the headers) and rule CPP011, which reads it."""
import re
from pathlib import Path

from migrate.cpp_engine import translate
from migrate.options import Options
from migrate.packs import default_packs, rules_root
from migrate.registry import default_registry
from tests.helpers import load_script

INSTALLED_API = Path("/usr/include/hip/hip_runtime_api.h")


def test_the_script_lists_what_each_release_lacks(tmp_path, monkeypatch):
    gen = load_script(monkeypatch, "gen_device_prop")
    cuda = tmp_path / "driver_types.h"
    cuda.write_text("struct __device_builtin__ cudaDeviceProp\n{\n    char name[256]; /**< name */\n"
                    "    int deviceOverlap;\n    int mpsEnabled; // MPS\n    int warpSize;\n    int reserved[61];\n}\n")
    releases = []
    for release, fields in (("5.2", "char name[256];\n int warpSize;"),
                            ("6.4", "char name[256];\n int warpSize;\n int deviceOverlap; ///< overlap")):
        releases.append((release, set(gen.struct_fields(f"typedef struct hipDeviceProp_t {{\n {fields}\n}} hipDeviceProp_t;",
                                                        "typedef struct hipDeviceProp_t", "} hipDeviceProp_t;"))))
    text = gen.render(gen.cuda_fields([cuda]), releases, ["CUDA test"])
    assert text.split("[fields]\n")[1] == 'deviceOverlap = { since = "6.4" }\nmpsEnabled = {}\n'
    assert 'releases = ["5.2", "6.4"]' in text


def test_the_installed_hip_agrees_with_the_data(monkeypatch, hipcc):
    """Against /usr/include/hip (HIP 5.2 here): a field the data calls missing before 5.2's successors is not in
    the installed hipDeviceProp_t, and one it does not list is there."""
    gen = load_script(monkeypatch, "gen_device_prop")
    import tomllib

    data = tomllib.loads((rules_root() / "data" / "device_prop.toml").read_text())
    installed = set(gen.struct_fields(INSTALLED_API.read_text(), "typedef struct hipDeviceProp_t", "} hipDeviceProp_t;"))
    version = re.search(r"HIP_VERSION_MAJOR (\d+).*?HIP_VERSION_MINOR (\d+)",
                        Path("/usr/include/hip/hip_version.h").read_text(), re.S)
    release = (int(version.group(1)), int(version.group(2)))
    missing = {name for name, row in data["fields"].items()
               if not row.get("since") or tuple(int(x) for x in row["since"].split(".")) > release}
    assert len(installed) > 40 and {"deviceOverlap", "asyncEngineCount", "mpsEnabled"} <= missing
    assert not missing & installed
    assert {"warpSize", "multiProcessorCount", "clockRate", "totalGlobalMem"} <= installed


def test_cpp011_on_cuda_code():
    rules = [r() for r in default_registry().cpp()]
    source = ("void info(int d) {\n  cudaDeviceProp prop;\n  cudaGetDeviceProperties(&prop, d);\n"
              "  if (prop.deviceOverlap && prop.multiProcessorCount > 1) {}\n"
              "  printf(\"%d %d\", prop.asyncEngineCount, prop.sharedMemPerMultiprocessor);\n}\n")
    old = translate("p.cu", source.encode(), Options(), default_packs(), "5.2", rules)
    assert [(f.span.line, f.matched) for f in old.findings if f.code == "CPP011"] == [
        (4, "deviceOverlap"), (5, "asyncEngineCount"), (5, "sharedMemPerMultiprocessor")]
    assert "hipDeviceProp_t prop;" in old.data.decode()
    new = translate("p.cu", source.encode(), Options(), default_packs(), "6.4", rules)
    assert [f for f in new.findings if f.code == "CPP011"] == []
