"""A cooperative-groups member or function that the target HIP's cooperative groups do not have.

HIP's cooperative groups cover CUDA's core but not all of it, and they grew release by release:
`meta_group_rank()` and `meta_group_size()` of a tile came in 5.7, a tile's `any`/`all`/`ballot`/`match_*`
by 6.4, and `num_threads()` (CUDA 12's name for `size()`), `dim_threads()`, a grid's `num_blocks()`,
`block_rank()`, `block_index()` and `dim_blocks()`, clusters, `labeled_partition`, `invoke_one` and the
`reduce`/`scan`/`memcpy_async` collectives are in no HIP inspected (CPP023 writes reduce and the scans). rules/data/coop_groups.toml lists which,
generated from the headers of HIP 5.2, 5.7 and 6.4 by scripts/gen_coop_groups.py. Such a call does not build.
`num_threads()` becomes `size()`, the same count; `tile.meta_group_rank()` and `meta_group_size()` of a tile
the file makes as `tiled_partition<N>(block)` become `(block.thread_rank() / N)` and
`((block.size() + N - 1) / N)`; the others are reported with what to write instead.

A member is checked where its object is a group: a variable or parameter declared with a cooperative-groups
type (`thread_block`, `thread_block_tile<N>`, `grid_group`, ...) or with `auto` from a group-making function
(`cg::this_thread_block()`, `cg::tiled_partition<N>(...)`, ...), or such a call itself. A function is checked
where it is called through `cooperative_groups::`, a namespace alias of it, or unqualified in a file that says
`using namespace cooperative_groups`.
"""
import re
import tomllib
from functools import lru_cache

from migrate.cpp import cg_collectives
from migrate.cpp import parse
from migrate.edits import decoded
from migrate.model import Edit, Severity
from migrate.packs import rules_root, version_tuple
from migrate.rule import CppRule, Invalid, Valid

OLD = (("hip_version", "5.2"),)
NEW = (("hip_version", "6.4"),)
TYPES = r"thread_group|thread_block|grid_group|multi_grid_group|coalesced_group|cluster_group|thread_block_tile\s*<[^;{}()]*?>"
FACTORIES = r"this_thread_block|this_grid|this_multi_grid|this_cluster|coalesced_threads|tiled_partition|labeled_partition|binary_partition"
DECLARED_GROUP = re.compile(rf"\b(?:{TYPES})\s*(?:const\s*)?[&*]?\s*([A-Za-z_]\w*)\s*[=;,)({{]".encode())
AUTO_GROUP = re.compile(rf"\bauto\s*&?\s*([A-Za-z_]\w*)\s*=\s*(?:[\w:]+::)?(?:{FACTORIES})\b".encode())
FACTORY_CALL = re.compile(rf"^(?:[\w:]+::)?(?:{FACTORIES})\b")
# a tile of a named group with a fixed size: `auto tile = cg::tiled_partition<32>(block);`, and the typed forms
TILE_OF = re.compile(rb"\b([A-Za-z_]\w*)\s*=\s*(?:[\w:]+::)?tiled_partition\s*<\s*(\d+)\s*>\s*\(\s*([A-Za-z_]\w*)\s*\)")
ALIAS = re.compile(rb"\bnamespace\s+([A-Za-z_]\w*)\s*=\s*(?:::)?cooperative_groups\s*;")
USING = re.compile(rb"\busing\s+namespace\s+(?:::)?cooperative_groups\s*;")
MEMBER_CALLS = parse.query("(call_expression function: (field_expression argument: (_) @object "
                           "field: (field_identifier) @member)) @call")
FUNCTION_CALLS = parse.query("(call_expression function: [(identifier) (qualified_identifier) (template_function)] @function)")
RENAMES = {"num_threads": "size"}
# a tile of a known size N made from a named group: what its meta-group members are
META = {"meta_group_rank": "({parent}.thread_rank() / {size})",
        "meta_group_size": "(({parent}.size() + {size} - 1) / {size})"}
