"""cuDNN calls whose MIOpen counterpart takes other arguments (rule CPP030): the table, and the rewrite of each call.

Each entry says, for one cuDNN function, how MIOpen's call is made from cuDNN's arguments: an order (an int is
cuDNN's argument at that position, a string is text written there), or a function that reads the call's constant
arguments (the tensor format, the activation mode) and decides. The name itself is the pack's rename (MAP000) unless
an entry writes another one (NHWC tensors: miopenSet4dTensorDescriptorEx). Calls with another argument count than
cuDNN's are left alone. The argument list is written whole, each argument's text with the packs' renames applied,
and the separators of the original kept in place (so a call laid over several lines stays so).

The entries were written from the prototypes of cuDNN 9.28 (cudnn_ops.h, cudnn_cnn.h) and MIOpen 3.4 (ROCm 6.4.3,
miopen/miopen.h); MIOpen's behaviour where it differs (alpha/beta, the pooling and LRN workspace, the activation
parameters) was read from its documentation and sources.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from migrate.cpp import cudnn
from migrate.cpp.calls import arguments, call_of
from migrate.cpp.cudnn import Rewrite, canonical, hip_name, hip_text, named_tokens
from migrate.model import Edit, Severity

SIMPLE = re.compile(r"[A-Za-z_][\w.]*|\d+|[A-Za-z_]\w*(?:->\w+)+")


@dataclass(frozen=True)
class Shape:
    """MIOpen's arguments from cuDNN's `arity` arguments: `order` (or `decide`, for calls that depend on a constant
    argument), what the finding says, its severity."""

    arity: int
    order: tuple[int | str, ...] = ()
    says: str = ""
    severity: Severity = Severity.INFO
    decide: Callable | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Decision:
    order: tuple[int | str, ...] | None  # None: reported, not rewritten
    says: str
    severity: Severity = Severity.INFO
    name: str = ""  # another MIOpen function than the pack's
    replace_call: str = ""  # the whole call becomes this text


class Call:
    """One call as the deciders see it: cuDNN's name, the argument texts as written and renamed, the file."""

    def __init__(self, ctx, token, node):
        self.ctx, self.token, self.node = ctx, token, node
        self.cuda = canonical(token.name) or token.name
        self.base = token.base
        self.args = arguments(node)
        self.spans = [(self.base + a.start_byte, self.base + a.end_byte) for a in self.args]
        self.written = [ctx.text(s, e) for s, e in self.spans]  # as in the source
        self.hip = [hip_text(ctx, s, e) for s, e in self.spans]  # with the packs' renames

    def constant(self, i: int) -> str:
        """cuDNN's name of a constant argument (CUDNN_TENSOR_NCHW, or hipify-perl's HIPDNN_TENSOR_NCHW), else its
        text."""
        text = self.written[i].strip()
        return canonical(text) or text

    def null(self) -> str:
        return "NULL" if self.ctx.path.endswith(".c") else "nullptr"

    def file_calls(self, name: str) -> bool:
        return any(canonical(t.name) == name for t in named_tokens(self.ctx))


def parenthesized(text: str) -> str:
    return text if SIMPLE.fullmatch(text.strip()) else f"({text.strip()})"


# --- deciders: calls whose rewrite depends on a constant argument ----------------------------------------------

def _format_4d(fmt_at: int, dims_at: int):
    """cudnnSetTensor4dDescriptor (format before the data type) and cudnnSetFilter4dDescriptor (after it)."""
    def decide(call: Call) -> Decision:
        fmt = call.constant(fmt_at)
        kept = tuple(i for i in range(7) if i != fmt_at)
        if fmt == "CUDNN_TENSOR_NCHW":
            return Decision(kept, f"MIOpen's 4-d tensor descriptor has no format argument (it is NCHW unless strides "
                                  f"say otherwise): {call.written[fmt_at].strip()} dropped")
        if fmt == "CUDNN_TENSOR_NHWC":
            c, h, w = (parenthesized(call.hip[dims_at + i]) for i in (1, 2, 3))
            strides = (f"{c} * {h} * {w}", "1", f"{w} * {c}", c)
            return Decision(kept + strides, "MIOpen's 4-d tensors are NCHW unless strides say otherwise: NHWC is "
                            "written as miopenSet4dTensorDescriptorEx with NHWC's strides (n: c*h*w, c: 1, h: w*c, "
                            "w: c)", name="miopenSet4dTensorDescriptorEx")
        return Decision(None, f"{call.cuda}'s format argument ({call.written[fmt_at].strip()}) is not "
                        "CUDNN_TENSOR_NCHW or CUDNN_TENSOR_NHWC: MIOpen's miopenSet4dTensorDescriptor is NCHW; give "
                        "other layouts as strides with miopenSet4dTensorDescriptorEx (NCHW_VECT_C has no "
                        "counterpart)", Severity.ERROR)
    return decide


