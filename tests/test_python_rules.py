"""Python API rules (PY001-PY012) on whole files through the pipeline (`api.analyse`): a DDP training script, a
setup.py and a utility module are migrated to their exact expected text with the exact findings (code, line),
with and without --portable and --unsafe-fixes; the output still parses, the utility module still imports with
the CPU torch on disk, a second pass changes nothing, and no output holds a wrong port."""
from __future__ import annotations

import importlib.util
import re

import libcst as cst
import pytest

from migrate.model import FileStatus, Severity
from migrate.packs import default_packs
from migrate.registry import default_registry
from migrate.rule import Invalid
from migrate.testing import run_example
from tests.conftest import need_torch
from tests.helpers import analysed_files

TRAIN = '''\
"""DDP training script (CUDA build): run with torchrun --nproc_per_node=8 train.py."""
import os
import subprocess

import pynvml
import torch
import torch.distributed as dist
from torch.cuda.amp import GradScaler, autocast
from torch.nn.parallel import DistributedDataParallel as DDP


def log_gpus():
    subprocess.run(["nvidia-smi", "-L"], check=True)
    used = subprocess.check_output(["nvidia-smi", "--query-gpu=memory.used", "--format=csv"], text=True)
    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    print(pynvml.nvmlDeviceGetName(handle), used)


def main():
    dist.init_process_group(backend="nccl")
    rank = int(os.environ["LOCAL_RANK"])
    device = torch.device(f"hip:{rank}")
    torch.hip.set_device(device)
    if torch.version.cuda:
        log_gpus()
    if torch.cuda.get_device_capability() >= (8, 0):
        dtype = torch.bfloat16
    else:
        dtype = torch.float16
    model = DDP(torch.nn.Linear(16, 16).to(device), device_ids=[rank])
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = GradScaler(init_scale=1024.0)
    stream = torch.cuda.Stream()
    for step in range(10):
        x = torch.randn(8, 16, device=device)
        with torch.cuda.stream(stream):
            with autocast(dtype=dtype):
                loss = model(x).sum()
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
    torch.cuda.synchronize()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
'''

# default options: every line that changes, as (before, after)
TRAIN_CHANGES = [
    ("from torch.cuda.amp import GradScaler, autocast", "from torch.amp import GradScaler, autocast"),
    ('subprocess.run(["nvidia-smi", "-L"], check=True)', 'subprocess.run(["amd-smi", "list"], check=True)'),
    ('device = torch.device(f"hip:{rank}")', 'device = torch.device(f"cuda:{rank}")'),
    ("torch.hip.set_device(device)", "torch.cuda.set_device(device)"),
    ("if torch.version.cuda:", "if torch.version.cuda or torch.version.hip:"),
    ("scaler = GradScaler(init_scale=1024.0)", 'scaler = GradScaler("cuda", init_scale=1024.0)'),
    ("with autocast(dtype=dtype):", 'with autocast("cuda", dtype=dtype):'),
]
TRAIN_MIGRATED = TRAIN
for _old, _new in TRAIN_CHANGES:
    assert TRAIN_MIGRATED.count(_old) == 1
    TRAIN_MIGRATED = TRAIN_MIGRATED.replace(_old, _new)

TRAIN_FINDINGS = [  # (code, line, severity, fixed): an error whose fix was applied is a warning
    ("PY001", 24, Severity.WARNING, True),  # torch.hip.set_device
    ("PY003", 23, Severity.WARNING, True),  # f"hip:{rank}"
    ("PY005", 8, Severity.INFO, True),  # from torch.cuda.amp import ... (and its two uses)
    ("PY008", 21, Severity.INFO, False),  # backend="nccl" stays
    ("PY009", 25, Severity.WARNING, True),  # if torch.version.cuda:
    ("PY010", 27, Severity.WARNING, False),  # get_device_capability() >= (8, 0)
    ("PY011", 13, Severity.INFO, True),  # nvidia-smi -L
    ("PY011", 14, Severity.WARNING, False),  # nvidia-smi --query-gpu parsed by check_output
    ("PY012", 5, Severity.WARNING, False),  # import pynvml
    ("PY012", 15, Severity.WARNING, False),  # nvmlInit
    ("PY012", 16, Severity.WARNING, False),  # nvmlDeviceGetHandleByIndex
    ("PY012", 17, Severity.WARNING, False),  # nvmlDeviceGetName
]

