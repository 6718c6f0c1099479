# Generated from the engine's call declarations (mnemo_core::api) by
# `cargo run -p mnemo-wasm --example bindings`; do not edit.
"""The engine's calls as methods of `Mnemo`, one per declared call, and the types of their
arguments and answers (typed dicts of the JSON they are)."""

from __future__ import annotations

from typing import Any, Dict, List, Literal, NotRequired, Tuple, TypeAlias, TypedDict, Union, cast

#: The eight memory types; each has a base stability.
MemoryType: TypeAlias = Literal["IDENTITY", "PREFERENCE", "RELATIONSHIP", "EVENT", "ACTIVITY", "PLAN", "CONTEXT", "EPHEMERAL"]

#: What sort of knowledge a memory holds; recall filters use it.
Kind: TypeAlias = Literal["fact", "procedure", "narrative", "passage"]

#: What an entity is.
EntityType: TypeAlias = Literal["PERSON", "ORGANIZATION", "LOCATION", "PRODUCT", "CONCEPT", "EVENT", "OTHER"]

#: A typed edge `from → to`, read "from *relation* to".
Relation: TypeAlias = Literal["works_at", "employs", "manages", "reports_to", "friend_of", "lives_in", "home_of", "parent_of", "child_of", "dating", "married_to", "engaged_to", "ex_of", "member_of", "has_member", "founded", "founded_by", "uses", "used_by", "created", "created_by", "collaborates_with", "mentors", "mentored_by", "competitor_of", "partner_of", "client_of", "serves", "sibling_of", "knows", "colleague_of", "neighbor_of", "roommate_of", "cousin_of", "relative_of", "grandparent_of", "grandchild_of", "studied_at", "teaches", "student_of", "owns", "owned_by", "has_pet", "pet_of", "located_in", "born_in", "works_on", "likes", "dislikes", "interested_in", "attends", "visited"]

#: Who may see a memory besides its owner's agent.
Visibility: TypeAlias = Literal["private", "team", "global"]

#: Who wrote the memory; decides its trust.
Source: TypeAlias = Literal["user", "agent", "conversation", "import"]

#: Memory layer: working memories promote to episodic, then semantic.
Layer: TypeAlias = Literal["working", "episodic", "semantic", "procedural", "codebase"]

#: Ranking mode: how much each signal weighs in the composite score.
RankMode: TypeAlias = Literal["balanced", "recent", "important", "historical", "comprehensive"]

#: Which kinds a search returns.
RecallFilter: TypeAlias = Literal["facts_only", "facts_plus_rules", "full_context"]

#: Lifecycle state, driven by retention.
State: TypeAlias = Literal["ACTIVE", "STALE", "ARCHIVED", "DELETED"]

#: Validity status; every change is written to the status history.
Status: TypeAlias = Literal["active", "challenged", "invalidated", "merged", "superseded"]

#: Methods without arguments take an empty object (or nothing).
NoArgs: TypeAlias = Dict[str, Any]

#: How a document's text is written, which says how it is read.
DocumentFormat: TypeAlias = Literal["text", "markdown", "html"]

#: Where a document came from; its first automatic tag.
DocumentSource: TypeAlias = Literal["upload", "chat", "connector", "web", "note", "email", "api"]

#: What a symbol is.
SymbolKind: TypeAlias = Literal["function", "method", "type", "interface", "enum", "module", "constant", "macro"]

#: What a host found at a path.
PathKind: TypeAlias = Literal["missing", "directory", "file"]

#: Where a bridge stands.
BridgeStatus: TypeAlias = Literal["proposed", "confirmed", "rejected"]

#: Whether a conflict still waits for a decision.
ConflictStatus: TypeAlias = Literal["open", "resolved"]

#: A decision on an open conflict.
Resolution: TypeAlias = Literal["keep_existing", "use_new", "merge", "keep_both"]

#: How the agent uses what the heartbeat finds. The engine decides whether to speak up; the level decides how, and how often.
Autonomy: TypeAlias = Literal["observe", "suggest", "act"]

#: Who wrote a recorded message.
MessageRole: TypeAlias = Literal["user", "agent"]

#: What a member is in its team (recorded for the host; both see the same memories).
TeamRole: TypeAlias = Literal["member", "admin"]

#: Why an input stored nothing.
SkipReason: TypeAlias = Literal["exact_duplicate", "semantic_duplicate", "subset", "not_significant", "corroborated"]

#: What kind of contradiction a conflict is.
ConflictKind: TypeAlias = Literal["negation", "stated_change", "preference_flip", "changed_number", "changed_place", "changed_job", "changed_relationship"]

#: How a conflict is resolved.
ConflictMode: TypeAlias = Literal["keep_existing", "use_new", "merge", "ask", "temporal"]

#: Storage tier: how often a memory is likely to be needed.
Tier: TypeAlias = Literal["hot", "warm", "archive"]

#: Which end of a run of events a question asks for.
Order: TypeAlias = Literal["earliest", "latest"]

#: What an ingest did.
IngestAction: TypeAlias = Literal["created", "unchanged", "replaced"]

#: Who wrote a summary.
SummaryBy: TypeAlias = Literal["sentences", "llm"]

#: A document version's status.
DocumentStatus: TypeAlias = Literal["active", "superseded"]

#: Who wrote a card's summary.
CardSummaryBy: TypeAlias = Literal["engine", "llm"]

#: Whether a schedule still falls due.
ScheduleStatus: TypeAlias = Literal["active", "done", "cancelled"]

#: Which step of should_act decided, and how.
DecisionReason: TypeAlias = Literal["first_contact", "act_deadline_critical", "suppress_time_period", "suppress_conversation_low", "no_signals", "act_immediate", "suppress_stale", "suppress_confluence", "act_confluence", "suppress_cooldown", "suppress_topic_repeat", "act", "nudge", "suppress_nudge_cap", "suppress_nudge_backoff"]

#: How urgent a signal is, least to most.
Urgency: TypeAlias = Literal["low", "normal", "elevated", "immediate"]

#: Part of the owner's day.
TimePeriod: TypeAlias = Literal["morning", "working", "evening", "late_night", "quiet"]

#: The 14 signals of the scan.
SignalKind: TypeAlias = Literal["scheduled", "deadlines", "conflicts", "continuity", "stale_monitors", "memory_velocity", "pending_work", "goal_progress", "knowledge_gaps", "positive_deltas", "decaying", "sentiment", "relationships", "patterns"]

#: How a goal (a PLAN) is going, worst first.
GoalStatus: TypeAlias = Literal["no_activity", "stalled", "at_risk", "on_track"]

#: What got better since the last act.
DeltaKind: TypeAlias = Literal["goal_improved", "entity_reengaged", "sentiment_improved"]

#: Direction of the owner's recent sentiment.
Trend: TypeAlias = Literal["declining", "stable", "improving"]

#: How pressing a silent entity is: urgent when a plan naming it is due within 14 days.
AlertLevel: TypeAlias = Literal["attention", "urgent"]


class RememberArgs(TypedDict):
    """Arguments of `remember`: a piece of conversation, or what a host extractor found in it."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The piece of conversation, at most 50,000 characters (a chat capture's `User:` / `Assistant:` lines keep only the user's turns). Required unless `messages` is given.
    content: NotRequired[str | None]
    #: The conversation as role-tagged messages instead of `content` (at least one): only what the user said is remembered.
    messages: NotRequired[List[ChatMessage] | None]
    #: Memories the host already extracted from `content` (an LLM extractor, or `extract` plus host vectors); when absent the engine's extractor runs.
    extracted: NotRequired[List[Extracted] | None]
    #: An LLM's raw answer to the `llm_instructions` for `content`: checked by the engine; when it cannot be used the built-in extractor runs and the report says why.
    llm_output: NotRequired[str | None]
    #: The agent that took part, stored with each memory (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    agent_id: NotRequired[str | None]
    #: The conversation session, stored with each memory; memories of one session lend each other relevance in search (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    session_id: NotRequired[str | None]
    #: Where the conversation came from (a message id, a document and chunk): 1 to 1,024 characters, stored with each memory (default none). In search, after the first of one message's statements, its others give way to other messages' hits.
    source_ref: NotRequired[str | None]
    #: The team the memories are shared with, stored with them (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    team_id: NotRequired[str | None]
    #: Who besides the owner's agent may see them (default private).
    visibility: NotRequired[Visibility | None]
    #: Who said it, which sets the memories' trust (default conversation, trust 0.6).
    source: NotRequired[Source | None]


class ChatMessage(TypedDict):
    """One message of a conversation, tagged with who said it."""

    #: `user` (also `human`, `me`), or the agent's side: `assistant`, `ai`, `bot`, `agent`, `model`, `system`, `tool`.
    role: str
    #: What was said: not blank.
    content: str


class Extracted(TypedDict):
    """One memory an extractor found in a text. From a host extractor only `content` is required; the rest defaults to a CONTEXT fact of importance 0.5, full confidence, neutral sentiment."""

    #: The memory's text: not blank, at most 50,000 characters.
    content: str
    #: The memory type, which sets how fast it decays (default CONTEXT).
    type: NotRequired[MemoryType]
    #: What sort of knowledge it is (default fact).
    kind: NotRequired[Kind]
    #: How much it matters, 0 to 1 (default 0.5).
    importance: NotRequired[float]
    #: How sure the statement is, 0 to 1 (default 1).
    confidence: NotRequired[float]
    #: Whether the speaker hedged ("I think", "maybe"); confidence is lower then (default false).
    hedged: NotRequired[bool]
    #: How it feels, from -1 to 1 (default 0).
    sentiment: NotRequired[float]
    #: Keywords, stored as the memory's auto tags: at most 64, each 1 to 64 characters once trimmed.
    tags: NotRequired[List[str]]
    #: When it stops being true, in milliseconds since the Unix epoch, from 1973 (an earlier value looks like seconds and is refused) to 9999 (default none).
    expires_at: NotRequired[int | None]
    #: The entities it names, for the knowledge graph (at most 64; default none).
    entities: NotRequired[List[EntityMention]]
    #: The relationships it states, for the knowledge graph (at most 64; default none).
    relationships: NotRequired[List[RelationMention]]
    #: The content's vector, when the host embeds what an extractor found.
    vector: NotRequired[List[float] | None]


class EntityMention(TypedDict):
    """An entity a memory names."""

    #: The entity's name: 1 to 256 characters, with a letter or digit.
    name: str
    #: What sort of entity it is.
    type: EntityType
    #: Other names of the same entity ("Ana" for "Ana Souza"): at most 64, each 1 to 256 characters with a letter or digit (default none).
    aliases: NotRequired[List[str]]


#: A relationship a memory states: `from relation to`; the speaker is [`SPEAKER`].
RelationMention = TypedDict("RelationMention", {
    #: The entity the relationship goes from (its name: 1 to 256 characters, with a letter or digit).
    "from": "str",
    #: The relation.
    "relation": "Relation",
    #: The entity it goes to (its name: 1 to 256 characters, with a letter or digit).
    "to": "str",
    #: How sure the statement is, 0 to 1: lower when it is hedged.
    "confidence": "float",
})


class ExtractArgs(TypedDict):
    """Arguments of `extract`."""

    #: The text to extract memories from: not blank, at most 50,000 characters.
    content: str


class SeedArgs(TypedDict):
    """Arguments of `seed`."""

    #: The memories to store, in order, in one transaction (at most 10,000).
    items: List[NewMemory]


class NewMemory(TypedDict):
    """A structured memory to store. Only `entity_id` and `content` are required."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: What to remember: not blank, at most 50,000 characters (stored trimmed).
    content: str
    #: The memory type, which sets how fast it decays (default EVENT).
    type: NotRequired[MemoryType | None]
    #: What sort of knowledge it is, for recall filters (default fact).
    kind: NotRequired[Kind | None]
    #: The memory layer (default working; use and time promote it).
    layer: NotRequired[Layer | None]
    #: How much it matters, 0 to 1 (default 0.5, then adjusted by how surprising it is).
    importance: NotRequired[float | None]
    #: How sure the statement is, 0 to 1 (default 1).
    confidence: NotRequired[float | None]
    #: How it feels, from -1 (negative) to 1 (positive) (default 0).
    sentiment: NotRequired[float | None]
    #: Who wrote it, which sets its trust (default agent, trust 0.7).
    source: NotRequired[Source | None]
    #: Manual tags: at most 64, each 1 to 64 characters once trimmed, duplicates dropped (default none).
    tags: NotRequired[List[str]]
    #: Pinned memories do not decay (default false).
    pinned: NotRequired[bool]
    #: When the memory stops being true (a deadline), in milliseconds since the Unix epoch, from 1973 (an earlier value looks like seconds and is refused) to 9999 (default none).
    expires_at: NotRequired[int | None]
    #: A schedule tag starting `cron:`, at most 128 characters (default none; `schedule_create` checks the full grammar).
    cron_tag: NotRequired[str | None]
    #: Where it came from (a message id, a document and chunk): 1 to 1,024 characters (default none).
    source_ref: NotRequired[str | None]
    #: The agent that wrote it (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    agent_id: NotRequired[str | None]
    #: The conversation session it belongs to (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    session_id: NotRequired[str | None]
    #: The team it is shared with (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    team_id: NotRequired[str | None]
    #: Who besides the owner's agent may see it (default private).
    visibility: NotRequired[Visibility | None]
    #: When it was first said, in milliseconds since the Unix epoch (not seconds: times before 1973 are refused as a likely unit mistake), not after now (default now): it ages from then.
    created_at: NotRequired[int | None]
    #: The content's vector, when the caller embeds it.
    vector: NotRequired[List[float] | None]


