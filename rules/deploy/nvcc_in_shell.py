"""`nvcc` run from a shell script, a Dockerfile's `RUN`/`CMD`/`ENTRYPOINT` (shell form, or exec form through `sh -c`),
or a CI step (GitHub Actions `run:`, GitLab CI `script:`), also by a path (`/usr/local/cuda/bin/nvcc -V`,
`$CUDA_HOME/bin/nvcc` is not followed: its name is built at run time), or by a variable the same shell text sets
once to such a path (`NVCC=/usr/local/cuda/bin/nvcc` then `$NVCC -V`: reported at the use with the origin, no fix);
read through migrate/deploy/shell_commands.py.

Why: there is no nvcc on a ROCm machine; HIP's compiler driver is `hipcc` (AMD's clang underneath).

What happens, by case:
- `nvcc --version` or `nvcc -V` whose output is only shown (a CI step that logs the toolchain): rewritten (safe) to
  `hipcc --version`, which prints HIP's version and the clang it drives.
- The same with its output parsed (captured, piped into `grep release`, written to a file): WARNING, no fix:
  hipcc's text has another layout; `hipconfig --version` prints HIP's version alone.
- `which nvcc` or `command -v nvcc` as a statement of its own (a CI step that logs where the compiler is):
  rewritten (safe) to look up `hipcc`. Where its exit status is tested (`command -v nvcc || exit 0`, `if which
  nvcc`) or its output read (`NVCC=$(which nvcc)`), it is the project's own test for CUDA and is kept.
- Any other nvcc command (a compile): WARNING, no fix: `hipcc` compiles HIP for AMD GPUs, but nvcc's options do not
  carry over (`-arch=sm_80`/`-gencode` → `--offload-arch=gfx942`, `.cu` sources need `-x hip`, `-Xcompiler` and
  `--expt-relaxed-constexpr` have no counterpart or none is needed).
"""
from __future__ import annotations

from migrate.deploy.shell_commands import commands, output_parsed, status_read, text, through_variables
from migrate.model import Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid

VERSION = {"--version", "-V"}


