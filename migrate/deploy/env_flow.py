"""Where a variable's value comes from when a file sets it from another variable: `ENV TORCH_CUDA_ARCH_LIST=${ARCH}`
after `ARG ARCH=""`, `export UV_TORCH_BACKEND="$BACKEND"` after `BACKEND=cu126`. For the environment-variable rules,
over the sites of migrate/deploy/env.py (shell scripts, Dockerfiles, YAML)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from migrate.deploy.env_site import Access, EnvSite

# the value is one reference, as the whole word (`=${ARCH}`, `="$ARCH"`, `=$ARCH pip install`)
WHOLE = re.compile(r"\s*=?\s*([\"']?)\$(\{)?([A-Za-z_][A-Za-z0-9_]*)(?(2)\})\1(?=[\s;&|)]|$)")


@dataclass(frozen=True)
class Origin:
    name: str  # the variable the value is taken from
    settings: list[EnvSite]  # its settings in the file, each a literal before the use
    reads: list[EnvSite]  # every read of it in the file, the use included


def rest(ctx, site: EnvSite) -> str:
    """The rest of the site's line after its name: how the setting is written."""
    end = ctx.data.find(b"\n", site.end)
    return ctx.text(site.end, len(ctx.data) if end < 0 else end)


def origin(ctx, sites: list[EnvSite], site: EnvSite) -> Origin | None:
    """The variable whose value the setting `site` takes whole (`=${ARCH}`, `="$ARCH"`), when the file sets it, and
    only to literals before `site`; else None."""
    match = WHOLE.match(rest(ctx, site))
    if match is None or match.group(3) == site.name:
        return None
    name = match.group(3)
    own = [s for s in sites if s.name == name]
    settings = [s for s in own if s.access is Access.SET]
    if not settings or not all(s.literal and s.start < site.start for s in settings):
        return None
    return Origin(name, settings, [s for s in own if s.access is Access.READ])


def read_only_by(ctx, found: Origin, site: EnvSite) -> bool:
    """Is the setting `site` the one place that reads the variable `found` came from?"""
    line_end = site.end + len(rest(ctx, site))
    return len(found.reads) == 1 and site.end <= found.reads[0].start <= line_end