INSTEAD = {
    "num_threads": "size() is the same count",
    "dim_threads": "blockDim for a thread block",
    "group_dim": "blockDim for a thread block",
    "meta_group_rank": "for a tile of the block, block.thread_rank() / tile.size()",
    "meta_group_size": "for a tile of the block, (block.size() + tile.size() - 1) / tile.size()",
    "block_rank": "for the grid, blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)",
    "num_blocks": "for the grid, gridDim.x * gridDim.y * gridDim.z",
    "dim_blocks": "gridDim for the grid",
    "block_index": "blockIdx for the grid",
    "any": "__any(pred) over the lanes of the tile",
    "all": "__all(pred) over the lanes of the tile",
    "ballot": "__ballot(pred), a 64-bit mask, shifted and masked to the tile's lanes",
    "invoke_one": "if (g.thread_rank() == 0) ... then g.sync()",
    "invoke_one_broadcast": "compute on rank 0 and g.shfl(value, 0)",
    "memcpy_async": "a plain copy, then g.sync()",
    "wait": "g.sync() after a plain copy",
    "wait_prior": "g.sync() after a plain copy",
    "this_cluster": "AMD GPUs have no thread block clusters",
}


@lru_cache(maxsize=1)
def missing_api() -> tuple[dict[str, str], dict[str, str], str]:
    """({member: first inspected HIP release that has it, "" for none}, the same for functions, the newest
    release inspected)."""
    data = tomllib.loads((rules_root() / "data" / "coop_groups.toml").read_text(encoding="utf-8"))
    since = lambda table: {name: row.get("since", "") for name, row in table.items()}  # noqa: E731
    return since(data["members"]), since(data["functions"]), data["inspected"]["releases"][-1]


K = ("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
     "__global__ void k(int* out) {\n  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
     "  out[tile.meta_group_rank()] = tile.num_threads();\n}\n")


