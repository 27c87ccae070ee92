"""`nvidia-smi` run from a shell script (also as `/usr/bin/nvidia-smi`), or from a Dockerfile's `RUN`, `CMD`,
`ENTRYPOINT` or `HEALTHCHECK CMD`: in shell form, or in exec form that runs a shell with a command string
(`CMD ["sh", "-c", "nvidia-smi -L && python serve.py"]`; migrate/deploy/docker_shell.py). Plain exec form
(`CMD ["nvidia-smi"]`) runs no shell and is not read. In YAML, the `run:` steps of GitHub Actions and the
`script:`/`before_script:`/`after_script:` of GitLab CI (migrate/deploy/yaml_shell.py).

Why: there is no nvidia-smi on an AMD machine; AMD's tool is `amd-smi` (`rocm-smi` is the older one). The
options differ, and so does the output.

What happens, by case (the same as PY011 for Python):
- Output only shown, or thrown away (`> /dev/null`), with options that have an exact counterpart: rewritten
  (safe): `nvidia-smi -L` → `amd-smi list`, `nvidia-smi topo -m` → `amd-smi topology`.
- Bare `nvidia-smi` as a statement of its own (a CI step that shows the GPUs): `rocm-smi` prints a summary table
  on every ROCm release through 7.2 (deprecated there, still shipped); `amd-smi` without arguments prints its usage
  up to 7.2 (its summary view comes in later releases, per AMD's amd-smi documentation): rewritten to `rocm-smi`
  (safe).
- Bare `nvidia-smi` whose exit status is the point (an "is there a GPU?" check: `if`, `&&`, `||`, `> /dev/null`):
  `rocm-smi` fails without a GPU too, but how it fails without a driver is not what this rule can check: rewritten
  to `rocm-smi` as an unsafe fix (applied with --unsafe-fixes).
- Output parsed (in `$(...)` or backquotes, piped into another command, or redirected to a file): WARNING, no fix:
  amd-smi's text has another layout; parse `amd-smi <command> --json` (or `--csv`).
- Other options: WARNING naming the nearest amd-smi command where there is one.
A command named by a variable that the same shell text sets once to a literal (`SMI=nvidia-smi` then `$SMI
-L`) is reported at the use with the origin named, without a fix (the command is written where it is set);
other commands built at run time are not followed. Inside an exec-form JSON string the new
command is written with JSON's escapes (none of the commands above needs one).
"""
from __future__ import annotations

from migrate.deploy.shell_commands import commands, output_parsed, status_read, text, through_variables
from migrate.model import Applicability, Edit, Severity
from migrate.rule import DeployRule, Invalid, Valid
from migrate.smi import EXACT, counterpart


