"""Modules and symbols loaded the NVIDIA way: PTX/cubin/fatbin images, NVRTC architecture options, JIT
linking of PTX, symbols named by strings.

On AMD a module is a code object (HSACO) compiled for one gfx target; HIP cannot load PTX, a cubin or a
fatbinary, and hipRTC compiles for an `--offload-arch=gfx...` target, not a compute capability. Flagged:

- a string naming a `.ptx`, `.cubin` or `.fatbin` file, or PTX source text (`.version`/`.target sm_XX`),
  in a file that loads modules (`cuModuleLoad*`, `cuLinkAdd*`): build a code object instead
  (`hipcc --genco --offload-arch=gfx90a k.hip -o k.hsaco`) and load that;
- an NVRTC option string `-arch=compute_80`, `-arch=sm_80` or `--gpu-architecture=...` in a file that uses
  NVRTC: the fix (UNSAFE: a run-time compile usually targets the GPU it runs on; without the option hipRTC
  compiles for the current device) writes `--offload-arch=` with the first `--offload-arch` target of the
  migration (by default gfx942 for HIP 6 and later, gfx90a for HIP 5);
- `nvrtcGetCUBIN`: its rename, `hiprtcGetBitcode`, returns LLVM bitcode, not a loadable code object; use
  `hiprtcGetCode`;
- `CU_JIT_INPUT_PTX`/`_CUBIN`/`_FATBINARY`/...: hipRTC's linker takes LLVM bitcode only;
- `cuModuleLoadDataEx` with JIT options: HIP ignores them, the code object is already compiled (WARNING);
- `cuModuleGetFunction`/`cuModuleGetGlobal` with a mangled `_Z...` name: hipcc mangles HIP's vector and
  half types differently; declare the kernel `extern "C"` or ask `hiprtcGetLoweredName` (WARNING);
- a symbol named by a string, `cudaMemcpyToSymbol("coef", ...)` (removed in CUDA 5, never in HIP): the fix
  passes the variable itself, SAFE when this file declares it (rule CPP003 then wraps it in `HIP_SYMBOL()`),
  otherwise UNSAFE.

The renames themselves (`cuModuleLoad` → `hipModuleLoad`, `nvrtcCompileProgram` → `hiprtcCompileProgram`)
are the mapping packs' findings, not this rule's.
"""
import re

from migrate.cpp import parse
from migrate.cpp.calls import arguments, call_of
from migrate.cpp.parse import Context
from migrate.edits import decoded
from migrate.model import Applicability, Edit, Severity
from migrate.rule import HazardRule, Invalid, Valid

LOADS = {"cuModuleLoad", "cuModuleLoadData", "cuModuleLoadDataEx", "cuModuleLoadFatBinary", "cuLinkAddData",
         "cuLinkAddFile", "cuLinkAddData_v2", "cuLinkAddFile_v2", "hipModuleLoad", "hipModuleLoadData",
         "hipModuleLoadDataEx", "hiprtcLinkAddData", "hiprtcLinkAddFile"}
LOADS_RE = re.compile(rb"\b(?:cu|hip)ModuleLoad|\b(?:cuLink|hiprtcLink)Add")
IMAGE = re.compile(rb'\.(ptx|cubin|fatbin)"')
PTX_TEXT = re.compile(r"^\s*\.version\s+\d|\.target\s+sm_\d+")
KINDS = {"ptx": "a PTX file", "cubin": "an NVIDIA cubin", "fatbin": "an NVIDIA fatbinary"}
ARCH_OPTION = re.compile(rb'"(?:-arch|--gpu-architecture)[= ]?(?:sm|compute|lto)_(\w*)"')
JIT_INPUTS = {"CU_JIT_INPUT_PTX", "CU_JIT_INPUT_CUBIN", "CU_JIT_INPUT_FATBINARY", "CU_JIT_INPUT_OBJECT",
              "CU_JIT_INPUT_LIBRARY", "CU_JIT_INPUT_NVVM"}
