"""hipDNN's names, which hipify-perl writes for cuDNN's: MIOpen's are the ones to use.

Without `-roc`, hipify-perl translates cuDNN to hipDNN (`cudnnCreate` -> `hipdnnCreate`, `CUDNN_DATA_FLOAT` ->
`HIPDNN_DATA_FLOAT`, `<cudnn.h>` -> `<hipDNN.h>`), the names of an old wrapper of cuDNN's legacy API that no ROCm
release ships (the hipDNN of ROCm 7 is a new, graph-based library without these calls), so its output does not
build. After the hipify-perl engine, this rule renames each hipDNN name to the MIOpen name the cudnn pack gives the
cuDNN name it came from, and `<hipDNN.h>` to `<miopen/miopen.h>`; the other cuDNN rules (CPP030, CPP031,
CPP033, HAZ025) read hipDNN's names as the cuDNN names they stand for. A hipDNN name whose cuDNN name has no MIOpen
row is CPP033's to report.
"""
from migrate.cpp import cudnn, cudnn_spans
from migrate.cpp.includes import includes
from migrate.model import Edit, RuleKind
from migrate.rule import CppRule, Invalid, Valid


class HipdnnName(CppRule):
    code = "CPP032"
    kind = RuleKind.MAPPING
    examples = [
        Invalid("#include <hipDNN.h>\nvoid f(hipdnnHandle_t h, hipdnnTensorDescriptor_t x) {\n"
                "    hipdnnSetTensor4dDescriptorEx(x, HIPDNN_DATA_FLOAT, 1, 2, 3, 4, 24, 12, 4, 1);\n"
                "    hipdnnDestroy(h);\n}\n",
                fixed="#include <miopen/miopen.h>\nvoid f(miopenHandle_t h, miopenTensorDescriptor_t x) {\n"
                      "    miopenSet4dTensorDescriptorEx(x, miopenFloat, 1, 2, 3, 4, 24, 12, 4, 1);\n"
                      "    miopenDestroy(h);\n}\n", line=1,
                message="<hipDNN.h> is hipify-perl's header for <cudnn.h>: that hipDNN is not in ROCm; MIOpen's header "
                        "is <miopen/miopen.h>"),
        Invalid("int f() { return HIPDNN_ACTIVATION_PATHTRU; }\n", fixed="int f() { return miopenActivationPASTHRU; }\n",
                message="HIPDNN_ACTIVATION_PATHTRU is hipify-perl's hipDNN name for cuDNN's CUDNN_ACTIVATION_IDENTITY: "
                        "MIOpen's is miopenActivationPASTHRU"),
        Valid("void f(miopenHandle_t h) { miopenDestroy(h); }\n"),
        Valid('const char* s = "hipdnnCreate"; // hipdnnCreate\n'),
        Valid("void f(int h) { hipdnnoid(h); }\n"),  # a name that only begins like hipDNN's (a fuzz find)
    ]

    def check(self, ctx):
        if b"hipdnn" not in ctx.data and b"HIPDNN_" not in ctx.data and b"hipDNN" not in ctx.data:
            return
        for m, name in includes(ctx):
            if name == cudnn.HIPDNN_HEADER:
                yield self.finding(ctx, m.start(2), m.end(2), "<hipDNN.h> is hipify-perl's header for <cudnn.h>: "
                                   "that hipDNN is not in ROCm; MIOpen's header is <miopen/miopen.h>",
                                   edits=[Edit(m.start(2), m.end(2), "miopen/miopen.h")],
                                   title="Include miopen/miopen.h", family="cudnn")
        claimed = cudnn_spans.claimed(ctx)
        for token in cudnn.hipdnn_tokens(ctx):
            cuda = cudnn.canonical(token.name)
            new = cudnn.hip_name(ctx, cuda)
            if new == cuda or claimed.holds(token.start, token.end):
                continue
            yield self.finding(ctx, token.start, token.end, f"{token.name} is hipify-perl's hipDNN name for cuDNN's "
                               f"{cuda}: MIOpen's is {new}", edits=[Edit(token.start, token.end, new)],
                               title=f"Rename to {new}", family="cudnn")
