"""Environment-variable rules (PY020-PY025) on whole files through the pipeline (`api.analyse`): a Python launcher,
a shell script, a Dockerfile, a Kubernetes job, a compose file and a CI workflow are migrated to their exact expected
text with the expected findings, a second pass changes nothing, and the finder (`migrate/deploy/env.py` and its
`env_*` modules) reports the exact sites and spans of each kind of file."""
from pathlib import Path

import libcst as cst
import pytest

from migrate import api
from migrate.contexts import CONTEXTS
from migrate.deploy.context import parse
from migrate.deploy.env import env_sites
from migrate.deploy.env_site import Access, EnvSite
from migrate.model import FileStatus
from migrate.options import Options
from migrate.packs import default_packs
from tests.helpers import write_tree

OPTIONS = Options(hip_version="6.2", offload_arch=("gfx90a", "gfx940"))  # two targets: a list with ";"
ENV_CODES = {f"PY0{n}" for n in range(20, 40)}

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


def env_findings(result) -> list[tuple[str, int]]:
    """(code, line) of the environment-variable findings, in document order (rules report one after the other)."""
    found = sorted((f for f in result.findings if f.code in ENV_CODES), key=lambda f: (f.span.start, f.code))
    return [(f.code, f.span.line) for f in found]


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


# -- the finder ----------------------------------------------------------------------------------------------

def sites(kind: str, path: str, text: str) -> list[tuple]:
    ctx = CONTEXTS[kind](path, text.encode(), OPTIONS, default_packs(), "6.2")
    found = env_sites(ctx)
    for site in found:
        assert isinstance(site, EnvSite)
    return [(s.access.value, s.name, text.encode()[s.start:s.end].decode(), s.value,
             text.encode()[s.value_start:s.value_end].decode() if s.value_start is not None else None, s.quote)
            for s in found]


def test_python_sites_through_imports_and_names():
    text = ('import os as o\nimport subprocess as sp\n'
            'o.environ["A"] = "1"\nv = o.environ[\'B\']\ndel o.environ["C"]\no.putenv("D", "d")\n'
            'o.unsetenv("E")\nif "F" not in o.environ: pass\n'
            'base = dict(o.environ, G="g")\nsp.Popen(["x"], env=base)\n'
            'e = {"H": r"h"}\nsp.check_output(["y"], env=e)\ne["I"] = f"{v}"\nkey = "J"\no.environ[key] = "j"\n')
    assert sites("python", "a.py", text) == [
        ("set", "A", "A", "1", "1", '"'),
        ("read", "B", "B", None, None, ""),
        ("unset", "C", "C", None, None, ""),
        ("set", "D", "D", "d", "d", '"'),
        ("unset", "E", "E", None, None, ""),
        ("read", "F", "F", None, None, ""),
        ("set", "G", "G", "g", "g", '"'),
        ("set", "H", "H", "h", "h", '"'),
        ("set", "I", "I", None, None, ""),  # an f-string: built at run time
    ]


def test_python_without_os_import_has_no_sites():
    # `environ` here is a local dict, not os.environ
    assert sites("python", "a.py", 'environ = {}\nenviron["CUDA_HOME"] = "/x"\nprint(environ.get("CUDA_HOME"))\n') \
        == []


def test_shell_sites():
    text = ("export A=1 B='b' C=\"$HOME/c\"\nunset -v D\nunset -f E\nenv -u F G=\"g g\" cmd H=h\n"
            "docker run -e I=i --env=J=j img\necho ${K-k} ${#L} \"$M\" '$N'\nO= cmd\n")
    assert sites("shell", "s.sh", text) == [
        ("set", "A", "A", "1", "1", ""),
        ("set", "B", "B", "b", "b", "'"),
        ("set", "C", "C", None, None, ""),
        ("read", "HOME", "HOME", None, None, ""),
        ("unset", "D", "D", None, None, ""),
        ("unset", "F", "F", None, None, ""),
        ("set", "G", "G", "g g", "g g", '"'),
        ("set", "I", "I", "i", "i", ""),
        ("set", "J", "J", "j", "j", ""),
        ("read", "K", "K", "k", "k", ""),
        ("read", "L", "L", None, None, ""),
        ("read", "M", "M", None, None, ""),
        ("set", "O", "O", "", "", ""),
    ]


def test_docker_sites():
    text = 'FROM x\nENV A=1 B="b b"\nENV C c\nARG D\nARG E=e\nENV F=$D/f\nRUN G=g \\\n    cmd "$H"\n'
    assert sites("docker", "Dockerfile", text) == [
        ("set", "A", "A", "1", "1", ""),
        ("set", "B", "B", "b b", "b b", '"'),
        ("set", "C", "C", "c", "c", ""),
        ("read", "D", "D", None, None, ""),
        ("set", "E", "E", "e", "e", ""),
        ("set", "F", "F", None, None, ""),
        ("read", "D", "D", None, None, ""),
        ("set", "G", "G", "g", "g", ""),
        ("read", "H", "H", None, None, ""),
    ]


