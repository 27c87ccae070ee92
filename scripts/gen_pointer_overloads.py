#!/usr/bin/env python3
"""List CUDA runtime functions whose `T**` template overload (cuda_runtime.h) has no HIP counterpart: the table of
rule CPP075 (rules/cpp/typed_out_pointer.py). Reads the installed CUDA headers and a HIP root's hip_runtime_api.h,
and the runtime pack for the HIP names.

    python scripts/gen_pointer_overloads.py [--cuda /usr/local/cuda/include] [--hip /usr/include/hip]
"""
import argparse
import re
import tomllib
from pathlib import Path

TEMPLATE = r"template\s*<[^>]*>\s*(?:static\s+)?(?:__inline__\s+|inline\s+)?(?:__host__\s+)?(?:CUDART_DEVICE\s+)?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuda", default="/usr/local/cuda/include")
    parser.add_argument("--hip", default="/usr/include/hip")
    args = parser.parse_args()
    cuda = (Path(args.cuda) / "cuda_runtime.h").read_text()
    hip = (Path(args.hip) / "hip_runtime_api.h").read_text()
    pack = tomllib.loads((Path(__file__).resolve().parents[1] / "rules/mappings/runtime.toml").read_text())
    rows = pack.get("names", pack)
    hip_templates = set(re.findall(TEMPLATE + r"hipError_t\s+(hip\w+)\s*\(", hip))
    for name, params in sorted(set(re.findall(TEMPLATE + r"cudaError_t\s+(?:CUDARTAPI\s+)?(cuda\w+)\s*\(([^)]*)\)",
                                              cuda))):
        position = next((i for i, p in enumerate(params.split(",")) if re.search(r"\bT\s*\*\s*\*", p)), None)
        row = rows.get(name)
        target = row.get("hip") if isinstance(row, dict) else None
        if position is not None and target is not None and target not in hip_templates:
            print(f"{name} -> {target}: argument {position}")


if __name__ == "__main__":
    main()
