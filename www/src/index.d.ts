// Generated from the engine's call declarations (mnemo_core::api) by
// `cargo run -p mnemo-wasm --example bindings`; do not edit.
// Field names are the engine's snake_case JSON, the same on every surface (JS, HTTP, CLI).

import type { Millis, OpenOptions, StorageFallback, Vector } from './package';
export * from './package';

/** Arguments of `remember`: a piece of conversation, or what a host extractor found in it. */
export interface RememberArgs {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The piece of conversation, at most 50,000 characters (a chat capture's `User:` /
   * `Assistant:` lines keep only the user's turns). Required unless `messages` is given.
   */
  content?: string | null;
  /**
   * The conversation as role-tagged messages instead of `content` (at least one): only what
   * the user said is remembered.
   */
  messages?: ChatMessage[] | null;
  /**
   * Memories the host already extracted from `content` (an LLM extractor, or `extract`
   * plus host vectors); when absent the engine's extractor runs.
   */
  extracted?: Extracted[] | null;
  /**
   * An LLM's raw answer to the `llm_instructions` for `content`: checked by the engine;
   * when it cannot be used the built-in extractor runs and the report says why.
   */
  llm_output?: string | null;
  /**
   * The agent that took part, stored with each memory (1 to 256 characters of `[A-Za-z0-9_:.-]`;
   * default none).
   */
  agent_id?: string | null;
  /**
   * The conversation session, stored with each memory; memories of one session lend each other
   * relevance in search (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none).
   */
  session_id?: string | null;
  /**
   * Where the conversation came from (a message id, a document and chunk): 1 to 1,024
   * characters, stored with each memory (default none). In search, after the first of one
   * message's statements, its others give way to other messages' hits.
   */
  source_ref?: string | null;
  /**
   * The team the memories are shared with, stored with them (1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; default none).
   */
  team_id?: string | null;
  /** Who besides the owner's agent may see them (default private). */
  visibility?: Visibility | null;
  /** Who said it, which sets the memories' trust (default conversation, trust 0.6). */
  source?: Source | null;
}

/** One message of a conversation, tagged with who said it. */
export interface ChatMessage {
  /**
   * `user` (also `human`, `me`), or the agent's side: `assistant`, `ai`, `bot`, `agent`,
   * `model`, `system`, `tool`.
   */
  role: string;
  /** What was said: not blank. */
  content: string;
}

/**
 * One memory an extractor found in a text. From a host extractor only `content` is required;
 * the rest defaults to a CONTEXT fact of importance 0.5, full confidence, neutral sentiment.
 */
export interface Extracted {
  /** The memory's text: not blank, at most 50,000 characters. */
  content: string;
  /** The memory type, which sets how fast it decays (default CONTEXT). */
  type?: MemoryType;
  /** What sort of knowledge it is (default fact). */
  kind?: Kind;
  /** How much it matters, 0 to 1 (default 0.5). */
  importance?: number;
  /** How sure the statement is, 0 to 1 (default 1). */
  confidence?: number;
  /** Whether the speaker hedged ("I think", "maybe"); confidence is lower then (default false). */
  hedged?: boolean;
  /** How it feels, from -1 to 1 (default 0). */
  sentiment?: number;
  /**
   * Keywords, stored as the memory's auto tags: at most 64, each 1 to 64 characters once
   * trimmed.
   */
  tags?: string[];
  /**
   * When it stops being true, in milliseconds since the Unix epoch, from 1973 (an earlier value
   * looks like seconds and is refused) to 9999 (default none).
   */
  expires_at?: number | null;
  /** The entities it names, for the knowledge graph (at most 64; default none). */
  entities?: EntityMention[];
  /** The relationships it states, for the knowledge graph (at most 64; default none). */
  relationships?: RelationMention[];
  /** The content's vector, when the host embeds what an extractor found. */
  vector?: Vector | null;
}

/** The eight memory types; each has a base stability. */
export type MemoryType = 'IDENTITY' | 'PREFERENCE' | 'RELATIONSHIP' | 'EVENT' | 'ACTIVITY' | 'PLAN' | 'CONTEXT' | 'EPHEMERAL';

/** What sort of knowledge a memory holds; recall filters use it. */
export type Kind = 'fact' | 'procedure' | 'narrative' | 'passage';

/** An entity a memory names. */
export interface EntityMention {
  /** The entity's name: 1 to 256 characters, with a letter or digit. */
  name: string;
  /** What sort of entity it is. */
  type: EntityType;
  /**
   * Other names of the same entity ("Ana" for "Ana Souza"): at most 64, each 1 to 256
   * characters with a letter or digit (default none).
   */
  aliases?: string[];
}

/** What an entity is. */
export type EntityType = 'PERSON' | 'ORGANIZATION' | 'LOCATION' | 'PRODUCT' | 'CONCEPT' | 'EVENT' | 'OTHER';

/** A relationship a memory states: `from relation to`; the speaker is `SPEAKER`. */
export interface RelationMention {
  /**
   * The entity the relationship goes from (its name: 1 to 256 characters, with a letter or
   * digit).
   */
  from: string;
  /** The relation. */
  relation: Relation;
  /** The entity it goes to (its name: 1 to 256 characters, with a letter or digit). */
  to: string;
  /** How sure the statement is, 0 to 1: lower when it is hedged. */
  confidence: number;
}

/** A typed edge `from → to`, read "from *relation* to". */
export type Relation = 'works_at' | 'employs' | 'manages' | 'reports_to' | 'friend_of' | 'lives_in' | 'home_of' | 'parent_of' | 'child_of' | 'dating' | 'married_to' | 'engaged_to' | 'ex_of' | 'member_of' | 'has_member' | 'founded' | 'founded_by' | 'uses' | 'used_by' | 'created' | 'created_by' | 'collaborates_with' | 'mentors' | 'mentored_by' | 'competitor_of' | 'partner_of' | 'client_of' | 'serves' | 'sibling_of' | 'knows' | 'colleague_of' | 'neighbor_of' | 'roommate_of' | 'cousin_of' | 'relative_of' | 'grandparent_of' | 'grandchild_of' | 'studied_at' | 'teaches' | 'student_of' | 'owns' | 'owned_by' | 'has_pet' | 'pet_of' | 'located_in' | 'born_in' | 'works_on' | 'likes' | 'dislikes' | 'interested_in' | 'attends' | 'visited';

/** Who may see a memory besides its owner's agent. */
export type Visibility = 'private' | 'team' | 'global';

/** Who wrote the memory; decides its trust. */
export type Source = 'user' | 'agent' | 'conversation' | 'import';

/** Arguments of `extract`. */
export interface ExtractArgs {
  /** The text to extract memories from: not blank, at most 50,000 characters. */
  content: string;
}

/** Arguments of `seed`. */
export interface SeedArgs {
  /** The memories to store, in order, in one transaction (at most 10,000). */
  items: NewMemory[];
}

/** A structured memory to store. Only `entity_id` and `content` are required. */
export interface NewMemory {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** What to remember: not blank, at most 50,000 characters (stored trimmed). */
  content: string;
  /** The memory type, which sets how fast it decays (default EVENT). */
  type?: MemoryType | null;
  /** What sort of knowledge it is, for recall filters (default fact). */
  kind?: Kind | null;
  /** The memory layer (default working; use and time promote it). */
  layer?: Layer | null;
  /** How much it matters, 0 to 1 (default 0.5, then adjusted by how surprising it is). */
  importance?: number | null;
  /** How sure the statement is, 0 to 1 (default 1). */
  confidence?: number | null;
  /** How it feels, from -1 (negative) to 1 (positive) (default 0). */
  sentiment?: number | null;
  /** Who wrote it, which sets its trust (default agent, trust 0.7). */
  source?: Source | null;
  /**
   * Manual tags: at most 64, each 1 to 64 characters once trimmed, duplicates dropped (default
   * none).
   */
  tags?: string[];
  /** Pinned memories do not decay (default false). */
  pinned?: boolean;
  /**
   * When the memory stops being true (a deadline), in milliseconds since the Unix epoch, from
   * 1973 (an earlier value looks like seconds and is refused) to 9999 (default none).
   */
  expires_at?: number | null;
  /**
   * A schedule tag starting `cron:`, at most 128 characters (default none; `schedule_create`
   * checks the full grammar).
   */
  cron_tag?: string | null;
  /**
   * Where it came from (a message id, a document and chunk): 1 to 1,024 characters (default
   * none).
   */
  source_ref?: string | null;
  /** The agent that wrote it (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). */
  agent_id?: string | null;
  /**
   * The conversation session it belongs to (1 to 256 characters of `[A-Za-z0-9_:.-]`; default
   * none).
   */
  session_id?: string | null;
  /** The team it is shared with (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). */
  team_id?: string | null;
  /** Who besides the owner's agent may see it (default private). */
  visibility?: Visibility | null;
  /**
   * When it was first said, in milliseconds since the Unix epoch (not seconds: times before 1973
   * are refused as a likely unit mistake), not after now (default now): it ages from then.
   */
  created_at?: number | null;
  /** The content's vector, when the caller embeds it. */
  vector?: Vector | null;
}

/** Memory layer: working memories promote to episodic, then semantic. */
export type Layer = 'working' | 'episodic' | 'semantic' | 'procedural' | 'codebase';

/** A search. Only `entity_id` and `query` (or `vector`) are required. */
export interface SearchRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /**
   * With `agent_id`: false to search only the agent's own memories, as Keyoku's client
   * asks when it is not team-aware (default true: everything the agent may see).
   */
  team_aware?: boolean | null;
  /** What to look for, in words: at most 10,000 characters; may be empty when `vector` is given. */
  query: string;
  /** The query's vector, when the caller embeds it; else the engine's embedder is used. */
  vector?: Vector | null;
  /** Results wanted, 1 to 1,000 (default 10). */
  limit?: number | null;
  /** How hits are ordered among comparably relevant ones (default balanced). */
  mode?: RankMode;
  /** Which kinds of memory may appear (default full_context: every kind). */
  recall?: RecallFilter;
  /**
   * Search ARCHIVED memories too (default false: only when the others give too few good
   * answers).
   */
  include_archived?: boolean;
  /** Only these types (any when empty). */
  types?: MemoryType[];
  /**
   * Drop hits whose relevance (`why.relevance`, 0 to 1, comparable across queries) is below this
   * (default: the configuration's `recall.min_relevance`, 0.1; 0 with `entities`).
   */
  min_score?: number | null;
  /** Only memories that name one of these entities of the owner's graph (names or aliases). */
  entities?: string[];
  /**
   * Only these kinds (any the recall filter admits when empty): `["passage"]` searches
   * documents only, `["fact"]` leaves them out.
   */
  kinds?: Kind[];
  /**
   * Most passages of one document in the results, 1 to 1,000 (default 3): a long document
   * does not fill the list by itself.
   */
  per_document?: number | null;
  /**
   * Only memories said at or after this time (milliseconds since the Unix epoch; a memory is
   * said at its `created_at`).
   */
  after?: number | null;
  /**
   * Only memories said before this time (milliseconds since the Unix epoch); with `after`,
   * later than it.
   */
  before?: number | null;
  /**
   * What "now" is for this question (milliseconds since the Unix epoch): the time its words
   * such as "yesterday", "last weekend" or "next Friday" are read against (default the
   * engine's clock). Without `after` and `before`, a span the query names ranks first the
   * memories said in it, those said outside it that name a time in it ("last month", said
   * later; "next Friday", said before), and those due in it (`expires_at`).
   */
  as_of?: number | null;
}

/** Ranking mode: how much each signal weighs in the composite score. */
export type RankMode = 'balanced' | 'recent' | 'important' | 'historical' | 'comprehensive';

/** Which kinds a search returns. */
export type RecallFilter = 'facts_only' | 'facts_plus_rules' | 'full_context';

/** One memory of one owner. */
export interface MemoryRef {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /**
   * The memory's id, as the write that stored it answered: 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`.
   */
  id: string;
}

/**
 * Filters and paging for `list`. Empty lists mean "any"; by default DELETED memories are
 * left out.
 */