JIT_INPUTS |= {"HIPRTC_JIT_INPUT_" + name[len("CU_JIT_INPUT_"):] for name in JIT_INPUTS}
GET_CUBIN = {"nvrtcGetCUBIN"}
LOAD_EX = {"cuModuleLoadDataEx", "hipModuleLoadDataEx"}
BY_NAME = {"cuModuleGetFunction": 2, "hipModuleGetFunction": 2, "cuModuleGetGlobal": 3, "cuModuleGetGlobal_v2": 3,
           "hipModuleGetGlobal": 3}
# API -> position of the symbol argument (the same table as rule CPP003's, CUDA and HIP spellings).
SYMBOL_ARG = {"MemcpyToSymbol": 0, "MemcpyToSymbolAsync": 0, "MemcpyFromSymbol": 1, "MemcpyFromSymbolAsync": 1,
              "GetSymbolAddress": 1, "GetSymbolSize": 1}
SYMBOLS = {prefix + name: index for name, index in SYMBOL_ARG.items() for prefix in ("cuda", "hip")}
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
STRINGS = parse.query("[(string_literal) (concatenated_string)] @s")
DECLARED = parse.query("(init_declarator declarator: (_) @name) (declaration declarator: (_) @name)")
CODE_OBJECT = ("HIP on AMD loads only code objects (HSACO) built for a gfx target: build one with hipcc --genco "
               "--offload-arch=gfx90a and load that")
UNSAFE = (("unsafe_fixes", True),)


def string_value(node) -> str | None:
    """The text of a string literal node, without quotes; None for anything else."""
    if node.type != "string_literal":
        return None
    return "".join(c.text.decode("utf-8", "surrogateescape") for c in node.named_children)


