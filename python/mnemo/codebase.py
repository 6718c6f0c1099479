"""A repository's source files read as git sees them, for `Mnemo.ingest_code`: the walk the
`mnemo ingest-code DIR` command makes, in Python. `.gitignore` (and `.ignore`) files are
kept to, in every folder, a deeper one overriding a shallower; hidden files and folders
are skipped and links never followed. Only the files whose extension names a language the
engine parses are read, each at most `MAX_SOURCE_BYTES`; what is left out is said, file by
file (too large, binary, not UTF-8, unreadable, a path that is not UTF-8 or too long).

    from mnemo import Mnemo
    from mnemo.codebase import ingest_tree

    with Mnemo.open("memory.db") as m:
        done = ingest_tree(m, entity_id="me", root="myrepo")
        print(done["files"], done["skipped"])
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Tuple, TypedDict

import pathspec

from ._calls import (
    CODE_LANGUAGES,
    MAX_CODE_FILES,
    MAX_CODE_PATH_CHARS,
    MAX_CODE_TEXT_BYTES,
    MAX_SOURCE_BYTES,
    CodeFile,
    CodeIngestReport,
)
from ._engine import Mnemo, MnemoError

__all__ = ["Tree", "TreeIngest", "read_tree", "batches", "ingest_tree"]

#: The files in a folder whose gitignore patterns hold below it, in the order they apply.
IGNORE_FILES = (".gitignore", ".ignore")

#: Extensions (lower case) of the files the engine parses.
_READ = frozenset(ext for exts in CODE_LANGUAGES.values() for ext in exts)


@dataclass
class Tree:
    """What walking a repository found: its source files with their texts (paths from the
    root, `/`-separated, in name order) and the files left out, each `path: why`."""

    files: List[CodeFile] = field(default_factory=list)
    skipped: List[str] = field(default_factory=list)


class TreeIngest(TypedDict):
    """What `ingest_tree` did: the number of files sent, the answer of each `ingest_code`
    call, and the files left out (`path: why`)."""

    files: int
    reports: List[CodeIngestReport]
    skipped: List[str]


# (folder from the root, `/`-terminated or "", its patterns)
_Rules = List[Tuple[str, pathspec.GitIgnoreSpec]]


def _ignored(rules: _Rules, rel: str, is_dir: bool) -> bool:
    """Whether the patterns in force ignore `rel`: the deepest that matches decides."""
    ignored = False
    for base, spec in rules:
        if not rel.startswith(base):
            continue
        result = spec.check_file(rel[len(base):] + ("/" if is_dir else ""))
        if result.include is not None:
            ignored = result.include
    return ignored


def _rules_of(folder: Path, base: str, skipped: List[str]) -> _Rules:
    rules: _Rules = []
    for name in IGNORE_FILES:
        path = folder / name
        if not path.is_file() or path.is_symlink():
            continue
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError as e:
            skipped.append(f"{base}{name}: {e.strerror or e}")
            continue
        rules.append((base, pathspec.GitIgnoreSpec.from_lines(lines)))
    return rules


def _source(path: Path) -> str:
    """A source file's text; raises `ValueError` saying why it is not read."""
    size = path.stat().st_size
    if size > MAX_SOURCE_BYTES:
        raise ValueError(f"{size} bytes, over the {MAX_SOURCE_BYTES} read")
    data = path.read_bytes()
    if b"\0" in data:
        raise ValueError("a binary file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None


def read_tree(root: str | os.PathLike[str]) -> Tree:
    """Reads every source file under `root` that git would not ignore. Raises `MnemoError`
    (`invalid_input`, path `root`) when `root` is not a folder."""
    top = Path(root)
    if not top.is_dir():
        raise MnemoError("invalid_input", f"invalid root: {top} is not a directory")
    tree = Tree()

    def walk(folder: Path, base: str, rules: _Rules) -> None:
        rules = rules + _rules_of(folder, base, tree.skipped)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as e:
            tree.skipped.append(f"{base or '.'}: {e.strerror or e}")
            return
        for entry in entries:
            name = entry.name
            if name.startswith("."):
                continue
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:
                shown = os.fsencode(name).decode("utf-8", errors="replace")
                tree.skipped.append(f"{base}{shown}: the path is not UTF-8")
                continue
            rel = base + name
            if entry.is_symlink():
                continue
            if entry.is_dir():
                if not _ignored(rules, rel, True):
                    walk(Path(entry.path), rel + "/", rules)
                continue
            if not entry.is_file() or _ignored(rules, rel, False):
                continue
            extension = name.rpartition(".")[2].lower() if "." in name else ""
            if extension not in _READ:
                continue
            if len(rel) > MAX_CODE_PATH_CHARS:
                tree.skipped.append(f"{rel[:60]}…: the path is longer than {MAX_CODE_PATH_CHARS} characters")
                continue
            try:
                text = _source(Path(entry.path))
            except (OSError, ValueError) as e:
                why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
                tree.skipped.append(f"{rel}: {why}")
                continue
            tree.files.append({"path": rel, "text": text})

    walk(top, "", [])
    return tree


def batches(files: List[CodeFile]) -> List[Tuple[List[CodeFile], bool]]:
    """The `ingest_code` calls that store `files`: one, marked complete, when they fit in one
    call (`MAX_CODE_FILES` files, `MAX_CODE_TEXT_BYTES` of text); else batches that fit, none
    complete (a deleted file is then found by drift detection)."""
    out: List[Tuple[List[CodeFile], bool]] = []
    size = 0
    for f in files:
        n = len((f.get("text") or "").encode("utf-8"))
        if out and len(out[-1][0]) < MAX_CODE_FILES and size + n <= MAX_CODE_TEXT_BYTES:
            out[-1][0].append(f)
            size += n
        else:
            out.append(([f], False))
            size = n
    if len(out) == 1:
        out[0] = (out[0][0], True)
    return out


def ingest_tree(
    m: Mnemo, *, entity_id: str, root: str | os.PathLike[str], agent_id: str | None = None
) -> TreeIngest:
    """Reads the repository at `root` (`read_tree`) and stores its files with `ingest_code`,
    in as few calls as fit: the whole tree in one call is `complete`, so files gone since
    the last run are invalidated. Raises `MnemoError` when `root` is not a folder, holds no
    file the engine parses, or a call is refused."""
    tree = read_tree(root)
    if not tree.files:
        languages = ", ".join(CODE_LANGUAGES)
        raise MnemoError("invalid_input", f"invalid root: {root} holds no source file the engine reads ({languages})")
    reports = [
        m.ingest_code(entity_id=entity_id, agent_id=agent_id, files=files, complete=complete)
        for files, complete in batches(tree.files)
    ]
    return {"files": len(tree.files), "reports": reports, "skipped": tree.skipped}