export interface ListRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /** Only memories of these types (any when empty). */
  types?: MemoryType[];
  /** Only memories in these lifecycle states (any but DELETED when empty). */
  states?: State[];
  /** Only memories with these validity statuses (any when empty). */
  statuses?: Status[];
  /** Only memories of these kinds (any when empty). */
  kinds?: Kind[];
  /** Only memories carrying this tag, manual or automatic (default any). */
  tag?: string | null;
  /** Only pinned (true) or only unpinned (false) memories (default either). */
  pinned?: boolean | null;
  /**
   * Only these memories (at most 1,000 ids): a read of several by id that, unlike `get`, is not
   * an access.
   */
  ids?: string[];
  /** Page size, 1 to 1,000 (default 50). */
  limit?: number | null;
  /** Memories to skip before the page starts, at most 1,000,000,000 (default 0). */
  offset?: number;
  /** Oldest first instead of newest first. */
  oldest_first?: boolean;
}

/** Lifecycle state, driven by retention. */
export type State = 'ACTIVE' | 'STALE' | 'ARCHIVED' | 'DELETED';

/** Validity status; every change is written to the status history. */
export type Status = 'active' | 'challenged' | 'invalidated' | 'merged' | 'superseded';

/** Arguments of `update`. */
export interface UpdateArgs {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /**
   * The memory's id, as the write that stored it answered: 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`.
   */
  id: string;
  /** The changes; fields left out stay as they are. */
  patch: MemoryPatch;
}

/** Changes for `update`; absent fields stay as they are. */
export interface MemoryPatch {
  /** New content: not blank, at most 50,000 characters; re-hashed, re-embedded and re-indexed. */
  content?: string | null;
  /** Vector for the new content, when the caller embeds it. */
  vector?: Vector | null;
  /** A new memory type. */
  type?: MemoryType | null;
  /** A new kind. */
  kind?: Kind | null;
  /** A new importance, 0 to 1. */
  importance?: number | null;
  /** A new confidence, 0 to 1. */
  confidence?: number | null;
  /** A new sentiment, from -1 to 1. */
  sentiment?: number | null;
  /** Replaces the manual tags: at most 64, each 1 to 64 characters once trimmed. */
  tags?: string[] | null;
  /**
   * A new expiry (a deadline), in milliseconds since the Unix epoch, from 1973 (an earlier
   * value looks like seconds and is refused) to 9999.
   */
  expires_at?: number | null;
  /** A new source reference: 1 to 1,024 characters. */
  source_ref?: string | null;
}

/** One owner. */
export interface OwnerRef {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
}

/** A memory by its id alone. */
export interface IdRef {
  /** The id of the memory to find the owner of. */
  id: string;
}

/** Arguments of `sample`. */
export interface SampleRequest {
  /**
   * Only this owner's memories (every owner's when absent): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`.
   */
  entity_id?: string | null;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /** How many memories to draw, 1 to 1,000 (default 10). */
  limit?: number | null;
}

/** Methods without arguments take an empty object (or nothing). */
export type NoArgs = Record<string, never>;

/** Arguments of `pin`. */
export interface PinArgs {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /**
   * The memory's id, as the write that stored it answered: 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`.
   */
  id: string;
  /** True to pin (the memory no longer decays), false to unpin. */
  pinned: boolean;
}

/** Arguments of `set_status`. */
export interface SetStatusArgs {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /**
   * The memory's id, as the write that stored it answered: 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`.
   */
  id: string;
  /** The new validity status; it must differ from the memory's current one. */
  status: Status;
  /** Why, written to the memory's status history: 1 to 1,000 characters once trimmed. */
  reason: string;
}

/** Arguments of `set_layer`. */
export interface SetLayerArgs {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /**
   * The memory's id, as the write that stored it answered: 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`.
   */
  id: string;
  /** The layer to move it to; it must differ from the memory's current one. */
  layer: Layer;
  /** Why, written to the memory's status history: 1 to 1,000 characters once trimmed. */
  reason: string;
}

/** Which memory's links to read. */
export interface RelatedRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /** The memory whose links to follow. */
  id: string;
  /** Memories wanted, 1 to 1,000 (default 10). */
  limit?: number | null;
}

/** Arguments of `import`: JSONL as made by `export`, or plain records. */
export interface ImportArgs {
  /**
   * One JSON record per line: full records as `export` writes them, or plain records
   * (`entity_id`, `content` and optional fields as in `seed`).
   */
  jsonl: string;
}

/** Arguments of `ingest`: a document to store as searchable passages. */
export interface IngestRequest {
  /**
   * The owner of the document (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The document's title (1 to 512 characters, one line), shown with every passage found
   * (default: an HTML page's `<title>`, else its first heading, else the file's name, else
   * its first line).
   */
  title?: string | null;
  /**
   * The document's text: plain text, markdown or HTML (see `format`; at most 10,000,000
   * characters). Hosts turn PDF into text first.
   */
  content: string;
  /**
   * How the text is written (default: what `mime`, else the extension of `filename`,
   * says — `text/html` or `.html` is html; `text/plain`, `.txt` or a PDF's text is text —,
   * else markdown).
   */
  format?: DocumentFormat | null;
  /** Where it came from (default upload). */
  source?: DocumentSource | null;
  /** The file's name (1 to 512 characters), whose extension and words become tags. */
  filename?: string | null;
  /** The file's media type (`text/markdown`, `application/pdf`, …), kept as given. */
  mime?: string | null;
  /**
   * The document's identity at its source (a path, a URL, a connector's id): 1 to 1,024
   * characters. New text under the same `source_ref` replaces the document.
   */
  source_ref?: string | null;
  /**
   * Manual tags, kept on the document and every passage: at most 64, each 1 to 64
   * characters; the system never removes them (default none).
   */
  tags?: string[];
  /**
   * The agent that stored it, stored with each passage (1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; default none).
   */
  agent_id?: string | null;
  /**
   * The team the document is shared with (1 to 256 characters of `[A-Za-z0-9_:.-]`;
   * default none).
   */
  team_id?: string | null;
  /** Who besides the owner's agent may see it (default private, or the team's default). */
  visibility?: Visibility | null;
  /** How the text is cut into passages (default 800 to 1,200 characters, 100 of overlap). */
  chunking?: ChunkSizes | null;
}

/** How a document's text is written, which says how it is read. */
export type DocumentFormat = 'text' | 'markdown' | 'html';

/** Where a document came from; its first automatic tag. */
export type DocumentSource = 'upload' | 'chat' | 'connector' | 'web' | 'note' | 'email' | 'api';

/** How a document is cut: the sizes a source's documents are chunked at. */
export interface ChunkSizes {
  /**
   * Shortest passage aimed for, in characters: a passage ends at the first sentence end
   * past it (default 800; 100 to 10,000).
   */
  min_chars?: number;
  /**
   * Longest passage, in characters (default 1,200; 100 to 20,000; below `min_chars` it is
   * taken as `min_chars`).
   */
  max_chars?: number;
  /**
   * Characters of overlap between passages, taken as whole sentences when they fit
   * (default 100; 0 to 5,000; more than half of `min_chars` is taken as half).
   */
  overlap?: number;
}

/** Arguments of `ingest_code`: the files a host read from a repository, parsed. */
export interface CodeIngest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** The agent writing (its memories are its own, `private`). */
  agent_id?: string | null;
  /** The files (1 to 1,000), each once. */
  files: CodeFile[];
  /**
   * Whether `files` is the whole tree: files of earlier runs not listed are then gone
   * (invalidated), and code names memories cite with no file are checked against it. Send
   * a large tree in several calls, `complete` on none of them, and let drift detection
   * (`--workspace`) find what was deleted.
   */
  complete?: boolean;
}

/**
 * One source file: parsed by the host (its `language`, `lines`, `summary` and `symbols`), or
 * its `text` for the engine to parse (the `mnemo` binary, the component and the Python
 * package read Rust, Python, TypeScript, JavaScript and Go with tree-sitter; the npm package
 * reads it with its parser module, `@mnemo/memory/parser`, before the call).
 */
export interface CodeFile {
  /** Its path from the repository's root, `/`-separated (1 to 1,024 characters, no `..`). */
  path: string;
  /**
   * Its language, lower case (`rust`, `python`, `typescript`, `javascript`, `go`, …; 1 to
   * 32 characters). Required with `symbols`; with `text`, read from the path's extension
   * when left out.
   */
  language?: string | null;
  /** Its number of lines. Required with `symbols`; with `text`, counted from it. */
  lines?: number | null;
  /** What it is for, in a line (its module comment), if it says. With `text`, read from it. */
  summary?: string | null;
  /** Its public symbols, in order of line. With `text`, read from it. */
  symbols?: Symbol[];
  /**
   * The file's source text (at most 1 MiB), for the engine to parse instead of `lines`,
   * `summary` and `symbols`; not stored.
   */
  text?: string | null;
}

/** A symbol a file defines. */
export interface Symbol {
  /** What it is. */
  kind: SymbolKind;
  /** Its name (1 to 200 characters). */
  name: string;
  /**
   * Its signature, one line (`fn check_token(token: &str) -> bool`; cut to 240
   * characters).
   */
  signature?: string;
  /** The line it starts on (1-based). */
  line: number;
}

/** What a symbol is. */
export type SymbolKind = 'function' | 'method' | 'type' | 'interface' | 'enum' | 'module' | 'constant' | 'macro';

/** Arguments of `documents`. */
export interface DocumentsRequest {
  /** The owner of the documents: 1 to 256 characters of `[A-Za-z0-9_:.-]`. */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own documents, `global` ones and `team`
   * ones of its teams (default none: the owner's view).
   */
  agent_id?: string | null;
  /** Superseded versions and forgotten documents too (default false). */
  all?: boolean;
}

/** Arguments of `document` and `forget_document`. */
export interface DocumentRef {
  /** The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`. */
  entity_id: string;
  /** The document's id. */
  id: string;
  /**
   * The agent the call is made for (default none: the owner's view); an agent forgets
   * only documents it stored.
   */
  agent_id?: string | null;
}

/** Arguments of `write_summary`. */
export interface SummaryWrite {
  /** The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`. */
  entity_id: string;
  /** The document's id. */
  document_id: string;
  /** The passage's place in the document, from 0; none for the document's own summary. */
  position?: number | null;
  /**
   * The summary the host's LLM wrote: at most two sentences for a passage, three for a
   * document, shorter than the text it summarises.
   */
  summary: string;
  /**
   * The agent the call is made for (default none: the owner's view); an agent writes only
   * the summaries of documents it stored.
   */
  agent_id?: string | null;
}

/** Arguments of `decide_bridge`: the host's LLM's decision on a proposed bridge. */
export interface BridgeDecision {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** The bridge's id, as `bridges` or `synthesis.wanted` give it. */
  id: string;
  /** Whether the memories show the two really connected. */
  related: boolean;
  /**
   * How the first relates to the second, a few words (at most 80 characters; needed when
   * related).
   */
  relation?: string;
  /** Why, citing the memories: at most 480 characters. */
  reason: string;
}

/** Arguments of `drift`: what a host found at paths an owner's memories cite. */
export interface DriftFindings {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** What is at each path (1 to 1,000), as the memories cite it (`drift.wanted` lists them). */
  paths: PathFound[];
}

/** What a host found at one path. */
export interface PathFound {
  /** The path, as memories cite it (1 to 1,024 characters). */
  path: string;
  /** `missing`, `directory` or `file`. */
  state: PathKind;
  /** A file's number of lines, when counted (a cited line past it is a dead reference). */
  lines?: number | null;
}

/** What a host found at a path. */
export type PathKind = 'missing' | 'directory' | 'file';

/**
 * Arguments of `write_card_summary`: the host's LLM's summary of a card, in place of the
 * engine's.
 */
export interface CardSummaryWrite {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** The entity (a name or alias), as `card` takes it. */
  name: string;
  /** Two or three sentences, at most 720 characters: kept while the card's facts stand. */
  summary: string;
}

/** Arguments of `import_notes`. */
export interface NotesImport {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** The notes, as markdown: at most 1,000,000 characters and 10,000 notes. */
  markdown: string;
  /**
   * Where they come from (a file name): memories get `source_ref` `{source}:{line}`
   * (default `notes`).
   */
  source?: string | null;
}

/** Arguments of `Engine::embed`. */
export interface EmbedRequest {
  /** The texts to embed: 1 to 1,000, each not blank and at most 50,000 characters. */
  texts: string[];
}

/** Arguments of `Engine::reembed`. */
export interface ReembedRequest {
  /** The built-in embedder to move to: `mnemo-static-v1` or `mnemo-hash-v1`. */
  model: string;
}

/** Filters and paging for `Engine::entities`(crate::Engine::entities). */
export interface EntitiesRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees what its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of say — entities they name, relationships they
   * state, counted from them (default none: the owner's whole graph).
   */
  agent_id?: string | null;
  /** Only these types (any when empty). */
  types?: EntityType[];
  /** Only entities with a name or alias containing this (case-insensitive). */
  query?: string | null;
  /** Page size, 1 to 1,000 (default 50). */
  limit?: number | null;
  /** Entities to skip before the page starts (default 0). */
  offset?: number;
}

/** Filters for `Engine::relationships`(crate::Engine::relationships). */
export interface RelationshipsRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees what its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of say — entities they name, relationships they
   * state, counted from them (default none: the owner's whole graph).
   */
  agent_id?: string | null;
  /** Only relationships touching this entity (a name or alias). */
  entity?: string | null;
  /** Only these relations (any when empty). */
  relations?: Relation[];
  /** Drop relationships weaker than this (strength is 0 to 1; default none dropped). */
  min_strength?: number | null;
  /** Leave out inferred reverse edges. */
  stated_only?: boolean;
  /** At most this many, strongest first, 1 to 1,000 (default 50). */
  limit?: number | null;
}

/** A breadth-first walk from one entity, for `Engine::traverse`(crate::Engine::traverse). */
export interface TraverseRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees what its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of say — entities they name, relationships they
   * state, counted from them (default none: the owner's whole graph).
   */
  agent_id?: string | null;
  /** Where to start (a name or alias; `user` is the owner). */
  from: string;
  /** Hops to walk, 1 to 5 (default 2). */
  depth?: number | null;
  /** Follow only these relations (any when empty). */
  relations?: Relation[];
  /** Follow only relationships at least this strong (strength is 0 to 1; default any). */
  min_strength?: number | null;
}

/** Arguments of `card`. */
export interface CardRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: its card is made from what its own memories, `global`
   * ones and `team` ones of the owner's teams it is a member of say (default none: the
   * owner's view, every memory).
   */
  agent_id?: string | null;
  /** The entity: a name or alias, as `entities` lists them. */
  name: string;
}

