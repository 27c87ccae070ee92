"""What every C++ rule sees of one file: the bytes, the tree, the identifier tokens, the options."""
from __future__ import annotations

import re
from functools import cached_property

import tree_sitter

from migrate.cpp import fp8, parse
from migrate.cpp.parse import Context, Token
from migrate.context import FileContext
from migrate.options import Options
from migrate.packs import Mapping, Packs

# Identifiers that look like CUDA API even when no pack knows them: reported, never renamed.
CUDA_LOOKING = re.compile(
    r"(?:cuda[A-Z]|cu[A-Z][a-z]|CU_|CUDA_ERROR|cublas[A-Z]|CUBLAS_|cublasLt|curand[A-Z]|CURAND_|cufft[A-Z]|CUFFT_|"
    r"cusparse[A-Z]|CUSPARSE_|cusolver[A-Z]|CUSOLVER_|cudnn[A-Z]|CUDNN_|nvrtc[A-Z]|NVRTC_|nvml[A-Z]|NVML_|"
    r"__nv_|nv_bfloat|nvtx[A-Z]|NVTX_|nvtx3\b)")  # nvcuda (WMMA): CPP052
DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)


def trie_pattern(words: set[str]) -> str:
    """A regex matching any of `words`, shaped as a trie so the engine rejects most positions at once
    (a flat alternation of hundreds of literals is ten times slower)."""
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        branches = [re.escape(ch) + build(node[ch]) for ch in sorted(k for k in node if k)]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return build(trie)


def candidate_regex(packs: Packs) -> re.Pattern[bytes]:
    """One regex that finds every identifier a pack or CUDA_LOOKING could care about, by prefix."""
    prefixes = {name[:4] for name in (*packs.names, *packs.unsupported, *packs.by_hip)}
    prefixes |= {"cuda", "cuBl", "CU_", "CUDA", "cubl", "CUBL", "cura", "CURA", "cuff", "CUFF", "cusp", "CUSP",
                 "cuso", "CUSO", "cudn", "CUDN", "nvrt", "NVRT", "nvml", "NVML", "__nv", "nv_b", "nvcu"}
    prefixes.update(f"cu{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    return re.compile(rf"(?<![\w$])(?:{trie_pattern(prefixes)})\w*".encode())


_regex_cache: dict[int, re.Pattern[bytes]] = {}


def candidates_for(packs: Packs) -> re.Pattern[bytes]:
    key = id(packs)
    if key not in _regex_cache:
        _regex_cache[key] = candidate_regex(packs)
    return _regex_cache[key]


class CppContext(FileContext):
    def __init__(self, path: str, data: bytes, options: Options, packs: Packs, target: str):
        super().__init__(path, data, options, packs, target)

    def node_text(self, node: tree_sitter.Node) -> str:
        return node.text.decode("utf-8", "surrogateescape")  # as FileContext.text

    def parse_errors(self) -> list[tuple[int, int]]:
        """Only when the tree was needed: a file with nothing to migrate is not parsed at all."""
        return parse.error_lines(self.tree, limit=5) if "tree" in self.__dict__ else []

    # --- the tree --------------------------------------------------------------------------------
    @cached_property
    def tree(self) -> tree_sitter.Tree:
        return parse.parse(self.data)

    def node_at(self, start: int, end: int) -> tree_sitter.Node:
        return self.tree.root_node.descendant_for_byte_range(start, end)

    def locate(self, start: int, end: int) -> tuple[Context, tree_sitter.Node, int]:
        """Context of the token at [start, end), the node there and the base offset of its tree."""
        node = self.node_at(start, end)
        context = parse.classify(node)
        if context is not Context.MACRO:
            return context, node, 0
        base = node.start_byte
        inner = parse.parse_fragment(node.text).root_node.descendant_for_byte_range(start - base, end - base)
        inner_context = parse.classify(inner)
        if inner_context is Context.CODE:
            return Context.MACRO, inner, base
        return inner_context, inner, base

    def code_matches(self, pattern: re.Pattern[bytes], group: int = 1):
        """(match, token) for each match of `pattern` whose `group`, a name no pack needs to know, stands in code
        or a macro body (not in a comment or a string, nor in the text of a directive that is not a #define:
        #pragma, #error, a mistyped #defin)."""
        for m in pattern.finditer(self.data):
            start, end = m.span(group)
            token = Token(m.group(group).decode("ascii", "replace"), start, end, *self.locate(start, end))
            if token.context in (Context.CODE, Context.MACRO) and not (
                    token.context is Context.MACRO and parse.in_other_directive(self.node_at(start, end))):
                yield m, token

    # --- tokens ------------------------------------------------------------------------------------
    @cached_property
    def tokens(self) -> list[Token]:
        """Every identifier token that a pack knows or that looks like CUDA API, with its context."""
        known = self.packs.all_names
        looks_cuda = CUDA_LOOKING.match
        locate = self.locate
        out: list[Token] = []
        for m in candidates_for(self.packs).finditer(self.data):
            name = m.group().decode("ascii", "replace")
            if name in known or looks_cuda(name):
                start, end = m.span()
                out.append(Token(name, start, end, *locate(start, end)))
        return out

    @cached_property
    def _code_tokens(self) -> list[Token]:
        allowed = {Context.CODE, Context.MACRO}
        if self.options.translate_comments:
            allowed.add(Context.COMMENT)
        return [t for t in self.tokens if t.context in allowed]

    def code_tokens(self) -> list[Token]:
        """Tokens in code or in macro bodies (and in comments when asked to translate them)."""
        return self._code_tokens

    @cached_property
    def defined_macros(self) -> frozenset[str]:
        names = {m.group(1).decode("ascii", "replace") for m in DEFINE.finditer(self.data)}
        return frozenset(names) | self.options.project_names

    # --- versions --------------------------------------------------------------------------------
    def too_new(self, mapping: Mapping) -> bool:
        return mapping.newer_than(self.target_tuple)

    def hip_name(self, mapping: Mapping) -> str:
        """The name to write for `mapping` under the target HIP version (and, for fp8, the AMD targets)."""
        if mapping.older and self.too_new(mapping):
            return mapping.older
        if mapping.hip in fp8.FNUZ_TO_OCP and fp8.ocp(self):
            return fp8.FNUZ_TO_OCP[mapping.hip]
        return mapping.hip
