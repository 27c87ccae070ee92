"""`torch.cuda` stream and event calls, rewritten to the device-generic API only with `--portable`:
`torch.cuda.Stream(...)` → `torch.Stream(...)`, `torch.cuda.Event(...)` → `torch.Event(...)`,
`torch.cuda.current_stream(...)` → `torch.accelerator.current_stream(...)`, `torch.cuda.synchronize(...)` →
`torch.accelerator.synchronize(...)`, and `with torch.cuda.stream(s):` → `with s:`.

Why: without `--portable` there is nothing to do and nothing is reported: ROCm builds of PyTorch run all of these
as they are (HIP streams and events behind the `torch.cuda` names). `--portable` asks for code that also runs on
other accelerators (XPU, MPS, ...), which the `torch.Stream`/`torch.Event`/`torch.accelerator` API does (torch
2.6 or newer).

How the arguments change (signatures checked on torch 2.13): `torch.cuda.Stream(device=None, priority=0)` vs
`torch.Stream(device, *, priority)`, so a positional priority becomes `priority=`; `torch.cuda.Event(enable_timing,
blocking, interprocess)` vs `torch.Event(device=None, *, enable_timing, blocking, interprocess)`, so positionals
become keywords (`torch.cuda.Event(True)` → `torch.Event(enable_timing=True)`; `external=` has no counterpart: not
rewritten); `torch.accelerator.current_stream(device, /)` and `torch.accelerator.synchronize(device, /)` take the
device only positionally, so `device=` is dropped from the call.

Fix safety:
- `synchronize`: safe (the same wait on the current device).
- `current_stream`, `Stream`, `Event`: safe, but unsafe in a file that reads `.cuda_stream` or names
  `torch.cuda.Stream`/`torch.cuda.Event` other than in a call (isinstance checks, annotations): the new objects are
  plain `torch.Stream`/`torch.Event`, without `.cuda_stream`. `torch.cuda.current_stream().cuda_stream` is never
  rewritten.
- `with torch.cuda.stream(s):` → `with s:` is unsafe: `torch.cuda.stream(None)` does nothing while `with None:`
  raises, and `torch.cuda.stream(s)` gives None to an `as` target (with one, the statement is not rewritten).
A call reached without a `torch` name in the file (`from torch.cuda import Stream` and no `import torch`) is
reported without a fix.
"""
from __future__ import annotations

import libcst as cst

from migrate.model import Applicability, Edit, Severity
from migrate.python.index import arguments, index, module_alias
from migrate.rule import PythonRule, Invalid, Valid

PORTABLE = (("portable", True),)
NEW = {
    "torch.cuda.Stream": "Stream",
    "torch.cuda.Event": "Event",
    "torch.cuda.current_stream": "accelerator.current_stream",
    "torch.cuda.synchronize": "accelerator.synchronize",
}
EVENT_POSITIONAL = ("enable_timing", "blocking", "interprocess")