def _format_nd(fmt_at: int, order_nchw: tuple[int, ...]):
    """cudnnSetTensorNdDescriptorEx (format first) and cudnnSetFilterNdDescriptor (after the data type)."""
    def decide(call: Call) -> Decision:
        fmt = call.constant(fmt_at)
        if fmt == "CUDNN_TENSOR_NCHW":
            return Decision(order_nchw + (call.null(),), f"miopenSetTensorDescriptor takes no format but strides: "
                            f"{call.written[fmt_at].strip()} dropped, and null strides (packed, NCHW order) passed")
        return Decision(None, f"{call.cuda} with the format {call.written[fmt_at].strip()}: MIOpen's N-d descriptors "
                        "take strides, not a format; compute the strides of that layout and call "
                        "miopenSetTensorDescriptor with them", Severity.ERROR)
    return decide


def _convolution_mode(mode_at: int, order: tuple[int, ...], says: str):
    def decide(call: Call) -> Decision:
        if call.constant(mode_at) == "CUDNN_CONVOLUTION":
            return Decision(None, "CUDNN_CONVOLUTION (a true convolution, the filter flipped) has no MIOpen mode: "
                            "MIOpen's miopenConvolution is a cross-correlation (CUDNN_CROSS_CORRELATION); flip the "
                            "filters, or use CUDNN_CROSS_CORRELATION", Severity.ERROR)
        return Decision(order, says.format(compute=call.written[-1].strip()))
    return decide


def _pass_or_report(backward: str, kept: tuple[int, ...], append: tuple[str, ...], says: str, report: str):
    """PoolingForward and LRNCrossChannelForward: without the backward call in the file, MIOpen's forward saves
    nothing for it; with it, the forward must save into a workspace the backward reads."""
    def decide(call: Call) -> Decision:
        if call.file_calls(backward):
            return Decision(None, report, Severity.ERROR)
        return Decision(kept + tuple(call.null() if a == "null" else a for a in append), says)
    return decide


ACTIVATION_PARAMETERS = {  # cuDNN's mode -> MIOpen's activAlpha, activBeta, activGamma (3 = cuDNN's coef)
    "CUDNN_ACTIVATION_RELU": ("0.0", "0.0", "0.0"),
    "CUDNN_ACTIVATION_SIGMOID": ("0.0", "0.0", "0.0"),
    "CUDNN_ACTIVATION_IDENTITY": ("0.0", "0.0", "0.0"),
    "CUDNN_ACTIVATION_TANH": ("1.0", "1.0", "0.0"),  # MIOpen: beta * tanh(alpha * x)
    "CUDNN_ACTIVATION_CLIPPED_RELU": (3, "0.0", "0.0"),  # MIOpen: min(alpha, max(0, x))
    "CUDNN_ACTIVATION_ELU": (3, "0.0", "0.0"),  # MIOpen: alpha * (e^x - 1) for x <= 0
}


def _activation(call: Call) -> Decision:
    mode = call.constant(1)
    if mode not in ACTIVATION_PARAMETERS:
        return Decision(None, f"cudnnSetActivationDescriptor with the mode {call.written[1].strip()}: MIOpen's "
                        "activation takes alpha, beta and gamma whose meaning depends on the mode (ReLU none, TANH "
                        "beta*tanh(alpha*x), CLIPPEDRELU min(alpha, max(0, x)), ELU alpha*(e^x-1)); write them by "
                        "hand (SWISH has no MIOpen mode)", Severity.ERROR)
    return Decision((0, 1) + ACTIVATION_PARAMETERS[mode],
                    "MIOpen's activation descriptor takes no NaN option and three parameters (alpha, beta, gamma) "
                    f"whose meaning depends on the mode: written for {call.written[1].strip()} (cuDNN's coef is "
                    "alpha for CLIPPED_RELU and ELU)")


