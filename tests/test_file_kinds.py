"""Which files the rules read, by path: the file-kind table of migrate/filekinds.py (and the #! check of scripts)."""
import pytest

from migrate.options import Options
from migrate.filekinds import rule_kind
from migrate.stages.scan import collect
from tests.helpers import write_tree


@pytest.mark.parametrize("rel, kind", [
    ("CMakeLists.txt", "cmake"), ("cmake/FindX.cmake", "cmake"), ("Makefile", "make"), ("rules.mk", "make"),
    ("train.py", "python"), ("setup.py", "python"), ("pyproject.toml", "pyproject"),
    ("requirements.txt", "requirements"), ("requirements-dev.txt", "requirements"),
    ("requirements/base.txt", "requirements"), ("constraints.txt", "requirements"), ("notes.txt", None),
    ("Dockerfile", "docker"), ("docker/Dockerfile.train", "docker"), ("gpu.dockerfile", "docker"),
    ("Containerfile", "docker"), ("docker/Dockerfile-uv-base", "docker"), ("Dockerfile_amd", "docker"),
    ("k8s/job.yaml", "yaml"), (".github/workflows/ci.yml", "yaml"),
    ("run.sh", "shell"), ("env.bash", "shell"), (".envrc", "shell"),
    (".env", "dotenv"), (".env.production", "dotenv"), ("gpu.env", "dotenv"), ("environment.yml", "yaml"),
    ("kernel.cu", None), ("README.md", None),
])
def test_rule_kind(rel, kind):
    assert rule_kind(rel) == kind


def test_extensionless_scripts_by_their_first_line(tmp_path):
    write_tree(tmp_path, {"launch": "#!/usr/bin/env bash\nexport CUDA_HOME=/usr/local/cuda\n",
                          "tool": "#!/usr/bin/env python3\nprint(1)\n", "LICENSE": "MIT\n"})
    kinds = {f.rel: f.kind for f in collect(tmp_path, Options()).files}
    assert kinds == {"launch": "shell", "tool": "other", "LICENSE": "other"}


def test_dotenv_file_is_migrated(tmp_path):
    from migrate import api
    write_tree(tmp_path / "src", {".env": "CUDA_VISIBLE_DEVICES=0,1\nCUDA_HOME=/usr/local/cuda\nNVIDIA_VISIBLE_DEVICES=all\n"})
    _, result = api.analyse(tmp_path / "src", Options(hip_version="6.2"))
    (r,) = result.files
    assert r.new.decode() == "CUDA_VISIBLE_DEVICES=0,1\nROCM_PATH=/opt/rocm\nNVIDIA_VISIBLE_DEVICES=all\n"
    assert sorted((f.code, f.span.line) for f in r.findings) == [("PY022", 2), ("PY023", 1), ("PY024", 3)]
