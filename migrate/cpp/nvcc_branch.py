"""`#ifdef __NVCC__` branches that alone define functions a HIP build calls: what HAZ018 reports and CPP066 opens to
hipcc."""
import re

from migrate.cpp.project_names import is_header
from migrate.edits import decoded

HIP_MACROS = re.compile(rb"\b(?:__HIPCC__|__HIP__|__HIP_PLATFORM_AMD__|__HIP_PLATFORM_HCC__|__HIP_DEVICE_COMPILE__)\b")


def branch(ctx, directive) -> tuple[list[str], bool]:
    """For an `#ifdef __NVCC__` DIRECTIVE: the functions only it defines that a HIP build would call, and whether
    CPP066 opens it to hipcc (it has no `#else` or `#elif` to stand for them; HAZ018 reports the others). ([], False)
    for any other directive."""
    name = directive.child_by_field_name("name")
    if directive.type != "preproc_ifdef" or decoded(directive.children[0].text) != "#ifdef" or name is None \
            or decoded(name.text) != "__NVCC__":
        return [], False
    lost = _lost_functions(ctx, directive)
    return lost, bool(lost) and directive.child_by_field_name("alternative") is None


def _lost_functions(ctx, directive) -> list[str]:
    """The functions an `#ifdef __NVCC__` branch defines that its `#else` does not, where a HIP build would call one:
    in a header, any (its includers call them); elsewhere, those the rest of the file names."""
    alternative = directive.child_by_field_name("alternative")
    kept = set(defined(alternative)) if alternative is not None else set()
    names = [n for n in defined(directive, skip=alternative) if n not in kept]
    if not names or is_header(ctx.path):
        return names
    outside = ctx.data[:directive.start_byte] + ctx.data[directive.end_byte:]
    return [n for n in names if re.search(rb"(?<![\w$])" + re.escape(n.encode()) + rb"\s*(?:<[^;{}]*>\s*)?\(", outside)]


def defined(node, skip=None) -> list[str]:
    """Names of the functions defined directly in a conditional branch (not in a nested one, nor in SKIP)."""
    names = []
    for child in node.named_children:
        if skip is not None and (child.start_byte, child.end_byte) == (skip.start_byte, skip.end_byte):
            continue
        if child.type == "template_declaration":
            child = next((c for c in child.named_children if c.type == "function_definition"), None)
        if child is None or child.type != "function_definition":
            continue
        declarator = child.child_by_field_name("declarator")
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        name = declarator.child_by_field_name("declarator") if declarator is not None else None
        if name is not None and name.type in ("identifier", "field_identifier"):
            names.append(decoded(name.text))
    return names
