"""What the nvcc options in a Python list of compiler options become for hipcc (the table of
migrate/buildfiles/nvcc_options.py, with nvcc's fast math as the clang flags of what it means): for a list literal,
a comprehension that makes architecture options, and strings appended to a list one by one. Each result is a Change:
the span, the message and the edits of one finding."""
from __future__ import annotations

from dataclasses import dataclass, field

import libcst as cst

from migrate.buildfiles.nvcc_options import is_architecture_option, translate_option
from migrate.model import Edit, Severity
from migrate.python.index import index, quoted, string_value
from migrate.python.list_edits import Action, Item, drop_operand, fill_edits, statement_removals


@dataclass(frozen=True)
class Change:
    start: int
    end: int
    message: str
    edits: list[Edit] = field(default_factory=list)
    title: str = ""
    severity: Severity | None = None


ARCHITECTURES = ("names NVIDIA architectures: removed; PyTorch's ROCm build adds the AMD targets of PYTORCH_ROCM_ARCH "
                 "(else of the GPUs it sees: set it where the build has none), which a target written here would "
                 "override")
FAST_MATH = ("nvcc's fast math is flush-to-zero, approximate division and square root and fast intrinsics; hipcc "
             "takes the first two as -fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt (not "
             "-ffast-math, which also assumes no NaN or infinity and so breaks isfinite-based overflow checks such as "
             "GradScaler's)")


def library(word: str) -> bool:
    # -lcublas: a library, not an nvcc option (and not this rule's)
    return word.startswith("-l") and not word.startswith("-lineinfo")


def check_list(ctx, node: cst.List):
    items = []
    for element in node.elements:
        start, end = ctx.byte_span(element.value)
        value = string_value(element.value) if isinstance(element, cst.Element) else None
        built = built_head(element.value) if isinstance(element, cst.Element) and value is None else None
        items.append(Item(element, start, end, value.split() if value is not None else None, built))
    actions: list[Action] = []
    i = 0
    while i < len(items):
        if items[i].built is not None:
            action = _built(ctx, items, i)
            actions += [action] if action else []
            i += 1
        elif not items[i].words:
            i += 1
        elif len(items[i].words) > 1:
            action, lost = _several(items[i], i)
            actions += lost + ([action] if action else [])
            i += 1
        else:
            action = _one(items, i)
            if action is None:
                i += 1
            else:
                actions.append(action)
                i += action.count
    if not drop_operand(ctx, node, items, actions):
        fill_edits(ctx, node, items, actions)
    for action in actions:
        start, end = items[action.first].start, items[action.first + action.count - 1].end
        yield Change(start, end, action.message, edits=action.edits, title=action.title,
                     severity=action.severity)


def _one(items: list[Item], i: int) -> Action | None:
    """What the option in the one-word string items[i] (with its value in items[i+1]) becomes."""
    word = items[i].words[0]
    if library(word):
        return None
    following = items[i + 1] if i + 1 < len(items) else None
    if is_architecture_option(word) and "=" not in word and following is not None \
            and (following.words is None or len(following.words) == 1) and not starts_option(following):
        # `"-gencode", "arch=compute_80,code=sm_80"`, or its value built at run time (an f-string, a name)
        written = " ".join([word, display(following)])
        return Action(i, 2, f"{written} {ARCHITECTURES}", f"Remove {written}")
    words = [word]
    if following is not None and following.words and len(following.words) == 1:
        words.append(following.words[0])
    new, consumed, reason = translate(words, 0)
    written = " ".join(words[:consumed])
    if new == words[:consumed]:
        return None
    if new is None:
        return Action(i, consumed, f"{written} is an nvcc option with no AMD counterpart: {reason}; hipcc's "
                       "clang rejects it: remove it by hand", severity=Severity.WARNING)
    if not new and is_architecture_option(word):
        return Action(i, consumed, f"{written} {ARCHITECTURES}", f"Remove {written}")
    if not new:
        return Action(i, consumed, f"{written} is an nvcc option: {reason}; removed", f"Remove {written}")
    takes = "" if reason is FAST_MATH else f"; hipcc takes {' '.join(new)}"
    return Action(i, consumed, f"{written} is an nvcc option: {reason}{takes}", f"Use {' '.join(new)}", list(new))


