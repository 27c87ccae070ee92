"""Environment-variable rules (PY020-PY025) on whole files through the pipeline (`api.analyse`): a Python launcher,
a shell script, a Dockerfile, a Kubernetes job, a compose file and a CI workflow are migrated to their exact expected
text with the expected findings, and a second pass changes nothing (the finder's sites: tests/test_env_sites.py)."""
from pathlib import Path

import libcst as cst
import pytest

from migrate import api
from migrate.deploy.context import parse
from migrate.model import FileStatus
from migrate.options import Options
from tests.helpers import ENV_CODES, env_findings, write_tree

OPTIONS = Options(hip_version="6.2", offload_arch=("gfx90a", "gfx940"))  # two targets: a list with ";"

LAUNCHER = '''\
"""Launch the distributed trainer on every local GPU."""
import os as _os
import subprocess
from os import environ

DEBUG = _os.getenv("CUDA_LAUNCH_BLOCKING") == "1"

environ["TORCH_CUDA_ARCH_LIST"] = "8.0;8.6+PTX"
environ.setdefault("CUDA_HOME", "/usr/local/cuda")
environ["NCCL_DEBUG"] = "INFO"
toolkit = environ.get("CUDA_HOME", "/usr/local/cuda")
gpus = environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")

env = _os.environ.copy()
env["NCCL_NVLS_ENABLE"] = "0"
env.update(NCCL_P2P_LEVEL="NVL")
if DEBUG:
    env["CUDA_LAUNCH_BLOCKING"] = "1"
subprocess.run(["torchrun", f"--nproc-per-node={len(gpus)}", "train.py"], env=env, check=True)
subprocess.run(["python", "eval.py"], env={**environ, "CUDA_LAUNCH_BLOCKING": "0"}, check=True)
environ.pop("TORCH_CUDA_ARCH_LIST", None)
'''

LAUNCHER_MIGRATED = '''\
"""Launch the distributed trainer on every local GPU."""
import os as _os
import subprocess
from os import environ

DEBUG = _os.getenv("CUDA_LAUNCH_BLOCKING") == "1"

environ["PYTORCH_ROCM_ARCH"] = "gfx90a;gfx940"
environ.setdefault("ROCM_PATH", "/opt/rocm")
environ["NCCL_DEBUG"] = "INFO"
toolkit = environ.get("ROCM_PATH", "/opt/rocm")
gpus = environ.get("CUDA_VISIBLE_DEVICES", "0").split(",")

env = _os.environ.copy()
env["NCCL_NVLS_ENABLE"] = "0"
env.update(NCCL_P2P_LEVEL="NVL")
if DEBUG:
    env["AMD_SERIALIZE_KERNEL"] = "3"
subprocess.run(["torchrun", f"--nproc-per-node={len(gpus)}", "train.py"], env=env, check=True)
subprocess.run(["python", "eval.py"], env={**environ, "AMD_SERIALIZE_KERNEL": "0"}, check=True)
environ.pop("PYTORCH_ROCM_ARCH", None)
'''

LAUNCHER_FINDINGS = [
    ("PY020", 6),  # read of CUDA_LAUNCH_BLOCKING: reported
    ("PY021", 8),
    ("PY022", 9),
    ("PY022", 11),  # a read, renamed with its default
    ("PY023", 12),  # CUDA_VISIBLE_DEVICES: kept, noted
    ("PY025", 15),  # NCCL_NVLS_ENABLE
    ("PY025", 16),  # NCCL_P2P_LEVEL=NVL: an unsafe fix, not applied by default
    ("PY020", 18),
    ("PY020", 20),
    ("PY021", 21),  # the pop
]

