"""Which context class reads each kind of file that file rules handle (everything but C++/CUDA): one for each of the
file-kind table's RULE_KINDS (migrate/filekinds.py), checked when this module is imported."""
from __future__ import annotations

from migrate.buildfiles.cmake import CMakeContext
from migrate.buildfiles.make import MakeContext
from migrate.deploy.context import (DockerContext, DotenvContext, PyprojectContext, RequirementsContext, ShellContext,
                                    YamlContext)
from migrate.filekinds import RULE_KINDS
from migrate.python.context import PythonContext

CONTEXTS = {c.kind: c for c in (CMakeContext, MakeContext, PythonContext, ShellContext, DockerContext, YamlContext,
                                RequirementsContext, PyprojectContext, DotenvContext)}
if set(CONTEXTS) != set(RULE_KINDS):
    raise ImportError(f"file kinds without a context or contexts without a kind: {set(CONTEXTS) ^ set(RULE_KINDS)}")