class CudaStreamApi(PythonRule):
    code = "PY006"
    severity = Severity.INFO
    examples = [
        Valid("import torch\n\ns = torch.cuda.Stream()\nwith torch.cuda.stream(s):\n    pass\ntorch.cuda.synchronize()\n"),
        Valid("import torch\n\ns = torch.Stream(priority=-1)\ntorch.accelerator.synchronize()\n", options=PORTABLE),
        Invalid("import torch\n\ns = torch.cuda.Stream(0, -1)\nstart = torch.cuda.Event(True)\n"
                "torch.cuda.synchronize(device=0)\ncur = torch.cuda.current_stream()\n",
                fixed="import torch\n\ns = torch.Stream(0, priority=-1)\nstart = torch.Event(enable_timing=True)\n"
                      "torch.accelerator.synchronize(0)\ncur = torch.accelerator.current_stream()\n",
                line=3, options=PORTABLE,
                message="torch.cuda.Stream works on ROCm; --portable: torch.Stream runs on any accelerator"),
        Invalid("import torch\n\ns = torch.cuda.Stream()\nwith torch.cuda.stream(s):\n    y = x * 2\n",
                fixed="import torch\n\ns = torch.Stream()\nwith s:\n    y = x * 2\n",
                options=(("portable", True), ("unsafe_fixes", True))),
        Invalid("import torch\n\ns = torch.cuda.Stream()\nptr = s.cuda_stream\n", line=3, options=PORTABLE),
        Invalid("from torch.cuda import synchronize\n\nsynchronize()\n", line=3, options=PORTABLE),
    ]

    def check(self, ctx):
        if not ctx.options.portable or b"cuda" not in ctx.data:
            return
        idx = index(ctx)
        torch = module_alias(ctx, "torch")
        risky = self._reads_raw_handles(ctx, idx)
        found = []
        for call in idx.calls:
            name = next((n for n in ctx.qualified_names(call.func) if n in NEW), None)
            if name is not None:
                found += self._call(ctx, idx, call, name, torch, risky)
        for item in idx.with_items:
            call = item.item
            if isinstance(call, cst.Call) and "torch.cuda.stream" in ctx.qualified_names(call.func):
                found += self._with(ctx, item, call)
        yield from sorted(found, key=lambda f: f.span.start)

    def _call(self, ctx, idx, call: cst.Call, name: str, torch: str | None, risky: bool):
        short = name.rpartition(".")[2]
        start, end = ctx.byte_span(call)
        message = f"{name} works on ROCm; --portable: torch.{NEW[name]} runs on any accelerator"
        edits = self._argument_edits(ctx, call, short)
        parent = idx.parent(call)
        chained = isinstance(parent, cst.Attribute) and parent.attr.value == "cuda_stream"
        if torch is None or edits is None or chained:
            yield self.finding(ctx, start, end, message)
            return
        edits.append(Edit(*ctx.byte_span(call.func), f"{torch}.{NEW[name]}"))
        unsafe = risky and short != "synchronize"
        yield self.finding(ctx, start, end, message, edits=edits, title=f"Use torch.{NEW[name]}",
                           applicability=Applicability.UNSAFE if unsafe else Applicability.SAFE)

    def _with(self, ctx, item: cst.WithItem, call: cst.Call):
        start, end = ctx.byte_span(item)
        message = ("torch.cuda.stream(s) works on ROCm; --portable: a torch.Stream is its own context manager "
                   "(`with s:`), but torch.cuda.stream(None) does nothing where `with None:` raises")
        args = arguments(call)
        if item.asname is not None or len(call.args) != 1 or args.starred or \
                isinstance(call.args[0].value, cst.Name) and call.args[0].value.value == "None":
            yield self.finding(ctx, start, end, message)
            return
        value = call.args[0].value
        text = ctx.text(*ctx.byte_span(value))
        edit = Edit(*ctx.byte_span(call), text)
        yield self.finding(ctx, start, end, message, edits=[edit], title="Enter the stream itself",
                           applicability=Applicability.UNSAFE)

    @staticmethod
    def _argument_edits(ctx, call: cst.Call, short: str) -> list[Edit] | None:
        args = arguments(call)
        if args.starred:
            return None
        edits: list[Edit] = []
        if short == "Stream":
            if len(args.positional) > 2 or set(args.keywords) - {"device", "priority"}:
                return None
            if len(args.positional) == 2:
                at = ctx.byte_span(args.positional[1])[0]
                edits.append(Edit(at, at, "priority="))
        elif short == "Event":
            if len(args.positional) > 3 or set(args.keywords) - set(EVENT_POSITIONAL):
                return None
            for i, arg in enumerate(args.positional):
                at = ctx.byte_span(arg)[0]
                edits.append(Edit(at, at, f"{EVENT_POSITIONAL[i]}="))
        else:  # current_stream, synchronize: the device, positional only
            if set(args.keywords) - {"device"} or len(call.args) > 1:
                return None
            if "device" in args.keywords:
                arg = args.keywords["device"]
                start = ctx.byte_span(arg)[0]
                edits.append(Edit(start, ctx.byte_span(arg.value)[0], ""))
        return edits

    @staticmethod
    def _reads_raw_handles(ctx, idx) -> bool:
        """Does the file read `.cuda_stream`, or name torch.cuda.Stream/Event other than as a call?"""
        if any(a.attr.value == "cuda_stream" for a in idx.attributes):
            return True
        for node in [*idx.attributes, *idx.names]:
            if ctx.qualified_names(node) & {"torch.cuda.Stream", "torch.cuda.Event"}:
                parent = idx.parent(node)
                if idx.inside_import(node) or (isinstance(parent, cst.Call) and parent.func is node):
                    continue
                if isinstance(parent, cst.Attribute) and parent.attr is node:
                    continue
                return True
        return False
