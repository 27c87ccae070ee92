"""Python files migrate in one run to their fixed point, and a file libcst cannot read is reported, not fatal
(issue 16: items 1 and 3 for Python).

- A non-UTF-8 byte in a comment: Python's compiler accepts the file, libcst refuses it; the run and `check` give
  INP001 with what to do, the file is copied unchanged and the other files are migrated.
- `from torch.cuda.amp import autocast` at module level and again inside a function: each use follows the import
  that binds it where it is used, so one run rewrites both imports and every call, and a second run changes nothing.
- `--portable` on a file with the wrong ports `'rccl'` and `torch.hip`: the wrong port is undone and the result made
  device-generic in the same run; the findings' fixes, applied to the original bytes, give the output.
"""
from __future__ import annotations

import json

from migrate import api
from migrate.edits import apply_fixes
from migrate.options import Options
from tests.helpers import cli, read_tree, write_tree

LATIN1_TRAIN = (b"# Entra\xeenement rapide (caf\xe9 compris)\nimport torch\n\n\ndef step(model, x):\n"
                b"    with torch.cuda.amp.autocast():\n        return model(x)\n")
OK_TRAIN = "import torch\n\nwith torch.cuda.amp.autocast():\n    pass\n"


def test_latin1_comment_is_reported_and_the_tree_is_migrated(tmp_path):
    src = write_tree(tmp_path / "src", {"legacy/train.py": LATIN1_TRAIN, "train.py": OK_TRAIN})
    result = cli("run", src, "--out", tmp_path / "out", "--hip-version", "6.4", "--output-format", "json")
    assert result.exit_code == 1  # something needs attention, nothing failed
    doc = json.loads(result.stdout)
    inputs = sorted((f["path"], f["code"], f["line"]) for f in doc["findings"] if f["code"].startswith("INP"))
    assert inputs == [("legacy/train.py", "INP001", 1), ("legacy/train.py", "INP003", 1)]
    (message,) = [f["message"] for f in doc["findings"] if f["code"] == "INP001"]
    assert message == ("libcst could not parse this file (at 1:1): copied unchanged; byte 0xee is not utf-8, the "
                       "file's encoding (Python only skips such bytes in comments); convert the file to UTF-8, or "
                       "declare its encoding in a coding cookie (`# -*- coding: latin-1 -*-`), and run again")
    out = read_tree(tmp_path / "out")
    assert out["legacy/train.py"] == LATIN1_TRAIN
    assert out["train.py"] == b'import torch\n\nwith torch.amp.autocast("cuda"):\n    pass\n'


def test_latin1_comment_with_a_coding_cookie_is_migrated(tmp_path):
    data = b"# -*- coding: latin-1 -*-\n" + LATIN1_TRAIN
    src = write_tree(tmp_path / "src", {"train.py": data})
    _, result = api.analyse(src, Options(hip_version="6.4"))
    (r,) = result.files
    assert r.new == data.replace(b"torch.cuda.amp.autocast()", b'torch.amp.autocast("cuda")')


def test_check_names_the_file_it_could_not_read(tmp_path):
    src = write_tree(tmp_path / "src", {"train.py": LATIN1_TRAIN})
    result = cli("check", src, "--no-cache", "--hip-version", "6.4")
    assert result.exit_code == 0, result.stdout  # an input problem never fails the gate
    first = result.stdout.splitlines()[0]
    assert first.endswith("train.py:1:1: INP001 [note] libcst could not parse this file (at 1:1): copied unchanged; "
                          "byte 0xee is not utf-8, the file's encoding (Python only skips such bytes in comments); "
                          "convert the file to UTF-8, or declare its encoding in a coding cookie "
                          "(`# -*- coding: latin-1 -*-`), and run again")


AMP_TWICE = '''\
import torch
from torch.cuda.amp import autocast


def evaluate(model, batch):
    with autocast():
        return model(batch)


def train_step(model, batch, scaler):
    from torch.cuda.amp import autocast
    with autocast(enabled=True):
        loss = model(batch)
    scaler.scale(loss).backward()
'''


def migrate_text(tmp_path, name: str, text: str, options: Options):
    src = write_tree(tmp_path / name, {"train.py": text})
    _, result = api.analyse(src, options)
    (r,) = result.files
    return r


