"""`--base REF`: the lines a branch adds, from real git.

The merge base of REF and HEAD (`git merge-base`), then `git diff -U0` from it to the work tree: every `+` line
of every hunk is an added line (uncommitted edits included, so a pre-commit run sees them). Untracked files that
git does not ignore count as wholly added. Paths come back relative to the repository's top folder.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from migrate import git
from migrate.errors import UsageError

HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
ALL = None  # an untracked file: every line counts as added


@dataclass(frozen=True)
class Hunk:
    start: int  # first added line (1-based, in the new file)
    count: int  # added lines

    @property
    def end(self) -> int:  # last added line
        return self.start + self.count - 1


@dataclass(frozen=True)
class Changes:
    top: Path  # the repository's top folder
    base: str  # REF as given
    merge_base: str  # its commit
    hunks: dict[str, tuple[Hunk, ...]]  # path relative to top -> hunks of added lines
    untracked: frozenset[str]

    def lines(self, rel: str) -> set[int] | None:
        """Added lines of a file (relative to top); None means all of them (an untracked file)."""
        if rel in self.untracked:
            return ALL
        return {n for h in self.hunks.get(rel, ()) for n in range(h.start, h.end + 1)}

    def touched(self, rel: str) -> bool:
        return rel in self.untracked or bool(self.hunks.get(rel))


def _git(cwd: Path, *args: str) -> bytes:
    try:
        proc = git.run(cwd, *args, timeout=300)
    except git.Unavailable as exc:
        raise UsageError(f"--base needs git: {exc}") from None
    if git.refused(proc):
        raise UsageError(git.trust_hint(cwd))
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(f"git {args[0]}: {message[-1] if message else 'failed'}")
    return proc.stdout


def top_level(where: Path) -> Path:
    folder = where if where.is_dir() else where.parent
    try:
        proc = git.run(folder, "rev-parse", "--show-toplevel")
    except git.Unavailable as exc:
        raise UsageError(f"--base needs git: {exc}") from None
    if git.refused(proc):
        raise UsageError(git.trust_hint(folder))
    if proc.returncode != 0:
        raise UsageError(f"--base needs a git work tree: {where} is not in one")
    return Path(proc.stdout.decode("utf-8", "surrogateescape").strip()).resolve()


def _unquote(name: str) -> str:
    """git's C-style quoting of unusual path names ("a\\tb")."""
    if not (name.startswith('"') and name.endswith('"')):
        return name
    raw = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1")
    return raw.decode("utf-8", "surrogateescape")


def parse_diff(text: str) -> dict[str, tuple[Hunk, ...]]:
    hunks: dict[str, list[Hunk]] = {}
    current: str | None = None
    for line in text.splitlines():
        if line.startswith("+++ "):
            name = line[4:].rstrip("\t")
            current = None if name == "/dev/null" else _unquote(name)
            if current is not None and current.startswith(('b/', '"b/')):
                current = current[2:]
            continue
        m = HUNK.match(line)
        if m and current is not None:
            count = 1 if m.group(2) is None else int(m.group(2))
            if count:
                hunks.setdefault(current, []).append(Hunk(int(m.group(1)), count))
    return {path: tuple(h) for path, h in hunks.items()}


def changes(where: Path, base: str) -> Changes:
    top = top_level(where)
    try:
        merge_base = _git(top, "merge-base", base, "HEAD").decode().strip()
    except UsageError as exc:
        raise UsageError(f"--base {base}: no merge base with HEAD ({exc}); fetch the branch (for example "
                         "`git fetch origin main`, with fetch-depth: 0 on GitHub)") from None
    diff = _git(top, "diff", "-U0", "--no-color", "--find-renames", merge_base, "--")  # no drivers: migrate.git
    untracked = _git(top, "ls-files", "-z", "--others", "--exclude-standard")
    names = frozenset(n.decode("utf-8", "surrogateescape") for n in untracked.split(b"\0") if n)
    return Changes(top, base, merge_base, parse_diff(diff.decode("utf-8", "surrogateescape")), names)
