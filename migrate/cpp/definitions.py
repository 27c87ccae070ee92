"""Function definitions of a C++/CUDA file: where one stands, its declarator and its parameter types. Read by CPP045
(definitions that become one after renaming) and CPP056 (definitions HIP's headers already make)."""
from migrate.cpp import parse

DEFINITIONS = parse.query("(function_definition declarator: (_) @declarator) @function")


def at_namespace_scope(function) -> bool:
    node = function.parent
    while node is not None and (node.type in ("declaration_list", "namespace_definition", "linkage_specification")
                                or node.type.startswith("preproc_")):
        node = node.parent
    return node is not None and node.type == "translation_unit" and (
        function.parent is None or function.parent.type != "template_declaration")


def scope(function) -> tuple[bytes, ...]:
    names = []
    node = function.parent
    while node is not None:
        if node.type == "namespace_definition":
            n = node.child_by_field_name("name")
            names.append(n.text if n is not None else b"")
        node = node.parent
    return tuple(reversed(names))


def function_declarator(node):
    while node is not None and node.type != "function_declarator":
        node = node.child_by_field_name("declarator")
    return node


def parameter_types(params) -> list[str]:
    """Each parameter's type, its name left out and spaces normalised."""
    out = []
    for p in params.named_children:
        if p.type not in ("parameter_declaration", "optional_parameter_declaration"):
            out.append(" ".join(p.text.decode("utf-8", "replace").split()))
            continue
        declarator = p.child_by_field_name("declarator")
        text = p.text
        if declarator is not None:
            name = declarator
            while name.child_by_field_name("declarator") is not None:
                name = name.child_by_field_name("declarator")
            if name.type == "identifier":
                a, b = name.start_byte - p.start_byte, name.end_byte - p.start_byte
                text = text[:a] + text[b:]
        out.append(" ".join(text.decode("utf-8", "replace").split()))
    return out