class NvccInShell(DeployRule):
    code = "PY068"
    severity = Severity.WARNING
    file_kinds = ("shell", "docker", "yaml")
    example_path = "build.sh"
    examples = [
        Valid("#!/bin/sh\nhipcc --version\necho 'nvcc --version'\n# nvcc -V\ncommand -v nvcc || exit 0\n"),
        Invalid("jobs:\n  build:\n    runs-on: ubuntu-22.04\n    steps:\n      - run: nvcc --version\n"
                "      - run: |\n          /usr/local/cuda/bin/nvcc -V\n          make\n",
                fixed="jobs:\n  build:\n    runs-on: ubuntu-22.04\n    steps:\n      - run: hipcc --version\n"
                      "      - run: |\n          hipcc --version\n          make\n",
                path=".github/workflows/build.yml", line=5,
                message="nvcc --version does not exist on ROCm machines: hipcc --version prints HIP's version and "
                        "the clang it drives"),
        Invalid("build:\n  script:\n    - nvcc -V\n    - CUDA=$(nvcc --version | grep release)\n",
                fixed="build:\n  script:\n    - hipcc --version\n    - CUDA=$(nvcc --version | grep release)\n",
                path=".gitlab-ci.yml", line=3),
        Invalid("#!/bin/bash\nnvcc --version | grep -o 'release [0-9.]*'\n", line=2,
                message="nvcc --version does not exist on ROCm machines, and its output is parsed here: hipcc "
                        "--version prints another layout; `hipconfig --version` prints HIP's version alone"),
        Invalid("FROM rocm/dev-ubuntu-22.04:6.4.1-complete\nRUN nvcc -O3 -arch=sm_80 -o app main.cu\n",
                path="Dockerfile", line=2,
                message="nvcc -O3 -arch=sm_80 -o app main.cu compiles CUDA for NVIDIA GPUs: hipcc compiles HIP for "
                        "AMD GPUs, but nvcc's options differ (-arch=sm_80 and -gencode become "
                        "--offload-arch=gfx942, .cu sources need -x hip): rewrite this command by hand"),
        # the compiler looked up and only logged (xformers' GPU workflow: `which python` then `which nvcc`)
        Invalid("jobs:\n  t:\n    steps:\n      - run: |\n          which python\n          which nvcc\n"
                "          command -v nvcc || echo 'no CUDA'\n",
                fixed="jobs:\n  t:\n    steps:\n      - run: |\n          which python\n          which hipcc\n"
                      "          command -v nvcc || echo 'no CUDA'\n",
                path=".github/workflows/test.yml", line=6,
                message="which nvcc looks up NVIDIA's compiler, which a ROCm machine does not have: hipcc is HIP's "
                        "compiler driver"),
        Valid("#!/bin/sh\nif which nvcc > /dev/null; then make cuda; fi\nNVCC=$(command -v nvcc)\n"),
        # a compiler path kept in a variable of the script: reported at the use, the origin named
        Invalid('#!/bin/bash\nNVCC="/usr/local/cuda/bin/nvcc"\n"$NVCC" --version\n', line=3,
                message="nvcc --version (through NVCC, set at line 2) does not exist on ROCm machines: hipcc "
                        "--version prints HIP's version and the clang it drives: write hipcc where the command is set"),
    ]

    def check(self, ctx):
        yield from self._lookups(ctx)
        found = [*((shell, command, name, "") for shell, command, name in commands(ctx, "nvcc")),
                 *((shell, command, None, origin) for shell, command, origin in through_variables(ctx, "nvcc"))]
        for shell, command, name, origin in found:
            arguments = [text(shell, a) for a in command.children_by_field_name("argument")]
            start, end = shell.at(command.start_byte), shell.at(command.end_byte)
            shown = " ".join(["nvcc", *arguments]) + (f" (through {origin})" if origin else "")
            if len(arguments) == 1 and arguments[0] in VERSION:
                if output_parsed(shell, command):
                    yield self.finding(ctx, start, end, f"{shown} does not exist on ROCm machines, and its output is "
                                       "parsed here: hipcc --version prints another layout; `hipconfig --version` "
                                       "prints HIP's version alone")
                elif origin:  # named by a variable: hipcc is written where the variable is set
                    yield self.finding(ctx, start, end, f"{shown} does not exist on ROCm machines: hipcc --version "
                                       "prints HIP's version and the clang it drives: write hipcc where the command "
                                       "is set")
                else:
                    yield self.finding(ctx, start, end, f"{shown} does not exist on ROCm machines: hipcc --version "
                                       "prints HIP's version and the clang it drives", severity=Severity.INFO,
                                       edits=[Edit(shell.at(name.start_byte), end, shell.escape("hipcc --version"))],
                                       title="Run hipcc --version")
                continue
            yield self.finding(ctx, start, end, f"{shown} compiles CUDA for NVIDIA GPUs: hipcc compiles HIP for AMD "
                               "GPUs, but nvcc's options differ (-arch=sm_80 and -gencode become "
                               "--offload-arch=gfx942, .cu sources need -x hip): rewrite this command by hand")

    def _lookups(self, ctx):
        """`which nvcc` / `command -v nvcc` as statements of their own: the path is only logged."""
        for finder, flags in (("which", []), ("command", ["-v"])):
            for shell, command, _ in commands(ctx, finder):
                arguments = command.children_by_field_name("argument")
                words = [text(shell, a) for a in arguments]
                if words != [*flags, "nvcc"] or output_parsed(shell, command) or status_read(shell, command):
                    continue
                start, end = shell.at(command.start_byte), shell.at(command.end_byte)
                yield self.finding(ctx, start, end, f"{' '.join([finder, *words])} looks up NVIDIA's compiler, which "
                                   "a ROCm machine does not have: hipcc is HIP's compiler driver",
                                   severity=Severity.INFO, title="Look up hipcc",
                                   edits=[Edit(shell.at(arguments[-1].start_byte), shell.at(arguments[-1].end_byte),
                                               "hipcc")])
