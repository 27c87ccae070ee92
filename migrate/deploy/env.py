"""Where a file sets, unsets or reads environment variables: one finder shared by the environment-variable rules
(PY020-PY039) for the four kinds of files they read, each read by a module of its own: python (`env_python`, libcst),
shell and dotenv (`env_shell`, tree-sitter-bash), docker (`env_docker`, tree-sitter-dockerfile, with the shell text
of `RUN`/`CMD`/`ENTRYPOINT`) and yaml (`env_yaml`, tree-sitter-yaml, with the shell text of `run:`/`script:` and the
keys of Kubernetes ConfigMaps and Secrets). Their docstrings list what each reads.

Each site is an `EnvSite`: the variable's name and the byte span of the name as written (inside the quotes of a
Python or YAML string), what the site does (`Access`), and for a literal value (or a read's literal default) its
text and span (inside its quotes) with the quote it is written in. A value built at run time (`"$HOME/x"`,
`f"{x}"`, `str(n)`, `valueFrom:`) gives `value=None`. Names that are not literal (`os.environ[key]`) give no site.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from migrate.model import Edit

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class Access(enum.Enum):
    SET = "set"
    UNSET = "unset"
    READ = "read"


@dataclass(frozen=True)
class EnvSite:
    name: str
    start: int  # span of the name as written
    end: int
    access: Access
    value: str | None = None  # SET: the literal value; READ: the literal default; None: none, or built at run time
    value_start: int | None = None
    value_end: int | None = None
    quote: str = ""  # the quote around the value as written ("" when bare)
    syntax: str = ""  # what the value is written in: "python", "shell", "docker" (ENV/ARG) or "yaml"
    outer: str = ""  # shell text inside a quoted YAML scalar or a JSON string (Dockerfile exec form): its quote
    also: tuple[tuple[int, int], ...] = ()  # other spans naming this variable, renamed with it (a ConfigMap key's refs)

    @property
    def literal(self) -> bool:
        return self.value is not None and self.value_start is not None


# -- rules' helpers ------------------------------------------------------------------------------------------

_SHELL_SPECIAL = re.compile(r"[\s;&|<>()$`\\\"'*?\[\]#~{}!]")


def written(site: EnvSite, text: str) -> str:
    """`text` as the new value of `site`: bare shell words that need it get double quotes (`gfx90a;gfx940`)."""
    if site.syntax in ("shell", "docker") and not site.quote and _SHELL_SPECIAL.search(text):
        quote = "'" if site.outer == '"' else '"'  # inside a double-quoted YAML scalar or JSON string, " would end it
        text = f"{quote}{text}{quote}"
    if site.outer == '"':  # YAML's double-quoted scalars and JSON strings escape \ and " alike
        text = text.replace("\\", "\\\\").replace('"', '\\"')
    return text


def rename(site: EnvSite, new_name: str, new_value: str | None = None) -> list[Edit]:
    """Edits that rename the variable at `site` and, when `new_value` is given, replace its literal value."""
    edits = [Edit(site.start, site.end, new_name)] + [Edit(start, end, new_name) for start, end in site.also]
    if new_value is not None and site.literal and new_value != site.value:
        edits.append(Edit(site.value_start, site.value_end, written(site, new_value)))
    return edits


def sets(sites: list[EnvSite], name: str) -> bool:
    return any(s.name == name and s.access is Access.SET for s in sites)


def taken(sites: list[EnvSite], site: EnvSite, target: str, sources: tuple[str, ...] = ()) -> bool:
    """Whether renaming the SET `site` to `target` would set `target` twice in this file: the file sets `target`
    already, or sets another of `sources` (all renamed to `target`) before `site`."""
    if sets(sites, target):
        return True
    return any(s.access is Access.SET and s.name in sources and s.name != site.name and s.start < site.start
               for s in sites)


def describe(site: EnvSite) -> str:
    """`X=v`, `X` (set at run time) or `X` for a read, as messages quote it."""
    if site.access is Access.SET and site.value is not None:
        return f"{site.name}={site.value}"
    return site.name


# -- the finder ----------------------------------------------------------------------------------------------

# Every variable the rules under rules/env/ look at starts with one of these.
RULE_PREFIXES = (b"CUDA_", b"NCCL_", b"NVIDIA_", b"TORCH_CUDA_", b"HSA_OVERRIDE_")


def rule_sites(ctx) -> list[EnvSite]:
    """`env_sites` for the rules: a file that names none of the variables they know is not parsed for sites."""
    if not any(prefix in ctx.data for prefix in RULE_PREFIXES):
        return []
    return env_sites(ctx)


def env_sites(ctx) -> list[EnvSite]:
    """Every site of `ctx`'s file in document order (computed once per context: several rules ask)."""
    return ctx.once("env_sites", _env_sites)


def _env_sites(ctx) -> list[EnvSite]:
    # the finders import the model from this module, so they are imported here rather than at the top
    from migrate.deploy import env_docker, env_python, env_shell, env_yaml

    kind = getattr(ctx, "kind", "")
    if kind == "python":
        found = env_python.python_sites(ctx) if ctx.wrapper is not None else []
    elif kind in ("shell", "dotenv"):
        found = list(env_shell.bash_sites(ctx.root, ctx.data, 0))
    elif kind == "docker":
        found = list(env_docker.docker_sites(ctx))
    elif kind == "yaml":
        found = list(env_yaml.yaml_sites(ctx))
    else:
        found = []
    unique = {(s.start, s.end, s.access): s for s in found}
    return sorted(unique.values(), key=lambda s: (s.start, s.end))
