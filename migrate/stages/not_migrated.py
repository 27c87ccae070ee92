"""The files no engine or rule reads: copied as they are (a vendored library that already supports HIP, INP014),
or left out or kept as links, with the finding that says why (unreadable folders, FIFOs, links that do not resolve or
point outside the tree)."""
from __future__ import annotations

import os

from migrate.fixing import input_finding
from migrate.model import FileResult, FileStatus, Severity
from migrate.pathnames import quoted, shown
from migrate.stages.late import vanished
from migrate.stages.ported import Ported
from migrate.stages.scan import SourceFile, copied_link


def not_migrated(f: SourceFile, in_place: bool = False, ported: Ported | None = None) -> FileResult:
    if ported is not None:
        finding = input_finding(f.rel, "INP014", f"{ported.root} already supports HIP (this file tests "
                                f"{ported.name}): the library is copied as it is, not migrated; migrating it would "
                                "send hipcc down the branches it keeps for nvcc", line=ported.line, severity=Severity.INFO)
        return FileResult(f.rel, FileStatus.COPIED, (finding,))
    if f.kind == "unreadable":
        finding = input_finding(f.rel, "INP004", "cannot read this folder (permission denied): nothing in it was "
                                "migrated, checked or copied; fix its permissions and run again", severity=Severity.ERROR)
        return FileResult(f.rel, FileStatus.SKIPPED, (finding,))
    if f.kind == "special":
        finding = input_finding(f.rel, "INP004", "not a regular file (a FIFO, socket or device): left out of the "
                                "output; remove it or --exclude it", severity=Severity.ERROR)
        return FileResult(f.rel, FileStatus.SKIPPED, (finding,))
    if f.kind == "link":
        try:
            target = os.readlink(f.path)
        except FileNotFoundError:
            return FileResult(f.rel, FileStatus.SKIPPED, (vanished(f.rel, "vanished", "left out of the output"),))
        if not os.path.exists(f.path):  # follows the link: False for a loop or a missing target
            kept = "left as it is" if in_place else "copied as a link"
            finding = input_finding(f.rel, "INP006", f"symbolic link to {quoted(target)} that does not resolve (a "
                                    f"loop or a missing file): {kept}, not migrated; fix or remove the link")
            return FileResult(f.rel, FileStatus.SKIPPED, (finding,))
        aim, outside = copied_link(f.path.parents[f.rel.count("/")], f.rel)
        if outside:
            copy = "" if in_place else f", and the copy links to {shown(aim)}"
            finding = input_finding(f.rel, "INP009", f"symbolic link to {quoted(target)}, outside the source tree: "
                                    f"what it points to is not migrated{copy}; copy the file into the tree to migrate "
                                    "it")
            return FileResult(f.rel, FileStatus.SKIPPED, (finding,))
    return FileResult(f.rel, FileStatus.COPIED)
