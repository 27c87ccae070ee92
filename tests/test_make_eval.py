"""The Makefile evaluator (migrate/buildfiles/make_eval.py) and the compile-check flags read through it
(flags.project_flags): only the branches GNU make takes, with make's variable semantics."""
import re
import subprocess

import pytest

from migrate.buildfiles import flags
from migrate.buildfiles.make_eval import evaluate
from tests.conftest import need_tool
from tests.helpers import write_tree

# In the shape of llm.c's Makefile: precision, cuDNN, OpenMP, NCCL and MPI chosen by conditionals, with
# Windows and macOS branches that a Linux build never reads.
LLMC = """\
# A GPT-2 trainer in C and CUDA, in the shape of llm.c's Makefile.
CC ?= clang
CFLAGS = -Ofast -Wno-unused-result -Wno-ignored-pragmas -Wno-unknown-attributes
LDFLAGS =
LDLIBS = -lm
INCLUDES =
CFLAGS_COND = -march=native

SHELL_UNAME = $(shell uname)
REMOVE_FILES = rm -f
OUTPUT_FILE = -o $@
CUDA_OUTPUT_FILE = -o $@

FORCE_NVCC_O ?= 3
# -t=0 is short for --threads, 0 = number of CPUs on the machine
NVCC_FLAGS = --threads=0 -t=0 --use_fast_math -std=c++17 -O$(FORCE_NVCC_O)
NVCC_LDFLAGS = -lcublas -lcublasLt
NVCC_INCLUDES =
NVCC_LDLIBS =
NVCC_CUDNN =
# cuDNN makes the build take about a minute: off unless asked for
USE_CUDNN ?= 0

BUILD_DIR = build
ifeq ($(OS), Windows_NT)
  $(shell if not exist $(BUILD_DIR) mkdir $(BUILD_DIR))
  REMOVE_BUILD_OBJECT_FILES := del $(BUILD_DIR)\\*.obj
else
  $(shell mkdir -p $(BUILD_DIR))
  REMOVE_BUILD_OBJECT_FILES := rm -f $(BUILD_DIR)/*.o
endif

ifneq ($(OS), Windows_NT)
define file_exists_in_path
  $(which $(1) 2>/dev/null)
endef
else
define file_exists_in_path
  $(shell where $(1) 2>nul)
endef
endif

ifneq ($(OS), Windows_NT)
  NVCC := $(shell which nvcc 2>/dev/null)
  NVCC_LDFLAGS += -lnvidia-ml
else
  CFLAGS :=
  REMOVE_FILES = del *.exe,*.obj,*.lib,*.exp,*.pdb && del
  SHELL_UNAME := Windows
  NVCC := nvcc
  CC := cl
  CFLAGS = /Idev /Zi /nologo /W4 /O2 /EHsc /MD /openmp:llvm
  NVCC_FLAGS += -I"dev" -std=c++20
endif

ifeq ($(USE_CUDNN), 1)
  ifeq ($(SHELL_UNAME), Linux)
    ifneq ($(wildcard cudnn-frontend/include),)
      CUDNN_FRONTEND_PATH ?= cudnn-frontend/include
    else
      $(error cuDNN frontend not found: clone it into cudnn-frontend/)
    endif
    NVCC_INCLUDES += -I"$(CUDNN_FRONTEND_PATH)"
    NVCC_LDFLAGS += -lcudnn
    NVCC_FLAGS += -DENABLE_CUDNN
    NVCC_CUDNN = $(BUILD_DIR)/cudnn_att.o
  else ifneq ($(OS), Windows_NT)
    $(info cuDNN is not supported on macOS)
  else
    CUDNN_INCLUDE_PATH ?= -I"C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\include\\12.4"
    NVCC_FLAGS += -I$(CUDNN_FRONTEND_PATH) $(CUDNN_INCLUDE_PATH) -DENABLE_CUDNN
  endif
else
  $(info cuDNN is off; make USE_CUDNN=1 turns it on)
endif

# OpenMP for the CPU reference code
ifeq ($(NO_OMP), 1)
  $(info OpenMP is off)
else
  ifneq ($(shell uname), Darwin)
    CFLAGS += -fopenmp -DOMP
    LDLIBS += -lgomp
  else
    CFLAGS += -Xclang -fopenmp -DOMP
    LDFLAGS += -L/opt/homebrew/opt/libomp/lib
    INCLUDES += -I/opt/homebrew/opt/libomp/include
    NVCC_INCLUDES += -I/opt/homebrew/opt/libomp/include
  endif
endif

# NCCL for multi-GPU training, where the library is installed
ifeq ($(NO_MULTI_GPU), 1)
  $(info multi-GPU is off)
else ifeq ($(shell [ -f /usr/lib/x86_64-linux-gnu/libnccl.so ] && echo "exists"), exists)
  NVCC_FLAGS += -DMULTI_GPU
  NVCC_LDLIBS += -lnccl
endif

ifeq ($(NO_USE_MPI), 1)
  $(info MPI is off)
else
  OPENMPI_DIR ?= /usr/lib/x86_64-linux-gnu/openmpi
  NVCC_LDFLAGS += -L$(OPENMPI_DIR)/lib/
  NVCC_INCLUDES += -I$(OPENMPI_DIR)/include/
  NVCC_LDLIBS += -lmpi
  NVCC_FLAGS += -DUSE_MPI
endif

# Precision: BF16 unless asked otherwise
PRECISION ?= BF16
VALID_PRECISIONS := FP32 FP16 BF16
ifeq ($(filter $(PRECISION),$(VALID_PRECISIONS)),)
  $(error Invalid precision $(PRECISION), valid precisions are $(VALID_PRECISIONS))
endif
ifeq ($(PRECISION), FP32)
  PFLAGS = -DENABLE_FP32
else ifeq ($(PRECISION), FP16)
  PFLAGS = -DENABLE_FP16
else
  PFLAGS = -DENABLE_BF16 -DBF16_SCALED
endif

.PHONY: all clean
TARGETS = train_gpt2 test_gpt2
ifeq ($(NVCC),)
  $(info nvcc not found, skipping the CUDA builds)
else
  TARGETS += train_gpt2cu test_gpt2cu train_gpt2fp32cu $(NVCC_CUDNN)
endif

all: $(TARGETS)

train_gpt2: train_gpt2.c
	$(CC) $(CFLAGS) $(INCLUDES) $(LDFLAGS) $^ $(LDLIBS) $(OUTPUT_FILE)

$(NVCC_CUDNN): llmc/cudnn_att.cpp
	$(NVCC) -c $(NVCC_FLAGS) $(PFLAGS) $^ $(NVCC_INCLUDES) -o $@

train_gpt2cu: train_gpt2.cu $(NVCC_CUDNN)
	$(NVCC) $(NVCC_FLAGS) $(PFLAGS) $^ $(NVCC_LDFLAGS) $(NVCC_INCLUDES) $(NVCC_LDLIBS) $(CUDA_OUTPUT_FILE)

train_gpt2fp32cu: train_gpt2_fp32.cu
	$(NVCC) $(NVCC_FLAGS) $< $(NVCC_LDFLAGS) $(NVCC_INCLUDES) $(NVCC_LDLIBS) -o $@

clean:
	$(REMOVE_FILES) $(TARGETS)
	$(REMOVE_BUILD_OBJECT_FILES)
"""

