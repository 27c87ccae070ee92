"""Stage 1, scan: walk the source tree, honour .gitignore and --exclude, sort files by language.

Each file's kind comes from the one file-kind table (migrate/filekinds.py): `cpp` (handed to the C++ engine), a kind
of its own for build files, Python sources and deployment files (their file rules run on them), or `other`, copied
byte for byte.
Symbolic links are kept as links and never followed, so a link loop cannot trap the walk.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pathspec

from migrate import git
from migrate.cpp import project_names
from migrate.errors import UsageError
from migrate.filekinds import RULE_KINDS, classify
from migrate.options import Options
from migrate.stages.ported import Ported, already_ported

ALWAYS_SKIPPED = {".git", ".hg", ".svn", ".hipmigrate"}
GIT_UNOPENED = re.compile(r"could not open directory '(.+?)/?': ")  # git's warning for a folder it cannot list


def given_hip_version(text: str, name: str = "--hip-version") -> str:
    """A --hip-version value (or the setting `name`), checked against the releases the mapping packs know:
    "major.minor"."""
    from migrate.packs import default_packs

    problem = default_packs().check_release(text)
    if problem:
        raise UsageError(f"{name} {text!r}: {problem}")
    return text


@dataclass(frozen=True)
class SourceFile:
    rel: str  # forward slashes, relative to the root
    path: Path
    kind: str  # "cpp", one of RULE_KINDS, "other", "link", "special" (FIFO, socket, device: never opened),
    #            "unreadable" (a folder that cannot be listed: reported, left out), "ported" (a vendored library
    #            that already supports HIP: copied as it is)


@dataclass(frozen=True)
class Inventory:
    root: Path
    single: bool  # the source was one file, not a folder
    files: tuple[SourceFile, ...]
    project_names: frozenset[str]  # what the headers #define or declare as types: CPP006 leaves them alone
    ported: tuple[Ported, ...] = ()  # vendored libraries that already support HIP (migrate/stages/ported.py)

    @property
    def cpp(self) -> list[SourceFile]:
        return [f for f in self.files if f.kind == "cpp"]

    @property
    def by_rules(self) -> list[SourceFile]:
        """Build, Python and deployment files: those the file rules handle."""
        return [f for f in self.files if f.kind in RULE_KINDS]


def copied_link(root: Path, rel: str) -> tuple[str, bool]:
    """What the copy of the symbolic link at `rel` under `root` should point to, and whether its target lies outside
    the tree. A relative link within the tree is kept as it is; an absolute one into the tree is made relative, so
    that the copy points into the copy, not back into the source; a link out of the tree gets its target's absolute
    path, so that it still resolves from wherever the copy is."""
    path = root / rel
    text = os.readlink(path)
    here = os.path.dirname(os.path.abspath(path))
    aim = os.path.normpath(os.path.join(here, text))
    for base in {os.path.abspath(root), os.path.realpath(root)}:
        if aim == base or aim.startswith(base + os.sep):
            inside = os.path.join(os.path.abspath(root), os.path.relpath(aim, base))
            return (os.path.relpath(inside, here) if os.path.isabs(text) else text), False
    return aim, True


def _git_files(root: Path, unreadable: list[str]) -> list[str] | None:
    """Files git would track under root (tracked + untracked, not ignored), or None outside a work tree, and
    when root itself is ignored by the repository around it (a vendored or installed copy, such as a package
    under a git-managed ~/.pyenv): the user asked for that folder, so its own .gitignore files decide.
    Folders git could not open are added to `unreadable` (their tracked files are left out with them)."""
    try:
        inside = git.run(root, "rev-parse", "--is-inside-work-tree", timeout=30)
        if inside.returncode != 0 or inside.stdout.strip() != b"true":
            return None
        if git.run(root, "check-ignore", "-q", "--no-index", "--", ".", timeout=30).returncode == 0:
            return None
        out = git.run(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ".")
        if out.returncode != 0:
            return None
        names = [n.decode("utf-8", "surrogateescape") for n in out.stdout.split(b"\0") if n]
        closed = [m.group(1) for m in GIT_UNOPENED.finditer(out.stderr.decode("utf-8", "surrogateescape"))]
        if closed:
            prefix = git.run(root, "rev-parse", "--show-prefix", timeout=30).stdout.decode("utf-8", "surrogateescape")
            prefix = prefix.strip()
            unreadable.extend(sorted({c[len(prefix):] if c.startswith(prefix) else c for c in closed}))
    except git.Unavailable:
        return None
    inside = tuple(d + "/" for d in unreadable)
    return sorted(n for n in names if not n.startswith(inside) and _exists(root / n))


def _exists(path: Path) -> bool:
    """Does `path` exist (as anything, a broken link too)? A file that cannot even be looked at does: reading
    it reports why."""
    try:
        os.lstat(path)
    except PermissionError:
        return True
    except OSError:
        return False
    return True


def _walk(root: Path, unreadable: list[str]) -> list[str]:
    """Files under root, honouring every .gitignore found on the way (for trees that are not git work trees);
    folders that cannot be listed are added to `unreadable`."""
    found: list[str] = []
    specs: list[tuple[str, pathspec.PathSpec]] = []

    def cannot_list(exc: OSError) -> None:
        if exc.filename is not None and os.path.abspath(exc.filename) != os.path.abspath(root):
            unreadable.append(os.path.relpath(exc.filename, root).replace(os.sep, "/"))

    for here, dirs, files in os.walk(root, followlinks=False, onerror=cannot_list):
        rel_here = os.path.relpath(here, root).replace(os.sep, "/")
        rel_here = "" if rel_here == "." else rel_here + "/"
        ignore = Path(here) / ".gitignore"
        if ignore.is_file():
            try:
                lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
                specs.append((rel_here, pathspec.PathSpec.from_lines("gitignore", lines)))
            except OSError:
                pass

        def ignored(rel: str, is_dir: bool) -> bool:
            return any(rel.startswith(base) and spec.match_file(rel[len(base):] + ("/" if is_dir else ""))
                       for base, spec in specs)

        keep = []
        for d in sorted(dirs):
            full = Path(here) / d
            if d in ALWAYS_SKIPPED or ignored(rel_here + d, True):
                continue
            if full.is_symlink():
                found.append(rel_here + d)  # kept as a link, not followed
                continue
            keep.append(d)
        dirs[:] = keep
        for f in sorted(files):
            if not ignored(rel_here + f, False):
                found.append(rel_here + f)
    return sorted(found)


def collect(source: Path, options: Options) -> Inventory:
    if not os.path.lexists(source):
        raise UsageError(f"{source}: no such file or folder; give the CUDA project's folder or one source file")
    if source.is_file() and not source.is_symlink():
        kind = classify(source, source.name)
        kind = kind if kind in RULE_KINDS else "cpp"  # a lone file of another name is taken as C++/CUDA
        own = frozenset(project_names.around(source)) if kind == "cpp" else frozenset()
        return Inventory(source.parent, True, (SourceFile(source.name, source, kind),), own)
    if not source.is_dir():
        raise UsageError(f"{source}: not a folder or a regular file")
    if not os.access(source, os.R_OK | os.X_OK):
        raise UsageError(f"{source}: cannot read this folder (permission denied); fix its permissions and run again")
    unreadable: list[str] = []
    names = _git_files(source, unreadable)
    if names is None:
        unreadable.clear()
        names = _walk(source, unreadable)
    excluded = pathspec.PathSpec.from_lines("gitignore", options.exclude) if options.exclude else None
    files: list[SourceFile] = [SourceFile(rel, source / rel, "unreadable") for rel in unreadable
                               if not (excluded and excluded.match_file(rel + "/"))]
    macros: set[str] = set()
    for rel in names:
        if rel.split("/")[0] in ALWAYS_SKIPPED or (excluded and excluded.match_file(rel)):
            continue
        path = source / rel
        kind = classify(path, rel)
        files.append(SourceFile(rel, path, kind))
        if kind == "cpp" and project_names.is_header(rel):
            try:
                with open(path, "rb") as fh:
                    macros.update(project_names.declared(fh.read()))
            except OSError:
                pass
    ported = already_ported(source, [f.rel for f in files if f.kind == "cpp"], [f.rel for f in files])
    roots = tuple(p.root + "/" for p in ported)
    if roots:
        files = [SourceFile(f.rel, f.path, "ported") if f.rel.startswith(roots) and f.kind not in (
            "link", "special", "unreadable") else f for f in files]
    return Inventory(source, False, tuple(sorted(files, key=lambda f: f.rel)), frozenset(macros), tuple(ported))