def test_yaml_sites():
    text = ("variables:\n  A: {value: 'a', description: x}\n  B: b\n"
            "env:\n  - name: C\n    value: c\n  - \"D=d\"\n  - E\n"
            "environment: production\n"
            "script:\n  - F=1 make\n  - echo $G\n")
    assert sites("yaml", "ci.yml", text) == [
        ("set", "A", "A", "a", "a", "'"),
        ("set", "B", "B", "b", "b", ""),
        ("set", "C", "C", "c", "c", ""),
        ("set", "D", "D", "d", "d", '"'),
        ("read", "E", "E", None, None, ""),
        ("set", "F", "F", "1", "1", ""),
        ("read", "G", "G", None, None, ""),
    ]


def test_sites_are_cached_per_context():
    ctx = CONTEXTS["shell"]("s.sh", b"export A=1\n", OPTIONS, default_packs(), "6.2")
    assert env_sites(ctx) is env_sites(ctx)
    assert env_sites(ctx)[0].access is Access.SET


def test_shell_in_a_double_quoted_yaml_scalar_gets_single_quotes(tmp_path):
    source = 'steps:\n  - run: "export TORCH_CUDA_ARCH_LIST=8.0 && make"\n  - run: export TORCH_CUDA_ARCH_LIST=9.0\n'
    result = migrate_tree(tmp_path, {"ci.yml": source})["ci.yml"]
    assert result.new.decode() == ('steps:\n  - run: "export PYTORCH_ROCM_ARCH=\'gfx90a;gfx940\' && make"\n'
                                   '  - run: export PYTORCH_ROCM_ARCH="gfx90a;gfx940"\n')
    assert not parse("yaml", result.new).root_node.has_error


# -- ConfigMaps and Secrets; Dockerfile exec form -------------------------------------------------------------

CONFIGMAP = '''\
apiVersion: v1
kind: ConfigMap
metadata:
  name: trainer-env
data:
  CUDA_VISIBLE_DEVICES: "0,1"
  NCCL_DEBUG: INFO
  CUDA_LAUNCH_BLOCKING: "1"  # debugging a crash
  train.yaml: |
    CUDA_HOME: /usr/local/cuda
'''

EXEC_FORM = '''\
FROM python:3.11
ENV NCCL_SOCKET_IFNAME=eth0
RUN ["/bin/sh", "-c", "export CUDA_VISIBLE_DEVICES=0 && python train.py"]
RUN ["/bin/bash", "-o", "pipefail", "-c", "TORCH_CUDA_ARCH_LIST=8.0 pip install -e . 2>&1 | tee \\"b.txt\\""]
CMD ["sh", "-c", "CUDA_LAUNCH_BLOCKING=\\"1\\" exec python serve.py --home \\"${CUDA_HOME:-/usr/local/cuda}\\""]
ENTRYPOINT ["python", "-m", "trainer", "CUDA_LAUNCH_BLOCKING=1"]
'''

EXEC_FORM_MIGRATED = '''\
FROM python:3.11
ENV NCCL_SOCKET_IFNAME=eth0
RUN ["/bin/sh", "-c", "export CUDA_VISIBLE_DEVICES=0 && python train.py"]
RUN ["/bin/bash", "-o", "pipefail", "-c", "PYTORCH_ROCM_ARCH='gfx90a;gfx940' pip install -e . 2>&1 | tee \\"b.txt\\""]
CMD ["sh", "-c", "AMD_SERIALIZE_KERNEL=\\"3\\" exec python serve.py --home \\"${ROCM_PATH:-/opt/rocm}\\""]
ENTRYPOINT ["python", "-m", "trainer", "CUDA_LAUNCH_BLOCKING=1"]
'''

JOB_ENV_FROM = '''\
apiVersion: batch/v1
kind: Job
metadata: {name: t}
spec:
  template:
    spec:
      containers:
      - name: t
        image: registry.example.org/trainer:1.0
        envFrom:
        - configMapRef: {name: trainer-env}
        env:
        - name: CUDA_VISIBLE_DEVICES
          value: "0"
'''


def exec_arrays(text: str) -> list[list[str]]:
    """The JSON arrays of a Dockerfile's exec-form instructions, decoded as Docker decodes them."""
    import json
    return [json.loads(line.split(" ", 1)[1]) for line in text.splitlines() if line.split(" ", 1)[-1].startswith("[")]


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    return migrate_tree(tmp_path_factory.mktemp("stores"),
                        {"k8s/cm.yaml": CONFIGMAP, "Dockerfile": EXEC_FORM, "k8s/job.yaml": JOB_ENV_FROM})