PORTABLE_CHANGES = [
    ('dist.init_process_group(backend="nccl")',
     "dist.init_process_group(backend=dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))"),
    ("stream = torch.cuda.Stream()", "stream = torch.Stream()"),
    ("torch.cuda.synchronize()", "torch.accelerator.synchronize()"),
]

SETUP = '''\
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, HIPExtension

setup(
    name="fused",
    ext_modules=[HIPExtension("fused._C", ["fused.cu"], extra_compile_args={"nvcc": ["-O3", "--use_fast_math"]})],
    cmdclass={"build_ext": BuildExtension},
)
'''
SETUP_MIGRATED = SETUP.replace("HIPExtension", "CUDAExtension").replace(
    '"--use_fast_math"', '"-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt"')

UTILS = '''\
"""Helpers shared by the training scripts."""
import torch
from torch.cuda import amp

HAS_GPU_BUILD = torch.version.cuda is not None
CPU_ONLY = not torch.version.cuda


def make_scaler(enabled=True):
    return amp.GradScaler(2.0 ** 16, enabled=enabled)


def autocast_ctx(dtype):
    return amp.autocast(True, dtype)


def to_gpu(t, rank):
    if t.device.type == "rocm":
        return t
    return t.to("hip", non_blocking=True)


def backend():
    return "rccl" if torch.cuda.is_available() else "gloo"
'''
UTILS_MIGRATED = '''\
"""Helpers shared by the training scripts."""
import torch
from torch import amp

HAS_GPU_BUILD = torch.version.cuda is not None or torch.version.hip is not None
CPU_ONLY = not (torch.version.cuda or torch.version.hip)


def make_scaler(enabled=True):
    return amp.GradScaler("cuda", 2.0 ** 16, enabled=enabled)


def autocast_ctx(dtype):
    return amp.autocast("cuda", enabled=True, dtype=dtype)


def to_gpu(t, rank):
    if t.device.type == "cuda":
        return t
    return t.to("cuda", non_blocking=True)


def backend():
    return "rccl" if torch.cuda.is_available() else "gloo"
'''

# What a migrated file must never hold (PyTorch on ROCm keeps torch.cuda, "cuda", "nccl", CUDAExtension).
WRONG_PORTS = re.compile(r"torch\.hip\b|\bHIPExtension\b|device\s*=\s*['\"](hip|rocm)|\.to\(\s*['\"](hip|rocm)|"
                         r"torch\.device\(\s*f?['\"](hip|rocm)|backend\s*=\s*['\"]rccl")


def summary(result) -> list[tuple[str, int, Severity, bool]]:
    return [(f.code, f.span.line, f.severity, f.fix is not None and f.fix.applicability.value == "safe")
            for f in result.findings]


def test_training_script(tmp_path):
    result = analysed_files(tmp_path / "src", {"train.py": TRAIN})["train.py"]
    assert result.status is FileStatus.MIGRATED
    assert result.new.decode() == TRAIN_MIGRATED
    assert summary(result) == TRAIN_FINDINGS
    cst.parse_module(result.new)
    assert not WRONG_PORTS.search(result.new.decode())

    again = analysed_files(tmp_path / "again", {"train.py": result.new.decode()})["train.py"]
    assert again.status is FileStatus.UNCHANGED
    assert [(f.code, f.span.line) for f in again.findings] == [  # the reports that stay: nothing to apply
        ("PY008", 21), ("PY010", 27), ("PY011", 14), ("PY012", 5), ("PY012", 15), ("PY012", 16), ("PY012", 17)]


def test_training_script_portable(tmp_path):
    result = analysed_files(tmp_path, {"train.py": TRAIN}, portable=True)["train.py"]
    expected = TRAIN_MIGRATED
    for old, new in PORTABLE_CHANGES:
        assert expected.count(old) == 1
        expected = expected.replace(old, new)
    assert result.new.decode() == expected
    portable = [("PY006", 34, Severity.INFO, True),  # torch.cuda.Stream()
                ("PY006", 37, Severity.INFO, False),  # with torch.cuda.stream(stream): unsafe, not applied
                ("PY006", 43, Severity.INFO, True),  # torch.cuda.synchronize()
                ("PY008", 21, Severity.INFO, True)]  # backend from the accelerator
    assert summary(result) == [f for f in TRAIN_FINDINGS if f[0] < "PY006"] + portable + \
        [f for f in TRAIN_FINDINGS if f[0] > "PY008"]
    assert not WRONG_PORTS.search(result.new.decode())