/** Arguments of `bridges`. */
export interface BridgesRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees the bridges that the memories it may see make
   * (its own, `global` ones and `team` ones of its teams), with those as evidence (default
   * none: the owner's view).
   */
  agent_id?: string | null;
  /** Only bridges of this status (default all). */
  status?: BridgeStatus | null;
  /** At most this many, 1 to 1000 (default 50), the most contexts first. */
  limit?: number | null;
}

/** Where a bridge stands. */
export type BridgeStatus = 'proposed' | 'confirmed' | 'rejected';

/** The shortest path between two entities, for `Engine::path`(crate::Engine::path). */
export interface PathRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees what its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of say — entities they name, relationships they
   * state, counted from them (default none: the owner's whole graph).
   */
  agent_id?: string | null;
  /** The entity to start from (a name or alias; `user` is the owner). */
  from: string;
  /** The entity to reach (a name or alias). */
  to: string;
  /** Longest path looked for, in hops, 1 to 5 (default 5). */
  max_depth?: number | null;
}

/** Filters for `Engine::conflicts`(crate::Engine::conflicts). */
export interface ConflictsRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /** Only open (or only resolved) conflicts. */
  status?: ConflictStatus | null;
  /** At most this many, newest first, 1 to 1,000 (default 50). */
  limit?: number | null;
}

/** Whether a conflict still waits for a decision. */
export type ConflictStatus = 'open' | 'resolved';

/** A decision on an open conflict, for `Engine::resolve_conflict`(crate::Engine::resolve_conflict). */
export interface ResolveRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** The conflict's id, as `conflicts` lists it. */
  id: string;
  /** Which statement stands. */
  resolution: Resolution;
  /**
   * Why, written to the memories' status history: 1 to 1,000 characters once trimmed (default
   * "resolved by the user").
   */
  reason?: string | null;
}

/** A decision on an open conflict. */
export type Resolution = 'keep_existing' | 'use_new' | 'merge' | 'keep_both';

/** A new schedule, for `Engine::schedule_create`(crate::Engine::schedule_create). */
export interface ScheduleCreate {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** What the schedule is for, stored as a PLAN memory: not blank, at most 50,000 characters. */
  content: string;
  /**
   * When it falls due: `cron:hourly`, `cron:daily[:HH:MM]`, `cron:weekly:DAY:HH:MM`,
   * `cron:weekdays:HH:MM`, `cron:monthly:D:HH:MM`, `cron:every:<duration>` (1 minute to 366
   * days) or `cron:once:<RFC 3339 time>` (in the future); times in UTC.
   */
  cron_tag: string;
  /**
   * The agent whose plan it is, recorded with its memory (it and the owner's view see it;
   * 1 to 256 characters of `[A-Za-z0-9_:.-]`; default none: the owner's).
   */
  agent_id?: string | null;
}

/** Which schedules `Engine::schedules`(crate::Engine::schedules) lists. */
export interface SchedulesRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /** Done and cancelled schedules too (default false: only active ones). */
  all?: boolean;
}

/** One schedule of one owner. */
export interface ScheduleRef {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it changes only its own schedules (default none: the
   * owner's view, which changes any).
   */
  agent_id?: string | null;
  /** The schedule's id (its PLAN memory's). */
  id: string;
}

/** Changes to a schedule, for `Engine::schedule_update`(crate::Engine::schedule_update). */
export interface ScheduleUpdate {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it changes only its own schedules (default none: the
   * owner's view, which changes any).
   */
  agent_id?: string | null;
  /** The schedule's id (its PLAN memory's). */
  id: string;
  /** New text: not blank, at most 50,000 characters (default unchanged; give this or `cron_tag`). */
  content?: string | null;
  /**
   * A new schedule tag, as `schedule_create` takes it; it falls due from now on (default
   * unchanged).
   */
  cron_tag?: string | null;
}

/**
 * Arguments of `heartbeat_check` and `heartbeat_context`; unset options take the engine's
 * `heartbeat` configuration.
 */
export interface HeartbeatRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /**
   * The agent the call is made for: it sees its own memories, `global` ones and `team`
   * ones of the owner's teams it is a member of, and changes only its own (default none: the
   * owner's view, which sees and changes every memory).
   */
  agent_id?: string | null;
  /**
   * A team of the owner: the check sees that team's `team` memories and `global` ones (with
   * `agent_id`, the agent's own too), as Keyoku's team heartbeat does (default none).
   */
  team_id?: string | null;
  /** How freely the agent may speak up (default: the configuration's, `suggest`). */
  autonomy?: Autonomy | null;
  /** Whether the owner is in a conversation now; by default, a message under 15 min old. */
  in_conversation?: boolean | null;
  /** The owner's offset from UTC in minutes, -840 to 840 (default: the configuration's, 0). */
  utc_offset_minutes?: number | null;
  /** The owner's quiet hours, local time (default: the configuration's, 23 to 7, enabled). */
  quiet_hours?: QuietHours | null;
  /**
   * How far ahead deadlines count, as a duration such as "24h" or "3d": more than 0 and at most
   * 366 days (default: the configuration's, 24 hours).
   */
  deadline_window?: string | null;
  /** Most items per signal, 1 to 100 (default 20). */
  max_results?: number | null;
  /** Decide but record nothing (no act, no schedule marked surfaced). */
  dry_run?: boolean;
  /**
   * Decide as of this time instead of the host's clock, in milliseconds since the Unix epoch
   * from 1973 to 9999: memories written later are not seen, and an act is recorded at this
   * time (Keyoku's `virtual_now`; to replay or simulate a day, with `dry_run` to record
   * nothing) (default now).
   */
  as_of?: number | null;
  /**
   * `heartbeat_context` only: also search memories for this text, at most 10,000 characters
   * (default none).
   */
  query?: string | null;
  /** `heartbeat_context` only: how many memories the query returns, 1 to 1,000 (default 5). */
  top_k?: number | null;
}

/**
 * How the agent uses what the heartbeat finds. The engine decides whether to speak up;
 * the level decides how, and how often.
 */
export type Autonomy = 'observe' | 'suggest' | 'act';

/**
 * The owner's quiet hours: local hours `start` up to (not including) `end`, wrapping past
 * midnight when `start > end`.
 */
export interface QuietHours {
  /** Whether quiet hours apply. */
  enabled?: boolean;
  /** The local hour they begin, 0 to 23. */
  start?: number;
  /** The local hour they end (exclusive), 0 to 23; before `start` they run past midnight. */
  end?: number;
}

/** A message of the conversation, for `Engine::record_message`(crate::Engine::record_message). */
export interface RecordMessage {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** Who said it: `user` (the owner) or `agent`. */
  role: MessageRole;
  /** What was said: not blank, at most 50,000 characters. */
  content: string;
  /**
   * The agent whose conversation it is part of (1 to 256 characters of `[A-Za-z0-9_:.-]`;
   * default none: the owner's own).
   */
  agent_id?: string | null;
  /** The conversation session (1 to 256 characters of `[A-Za-z0-9_:.-]`; default none). */
  session_id?: string | null;
  /** The act an agent message delivers (`act_id` of a heartbeat report; default none). */
  act_id?: string | null;
  /**
   * An act id the host made itself, as Keyoku's plugin sends (`action_id`): 1 to 1,024
   * characters; the message is linked to the act when it names one of the owner's, and
   * recorded without a link when not (default none).
   */
  action_ref?: string | null;
}

/** Who wrote a recorded message. */
export type MessageRole = 'user' | 'agent';

/** Arguments of `messages`: an owner's recorded conversation. */
export interface MessagesRequest {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** Only this agent's conversation (default none: every message of the owner's). */
  agent_id?: string | null;
  /** Messages wanted, newest first, 1 to 1,000 (default 50). */
  limit?: number | null;
}

/** Arguments of `team_create`. */
export interface TeamCreate {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** The team's name: 1 to 200 characters. */
  name: string;
  /** What it is for: at most 2,000 characters (default empty). */
  description?: string;
  /** The visibility of memories written for the team without one (default `team`). */
  default_visibility?: Visibility | null;
  /**
   * The team's id: 1 to 256 characters of `[A-Za-z0-9_:.-]`, not one of the owner's teams
   * already (default: a new id, `team_…`).
   */
  id?: string | null;
}

/** One team of one owner. */
export interface TeamRef {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** The team's id, as `team_create` answered. */
  team_id: string;
}

/** Arguments of `team_member_add`. */
export interface MemberAdd {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** The team's id, as `team_create` answered. */
  team_id: string;
  /** The agent joining (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`. */
  member_id: string;
  /** What it is in the team (default member). */
  role?: TeamRole | null;
}

/** What a member is in its team (recorded for the host; both see the same memories). */
export type TeamRole = 'member' | 'admin';

/** One member of one team. */
export interface MemberRef {
  /**
   * The owner of the memories (a user, an agent, a project): 1 to 256 characters of
   * `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
   */
  entity_id: string;
  /** The team's id, as `team_create` answered. */
  team_id: string;
  /** The member (its `agent_id`): 1 to 256 characters of `[A-Za-z0-9_:.-]`. */
  member_id: string;
}

/** Per-input outcomes of a write, in input order. */
export interface WriteReport {
  /** What happened to each input, in input order. */
  outcomes: Outcome[];
  /** Why the built-in extractor stood in for an LLM's answer (`remember` only). */
  fallback?: string | null;
}