SCRIPT = '''\
#!/usr/bin/env bash
set -euo pipefail
export CUDA_HOME=/usr/local/cuda-12.1
export PATH="${CUDA_HOME}/bin:$PATH"
export TORCH_CUDA_ARCH_LIST="8.0 9.0"
export NCCL_SOCKET_IFNAME=eth0 NCCL_P2P_LEVEL=NVL
CUDA_VISIBLE_DEVICES=0,1 CUDA_LAUNCH_BLOCKING=1 \\
    torchrun --nproc-per-node 2 train.py --data "${DATA:-/data}"
env NVIDIA_VISIBLE_DEVICES=all python check.py
echo "toolkit: ${CUDA_HOME:-/usr/local/cuda}"
'''

SCRIPT_MIGRATED = '''\
#!/usr/bin/env bash
set -euo pipefail
export ROCM_PATH=/opt/rocm
export PATH="${ROCM_PATH}/bin:$PATH"
export PYTORCH_ROCM_ARCH="gfx90a;gfx940"
export NCCL_SOCKET_IFNAME=eth0 NCCL_P2P_LEVEL=NVL
CUDA_VISIBLE_DEVICES=0,1 AMD_SERIALIZE_KERNEL=3 \\
    torchrun --nproc-per-node 2 train.py --data "${DATA:-/data}"
env NVIDIA_VISIBLE_DEVICES=all python check.py
echo "toolkit: ${ROCM_PATH:-/opt/rocm}"
'''

DOCKERFILE = '''\
FROM rocm/pytorch:latest
ARG TORCH_CUDA_ARCH_LIST=8.0
ENV CUDA_HOME=/usr/local/cuda \\
    NVIDIA_VISIBLE_DEVICES=all \\
    NVIDIA_DRIVER_CAPABILITIES=compute,utility
ENV LD_LIBRARY_PATH=${CUDA_HOME}/lib64
WORKDIR /app
COPY . .
RUN export CUDA_LAUNCH_BLOCKING=1 && \\
    TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST}" pip install --no-build-isolation -e .
CMD ["python", "train.py"]
'''

DOCKERFILE_MIGRATED = '''\
FROM rocm/pytorch:latest
ARG PYTORCH_ROCM_ARCH="gfx90a;gfx940"
ENV ROCM_PATH=/opt/rocm \\
    NVIDIA_VISIBLE_DEVICES=all \\
    NVIDIA_DRIVER_CAPABILITIES=compute,utility
ENV LD_LIBRARY_PATH=${ROCM_PATH}/lib
WORKDIR /app
COPY . .
RUN export AMD_SERIALIZE_KERNEL=3 && \\
    TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST}" pip install --no-build-isolation -e .
CMD ["python", "train.py"]
'''

JOB = '''\
apiVersion: batch/v1
kind: Job
metadata:
  name: trainer
spec:
  template:
    spec:
      containers:
        - name: trainer
          image: registry.example.org/trainer:1.0
          env:
            - name: CUDA_LAUNCH_BLOCKING
              value: "1"
            - name: NCCL_NVLS_ENABLE
              value: "0"
            - name: NCCL_DEBUG
              value: WARN
            - name: POD_NAME
              valueFrom:
                fieldRef:
                  fieldPath: metadata.name
          command: ["python", "train.py"]
      restartPolicy: Never
'''

COMPOSE = '''\
services:
  trainer:
    image: registry.example.org/trainer:1.0
    environment:
      - CUDA_VISIBLE_DEVICES=0
      - TORCH_CUDA_ARCH_LIST=8.0;9.0
      - CUDA_HOME
    devices:
      - /dev/kfd
      - /dev/dri
'''

WORKFLOW = '''\
name: build
on: [push]
env:
  CUDA_PATH: /usr/local/cuda
jobs:
  build:
    runs-on: ubuntu-latest
    env:
      TORCH_CUDA_ARCH_LIST: "8.0"
    steps:
      - uses: actions/checkout@v4
      - run: |
          export CUDA_LAUNCH_BLOCKING=1
          pip install -e . && echo "$CUDA_PATH"
'''