class NvidiaSmiInShell(DeployRule):
    code = "PY063"
    severity = Severity.WARNING
    file_kinds = ("shell", "docker", "yaml")
    example_path = "check_gpu.sh"
    examples = [
        Valid("#!/bin/sh\namd-smi list\necho 'run nvidia-smi -L to list GPUs'\n# nvidia-smi\n"),
        Invalid("jobs:\n  gpu:\n    runs-on: [self-hosted, amd]\n    steps:\n      - run: nvidia-smi -L\n"
                "      - run: |\n          nvidia-smi topo -m\n          make test\n"
                "      - name: note\n        env:\n          HINT: nvidia-smi -L\n",
                fixed="jobs:\n  gpu:\n    runs-on: [self-hosted, amd]\n    steps:\n      - run: amd-smi list\n"
                      "      - run: |\n          amd-smi topology\n          make test\n"
                      "      - name: note\n        env:\n          HINT: nvidia-smi -L\n",
                path=".github/workflows/gpu.yml", line=5),
        Invalid("test:\n  script:\n    - 'nvidia-smi -L'\n    - GPUS=$(nvidia-smi -L | wc -l)\n",
                fixed="test:\n  script:\n    - 'amd-smi list'\n    - GPUS=$(nvidia-smi -L | wc -l)\n",
                path=".gitlab-ci.yml", line=3),
        Invalid("#!/bin/sh\nnvidia-smi -L\nnvidia-smi topo -m\n",
                fixed="#!/bin/sh\namd-smi list\namd-smi topology\n", line=2,
                message="nvidia-smi -L does not exist on AMD machines: amd-smi list is its counterpart"),
        Invalid("#!/bin/sh\nif ! nvidia-smi > /dev/null 2>&1; then\n    exit 1\nfi\n",
                fixed="#!/bin/sh\nif ! rocm-smi > /dev/null 2>&1; then\n    exit 1\nfi\n",
                options=(("unsafe_fixes", True),), line=2),
        Invalid("#!/bin/bash\nGPUS=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader | wc -l)\n", line=2,
                message="nvidia-smi --query-gpu=memory.used --format=csv,noheader does not exist on AMD machines, and "
                        "its output is parsed here: amd-smi prints another layout: parse `amd-smi metric --mem-usage "
                        "--json` (or --csv)"),
        Valid('FROM rocm/pytorch:latest\nCMD ["nvidia-smi", "-L"]\nRUN echo "nvidia-smi -L"\n', path="Dockerfile"),
        Invalid('FROM rocm/pytorch:latest\nRUN nvidia-smi -L\n'
                'CMD ["/bin/bash", "-lc", "nvidia-smi topo -m && exec python serve.py \\"$@\\""]\n',
                fixed='FROM rocm/pytorch:latest\nRUN amd-smi list\n'
                      'CMD ["/bin/bash", "-lc", "amd-smi topology && exec python serve.py \\"$@\\""]\n',
                path="Dockerfile", line=2),
        Invalid('FROM rocm/pytorch:latest\nHEALTHCHECK CMD ["sh", "-c", "nvidia-smi > /dev/null || exit 1"]\n',
                fixed='FROM rocm/pytorch:latest\nHEALTHCHECK CMD ["sh", "-c", "rocm-smi > /dev/null || exit 1"]\n',
                path="Dockerfile", line=2, options=(("unsafe_fixes", True),)),
        Invalid('FROM rocm/pytorch:latest\nENTRYPOINT ["sh", "-c", "echo \\"$(nvidia-smi -L | wc -l) GPUs\\""]\n',
                path="Dockerfile", line=2,
                message="nvidia-smi -L does not exist on AMD machines, and its output is parsed here: amd-smi prints "
                        "another layout: parse `amd-smi list --json` (or --csv)"),
        Invalid("#!/bin/bash\nnvidia-smi dmon -c 1\n", line=2,
                message="nvidia-smi dmon -c 1 does not exist on AMD machines: the nearest amd-smi command is amd-smi "
                        "monitor (its options differ): rewrite this by hand"),
        # a statement of its own, its status not tested: safe (LLaMA-Factory's "Check GPU Status" step)
        Invalid("jobs:\n  test:\n    runs-on: [self-hosted, amd]\n    steps:\n      - name: Check GPU Status\n"
                "        run: nvidia-smi\n",
                fixed="jobs:\n  test:\n    runs-on: [self-hosted, amd]\n    steps:\n      - name: Check GPU Status\n"
                      "        run: rocm-smi\n", path=".github/workflows/gpu.yml", line=6,
                message="nvidia-smi does not exist on AMD machines: rocm-smi prints a summary table like it and fails "
                        "without a GPU (amd-smi does so without arguments only in ROCm releases after 7.2)"),
        # a command named by a variable the script sets to nvidia-smi: reported at the use, the origin named
        Invalid("#!/bin/bash\nSMI=nvidia-smi\n$SMI -L\n", line=3,
                message="nvidia-smi -L (through SMI, set at line 2) does not exist on AMD machines: amd-smi list is "
                        "its counterpart: write it where the command is set"),
    ]

    def check(self, ctx):
        found = [*((shell, command, name, "") for shell, command, name in commands(ctx, "nvidia-smi")),
                 *((shell, command, None, origin) for shell, command, origin in through_variables(ctx, "nvidia-smi"))]
        for shell, command, name, origin in found:
            options = _options(shell, command)
            if options is not None:
                yield from self._command(ctx, shell, command, name, options, origin)

    def _command(self, ctx, shell, command, name, options: list[str], origin: str):
        """The finding for one command; one named by a variable (`origin` says where it is set) is reported at the
        use without a fix, since the command is written where the variable is set."""
        shown = " ".join(["nvidia-smi", *options]) + (f" (through {origin})" if origin else "")
        start, end = shell.at(command.start_byte), shell.at(command.end_byte)
        near = counterpart(tuple(options))
        if output_parsed(shell, command):
            how = f"parse `{near} --json` (or --csv)" if near else "parse an amd-smi command's --json output"
            yield self.finding(ctx, start, end, f"{shown} does not exist on AMD machines, and its output is parsed "
                               f"here: amd-smi prints another layout: {how}")
            return
        new = EXACT.get(tuple(options))
        if origin and (new is not None or not options):
            yield self.finding(ctx, start, end, f"{shown} does not exist on AMD machines: "
                               f"{' '.join(new) if new else 'rocm-smi'} is its counterpart: write it where the "
                               "command is set")
        elif new is not None:
            yield self.finding(ctx, start, end, f"{shown} does not exist on AMD machines: {' '.join(new)} is its "
                               "counterpart", edits=[Edit(shell.at(name.start_byte), end, shell.escape(" ".join(new)))],
                               title=f"Run {' '.join(new)}", severity=Severity.INFO)
        elif not options:
            checked = status_read(shell, command)
            yield self.finding(ctx, start, end, "nvidia-smi does not exist on AMD machines: rocm-smi prints a summary "
                               "table like it and fails without a GPU (amd-smi does so without arguments only in ROCm "
                               "releases after 7.2)" + (", but this line tests its exit status: check how rocm-smi "
                                                       "fails on your machines" if checked else ""),
                               edits=[Edit(shell.at(name.start_byte), shell.at(name.end_byte), "rocm-smi")],
                               title="Run rocm-smi",
                               applicability=Applicability.UNSAFE if checked else Applicability.SAFE)
        else:
            hint = f"the nearest amd-smi command is {near} (its options differ)" if near else \
                "amd-smi (list, static, metric, process, topology, monitor) has no direct counterpart of these options"
            yield self.finding(ctx, start, end, f"{shown} does not exist on AMD machines: {hint}: rewrite this by hand")

def _options(shell, command) -> list[str] | None:
    """The command's options, or None where one is an expansion or a quoted string (not followed)."""
    arguments = command.children_by_field_name("argument")
    if any(a.type not in ("word", "number") for a in arguments):
        return None
    return [text(shell, a) for a in arguments]
