"""migrate/python/names.py: qualified names through imports and scopes, exact answers."""
import libcst as cst

from migrate.python.names import QualifiedNames

SOURCE = '''\
import os
import torch.cuda.amp as amp
from torch.cuda import amp as camp, Stream
from subprocess import run as sh
import torch

def uses(torch, n):
    torch.cuda.synchronize()
    return amp.autocast(), n

class Model:
    amp = None

    def step(self):
        return amp.GradScaler(), [x for x in range(3)]

def again():
    global sh
    sh = None
    return sh

def chained():
    return torch.cuda.current_stream().cuda_stream, os.environ["A"], Stream(), camp.autocast(), len([])
'''


def names_of(source: str) -> dict[str, list[set[str]]]:
    module = cst.parse_module(source)
    q = QualifiedNames(module)
    found: dict[str, list[set[str]]] = {}

    class V(cst.CSTVisitor):
        def visit_Attribute(self, node):
            found.setdefault(module.code_for_node(node), []).append(q.of(node))

        def visit_Name(self, node):
            found.setdefault(node.value, []).append(q.of(node))

    module.visit(V())
    return found


def test_qualified_names():
    n = names_of(SOURCE)
    assert n["amp.autocast"] == [{"torch.cuda.amp.autocast"}]
    assert n["amp.GradScaler"] == [{"torch.cuda.amp.GradScaler"}]  # the class attribute does not hide the import
    assert n["torch.cuda.synchronize"] == [{"uses.<locals>.torch.cuda.synchronize"}]  # a parameter shadows it
    assert n["torch.cuda.current_stream().cuda_stream"] == [{"torch.cuda.current_stream.cuda_stream"}]
    assert n['os.environ'] == [{"os.environ"}]
    assert n["Stream"] == [set(), {"torch.cuda.Stream"}]  # in the import: no name; used: the import's
    assert n["camp.autocast"] == [{"torch.cuda.amp.autocast"}]
    assert n["sh"][-1] == {"subprocess.run", "sh"}  # imported, and rebound through `global`
    assert n["len"] == [{"builtins.len"}]
    assert n["x"] == [{"Model.step.<locals>.x"}] * 2  # the comprehension's own variable
    assert n["uses"] == [{"uses"}]


def test_global_statement_at_module_level_is_harmless():
    """`global x` at module level is legal and means nothing: looking x up must not loop."""
    n = names_of("import os\nglobal os\nos.getenv('A')\n")
    assert n["os.getenv"] == [{"os.getenv"}]
