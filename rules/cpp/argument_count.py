"""A call whose argument count the renamed HIP function does not take in the target release.

Renaming keeps the arguments, but some HIP functions take other counts than CUDA's: HIP 5.2 and 5.7 give
`hipStreamWaitEvent` no default for its flags (CUDA's `cudaStreamWaitEvent(s, e)` does not build), CUDA's C++
overload `cudaEventCreate(&e, flags)` is `cudaEventCreateWithFlags`, CUDA 12's `cudaGraphInstantiate(&exec,
graph, flags)` is HIP's `hipGraphInstantiateWithFlags` (HIP's `hipGraphInstantiate` keeps CUDA 11's five
arguments), CUDA 13's graph calls pass edge data that HIP's graphs do not have (a null one is dropped), and
before HIP 6.4 `hipsparseSpSV_solve` takes the external buffer as a tenth argument (`hipsparseSpSM_solve` in every
release): where the file gives one buffer to the analysis of the same descriptor, it is passed. CUDA 13's
memory-location forms of `cudaMemPrefetchAsync` and `cudaMemAdvise` are CPP054's.
rules/data/arity.toml lists each renamed function whose counts differ, per HIP release inspected (5.2, 5.7,
6.4), generated from the prototypes in the CUDA and HIP headers by scripts/gen_arity.py; the release read is
the newest inspected at or below the target. Where CUDA's missing trailing arguments have defaults, the fix
writes them (HIP's names for CUDA's: `0`, `hipMemcpyHostToDevice`); the overloads get the function they stand
for; the rest are reported.
"""
import re
import tomllib
from functools import lru_cache

from migrate.cpp.calls import arguments, call_of, drop_argument
from migrate.cpp.mem_location import CALLS as LOCATION_CALLS, location_form
from migrate.cpp.nodes import text
from migrate.model import Edit, Severity
from migrate.packs import rules_root, version_tuple
from migrate.rule import CppRule, Invalid, Valid

OLD = (("hip_version", "5.2"),)
NEW = (("hip_version", "6.4"),)
# CUDA's C++ overloads and newer signatures that another HIP function takes: (name, argument count) -> (what
# to add to HIP's name, arguments to append).
OVERLOADS = {
    ("cudaEventCreate", 2): ("WithFlags", ()),
    ("cudaGraphInstantiate", 3): ("WithFlags", ()),
    ("cudaGraphInstantiate", 2): ("WithFlags", ("0",)),
}
HINTS = {
    "cusparseSpSV_solve": "pass the external buffer given to hipsparseSpSV_analysis as the last argument",
    "cusparseSpSM_solve": "pass the external buffer given to hipsparseSpSM_analysis as the last argument",
    "cublasLtGetVersion": "it takes a hipBLASLt handle and an int* for the version (hipblasLtGetVersion(handle, "
                          "&version)) where cuBLASLt's returns it",
}
# CUDA 12's solves without the external buffer, which HIP's take last: the analysis call that was given it, and the
# position of the descriptor both calls share there
ANALYSIS = {"cusparseSpSM_solve": ("cusparseSpSM_analysis", 9), "cusparseSpSV_solve": ("cusparseSpSV_analysis", 8)}
# CUDA 12.3's graph edge data (CUDA 13's default signatures): the argument's position. HIP's graphs have none:
# a null argument is dropped; any other is reported.
EDGE_DATA = {"cudaGraphAddDependencies": 3, "cudaGraphRemoveDependencies": 3, "cudaGraphGetEdges": 3,
             "cudaGraphNodeGetDependencies": 2, "cudaGraphNodeGetDependentNodes": 2, "cudaGraphAddNode": 3,
             "cuGraphAddDependencies": 3, "cuGraphRemoveDependencies": 3, "cuGraphGetEdges": 3,
             "cuGraphNodeGetDependencies": 2, "cuGraphNodeGetDependentNodes": 2, "cuGraphAddNode": 3}
NULL = {"NULL", "nullptr", "0"}
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


@lru_cache(maxsize=1)
def arity_table() -> dict[str, dict]:
    """CUDA name -> row, and HIP name -> (CUDA name, row): the hipify-perl engine's output, and code that
    is already HIP, call the HIP name."""
    rows = tomllib.loads((rules_root() / "data" / "arity.toml").read_text(encoding="utf-8"))["functions"]
    table = {name: (name, row) for name, row in rows.items()}
    for name, row in rows.items():
        table.setdefault(row["hip"], (name, row))
    return table


def span_for(row: dict, target: tuple[int, int]) -> tuple[str, list[int]] | None:
    """(release, [fewest, most]) of the newest inspected release at or below `target`, else of the oldest."""
    releases = sorted(row["releases"].items(), key=lambda r: version_tuple(r[0]))
    if not releases:
        return None
    below = [r for r in releases if version_tuple(r[0]) <= target]
    return below[-1] if below else releases[0]


def takes(span: list[int], n: int) -> bool:
    return span[0] <= n and (span[1] == -1 or n <= span[1])


def counted(n: int) -> str:
    return f"{n} argument{'s' if n != 1 else ''}"