def _math_type(call: Call) -> Decision:
    return Decision(None, "MIOpen has no math type: it picks matrix-core kernels itself (fp32 convolutions stay "
                    f"fp32); {call.cuda}({call.written[0].strip()}, {call.written[1].strip()}) is dropped",
                    replace_call="miopenStatusSuccess")


# MIOpen takes these pointers as void*, where cuDNN took const void*: a pointer to const is cast.
BATCH_NORM_NON_CONST = {"cudnnBatchNormalizationForwardTraining": (2, 3, 9, 10),
                        "cudnnBatchNormalizationForwardInference": (2, 3, 9, 10, 11, 12)}

WORKSPACE_SIZE = ("MIOpen's workspace query has no algorithm argument and takes the filter descriptor first: it "
                  "returns what its find step needs, at least what any algorithm it may pick needs")
RUN_ORDER = ("MIOpen takes the workspace and its size last, after beta and the output: arguments reordered")
FIND_EX = ("MIOpen's find step (miopenFind...Algorithm) takes the same buffers and workspace, then exhaustiveSearch: "
           "false written (true benchmarks every kernel configuration)")
OUT_NOT_WRITTEN = "{what} is not written (MIOpen has none): initialise it if it is read"

SHAPES: dict[str, Shape] = {
    # tensor and filter descriptors
    "cudnnSetTensor4dDescriptor": Shape(7, decide=_format_4d(1, 3)),
    "cudnnSetFilter4dDescriptor": Shape(7, decide=_format_4d(2, 3)),
    "cudnnSetTensorNdDescriptorEx": Shape(5, decide=_format_nd(1, (0, 2, 3, 4))),
    "cudnnSetFilterNdDescriptor": Shape(5, decide=_format_nd(2, (0, 1, 3, 4))),
    # convolution descriptors
    "cudnnSetConvolution2dDescriptor": Shape(9, decide=_convolution_mode(7, (0, 7, 1, 2, 3, 4, 5, 6),
        "miopenInitConvolutionDescriptor takes the mode second and no compute type: {compute} dropped (MIOpen "
        "accumulates half and bfloat16 in float)")),
    "cudnnSetConvolutionNdDescriptor": Shape(7, decide=_convolution_mode(5, (0, 1, 2, 3, 4, 5),
        "miopenInitConvolutionNdDescriptor takes no compute type: {compute} dropped (MIOpen accumulates half and "
        "bfloat16 in float)")),
    "cudnnGetConvolution2dDescriptor": Shape(9, (0, 7, 1, 2, 3, 4, 5, 6), "miopenGetConvolutionDescriptor gives the "
        "mode second and no compute type: " + OUT_NOT_WRITTEN.format(what="the compute type (argument 9)"),
        Severity.WARNING),
    "cudnnGetConvolutionNdDescriptor": Shape(8, (0, 1, 2, 3, 4, 5, 6), "miopenGetConvolutionNdDescriptor gives no "
        "compute type: " + OUT_NOT_WRITTEN.format(what="the compute type (argument 8)"), Severity.WARNING),
    "cudnnSetConvolutionMathType": Shape(2, decide=_math_type),
    # workspace queries, the find step with the caller's buffers, and the runs
    "cudnnGetConvolutionForwardWorkspaceSize": Shape(7, (0, 2, 1, 3, 4, 6), WORKSPACE_SIZE),
    "cudnnGetConvolutionBackwardDataWorkspaceSize": Shape(7, (0, 2, 1, 3, 4, 6), WORKSPACE_SIZE.replace(
        "the filter descriptor first", "dy's descriptor first")),
    "cudnnGetConvolutionBackwardFilterWorkspaceSize": Shape(7, (0, 2, 1, 3, 4, 6), WORKSPACE_SIZE.replace(
        "the filter descriptor first", "dy's descriptor first")),
    "cudnnFindConvolutionForwardAlgorithmEx": Shape(13, tuple(range(13)) + ("false",), FIND_EX),
    "cudnnFindConvolutionBackwardDataAlgorithmEx": Shape(13, (0, 3, 4, 1, 2) + tuple(range(5, 13)) + ("false",),
        FIND_EX + "; dy and its descriptor come before the filter"),
    "cudnnFindConvolutionBackwardFilterAlgorithmEx": Shape(13, (0, 3, 4, 1, 2) + tuple(range(5, 13)) + ("false",),
        FIND_EX + "; dy and its descriptor come before x"),
    "cudnnConvolutionForward": Shape(13, (0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 8, 9), RUN_ORDER),
    "cudnnConvolutionBackwardData": Shape(13, (0, 1, 4, 5, 2, 3, 6, 7, 10, 11, 12, 8, 9),
        RUN_ORDER.replace(": arguments", ", and dy before the filter: arguments")),
    "cudnnConvolutionBackwardFilter": Shape(13, (0, 1, 4, 5, 2, 3, 6, 7, 10, 11, 12, 8, 9),
        RUN_ORDER.replace(": arguments", ", and dy before x: arguments")),
    # pooling
    "cudnnSetPooling2dDescriptor": Shape(9, (0, 1, 3, 4, 5, 6, 7, 8), "MIOpen's pooling descriptor has no NaN "
        "option: the maximum of a window with a NaN is what its kernels give"),
    "cudnnSetPoolingNdDescriptor": Shape(7, (0, 1, 3, 4, 5, 6), "MIOpen's pooling descriptor has no NaN option: the "
        "maximum of a window with a NaN is what its kernels give"),
    "cudnnGetPooling2dDescriptor": Shape(9, (0, 1, 3, 4, 5, 6, 7, 8), "MIOpen's pooling descriptor has no NaN "
        "option: " + OUT_NOT_WRITTEN.format(what="the NaN option (argument 3)"), Severity.WARNING),
    "cudnnGetPoolingNdDescriptor": Shape(8, (0, 1, 2, 4, 5, 6, 7), "MIOpen's pooling descriptor has no NaN option: "
        + OUT_NOT_WRITTEN.format(what="the NaN option (argument 4)"), Severity.WARNING),
    "cudnnPoolingForward": Shape(8, decide=_pass_or_report("cudnnPoolingBackward", tuple(range(8)),
                                                           ("false", "null", "0"),
        "miopenPoolingForward also takes do_backward, a workspace and its size: false, none and 0 written (no "
        "backward pass in this file needs the indices a max pooling saves)",
        "miopenPoolingForward must save the indices of the maxima for miopenPoolingBackward: allocate "
        "miopenPoolingGetWorkSpaceSizeV2(poolDesc, yDesc, &size) bytes, pass do_backward = true with that workspace "
        "to miopenPoolingForward, and the same workspace to miopenPoolingBackward")),
    "cudnnPoolingBackward": Shape(12, decide=lambda call: Decision(None, "miopenPoolingBackward takes the workspace "
        "miopenPoolingForward filled (do_backward = true; miopenPoolingGetWorkSpaceSizeV2 gives its size) as its "
        "last argument: pass it", Severity.ERROR)),
    # activation
    "cudnnSetActivationDescriptor": Shape(4, decide=_activation),
    # softmax
    "cudnnSoftmaxForward": Shape(9, (0, 3, 4, 5, 6, 7, 8, 1, 2), "miopenSoftmaxForward_V2 takes the algorithm and "
        "mode last: arguments reordered"),
    "cudnnSoftmaxBackward": Shape(11, (0, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2), "miopenSoftmaxBackward_V2 takes the "
        "algorithm and mode last: arguments reordered"),
    # LRN
    "cudnnSetLRNDescriptor": Shape(5, (0, "miopenLRNCrossChannel", 1, 2, 3, 4), "MIOpen's LRN descriptor holds the "
        "mode, which cuDNN passes to each call: miopenLRNCrossChannel written (cuDNN's only LRN mode; MIOpen also "
        "divides alpha by the window width)"),
    "cudnnLRNCrossChannelForward": Shape(9, decide=_pass_or_report("cudnnLRNCrossChannelBackward",
                                                                   (0, 1, 3, 4, 5, 6, 7, 8), ("false", "null"),
        "miopenLRNForward takes no mode (the descriptor has it) but do_backward and a workspace: false and none "
        "written (no backward pass in this file)",
        "miopenLRNForward must save what miopenLRNBackward reads: allocate miopenLRNGetWorkSpaceSize(yDesc, &size) "
        "bytes, pass do_backward = true with that workspace to miopenLRNForward and the same workspace to "
        "miopenLRNBackward (neither takes cuDNN's mode argument)")),
    "cudnnLRNCrossChannelBackward": Shape(13, decide=lambda call: Decision(None, "miopenLRNBackward takes no mode and "
        "reads the workspace miopenLRNForward filled (do_backward = true; miopenLRNGetWorkSpaceSize gives its size) "
        "as its last argument: drop the mode and pass it", Severity.ERROR)),
    # dropout
    "cudnnSetDropoutDescriptor": Shape(6, tuple(range(6)) + ("false", "false", "MIOPEN_RNG_PSEUDO_XORWOW"),
        "miopenSetDropoutDescriptor also takes use_mask, state_evo and the generator: false, false and "
        "MIOPEN_RNG_PSEUDO_XORWOW written (a new mask each call, as cuDNN)"),
    "cudnnRestoreDropoutDescriptor": Shape(6, tuple(range(6)) + ("false", "false", "MIOPEN_RNG_PSEUDO_XORWOW"),
        "miopenRestoreDropoutDescriptor also takes use_mask, state_evo and the generator: false, false and "
        "MIOPEN_RNG_PSEUDO_XORWOW written"),
    "cudnnDropoutForward": Shape(8, (0, 1, 2, 2, 3, 4, 5, 6, 7), "miopenDropoutForward takes a noise shape "
        "descriptor before x's: x's descriptor passed (one random draw per element, as cuDNN)"),
    "cudnnDropoutBackward": Shape(8, (0, 1, 2, 2, 3, 4, 5, 6, 7), "miopenDropoutBackward takes a noise shape "
        "descriptor before dy's: dy's descriptor passed (one random draw per element, as cuDNN)"),
}
# batch normalization: the same arguments, some of them void* in MIOpen
for _name, _at in BATCH_NORM_NON_CONST.items():
    SHAPES[_name] = Shape(17 if "Training" in _name else 14, decide=None)


