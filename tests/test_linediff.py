"""The line diff that the effort estimate counts and `diff`/`run` print."""
import difflib

from migrate.linediff import LineDiff, hunks, opcodes


def function(name: str, api: str) -> str:
    return f"void {name}(int n)\n{{\n    {api}(n);\n}}\n\n"


def test_renamed_lines_in_a_long_file_are_the_only_changed_lines():
    # 60 functions of 5 lines: "{", "}" and "" are over 1% of 300 lines, which difflib's junk heuristic would
    # not anchor on, so it reported whole runs of functions, braces and blank lines included, as rewritten.
    old = "".join(function(f"f{i}", "cudaFree" if i % 2 else "keep") for i in range(60)).encode()
    new = old.replace(b"cudaFree", b"hipFree")
    diff = LineDiff(old, new)
    assert diff.changed == 30
    text = diff.unified("a.cu")
    assert "-{" not in text and "+}" not in text
    assert text.count("\n-") == 30 and text.count("\n+") == 31  # the 30 lines, and the "+++" header
    assert text.splitlines()[:12] == [
        "--- a/a.cu", "+++ b/a.cu", "@@ -5,7 +5,7 @@",
        " ", " void f1(int n)", " {", "-    cudaFree(n);", "+    hipFree(n);", " }", " ", " void f2(int n)",
        "@@ -15,7 +15,7 @@"]


def test_an_inserted_include_is_one_added_line():
    old = b"int a;\nint b;\nint c;\nint d;\nint e;\n"
    new = b"#include <hip/hip_runtime.h>\n" + old
    diff = LineDiff(old, new)
    assert diff.changed == 1
    assert diff.unified("k.cu") == ("--- a/k.cu\n+++ b/k.cu\n@@ -1,3 +1,4 @@\n+#include <hip/hip_runtime.h>\n"
                                    " int a;\n int b;\n int c;\n")


def test_a_line_removed_and_one_added_in_a_file_of_the_same_length():
    old = [f"line {i}\n" for i in range(8)]
    new = old[:2] + old[3:6] + ["added\n"] + old[6:]
    assert list(opcodes(old, new)) == [("equal", 0, 2, 0, 2), ("delete", 2, 3, 2, 2), ("equal", 3, 6, 2, 5),
                                 ("insert", 6, 6, 5, 6), ("equal", 6, 8, 6, 8)]
    assert LineDiff("".join(old).encode(), "".join(new).encode()).changed == 2


def test_a_missing_last_newline_is_marked():
    assert LineDiff(b"cudaFree(p);", b"hipFree(p);").unified("x.cu") == (
        "--- a/x.cu\n+++ b/x.cu\n@@ -1 +1 @@\n-cudaFree(p);\n\\ No newline at end of file\n"
        "+hipFree(p);\n\\ No newline at end of file\n")


def test_hunks_group_as_diff_u_does():
    old = [f"{i}\n" for i in range(40)]
    new = list(old)
    new[5], new[12], new[30] = "five\n", "twelve\n", "thirty\n"
    ops = list(opcodes(old, new))
    assert list(hunks(ops)) == list(difflib.SequenceMatcher(None, old, new).get_grouped_opcodes(3))
    assert [(g[0][1], g[-1][2]) for g in list(hunks(ops))] == [(2, 16), (27, 34)]


def test_lines_are_what_splitlines_lists_and_slices_are_views():
    from migrate.linediff import lines

    for text in ("", "a", "a\n", "a\r\nb\rc\n\n", "x\x0by\x0cz\x1c\x85w\u2028q\u2029", "\n\n\n", "a\r", "\r\n"):
        got, want = lines(text.encode()), [line.encode() for line in text.splitlines(keepends=True)]
        assert list(got) == want and len(got) == len(want)
        assert [list(got[a:b]) for a in range(-2, 4) for b in range(-2, 4)] == \
            [want[a:b] for a in range(-2, 4) for b in range(-2, 4)]
    assert lines(b"a\nb\nc")[-1] == b"c"
    # bytes that are not UTF-8 stay apart from the breaks: \x85 alone is no U+0085
    assert list(lines(b"a\x85b\xe2\xc2\x85c\xf0\xe2\x80\xa8d")) == [b"a\x85b\xe2\xc2\x85", b"c\xf0\xe2\x80\xa8", b"d"]