class ArgumentCount(CppRule):
    code = "CPP015"
    severity = Severity.WARNING
    examples = [
        Invalid("void f(cudaStream_t s, cudaEvent_t e) { cudaStreamWaitEvent(s, e); }",
                fixed="void f(hipStream_t s, hipEvent_t e) { hipStreamWaitEvent(s, e, 0); }", line=1, options=OLD,
                message="hipStreamWaitEvent takes 3 arguments in HIP 5.2, not 2: CUDA's defaults written (0)"),
        Invalid("void f(cudaEvent_t* e) { cudaEventCreate(e, cudaEventDisableTiming); }",
                fixed="void f(hipEvent_t* e) { hipEventCreateWithFlags(e, hipEventDisableTiming); }", options=OLD,
                message="cudaEventCreate with 2 arguments is CUDA's C++ overload for hipEventCreateWithFlags"),
        Invalid("void f(cudaGraphExec_t* x, cudaGraph_t g) { cudaGraphInstantiate(x, g); }",
                fixed="void f(hipGraphExec_t* x, hipGraph_t g) { hipGraphInstantiateWithFlags(x, g, 0); }",
                options=NEW),
        Invalid("void f(const int* src) { cudaMemcpyToSymbolAsync(table, src, 64); }",
                fixed="void f(const int* src) { hipMemcpyToSymbolAsync(table, src, 64, 0, hipMemcpyHostToDevice); }",
                options=OLD),
        Invalid("void f(cusparseSpSVDescr_t d) {\n  cusparseSpSV_solve(h, op, &one, A, x, y, t, alg, d);\n}\n",
                fixed="void f(hipsparseSpSVDescr_t d) {\n  hipsparseSpSV_solve(h, op, &one, A, x, y, t, alg, d);\n}\n",
                line=2, options=OLD,
                message="hipsparseSpSV_solve takes 10 arguments in HIP 5.2, not 9: pass the external buffer given "
                        "to hipsparseSpSV_analysis as the last argument"),
        # the solve's external buffer: the one the analysis of the same descriptor was given (HeCBench's spsm)
        Invalid("void f(cusparseSpSMDescr_t d, void* work) {\n"
                "  cusparseSpSM_analysis(h, op, op, &one, A, B, C, t, alg, d, work);\n"
                "  cusparseSpSM_solve(h, op, op, &one, A, B, C, t, alg, d);\n}\n",
                fixed="void f(hipsparseSpSMDescr_t d, void* work) {\n"
                      "  hipsparseSpSM_analysis(h, op, op, &one, A, B, C, t, alg, d, work);\n"
                      "  hipsparseSpSM_solve(h, op, op, &one, A, B, C, t, alg, d, work);\n}\n",
                line=3, options=NEW,
                message="hipsparseSpSM_solve takes 11 arguments in HIP 6.4, not 10: the external buffer given to "
                        "hipsparseSpSM_analysis (work) passed as the last argument"),
        # CUDA 13's graph edge data: dropped when null
        Invalid("void f(cudaGraph_t g, cudaGraphNode_t* a, cudaGraphNode_t* b) { cudaGraphAddDependencies(g, a, b, "
                "nullptr, 1); }",
                fixed="void f(hipGraph_t g, hipGraphNode_t* a, hipGraphNode_t* b) { hipGraphAddDependencies(g, a, b, "
                      "1); }", options=NEW,
                message="hipGraphAddDependencies takes 4 arguments in HIP 6.4, not 5: HIP's graphs have no edge data; "
                        "the null edge data argument is dropped"),
        # hipBLASLt's version call takes the handle and where to write the version
        Invalid("size_t v = cublasLtGetVersion();", fixed="size_t v = hipblasLtGetVersion();", options=NEW,
                message="hipblasLtGetVersion takes 2 arguments in HIP 6.4, not 0: it takes a hipBLASLt handle and an "
                        "int* for the version (hipblasLtGetVersion(handle, &version)) where cuBLASLt's returns it"),
        Valid("void f(hipStream_t s, hipEvent_t e) { cudaStreamWaitEvent(s, e, 0); }", options=OLD),
        # the HIP names, as the hipify-perl engine writes them
        Invalid("void f(hipStream_t s, hipEvent_t* e) { hipEventCreate(e, 0); hipStreamWaitEvent(s, *e); }",
                fixed="void f(hipStream_t s, hipEvent_t* e) { hipEventCreateWithFlags(e, 0); hipStreamWaitEvent(s, *e, 0); }",
                options=OLD),
        # a driver name whose HIP name is listed: read as the HIP name is (the fuzzing harness's idempotence check)
        Invalid("void f(CUstream s, CUevent e) { cuStreamWaitEvent(s, e); }",
                fixed="void f(hipStream_t s, hipEvent_t e) { hipStreamWaitEvent(s, e, 0); }", options=OLD),
        Valid("void f(CUstream s, CUevent e) { cuStreamWaitEvent(s, e, 0); }", options=OLD),
        Valid("void f(cudaStream_t s, cudaEvent_t e) { cudaStreamWaitEvent(s, e); }", options=NEW),
        Valid("void f(cudaEvent_t* e) { cudaEventCreate(e); }", options=OLD),
    ]

    def check(self, ctx):
        table = arity_table()
        names = ctx.packs.names
        for token in ctx.code_tokens():
            entry = table.get(token.name)
            if entry is None and token.name in names:
                # a name whose counts match its HIP name's (`cuStreamWaitEvent`) is read as that HIP name is on
                # the output, so that a second run finds nothing more to fix
                entry = table.get(ctx.hip_name(names[token.name]))
            call = call_of(token) if entry is not None else None
            if call is None:
                continue
            args = arguments(call)
            if token.name in LOCATION_CALLS and location_form(ctx, token.name, args):
                continue  # CUDA 13's memory-location form: CPP054's
            found = span_for(entry[1], ctx.target_tuple)
            if found is None or takes(found[1], len(args)):
                continue
            yield self._finding(ctx, token, call, args, *entry, *found)

    def _finding(self, ctx, token, call, args, cuda: str, row: dict, release: str, span: list[int]):
        n, base = len(args), token.base
        start, end = base + call.start_byte, base + call.end_byte
        hip = row["hip"]
        overload = OVERLOADS.get((cuda, n))
        if overload is not None:
            suffix, extra = overload
            edits = [Edit(token.end, token.end, suffix), *_append(args, base, extra)]
            return self.finding(ctx, start, end, f"{cuda} with {counted(n)} is CUDA's C++ overload for "
                                f"{hip}{suffix}", edits=edits, title=f"Call {hip}{suffix}")
        said = f"{hip} takes {_counts(span)} in HIP {release}, not {n}"
        defaults = row["defaults"]
        first_default = row["cuda"][1] - len(defaults) if row["cuda"][1] != -1 else n
        if n < span[0] and n >= first_default and span[1] != -1 and span[0] <= row["cuda"][1]:
            extra = [_hip_text(ctx, d) for d in defaults[n - first_default:span[0] - first_default]]
            return self.finding(ctx, start, end, f"{said}: CUDA's defaults written ({', '.join(extra)})",
                                edits=_append(args, base, extra), title="Write CUDA's default arguments")
        edge = EDGE_DATA.get(cuda)
        if edge is not None and n == span[1] + 1 and edge < n:
            if args[edge].text.decode("utf-8", "surrogateescape").strip() in NULL:
                return self.finding(ctx, start, end, f"{said}: HIP's graphs have no edge data; the null edge data "
                                    "argument is dropped", edits=drop_argument(call, edge, base),
                                    title="Drop the edge data argument")
            return self.finding(ctx, start, end, f"{said}: HIP's graphs have no edge data (argument {edge + 1}); "
                                "drop it, and rework edges that carried data")
        buffer = _analysis_buffer(ctx, cuda, args) if n + 1 == span[0] else None
        if buffer is not None:
            analysis = hip.replace("_solve", "_analysis")
            return self.finding(ctx, start, end, f"{said}: the external buffer given to {analysis} ({buffer}) passed "
                                "as the last argument", edits=_append(args, base, [buffer]),
                                title="Pass the analysis's external buffer")
        hint = HINTS.get(cuda, "see HIP's prototype")
        return self.finding(ctx, start, end, f"{said}: {hint}")


