"""Mnemo: long-term memory for AI agents, in-process. The same engine as every other Mnemo
target (a WebAssembly component run by wasmtime), with its SQLite store in a file of yours.

    from mnemo import Mnemo

    with Mnemo.open("memory.db") as m:
        m.remember(entity_id="ana", content="I'm allergic to penicillin.")
        print(m.search(entity_id="ana", query="what medicine should I avoid?")[0]["memory"]["content"])
"""

from ._engine import MEMORY, PAGE_SIZE, Clock, Embed, Extract, Mnemo, MnemoError

__all__ = ["Mnemo", "MnemoError", "MEMORY", "PAGE_SIZE", "Clock", "Embed", "Extract"]
