"""hipmigrate doctor's parsers on recorded tool outputs (tests/fixtures/doctor, each says where its format comes
from): rocminfo, rocm-smi, amd-smi, hipconfig and torch's version line, and nothing from unrelated text."""
from __future__ import annotations

import json
from pathlib import Path

from migrate.doctor import Gpu, parsers

FIXTURES = Path(__file__).parent / "fixtures" / "doctor"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text()


def test_rocminfo_lists_agents_of_a_cpu_and_two_mi210():
    info = parsers.parse_rocminfo(fixture("rocminfo_mi210.txt"))
    assert (info.kfd_loaded, info.kfd_version, info.runtime_version) == (True, "6.8.5", "1.14")
    assert info.message == "ROCk module version 6.8.5 is loaded"
    assert info.agents == (
        parsers.Agent("AMD EPYC 7313 16-Core Processor", "AMD EPYC 7313 16-Core Processor", "CPU", 32),
        parsers.Agent("gfx90a", "AMD Instinct MI210", "GPU", 104),
        parsers.Agent("gfx90a", "AMD Instinct MI210", "GPU", 104),
    )
    assert parsers.rocminfo_gpus(info) == (Gpu(0, "gfx90a", "AMD Instinct MI210", 104, "rocminfo"),
                                           Gpu(1, "gfx90a", "AMD Instinct MI210", 104, "rocminfo"))


def test_rocminfo_without_a_gpu_is_this_machines_real_output():
    info = parsers.parse_rocminfo(fixture("rocminfo_no_gpu.txt"))
    assert info.kfd_loaded is False and info.kfd_version is None and info.runtime_version is None
    assert info.message == "ROCk module is NOT loaded, possibly no GPU devices"  # colour codes stripped
    assert info.agents == () and info.gpus == ()


def test_rocm_smi_product_text():
    assert parsers.parse_rocm_smi_product(fixture("rocm_smi_showproductname.txt")) == (
        Gpu(0, "gfx942", "AMD Instinct MI300X", None, "rocm-smi"),
        Gpu(1, "gfx942", "AMD Instinct MI300X", None, "rocm-smi"))


def test_rocm_smi_product_text_single_spaced_and_old_spelling():
    text = ("GPU[0] : Card Series: AMD Instinct MI300X VF\nGPU[0] : GFX Version: gfx942\n"
            "GPU[1]\t\t: Card series: \t\tInstinct MI100\nGPU[1]\t\t: Card model: \t\t0x738c\n")
    assert parsers.parse_rocm_smi_product(text) == (Gpu(0, "gfx942", "AMD Instinct MI300X VF", None, "rocm-smi"),
                                                   Gpu(1, None, "Instinct MI100", None, "rocm-smi"))


def test_rocm_smi_product_json():
    assert parsers.parse_rocm_smi_json(fixture("rocm_smi_showproductname.json")) == (
        Gpu(0, "gfx90a", "AMD Instinct MI210", None, "rocm-smi"),
        Gpu(1, "gfx90a", "AMD Instinct MI210", None, "rocm-smi"))


def test_rocm_smi_json_after_a_warning_line():
    text = ("WARNING: AMD GPU device(s) is/are in a low-power state. Check power control/runtime_status\n"
            '{"card0": {"Card Series": "AMD Radeon RX 6600", "GFX Version": "gfx1032"}, "system": {}}\n')
    assert parsers.parse_rocm_smi_json(text) == (Gpu(0, "gfx1032", "AMD Radeon RX 6600", None, "rocm-smi"),)


def test_version_lines_of_rocm_smi_and_amd_smi():
    assert parsers.parse_version_fields(fixture("rocm_smi_version.txt")) == {
        "ROCM-SMI": "3.0.0+0e0d9cb", "ROCM-SMI-LIB": "7.5.0"}
    assert parsers.parse_version_fields(fixture("amd_smi_version.txt")) == {
        "AMDSMI Tool": "25.3.0+ede62f2", "AMDSMI Library": "25.3.0", "ROCm": "6.4.0", "amdgpu": "6.10.5",
        "amd_hsmp": None}


def test_version_fields_skip_error_lines_printed_before_them():
    text = ("ERROR:root:Unable to get devices, driver not initialized (amdgpu not found in modules)\n"
            "AMDSMI Tool: 26.1.0+b5522cc8 | AMDSMI Library version: 26.1.0 | ROCm version: N/A\n")
    assert parsers.parse_version_fields(text) == {"AMDSMI Tool": "26.1.0+b5522cc8", "AMDSMI Library": "26.1.0",
                                                  "ROCm": None}


def test_amd_smi_static_asic_list_and_gpu_data_wrapper():
    expected = (Gpu(0, "gfx942", "AMD Instinct MI300X", 304, "amd-smi"),
                Gpu(1, "gfx942", "AMD Instinct MI300X", 304, "amd-smi"))
    assert parsers.parse_amd_smi_asic(fixture("amd_smi_static_asic.json")) == expected
    wrapped = json.dumps({"gpu_data": parsers.load_json(fixture("amd_smi_static_asic.json"))})
    assert parsers.parse_amd_smi_asic(wrapped) == expected


def test_hipconfig_full_is_this_machines_real_output():
    assert parsers.parse_hipconfig_full(fixture("hipconfig_full.txt")) == parsers.HipConfig(
        hip_version="5.2.21153-0", hip_path="/usr", rocm_path="/usr", compiler="clang", platform="amd",
        runtime="rocclr", clang="Debian clang version 15.0.6", clang_dir="/usr/bin")
    assert parsers.parse_first_word(fixture("hipconfig_version.txt")) == "5.2.21153-0"


def test_torch_version_line():
    assert parsers.parse_torch_versions("2.4.1+rocm6.1 6.1.40091-a8dbc0c19 None\n") == parsers.TorchVersions(
        "2.4.1+rocm6.1", "6.1.40091-a8dbc0c19", None)
    assert parsers.parse_torch_versions("UserWarning: something\n2.5.1+cu121 None 12.1\n") == parsers.TorchVersions(
        "2.5.1+cu121", None, "12.1")
    assert parsers.parse_torch_versions("Traceback (most recent call last):\n") is None


def test_parsers_return_nothing_on_unrelated_text():
    for text in ("", "not json at all", "[1, 2]", "{\"card\": 3}"):
        assert parsers.parse_rocm_smi_json(text) == ()
        assert parsers.parse_amd_smi_asic(text) == ()
        assert parsers.parse_rocm_smi_product(text) == ()
    assert parsers.parse_rocminfo("").agents == ()
    assert parsers.parse_hipconfig_full("") == parsers.HipConfig(None, None, None, None, None, None, None, None)


