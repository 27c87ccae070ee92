"""Where a file sets, unsets or reads environment variables: one finder shared by the environment-variable rules
(PY020-PY039) for the four kinds of files they read, each read by a module of its own: python (`env_python`, libcst),
shell and dotenv (`env_shell`, tree-sitter-bash), docker (`env_docker`, tree-sitter-dockerfile, with the shell text
of `RUN`/`CMD`/`ENTRYPOINT`) and yaml (`env_yaml`, tree-sitter-yaml, with the shell text of `run:`/`script:` and the
keys of Kubernetes ConfigMaps and Secrets). Their docstrings list what each reads; the sites
are `EnvSite`s (migrate/deploy/env_site.py), and migrate/deploy/env_edits.py holds what the rules do with them.
"""
from __future__ import annotations

from migrate.deploy import env_docker, env_python, env_shell, env_yaml
from migrate.deploy.env_site import EnvSite

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