def rewrites(ctx) -> list[Rewrite]:
    return ctx.once("cudnn:calls", _rewrites)


def _rewrites(ctx) -> list[Rewrite]:
    out = []
    for token in named_tokens(ctx):
        cuda = canonical(token.name)
        shape = SHAPES.get(cuda)
        node = call_of(token) if shape is not None else None
        if node is None or len(arguments(node)) != shape.arity:
            continue
        call = Call(ctx, token, node)
        found = _rewrite(call, shape)
        if found is not None:
            out.append(found)
    return out


def _rewrite(call: Call, shape: Shape) -> Rewrite | None:
    ctx, token = call.ctx, call.token
    start, end = call.base + call.node.start_byte, call.base + call.node.end_byte
    if call.cuda in BATCH_NORM_NON_CONST:
        return _const_casts(call, start, end)
    decision = shape.decide(call) if shape.decide else Decision(shape.order, shape.says, shape.severity)
    if decision.replace_call:
        return _replace_call(call, decision, start, end)
    if decision.order is None:
        return Rewrite(start, end, decision.says, decision.severity)
    new = [call.hip[i] if isinstance(i, int) else i for i in decision.order]
    first, last = call.spans[0][0], call.spans[-1][1]
    name = decision.name or hip_name(ctx, call.cuda)
    delta, column = len(name) - len(token.name), cudnn.column(ctx, first)
    separators = [cudnn.aligned(ctx.text(call.spans[i][1], call.spans[i + 1][0]), column, delta)
                  for i in range(len(call.spans) - 1)]
    text = new[0] + "".join(_separator(separators, decision.order, j) + new[j] for j in range(1, len(new)))
    edits = [Edit(first, last, text)]
    claimed = [(first, last)]
    if decision.name:
        edits.insert(0, Edit(token.start, token.end, decision.name))
        claimed.append((token.start, token.end))
    kept = {i for i in decision.order if isinstance(i, int)}
    dropped = tuple(call.spans[i] for i in range(len(call.spans)) if i not in kept)
    return Rewrite(start, end, f"{call.cuda} -> {name}: {decision.says}", decision.severity, tuple(edits),
                   f"Write {name}'s arguments", tuple(claimed), dropped)