class CoopGroupsApiMissing(CppRule):
    code = "CPP013"
    severity = Severity.ERROR
    examples = [
        Invalid(K, fixed=K.replace("tile.num_threads()", "tile.size()"), line=5, options=OLD,
                message="cooperative groups' meta_group_rank() is not in HIP 5.2 (the first HIP inspected that has "
                        "it is 5.7): for a tile of the block, block.thread_rank() / tile.size(); or target HIP 5.7"),
        Invalid("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int* out) {\n"
                "  cg::thread_block block = cg::this_thread_block();\n  auto tile = cg::tiled_partition<32>(block);\n"
                "  if (tile.thread_rank() == 0) out[tile.meta_group_rank()] = tile.meta_group_size();\n}\n",
                fixed="#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(int* out) {\n"
                      "  cg::thread_block block = cg::this_thread_block();\n  auto tile = cg::tiled_partition<32>(block);\n"
                      "  if (tile.thread_rank() == 0) out[(block.thread_rank() / 32)] = ((block.size() + 32 - 1) / 32);\n}\n",
                options=OLD),
        Invalid(K, fixed=K.replace("tile.num_threads()", "tile.size()"), line=5, options=NEW,
                message="cooperative groups' num_threads() is not in HIP 6.4 (nor in any HIP inspected, up to 6.4): "
                        "size() is the same count"),
        Invalid("#include <cooperative_groups.h>\nusing namespace cooperative_groups;\n"
                "__global__ void k(unsigned long long* n) {\n  grid_group g = this_grid();\n"
                "  n[0] = g.num_blocks();\n  cluster_group c = this_cluster();\n}\n", line=5, options=NEW),
        Invalid("#include <cooperative_groups.h>\n__device__ void f(const cooperative_groups::thread_block& b) {\n"
                "  dim3 d = b.dim_threads();\n}\n", line=3, options=NEW,
                message="cooperative groups' dim_threads() is not in HIP 6.4 (nor in any HIP inspected, up to 6.4): "
                        "blockDim for a thread block"),
        Valid(K.replace("tile.meta_group_rank()", "0").replace("tile.num_threads()", "tile.size()"), options=OLD),
        Valid(K.replace("tile.num_threads()", "tile.size()"), options=(("hip_version", "5.7"),)),
        # not a group: a class of the project's own with a member of the same name
        Valid("struct Pool { int num_threads() const; };\nint f(Pool p) { return p.num_threads(); }\n", options=NEW),
        # reduce() of another namespace
        Valid("#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
              "int f(const int* v) { return std::reduce(v, v + 4); }\n", options=NEW),
    ]

    def check(self, ctx):
        if b"cooperative_groups" not in ctx.data:
            return
        members, functions, newest = missing_api()
        groups = {m.group(1) for m in DECLARED_GROUP.finditer(ctx.data)}
        groups |= {m.group(1) for m in AUTO_GROUP.finditer(ctx.data)}
        made: dict[bytes, set[tuple[bytes, bytes]]] = {}  # tile name -> every (size, parent group) it is made with
        for m in TILE_OF.finditer(ctx.data):
            made.setdefault(m.group(1), set()).add((m.group(2), m.group(3)))
        tiles = {name: next(iter(ways)) for name, ways in made.items()  # made one way only, of a known group
                 if len(ways) == 1 and next(iter(ways))[1] in groups}
        for m in parse.matches(MEMBER_CALLS, ctx.tree.root_node):
            member, obj = m["member"][0], m["object"][0]
            name = decoded(member.text)
            if name not in members or not _is_group(obj, groups) or not self._missing(ctx, members[name]):
                continue
            edits, title = [], f"Call {RENAMES.get(name)}()"
            if name in RENAMES:
                edits = [Edit(member.start_byte, member.end_byte, RENAMES[name])]
            elif name in META and obj.type == "identifier" and obj.text in tiles:
                call = m["call"][0]
                size, parent = tiles[obj.text]
                expression = META[name].format(parent=decoded(parent), size=decoded(size))
                edits, title = [Edit(call.start_byte, call.end_byte, expression)], f"Write {expression}"
            yield self.finding(ctx, member.start_byte, member.end_byte, self._message(ctx, name, members[name], newest),
                               edits=edits, title=title)
        scopes = {b"cooperative_groups"} | {m.group(1) for m in ALIAS.finditer(ctx.data)}
        bare = USING.search(ctx.data) is not None
        for m in parse.matches(FUNCTION_CALLS, ctx.tree.root_node):
            node = m["function"][0]
            name = _called_name(node, scopes, bare)
            if name not in functions or name in cg_collectives.FUNCTIONS or not self._missing(ctx, functions[name]):
                continue  # reduce and the scans: CPP023 writes them
            yield self.finding(ctx, node.start_byte, node.end_byte, self._message(ctx, name, functions[name], newest))

    def _missing(self, ctx, since: str) -> bool:
        return not since or version_tuple(since) > ctx.target_tuple

    def _message(self, ctx, name: str, since: str, newest: str) -> str:
        where = f"the first HIP inspected that has it is {since}" if since else f"nor in any HIP inspected, up to {newest}"
        text = f"cooperative groups' {name}() is not in HIP {ctx.target} ({where})"
        instead = INSTEAD.get(name)
        if instead:
            text += f": {instead}"
        return text + (f"; or target HIP {since}" if since else "")


def _is_group(obj, groups: set[bytes]) -> bool:
    if obj.type == "identifier":
        return obj.text in groups
    if obj.type == "call_expression":  # cg::this_grid().num_blocks()
        function = obj.child_by_field_name("function")
        return function is not None and FACTORY_CALL.match(function.text.decode("utf-8", "surrogateescape")) is not None
    return False


def _called_name(node, scopes: set[bytes], bare: bool) -> str | None:
    """The name called when `node` (a call's function) names a cooperative-groups function, else None."""
    if node.type == "template_function":
        node = node.child_by_field_name("name")
    if node.type == "identifier":
        return decoded(node.text) if bare else None
    if node.type != "qualified_identifier":
        return None
    scope, name = node.child_by_field_name("scope"), node.child_by_field_name("name")
    if scope is None or name is None or scope.text.lstrip(b":") not in scopes:
        return None
    if name.type == "template_function":
        name = name.child_by_field_name("name")
    return decoded(name.text) if name.type == "identifier" else None
