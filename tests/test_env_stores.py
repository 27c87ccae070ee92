"""Environment variables kept in ConfigMaps and Secrets (their keys are variables: renamed with the references
that follow them; `envFrom` is not resolved but the ConfigMap is checked) and in a Dockerfile's exec-form shell
strings: the exact migrated text, and a second pass changes nothing."""
import pytest

from migrate.deploy.context import parse
from migrate.model import FileStatus
from tests.helpers import ENV_CODES, analysed_files, env_findings

TARGETS = ("gfx90a", "gfx940")  # two targets: a list with ";"


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
    return analysed_files(tmp_path_factory.mktemp("stores"),
                          {"k8s/cm.yaml": CONFIGMAP, "Dockerfile": EXEC_FORM, "k8s/job.yaml": JOB_ENV_FROM},
                          offload_arch=TARGETS)


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
    again = analysed_files(tmp_path, {path: r.new for path, r in stores.items()}, offload_arch=TARGETS)
    for path, result in again.items():
        assert result.new == stores[path].new, path
        assert all(f.fix is None for f in result.findings if f.code in ENV_CODES), path