def _separator(separators: list[str], order, j: int) -> str:
    """What goes before the j-th new argument. Where the arguments keep their order (some dropped, some added):
    the separator that preceded that argument in the source (a dropped one takes its own with it), ", " before
    added text. Where they move: the j-th separator of the source, so that line breaks stay where they were."""
    kept = [i for i in order if isinstance(i, int)]
    before, here = order[j - 1], order[j]
    if all(a <= b for a, b in zip(kept, kept[1:])):
        if isinstance(before, int) and isinstance(here, int) and here > before:
            return separators[here - 1]
        return ", "
    return separators[j - 1] if j - 1 < len(separators) else ", "


def _replace_call(call: Call, decision: Decision, start: int, end: int) -> Rewrite:
    """The whole call goes: as a statement of its own with its line (or the statement), else replaced by a value."""
    ctx = call.ctx
    node = call.node
    parent = node.parent
    if parent is not None and parent.type == "expression_statement" and call.base == 0:
        s, e = parent.start_byte, parent.end_byte
        line_start = ctx.data.rfind(b"\n", 0, s) + 1
        line_end = ctx.data.find(b"\n", e)
        line_end = len(ctx.data) if line_end < 0 else line_end
        if not ctx.data[line_start:s].strip() and not ctx.data[e:line_end].strip():
            s, e = line_start, min(line_end + 1, len(ctx.data))
        edit = Edit(s, e, "")
        span = (s, e)
    else:
        edit = Edit(start, end, decision.replace_call)
        span = (start, end)
    return Rewrite(start, end, decision.says, Severity.INFO, (edit,), "Drop the call", (span,), (span,))


