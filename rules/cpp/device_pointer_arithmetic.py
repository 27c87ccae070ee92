"""Arithmetic on a `CUdeviceptr`, which is an integer in CUDA and a `void*` in HIP (`hipDeviceptr_t`): written on
`char*`.

The driver API's device addresses are `unsigned long long` in CUDA, so code offsets them as numbers: `CUdeviceptr b
= base + bytes;`, `ptr += size;`. HIP's `hipDeviceptr_t` is `void*`, and arithmetic on `void*` does not compile in
C++. For a variable or parameter the file declares as `CUdeviceptr` (and as nothing else), `p + n`, `n + p` and
`p - n` become `(hipDeviceptr_t)((char*)p + n)` (the same byte address), `p += n` and `p -= n` become `p =
(hipDeviceptr_t)((char*)p + n)`, and `p - q` of two of them becomes `((char*)p - (char*)q)`, the byte distance.
Other operations on the number (masks, comparisons with integers) are left to the compiler's message.
"""
from migrate.cpp import parse
from migrate.edits import decoded
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

TYPES = frozenset({"CUdeviceptr", "CUdeviceptr_v2"})
QUERY = parse.query("[(binary_expression) (assignment_expression)] @expr")
MMAP = ("void map(CUdeviceptr base, size_t size) {\n"
        "    CUdeviceptr second = base + size;\n"
        "    second += 64;\n"
        "    size_t apart = second - base;\n"
        "    CUdeviceptr third = second + size + 32;\n}\n")


class DevicePointerArithmetic(CppRule):
    code = "CPP071"
    examples = [
        Invalid(MMAP, line=2,
                fixed="void map(hipDeviceptr_t base, size_t size) {\n"
                      "    hipDeviceptr_t second = (hipDeviceptr_t)((char*)base + size);\n"
                      "    second = (hipDeviceptr_t)((char*)second + 64);\n"
                      "    size_t apart = ((char*)second - (char*)base);\n"
                      "    hipDeviceptr_t third = (hipDeviceptr_t)((char*)second + size + 32);\n}\n",
                message="CUdeviceptr is a number in CUDA and hipDeviceptr_t a void* in HIP: the offset is written "
                        "on char*"),
        Valid("void f(hipDeviceptr_t base, size_t n) { hipDeviceptr_t p = (hipDeviceptr_t)((char*)base + n); }\n"),
        # a name the file also declares as something else, and integers
        Valid("void f(CUdeviceptr d) { int d2 = 1; { int d = 2; d2 = d + 1; } }\nvoid g(CUdeviceptr d);\n"
              "int h(int d) { return d + 1; }\n"),
    ]

    def check(self, ctx):
        if b"CUdeviceptr" not in ctx.data:
            return
        names = _pointer_names(ctx.tree.root_node)
        if not names:
            return
        message = ("CUdeviceptr is a number in CUDA and hipDeviceptr_t a void* in HIP: the offset is written on "
                   "char*")
        for node in parse.captures(QUERY, ctx.tree.root_node).get("expr", []):
            edits = _edits(node, names)
            if edits:
                yield self.finding(ctx, node.start_byte, node.end_byte, message, edits=edits,
                                   title="Offset the address on char*")


def _edits(node, names) -> list[Edit]:
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    operator = node.child_by_field_name("operator")
    if left is None or right is None or operator is None:
        return []
    op = operator.type
    is_pointer = [n.type == "identifier" and decoded(n.text) in names for n in (left, right)]
    if node.type == "assignment_expression":
        if op not in ("+=", "-=") or not is_pointer[0] or is_pointer[1]:
            return []
        sign = op[0]
        return [Edit(operator.start_byte, operator.end_byte, f"= (hipDeviceptr_t)((char*){decoded(left.text)} {sign}"),
                Edit(node.end_byte, node.end_byte, ")")]
    if op not in ("+", "-") or not any(is_pointer):
        return []
    if all(is_pointer):
        if op != "-":
            return []
        return [Edit(node.start_byte, node.start_byte, "((char*)"), Edit(right.start_byte, right.start_byte, "(char*)"),
                Edit(node.end_byte, node.end_byte, ")")]
    if is_pointer[1] and op == "-":
        return []
    if is_pointer[0]:
        top = _whole_sum(node)
        return [Edit(top.start_byte, top.start_byte, "(hipDeviceptr_t)((char*)"), Edit(top.end_byte, top.end_byte, ")")]
    return [Edit(node.start_byte, node.start_byte, "(hipDeviceptr_t)("), Edit(right.start_byte, right.start_byte, "(char*)"),
            Edit(node.end_byte, node.end_byte, ")")]


def _whole_sum(node):
    """The sum NODE starts (`p + a + b` for `p + a`): the offsets that follow it are added on char* too."""
    while node.parent is not None and node.parent.type == "binary_expression" \
            and node.parent.child_by_field_name("left") == node \
            and node.parent.child_by_field_name("operator").type in ("+", "-"):
        node = node.parent
    return node


def _pointer_names(root) -> set[str]:
    """The names the file declares as CUdeviceptr and never as anything else."""
    pointers, others = set(), set()
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.type not in ("declaration", "parameter_declaration", "field_declaration"):
            continue
        kind = node.child_by_field_name("type")
        target = pointers if kind is not None and decoded(kind.text) in TYPES else others
        for declarator in node.children_by_field_name("declarator"):
            while declarator is not None and declarator.type not in ("identifier", "field_identifier"):
                if declarator.type in ("pointer_declarator", "array_declarator", "reference_declarator",
                                       "function_declarator"):
                    target = others if target is pointers else target
                declarator = declarator.child_by_field_name("declarator") if declarator.type != "reference_declarator" \
                    else next((c for c in declarator.named_children), None)
            if declarator is not None:
                target.add(decoded(declarator.text))
    return pointers - others
