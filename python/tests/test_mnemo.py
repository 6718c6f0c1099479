"""The Python package as a user has it (installed from its wheel): the same engine, the same
answers as every other target, a store file of the user's, bad input refused by name, owners
and agents kept apart, and the host's clock, embedder and LLM in Python."""

from __future__ import annotations

import json
import math
import sqlite3
import types
import typing
from pathlib import Path
from typing import Any

import pytest

from mnemo import PAGE_SIZE, Mnemo, MnemoError
from mnemo._calls import Calls

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
T0 = 1_700_000_000_000


def scenario_names() -> list[str]:
    return sorted(p.stem for p in SCENARIOS.glob("*.json"))


def conforms(value: Any, hint: Any, path: str = "answer") -> None:
    """Asserts that a parsed answer has the type its method declares (the typed dicts, literals,
    lists and unions generated from the call schema)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return
    if hint is None or hint is type(None):
        assert value is None, f"{path}: {value!r} is not None"
    elif origin is typing.Literal:
        assert value in args, f"{path}: {value!r} is not one of {args}"
    elif origin in (typing.Union, types.UnionType):
        failures = []
        for option in args:
            try:
                return conforms(value, option, path)
            except AssertionError as e:
                failures.append(str(e))
        raise AssertionError(f"{path}: {value!r} fits none of {hint}: {failures}")
    elif origin is list:
        assert isinstance(value, list), f"{path}: {value!r} is not a list"
        for i, item in enumerate(value):
            conforms(item, args[0], f"{path}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), f"{path}: {value!r} is not an object"
        for k, v in value.items():
            conforms(v, args[1], f"{path}.{k}")
    elif typing.is_typeddict(hint):
        assert isinstance(value, dict), f"{path}: {value!r} is not an object"
        fields = typing.get_type_hints(hint, include_extras=True)
        assert set(value) <= set(fields), f"{path}: {sorted(set(value) - set(fields))} are not in {hint.__name__}"
        for name, field in fields.items():
            optional = typing.get_origin(field) is typing.NotRequired
            if optional:
                field = typing.get_args(field)[0]
            assert name in value or optional, f"{path}: {hint.__name__}.{name} is missing"
            if name in value:
                conforms(value[name], field, f"{path}.{name}")
    elif hint is float:
        assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{path}: {value!r} is not a number"
    else:
        assert isinstance(value, hint) and not (hint is int and isinstance(value, bool)), f"{path}: {value!r} is not {hint}"


@pytest.mark.parametrize("name", scenario_names())
def test_every_scenario_gives_the_recorded_json(name: str) -> None:
    scenario = json.loads((SCENARIOS / f"{name}.json").read_text())
    native = json.loads((SCENARIOS / "expected" / f"{name}.json").read_text())
    got = []
    with Mnemo.open(clock=scenario["now"], seed=scenario["seed"], config=scenario.get("config")) as m:
        for step in scenario["steps"]:
            if "at" in step:
                m.set_clock(step["at"])
            try:
                answer = m.call(step["method"], step.get("args", {}))
                got.append({"ok": answer})
                # The answer is what the method's generated type says it is.
                method = step["method"] + ("_" if step["method"] == "import" else "")
                conforms(answer, typing.get_type_hints(getattr(Calls, method))["return"], step["method"])
            except MnemoError as e:
                got.append({"error": {"code": e.code, "message": e.message}})
    assert json.dumps(got, ensure_ascii=False) == json.dumps(native, ensure_ascii=False)


def test_source_files_sent_as_text_are_parsed_by_the_engine() -> None:
    # This package's own modules, read as a Python program reads a repository.
    import mnemo

    package = Path(mnemo.__file__).parent
    files: list[Any] = [{"path": f"mnemo/{p.name}", "text": p.read_text()} for p in sorted(package.glob("*.py"))]
    with Mnemo.open(clock=T0, seed=1) as m:
        report = m.ingest_code(entity_id="kai", files=files, complete=True)
        assert report["created"] == len(files) >= 5 and report["symbols"] > 100
        hit = m.search(entity_id="kai", query="Where is the LangGraph store?", limit=1)[0]["memory"]["content"]
        assert hit.startswith("mnemo/langgraph.py — python, ")
        assert "- class MnemoStore(BaseStore) (line " in hit
        # The same texts again change nothing; a changed one replaces its file's memory.
        assert m.ingest_code(entity_id="kai", files=files)["unchanged"] == len(files)
        files[0]["text"] += "\ndef added_later() -> None:\n    pass\n"
        assert m.ingest_code(entity_id="kai", files=files[:1])["replaced"] == 1
        # Bad text is refused by name and writes nothing.
        before = m.stats(entity_id="kai")["total"]
        for bad, path in [
            ({"path": "blob.py", "text": "x = 1\0"}, "files[0].text"),
            ({"path": "notes.txt", "text": "hello"}, "files[0].language"),
            ({"path": "a.py", "text": "x", "symbols": [{"kind": "function", "name": "x", "line": 1}]}, "files[0].symbols"),
            ({"path": "a.py", "text": None}, "files[0].language"),
            ({"path": "big.py", "text": "#" * ((1 << 20) + 1)}, "files[0].text"),
        ]:
            with pytest.raises(MnemoError) as e:
                m.ingest_code(entity_id="kai", files=[bad])
            assert (e.value.code, e.value.path) == ("invalid_input", path), e.value
        assert m.stats(entity_id="kai")["total"] == before


def test_a_store_file_outlives_the_process_and_is_plain_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with Mnemo.open(path, clock=T0, seed=1) as m:
        m.remember(entity_id="ana", content="I'm allergic to penicillin.")
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM memories").fetchone() == (1,)
    # The page size this host asks for: fewer file calls per commit than SQLite's 4 KiB.
    assert db.execute("PRAGMA page_size").fetchone() == (PAGE_SIZE,) == (16_384,)
    db.close()
    with Mnemo.open(str(path), clock=T0) as m:
        hits = m.search(entity_id="ana", query="what medicine should I avoid?")
        assert hits[0]["memory"]["content"] == "I'm allergic to penicillin."
    # One store, one holder: a second open is refused, by code, until the first closes.
    first = Mnemo.open(path)
    with pytest.raises(MnemoError) as locked:
        Mnemo.open(path)
    assert locked.value.code == "store_locked"
    first.close()
    # A crash's SQLite lock directory is cleared by the next open.
    Path(f"{path}.lock").mkdir()
    closed = Mnemo.open(path)
    assert closed.search(entity_id="ana", query="penicillin")
    closed.close()
    closed.close()  # twice is fine
    with pytest.raises(MnemoError) as e:
        closed.stats(entity_id="ana")
    assert e.value.code == "closed"


def test_bad_input_is_refused_by_name_and_writes_nothing(tmp_path: Path) -> None:
    with Mnemo.open(clock=T0, seed=1) as m:
        m.remember(entity_id="ana", content="Ana drinks green tea.")
        before = m.stats(entity_id="ana")["total"]
        cases = [
            (lambda: m.search(entity_id="ana", query=5), "invalid_input", "args.query"),  # type: ignore[arg-type]
            (lambda: m.seed(items=[{"entity_id": "ana", "content": "x", "importance": math.nan}]), "invalid_input", "args"),
            (lambda: m.seed(items=[{"entity_id": "ana", "content": "x" * 50_001}]), "invalid_input", "args.items[0].content"),
            (lambda: m.seed(items=[{"entity_id": "ana", "content": "x", "colour": "red"}]), "invalid_input", "args.items[0].colour"),
            (lambda: m.remember(entity_id="ana\nbob", content="x"), "invalid_input", "args.entity_id"),
            (lambda: m.call("no_such_call", {}), "unknown_value", None),
            (lambda: m.call("search", {"entity_id": "ana", "query": "x", "limit": object()}), "invalid_input", "args"),
            (lambda: m.call_json("search", '{"entity_id": "ana", "entity_id": "bob", "query": "x"}'), "invalid_input", "args.entity_id"),
            (lambda: m.call_json("search", "{not json"), "invalid_input", "args"),
            # A 100 MB document: refused whole, by its length.
            (lambda: m.ingest(entity_id="ana", content="word " * 20_000_000), "invalid_input", "args.content"),
        ]
        for run, code, path in cases:
            with pytest.raises(MnemoError) as e:
                run()
            assert e.value.code == code, e.value
            if path is not None:
                assert e.value.path == path, e.value
        # Half of a UTF-16 pair alone, which a Python string may hold, named as such.
        with pytest.raises(MnemoError, match="half of a UTF-16 surrogate pair") as e:
            m.remember(entity_id="ana", content="tea \ud800 time")
        assert (e.value.code, e.value.path) == ("invalid_input", "args.content")
        assert m.stats(entity_id="ana")["total"] == before
        assert m.documents(entity_id="ana", all=True) == []
        # Unicode and SQL are only text.
        m.remember(entity_id="ana", content="Ана любит чай 🍵; DROP TABLE memories; --")
        hits = m.search(entity_id="ana", query="'; DROP TABLE memories; -- чай")
        assert any("🍵" in h["memory"]["content"] for h in hits)
    for options, field in [
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"clock": "soon"}, "clock"),
        ({"clock": math.nan}, "clock"),
        ({"config": "dedup"}, "config"),
        ({"config": {"dedup": {"skip": 0.9}}}, "config.dedup.skip"),
        ({"embed": ("model", 0, lambda t: t)}, "embed"),
        ({"extract": "gpt"}, "extract"),
    ]:
        with pytest.raises(MnemoError) as e:
            Mnemo.open(**options)  # type: ignore[arg-type]
        assert (e.value.code, e.value.path) == ("invalid_input", field), options
    with pytest.raises(MnemoError) as e:
        with Mnemo.open(clock=lambda: "noon") as m:  # type: ignore[arg-type,return-value]
            m.stats(entity_id="ana")
    assert e.value.path == "clock"
    # A page size SQLite would silently ignore is refused, and no store is made.
    for size in [3000, 0, 256, 131_072]:
        with pytest.raises(MnemoError) as e:
            Mnemo.open(tmp_path / "sized.db", page_size=size)
        assert (e.value.code, e.value.path) == ("invalid_input", "page_size"), size
        assert "power of two from 512 to 65536" in e.value.message
    for size in [True, "16k", 2**40, -1, 4096.0]:
        with pytest.raises(MnemoError) as e:
            Mnemo.open(tmp_path / "sized.db", page_size=size)  # type: ignore[arg-type]
        assert (e.value.code, e.value.path) == ("invalid_input", "page_size"), size
    assert not (tmp_path / "sized.db").exists()
    # A store keeps the page size it was made with.
    with Mnemo.open(tmp_path / "sized.db", page_size=4096, clock=T0) as m:
        m.remember(entity_id="ana", content="Ana drinks green tea.")
    with Mnemo.open(tmp_path / "sized.db", page_size=65_536, clock=T0) as m:
        assert m.stats(entity_id="ana")["total"] == 1
    db = sqlite3.connect(tmp_path / "sized.db")
    assert db.execute("PRAGMA page_size").fetchone() == (4096,)
    db.close()
    with pytest.raises(MnemoError, match="is a directory"):
        Mnemo.open(tmp_path)
    with pytest.raises(MnemoError, match="no directory"):
        Mnemo.open(tmp_path / "missing" / "x.db")


def test_owners_and_agents_never_see_each_others_memories() -> None:
    with Mnemo.open(clock=T0, seed=1) as m:
        m.remember(entity_id="ana", content="Ana's bank PIN is 4921.")
        m.remember(entity_id="bob", content="Bob likes sailing.")
        m.remember(entity_id="ana", agent_id="planner", content="Ana's passport expires in May.")
        for query in ["bank PIN", "sailing", "passport"]:
            hits = m.search(entity_id="bob", query=query)
            assert all(h["memory"]["entity_id"] == "bob" for h in hits), query
        seen = m.search(entity_id="ana", agent_id="coach", query="passport expires")
        assert all("passport" not in h["memory"]["content"] for h in seen)
        own = m.search(entity_id="ana", agent_id="planner", query="passport expires")
        assert own and "passport" in own[0]["memory"]["content"]


def test_a_question_naming_my_sister_is_embedded_by_the_host_with_her_name() -> None:
    embedded: list[str] = []
    refuse_names = [False]

    def embed(texts: list[str]) -> list[list[float]]:
        embedded.extend(texts)
        if refuse_names[0] and any("Ana" in t for t in texts):
            raise RuntimeError("quota exceeded")
        return [[1.0, float(len(t) % 7), 0.5, 0.25] for t in texts]

    with Mnemo.open(clock=T0, embed=("toy-4d", 4, embed), seed=7) as m:
        for said in ["My sister Ana is a nurse.", "Ana lives in Lisbon now."]:
            m.remember(entity_id="kim", content=said)
        embedded.clear()
        hits = m.search(entity_id="kim", query="Which city does my sister live in?")
        # The engine asked the host's model for the question with who "my sister" is.
        assert embedded == ["Which city does Ana live in?"], embedded
        sister = {"phrase": "my sister", "entity": "Ana"}
        assert [h["memory"]["content"] for h in hits if h["why"].get("hop") == sister], hits
        # A model that fails on that text: the question's own is embedded instead.
        embedded.clear()
        refuse_names[0] = True
        again = m.search(entity_id="kim", query="Which city does my sister live in?")
        assert embedded[1] == "Which city does my sister live in?", embedded
        assert any(h["why"].get("hop") == sister for h in again), again


def test_the_host_clock_embedder_and_llm_are_python() -> None:
    now = [T0]
    embedded: list[str] = []

    def embed(texts: list[str]) -> list[list[float]]:
        embedded.extend(texts)
        return [[1.0, float(len(t) % 7), 0.5, 0.25] for t in texts]

    def llm(instructions: str, text: str) -> str:
        assert "JSON" in instructions
        return json.dumps({"memories": [{"content": f"Said: {text}", "type": "PREFERENCE"}]})

    with Mnemo.open(clock=lambda: now[0], embed=("toy-4d", 4, embed), extract=llm, seed=7) as m:
        report = m.remember(entity_id="ana", content="I like tea")
        assert report["outcomes"][0]["action"] == "created"
        memory = m.list(entity_id="ana")["memories"][0]
        assert (memory["content"], memory["type"], memory["created_at"]) == ("Said: I like tea", "PREFERENCE", T0)
        # A transcript line ("Said: …") is embedded as what was said and who said it.
        assert embedded == ["I like tea", "Said"]
        assert m.stats(entity_id="ana")["embedding_model"] == "toy-4d"
        now[0] += 86_400_000
        m.remember(entity_id="ana", content="I like coffee")
        assert max(x["created_at"] for x in m.list(entity_id="ana")["memories"]) == T0 + 86_400_000

    def broken(_: str, __: str) -> str:
        raise RuntimeError("model offline")

    with Mnemo.open(clock=T0, extract=broken, seed=7) as m:
        report = m.remember(entity_id="ana", content="I moved to Porto last year.")
        assert "model offline" in report["fallback"]
        assert m.list(entity_id="ana")["memories"], "the built-in extractor stood in"

    def failing(_: list[str]) -> list[list[float]]:
        raise RuntimeError("GPU on fire")

    with Mnemo.open(clock=T0, embed=("toy-4d", 4, failing), seed=7) as m:
        with pytest.raises(MnemoError, match="GPU on fire"):
            m.seed(items=[{"entity_id": "ana", "content": "x"}])


def test_every_declared_call_is_a_method() -> None:
    with Mnemo.open(clock=T0) as m:
        schema = json.loads((ROOT / "www" / "src" / "schema.json").read_text())
        for call in schema["calls"]:
            name = call["method"] + ("_" if call["method"] == "import" else "")
            method = getattr(m, name)
            assert call["summary"].split(":")[0] in (method.__doc__ or ""), name


def test_a_workspace_in_python_invalidates_what_cites_a_deleted_file(tmp_path: Path) -> None:
    ws = tmp_path / "project"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "auth.py").write_text("def check_token():\n    pass\n" * 30)
    (ws / "blob.bin").write_bytes(b"\x00\x01\n\n")
    (ws / "loop-a").symlink_to(ws / "loop-b")
    (ws / "loop-b").symlink_to(ws / "loop-a")
    (ws / "etc").symlink_to("/etc")
    (ws / "src" / "caf\udce9.py".encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")).write_text("x\n")
    with Mnemo.open(config={"dedup": {"enabled": False}}, clock=T0, seed=1, workspace=ws) as m:
        ids = [
            o["id"]
            for o in m.seed(
                items=[
                    {"entity_id": "kai", "content": text}
                    for text in [
                        "The token is checked in src/auth.py:42.",
                        "The loader was data/load.py.",
                        "Loops are in loop-a/x.py.",
                        "Hosts are in etc/hosts.txt and /etc/hostname.conf.",
                    ]
                ]
            )["outcomes"]
        ]
        drift = m.consolidate()["consolidation"]["drift"]
        assert drift["workspace"] is True
        # data/load.py is gone; the loop and both ways out are not the workspace's to say.
        assert (drift["invalidated"], drift["unknown"]) == (1, 3), drift
        statuses = [m.list(entity_id="kai", ids=[i])["memories"][0]["status"] for i in ids]
        assert statuses == ["active", "invalidated", "active", "active"]

        (ws / "src" / "auth.py").unlink()
        assert m.consolidate()["consolidation"]["drift"]["invalidated"] == 1
        history = m.status_history(entity_id="kai", id=ids[0])
        assert history[-1]["reason"] == "drift: src/auth.py is gone from the workspace"
        (ws / "src" / "auth.py").write_text("def check_token():\n    pass\n" * 30)
        assert m.consolidate()["consolidation"]["drift"]["restored"] == 1
        assert m.list(entity_id="kai", ids=[ids[0]])["memories"][0]["status"] == "active"
    with Mnemo.open(clock=T0) as m:
        m.seed(items=[{"entity_id": "kai", "content": "See src/auth.py."}])
        drift = m.consolidate()["consolidation"]["drift"]
        assert drift["workspace"] is False
        assert drift["wanted"] == [{"entity_id": "kai", "paths": ["src/auth.py"]}]
    for bad, says in [(tmp_path / "nope", "no such directory"), (ws / "blob.bin", "not a directory"), (42, "expected a directory path")]:
        with pytest.raises(MnemoError, match=says) as e:
            Mnemo.open(clock=T0, workspace=bad)  # type: ignore[arg-type]
        assert e.value.code == "invalid_input"
