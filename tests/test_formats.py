"""The format table (migrate/formats): every command that prints picks its renderer there, a format added in one
file is offered by every command whose view it renders, and the back end imports one way (stages -> report ->
render -> formats -> commands)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from migrate import formats
from tests.helpers import cli, write_tree

ROOT = Path(__file__).resolve().parent.parent
KERNEL = ("#include <cuda_runtime.h>\n__global__ void k(int* o) { o[0] = threadIdx.x % 32; }\n"
          "void f(float* p) { cudaMalloc(&p, 4); }\n")


def test_each_command_offers_the_formats_that_render_its_view():
    assert formats.names("migration") == ("text", "json", "sarif", "github")
    assert formats.names("report") == ("text", "html", "md", "json", "sarif", "github")
    assert formats.names("check") == ("text", "json", "sarif", "github", "rdjson")
    assert formats.names("compare") == ("text", "json")
    for view in ("doctor", "build", "kernels", "bench"):
        assert formats.names(view) == ("text", "json")


def test_scan_for_code_scanning_and_annotations(tmp_path, monkeypatch):
    """A migration in SARIF and as GitHub annotations: every finding but the plain conversions (and C++ information
    with a fix), at the level of its severity."""
    import json

    monkeypatch.chdir(tmp_path)
    write_tree(tmp_path / "src", {"k.cu": KERNEL})
    github = cli("scan", "src", "--hip-version", "6.2", "--output-format", "github")
    assert (github.exit_code, github.stdout) == (0, "::warning file=k.cu,line=2,col=36,title=HAZ001::'threadIdx.x %25 "
                                                    "32' assumes a 32-lane warp: AMD CDNA wavefronts have 64 lanes; "
                                                    "use warpSize\n")
    sarif = json.loads(cli("scan", "src", "--hip-version", "6.2", "--output-format", "sarif").stdout)
    (run,) = sarif["runs"]
    assert [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in run["results"]] == [("HAZ001", "warning", 2)]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["HAZ001"]


# --- a format in one file: what a plug-in writes -------------------------------------------------------------

def _places(findings) -> str:
    return "".join(f"{f.span.path}:{f.span.line} {f.code}\n" for f in findings)


def _migration(m, context: formats.Context) -> str:
    return f"{context.command}\n" + _places(s.finding for s in m.every)


def _check(result, context: formats.Context) -> str:
    return _places(result.findings)


def _report(report, context: formats.Context) -> str:
    return _places(s.finding for s in report.findings)


LINES = formats.Format("lines", "path:line CODE, one a line", {"migration": _migration, "check": _check,
                                                              "report": _report}, rank=90)


@pytest.fixture
def lines_format():
    formats.register(LINES)
    yield
    del formats.table()["lines"]


def test_a_registered_format_is_offered_by_every_command_of_its_views(tmp_path, lines_format, monkeypatch):
    monkeypatch.chdir(tmp_path)
    src = write_tree(tmp_path / "src", {"k.cu": KERNEL})
    found = "k.cu:1 CPP001\nk.cu:2 HAZ001\nk.cu:3 MAP001\n"
    scan = cli("scan", src, "--hip-version", "6.2", "--output-format", "lines")
    assert (scan.exit_code, scan.stdout) == (0, "scan\n" + found)
    run = cli("run", src, "--out", tmp_path / "dst", "--hip-version", "6.2", "--output-format", "lines")
    assert (run.exit_code, run.stdout) == (0, "run\n" + found)
    check = cli("check", "src", "--hip-version", "6.2", "--no-cache", "--output-format", "lines")
    assert (check.exit_code, check.stdout) == (1, found.replace("k.cu", "src/k.cu"))
    report = cli("report", tmp_path / "dst", "--output-format", "lines")
    assert (report.exit_code, report.stdout) == (0, "k.cu:2 HAZ001\n")  # the report lists no plain conversions
    assert "lines" in cli("report", "--help").stdout
    compare = cli("compare", "a.json", "b.json", "--output-format", "lines")  # a view the format lacks
    assert compare.exit_code == 2 and "'lines' is not one of 'text', 'json'" in compare.stderr


def test_a_format_without_the_view_is_refused_by_that_command(tmp_path):
    src = write_tree(tmp_path / "src", {"k.cu": KERNEL})
    result = cli("scan", src, "--output-format", "html")
    assert result.exit_code == 2 and "'html' is not one of 'text', 'json', 'sarif', 'github'" in result.stderr


# --- one way through the back end --------------------------------------------------------------------------------

LAYERS = ("stages", "report", "render", "formats", "commands")  # each may import those before it, never after


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_the_back_end_imports_one_way():
    upward = []
    for i, layer in enumerate(LAYERS):
        for path in sorted((ROOT / "migrate" / layer).glob("*.py")):
            for name in _imports(path):
                parts = name.split(".")
                if parts[0] == "migrate" and len(parts) > 1 and parts[1] in LAYERS[i + 1:]:
                    upward.append(f"migrate/{layer}/{path.name} imports {name}")
    assert upward == []


def _module_imports(path: Path, package: str, modules: set[str]) -> set[str]:
    """The migrate modules that `path` imports when it is loaded: imports at its top level (those inside functions
    are made at call time and cannot close a cycle at import); `from X import a` is X.a when that is a module."""
    out = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            out.update(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {name for name in out if name in modules}


def test_no_import_cycle_in_migrate():
    """Module-level imports of migrate/ (its rules package aside) make no cycle. An import of a package that encloses
    the importing module is left out: that package is being loaded already."""
    modules = {}
    for path in sorted((ROOT / "migrate").rglob("*.py")):
        if path.relative_to(ROOT / "migrate").parts[0] == "rules":
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        enclosing = {name.rsplit(".", i)[0] for i in range(1, name.count(".") + 1)}
        graph[name] = _module_imports(path, package, set(modules)) - enclosing - {name}
    cycles, index, low, stack, on_stack = [], {}, {}, [], set()

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while component[-1:] != [v]:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert cycles == []