def test_configmap_keys_are_variables(stores):
    result = stores["k8s/cm.yaml"]
    assert result.new.decode() == CONFIGMAP.replace('CUDA_LAUNCH_BLOCKING: "1"', 'AMD_SERIALIZE_KERNEL: "3"')
    # a key holding a file (train.yaml: |) is not a variable, and the file's text is not read
    assert env_findings(result) == [("PY023", 6), ("PY020", 8)]
    assert not parse("yaml", result.new).root_node.has_error


def test_dockerfile_exec_form_shell_strings(stores):
    result = stores["Dockerfile"]
    assert result.new.decode() == EXEC_FORM_MIGRATED
    assert env_findings(result) == [("PY023", 3), ("PY021", 4), ("PY020", 5), ("PY022", 5)]
    assert not parse("docker", result.new).root_node.has_error
    # the fixed JSON still decodes, to the shell strings the rules meant
    assert exec_arrays(result.new.decode())[1:3] == [
        ["/bin/bash", "-o", "pipefail", "-c",
         "PYTORCH_ROCM_ARCH='gfx90a;gfx940' pip install -e . 2>&1 | tee \"b.txt\""],
        ["sh", "-c", 'AMD_SERIALIZE_KERNEL="3" exec python serve.py --home "${ROCM_PATH:-/opt/rocm}"']]


def test_env_from_is_not_resolved_but_its_configmap_is_checked(stores):
    result = stores["k8s/job.yaml"]
    assert result.status is FileStatus.UNCHANGED
    assert env_findings(result) == [("PY023", 13)]


def test_stores_and_exec_form_second_pass_changes_nothing(stores, tmp_path):
    again = migrate_tree(tmp_path, {path: r.new for path, r in stores.items()})
    for path, result in again.items():
        assert result.new == stores[path].new, path
        assert all(f.fix is None for f in result.findings if f.code in ENV_CODES), path


def test_configmap_and_secret_sites():
    text = ("apiVersion: v1\nkind: List\nitems:\n"
            "- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data: {A: '1', \"B\": b, c.txt: x}\n"
            "---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\nstringData:\n  C: c\ndata:\n  D: ZA==\n"
            "---\napiVersion: example.org/v1\nkind: Settings\nmetadata: {name: x}\ndata:\n  E: e\n")
    assert sites("yaml", "k.yaml", text) == [
        ("set", "A", "A", "1", "1", "'"),
        ("set", "B", "B", "b", "b", ""),
        ("set", "C", "C", "c", "c", ""),  # stringData; a Secret's data is base64, not read
    ]


def test_key_refs_in_the_same_file_follow_the_key():
    text = ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\ndata:\n  CUDA_HOME: /usr/local/cuda\n---\n"
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: x\n"
            "    env:\n    - name: HOME_A\n      valueFrom: {configMapKeyRef: {name: cm, key: \"CUDA_HOME\"}}\n"
            "    - name: HOME_B\n      valueFrom: {configMapKeyRef: {name: other, key: CUDA_HOME}}\n"
            "    - name: HOME_C\n      valueFrom: {secretKeyRef: {name: cm, key: CUDA_HOME}}\n")
    ctx = CONTEXTS["yaml"]("p.yaml", text.encode(), OPTIONS, default_packs(), "6.2")
    (site,) = [s for s in env_sites(ctx) if s.name == "CUDA_HOME"]
    assert [text.encode()[a:b].decode() for a, b in site.also] == ["CUDA_HOME"]
    assert text.encode().rfind(b'"CUDA_HOME"') + 1 == site.also[0][0]  # only the ConfigMap cm's key, inside quotes


def test_docker_exec_form_sites():
    text = ('FROM x\n'
            'RUN ["sh", "-c", "A=\\"a b\\" cmd \\u0024B && export C=\\u0063"]\n'
            'CMD ["/usr/bin/env", "bash", "-lc", "D=1 run"]\n'
            'ENTRYPOINT ["bash", "-c"]\n'
            'HEALTHCHECK CMD ["sh", "-c", "test -n \\"$E\\""]\n'
            'RUN ["python", "-c", "F=1"]\n'
            'RUN ["sh", "-c", "G=1 \\x"]\n')
    assert sites("docker", "Dockerfile", text) == [
        ("set", "A", "A", "a b", "a b", '"'),
        ("read", "B", "B", None, None, ""),
        ("set", "C", "C", "c", "\\u0063", ""),  # the value's span covers the escape that writes it
        ("set", "D", "D", "1", "1", ""),
        ("read", "E", "E", None, None, ""),
    ]
