"""A cuDNN name that MIOpen has no counterpart for, reported with the MIOpen concept to use instead.

The cudnn pack maps handles and streams, tensor and filter descriptors, convolutions, pooling, activation, softmax,
batch normalization, LRN, dropout, tensor reductions and the status codes; CPP030 and CPP031 rewrite the calls
whose arguments differ. Everything else is left as it is and reported here, once per name and file, with what to
use: the backend (graph) API, RNNs, multi-head attention, CTC loss, fused ops, the Ex forms of batch
normalization, the op-tensor descriptor, math types, cuDNN's version macros, and so on (the table below, checked
against MIOpen 3.4's header). It replaces CPP006's generic report for cuDNN names. hipify-perl's hipDNN spellings
count as the cuDNN names they stand for. Names a project defines itself (its CUDNN_CHECK macro) are not cuDNN's.

The cuDNN mapping was checked against MIOpen 3.4 (ROCm 6.4) only: for a target before HIP 6.4, the file's cuDNN
include gets a warning saying so (and that Debian 12's HIP 5.2 packages no MIOpen at all).
"""
import re

from migrate.cpp import cudnn, cudnn_calls, cudnn_find, cudnn_spans
from migrate.cpp.includes import includes
from migrate.cpp.parse import declares
from migrate.model import RuleKind, Severity
from migrate.rule import CppRule, Invalid, Valid

OLD = (("hip_version", "5.2"),)

BACKEND = ("cuDNN's backend (graph) API: MIOpen 3.4 has a backend API of the same shape (miopenBackendCreateDescriptor, "
           "miopenBackendSetAttribute, miopenBackendFinalize, miopenBackendExecute; declared when MIOPEN_BETA_API is "
           "defined) for fewer operation graphs, and Find 2.0 problems (miopenCreateConvProblem, miopenFuseProblems, "
           "miopenFindSolutions, miopenRunSolution) and fusion plans (miopenCreateFusionPlan); ROCm 7's hipDNN (in beta) "
           "follows cuDNN's graph API")
