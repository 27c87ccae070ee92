"""cuDNN's convolution algorithm queries and their results, against MIOpen's find step (rule CPP031).

cuDNN can rank algorithms by heuristics without running anything (cudnnGetConvolution*Algorithm_v7), or measure
them on buffers it allocates itself (cudnnFindConvolution*Algorithm); either way any algorithm it supports may then
be run. MIOpen runs a convolution only with an algorithm its find step (miopenFindConvolution*Algorithm, which takes
the caller's buffers and workspace) measured for that problem on that handle: the find step registers the kernels
(without it: "No invoker was registered for convolution forward. Was find executed?"). So each query becomes a call
of a helper, declared by a block this rule writes after the file's cuDNN include, that runs MIOpen's find step on
scratch buffers of the descriptors' sizes and returns MIOpen's results in the caller's array. The results are
miopenConvAlgoPerf_t: `.algo` is `.fwd_algo`, `.bwd_data_algo` or `.bwd_weights_algo`; there is no `.status`
(MIOpen returns only algorithms that ran, so `perf.status == CUDNN_STATUS_SUCCESS` is true), `.determinism` or
`.mathType`. The Max Count queries become helpers giving the number of MIOpen's algorithms of the direction.
"""
from __future__ import annotations

import re

from migrate.cpp import parse
from migrate.cpp.calls import arguments, call_of
from migrate.cpp.cudnn import CUDNN_HEADERS, Rewrite, canonical, named_tokens, realigned
from migrate.cpp.includes import includes
from migrate.edits import decoded
from migrate.model import Edit, Severity

MARKER = "hipmigrate: MIOpen find step"
FORWARD, DATA, WEIGHTS = "forward", "backward data", "backward weights"
HELPERS = {  # cuDNN's query -> (helper, direction, argument count)
    "cudnnGetConvolutionForwardAlgorithm_v7": ("hipmigrateFindConvolutionForwardAlgorithm", FORWARD, 8),
    "cudnnFindConvolutionForwardAlgorithm": ("hipmigrateFindConvolutionForwardAlgorithm", FORWARD, 8),
    "cudnnGetConvolutionBackwardDataAlgorithm_v7": ("hipmigrateFindConvolutionBackwardDataAlgorithm", DATA, 8),
    "cudnnFindConvolutionBackwardDataAlgorithm": ("hipmigrateFindConvolutionBackwardDataAlgorithm", DATA, 8),
    "cudnnGetConvolutionBackwardFilterAlgorithm_v7": ("hipmigrateFindConvolutionBackwardWeightsAlgorithm", WEIGHTS, 8),
    "cudnnFindConvolutionBackwardFilterAlgorithm": ("hipmigrateFindConvolutionBackwardWeightsAlgorithm", WEIGHTS, 8),
    "cudnnGetConvolutionForwardAlgorithmMaxCount": ("hipmigrateConvolutionForwardAlgorithmMaxCount", FORWARD, 2),
    "cudnnGetConvolutionBackwardDataAlgorithmMaxCount": ("hipmigrateConvolutionBackwardDataAlgorithmMaxCount", DATA,
                                                         2),
    "cudnnGetConvolutionBackwardFilterAlgorithmMaxCount": ("hipmigrateConvolutionBackwardWeightsAlgorithmMaxCount",
                                                           WEIGHTS, 2),
}
FIND_STEP = {FORWARD: "miopenFindConvolutionForwardAlgorithm", DATA: "miopenFindConvolutionBackwardDataAlgorithm",
             WEIGHTS: "miopenFindConvolutionBackwardWeightsAlgorithm"}
# what selects an algorithm in each direction (the Ex forms: CPP030 rewrites them into MIOpen's find step)
SELECTS = {FORWARD: {"cudnnGetConvolutionForwardAlgorithm_v7", "cudnnFindConvolutionForwardAlgorithm",
                     "cudnnFindConvolutionForwardAlgorithmEx"},
           DATA: {"cudnnGetConvolutionBackwardDataAlgorithm_v7", "cudnnFindConvolutionBackwardDataAlgorithm",
                  "cudnnFindConvolutionBackwardDataAlgorithmEx"},
           WEIGHTS: {"cudnnGetConvolutionBackwardFilterAlgorithm_v7", "cudnnFindConvolutionBackwardFilterAlgorithm",
                     "cudnnFindConvolutionBackwardFilterAlgorithmEx"}}
