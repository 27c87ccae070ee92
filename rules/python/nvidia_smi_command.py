"""`nvidia-smi` run from Python: `subprocess.run/call/check_call/check_output/Popen/getoutput/getstatusoutput`,
`os.system`, `os.popen`, with the command as a list (`["nvidia-smi", "-L"]`) or a string (`"nvidia-smi -L"`,
also a path such as `/usr/bin/nvidia-smi`).

Why: there is no nvidia-smi on an AMD machine. AMD's tool is `amd-smi` (its subcommands: `list`, `static`,
`metric`, `process`, `topology`, `monitor`, ...; `rocm-smi` is the older tool it replaces). The options differ,
and so does the output.

What happens, by case:
- The output is only shown (not captured) and the options have an exact counterpart: rewritten (safe):
  `nvidia-smi -L` / `--list-gpus` → `amd-smi list`; `nvidia-smi topo -m` → `amd-smi topology`.
- Bare `nvidia-smi` (the summary table): `amd-smi` prints its summary view without arguments only in releases
  after 7.2 (AMD's amd-smi documentation; up to 7.2 it prints its usage), while `rocm-smi` alone prints a summary
  table on all of them through 7.2 (deprecated there, still shipped): rewritten to `rocm-smi`, safe where the call
  is a statement of its own (its status unused), an unsafe fix (applied with --unsafe-fixes) where the code tests
  its exit status (`check=True`, `check_call`, a result that is used), as PY063 does for shell.
- Other options (`--query-gpu=...`, `-q`, `dmon`, `pmon`, `-i N`): WARNING naming the amd-smi counterpart where one
  exists (`memory.used` → `amd-smi metric --mem-usage`, `utilization.gpu` → `amd-smi metric --usage`,
  `temperature.gpu` → `amd-smi metric --temperature`, `power.draw` → `amd-smi metric --power`, `name` →
  `amd-smi static --asic`, `dmon` → `amd-smi monitor`, `pmon`/`--query-compute-apps` → `amd-smi process`).
- The output is parsed (`check_output`, `getoutput`, `capture_output=True`, `stdout=PIPE` or a file, `os.popen`, a
  shell pipe or redirection in the string): WARNING, no fix: amd-smi's text has another layout; parse
  `amd-smi <command> --json` (or `--csv`) or use the `amdsmi` Python library.
A command held by a name bound once, a `shutil.which("nvidia-smi")` result or a helper of the module that returns it
is followed (migrate/python/origins.py): the finding is at the call, with where the command came from, and has no
fix. Commands built otherwise at run time (an f-string, a name bound several times) are not followed.
"""
from __future__ import annotations

import libcst as cst

from migrate.model import Applicability, Edit, Severity
from migrate.python.commands import Command, commands
from migrate.python.index import quoted
from migrate.smi import EXACT, counterpart as _counterpart
from migrate.rule import PythonRule, Invalid, Valid