def _const_casts(call: Call, start: int, end: int) -> Rewrite | None:
    """MIOpen's batch normalization takes alpha, beta, the scale, bias and (inference) the estimates as void*: an
    argument that points to const (a `const float` whose address is taken, a `const float*`) is cast to void*."""
    at = [i for i in BATCH_NORM_NON_CONST[call.cuda] if _points_to_const(call, i)]
    if not at:
        return None
    edits = []
    for i in at:
        s, e = call.spans[i]
        text = call.written[i].strip()
        if SIMPLE.fullmatch(text) or text.startswith("&") and SIMPLE.fullmatch(text[1:]):
            edits.append(Edit(s, s, "(void*)"))
        else:
            edits += [Edit(s, s, "(void*)("), Edit(e, e, ")")]
    which = ", ".join(str(i + 1) for i in at)
    what = ("alpha, beta, the scale, the bias and the estimates" if "Inference" in call.cuda else
            "alpha, beta, the scale and the bias")
    return Rewrite(start, end, f"{call.cuda}: MIOpen takes {what} as void*, not const void*: argument {which} points "
                   "to const and is cast", Severity.INFO, tuple(edits), "Cast to void*")


def _points_to_const(call: Call, i: int) -> bool:
    """The argument is `&v` or `p` for a variable (or parameter) declared `const T v` or `const T* p`, where the
    call sees it."""
    text = call.written[i].strip()
    name = text[1:].strip() if text.startswith("&") else text
    if call.base or not re.fullmatch(r"[A-Za-z_]\w*", name):
        return False
    node = cudnn.declaration_of(call.ctx, name, call.node)
    declaration = node.parent if node is not None else None
    while declaration is not None and declaration.type not in ("declaration", "parameter_declaration"):
        declaration = declaration.parent
    return declaration is not None and any(c.type == "type_qualifier" and c.text == b"const"
                                           for c in declaration.children)