/** What happened to one input. */
export type Outcome =
  /** A new memory was stored. */
  | {
    /** What happened to the input: created, merged, skipped or conflict. */
    action: 'created';
    /** The id of the memory stored. */
    id: string;
  }
  /**
   * The input and an existing memory were merged into a new memory `id`; the existing one
   * (`absorbed`) now has status merged.
   */
  | {
    /** What happened to the input: created, merged, skipped or conflict. */
    action: 'merged';
    /** The id of the new memory holding both. */
    id: string;
    /** The id of the existing memory merged into it (now with status merged). */
    absorbed: string;
    /** Cosine similarity of the input and the absorbed memory, 0 to 1. */
    similarity: number;
  }
  /** Nothing stored; `existing` is the memory that made it redundant. */
  | {
    /** What happened to the input: created, merged, skipped or conflict. */
    action: 'skipped';
    /** Why nothing was stored. */
    reason: SkipReason;
    /**
     * The id of the memory that made the input redundant (none when the extractor found
     * nothing).
     */
    existing: string | null;
    /**
     * Cosine similarity of the input and that memory, 0 to 1, when they were compared by
     * vector.
     */
    similarity: number | null;
  }
  /**
   * The input contradicted memory `existing`; `mode` says what was done and `id` is the
   * memory stored for it (none under keep_existing). `conflict` is listed by `conflicts`.
   */
  | {
    /** What happened to the input: created, merged, skipped or conflict. */
    action: 'conflict';
    /** The id of the memory stored for the input (none under keep_existing). */
    id: string | null;
    /** The id of the memory the input contradicted. */
    existing: string;
    /** What kind of contradiction it is. */
    kind: ConflictKind;
    /** What was done about it. */
    mode: ConflictMode;
    /** The id of the conflict, as `conflicts` lists it. */
    conflict: string;
  };

/** Why an input stored nothing. */
export type SkipReason = 'exact_duplicate' | 'semantic_duplicate' | 'subset' | 'not_significant' | 'corroborated';

/** What kind of contradiction a conflict is. */
export type ConflictKind = 'negation' | 'stated_change' | 'preference_flip' | 'changed_number' | 'changed_place' | 'changed_job' | 'changed_relationship';

/** How a conflict is resolved. */
export type ConflictMode = 'keep_existing' | 'use_new' | 'merge' | 'ask' | 'temporal';

/** One search result and why it ranked there. */
export interface SearchHit {
  /** The memory found. */
  memory: Memory;
  /** Its composite score under the search's mode (higher ranks first). */
  score: number;
  /** How the score was made. */
  why: ScoreBreakdown;
  /** For a passage of a document: which document, and where in it. */
  passage?: PassageOf | null;
}

/** One stored memory, as every surface returns it. */
export interface Memory {
  /** The memory's id, unique in the store. */
  id: string;
  /** The owner the memory belongs to. */
  entity_id: string;
  /** The agent that wrote it, if one was named. */
  agent_id: string | null;
  /** The conversation session it belongs to, if one was named. */
  session_id: string | null;
  /** The team it is shared with, if any. */
  team_id: string | null;
  /** Who besides the owner's agent may see it. */
  visibility: Visibility;
  /** What the memory says. */
  content: string;
  /** SHA-256 (hex) of the normalised content. */
  content_hash: string;
  /** The memory type, which sets how fast it decays. */
  type: MemoryType;
  /** What sort of knowledge it holds (fact, procedure, narrative). */
  kind: Kind;
  /** The memory layer: working, episodic, semantic or procedural. */
  layer: Layer;
  /** The lifecycle state, driven by retention: ACTIVE, STALE, ARCHIVED or DELETED. */
  state: State;
  /** The validity status: active, challenged, invalidated, merged or superseded. */
  status: Status;
  /** The storage tier: hot, warm or archive. */
  tier: Tier;
  /** How much it matters, 0 to 1. */
  importance: number;
  /** How sure the statement is, 0 to 1. */
  confidence: number;
  /** How it feels, from -1 (negative) to 1 (positive). */
  sentiment: number;
  /** Who wrote it: user, agent, conversation or import. */
  source: Source;
  /** Trust of its source, 0 to 1 (user 1, agent 0.7, conversation 0.6, import 0.5). */
  trust: number;
  /** How many times it was used (returned by a search, read with `get`, reinforced). */
  access_count: number;
  /** When it was last used, in milliseconds since the Unix epoch (none until first used). */
  last_accessed_at: number | null;
  /** Feedback score: reinforce +3, demote −1. */
  feedback: number;
  /** Whether it is pinned (pinned memories do not decay). */
  pinned: boolean;
  /** Tags added by the caller; the system never removes them. */
  manual_tags: string[];
  /** Tags added by the system. */
  auto_tags: string[];
  /** When it stops being true, in milliseconds since the Unix epoch (none when it does not). */
  expires_at: number | null;
  /** Its schedule tag (`cron:…`), when it is a schedule's plan. */
  cron_tag: string | null;
  /** Where it came from (a message id, a document and chunk), if given. */
  source_ref: string | null;
  /** Surprise at write time (0..1): how far the memory was from its nearest neighbours. */
  surprise: number | null;
  /** For a memory with status `merged`: the memory that absorbed it. */
  merged_into: string | null;
  /** When it was first said, in milliseconds since the Unix epoch; it ages from then. */
  created_at: number;
  /** When it was last written, in milliseconds since the Unix epoch. */
  updated_at: number;
  /** When the current lifecycle state began, in milliseconds since the Unix epoch. */
  state_changed_at: number;
  /** When it was forgotten, in milliseconds since the Unix epoch (none unless DELETED). */
  deleted_at: number | null;
  /**
   * When its layer was set by hand (`set_layer`), in milliseconds since the Unix epoch:
   * automatic promotion then leaves it in that layer (absent when never set by hand).
   */
  layer_set_at?: number | null;
  /**
   * How many times another session or source said the same thing (a write dedup found to
   * repeat it): independent corroboration, each raising its confidence (absent while 0).
   */
  confirmations?: number;
}

/** Storage tier: how often a memory is likely to be needed. */
export type Tier = 'hot' | 'warm' | 'archive';

/** Why a hit ranked where it did: every input of its score. */
export interface ScoreBreakdown {
  /**
   * How relevant the memory is to the query, 0–1, comparable across queries: its own
   * (vector_weight·cosine⁺ + (1 − vector_weight)·text) or what a session neighbour lent
   * it, whichever is higher. `min_score` is compared with this.
   */
  relevance: number;
  /** Relevance relative to the best match of this query (1 = the best match). */
  semantic: number;
  /**
   * Cosine similarity of the query vector and the memory's vector, divided by the
   * mixed-precision penalty when consolidation stored the vector with fewer bits.
   */
  vector: number;
  /**
   * Text relevance: the share of the query's words the memory says (a vague word such as
   * "own" weighing a quarter), weighed by their rarity (BM25), squared so that saying one
   * word of several is weak evidence; 0 when none matched.
   */
  text: number;
  /**
   * The words of the query the memory says (compared by stem), in the order asked; common
   * words only when the query has no other.
   */
  matched: string[];
  /**
   * Relevance lent by a neighbouring memory: one of the same session, or one linked by
   * co-recall when `recall.link_weight` is on (0 when none).
   */
  context: number;
  /** How recently the memory was used (or made), 0 to 1: 1 / (1 + rate × days since). */
  recency: number;
  /** How much of the memory is retained by its decay curve, 0 to 1. */
  retention: number;
  /**
   * The importance the mode weighed, 0 to 1: in the `important` mode all nine
   * `importance_factors` weighed; in the others, which weigh recency and retention of
   * their own, the importance the memory was written with (`importance_factors.base`).
   */
  importance: number;
  /**
   * The nine factors of the memory's importance, each 0 to 1, with their weights: base
   * (as written, with surprise) 0.25, frequency of use 0.12, recency of use 0.12, valence
   * 0.06, stability of use 0.08, layer 0.10, source trust 0.10, confirmations 0.07, ACT-R
   * activation 0.10.
   */
  importance_factors: Factors;
  /** The memory's confidence, 0 to 1. */
  confidence: number;
  /** e^(0.2·feedback). */
  feedback_multiplier: number;
  /** Penalty for STALE memories (1 otherwise). */
  state_multiplier: number;
  /**
   * Penalty for the codebase layer's file of tests or benchmarks when the query does not
   * ask about tests (they name the functions of the code they test more often than it
   * does): `TEST_FILE_PENALTY`; 1, and not shown, otherwise.
   */
  test_file_multiplier?: number;
  /**
   * Boost for a memory that names a time ("yesterday", "in March", "last week") when the
   * query asks when (and names no span of its own): `WHEN_BOOST`; 1, and not shown,
   * otherwise.
   */
  when_multiplier?: number;
  /**
   * Penalty for a transcript line ("Melanie: …") of another speaker than the one the query
   * names ("What does Caroline do?"), when the query names the speaker of a line that
   * matches it: 0.7 (`recall::speaker`); 1, and not shown, otherwise.
   */
  speaker_multiplier?: number;
  /** The ranking mode the score was made under. */
  mode: RankMode;
  /**
   * The span of time the query named ("last weekend", "10 days ago"), when it named one and
   * gave no `after`/`before`: the memories said inside it rank first.
   */
  period?: PeriodMatch | null;
  /**
   * The order of time the query asked for ("the first": `earliest`, "the most recent":
   * `latest`), on the hits it put in that order: the closest matches among the first
   * `limit`, ordered by when they were said.
   */
  order?: Order | null;
  /**
   * A relation the query named ("my sister", "Ana's husband") and the entity of the
   * owner's knowledge graph it was followed to, on a hit found by that entity's name,
   * matched in the relation's place.
   */
  hop?: Hop | null;
  /**
   * The id of the hit ranked above it that was said in the same message (the same
   * `source_ref`, at the same moment): this one gave way to other messages' hits, and
   * follows them.
   */
  gave_way_to?: string | null;
}

/**
 * The nine factors of a memory's importance, each from 0 to 1 — or, as `WEIGHTS`, the
 * share each has of the whole.
 */
export interface Factors {
  /**
   * The importance the memory was written with: its type's base, emphasis, feelings,
   * names and deadlines, less for hedging, moved by surprise (how unlike its neighbours
   * it was).
   */
  base: number;
  /**
   * How often it was used (returned by a search, read, reinforced), on a log scale:
   * ln(1 + uses) / ln(21), full at 20 uses.
   */
  frequency: number;
  /**
   * How lately it was used (or made): halves every 30 days for a user's own words, faster
   * for less trusted sources (30 / (1 + 2·(1 − trust)) days).
   */
  recency: number;
  /** How strongly it feels, either way: |sentiment|. */
  valence: number;
  /**
   * Steady use rather than a burst: (1 − e^(−span/7 days)) × min(1, uses / 3), the span
   * running from when it was made to its last use.
   */
  stability: number;
  /**
   * Its layer: working 0, episodic 1/3, procedural 2/3, semantic 1 (engram's boosts 0,
   * 0.1, 0.2, 0.3, scaled to 1).
   */
  layer: number;
  /** The trust of its source (user 1, agent 0.7, conversation 0.6, import 0.5). */
  trust: number;
  /**
   * Independent confirmations (the same thing said in another session or by another
   * source): ln(1 + confirmations) / ln(5), full at 4.
   */
  confirmations: number;
  /**
   * ACT-R base-level activation B = ln(Σ tⱼ^−0.5) over its making and its uses (t in
   * days, the uses between the first and the last spread evenly), as 1 / (1 + e^−B): one
   * mention a day ago is 0.5, a month ago 0.15.
   */
  activation: number;
}

/** The span of time a query named, and whether a hit was said inside it or tells of it. */
export interface PeriodMatch {
  /**
   * Its start (milliseconds since the Unix epoch, inclusive); absent when it has none
   * ("before 2020").
   */
  after?: number | null;
  /** Its end (exclusive); absent when it has none ("after March"). */
  before?: number | null;
  /** The memory was said inside it. */
  inside: boolean;
  /**
   * Said outside it, the memory names a time inside it ("last month", said in April of
   * March; "next Friday", said before it), or is due inside it (`expires_at`): it tells of
   * the span and ranks with what was said there.
   */
  tells?: boolean;
}

