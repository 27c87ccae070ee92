"""Imports go one way (issue 27): no cycle between the modules of `migrate` (rules/ included, as `migrate.rules`),
none between its first-level parts (migrate.cpp, migrate.render, migrate.api, ...), and no module of migrate/,
rules/, benchmarks/ or scripts/ over 400 lines.

The graph is read with `ast` from every import statement in a module, wherever it stands: at module level, inside
a function or method, under `try`, and under `if TYPE_CHECKING:`. Those last count too: a name imported only for
an annotation is still a dependency of the module's meaning, and a cycle hidden behind TYPE_CHECKING is a cycle
that moving code into the lower module would remove. `import_module("a.literal.name")` (and `__import__`) counts
as an import of that name; names computed at run time (the registry walking rules/, migrate.formats finding its
format modules) are plug-in discovery, not edges.

Edges: `import a.b.c` depends on a.b.c; `from a.b import c` depends on a.b.c when c is a module, otherwise on a.b
(relative imports resolved against the importing module's package). The parent packages Python initialises on
the way (a, a.b) are not counted: a package's __init__ is always run before its modules, so a module never waits
on it."""
import ast
import os
from collections import deque
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 400  # lines per module

# what renderers may not reach through any chain of imports: they read codes and titles from the report model and
# the code table they are given (migrate.formats.Context.codes), never from the rules
RENDERERS = ("migrate.render", "migrate.formats")
NOT_FOR_RENDERERS = ("migrate.registry", "migrate.api")


def module_files() -> dict[str, Path]:
    """Every module of the package `migrate`, by dotted name; rules/ is `migrate.rules` (migrate/rules links there)."""
    found = {}
    for top, name in ((ROOT / "migrate", "migrate"), (ROOT / "rules", "migrate.rules")):
        for folder, dirs, files in os.walk(top):  # links not followed: migrate/rules is read as rules/
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            parts = Path(folder).relative_to(top).parts
            for file in files:
                if file.endswith(".py"):
                    stem = () if file == "__init__.py" else (file[:-3],)
                    found[".".join((name, *parts, *stem))] = Path(folder) / file
    return found


def package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def imported(module: str, path: Path, modules) -> list[tuple[str, int]]:
    """The modules of `modules` that `module` imports, each with the line of the import."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = package_of(module, path).split(".")
                package = package[:len(package) - node.level + 1]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((sub if sub in modules else base, node.lineno))
        elif isinstance(node, ast.Call) and _called(node) in ("import_module", "__import__") and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.append((node.args[0].value, node.lineno))
    return [(name, line) for name, line in found if name in modules]


def _called(call: ast.Call) -> str:
    """The name a call calls: f(...) and x.f(...) both call "f"."""
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


@cache
def module_graph() -> dict[tuple[str, str], int]:
    """(importer, imported) -> the line of the first such import (read once; not to be changed)."""
    modules = module_files()
    edges = {}
    for module, path in modules.items():
        for name, line in imported(module, path, modules):
            if name != module:
                edges.setdefault((module, name), line)
    return edges


def part(module: str) -> str:
    """migrate.cpp.parse -> migrate.cpp; migrate.api -> migrate.api; migrate -> migrate."""
    return ".".join(module.split(".")[:2])


def package_graph(edges) -> dict[tuple[str, str], list[str]]:
    """(part, part) -> the module imports that make the edge, each "importer:line"."""
    found: dict[tuple[str, str], list[str]] = {}
    for (src, dst), line in sorted(edges.items()):
        if part(src) != part(dst):
            found.setdefault((part(src), part(dst)), []).append(f"{src}:{line}")
    return found


def components(edges) -> list[set[str]]:
    """The strongly connected parts of more than one node (Tarjan's algorithm, without recursion)."""
    after = {}
    for src, dst in edges:
        after.setdefault(src, []).append(dst)
        after.setdefault(dst, [])
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for start in sorted(after):
        if start in index:
            continue
        work = [(start, iter(sorted(after[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, rest = work[-1]
            step = next(rest, None)
            if step is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        group.add(top)
                        if top == node:
                            break
                    if len(group) > 1:
                        found.append(group)
            elif step not in index:
                index[step] = low[step] = len(index)
                stack.append(step)
                on_stack.add(step)
                work.append((step, iter(sorted(after[step]))))
            elif step in on_stack:
                low[node] = min(low[node], index[step])
    return found


def cycles(edges) -> list[tuple[str, ...]]:
    """Cycles that together use every edge inside a strongly connected part: for each such edge a -> b, a -> b and
    the shortest way back from b to a. Each starts at its smallest name."""
    found = set()
    for group in components(edges):
        after = {}
        for src, dst in sorted(edges):
            if src in group and dst in group:
                after.setdefault(src, []).append(dst)
        for src in sorted(after):
            for dst in after[src]:
                back = shortest_path(after, dst, src)
                ring = [src, *back[:-1]]
                turn = ring.index(min(ring))
                ring = ring[turn:] + ring[:turn]
                found.add((*ring, ring[0]))
    return sorted(found)


def reached(after, start) -> dict[str, str | None]:
    """Every node reached from `start`, each with the node it was first reached from (breadth first)."""
    came: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for step in after.get(node, ()):
            if step not in came:
                came[step] = node
                queue.append(step)
    return came


def shortest_path(after, start, goal) -> list[str]:
    came = reached(after, start)
    path = [goal]
    while path[-1] != start:
        path.append(came[path[-1]])
    return path[::-1]


def chain(ring, where) -> str:
    """migrate.a -> migrate.b -> migrate.a, each arrow with the import that makes it."""
    links = [f"{a} -> [{where[(a, b)]}]" for a, b in zip(ring, ring[1:])]
    return " ".join(links) + f" {ring[-1]}"


def test_the_graph_sees_imports_inside_functions_relative_ones_and_submodules_named_by_from():
    edges = module_graph()
    assert ("migrate.cli", "migrate.api") in edges
    assert ("migrate.rules.cpp.cuda_header_include", "migrate.rule") in edges
    assert ("migrate.doctor", "migrate.doctor.checks") in edges
    assert len({src for src, _ in edges}) > 100


def test_no_module_imports_back_one_that_imports_it():
    edges = module_graph()
    where = {pair: f"{pair[0]}:{line}" for pair, line in edges.items()}
    found = cycles(edges)
    assert not found, "import cycles between modules:\n" + "\n".join(chain(ring, where) for ring in found)


def test_no_part_of_migrate_imports_back_one_that_imports_it():
    edges = module_graph()
    parts = package_graph(edges)
    where = {pair: ", ".join(imports) for pair, imports in parts.items()}
    found = cycles(parts)
    assert not found, "import cycles between parts of migrate:\n" + "\n".join(chain(ring, where) for ring in found)


def test_renderers_never_load_the_rules():
    """No chain of imports leads from migrate.render or migrate.formats to the rule registry or the library API."""
    after: dict[str, list[str]] = {}
    for src, dst in module_graph():
        after.setdefault(src, []).append(dst)
    renderers = sorted(m for m in after if m.startswith(RENDERERS))
    found = [" -> ".join(shortest_path(after, start, goal))
             for start in renderers for goal in NOT_FOR_RENDERERS if goal in reached(after, start)]
    assert found == []


def test_no_module_is_over_400_lines():
    found = {}
    for folder in ("migrate", "rules", "benchmarks", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = len(path.read_bytes().splitlines())
            if lines > LIMIT:
                found[path.relative_to(ROOT).as_posix()] = lines
    assert found == {}