class SearchRequest(TypedDict):
    """A search. Only `entity_id` and `query` (or `vector`) are required."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: With `agent_id`: false to search only the agent's own memories, as Keyoku's client asks when it is not team-aware (default true: everything the agent may see).
    team_aware: NotRequired[bool | None]
    #: What to look for, in words: at most 10,000 characters; may be empty when `vector` is given.
    query: str
    #: The query's vector, when the caller embeds it; else the engine's embedder is used.
    vector: NotRequired[List[float] | None]
    #: Results wanted, 1 to 1,000 (default 10).
    limit: NotRequired[int | None]
    #: How hits are ordered among comparably relevant ones (default balanced).
    mode: NotRequired[RankMode]
    #: Which kinds of memory may appear (default full_context: every kind).
    recall: NotRequired[RecallFilter]
    #: Search ARCHIVED memories too (default false: only when the others give too few good answers).
    include_archived: NotRequired[bool]
    #: Only these types (any when empty).
    types: NotRequired[List[MemoryType]]
    #: Drop hits whose relevance (`why.relevance`, 0 to 1, comparable across queries) is below this (default: the configuration's `recall.min_relevance`, 0.1; 0 with `entities`).
    min_score: NotRequired[float | None]
    #: Only memories that name one of these entities of the owner's graph (names or aliases).
    entities: NotRequired[List[str]]
    #: Only these kinds (any the recall filter admits when empty): `["passage"]` searches documents only, `["fact"]` leaves them out.
    kinds: NotRequired[List[Kind]]
    #: Most passages of one document in the results, 1 to 1,000 (default 3): a long document does not fill the list by itself.
    per_document: NotRequired[int | None]
    #: Only memories said at or after this time (milliseconds since the Unix epoch; a memory is said at its `created_at`).
    after: NotRequired[int | None]
    #: Only memories said before this time (milliseconds since the Unix epoch); with `after`, later than it.
    before: NotRequired[int | None]
    #: What "now" is for this question (milliseconds since the Unix epoch): the time its words such as "yesterday", "last weekend" or "next Friday" are read against (default the engine's clock). Without `after` and `before`, a span the query names ranks first the memories said in it, those said outside it that name a time in it ("last month", said later; "next Friday", said before), and those due in it (`expires_at`).
    as_of: NotRequired[int | None]


class MemoryRef(TypedDict):
    """One memory of one owner."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    id: str


class ListRequest(TypedDict):
    """Filters and paging for `list`. Empty lists mean "any"; by default DELETED memories are left out."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: Only memories of these types (any when empty).
    types: NotRequired[List[MemoryType]]
    #: Only memories in these lifecycle states (any but DELETED when empty).
    states: NotRequired[List[State]]
    #: Only memories with these validity statuses (any when empty).
    statuses: NotRequired[List[Status]]
    #: Only memories of these kinds (any when empty).
    kinds: NotRequired[List[Kind]]
    #: Only memories carrying this tag, manual or automatic (default any).
    tag: NotRequired[str | None]
    #: Only pinned (true) or only unpinned (false) memories (default either).
    pinned: NotRequired[bool | None]
    #: Only these memories (at most 1,000 ids): a read of several by id that, unlike `get`, is not an access.
    ids: NotRequired[List[str]]
    #: Page size, 1 to 1,000 (default 50).
    limit: NotRequired[int | None]
    #: Memories to skip before the page starts, at most 1,000,000,000 (default 0).
    offset: NotRequired[int]
    #: Oldest first instead of newest first.
    oldest_first: NotRequired[bool]


class UpdateArgs(TypedDict):
    """Arguments of `update`."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    id: str
    #: The changes; fields left out stay as they are.
    patch: MemoryPatch


class MemoryPatch(TypedDict):
    """Changes for `update`; absent fields stay as they are."""

    #: New content: not blank, at most 50,000 characters; re-hashed, re-embedded and re-indexed.
    content: NotRequired[str | None]
    #: Vector for the new content, when the caller embeds it.
    vector: NotRequired[List[float] | None]
    #: A new memory type.
    type: NotRequired[MemoryType | None]
    #: A new kind.
    kind: NotRequired[Kind | None]
    #: A new importance, 0 to 1.
    importance: NotRequired[float | None]
    #: A new confidence, 0 to 1.
    confidence: NotRequired[float | None]
    #: A new sentiment, from -1 to 1.
    sentiment: NotRequired[float | None]
    #: Replaces the manual tags: at most 64, each 1 to 64 characters once trimmed.
    tags: NotRequired[List[str] | None]
    #: A new expiry (a deadline), in milliseconds since the Unix epoch, from 1973 (an earlier value looks like seconds and is refused) to 9999.
    expires_at: NotRequired[int | None]
    #: A new source reference: 1 to 1,024 characters.
    source_ref: NotRequired[str | None]


class OwnerRef(TypedDict):
    """One owner."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]


class IdRef(TypedDict):
    """A memory by its id alone."""

    #: The id of the memory to find the owner of.
    id: str


class SampleRequest(TypedDict):
    """Arguments of `sample`."""

    #: Only this owner's memories (every owner's when absent): 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    entity_id: NotRequired[str | None]
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: How many memories to draw, 1 to 1,000 (default 10).
    limit: NotRequired[int | None]


class PinArgs(TypedDict):
    """Arguments of `pin`."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    id: str
    #: True to pin (the memory no longer decays), false to unpin.
    pinned: bool


class SetStatusArgs(TypedDict):
    """Arguments of `set_status`."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    id: str
    #: The new validity status; it must differ from the memory's current one.
    status: Status
    #: Why, written to the memory's status history: 1 to 1,000 characters once trimmed.
    reason: str


class SetLayerArgs(TypedDict):
    """Arguments of `set_layer`."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    id: str
    #: The layer to move it to; it must differ from the memory's current one.
    layer: Layer
    #: Why, written to the memory's status history: 1 to 1,000 characters once trimmed.
    reason: str


class RelatedRequest(TypedDict):
    """Which memory's links to read."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: The memory whose links to follow.
    id: str
    #: Memories wanted, 1 to 1,000 (default 10).
    limit: NotRequired[int | None]


class ImportArgs(TypedDict):
    """Arguments of `import`: JSONL as made by `export`, or plain records."""

    #: One JSON record per line: full records as `export` writes them, or plain records (`entity_id`, `content` and optional fields as in `seed`).
    jsonl: str


class IngestRequest(TypedDict):
    """Arguments of `ingest`: a document to store as searchable passages."""

    #: The owner of the document (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The document's title (1 to 512 characters, one line), shown with every passage found (default: an HTML page's `<title>`, else its first heading, else the file's name, else its first line).
    title: NotRequired[str | None]
    #: The document's text: plain text, markdown or HTML (see `format`; at most 10,000,000 characters). Hosts turn PDF into text first.
    content: str
    #: How the text is written (default: what `mime`, else the extension of `filename`, says — `text/html` or `.html` is html; `text/plain`, `.txt` or a PDF's text is text —, else markdown).
    format: NotRequired[DocumentFormat | None]
    #: Where it came from (default upload).
    source: NotRequired[DocumentSource | None]
    #: The file's name (1 to 512 characters), whose extension and words become tags.
    filename: NotRequired[str | None]
    #: The file's media type (`text/markdown`, `application/pdf`, …), kept as given.
    mime: NotRequired[str | None]
    #: The document's identity at its source (a path, a URL, a connector's id): 1 to 1,024 characters. New text under the same `source_ref` replaces the document.
    source_ref: NotRequired[str | None]
    #: Manual tags, kept on the document and every passage: at most 64, each 1 to 64 characters; the system never removes them (default none).
    tags: NotRequired[List[str]]
    #: The agent that stored it, stored with each passage (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    agent_id: NotRequired[str | None]
    #: The team the document is shared with (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    team_id: NotRequired[str | None]
    #: Who besides the owner's agent may see it (default private, or the team's default).
    visibility: NotRequired[Visibility | None]
    #: How the text is cut into passages (default 800 to 1,200 characters, 100 of overlap).
    chunking: NotRequired[ChunkSizes | None]


class ChunkSizes(TypedDict):
    """How a document is cut: the sizes a source's documents are chunked at."""

    #: Shortest passage aimed for, in characters: a passage ends at the first sentence end past it (default 800; 100 to 10,000).
    min_chars: NotRequired[int]
    #: Longest passage, in characters (default 1,200; 100 to 20,000; below `min_chars` it is taken as `min_chars`).
    max_chars: NotRequired[int]
    #: Characters of overlap between passages, taken as whole sentences when they fit (default 100; 0 to 5,000; more than half of `min_chars` is taken as half).
    overlap: NotRequired[int]


class CodeIngest(TypedDict):
    """Arguments of `ingest_code`: the files a host read from a repository, parsed."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent writing (its memories are its own, `private`).
    agent_id: NotRequired[str | None]
    #: The files (1 to 1,000), each once.
    files: List[CodeFile]
    #: Whether `files` is the whole tree: files of earlier runs not listed are then gone (invalidated), and code names memories cite with no file are checked against it. Send a large tree in several calls, `complete` on none of them, and let drift detection (`--workspace`) find what was deleted.
    complete: NotRequired[bool]


class CodeFile(TypedDict):
    """One source file: parsed by the host (its `language`, `lines`, `summary` and `symbols`), or its `text` for the engine to parse (the `mnemo` binary, the component and the Python package read Rust, Python, TypeScript, JavaScript and Go with tree-sitter; the npm package reads it with its parser module, `@mnemo/memory/parser`, before the call)."""

    #: Its path from the repository's root, `/`-separated (1 to 1,024 characters, no `..`).
    path: str
    #: Its language, lower case (`rust`, `python`, `typescript`, `javascript`, `go`, …; 1 to 32 characters). Required with `symbols`; with `text`, read from the path's extension when left out.
    language: NotRequired[str | None]
    #: Its number of lines. Required with `symbols`; with `text`, counted from it.
    lines: NotRequired[int | None]
    #: What it is for, in a line (its module comment), if it says. With `text`, read from it.
    summary: NotRequired[str | None]
    #: Its public symbols, in order of line. With `text`, read from it.
    symbols: NotRequired[List[Symbol]]
    #: The file's source text (at most 1 MiB), for the engine to parse instead of `lines`, `summary` and `symbols`; not stored.
    text: NotRequired[str | None]


class Symbol(TypedDict):
    """A symbol a file defines."""

    #: What it is.
    kind: SymbolKind
    #: Its name (1 to 200 characters).
    name: str
    #: Its signature, one line (`fn check_token(token: &str) -> bool`; cut to 240 characters).
    signature: NotRequired[str]
    #: The line it starts on (1-based).
    line: int


class DocumentsRequest(TypedDict):
    """Arguments of `documents`."""

    #: The owner of the documents: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    entity_id: str
    #: The agent the call is made for: it sees its own documents, `global` ones and `team` ones of its teams (default none: the owner's view).
    agent_id: NotRequired[str | None]
    #: Superseded versions and forgotten documents too (default false).
    all: NotRequired[bool]


class DocumentRef(TypedDict):
    """Arguments of `document` and `forget_document`."""

    #: The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    entity_id: str
    #: The document's id.
    id: str
    #: The agent the call is made for (default none: the owner's view); an agent forgets only documents it stored.
    agent_id: NotRequired[str | None]


class SummaryWrite(TypedDict):
    """Arguments of `write_summary`."""

    #: The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    entity_id: str
    #: The document's id.
    document_id: str
    #: The passage's place in the document, from 0; none for the document's own summary.
    position: NotRequired[int | None]
    #: The summary the host's LLM wrote: at most two sentences for a passage, three for a document, shorter than the text it summarises.
    summary: str
    #: The agent the call is made for (default none: the owner's view); an agent writes only the summaries of documents it stored.
    agent_id: NotRequired[str | None]


class BridgeDecision(TypedDict):
    """Arguments of `decide_bridge`: the host's LLM's decision on a proposed bridge."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The bridge's id, as `bridges` or `synthesis.wanted` give it.
    id: str
    #: Whether the memories show the two really connected.
    related: bool
    #: How the first relates to the second, a few words (at most 80 characters; needed when related).
    relation: NotRequired[str]
    #: Why, citing the memories: at most 480 characters.
    reason: str


class DriftFindings(TypedDict):
    """Arguments of `drift`: what a host found at paths an owner's memories cite."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: What is at each path (1 to 1,000), as the memories cite it (`drift.wanted` lists them).
    paths: List[PathFound]


class PathFound(TypedDict):
    """What a host found at one path."""

    #: The path, as memories cite it (1 to 1,024 characters).
    path: str
    #: `missing`, `directory` or `file`.
    state: PathKind
    #: A file's number of lines, when counted (a cited line past it is a dead reference).
    lines: NotRequired[int | None]


class CardSummaryWrite(TypedDict):
    """Arguments of `write_card_summary`: the host's LLM's summary of a card, in place of the engine's."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The entity (a name or alias), as `card` takes it.
    name: str
    #: Two or three sentences, at most 720 characters: kept while the card's facts stand.
    summary: str


class NotesImport(TypedDict):
    """Arguments of `import_notes`."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The notes, as markdown: at most 1,000,000 characters and 10,000 notes.
    markdown: str
    #: Where they come from (a file name): memories get `source_ref` `{source}:{line}` (default `notes`).
    source: NotRequired[str | None]


class EmbedRequest(TypedDict):
    """Arguments of [`Engine::embed`]."""

    #: The texts to embed: 1 to 1,000, each not blank and at most 50,000 characters.
    texts: List[str]


class ReembedRequest(TypedDict):
    """Arguments of [`Engine::reembed`]."""

    #: The built-in embedder to move to: `mnemo-static-v1` or `mnemo-hash-v1`.
    model: str


class EntitiesRequest(TypedDict):
    """Filters and paging for [`Engine::entities`](crate::Engine::entities)."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say — entities they name, relationships they state, counted from them (default none: the owner's whole graph).
    agent_id: NotRequired[str | None]
    #: Only these types (any when empty).
    types: NotRequired[List[EntityType]]
    #: Only entities with a name or alias containing this (case-insensitive).
    query: NotRequired[str | None]
    #: Page size, 1 to 1,000 (default 50).
    limit: NotRequired[int | None]
    #: Entities to skip before the page starts (default 0).
    offset: NotRequired[int]


