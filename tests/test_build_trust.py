"""What `build` runs, and what it takes for the project's (issue 28, item 8): it says where its hipcc came from, a
compiler that exits 0 without writing the object file has not compiled anything, and a link to a file outside the
tree is not one of the project's units. The hipccs here are small scripts: these tests run no real compiler."""
from __future__ import annotations

import json
import os
from pathlib import Path

from tests.helpers import cli, write_tree

KERNEL = "#include <hip/hip_runtime.h>\n__global__ void k(int* p) { p[0] = 1; }\n"
WRITES = '#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then shift; echo obj > "$1"; fi; shift; done\n'


def _program(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_build_says_its_hipcc_came_from_the_tree_s_pyproject(tmp_path):
    hipcc = _program(tmp_path / "tools" / "hipcc", WRITES)
    dst = write_tree(tmp_path / "dst", {"k.cu": KERNEL, "pyproject.toml": f'[tool.hipmigrate]\nhipcc = "{hipcc}"\n'})
    result = cli("build", dst, "--force", "--offload-arch", "gfx90a")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == (
        f"hipmigrate build: 1 compiles (1 ok) of 1 units for gfx90a with hipcc unknown ({hipcc}, named by "
        f"[tool.hipmigrate] hipcc in {dst / 'pyproject.toml'}); 0 plain C/C++ units left to the project's build")
    doc = json.loads(cli("build", dst, "--force", "--offload-arch", "gfx90a", "--hipcc", hipcc,
                         "--output-format", "json").stdout)
    assert (doc["hipcc"], doc["hipcc_origin"]) == (str(hipcc), "given with --hipcc")


def test_a_compiler_that_writes_no_object_file_has_not_compiled(tmp_path):
    nothing = _program(tmp_path / "tools" / "hipcc", "#!/bin/sh\nexit 0\n")
    dst = write_tree(tmp_path / "dst", {"k.cu": KERNEL})
    result = cli("build", dst, "--force", "--offload-arch", "gfx90a", "--hipcc", nothing, "--output-format", "json")
    assert result.exit_code == 1
    unit = json.loads(result.stdout)["units"][0]
    assert unit["status"] == "failed"
    assert [(f["code"], f["message"]) for f in unit["findings"]] == [(
        "BLD906", f"other compile error (gfx90a): {nothing} exited 0 but wrote no object file (-o unit.o): is it a "
                  "compiler?")]


def test_a_link_to_a_file_outside_the_tree_is_not_compiled(tmp_path):
    hipcc = _program(tmp_path / "tools" / "hipcc", WRITES)
    (tmp_path / "elsewhere.cu").write_text(KERNEL)
    dst = write_tree(tmp_path / "dst", {"k.cu": KERNEL, "sub/own.cu": KERNEL})
    os.symlink(tmp_path / "elsewhere.cu", dst / "outside.cu")
    os.symlink("sub/own.cu", dst / "inside.cu")
    result = cli("build", dst, "--force", "--offload-arch", "gfx90a", "--hipcc", hipcc, "--output-format", "json")
    assert result.exit_code == 0
    assert [u["path"] for u in json.loads(result.stdout)["units"]] == ["inside.cu", "k.cu", "sub/own.cu"]