RUNS = {"cudnnConvolutionForward": FORWARD, "cudnnConvolutionBackwardData": DATA,
        "cudnnConvolutionBackwardFilter": WEIGHTS}
PERF_TYPES = {"cudnnConvolutionFwdAlgoPerf_t": FORWARD, "cudnnConvolutionFwdAlgoPerfStruct": FORWARD,
              "cudnnConvolutionBwdDataAlgoPerf_t": DATA, "cudnnConvolutionBwdDataAlgoPerfStruct": DATA,
              "cudnnConvolutionBwdFilterAlgoPerf_t": WEIGHTS, "cudnnConvolutionBwdFilterAlgoPerfStruct": WEIGHTS}
ALGO_FIELD = {FORWARD: "fwd_algo", DATA: "bwd_data_algo", WEIGHTS: "bwd_weights_algo"}
ALGORITHM_COUNT = {FORWARD: 5, DATA: 6, WEIGHTS: 4}  # the enumerators of miopenConv*Algorithm_t in MIOpen 3.4
PERF_TYPE_WORD = re.compile(r"\b(?:cudnn|hipdnn)Convolution(?:Fwd|BwdData|BwdFilter)AlgoPerf(?:_t|Struct)\b")


def block(helpers: set[str], newline: str = "\n") -> str:
    """The declarations of the helpers `helpers` names, between marker comments."""
    lines = [f"// {MARKER}: cuDNN's algorithm queries as MIOpen's find step (written by hipmigrate, rule CPP031).",
             "// MIOpen runs a convolution only with an algorithm its find step measured for the problem on the same",
             "// handle; these run that step on scratch buffers of the descriptors' sizes, as cuDNN's queries take no",
             "// buffers. To avoid the allocation, call miopenFindConvolution*Algorithm with your own buffers.",
             "#include <hip/hip_runtime_api.h>"]
    if any(h.startswith("hipmigrateFind") for h in helpers):
        lines += _FIND.strip("\n").split("\n")
    for direction in _WRAPPED:
        name, definition = _wrapper(direction)
        if name in helpers:
            lines += definition.split("\n")
    for direction, count in ALGORITHM_COUNT.items():
        name = f"hipmigrateConvolution{_title(direction)}AlgorithmMaxCount"
        if name in helpers:
            lines += [f"static inline miopenStatus_t {name}(miopenHandle_t handle, int* count)",
                      "{", "    (void)handle;", f"    *count = {count}; /* the {direction} algorithms MIOpen has */",
                      "    return miopenStatusSuccess;", "}"]
    lines.append(f"// {MARKER}: end")
    return newline.join(lines) + newline


def _title(direction: str) -> str:
    return "".join(w.title() for w in direction.split())