WORKFLOW_MIGRATED = '''\
name: build
on: [push]
env:
  ROCM_PATH: /opt/rocm
jobs:
  build:
    runs-on: ubuntu-latest
    env:
      PYTORCH_ROCM_ARCH: "gfx90a;gfx940"
    steps:
      - uses: actions/checkout@v4
      - run: |
          export AMD_SERIALIZE_KERNEL=3
          pip install -e . && echo "$ROCM_PATH"
'''

TREE = {
    "launch.py": LAUNCHER,
    "scripts/run.sh": SCRIPT,
    "Dockerfile": DOCKERFILE,
    "k8s/job.yaml": JOB,
    "docker-compose.yml": COMPOSE,
    ".github/workflows/build.yml": WORKFLOW,
}


def migrate_tree(root: Path, files: dict, options: Options = OPTIONS) -> dict:
    write_tree(root, files)
    _, result = api.analyse(root, options)
    return {f.path: f for f in result.files}


@pytest.fixture(scope="module")
def migrated(tmp_path_factory):
    return migrate_tree(tmp_path_factory.mktemp("src"), TREE)


def test_python_launcher(migrated):
    result = migrated["launch.py"]
    assert result.status is FileStatus.MIGRATED
    assert result.new.decode() == LAUNCHER_MIGRATED
    assert env_findings(result) == LAUNCHER_FINDINGS
    cst.parse_module(result.new)  # still Python


def test_shell_script(migrated):
    result = migrated["scripts/run.sh"]
    assert result.new.decode() == SCRIPT_MIGRATED
    assert env_findings(result) == [
        ("PY022", 3), ("PY022", 4), ("PY021", 5), ("PY025", 6), ("PY023", 7), ("PY020", 7), ("PY024", 9),
        ("PY022", 10),
    ]
    assert not parse("shell", result.new).root_node.has_error


def test_dockerfile(migrated):
    result = migrated["Dockerfile"]
    assert result.new.decode() == DOCKERFILE_MIGRATED
    # ARG (set), ENV CUDA_HOME, the two NVIDIA container variables, ${CUDA_HOME}, RUN export, and inside RUN the
    # computed TORCH_CUDA_ARCH_LIST (reported, not rewritten) and its ${TORCH_CUDA_ARCH_LIST} read
    assert env_findings(result) == [
        ("PY021", 2), ("PY022", 3), ("PY024", 4), ("PY024", 5), ("PY022", 6), ("PY020", 9), ("PY021", 10),
        ("PY021", 10),
    ]
    messages = [f.message for f in result.findings if f.code == "PY021" and f.span.line == 10]
    assert messages == [
        "TORCH_CUDA_ARCH_LIST set at run time: PyTorch on ROCm reads the AMD targets from PYTORCH_ROCM_ARCH "
        "(gfx90a;gfx940); set it by hand",
        "reads TORCH_CUDA_ARCH_LIST, which PyTorch on ROCm ignores: its targets are gfx names in PYTORCH_ROCM_ARCH, "
        "not compute capabilities; adapt this code by hand",
    ]
    assert not parse("docker", result.new).root_node.has_error


def test_kubernetes_job(migrated):
    result = migrated["k8s/job.yaml"]
    assert result.new.decode() == JOB.replace("name: CUDA_LAUNCH_BLOCKING\n              value: \"1\"",
                                              "name: AMD_SERIALIZE_KERNEL\n              value: \"3\"")
    assert env_findings(result) == [("PY020", 12), ("PY025", 14)]


def test_compose_list(migrated):
    result = migrated["docker-compose.yml"]
    assert result.new.decode() == COMPOSE.replace("TORCH_CUDA_ARCH_LIST=8.0;9.0", "PYTORCH_ROCM_ARCH=gfx90a;gfx940") \
        .replace("      - CUDA_HOME\n", "      - ROCM_PATH\n")
    assert env_findings(result) == [("PY023", 5), ("PY021", 6), ("PY022", 7)]


def test_ci_workflow(migrated):
    result = migrated[".github/workflows/build.yml"]
    assert result.new.decode() == WORKFLOW_MIGRATED
    assert env_findings(result) == [("PY022", 4), ("PY021", 9), ("PY020", 13), ("PY022", 14)]


