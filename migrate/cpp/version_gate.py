"""`#if CUDART_VERSION >= N` gates whose branch a HIP build takes cannot compile, and the file's other gates as old:
what CPP074 rewrites and HAZ018 leaves to it.

hipcc defines neither `CUDA_VERSION` nor `CUDART_VERSION`, so in a whole `#if NAME >= N` (or `>`, `<`, `<=`) the
name reads as 0 and a HIP build takes the branch written for a CUDA older than N. nvcc never compiled that branch.
Where it does not parse, or names the macro as a value (`printf("%d", CUDART_VERSION / 1000)`: undeclared under
hipcc), the build stops there; the other branch is the one nvcc compiled. The file's gates on versions up to that
one's are as stale: they are opened together, so that a HIP build takes one consistent path (cuda-samples'
simpleZeroCopy allocates its buffers behind `>= 2020` and `>= 4000` gates, and stops in a `< 4000` one). So are gates
on CUDA 10.0 or older, whatever their branches hold: every nvcc in use takes their newer branch, and HIP has the
runtime API CUDA had then; the older branch is mostly a "this CUDA is too old" exit (threadFenceReduction's calls
a function no file defines)."""
from migrate.cpp import parse
from migrate.cpp.nvcc_branch import HIP_MACROS
from migrate.cpp.nodes import int_value
from migrate.edits import decoded

VERSIONS = frozenset({"CUDA_VERSION", "CUDART_VERSION"})
NEWER = (">=", ">")
OLDER = ("<", "<=")
OLDEST = 10000  # CUDA 10.0 (2018): graphs, and all the runtime API before them, are in every HIP release
IFS = parse.query("(preproc_if condition: (binary_expression) @condition)")


def version(comparison) -> int | None:
    """N where `comparison` is a whole #if condition `NAME op N` (NAME a CUDA version macro, op >=, >, <, <=, N
    not 0) that names no HIP macro; None otherwise."""
    directive = comparison.parent
    if comparison.type != "binary_expression" or directive is None or directive.type != "preproc_if" \
            or directive.child_by_field_name("condition") != comparison:
        return None
    left = comparison.child_by_field_name("left")
    operator = comparison.child_by_field_name("operator")
    right = comparison.child_by_field_name("right")
    if left is None or left.type != "identifier" or decoded(left.text) not in VERSIONS or operator is None \
            or operator.type not in NEWER + OLDER or right is None or right.type != "number_literal":
        return None
    return int_value(decoded(right.text)) or None


def stuck(comparison) -> bool:
    """Whether the branch a HIP build takes under the gate `comparison`, where its name reads as 0, cannot compile:
    it does not parse or names a CUDA version macro in its code."""
    if version(comparison) is None:
        return False
    directive = comparison.parent
    alternative = directive.child_by_field_name("alternative")
    if comparison.child_by_field_name("operator").type in NEWER:
        taken = [alternative] if alternative is not None and alternative.type == "preproc_else" else []
    else:
        taken = [c for c in directive.named_children if c not in (comparison, alternative)]
    return any(node.has_error or _names_version(node) for node in taken)


def opened(root) -> dict[int, tuple[object, int | None]]:
    """The gates of the tree under `root` to open to hipcc, by start byte: (the condition, why). Why is None where
    its own HIP branch cannot compile, the line of the first gate whose branch cannot compile where the gate's
    version is no newer than that one's, and 0 where the version is CUDA 10.0 (OLDEST) or older: every CUDA nvcc
    is today takes the newer branch, and HIP has the runtime API CUDA had then."""
    gates = [c for c in parse.captures(IFS, root).get("condition", []) if version(c) is not None
             and not HIP_MACROS.search(c.text)]
    stuck_gates = [c for c in gates if stuck(c)]
    level = max([version(c) for c in stuck_gates], default=0)
    first = stuck_gates[0].start_point[0] + 1 if stuck_gates else 0
    chosen = {c.start_byte: (c, None) for c in stuck_gates}
    for c in gates:
        if c.start_byte not in chosen and version(c) <= max(level, OLDEST):
            chosen[c.start_byte] = (c, first if version(c) <= level else 0)
    return chosen


def condition(comparison) -> str:
    """The condition under which a HIP build takes the branch for the newer CUDA instead."""
    shown = " ".join(decoded(comparison.text).split())
    if comparison.child_by_field_name("operator").type in NEWER:
        return f"defined(__HIPCC__) || {shown}"
    return f"!defined(__HIPCC__) && {shown}"


def _names_version(node) -> bool:
    """Whether code (not a directive's condition) under `node` names CUDA_VERSION or CUDART_VERSION."""
    stack = [node]
    while stack:
        child = stack.pop()
        if child.type == "identifier" and decoded(child.text) in VERSIONS:
            return True
        if child.type not in ("preproc_if", "preproc_elif", "preproc_ifdef"):
            stack.extend(child.children)
        else:  # a nested conditional: its branches are code, its condition is not
            tested = child.child_by_field_name("condition") or child.child_by_field_name("name")
            stack.extend(c for c in child.children if c != tested)
    return False