_FIND = """
static inline miopenStatus_t hipmigrateFindConvolution(miopenHandle_t handle, int direction,
                                                       miopenTensorDescriptor_t xDesc, miopenTensorDescriptor_t wDesc,
                                                       miopenConvolutionDescriptor_t convDesc,
                                                       miopenTensorDescriptor_t yDesc, int requested, int* returned,
                                                       miopenConvAlgoPerf_t* perf)
{
    size_t bytes[3] = {0, 0, 0}; /* x, w, y */
    size_t workspaceBytes = 0;
    void* buffers[3] = {NULL, NULL, NULL};
    void* workspace = NULL;
    miopenStatus_t status = miopenGetTensorNumBytes(xDesc, &bytes[0]);
    if(status == miopenStatusSuccess) status = miopenGetTensorNumBytes(wDesc, &bytes[1]);
    if(status == miopenStatusSuccess) status = miopenGetTensorNumBytes(yDesc, &bytes[2]);
    if(status == miopenStatusSuccess)
    {
        if(direction == 0)
            status = miopenConvolutionForwardGetWorkSpaceSize(handle, wDesc, xDesc, convDesc, yDesc, &workspaceBytes);
        else if(direction == 1)
            status = miopenConvolutionBackwardDataGetWorkSpaceSize(handle, yDesc, wDesc, convDesc, xDesc,
                                                                   &workspaceBytes);
        else
            status = miopenConvolutionBackwardWeightsGetWorkSpaceSize(handle, yDesc, xDesc, convDesc, wDesc,
                                                                      &workspaceBytes);
    }
    for(int i = 0; i < 3 && status == miopenStatusSuccess; ++i)
        if(hipMalloc(&buffers[i], bytes[i]) != hipSuccess) status = miopenStatusAllocFailed;
    if(status == miopenStatusSuccess && workspaceBytes > 0 && hipMalloc(&workspace, workspaceBytes) != hipSuccess)
        status = miopenStatusAllocFailed;
    if(status == miopenStatusSuccess)
    {
        if(direction == 0)
            status = miopenFindConvolutionForwardAlgorithm(handle, xDesc, buffers[0], wDesc, buffers[1], convDesc,
                                                           yDesc, buffers[2], requested, returned, perf, workspace,
                                                           workspaceBytes, false);
        else if(direction == 1)
            status = miopenFindConvolutionBackwardDataAlgorithm(handle, yDesc, buffers[2], wDesc, buffers[1],
                                                                convDesc, xDesc, buffers[0], requested, returned,
                                                                perf, workspace, workspaceBytes, false);
        else
            status = miopenFindConvolutionBackwardWeightsAlgorithm(handle, yDesc, buffers[2], xDesc, buffers[0],
                                                                   convDesc, wDesc, buffers[1], requested, returned,
                                                                   perf, workspace, workspaceBytes, false);
    }
    hipStream_t stream = NULL;
    if(miopenGetStream(handle, &stream) == miopenStatusSuccess) (void)hipStreamSynchronize(stream);
    for(int i = 0; i < 3; ++i) (void)hipFree(buffers[i]);
    (void)hipFree(workspace);
    return status;
}
"""

# direction -> (number hipmigrateFindConvolution takes, cuDNN's three tensor descriptors in its order, the same as
# x, w and y of the forward problem): each helper takes cuDNN's arguments in cuDNN's order
_WRAPPED = {FORWARD: (0, ("xDesc", "wDesc", "yDesc"), ("xDesc", "wDesc", "yDesc")),
            DATA: (1, ("wDesc", "dyDesc", "dxDesc"), ("dxDesc", "wDesc", "dyDesc")),
            WEIGHTS: (2, ("xDesc", "dyDesc", "dwDesc"), ("xDesc", "dwDesc", "dyDesc"))}
_WRAPPER = """static inline miopenStatus_t {name}(
    miopenHandle_t handle, miopenTensorDescriptor_t {a}, miopenTensorDescriptor_t {b},
    miopenConvolutionDescriptor_t convDesc, miopenTensorDescriptor_t {c}, int requested, int* returned,
    miopenConvAlgoPerf_t* perf)
{{
    return hipmigrateFindConvolution(handle, {number}, {x}, {w}, convDesc, {y}, requested, returned, perf);
}}"""


def _wrapper(direction: str) -> tuple[str, str]:
    """(name, definition) of the find helper of `direction`."""
    number, (a, b, c), (x, w, y) = _WRAPPED[direction]
    name = f"hipmigrateFindConvolution{_title(direction)}Algorithm"
    return name, _WRAPPER.format(name=name, a=a, b=b, c=c, number=number, x=x, w=w, y=y)


def rewrites(ctx) -> list[Rewrite]:
    return ctx.once("cudnn:find", _rewrites)