def test_amp_imported_at_module_level_and_in_a_function(tmp_path):
    options = Options(hip_version="6.4")
    first = migrate_text(tmp_path, "a", AMP_TWICE, options)
    assert first.new.decode() == AMP_TWICE.replace("from torch.cuda.amp import", "from torch.amp import").replace(
        "autocast()", 'autocast("cuda")').replace("autocast(enabled=True)", 'autocast("cuda", enabled=True)')
    assert [(f.code, f.span.line) for f in first.findings] == [("PY005", 2), ("PY005", 11)]
    second = migrate_text(tmp_path, "b", first.new.decode(), options)
    assert second.new == first.new and second.findings == ()


def test_amp_used_only_in_the_function_that_imports_it(tmp_path):
    """The function's own import binds the name there: the module-level import (used elsewhere as a value, so left
    for a hand edit) does not hold the function's use back."""
    text = ("from torch.cuda.amp import autocast\n\nCONTEXT = autocast\n\n\ndef run(f):\n"
            "    from torch.cuda.amp import autocast\n    with autocast():\n        return f()\n")
    r = migrate_text(tmp_path, "a", text, Options(hip_version="6.4"))
    assert r.new.decode() == text.replace("    from torch.cuda.amp import", "    from torch.amp import").replace(
        "autocast():", 'autocast("cuda"):')
    assert [(f.code, f.span.line, f.fix is None) for f in r.findings] == [("PY005", 3, True), ("PY005", 7, False)]


PORTABLE = '''\
import torch
import torch.distributed as dist
from torch.hip.amp import autocast


def setup(rank):
    dist.init_process_group('rccl')
    torch.hip.set_device(rank)
    stream = torch.hip.Stream()
    torch.hip.synchronize()
    with autocast():
        pass
    return stream
'''
PORTABLE_FIXED = '''\
import torch
import torch.distributed as dist
from torch.amp import autocast


def setup(rank):
    dist.init_process_group(dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))
    torch.cuda.set_device(rank)
    stream = torch.Stream()
    torch.accelerator.synchronize()
    with autocast("cuda"):
        pass
    return stream
'''


def test_portable_wrong_ports_reach_the_fixed_point_in_one_run(tmp_path):
    options = Options(hip_version="6.4", portable=True)
    first = migrate_text(tmp_path, "a", PORTABLE, options)
    assert first.new.decode() == PORTABLE_FIXED
    again = migrate_text(tmp_path, "b", PORTABLE_FIXED, options)
    assert again.new.decode() == PORTABLE_FIXED
    # every finding is placed on the original file, and its fixes rebuild the output from the original bytes
    assert apply_fixes(PORTABLE.encode(), [f for f in first.findings if f.fix]).data == first.new
    lines = PORTABLE.splitlines()
    assert sorted((f.code, f.span.line) for f in first.findings) == [
        ("PY001", 3), ("PY001", 8), ("PY001", 9), ("PY001", 10), ("PY004", 7), ("PY005", 3), ("PY006", 9),
        ("PY006", 10), ("PY008", 7)]
    for f in first.findings:
        assert lines[f.span.line - 1][f.span.column - 1:].startswith(f.matched.splitlines()[0])


def test_without_portable_the_wrong_ports_are_only_undone(tmp_path):
    r = migrate_text(tmp_path, "a", PORTABLE, Options(hip_version="6.4"))
    assert r.new.decode() == PORTABLE.replace("'rccl'", "'nccl'").replace("torch.hip", "torch.cuda").replace(
        "from torch.cuda.amp import", "from torch.amp import").replace("autocast()", 'autocast("cuda")')


def test_composition_puts_later_edits_on_the_original():
    """Edits of three passes, some inside text an earlier pass wrote, some beside it, some adding lines: one edit per
    changed region of the original, and every later position mapped back onto the original."""
    from migrate.compose import Composition
    from migrate.edits import splice
    from migrate.model import Edit

    original = b"a = 'rccl'\nb = torch.hip.Stream()\nc = 1\n"
    passes = [
        [(Edit(5, 9, "nccl"), 0), (Edit(21, 24, "cuda"), 1)],  # 'rccl' -> 'nccl', torch.hip -> torch.cuda
        [(Edit(4, 10, "backend()"), 2), (Edit(15, 34, "torch.Stream()\n# kept"), 3)],
        [(Edit(0, 0, "import torch\n"), 4)],
    ]
    composition = Composition()
    data = original
    for edits in passes:
        composition.add(edits)
        data = splice(data, sorted((e for e, _ in edits), key=lambda e: (e.start, e.end)))
    assert data == b"import torch\na = backend()\nb = torch.Stream()\n# kept\nc = 1\n"
    composed = composition.edits(data)
    assert [(e.start, e.end, e.text, owners) for e, owners in composed] == [
        (0, 0, "import torch\n", {4}), (4, 10, "backend()", {0, 2}), (15, 33, "torch.Stream()\n# kept", {1, 3})]
    assert splice(original, [e for e, _ in composed]) == data
    assert composition.original(data.index(b"c = 1")) == original.index(b"c = 1")
    assert composition.original(data.index(b"Stream")) == 15  # inside a changed region: its start