class NvidiaSmiCommand(PythonRule):
    code = "PY011"
    severity = Severity.WARNING
    example_path = "monitor.py"
    examples = [
        Valid("import subprocess\nsubprocess.run(['amd-smi', 'list'])\nprint('nvidia-smi -L')\n"),
        Valid("import os\nos.system('rocm-smi')\n"),
        # the NVIDIA side of a ROCm test never runs on ROCm (migrate/python/guards.py)
        Valid("import subprocess\nimport torch\n\n\ndef gpu_names():\n    if torch.version.hip:\n"
              "        return subprocess.check_output(['amd-smi', 'list'], text=True)\n"
              "    return subprocess.check_output(['nvidia-smi', '-L'], text=True)\n"),
        Invalid("import os\nimport subprocess\n\nsubprocess.run([\"nvidia-smi\", \"-L\"], check=True)\n"
                "os.system('nvidia-smi topo -m')\n",
                fixed="import os\nimport subprocess\n\nsubprocess.run([\"amd-smi\", \"list\"], check=True)\n"
                      "os.system('amd-smi topology')\n",
                line=4, message="nvidia-smi -L does not exist on AMD machines: amd-smi list is its counterpart"),
        Invalid("import subprocess\n\nsubprocess.call('nvidia-smi', shell=True)\n",
                fixed="import subprocess\n\nsubprocess.call('rocm-smi', shell=True)\n"),
        Invalid("import subprocess\n\nout = subprocess.check_output(['nvidia-smi', '--query-gpu=memory.used',\n"
                "                               '--format=csv,noheader'], text=True)\n", line=3,
                message="nvidia-smi --query-gpu=memory.used --format=csv,noheader does not exist on AMD machines, and "
                        "its output is parsed here: amd-smi prints another layout: parse `amd-smi metric --mem-usage "
                        "--json` (or --csv), or use the amdsmi Python library"),
        Invalid("import subprocess\n\nsubprocess.run(['nvidia-smi', 'dmon', '-c', '1'])\n", line=3,
                message="nvidia-smi dmon -c 1 does not exist on AMD machines: the nearest amd-smi command is "
                        "amd-smi monitor (its options differ): rewrite this by hand"),
        # followed to where the command comes from: a name, shutil.which's result, a helper of the module
        Invalid("import subprocess\n\nQUERY = ['nvidia-smi', '--query-gpu=name', '--format=csv']\n\n\n"
                "def names():\n    return subprocess.check_output(QUERY, text=True).splitlines()\n", line=7,
                message="nvidia-smi --query-gpu=name --format=csv (through QUERY, set at line 3) does not exist on "
                        "AMD machines, and its output is parsed here: amd-smi prints another layout: parse `amd-smi "
                        "static --asic --json` (or --csv), or use the amdsmi Python library"),
        Invalid("import shutil\nimport subprocess\n\nsmi = shutil.which('nvidia-smi')\nif smi:\n"
                "    subprocess.run([smi, '-L'])\n", line=6,
                message="nvidia-smi -L (through smi, set at line 4) does not exist on AMD machines: amd-smi list is "
                        "its counterpart: write it where the command is set"),
        Invalid("import os\n\n\ndef _smi():\n    return 'nvidia-smi'\n\n\nos.system(_smi())\n", line=8),
        # the status tested: the same fix, unsafe
        Invalid("import os\nimport sys\n\nif os.system('nvidia-smi') != 0:\n    sys.exit('no GPU')\n", line=4,
                message="nvidia-smi does not exist on AMD machines: rocm-smi prints a summary table like it (amd-smi "
                        "does so without arguments only in ROCm releases after 7.2), but this code tests its exit "
                        "status: check how rocm-smi fails on your machines"),
    ]

    def check(self, ctx):
        for command in commands(ctx, "nvidia-smi"):
            yield from self._command(ctx, command)

    def _command(self, ctx, command: Command):
        options, shown = command.options, command.shown
        node = command.at
        start, end = ctx.byte_span(node)
        counterpart = _counterpart(options)
        if command.parsed:
            how = f"parse `{counterpart} --json` (or --csv)" if counterpart else "parse an amd-smi command's --json output"
            yield self.finding(ctx, start, end, f"{shown} does not exist on AMD machines, and its output is parsed "
                               f"here: amd-smi prints another layout: {how}, or use the amdsmi Python library")
            return
        if command.origin and EXACT.get(options):
            yield self.finding(ctx, start, end, f"{shown} does not exist on AMD machines: {' '.join(EXACT[options])} "
                               "is its counterpart: write it where the command is set")
            return
        new = EXACT.get(options) if command.literal else None
        if new is None and not options and command.literal:
            checked = command.checked
            yield self.finding(ctx, start, end, "nvidia-smi does not exist on AMD machines: rocm-smi prints a summary "
                               "table like it (amd-smi does so without arguments only in ROCm releases after 7.2)"
                               + (", but this code tests its exit status: check how rocm-smi fails on your machines"
                                  if checked else ""),
                               edits=[self._edit(ctx, node, ["rocm-smi"])], title="Run rocm-smi",
                               applicability=Applicability.UNSAFE if checked else Applicability.SAFE)
            return
        if new is not None:
            yield self.finding(ctx, start, end, f"{shown} does not exist on AMD machines: {' '.join(new)} is its "
                               "counterpart", edits=[self._edit(ctx, node, new)], title=f"Run {' '.join(new)}",
                               severity=Severity.INFO)
            return
        hint = f"the nearest amd-smi command is {counterpart} (its options differ)" if counterpart else \
            "amd-smi (list, static, metric, process, topology, monitor) has no direct counterpart of these options"
        yield self.finding(ctx, start, end, f"{shown} does not exist on AMD machines: {hint}: rewrite this by hand")

    @staticmethod
    def _edit(ctx, node, new: list[str]) -> Edit:
        if isinstance(node, (cst.List, cst.Tuple)):
            first = node.elements[0].value
            start = ctx.byte_span(first)[0]
            end = ctx.byte_span(node.elements[-1].value)[1]
            return Edit(start, end, ", ".join(quoted(first, w) for w in new))
        return Edit(*ctx.byte_span(node), quoted(node, " ".join(new)))

