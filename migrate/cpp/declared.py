"""The names a C++/CUDA file declares with given types (variables, parameters, fields), found from each place a
type is spelled rather than by a query over the whole tree."""
from __future__ import annotations

import re


_DECLARING = {"declaration", "parameter_declaration", "field_declaration"}
_spellings: dict[frozenset[bytes], list[tuple[bytes, re.Pattern[bytes]]]] = {}


def _type_spellings(types: frozenset[bytes]) -> list[tuple[bytes, re.Pattern[bytes]]]:
    """(first word, pattern of the whole type at that word) for each type, cached."""
    found = _spellings.get(types)
    if found is None:
        found = _spellings[types] = [(t.split()[0], re.compile(rb"(?<![\w:])" + re.escape(t).replace(rb"\ ", rb"\s+")
                                                               + rb"(?!\w)")) for t in types]
    return found


def declared_with(ctx, types: frozenset[bytes]) -> set[bytes]:
    """Names of the variables, parameters and fields declared with one of `types` (pointers, references and
    initialisers looked through), found from each place a type is spelled (cheaper than a whole-tree query)."""
    names: set[bytes] = set()
    data = ctx.data
    for first, pattern in _type_spellings(types):
        at = data.find(first)
        while at >= 0:
            m = pattern.match(data, at)  # the look-behind sees the bytes before `at`
            if m is not None:
                names |= _declarators(ctx, m.start(), m.end(), types)
            at = data.find(first, at + len(first))
    return names


def _declarators(ctx, start: int, end: int, types: frozenset[bytes]) -> set[bytes]:
    node = ctx.node_at(start, end)
    for _ in range(4):  # the type node, a qualified name or a sized type, then its declaration
        if node is None or node.type in _DECLARING:
            break
        node = node.parent
    if node is None or node.type not in _DECLARING:
        return set()
    kind = node.child_by_field_name("type")
    if kind is None or kind.start_byte != start or b" ".join(kind.text.split()) not in types:
        return set()
    names = set()
    for declarator in node.children_by_field_name("declarator"):
        while declarator.type not in ("identifier", "field_identifier") \
                and declarator.child_by_field_name("declarator") is not None:
            declarator = declarator.child_by_field_name("declarator")
        if declarator.type in ("identifier", "field_identifier") and declarator.text:
            names.add(declarator.text)  # not what error recovery made of a broken one (empty, `data_ptr<float>`)
    return names
