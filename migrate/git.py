"""Every git command hipmigrate runs, made so that git runs nothing the tree names.

hipmigrate is pointed at trees its user has not read yet, and git runs commands that a repository's own config
(`.git/config`, and the files its `include.path` / `includeIf` pull in) names. `run` below is the one way to call
git; what it sets, and why (docs/commands.md, "What hipmigrate runs"):

- `core.fsmonitor=false`: a command there would run on every status, diff and ls-files;
- `core.hooksPath=/dev/null`, and no optional locks: `git status` may write the index, and writing the index runs
  the post-index-change hook; with no optional locks it does not write it at all (nothing in the user's tree is
  touched), and no hook can be found anyway;
- every filter driver the config names (`filter.<name>.clean`, `.smudge`, `.process`) set to nothing and not
  required: status and diff pass work-tree files through the clean filter that `.gitattributes` picks;
- `diff` with `--no-ext-diff --no-textconv`: diff.external, diff.<driver>.command and .textconv are not run;
- no transport at all (`GIT_ALLOW_PROTOCOL` empty, no lazy fetch): a partial clone's missing object would be
  fetched from a remote the config names, with `ext::` commands, core.sshCommand, or credential helpers; so
  credential helpers, askpass and prompts are off too;
- `--no-pager` (and `core.pager=cat`), no submodule recursion (a submodule's own config is not read), no auto gc;
- `safe.directory` is left to git: a repository owned by another user is refused as git refuses it, and the
  caller says how to trust it (the user's own `git config --global --add safe.directory`), never hipmigrate.

The overrides go in GIT_CONFIG_COUNT/KEY/VALUE (git 2.31 on), so that no driver's name, whatever characters it has,
can dodge them; an older git is not run (`Unavailable`). The user's own config (system, global) is read as usual:
it is theirs, and the overrides apply to it too.
"""
from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path

MINIMUM = (2, 31)  # GIT_CONFIG_COUNT
FIXED = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", os.devnull),
    ("core.pager", "cat"),
    ("core.askPass", ""),
    ("core.sshCommand", "false"),
    ("credential.helper", ""),
    ("protocol.allow", "never"),
    ("submodule.recurse", "false"),
    ("status.submoduleSummary", "false"),
    ("diff.ignoreSubmodules", "all"),
    ("log.showSignature", "false"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    ("core.quotePath", "false"),
)
ENVIRONMENT = {
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_ASKPASS": "",
    "SSH_ASKPASS": "",
    "GIT_ALLOW_PROTOCOL": "",  # no protocol at all, whatever protocol.<name>.allow says
    "GIT_NO_LAZY_FETCH": "1",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_PAGER": "cat",
    "LC_ALL": "C",  # git's messages are read (a folder it could not open, dubious ownership)
}
SUBCOMMAND_FLAGS = {
    "diff": ("--no-ext-diff", "--no-textconv", "--ignore-submodules=all"),
    "status": ("--ignore-submodules=all",),
}
# command-level config of the environment hipmigrate was started in (a git hook's `git -c`): replaced by FIXED
INHERITED_CONFIG = {"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG"}
COUNTED_CONFIG = ("GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")
DRIVER_KEY = re.compile(r"filter\.(.+)\.(clean|smudge|process|required)", re.DOTALL)
VERSION = re.compile(rb"git version (\d+)\.(\d+)")
DUBIOUS = b"dubious ownership"


class Unavailable(Exception):
    """git is not installed, too old to be run safely, or did not answer in time."""


def run(folder: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """`git -C folder ARGS` with the overrides above, its output as bytes, whatever its exit status; Unavailable
    when git cannot be run (missing, older than 2.31, past `timeout`)."""
    name, *rest = args
    env = _environment(folder)
    return _call(["-C", str(folder), name, *SUBCOMMAND_FLAGS.get(name, ()), *rest], env, timeout)


def refused(proc: subprocess.CompletedProcess) -> bool:
    """Did git refuse the repository for being owned by another user (safe.directory)?"""
    return DUBIOUS in proc.stderr


def trust_hint(folder: Path) -> str:
    return (f"git refuses {folder}: the repository is owned by another user (git's safe.directory check); if you "
            f"trust it, `git config --global --add safe.directory {os.path.abspath(folder)}` and run again")


def _environment(folder: Path) -> dict[str, str]:
    """The environment of a git command in `folder`: ENVIRONMENT, and FIXED plus every filter driver the
    repository's config names (found with `git config --list`, which runs nothing) as command-level config."""
    _check_version()
    env = {k: v for k, v in os.environ.items() if k not in INHERITED_CONFIG and not k.startswith(COUNTED_CONFIG)}
    env.update(ENVIRONMENT)
    pairs = list(FIXED)
    listed = _call(["-C", str(folder), "config", "-z", "--list"], {**env, **_counted(pairs)}, 30)
    drivers = set()
    for entry in listed.stdout.split(b"\0"):
        found = DRIVER_KEY.fullmatch(entry.split(b"\n", 1)[0].decode("utf-8", "surrogateescape"))
        if found:
            drivers.add(found.group(1))
    for name in sorted(drivers):
        pairs += [(f"filter.{name}.{key}", "") for key in ("clean", "smudge", "process")]
        pairs.append((f"filter.{name}.required", "false"))
    return {**env, **_counted(pairs)}


def _counted(pairs: list[tuple[str, str]]) -> dict[str, str]:
    env = {"GIT_CONFIG_COUNT": str(len(pairs))}
    for i, (key, value) in enumerate(pairs):
        env[f"GIT_CONFIG_KEY_{i}"], env[f"GIT_CONFIG_VALUE_{i}"] = key, value
    return env


@cache
def _check_version() -> None:
    proc = _call(["version"], {**os.environ, **ENVIRONMENT}, 30, cwd=os.sep)
    found = VERSION.match(proc.stdout)
    if not found or (int(found.group(1)), int(found.group(2))) < MINIMUM:
        shown = proc.stdout.decode("utf-8", "replace").strip() or "no version"
        raise Unavailable(f"{shown} is older than 2.31, the first that takes the settings hipmigrate needs to keep "
                          "git from running commands a repository names")


def _call(args: list[str], env: dict[str, str], timeout: float,
          cwd: str | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "--no-pager", "--no-optional-locks", *args], capture_output=True,
                              timeout=timeout, env=env, cwd=cwd, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as exc:
        raise Unavailable(f"git could not be run: {exc}") from None
