"""A device symbol passed to a ToSymbol/FromSymbol copy without `HIP_SYMBOL()`.

CUDA's runtime takes the symbol itself through a template overload; HIP wants its address, which
`HIP_SYMBOL(sym)` gives on every platform. The argument is wrapped once, never twice.
"""
from migrate.cpp.calls import api_arguments
from migrate.model import Edit
from migrate.rule import CppRule, Invalid, Valid

# API -> 0-based position of the symbol argument (CUDA and HIP spellings: hipify-perl output too).
SYMBOL_ARG = {
    "MemcpyToSymbol": 0, "MemcpyToSymbolAsync": 0, "MemcpyFromSymbol": 1, "MemcpyFromSymbolAsync": 1,
    "GetSymbolAddress": 1, "GetSymbolSize": 1,
}
APIS = {prefix + name: index for name, index in SYMBOL_ARG.items() for prefix in ("cuda", "hip")}


class SymbolWithoutHipSymbol(CppRule):
    code = "CPP003"
    phase = 1
    examples = [
        Invalid("void f(float* h) { cudaMemcpyToSymbol(coef, h, 64); }",
                fixed="void f(float* h) { hipMemcpyToSymbol(HIP_SYMBOL(coef), h, 64); }", line=1),
        Invalid("void g(float* h) { cudaMemcpyFromSymbol(h, coef, 64); }",
                fixed="void g(float* h) { hipMemcpyFromSymbol(h, HIP_SYMBOL(coef), 64); }"),
        Invalid("void h(void** p) { cudaGetSymbolAddress(p, table); }",
                fixed="void h(void** p) { hipGetSymbolAddress(p, HIP_SYMBOL(table)); }"),
        Invalid("void a(float* h) { hipMemcpyToSymbolAsync(coef, h, 64, 0, hipMemcpyHostToDevice, s); }",
                fixed="void a(float* h) { hipMemcpyToSymbolAsync(HIP_SYMBOL(coef), h, 64, 0, hipMemcpyHostToDevice, s); }"),
        Valid("void f(float* h) { hipMemcpyToSymbol(HIP_SYMBOL(coef), h, 64); }"),
        Valid('const char* s = "cudaMemcpyToSymbol(coef, h, 64)";'),
    ]

    def check(self, ctx):
        for token, arg in api_arguments(ctx, APIS):
            if arg.text.startswith(b"HIP_SYMBOL"):
                continue
            start, end = token.base + arg.start_byte, token.base + arg.end_byte
            yield self.finding(ctx, start, end, f"{token.name} needs HIP_SYMBOL() around its symbol argument",
                               edits=[Edit(start, start, "HIP_SYMBOL("), Edit(end, end, ")")],
                               title="Wrap the symbol in HIP_SYMBOL()")