OPENMPI = "-I/usr/lib/x86_64-linux-gnu/openmpi/include"


def test_llmc_makefile_gives_the_flags_of_one_linux_build(tmp_path):
    write_tree(tmp_path, {"Makefile": LLMC})
    assert flags.project_flags(tmp_path) == ["-DUSE_MPI", "-DENABLE_BF16", "-DBF16_SCALED", OPENMPI, "-std=c++17"]


def test_make_vars_choose_the_precision(tmp_path):
    write_tree(tmp_path, {"Makefile": LLMC})
    assert flags.project_flags(tmp_path, {"PRECISION": "FP32"}) == ["-DUSE_MPI", "-DENABLE_FP32", OPENMPI,
                                                                    "-std=c++17"]
    assert flags.project_flags(tmp_path, {"PRECISION": "FP16", "NO_USE_MPI": "1"}) == ["-DENABLE_FP16",
                                                                                       "-std=c++17"]


def test_cudnn_branch_finds_its_folder_with_wildcard_and_unquotes_the_path(tmp_path):
    write_tree(tmp_path, {"Makefile": LLMC, "cudnn-frontend/include/cudnn_frontend.h": ""})
    assert flags.project_flags(tmp_path, {"USE_CUDNN": "1"}) == [
        "-DENABLE_CUDNN", "-DUSE_MPI", "-DENABLE_BF16", "-DBF16_SCALED", f"-I{tmp_path}/cudnn-frontend/include",
        OPENMPI, "-std=c++17"]


def test_windows_branch_is_read_when_asked_for(tmp_path):
    write_tree(tmp_path, {"Makefile": LLMC})
    assert flags.project_flags(tmp_path, {"OS": "Windows_NT"}) == [
        f"-I{tmp_path}/dev", "-DUSE_MPI", "-DENABLE_BF16", "-DBF16_SCALED", OPENMPI, "-std=c++20"]


NESTED = """\
MODE ?= release
ARCH ?= x86
ifeq ($(MODE),debug)
  ifeq ($(ARCH),arm)
    KIND = debug-arm
  else ifeq ($(ARCH), x86)
    KIND = debug-x86
  else
    KIND = debug-other
  endif
else ifeq "$(MODE)" "profile"
  ifdef ARCH
    KIND = profile
  endif
else ifneq '$(findstring rel,$(MODE))' ''
  ifndef ARCH
    KIND = never
  else
    KIND = release-$(ARCH)
  endif
else
  KIND = unknown
endif
"""