def test_training_script_portable_unsafe(tmp_path):
    result = analysed_files(tmp_path, {"train.py": TRAIN}, portable=True, unsafe_fixes=True)["train.py"]
    text = result.new.decode()
    assert "        with stream:\n            with autocast(\"cuda\", dtype=dtype):\n" in text
    assert "torch.cuda.stream" not in text
    cst.parse_module(result.new)


def test_setup_py_hip_extension_and_nvcc_flags_in_one_pass(tmp_path):
    """PY002 turns HIPExtension into CUDAExtension and BLD201 migrates the nvcc options of that same call in the
    same pass (BLD201 also reads HIPExtension calls); a second run changes nothing."""
    first = analysed_files(tmp_path / "1", {"setup.py": SETUP})["setup.py"]
    assert first.new.decode() == SETUP_MIGRATED
    assert sorted((f.code, f.span.line) for f in first.findings) == [("BLD201", 6), ("PY002", 2)]
    second = analysed_files(tmp_path / "2", {"setup.py": first.new.decode()})["setup.py"]
    assert second.status is FileStatus.UNCHANGED


@pytest.mark.torch
def test_utility_module_migrates_and_imports(tmp_path):
    need_torch()
    result = analysed_files(tmp_path / "src", {"utils.py": UTILS})["utils.py"]
    assert result.new.decode() == UTILS_MIGRATED
    assert [(f.code, f.span.line) for f in result.findings] == [("PY003", 18), ("PY003", 20), ("PY005", 3),
                                                                ("PY009", 5), ("PY009", 6)]
    # "rccl" as a plain return value is not a backend argument: left alone (no rule can know where it goes)
    out = tmp_path / "utils_migrated.py"
    out.write_bytes(result.new)
    spec = importlib.util.spec_from_file_location("utils_migrated", out)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # CPU torch 2.13: torch.version.cuda and .hip are both None
    assert (module.HAS_GPU_BUILD, module.CPU_ONLY) == (False, True)
    scaler = module.make_scaler(enabled=False)
    assert type(scaler).__module__ == "torch.amp.grad_scaler" and scaler.get_scale() == 1.0  # disabled: scale 1


@pytest.mark.parametrize("portable", [False, True])
def test_no_rule_output_holds_a_wrong_port(portable):
    """Every PY001-PY019 example, migrated: no torch.hip, HIPExtension, hip/rocm device or rccl backend appears that
    was not in the input already."""
    registry = default_registry()
    checked = 0
    for rule in registry.rules:
        if not re.fullmatch(r"PY0(0\d|1\d)", rule.code):
            continue
        for example in rule.examples:
            if not isinstance(example, Invalid):
                continue
            options = dict(example.options)
            options["portable"] = portable or options.get("portable", False)
            example = Invalid(example.code, options=tuple(options.items()), path=example.path)
            outcome = run_example(rule, example, default_packs(), [])
            before = {m.group(0) for m in WRONG_PORTS.finditer(example.code)}
            after = {m.group(0) for m in WRONG_PORTS.finditer(outcome.output)}
            assert after <= before, (rule.code, outcome.output)
            assert len(WRONG_PORTS.findall(outcome.output)) <= len(WRONG_PORTS.findall(example.code))
            checked += 1
    assert checked >= 25


def test_unparsable_file_gets_no_python_finding(tmp_path):
    data = TRAIN.replace("def main():", "def main(:")
    result = analysed_files(tmp_path, {"train.py": data})["train.py"]
    assert result.new.decode() == data
    assert [f.code for f in result.findings] == ["INP001"]


