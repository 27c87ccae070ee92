"""An environment-variable site: where a file sets, unsets or reads one variable (migrate/deploy/env.py finds them).

Each site is an `EnvSite`: the variable's name and the byte span of the name as written (inside the quotes of a
Python or YAML string), what the site does (`Access`), and for a literal value (or a read's literal default) its
text and span (inside its quotes) with the quote it is written in. A value built at run time (`"$HOME/x"`,
`f"{x}"`, `str(n)`, `valueFrom:`) gives `value=None`. Names that are not literal (`os.environ[key]`) give no site.
"""
from __future__ import annotations

import enum
import re
from dataclasses import dataclass

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
