"""The seed-and-search workload of `npm run bench:wasmtime` from Python: a corpus from core's
`bench_corpus` example (memories with their vectors, searches with theirs) seeded in batches of
1,000 into a store file (its last 200 each by a call of its own), then every search timed.
Prints `{memories, seed_seconds, single_writes, single_seconds, search_ms, open_ms}` as JSON,
the shape the Rust host's `mnemo-bench workload` prints. A second argument sets the store's
page size (default: the package's).

    python python/bench/workload.py bench-results/corpus-10000-1000.json [4096]
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from mnemo import PAGE_SIZE, Mnemo

SEED_BATCH = 1_000
SINGLE_WRITES = 200


def main(corpus_path: str, page_size: int) -> None:
    corpus = json.loads(Path(corpus_path).read_text())

    def no_text(_: list[str]) -> list[list[float]]:
        raise RuntimeError("the corpus supplies every vector")

    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        m = Mnemo.open(
            Path(tmp) / "mnemo.db",
            clock=1_700_000_000_000,
            seed=1,
            embed=(corpus["model"], corpus["dimension"], no_text),
            page_size=page_size,
        )
        open_ms = (time.perf_counter() - started) * 1000
        items = corpus["items"][: len(corpus["items"]) - SINGLE_WRITES]
        single = [json.dumps({"items": [item]}) for item in corpus["items"][len(items) :]]
        batches = [json.dumps({"items": items[i : i + SEED_BATCH]}) for i in range(0, len(items), SEED_BATCH)]
        t = time.perf_counter()
        for batch in batches:
            m.call_json("seed", batch)
        seed_seconds = time.perf_counter() - t
        t = time.perf_counter()
        for one in single:
            m.call_json("seed", one)
        single_seconds = time.perf_counter() - t
        search_ms = []
        for q in corpus["queries"]:
            args = json.dumps(q)
            t = time.perf_counter()
            m.call_json("search", args)
            search_ms.append((time.perf_counter() - t) * 1000)
        m.close()
    print(json.dumps({
        "memories": len(items),
        "seed_seconds": seed_seconds,
        "single_writes": len(single),
        "single_seconds": single_seconds,
        "search_ms": search_ms,
        "open_ms": open_ms,
        "page_size": page_size,
    }))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else PAGE_SIZE)