# (pattern over cuDNN's name, the MIOpen concept), first match wins
CONCEPTS: list[tuple[re.Pattern[str], str]] = [(re.compile(p), c) for p, c in [
    (r"^CUDNN_(?:LAYER|GROUP|INSTANCE|RMS|ADA_LAYER|BATCH)_NORM$",
     "a normalization of cuDNN's backend API: MIOpen has miopenLayerNormForward, miopenGroupNormForward and "
     "miopenT5LayerNormForward (RMS; these three with MIOPEN_BETA_API) and batch normalization"),
    (r"^CUDNN_(?:OPERATIONGRAPH_MODE|RESHAPE)_|^CUDNN_(?:ZERO|NEG_INF|EDGE_VAL)_PAD$", BACKEND),
    (r"Backend|^cudnnGetExecutionPlan|^cudnnGraph|^CUDNN_(?:ATTR|BACKEND|TYPE|POINTWISE|HEUR|KNOB|NUMERICAL_NOTE|"
     r"BEHAVIOR_NOTE|LAYOUT_TYPE|RESAMPLE|SIGNAL|GENSTATS|RNG_DISTRIBUTION|NORM_FWD|NORM_BWD|TENSOR_REORDERING|"
     r"CUDA_GRAPH|MOE|PADDING|REDUCE_TENSOR_DERIVED|BN_FINALIZE)|^cudnn(?:Pointwise|Resample|Signal|GenStats|"
     r"BnFinalizeStats|RngDistribution|MoeGroupedMatmul|Fraction|PaddingMode|CudaGraphRetention)", BACKEND),
    (r"Attn|^CUDNN_(?:ATTN|MH_ATTN|SEQDATA)|WgradMode|CUDNN_WGRAD|SeqData",
     "MIOpen's multi-head attention is a Find 2.0 problem: miopenCreateMhaDescriptor and miopenSetMhaDescriptor, "
     "miopenCreateMhaProblem, then miopenFindSolutions and miopenRunSolution"),
    (r"RNN|Rnn|^CUDNN_(?:LSTM|GRU|LINEAR_INPUT|SKIP_INPUT|UNIDIRECTIONAL|BIDIRECTIONAL|FWD_MODE)|ForwardMode|"
     r"DirectionMode",
     "MIOpen's RNN API: miopenRNNDescriptor_t (miopenSetRNNDescriptor_V2), sequence tensors "
     "(miopenSeqTensorDescriptor_t), miopenRNNForward, miopenRNNBackwardSeqData and "
     "miopenRNNBackwardWeightsSeqTensor, with MIOpen's own weight layout (miopenGetRNNLayerParamOffset, ...)"),
    (r"CTC|LossNormalization|LOSS_NORMALIZATION",
     "MIOpen's CTC loss: miopenCTCLossDescriptor_t (miopenSetCTCLossDescriptor takes the data type, the blank label "
     "and whether to apply softmax), miopenGetCTCLossWorkspaceSize and miopenCTCLoss"),
    (r"FusedOps|^CUDNN_(?:FUSED|PARAM|PTR|SCALAR)_|ConvolutionBiasActivationForward",
     "MIOpen's fusion plans: miopenCreateFusionPlan with miopenCreateOpConvForward, miopenCreateOpBiasForward and "
     "miopenCreateOpActivationForward, then miopenCompileFusionPlan and miopenExecuteFusionPlan"),
    (r"BatchNormalization\w*Ex|BatchNormOps|CUDNN_BATCHNORM_OPS|Normalization(?:Forward|Backward)|NormMode|NormAlgo|"
     r"NormOps|DeriveNormTensorDescriptor|NormalizationTrainingReserveSpace|^CUDNN_NORM_",
     "MIOpen has plain batch normalization (miopenBatchNormalizationForwardTraining, ...Inference, ...Backward): "
     "the activation and addition the Ex and Normalization forms fuse are a fusion plan (miopenCreateOpBatchNorm"
     "Forward with miopenCreateOpActivationForward) or separate miopenActivationForward and miopenOpTensor calls"),
    (r"^cudnnAddTensor$",
     "miopenOpTensor with miopenTensorOpAdd computes C = op(alpha1*A, alpha2*B) + beta*C, B broadcast: "
     "miopenOpTensor(handle, miopenTensorOpAdd, &beta, cDesc, C, &alpha, aDesc, A, &zero, cDesc, C)"),
    (r"OpTensor|^CUDNN_OP_TENSOR_",
     "MIOpen's miopenOpTensor takes the operation (miopenTensorOp_t: add, mul, min, max) itself, with no descriptor "
     "and no compute type or NaN option"),
    (r"^cudnnGet(?:Filter4d|FilterNd|TensorNd)Descriptor$",
     "MIOpen has no format or filter descriptor to read: miopenGet4dTensorDescriptor, or miopenGetTensorDescriptorSize "
     "and miopenGetTensorDescriptor (lengths and strides)"),
    (r"^cudnnGetConvolutionNdForwardOutputDim$",
     "miopenGetConvolutionNdForwardOutputDim, which writes the number of dimensions through an int* instead of "
     "taking it"),
    (r"^cudnnGetActivationDescriptor$", "miopenGetActivationDescriptor gives the mode and alpha, beta and gamma (no "
     "NaN option, no coef)"),
    (r"^cudnnGetLRNDescriptor$", "miopenGetLRNDescriptor, which also gives the mode (its second argument)"),
    (r"^cudnnGetDropoutDescriptor$", "miopenGetDropoutDescriptor, which also gives use_mask, state_evo and the "
     "generator (three more out-parameters)"),
    (r"MathType|_MATH(?:_|$)",
     "MIOpen has no math type: it picks matrix-core kernels itself (miopenSetConvolutionAttribute sets "
     "MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL and MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC)"),
    (r"Determinism|DETERMINISTIC$",
     "MIOpen restricts a convolution to deterministic kernels with miopenSetConvolutionAttribute(convDesc, "
     "MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1)"),
    (r"^CUDNN_CONVOLUTION_(?:FWD|BWD_DATA|BWD_FILTER)_ALGO_",
     "MIOpen runs the algorithm its find step returns (perf.fwd_algo, .bwd_data_algo, .bwd_weights_algo); a fixed "
     "cuDNN algorithm has no MIOpen counterpart"),
    (r"^cudnnGetConvolution(?:Forward|BackwardData|BackwardFilter)Algorithm$|Preference_t|_PREFER_|_NO_WORKSPACE|"
     r"_SPECIFY_WORKSPACE_LIMIT",
     "cuDNN 7's single-algorithm query (removed in cuDNN 8); MIOpen's find step (miopenFindConvolution*Algorithm) "
     "returns the algorithms ranked by time"),
    (r"^CUDNN_CONVOLUTION$",
     "MIOpen's convolution is a cross-correlation (miopenConvolution, cuDNN's CUDNN_CROSS_CORRELATION): flip the "
     "filters"),
    (r"Version|^CUDNN_(?:MAJOR|MINOR|PATCHLEVEL|VERSION)|^cudnnGetProperty$|^CUDNN_\w+_(?:MAJOR|MINOR|PATCH)$",
     "MIOpen's version is miopenGetVersion(&major, &minor, &patch) or MIOPEN_VERSION_MAJOR/MINOR/PATCH (include "
     "<miopen/version.h>), numbered apart from cuDNN's (ROCm 6.4 ships MIOpen 3.4); a cuDNN version gate is false"),
    (r"ErrorString|RuntimeError|ErrQuery|^CUDNN_ERRQUERY|RuntimeTag|^CUDNN_STATUS_",
     "MIOpen's statuses are coarser (miopenStatusBadParm, miopenStatusNotImplemented, miopenStatusInternalError, "
     "...), and its log says more (MIOPEN_ENABLE_LOGGING=1, MIOPEN_LOG_LEVEL)"),
    (r"Callback|^cudnnDebug|^cudnnSeverity|^CUDNN_SEV_",
     "MIOpen's log is set by environment variables (MIOPEN_ENABLE_LOGGING, MIOPEN_LOG_LEVEL), with no callback"),
    (r"SpatialTf|SpatialTransformer|Sampler|^CUDNN_SAMPLER", "no MIOpen counterpart: write the grid generator and "
     "sampler as kernels"),
    (r"Divisive|DivNorm|^CUDNN_DIVNORM", "no MIOpen counterpart: MIOpen's LRN is cross-channel or within-channel"),
    (r"TensorTransform|TransformTensorEx|TransformFilter|InitTransformDest|NCHW_VECT_C|FoldingDirection|"
     r"^CUDNN_TRANSFORM_", "miopenTransformTensor copies between layouts given by strides; there is no transform "
     "descriptor (and no NCHW_VECT_C layout)"),
    (r"Reorder|REORDER|Im2Col|FoldedConv", "no MIOpen counterpart"),
    (r"^CUDNN_DATA_", "MIOpen's data types: miopenHalf, miopenFloat, miopenDouble, miopenBFloat16, miopenInt8, "
     "miopenInt32, miopenInt64 (fp8 as miopenFloat8 and miopenBFloat8 when MIOPEN_BETA_API is defined)"),
    (r"^CUDNN_POOLING_MAX_DETERMINISTIC$", "miopenPoolingMax (MIOpen promises nothing about determinism here)"),
    (r"SWISH|SwishBeta", "MIOpen has no swish activation: x * sigmoid(beta * x) with miopenActivationLOGISTIC and "
     "miopenOpTensor (miopenTensorOpMul), or a kernel"),
    (r"AlgoPerfStruct$", "miopenConvAlgoPerf_t, a typedef: write it without `struct`"),
    (r"^CUDNN_LRN_", "MIOpen's LRN has no such bound (cuDNN's: n 1 to 16, k >= 1e-5, beta >= 0.01)"),
    (r"^CUDNN_BN_MIN_EPSILON$", "MIOpen has no minimum epsilon constant (cuDNN's is 0.0)"),
    (r"Gnn|GNN|CausalConv1d|CAUSAL_CONV1D", "no MIOpen counterpart: write the kernels"),
    (r"^CUDNN_\w+_H_$|^CUDNN_(?:WARN_)?DEPRECATED|^CUDNN_DIM_MAX$|^CUDNN_MAX_(?:DEVICE_VERSION|SM_M)",
     "cuDNN's own header macros (include guards, deprecation switches, limits such as CUDNN_DIM_MAX): MIOpen has "
     "none (its tensors have 1 to 5 dimensions)"),
    (r"^cudnn(?:Context|Status|\w+Struct)$",
     "a struct or enum tag behind a cuDNN typedef: write MIOpen's typedef (miopenHandle_t, miopenStatus_t, "
     "miopenTensorDescriptor_t, ...) instead"),
    (r"_MUL_NO_ZEROS$", "no MIOpen counterpart (MIOPEN_REDUCE_TENSOR_MUL multiplies zeros too)"),
]]
FALLBACK = "port it by hand with MIOpen's API (miopen/miopen.h)"


