"""benchmarks/pyreal.py: labelled real files scored against what the migration does (a real repository made here)."""
import subprocess

from benchmarks import pyreal

DOCKERFILE = ("FROM nvidia/cuda:12.1.0-devel-ubuntu22.04\n"
              "# CUDA 12.1 image\n"
              "RUN pip install torch --index-url https://download.pytorch.org/whl/cu121\n"
              "ENV CUDA_LAUNCH_BLOCKING=1\n")
SCRIPT = ("import torch\n"
          "\n"
          "if torch.cuda.get_device_capability()[0] >= 8:\n"
          "    torch.backends.cuda.matmul.allow_tf32 = True\n"
          "x = torch.zeros(4, device='cuda')\n")


def _repo(path) -> str:
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    (path / "docker").mkdir()
    (path / "docker" / "Dockerfile").write_text(DOCKERFILE)
    (path / "train.py").write_text(SCRIPT)
    git = ["git", "-C", str(path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "x"], check=True)
    return subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()


def test_labels_are_scored_line_by_line(tmp_path, capsys):
    """A right rewrite, a rewrite label whose text the output lacks, a report found, a keep kept, and the lines the
    migration changed without a label counted as changed."""
    commit = _repo(tmp_path / "mirrors" / "a+b" / "repo")
    manifest = tmp_path / "m.toml"
    manifest.write_text(f'''
[[file]]
project = "a/b"
commit = "{commit}"
path = "docker/Dockerfile"
why = "t"
rewrite = {{ 1 = "rocm/", 4 = "HIP_LAUNCH_BLOCKING" }}
keep = [2]

[[file]]
project = "a/b"
commit = "{commit}"
path = "train.py"
why = "t"
report = [3]
keep = [5]
''')
    assert pyreal.main(["--mirrors", str(tmp_path / "mirrors"), "--manifest", str(manifest), "--hip-version", "6.4",
                        "-v"]) == 0
    out = capsys.readouterr().out
    assert "rewrite 4: 'ENV AMD_SERIALIZE_KERNEL=3' lacks 'HIP_LAUNCH_BLOCKING'" in out
    assert "changed 3: 'RUN pip install torch --index-url https://download.pytorch.org/whl/cu121' -> " in out
    assert out.rstrip().endswith("2 files from 1 projects: rewrites 1/2 right, reports 1/1 found, keeps 2/2 kept, "
                                 "1 other lines changed, 0 files skipped, 0 warnings on lines labelled or left keep")


def test_a_line_replaced_by_two_gives_both_as_its_text():
    assert pyreal.changed_lines(["a", "b", "c"], ["a", "x", "y", "c"]) == {2: "x\ny"}
    assert pyreal.changed_lines(["a", "b", "c"], ["a", "c"]) == {2: ""}
    assert pyreal.changed_lines(["a", "c"], ["a", "b", "c"]) == {}