/** Which end of a run of events a question asks for. */
export type Order = 'earliest' | 'latest';

/**
 * A relation the query named, and who the owner's knowledge graph says it is: the hit was
 * found through that entity ("my sister" → Ana, "my sister's husband" → Rui, "my company" →
 * Acme).
 */
export interface Hop {
  /** The query's words naming the relation ("my sister", "Ana's husband", "my company"). */
  phrase: string;
  /** The entity of the owner's knowledge graph they name ("Ana"). */
  entity: string;
}

/** Where a passage found by search lies: its document and section. */
export interface PassageOf {
  /** The document's id (`document` shows it whole). */
  document_id: string;
  /** The document's title. */
  title: string;
  /** The markdown headings above the passage, outermost first. */
  section: string[];
  /** The passage's place in the document, from 0. */
  position: number;
  /** How many passages the document has. */
  passages: number;
  /** Where the passage begins in the document's text, in characters. */
  start: number;
  /** Where it ends (exclusive), in characters. */
  end: number;
  /** One or two sentences that stand for it. */
  summary: string;
}

/** A page of memories from `list`. */
export interface Page {
  /** How many memories match the filters in all (not just this page). */
  total: number;
  /** The memories of this page, in the order asked. */
  memories: Memory[];
}

/** What `forget_all` did. */
export interface ForgetAllReport {
  /** The owner whose memories were forgotten. */
  entity_id: string;
  /** Memories forgotten (soft-deleted; purged after the retention period). */
  forgotten: number;
}

/** Where a memory lives, as answered by `locate`. */
export interface Location {
  /** The memory's id, as asked. */
  id: string;
  /** The owner the memory belongs to. */
  entity_id: string;
  /** Whether the memory is a schedule (its id also addresses the schedule calls). */
  schedule: boolean;
}

/** Counts of every owner's memories, as answered by `store_stats`. */
export interface StoreStats {
  /** Owners with memories not deleted, by id. */
  owners: OwnerCount[];
  /** Memories not deleted. */
  total: number;
  /** Memories not deleted, by memory type. */
  by_type: Record<string, number>;
  /** Includes DELETED (soft-deleted, not yet purged). */
  by_state: Record<string, number>;
  /** Memories not deleted, by validity status. */
  by_status: Record<string, number>;
  /** Memories not deleted, by storage tier. */
  by_tier: Record<string, number>;
  /** The name of the store's embedding model. */
  embedding_model: string;
  /** The length of its vectors. */
  embedding_dim: number;
  /** Vectors of memories not deleted, by how they are stored (f32, int8, int4, int2). */
  by_precision: Record<string, number>;
  /** Bytes those vectors take in the store. */
  vector_bytes: number;
}

/** One owner in the store's counts. */
export interface OwnerCount {
  /** The owner. */
  entity_id: string;
  /** Memories not deleted. */
  total: number;
}

/** One entry of a memory's status audit trail. */
export interface StatusChange {
  /** The status before the change. */
  old: Status;
  /** The status after the change. */
  new: Status;
  /** Why it changed. */
  reason: string;
  /** When it changed, in milliseconds since the Unix epoch. */
  changed_at: number;
  /** For a move between layers (`set_layer`; the status stays): the layers before and after. */
  layer?: LayerChange | null;
}

/** A memory's move between layers, by hand. */
export interface LayerChange {
  /** The layer before. */
  old: Layer;
  /** The layer after. */
  new: Layer;
}

/** A memory linked to another, and what links them. */
export interface RelatedMemory {
  /** The linked memory. */
  memory: Memory;
  /**
   * The stronger of the two links, 0–1: co-recall (+0.1 per co-recall, ×0.95 per day) and
   * shared content (0.3 per shared tag, half for a tag only the extractor gave, + 0.4 per
   * shared entity + 0.3·cosine, at most 1, as consolidation last weighed it).
   */
  strength: number;
  /** Times searches returned the two together (0 when no co-recall link is formed). */
  co_recalls: number;
  /**
   * When searches last returned them together, in milliseconds since the Unix epoch (none
   * without a co-recall link).
   */
  last_recalled_at: number | null;
  /** Tags both carry (their sources aside), now. */
  shared_tags: string[];
  /** Entities of the graph both name, now. */
  shared_entities: string[];
}

/** Counts of one owner's memories. */
export interface Stats {
  /** The owner counted. */
  entity_id: string;
  /** Memories not deleted. */
  total: number;
  /** Memories not deleted, by memory type. */
  by_type: Record<string, number>;
  /** Includes DELETED (soft-deleted, not yet purged). */
  by_state: Record<string, number>;
  /** Memories not deleted, by validity status. */
  by_status: Record<string, number>;
  /** Memories not deleted, by storage tier. */
  by_tier: Record<string, number>;
  /** The name of the store's embedding model. */
  embedding_model: string;
  /** The length of its vectors. */
  embedding_dim: number;
  /** Vectors of memories not deleted, by how they are stored (f32, int8, int4, int2). */
  by_precision: Record<string, number>;
  /** Bytes those vectors take in the store. */
  vector_bytes: number;
}

/** What one maintenance pass did. */
export interface MaintainReport {
  /** Rows whose due time had come and were looked at. */
  examined: number;
  /** Memories that turned STALE. */
  to_stale: number;
  /** Memories that were ARCHIVED. */
  to_archived: number;
  /** Memories that were DELETED (expired or faded out). */
  to_deleted: number;
  /** Memories promoted to a higher layer. */
  promoted: number;
  /** Deleted memories removed for good after the retention period. */
  purged: number;
  /**
   * What consolidation did, when the pass ran it (`consolidate`, or `maintain` once its
   * cadence came round).
   */
  consolidation: Consolidation | null;
}

/** What one consolidation did, step by step. */
export interface Consolidation {
  /** Stale relationships and withdrawn evidence removed from the graph. */
  edges: EdgesReport;
  /** Memories challenged because newer ones of their scope say otherwise. */
  probing: ProbeReport;
  /**
   * Memories invalidated because a path they cite is gone from the host's workspace, and
   * restored when it is back.
   */
  drift: DriftReport;
  /** Automatic tags refreshed. */
  tags: TagsReport;
  /** Clusters of near-duplicate memories merged. */
  clusters: ClusterReport;
  /** Memories archived to keep owners within `max_memories`. */
  pruning: PruneReport;
  /** Memories linked by the entities and tags they share. */
  relationships: RelateReport;
  /**
   * Entity pairs named together in different contexts proposed as bridges, and those the
   * host's LLM confirmed or rejected.
   */
  synthesis: SynthesisReport;
  /** Co-recall links decayed (×0.95 per day) and removed (below 0.1). */
  links: LinksReport;
  /** Memories moved between hot, warm and archive tiers. */
  tiers: TiersReport;
  /** Vectors stored with fewer bits as their memories faded. */
  quantisation: QuantiseReport;
  /** Documents' and passages' summaries rewritten by the host's LLM. */
  summaries: SummariesReport;
  /** Peer cards' summaries written by the host's LLM. */
  cards: CardsReport;
  /** Heartbeat acts and recorded messages older than `heartbeat.keep_days` dropped. */
  events: EventsReport;
  /** A step stopped at its bound: run again to finish. */
  more: boolean;
}

/** What stale-edge cleanup did. */
export interface EdgesReport {
  /** Evidence rows of superseded and forgotten memories withdrawn. */
  evidence_withdrawn: number;
  /** Relationships removed: left without evidence, or stale and weak. */
  relationships_removed: number;
  /** The step stopped at its bound. */
  more: boolean;
}

/** What belief probing did. */
export interface ProbeReport {
  /** Memories challenged: newer memories of their scope say otherwise. */
  challenged: number;
  /** The step stopped at its bound. */
  more: boolean;
}

/** What drift detection did. */
export interface DriftReport {
  /**
   * Whether the host names a workspace (else the step checked nothing, and lists the
   * paths waiting in `wanted`).
   */
  workspace: boolean;
  /** Memories citing paths whose state was known. */
  checked: number;
  /** Memories invalidated: a path they cite is gone, or a line past its file's end. */
  invalidated: number;
  /** Memories drift had invalidated whose paths are all back, restored. */
  restored: number;
  /**
   * Paths the host could not tell about (outside the workspace, unreadable): their
   * memories are left as they are.
   */
  unknown: number;
  /** The step stopped at its bound: run again to finish. */
  more: boolean;
  /**
   * With no workspace: each owner's paths the memories examined cite, for a host to check
   * and report with `drift`.
   */
  wanted?: DriftWanted[];
}

/** Paths an owner's memories cite, waiting for a host to check them. */
export interface DriftWanted {
  /** The owner. */
  entity_id: string;
  /** The paths, as the memories cite them. */
  paths: string[];
}

/** What auto-tag refresh did. */
export interface TagsReport {
  /** Memories given automatic tags. */
  tagged: number;
  /** The step stopped at its bound. */
  more: boolean;
}

/** What cluster-and-merge did. */
export interface ClusterReport {
  /** Memories looked at. */
  examined: number;
  /** Clusters merged, and the memories they held. */
  clusters: number;
  /** Memories those clusters held. */
  merged: number;
  /** Merged memories whose text the host's LLM summarised (when the host has one) … */
  summarised: number;
  /**
   * … and clusters it could not summarise (they keep every member's sentences), with the
   * last reason.
   */
  unsummarised: number;
  /** Why the last summary failed (none when all succeeded). */
  summary_failure: string | null;
  /** Each cluster merged, in the order merged. */
  merges: ClusterMerge[];
  /** The step stopped at its bound (the next run goes on from there). */
  more: boolean;
}

/** One cluster merged. */
export interface ClusterMerge {
  /** The owner of the cluster. */
  entity_id: string;
  /** The new memory the members were merged into. */
  id: string;
  /** What the members said, the most important first (what a summary is made of). */
  texts: string[];
  /** The host's LLM summarised them (else the new memory holds their sentences merged). */
  summarised: boolean;
}

/** What pruning did. */
export interface PruneReport {
  /** Owners holding more live memories than `max_memories`. */
  owners_over: number;
  /** Memories moved to ARCHIVED. */
  archived: number;
  /** The step stopped at its bound. */
  more: boolean;
}

/** What relationship discovery did. */
export interface RelateReport {
  /** Memories looked at. */
  examined: number;
  /** Links made, changed in weight, and removed. */
  linked: number;
  /** Links whose weight changed. */
  reweighed: number;
  /** Links removed. */
  unlinked: number;
  /** The step stopped at its bound (the next run goes on from there). */
  more: boolean;
}

/** What synthesis did. */
export interface SynthesisReport {
  /** Bridges proposed: entity pairs named together in different contexts. */
  proposed: number;
  /** Bridges the host's LLM confirmed. */
  confirmed: number;
  /** Bridges the host's LLM rejected. */
  rejected: number;
  /** Why an answer of the LLM was not used, if one was not (the bridge stays proposed). */
  failure?: string | null;
  /** The step stopped at a bound with memories or bridges left. */
  more: boolean;
  /**
   * With no LLM the engine can ask itself (a browser's answers later): the bridges waiting
   * for a decision, as many as a run would ask, for the host to decide (`decide_bridge`).
   */
  wanted?: BridgeWanted[];
}

/** A bridge waiting for the host's LLM to decide it. */
export interface BridgeWanted {
  /** The bridge's owner. */
  entity_id: string;
  /** The bridge's id (what `decide_bridge` takes). */
  id: string;
  /** One entity's name. */
  a: string;
  /** The other's. */
  b: string;
  /** The memories that name both: the evidence to decide on. */
  texts: string[];
}

/** What consolidation did to the co-recall links. */
export interface LinksReport {
  /** Links whose strength decayed. */
  decayed: number;
  /** Links removed, weaker than 0.1 once decayed. */
  removed: number;
  /** The step stopped at its bound. */
  more: boolean;
}

