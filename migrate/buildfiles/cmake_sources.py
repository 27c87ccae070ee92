"""What a CMake file declares that the rules ask about: the languages it enables, the sources of its targets
(`.cu` ones, those already LANGUAGE HIP), the AMD targets, and the values it gives a property."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from migrate.buildfiles.cmake import Arg, CMakeContext, Command


def enabled_languages(ctx: CMakeContext) -> set[str]:
    """Languages the file enables with project() or enable_language()."""
    out: set[str] = set()
    for command in ctx.named("project", "enable_language"):
        args = command.args[1:] if command.name == "project" else command.args
        out.update(a.value for a in args)
    return out


TARGET_KEYWORDS = {"WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL", "STATIC", "SHARED", "MODULE", "OBJECT", "INTERFACE",
                   "IMPORTED", "GLOBAL", "ALIAS", "UNKNOWN", "PRIVATE", "PUBLIC", "FILE_SET", "TYPE", "BASE_DIRS",
                   "FILES", "HEADERS", "CXX_MODULES"}
SOURCE_COMMANDS = ("add_executable", "add_library", "target_sources", "cuda_add_executable", "cuda_add_library")


def source_args(command: Command) -> list[Arg]:
    """The source-file arguments of a target command (add_executable, target_sources, cuda_add_library...)."""
    out = []
    for arg in command.args[1:]:
        if arg.value == "OPTIONS" and command.name.startswith("cuda_"):
            break
        if arg.value not in TARGET_KEYWORDS:
            out.append(arg)
    return out


def is_cu_source(arg: Arg) -> bool:
    value = arg.value
    return value.endswith(".cu") and "$<" not in value and not arg.text.startswith("[")


def has_cu_sources(ctx: CMakeContext) -> bool:
    return any(is_cu_source(a) for c in ctx.named(*SOURCE_COMMANDS) for a in source_args(c))


def hip_language_sources(ctx: CMakeContext) -> set[str]:
    """Sources (as written) already given LANGUAGE HIP by set_source_files_properties or set_property."""
    covered: set[str] = set()
    for command in ctx.named("set_source_files_properties", "set_property"):
        values = [a.value for a in command.args]
        if command.name == "set_source_files_properties":
            if "PROPERTIES" not in values:
                continue
            cut = values.index("PROPERTIES")
            props = values[cut + 1:]
            if any(props[i] == "LANGUAGE" and props[i + 1] == "HIP" for i in range(0, len(props) - 1, 2)):
                covered.update(values[:cut])
        elif values[:1] == ["SOURCE"] and "PROPERTY" in values:
            cut = values.index("PROPERTY")
            if values[cut + 1:cut + 3] == ["LANGUAGE", "HIP"]:
                covered.update(v for v in values[1:cut] if v not in ("DIRECTORY", "TARGET_DIRECTORY"))
    return covered


def needs_hip_language(ctx: CMakeContext) -> bool:
    """True when the file (once migrated) compiles with CMake's HIP language: it enables CUDA or HIP, or
    builds .cu sources (which the migration marks LANGUAGE HIP)."""
    return bool(enabled_languages(ctx) & {"CUDA", "HIP"}) or has_cu_sources(ctx) or bool(hip_language_sources(ctx))


def amd_architectures(ctx: CMakeContext) -> str:
    """The configured AMD targets as a CMake list: "gfx90a;gfx940"."""
    return ";".join(ctx.targets)

FALSE_VALUES = {"OFF", "FALSE", "NO", "N", "0", "IGNORE", "NOTFOUND", ""}


@dataclass(frozen=True)
class PropertySetting:
    """One property set on targets, or one CMAKE_<property> default set with set()."""

    command: Command
    targets: tuple[str, ...]  # empty for a set() of the CMAKE_ variable
    name: Arg
    values: tuple[Arg, ...]

    @property
    def enabled(self) -> bool:
        """True unless every value is a false constant of CMake (OFF, FALSE, 0, ...)."""
        return not self.values or not all(v.value.upper() in FALSE_VALUES for v in self.values)


def property_settings(ctx: CMakeContext, name: str) -> Iterator[PropertySetting]:
    """Where the file sets target property `name` (set_target_properties, set_property(TARGET ...)) or its
    CMAKE_<name> default (set(CMAKE_<name> ...)), in order, one at a time."""
    for command in ctx.named("set_target_properties", "set_property", "set"):
        args = command.args
        values = [a.value for a in args]
        if command.name == "set":
            if values[:1] == ["CMAKE_" + name]:
                kept = [a for a in args[1:] if a.value not in ("CACHE", "PARENT_SCOPE")][:1]
                yield PropertySetting(command, (), args[0], tuple(kept))
        elif command.name == "set_target_properties" and "PROPERTIES" in values:
            cut = values.index("PROPERTIES")
            for i in range(cut + 1, len(args) - 1, 2):
                if values[i] == name:
                    yield PropertySetting(command, tuple(values[:cut]), args[i], (args[i + 1],))
        elif values[:1] == ["TARGET"] and "PROPERTY" in values:
            cut = values.index("PROPERTY")
            if cut + 1 < len(args) and values[cut + 1] == name:
                targets = tuple(v for v in values[1:cut] if v not in ("APPEND", "APPEND_STRING"))
                yield PropertySetting(command, targets, args[cut + 1], tuple(args[cut + 2:]))