def test_a_unified_diff_of_lines_of_every_ending():
    old = b"keep\r\ncudaFree(p);\rkeep\x0cmore\nlast"
    new = b"keep\r\nhipFree(p);\rkeep\x0cmore\nlast\n"
    marker = "\n\\ No newline at end of file\n"  # after every line not ended by "\n", as before
    assert LineDiff(old, new).unified("x.cu") == (
        f"--- a/x.cu\n+++ b/x.cu\n@@ -1,5 +1,5 @@\n keep\r\n-cudaFree(p);\r{marker}+hipFree(p);\r{marker}"
        f" keep\x0c{marker} more\n-last{marker}+last\n")


def rebuilt(diff: LineDiff) -> list:
    """new's lines from old's and the opcodes, which must be consecutive and cover both."""
    out, at = [], (0, 0)
    for tag, i1, i2, j1, j2 in diff.ops():
        assert (i1, j1) == at
        if tag == "equal":
            assert list(diff.old[i1:i2]) == list(diff.new[j1:j2])
        out += list(diff.new[j1:j2])
        at = (i2, j2)
    assert at == (len(diff.old), len(diff.new))
    return out


def test_a_long_middle_is_walked_not_aligned_whole(monkeypatch):
    """difflib's time grows with the square of the lines that repeat: a 5 MB file of pasted code whose line count
    changed took a minute. A middle over WHOLE lines is walked, each difference aligned on its own."""
    from migrate import linediff

    block = [b"#include <cuda_runtime.h>\n", b"#include \"common.cuh\"\n", b"}\n", b"\n",
             b"__global__ void k(float* a) { a[threadIdx.x] = 0; }\n", b"}\n"]
    renamed = [b"#include \"common.cuh\"\n", b"}\n", b"\n", b"__global__ void k(float* a) { a[threadIdx.x] = 0; }\n",
               b"}\n"]
    old, new = b"".join(block * 300), b"".join(renamed * 300)  # the first line of each block removed
    monkeypatch.setattr(linediff, "WHOLE", 100)
    walked = LineDiff(old, new)
    assert rebuilt(walked) == list(walked.new)
    assert walked.changed == 300
    assert list(walked.ops())[:3] == [("delete", 0, 1, 0, 0), ("equal", 1, 6, 0, 5), ("delete", 6, 7, 5, 5)]
    # a rename in place, a line added and one removed among 2,000 distinct lines: the walk finds what difflib does
    old = b"".join(b"line %d\n" % i for i in range(2000))
    new = old.replace(b"line 500\n", b"LINE 500\n").replace(b"line 900\n", b"").replace(b"line 1500\n",
                                                                                         b"line 1500\nadded\n")
    walked = LineDiff(old, new)
    assert rebuilt(walked) == list(walked.new)
    monkeypatch.setattr(linediff, "WHOLE", 10**9)
    assert walked.changed == LineDiff(old, new).changed == 3
    assert walked.unified("x") == LineDiff(old, new).unified("x")


def test_hunks_are_difflibs_groups_for_any_opcodes():
    """The hunks are worked out as index ranges of the opcodes (a file changed every few lines is one hunk of most of
    them); on 400 random pairs of files and contexts 1 to 4 they are difflib's grouped opcodes all the same."""
    import random

    rng = random.Random(7)
    for case in range(400):
        old = [f"{rng.randrange(6)}\n" for _ in range(rng.randrange(0, 40))]
        new = [line if rng.random() < 0.7 else f"{rng.randrange(9)}\n" for line in old]
        if case % 3 == 0:
            new = new[:len(new) // 2] + [f"x{i}\n" for i in range(rng.randrange(4))] + new[len(new) // 2 + 1:]
        matcher = difflib.SequenceMatcher(None, old, new)
        context = 1 + case % 4
        expected = [g for g in matcher.get_grouped_opcodes(context) if any(op[0] != "equal" for op in g)]
        assert list(hunks(matcher.get_opcodes(), context)) == expected, (old, new, context)
