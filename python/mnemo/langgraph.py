"""A LangGraph store kept by Mnemo: `MnemoStore` implements LangGraph's `BaseStore`, so a graph
compiled with `store=MnemoStore.open("memory.db")` keeps its long-term memory in a Mnemo file,
found again by Mnemo's hybrid recall.

How LangGraph's items map onto Mnemo (the store file stays usable from every other face):

- A namespace is a Mnemo **owner**: `("users", "u1", "memories")` is the owner
  `langgraph.users.u1.memories` (labels joined by `.`, which LangGraph forbids inside a label;
  characters outside `[A-Za-z0-9_-]` written `:xx` per UTF-8 byte). Every read and write names
  its owners, so one namespace's items never come back from another's, as Mnemo keeps owners
  apart everywhere. A search under a prefix searches each namespace under it and merges the
  hits by score.
- An item is one pinned memory (items do not decay or get archived on their own: a key-value
  store keeps what it is given) whose content is `{"key": …, "ref": …, "value": …}` as JSON;
  `ref` is a digest of the key, which keeps two keys holding the same value two memories
  (Mnemo's dedup would otherwise take the second for a repeat of the first), and the tag
  `key:<digest>` finds the item by key.
- The memory's vector is the store's embedder's vector of the item's indexed text: the
  `fields` of the store's `index` (or of `put(..., index=[...])`), as LangGraph reads them, or
  by default every string in the value. `search(query=…)` is Mnemo's hybrid search (words and
  vector) of those items; every item is searchable (`index=False` is accepted and has no effect).
- `filter` matches values as LangGraph's in-memory store does (equality, nested objects,
  `$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`).
- TTLs (`put(..., ttl=minutes)`, the store's `ttl` config: `default_ttl`, `refresh_on_read`,
  `omit_expired`, `sweep_interval_minutes`) are kept in the item's tags (`ttl:<minutes>`,
  `expires:<ms>`), measured by the Mnemo store's clock. A read with `refresh_ttl` moves the
  expiry on (and so the item's `updated_at`); `sweep_ttl()` forgets the expired items, as does
  the first operation after each `sweep_interval_minutes`; with `omit_expired`, reads and
  namespace listings leave expired items out before a sweep forgets them.

Requires the `langgraph` package (`pip install "mnemo[langgraph]"`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
import weakref
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
)
from langgraph.store.base.embed import ensure_embeddings, get_text_at_path

from ._calls import Memory, NewMemory
from ._engine import MEMORY, Mnemo, MnemoError

#: The first part of every owner this store keeps (`langgraph.<namespace>`); LangGraph itself
#: refuses `langgraph` as a namespace's first label.
PREFIX = "langgraph"
#: Longest owner id Mnemo takes, and so longest encoded namespace.
MAX_OWNER = 256
#: Longest item content (`{"key", "ref", "value"}` as JSON) a memory holds.
MAX_CONTENT = 50_000
#: Most results one engine call returns (`search` and `list` limits).
PAGE = 1_000
#: For each open `Mnemo`, by prefix: the owners of LangGraph items and their namespaces (see
#: `MnemoStore._held`).
_OWNERS: "weakref.WeakKeyDictionary[Mnemo, dict[str, dict[str, tuple[str, ...]]]]" = weakref.WeakKeyDictionary()
#: The tag of every item with a TTL (its `ttl:<minutes>` and `expires:<ms>` tags beside it).
TTL_TAG = "ttl"
#: Longest TTL, in minutes: a thousand years.
MAX_TTL_MINUTES = 1_000 * 366 * 24 * 60
#: The settings of LangGraph's `TTLConfig`.
_TTL_KEYS = frozenset(("refresh_on_read", "omit_expired", "default_ttl", "sweep_interval_minutes"))
#: Characters a namespace label keeps as they are in an owner id.
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def owner_of(namespace: Sequence[str], prefix: str = PREFIX) -> str:
    """The Mnemo owner id that holds `namespace`."""
    labels = [
        "".join(c if c in _PLAIN else "".join(f":{b:02x}" for b in c.encode("utf-8")) for c in label)
        for label in namespace
    ]
    owner = ".".join([prefix, *labels])
    if len(owner) > MAX_OWNER:
        raise MnemoError(
            "invalid_input",
            f"invalid namespace: {tuple(namespace)!r} is {len(owner)} characters as a Mnemo owner "
            f"id ({owner[:40]}…), over {MAX_OWNER}; use shorter labels",
        )
    return owner


def namespace_of(owner: str, prefix: str = PREFIX) -> Optional[tuple[str, ...]]:
    """The namespace an owner id holds, or None for an owner this store did not make."""
    if not owner.startswith(prefix + "."):
        return None
    labels = []
    for part in owner[len(prefix) + 1:].split("."):
        raw = bytearray()
        i = 0
        while i < len(part):
            if part[i] == ":":
                try:
                    raw.append(int(part[i + 1:i + 3], 16))
                except ValueError:
                    return None
                i += 3
            else:
                raw.extend(part[i].encode("ascii"))
                i += 1
        try:
            label = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if not label:
            return None
        labels.append(label)
    return tuple(labels)


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _time(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=timezone.utc)


def _check_ttl(ttl: Any, field: str = "ttl") -> Optional[float]:
    """A TTL in minutes, checked: none, or a positive finite number up to a thousand years."""
    if ttl is None:
        return None
    if isinstance(ttl, bool) or not isinstance(ttl, (int, float)) or not 0 < ttl <= MAX_TTL_MINUTES:
        raise MnemoError("invalid_input", f"invalid {field}: {ttl!r} is not a number of minutes from 0 (excluded) to {MAX_TTL_MINUTES:,}")
    return float(ttl)


def _ttl_config(config: Any) -> Optional[TTLConfig]:
    """LangGraph's TTL settings, checked."""
    if config is None:
        return None
    if not isinstance(config, Mapping) or set(config) - _TTL_KEYS:
        raise MnemoError("invalid_input", f"invalid ttl: a dict of {sorted(_TTL_KEYS)}")
    for flag in ("refresh_on_read", "omit_expired"):
        if flag in config and not isinstance(config[flag], bool):
            raise MnemoError("invalid_input", f"invalid ttl.{flag}: true or false")
    _check_ttl(config.get("default_ttl"), "ttl.default_ttl")
    _check_ttl(config.get("sweep_interval_minutes"), "ttl.sweep_interval_minutes")
    return TTLConfig(**config)  # type: ignore[typeddict-item]


