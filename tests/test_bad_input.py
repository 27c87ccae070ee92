"""Bad input: each case gives a clear message naming the file, the right exit status, and loses nothing."""
import os
import shutil
import subprocess
import sys
from pathlib import Path


from tests.helpers import cli, cli_json, read_tree, write_tree

CALL = "void f(float** p) { cudaMalloc(p, 4); }\n"


def test_binary_file_named_cu_is_copied_unchanged(tmp_path):
    blob = b"\x7fELF\x02\x01\x01\x00\x00cudaMalloc\x00\xff\xfe"
    src = write_tree(tmp_path / "src", {"blob.cu": blob, "ok.cu": CALL})
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 1
    assert "blob.cu:1:1: INP002 binary content (NUL bytes) in a C++/CUDA source: copied unchanged" in result.stdout
    out = read_tree(tmp_path / "out")
    assert out["blob.cu"] == blob
    assert out["ok.cu"] == b"#include <hip/hip_runtime.h>\nvoid f(float** p) { hipMalloc(p, 4); }\n"


def test_latin1_file_is_migrated_byte_for_byte(tmp_path):
    data = "// Müller's kernel\n".encode("latin-1") + CALL.encode()
    src = write_tree(tmp_path / "src", {"l.cu": data})
    code, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert code == 1
    assert [(f["code"], f["line"]) for f in doc["findings"] if f["code"].startswith("INP")] == [("INP003", 1)]
    assert "not UTF-8 (byte 0xfc at line 1)" in doc["findings"][0]["message"]
    expected = "// Müller's kernel\n#include <hip/hip_runtime.h>\n".encode("latin-1") + CALL.replace(
        "cudaMalloc", "hipMalloc").encode()
    assert (tmp_path / "out" / "l.cu").read_bytes() == expected


def test_crlf_and_bom_are_kept(tmp_path):
    data = b"\xef\xbb\xbf// header\r\n#include <stdio.h>\r\n" + CALL.replace("\n", "\r\n").encode()
    src = write_tree(tmp_path / "src", {"w.cu": data})
    assert cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2").exit_code == 0
    assert (tmp_path / "out" / "w.cu").read_bytes() == (
        b"\xef\xbb\xbf// header\r\n#include <hip/hip_runtime.h>\r\n#include <stdio.h>\r\n"
        b"void f(float** p) { hipMalloc(p, 4); }\r\n")


def test_unparsable_code_is_migrated_where_possible_with_location(tmp_path):
    src = write_tree(tmp_path / "src", {"bad.cu": "#include <cuda_runtime.h>\nvoid f( {\n  cudaFree(p);\n"})
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 1
    assert "bad.cu:2:" in result.stdout and "INP001 tree-sitter could not parse this file cleanly" in result.stdout
    assert (tmp_path / "out" / "bad.cu").read_text() == "#include <hip/hip_runtime.h>\nvoid f( {\n  hipFree(p);\n"


def test_huge_generated_file_is_renamed_only(tmp_path):
    """Past the 4 MiB limit of full analysis, the size policy: names and headers renamed, INP011 says what did not
    run."""
    unit = "void f{i}(float** p) {{ cudaMalloc(p, {i}); cudaFree(*p); }}\n"
    text = "#include <cuda_runtime.h>\n" + "".join(unit.format(i=i) for i in range(400_000))
    assert len(text) > 20_000_000
    src = write_tree(tmp_path / "src", {"huge.cu": text})
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 1
    assert (f"huge.cu:1:1: INP011 {len(text)} bytes is over the 4194304-byte limit of full analysis: only CUDA names "
            "and headers were renamed (800000 names, 1 include lines)") in result.stdout.replace("\n", " ")
    out = (tmp_path / "out" / "huge.cu").read_text()
    assert out == text.replace("cudaMalloc", "hipMalloc").replace("cudaFree", "hipFree").replace(
        "cuda_runtime.h", "hip/hip_runtime.h")


def test_file_over_the_size_limit_is_renamed_only_or_copied(tmp_path):
    src = write_tree(tmp_path / "src", {"big.cu": CALL * 10, "CMakeLists.txt": "project(p CUDA)\n" * 10})
    result = cli("run", src, "--out", tmp_path / "out", "--max-file-size", "100", "--hip-version", "6.2")
    assert result.exit_code == 1
    assert "big.cu:1:1: INP011" in result.stdout and "CMakeLists.txt:1:1: INP005" in result.stdout
    assert (tmp_path / "out" / "big.cu").read_text() == "#include <hip/hip_runtime.h>\n" + CALL.replace(
        "cudaMalloc", "hipMalloc") * 10
    assert (tmp_path / "out" / "CMakeLists.txt").read_text() == "project(p CUDA)\n" * 10
    result = cli("run", src, "--out", tmp_path / "copy", "--max-file-size", "100", "--over-size", "copy")
    assert result.exit_code == 1
    assert "big.cu:1:1: INP005" in result.stdout and "raise --max-file-size" in result.stdout
    assert (tmp_path / "copy" / "big.cu").read_text() == CALL * 10