class RelationshipsRequest(TypedDict):
    """Filters for [`Engine::relationships`](crate::Engine::relationships)."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say — entities they name, relationships they state, counted from them (default none: the owner's whole graph).
    agent_id: NotRequired[str | None]
    #: Only relationships touching this entity (a name or alias).
    entity: NotRequired[str | None]
    #: Only these relations (any when empty).
    relations: NotRequired[List[Relation]]
    #: Drop relationships weaker than this (strength is 0 to 1; default none dropped).
    min_strength: NotRequired[float | None]
    #: Leave out inferred reverse edges.
    stated_only: NotRequired[bool]
    #: At most this many, strongest first, 1 to 1,000 (default 50).
    limit: NotRequired[int | None]


#: A breadth-first walk from one entity, for [`Engine::traverse`](crate::Engine::traverse).
TraverseRequest = TypedDict("TraverseRequest", {
    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    "entity_id": "str",
    #: The agent the call is made for: it sees what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say — entities they name, relationships they state, counted from them (default none: the owner's whole graph).
    "agent_id": "NotRequired[str | None]",
    #: Where to start (a name or alias; `user` is the owner).
    "from": "str",
    #: Hops to walk, 1 to 5 (default 2).
    "depth": "NotRequired[int | None]",
    #: Follow only these relations (any when empty).
    "relations": "NotRequired[List[Relation]]",
    #: Follow only relationships at least this strong (strength is 0 to 1; default any).
    "min_strength": "NotRequired[float | None]",
})


class CardRequest(TypedDict):
    """Arguments of `card`."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: its card is made from what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say (default none: the owner's view, every memory).
    agent_id: NotRequired[str | None]
    #: The entity: a name or alias, as `entities` lists them.
    name: str


class BridgesRequest(TypedDict):
    """Arguments of `bridges`."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees the bridges that the memories it may see make (its own, `global` ones and `team` ones of its teams), with those as evidence (default none: the owner's view).
    agent_id: NotRequired[str | None]
    #: Only bridges of this status (default all).
    status: NotRequired[BridgeStatus | None]
    #: At most this many, 1 to 1000 (default 50), the most contexts first.
    limit: NotRequired[int | None]


#: The shortest path between two entities, for [`Engine::path`](crate::Engine::path).
PathRequest = TypedDict("PathRequest", {
    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    "entity_id": "str",
    #: The agent the call is made for: it sees what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say — entities they name, relationships they state, counted from them (default none: the owner's whole graph).
    "agent_id": "NotRequired[str | None]",
    #: The entity to start from (a name or alias; `user` is the owner).
    "from": "str",
    #: The entity to reach (a name or alias).
    "to": "str",
    #: Longest path looked for, in hops, 1 to 5 (default 5).
    "max_depth": "NotRequired[int | None]",
})


class ConflictsRequest(TypedDict):
    """Filters for [`Engine::conflicts`](crate::Engine::conflicts)."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: Only open (or only resolved) conflicts.
    status: NotRequired[ConflictStatus | None]
    #: At most this many, newest first, 1 to 1,000 (default 50).
    limit: NotRequired[int | None]


class ResolveRequest(TypedDict):
    """A decision on an open conflict, for [`Engine::resolve_conflict`](crate::Engine::resolve_conflict)."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The conflict's id, as `conflicts` lists it.
    id: str
    #: Which statement stands.
    resolution: Resolution
    #: Why, written to the memories' status history: 1 to 1,000 characters once trimmed (default "resolved by the user").
    reason: NotRequired[str | None]


class ScheduleCreate(TypedDict):
    """A new schedule, for [`Engine::schedule_create`](crate::Engine::schedule_create)."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: What the schedule is for, stored as a PLAN memory: not blank, at most 50,000 characters.
    content: str
    #: When it falls due: `cron:hourly`, `cron:daily[:HH:MM]`, `cron:weekly:DAY:HH:MM`, `cron:weekdays:HH:MM`, `cron:monthly:D:HH:MM`, `cron:every:<duration>` (1 minute to 366 days) or `cron:once:<RFC 3339 time>` (in the future); times in UTC.
    cron_tag: str
    #: The agent whose plan it is, recorded with its memory (it and the owner's view see it; 1 to 256 characters of `[A-Za-z0-9_:.-]`; default none: the owner's).
    agent_id: NotRequired[str | None]


class SchedulesRequest(TypedDict):
    """Which schedules [`Engine::schedules`](crate::Engine::schedules) lists."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: Done and cancelled schedules too (default false: only active ones).
    all: NotRequired[bool]


class ScheduleRef(TypedDict):
    """One schedule of one owner."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it changes only its own schedules (default none: the owner's view, which changes any).
    agent_id: NotRequired[str | None]
    #: The schedule's id (its PLAN memory's).
    id: str


class ScheduleUpdate(TypedDict):
    """Changes to a schedule, for [`Engine::schedule_update`](crate::Engine::schedule_update)."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it changes only its own schedules (default none: the owner's view, which changes any).
    agent_id: NotRequired[str | None]
    #: The schedule's id (its PLAN memory's).
    id: str
    #: New text: not blank, at most 50,000 characters (default unchanged; give this or `cron_tag`).
    content: NotRequired[str | None]
    #: A new schedule tag, as `schedule_create` takes it; it falls due from now on (default unchanged).
    cron_tag: NotRequired[str | None]


class HeartbeatRequest(TypedDict):
    """Arguments of `heartbeat_check` and `heartbeat_context`; unset options take the engine's `heartbeat` configuration."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory).
    agent_id: NotRequired[str | None]
    #: A team of the owner: the check sees that team's `team` memories and `global` ones (with `agent_id`, the agent's own too), as Keyoku's team heartbeat does (default none).
    team_id: NotRequired[str | None]
    #: How freely the agent may speak up (default: the configuration's, `suggest`).
    autonomy: NotRequired[Autonomy | None]
    #: Whether the owner is in a conversation now; by default, a message under 15 min old.
    in_conversation: NotRequired[bool | None]
    #: The owner's offset from UTC in minutes, -840 to 840 (default: the configuration's, 0).
    utc_offset_minutes: NotRequired[int | None]
    #: The owner's quiet hours, local time (default: the configuration's, 23 to 7, enabled).
    quiet_hours: NotRequired[QuietHours | None]
    #: How far ahead deadlines count, as a duration such as "24h" or "3d": more than 0 and at most 366 days (default: the configuration's, 24 hours).
    deadline_window: NotRequired[str | None]
    #: Most items per signal, 1 to 100 (default 20).
    max_results: NotRequired[int | None]
    #: Decide but record nothing (no act, no schedule marked surfaced).
    dry_run: NotRequired[bool]
    #: Decide as of this time instead of the host's clock, in milliseconds since the Unix epoch from 1973 to 9999: memories written later are not seen, and an act is recorded at this time (Keyoku's `virtual_now`; to replay or simulate a day, with `dry_run` to record nothing) (default now).
    as_of: NotRequired[int | None]
    #: `heartbeat_context` only: also search memories for this text, at most 10,000 characters (default none).
    query: NotRequired[str | None]
    #: `heartbeat_context` only: how many memories the query returns, 1 to 1,000 (default 5).
    top_k: NotRequired[int | None]


class QuietHours(TypedDict):
    """The owner's quiet hours: local hours `start` up to (not including) `end`, wrapping past midnight when `start > end`."""

    #: Whether quiet hours apply.
    enabled: NotRequired[bool]
    #: The local hour they begin, 0 to 23.
    start: NotRequired[int]
    #: The local hour they end (exclusive), 0 to 23; before `start` they run past midnight.
    end: NotRequired[int]


