"""CUB's warp-transpose load or store for a block whose size is not a multiple of 64: hipCUB needs whole wavefronts.

`BLOCK_LOAD_WARP_TRANSPOSE` and `BLOCK_STORE_WARP_TRANSPOSE` (and their `_TIMESLICED` forms) move a warp-striped
arrangement through shared memory a warp at a time, so CUB requires the block to be whole warps of 32 threads.
hipCUB's (rocPRIM's) require whole wavefronts, and a wavefront is 64 threads on the MI-series GPUs: a 32- or
96-thread block stops the build with rocPRIM's "BlockSize must be a multiple of hardware warpsize" (HeCBench's
blockScan). The plain transpose (`BLOCK_LOAD_TRANSPOSE`, `BLOCK_STORE_TRANSPOSE`) gives each thread the same items
in the same blocked arrangement, with no such requirement. In a `BlockLoad<...>`/`BlockStore<...>` whose block size
(its second template argument, times the fifth and sixth where given) is a literal, the algorithm becomes the plain
transpose where that size is not a multiple of 64 and stays otherwise; where the size is a name, the argument
chooses at compile time, `(SIZE) % 64 == 0 ? ..._WARP_TRANSPOSE : ..._TRANSPOSE`. Elsewhere (a constant named
first and used later) it is reported.
"""
import re

from migrate.cpp import parse
from migrate.model import Edit, Severity
from migrate.rule import CppRule, Invalid, Valid

NAME = re.compile(rb"(?<![\w$])(BLOCK_(LOAD|STORE)_WARP_TRANSPOSE(?:_TIMESLICED)?)\b")
TEMPLATES = re.compile(r"(?:\w+::)*Block(Load|Store)$")
KERNEL = ("#include <cub/cub.cuh>\n"
          "template <int BLOCK_THREADS>\n"
          "__global__ void scan(const int* in, int* out) {\n"
          "    typedef cub::BlockLoad<int, BLOCK_THREADS, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;\n"
          "    __shared__ typename Load::TempStorage temp;\n"
          "    int items[4];\n"
          "    Load(temp).Load(in, items);\n"
          "    out[threadIdx.x] = items[0] + items[3];\n}\n"
          "template __global__ void scan<96>(const int*, int*);\n"
          "template __global__ void scan<128>(const int*, int*);\n")


def _message(name: str, plain: str) -> str:
    return (f"{name} needs a block of whole wavefronts in hipCUB, 64 threads on MI-series GPUs; {plain} gives the "
            "same blocked arrangement for any block size")


class WarpTransposeBlockSize(CppRule):
    code = "CPP062"
    examples = [
        Invalid(KERNEL, line=4,
                fixed=KERNEL.replace(
                    "cub::BLOCK_LOAD_WARP_TRANSPOSE", "(BLOCK_THREADS) % 64 == 0 ? hipcub::BLOCK_LOAD_WARP_TRANSPOSE : "
                    "hipcub::BLOCK_LOAD_TRANSPOSE").replace("cub::BlockLoad", "hipcub::BlockLoad"),
                message=_message("BLOCK_LOAD_WARP_TRANSPOSE", "BLOCK_LOAD_TRANSPOSE")),
        Invalid("#include <cub/cub.cuh>\nusing namespace cub;\n"
                "typedef BlockStore<int, 32, 4, BLOCK_STORE_WARP_TRANSPOSE> Store;\n", line=3,
                fixed="#include <cub/cub.cuh>\nusing namespace hipcub;\n"
                      "typedef BlockStore<int, 32, 4, BLOCK_STORE_TRANSPOSE> Store;\n"),
        # a block of whole wavefronts keeps the warp transpose
        Valid("#include <cub/cub.cuh>\ntypedef cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;\n"),
        # a constant named first and used later: reported, unfixed
        Invalid("#include <cub/cub.cuh>\nconstexpr cub::BlockLoadAlgorithm kAlgo = cub::BLOCK_LOAD_WARP_TRANSPOSE;\n",
                line=2,
                fixed="#include <cub/cub.cuh>\nconstexpr hipcub::BlockLoadAlgorithm kAlgo = "
                      "hipcub::BLOCK_LOAD_WARP_TRANSPOSE;\n"),
    ]

    def check(self, ctx):
        if b"WARP_TRANSPOSE" not in ctx.data:
            return
        for m in NAME.finditer(ctx.data):
            if ctx.locate(m.start(1), m.end(1))[0] not in (parse.Context.CODE, parse.Context.USER_SCOPE):
                continue
            name = m.group(1).decode()
            plain = name.replace("_WARP_TRANSPOSE", "_TRANSPOSE")
            start = m.start(1)
            node = ctx.node_at(m.start(1), m.end(1))
            argument = node
            while argument.parent is not None and argument.parent.type in ("qualified_identifier", "type_descriptor"):
                argument = argument.parent
            size = _block_size(argument, m.group(2).decode())
            if size is None:
                yield self.finding(ctx, start, m.end(1), _message(name, plain) + ": use it where the block is not a "
                                   "multiple of 64 threads", severity=Severity.WARNING)
                continue
            if size.isdigit() and int(size) % 64 == 0:
                continue
            qualified = ctx.data[argument.start_byte:argument.end_byte].decode()
            prefix = qualified[:len(qualified) - len(name)]
            # the qualifier (cub::) is renamed by the packs at its own token; the new text names hipCUB's
            hip_prefix = "hipcub::" if prefix.endswith("cub::") else prefix
            edits = ([Edit(start, m.end(1), plain)] if size.isdigit()
                     else [Edit(argument.start_byte, argument.start_byte, f"({size}) % 64 == 0 ? "),
                           Edit(m.end(1), m.end(1), f" : {hip_prefix}{plain}")])
            yield self.finding(ctx, start, m.end(1), _message(name, plain), edits=edits,
                               title=f"Use {plain} where the block is not whole wavefronts")


def _block_size(argument, which: str) -> str | None:
    """The block size of the BlockLoad/BlockStore whose algorithm argument this is: the second template argument,
    times the fifth and sixth where given; None where the name is not such an argument."""
    arguments = argument.parent
    if arguments is None or arguments.type != "template_argument_list" or arguments.parent is None:
        return None
    template = arguments.parent.child_by_field_name("name")
    kind = TEMPLATES.search(template.text.decode()) if template is not None else None
    if kind is None or kind.group(1).upper() != which:
        return None
    args = [a for a in arguments.named_children if a.type != "comment"]
    if len(args) < 4 or (args[3].start_byte, args[3].end_byte) != (argument.start_byte, argument.end_byte):
        return None
    dims = [args[1].text.decode()] + [a.text.decode() for a in args[4:6]]
    if all(d.isdigit() for d in dims):
        total = 1
        for d in dims:
            total *= int(d)
        return str(total)
    return " * ".join(f"({d})" if not re.fullmatch(r"\w+", d) else d for d in dims)