def test_symlink_loop_is_kept_as_a_link_and_reported(tmp_path):
    src = write_tree(tmp_path / "src", {"ok.cu": CALL})
    os.symlink("b.cu", src / "a.cu")
    os.symlink("a.cu", src / "b.cu")
    os.symlink(".", src / "self")  # a folder loop
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 1
    assert "a.cu:1:1: INP006 symbolic link to 'b.cu' that does not resolve" in result.stdout
    assert os.readlink(tmp_path / "out" / "a.cu") == "b.cu"
    assert os.readlink(tmp_path / "out" / "self") == "."


def test_unreadable_file_is_reported_and_the_rest_migrated(tmp_path):
    src = write_tree(tmp_path / "src", {"ok.cu": CALL, "secret.cu": CALL})
    (src / "secret.cu").chmod(0)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "migrate", "run", str(src), "--out", str(out), "--hip-version", "6.2"]
    if os.geteuid() == 0:  # root reads everything: give up the capabilities that bypass file permissions
        assert shutil.which("setpriv"), "setpriv (util-linux) is needed to test unreadable files as root"
        cmd = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *cmd]
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=root, env={**os.environ, "PYTHONPATH": str(root)})
    assert proc.returncode == 1, proc.stderr
    assert "secret.cu:1:1: INP004 cannot read: Permission denied; fix its permissions" in proc.stdout
    assert (out / "ok.cu").read_text() == "#include <hip/hip_runtime.h>\n" + CALL.replace("cudaMalloc", "hipMalloc")
    assert not (out / "secret.cu").exists()


def test_special_file_named_cu_is_reported(tmp_path):
    src = write_tree(tmp_path / "src", {"ok.cu": CALL})
    os.mkfifo(src / "pipe.cu")
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert result.exit_code == 1
    assert "pipe.cu:1:1: INP004 not a regular file" in result.stdout


def test_the_first_byte_that_is_not_utf8_is_found_a_piece_at_a_time_where_decoding_the_whole_finds_it():
    """read_source checks UTF-8 a megabyte at a time (a decoded copy of a huge file took its size again): on 3,000
    random byte strings of ASCII, multi-byte sequences cut anywhere and stray bytes, and pieces of 1 to 64 bytes, it
    finds the byte that decoding the whole names (or none)."""
    import random

    from migrate.stages.rewrite import first_bad_utf8

    rng = random.Random(3)
    alphabet = [0x41, 0x0A, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80, 0xFF, 0x80]
    found = set()
    for _ in range(3000):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        try:
            data.decode("utf-8")
            expected = None
        except UnicodeDecodeError as exc:
            expected = exc.start
        found.add(expected is None)
        assert [first_bad_utf8(data, step) for step in (1, 2, 3, 5, 64)] == [expected] * 5, data
    assert found == {True, False}
    assert first_bad_utf8("café €😀".encode() * 1000, 7) is None


def test_a_file_with_very_many_findings_of_one_code_lists_the_first_thousand(tmp_path):
    """1,500 cudaFree calls: every one renamed, 1,000 MAP001 findings listed and one INP013 for the other 500, and
    the counts by code and by API family include them all."""
    text = "#include <cuda_runtime.h>\nvoid f(float* p) {\n" + "  cudaFree(p);\n" * 1500 + "}\n"
    src = write_tree(tmp_path / "src", {"many.cu": text})
    code, doc = cli_json("run", src, "--out", tmp_path / "out", "--hip-version", "6.2")
    assert (tmp_path / "out" / "many.cu").read_text().count("hipFree(p);") == 1500
    listed = [f for f in doc["findings"] if f["code"] == "MAP001"]
    assert len(listed) == 1000 and listed[-1]["line"] == 1002
    [more] = [f for f in doc["findings"] if f["code"] == "INP013"]
    assert more["message"] == ("500 more MAP001 findings in this file are not listed (the first 1000 are); their "
                               "fixes were applied and the counts include them")
    assert doc["summary"]["by_code"]["MAP001"] == 1500