class NvidiaModuleLoading(HazardRule):
    code = "HAZ015"
    severity = Severity.WARNING  # these build and fail when the program loads the module: not blockers
    applicability = Applicability.UNSAFE
    examples = [
        Invalid('void load(CUmodule* m) {\n  cuModuleLoad(m, "kernels.ptx");\n}\n',
                fixed='void load(hipModule_t* m) {\n  hipModuleLoad(m, "kernels.ptx");\n}\n', line=2,
                message=f"'kernels.ptx' is a PTX file: {CODE_OBJECT}"),
        Invalid('void load(hipModule_t* m, std::string dir) { hipModuleLoad(m, (dir + "/gemm.cubin").c_str()); }\n',
                message=f"'/gemm.cubin' is an NVIDIA cubin: {CODE_OBJECT}"),
        Invalid('const char* kPtx = ".version 7.0\\n.target sm_80\\n.address_size 64\\n";\n'
                "void load(hipModule_t* m) { hipModuleLoadData(m, kPtx); }\n", line=1,
                message=f"PTX source text: {CODE_OBJECT}"),
        Invalid('#define KERNEL_IMAGE "kernels.fatbin"\n'
                "void load(hipModule_t* m) { hipModuleLoad(m, KERNEL_IMAGE); }\n",
                line=1, message=f"'kernels.fatbin' is an NVIDIA fatbinary: {CODE_OBJECT}"),
        Invalid('void build(nvrtcProgram p) {\n  const char* opts[] = {"--gpu-architecture=compute_80", "-lineinfo"};\n'
                "  nvrtcCompileProgram(p, 2, opts);\n}\n",
                fixed='void build(hiprtcProgram p) {\n  const char* opts[] = {"--offload-arch=gfx942", "-lineinfo"};\n'
                      "  hiprtcCompileProgram(p, 2, opts);\n}\n",
                options=UNSAFE, line=2,
                message="NVRTC option '--gpu-architecture=compute_80' names an NVIDIA architecture: hipRTC compiles "
                        "for an AMD target (--offload-arch=gfx942), or for the current GPU when none is given"),
        Invalid('void build(nvrtcProgram p) { const char* o[] = {"-arch=sm_86"}; nvrtcCompileProgram(p, 1, o); }\n',
                fixed='void build(hiprtcProgram p) { const char* o[] = {"--offload-arch=gfx942"}; '
                      "hiprtcCompileProgram(p, 1, o); }\n",
                options=(("unsafe_fixes", True), ("offload_arch", ("gfx942",)))),
        Invalid("void get(nvrtcProgram p, char* out) { nvrtcGetCUBIN(p, out); }\n",
                fixed="void get(hiprtcProgram p, char* out) { hiprtcGetBitcode(p, out); }\n",
                message="nvrtcGetCUBIN becomes hiprtcGetBitcode, which returns LLVM bitcode, not a code object "
                        "hipModuleLoadData can load: use hiprtcGetCode"),
        Invalid("void link(hiprtcLinkState s, void* d, size_t n) {\n"
                "  hiprtcLinkAddData(s, HIPRTC_JIT_INPUT_PTX, d, n, 0, 0, 0, 0);\n}\n", line=2,
                message="HIPRTC_JIT_INPUT_PTX: hipRTC's linker takes LLVM bitcode (HIPRTC_JIT_INPUT_LLVM_BITCODE), "
                        "not PTX, cubin or fatbinary input"),
        Invalid("void load(hipModule_t* m, const void* img, hipJitOption* o, void** v) {\n"
                "  hipModuleLoadDataEx(m, img, 2, o, v);\n}\n", line=2,
                message="hipModuleLoadDataEx passes JIT options: HIP ignores them on AMD, where the code object is "
                        "already compiled"),
        Invalid('void find(hipFunction_t* f, hipModule_t m) { hipModuleGetFunction(f, m, "_Z4axpyfPK6float4Pf"); }\n',
                message="kernel looked up by the mangled name '_Z4axpyfPK6float4Pf': hipcc mangles HIP's vector "
                        "and half types differently; declare the kernel extern \"C\" or use hiprtcGetLoweredName"),
        Invalid('__constant__ float coef[16];\nvoid set(const float* h) { cudaMemcpyToSymbol("coef", h, 64); }\n',
                fixed='__constant__ float coef[16];\nvoid set(const float* h) { hipMemcpyToSymbol(coef, h, 64); }\n',
                line=2, message='symbol named by the string "coef": HIP looks symbols up by address (and CUDA has '
                                "since 5.0); pass the variable itself"),
        Valid('void load(hipModule_t* m) { hipModuleLoad(m, "kernels.hsaco"); }\n'),
        Valid('void build(hiprtcProgram p) { const char* o[] = {"--offload-arch=gfx90a"}; '
              "hiprtcCompileProgram(p, 1, o); }\n"),
        Valid('void save() { FILE* f = fopen("trace.ptx", "w"); fclose(f); }\n'),
        Valid('// cuModuleLoad(m, "kernels.ptx");\nvoid f(hipModule_t* m) { hipModuleLoad(m, "k.co"); }\n'),
        Valid('void find(hipFunction_t* f, hipModule_t m) { hipModuleGetFunction(f, m, "saxpy"); }\n'),
        Valid("void set(const float* h) { hipMemcpyToSymbol(HIP_SYMBOL(coef), h, 64); }\n"),
    ]

    def check(self, ctx):
        data = ctx.data
        if (b"ModuleLoad" in data or b"LinkAdd" in data) and LOADS_RE.search(data):
            yield from self._images(ctx)
        if b"nvrtc" in data or b"hiprtc" in data:
            yield from self._arch_options(ctx)
        declared = None
        for token in ctx.code_tokens():
            name = token.name
            if name in GET_CUBIN:
                yield self.finding(ctx, token.start, token.end, "nvrtcGetCUBIN becomes hiprtcGetBitcode, which returns "
                                   "LLVM bitcode, not a code object hipModuleLoadData can load: use hiprtcGetCode")
            elif name in JIT_INPUTS:
                yield self.finding(ctx, token.start, token.end, f"{name}: hipRTC's linker takes LLVM bitcode "
                                   "(HIPRTC_JIT_INPUT_LLVM_BITCODE), not PTX, cubin or fatbinary input")
            elif name in LOAD_EX or name in BY_NAME or name in SYMBOLS:
                call = call_of(token)
                args = arguments(call) if call is not None else []
                if name in LOAD_EX and len(args) >= 3 and args[2].text.strip() not in (b"0", b"0u"):
                    yield self.finding(ctx, token.base + call.start_byte, token.base + call.end_byte,
                                       f"{name} passes JIT options: HIP ignores them on AMD, where the code object is "
                                       "already compiled", severity=Severity.WARNING)
                elif name in BY_NAME and len(args) > BY_NAME[name]:
                    arg = args[BY_NAME[name]]
                    value = string_value(arg)
                    if value is not None and value.startswith("_Z"):
                        yield self.finding(ctx, token.base + arg.start_byte, token.base + arg.end_byte,
                                           f"kernel looked up by the mangled name '{value}': hipcc mangles HIP's vector "
                                           "and half types differently; declare the kernel extern \"C\" or use "
                                           "hiprtcGetLoweredName", severity=Severity.WARNING)
                elif name in SYMBOLS and len(args) > SYMBOLS[name] and args[SYMBOLS[name]].type == "string_literal":
                    if declared is None:
                        declared = declared_names(ctx)
                    yield from self._symbol(ctx, token, args[SYMBOLS[name]], declared)

    def _images(self, ctx):
        for m in IMAGE.finditer(ctx.data):
            context, node, base = ctx.locate(m.start(1), m.end(1))
            literal = node.parent if node.type == "string_content" else None
            if context is not Context.STRING or literal is None or literal.type != "string_literal":
                continue
            shown = string_value(literal)
            yield self.finding(ctx, base + literal.start_byte, base + literal.end_byte,
                               f"'{shown}' is {KINDS[decoded(m.group(1))]}: {CODE_OBJECT}")
        if b".target" in ctx.data or b".version" in ctx.data:
            for node in parse.captures(STRINGS, ctx.tree.root_node).get("s", []):
                if node.parent is not None and node.parent.type == "concatenated_string":
                    continue
                text = "".join(string_value(p) or "" for p in ([node] if node.type == "string_literal"
                                                               else node.named_children))
                if PTX_TEXT.search(text.replace("\\n", "\n")):
                    yield self.finding(ctx, node.start_byte, node.end_byte, f"PTX source text: {CODE_OBJECT}")

    def _arch_options(self, ctx):
        target = ctx.targets[0]
        for m in ARCH_OPTION.finditer(ctx.data):
            if ctx.locate(m.start() + 1, m.end() - 1)[0] is not Context.STRING:
                continue
            option = decoded(m.group()[1:-1])
            new = f"--offload-arch={target}"
            edits = [Edit(m.start() + 1, m.end() - 1, new)] if m.group(1) else []
            yield self.finding(ctx, m.start(), m.end(), f"NVRTC option '{option}' names an NVIDIA architecture: "
                               f"hipRTC compiles for an AMD target ({new}), or for the current GPU when none is "
                               "given", edits=edits, title=f"Use {new}")

    def _symbol(self, ctx, token, arg, declared):
        value = string_value(arg)
        if value is None:
            return
        start, end = token.base + arg.start_byte, token.base + arg.end_byte
        edits = [Edit(start, end, value)] if IDENTIFIER.fullmatch(value) else []
        grade = Applicability.SAFE if value in declared else Applicability.UNSAFE
        yield self.finding(ctx, start, end, f'symbol named by the string "{value}": HIP looks symbols up by address '
                           "(and CUDA has since 5.0); pass the variable itself", edits=edits,
                           title="Pass the variable", applicability=grade)


def declared_names(ctx) -> set[str]:
    """Every name a declaration of this file declares (arrays and pointers looked through)."""
    names = set()
    for node in parse.captures(DECLARED, ctx.tree.root_node).get("name", []):
        while node.type != "identifier" and node.child_by_field_name("declarator") is not None:
            node = node.child_by_field_name("declarator")
        if node.type == "identifier":
            names.add(node.text.decode("utf-8", "surrogateescape"))
    return names