class RecordMessage(TypedDict):
    """A message of the conversation, for [`Engine::record_message`](crate::Engine::record_message)."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: Who said it: `user` (the owner) or `agent`.
    role: MessageRole
    #: What was said: not blank, at most 50,000 characters.
    content: str
    #: The agent whose conversation it is part of (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none: the owner's own).
    agent_id: NotRequired[str | None]
    #: The conversation session (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
    session_id: NotRequired[str | None]
    #: The act an agent message delivers (`act_id` of a heartbeat report; default none).
    act_id: NotRequired[str | None]
    #: An act id the host made itself, as Keyoku's plugin sends (`action_id`): 1 to 1,024 characters; the message is linked to the act when it names one of the owner's, and recorded without a link when not (default none).
    action_ref: NotRequired[str | None]


class MessagesRequest(TypedDict):
    """Arguments of `messages`: an owner's recorded conversation."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: Only this agent's conversation (default none: every message of the owner's).
    agent_id: NotRequired[str | None]
    #: Messages wanted, newest first, 1 to 1,000 (default 50).
    limit: NotRequired[int | None]


class TeamCreate(TypedDict):
    """Arguments of `team_create`."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The team's name: 1 to 200 characters.
    name: str
    #: What it is for: at most 2,000 characters (default empty).
    description: NotRequired[str]
    #: The visibility of memories written for the team without one (default `team`).
    default_visibility: NotRequired[Visibility | None]
    #: The team's id: 1 to 256 characters of `[A-Za-z0-9_:.-]`, not one of the owner's teams already (default: a new id, `team_…`).
    id: NotRequired[str | None]


class TeamRef(TypedDict):
    """One team of one owner."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The team's id, as `team_create` answered.
    team_id: str


class MemberAdd(TypedDict):
    """Arguments of `team_member_add`."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The team's id, as `team_create` answered.
    team_id: str
    #: The agent joining (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    member_id: str
    #: What it is in the team (default member).
    role: NotRequired[TeamRole | None]


class MemberRef(TypedDict):
    """One member of one team."""

    #: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    entity_id: str
    #: The team's id, as `team_create` answered.
    team_id: str
    #: The member (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    member_id: str


class WriteReport(TypedDict):
    """Per-input outcomes of a write, in input order."""

    #: What happened to each input, in input order.
    outcomes: List[Outcome]
    #: Why the built-in extractor stood in for an LLM's answer (`remember` only).
    fallback: NotRequired[str | None]


class OutcomeCreated(TypedDict):
    """A new memory was stored."""

    #: What happened to the input: created, merged, skipped or conflict.
    action: Literal["created"]
    #: The id of the memory stored.
    id: str


class OutcomeMerged(TypedDict):
    """The input and an existing memory were merged into a new memory `id`; the existing one (`absorbed`) now has status merged."""

    #: What happened to the input: created, merged, skipped or conflict.
    action: Literal["merged"]
    #: The id of the new memory holding both.
    id: str
    #: The id of the existing memory merged into it (now with status merged).
    absorbed: str
    #: Cosine similarity of the input and the absorbed memory, 0 to 1.
    similarity: float


class OutcomeSkipped(TypedDict):
    """Nothing stored; `existing` is the memory that made it redundant."""

    #: What happened to the input: created, merged, skipped or conflict.
    action: Literal["skipped"]
    #: Why nothing was stored.
    reason: SkipReason
    #: The id of the memory that made the input redundant (none when the extractor found nothing).
    existing: str | None
    #: Cosine similarity of the input and that memory, 0 to 1, when they were compared by vector.
    similarity: float | None


class OutcomeConflict(TypedDict):
    """The input contradicted memory `existing`; `mode` says what was done and `id` is the memory stored for it (none under keep_existing). `conflict` is listed by `conflicts`."""

    #: What happened to the input: created, merged, skipped or conflict.
    action: Literal["conflict"]
    #: The id of the memory stored for the input (none under keep_existing).
    id: str | None
    #: The id of the memory the input contradicted.
    existing: str
    #: What kind of contradiction it is.
    kind: ConflictKind
    #: What was done about it.
    mode: ConflictMode
    #: The id of the conflict, as `conflicts` lists it.
    conflict: str


class SearchHit(TypedDict):
    """One search result and why it ranked there."""

    #: The memory found.
    memory: Memory
    #: Its composite score under the search's mode (higher ranks first).
    score: float
    #: How the score was made.
    why: ScoreBreakdown
    #: For a passage of a document: which document, and where in it.
    passage: NotRequired[PassageOf | None]


class Memory(TypedDict):
    """One stored memory, as every surface returns it."""

    #: The memory's id, unique in the store.
    id: str
    #: The owner the memory belongs to.
    entity_id: str
    #: The agent that wrote it, if one was named.
    agent_id: str | None
    #: The conversation session it belongs to, if one was named.
    session_id: str | None
    #: The team it is shared with, if any.
    team_id: str | None
    #: Who besides the owner's agent may see it.
    visibility: Visibility
    #: What the memory says.
    content: str
    #: SHA-256 (hex) of the normalised content.
    content_hash: str
    #: The memory type, which sets how fast it decays.
    type: MemoryType
    #: What sort of knowledge it holds (fact, procedure, narrative).
    kind: Kind
    #: The memory layer: working, episodic, semantic or procedural.
    layer: Layer
    #: The lifecycle state, driven by retention: ACTIVE, STALE, ARCHIVED or DELETED.
    state: State
    #: The validity status: active, challenged, invalidated, merged or superseded.
    status: Status
    #: The storage tier: hot, warm or archive.
    tier: Tier
    #: How much it matters, 0 to 1.
    importance: float
    #: How sure the statement is, 0 to 1.
    confidence: float
    #: How it feels, from -1 (negative) to 1 (positive).
    sentiment: float
    #: Who wrote it: user, agent, conversation or import.
    source: Source
    #: Trust of its source, 0 to 1 (user 1, agent 0.7, conversation 0.6, import 0.5).
    trust: float
    #: How many times it was used (returned by a search, read with `get`, reinforced).
    access_count: int
    #: When it was last used, in milliseconds since the Unix epoch (none until first used).
    last_accessed_at: int | None
    #: Feedback score: reinforce +3, demote −1.
    feedback: int
    #: Whether it is pinned (pinned memories do not decay).
    pinned: bool
    #: Tags added by the caller; the system never removes them.
    manual_tags: List[str]
    #: Tags added by the system.
    auto_tags: List[str]
    #: When it stops being true, in milliseconds since the Unix epoch (none when it does not).
    expires_at: int | None
    #: Its schedule tag (`cron:…`), when it is a schedule's plan.
    cron_tag: str | None
    #: Where it came from (a message id, a document and chunk), if given.
    source_ref: str | None
    #: Surprise at write time (0..1): how far the memory was from its nearest neighbours.
    surprise: float | None
    #: For a memory with status `merged`: the memory that absorbed it.
    merged_into: str | None
    #: When it was first said, in milliseconds since the Unix epoch; it ages from then.
    created_at: int
    #: When it was last written, in milliseconds since the Unix epoch.
    updated_at: int
    #: When the current lifecycle state began, in milliseconds since the Unix epoch.
    state_changed_at: int
    #: When it was forgotten, in milliseconds since the Unix epoch (none unless DELETED).
    deleted_at: int | None
    #: When its layer was set by hand (`set_layer`), in milliseconds since the Unix epoch: automatic promotion then leaves it in that layer (absent when never set by hand).
    layer_set_at: NotRequired[int | None]
    #: How many times another session or source said the same thing (a write dedup found to repeat it): independent corroboration, each raising its confidence (absent while 0).
    confirmations: NotRequired[int]


class ScoreBreakdown(TypedDict):
    """Why a hit ranked where it did: every input of its score."""

    #: How relevant the memory is to the query, 0–1, comparable across queries: its own (vector_weight·cosine⁺ + (1 − vector_weight)·text) or what a session neighbour lent it, whichever is higher. `min_score` is compared with this.
    relevance: float
    #: Relevance relative to the best match of this query (1 = the best match).
    semantic: float
    #: Cosine similarity of the query vector and the memory's vector, divided by the mixed-precision penalty when consolidation stored the vector with fewer bits.
    vector: float
    #: Text relevance: the share of the query's words the memory says (a vague word such as "own" weighing a quarter), weighed by their rarity (BM25), squared so that saying one word of several is weak evidence; 0 when none matched.
    text: float
    #: The words of the query the memory says (compared by stem), in the order asked; common words only when the query has no other.
    matched: List[str]
    #: Relevance lent by a neighbouring memory: one of the same session, or one linked by co-recall when `recall.link_weight` is on (0 when none).
    context: float
    #: How recently the memory was used (or made), 0 to 1: 1 / (1 + rate × days since).
    recency: float
    #: How much of the memory is retained by its decay curve, 0 to 1.
    retention: float
    #: The importance the mode weighed, 0 to 1: in the `important` mode all nine `importance_factors` weighed; in the others, which weigh recency and retention of their own, the importance the memory was written with (`importance_factors.base`).
    importance: float
    #: The nine factors of the memory's importance, each 0 to 1, with their weights: base (as written, with surprise) 0.25, frequency of use 0.12, recency of use 0.12, valence 0.06, stability of use 0.08, layer 0.10, source trust 0.10, confirmations 0.07, ACT-R activation 0.10.
    importance_factors: Factors
    #: The memory's confidence, 0 to 1.
    confidence: float
    #: e^(0.2·feedback).
    feedback_multiplier: float
    #: Penalty for STALE memories (1 otherwise).
    state_multiplier: float
    #: Penalty for the codebase layer's file of tests or benchmarks when the query does not ask about tests (they name the functions of the code they test more often than it does): [`TEST_FILE_PENALTY`]; 1, and not shown, otherwise.
    test_file_multiplier: NotRequired[float]
    #: Boost for a memory that names a time ("yesterday", "in March", "last week") when the query asks when (and names no span of its own): [`WHEN_BOOST`]; 1, and not shown, otherwise.
    when_multiplier: NotRequired[float]
    #: Penalty for a transcript line ("Melanie: …") of another speaker than the one the query names ("What does Caroline do?"), when the query names the speaker of a line that matches it: 0.7 (`recall::speaker`); 1, and not shown, otherwise.
    speaker_multiplier: NotRequired[float]
    #: The ranking mode the score was made under.
    mode: RankMode
    #: The span of time the query named ("last weekend", "10 days ago"), when it named one and gave no `after`/`before`: the memories said inside it rank first.
    period: NotRequired[PeriodMatch | None]
    #: The order of time the query asked for ("the first": `earliest`, "the most recent": `latest`), on the hits it put in that order: the closest matches among the first `limit`, ordered by when they were said.
    order: NotRequired[Order | None]
    #: A relation the query named ("my sister", "Ana's husband") and the entity of the owner's knowledge graph it was followed to, on a hit found by that entity's name, matched in the relation's place.
    hop: NotRequired[Hop | None]
    #: The id of the hit ranked above it that was said in the same message (the same `source_ref`, at the same moment): this one gave way to other messages' hits, and follows them.
    gave_way_to: NotRequired[str | None]


class Factors(TypedDict):
    """The nine factors of a memory's importance, each from 0 to 1 — or, as [`WEIGHTS`], the share each has of the whole."""

    #: The importance the memory was written with: its type's base, emphasis, feelings, names and deadlines, less for hedging, moved by surprise (how unlike its neighbours it was).
    base: float
    #: How often it was used (returned by a search, read, reinforced), on a log scale: ln(1 + uses) / ln(21), full at 20 uses.
    frequency: float
    #: How lately it was used (or made): halves every 30 days for a user's own words, faster for less trusted sources (30 / (1 + 2·(1 − trust)) days).
    recency: float
    #: How strongly it feels, either way: |sentiment|.
    valence: float
    #: Steady use rather than a burst: (1 − e^(−span/7 days)) × min(1, uses / 3), the span running from when it was made to its last use.
    stability: float
    #: Its layer: working 0, episodic 1/3, procedural 2/3, semantic 1 (engram's boosts 0, 0.1, 0.2, 0.3, scaled to 1).
    layer: float
    #: The trust of its source (user 1, agent 0.7, conversation 0.6, import 0.5).
    trust: float
    #: Independent confirmations (the same thing said in another session or by another source): ln(1 + confirmations) / ln(5), full at 4.
    confirmations: float
    #: ACT-R base-level activation B = ln(Σ tⱼ^−0.5) over its making and its uses (t in days, the uses between the first and the last spread evenly), as 1 / (1 + e^−B): one mention a day ago is 0.5, a month ago 0.15.
    activation: float


class PeriodMatch(TypedDict):
    """The span of time a query named, and whether a hit was said inside it or tells of it."""

    #: Its start (milliseconds since the Unix epoch, inclusive); absent when it has none ("before 2020").
    after: NotRequired[int | None]
    #: Its end (exclusive); absent when it has none ("after March").
    before: NotRequired[int | None]
    #: The memory was said inside it.
    inside: bool
    #: Said outside it, the memory names a time inside it ("last month", said in April of March; "next Friday", said before it), or is due inside it (`expires_at`): it tells of the span and ranks with what was said there.
    tells: NotRequired[bool]


class Hop(TypedDict):
    """A relation the query named, and who the owner's knowledge graph says it is: the hit was found through that entity ("my sister" → Ana, "my sister's husband" → Rui, "my company" → Acme)."""

    #: The query's words naming the relation ("my sister", "Ana's husband", "my company").
    phrase: str
    #: The entity of the owner's knowledge graph they name ("Ana").
    entity: str


class PassageOf(TypedDict):
    """Where a passage found by search lies: its document and section."""

    #: The document's id (`document` shows it whole).
    document_id: str
    #: The document's title.
    title: str
    #: The markdown headings above the passage, outermost first.
    section: List[str]
    #: The passage's place in the document, from 0.
    position: int
    #: How many passages the document has.
    passages: int
    #: Where the passage begins in the document's text, in characters.
    start: int
    #: Where it ends (exclusive), in characters.
    end: int
    #: One or two sentences that stand for it.
    summary: str


class Page(TypedDict):
    """A page of memories from `list`."""

    #: How many memories match the filters in all (not just this page).
    total: int
    #: The memories of this page, in the order asked.
    memories: List[Memory]


class ForgetAllReport(TypedDict):
    """What `forget_all` did."""

    #: The owner whose memories were forgotten.
    entity_id: str
    #: Memories forgotten (soft-deleted; purged after the retention period).
    forgotten: int


class Location(TypedDict):
    """Where a memory lives, as answered by `locate`."""

    #: The memory's id, as asked.
    id: str
    #: The owner the memory belongs to.
    entity_id: str
    #: Whether the memory is a schedule (its id also addresses the schedule calls).
    schedule: bool


class StoreStats(TypedDict):
    """Counts of every owner's memories, as answered by `store_stats`."""

    #: Owners with memories not deleted, by id.
    owners: List[OwnerCount]
    #: Memories not deleted.
    total: int
    #: Memories not deleted, by memory type.
    by_type: Dict[str, int]
    #: Includes DELETED (soft-deleted, not yet purged).
    by_state: Dict[str, int]
    #: Memories not deleted, by validity status.
    by_status: Dict[str, int]
    #: Memories not deleted, by storage tier.
    by_tier: Dict[str, int]
    #: The name of the store's embedding model.
    embedding_model: str
    #: The length of its vectors.
    embedding_dim: int
    #: Vectors of memories not deleted, by how they are stored (f32, int8, int4, int2).
    by_precision: Dict[str, int]
    #: Bytes those vectors take in the store.
    vector_bytes: int


class OwnerCount(TypedDict):
    """One owner in the store's counts."""

    #: The owner.
    entity_id: str
    #: Memories not deleted.
    total: int


class StatusChange(TypedDict):
    """One entry of a memory's status audit trail."""

    #: The status before the change.
    old: Status
    #: The status after the change.
    new: Status
    #: Why it changed.
    reason: str
    #: When it changed, in milliseconds since the Unix epoch.
    changed_at: int
    #: For a move between layers (`set_layer`; the status stays): the layers before and after.
    layer: NotRequired[LayerChange | None]


class LayerChange(TypedDict):
    """A memory's move between layers, by hand."""

    #: The layer before.
    old: Layer
    #: The layer after.
    new: Layer


class RelatedMemory(TypedDict):
    """A memory linked to another, and what links them."""

    #: The linked memory.
    memory: Memory
    #: The stronger of the two links, 0–1: co-recall (+0.1 per co-recall, ×0.95 per day) and shared content (0.3 per shared tag, half for a tag only the extractor gave, + 0.4 per shared entity + 0.3·cosine, at most 1, as consolidation last weighed it).
    strength: float
    #: Times searches returned the two together (0 when no co-recall link is formed).
    co_recalls: int
    #: When searches last returned them together, in milliseconds since the Unix epoch (none without a co-recall link).
    last_recalled_at: int | None
    #: Tags both carry (their sources aside), now.
    shared_tags: List[str]
    #: Entities of the graph both name, now.
    shared_entities: List[str]


class Stats(TypedDict):
    """Counts of one owner's memories."""

    #: The owner counted.
    entity_id: str
    #: Memories not deleted.
    total: int
    #: Memories not deleted, by memory type.
    by_type: Dict[str, int]
    #: Includes DELETED (soft-deleted, not yet purged).
    by_state: Dict[str, int]
    #: Memories not deleted, by validity status.
    by_status: Dict[str, int]
    #: Memories not deleted, by storage tier.
    by_tier: Dict[str, int]
    #: The name of the store's embedding model.
    embedding_model: str
    #: The length of its vectors.
    embedding_dim: int
    #: Vectors of memories not deleted, by how they are stored (f32, int8, int4, int2).
    by_precision: Dict[str, int]
    #: Bytes those vectors take in the store.
    vector_bytes: int


class MaintainReport(TypedDict):
    """What one maintenance pass did."""

    #: Rows whose due time had come and were looked at.
    examined: int
    #: Memories that turned STALE.
    to_stale: int
    #: Memories that were ARCHIVED.
    to_archived: int
    #: Memories that were DELETED (expired or faded out).
    to_deleted: int
    #: Memories promoted to a higher layer.
    promoted: int
    #: Deleted memories removed for good after the retention period.
    purged: int
    #: What consolidation did, when the pass ran it (`consolidate`, or `maintain` once its cadence came round).
    consolidation: Consolidation | None


class Consolidation(TypedDict):
    """What one consolidation did, step by step."""

    #: Stale relationships and withdrawn evidence removed from the graph.
    edges: EdgesReport
    #: Memories challenged because newer ones of their scope say otherwise.
    probing: ProbeReport
    #: Memories invalidated because a path they cite is gone from the host's workspace, and restored when it is back.
    drift: DriftReport
    #: Automatic tags refreshed.
    tags: TagsReport
    #: Clusters of near-duplicate memories merged.
    clusters: ClusterReport
    #: Memories archived to keep owners within `max_memories`.
    pruning: PruneReport
    #: Memories linked by the entities and tags they share.
    relationships: RelateReport
    #: Entity pairs named together in different contexts proposed as bridges, and those the host's LLM confirmed or rejected.
    synthesis: SynthesisReport
    #: Co-recall links decayed (×0.95 per day) and removed (below 0.1).
    links: LinksReport
    #: Memories moved between hot, warm and archive tiers.
    tiers: TiersReport
    #: Vectors stored with fewer bits as their memories faded.
    quantisation: QuantiseReport
    #: Documents' and passages' summaries rewritten by the host's LLM.
    summaries: SummariesReport
    #: Peer cards' summaries written by the host's LLM.
    cards: CardsReport
    #: Heartbeat acts and recorded messages older than `heartbeat.keep_days` dropped.
    events: EventsReport
    #: A step stopped at its bound: run again to finish.
    more: bool


class EdgesReport(TypedDict):
    """What stale-edge cleanup did."""

    #: Evidence rows of superseded and forgotten memories withdrawn.
    evidence_withdrawn: int
    #: Relationships removed: left without evidence, or stale and weak.
    relationships_removed: int
    #: The step stopped at its bound.
    more: bool


class ProbeReport(TypedDict):
    """What belief probing did."""

    #: Memories challenged: newer memories of their scope say otherwise.
    challenged: int
    #: The step stopped at its bound.
    more: bool


class DriftReport(TypedDict):
    """What drift detection did."""

    #: Whether the host names a workspace (else the step checked nothing, and lists the paths waiting in `wanted`).
    workspace: bool
    #: Memories citing paths whose state was known.
    checked: int
    #: Memories invalidated: a path they cite is gone, or a line past its file's end.
    invalidated: int
    #: Memories drift had invalidated whose paths are all back, restored.
    restored: int
    #: Paths the host could not tell about (outside the workspace, unreadable): their memories are left as they are.
    unknown: int
    #: The step stopped at its bound: run again to finish.
    more: bool
    #: With no workspace: each owner's paths the memories examined cite, for a host to check and report with `drift`.
    wanted: NotRequired[List[DriftWanted]]


class DriftWanted(TypedDict):
    """Paths an owner's memories cite, waiting for a host to check them."""

    #: The owner.
    entity_id: str
    #: The paths, as the memories cite them.
    paths: List[str]


class TagsReport(TypedDict):
    """What auto-tag refresh did."""

    #: Memories given automatic tags.
    tagged: int
    #: The step stopped at its bound.
    more: bool


class ClusterReport(TypedDict):
    """What cluster-and-merge did."""

    #: Memories looked at.
    examined: int
    #: Clusters merged, and the memories they held.
    clusters: int
    #: Memories those clusters held.
    merged: int
    #: Merged memories whose text the host's LLM summarised (when the host has one) …
    summarised: int
    #: … and clusters it could not summarise (they keep every member's sentences), with the last reason.
    unsummarised: int
    #: Why the last summary failed (none when all succeeded).
    summary_failure: str | None
    #: Each cluster merged, in the order merged.
    merges: List[ClusterMerge]
    #: The step stopped at its bound (the next run goes on from there).
    more: bool


class ClusterMerge(TypedDict):
    """One cluster merged."""

    #: The owner of the cluster.
    entity_id: str
    #: The new memory the members were merged into.
    id: str
    #: What the members said, the most important first (what a summary is made of).
    texts: List[str]
    #: The host's LLM summarised them (else the new memory holds their sentences merged).
    summarised: bool


class PruneReport(TypedDict):
    """What pruning did."""

    #: Owners holding more live memories than `max_memories`.
    owners_over: int
    #: Memories moved to ARCHIVED.
    archived: int
    #: The step stopped at its bound.
    more: bool


class RelateReport(TypedDict):
    """What relationship discovery did."""

    #: Memories looked at.
    examined: int
    #: Links made, changed in weight, and removed.
    linked: int
    #: Links whose weight changed.
    reweighed: int
    #: Links removed.
    unlinked: int
    #: The step stopped at its bound (the next run goes on from there).
    more: bool


class SynthesisReport(TypedDict):
    """What synthesis did."""

    #: Bridges proposed: entity pairs named together in different contexts.
    proposed: int
    #: Bridges the host's LLM confirmed.
    confirmed: int
    #: Bridges the host's LLM rejected.
    rejected: int
    #: Why an answer of the LLM was not used, if one was not (the bridge stays proposed).
    failure: NotRequired[str | None]
    #: The step stopped at a bound with memories or bridges left.
    more: bool
    #: With no LLM the engine can ask itself (a browser's answers later): the bridges waiting for a decision, as many as a run would ask, for the host to decide (`decide_bridge`).
    wanted: NotRequired[List[BridgeWanted]]


class BridgeWanted(TypedDict):
    """A bridge waiting for the host's LLM to decide it."""

    #: The bridge's owner.
    entity_id: str
    #: The bridge's id (what `decide_bridge` takes).
    id: str
    #: One entity's name.
    a: str
    #: The other's.
    b: str
    #: The memories that name both: the evidence to decide on.
    texts: List[str]


class LinksReport(TypedDict):
    """What consolidation did to the co-recall links."""

    #: Links whose strength decayed.
    decayed: int
    #: Links removed, weaker than 0.1 once decayed.
    removed: int
    #: The step stopped at its bound.
    more: bool


class TiersReport(TypedDict):
    """What tiering did."""

    #: Memories looked at.
    examined: int
    #: Memories moved to each tier.
    to_hot: int
    #: Memories moved to the warm tier.
    to_warm: int
    #: Memories moved to the archive tier.
    to_archive: int
    #: The step stopped at its bound (the next run goes on from there).
    more: bool


class QuantiseReport(TypedDict):
    """What re-quantisation did."""

    #: Vectors looked at (their memories' retention may have crossed into a coarser band).
    examined: int
    #: Vectors now stored at each precision that were stored finer.
    to_int8: int
    #: Vectors now stored at 4 bits per element.
    to_int4: int
    #: Vectors now stored at 2 bits per element.
    to_int2: int
    #: Bytes the vectors stored coarser no longer take.
    bytes_saved: int
    #: The step stopped at its bound (more are due: the next run goes on).
    more: bool


class SummariesReport(TypedDict):
    """What the step did."""

    #: Passages whose summary the host's LLM rewrote.
    passages: int
    #: Documents whose summary the host's LLM rewrote.
    documents: int
    #: Why an answer of the LLM was not used (the engine's summary stays; the next run asks again), if one was not.
    failure: str | None
    #: The step stopped at its bound of calls with summaries left to rewrite.
    more: bool
    #: With no LLM the engine can ask itself (a browser's answers later): the summaries waiting for one, as many as a run would ask, for the host to write (`write_summary`).
    wanted: NotRequired[List[SummaryWanted]]


class SummaryWanted(TypedDict):
    """A summary waiting for the host's LLM: what to summarise, and where it goes."""

    #: The document's owner.
    entity_id: str
    #: The document's id.
    document_id: str
    #: The passage's place in the document, from 0; none for the document's own summary.
    position: int | None
    #: The document's title.
    title: str
    #: The markdown headings above the passage, outermost first (none for the document).
    section: List[str]
    #: What to summarise: the passage's text, or the document's passages' summaries in order.
    texts: List[str]


class CardsReport(TypedDict):
    """What the step did."""

    #: Cards whose summary the host's LLM wrote.
    written: int
    #: Why an answer of the LLM was not used, if one was not (the engine's summary stays).
    failure: NotRequired[str | None]
    #: The step stopped at a bound with entities left.
    more: bool
    #: With no LLM the engine can ask itself (a browser's answers later): the cards waiting for one, as many as a run would ask, for the host to write (`write_card_summary`).
    wanted: NotRequired[List[CardWanted]]


class CardWanted(TypedDict):
    """A card waiting for the host's LLM to write its summary."""

    #: The card's owner.
    entity_id: str
    #: The entity's name (what `card` and `write_card_summary` take).
    name: str
    #: The card laid out, a line each: the name and type, other names, relationships, facts.
    texts: List[str]


class EventsReport(TypedDict):
    """What pruning old events did."""

    #: Heartbeat acts dropped (older than `heartbeat.keep_days`).
    acts: int
    #: Recorded messages dropped (older than `heartbeat.keep_days`).
    messages: int
    #: The step stopped at its bound with old events left.
    more: bool


class ImportReport(TypedDict):
    """What an import did."""

    #: Full records restored as they were.
    restored: int
    #: Full records whose id was already in this store (left untouched).
    already_present: int
    #: Outcomes of the plain records (`entity_id` + `content` + optional fields), which go through the write path with dedup.
    written: WriteReport


class IngestReport(TypedDict):
    """What `ingest` did."""

    #: `created` (a new document), `unchanged` (the same text was already stored: nothing written) or `replaced` (new text under an existing `source_ref`).
    action: IngestAction
    #: The document now stored.
    document: Document
    #: For `replaced`: the id of the version it superseded.
    replaced: str | None


class Document(TypedDict):
    """A stored document (its text is in its passages)."""

    #: The document's id, unique in the store.
    id: str
    #: The owner it belongs to.
    entity_id: str
    #: The agent that stored it, if one was named.
    agent_id: str | None
    #: The team it is shared with, if any.
    team_id: str | None
    #: Who besides the owner's agent may see it.
    visibility: Visibility
    #: Its title.
    title: str
    #: How its text was written (an HTML page's text is kept as read, in markdown).
    format: DocumentFormat
    #: Two or three sentences that stand for the whole.
    summary: str
    #: Who wrote the summary: the engine from the text's sentences, or the host's LLM.
    summary_by: SummaryBy
    #: Where it came from.
    source: DocumentSource
    #: The file's name, if given.
    filename: str | None
    #: The file's media type, if given.
    mime: str | None
    #: Its identity at its source, if given.
    source_ref: str | None
    #: SHA-256 (hex) of its normalised text.
    content_hash: str
    #: Its length, in characters.
    chars: int
    #: How many passages it was cut into.
    passages: int
    #: Tags added by the caller; the system never removes them.
    manual_tags: List[str]
    #: Tags added by the system (at most six): source, file extension, words of the file name or title, frequent words of the text.
    auto_tags: List[str]
    #: Whether it is the current version (`active`) or was replaced (`superseded`).
    status: DocumentStatus
    #: For a superseded version: the document that replaced it.
    superseded_by: str | None
    #: When it was ingested, in milliseconds since the Unix epoch.
    created_at: int
    #: When it was last changed (superseded, forgotten), in milliseconds since the Unix epoch.
    updated_at: int
    #: When it was forgotten, in milliseconds since the Unix epoch (none unless forgotten).
    deleted_at: int | None


class CodeIngestReport(TypedDict):
    """What `ingest_code` did."""

    #: Files given.
    files: int
    #: Files new to the store.
    created: int
    #: Files whose memory said the same already.
    unchanged: int
    #: Files that changed: their memory superseded by a new one.
    replaced: int
    #: Files that were gone and are back.
    restored: int
    #: With `complete`: files of earlier runs no longer listed, invalidated.
    gone: int
    #: Symbols stored.
    symbols: int


class DocumentDetail(TypedDict):
    """A document with its passages, in order."""

    #: The document.
    document: Document
    #: Its passages, first to last.
    passages: List[Passage]


class Passage(TypedDict):
    """One passage of a document."""

    #: The id of the memory holding it (`get`, `forget`, `reinforce` take it).
    memory_id: str
    #: Its place in the document, from 0.
    position: int
    #: The markdown headings above it, outermost first.
    section: List[str]
    #: Where it begins in the document's text, in characters (Unicode scalar values).
    start: int
    #: Where it ends (exclusive), in characters.
    end: int
    #: One or two sentences that stand for it.
    summary: str
    #: Who wrote the summary: the engine from the passage's sentences, or the host's LLM.
    summary_by: SummaryBy
    #: Its text.
    content: str


class Bridge(TypedDict):
    """Two entities memories name together in different contexts."""

    #: The bridge's id.
    id: str
    #: One entity's name.
    a: str
    #: The other's.
    b: str
    #: Proposed, or confirmed or rejected by the host's LLM.
    status: BridgeStatus
    #: How the LLM says `a` relates to `b`, when it confirmed the bridge.
    relation: NotRequired[str | None]
    #: Why the LLM decided as it did, citing the memories.
    reason: NotRequired[str | None]
    #: Distinct contexts among the evidence: sessions, documents, or memories said outside any.
    contexts: int
    #: Memories that name both, at most 5.
    evidence: List[BridgeEvidence]
    #: When consolidation proposed it, in milliseconds since the Unix epoch.
    proposed_at: int
    #: When the LLM decided, in milliseconds since the Unix epoch.
    decided_at: NotRequired[int | None]


class BridgeEvidence(TypedDict):
    """A memory that names both ends of a bridge."""

    #: The memory's id.
    id: str
    #: What it says.
    content: str


class Card(TypedDict):
    """A peer card: what an agent should know of an entity at a glance."""

    #: The entity's name.
    name: str
    #: What sort of entity it is.
    type: EntityType
    #: Other names it goes by.
    aliases: List[str]
    #: Live memories that name it or state a relationship of it.
    memories: int
    #: The most important of those now (all nine factors of importance), at most 5.
    facts: List[CardFact]
    #: Its strongest relationships either way, at most 5.
    relationships: List[Relationship]
    #: When the first of those memories was written, in milliseconds since the Unix epoch.
    first_seen: int
    #: When the last of them was written, in milliseconds since the Unix epoch.
    last_seen: int
    #: A paragraph saying who or what it is: its names, relationships and most important facts.
    summary: str
    #: Who wrote the summary: `engine` (from the card) or `llm` (the host's, during consolidation, from the same facts; shown in the owner's view while the facts are still those).
    summary_by: CardSummaryBy


class CardFact(TypedDict):
    """One fact on a card."""

    #: The memory's id.
    id: str
    #: What it says.
    content: str
    #: Its type.
    type: MemoryType
    #: Its importance now, 0 to 1 (all nine factors).
    importance: float


#: A relationship `from relation to` with its evidence and strength.
Relationship = TypedDict("Relationship", {
    #: The entity the relationship goes from.
    "from": "str",
    #: The relation.
    "relation": "Relation",
    #: The entity it goes to.
    "to": "str",
    #: Memories that stated it.
    "evidence": "int",
    #: Mean confidence of those statements.
    "confidence": "float",
    #: 0.4·(1 − 1/(1+evidence)) + 0.3·recency + 0.3·confidence, as of now.
    "strength": "float",
    #: The reverse of a stated bidirectional relationship, not stated itself.
    "inferred": "bool",
    #: When it was first stated, in milliseconds since the Unix epoch.
    "first_seen": "int",
    #: When it was last stated, in milliseconds since the Unix epoch.
    "last_seen": "int",
})


class ModelInfo(TypedDict):
    """The store's embedding model, as answered by `embedding_model`."""

    #: The name of the store's embedding model.
    model: str
    #: The length of its vectors.
    dimension: int


class Embeddings(TypedDict):
    """What [`Engine::embed`] answers: one vector per text, in order."""

    #: The store's embedder.
    model: str
    #: The length of its vectors.
    dimension: int
    #: Unit-length vectors, as the store keeps and compares them (all zeros for a text none of whose words the model knows, such as a script outside its vocabulary).
    vectors: List[List[float]]


class ReembedReport(TypedDict):
    """What [`Engine::reembed`] did."""

    #: The store's embedder now.
    model: str
    #: The length of its vectors.
    dimension: int
    #: The embedder before.
    previous_model: str
    #: The length of its vectors.
    previous_dimension: int
    #: Memories embedded again (every owner's, every state).
    memories: int


class Entity(TypedDict):
    """An entity of an owner's graph."""

    #: The entity's name, as first stated.
    name: str
    #: What sort of entity it is.
    type: EntityType
    #: Other names it goes by ("Ana" for "Ana Souza").
    aliases: List[str]
    #: Memories that named it.
    mentions: int
    #: When a memory first named it, in milliseconds since the Unix epoch.
    first_seen: int
    #: When a memory last named it, in milliseconds since the Unix epoch.
    last_seen: int


class Traversal(TypedDict):
    """What a traversal reached: nodes in the order found, and the edges followed."""

    #: The entities reached, the start first, in the order reached.
    nodes: List[Node]
    #: The relationships walked.
    edges: List[Relationship]


class Node(TypedDict):
    """One entity reached by a traversal."""

    #: The entity's name.
    name: str
    #: What sort of entity it is.
    type: EntityType
    #: Hops from the start.
    depth: int


class GraphPath(TypedDict):
    """A path: its relationships in order from `from` to `to` (each as stored, so an edge may point back along the path); empty and `found: false` when none is within reach."""

    #: Whether a path was found within `max_depth` hops.
    found: bool
    #: The relationships of the path, from `from` to `to` (empty when none was found).
    hops: List[Relationship]


class Conflict(TypedDict):
    """A conflict between a new statement and an existing memory."""

    #: The conflict's id.
    id: str
    #: What kind of contradiction it is.
    kind: ConflictKind
    #: The mode applied when it was found.
    mode: ConflictMode
    #: Whether it is open or resolved.
    status: ConflictStatus
    #: The memory stored for the new statement (none when it was not stored).
    memory: str | None
    #: What the new statement said.
    content: str
    #: The memory it contradicted.
    existing: str
    #: What the contradicted memory said.
    existing_content: str
    #: How it was resolved (none while open).
    resolution: Resolution | None
    #: Why it was resolved so (none while open).
    reason: str | None
    #: When it was found, in milliseconds since the Unix epoch.
    created_at: int
    #: When it was resolved, in milliseconds since the Unix epoch (none while open).
    resolved_at: int | None


class Schedule(TypedDict):
    """A schedule."""

    #: The id of its PLAN memory, which also addresses the schedule.
    id: str
    #: What the schedule is for.
    content: str
    #: When it falls due (`cron:daily:09:00`, `cron:every:2h`, …).
    cron_tag: str
    #: Whether it is active, done or cancelled.
    status: ScheduleStatus
    #: When it next falls due, in milliseconds since the Unix epoch (none once done or cancelled).
    next_due_at: int | None
    #: Due times that passed without an acknowledgement.
    missed: int
    #: When it was last acknowledged, in milliseconds since the Unix epoch (none until then).
    acknowledged_at: int | None
    #: When it was created, in milliseconds since the Unix epoch.
    created_at: int


class HeartbeatReport(TypedDict):
    """What `heartbeat_check` answers."""

    #: The owner checked.
    entity_id: str
    #: When the check ran, in milliseconds since the Unix epoch.
    checked_at: int
    #: Whether the agent should speak up now.
    should_act: bool
    #: Why it should or should not.
    decision_reason: DecisionReason
    #: Urgency of what is surfaced (none when nothing is).
    urgency_tier: Urgency | None
    #: The autonomy the decision followed.
    autonomy: Autonomy
    #: First 16 hex of SHA-256 over the surfaced signals' keys (empty when none).
    fingerprint: str
    #: Sum of the surfaced signals' weights (10/5/3/1).
    confluence_score: int
    #: The cooldown in force, in ms, after the time-of-day and response-rate factors.
    cooldown_ms: int
    #: The owner's time of day, local time.
    time_period: TimePeriod
    #: Whether the owner is in a conversation now.
    in_conversation: bool
    #: Share of the last week's acts the owner answered within 2 h (1 with fewer than 3).
    response_rate: float
    #: Memories written since the last act.
    memory_velocity: int
    #: When to check again, in ms from now.
    next_tick_ms: int
    #: The recorded act (when the agent should act and this was not a dry run).
    act_id: str | None
    #: The memory a nudge is about.
    nudge: Memory | None
    #: Every signal found, most urgent first.
    signals: List[Signal]
    #: Schedules due now.
    scheduled: List[Schedule]
    #: Memories whose deadline (`expires_at`) falls within the deadline window, or has just passed.
    deadlines: List[Memory]
    #: Open conflicts.
    conflicts: List[Conflict]
    #: The latest session and whether it was left open (none without one).
    continuity: Continuity | None
    #: Monitors not touched within the monitor cadence.
    stale_monitors: List[Memory]
    #: Open plans and activities important enough to mention.
    pending_work: List[Memory]
    #: Progress of the owner's plans.
    goal_progress: List[GoalProgress]
    #: Questions asked and not answered yet.
    knowledge_gaps: List[KnowledgeGap]
    #: Good news: plans done, sentiment up, relationships renewed.
    positive_deltas: List[PositiveDelta]
    #: Important memories about to turn STALE for lack of use.
    decaying: List[Memory]
    #: How the owner's mood moves (none with too few memories).
    sentiment_trend: SentimentTrend | None
    #: People and organisations not mentioned for a while.
    relationship_alerts: List[RelationshipAlert]
    #: Topics that come up on the same weekday.
    behavioral_patterns: List[Pattern]
    #: The surfaced signals as plain text for an agent's prompt.
    summary: str


class Signal(TypedDict):
    """One signal the scan found."""

    #: What the signal is about.
    kind: SignalKind
    #: Its tier after freshness and `critical`/`urgent`/`low-priority`/`backlog` tags.
    tier: Urgency
    #: Whether the decision surfaced it (it passed the time-of-day and conversation steps).
    surfaced: bool
    #: Ids of the memories it is about.
    memories: List[str]
    #: One line saying what it found.
    summary: str


class Continuity(TypedDict):
    """An interrupted session the agent could offer to resume."""

    #: The session's newest CONTEXT/ACTIVITY memories, newest first (at most 5).
    last_memories: List[Memory]
    #: Hours since the session's newest memory.
    session_age_hours: float
    #: The session left an activity or plan open.
    was_interrupted: bool
    #: One line suggesting how to pick the session up again.
    resume_suggestion: str


class GoalProgress(TypedDict):
    """How one goal is going."""

    #: The PLAN memory the goal is.
    plan: Memory
    #: ACTIVITY memories that work towards it (stored vectors, or shared entities).
    activities: List[str]
    #: min(1, activities / 10).
    progress: float
    #: Days to its deadline (negative when past), if it has one.
    days_left: float | None
    #: Whether it is on track, at risk, overdue or done.
    status: GoalStatus


class KnowledgeGap(TypedDict):
    """A question stored in memory that nothing answers yet."""

    #: The id of the memory holding the open question.
    memory_id: str
    #: The question still open.
    question: str
    #: When it was asked, in milliseconds since the Unix epoch.
    asked_at: int


class PositiveDelta(TypedDict):
    """Something that got better since the agent last spoke up."""

    #: What sort of good news it is.
    kind: DeltaKind
    #: One line saying what went well.
    description: str
    #: The plan's memory id, the entity's name, or "sentiment".
    subject: str


class SentimentTrend(TypedDict):
    """The owner's recent sentiment against the one before."""

    #: Mean sentiment of the recent memories, -1 to 1.
    recent_avg: float
    #: Mean sentiment of the memories before them, -1 to 1.
    previous_avg: float
    #: Whether sentiment is rising, falling or stable.
    direction: Trend
    #: |recent − previous|.
    delta: float
    #: Memories felt strongly (|sentiment| > 0.7).
    notable: List[Memory]


class RelationshipAlert(TypedDict):
    """Someone gone silent while plans involve them."""

    #: The entity's name.
    entity: str
    #: What sort of entity it is.
    entity_type: EntityType
    #: Days since a memory last named it.
    days_silent: int
    #: Live PLAN memories naming the entity.
    related_plans: List[str]
    #: How pressing the silence is.
    urgency: AlertLevel


class Pattern(TypedDict):
    """Something the owner does on this weekday."""

    #: One line saying what recurs.
    description: str
    #: A memory type (lower case) or a tag.
    topic: str
    #: The weekday it comes up on (Monday … Sunday).
    day_of_week: str
    #: Distinct same-weekday dates of the last 90 days it came up on.
    days: int
    #: min(1, days / 10).
    confidence: float


class HeartbeatContext(TypedDict):
    """What `heartbeat_context` answers: the check, and what an agent needs to word it."""

    #: The heartbeat's report, as `heartbeat_check` gives it.
    report: HeartbeatReport
    #: The agent's last recorded messages, newest first, so it does not repeat itself.
    recent_messages: List[Message]
    #: Memories matching `query` (empty without one).
    relevant_memories: List[SearchHit]
    #: Peer cards of the entities the signals' memories name (surfaced signals first; at most 3, of entities with enough memories for one), so the agent knows who or what they are.
    cards: List[Card]


class Message(TypedDict):
    """A recorded message."""

    #: The message's id.
    id: str
    #: Who said it: `user` or `agent`.
    role: MessageRole
    #: What was said.
    content: str
    #: The agent whose conversation it is part of (none: the owner's own).
    agent_id: str | None
    #: The conversation session, if one was named.
    session_id: str | None
    #: The act an agent message delivered, if any.
    act_id: str | None
    #: When it was recorded, in milliseconds since the Unix epoch.
    at: int


class Team(TypedDict):
    """A team of agents."""

    #: The team's id, as `team_create` answered.
    id: str
    #: Its name.
    name: str
    #: What it is for.
    description: str
    #: The visibility of memories written for the team without one.
    default_visibility: Visibility
    #: When it was made, in milliseconds since the Unix epoch.
    created_at: int
    #: When it last changed, in milliseconds since the Unix epoch.
    updated_at: int


class TeamDeleted(TypedDict):
    """What `team_delete` did."""

    #: `deleted`.
    status: str
    #: The team deleted.
    team_id: str
    #: Memberships removed with it (its memories stay with their writers).
    members_removed: int


class TeamMember(TypedDict):
    """A member of a team."""

    #: The team.
    team_id: str
    #: The agent.
    agent_id: str
    #: What it is in the team.
    role: TeamRole
    #: When it joined, in milliseconds since the Unix epoch.
    joined_at: int


#: What happened to one input.
Outcome: TypeAlias = Union[OutcomeCreated, OutcomeMerged, OutcomeSkipped, OutcomeConflict]


#: The languages `ingest_code` parses from a file's `text`, each with its file extensions.
CODE_LANGUAGES: Dict[str, Tuple[str, ...]] = {"rust": ("rs",), "python": ("py", "pyi"), "typescript": ("ts", "mts", "cts", "tsx"), "javascript": ("js", "mjs", "cjs", "jsx"), "go": ("go",)}
#: Files one `ingest_code` call takes at most.
MAX_CODE_FILES = 1000
#: The longest path of a file, in characters.
MAX_CODE_PATH_CHARS = 1024
#: The longest `text` of one file, in bytes of UTF-8.
MAX_SOURCE_BYTES = 1048576
#: The most `text` one `ingest_code` call reads, in bytes of UTF-8.
MAX_CODE_TEXT_BYTES = 25165824

class Calls:
    """Every engine call as a method: keyword arguments as the call's schema names them
    (see docs/API.md), the answer as parsed JSON."""

    def call(self, method: str, args: Dict[str, Any] | None = None) -> Any:
        """Runs one engine call by its name with its arguments."""
        raise NotImplementedError

    def remember(self, *, entity_id: str, content: str | None = None, messages: List[ChatMessage] | None = None, extracted: List[Extracted] | None = None, llm_output: str | None = None, agent_id: str | None = None, session_id: str | None = None, source_ref: str | None = None, team_id: str | None = None, visibility: Visibility | None = None, source: Source | None = None) -> WriteReport:
        """Remembers a piece of conversation: the extractor (or the host's own extraction, or an LLM's answer) turns it into memories, which are stored with dedup and conflict checks.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            content: The piece of conversation, at most 50,000 characters (a chat capture's `User:` / `Assistant:` lines keep only the user's turns). Required unless `messages` is given. Optional.
            messages: The conversation as role-tagged messages instead of `content` (at least one): only what the user said is remembered. Optional.
            extracted: Memories the host already extracted from `content` (an LLM extractor, or `extract` plus host vectors); when absent the engine's extractor runs. Optional.
            llm_output: An LLM's raw answer to the `llm_instructions` for `content`: checked by the engine; when it cannot be used the built-in extractor runs and the report says why. Optional.
            agent_id: The agent that took part, stored with each memory (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). Optional.
            session_id: The conversation session, stored with each memory; memories of one session lend each other relevance in search (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). Optional.
            source_ref: Where the conversation came from (a message id, a document and chunk): 1 to 1,024 characters, stored with each memory (default none). In search, after the first of one message's statements, its others give way to other messages' hits. Optional.
            team_id: The team the memories are shared with, stored with them (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). Optional.
            visibility: Who besides the owner's agent may see them (default private). Optional.
            source: Who said it, which sets the memories' trust (default conversation, trust 0.6). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("content", content), ("messages", messages), ("extracted", extracted), ("llm_output", llm_output), ("agent_id", agent_id), ("session_id", session_id), ("source_ref", source_ref), ("team_id", team_id), ("visibility", visibility), ("source", source)]
        return cast("WriteReport", self.call("remember", {k: v for k, v in given if v is not None}))

    def extract(self, *, content: str) -> List[Extracted]:
        """What the extractor finds in a text, without storing anything.

        Arguments (docs/API.md):
            content: The text to extract memories from: not blank, at most 50,000 characters.
        """
        given: List[Tuple[str, Any]] = [("content", content)]
        return cast("List[Extracted]", self.call("extract", {k: v for k, v in given if v is not None}))

    def seed(self, *, items: List[NewMemory]) -> WriteReport:
        """Stores structured memories (at most 10,000, one transaction) with three-tier dedup.

        Arguments (docs/API.md):
            items: The memories to store, in order, in one transaction (at most 10,000).
        """
        given: List[Tuple[str, Any]] = [("items", items)]
        return cast("WriteReport", self.call("seed", {k: v for k, v in given if v is not None}))

    def search(self, *, entity_id: str, query: str, agent_id: str | None = None, team_aware: bool | None = None, vector: List[float] | None = None, limit: int | None = None, mode: RankMode | None = None, recall: RecallFilter | None = None, include_archived: bool | None = None, types: List[MemoryType] | None = None, min_score: float | None = None, entities: List[str] | None = None, kinds: List[Kind] | None = None, per_document: int | None = None, after: int | None = None, before: int | None = None, as_of: int | None = None) -> List[SearchHit]:
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
            after: Only memories said at or after this time (milliseconds since the Unix epoch; a memory is said at its `created_at`). Optional.
            before: Only memories said before this time (milliseconds since the Unix epoch); with `after`, later than it. Optional.
            as_of: What "now" is for this question (milliseconds since the Unix epoch): the time its words such as "yesterday", "last weekend" or "next Friday" are read against (default the engine's clock). Without `after` and `before`, a span the query names ranks first the memories said in it, those said outside it that name a time in it ("last month", said later; "next Friday", said before), and those due in it (`expires_at`). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("query", query), ("agent_id", agent_id), ("team_aware", team_aware), ("vector", vector), ("limit", limit), ("mode", mode), ("recall", recall), ("include_archived", include_archived), ("types", types), ("min_score", min_score), ("entities", entities), ("kinds", kinds), ("per_document", per_document), ("after", after), ("before", before), ("as_of", as_of)]
        return cast("List[SearchHit]", self.call("search", {k: v for k, v in given if v is not None}))

    def get(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Memory:
        """One memory by id (an access: an archived memory comes back).

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return cast("Memory", self.call("get", {k: v for k, v in given if v is not None}))

    def list(self, *, entity_id: str, agent_id: str | None = None, types: List[MemoryType] | None = None, states: List[State] | None = None, statuses: List[Status] | None = None, kinds: List[Kind] | None = None, tag: str | None = None, pinned: bool | None = None, ids: List[str] | None = None, limit: int | None = None, offset: int | None = None, oldest_first: bool | None = None) -> Page:
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
        return cast("Page", self.call("list", {k: v for k, v in given if v is not None}))

    def update(self, *, entity_id: str, id: str, patch: MemoryPatch, agent_id: str | None = None) -> Memory:
        """Changes a memory; new content is re-hashed, re-embedded and re-indexed.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            patch: The changes; fields left out stay as they are.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("patch", patch), ("agent_id", agent_id)]
        return cast("Memory", self.call("update", {k: v for k, v in given if v is not None}))

    def forget(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Memory:
        """Forgets a memory (soft delete; purged after the retention period).

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return cast("Memory", self.call("forget", {k: v for k, v in given if v is not None}))

    def forget_all(self, *, entity_id: str, agent_id: str | None = None) -> ForgetAllReport:
        """Forgets every memory of an owner.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id)]
        return cast("ForgetAllReport", self.call("forget_all", {k: v for k, v in given if v is not None}))

    def locate(self, *, id: str) -> Location:
        """The owner of a memory found by its id alone (for hosts serving many owners behind one key); not found when no owner has it.

        Arguments (docs/API.md):
            id: The id of the memory to find the owner of.
        """
        given: List[Tuple[str, Any]] = [("id", id)]
        return cast("Location", self.call("locate", {k: v for k, v in given if v is not None}))

    def sample(self, *, entity_id: str | None = None, agent_id: str | None = None, limit: int | None = None) -> List[Memory]:
        """Memories drawn at random (the host's randomness) from one owner or every owner; not an access.

        Arguments (docs/API.md):
            entity_id: Only this owner's memories (every owner's when absent): 1 to 256 characters of `[A-Za-z0-9_:.-]`. Optional.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            limit: How many memories to draw, 1 to 1,000 (default 10). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("limit", limit)]
        return cast("List[Memory]", self.call("sample", {k: v for k, v in given if v is not None}))

    def store_stats(self) -> StoreStats:
        """Counts of every owner's memories, and the owners.

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return cast("StoreStats", self.call("store_stats", {k: v for k, v in given if v is not None}))

    def reinforce(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Memory:
        """Reinforces a memory: feedback +3, and it counts as used.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return cast("Memory", self.call("reinforce", {k: v for k, v in given if v is not None}))

    def demote(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Memory:
        """Demotes a memory: feedback −1.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return cast("Memory", self.call("demote", {k: v for k, v in given if v is not None}))

    def pin(self, *, entity_id: str, id: str, pinned: bool, agent_id: str | None = None) -> Memory:
        """Pins a memory (exempt from decay) or unpins it.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            pinned: True to pin (the memory no longer decays), false to unpin.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("pinned", pinned), ("agent_id", agent_id)]
        return cast("Memory", self.call("pin", {k: v for k, v in given if v is not None}))

    def set_status(self, *, entity_id: str, id: str, status: Status, reason: str, agent_id: str | None = None) -> Memory:
        """Changes a memory's validity status, with the reason in its history.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            status: The new validity status; it must differ from the memory's current one.
            reason: Why, written to the memory's status history: 1 to 1,000 characters once trimmed.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("status", status), ("reason", reason), ("agent_id", agent_id)]
        return cast("Memory", self.call("set_status", {k: v for k, v in given if v is not None}))

    def set_layer(self, *, entity_id: str, id: str, layer: Layer, reason: str, agent_id: str | None = None) -> Memory:
        """Moves a memory to another layer by hand — up (to `semantic` or `procedural`, which do not decay) or down — with the reason in its status history; automatic promotion leaves it there.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            layer: The layer to move it to; it must differ from the memory's current one.
            reason: Why, written to the memory's status history: 1 to 1,000 characters once trimmed.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("layer", layer), ("reason", reason), ("agent_id", agent_id)]
        return cast("Memory", self.call("set_layer", {k: v for k, v in given if v is not None}))

    def status_history(self, *, entity_id: str, id: str, agent_id: str | None = None) -> List[StatusChange]:
        """A memory's status changes (and moves between layers), oldest first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory's id, as the write that stored it answered: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return cast("List[StatusChange]", self.call("status_history", {k: v for k, v in given if v is not None}))

    def related(self, *, entity_id: str, id: str, agent_id: str | None = None, limit: int | None = None) -> List[RelatedMemory]:
        """Memories linked to this one — returned together by searches three times or more, or sharing its entities and tags — strongest link first: a chain of thought to follow.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The memory whose links to follow.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            limit: Memories wanted, 1 to 1,000 (default 10). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id), ("limit", limit)]
        return cast("List[RelatedMemory]", self.call("related", {k: v for k, v in given if v is not None}))

    def stats(self, *, entity_id: str, agent_id: str | None = None) -> Stats:
        """Counts of an owner's memories by type, state, status and tier.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id)]
        return cast("Stats", self.call("stats", {k: v for k, v in given if v is not None}))

    def maintain(self) -> MaintainReport:
        """The maintenance pass: decay, lifecycle and purges of the memories that are due.

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return cast("MaintainReport", self.call("maintain", {k: v for k, v in given if v is not None}))

    def consolidate(self) -> MaintainReport:
        """The maintenance pass, then consolidation now: stale-edge cleanup, auto-tag refresh, cluster-and-merge and size-bounded pruning, each bounded per run (run again while `consolidation.more`). Store-wide work for the host, so not an MCP tool (an agent may act for one owner only).

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return cast("MaintainReport", self.call("consolidate", {k: v for k, v in given if v is not None}))

    def export(self, *, entity_id: str, agent_id: str | None = None) -> str:
        """All of one owner's memories as JSONL (vectors, status history, graph).

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id)]
        return cast("str", self.call("export", {k: v for k, v in given if v is not None}))

    def import_(self, *, jsonl: str) -> ImportReport:
        """Imports JSONL: full exports restored exactly, plain records written like `seed`.

        Arguments (docs/API.md):
            jsonl: One JSON record per line: full records as `export` writes them, or plain records (`entity_id`, `content` and optional fields as in `seed`).
        """
        given: List[Tuple[str, Any]] = [("jsonl", jsonl)]
        return cast("ImportReport", self.call("import", {k: v for k, v in given if v is not None}))

    def ingest(self, *, entity_id: str, content: str, title: str | None = None, format: DocumentFormat | None = None, source: DocumentSource | None = None, filename: str | None = None, mime: str | None = None, source_ref: str | None = None, tags: List[str] | None = None, agent_id: str | None = None, team_id: str | None = None, visibility: Visibility | None = None, chunking: ChunkSizes | None = None) -> IngestReport:
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
        return cast("IngestReport", self.call("ingest", {k: v for k, v in given if v is not None}))

    def ingest_code(self, *, entity_id: str, files: List[CodeFile], agent_id: str | None = None, complete: bool | None = None) -> CodeIngestReport:
        """Stores a repository's source files as the owner's codebase memories — one per file: its path, language, a one-line summary, and its symbols with signatures and lines — sent as text for the engine to parse (Rust, Python, TypeScript, JavaScript, Go; not in the browser and edge packages) or parsed by the host; a file unchanged changes nothing, a changed one's memory is superseded, and with `complete` the files no longer listed are invalidated.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            files: The files (1 to 1,000), each once.
            agent_id: The agent writing (its memories are its own, `private`). Optional.
            complete: Whether `files` is the whole tree: files of earlier runs not listed are then gone (invalidated), and code names memories cite with no file are checked against it. Send a large tree in several calls, `complete` on none of them, and let drift detection (`--workspace`) find what was deleted. Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("files", files), ("agent_id", agent_id), ("complete", complete)]
        return cast("CodeIngestReport", self.call("ingest_code", {k: v for k, v in given if v is not None}))

    def documents(self, *, entity_id: str, agent_id: str | None = None, all: bool | None = None) -> List[Document]:
        """An owner's documents, newest first (superseded and forgotten ones with `all`).

        Arguments (docs/API.md):
            entity_id: The owner of the documents: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            agent_id: The agent the call is made for: it sees its own documents, `global` ones and `team` ones of its teams (default none: the owner's view). Optional.
            all: Superseded versions and forgotten documents too (default false). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("all", all)]
        return cast("List[Document]", self.call("documents", {k: v for k, v in given if v is not None}))

    def document(self, *, entity_id: str, id: str, agent_id: str | None = None) -> DocumentDetail:
        """One document with its passages, in order.

        Arguments (docs/API.md):
            entity_id: The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            id: The document's id.
            agent_id: The agent the call is made for (default none: the owner's view); an agent forgets only documents it stored. Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return cast("DocumentDetail", self.call("document", {k: v for k, v in given if v is not None}))

    def write_summary(self, *, entity_id: str, document_id: str, summary: str, position: int | None = None, agent_id: str | None = None) -> Document:
        """Writes the host's LLM's summary of a document or of one of its passages, in place of the engine's (what consolidation lists as `wanted` when it has no LLM to ask), checked as an LLM's answer is.

        Arguments (docs/API.md):
            entity_id: The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            document_id: The document's id.
            summary: The summary the host's LLM wrote: at most two sentences for a passage, three for a document, shorter than the text it summarises.
            position: The passage's place in the document, from 0; none for the document's own summary. Optional.
            agent_id: The agent the call is made for (default none: the owner's view); an agent writes only the summaries of documents it stored. Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("document_id", document_id), ("summary", summary), ("position", position), ("agent_id", agent_id)]
        return cast("Document", self.call("write_summary", {k: v for k, v in given if v is not None}))

    def decide_bridge(self, *, entity_id: str, id: str, related: bool, reason: str, relation: str | None = None) -> Bridge:
        """Records the host's LLM's decision on a proposed bridge — related (and how) or not, and why — (what consolidation lists as `synthesis.wanted` when it has no LLM to ask), checked as an LLM's answer is.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The bridge's id, as `bridges` or `synthesis.wanted` give it.
            related: Whether the memories show the two really connected.
            reason: Why, citing the memories: at most 480 characters.
            relation: How the first relates to the second, a few words (at most 80 characters; needed when related). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("related", related), ("reason", reason), ("relation", relation)]
        return cast("Bridge", self.call("decide_bridge", {k: v for k, v in given if v is not None}))

    def drift(self, *, entity_id: str, paths: List[PathFound]) -> DriftReport:
        """Applies what the host found at paths an owner's memories cite (what consolidation lists as `drift.wanted` when the host names no workspace): memories citing a path that is gone, or a line past its file's end, become `invalidated` with the path in the reason, and ones drift invalidated whose paths are all back are restored.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            paths: What is at each path (1 to 1,000), as the memories cite it (`drift.wanted` lists them).
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("paths", paths)]
        return cast("DriftReport", self.call("drift", {k: v for k, v in given if v is not None}))

    def write_card_summary(self, *, entity_id: str, name: str, summary: str) -> Card:
        """Writes the host's LLM's summary of an entity's peer card, in place of the engine's (what consolidation lists as `cards.wanted` when it has no LLM to ask), checked as an LLM's answer is; kept while the card's facts stand, and shown in the owner's view.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            name: The entity (a name or alias), as `card` takes it.
            summary: Two or three sentences, at most 720 characters: kept while the card's facts stand.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("name", name), ("summary", summary)]
        return cast("Card", self.call("write_card_summary", {k: v for k, v in given if v is not None}))

    def forget_document(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Document:
        """Forgets a document and its passages (soft delete, as `forget`).

        Arguments (docs/API.md):
            entity_id: The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            id: The document's id.
            agent_id: The agent the call is made for (default none: the owner's view); an agent forgets only documents it stored. Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return cast("Document", self.call("forget_document", {k: v for k, v in given if v is not None}))

    def import_notes(self, *, entity_id: str, markdown: str, source: str | None = None) -> WriteReport:
        """Stores markdown notes (a MEMORY.md): each bullet and paragraph through the extractor, tagged with its heading; importing them again adds nothing.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            markdown: The notes, as markdown: at most 1,000,000 characters and 10,000 notes.
            source: Where they come from (a file name): memories get `source_ref` `{source}:{line}` (default `notes`). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("markdown", markdown), ("source", source)]
        return cast("WriteReport", self.call("import_notes", {k: v for k, v in given if v is not None}))

    def embedding_model(self) -> ModelInfo:
        """The model and dimension of the store's vectors.

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return cast("ModelInfo", self.call("embedding_model", {k: v for k, v in given if v is not None}))

    def embed(self, *, texts: List[str]) -> Embeddings:
        """Vectors of texts by the store's embedder (at most 1,000 texts; nothing is stored).

        Arguments (docs/API.md):
            texts: The texts to embed: 1 to 1,000, each not blank and at most 50,000 characters.
        """
        given: List[Tuple[str, Any]] = [("texts", texts)]
        return cast("Embeddings", self.call("embed", {k: v for k, v in given if v is not None}))

    def reembed(self, *, model: str) -> ReembedReport:
        """Moves the store to another built-in embedder (`mnemo-static-v1`, `mnemo-hash-v1`): every memory embedded again in one transaction. Store-wide, so not an MCP tool.

        Arguments (docs/API.md):
            model: The built-in embedder to move to: `mnemo-static-v1` or `mnemo-hash-v1`.
        """
        given: List[Tuple[str, Any]] = [("model", model)]
        return cast("ReembedReport", self.call("reembed", {k: v for k, v in given if v is not None}))

    def entities(self, *, entity_id: str, agent_id: str | None = None, types: List[EntityType] | None = None, query: str | None = None, limit: int | None = None, offset: int | None = None) -> List[Entity]:
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
        return cast("List[Entity]", self.call("entities", {k: v for k, v in given if v is not None}))

    def relationships(self, *, entity_id: str, agent_id: str | None = None, entity: str | None = None, relations: List[Relation] | None = None, min_strength: float | None = None, stated_only: bool | None = None, limit: int | None = None) -> List[Relationship]:
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
        return cast("List[Relationship]", self.call("relationships", {k: v for k, v in given if v is not None}))

    def traverse(self, *, entity_id: str, from_: str, agent_id: str | None = None, depth: int | None = None, relations: List[Relation] | None = None, min_strength: float | None = None) -> Traversal:
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
        return cast("Traversal", self.call("traverse", {k: v for k, v in given if v is not None}))

    def card(self, *, entity_id: str, name: str, agent_id: str | None = None) -> Card:
        """The peer card of an entity (a name or alias): its names and type, the most important live facts about it, its strongest relationships, when it was first and last mentioned, and a summary; an entity needs 3 live memories for a card.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            name: The entity: a name or alias, as `entities` lists them.
            agent_id: The agent the call is made for: its card is made from what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say (default none: the owner's view, every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("name", name), ("agent_id", agent_id)]
        return cast("Card", self.call("card", {k: v for k, v in given if v is not None}))

    def bridges(self, *, entity_id: str, agent_id: str | None = None, status: BridgeStatus | None = None, limit: int | None = None) -> List[Bridge]:
        """Bridges: entity pairs the owner's memories name together in different contexts (sessions, documents) with no relationship between them, proposed by consolidation with their evidence, and confirmed or rejected by the host's LLM when it has one.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees the bridges that the memories it may see make (its own, `global` ones and `team` ones of its teams), with those as evidence (default none: the owner's view). Optional.
            status: Only bridges of this status (default all). Optional.
            limit: At most this many, 1 to 1000 (default 50), the most contexts first. Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("status", status), ("limit", limit)]
        return cast("List[Bridge]", self.call("bridges", {k: v for k, v in given if v is not None}))

    def path(self, *, entity_id: str, from_: str, to: str, agent_id: str | None = None, max_depth: int | None = None) -> GraphPath:
        """The shortest path between two entities.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            from_: The entity to start from (a name or alias; `user` is the owner).
            to: The entity to reach (a name or alias).
            agent_id: The agent the call is made for: it sees what its own memories, `global` ones and `team` ones of the owner's teams it is a member of say — entities they name, relationships they state, counted from them (default none: the owner's whole graph). Optional.
            max_depth: Longest path looked for, in hops, 1 to 5 (default 5). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("from", from_), ("to", to), ("agent_id", agent_id), ("max_depth", max_depth)]
        return cast("GraphPath", self.call("path", {k: v for k, v in given if v is not None}))

    def conflicts(self, *, entity_id: str, agent_id: str | None = None, status: ConflictStatus | None = None, limit: int | None = None) -> List[Conflict]:
        """Conflicts found on writes, newest first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            status: Only open (or only resolved) conflicts. Optional.
            limit: At most this many, newest first, 1 to 1,000 (default 50). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("status", status), ("limit", limit)]
        return cast("List[Conflict]", self.call("conflicts", {k: v for k, v in given if v is not None}))

    def resolve_conflict(self, *, entity_id: str, id: str, resolution: Resolution, reason: str | None = None) -> Conflict:
        """Decides an open conflict.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The conflict's id, as `conflicts` lists it.
            resolution: Which statement stands.
            reason: Why, written to the memories' status history: 1 to 1,000 characters once trimmed (default "resolved by the user"). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("resolution", resolution), ("reason", reason)]
        return cast("Conflict", self.call("resolve_conflict", {k: v for k, v in given if v is not None}))

    def llm_instructions(self) -> str:
        """The instructions an LLM extractor is given, with the JSON schema of its answer.

        Arguments (docs/API.md):
        """
        given: List[Tuple[str, Any]] = []
        return cast("str", self.call("llm_instructions", {k: v for k, v in given if v is not None}))

    def schedule_create(self, *, entity_id: str, content: str, cron_tag: str, agent_id: str | None = None) -> Schedule:
        """Creates a schedule: a cron-tagged plan that falls due again and again.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            content: What the schedule is for, stored as a PLAN memory: not blank, at most 50,000 characters.
            cron_tag: When it falls due: `cron:hourly`, `cron:daily[:HH:MM]`, `cron:weekly:DAY:HH:MM`, `cron:weekdays:HH:MM`, `cron:monthly:D:HH:MM`, `cron:every:<duration>` (1 minute to 366 days) or `cron:once:<RFC 3339 time>` (in the future); times in UTC.
            agent_id: The agent whose plan it is, recorded with its memory (it and the owner's view see it; 1 to 256 characters of `[A-Za-z0-9_:.-]`; default none: the owner's). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("content", content), ("cron_tag", cron_tag), ("agent_id", agent_id)]
        return cast("Schedule", self.call("schedule_create", {k: v for k, v in given if v is not None}))

    def schedules(self, *, entity_id: str, agent_id: str | None = None, all: bool | None = None) -> List[Schedule]:
        """An owner's schedules, soonest due first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
            all: Done and cancelled schedules too (default false: only active ones). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("all", all)]
        return cast("List[Schedule]", self.call("schedules", {k: v for k, v in given if v is not None}))

    def scheduled(self, *, entity_id: str, agent_id: str | None = None) -> List[Schedule]:
        """The schedules due now, each due time reported once.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: The agent the call is made for: it sees its own memories, `global` ones and `team` ones of the owner's teams it is a member of, and changes only its own (default none: the owner's view, which sees and changes every memory). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id)]
        return cast("List[Schedule]", self.call("scheduled", {k: v for k, v in given if v is not None}))

    def schedule_ack(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Schedule:
        """Acknowledges a schedule: it moves on to its next due time.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The schedule's id (its PLAN memory's).
            agent_id: The agent the call is made for: it changes only its own schedules (default none: the owner's view, which changes any). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return cast("Schedule", self.call("schedule_ack", {k: v for k, v in given if v is not None}))

    def schedule_update(self, *, entity_id: str, id: str, agent_id: str | None = None, content: str | None = None, cron_tag: str | None = None) -> Schedule:
        """Changes a schedule's text or tag.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The schedule's id (its PLAN memory's).
            agent_id: The agent the call is made for: it changes only its own schedules (default none: the owner's view, which changes any). Optional.
            content: New text: not blank, at most 50,000 characters (default unchanged; give this or `cron_tag`). Optional.
            cron_tag: A new schedule tag, as `schedule_create` takes it; it falls due from now on (default unchanged). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id), ("content", content), ("cron_tag", cron_tag)]
        return cast("Schedule", self.call("schedule_update", {k: v for k, v in given if v is not None}))

    def schedule_cancel(self, *, entity_id: str, id: str, agent_id: str | None = None) -> Schedule:
        """Cancels a schedule.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            id: The schedule's id (its PLAN memory's).
            agent_id: The agent the call is made for: it changes only its own schedules (default none: the owner's view, which changes any). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("id", id), ("agent_id", agent_id)]
        return cast("Schedule", self.call("schedule_cancel", {k: v for k, v in given if v is not None}))

    def heartbeat_check(self, *, entity_id: str, agent_id: str | None = None, team_id: str | None = None, autonomy: Autonomy | None = None, in_conversation: bool | None = None, utc_offset_minutes: int | None = None, quiet_hours: QuietHours | None = None, deadline_window: str | None = None, max_results: int | None = None, dry_run: bool | None = None, as_of: int | None = None, query: str | None = None, top_k: int | None = None) -> HeartbeatReport:
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
        return cast("HeartbeatReport", self.call("heartbeat_check", {k: v for k, v in given if v is not None}))

    def heartbeat_context(self, *, entity_id: str, agent_id: str | None = None, team_id: str | None = None, autonomy: Autonomy | None = None, in_conversation: bool | None = None, utc_offset_minutes: int | None = None, quiet_hours: QuietHours | None = None, deadline_window: str | None = None, max_results: int | None = None, dry_run: bool | None = None, as_of: int | None = None, query: str | None = None, top_k: int | None = None) -> HeartbeatContext:
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
        return cast("HeartbeatContext", self.call("heartbeat_context", {k: v for k, v in given if v is not None}))

    def record_message(self, *, entity_id: str, role: MessageRole, content: str, agent_id: str | None = None, session_id: str | None = None, act_id: str | None = None, action_ref: str | None = None) -> Message:
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
        return cast("Message", self.call("record_message", {k: v for k, v in given if v is not None}))

    def messages(self, *, entity_id: str, agent_id: str | None = None, limit: int | None = None) -> List[Message]:
        """An owner's recorded conversation (both roles), newest first.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            agent_id: Only this agent's conversation (default none: every message of the owner's). Optional.
            limit: Messages wanted, newest first, 1 to 1,000 (default 50). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("agent_id", agent_id), ("limit", limit)]
        return cast("List[Message]", self.call("messages", {k: v for k, v in given if v is not None}))

    def team_create(self, *, entity_id: str, name: str, description: str | None = None, default_visibility: Visibility | None = None, id: str | None = None) -> Team:
        """Makes a team of agents: its members see the memories written for it with visibility `team`.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            name: The team's name: 1 to 200 characters.
            description: What it is for: at most 2,000 characters (default empty). Optional.
            default_visibility: The visibility of memories written for the team without one (default `team`). Optional.
            id: The team's id: 1 to 256 characters of `[A-Za-z0-9_:.-]`, not one of the owner's teams already (default: a new id, `team_…`). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("name", name), ("description", description), ("default_visibility", default_visibility), ("id", id)]
        return cast("Team", self.call("team_create", {k: v for k, v in given if v is not None}))

    def team_get(self, *, entity_id: str, team_id: str) -> Team:
        """A team of the owner.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id)]
        return cast("Team", self.call("team_get", {k: v for k, v in given if v is not None}))

    def team_delete(self, *, entity_id: str, team_id: str) -> TeamDeleted:
        """Deletes a team and its memberships; its memories stay with their writers.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id)]
        return cast("TeamDeleted", self.call("team_delete", {k: v for k, v in given if v is not None}))

    def team_member_add(self, *, entity_id: str, team_id: str, member_id: str, role: TeamRole | None = None) -> TeamMember:
        """Adds an agent to a team.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
            member_id: The agent joining (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`.
            role: What it is in the team (default member). Optional.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id), ("member_id", member_id), ("role", role)]
        return cast("TeamMember", self.call("team_member_add", {k: v for k, v in given if v is not None}))

    def team_members(self, *, entity_id: str, team_id: str) -> List[TeamMember]:
        """A team's members, in the order they joined.

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id)]
        return cast("List[TeamMember]", self.call("team_members", {k: v for k, v in given if v is not None}))

    def team_member_remove(self, *, entity_id: str, team_id: str, member_id: str) -> TeamMember:
        """Removes an agent from a team (not its last member: delete the team instead).

        Arguments (docs/API.md):
            entity_id: The owner of the memories (a user, an agent, a project): 1 to 256 characters of `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
            team_id: The team's id, as `team_create` answered.
            member_id: The member (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`.
        """
        given: List[Tuple[str, Any]] = [("entity_id", entity_id), ("team_id", team_id), ("member_id", member_id)]
        return cast("TeamMember", self.call("team_member_remove", {k: v for k, v in given if v is not None}))
