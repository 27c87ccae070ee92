"""A `case` label on a CUDA value that HIP does not have: the case is removed.

Error-string helpers switch over a library's status codes, `case CUFFT_NVRTC_FAILURE: return
"CUFFT_NVRTC_FAILURE";`, and NVIDIA's `helper_cuda.h`, copied into many projects, lists every status of cuBLAS,
cuFFT, cuSOLVER, cuSPARSE and cuRAND. A status the HIP library lacks has no name after migration, so the label
does not compile (hipFFT has no `HIPFFT_NVRTC_FAILURE`), and the whole unit fails for a value that HIP never
returns. The fix (safe) removes the case: its label, and its statements when no case falls into them (the case
before it ends in `return`, `break`, `continue`, `goto` or `throw`, or there is none); otherwise the label only,
so that the case before keeps falling into the same statements. A blank line left doubled goes with it. Only
names the mapping packs list as having no HIP counterpart are taken; names that only look like CUDA stay CPP006's.
"""
import re

from migrate.cpp.unsupported import case_label, unsupported
from migrate.edits import line_start, next_line
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

BLANKS = re.compile(rb"[ \t]*")
SPACE = re.compile(rb"\s*")
JUMPS = {"return_statement", "break_statement", "continue_statement", "goto_statement", "throw_statement"}
HEAD = """\
const char* name(cufftResult error) {
  switch (error) {
    case CUFFT_SUCCESS:
      return "success";
"""
TAIL = """\
  }
  return "<unknown>";
}
"""


def hip(text: str) -> str:
    """The example as migrated: the names with HIP counterparts renamed."""
    return (text.replace("cufftResult", "hipfftResult").replace("CUFFT_SUCCESS", "HIPFFT_SUCCESS")
            .replace("CUFFT_NOT_SUPPORTED", "HIPFFT_NOT_SUPPORTED"))


def message(name: str) -> str:
    return (f"{name} has no HIP counterpart, so `case {name}:` does not compile; HIP never returns that value: "
            "the case is removed")


class CaseLabelWithoutHipValue(CppRule):
    code = "CPP043"
    severity = Severity.WARNING
    examples = [
        Invalid(HEAD + "\n    case CUFFT_NVRTC_FAILURE:\n      return \"nvrtc\";\n\n"
                "    case CUFFT_NOT_SUPPORTED:\n      return \"not supported\";\n" + TAIL,
                fixed=hip(HEAD + "\n    case CUFFT_NOT_SUPPORTED:\n      return \"not supported\";\n" + TAIL),
                line=6, message=message("CUFFT_NVRTC_FAILURE")),
        # the last cases, two on one line, after a blank line
        Invalid(HEAD + "\n    case CUFFT_NVRTC_FAILURE: case CUFFT_NVJITLINK_FAILURE: return \"jit\";\n" + TAIL,
                fixed=hip(HEAD + TAIL)),
        # a case that another falls into keeps its statements: only the label goes
        Invalid(HEAD.replace('      return "success";\n', "      log();\n")
                + "    case CUFFT_NVRTC_FAILURE:\n      return \"shared\";\n" + TAIL,
                fixed=hip(HEAD.replace('      return "success";\n', "      log();\n") + "      return \"shared\";\n"
                          + TAIL)),
        # a case another label names (a fuzz find): only the case label goes, the statements are that label's
        Invalid(HEAD + "  done: case CUFFT_NVJITLINK_FAILURE: return \"jit\";\n" + TAIL,
                fixed=hip(HEAD + "  done: return \"jit\";\n" + TAIL)),
        # ... and one with no statements at the end of the block keeps its label on an empty statement
        Invalid(HEAD + "  done: case CUFFT_NVJITLINK_FAILURE:\n" + TAIL, fixed=hip(HEAD + "  done: ;\n" + TAIL)),
        Valid(HEAD + "    case CUFFT_NOT_SUPPORTED:\n      return \"not supported\";\n" + TAIL),
        # the project's own values, and names that only look like CUDA
        Valid("enum E { cudaMine };\nint f(E e) { switch (e) { case cudaMine: return 1; } return 0; }\n"),
        Valid("int f(int e) { switch (e) { case cudaNoSuchValue: return 1; } return 0; }\n"),
    ]

    def check(self, ctx):
        if b"case" not in ctx.data:
            return
        labels = {token.node.parent.id: token for token, known in unsupported(ctx)
                  if known is not None and case_label(token)}
        done = set()
        for token in labels.values():
            case = token.node.parent
            if case.id in done:
                continue
            if case.parent is not None and case.parent.type == "labeled_statement":
                # `done: case CUFFT_X: ...`: another label names the case, so its statements stay for that label
                done.add(case.id)
                colon = next(c for c in case.children if c.type == ":")
                start, end = _lines(ctx.data, case.start_byte, colon.end_byte, drop_blank=False)
                empty = ";" if _ends_block(case) else ""  # a label needs a statement after it
                yield self.finding(ctx, token.start, token.end, message(token.name), edits=[Edit(start, end, empty)],
                                   title="Remove the case")
                continue
            group = [case]  # the run of removed cases that follow one another
            while group[-1].next_named_sibling is not None and group[-1].next_named_sibling.id in labels:
                group.append(group[-1].next_named_sibling)
            done.update(c.id for c in group)
            for case, (start, end) in zip(group, self._extents(ctx.data, group)):
                label = labels[case.id]
                yield self.finding(ctx, label.start, label.end, message(label.name), edits=[Edit(start, end, "")],
                                   title="Remove the case")

    @staticmethod
    def _extents(data: bytes, group) -> list[tuple[int, int]]:
        """Per case of the group, what goes: the cases whole where nothing falls into them, else their labels;
        whole lines where what goes stands alone on them."""
        before = group[0].prev_named_sibling
        falls_in = before is not None and before.type == "case_statement" and (
            len(before.named_children) < 2 or before.named_children[-1].type not in JUMPS)
        if not falls_in:
            start, end = _lines(data, group[0].start_byte, group[-1].end_byte, drop_blank=True)
            cuts = [start, *(c.start_byte for c in group[1:]), end]
            return list(zip(cuts, cuts[1:]))
        out = []
        for case in group:
            colon = next(c for c in case.children if c.type == ":")
            out.append(_lines(data, case.start_byte, colon.end_byte, drop_blank=False))
        return out


def _ends_block(case) -> bool:
    """Whether a case inside a labeled statement has no statements and nothing but comments and directives follow
    it in its block, so that its label would end the block once the case goes."""
    if len(case.named_children) > 1:
        return False
    after = case.parent.next_named_sibling
    while after is not None and (after.type == "comment" or after.type.startswith("preproc")):
        after = after.next_named_sibling
    return after is None


def _lines(data: bytes, start: int, end: int, drop_blank: bool) -> tuple[int, int]:
    """[start, end) with the blanks after it, or the whole lines it covers where nothing else stands on them (and,
    with drop_blank, a blank line after them when one also comes before, or the one before them when the switch's
    closing brace comes after them)."""
    end = BLANKS.match(data, end).end()
    first = line_start(data, start)
    if data[first:start].strip() or data[end:end + 1] not in (b"\n", b"\r", b""):
        return start, end
    end = next_line(data, end)
    blank_start = line_start(data, first - 1) if first > 0 else 0
    if drop_blank and first > 0 and not data[blank_start:first].strip():
        following = next_line(data, end)
        if following > end and not data[end:following].strip():
            end = following
        elif data.startswith(b"}", SPACE.match(data, end).end()):  # the last cases: the blank line before them goes
            first = blank_start
    return first, end
