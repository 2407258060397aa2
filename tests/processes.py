"""Processes as Linux's /proc shows them: which a process started, and whether one is still running."""

from __future__ import annotations

from pathlib import Path


def _stat(pid: int | str) -> list[str]:
    """The fields of /proc/<pid>/stat after the command's name (state first, then the parent's pid)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def running(pid: int) -> bool:
    """Whether process ``pid`` is there and not a zombie."""
    try:
        return _stat(pid)[0] != "Z"
    except FileNotFoundError:
        return False


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid``."""
    found = set()
    for folder in Path("/proc").glob("[0-9]*"):
        try:
            if int(_stat(folder.name)[1]) == pid:
                found.add(int(folder.name))
        except (FileNotFoundError, ProcessLookupError):
            continue  # ended while being looked at
    return found
