"""The workspace `Mnemo.open(workspace=…)` names: what is at the paths memories cite, for the
engine's drift detection (the component's `workspace` import). Only paths inside the directory
are answered, after following symbolic links; nothing there is written."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Union

from wasmtime import component as wc

# Files longer than this are not read to count their lines.
MAX_COUNTED_BYTES = 64 << 20
# How much of a file is looked at for a NUL byte, which makes it binary (as git decides).
BINARY_SNIFF_BYTES = 8 << 10


class Workspace:
    """A directory whose files memories may cite."""

    def __init__(self, root: Union[str, "os.PathLike[str]"]) -> None:
        from ._engine import MnemoError

        if not isinstance(root, (str, os.PathLike)):
            raise MnemoError("invalid_input", f"invalid workspace: expected a directory path, got {type(root).__name__}")
        path = Path(root)
        if not path.exists():
            raise MnemoError("invalid_input", f"invalid workspace: no such directory {path}")
        if not path.is_dir():
            raise MnemoError("invalid_input", f"invalid workspace: {path} is not a directory")
        self.root = os.path.realpath(path)

    def _inside(self, real: str) -> bool:
        return os.path.commonpath([self.root, real]) == self.root

    def states(self, paths: list[str]) -> list[wc.Variant]:
        """What is at each of `paths`, in order (the host's `workspace` answer)."""
        return [self.state(p) for p in paths]

    def state(self, cited: str) -> wc.Variant:
        """What is at `cited` (relative to the root, or absolute inside it)."""
        if "\0" in cited or ".." in Path(cited).parts:
            return wc.Variant("unknown", f"{cited} is not a path inside the workspace")
        full = os.path.join(self.root, cited)  # an absolute `cited` stays itself
        outside = wc.Variant("unknown", f"{cited} is outside the workspace")
        try:
            real = os.path.realpath(full, strict=True)
        except (FileNotFoundError, NotADirectoryError):
            # Not there: but a path through a link out of the workspace, or an absolute one
            # elsewhere, is not the workspace's to say.
            ancestor = os.path.dirname(full)
            while not os.path.exists(ancestor) and ancestor != os.path.dirname(ancestor):
                ancestor = os.path.dirname(ancestor)
            return wc.Variant("missing") if self._inside(os.path.realpath(ancestor)) else outside
        except PermissionError:
            return wc.Variant("unknown", f"{cited}: permission denied")
        except OSError as e:
            if e.errno == errno.ELOOP:
                return wc.Variant("unknown", f"{cited}: a loop of symbolic links")
            return wc.Variant("unknown", f"{cited}: {e.strerror or e}")
        if not self._inside(real):
            return outside
        if os.path.isdir(real):
            return wc.Variant("directory")
        if not os.path.isfile(real):
            return wc.Variant("file", None)  # a device, a socket, a pipe: never read
        return wc.Variant("file", _lines(real))


def _lines(path: str) -> "int | None":
    """The lines of a text file (none for a binary or over-large one, or one that cannot be
    read)."""
    try:
        if os.path.getsize(path) > MAX_COUNTED_BYTES:
            return None
        with open(path, "rb") as f:
            data = f.read(MAX_COUNTED_BYTES)
    except OSError:
        return None
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        return None
    n = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    return n if n < 2**32 else None
