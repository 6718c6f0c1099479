"""A LangGraph agent's long-term memory in a Mnemo file: one thread remembers, another
recalls, across a restart. Run it after `pip install "mnemo[langgraph]"` (see ../README.md)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, TypedDict

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore

from mnemo.langgraph import MnemoStore


class Turn(TypedDict, total=False):
    user: str
    text: str
    recalled: list[str]


def respond(state: Turn, *, store: BaseStore) -> Turn:
    """Remembers `remember: …`; for anything else, recalls the two memories that answer."""
    namespace = ("users", state["user"], "memories")
    if state["text"].startswith("remember: "):
        fact = state["text"].removeprefix("remember: ")
        store.put(namespace, str(len(store.search(namespace, limit=1000))), {"text": fact})
        return {"recalled": []}
    return {"recalled": [hit.value["text"] for hit in store.search(namespace, query=state["text"], limit=2)]}


def agent(store: BaseStore) -> Any:
    graph = StateGraph(Turn)
    graph.add_node("respond", respond)
    graph.add_edge(START, "respond")
    graph.add_edge("respond", END)
    return graph.compile(checkpointer=InMemorySaver(), store=store)


def main() -> None:
    path = Path(tempfile.mkdtemp()) / "agent.db"
    with MnemoStore.open(path) as store:
        app = agent(store)
        for fact in ["I work as a nurse", "I am allergic to penicillin", "My daughter studies in Leeds"]:
            app.invoke({"user": "ana", "text": f"remember: {fact}"}, {"configurable": {"thread_id": "monday"}})
    # Later, another process, another thread: the memory is in the file.
    with MnemoStore.open(path) as store:
        out = agent(store).invoke(
            {"user": "ana", "text": "what medicine should I avoid?"}, {"configurable": {"thread_id": "friday"}}
        )
        print(out["recalled"][0])
        assert out["recalled"][0] == "I am allergic to penicillin"


if __name__ == "__main__":
    main()
