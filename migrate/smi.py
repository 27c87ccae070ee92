"""nvidia-smi options and their amd-smi counterparts: data shared by the rules that meet nvidia-smi in Python
(PY011) and in shell scripts (PY063)."""
from __future__ import annotations

# Options whose output amd-smi prints the same way: rewritten where the output is only shown.
EXACT = {
    ("-L",): ["amd-smi", "list"],
    ("--list-gpus",): ["amd-smi", "list"],
    ("topo", "-m"): ["amd-smi", "topology"],
    ("topo", "--matrix"): ["amd-smi", "topology"],
}
FIELDS = {
    "memory": "amd-smi metric --mem-usage",
    "utilization": "amd-smi metric --usage",
    "temperature": "amd-smi metric --temperature",
    "power": "amd-smi metric --power",
    "clocks": "amd-smi metric --clock",
    "fan": "amd-smi metric --fan",
    "ecc": "amd-smi metric --ecc",
    "pcie": "amd-smi metric --pcie",
    "name": "amd-smi static --asic",
    "driver_version": "amd-smi version",
    "uuid": "amd-smi list",
    "pci": "amd-smi list",
    "index": "amd-smi list",
    "count": "amd-smi list",
}
SUBCOMMANDS = {
    "dmon": "amd-smi monitor",
    "pmon": "amd-smi process",
    "--query-compute-apps": "amd-smi process",
    "topo": "amd-smi topology",
    "-q": "amd-smi static and amd-smi metric",
    "--query": "amd-smi static and amd-smi metric",
    "-L": "amd-smi list",
    "--list-gpus": "amd-smi list",
}


def counterpart(options: tuple[str, ...]) -> str | None:
    """The amd-smi command nearest to nvidia-smi with `options`, None when there is none."""
    for option in options:
        if option.startswith("--query-gpu="):
            fields = option.partition("=")[2].split(",")
            found = []
            for field in fields:
                command = FIELDS.get(field.split(".")[0].strip())
                if command and command not in found:
                    found.append(command)
            if found:
                base = found[0].split(" --")[0]
                flags = [c.split(" ", 2)[2] for c in found if c.startswith(base + " --")]
                return f"{base} {' '.join(flags)}" if flags and len(flags) == len(found) else " / ".join(found)
        if option in SUBCOMMANDS:
            return SUBCOMMANDS[option]
    return None