def concept(cuda: str) -> str:
    return next((c for p, c in CONCEPTS if p.search(cuda)), FALLBACK)


# cuDNN names that other cuDNN rules handle (and report) themselves
HANDLED = set(cudnn_find.HELPERS) | {"cudnnSetConvolutionMathType"}


class CudnnWithoutMiopenCounterpart(CppRule):
    code = "CPP033"
    kind = RuleKind.MAPPING
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid("void rnn(void* h, cudnnRNNDescriptor_t d) { cudnnRNNForward(h, d, CUDNN_FWD_MODE_TRAINING); }",
                line=1,
                message="cudnnRNNDescriptor_t has no MIOpen counterpart: " + concept("cudnnRNNDescriptor_t")),
        Invalid("cudnnBackendDescriptor_t graph;\n", message="cudnnBackendDescriptor_t has no MIOpen counterpart: "
                + BACKEND),
        Invalid("void add(void* h) { cudnnAddTensor(h, &a, bD, b, &one, yD, y); }",
                message="cudnnAddTensor has no MIOpen counterpart: miopenOpTensor with miopenTensorOpAdd computes C = "
                        "op(alpha1*A, alpha2*B) + beta*C, B broadcast: miopenOpTensor(handle, miopenTensorOpAdd, "
                        "&beta, cDesc, C, &alpha, aDesc, A, &zero, cDesc, C)"),
        Invalid("#if CUDNN_MAJOR >= 8\nint v = 8;\n#endif\n", message="CUDNN_MAJOR has no MIOpen counterpart: "
                + concept("CUDNN_MAJOR")),
        # hipify-perl's hipDNN spelling of a cuDNN name without a MIOpen row
        Invalid("int m = HIPDNN_LSTM;\n", message="HIPDNN_LSTM (hipify-perl's hipDNN spelling of CUDNN_LSTM) has no "
                "MIOpen counterpart: " + concept("CUDNN_LSTM")),
        # the mapping was checked against MIOpen 6.4 only
        Invalid("#include <cudnn.h>\nint layers = 3;\n", options=OLD,
                message="cuDNN's MIOpen counterparts were checked against MIOpen 3.4 (ROCm 6.4) only, and the target "
                        "is HIP 5.2: build against the MIOpen of that ROCm release (Debian 12's HIP 5.2 packages no "
                        "MIOpen) or pass --hip-version 6.4"),
        Valid("#define CUDNN_CHECK(x) x\nvoid f(miopenHandle_t h) { CUDNN_CHECK(miopenCreate(&h)); }\n"),
        Valid("#include <cudnn.h>\ncudnnHandle_t h;\n"),
        Valid('const char* s = "cudnnRNNForward";\n'),
    ]

    def check(self, ctx):
        if not cudnn.mentions_cudnn(ctx.data):
            return
        if ctx.target_tuple < (6, 4):
            for m, name in includes(ctx):
                if cudnn.CUDNN_HEADERS.fullmatch(name.rsplit("/", 1)[-1]):
                    yield self.finding(ctx, m.start(2), m.end(2), "cuDNN's MIOpen counterparts were checked against "
                                       f"MIOpen 3.4 (ROCm 6.4) only, and the target is HIP {ctx.target}: build against "
                                       "the MIOpen of that ROCm release (Debian 12's HIP 5.2 packages no MIOpen) or pass "
                                       "--hip-version 6.4", family="cudnn")
                    break
        names, macros = ctx.packs.names, ctx.defined_macros
        dropped = cudnn_spans.dropped(ctx)
        own = {t.name for t in cudnn.named_tokens(ctx) if declares(t)}
        seen: set[str] = set()
        for token in cudnn.named_tokens(ctx):
            cuda = cudnn.canonical(token.name)
            if (token.name in seen or cuda in names or cuda in HANDLED or cuda in cudnn_calls.SHAPES
                    or token.name in macros or token.name in own or dropped.holds(token.start, token.end)):
                continue
            seen.add(token.name)
            spelled = token.name if token.name == cuda else f"{token.name} (hipify-perl's hipDNN spelling of {cuda})"
            yield self.finding(ctx, token.start, token.end, f"{spelled} has no MIOpen counterpart: {concept(cuda)}",
                               family="cudnn")