def test_a_line_that_is_only_a_backslash_does_not_shift_the_edits_after_it(tmp_path):
    """libcst leaves a bare continuation line out of the byte positions after it: the fix of a string two lines
    further landed two bytes early (getattr(_cudart"hipDeviceSynchronize"e")); found by benchmarks/fuzz.py."""
    from migrate import api
    from migrate.options import Options

    (tmp_path / "cuda_utils.py").write_text(
        'import ctypes\n\n_cudart = ctypes.CDLL("libcudart.so.12")\n\n\ndef device_count():\n    n = ctypes.c_int()\n'
        '\\\n    return n.value\n\n\ndef sync():\n    fn = getattr(_cudart, "cudaDeviceSynchronize")\n    return fn()\n')
    _, result = api.analyse(tmp_path, Options(hip_version="6.4"))
    assert result.files[0].new.decode().splitlines()[2] == '_cudart = ctypes.CDLL("libamdhip64.so")'
    assert result.files[0].new.decode().splitlines()[12] == '    fn = getattr(_cudart, "hipDeviceSynchronize")'


def test_a_form_feed_does_not_shift_the_edits_after_it(tmp_path):
    """libcst leaves a form feed (indentation whitespace to Python) out of the byte positions after it: the autocast
    fix on the same line landed a byte early (ctx =torch.ampe.autocast"cuda", (...)); found by benchmarks/fuzz.py."""
    from migrate import api
    from migrate.options import Options

    (tmp_path / "train.py").write_text("import torch\n\n\fctx = torch.cuda.amp.autocast(dtype=torch.float16)\n"
                                       "ctx = torch.cuda.amp.autocast(dtype=torch.float16)\n")
    _, result = api.analyse(tmp_path, Options(hip_version="6.4"))
    assert result.files[0].new.decode().split("\n")[2:] == [
        '\fctx = torch.amp.autocast("cuda", dtype=torch.float16)',
        'ctx = torch.amp.autocast("cuda", dtype=torch.float16)', '']


def test_a_bare_continuation_line_after_an_indented_block_does_not_shift_the_edits_after_it(tmp_path):
    """After a block, libcst's byte positions past a line that is only a backslash come out late, not early: the
    edits of `os.environ.get("CUDA_HOME", "/usr/local/cuda")` landed two bytes on (a fuzz find)."""
    from migrate import api
    from migrate.options import Options

    (tmp_path / "env_setup.py").write_text(
        'import os\n\n\ndef configure(debug):\n    if debug:\n        os.environ["CUDA_LAUNCH_BLOCKING"] = "1"\n\\\n'
        '    return os.environ.get("CUDA_HOME", "/usr/local/cuda")\n')
    _, result = api.analyse(tmp_path, Options(hip_version="7.0"))
    assert result.files[0].new.decode().splitlines()[5:] == [
        '        os.environ["AMD_SERIALIZE_KERNEL"] = "3"', "\\", '    return os.environ.get("ROCM_PATH", "/opt/rocm")']


def test_a_space_before_an_except_colon_does_not_shift_the_edits_after_it(tmp_path):
    """libcst writes `except ImportError :` back without its space, and its byte positions are those of that code:
    the GradScaler fix after it landed five bytes early (scaler =torch.ampp.GradScaler"cuda"()); a fuzz find. Any
    file that libcst does not write back byte for byte has its positions realigned."""
    from migrate import api
    from migrate.options import Options

    (tmp_path / "train.py").write_text("import torch\n\ntry:\n    import apex\nexcept ImportError :\n    apex = None\n"
                                       "scaler = torch.cuda.amp.GradScaler()\n")
    _, result = api.analyse(tmp_path, Options(hip_version="6.4"))
    assert result.files[0].new.decode().splitlines()[4:] == [
        "except ImportError :", "    apex = None", 'scaler = torch.amp.GradScaler("cuda")']