def _analysis_buffer(ctx, cuda: str, args) -> str | None:
    """The external buffer of the one analysis call in the file on the solve's descriptor (its last argument)."""
    if cuda not in ANALYSIS or not args:
        return None
    analysis, position = ANALYSIS[cuda]
    hip = ctx.hip_name(ctx.packs.names[analysis]) if analysis in ctx.packs.names else None
    descriptor = _flat(args[-1])
    buffers = set()
    for token in ctx.code_tokens():
        call = call_of(token) if token.name in (analysis, hip) and token.base == 0 else None
        given = arguments(call) if call is not None else []
        if len(given) == position + 2 and _flat(given[position]) == descriptor:
            buffers.add(_flat(given[-1]))
    return buffers.pop() if len(buffers) == 1 else None


def _flat(node) -> str:
    """The node's text on one line, its whitespace runs single spaces."""
    return " ".join(text(node).split())


def _counts(span: list[int]) -> str:
    if span[1] == -1:
        return f"{span[0]} or more arguments"
    if span[0] == span[1]:
        return counted(span[0])
    return f"{span[0]} to {span[1]} arguments"


def _append(args, base: int, extra) -> list[Edit]:
    if not extra or not args:
        return []
    at = base + args[-1].end_byte
    return [Edit(at, at, "".join(f", {e}" for e in extra))]


def _hip_text(ctx, text: str) -> str:
    """CUDA's default argument text with HIP's names (`cudaMemcpyHostToDevice` -> `hipMemcpyHostToDevice`)."""
    def rename(m):
        mapping = ctx.packs.names.get(m.group())
        return ctx.hip_name(mapping) if mapping is not None else m.group()
    return IDENTIFIER.sub(rename, text)
