"""Which context class reads each kind of file that file rules handle (everything but C++/CUDA)."""
from __future__ import annotations

from migrate.buildfiles.cmake import CMakeContext
from migrate.buildfiles.make import MakeContext
from migrate.deploy.context import (DockerContext, DotenvContext, PyprojectContext, RequirementsContext, ShellContext,
                                    YamlContext)
from migrate.python.context import PythonContext

CONTEXTS = {c.kind: c for c in (CMakeContext, MakeContext, PythonContext, ShellContext, DockerContext, YamlContext,
                                RequirementsContext, PyprojectContext, DotenvContext)}