/** What tiering did. */
export interface TiersReport {
  /** Memories looked at. */
  examined: number;
  /** Memories moved to each tier. */
  to_hot: number;
  /** Memories moved to the warm tier. */
  to_warm: number;
  /** Memories moved to the archive tier. */
  to_archive: number;
  /** The step stopped at its bound (the next run goes on from there). */
  more: boolean;
}

/** What re-quantisation did. */
export interface QuantiseReport {
  /** Vectors looked at (their memories' retention may have crossed into a coarser band). */
  examined: number;
  /** Vectors now stored at each precision that were stored finer. */
  to_int8: number;
  /** Vectors now stored at 4 bits per element. */
  to_int4: number;
  /** Vectors now stored at 2 bits per element. */
  to_int2: number;
  /** Bytes the vectors stored coarser no longer take. */
  bytes_saved: number;
  /** The step stopped at its bound (more are due: the next run goes on). */
  more: boolean;
}

/** What the step did. */
export interface SummariesReport {
  /** Passages whose summary the host's LLM rewrote. */
  passages: number;
  /** Documents whose summary the host's LLM rewrote. */
  documents: number;
  /**
   * Why an answer of the LLM was not used (the engine's summary stays; the next run asks
   * again), if one was not.
   */
  failure: string | null;
  /** The step stopped at its bound of calls with summaries left to rewrite. */
  more: boolean;
  /**
   * With no LLM the engine can ask itself (a browser's answers later): the summaries
   * waiting for one, as many as a run would ask, for the host to write (`write_summary`).
   */
  wanted?: SummaryWanted[];
}

/** A summary waiting for the host's LLM: what to summarise, and where it goes. */
export interface SummaryWanted {
  /** The document's owner. */
  entity_id: string;
  /** The document's id. */
  document_id: string;
  /** The passage's place in the document, from 0; none for the document's own summary. */
  position: number | null;
  /** The document's title. */
  title: string;
  /** The markdown headings above the passage, outermost first (none for the document). */
  section: string[];
  /** What to summarise: the passage's text, or the document's passages' summaries in order. */
  texts: string[];
}

/** What the step did. */
export interface CardsReport {
  /** Cards whose summary the host's LLM wrote. */
  written: number;
  /** Why an answer of the LLM was not used, if one was not (the engine's summary stays). */
  failure?: string | null;
  /** The step stopped at a bound with entities left. */
  more: boolean;
  /**
   * With no LLM the engine can ask itself (a browser's answers later): the cards waiting
   * for one, as many as a run would ask, for the host to write (`write_card_summary`).
   */
  wanted?: CardWanted[];
}

/** A card waiting for the host's LLM to write its summary. */
export interface CardWanted {
  /** The card's owner. */
  entity_id: string;
  /** The entity's name (what `card` and `write_card_summary` take). */
  name: string;
  /** The card laid out, a line each: the name and type, other names, relationships, facts. */
  texts: string[];
}

/** What pruning old events did. */
export interface EventsReport {
  /** Heartbeat acts dropped (older than `heartbeat.keep_days`). */
  acts: number;
  /** Recorded messages dropped (older than `heartbeat.keep_days`). */
  messages: number;
  /** The step stopped at its bound with old events left. */
  more: boolean;
}

/** What an import did. */
export interface ImportReport {
  /** Full records restored as they were. */
  restored: number;
  /** Full records whose id was already in this store (left untouched). */
  already_present: number;
  /**
   * Outcomes of the plain records (`entity_id` + `content` + optional fields), which go
   * through the write path with dedup.
   */
  written: WriteReport;
}

/** What `ingest` did. */
export interface IngestReport {
  /**
   * `created` (a new document), `unchanged` (the same text was already stored: nothing
   * written) or `replaced` (new text under an existing `source_ref`).
   */
  action: IngestAction;
  /** The document now stored. */
  document: Document;
  /** For `replaced`: the id of the version it superseded. */
  replaced: string | null;
}

/** What an ingest did. */
export type IngestAction = 'created' | 'unchanged' | 'replaced';

/** A stored document (its text is in its passages). */
export interface Document {
  /** The document's id, unique in the store. */
  id: string;
  /** The owner it belongs to. */
  entity_id: string;
  /** The agent that stored it, if one was named. */
  agent_id: string | null;
  /** The team it is shared with, if any. */
  team_id: string | null;
  /** Who besides the owner's agent may see it. */
  visibility: Visibility;
  /** Its title. */
  title: string;
  /** How its text was written (an HTML page's text is kept as read, in markdown). */
  format: DocumentFormat;
  /** Two or three sentences that stand for the whole. */
  summary: string;
  /** Who wrote the summary: the engine from the text's sentences, or the host's LLM. */
  summary_by: SummaryBy;
  /** Where it came from. */
  source: DocumentSource;
  /** The file's name, if given. */
  filename: string | null;
  /** The file's media type, if given. */
  mime: string | null;
  /** Its identity at its source, if given. */
  source_ref: string | null;
  /** SHA-256 (hex) of its normalised text. */
  content_hash: string;
  /** Its length, in characters. */
  chars: number;
  /** How many passages it was cut into. */
  passages: number;
  /** Tags added by the caller; the system never removes them. */
  manual_tags: string[];
  /**
   * Tags added by the system (at most six): source, file extension, words of the file
   * name or title, frequent words of the text.
   */
  auto_tags: string[];
  /** Whether it is the current version (`active`) or was replaced (`superseded`). */
  status: DocumentStatus;
  /** For a superseded version: the document that replaced it. */
  superseded_by: string | null;
  /** When it was ingested, in milliseconds since the Unix epoch. */
  created_at: number;
  /** When it was last changed (superseded, forgotten), in milliseconds since the Unix epoch. */
  updated_at: number;
  /** When it was forgotten, in milliseconds since the Unix epoch (none unless forgotten). */
  deleted_at: number | null;
}

/** Who wrote a summary. */
export type SummaryBy = 'sentences' | 'llm';

/** A document version's status. */
export type DocumentStatus = 'active' | 'superseded';

/** What `ingest_code` did. */
export interface CodeIngestReport {
  /** Files given. */
  files: number;
  /** Files new to the store. */
  created: number;
  /** Files whose memory said the same already. */
  unchanged: number;
  /** Files that changed: their memory superseded by a new one. */
  replaced: number;
  /** Files that were gone and are back. */
  restored: number;
  /** With `complete`: files of earlier runs no longer listed, invalidated. */
  gone: number;
  /** Symbols stored. */
  symbols: number;
}

/** A document with its passages, in order. */
export interface DocumentDetail {
  /** The document. */
  document: Document;
  /** Its passages, first to last. */
  passages: Passage[];
}

/** One passage of a document. */
export interface Passage {
  /** The id of the memory holding it (`get`, `forget`, `reinforce` take it). */
  memory_id: string;
  /** Its place in the document, from 0. */
  position: number;
  /** The markdown headings above it, outermost first. */
  section: string[];
  /** Where it begins in the document's text, in characters (Unicode scalar values). */
  start: number;
  /** Where it ends (exclusive), in characters. */
  end: number;
  /** One or two sentences that stand for it. */
  summary: string;
  /** Who wrote the summary: the engine from the passage's sentences, or the host's LLM. */
  summary_by: SummaryBy;
  /** Its text. */
  content: string;
}

/** Two entities memories name together in different contexts. */
export interface Bridge {
  /** The bridge's id. */
  id: string;
  /** One entity's name. */
  a: string;
  /** The other's. */
  b: string;
  /** Proposed, or confirmed or rejected by the host's LLM. */
  status: BridgeStatus;
  /** How the LLM says `a` relates to `b`, when it confirmed the bridge. */
  relation?: string | null;
  /** Why the LLM decided as it did, citing the memories. */
  reason?: string | null;
  /** Distinct contexts among the evidence: sessions, documents, or memories said outside any. */
  contexts: number;
  /** Memories that name both, at most 5. */
  evidence: BridgeEvidence[];
  /** When consolidation proposed it, in milliseconds since the Unix epoch. */
  proposed_at: number;
  /** When the LLM decided, in milliseconds since the Unix epoch. */
  decided_at?: number | null;
}

/** A memory that names both ends of a bridge. */
export interface BridgeEvidence {
  /** The memory's id. */
  id: string;
  /** What it says. */
  content: string;
}

/** A peer card: what an agent should know of an entity at a glance. */
export interface Card {
  /** The entity's name. */
  name: string;
  /** What sort of entity it is. */
  type: EntityType;
  /** Other names it goes by. */
  aliases: string[];
  /** Live memories that name it or state a relationship of it. */
  memories: number;
  /** The most important of those now (all nine factors of importance), at most 5. */
  facts: CardFact[];
  /** Its strongest relationships either way, at most 5. */
  relationships: Relationship[];
  /** When the first of those memories was written, in milliseconds since the Unix epoch. */
  first_seen: number;
  /** When the last of them was written, in milliseconds since the Unix epoch. */
  last_seen: number;
  /** A paragraph saying who or what it is: its names, relationships and most important facts. */
  summary: string;
  /**
   * Who wrote the summary: `engine` (from the card) or `llm` (the host's, during
   * consolidation, from the same facts; shown in the owner's view while the facts are
   * still those).
   */
  summary_by: CardSummaryBy;
}

/** One fact on a card. */
export interface CardFact {
  /** The memory's id. */
  id: string;
  /** What it says. */
  content: string;
  /** Its type. */
  type: MemoryType;
  /** Its importance now, 0 to 1 (all nine factors). */
  importance: number;
}

/** A relationship `from relation to` with its evidence and strength. */
export interface Relationship {
  /** The entity the relationship goes from. */
  from: string;
  /** The relation. */
  relation: Relation;
  /** The entity it goes to. */
  to: string;
  /** Memories that stated it. */
  evidence: number;
  /** Mean confidence of those statements. */
  confidence: number;
  /** 0.4·(1 − 1/(1+evidence)) + 0.3·recency + 0.3·confidence, as of now. */
  strength: number;
  /** The reverse of a stated bidirectional relationship, not stated itself. */
  inferred: boolean;
  /** When it was first stated, in milliseconds since the Unix epoch. */
  first_seen: number;
  /** When it was last stated, in milliseconds since the Unix epoch. */
  last_seen: number;
}

/** Who wrote a card's summary. */
export type CardSummaryBy = 'engine' | 'llm';

/** The store's embedding model, as answered by `embedding_model`. */
export interface ModelInfo {
  /** The name of the store's embedding model. */
  model: string;
  /** The length of its vectors. */
  dimension: number;
}

/** What `Engine::embed` answers: one vector per text, in order. */
export interface Embeddings {
  /** The store's embedder. */
  model: string;
  /** The length of its vectors. */
  dimension: number;
  /**
   * Unit-length vectors, as the store keeps and compares them (all zeros for a text none
   * of whose words the model knows, such as a script outside its vocabulary).
   */
  vectors: number[][];
}

/** What `Engine::reembed` did. */
export interface ReembedReport {
  /** The store's embedder now. */
  model: string;
  /** The length of its vectors. */
  dimension: number;
  /** The embedder before. */
  previous_model: string;
  /** The length of its vectors. */
  previous_dimension: number;
  /** Memories embedded again (every owner's, every state). */
  memories: number;
}

/** An entity of an owner's graph. */
export interface Entity {
  /** The entity's name, as first stated. */
  name: string;
  /** What sort of entity it is. */
  type: EntityType;
  /** Other names it goes by ("Ana" for "Ana Souza"). */
  aliases: string[];
  /** Memories that named it. */
  mentions: number;
  /** When a memory first named it, in milliseconds since the Unix epoch. */
  first_seen: number;
  /** When a memory last named it, in milliseconds since the Unix epoch. */
  last_seen: number;
}

/** What a traversal reached: nodes in the order found, and the edges followed. */
export interface Traversal {
  /** The entities reached, the start first, in the order reached. */
  nodes: Node[];
  /** The relationships walked. */
  edges: Relationship[];
}

/** One entity reached by a traversal. */
export interface Node {
  /** The entity's name. */
  name: string;
  /** What sort of entity it is. */
  type: EntityType;
  /** Hops from the start. */
  depth: number;
}