def _several(item: Item, i: int):
    """One string holding several options: translated in place (as one string)."""
    words, out, changed, lost = item.words, [], [], []
    j = 0
    while j < len(words):
        if library(words[j]):
            out.append(words[j])
            j += 1
            continue
        new, consumed, reason = translate(words, j)
        written = " ".join(words[j:j + consumed])
        if new is None:
            lost.append(Action(i, 1, f"{written} is an nvcc option with no AMD counterpart: {reason}; hipcc's "
                                "clang rejects it: remove it by hand", severity=Severity.WARNING))
            new = words[j:j + consumed]
        elif not new and is_architecture_option(words[j]):
            changed.append(f"{written} (NVIDIA architectures: PYTORCH_ROCM_ARCH gives the AMD targets)")
        elif new != words[j:j + consumed]:
            changed.append(f"{written} ({reason})")
        out += new
        j += consumed
    if not changed:
        return None, lost
    text = " ".join(out)
    if out:
        message = f"nvcc options in {' '.join(words)!r}: {'; '.join(changed)}; hipcc takes {text!r}"
        return Action(i, 1, message, f"Use {text!r}", [text]), lost
    message = f"nvcc options in {' '.join(words)!r}: {'; '.join(changed)}; removed"
    return Action(i, 1, message, f"Remove {' '.join(words)!r}"), lost


def _built(ctx, items: list[Item], i: int) -> Action | None:
    """An option made at run time (`f"-gencode=arch=compute_{cc},code=sm_{cc}"`, `"-ccbin={}".format(cxx)`,
    `"-arch=sm_%d" % cc`): removed when clang needs none of it, else reported by what its literal start says."""
    words = items[i].built.split()
    if not words:
        return None
    option = words[0].split("=", 1)[0]
    shown = display(items[i])
    if is_architecture_option(option):
        return Action(i, 1, f"{shown} {ARCHITECTURES}", f"Remove {shown}")
    dummy = [option + "=x"] if "=" in words[0] else [option, "x"]  # the value does not matter here
    new, consumed, reason = translate(dummy, 0)
    if new == dummy[:consumed]:
        return None
    if new == []:
        return Action(i, 1, f"{shown} is an nvcc option built at run time: {reason}; removed", f"Remove {shown}")
    if new is None:
        return Action(i, 1, f"{shown} is an nvcc option with no AMD counterpart: {reason}; hipcc's clang rejects "
                       "it: remove it by hand", severity=Severity.WARNING)
    return Action(i, 1, f"{shown} is an nvcc option built at run time: {reason}; rewrite it by hand for hipcc",
                   severity=Severity.WARNING)


def check_comprehension(ctx, node: cst.ListComp):
    """`[f"-gencode=arch=compute_{a},code=sm_{a}" for a in archs]`: architecture options made one per element;
    the comprehension is removed with the `+` that joins it, or becomes `[]`."""
    head = built_head(node.elt)
    words = head.split() if head else []
    if not words or not is_architecture_option(words[0].split("=", 1)[0]):
        return
    start, end = ctx.byte_span(node)
    shown = ctx.text(start, end)
    parent = index(ctx).parent(node)
    if isinstance(parent, cst.BinaryOperation) and isinstance(parent.operator, cst.Add):
        if parent.right is node:
            edit = Edit(ctx.byte_span(parent.left)[1], end, "")
        else:
            edit = Edit(start, ctx.byte_span(parent.right)[0], "")
    else:
        edit = Edit(start, end, "[]")
    yield Change(start, end, f"{shown} {ARCHITECTURES}", edits=[edit], title="Remove the NVIDIA "
                 "architecture options")