@pytest.mark.parametrize(("variables", "kind"), [
    ({}, "release-x86"),
    ({"MODE": "debug", "ARCH": "arm"}, "debug-arm"),
    ({"MODE": "debug"}, "debug-x86"),
    ({"MODE": "debug", "ARCH": "riscv"}, "debug-other"),
    ({"MODE": "profile"}, "profile"),
    ({"MODE": "prerelease", "ARCH": "arm"}, "release-arm"),
    ({"MODE": "other"}, "unknown"),
])
def test_nested_conditionals_and_else_ifeq(tmp_path, variables, kind):
    write_tree(tmp_path, {"Makefile": NESTED})
    assert evaluate(tmp_path / "Makefile", variables).value("KIND") == kind


ASSIGNMENTS = """\
CC ?= clang
A = first
A = $(B) second
B = late
C := $(B)
C += more
override D = file
E = 1
E += 2
HOST := $(shell uname -s)
RAN := $(shell touch ran; echo yes)
SUB = $(SRCS:.cu=.o) $(patsubst %.cu,%.d,$(SRCS)) $(foreach d,x y,-I$(d)) $(call twice,z)
SRCS = a.cu b.cu
twice = $(1)$(1)
OS_NAME = [$(OS)]
include common.mk
-include missing.mk
LIST := $(MAKEFILE_LIST)
ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))/..)
HERE = $(CURDIR)
"""


def test_assignments_follow_make(tmp_path):
    write_tree(tmp_path, {"Makefile": ASSIGNMENTS, "common.mk": "FROM_MK = yes $(E)\n"})
    made = evaluate(tmp_path / "Makefile", {"D": "command", "E": "command"})
    values = {n: made.value(n) for n in ("CC", "A", "C", "D", "E", "HOST", "RAN", "SUB", "OS_NAME", "FROM_MK",
                                         "LIST", "ROOT", "HERE")}
    assert values == {"CC": "cc", "A": "late second", "C": "late more", "D": "file", "E": "command",
                      "HOST": "Linux", "RAN": "", "SUB": "a.o b.o a.d b.d -Ix -Iy zz", "OS_NAME": "[]",
                      "FROM_MK": "yes command", "LIST": "Makefile common.mk", "ROOT": str(tmp_path.parent),
                      "HERE": str(tmp_path)}
    assert not (tmp_path / "ran").exists()  # $(shell ...) runs nothing
    assert made.files == [tmp_path / "Makefile", tmp_path / "common.mk"]


def test_values_agree_with_gnu_make(tmp_path):
    """The values printed by GNU make itself (environment emptied) for the same file and command line."""
    make = need_tool("make")
    names = ["KIND", "A", "C", "D", "E", "HOST", "SUB", "OS_NAME", "FROM_MK", "LIST", "ROOT", "HERE"]
    text = NESTED + ASSIGNMENTS.replace("RAN := $(shell touch ran; echo yes)\n", "")
    text += "".join(f"$(info {n}=[$({n})])\n" for n in names) + "none:;\n"
    write_tree(tmp_path, {"Makefile": text, "common.mk": "FROM_MK = yes $(E)\n"})
    for variables in ({}, {"MODE": "debug", "E": "3"}, {"MODE": "profile", "D": "x"}):
        args = [make, "-s", "none", *(f"{k}={v}" for k, v in variables.items())]
        out = subprocess.run(args, cwd=tmp_path, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"},
                             check=True).stdout
        made = evaluate(tmp_path / "Makefile", variables)
        assert {n: made.value(n) for n in names} == dict(re.findall(r"^(\w+)=\[(.*)\]$", out, re.M))


def test_later_value_wins_where_no_recipe_runs_the_compiler(tmp_path):
    write_tree(tmp_path, {"Makefile": "CXXFLAGS = -std=c++14 -Iold -DOLD\n"
                                      "CXXFLAGS = -std=c++17 -I include -DNDEBUG\n"})
    assert flags.project_flags(tmp_path) == [f"-I{tmp_path}/include", "-DNDEBUG", "-std=c++17"]


def test_included_fragment_counts_through_its_makefile(tmp_path):
    write_tree(tmp_path, {
        "Makefile": "MODE = fast\ninclude config.mk\napp: app.cu\n\t$(NVCC) $(DEFS) -o $@ $<\n",
        "config.mk": "ifeq ($(MODE),fast)\nDEFS = -DFAST\nelse\nDEFS = -DSLOW\nendif\n",
        "other.mk": "ifdef MODE\nX = -DNEVER\nelse\nX = -DALONE\nendif\n"})
    assert flags.project_flags(tmp_path) == ["-DFAST", "-DALONE", "-std=c++17"]
