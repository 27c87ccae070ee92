"""hipmigrate doctor: the checks on machines described by a hand-built Probe, and the real command on this machine
(the parsers on recorded tool outputs: tests/test_doctor_parsers.py)."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from migrate import api, toolchain
from migrate.cli import main
from migrate.doctor import Check, Node, Output, Probe, Status, User, checks, parsers
from migrate.doctor import probe as keys
from migrate.doctor.checks import CHECKS

FIXTURES = Path(__file__).parent / "fixtures" / "doctor"
TARGETS = ("gfx90a", "gfx940")


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text()


# --- checks on described machines -------------------------------------------------------------------------------

def rw(path: str) -> Node:
    return Node(path, True, True)


def amd_machine(**changes) -> Probe:
    """A working AMD machine: hipcc 5.2 (this machine's hipconfig output), two MI210 in rocminfo, device access
    through the video and render groups."""
    probe = Probe(
        tools={"hipcc": "/usr/bin/hipcc", "hipconfig": "/usr/bin/hipconfig", "rocminfo": "/usr/bin/rocminfo"},
        outputs={keys.HIPCONFIG_VERSION: Output(0, fixture("hipconfig_version.txt")),
                 keys.HIPCONFIG_FULL: Output(0, fixture("hipconfig_full.txt")),
                 keys.HIPCONFIG_PLATFORM: Output(0, "amd"),
                 keys.ROCMINFO: Output(0, fixture("rocminfo_mi210.txt")),
                 keys.ROCMINFO_PACKAGE: Output(0, "5.2.3-2")},
        accepted={"gfx90a": True, "gfx940": True},
        kfd=rw("/dev/kfd"), render_nodes=(rw("/dev/dri/renderD128"), rw("/dev/dri/renderD129")),
        user=User("ana", 1000, frozenset({"ana", "video", "render"})),
        hip_runtime="/usr/lib/x86_64-linux-gnu/libamdhip64.so.5")
    return replace(probe, **changes)


def with_outputs(probe: Probe, **outputs: Output) -> dict[str, Output]:
    merged = dict(probe.outputs)
    merged.update({getattr(keys, k): v for k, v in outputs.items()})
    return merged


def test_a_working_amd_machine_can_build_and_run():
    report = checks.run(amd_machine(), TARGETS)
    assert [c for c in report.checks if c.status in (Status.ERROR, Status.WARNING)] == []
    assert report.check("gpus") == Check("gpus", Status.OK, "2 AMD GPUs: 2 x AMD Instinct MI210 (gfx90a) "
                                         "(from rocminfo)", area=checks.RUN)
    assert report.check("rocminfo").detail == ("/usr/bin/rocminfo (package 5.2.3-2): HSA runtime 1.14, "
                                               "amdgpu driver 6.8.5, 2 GPU agents")
    assert report.check("hip-clang").detail == "Debian clang version 15.0.6 in /usr/bin"
    s = report.summary
    assert (s.can_build, s.can_run) == (True, True)
    assert s.message == ("Can build for AMD: hipcc (HIP 5.2.21153-0) compiles for gfx90a, gfx940. "
                         "Can run on 2 AMD GPUs: 2 x AMD Instinct MI210 (gfx90a).")


def test_gpu_not_among_targets_warns_with_the_offload_arch_to_add():
    report = checks.run(amd_machine(accepted={"gfx940": True}), ("gfx940",))
    c = report.check("gpu gfx90a")
    assert c.status is Status.WARNING
    assert c.detail == ("GPU 0, 1 (AMD Instinct MI210) is gfx90a, not among the targets gfx940: code built for "
                        "them does not run on it")
    assert c.fix == "add --offload-arch=gfx90a"
    assert report.summary.run_note.endswith("No target matches gfx90a: add --offload-arch=gfx90a.")


def test_target_with_features_matches_its_gpu():
    report = checks.run(amd_machine(accepted={"gfx90a:xnack+": True}), ("gfx90a:xnack+",))
    assert report.check("gpu gfx90a").status is Status.OK


def test_consumer_rdna_gpu_mentions_the_override_only_as_information():
    probe = amd_machine(tools={"hipcc": "/usr/bin/hipcc", "rocm-smi": "/usr/bin/rocm-smi"},
                        outputs={keys.ROCM_SMI_VERSION: Output(0, fixture("rocm_smi_version.txt")),
                                 keys.ROCM_SMI_PRODUCT_JSON: Output(0, '{"card0": {"Card Series": "AMD Radeon RX '
                                                                    '6600", "GFX Version": "gfx1032"}}')})
    report = checks.run(probe, TARGETS)
    assert report.check("gpu gfx1032").status is Status.WARNING
    support = report.check("gpu gfx1032 support")
    assert support.status is Status.INFO and support.fix is None
    assert "HSA_OVERRIDE_GFX_VERSION=10.3.0 (treated as gfx1030)" in support.detail
    assert report.check("rocm-smi").detail == ("/usr/bin/rocm-smi: ROCM-SMI 3.0.0+0e0d9cb, ROCM-SMI-LIB 7.5.0; "
                                               "lists 1 GPU")


def test_gpus_come_from_rocm_smi_text_then_amd_smi_when_rocminfo_lists_none():
    base = amd_machine()
    no_agents = with_outputs(base, ROCMINFO=Output(1, fixture("rocminfo_no_gpu.txt")),
                             ROCM_SMI_PRODUCT=Output(0, fixture("rocm_smi_showproductname.txt")),
                             AMD_SMI_ASIC=Output(0, fixture("amd_smi_static_asic.json")))
    gpus = checks.found_gpus(replace(base, outputs=no_agents))
    assert [g.source for g in gpus] == ["rocm-smi", "rocm-smi"]
    del no_agents[keys.ROCM_SMI_PRODUCT]
    assert checks.found_gpus(replace(base, outputs=no_agents)) == parsers.parse_amd_smi_asic(
        fixture("amd_smi_static_asic.json"))


def test_amd_smi_check_reports_its_versions():
    probe = amd_machine(tools={"amd-smi": "/opt/rocm/bin/amd-smi"},
                        outputs={keys.AMD_SMI_VERSION: Output(0, fixture("amd_smi_version.txt")),
                                 keys.AMD_SMI_ASIC: Output(0, fixture("amd_smi_static_asic.json"))})
    assert checks.check_amd_smi(probe, TARGETS) == Check(
        "amd-smi", Status.OK, "/opt/rocm/bin/amd-smi: AMDSMI Tool 25.3.0+ede62f2, AMDSMI Library 25.3.0, "
        "ROCm 6.4.0, amdgpu 6.10.5; lists 2 GPUs", area=checks.RUN)


def test_visible_devices_conflict():
    env = {"CUDA_VISIBLE_DEVICES": "0", "HIP_VISIBLE_DEVICES": "1"}
    c = checks.check_visible_devices(amd_machine(env=env), TARGETS)
    assert c.status is Status.WARNING
    assert c.detail.startswith("CUDA_VISIBLE_DEVICES=0, HIP_VISIBLE_DEVICES=1: HIP honours all three")
    assert c.fix == ("unset CUDA_VISIBLE_DEVICES (select AMD GPUs with HIP_VISIBLE_DEVICES or "
                     "ROCR_VISIBLE_DEVICES)")
    same = {"CUDA_VISIBLE_DEVICES": "0,1", "ROCR_VISIBLE_DEVICES": "0,1"}
    assert checks.check_visible_devices(amd_machine(env=same), TARGETS).status is Status.INFO
    assert checks.check_visible_devices(amd_machine(env={"CUDA_VISIBLE_DEVICES": "2"}), TARGETS).status is Status.INFO
    assert checks.check_visible_devices(amd_machine(env={"HIP_VISIBLE_DEVICES": "2"}), TARGETS).status is Status.OK


def test_hsa_override_warns_and_names_the_forced_isa():
    c = checks.check_hsa_override(amd_machine(env={"HSA_OVERRIDE_GFX_VERSION": "10.3.0"}), TARGETS)
    assert (c.status, c.fix) == (Status.WARNING, "unset HSA_OVERRIDE_GFX_VERSION")
    assert "treat every GPU as gfx1030" in c.detail
    assert checks.gfx_of_override("9.0.10") == "gfx90a" and checks.gfx_of_override("11.0.0") == "gfx1100"
    assert checks.gfx_of_override("banana") is None


def test_hip_platform_nvidia_blocks_building():
    report = checks.run(amd_machine(env={"HIP_PLATFORM": "nvidia"}), TARGETS)
    c = report.check("env HIP_PLATFORM")
    assert (c.status, c.fix, c.blocks_build) == (Status.ERROR, "export HIP_PLATFORM=amd", True)
    assert report.summary.can_build is False
    assert report.summary.build_note == "Cannot build for AMD: env HIP_PLATFORM failed."


def test_nvcc_on_path_makes_hipcc_pick_nvidia_unless_hip_platform_is_amd():
    base = amd_machine()
    nvcc = replace(base, tools={**base.tools, "nvcc": "/usr/local/bin/nvcc"},
                   outputs=with_outputs(base, HIPCONFIG_PLATFORM=Output(0, "nvidia")))
    c = checks.check_nvcc(nvcc, TARGETS)
    assert (c.status, c.fix) == (Status.WARNING, "export HIP_PLATFORM=amd")
    assert c.detail.startswith("nvcc is on PATH (/usr/local/bin/nvcc), so hipcc picks the NVIDIA platform")
    forced = checks.check_nvcc(replace(nvcc, env={"HIP_PLATFORM": "amd"}), TARGETS)
    assert forced == Check("nvcc", Status.OK, "nvcc is on PATH (/usr/local/bin/nvcc), but HIP_PLATFORM=amd makes "
                           "hipcc build for AMD")
    assert checks.check_nvcc(base, TARGETS).status is Status.OK


def test_no_hipcc_blocks_building_and_skips_the_targets():
    report = checks.run(amd_machine(tools={"rocminfo": "/usr/bin/rocminfo"}, accepted={}), TARGETS)
    hipcc = report.check("hipcc")
    assert (hipcc.status, hipcc.fix) == (Status.ERROR, toolchain.INSTALL_HINT)
    assert report.check("target gfx90a") == Check("target gfx90a", Status.INFO, "not checked: no hipcc")
    assert report.summary.build_note == "Cannot build for AMD: hipcc failed."
    assert report.summary.can_run is True  # the GPU, the device files and the runtime are there


def test_a_target_hipcc_rejects_is_an_error_with_a_fix():
    c = checks.check_targets(amd_machine(accepted={"gfx942": False}), ("gfx942",))
    assert c == (Check("target gfx942", Status.ERROR, "hipcc (HIP 5.2.21153-0, Debian clang version 15.0.6) cannot "
                       "compile a one-line kernel for gfx942",
                       "drop --offload-arch=gfx942, or install a HIP/ROCm whose clang supports gfx942"),)


def test_a_rejected_target_with_a_known_first_release_names_it():
    c = checks.check_targets(amd_machine(accepted={"gfx1250": False}), ("gfx1250",))
    assert c[0].fix == "drop --offload-arch=gfx1250, or install ROCm 7.2 or later, whose clang supports gfx1250"


def test_device_files_the_user_cannot_open():
    locked = Node("/dev/kfd", False, False)
    probe = amd_machine(kfd=locked, user=User("ana", 1000, frozenset({"ana"})))
    report = checks.run(probe, TARGETS)
    kfd = report.check("/dev/kfd")
    assert (kfd.status, kfd.detail, kfd.fix) == (Status.ERROR, "ana cannot read or write /dev/kfd",
                                                 "sudo usermod -aG video,render $USER")
    groups = report.check("groups")
    assert (groups.status, groups.fix) == (Status.ERROR, "sudo usermod -aG video,render $USER")
    assert report.summary.can_run is False and report.summary.can_build is True
    assert report.summary.run_note == "Cannot run on an AMD GPU here: /dev/kfd, groups failed."


def test_groups_root_counts_as_access_and_a_missing_group_is_named():
    root = amd_machine(user=User("root", 0, frozenset({"root"})))
    assert checks.check_groups(root, TARGETS).status is Status.OK
    video_only = amd_machine(user=User("ana", 1000, frozenset({"ana", "video"})))
    c = checks.check_groups(video_only, TARGETS)
    assert (c.status, c.fix) == (Status.WARNING, "sudo usermod -aG render $USER")  # the devices still open
    no_render_group = amd_machine(user=User("ana", 1000, frozenset({"ana"}), frozenset({"video"})))
    assert checks.check_groups(no_render_group, TARGETS).fix == "sudo usermod -aG video $USER"


def test_no_kfd_means_no_amd_gpu_here():
    base = amd_machine()
    probe = replace(base, kfd=None, render_nodes=(),
                    outputs=with_outputs(base, ROCMINFO=Output(1, fixture("rocminfo_no_gpu.txt"))))
    report = checks.run(probe, TARGETS)
    assert report.check("gpus").detail == ("no AMD GPU on this machine: no /dev/kfd, and rocminfo says: ROCk module "
                                           "is NOT loaded, possibly no GPU devices")
    assert report.check("rocminfo").status is Status.WARNING
    assert report.summary.can_build is True and report.summary.can_run is False
    assert report.summary.run_note == ("There is no AMD GPU on this machine (no /dev/kfd): programs build but cannot "
                                       "run here.")


def test_missing_hip_runtime():
    c = checks.check_hip_runtime(amd_machine(hip_runtime=None), TARGETS)
    assert (c.status, c.fix) == (Status.ERROR, checks.RUNTIME_FIX)


@pytest.mark.parametrize("printed,status,detail", [
    ("2.4.1+rocm6.1 6.1.40091-a8dbc0c19 None\n", Status.OK,
     "torch 2.4.1+rocm6.1, a ROCm build (HIP 6.1.40091-a8dbc0c19)"),
    ("2.5.1+cu121 None 12.1\n", Status.WARNING,
     "torch 2.5.1+cu121 is a CUDA build (CUDA 12.1): it cannot use AMD GPUs"),
    ("2.5.1+cpu None None\n", Status.WARNING, "torch 2.5.1+cpu is a CPU-only build: it uses no GPU"),
])
def test_torch_build_kinds(printed, status, detail):
    base = amd_machine(torch_installed=True)
    c = checks.check_torch(replace(base, outputs=with_outputs(base, TORCH_VERSIONS=Output(0, printed))), TARGETS)
    assert (c.status, c.detail) == (status, detail)
    assert c.fix == (None if status is Status.OK else checks.TORCH_FIX)


def test_torch_not_installed_or_broken():
    assert checks.check_torch(amd_machine(python="/usr/bin/python3"), TARGETS) == Check(
        "pytorch", Status.INFO, "PyTorch is not installed for /usr/bin/python3 (needed only by PyTorch projects; on "
        "ROCm use a ROCm wheel)", area=checks.RUN)
    base = amd_machine(torch_installed=True)
    broken = replace(base, outputs=with_outputs(base, TORCH_VERSIONS=Output(
        1, "", "Traceback (most recent call last):\nImportError: libamdhip64.so.6: cannot open shared object file")))
    c = checks.check_torch(broken, TARGETS)
    assert c.status is Status.WARNING
    assert c.detail == "import torch failed: ImportError: libamdhip64.so.6: cannot open shared object file"


def test_checks_are_injectable():
    def only_hipcc(p, targets):
        return Check("custom", Status.OK, f"{len(targets)} targets")

    report = checks.run(amd_machine(), TARGETS, checks=(checks.check_hipcc, only_hipcc))
    assert [c.name for c in report.checks] == ["hipcc", "custom"]
    assert len(CHECKS) == 21


def test_api_rejects_a_target_that_is_not_amd():
    from migrate.errors import UsageError

    with pytest.raises(UsageError, match="sm_80"):
        api.doctor(("sm_80",), amd_machine())
    assert api.doctor(TARGETS, amd_machine()).summary.can_run is True


# --- the real command on this machine ---------------------------------------------------------------------------

def doctor(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, ["doctor", *args], env=env, catch_exceptions=False)


def test_real_doctor_prints_a_table_and_the_verdict(hipcc, hipcc64, hipcc72):
    result = doctor()
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("hipmigrate doctor: targets gfx942\n")  # the default toolchain's: HIP 7.2
    assert "┃ status" in out and "detail and fix" in out
    for name in ("hipcc", "toolchain HIP 7.2 (default)", "toolchain HIP 6.4", "toolchain HIP 5.2", "hipconfig",
                 "hip-clang",
                 "target gfx942", "/dev/kfd", "groups", "pytorch", "env HIP_PLATFORM"):
        assert name in out
    assert "build: Can build for AMD: hipcc (HIP " in out
    if not Path("/dev/kfd").exists():
        assert ("run:   There is no AMD GPU on this machine (no /dev/kfd): programs build but cannot run here."
                in out)


def test_real_doctor_json_lists_the_three_toolchains_with_their_probed_targets(hipcc, hipcc64, hipcc72):
    result = doctor("--output-format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [(t["hipcc"], t["hip_version"], t["full_version"], t["clang"], t["default"], t["compiles"], t["rejects"])
            for t in doc["toolchains"]] == [
        (hipcc72, "7.2", "7.2.53211-9999", "Debian clang version 22.1.8", True,
         ["gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1201", "gfx1250"], ["gfx940"]),
        (hipcc64, "6.4", "6.4.43484-9999", "Debian clang version 21.1.8", False,
         ["gfx908", "gfx90a", "gfx942", "gfx950", "gfx1030", "gfx1100", "gfx1201"], ["gfx940", "gfx1250"]),
        (hipcc, "5.2", "5.2.21153-0", "Debian clang version 15.0.6", False,
         ["gfx908", "gfx90a", "gfx940", "gfx1030"], ["gfx942", "gfx950", "gfx1100", "gfx1201", "gfx1250"]),
    ]
    summary = doc["summary"]
    assert summary["can_build"] is True and summary["targets"] == ["gfx942"]
    by_name = {c["name"]: c for c in doc["checks"]}
    assert by_name["hipcc"]["detail"].startswith(hipcc72) and by_name["target gfx942"]["status"] == "ok"
    assert by_name["toolchain HIP 5.2"]["detail"].startswith(f"{hipcc} (found on PATH; Debian clang version 15.0.6); "
                                                              "compiles for gfx908, gfx90a, gfx940, gfx1030; not for")


def test_real_doctor_json_with_a_chosen_hipcc(hipcc):
    result = doctor("--output-format", "json", "--hipcc", hipcc)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"schema", "command", "checks", "summary", "toolchains"} and doc["command"] == "doctor"
    for c in doc["checks"]:
        assert set(c) == {"name", "status", "area", "detail", "fix"}
        assert c["status"] in ("ok", "warning", "error", "info") and c["area"] in ("build", "run")
    by_name = {c["name"]: c for c in doc["checks"]}
    assert by_name["hipcc"]["status"] == "ok" and by_name["hipcc"]["detail"].startswith(hipcc)
    assert by_name["target gfx90a"]["status"] == by_name["target gfx940"]["status"] == "ok"
    summary = doc["summary"]
    assert set(summary) == {"can_build", "can_run", "message", "build", "run", "targets", "gpus", "counts"}
    assert summary["can_build"] is True and summary["targets"] == ["gfx90a", "gfx940"]
    assert sum(summary["counts"].values()) == len(doc["checks"])
    if not Path("/dev/kfd").exists():
        assert summary["can_run"] is False and summary["gpus"] == []
        assert by_name["/dev/kfd"]["status"] == "error"
        assert "There is no AMD GPU on this machine (no /dev/kfd)" in summary["message"]


def test_real_doctor_exits_1_when_hip_platform_is_nvidia(hipcc):
    result = doctor("--output-format", "json", env={"HIP_PLATFORM": "nvidia"})
    assert result.exit_code == 1
    by_name = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    assert by_name["env HIP_PLATFORM"] == {"name": "env HIP_PLATFORM", "status": "error", "area": "build",
                                           "detail": "HIP_PLATFORM=nvidia: hipcc builds for NVIDIA GPUs, not AMD",
                                           "fix": "export HIP_PLATFORM=amd"}


def test_real_doctor_reports_visible_devices_conflict(hipcc):
    result = doctor("--output-format", "json", env={"CUDA_VISIBLE_DEVICES": "0", "HIP_VISIBLE_DEVICES": "1"})
    assert result.exit_code == 0
    by_name = {c["name"]: c for c in json.loads(result.stdout)["checks"]}
    assert by_name["env *_VISIBLE_DEVICES"]["status"] == "warning"


def test_real_doctor_usage_error():
    result = doctor("--offload-arch", "sm_80")
    assert result.exit_code == 2
    assert "--offload-arch 'sm_80': not an AMD GPU target (an NVIDIA architecture" in result.stderr
