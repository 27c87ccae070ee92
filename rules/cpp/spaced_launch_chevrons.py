"""A kernel launch whose chevrons are written with spaces, `k<< <grid, block>> >(args)`: joined.

nvcc reads `<< <` and `>> >` as a launch's `<<<` and `>>>`; clang, which hipcc runs, does not ("expected
expression"). The 3D Gaussian splatting rasterizer, copied into many PyTorch extensions, launches its kernels this
way. The fix (safe: `<<` followed by `<` is no other C++) writes `<<<` and `>>>`, the spaces inside the
chevrons kept as they are.
"""
import re

from migrate.cpp.parse import Context
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

OPEN = re.compile(rb"<\s*<\s*<")
CLOSE = re.compile(rb">\s*>\s*>(?=\s*\()")


class SpacedLaunchChevrons(CppRule):
    code = "CPP046"
    severity = Severity.ERROR
    feeds_other_rules = True  # the joined launch is one that CPP004 rewrites and CPP002 needs an include for
    examples = [
        Invalid("void f(float* d, dim3 grid, dim3 block) {\n    render<3> << <grid, block >> > (d, 4);\n}\n",
                fixed="void f(float* d, dim3 grid, dim3 block) {\n    render<3> <<<grid, block >>> (d, 4);\n}\n",
                line=2, message="kernel launch written '<< <' ... '>> >': clang reads no launch there (nvcc does); "
                                "write '<<<' and '>>>'"),
        Invalid("void f(float* d) { k< <<(n >> 1), 64>>>(d); }", fixed="void f(float* d) { k<<<(n >> 1), 64>>>(d); }"),
        Valid("void f(float* d) { k<<<g, b>>>(d); }"),
        Valid('// a << <b> comment\nconst char* s = "<< <";\nint x = a << b;\n'),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"<" not in data:
            return
        for m in OPEN.finditer(data):
            if m.group() == b"<<<" or ctx.locate(m.start(), m.end())[0] is not Context.CODE:
                continue
            close = self._closing(data, m.end())
            if close is None:
                continue
            edits = [Edit(m.start(), m.end(), "<<<")]
            if close.group() != b">>>":
                edits.append(Edit(close.start(), close.end(), ">>>"))
            shown = m.group().decode()
            yield self.finding(ctx, m.start(), m.end(), f"kernel launch written '{' '.join(shown.split())}' ... "
                               f"'{' '.join(close.group().decode().split())}': clang reads no launch there (nvcc "
                               "does); write '<<<' and '>>>'", edits=edits, title="Join the chevrons")

    @staticmethod
    def _closing(data: bytes, at: int):
        """The `>>>` (however spaced) that closes the launch configuration starting at `at`, outside parentheses."""
        depth = 0
        i = at
        while i < len(data) and i < at + 2000:
            c = data[i:i + 1]
            if c in (b"(", b"[", b"{"):
                depth += 1
            elif c in (b")", b"]", b"}"):
                depth -= 1
                if depth < 0:
                    return None
            elif c == b">" and depth == 0:
                m = CLOSE.match(data, i)
                if m is not None:
                    return m
            elif c == b";":
                return None
            i += 1
        return None
