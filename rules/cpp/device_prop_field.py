"""A field of `cudaDeviceProp` that the target HIP's `hipDeviceProp_t` does not have.

The type is renamed (hipDeviceProp_t) but its fields are not the same: HIP 5.2 and 5.7 lack `deviceOverlap`,
`asyncEngineCount`, `sharedMemPerMultiprocessor`, `persistingL2CacheMaxSize` and 44 others, which HIP's
headers add between 5.7 and 6.4; a few (`mpsEnabled`, `hostNumaId`, ...) no release inspected has. Reading such
a field does not build. rules/data/device_prop.toml lists them, generated from the headers by
scripts/gen_device_prop.py. A field is checked where the object is a variable or parameter the file declares as
a `cudaDeviceProp` (or `hipDeviceProp_t`), its pointer or an array of them. Reported, not fixed: the value has
to come from somewhere else (hipDeviceGetAttribute, a constant for AMD) or the target HIP raised.
"""
import re
import tomllib
from functools import lru_cache

from migrate.cpp import parse
from migrate.edits import decoded
from migrate.model import Severity
from migrate.packs import rules_root, version_tuple
from migrate.rule import CppRule, Invalid, Valid

TYPES = {b"cudaDeviceProp", b"hipDeviceProp_t"}
OLD = (("hip_version", "5.2"),)
NEW = (("hip_version", "6.4"),)


@lru_cache(maxsize=1)
def field_pattern() -> re.Pattern[bytes]:
    """`.field` or `->field` for each field the table lists."""
    names = "|".join(sorted(missing_fields()[0]))
    return re.compile(rf"(?:\.|->)\s*({names})\b".encode())


@lru_cache(maxsize=1)
def missing_fields() -> tuple[dict[str, str], str]:
    """({field: first inspected HIP release that has it, "" for none}, the newest release inspected)."""
    data = tomllib.loads((rules_root() / "data" / "device_prop.toml").read_text(encoding="utf-8"))
    return {name: row.get("since", "") for name, row in data["fields"].items()}, data["inspected"]["releases"][-1]


class DevicePropField(CppRule):
    code = "CPP011"
    severity = Severity.WARNING
    fixable = False
    examples = [
        # (the examples are written with HIP's names: cudaDeviceProp is renamed to hipDeviceProp_t around them)
        Invalid("int overlap(int d) { hipDeviceProp_t p; hipGetDeviceProperties(&p, d); return p.deviceOverlap; }",
                line=1, options=OLD,
                message="cudaDeviceProp field deviceOverlap is not in HIP 5.2's hipDeviceProp_t (the first HIP "
                        "inspected that has it is 6.4): read it another way (hipDeviceGetAttribute) or target HIP 6.4"),
        Invalid("void show(const hipDeviceProp_t* props, int i) {\n  printf(\"%d\", props[i].asyncEngineCount);\n"
                "  printf(\"%d\", props->mpsEnabled);\n}\n", line=3, options=NEW,
                message="cudaDeviceProp field mpsEnabled is not in HIP 6.4's hipDeviceProp_t (nor in any HIP "
                        "inspected, up to 6.4): read it another way (hipDeviceGetAttribute) or drop it"),
        Valid("int overlap(hipDeviceProp_t p) { return p.deviceOverlap; }", options=NEW),
        Valid("int sm(hipDeviceProp_t p) { return p.multiProcessorCount + p.warpSize; }", options=OLD),
        Valid("struct Mine { int deviceOverlap; };\nint f(Mine m) { return m.deviceOverlap; }", options=OLD),
        Valid("int f(hipDeviceProp_t p) { return p.deviceOverlap$x; }", options=OLD),  # a longer name (a fuzz find)
    ]

    def check(self, ctx):
        if b"DeviceProp" not in ctx.data:
            return
        fields, newest = missing_fields()
        reads = [m for m in field_pattern().finditer(ctx.data)]  # the text first: most files read no such field
        if not reads:
            return
        props = parse.declared_names(ctx.tree.root_node, TYPES)
        for m in reads:
            field = ctx.node_at(m.start(1), m.end(1))
            parent = field.parent
            if field.type != "field_identifier" or parent is None or parent.type != "field_expression":
                continue
            obj = parse.element_base(parent.child_by_field_name("argument"))  # p, props[i], *pp
            name = decoded(field.text)
            if obj is None or obj.type != "identifier" or obj.text not in props or name not in fields:
                continue  # (a longer name the pattern matched the start of: `deviceOverlap$`, a fuzz find)
            since = fields[name]
            if since and version_tuple(since) <= ctx.target_tuple:
                continue
            where = (f"the first HIP inspected that has it is {since}" if since else
                     f"nor in any HIP inspected, up to {newest}")
            advice = f"target HIP {since}" if since else "drop it"
            yield self.finding(ctx, field.start_byte, field.end_byte,
                               f"cudaDeviceProp field {name} is not in HIP {ctx.target}'s hipDeviceProp_t ({where}): "
                               f"read it another way (hipDeviceGetAttribute) or {advice}")