def _rewrites(ctx) -> list[Rewrite]:
    tokens = named_tokens(ctx)
    called = {canonical(t.name) for t in tokens}
    out: list[Rewrite] = []
    queries = [(t, HELPERS[canonical(t.name)]) for t in tokens if canonical(t.name) in HELPERS]
    queries = [(t, h) for t, h in queries if (call := call_of(t)) is not None and len(arguments(call)) == h[2]]
    if queries:
        out += _queries(ctx, queries)
    for token in tokens:
        direction = RUNS.get(canonical(token.name))
        call = call_of(token) if direction is not None else None
        if call is not None and len(arguments(call)) == 13:
            found = _run(ctx, token, call, direction, called)
            if found is not None:
                out.append(found)
    if PERF_TYPE_WORD.search(decoded(ctx.data)):
        out += _fields(ctx)
    return out


def _include_end(ctx) -> int | None:
    """Where the helper block goes: after the file's first cuDNN include (hipify-perl's hipDNN.h, or the MIOpen
    header it became, included)."""
    for m, name in includes(ctx):
        if CUDNN_HEADERS.fullmatch(name.rsplit("/", 1)[-1]) or name == "miopen/miopen.h":
            return m.end()
    return None


def _queries(ctx, queries) -> list[Rewrite]:
    at = _include_end(ctx)
    present = MARKER.encode() in ctx.data
    out = []
    for i, (token, (helper, direction, _)) in enumerate(queries):
        cuda = canonical(token.name)
        call = call_of(token)
        start, end = token.base + call.start_byte, token.base + call.end_byte
        if at is None and not present:
            out.append(Rewrite(start, end, f"{cuda} has no MIOpen counterpart: MIOpen runs a convolution only with an "
                               f"algorithm its find step ({FIND_STEP[direction]}) measured, and this file includes no "
                               "cuDNN header after which the helper that runs it could be declared: call "
                               f"{FIND_STEP[direction]} with your buffers and workspace", Severity.ERROR))
            continue
        spans = [(token.base + a.start_byte, token.base + a.end_byte) for a in arguments(call)]
        edits = [Edit(token.start, token.end, helper), *realigned(ctx, spans, len(helper) - len(token.name))]
        if i == 0 and not present:
            nl = ctx.newline
            text = block({h for _, (h, _, _) in queries}, nl)
            edits.append(Edit(at, at, text if ctx.data[:at].endswith(b"\n") else nl + text))
        if helper.endswith("MaxCount"):
            says = (f"{cuda} has no MIOpen counterpart: {helper} (declared after the MIOpen include) gives "
                    f"{ALGORITHM_COUNT[direction]}, the number of MIOpen's {direction} algorithms (its find step returns "
                    "at most one result for each)")
            severity = Severity.INFO
        else:
            how = ("ranks algorithms by heuristics without running them" if cuda.endswith("_v7") else
                   "measures algorithms on buffers it allocates itself")
            says = (f"{cuda} {how}; MIOpen runs a convolution only with an algorithm its find step "
                    f"({FIND_STEP[direction]}) measured for the problem on the same handle, and only one it returned: "
                    f"the call runs that find step through {helper} (declared after the MIOpen include) on scratch "
                    f"buffers it allocates; call {FIND_STEP[direction]} with your own buffers and workspace to avoid "
                    "that")
            severity = Severity.WARNING
        out.append(Rewrite(start, end, says, severity, tuple(edits), f"Run MIOpen's find step ({helper})",
                           ((token.start, token.end),)))
    return out


def _run(ctx, token, call, direction: str, called: set) -> Rewrite | None:
    args = arguments(call)
    algo = ctx.text(token.base + args[7].start_byte, token.base + args[7].end_byte).strip()
    fixed = canonical(algo) or ""
    problems = []
    if not called & SELECTS[direction]:
        problems.append(f"this file runs no find step for it ({FIND_STEP[direction]}, or a cuDNN algorithm query "
                        "CPP030/CPP031 turn into one): MIOpen fails with 'No invoker was registered' unless the find "
                        "step ran for this problem on this handle")
    if fixed.startswith("CUDNN_CONVOLUTION_"):
        problems.append(f"the algorithm is fixed ({algo}): MIOpen runs only an algorithm its find step returned for "
                        f"the problem; pass the .{ALGO_FIELD[direction]} of a result of {FIND_STEP[direction]}")
    if not problems:
        return None
    start, end = token.base + call.start_byte, token.base + call.end_byte
    return Rewrite(start, end, f"{canonical(token.name)}: " + "; ".join(problems), Severity.WARNING)


