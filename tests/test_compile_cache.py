"""The compile cache (migrate/verify/compile_cache.py, issue 27 item 4): what changes its key and what does not,
entries that are not whole are misses, and `hipmigrate build` run again on the same tree compiles nothing, with the
same results, until a header changes: then exactly the units that include it are compiled again."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from migrate.verify import compile_cache
from tests.helpers import cli, write_tree

VERSION = "HIP version: 5.2.21153-0\nDebian clang version 15.0.6"
OBJECT = "/tmp/hipmigrate-build-x/unit.o"
TREE = {
    "unit.cu": '#include "a.h"\n__global__ void k(int* p) { p[0] = b; }\n',
    "a.h": '#pragma once\n#include "inc/b.h"\n',
    "inc/b.h": "__device__ int b;\n",
    "other.h": "int o;\n",
}


def _key(tree: Path, compiler: Path, version: str = VERSION, flags: tuple[str, ...] = ("-O2",),
         target: str = "gfx90a", obj: str = OBJECT) -> str | None:
    args = ["-x", "hip", f"--offload-arch={target}", *flags, "-I", str(tree / "inc"), "-c", str(tree / "unit.cu"),
            "-o", obj]
    return compile_cache.key(str(compiler), version, args, target, tree / "unit.cu", tree, tree, {}, {obj: "<object>"})


def _compiler(path: Path, text: str = "#!/bin/sh\nexit 0\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_the_key_changes_with_each_input_and_with_nothing_else(tmp_path):
    tree = write_tree(tmp_path / "tree", TREE)
    hipcc = _compiler(tmp_path / "bin" / "hipcc")
    base = _key(tree, hipcc)
    assert base is not None and len(base) == 64
    assert _key(tree, hipcc) == base
    assert _key(tree, hipcc, obj="/tmp/hipmigrate-build-y/unit.o") == base  # the object's folder is a temporary one
    moved = tmp_path / "elsewhere" / "tree"
    shutil.copytree(tree, moved)
    assert _key(moved, hipcc) == base  # paths inside the tree root are keyed relative to it
    (tree / "other.h").write_text("int o2;\n")  # included by nothing
    assert _key(tree, hipcc) == base

    changed = {"flag": _key(tree, hipcc, flags=("-O3",)), "target": _key(tree, hipcc, target="gfx942"),
               "version": _key(tree, hipcc, version=VERSION.replace("15.0.6", "15.0.7"))}
    (tree / "unit.cu").write_text(TREE["unit.cu"] + "// edited\n")
    changed["unit"] = _key(tree, hipcc)
    (tree / "unit.cu").write_text(TREE["unit.cu"])
    assert _key(tree, hipcc) == base
    (tree / "inc" / "b.h").write_text("__device__ int b = 1;\n")  # included by a.h, which the unit includes
    changed["nested header"] = _key(tree, hipcc)
    (tree / "inc" / "b.h").write_text(TREE["inc/b.h"])
    shadow = write_tree(tree / "inc" / "inc", {"b.h": "int shadow;\n"})  # "inc/b.h" found through -I inc too
    changed["new header"] = _key(tree, hipcc)
    shutil.rmtree(shadow)
    assert _key(tree, hipcc) == base
    _compiler(hipcc, "#!/bin/sh\nexit 1\n")  # another hipcc script at the same path
    changed["compiler"] = _key(tree, hipcc)
    assert sorted(changed) == ["compiler", "flag", "nested header", "new header", "target", "unit", "version"]
    assert len({base, *changed.values()}) == 8 and None not in changed.values()


def test_an_include_named_by_a_macro_has_no_key(tmp_path):
    tree = write_tree(tmp_path / "tree", {**TREE, "a.h": "#define HEADER \"inc/b.h\"\n#include HEADER\n"})
    assert _key(tree, _compiler(tmp_path / "bin" / "hipcc")) is None


def test_an_entry_keeps_its_output_relative_to_the_root_and_a_corrupt_one_is_a_miss(tmp_path):
    store, root, other = tmp_path / "cache", tmp_path / "a" / "tree", tmp_path / "b" / "tree"
    key = "ab" + "0" * 62
    outcome = compile_cache.Outcome(f"{root}/unit.cu:1:5: error: oops\n{root}x/not-the-root.h\n", 1, 2.5)
    assert compile_cache.load(store, key, root) is None  # no entry yet
    assert compile_cache.save(store, key, outcome, root)
    assert compile_cache.load(store, key, root) == outcome
    assert compile_cache.load(store, key, other) == compile_cache.Outcome(
        f"{other}/unit.cu:1:5: error: oops\n{root}x/not-the-root.h\n", 1, 2.5)
    entry = compile_cache.entry(store, key)
    assert entry == store / "ab" / f"{key}.json" and sorted(p.name for p in entry.parent.iterdir()) == [entry.name]
    good = json.loads(entry.read_text())
    for bad in (b"", b"{", b"\xff\xfe", b"[]", json.dumps({**good, "key": "cd" + "0" * 62}).encode(),
                json.dumps({**good, "format": 0}).encode(), json.dumps({**good, "status": "1"}).encode(),
                json.dumps({**good, "status": True}).encode(), json.dumps({**good, "output": None}).encode()):
        entry.write_bytes(bad)
        assert compile_cache.load(store, key, root) is None, bad
    entry.unlink()
    entry.mkdir()  # not a file at all
    assert compile_cache.load(store, key, root) is None
    plain = tmp_path / "plain"
    plain.write_text("a file, not a folder\n")
    assert compile_cache.save(plain, key, outcome, root) is False  # a folder that cannot be written: no cache


WRITES = '#!/bin/sh\nwhile [ $# -gt 0 ]; do if [ "$1" = "-o" ]; then shift; echo obj > "$1"; fi; shift; done\n'


def test_without_the_variable_build_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv(compile_cache.ENV, raising=False)
    hipcc = _compiler(tmp_path / "tools" / "hipcc", WRITES)
    dst = write_tree(tmp_path / "dst", {"k.cu": "#include <hip/hip_runtime.h>\n__global__ void k() {}\n"})
    result = cli("build", dst, "--force", "--offload-arch", "gfx90a", "--hipcc", hipcc, "--output-format", "json")
    doc = json.loads(result.stdout)
    assert (result.exit_code, doc["compile_cache"], [u["cached"] for u in doc["units"]]) == (0, None, [False])


SOURCES = {
    "shared.h": "#pragma once\ninline __device__ int two() { return 2; }\n",
    "a.cu": '#include "shared.h"\n__global__ void a(int* p) { p[0] = two(); }\n',
    "b.cu": '#include "shared.h"\n__global__ void b(int* p) { p[0] = two() + 1; }\n',
    "c.cu": "__global__ void c(int* p) {\n  p[0] = not_declared;\n}\n",
}


def test_a_second_build_compiles_nothing_until_a_header_changes(tmp_path, hipcc, monkeypatch):
    log = tmp_path / "calls.log"
    counting = _compiler(tmp_path / "tools" / "hipcc", f'#!/bin/sh\necho "$*" >> {log}\nexec {hipcc} "$@"\n')
    store = tmp_path / "cache"
    monkeypatch.setenv(compile_cache.ENV, str(store))
    src, out = write_tree(tmp_path / "src", SOURCES), tmp_path / "out"
    assert cli("run", src, "--out", out, "--hip-version", "5.2").exit_code == 0

    def build(tree: Path = out) -> tuple[list[str], dict]:
        log.write_text("")
        result = cli("build", tree, "--offload-arch", "gfx90a", "--hipcc", counting, "--output-format", "json")
        assert result.exit_code == 1, result.stdout  # c.cu does not compile
        compiled = sorted(Path(line.split(" -c ", 1)[1].split(" -o ", 1)[0]).name
                          for line in log.read_text().splitlines() if f" -c {tree}/" in line)
        return compiled, json.loads(result.stdout)

    def results(doc: dict, seconds: bool = True) -> list[tuple]:
        return [(u["path"], u["target"], u["status"], u["seconds"] if seconds else None, u["findings"])
                for u in doc["units"]]

    compiled, first = build()
    assert compiled == ["a.cu", "b.cu", "c.cu"]
    assert [(u["path"], u["status"], u["cached"]) for u in first["units"]] == [
        ("a.cu", "ok", False), ("b.cu", "ok", False), ("c.cu", "failed", False)]
    assert [(f["code"], f["path"], f["line"]) for f in first["units"][2]["findings"]] == [("BLD903", "c.cu", 2)]
    assert first["compile_cache"] == {"folder": str(store), "hits": 0, "compiled": 3}

    compiled, second = build()
    assert compiled == []  # hipcc was not run for any unit
    assert results(second) == results(first)
    assert [u["cached"] for u in second["units"]] == [True, True, True]
    assert second["compile_cache"] == {"folder": str(store), "hits": 3, "compiled": 0}
    log.write_text("")
    text = cli("build", out, "--offload-arch", "gfx90a", "--hipcc", counting).stdout.splitlines()
    assert text[-1] == f"compile cache {store}: 3 of 3 compiles read from it, 0 compiled"
    rows = [line.split("│")[1:5] for line in text if line.startswith("│ ") and ".cu" in line]
    assert [[cell.strip() for cell in row] for row in rows] == [
        ["a.cu", "gfx90a", "ok", "cached"], ["b.cu", "gfx90a", "ok", "cached"], ["c.cu", "gfx90a", "failed", "cached"]]
    assert " -c " not in log.read_text()
    moved = tmp_path / "moved" / "out"
    shutil.copytree(out, moved)
    compiled, elsewhere = build(moved)
    assert compiled == [] and results(elsewhere) == results(first)  # the same tree in another folder: the same keys

    (out / "shared.h").write_text(SOURCES["shared.h"] + "inline __device__ int three() { return 3; }\n")
    compiled, third = build()
    assert compiled == ["a.cu", "b.cu"]  # exactly the units that include it
    assert [u["cached"] for u in third["units"]] == [False, False, True]
    assert results(third, seconds=False) == results(first, seconds=False)

    entries = sorted(store.rglob("*.json"))
    assert len(entries) == 5  # a.cu and b.cu before and after the header's change, c.cu
    corrupt = b'{"format": 1, "key": "trunc'
    for entry in entries:
        entry.write_bytes(corrupt)
    compiled, fourth = build()
    assert compiled == ["a.cu", "b.cu", "c.cu"]  # a corrupt entry is a miss: compiled again, and kept again
    assert results(fourth, seconds=False) == results(first, seconds=False)
    assert fourth["compile_cache"] == {"folder": str(store), "hits": 0, "compiled": 3}
    rewritten = [json.loads(e.read_bytes()) for e in entries if e.read_bytes() != corrupt]
    assert sorted(e["status"] for e in rewritten) == [0, 0, 1]


def test_includes_through_parent_folders_name_each_file_once(tmp_path):
    """GLM's detail/ headers include "../detail/x.inl": the scan must not follow detail/../detail/... without end."""
    from migrate.verify.include_scan import scan

    detail = tmp_path / "glm" / "detail"
    detail.mkdir(parents=True)
    (detail / "a.hpp").write_text('#include "../detail/b.inl"\n')
    (detail / "b.inl").write_text('#include "../detail/a.hpp"\n#include "../detail/b.inl"\n')
    unit = tmp_path / "k.cu"
    unit.write_text('#include "glm/detail/a.hpp"\n')
    found = scan(unit, [], tmp_path, {}, tree=tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in found.files] == ["k.cu", "glm/detail/a.hpp", "glm/detail/b.inl"]
