"""`mnemo.codebase`: a repository read as git sees it and stored with `ingest_code`, as the
`mnemo ingest-code DIR` command does — ignore files in every folder, hidden files and links
left alone, what cannot be read said file by file, and the whole tree re-synced."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from mnemo import Mnemo, MnemoError
from mnemo._calls import (
    CODE_LANGUAGES,
    MAX_CODE_FILES,
    MAX_CODE_PATH_CHARS,
    MAX_CODE_TEXT_BYTES,
    MAX_SOURCE_BYTES,
)
from mnemo.codebase import batches, ingest_tree, read_tree

T0 = 1_700_000_000_000


def repo(root: Path) -> Path:
    """A small repository with something of every case the walk tells apart."""
    files = {
        ".gitignore": "build/\n*.gen.py\n",
        "src/auth.py": '"""Request authentication."""\n\ndef check_token(token: str) -> bool:\n    return token == "s3cret"\n',
        "src/store.rs": "//! The store.\npub struct Store;\npub fn open() -> Store { Store }\n",
        "src/Upper.TS": "export interface Cart { items: number }\n",
        "src/x.gen.py": "GENERATED = 1\n",
        "build/out.py": "def built() -> None: ...\n",
        "sub/.gitignore": "!keep.gen.py\nlocal.py\n",
        "sub/keep.gen.py": "def kept() -> None: ...\n",
        "sub/local.py": "def local() -> None: ...\n",
        ".hidden/secret.py": "KEY = 1\n",
        "notes.txt": "not code\n",
        "café/ünïcode.go": "package main\n\nfunc Grüß() {}\n",
    }
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (root / "src/blob.py").write_bytes(b"x = 1\0\0")
    (root / "src/latin1.py").write_bytes(b"name = 'caf\xe9'\n")
    (root / "src/huge.py").write_text("#" * (MAX_SOURCE_BYTES + 1))
    deep = root.joinpath(*["d" * 200] * 6)
    deep.mkdir(parents=True)
    (deep / "deep.py").write_text("def deep() -> None: ...\n")
    (root / "src/link.py").symlink_to(root / "src/auth.py")
    (root / "sub/loop").symlink_to(root, target_is_directory=True)
    os.close(os.open(os.path.join(os.fsencode(root / "src"), b"bad\xff.py"), os.O_CREAT | os.O_WRONLY))
    return root


def test_a_tree_is_read_as_git_sees_it(tmp_path: Path) -> None:
    tree = read_tree(repo(tmp_path))
    assert [f["path"] for f in tree.files] == [
        "café/ünïcode.go",
        "src/Upper.TS",
        "src/auth.py",
        "src/store.rs",
        "sub/keep.gen.py",
    ]
    assert tree.files[2]["text"].startswith('"""Request authentication."""')
    skipped = "\n".join(tree.skipped)
    assert "src/blob.py: a binary file" in skipped
    assert "src/latin1.py: not UTF-8 text" in skipped
    assert f"src/huge.py: {MAX_SOURCE_BYTES + 1} bytes, over the {MAX_SOURCE_BYTES} read" in skipped
    assert "the path is not UTF-8" in skipped and "src/bad" in skipped
    assert f"…: the path is longer than {MAX_CODE_PATH_CHARS} characters" in skipped
    assert len(tree.skipped) == 5, tree.skipped
    # Ignored, hidden, linked and unparsed files are not read, and not reported either.
    assert not any(w in skipped for w in ["build/", "x.gen", "local.py", "secret", "link.py", "loop", "notes"])


def test_a_tree_is_stored_searched_and_re_synced(tmp_path: Path) -> None:
    root = repo(tmp_path)
    with Mnemo.open(clock=T0, seed=1) as m:
        done = ingest_tree(m, entity_id="kai", root=root)
        assert done["files"] == 5 and len(done["reports"]) == 1
        assert done["reports"][0]["created"] == 5 and len(done["skipped"]) == 5
        hit = m.search(entity_id="kai", query="where is the token checked?", limit=1)[0]["memory"]
        assert hit["content"].startswith("src/auth.py — python, ")
        assert "check_token(token: str) -> bool" in hit["content"]
        # Nothing changed: nothing written. A file deleted: its memory is gone with the next run.
        assert ingest_tree(m, entity_id="kai", root=root)["reports"][0]["unchanged"] == 5
        (root / "src/store.rs").unlink()
        again = ingest_tree(m, entity_id="kai", root=root)["reports"][0]
        assert (again["gone"], again["unchanged"]) == (1, 4)
        # Another owner sees none of it.
        assert m.search(entity_id="lee", query="where is the token checked?") == []


def test_a_root_that_is_no_folder_or_holds_no_source_is_refused(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "file.py").write_text("x = 1\n")
    with Mnemo.open(clock=T0, seed=1) as m:
        for root in [tmp_path / "missing", tmp_path / "file.py", tmp_path / "empty", "bad\0path"]:
            with pytest.raises(MnemoError) as e:
                ingest_tree(m, entity_id="kai", root=root)
            assert (e.value.code, e.value.path) == ("invalid_input", "root"), e.value
        assert m.stats(entity_id="kai")["total"] == 0


def test_every_extension_the_package_reads_is_one_the_engine_parses() -> None:
    files: list[Any] = [
        {"path": f"f{i}.{ext}", "text": ""} for i, ext in enumerate(e for exts in CODE_LANGUAGES.values() for e in exts)
    ]
    assert len(files) >= 10
    with Mnemo.open(clock=T0, seed=1) as m:
        assert m.ingest_code(entity_id="kai", files=files)["created"] == len(files)
        with pytest.raises(MnemoError):
            m.ingest_code(entity_id="kai", files=[{"path": "f.txt", "text": ""}])


def test_a_large_tree_goes_in_calls_that_fit() -> None:
    one: list[Any] = [{"path": f"{i}.py", "text": "x"} for i in range(3)]
    assert [(len(f), c) for f, c in batches(one)] == [(3, True)]
    many: list[Any] = [{"path": f"{i}.py", "text": "x"} for i in range(2 * MAX_CODE_FILES + 500)]
    assert [(len(f), c) for f, c in batches(many)] == [(1000, False), (1000, False), (500, False)]
    heavy: list[Any] = [{"path": f"{i}.py", "text": "é" * (MAX_SOURCE_BYTES // 2)} for i in range(30)]
    calls = batches(heavy)
    assert len(calls) > 1 and not any(c for _, c in calls)
    assert all(sum(len(f["text"].encode()) for f in b) <= MAX_CODE_TEXT_BYTES for b, _ in calls)
    assert sum(len(b) for b, _ in calls) == 30
