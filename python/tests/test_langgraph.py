"""`mnemo.langgraph.MnemoStore` as a LangGraph user has it: a real compiled graph that writes in
one thread and recalls in another (sync and async, across a restart), LangGraph's store contract
(get, put, update, delete, batches, filters, paging, namespaces), namespaces kept apart by attack,
and bad input refused with nothing written."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path
from typing import Any, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, GetOp, InvalidNamespaceError, PutOp, SearchOp

from mnemo import Mnemo, MnemoError
from mnemo.langgraph import MnemoStore, namespace_of, owner_of

T0 = 1_700_000_000_000
FACTS = {
    "job": "I work as a nurse at St Mary's hospital",
    "daughter": "My daughter studies chemistry at Leeds university",
    "allergy": "I am allergic to penicillin",
    "deadline": "The grant report is due on Friday",
}


class Turn(TypedDict, total=False):
    user: str
    text: str
    recalled: list[str]


def chat_graph(store: BaseStore) -> Any:
    """A graph whose one node remembers a user's `remember: …` and recalls for anything else,
    through the store LangGraph hands it."""

    def respond(state: Turn, *, store: BaseStore) -> Turn:
        namespace = ("users", state["user"], "memories")
        if state["text"].startswith("remember: "):
            fact = state["text"][len("remember: "):]
            store.put(namespace, f"fact-{len(store.search(namespace, limit=1000))}", {"text": fact})
            return {"recalled": []}
        return {"recalled": [i.value["text"] for i in store.search(namespace, query=state["text"], limit=2)]}

    graph = StateGraph(Turn)
    graph.add_node("respond", respond)
    graph.add_edge(START, "respond")
    graph.add_edge("respond", END)
    return graph.compile(checkpointer=InMemorySaver(), store=store)


def test_a_graph_remembers_in_one_thread_and_recalls_in_another_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "agent.db"
    with MnemoStore.open(path, clock=T0, seed=1) as store:
        app = chat_graph(store)
        for fact in FACTS.values():
            app.invoke({"user": "ana", "text": f"remember: {fact}"}, {"configurable": {"thread_id": "monday"}})
        app.invoke({"user": "bo", "text": "remember: I am allergic to peanuts"}, {"configurable": {"thread_id": "bo"}})
        out = app.invoke({"user": "ana", "text": "what medicine should I avoid?"}, {"configurable": {"thread_id": "friday"}})
        assert out["recalled"][0] == FACTS["allergy"]
        assert "I am allergic to peanuts" not in out["recalled"]
    # A new process's store on the same file: the memories are in the file, in Mnemo's owners.
    with MnemoStore.open(path, clock=T0) as store:
        out = chat_graph(store).invoke({"user": "ana", "text": "where does my daughter study?"},
                                       {"configurable": {"thread_id": "next-week"}})
        assert out["recalled"][0] == FACTS["daughter"]
    with Mnemo.open(path) as m:
        owner = owner_of(("users", "ana", "memories"))
        assert owner == "langgraph.users.ana.memories"
        assert m.stats(entity_id=owner)["total"] == 4


def test_an_async_graph_uses_the_same_store() -> None:
    async def main() -> list[str]:
        with MnemoStore.open(clock=T0, seed=2) as store:

            async def respond(state: Turn, *, store: BaseStore) -> Turn:
                namespace = ("users", state["user"])
                if state["text"].startswith("remember: "):
                    await store.aput(namespace, state["text"][-12:], {"text": state["text"][10:]})
                    return {"recalled": []}
                hits = await store.asearch(namespace, query=state["text"], limit=1)
                return {"recalled": [h.value["text"] for h in hits]}

            graph = StateGraph(Turn)
            graph.add_node("respond", respond)
            graph.add_edge(START, "respond")
            app = graph.compile(checkpointer=InMemorySaver(), store=store)
            for i, fact in enumerate(FACTS.values()):
                await app.ainvoke({"user": "ana", "text": f"remember: {fact}"}, {"configurable": {"thread_id": str(i)}})
            out = await app.ainvoke({"user": "ana", "text": "when is the report due?"}, {"configurable": {"thread_id": "q"}})
            assert await store.aget(("users", "ana"), FACTS["deadline"][-12:]) is not None
            assert await store.alist_namespaces() == [("users", "ana")]
            recalled: list[str] = out["recalled"]
            return recalled

    assert asyncio.run(main()) == [FACTS["deadline"]]


def test_the_store_contract() -> None:
    now = [T0]
    with MnemoStore.open(clock=lambda: now[0], seed=3) as store:
        ns = ("docs", "reports")
        store.put(ns, "q1", {"title": "Q1", "pages": 10, "tags": ["a", "b"], "meta": {"draft": True}})
        now[0] += 60_000
        store.put(ns, "q2", {"title": "Q2", "pages": 30, "tags": ["b"], "meta": {"draft": False}})
        now[0] += 60_000
        store.put(("docs", "memos"), "m1", {"title": "memo", "pages": 1})
        first = store.get(ns, "q1")
        assert first is not None and first.value["meta"] == {"draft": True}
        assert first.created_at == first.updated_at and first.created_at.timestamp() * 1000 == T0
        # An update keeps the item's creation time and moves its update time.
        now[0] += 60_000
        store.put(ns, "q1", {"title": "Q1 final", "pages": 12})
        updated = store.get(ns, "q1")
        assert updated is not None and updated.value == {"title": "Q1 final", "pages": 12}
        assert updated.created_at == first.created_at and updated.updated_at > first.updated_at
        # Filters as LangGraph's stores read them; newest update first without a query.
        assert [i.key for i in store.search(("docs",))] == ["q1", "m1", "q2"]
        assert [i.key for i in store.search(("docs",), filter={"pages": {"$gte": 12}})] == ["q1", "q2"]
        assert [i.key for i in store.search(("docs",), filter={"pages": {"$lt": 12, "$ne": 1}})] == []
        assert [i.key for i in store.search(("docs",), filter={"meta": {"draft": False}})] == ["q2"]
        assert [i.key for i in store.search(("docs",), filter={"tags": ["b"]})] == ["q2"]
        assert [i.key for i in store.search(("docs",), limit=1, offset=1)] == ["m1"]
        # The most recently updated comes first even when it was created first, also past the
        # first page of a namespace (1,000 items).
        assert [i.key for i in store.search(("docs", "reports"), limit=1)] == ["q1"]
        many = ("docs", "many")
        store.batch([PutOp(many, f"n{i}", {"n": i}) for i in range(1_001)])
        now[0] += 60_000
        store.put(many, "n0", {"n": -1})
        assert [i.value for i in store.search(many, limit=1)] == [{"n": -1}]
        assert len(store.search(many, limit=2_000)) == 1_001
        store.batch([PutOp(many, f"n{i}", None) for i in range(1_001)])
        assert many not in store.list_namespaces()
        assert [i.key for i in store.search(("docs", "memos"))] == ["m1"]
        assert store.search(("nothing",)) == []
        # Namespaces: prefixes, suffixes with wildcards, depth, paging.
        assert store.list_namespaces() == [("docs", "memos"), ("docs", "reports")]
        assert store.list_namespaces(suffix=("reports",)) == [("docs", "reports")]
        assert store.list_namespaces(prefix=("*", "memos")) == [("docs", "memos")]
        assert store.list_namespaces(max_depth=1) == [("docs",)]
        assert store.list_namespaces(limit=1, offset=1) == [("docs", "reports")]
        # A batch's reads see the store before its writes; the last write of a key wins.
        got = store.batch([
            PutOp(ns, "q3", {"title": "Q3"}),
            GetOp(ns, "q3"),
            PutOp(ns, "q3", {"title": "Q3 again"}),
            SearchOp(("docs", "reports"), None, 10, 0, None),
        ])
        assert got[1] is None and got[3] is not None and {i.key for i in got[3]} == {"q1", "q2"}
        again = store.get(ns, "q3")
        assert again is not None and again.value == {"title": "Q3 again"}
        # Delete: gone from get, search and, with its last item, the namespace list.
        store.delete(("docs", "memos"), "m1")
        assert store.get(("docs", "memos"), "m1") is None
        assert store.list_namespaces() == [("docs", "reports")]
        store.delete(("docs", "memos"), "never-there")
        # Every query's hits are ranked by Mnemo's recall, with its score.
        hits = store.search(("docs",), query="Q3 again")
        assert hits[0].key == "q3" and hits[0].score is not None
        assert [h.score for h in hits] == sorted((h.score or 0.0 for h in hits), reverse=True)


def test_keys_namespaces_and_values_round_trip_exactly() -> None:
    with MnemoStore.open(clock=T0, seed=4) as store:
        # Mnemo's dedup never takes one key's item for a repeat of another's.
        keys = ["a", "the", "1", "2", "user-1", "user_1", "", "ключ", "🔑", "x" * 2_000]
        for key in keys:
            store.put(("same",), key, {"text": "exactly the same value"})
        assert sorted(i.key for i in store.search(("same",), limit=100)) == sorted(keys)
        for key in keys:
            item = store.get(("same",), key)
            assert item is not None and item.key == key
        # Labels any string LangGraph allows, and values any JSON.
        tricky = [("é spaces", "co:lon", "日本"), ("co:3alon",), ("a:2eb",), ("x" * 30, "y"), ("-_-",)]
        value = {"n": 1.5, "big": 2**60, "tiny": 5e-324, "nested": {"a": [1, None, True, "ünï"]}, "quote": "\"'<"}
        for ns in tricky:
            assert namespace_of(owner_of(ns)) == ns
            store.put(ns, "k", value)
        assert len({owner_of(ns) for ns in tricky}) == len(tricky)
        for ns in tricky:
            item = store.get(ns, "k")
            assert item is not None and item.value == value and item.namespace == ns
        assert set(store.list_namespaces()) == {*tricky, ("same",)}


def test_namespaces_never_see_each_others_items() -> None:
    with MnemoStore.open(clock=T0, seed=5) as store:
        for key, fact in FACTS.items():
            store.put(("users", "ana"), key, {"text": fact})
        store.put(("users", "bo"), "pet", {"text": "My cat is called Miso"})
        # Every read path, asked from bo's namespace for ana's items.
        for question in [*FACTS.values(), "penicillin", "allergic", "daughter chemistry"]:
            assert all(i.namespace == ("users", "bo") for i in store.search(("users", "bo"), query=question, limit=100))
        assert all(store.get(("users", "bo"), key) is None for key in FACTS)
        assert all(i.namespace == ("users", "bo") for i in store.search(("users", "bo"), limit=100))
        assert store.list_namespaces(prefix=("users", "bo")) == [("users", "bo")]
        # A label that spells another namespace's owner id is its own namespace.
        store.put(("users", "ana:2e"), "x", {"text": "I am allergic to penicillin"})
        assert store.get(("users", "ana:2e"), "allergy") is None
        assert len(store.search(("users", "ana"), limit=100)) == len(FACTS)
        # Mnemo's owners are the namespaces: one owner's search never holds another's item.
        hits = store.mnemo.search(entity_id=owner_of(("users", "bo")), query="penicillin", min_score=0)
        assert all("Miso" in h["memory"]["content"] for h in hits)
        # Two stores on one Mnemo see each other's namespaces as soon as they are written.
        other = MnemoStore(store.mnemo)
        assert other.list_namespaces(prefix=("users",)) == store.list_namespaces(prefix=("users",))
        other.put(("users", "cy"), "pet", {"text": "My dog is called Rex"})
        assert [i.key for i in store.search(("users", "cy"), query="dog")] == ["pet"]
        assert ("users", "cy") in store.list_namespaces()
        other.delete(("users", "cy"), "pet")
        assert ("users", "cy") not in store.list_namespaces()
        # Owners the store did not make are not namespaces.
        store.mnemo.remember(entity_id="ana", content="I am allergic to penicillin.")
        assert store.list_namespaces(prefix=("ana",)) == []
        assert ("ana",) not in store.list_namespaces()


def test_bad_input_is_refused_and_writes_nothing() -> None:
    with MnemoStore.open(clock=T0, seed=6) as store:
        ns = ("users", "ana")
        store.put(ns, "kept", {"text": "kept"})

        def unchanged() -> None:
            assert [i.key for i in store.search(("users",), limit=100)] == ["kept"]
            assert store.list_namespaces() == [ns]

        bad: list[tuple[Any, str]] = [
            ({"x": math.nan}, "not JSON"),
            ({"x": math.inf}, "not JSON"),
            ({"x": object()}, "not JSON"),
            ({"text": "x" * 60_000}, "over 50,000"),
            (["not", "a", "dict"], "a dict"),
            ("text", "a dict"),
        ]
        for value, why in bad:
            with pytest.raises(MnemoError) as e:
                store.put(ns, "bad", value)
            assert e.value.code == "invalid_input" and why in e.value.message, e.value.message
            unchanged()
        # One bad item fails the batch before anything of it is written.
        with pytest.raises(MnemoError):
            store.batch([PutOp(ns, "good", {"text": "fine"}), PutOp(ns, "kept", None), PutOp(ns, "bad", {"x": math.nan})])
        unchanged()
        with pytest.raises(MnemoError) as e:
            store.put(("x" * 300,), "k", {"text": "long namespace"})
        assert "namespace" in e.value.message and "256" in e.value.message
        with pytest.raises(InvalidNamespaceError):
            store.put(("langgraph", "x"), "k", {"text": "reserved root"})
        with pytest.raises(InvalidNamespaceError):
            store.put(("a.b",), "k", {"text": "a period"})
        for ttl in [0, -5, math.nan, math.inf, "5", True, 10**12]:
            with pytest.raises(MnemoError) as e:
                store.put(ns, "k", {"text": "ttl"}, ttl=ttl)  # type: ignore[arg-type]
            assert e.value.path == "ttl", ttl
        with pytest.raises(MnemoError) as e:
            store.search(("users",), filter={"n": {"$regex": ".*"}})
        assert "$regex" in e.value.message
        with pytest.raises(MnemoError):
            store.search(("users",), query="x" * 20_000)
        with pytest.raises(MnemoError):
            store.search(("users",), limit=-1)
        unchanged()
    for index in [{"dims": 3}, {"fields": "text"}, {"fields": [1]}, {"embed": lambda t: [[1.0]] * len(t)}]:
        with pytest.raises(MnemoError):
            MnemoStore.open(index=index)
    with Mnemo.open() as m:
        with pytest.raises(MnemoError) as e:
            MnemoStore(m, index={"embed": "openai:x", "dims": 3})
        assert "MnemoStore.open" in e.value.message


def test_items_with_a_ttl_expire_by_the_stores_clock_and_reads_refresh_them() -> None:
    now = [T0]
    minute = 60_000
    ns = ("users", "u1")
    with MnemoStore.open(clock=lambda: now[0], seed=1, ttl={"omit_expired": True}) as store:
        assert store.supports_ttl
        store.put(ns, "short", {"text": "the oven is preheating"}, ttl=5)
        store.put(ns, "kept", {"text": "the oven is in the kitchen"})
        # Read at 4 minutes: still there, and the read moves its expiry to 4 + 5 minutes.
        now[0] = T0 + 4 * minute
        assert store.get(ns, "short").value == {"text": "the oven is preheating"}  # type: ignore[union-attr]
        now[0] = T0 + 8 * minute
        assert store.get(ns, "short", refresh_ttl=False) is not None
        # A read that does not refresh leaves it to expire at 9 minutes.
        now[0] = T0 + 9 * minute
        assert store.get(ns, "short") is None
        assert [i.key for i in store.search(ns)] == ["kept"]
        assert [i.key for i in store.search(ns, query="oven")] == ["kept"]
        # Expired but not yet swept: still stored, and forgotten by a sweep.
        assert store.mnemo.stats(entity_id=owner_of(ns))["total"] == 2
        assert store.sweep_ttl() == 1
        assert store.mnemo.stats(entity_id=owner_of(ns))["total"] == 1
        assert store.sweep_ttl() == 0
        # A namespace whose only items expired is not listed; its items are gone at the sweep.
        store.put(("cache",), "c", {"text": "a cached answer"}, ttl=1)
        assert ("cache",) in store.list_namespaces()
        now[0] += 2 * minute
        assert ("cache",) not in store.list_namespaces()
        # A put without a TTL keeps the item for good; one with a TTL gives it one.
        store.put(ns, "kept", {"text": "the oven is in the kitchen"}, ttl=1)
        now[0] += 2 * minute
        assert store.get(ns, "kept") is None
        store.put(ns, "kept", {"text": "the oven is in the kitchen"})
        now[0] += 10**6 * minute
        assert store.get(ns, "kept") is not None
    # The store's default TTL, sweeps at an interval, and reads that leave expiry alone.
    now[0] = T0
    ttl = {"default_ttl": 10, "sweep_interval_minutes": 30, "refresh_on_read": False}
    with MnemoStore.open(clock=lambda: now[0], seed=1, ttl=ttl) as store:  # type: ignore[arg-type]
        store.put(ns, "a", {"text": "first"})
        store.put(ns, "b", {"text": "second"}, ttl=60)
        now[0] = T0 + 9 * minute
        assert store.get(ns, "a") is not None
        now[0] = T0 + 11 * minute
        # Expired, not omitted (LangGraph's default), and not yet swept.
        assert store.get(ns, "a") is not None
        now[0] = T0 + 31 * minute
        assert store.get(ns, "a") is None, "the first operation after 30 minutes sweeps"
        assert store.get(ns, "b") is not None

    async def in_async() -> None:
        now[0] = T0
        with MnemoStore.open(clock=lambda: now[0], seed=1, ttl={"omit_expired": True}) as store:
            await store.aput(ns, "x", {"text": "async"}, ttl=1)
            now[0] += 2 * minute
            assert await store.aget(ns, "x") is None
            assert await store.asweep_ttl() == 1

    asyncio.run(in_async())
    for config in [{"default_ttl": 0}, {"omit_expired": "yes"}, {"sweep": 5}, "5", {"sweep_interval_minutes": math.nan}]:
        with pytest.raises(MnemoError) as e:
            MnemoStore.open(ttl=config)  # type: ignore[arg-type]
        assert e.value.code == "invalid_input" and (e.value.path or "").startswith("ttl"), config


def test_indexed_fields_and_a_langgraph_embedder_are_honoured() -> None:
    seen: list[str] = []

    def embed(texts: list[str]) -> list[list[float]]:
        seen.extend(texts)
        return [[float("pizza" in t), float("tea" in t), 1.0] for t in texts]

    with MnemoStore.open(clock=T0, seed=7, index={"embed": embed, "dims": 3, "fields": ["title"]}) as store:
        assert store.mnemo.embedding_model()["model"].startswith("langgraph:")
        store.put(("notes",), "food", {"title": "pizza night", "body": "with friends"})
        store.put(("notes",), "drink", {"title": "tea time", "body": "pizza is not involved"})
        store.put(("notes",), "both", {"title": "ignored", "body": "pizza"}, index=["body"])
        assert seen == ["pizza night", "tea time", "pizza"]
        hits = store.search(("notes",), query="tea")
        assert hits[0].key == "drink"
    with MnemoStore.open(clock=T0, seed=8) as store:
        # By default every string of the value is embedded; no string at all embeds its JSON.
        store.put(("n",), "numbers", {"count": 3})
        item = store.get(("n",), "numbers")
        assert item is not None and item.value == {"count": 3}
        memory = store.mnemo.list(entity_id=owner_of(("n",)))["memories"][0]
        assert json.loads(memory["content"])["value"] == {"count": 3} and memory["pinned"]