def _perf_names(ctx) -> dict[bytes, str]:
    """Variables and parameters the file declares with a cuDNN performance-result type (arrays, pointers,
    references and std::vector<...> of one included): name -> direction."""
    names = {}
    for node, type_text, _ in parse.declarations(ctx.tree.root_node, None):
        m = PERF_TYPE_WORD.search(decoded(type_text))
        if m and node.type == "identifier":
            names[node.text] = PERF_TYPES[canonical(m.group()) or m.group()]
    return names


def _fields(ctx) -> list[Rewrite]:
    names = _perf_names(ctx)
    out = []
    if not names:
        return out
    for m in re.finditer(rb"(?:\.|->)\s*(algo|status|determinism|mathType)\b", ctx.data):
        field = ctx.node_at(m.start(1), m.end(1))
        parent = field.parent
        if field.type != "field_identifier" or parent is None or parent.type != "field_expression":
            continue
        obj = parse.element_base(parent.child_by_field_name("argument"))
        if obj is not None and obj.type == "call_expression":  # perf.at(i).algo
            obj = _vector_element(obj)
        if obj is None or obj.type != "identifier" or obj.text not in names:
            continue
        direction = names[obj.text]
        name = decoded(field.text)
        if name == "algo":
            new = ALGO_FIELD[direction]
            out.append(Rewrite(field.start_byte, field.end_byte, f"MIOpen's results (miopenConvAlgoPerf_t) hold the "
                               f"{direction} algorithm in .{new}", Severity.INFO,
                               (Edit(field.start_byte, field.end_byte, new),), f"Read .{new}"))
        elif name == "status":
            out.append(_status(ctx, parent))
        elif name == "determinism":
            out.append(Rewrite(field.start_byte, field.end_byte, "MIOpen's results say nothing of determinism: to "
                               "run deterministic kernels only, set MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC to 1 with "
                               "miopenSetConvolutionAttribute before the find step", Severity.ERROR))
        else:
            out.append(Rewrite(field.start_byte, field.end_byte, "MIOpen's results have no math type: MIOpen picks "
                               "matrix-core kernels itself", Severity.ERROR))
    return out


def _vector_element(node):
    """`perf.at(i)`: the vector `perf`."""
    function = node.child_by_field_name("function")
    if function is not None and function.type == "field_expression":
        return parse.element_base(function.child_by_field_name("argument"))
    return None


def _status(ctx, field_expression) -> Rewrite:
    """`perf[i].status == CUDNN_STATUS_SUCCESS` is true with MIOpen (its find step returns only algorithms that
    ran); `!=` false. Any other use of .status is reported."""
    parent = field_expression.parent
    start, end = field_expression.start_byte, field_expression.end_byte
    if parent is not None and parent.type == "binary_expression":
        operator = parent.child_by_field_name("operator")
        left, right = parent.child_by_field_name("left"), parent.child_by_field_name("right")
        other = right if left == field_expression else left
        if operator is not None and operator.type in ("==", "!=") and other is not None \
                and canonical(decoded(other.text).strip()) == "CUDNN_STATUS_SUCCESS":
            value = "true" if operator.type == "==" else "false"
            span = (parent.start_byte, parent.end_byte)
            return Rewrite(start, end, "MIOpen's results have no status: its find step returns only algorithms that "
                           f"ran, so the comparison with CUDNN_STATUS_SUCCESS is {value}", Severity.INFO,
                           (Edit(*span, value),), f"Write {value}", (span,), (span,))
    return Rewrite(start, end, "MIOpen's results have no status: its find step returns only algorithms that ran",
                   Severity.ERROR)
