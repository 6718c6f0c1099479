# Generated from the engine's call declarations (mnemo_core::api) by
# `cargo run -p mnemo-wasm --example bindings`; do not edit.
"""The engine's calls as methods of `Mnemo`, one per declared call."""

from __future__ import annotations

from typing import Any, Dict, List, Tuple


class Calls:
    """Every engine call as a method: keyword arguments as the call's schema names them
    (see docs/API.md), the answer as parsed JSON."""

    def call(self, method: str, args: Dict[str, Any] | None = None) -> Any:
        """Runs one engine call by its name with its arguments."""
        raise NotImplementedError

    def remember(self, *, entity_id: str, content: str | None = None, messages: List[Dict[str, Any]] | None = None, extracted: List[Dict[str, Any]] | None = None, llm_output: str | None = None, agent_id: str | None = None, session_id: str | None = None, source_ref: str | None = None, team_id: str | None = None, visibility: str | None = None, source: str | None = None) -> Any:
        """Remembers a piece of conversation: the extractor (or the host's own extraction, or an LLM's answer) turns it into memories, which are stored with dedup and conflict checks.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            content: The piece of conversation, at most 50,000 characters (a chat capture's `User:` / `Assistant:` lines keep only the user's turns). Required unless `messages` is given. Optional.
            messages: The conversation as role-tagged messages instead of `content` (at least one): only what the user said is remembered. Optional.
            extracted: Memories the host already extracted from `content` (an LLM extractor, or `extract` plus host vectors); when absent the engine's extractor runs. Optional.
            llm_output: An LLM's raw answer to the `llm_instructions` for `content`: checked by the engine; when it cannot be used the built-in extractor runs and the report says why. Optional.
            agent_id: The agent that took part, stored with each memory (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). Optional.
            session_id: The conversation session, stored with each memory; memories of one session lend each other relevance in search (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). Optional.
            source_ref: Where the conversation came from (a message id, a document and chunk): 1 to 1,024 characters, stored with each memory (default none). Optional.
            team_id: The team the memories are shared with, stored with them (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). Optional.
            visibility: Who besides the owner's agent may see them (default private). Optional.
            source: Who said it, which sets the memories' trust (default conversation, trust 0.6). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("content", content), ("messages", messages), ("extracted", extracted), ("llm_output", llm_output), ("agent_id", agent_id), ("session_id", session_id), ("source_ref", source_ref), ("team_id", team_id), ("visibility", visibility), ("source", source)]
        return self.call("remember", {k: v for k, v in given if v is not None})

    def extract(self, *, content: str) -> Any:
        """What the extractor finds in a text, without storing anything.

        Arguments (docs/API.md):
            content: The text to extract memories from: not blank, at most 50,000 characters.
        """
        given: List[Tuple[str, Any]] = [("content", content)]
        return self.call("extract", {k: v for k, v in given if v is not None})

    def seed(self, *, items: List[Dict[str, Any]]) -> Any:
        """Stores structured memories (at most 10,000, one transaction) with three-tier dedup.

        Arguments (docs/API.md):
            items: The memories to store, in order, in one transaction (at most 10,000).
        """
        given: List[Tuple[str, Any]] = [("items", items)]
        return self.call("seed", {k: v for k, v in given if v is not None})

    def search(self, *, entity_id: str, query: str, agent_id: str | None = None, team_aware: bool | None = None, vector: List[float] | None = None, limit: int | None = None, mode: str | None = None, recall: str | None = None, include_archived: bool | None = None, types: List[str] | None = None, min_score: float | None = None, entities: List[str] | None = None, kinds: List[str] | None = None, per_document: int | None = None) -> Any:
        """Hybrid search of one owner's memories, ranked by a mode; every hit says why.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            query: What to look for, in words: at most 10,000 characters; may be empty when `vector` is given.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            team_aware: With `agent_id`: false to search only the agent's own memories, as Keyoku's client asks when it is not team-aware (default true: everything the agent may see). Optional.
            vector: The query's vector, when the caller embeds it; else the engine's embedder is used. Optional.
            limit: Results wanted, 1 to 1,000 (default 10). Optional.
            mode: How hits are ordered among comparably relevant ones (default balanced). Optional.
            recall: Which kinds of memory may appear (default full_context: every kind). Optional.
            include_archived: Search ARCHIVED memories too (default false: only when the others give too few good answers). Optional.
            types: Only these types (any when empty). Optional.
            min_score: Drop hits whose relevance (`why.relevance`, 0 to 1, comparable across queries) is below this (default: the configuration's `recall.min_relevance`, 0.1; 0 with `entities`). Optional.
            entities: Only memories that name one of these entities of the owner's graph (names or aliases). Optional.
            kinds: Only these kinds (any the recall filter admits when empty): `["passage"]` searches documents only, `["fact"]` leaves them out. Optional.
            per_document: Most passages of one document in the results, 1 to 1,000 (default 3): a long document does not fill the list by itself. Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("query", query), ("agent_id", agent_id), ("team_aware", team_aware), ("vector", vector), ("limit", limit), ("mode", mode), ("recall", recall), ("include_archived", include_archived), ("types", types), ("min_score", min_score), ("entities", entities), ("kinds", kinds), ("per_document", per_document)]
        return self.call("search", {k: v for k, v in given if v is not None})

    def get(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Any:
        """One memory by id (an access: an archived memory comes back).

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return self.call("get", {k: v for k, v in given if v is not None})

    def list(self, *, entity_id: str, agent_id: str | None = None, types: List[str] | None = None, states: List[str] | None = None, statuses: List[str] | None = None, kinds: List[str] | None = None, tag: str | None = None, pinned: bool | None = None, ids: List[str] | None = None, limit: int | None = None, offset: int | None = None, oldest_first: bool | None = None) -> Any:
        """A page of an owner's memories, filtered, newest first unless asked otherwise.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            types: Only memories of these types (any when empty). Optional.
            states: Only memories in these lifecycle states (any but DELETED when empty). Optional.
            statuses: Only memories with these validity statuses (any when empty). Optional.
            kinds: Only memories of these kinds (any when empty). Optional.
            tag: Only memories carrying this tag, manual or automatic (default any). Optional.
            pinned: Only pinned (true) or only unpinned (false) memories (default either). Optional.
            ids: Only these memories (at most 1,000 ids): a read of several by id that, unlike `get`, is not an access. Optional.
            limit: Page size, 1 to 1,000 (default 50). Optional.
            offset: Memories to skip before the page starts, at most 1,000,000,000 (default 0). Optional.
            oldest_first: Oldest first instead of newest first. Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("types", types), ("states", states), ("statuses", statuses), ("kinds", kinds), ("tag", tag), ("pinned", pinned), ("ids", ids), ("limit", limit), ("offset", offset), ("oldest_first", oldest_first)]
        return self.call("list", {k: v for k, v in given if v is not None})

    def update(self, *, entity_id: str, id: str, patch: Dict[str, Any], agent_id: str | None = None) -> Any:
        """Changes a memory; new content is re-hashed, re-embedded and re-indexed.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            patch: The changes; fields left out stay as they are.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("patch", patch), ("agent_id", agent_id)]
        return self.call("update", {k: v for k, v in given if v is not None})

    def forget(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Any:
        """Forgets a memory (soft delete; purged after the retention period).

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return self.call("forget", {k: v for k, v in given if v is not None})

    def forget_all(self, *, entity_id: str, agent_id: str | None = None) -> Any:
        """Forgets every memory of an owner.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id)]
        return self.call("forget_all", {k: v for k, v in given if v is not None})

    def locate(self, *, id: str) -> Any:
        """The owner of a memory found by its id alone (for hosts serving many owners behind one key); not found when no owner has it.

        Arguments (docs/API.md):
            id: The id of the memory to find the owner of.
        """
        given: List[Tuple[str, Any]] = [("id", id)]
        return self.call("locate", {k: v for k, v in given if v is not None})

    def sample(self, *, entity_id: str | None = None, agent_id: str | None = None, limit: int | None = None) -> Any:
        """Memories drawn at random (the host's randomness) from one owner or every owner; not an access.

        Arguments (docs/API.md):
            entity_id: Only this owner's memories (every owner's when absent): 1 to 256 characters of `[A-Za-z0-9_:.-]`. Optional.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            limit: How many memories to draw, 1 to 1,000 (default 10). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("limit", limit)]
        return self.call("sample", {k: v for k, v in given if v is not None})

    def store_stats(self) -> Any:
        """Counts of every owner's memories, and the owners.

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return self.call("store_stats", {k: v for k, v in given if v is not None})

    def reinforce(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Any:
        """Reinforces a memory: feedback +3, and it counts as used.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return self.call("reinforce", {k: v for k, v in given if v is not None})

    def demote(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Any:
        """Demotes a memory: feedback −1.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return self.call("demote", {k: v for k, v in given if v is not None})

    def pin(self, *, entity_id: str, id: str, pinned: bool, agent_id: str | None = None) -> Any:
        """Pins a memory (exempt from decay) or unpins it.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            pinned: True to pin (the memory no longer decays), false to unpin.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("pinned", pinned), ("agent_id", agent_id)]
        return self.call("pin", {k: v for k, v in given if v is not None})

    def set_status(self, *, entity_id: str, id: str, status: str, reason: str, agent_id: str | None = None) -> Any:
        """Changes a memory's validity status, with the reason in its history.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            status: The new validity status; it must differ from the memory's current one.
            reason: Why, written to the memory's status history: 1 to 1,000 characters once trimmed.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("status", status), ("reason", reason), ("agent_id", agent_id)]
        return self.call("set_status", {k: v for k, v in given if v is not None})

    def status_history(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Any:
        """A memory's status changes, oldest first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return self.call("status_history", {k: v for k, v in given if v is not None})

    def related(self, *, entity_id: str, id: str, agent_id: str | None = None, limit: int | None = None) -> Any:
        """Memories linked to this one — returned together by searches three times or more, or sharing its entities and tags — strongest link first: a chain of thought to follow.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory whose links to follow.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            limit: Memories wanted, 1 to 1,000 (default 10). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id), ("limit", limit)]
        return self.call("related", {k: v for k, v in given if v is not None})

    def stats(self, *, entity_id: str, agent_id: str | None = None) -> Any:
        """Counts of an owner's memories by type, state, status and tier.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id)]
        return self.call("stats", {k: v for k, v in given if v is not None})

    def maintain(self) -> Any:
        """The maintenance pass: decay, lifecycle and purges of the memories that are due.

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return self.call("maintain", {k: v for k, v in given if v is not None})

    def consolidate(self) -> Any:
        """The maintenance pass, then consolidation now: stale-edge cleanup, auto-tag refresh, cluster-and-merge and size-bounded pruning, each bounded per run (run again while `consolidation.more`). Store-wide work for the host, so not an MCP tool (an agent may act for one owner only).

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return self.call("consolidate", {k: v for k, v in given if v is not None})

    def export(self, *, entity_id: str, agent_id: str | None = None) -> Any:
        """All of one owner's memories as JSONL (vectors, status history, graph).

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id)]
        return self.call("export", {k: v for k, v in given if v is not None})

    def import_(self, *, jsonl: str) -> Any:
        """Imports JSONL: full exports restored exactly, plain records written like `seed`.

        Arguments (docs/API.md):
            jsonl: One JSON record per line: full records as `export` writes them, or plain records (`entity_id`, `content` and optional fields as in `seed`).
        """
        given: List[Tuple[str, Any]] = [("jsonl", jsonl)]
        return self.call("import", {k: v for k, v in given if v is not None})

    def ingest(self, *, entity_id: str, content: str, title: str | None = None, format: str | None = None, source: str | None = None, filename: str | None = None, mime: str | None = None, source_ref: str | None = None, tags: List[str] | None = None, agent_id: str | None = None, team_id: str | None = None, visibility: str | None = None, chunking: Dict[str, Any] | None = None) -> Any:
        """Stores a document (a file's text, a page, a transcript) as passages that search finds one by one: cut at headings and sentence ends, each embedded and indexed, tagged from the source; the same text again changes nothing, new text under the same `source_ref` replaces it.

        Arguments (docs/API.md):
            entity_id: The owner of the document (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            content: The document's text: plain text, markdown or HTML (see `format`; at most 10,000,000 characters). Hosts turn PDF into text first.
            title: The document's title (1 to 512 characters, one line), shown with every passage found (default: an HTML page's `<title>`, else its first heading, else the file's name, else its first line). Optional.
            format: How the text is written (default: what `mime`, else the extension of `filename`, says — `text/html` or `.html` is html; `text/plain`, `.txt` or a PDF's text is text —, else markdown). Optional.
            source: Where it came from (default upload). Optional.
            filename: The file's name (1 to 512 characters), whose extension and words become tags. Optional.
            mime: The file's media type (`text/markdown`, `application/pdf`, …), kept as given. Optional.
            source_ref: The document's identity at its source (a path, a URL, a connector's id): 1 to 1,024 characters. New text under the same `source_ref` replaces the document. Optional.
            tags: Manual tags, kept on the document and every passage: at most 64, each 1 to 64 characters; the system never removes them (default none). Optional.
            agent_id: The agent that stored it, stored with each passage (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). Optional.
            team_id: The team the document is shared with (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). Optional.
            visibility: Who besides the owner's agent may see it (default private, or the team's default). Optional.
            chunking: How the text is cut into passages (default 800 to 1,200 characters, 100 of overlap). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("content", content), ("title", title), ("format", format), ("source", source), ("filename", filename), ("mime", mime), ("source_ref", source_ref), ("tags", tags), ("agent_id", agent_id), ("team_id", team_id), ("visibility", visibility), ("chunking", chunking)]
        return self.call("ingest", {k: v for k, v in given if v is not None})

    def documents(self, *, entity_id: str, agent_id: str | None = None, all: bool | None = None) -> Any:
        """An owner's documents, newest first (superseded and forgotten ones with `all`).

        Arguments (docs/API.md):
            entity_id: The owner of the documents: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own documents, `global` ones and `team` ones of its teams (default none: the owner's view). Optional.
            all: Superseded versions and forgotten documents too (default false). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("all", all)]
        return self.call("documents", {k: v for k, v in given if v is not None})

    def document(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Any:
        """One document with its passages, in order.

        Arguments (docs/API.md):
            entity_id: The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            id: The document's id.
            agent_id: The agent the call is made for (default none: the owner's view); an agent forgets only documents it stored. Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return self.call("document", {k: v for k, v in given if v is not None})

    def forget_document(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Any:
        """Forgets a document and its passages (soft delete, as `forget`).

        Arguments (docs/API.md):
            entity_id: The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            id: The document's id.
            agent_id: The agent the call is made for (default none: the owner's view); an agent forgets only documents it stored. Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return self.call("forget_document", {k: v for k, v in given if v is not None})

    def import_notes(self, *, entity_id: str, markdown: str, source: str | None = None) -> Any:
        """Stores markdown notes (a MEMORY.md): each bullet and paragraph through the extractor, tagged with its heading; importing them again adds nothing.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            markdown: The notes, as markdown: at most 1,000,000 characters and 10,000 notes.
            source: Where they come from (a file name): memories get `source_ref` `{source}:{line}` (default `notes`). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("markdown", markdown), ("source", source)]
        return self.call("import_notes", {k: v for k, v in given if v is not None})

    def embedding_model(self) -> Any:
        """The model and dimension of the store's vectors.

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return self.call("embedding_model", {k: v for k, v in given if v is not None})

    def embed(self, *, texts: List[str]) -> Any:
        """Vectors of texts by the store's embedder (at most 1,000 texts; nothing is stored).

        Arguments (docs/API.md):
            texts: The texts to embed: 1 to 1,000, each not blank and at most 50,000 characters.
        """
        given: List[Tuple[str, Any]] = [("texts", texts)]
        return self.call("embed", {k: v for k, v in given if v is not None})

    def reembed(self, *, model: str) -> Any:
        """Moves the store to another built-in embedder (`mnemo-static-v1`, `mnemo-hash-v1`): every memory embedded again in one transaction. Store-wide, so not an MCP tool.

        Arguments (docs/API.md):
            model: The built-in embedder to move to: `mnemo-static-v1` or `mnemo-hash-v1`.
        """
        given: List[Tuple[str, Any]] = [("model", model)]
        return self.call("reembed", {k: v for k, v in given if v is not None})

    def entities(self, *, entity_id: str, agent_id: str | None = None, types: List[str] | None = None, query: str | None = None, limit: int | None = None, offset: int | None = None) -> Any:
        """The entities of an owner's knowledge graph, most mentioned first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say — entities they name, relationships they state, counted from them (default none: the owner's whole graph). Optional.
            types: Only these types (any when empty). Optional.
            query: Only entities with a name or alias containing this (case-insensitive). Optional.
            limit: Page size, 1 to 1,000 (default 50). Optional.
            offset: Entities to skip before the page starts (default 0). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("types", types), ("query", query), ("limit", limit), ("offset", offset)]
        return self.call("entities", {k: v for k, v in given if v is not None})

    def relationships(self, *, entity_id: str, agent_id: str | None = None, entity: str | None = None, relations: List[str] | None = None, min_strength: float | None = None, stated_only: bool | None = None, limit: int | None = None) -> Any:
        """Relationships of an owner's graph (or of one entity), strongest first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say — entities they name, relationships they state, counted from them (default none: the owner's whole graph). Optional.
            entity: Only relationships touching this entity (a name or alias). Optional.
            relations: Only these relations (any when empty). Optional.
            min_strength: Drop relationships weaker than this (strength is 0 to 1; default none dropped). Optional.
            stated_only: Leave out inferred reverse edges. Optional.
            limit: At most this many, strongest first, 1 to 1,000 (default 50). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("entity", entity), ("relations", relations), ("min_strength", min_strength), ("stated_only", stated_only), ("limit", limit)]
        return self.call("relationships", {k: v for k, v in given if v is not None})

    def traverse(self, *, entity_id: str, from_: str, agent_id: str | None = None, depth: int | None = None, relations: List[str] | None = None, min_strength: float | None = None) -> Any:
        """A breadth-first walk of the graph from an entity.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            from_: Where to start (a name or alias; `user` is the owner).
            agent_id: The agent the call is made for: it sees what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say — entities they name, relationships they state, counted from them (default none: the owner's whole graph). Optional.
            depth: Hops to walk, 1 to 5 (default 2). Optional.
            relations: Follow only these relations (any when empty). Optional.
            min_strength: Follow only relationships at least this strong (strength is 0 to 1; default any). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("from", from_), ("agent_id", agent_id), ("depth", depth), ("relations", relations), ("min_strength", min_strength)]
        return self.call("traverse", {k: v for k, v in given if v is not None})

    def path(self, *, entity_id: str, from_: str, to: str, agent_id: str | None = None, max_depth: int | None = None) -> Any:
        """The shortest path between two entities.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            from_: The entity to start from (a name or alias; `user` is the owner).
            to: The entity to reach (a name or alias).
            agent_id: The agent the call is made for: it sees what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say — entities they name, relationships they state, counted from them (default none: the owner's whole graph). Optional.
            max_depth: Longest path looked for, in hops, 1 to 5 (default 5). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("from", from_), ("to", to), ("agent_id", agent_id), ("max_depth", max_depth)]
        return self.call("path", {k: v for k, v in given if v is not None})

    def conflicts(self, *, entity_id: str, agent_id: str | None = None, status: str | None = None, limit: int | None = None) -> Any:
        """Conflicts found on writes, newest first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            status: Only open (or only resolved) conflicts. Optional.
            limit: At most this many, newest first, 1 to 1,000 (default 50). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("status", status), ("limit", limit)]
        return self.call("conflicts", {k: v for k, v in given if v is not None})

    def resolve_conflict(self, *, entity_id: str, id: str, resolution: str, reason: str | None = None) -> Any:
        """Decides an open conflict.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The conflict's id, as `conflicts` lists it.
            resolution: Which statement stands.
            reason: Why, written to the memories' status history: 1 to 1,000 characters once trimmed (default "resolved by the user"). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("resolution", resolution), ("reason", reason)]
        return self.call("resolve_conflict", {k: v for k, v in given if v is not None})

    def llm_instructions(self) -> Any:
        """The instructions an LLM extractor is given, with the JSON schema of its answer.

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return self.call("llm_instructions", {k: v for k, v in given if v is not None})

    def schedule_create(self, *, entity_id: str, content: str, cron_tag: str, agent_id: str | None = None) -> Any:
        """Creates a schedule: a cron-tagged plan that falls due again and again.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            content: What the schedule is for, stored as a PLAN memory: not blank, at most 50,000 characters.
            cron_tag: When it falls due: `cron:hourly`, `cron:daily[:HH:MM]`, `cron:weekly:DAY:HH:MM`, `cron:weekdays:HH:MM`, `cron:monthly:D:HH:MM`, `cron:every:<duration>` (1 minute to 366 days) or `cron:once:<RFC 3339 time>` (in the future); times in UTC.
            agent_id: The agent whose plan it is, recorded with its memory (it and the owner's view see it; 1 to 256 characters of `[A-Za-z0-9_:.-]`; default none: the owner's). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("content", content), ("cron_tag", cron_tag), ("agent_id", agent_id)]
        return self.call("schedule_create", {k: v for k, v in given if v is not None})

    def schedules(self, *, entity_id: str, agent_id: str | None = None, all: bool | None = None) -> Any:
        """An owner's schedules, soonest due first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            all: Done and cancelled schedules too (default false: only active ones). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("all", all)]
        return self.call("schedules", {k: v for k, v in given if v is not None})

    def scheduled(self, *, entity_id: str, agent_id: str | None = None) -> Any:
        """The schedules due now, each due time reported once.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id)]
        return self.call("scheduled", {k: v for k, v in given if v is not None})

    def schedule_ack(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Any:
        """Acknowledges a schedule: it moves on to its next due time.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The schedule's id (its PLAN memory's).
            agent_id: The agent the call is made for: it changes only its own schedules (default none: the owner's view, which changes any). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return self.call("schedule_ack", {k: v for k, v in given if v is not None})

    def schedule_update(self, *, entity_id: str, id: str, agent_id: str | None = None, content: str | None = None, cron_tag: str | None = None) -> Any:
        """Changes a schedule's text or tag.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The schedule's id (its PLAN memory's).
            agent_id: The agent the call is made for: it changes only its own schedules (default none: the owner's view, which changes any). Optional.
            content: New text: not blank, at most 50,000 characters (default unchanged; give this or `cron_tag`). Optional.
            cron_tag: A new schedule tag, as `schedule_create` takes it; it falls due from now on (default unchanged). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id), ("content", content), ("cron_tag", cron_tag)]
        return self.call("schedule_update", {k: v for k, v in given if v is not None})

    def schedule_cancel(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Any:
        """Cancels a schedule.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The schedule's id (its PLAN memory's).
            agent_id: The agent the call is made for: it changes only its own schedules (default none: the owner's view, which changes any). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return self.call("schedule_cancel", {k: v for k, v in given if v is not None})

    def heartbeat_check(self, *, entity_id: str, agent_id: str | None = None, team_id: str | None = None, autonomy: str | None = None, in_conversation: bool | None = None, utc_offset_minutes: int | None = None, quiet_hours: Dict[str, Any] | None = None, deadline_window: str | None = None, max_results: int | None = None, dry_run: bool | None = None, as_of: int | None = None, query: str | None = None, top_k: int | None = None) -> Any:
        """Whether the agent should speak up for an owner now, and why; records the act unless a dry run. No model call.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            team_id: A team of the owner: the check sees that team's `team` memories and `global` ones (with `agent_id`, the agent's own too), as Keyoku's team heartbeat does (default none). Optional.
            autonomy: How freely the agent may speak up (default: the configuration's, `suggest`). Optional.
            in_conversation: Whether the owner is in a conversation now; by default, a message under 15 min old. Optional.
            utc_offset_minutes: The owner's offset from UTC in minutes, -840 to 840 (default: the configuration's, 0). Optional.
            quiet_hours: The owner's quiet hours, local time (default: the configuration's, 23 to 7, enabled). Optional.
            deadline_window: How far ahead deadlines count, as a duration such as "24h" or "3d": more than 0 and at most 366 days (default: the configuration's, 24 hours). Optional.
            max_results: Most items per signal, 1 to 100 (default 20). Optional.
            dry_run: Decide but record nothing (no act, no schedule marked surfaced). Optional.
            as_of: Decide as of this time instead of the host's clock, in milliseconds since the Unix epoch from 1973 to 9999: memories written later are not seen, and an act is recorded at this time (Keyoku's `virtual_now`; to replay or simulate a day, with `dry_run` to record nothing) (default now). Optional.
            query: `heartbeat_context` only: also search memories for this text, at most 10,000 characters (default none). Optional.
            top_k: `heartbeat_context` only: how many memories the query returns, 1 to 1,000 (default 5). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("team_id", team_id), ("autonomy", autonomy), ("in_conversation", in_conversation), ("utc_offset_minutes", utc_offset_minutes), ("quiet_hours", quiet_hours), ("deadline_window", deadline_window), ("max_results", max_results), ("dry_run", dry_run), ("as_of", as_of), ("query", query), ("top_k", top_k)]
        return self.call("heartbeat_check", {k: v for k, v in given if v is not None})

    def heartbeat_context(self, *, entity_id: str, agent_id: str | None = None, team_id: str | None = None, autonomy: str | None = None, in_conversation: bool | None = None, utc_offset_minutes: int | None = None, quiet_hours: Dict[str, Any] | None = None, deadline_window: str | None = None, max_results: int | None = None, dry_run: bool | None = None, as_of: int | None = None, query: str | None = None, top_k: int | None = None) -> Any:
        """The heartbeat's report, the agent's recent messages and the memories matching a query.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            team_id: A team of the owner: the check sees that team's `team` memories and `global` ones (with `agent_id`, the agent's own too), as Keyoku's team heartbeat does (default none). Optional.
            autonomy: How freely the agent may speak up (default: the configuration's, `suggest`). Optional.
            in_conversation: Whether the owner is in a conversation now; by default, a message under 15 min old. Optional.
            utc_offset_minutes: The owner's offset from UTC in minutes, -840 to 840 (default: the configuration's, 0). Optional.
            quiet_hours: The owner's quiet hours, local time (default: the configuration's, 23 to 7, enabled). Optional.
            deadline_window: How far ahead deadlines count, as a duration such as "24h" or "3d": more than 0 and at most 366 days (default: the configuration's, 24 hours). Optional.
            max_results: Most items per signal, 1 to 100 (default 20). Optional.
            dry_run: Decide but record nothing (no act, no schedule marked surfaced). Optional.
            as_of: Decide as of this time instead of the host's clock, in milliseconds since the Unix epoch from 1973 to 9999: memories written later are not seen, and an act is recorded at this time (Keyoku's `virtual_now`; to replay or simulate a day, with `dry_run` to record nothing) (default now). Optional.
            query: `heartbeat_context` only: also search memories for this text, at most 10,000 characters (default none). Optional.
            top_k: `heartbeat_context` only: how many memories the query returns, 1 to 1,000 (default 5). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("team_id", team_id), ("autonomy", autonomy), ("in_conversation", in_conversation), ("utc_offset_minutes", utc_offset_minutes), ("quiet_hours", quiet_hours), ("deadline_window", deadline_window), ("max_results", max_results), ("dry_run", dry_run), ("as_of", as_of), ("query", query), ("top_k", top_k)]
        return self.call("heartbeat_context", {k: v for k, v in given if v is not None})

    def record_message(self, *, entity_id: str, role: str, content: str, agent_id: str | None = None, session_id: str | None = None, act_id: str | None = None, action_ref: str | None = None) -> Any:
        """Records a message of the conversation, so the heartbeat knows who talks.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            role: Who said it: `user` (the owner) or `agent`.
            content: What was said: not blank, at most 50,000 characters.
            agent_id: The agent whose conversation it is part of (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none: the owner's own). Optional.
            session_id: The conversation session (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). Optional.
            act_id: The act an agent message delivers (`act_id` of a heartbeat report; default none). Optional.
            action_ref: An act id the host made itself, as Keyoku's plugin sends (`action_id`): 1 to 1,024 characters; the message is linked to the act when it names one of the owner's, and recorded without a link when not (default none). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("role", role), ("content", content), ("agent_id", agent_id), ("session_id", session_id), ("act_id", act_id), ("action_ref", action_ref)]
        return self.call("record_message", {k: v for k, v in given if v is not None})

    def messages(self, *, entity_id: str, agent_id: str | None = None, limit: int | None = None) -> Any:
        """An owner's recorded conversation (both roles), newest first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: Only this agent's conversation (default none: every message of the owner's). Optional.
            limit: Messages wanted, newest first, 1 to 1,000 (default 50). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("limit", limit)]
        return self.call("messages", {k: v for k, v in given if v is not None})

    def team_create(self, *, entity_id: str, name: str, description: str | None = None, default_visibility: str | None = None, id: str | None = None) -> Any:
        """Makes a team of agents: its members see the memories written for it with visibility `team`.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            name: The team's name: 1 to 200 characters.
            description: What it is for: at most 2,000 characters (default empty). Optional.
            default_visibility: The visibility of memories written for the team without one (default `team`). Optional.
            id: The team's id: 1 to 256 characters of `[A-Za-z0-9_:.-]`, not one of the owner's teams already (default: a new id, `team_…`). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("name", name), ("description", description), ("default_visibility", default_visibility), ("id", id)]
        return self.call("team_create", {k: v for k, v in given if v is not None})

    def team_get(self, *, entity_id: str, team_id: str) -> Any:
        """A team of the owner.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id)]
        return self.call("team_get", {k: v for k, v in given if v is not None})

    def team_delete(self, *, entity_id: str, team_id: str) -> Any:
        """Deletes a team and its memberships; its memories stay with their writers.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id)]
        return self.call("team_delete", {k: v for k, v in given if v is not None})

    def team_member_add(self, *, entity_id: str, team_id: str, member_id: str, role: str | None = None) -> Any:
        """Adds an agent to a team.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
            member_id: The agent joining (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            role: What it is in the team (default member). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id), ("member_id", member_id), ("role", role)]
        return self.call("team_member_add", {k: v for k, v in given if v is not None})

    def team_members(self, *, entity_id: str, team_id: str) -> Any:
        """A team's members, in the order they joined.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id)]
        return self.call("team_members", {k: v for k, v in given if v is not None})

    def team_member_remove(self, *, entity_id: str, team_id: str, member_id: str) -> Any:
        """Removes an agent from a team (not its last member: delete the team instead).

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
            member_id: The member (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id), ("member_id", member_id)]
        return self.call("team_member_remove", {k: v for k, v in given if v is not None})