/**
 * A path: its relationships in order from `from` to `to` (each as stored, so an edge may
 * point back along the path); empty and `found: false` when none is within reach.
 */
export interface GraphPath {
  /** Whether a path was found within `max_depth` hops. */
  found: boolean;
  /** The relationships of the path, from `from` to `to` (empty when none was found). */
  hops: Relationship[];
}

/** A conflict between a new statement and an existing memory. */
export interface Conflict {
  /** The conflict's id. */
  id: string;
  /** What kind of contradiction it is. */
  kind: ConflictKind;
  /** The mode applied when it was found. */
  mode: ConflictMode;
  /** Whether it is open or resolved. */
  status: ConflictStatus;
  /** The memory stored for the new statement (none when it was not stored). */
  memory: string | null;
  /** What the new statement said. */
  content: string;
  /** The memory it contradicted. */
  existing: string;
  /** What the contradicted memory said. */
  existing_content: string;
  /** How it was resolved (none while open). */
  resolution: Resolution | null;
  /** Why it was resolved so (none while open). */
  reason: string | null;
  /** When it was found, in milliseconds since the Unix epoch. */
  created_at: number;
  /** When it was resolved, in milliseconds since the Unix epoch (none while open). */
  resolved_at: number | null;
}

/** A schedule. */
export interface Schedule {
  /** The id of its PLAN memory, which also addresses the schedule. */
  id: string;
  /** What the schedule is for. */
  content: string;
  /** When it falls due (`cron:daily:09:00`, `cron:every:2h`, …). */
  cron_tag: string;
  /** Whether it is active, done or cancelled. */
  status: ScheduleStatus;
  /** When it next falls due, in milliseconds since the Unix epoch (none once done or cancelled). */
  next_due_at: number | null;
  /** Due times that passed without an acknowledgement. */
  missed: number;
  /** When it was last acknowledged, in milliseconds since the Unix epoch (none until then). */
  acknowledged_at: number | null;
  /** When it was created, in milliseconds since the Unix epoch. */
  created_at: number;
}

/** Whether a schedule still falls due. */
export type ScheduleStatus = 'active' | 'done' | 'cancelled';

/** What `heartbeat_check` answers. */
export interface HeartbeatReport {
  /** The owner checked. */
  entity_id: string;
  /** When the check ran, in milliseconds since the Unix epoch. */
  checked_at: number;
  /** Whether the agent should speak up now. */
  should_act: boolean;
  /** Why it should or should not. */
  decision_reason: DecisionReason;
  /** Urgency of what is surfaced (none when nothing is). */
  urgency_tier: Urgency | null;
  /** The autonomy the decision followed. */
  autonomy: Autonomy;
  /** First 16 hex of SHA-256 over the surfaced signals' keys (empty when none). */
  fingerprint: string;
  /** Sum of the surfaced signals' weights (10/5/3/1). */
  confluence_score: number;
  /** The cooldown in force, in ms, after the time-of-day and response-rate factors. */
  cooldown_ms: number;
  /** The owner's time of day, local time. */
  time_period: TimePeriod;
  /** Whether the owner is in a conversation now. */
  in_conversation: boolean;
  /** Share of the last week's acts the owner answered within 2 h (1 with fewer than 3). */
  response_rate: number;
  /** Memories written since the last act. */
  memory_velocity: number;
  /** When to check again, in ms from now. */
  next_tick_ms: number;
  /** The recorded act (when the agent should act and this was not a dry run). */
  act_id: string | null;
  /** The memory a nudge is about. */
  nudge: Memory | null;
  /** Every signal found, most urgent first. */
  signals: Signal[];
  /** Schedules due now. */
  scheduled: Schedule[];
  /**
   * Memories whose deadline (`expires_at`) falls within the deadline window, or has just
   * passed.
   */
  deadlines: Memory[];
  /** Open conflicts. */
  conflicts: Conflict[];
  /** The latest session and whether it was left open (none without one). */
  continuity: Continuity | null;
  /** Monitors not touched within the monitor cadence. */
  stale_monitors: Memory[];
  /** Open plans and activities important enough to mention. */
  pending_work: Memory[];
  /** Progress of the owner's plans. */
  goal_progress: GoalProgress[];
  /** Questions asked and not answered yet. */
  knowledge_gaps: KnowledgeGap[];
  /** Good news: plans done, sentiment up, relationships renewed. */
  positive_deltas: PositiveDelta[];
  /** Important memories about to turn STALE for lack of use. */
  decaying: Memory[];
  /** How the owner's mood moves (none with too few memories). */
  sentiment_trend: SentimentTrend | null;
  /** People and organisations not mentioned for a while. */
  relationship_alerts: RelationshipAlert[];
  /** Topics that come up on the same weekday. */
  behavioral_patterns: Pattern[];
  /** The surfaced signals as plain text for an agent's prompt. */
  summary: string;
}

/** Which step of should_act decided, and how. */
export type DecisionReason = 'first_contact' | 'act_deadline_critical' | 'suppress_time_period' | 'suppress_conversation_low' | 'no_signals' | 'act_immediate' | 'suppress_stale' | 'suppress_confluence' | 'act_confluence' | 'suppress_cooldown' | 'suppress_topic_repeat' | 'act' | 'nudge' | 'suppress_nudge_cap' | 'suppress_nudge_backoff';

/** How urgent a signal is, least to most. */
export type Urgency = 'low' | 'normal' | 'elevated' | 'immediate';

/** Part of the owner's day. */
export type TimePeriod = 'morning' | 'working' | 'evening' | 'late_night' | 'quiet';

/** One signal the scan found. */
export interface Signal {
  /** What the signal is about. */
  kind: SignalKind;
  /** Its tier after freshness and `critical`/`urgent`/`low-priority`/`backlog` tags. */
  tier: Urgency;
  /** Whether the decision surfaced it (it passed the time-of-day and conversation steps). */
  surfaced: boolean;
  /** Ids of the memories it is about. */
  memories: string[];
  /** One line saying what it found. */
  summary: string;
}

/** The 14 signals of the scan. */
export type SignalKind = 'scheduled' | 'deadlines' | 'conflicts' | 'continuity' | 'stale_monitors' | 'memory_velocity' | 'pending_work' | 'goal_progress' | 'knowledge_gaps' | 'positive_deltas' | 'decaying' | 'sentiment' | 'relationships' | 'patterns';

/** An interrupted session the agent could offer to resume. */
export interface Continuity {
  /** The session's newest CONTEXT/ACTIVITY memories, newest first (at most 5). */
  last_memories: Memory[];
  /** Hours since the session's newest memory. */
  session_age_hours: number;
  /** The session left an activity or plan open. */
  was_interrupted: boolean;
  /** One line suggesting how to pick the session up again. */
  resume_suggestion: string;
}

/** How one goal is going. */
export interface GoalProgress {
  /** The PLAN memory the goal is. */
  plan: Memory;
  /** ACTIVITY memories that work towards it (stored vectors, or shared entities). */
  activities: string[];
  /** min(1, activities / 10). */
  progress: number;
  /** Days to its deadline (negative when past), if it has one. */
  days_left: number | null;
  /** Whether it is on track, at risk, overdue or done. */
  status: GoalStatus;
}

/** How a goal (a PLAN) is going, worst first. */
export type GoalStatus = 'no_activity' | 'stalled' | 'at_risk' | 'on_track';

/** A question stored in memory that nothing answers yet. */
export interface KnowledgeGap {
  /** The id of the memory holding the open question. */
  memory_id: string;
  /** The question still open. */
  question: string;
  /** When it was asked, in milliseconds since the Unix epoch. */
  asked_at: number;
}

/** Something that got better since the agent last spoke up. */
export interface PositiveDelta {
  /** What sort of good news it is. */
  kind: DeltaKind;
  /** One line saying what went well. */
  description: string;
  /** The plan's memory id, the entity's name, or "sentiment". */
  subject: string;
}

/** What got better since the last act. */
export type DeltaKind = 'goal_improved' | 'entity_reengaged' | 'sentiment_improved';

/** The owner's recent sentiment against the one before. */
export interface SentimentTrend {
  /** Mean sentiment of the recent memories, -1 to 1. */
  recent_avg: number;
  /** Mean sentiment of the memories before them, -1 to 1. */
  previous_avg: number;
  /** Whether sentiment is rising, falling or stable. */
  direction: Trend;
  /** |recent − previous|. */
  delta: number;
  /** Memories felt strongly (|sentiment| > 0.7). */
  notable: Memory[];
}

/** Direction of the owner's recent sentiment. */
export type Trend = 'declining' | 'stable' | 'improving';

/** Someone gone silent while plans involve them. */
export interface RelationshipAlert {
  /** The entity's name. */
  entity: string;
  /** What sort of entity it is. */
  entity_type: EntityType;
  /** Days since a memory last named it. */
  days_silent: number;
  /** Live PLAN memories naming the entity. */
  related_plans: string[];
  /** How pressing the silence is. */
  urgency: AlertLevel;
}

/** How pressing a silent entity is: urgent when a plan naming it is due within 14 days. */
export type AlertLevel = 'attention' | 'urgent';

/** Something the owner does on this weekday. */
export interface Pattern {
  /** One line saying what recurs. */
  description: string;
  /** A memory type (lower case) or a tag. */
  topic: string;
  /** The weekday it comes up on (Monday … Sunday). */
  day_of_week: string;
  /** Distinct same-weekday dates of the last 90 days it came up on. */
  days: number;
  /** min(1, days / 10). */
  confidence: number;
}

/** What `heartbeat_context` answers: the check, and what an agent needs to word it. */
export interface HeartbeatContext {
  /** The heartbeat's report, as `heartbeat_check` gives it. */
  report: HeartbeatReport;
  /** The agent's last recorded messages, newest first, so it does not repeat itself. */
  recent_messages: Message[];
  /** Memories matching `query` (empty without one). */
  relevant_memories: SearchHit[];
  /**
   * Peer cards of the entities the signals' memories name (surfaced signals first; at most
   * 3, of entities with enough memories for one), so the agent knows who or what they are.
   */
  cards: Card[];
}

/** A recorded message. */
export interface Message {
  /** The message's id. */
  id: string;
  /** Who said it: `user` or `agent`. */
  role: MessageRole;
  /** What was said. */
  content: string;
  /** The agent whose conversation it is part of (none: the owner's own). */
  agent_id: string | null;
  /** The conversation session, if one was named. */
  session_id: string | null;
  /** The act an agent message delivered, if any. */
  act_id: string | null;
  /** When it was recorded, in milliseconds since the Unix epoch. */
  at: number;
}

/** A team of agents. */
export interface Team {
  /** The team's id, as `team_create` answered. */
  id: string;
  /** Its name. */
  name: string;
  /** What it is for. */
  description: string;
  /** The visibility of memories written for the team without one. */
  default_visibility: Visibility;
  /** When it was made, in milliseconds since the Unix epoch. */
  created_at: number;
  /** When it last changed, in milliseconds since the Unix epoch. */
  updated_at: number;
}

/** What `team_delete` did. */
export interface TeamDeleted {
  /** `deleted`. */
  status: string;
  /** The team deleted. */
  team_id: string;
  /** Memberships removed with it (its memories stay with their writers). */
  members_removed: number;
}

/** A member of a team. */
export interface TeamMember {
  /** The team. */
  team_id: string;
  /** The agent. */
  agent_id: string;
  /** What it is in the team. */
  role: TeamRole;
  /** When it joined, in milliseconds since the Unix epoch. */
  joined_at: number;
}

/** Names of earlier releases. */
export type SearchArgs = SearchRequest;
export type ListArgs = ListRequest;
export type HeartbeatArgs = HeartbeatRequest;
export type EntitiesArgs = EntitiesRequest;
export type RelationshipsArgs = RelationshipsRequest;
export type TraverseArgs = TraverseRequest;

/**
 * A Mnemo store: in a page a SQLite file in OPFS (or IndexedDB) owned by a dedicated worker,
 * under Node or at the edge one in memory; every engine call is an async method of it.
 */
