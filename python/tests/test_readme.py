"""The Python examples of the READMEs, run as a reader copies them: each ```python block of
`python/README.md` and of the repository's README.md, in a fresh directory of its own, with
the installed wheel. A block that raises, or prints other than what its comments promise,
fails here before a user finds it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READMES = [ROOT / "python" / "README.md", ROOT / "README.md"]


def blocks() -> list[tuple[str, str]]:
    """Every ```python block, named by its file and line."""
    out = []
    for readme in READMES:
        text = readme.read_text()
        for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
            line = text[: m.start()].count("\n") + 1
            out.append((f"{readme.relative_to(ROOT)}:{line}", m.group(1)))
    return out


def test_the_readmes_have_python_examples() -> None:
    # python/README.md: the first use, a repository's code, LangGraph; README.md: its section.
    assert len(blocks()) >= 4, [name for name, _ in blocks()]


@pytest.mark.parametrize("name,code", blocks(), ids=[name for name, _ in blocks()])
def test_a_readme_example_runs_as_written(name: str, code: str, tmp_path: Path) -> None:
    # The code-ingesting example walks "myrepo": a reader's repository, here a small one.
    repo = tmp_path / "myrepo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "auth.py").write_text(
        '"""Sign-in."""\n\n\ndef check_token(token: str) -> bool:\n    """Checks the token."""\n'
        "    return token.startswith('tk_')\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, f"{name} failed:\n{code}\n{run.stderr}"
    said = run.stdout
    if "allergic to penicillin" in code:
        # Asked what medicine to avoid, the store answers with the allergy.
        assert "penicillin" in said.splitlines()[0], said
    if "ingest_tree" in code:
        # The one source file stored, none left out.
        assert said.split()[:2] == ["1", "[]"], said
    # What the example stored is in the file it named, for the next run to open.
    for db in re.findall(r'open\("([\w.]+\.db)"\)', code):
        assert (tmp_path / db).stat().st_size > 0, db