def test_second_pass_changes_nothing(migrated, tmp_path):
    again = migrate_tree(tmp_path, {path: r.new for path, r in migrated.items()})
    for path, result in again.items():
        assert result.new == migrated[path].new, path
        assert all(f.fix is None or f.fix.applicability.value == "unsafe"
                   for f in result.findings if f.code in ENV_CODES), path


def test_no_wrong_port_in_any_output(migrated):
    for result in migrated.values():
        text = result.new.decode()
        for wrong in ("torch.hip", "HIPExtension", "'rccl'", '"rccl"', "HIP_LAUNCH_BLOCKING", "TORCH_HIP_ARCH_LIST"):
            assert wrong not in text


def test_offload_arch_and_unsafe_fixes(tmp_path):
    options = Options(hip_version="6.2", offload_arch=("gfx942",), unsafe_fixes=True)
    result = migrate_tree(tmp_path, {"launch.py": LAUNCHER, "scripts/run.sh": SCRIPT}, options)
    assert result["launch.py"].new.decode() == LAUNCHER_MIGRATED.replace('"gfx90a;gfx940"', '"gfx942"') \
        .replace('NCCL_P2P_LEVEL="NVL"', 'NCCL_P2P_LEVEL="XGMI"')
    # the quotes as written stay; NVL becomes XGMI
    assert result["scripts/run.sh"].new.decode() == SCRIPT_MIGRATED.replace(
        'PYTORCH_ROCM_ARCH="gfx90a;gfx940"', 'PYTORCH_ROCM_ARCH="gfx942"').replace("NCCL_P2P_LEVEL=NVL",
                                                                                "NCCL_P2P_LEVEL=XGMI")


def test_bare_shell_word_is_quoted_only_when_it_must_be(tmp_path):
    write_tree(tmp_path, {"a.sh": "export TORCH_CUDA_ARCH_LIST=8.0\n"})
    _, result = api.analyse(tmp_path, OPTIONS)
    assert result.files[0].new == b'export PYTORCH_ROCM_ARCH="gfx90a;gfx940"\n'  # ; would end the command
    _, result = api.analyse(tmp_path, Options(hip_version="6.2", offload_arch=("gfx942",)))
    assert result.files[0].new == b"export PYTORCH_ROCM_ARCH=gfx942\n"


def test_target_already_set_is_left_alone(tmp_path):
    source = ("#!/bin/sh\nexport ROCM_PATH=/opt/rocm AMD_SERIALIZE_KERNEL=3\nexport CUDA_HOME=/usr/local/cuda\n"
              "export CUDA_LAUNCH_BLOCKING=1\nls $CUDA_HOME/lib64\n")
    result = migrate_tree(tmp_path, {"env.sh": source})["env.sh"]
    assert result.new.decode() == source.replace("ls $CUDA_HOME/lib64", "ls $ROCM_PATH/lib")
    found = sorted((f for f in result.findings if f.code in ENV_CODES), key=lambda f: f.span.start)
    assert [(f.code, f.span.line, f.fix is None) for f in found] == [
        ("PY022", 3, True), ("PY020", 4, True), ("PY022", 5, False)]


def test_shell_in_a_double_quoted_yaml_scalar_gets_single_quotes(tmp_path):
    source = 'steps:\n  - run: "export TORCH_CUDA_ARCH_LIST=8.0 && make"\n  - run: export TORCH_CUDA_ARCH_LIST=9.0\n'
    result = migrate_tree(tmp_path, {"ci.yml": source})["ci.yml"]
    assert result.new.decode() == ('steps:\n  - run: "export PYTORCH_ROCM_ARCH=\'gfx90a;gfx940\' && make"\n'
                                   '  - run: export PYTORCH_ROCM_ARCH="gfx90a;gfx940"\n')
    assert not parse("yaml", result.new).root_node.has_error
