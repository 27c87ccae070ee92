"""A cuBLASLt heuristic query whose returned algorithm count is never tested.

cuBLASLt code often takes `heuristicResult[0].algo` straight after `cublasLtMatmulAlgoGetHeuristic`, because on
NVIDIA GPUs some algorithm always comes back. hipBLASLt's heuristics return only the kernels it has for this GPU and
this problem: its kernels are per target (hipBLASLt 0.1 had gfx90a only, gfx94x came with 0.6, gfx110x with 0.8,
per its changelog), per type combination and epilogue, and the workspace the preference allows. Elsewhere the
count is 0 (or the call fails with HIPBLAS_STATUS_NOT_SUPPORTED) and the result array is garbage, so the next
`hipblasLtMatmul` fails or computes nothing. Reported at each heuristic call whose count argument (the 10th) is not
a variable that the function tests afterwards (in an `if`, a loop or `?:` condition, or a comparison); no fix,
since the fallback (hipblasGemmEx, an error) is the program's choice.
"""
from migrate.cpp.calls import arguments, call_of
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

CALLS = {"cublasLtMatmulAlgoGetHeuristic", "hipblasLtMatmulAlgoGetHeuristic"}
COUNT = 9  # returnAlgoCount
CONDITIONS = {"if_statement", "while_statement", "for_statement", "do_statement", "conditional_expression"}
COMPARE = {"==", "!=", "<", ">", "<=", ">=", "!"}
MESSAGE = ("hipBLASLt's heuristic returns no algorithm where it has no kernel for this GPU, type combination, epilogue "
           "or workspace limit (cuBLASLt nearly always returns one): test the returned count before using the "
           "result's algo")

CALL = ("    int found = 0;\n    hipblasLtMatmulHeuristicResult_t r;\n"
        "    hipblasLtMatmulAlgoGetHeuristic(lt, op, a, b, c, c, pref, 1, &r, &found);\n")
HEAD = ("void run(hipblasLtHandle_t lt, hipblasLtMatmulDesc_t op, hipblasLtMatrixLayout_t a, hipblasLtMatrixLayout_t b,\n"
        "         hipblasLtMatrixLayout_t c, hipblasLtMatmulPreference_t pref) {\n")


class BlasLtHeuristicUnchecked(HazardRule):
    code = "HAZ040"
    severity = Severity.WARNING
    fixable = False
    examples = [
        Invalid(HEAD + CALL + "    use(r.algo);\n}\n", line=5, message=MESSAGE),
        # the count passed on as a pointer parameter, never tested here
        Invalid("void q(hipblasLtHandle_t lt, hipblasLtMatmulDesc_t op, hipblasLtMatrixLayout_t l,\n"
                "       hipblasLtMatmulPreference_t p, hipblasLtMatmulHeuristicResult_t* r, int* n) {\n"
                "    hipblasLtMatmulAlgoGetHeuristic(lt, op, l, l, l, l, p, 4, r, n);\n}\n", line=3),
        Valid(HEAD + CALL + "    if (found == 0) return;\n    use(r.algo);\n}\n"),
        Valid(HEAD + CALL + "    if (!found) return;\n    use(r.algo);\n}\n"),
        Valid(HEAD + CALL + "    use(found > 0 ? &r.algo : nullptr);\n}\n"),
        Valid(HEAD + CALL + "    for (int i = 0; i < found; ++i) use(r.algo);\n}\n"),
        Valid(HEAD + CALL + "    check(found != 0, \"no algorithm\");\n    use(r.algo);\n}\n"),
        Valid(HEAD.replace("hipblasLt", "cublasLt") + CALL.replace("hipblasLt", "cublasLt")
              + "    if (found == 0) return;\n}\n"),
    ]

    def check(self, ctx):
        if b"AlgoGetHeuristic" not in ctx.data:
            return
        for token in ctx.code_tokens():
            if token.name not in CALLS:
                continue
            call = call_of(token)
            args = arguments(call) if call is not None else []
            if len(args) <= COUNT:
                continue
            name = _variable(args[COUNT])
            if name is None or not _tested_after(call, name):
                yield self.finding(ctx, token.base + call.start_byte, token.base + call.end_byte, MESSAGE)


def _variable(arg) -> str | None:
    """`&found` or `found` -> found (a plain variable), else None."""
    node = arg
    if node.type == "pointer_expression" and node.child_by_field_name("argument") is not None:
        node = node.child_by_field_name("argument")
    return node.text.decode("utf-8", "surrogateescape") if node.type == "identifier" else None


def _tested_after(call, name: str) -> bool:
    """Is `name` read in a condition or a comparison after `call`, in the function around it?"""
    body = call
    while body.parent is not None and body.type != "function_definition":
        body = body.parent
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "identifier" and node.start_byte > call.end_byte and node.text.decode("utf-8", "surrogateescape") == name:
            if _in_test(node, body):
                return True
        stack.extend(node.children)
    return False


def _in_test(node, top) -> bool:
    child, parent = node, node.parent
    while parent is not None and child != top:
        if parent.type in CONDITIONS and parent.child_by_field_name("condition") == child:
            return True
        if parent.type == "binary_expression" and parent.child_by_field_name("operator").type in COMPARE:
            return True
        if parent.type == "unary_expression" and parent.child_by_field_name("operator").type == "!":
            return True
        if parent.type in ("expression_statement", "compound_statement", "declaration"):
            return False
        child, parent = parent, parent.parent
    return False