def check_appended(ctx, calls: list[cst.Call]):
    """`flags.append("--use_fast_math")`: a one-for-one option is replaced; an architecture option (with the
    `flags.append("arch=...")` after `flags.append("-gencode")`) and an option clang does not need are removed with
    their statements; anything else is reported."""
    idx = index(ctx)
    removed: list[tuple[cst.Call, str, str]] = []  # (call, what, message)
    pending = None  # a "-gencode" appended alone: its value is the next append to the same list
    for call in sorted(calls, key=lambda c: ctx.byte_span(c)[0]):
        node = call.args[0].value
        value = string_value(node)
        head = value if value is not None else built_head(node)
        words = head.split() if head else []
        owner = call.func.value.value
        if pending is not None and pending[1] == owner:
            removed.append((call, display_node(ctx, node), pending[2]))
            pending = None
            continue
        pending = None
        if not words or any(library(w) for w in words):
            continue
        start, end = ctx.byte_span(node)
        shown = display_node(ctx, node)
        option = words[0].split("=", 1)[0] if value is None else words[0]
        if is_architecture_option(option):
            message = f"{shown} {ARCHITECTURES}"
            removed.append((call, shown, message))
            if "=" not in words[0] and len(words) == 1 and isinstance(idx.parent(call), cst.Expr):
                pending = (call, owner, message)  # a statement of its own: its value is the next one
            continue
        if value is None:
            new, _, reason = translate([option + "=x"] if "=" in words[0] else [option, "x"], 0)
            if new == []:
                removed.append((call, shown, f"{shown} is an nvcc option built at run time: {reason}; removed"))
            elif new is None:
                yield Change(start, end, f"{shown} is an nvcc option with no AMD counterpart: {reason}; "
                             "hipcc's clang rejects it: remove it by hand", severity=Severity.WARNING)
            continue
        new, consumed, reason = translate(words, 0)
        if new == words[:consumed]:
            continue
        if new is None:
            yield Change(start, end, f"{value} is an nvcc option with no AMD counterpart: {reason}; "
                         "hipcc's clang rejects it: remove it by hand", severity=Severity.WARNING)
        elif not new and consumed == len(words):
            removed.append((call, shown, f"{value} is an nvcc option: {reason}; removed"))
        elif len(new) == 1 and consumed == len(words):
            yield Change(start, end, f"{value} is an nvcc option: {reason}; hipcc takes {new[0]}",
                         edits=[Edit(start, end, quoted(node, new[0]))], title=f"Use {new[0]}")
        else:
            what = f"hipcc takes {' '.join(new)}" if new else "clang does not need it"
            yield Change(start, end, f"{value} is an nvcc option appended to nvcc's options: {reason}; "
                         f"{what}: edit this call by hand", severity=Severity.WARNING)
    edits = statement_removals(ctx, idx, [call for call, _, _ in removed])
    for call, shown, message in removed:
        start, end = ctx.byte_span(call)
        mine = edits.get(call)
        if mine is None:  # not a statement of its own (`x = flags.append(...)`): left for a hand edit
            yield Change(start, end, f"{message}: remove this call by hand", severity=Severity.WARNING)
        else:
            yield Change(start, end, message, edits=mine, title=f"Remove the append of {shown}")


def translate(words: list[str], i: int):
    """`translate_option`, with `--use_fast_math` as the clang flags of what nvcc's means (not -ffast-math)."""
    if words[i].lstrip("-") in ("use_fast_math", "use-fast-math"):
        return ["-fgpu-flush-denormals-to-zero", "-fno-hip-fp32-correctly-rounded-divide-sqrt"], 1, FAST_MATH
    return translate_option(words, i)


def starts_option(item: Item) -> bool:
    """Whether an element is an option of its own (starts with a dash)."""
    head = " ".join(item.words) if item.words else (item.built or "")
    return head.startswith("-")


def display(item: Item) -> str:
    return " ".join(item.words) if item.words else (item.built or "") + "..."


def display_node(ctx, node: cst.CSTNode) -> str:
    value = string_value(node)
    return value if value is not None else ctx.text(*ctx.byte_span(node))


def built_head(node: cst.BaseExpression) -> str | None:
    """The literal start of a string made at run time: an f-string's text before its first `{}`, the template of
    `"...".format(...)` or `"..." % x` up to its first placeholder, the left string of `"..." + x`; None for anything
    else (a plain literal included)."""
    if isinstance(node, cst.FormattedString):
        first = node.parts[0] if node.parts else None
        return first.value if isinstance(first, cst.FormattedStringText) else ""
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "format":
        template = string_value(node.func.value)
        return template.split("{", 1)[0] if template is not None else None
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, (cst.Modulo, cst.Add)):
        left = string_value(node.left)
        if left is None:
            return built_head(node.left)
        return left.split("%", 1)[0] if isinstance(node.operator, cst.Modulo) else left
    return None


