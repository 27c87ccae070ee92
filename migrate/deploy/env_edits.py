"""What the environment-variable rules do with a site: rename the variable (and replace its literal value, quoted as
its syntax needs), tell whether a rename would set a variable twice, and quote a site in a message."""
from __future__ import annotations

import re

from migrate.deploy.env_site import Access, EnvSite
from migrate.model import Edit


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
