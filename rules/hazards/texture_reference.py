"""A texture reference: a `texture<...>` declaration, binding it, or fetching through it.

Texture references were removed in CUDA 12 and HIP on AMD does not support them (the
`hipBindTexture` family is deprecated and absent from current ROCm). Code that declares
`texture<float, 1, cudaReadModeElementType> tex;`, binds it with `cudaBindTexture`/`cudaBindTexture2D`,
unbinds it or reads it with `tex1Dfetch(tex, i)` must move to texture objects: a
`hipTextureObject_t` made with `hipCreateTextureObject`, passed to the kernel, and read with
`tex1Dfetch<T>(obj, i)`. No fix: the object has to be created and threaded through by hand.
"""
import re

from migrate.cpp import parse
from migrate.cpp.calls import arguments
from migrate.cpp.textures import FETCHES, alternatives
from migrate.edits import decoded
from migrate.model import Severity
from migrate.rule import HazardRule, Invalid, Valid

QUERY = parse.query('((template_type name: (type_identifier) @name) @type (#eq? @name "texture"))')
BIND = {"cudaBindTexture", "cudaBindTexture2D", "cudaBindTextureToArray", "cudaBindTextureToMipmappedArray",
        "cudaUnbindTexture", "cudaGetTextureReference", "cudaGetTextureAlignmentOffset"}
BIND |= {"hip" + name[4:] for name in BIND}  # already-renamed code is no better off
FETCH = re.compile(rb"\b(?:" + alternatives(FETCHES) + rb")\b")
ADVICE = "texture references are not supported by HIP: use a texture object (hipTextureObject_t, hipCreateTextureObject)"


def declared_names(declaration) -> list[str]:
    names = []
    for declarator in declaration.children_by_field_name("declarator"):
        node = declarator
        while node is not None and node.type != "identifier":
            node = node.child_by_field_name("declarator")
        if node is not None:
            names.append(node.text.decode("utf-8", "surrogateescape"))
    return names


class TextureReference(HazardRule):
    code = "HAZ009"
    severity = Severity.ERROR
    fixable = False
    examples = [
        Invalid("texture<float, 1> tex;\n", line=1,
                message=f"texture reference 'tex' declared: {ADVICE}"),
        Invalid("texture<float, 1, hipReadModeElementType> tex;\n"
                "__global__ void k(float* o) { o[threadIdx.x] = tex1Dfetch(tex, threadIdx.x); }\n"
                "void bind(float* d, size_t n) { hipBindTexture(0, tex, d, n * sizeof(float)); hipUnbindTexture(tex); }\n",
                message=f"tex1Dfetch reads texture reference 'tex': {ADVICE}"),
        Invalid("void bind(float* d, size_t n) { hipBindTexture2D(0, texRef, d, desc, 8, 8, 32); }\n",
                message=f"hipBindTexture2D binds a texture reference: {ADVICE}"),
        Valid("__global__ void k(hipTextureObject_t t, float* o) { o[0] = tex1Dfetch<float>(t, 0); }\n"),
        Valid("struct texture { int id; };\ntexture t;\n"),
        Valid('const char* s = "texture<float> tex; cudaBindTexture";\n'),
    ]

    def check(self, ctx):
        data = ctx.data
        if b"exture" not in data and b"tex" not in data:
            return
        references: set[str] = set()
        if b"texture" in data:
            for node in parse.captures(QUERY, ctx.tree.root_node).get("type", []):
                declaration = node.parent
                if declaration is None or declaration.type != "declaration":
                    continue
                for name in declared_names(declaration):
                    references.add(name)
                    yield self.finding(ctx, declaration.start_byte, declaration.end_byte,
                                       f"texture reference '{name}' declared: {ADVICE}")
        for token in ctx.code_tokens():
            if token.name in BIND:
                verb = "unbinds" if "Unbind" in token.name else "binds" if "Bind" in token.name else "uses"
                yield self.finding(ctx, token.start, token.end, f"{token.name} {verb} a texture reference: {ADVICE}")
        if not references:
            return
        for m in FETCH.finditer(data):
            node = ctx.node_at(m.start(), m.end())
            call = node.parent
            if node.type != "identifier" or call is None or call.type != "call_expression":
                continue
            args = arguments(call)
            if args and args[0].type == "identifier" and decoded(args[0].text) in references:
                name = decoded(m.group())
                yield self.finding(ctx, call.start_byte, call.end_byte,
                                   f"{name} reads texture reference '{decoded(args[0].text)}': {ADVICE}")