def _expiry(memory: Memory) -> Optional[tuple[float, int]]:
    """An item's TTL in minutes and when it expires (ms), from its tags; none without a TTL."""
    tags = memory["manual_tags"]
    if TTL_TAG not in tags:
        return None
    ttl = next((t[4:] for t in tags if t.startswith("ttl:")), None)
    expires = next((t[8:] for t in tags if t.startswith("expires:")), None)
    if ttl is None or expires is None:
        return None
    return float(ttl), int(expires)


def _expired(memory: Memory, now: int) -> bool:
    """Whether an item's TTL has run out by `now`."""
    expiry = _expiry(memory)
    return expiry is not None and expiry[1] <= now


def _ttl_tags(ttl: Optional[float], now: int) -> list[str]:
    """The tags that keep a TTL: none without one."""
    if ttl is None:
        return []
    return [TTL_TAG, f"ttl:{ttl!r}", f"expires:{now + round(ttl * 60_000)}"]


def _matches(value: Any, wanted: Any) -> bool:
    """Whether a stored value matches a filter value, as LangGraph's stores compare them."""
    if isinstance(wanted, dict):
        if any(isinstance(k, str) and k.startswith("$") for k in wanted):
            return all(_compare(value, op, operand) for op, operand in wanted.items())
        return isinstance(value, dict) and all(_matches(value.get(k), v) for k, v in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (
            isinstance(value, (list, tuple))
            and len(value) == len(wanted)
            and all(_matches(a, b) for a, b in zip(value, wanted))
        )
    return bool(value == wanted)


def _compare(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(value == operand)
    if op == "$ne":
        return bool(value != operand)
    if op not in ("$gt", "$gte", "$lt", "$lte"):
        raise MnemoError("invalid_input", f"invalid filter: unknown operator {op!r} ($eq, $ne, $gt, $gte, $lt, $lte)")
    try:
        a, b = float(value), float(operand)
    except (TypeError, ValueError):
        return False
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]


class MnemoStore(BaseStore):
    """LangGraph's `BaseStore` kept in a Mnemo store: items as pinned memories, one owner per
    namespace, `search(query=…)` by Mnemo's hybrid recall. Sync and async; safe to share
    between threads (calls take turns)."""

    __slots__ = ("mnemo", "prefix", "fields", "ttl_config", "_owns", "_lock", "_swept")

    #: Items may have TTLs (LangGraph's `put(..., ttl=minutes)`).
    supports_ttl = True

    def __init__(
        self,
        mnemo: Mnemo,
        *,
        index: Optional[Mapping[str, Any]] = None,
        prefix: str = PREFIX,
        ttl: Optional[TTLConfig] = None,
    ) -> None:
        """A store over an open `Mnemo`. `index` may name the `fields` whose text is embedded
        (LangGraph's paths: `"text"`, `"a.b"`, `"list[*]"`); the embedder is the store's own
        (use `MnemoStore.open(..., index={"embed": ..., "dims": ...})` for another). `ttl` is
        LangGraph's `TTLConfig` (`default_ttl` and `sweep_interval_minutes` in minutes,
        `refresh_on_read`, `omit_expired`)."""
        extra = set(index or {}) - {"fields"}
        if extra:
            raise MnemoError(
                "invalid_input",
                f"invalid index: {sorted(extra)} are set when the store opens; "
                "use MnemoStore.open(path, index={...}) or Mnemo.open(path, embed=...)",
            )
        if not isinstance(prefix, str) or not prefix or any(c not in _PLAIN for c in prefix):
            raise MnemoError("invalid_input", "invalid prefix: 1 or more of [A-Za-z0-9_-]")
        self.mnemo = mnemo
        self.prefix = prefix
        self.fields = _fields((index or {}).get("fields"))
        self.ttl_config = _ttl_config(ttl)
        self._swept = self.mnemo.now()
        self._owns = False
        self._lock = threading.RLock()

    @classmethod
    def open(
        cls,
        path: Union[str, "os.PathLike[str]"] = MEMORY,
        *,
        index: Optional[Mapping[str, Any]] = None,
        prefix: str = PREFIX,
        ttl: Optional[TTLConfig] = None,
        **options: Any,
    ) -> "MnemoStore":
        """Opens a Mnemo store at `path` for LangGraph (closed with the store). `index` is
        LangGraph's index configuration: `fields` to embed, and optionally `embed` (a LangChain
        `Embeddings`, a function of texts, or a `"provider:model"` name) with its `dims`, which
        becomes the store's embedding model instead of Mnemo's built-in one. `ttl` is LangGraph's
        `TTLConfig`. Other options go to `Mnemo.open` (`clock`, `seed`, `config`, …)."""
        index = dict(index or {})
        embed = index.pop("embed", None)
        dims = index.pop("dims", None)
        if embed is not None:
            if not isinstance(dims, int) or isinstance(dims, bool):
                raise MnemoError("invalid_input", "invalid index.dims: the embedding's dimension (an int) is needed with index.embed")
            embeddings = ensure_embeddings(embed)
            name = embed if isinstance(embed, str) else type(embeddings).__name__
            options["embed"] = (f"langgraph:{name}", dims, embeddings.embed_documents)
        elif dims is not None:
            raise MnemoError("invalid_input", "invalid index.dims: given without index.embed")
        mnemo = Mnemo.open(path, **options)
        try:
            store = cls(mnemo, index=index, prefix=prefix, ttl=ttl)
        except BaseException:
            mnemo.close()
            raise
        store._owns = True
        return store

    def close(self) -> None:
        """Closes the Mnemo store if this store opened it."""
        if self._owns:
            self.mnemo.close()

    def __enter__(self) -> "MnemoStore":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    # BaseStore.
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Runs the operations in order; reads see the store as it was before the batch's
        writes, which are applied last (the last write of one key wins), as LangGraph's stores
        do."""
        with self._lock:
            ops = list(ops)
            interval = (self.ttl_config or {}).get("sweep_interval_minutes")
            if interval is not None and self.mnemo.now() - self._swept >= interval * 60_000:
                self.sweep_ttl()
            results: list[Result] = []
            writes: dict[tuple[tuple[str, ...], str], PutOp] = {}
            for op in ops:
                if isinstance(op, GetOp):
                    results.append(self._get(op.namespace, op.key, op.refresh_ttl))
                elif isinstance(op, SearchOp):
                    results.append(self._search(op))
                elif isinstance(op, ListNamespacesOp):
                    results.append(self._namespaces(op))
                elif isinstance(op, PutOp):
                    writes.pop((op.namespace, op.key), None)
                    writes[(op.namespace, op.key)] = op
                    results.append(None)
                else:
                    raise MnemoError("invalid_input", f"invalid op: {type(op).__name__} is not a store operation")
            if writes:
                self._put(list(writes.values()))
            return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """`batch`, run in a worker thread so the event loop keeps going."""
        return await asyncio.to_thread(self.batch, list(ops))

    def sweep_ttl(self) -> int:
        """Forgets every item whose TTL has run out; the number forgotten."""
        with self._lock:
            now = self.mnemo.now()
            self._swept = now
            gone = 0
            for owner, _ in self._held():
                expired = [m for m in self._listed(owner, TTL_TAG) if _expired(m, now)]
                for memory in expired:
                    self.mnemo.forget(entity_id=owner, id=memory["id"])
                gone += len(expired)
                # A namespace whose last item went is no longer listed.
                if expired and self.mnemo.stats(entity_id=owner)["total"] == 0:
                    (self._known() or {}).pop(owner, None)
            return gone

    async def asweep_ttl(self) -> int:
        """`sweep_ttl`, in a worker thread."""
        return await asyncio.to_thread(self.sweep_ttl)

    # TTLs.
    def _may_omit(self) -> bool:
        """Whether reads leave expired items out (`omit_expired`)."""
        return bool((self.ttl_config or {}).get("omit_expired"))

    def _omits(self, memory: Memory, now: int) -> bool:
        """Whether a read leaves the item out: expired, with `omit_expired`."""
        return self._may_omit() and _expired(memory, now)

    def _refresh(self, owner: str, memory: Memory, now: int) -> Memory:
        """The item with its expiry moved to its TTL from now (as it was, without a TTL)."""
        expiry = _expiry(memory)
        if expiry is None:
            return memory
        kept = [t for t in memory["manual_tags"] if t != TTL_TAG and not t.startswith(("ttl:", "expires:"))]
        return self.mnemo.update(entity_id=owner, id=memory["id"], patch={"tags": kept + _ttl_tags(expiry[0], now)})

    # Reads.
    def _memory(self, namespace: tuple[str, ...], key: str) -> Optional[Memory]:
        page = self.mnemo.list(entity_id=owner_of(namespace, self.prefix), tag=f"key:{_digest(key)[:32]}", limit=PAGE)
        for memory in page["memories"]:
            if json.loads(memory["content"]).get("key") == key:
                return memory
        return None

    def _item(self, namespace: tuple[str, ...], memory: Memory, score: Optional[float] = None) -> SearchItem:
        body = json.loads(memory["content"])
        return SearchItem(
            namespace=namespace,
            key=body["key"],
            value=body["value"],
            created_at=_time(memory["created_at"]),
            updated_at=_time(memory["updated_at"]),
            score=score,
        )

    def _get(self, namespace: tuple[str, ...], key: str, refresh: bool = False) -> Optional[Item]:
        memory = self._memory(namespace, key)
        now = self.mnemo.now()
        if memory is None or self._omits(memory, now):
            return None
        if refresh:
            memory = self._refresh(owner_of(namespace, self.prefix), memory, now)
        found = self._item(namespace, memory)
        return Item(value=found.value, key=found.key, namespace=found.namespace,
                    created_at=found.created_at, updated_at=found.updated_at)

    def _held(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every owner this store keeps an item in, with its namespace, in namespace order.
        Read once per `Mnemo` (counting every owner costs a pass over the store: 31 ms at 10k
        memories), then kept up to date by the writes of every `MnemoStore` on that `Mnemo`."""
        known = self._known()
        if known is None:
            known = {}
            for owner in self.mnemo.store_stats()["owners"]:
                namespace = namespace_of(owner["entity_id"], self.prefix)
                if namespace is not None and owner["total"] > 0:
                    known[owner["entity_id"]] = namespace
            _OWNERS.setdefault(self.mnemo, {})[self.prefix] = known
        return sorted(known.items(), key=lambda h: h[1])

    def _known(self) -> Optional[dict[str, tuple[str, ...]]]:
        """The owners `_held` has read for this `Mnemo` and prefix, if it has."""
        return _OWNERS.get(self.mnemo, {}).get(self.prefix)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        if op.limit < 0 or op.offset < 0:
            raise MnemoError("invalid_input", "invalid search: limit and offset must not be negative")
        prefix = tuple(op.namespace_prefix)
        scopes = [(o, ns) for o, ns in self._held() if ns[: len(prefix)] == prefix]
        wanted = op.offset + op.limit
        now = self.mnemo.now()
        # Each item with the owner and memory it came from.
        found: list[tuple[SearchItem, str, Memory]] = []
        for owner, namespace in scopes:
            if op.query:
                limit = PAGE if op.filter or self._may_omit() else max(1, min(PAGE, wanted))
                hits = self.mnemo.search(entity_id=owner, query=op.query, limit=limit, min_score=0.0)
                items = [(self._item(namespace, h["memory"], float(h["score"])), owner, h["memory"]) for h in hits]
            else:
                items = [(self._item(namespace, m), owner, m) for m in self._listed(owner)]
            items = [i for i in items if not self._omits(i[2], now)]
            if op.filter:
                items = [i for i in items if all(_matches(i[0].value.get(k), v) for k, v in op.filter.items())]
            found.extend(items)
        if op.query:
            found.sort(key=lambda i: -(i[0].score or 0.0))
        else:
            found.sort(key=lambda i: i[0].updated_at, reverse=True)
        page = found[op.offset:wanted]
        if op.refresh_ttl:
            for _, owner, memory in page:
                self._refresh(owner, memory, now)
        return [item for item, *_ in page]

    def _listed(self, owner: str, tag: Optional[str] = None) -> list[Memory]:
        """All of an owner's items, or those with `tag` (`list` pages by creation; the caller
        orders them)."""
        items: list[Memory] = []
        while True:
            page = self.mnemo.list(entity_id=owner, tag=tag, limit=PAGE, offset=len(items))["memories"]
            items.extend(page)
            if len(page) < PAGE:
                return items

    def _namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        def fits(namespace: tuple[str, ...]) -> bool:
            for condition in op.match_conditions or ():
                path = tuple(condition.path)
                if len(namespace) < len(path):
                    return False
                if condition.match_type == "prefix":
                    pairs = zip(namespace, path)
                elif condition.match_type == "suffix":
                    pairs = zip(reversed(namespace), reversed(path))
                else:
                    raise MnemoError("invalid_input", f"invalid match_type: {condition.match_type!r} (prefix or suffix)")
                if any(p != "*" and n != p for n, p in pairs):
                    return False
            return True

        now = self.mnemo.now()

        def live(owner: str) -> bool:
            """Whether an owner holds an item a read returns (with `omit_expired`, one not
            expired)."""
            if not self._may_omit():
                return True
            expired = sum(1 for m in self._listed(owner, TTL_TAG) if _expired(m, now))
            return expired == 0 or self.mnemo.stats(entity_id=owner)["total"] > expired

        spaces = {ns[: op.max_depth] if op.max_depth is not None else ns for o, ns in self._held() if fits(ns) and live(o)}
        return sorted(spaces)[op.offset: op.offset + op.limit]

    # Writes.
    def _put(self, ops: list[PutOp]) -> None:
        """Applies puts and deletes: new items in one `seed`, changed ones by `update`,
        deleted ones by `forget`; every indexed text embedded in one call."""
        changes: list[tuple[PutOp, Optional[Memory], str, str, Optional[float]]] = []
        gone: list[tuple[str, str]] = []
        # Everything is read and checked before anything is written.
        for op in ops:
            current = self._memory(op.namespace, op.key)
            if op.value is None:
                if current is not None:
                    gone.append((owner_of(op.namespace, self.prefix), current["id"]))
            else:
                changes.append((op, current, self._content(op), self._text(op), _check_ttl(op.ttl)))
        vectors: list[Any] = []
        texts = [text for _, _, _, text, _ in changes]
        for start in range(0, len(texts), PAGE):
            vectors.extend(self.mnemo.embed(texts=texts[start:start + PAGE])["vectors"])
        known = self._known()
        for owner, id in gone:
            self.mnemo.forget(entity_id=owner, id=id)
        # A namespace whose last item went is no longer listed.
        for owner in {owner for owner, _ in gone}:
            if known is not None and self.mnemo.stats(entity_id=owner)["total"] == 0:
                known.pop(owner, None)
        new: list[NewMemory] = []
        now = self.mnemo.now()
        for (op, current, content, _, ttl), vector in zip(changes, vectors):
            owner = owner_of(op.namespace, self.prefix)
            tags = ["langgraph", f"key:{_digest(op.key)[:32]}", *_ttl_tags(ttl, now)]
            if current is None:
                new.append({
                    "entity_id": owner,
                    "content": content,
                    "vector": vector,
                    "pinned": True,
                    "tags": tags,
                })
            else:
                self.mnemo.update(entity_id=owner, id=current["id"], patch={"content": content, "vector": vector, "tags": tags})
        for start in range(0, len(new), PAGE):
            report = self.mnemo.seed(items=new[start:start + PAGE])
            for outcome in report["outcomes"]:
                if outcome["action"] != "created":
                    raise MnemoError("internal", f"an item was not stored as its own memory: {outcome}")
        if known is not None:
            known.update((owner_of(op.namespace, self.prefix), op.namespace) for op, *_ in changes)

    def _content(self, op: PutOp) -> str:
        if not isinstance(op.value, dict):
            raise MnemoError("invalid_input", f"invalid value: a dict, not {type(op.value).__name__}")
        try:
            content = json.dumps(
                {"key": op.key, "ref": _digest(op.key)[:16], "value": op.value},
                ensure_ascii=False, separators=(",", ":"), allow_nan=False,
            )
        except (TypeError, ValueError) as e:
            raise MnemoError("invalid_input", f"invalid value for key {op.key!r}: not JSON ({e})") from None
        if len(content) > MAX_CONTENT:
            raise MnemoError(
                "invalid_input",
                f"invalid value for key {op.key!r}: {len(content):,} characters as JSON with its key, "
                f"over {MAX_CONTENT:,}; keep long texts as documents (Mnemo's ingest)",
            )
        return content

    def _text(self, op: PutOp) -> str:
        """The text embedded for an item: its indexed fields, else every string in it."""
        fields = _fields(op.index) if isinstance(op.index, list) else self.fields
        if fields:
            parts = [t for f in fields for t in get_text_at_path(op.value, f)]
        else:
            parts = list(_strings(op.value))
        text = "\n".join(p for p in parts if p.strip())
        return text[:MAX_CONTENT] if text.strip() else json.dumps(op.value, ensure_ascii=False)[:MAX_CONTENT]


def _fields(fields: Any) -> Optional[list[str]]:
    if fields is None:
        return None
    if not isinstance(fields, (list, tuple)) or not all(isinstance(f, str) and f for f in fields):
        raise MnemoError("invalid_input", "invalid index.fields: a list of paths (\"text\", \"a.b\", \"items[*].name\")")
    return [f for f in fields if f != "$"] or None


def _strings(value: Any) -> Iterable[str]:
    """Every string in a JSON value, in order (keys left out)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


__all__ = ["MnemoStore", "owner_of", "namespace_of", "PREFIX", "TTL_TAG"]
