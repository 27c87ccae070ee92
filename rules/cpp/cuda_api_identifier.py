"""A CUDA API identifier that a mapping pack renames to its HIP counterpart.

The packs under rules/mappings/ are data; this rule applies them token by token. Only identifier tokens
in code and in macro bodies are renamed: never text inside string literals or comments (unless
`--translate-comments`), never identifiers that merely contain a CUDA name (`my_cudaMalloc`), never
members (`obj.cudaMalloc`) or names declared in or qualified by a user namespace (`mine::cudaMalloc`).
Each finding carries the code of the pack that mapped it (MAP001 runtime, MAP006 cuBLAS, ...). The arguments of a
cuDNN call whose MIOpen counterpart takes other arguments are written whole by CPP030/CPP031, renames included:
their identifiers are left to those rules.
"""
from migrate.cpp import cudnn, cudnn_spans
from migrate.model import Edit, RuleKind
from migrate.rule import CppRule, Invalid, Valid


class CudaApiIdentifier(CppRule):
    code = "MAP000"
    kind = RuleKind.MAPPING
    examples = [
        Invalid("cudaMalloc(&p, n);", fixed="hipMalloc(&p, n);", line=1),
        Invalid("cudaStream_t s;\ncudaStreamCreate(&s);", fixed="hipStream_t s;\nhipStreamCreate(&s);"),
        Invalid("#define CHECK(x) if ((x) != cudaSuccess) abort()",
                fixed="#define CHECK(x) if ((x) != hipSuccess) abort()"),
        Invalid("void f() { ::cudaFree(p); }", fixed="void f() { ::hipFree(p); }"),
        Invalid("cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &a, A, m, B, k, &b, C, m);",
                fixed="hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &a, A, m, B, k, &b, C, m);"),
        Invalid("// cudaFree below\ncudaFree(p);", fixed="// hipFree below\nhipFree(p);",
                options=(("translate_comments", True),)),
        Valid('const char* s = "cudaMalloc failed";'),
        Valid("// call cudaMalloc first\nint x;"),
        Valid("int my_cudaMalloc(void**, int);\nint y = my_cudaMalloc(0, 0);"),
        Valid("namespace mine { int cudaMalloc(void**, int); }\nint z = mine::cudaMalloc(0, 0);"),
        # PyTorch's own at::cuda::cub namespace: neither its definition nor its qualified uses are CUB's
        Valid("namespace at { namespace cuda { namespace cub { void scan(); } } }\n"
              "void f() { at::cuda::cub::scan(); }\nnamespace at::cuda::cub { void sort(); }\n"),
        Invalid("void g() { ::cub::WarpReduce<int> w; }", fixed="void g() { ::hipcub::WarpReduce<int> w; }"),
        Valid("struct S { int cudaFree; };\nint g(S s) { return s.cudaFree; }"),
        Valid("#define MSG \"cudaMalloc\"\n"),
        Valid("hipMalloc(&p, n);"),
        # a row's `older` name for a target before its `since`: bfloat16 is __hip_bfloat16 from HIP 5.7
        Invalid("__nv_bfloat16 h; nv_bfloat162 p;", fixed="__hip_bfloat16 h; __hip_bfloat162 p;",
                options=(("hip_version", "6.2"),)),
        Invalid("__nv_bfloat16 h; nv_bfloat16 g;", fixed="hip_bfloat16 h; hip_bfloat16 g;",
                options=(("hip_version", "5.2"),)),
    ]

    def check(self, ctx):
        names = ctx.packs.names
        renames: dict[str, tuple] = {}  # name -> (mapping, HIP name, message, title): tens of uses per name
        claimed = cudnn_spans.claimed(ctx) if cudnn.mentions_cudnn(ctx.data) else None
        for token in ctx.code_tokens():
            name = token.name
            known = renames.get(name)
            if known is None:
                mapping = names.get(name)
                new = ctx.hip_name(mapping) if mapping is not None else name
                known = renames[name] = (mapping, new, f"{name} is {new} in HIP", f"Rename to {new}")
            mapping, new, message, title = known
            if new == name or claimed is not None and claimed.holds(token.start, token.end):
                continue
            yield self.finding(ctx, token.start, token.end, message, edits=(Edit(token.start, token.end, new),),
                               title=title, family=mapping.family, code=mapping.code, matched=name)
