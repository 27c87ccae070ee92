"""Huge build files read in a small multiple of their size: a CMake file parsed in pieces gives exactly the commands,
parse errors, findings and migrated text of the whole-file parse, and a Makefile's words, split by the fast path,
are those of the byte-by-byte reading."""
import random
from pathlib import Path

import pytest

from migrate.buildfiles import cmake, cmake_chunks, make, tables
from migrate.buildfiles.cmake import CMakeContext
from migrate.buildfiles.make import MakeContext
from migrate.fixing import run_rules
from migrate.options import Options
from migrate.packs import default_packs
from migrate.registry import default_registry

ROOT = Path(__file__).resolve().parent.parent
TRICKY = (b"#[[ a bracket comment\n)(\n]]\nmessage(a # a comment )\n b)\nif(X)\n  set(A \"x\n)\ny\")\n"
          b"elseif(Y)\n  set(B [=[\n)\n]=])\nendif()\nFUNCTION(f)\n  g(a\\)b)\nENDFUNCTION()\r\n"
          b"foreach(i 1 2)\n  while(1)\n  endwhile()\nendforeach()\nadd(a\"b\n c\"d)\n")


def samples_cmake() -> bytes:
    """Every sample's CMakeLists.txt and the tricky constructs above, repeated: many pieces of 2 KB."""
    parts = [p.read_bytes() for p in sorted(ROOT.glob("samples/*/src/**/CMakeLists.txt"))]
    assert parts
    return (b"\n".join(parts) + b"\n" + TRICKY) * 40


def as_tuples(table) -> list[tuple]:
    return [(c.name, c.start, c.end, tuple((a.text, a.start, a.end) for a in c.args), c.args_start, c.args_end)
            for c in table]


def test_cmake_pieces_give_the_commands_of_the_whole_file():
    data = samples_cmake()
    cuts = cmake_chunks.cuts(data, 2048)
    assert len(cuts) > 10
    whole, whole_errors = cmake.parse_commands(data, len(data) + 1)
    pieces, errors = cmake.parse_commands(data, 2048)
    assert as_tuples(pieces) == as_tuples(whole)
    assert errors == whole_errors == []
    assert len(pieces) == len(whole) > 500
    assert [c.name for c in pieces[3:6]] == [c.name for c in list(whole)[3:6]]
    assert pieces[-1] == whole[len(whole) - 1]


def test_cmake_pieces_cut_only_where_nothing_is_open():
    data = TRICKY + b"x()\n"
    assert [data[:c].decode().rsplit("\n", 2)[-2] for c in cmake_chunks.cuts(data, 1)] == \
        ["]]", " b)", "endif()", "ENDFUNCTION()\r", "endforeach()", " c\"d)"]


@pytest.mark.parametrize("broken", [b"add_library(k STATIC k.cu\n", b"set(A \"open\n", b"if(X)\n"])
def test_a_cmake_file_that_does_not_parse_reports_the_errors_of_the_whole_file(broken):
    data = samples_cmake()
    data = data[:len(data) // 2] + broken + data[len(data) // 2:]
    whole, whole_errors = cmake.parse_commands(data, len(data) + 1)
    pieces, errors = cmake.parse_commands(data, 2048)
    assert errors == whole_errors and errors
    assert as_tuples(pieces) == as_tuples(whole)


def migrate_cmake(data: bytes):
    rules = [r() for r in default_registry().for_kind("cmake")]
    ctx = CMakeContext("CMakeLists.txt", data, Options(), default_packs(), "6.2")
    return run_rules(ctx, rules, what="the build file"), ctx.parse_errors()


def test_cmake_rules_find_and_fix_the_same_in_pieces(monkeypatch):
    data = samples_cmake()
    whole, whole_errors = migrate_cmake(data)
    monkeypatch.setattr(cmake_chunks, "CHUNK", 2048)
    monkeypatch.setattr(tables, "KEEP_BELOW", 0)  # as a huge file: each command made when read
    pieces, errors = migrate_cmake(data)
    assert pieces.data == whole.data != data
    assert pieces.findings == whole.findings
    assert len(whole.findings) > 200
    assert errors == whole_errors == []


def random_makefile(rng: random.Random) -> bytes:
    parts = [b"a", b"b.o", b" ", b"\t", b"\n", b"\r\n", b"\\", b"\\\n", b"#", b"$", b"$$", b"(", b")", b"{", b"}",
             b":", b"=", b"\xff", b"\xc3\xa9", b"$(X)", b"${Y}", b"$(patsubst %.cu,%.o, $(S))", b"$(A", b"\\#"]
    return b"".join(rng.choice(parts) for _ in range(rng.randint(0, 40)))


def test_make_words_are_those_of_the_byte_by_byte_reading():
    rng = random.Random(7)
    for _ in range(5000):
        data = random_makefile(rng)
        for line in MakeContext("Makefile", data, Options(), default_packs(), "6.2").lines:
            if line.words_from >= 0:
                assert make.split_words(data, line.words_from, line.end) == \
                    make._split_nested(data, line.words_from, line.end), data


def test_make_lines_are_read_from_offsets():
    data = (b"NVCC := $(CUDA_PATH)/bin/nvcc # the compiler\nall: k.o \\\n  m.o\n"
            b"\t$(NVCC) -o $@ $(patsubst %.cu,%.o, $(SRC)) \\\n\t  -lcudart\n\n# done\n")
    lines = MakeContext("Makefile", data, Options(), default_packs(), "6.2").lines
    assert [(x.kind, x.variable, [w.text for w in x.words], x.text) for x in lines] == [
        ("assign", "NVCC", ["$(CUDA_PATH)/bin/nvcc"], "NVCC := $(CUDA_PATH)/bin/nvcc # the compiler"),
        ("rule", "", ["all:", "k.o", "m.o"], "all: k.o  m.o"),
        ("recipe", "", ["$(NVCC)", "-o", "$@", "$(patsubst %.cu,%.o, $(SRC))", "-lcudart"],
         "\t$(NVCC) -o $@ $(patsubst %.cu,%.o, $(SRC))  -lcudart"),
        ("other", "", [], ""), ("comment", "", [], "# done")]
    assert [(w.start, w.end) for w in lines[2].words][:2] == [(63, 70), (71, 73)]
    assert len(lines) == 5 and lines[-1].start == lines[4].start == len(data) - 7


def test_a_huge_makefiles_lines_made_when_read_migrate_as_kept_ones(monkeypatch):
    data = b"".join(p.read_bytes() for p in sorted(ROOT.glob("samples/*/src/**/Makefile")))
    assert len(data) > 2000

    def migrated():
        rules = [r() for r in default_registry().for_kind("make")]
        return run_rules(MakeContext("Makefile", data, Options(), default_packs(), "6.2"), rules, what="the file")

    kept = migrated()
    monkeypatch.setattr(tables, "KEEP_BELOW", 0)
    made = migrated()
    assert made.data == kept.data != data and made.findings == kept.findings and len(kept.findings) > 20