def test_shadowed_names_are_not_touched(tmp_path):
    source = ('def run(torch, autocast, dist):\n'
              '    torch.hip.synchronize()\n'
              '    with autocast(True):\n'
              '        dist.init_process_group(backend="rccl")\n'
              '    return torch.version.cuda >= "11.8"\n')
    result = analysed_files(tmp_path, {"local.py": source})["local.py"]
    assert result.status is FileStatus.UNCHANGED
    assert result.findings == ()


RUNTIME = '''\
"""Which GPU runtime this torch was built with."""
import torch


def runtime_version():
    if torch.version.cuda:
        v = torch.version.cuda
    elif torch.version.hip:
        v = torch.version.hip
    else:
        v = None
    return v


def backend():
    if torch.version.cuda is not None:
        return "cuda"
    else:
        return "rocm" if torch.version.hip else "cpu"


def cuda_major():
    if not torch.version.cuda:
        return None
    return int(torch.version.cuda.split(".")[0])


def log_runtime(log):
    if torch.version.cuda:
        log.info("CUDA %s", torch.version.cuda)


def has_gpu_build():
    return torch.version.cuda is not None


if torch.version.cuda:
    DEFAULT = "gpu"
'''


def test_torch_version_cuda_tests_read_with_the_code_around_them(tmp_path):
    """PY009 (issue 31): a test whose elif/else already handles ROCm is kept with no finding; one whose guarded code
    reads torch.version.cuda (the body, or the rest of the function after `if not ...: return`) is reported without
    a fix, and the parsing under it is not reported again; the other tests are still fixed."""
    result = analysed_files(tmp_path / "src", {"runtime.py": RUNTIME})["runtime.py"]
    assert result.new.decode() == RUNTIME.replace(
        "    return torch.version.cuda is not None\n",
        "    return torch.version.cuda is not None or torch.version.hip is not None\n").replace(
        "\nif torch.version.cuda:\n", "\nif torch.version.cuda or torch.version.hip:\n")
    assert summary(result) == [("PY009", 23, Severity.WARNING, False), ("PY009", 29, Severity.WARNING, False),
                               ("PY009", 34, Severity.WARNING, True), ("PY009", 37, Severity.WARNING, True)]
    reads = [f for f in result.findings if f.fix is None]
    assert [f.message for f in reads] == [
        "torch.version.cuda is None on ROCm builds of PyTorch, and the code this test guards reads it: accepting "
        "torch.version.hip here would run that code with None there; give ROCm its own branch that reads "
        "torch.version.hip (`elif torch.version.hip:`)"] * 2
    again = analysed_files(tmp_path / "again", {"runtime.py": result.new.decode()})["runtime.py"]
    assert again.status is FileStatus.UNCHANGED
    assert [(f.code, f.span.line) for f in again.findings] == [("PY009", 23), ("PY009", 29)]


@pytest.mark.parametrize("source", [
    # the wrong port of issue 31: the HIP branch the code already had would be dead
    "import torch\n\nif torch.version.cuda:\n    v = torch.version.cuda\nelif torch.version.hip:\n"
    "    v = torch.version.hip\n",
    # a pair of flags: HAS_CUDA true on ROCm would take the CUDA branch of every `if HAS_CUDA: ... elif HAS_HIP:`
    "import torch\n\nHAS_CUDA = torch.version.cuda is not None\nHAS_HIP = torch.version.hip is not None\n",
    "import torch\nfrom vllm.platforms import current_platform\n\n"
    "if torch.version.cuda and not current_platform.is_rocm():\n    pass\n",
    "import torch\n\ncuda_version = torch.version.cuda\nif cuda_version:\n    print('CUDA', cuda_version)\n"
    "elif torch.version.hip:\n    print('HIP', torch.version.hip)\n",
    # the ROCm choice made just after: accepting hip in the first test would set the backend twice on ROCm
    "import torch\n\nif torch.version.cuda:\n    backend = 'cuda'\nif torch.version.hip:\n    backend = 'rocm'\n",
], ids=["elif-hip", "flag-pair", "not-rocm", "holder-elif-hip", "hip-after"])
def test_torch_version_cuda_kept_where_rocm_is_handled(tmp_path, source):
    result = analysed_files(tmp_path, {"runtime.py": source})["runtime.py"]
    assert result.status is FileStatus.UNCHANGED
    assert result.findings == ()
