"""cuDNN's alpha and beta scaling factors where MIOpen supports only alpha = 1 and beta = 0.

cuDNN blends every result as `y = alpha * op(x) + beta * y`, so `beta = 1` accumulates into y (a weight gradient
summed over micro-batches, a residual added in place). MIOpen 3.4 takes the same arguments but rejects anything
but alpha = 1 and beta = 0 (miopenStatusNotImplemented, "Only alpha=1 and beta=0 is supported") in its 2-d
convolutions (forward, backward data, backward weights), the convolution bias gradient, pooling forward,
activation forward and batch normalization forward (training and inference), as its header and sources say. For
each such call the factors are followed to the variable they point to (`&beta` -> `const float beta = 0.0f;`):
other constants are an error, with what to do instead; factors this rule cannot follow (parameters, values
computed at run time) a warning. 3-d convolutions accept other values; the rule cannot tell them apart. The same
calls are checked in cuDNN's spelling (before the migration, or hipify-perl's hipDNN one) and in MIOpen's (after it,
or in code written for MIOpen), each with its own argument positions.
"""
import re

from migrate.cpp import cudnn
from migrate.cpp.calls import arguments, call_of
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

# cuDNN function -> (alpha's argument, beta's argument)
FACTORS = {
    "cudnnConvolutionForward": (1, 10), "cudnnConvolutionBackwardData": (1, 10),
    "cudnnConvolutionBackwardFilter": (1, 10), "cudnnConvolutionBackwardBias": (1, 4),
    "cudnnPoolingForward": (2, 5), "cudnnActivationForward": (2, 5),
    "cudnnBatchNormalizationForwardTraining": (2, 3), "cudnnBatchNormalizationForwardInference": (2, 3),
}
MIOPEN_FACTORS = {
    "miopenConvolutionForward": (1, 8), "miopenConvolutionBackwardData": (1, 8),
    "miopenConvolutionBackwardWeights": (1, 8), "miopenConvolutionBackwardBias": (1, 4),
    "miopenPoolingForward": (2, 5), "miopenActivationForward": (2, 5),
    "miopenBatchNormalizationForwardTraining": (2, 3), "miopenBatchNormalizationForwardInference": (2, 3),
}
POINTER = re.compile(r"(?:\(\s*(?:const\s+)?void\s*\*\s*\)\s*)?&\s*([A-Za-z_]\w*)")
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFlL]?")
ADVICE = {"alpha": "scale the result afterwards (miopenScaleTensor)",
          "beta": "write into a scratch tensor and add it to y with miopenOpTensor (miopenTensorOpAdd)"}

CONV = ("#include <miopen/miopen.h>\nvoid step(miopenHandle_t h, miopenTensorDescriptor_t xD, const float* x, "
        "miopenTensorDescriptor_t wD,\n          float* dw, miopenConvolutionDescriptor_t cD, miopenTensorDescriptor_t "
        "yD, const float* dy,\n          miopenConvBwdWeightsAlgorithm_t algo, void* ws, size_t n) {\n"
        "    const float one = 1.0f, accumulate = 1.0f;\n"
        "    miopenConvolutionBackwardWeights(h, &one, yD, dy, xD, x, cD, algo, &accumulate, wD, dw, ws, n);\n}\n")


class CudnnScalingFactors(HazardRule):
    code = "HAZ025"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid(CONV, line=6, message="miopenConvolutionBackwardWeights: MIOpen supports only alpha = 1 and beta = 0 "
                "here (it fails with miopenStatusNotImplemented; 3-d convolutions excepted): beta is 1.0f; write into "
                "a scratch tensor and add it to y with miopenOpTensor (miopenTensorOpAdd)"),
        Invalid("void act(void* h, const void* alpha, const void* beta) {\n"
                "    miopenActivationForward(h, aD, alpha, xD, x, beta, yD, y);\n}\n",
                message="miopenActivationForward: MIOpen supports only alpha = 1 and beta = 0 here (it fails with "
                        "miopenStatusNotImplemented; 3-d convolutions excepted): check that alpha and beta point to 1 "
                        "and 0 (this rule cannot follow them)"),
        Valid(CONV.replace("accumulate = 1.0f", "accumulate = 0.0f")),
        Valid("const float one = 1, zero = 0;\nvoid p(void* h) { miopenPoolingForward(h, pd, &one, xD, x, &zero, yD, y, "
              "false, nullptr, 0); }\n"),
        Valid("void s(void* h) { miopenSoftmaxForward_V2(h, &two, xD, x, &one, yD, y, a, m); }\n"),
    ]

    def check(self, ctx):
        if not cudnn.mentions_cudnn(ctx.data) and b"miopen" not in ctx.data:
            return
        tokens = [(t, cudnn.canonical(t.name)) for t in cudnn.named_tokens(ctx)]
        tokens += [(t, t.name) for t in ctx.code_tokens() if t.name in MIOPEN_FACTORS]
        for token, cuda in sorted(tokens, key=lambda pair: pair[0].start):
            at = FACTORS.get(cuda) or MIOPEN_FACTORS.get(cuda)
            call = call_of(token) if at is not None else None
            if call is None:
                continue
            args = arguments(call)
            if max(at) >= len(args):
                continue
            values = {}
            for which, i in zip(("alpha", "beta"), at):
                values[which] = _value(ctx, call, args[i].text.decode("utf-8", "surrogateescape").strip(), token.base)
            wrong = [w for w, want in (("alpha", 1.0), ("beta", 0.0)) if values[w] is not None
                     and _number(values[w]) != want]
            unknown = [w for w in ("alpha", "beta") if values[w] is None]
            start, end = token.base + call.start_byte, token.base + call.end_byte
            said = (f"{cuda}: MIOpen supports only alpha = 1 and beta = 0 here (it fails with "
                    "miopenStatusNotImplemented; 3-d convolutions excepted)")
            if wrong:
                what = "; ".join(f"{w} is {values[w]}; {ADVICE[w]}" for w in wrong)
                yield self.finding(ctx, start, end, f"{said}: {what}", family="cudnn")
            elif unknown:
                wanted = " and ".join("1" if w == "alpha" else "0" for w in unknown)
                verb = "points" if len(unknown) == 1 else "point"
                yield self.finding(ctx, start, end, f"{said}: check that {' and '.join(unknown)} {verb} to {wanted} "
                                   "(this rule cannot follow them)", family="cudnn")


def _value(ctx, call, text: str, base: int) -> str | None:
    """The constant a factor argument points to (`&one` -> "1.0f"), None when it cannot be told."""
    m = POINTER.fullmatch(text)
    node = cudnn.declaration_of(ctx, m.group(1), call) if m is not None and not base else None
    declarator = node.parent if node is not None else None
    if declarator is None or declarator.type != "init_declarator":
        return None
    value = declarator.child_by_field_name("value")
    text = value.text.decode("utf-8", "surrogateescape").strip() if value is not None else ""
    return text if NUMBER.fullmatch(text) else None


def _number(text: str) -> float:
    return float(text.rstrip("fFlL"))