export declare class Mnemo {
  /** Opens (creating if needed) a store. */
  static open(options?: OpenOptions): Promise<Mnemo>;
  /**
   * Opens a store from a SQLite image (`exportBytes`, or a native `mnemo.db`): in memory, or
   * with `storage: 'opfs' | 'idb'` a new persistent store `name` made from it.
   */
  static fromBytes(bytes: Uint8Array, options?: OpenOptions): Promise<Mnemo>;
  /** Any engine call by its snake_case name. */
  call(method: string, args?: object): Promise<unknown>;
  /** The whole store as a SQLite image. */
  exportBytes(): Promise<Uint8Array>;
  /**
   * `embed` with its vectors in one `Float32Array`: text `i`'s vector is
   * `vectors.subarray(i * dimension, (i + 1) * dimension)`. The same vectors, with no text made
   * of them: for a page that embeds many texts.
   */
  embedVectors(args: EmbedRequest): Promise<{ model: string; dimension: number; vectors: Float32Array }>;

  /**
   * Ingests a `File` or `Blob` of UTF-8 text (plain text, markdown or HTML, told by its type or
   * name; at most 40 MB): `args` are `ingest`'s other arguments, its name and type its
   * `filename` and `mime` unless given.
   */
  ingestFile(file: Blob, args: Omit<IngestRequest, 'content'>): Promise<IngestReport>;
  /** Where the store is kept: the storage asked for, or the one it fell back to. */
  readonly storage: 'memory' | 'opfs' | 'idb';
  /** Why the store is not kept where asked (OPFS unavailable); undefined when it is. */
  readonly fallback: StorageFallback | undefined;
  /** Moves the clock of a store opened with a fixed `now`. */
  setNow(ms: Millis): Promise<void>;
  /** Writes what is pending, closes the store and stops its worker. */
  close(): Promise<void>;

  /**
   * Remembers a piece of conversation: the extractor (or the host's own extraction, or an LLM's
   * answer) turns it into memories, which are stored with dedup and conflict checks.
   */
  remember(args: RememberArgs): Promise<WriteReport>;
  /** What the extractor finds in a text, without storing anything. */
  extract(args: ExtractArgs): Promise<Extracted[]>;
  /** Stores structured memories (at most 10,000, one transaction) with three-tier dedup. */
  seed(items: NewMemory[]): Promise<WriteReport>;
  /** Hybrid search of one owner's memories, ranked by a mode; every hit says why. */
  search(args: SearchRequest): Promise<SearchHit[]>;
  /** One memory by id (an access: an archived memory comes back). */
  get(args: MemoryRef): Promise<Memory>;
  /** A page of an owner's memories, filtered, newest first unless asked otherwise. */
  list(args: ListRequest): Promise<Page>;
  /** Changes a memory; new content is re-hashed, re-embedded and re-indexed. */
  update(args: UpdateArgs): Promise<Memory>;
  /** Forgets a memory (soft delete; purged after the retention period). */
  forget(args: MemoryRef): Promise<Memory>;
  /** Forgets every memory of an owner. */
  forgetAll(args: OwnerRef): Promise<ForgetAllReport>;
  /**
   * The owner of a memory found by its id alone (for hosts serving many owners behind one key);
   * not found when no owner has it.
   */
  locate(args: IdRef): Promise<Location>;
  /** Memories drawn at random (the host's randomness) from one owner or every owner; not an access. */
  sample(args: SampleRequest): Promise<Memory[]>;
  /** Counts of every owner's memories, and the owners. */
  storeStats(args?: NoArgs): Promise<StoreStats>;
  /** Reinforces a memory: feedback +3, and it counts as used. */
  reinforce(args: MemoryRef): Promise<Memory>;
  /** Demotes a memory: feedback −1. */
  demote(args: MemoryRef): Promise<Memory>;
  /** Pins a memory (exempt from decay) or unpins it. */
  pin(args: PinArgs): Promise<Memory>;
  /** Changes a memory's validity status, with the reason in its history. */
  setStatus(args: SetStatusArgs): Promise<Memory>;
  /**
   * Moves a memory to another layer by hand — up (to `semantic` or `procedural`, which do not
   * decay) or down — with the reason in its status history; automatic promotion leaves it there.
   */
  setLayer(args: SetLayerArgs): Promise<Memory>;
  /** A memory's status changes (and moves between layers), oldest first. */
  statusHistory(args: MemoryRef): Promise<StatusChange[]>;
  /**
   * Memories linked to this one — returned together by searches three times or more, or sharing
   * its entities and tags — strongest link first: a chain of thought to follow.
   */
  related(args: RelatedRequest): Promise<RelatedMemory[]>;
  /** Counts of an owner's memories by type, state, status and tier. */
  stats(args: OwnerRef): Promise<Stats>;
  /** The maintenance pass: decay, lifecycle and purges of the memories that are due. */
  maintain(args?: NoArgs): Promise<MaintainReport>;
  /**
   * The maintenance pass, then consolidation now: stale-edge cleanup, auto-tag refresh,
   * cluster-and-merge and size-bounded pruning, each bounded per run (run again while
   * `consolidation.more`). Store-wide work for the host, so not an MCP tool (an agent may act for
   * one owner only).
   */
  consolidate(args?: NoArgs): Promise<MaintainReport>;
  /** All of one owner's memories as JSONL (vectors, status history, graph). */
  export(args: OwnerRef): Promise<string>;
  /** Imports JSONL: full exports restored exactly, plain records written like `seed`. */
  import(jsonl: string): Promise<ImportReport>;
  /**
   * Stores a document (a file's text, a page, a transcript) as passages that search finds one by
   * one: cut at headings and sentence ends, each embedded and indexed, tagged from the source; the
   * same text again changes nothing, new text under the same `source_ref` replaces it.
   */
  ingest(args: IngestRequest): Promise<IngestReport>;
  /**
   * Stores a repository's source files as the owner's codebase memories — one per file: its path,
   * language, a one-line summary, and its symbols with signatures and lines — sent as text for the
   * engine to parse (Rust, Python, TypeScript, JavaScript, Go; not in the browser and edge
   * packages) or parsed by the host; a file unchanged changes nothing, a changed one's memory is
   * superseded, and with `complete` the files no longer listed are invalidated.
   */
  ingestCode(args: CodeIngest): Promise<CodeIngestReport>;
  /** An owner's documents, newest first (superseded and forgotten ones with `all`). */
  documents(args: DocumentsRequest): Promise<Document[]>;
  /** One document with its passages, in order. */
  document(args: DocumentRef): Promise<DocumentDetail>;
  /**
   * Writes the host's LLM's summary of a document or of one of its passages, in place of the
   * engine's (what consolidation lists as `wanted` when it has no LLM to ask), checked as an LLM's
   * answer is.
   */
  writeSummary(args: SummaryWrite): Promise<Document>;
  /**
   * Records the host's LLM's decision on a proposed bridge — related (and how) or not, and why —
   * (what consolidation lists as `synthesis.wanted` when it has no LLM to ask), checked as an
   * LLM's answer is.
   */
  decideBridge(args: BridgeDecision): Promise<Bridge>;
  /**
   * Applies what the host found at paths an owner's memories cite (what consolidation lists as
   * `drift.wanted` when the host names no workspace): memories citing a path that is gone, or a
   * line past its file's end, become `invalidated` with the path in the reason, and ones drift
   * invalidated whose paths are all back are restored.
   */
  drift(args: DriftFindings): Promise<DriftReport>;
  /**
   * Writes the host's LLM's summary of an entity's peer card, in place of the engine's (what
   * consolidation lists as `cards.wanted` when it has no LLM to ask), checked as an LLM's answer
   * is; kept while the card's facts stand, and shown in the owner's view.
   */
  writeCardSummary(args: CardSummaryWrite): Promise<Card>;
  /** Forgets a document and its passages (soft delete, as `forget`). */
  forgetDocument(args: DocumentRef): Promise<Document>;
  /**
   * Stores markdown notes (a MEMORY.md): each bullet and paragraph through the extractor, tagged
   * with its heading; importing them again adds nothing.
   */
  importNotes(args: NotesImport): Promise<WriteReport>;
  /** The model and dimension of the store's vectors. */
  embeddingModel(args?: NoArgs): Promise<ModelInfo>;
  /** Vectors of texts by the store's embedder (at most 1,000 texts; nothing is stored). */
  embed(args: EmbedRequest): Promise<Embeddings>;
  /**
   * Moves the store to another built-in embedder (`mnemo-static-v1`, `mnemo-hash-v1`): every
   * memory embedded again in one transaction. Store-wide, so not an MCP tool.
   */
  reembed(args: ReembedRequest): Promise<ReembedReport>;
  /** The entities of an owner's knowledge graph, most mentioned first. */
  entities(args: EntitiesRequest): Promise<Entity[]>;
  /** Relationships of an owner's graph (or of one entity), strongest first. */
  relationships(args: RelationshipsRequest): Promise<Relationship[]>;
  /** A breadth-first walk of the graph from an entity. */
  traverse(args: TraverseRequest): Promise<Traversal>;
  /**
   * The peer card of an entity (a name or alias): its names and type, the most important live
   * facts about it, its strongest relationships, when it was first and last mentioned, and a
   * summary; an entity needs 3 live memories for a card.
   */
  card(args: CardRequest): Promise<Card>;
  /**
   * Bridges: entity pairs the owner's memories name together in different contexts (sessions,
   * documents) with no relationship between them, proposed by consolidation with their evidence,
   * and confirmed or rejected by the host's LLM when it has one.
   */
  bridges(args: BridgesRequest): Promise<Bridge[]>;
  /** The shortest path between two entities. */
  path(args: PathRequest): Promise<GraphPath>;
  /** Conflicts found on writes, newest first. */
  conflicts(args: ConflictsRequest): Promise<Conflict[]>;
  /** Decides an open conflict. */
  resolveConflict(args: ResolveRequest): Promise<Conflict>;
  /** The instructions an LLM extractor is given, with the JSON schema of its answer. */
  llmInstructions(args?: NoArgs): Promise<string>;
  /** Creates a schedule: a cron-tagged plan that falls due again and again. */
  scheduleCreate(args: ScheduleCreate): Promise<Schedule>;
  /** An owner's schedules, soonest due first. */
  schedules(args: SchedulesRequest): Promise<Schedule[]>;
  /** The schedules due now, each due time reported once. */
  scheduled(args: OwnerRef): Promise<Schedule[]>;
  /** Acknowledges a schedule: it moves on to its next due time. */
  scheduleAck(args: ScheduleRef): Promise<Schedule>;
  /** Changes a schedule's text or tag. */
  scheduleUpdate(args: ScheduleUpdate): Promise<Schedule>;
  /** Cancels a schedule. */
  scheduleCancel(args: ScheduleRef): Promise<Schedule>;
  /**
   * Whether the agent should speak up for an owner now, and why; records the act unless a dry run.
   * No model call.
   */
  heartbeatCheck(args: HeartbeatRequest): Promise<HeartbeatReport>;
  /** The heartbeat's report, the agent's recent messages and the memories matching a query. */
  heartbeatContext(args: HeartbeatRequest): Promise<HeartbeatContext>;
  /** Records a message of the conversation, so the heartbeat knows who talks. */
  recordMessage(args: RecordMessage): Promise<Message>;
  /** An owner's recorded conversation (both roles), newest first. */
  messages(args: MessagesRequest): Promise<Message[]>;
  /** Makes a team of agents: its members see the memories written for it with visibility `team`. */
  teamCreate(args: TeamCreate): Promise<Team>;
  /** A team of the owner. */
  teamGet(args: TeamRef): Promise<Team>;
  /** Deletes a team and its memberships; its memories stay with their writers. */
  teamDelete(args: TeamRef): Promise<TeamDeleted>;
  /** Adds an agent to a team. */
  teamMemberAdd(args: MemberAdd): Promise<TeamMember>;
  /** A team's members, in the order they joined. */
  teamMembers(args: TeamRef): Promise<TeamMember[]>;
  /** Removes an agent from a team (not its last member: delete the team instead). */
  teamMemberRemove(args: MemberRef): Promise<TeamMember>;
}

export default Mnemo;
