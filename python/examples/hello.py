"""Hello, Mnemo from Python: remember two facts, ask a question, print what comes back and why.

    python python/examples/hello.py
"""

from __future__ import annotations

from mnemo import Mnemo, MnemoError


def main() -> None:
    with Mnemo.open() as m:
        m.remember(entity_id="ana", content="I'm allergic to penicillin.")
        m.remember(entity_id="ana", content="My daughter studies in Porto.")
        for hit in m.search(entity_id="ana", query="what medicine should I avoid?", limit=1):
            print(hit["memory"]["content"], round(hit["score"], 2))
        try:
            m.search(entity_id="ana", query="x", limit=-1)
        except MnemoError as e:
            print(e.code, e.path)


if __name__ == "__main__":
    main()
