// Types of the Mnemo JS package. Field names are the engine's snake_case JSON, the same on
// every surface (JS, HTTP, CLI), so a memory looks identical wherever it is read.

export type MemoryType =
  | 'IDENTITY' | 'PREFERENCE' | 'RELATIONSHIP' | 'EVENT' | 'ACTIVITY' | 'PLAN' | 'CONTEXT' | 'EPHEMERAL';
export type Kind = 'fact' | 'procedure' | 'narrative';
export type Layer = 'working' | 'episodic' | 'semantic' | 'procedural';
export type State = 'ACTIVE' | 'STALE' | 'ARCHIVED' | 'DELETED';
export type Status = 'active' | 'challenged' | 'invalidated' | 'merged' | 'superseded';
export type Tier = 'hot' | 'warm' | 'archive';
export type Source = 'user' | 'agent' | 'conversation' | 'import';
export type Visibility = 'private' | 'team' | 'global';
export type RankMode = 'balanced' | 'recent' | 'important' | 'historical' | 'comprehensive';
export type RecallFilter = 'facts_only' | 'facts_plus_rules' | 'full_context';
export type EntityType = 'PERSON' | 'ORGANIZATION' | 'LOCATION' | 'PRODUCT' | 'CONCEPT' | 'EVENT' | 'OTHER';
/** A knowledge-graph edge, read "from <relation> to". */
export type Relation =
  | 'works_at' | 'employs' | 'manages' | 'reports_to' | 'friend_of' | 'lives_in' | 'home_of'
  | 'parent_of' | 'child_of' | 'dating' | 'married_to' | 'engaged_to' | 'ex_of' | 'member_of'
  | 'has_member' | 'founded' | 'founded_by' | 'uses' | 'used_by' | 'created' | 'created_by'
  | 'collaborates_with' | 'mentors' | 'mentored_by' | 'competitor_of' | 'partner_of'
  | 'client_of' | 'serves' | 'sibling_of' | 'knows' | 'colleague_of' | 'neighbor_of'
  | 'roommate_of' | 'cousin_of' | 'relative_of' | 'grandparent_of' | 'grandchild_of'
  | 'studied_at' | 'teaches' | 'student_of' | 'owns' | 'owned_by' | 'has_pet' | 'pet_of'
  | 'located_in' | 'born_in' | 'works_on' | 'likes' | 'dislikes' | 'interested_in' | 'attends'
  | 'visited';
/** Milliseconds since the Unix epoch. */
export type Millis = number;
export type Vector = number[] | Float32Array;

/** A stored memory. */
export interface Memory {
  id: string;
  entity_id: string;
  agent_id: string | null;
  session_id: string | null;
  team_id: string | null;
  visibility: Visibility;
  content: string;
  content_hash: string;
  type: MemoryType;
  kind: Kind;
  layer: Layer;
  state: State;
  status: Status;
  tier: Tier;
  importance: number;
  surprise: number | null;
  confidence: number;
  sentiment: number;
  source: Source;
  trust: number;
  access_count: number;
  last_accessed_at: Millis | null;
  feedback: number;
  pinned: boolean;
  manual_tags: string[];
  auto_tags: string[];
  expires_at: Millis | null;
  cron_tag: string | null;
  source_ref: string | null;
  merged_into: string | null;
  created_at: Millis;
  updated_at: Millis;
  state_changed_at: Millis;
  deleted_at: Millis | null;
}

/** A memory to store; only `entity_id` and `content` are required. */
export interface NewMemory {
  entity_id: string;
  content: string;
  type?: MemoryType;
  kind?: Kind;
  layer?: Layer;
  importance?: number;
  confidence?: number;
  sentiment?: number;
  source?: Source;
  tags?: string[];
  pinned?: boolean;
  expires_at?: Millis;
  cron_tag?: string;
  source_ref?: string;
  agent_id?: string;
  session_id?: string;
  team_id?: string;
  visibility?: Visibility;
  /** The content's vector, when you embed it yourself. */
  vector?: Vector;
}

/** An entity a memory names. */
export interface EntityMention {
  name: string;
  type: EntityType;
  /** Other names of the same entity. */
  aliases?: string[];
}

/** A relationship a memory states; the speaker is "user". */
export interface RelationMention {
  from: string;
  relation: Relation;
  to: string;
  confidence: number;
}

/** One memory an extractor found; only `content` is required. */
export interface Extracted {
  content: string;
  type?: MemoryType;
  kind?: Kind;
  importance?: number;
  confidence?: number;
  /** Whether the speaker hedged ("I think", "maybe"). */
  hedged?: boolean;
  sentiment?: number;
  /** Keywords, stored as the memory's auto tags. */
  tags?: string[];
  expires_at?: Millis | null;
  entities?: EntityMention[];
  relationships?: RelationMention[];
  vector?: Vector;
}

export interface RememberArgs {
  entity_id: string;
  /** The conversation text (an exchange) to remember. */
  content: string;
  /** Memories already extracted from `content`; when absent the extractor runs. */
  extracted?: Extracted[];
  /** An LLM's raw answer for `content`, checked by the engine (not with `extracted`). */
  llm_output?: string;
  agent_id?: string;
  session_id?: string;
  source_ref?: string;
  source?: Source;
}

export type Outcome =
  | { action: 'created'; id: string }
  | { action: 'merged'; id: string; absorbed: string; similarity: number }
  | {
      action: 'skipped';
      reason: 'exact_duplicate' | 'semantic_duplicate' | 'subset' | 'not_significant';
      existing: string | null;
      similarity: number | null;
    }
  | {
      /** The input contradicted `existing`; `mode` says what was done. */
      action: 'conflict';
      id: string | null;
      existing: string;
      kind: ConflictKind;
      mode: ConflictMode;
      conflict: string;
    };

/** What happened to each input, in input order. */
export interface WriteReport {
  outcomes: Outcome[];
  /** Why the built-in extractor stood in for an LLM's answer. */
  fallback?: string;
}

export type ConflictKind =
  | 'negation' | 'stated_change' | 'preference_flip' | 'changed_number' | 'changed_place'
  | 'changed_job' | 'changed_relationship';
export type ConflictMode = 'keep_existing' | 'use_new' | 'merge' | 'ask' | 'temporal';
export type Resolution = 'keep_existing' | 'use_new' | 'merge' | 'keep_both';

/** A schedule: a cron-tagged PLAN memory and when it falls due (UTC). */
export interface Schedule {
  id: string;
  content: string;
  cron_tag: string;
  status: 'active' | 'done' | 'cancelled';
  next_due_at: Millis | null;
  /** Due times that passed without an acknowledgement. */
  missed: number;
  acknowledged_at: Millis | null;
  created_at: Millis;
}

export type Urgency = 'low' | 'normal' | 'elevated' | 'immediate';
export type SignalKind =
  | 'scheduled' | 'deadlines' | 'conflicts' | 'continuity' | 'stale_monitors' | 'memory_velocity'
  | 'pending_work' | 'goal_progress' | 'knowledge_gaps' | 'positive_deltas' | 'decaying'
  | 'sentiment' | 'relationships' | 'patterns';
export type Autonomy = 'observe' | 'suggest' | 'act';
export type DecisionReason =
  | 'first_contact' | 'act_deadline_critical' | 'suppress_time_period' | 'suppress_conversation_low'
  | 'no_signals' | 'act_immediate' | 'suppress_stale' | 'suppress_confluence' | 'act_confluence'
  | 'suppress_cooldown' | 'suppress_topic_repeat' | 'act' | 'nudge' | 'suppress_nudge_cap'
  | 'suppress_nudge_backoff';

/** Arguments of `heartbeatCheck` / `heartbeatContext`; unset options take the engine's config. */
export interface HeartbeatArgs {
  entity_id: string;
  autonomy?: Autonomy;
  /** Whether the owner is talking now; by default, a recorded message under 15 min old. */
  in_conversation?: boolean;
  /** The owner's offset from UTC in minutes (−840 … 840). */
  utc_offset_minutes?: number;
  /** Local hours `start` up to `end` (default 23–7). */
  quiet_hours?: { enabled: boolean; start: number; end: number };
  /** How far ahead deadlines count, e.g. "24h". */
  deadline_window?: string;
  /** Most items per signal (1–100, default 20). */
  max_results?: number;
  /** Decide but record nothing. */
  dry_run?: boolean;
  /** `heartbeatContext` only: also search memories for this text (`top_k`, default 5). */
  query?: string;
  top_k?: number;
}

/** One signal the heartbeat found. */
export interface Signal {
  kind: SignalKind;
  tier: Urgency;
  /** Whether the decision surfaced it. */
  surfaced: boolean;
  /** Ids of the memories it is about. */
  memories: string[];
  summary: string;
}

/** What `heartbeatCheck` answers. */
export interface HeartbeatReport {
  entity_id: string;
  checked_at: Millis;
  should_act: boolean;
  decision_reason: DecisionReason;
  urgency_tier: Urgency | null;
  autonomy: Autonomy;
  /** First 16 hex of SHA-256 over the surfaced signals' keys. */
  fingerprint: string;
  confluence_score: number;
  cooldown_ms: number;
  time_period: 'morning' | 'working' | 'evening' | 'late_night' | 'quiet';
  in_conversation: boolean;
  response_rate: number;
  memory_velocity: number;
  /** When to check again, in ms from now. */
  next_tick_ms: number;
  act_id: string | null;
  nudge: Memory | null;
  signals: Signal[];
  scheduled: Schedule[];
  deadlines: Memory[];
  conflicts: Conflict[];
  continuity: { last_memories: Memory[]; session_age_hours: number; was_interrupted: boolean; resume_suggestion: string } | null;
  stale_monitors: Memory[];
  pending_work: Memory[];
  goal_progress: { plan: Memory; activities: string[]; progress: number; days_left: number | null; status: 'no_activity' | 'stalled' | 'at_risk' | 'on_track' }[];
  knowledge_gaps: { memory_id: string; question: string; asked_at: Millis }[];
  positive_deltas: { kind: 'goal_improved' | 'entity_reengaged' | 'sentiment_improved'; description: string; subject: string }[];
  decaying: Memory[];
  sentiment_trend: { recent_avg: number; previous_avg: number; direction: 'declining' | 'stable' | 'improving'; delta: number; notable: Memory[] } | null;
  relationship_alerts: { entity: string; entity_type: string; days_silent: number; related_plans: string[]; urgency: 'attention' | 'urgent' }[];
  behavioral_patterns: { description: string; topic: string; day_of_week: string; days: number; confidence: number }[];
  /** The surfaced signals as plain text for a prompt. */
  summary: string;
}

/** A recorded message of the conversation. */
export interface Message {
  id: string;
  role: 'user' | 'agent';
  content: string;
  session_id: string | null;
  act_id: string | null;
  at: Millis;
}

/** A conflict between a new statement and an existing memory. */
export interface Conflict {
  id: string;
  kind: ConflictKind;
  /** The mode applied when it was found. */
  mode: ConflictMode;
  status: 'open' | 'resolved';
  /** The memory stored for the new statement (null when it was not stored). */
  memory: string | null;
  content: string;
  existing: string;
  existing_content: string;
  resolution: Resolution | null;
  reason: string | null;
  created_at: Millis;
  resolved_at: Millis | null;
}

export interface SearchArgs {
  entity_id: string;
  query: string;
  vector?: Vector;
  /** 1..1000, default 10. */
  limit?: number;
  mode?: RankMode;
  recall?: RecallFilter;
  include_archived?: boolean;
  types?: MemoryType[];
  min_score?: number;
  /** Only memories naming one of these entities of the owner's graph (names or aliases). */
  entities?: string[];
}

/** An entity of an owner's knowledge graph. */
export interface Entity {
  name: string;
  type: EntityType;
  aliases: string[];
  mentions: number;
  first_seen: Millis;
  last_seen: Millis;
}

/** A relationship with its evidence; strength = 0.4·(1 − 1/(1+evidence)) + 0.3·recency + 0.3·confidence. */
export interface Relationship {
  from: string;
  relation: Relation;
  to: string;
  evidence: number;
  confidence: number;
  strength: number;
  /** The reverse of a stated bidirectional relationship. */
  inferred: boolean;
  first_seen: Millis;
  last_seen: Millis;
}

export interface EntitiesArgs {
  entity_id: string;
  types?: EntityType[];
  /** A substring of a name or alias. */
  query?: string;
  limit?: number;
  offset?: number;
}

export interface RelationshipsArgs {
  entity_id: string;
  /** Only relationships touching this entity (name or alias; `user` is the owner). */
  entity?: string;
  relations?: Relation[];
  min_strength?: number;
  /** Leave out inferred reverse edges. */
  stated_only?: boolean;
  limit?: number;
}

export interface TraverseArgs {
  entity_id: string;
  from: string;
  /** 1..5, default 2. */
  depth?: number;
  relations?: Relation[];
  min_strength?: number;
}

export interface Traversal {
  nodes: { name: string; type: EntityType; depth: number }[];
  edges: Relationship[];
}

/** Why a hit ranked where it did. */
export interface ScoreBreakdown {
  mode: RankMode;
  semantic: number;
  text: number;
  vector: number;
  context: number;
  recency: number;
  retention: number;
  importance: number;
  confidence: number;
  feedback_multiplier: number;
  state_multiplier: number;
}

export interface SearchHit {
  memory: Memory;
  score: number;
  why: ScoreBreakdown;
}

export interface ListArgs {
  entity_id: string;
  types?: MemoryType[];
  states?: State[];
  statuses?: Status[];
  kinds?: Kind[];
  tag?: string;
  pinned?: boolean;
  /** 1..1000, default 50. */
  limit?: number;
  offset?: number;
  oldest_first?: boolean;
}

export interface Page {
  total: number;
  memories: Memory[];
}

export interface MemoryRef {
  entity_id: string;
  id: string;
}

export interface MemoryPatch {
  content?: string;
  vector?: Vector;
  type?: MemoryType;
  kind?: Kind;
  importance?: number;
  confidence?: number;
  sentiment?: number;
  tags?: string[];
  expires_at?: Millis;
  source_ref?: string;
}

export interface StatusChange {
  old: Status;
  new: Status;
  reason: string;
  changed_at: Millis;
}

export interface Stats {
  entity_id: string;
  total: number;
  by_type: Record<string, number>;
  by_state: Record<string, number>;
  by_status: Record<string, number>;
  by_tier: Record<string, number>;
  embedding_model: string;
  embedding_dim: number;
}

export interface MaintainReport {
  examined: number;
  to_stale: number;
  to_archived: number;
  to_deleted: number;
  promoted: number;
  purged: number;
}

export interface ImportReport {
  restored: number;
  already_present: number;
  written: WriteReport;
}

/** A host embedding model. The store records `model` and `dimension` and refuses others. */
export interface Embedder {
  model: string;
  dimension: number;
  embed(texts: string[]): Promise<Vector[]> | Vector[];
}

/** A host extractor (e.g. an LLM): the memories in a piece of conversation; [] = nothing. */
/**
 * A host extractor: memories found in `content`, or an LLM's raw answer to `instructions`
 * (text; the engine checks it against the schema and falls back to its own extractor, saying
 * why in the report's `fallback`).
 */
export type Extractor = (
  content: string,
  context: { entity_id: string; instructions: string },
) => Promise<Extracted[] | string> | Extracted[] | string;

export interface OpenOptions {
  /** Store name: 1–64 letters, digits, '-' or '_' (default 'mnemo'). */
  name?: string;
  /** 'opfs' (browsers: a SQLite file in OPFS), 'idb' (IndexedDB copy), 'memory' (default). */
  storage?: 'opfs' | 'idb' | 'memory';
  embed?: Embedder;
  extract?: Extractor;
  /** A fixed start time: the clock then moves only by `setNow` (tests, replays). */
  now?: Millis;
  /** Seed of the memory-id generator (default: random). */
  seed?: number;
  /** Engine configuration (dedup thresholds, retention mode, recall weights), snake_case. */
  config?: Record<string, unknown>;
  /** Run in a dedicated worker (default in browser pages) or in this thread. */
  worker?: boolean;
}

/** Errors carry the engine's message and a stable machine-readable code. */
export interface MnemoError extends Error {
  code:
    | 'invalid_input' | 'unknown_value' | 'not_found' | 'dimension_mismatch' | 'non_finite_vector'
    | 'embedder_mismatch' | 'embedder_error' | 'extractor_error' | 'schema_too_new' | 'not_a_store'
    | 'import_error' | 'storage_error' | 'storage_unavailable' | 'store_locked' | 'closed'
    | 'worker_error' | 'internal_error' | string;
}

export declare class Mnemo {
  /** Opens (creating if needed) a store. */
  static open(options?: OpenOptions): Promise<Mnemo>;
  /** Opens a memory store from a SQLite image made by `exportBytes`. */
  static fromBytes(bytes: Uint8Array, options?: Omit<OpenOptions, 'storage'>): Promise<Mnemo>;

  remember(args: RememberArgs): Promise<WriteReport>;
  extract(args: { content: string }): Promise<Extracted[]>;
  seed(items: NewMemory[]): Promise<WriteReport>;
  search(args: SearchArgs): Promise<SearchHit[]>;
  get(args: MemoryRef): Promise<Memory>;
  list(args: ListArgs): Promise<Page>;
  update(args: MemoryRef & { patch: MemoryPatch }): Promise<Memory>;
  forget(args: MemoryRef): Promise<Memory>;
  reinforce(args: MemoryRef): Promise<Memory>;
  demote(args: MemoryRef): Promise<Memory>;
  pin(args: MemoryRef & { pinned: boolean }): Promise<Memory>;
  setStatus(args: MemoryRef & { status: Status; reason: string }): Promise<Memory>;
  statusHistory(args: MemoryRef): Promise<StatusChange[]>;
  stats(args: { entity_id: string }): Promise<Stats>;
  maintain(args?: Record<string, never>): Promise<MaintainReport>;
  embeddingModel(): Promise<{ model: string; dimension: number }>;
  /** The owner's knowledge graph: entities, most mentioned first. */
  entities(args: EntitiesArgs): Promise<Entity[]>;
  /** Relationships, strongest first. */
  relationships(args: RelationshipsArgs): Promise<Relationship[]>;
  /** Breadth-first from an entity, up to `depth` hops. */
  traverse(args: TraverseArgs): Promise<Traversal>;
  /** The shortest path between two entities (≤ `max_depth` hops, default 5). */
  path(args: { entity_id: string; from: string; to: string; max_depth?: number }): Promise<{ found: boolean; hops: Relationship[] }>;
  /** Conflicts found on writes, newest first. */
  conflicts(args: { entity_id: string; status?: 'open' | 'resolved'; limit?: number }): Promise<Conflict[]>;
  /** What an LLM extractor is asked, with the JSON schema of its answer. */
  llmInstructions(): Promise<string>;
  /** Creates a schedule (`cron:daily:09:00`, `cron:weekly:mon:09:00`, `cron:weekdays:08:30`, `cron:monthly:31:09:00`, `cron:every:2h`, `cron:once:<RFC 3339>`, `cron:hourly`). */
  scheduleCreate(args: { entity_id: string; content: string; cron_tag: string }): Promise<Schedule>;
  /** An owner's schedules, soonest due first (`all`: done and cancelled too). */
  schedules(args: { entity_id: string; all?: boolean }): Promise<Schedule[]>;
  /** The schedules due now, each due time reported once. */
  scheduled(args: { entity_id: string }): Promise<Schedule[]>;
  scheduleAck(args: { entity_id: string; id: string }): Promise<Schedule>;
  scheduleUpdate(args: { entity_id: string; id: string; content?: string; cron_tag?: string }): Promise<Schedule>;
  scheduleCancel(args: { entity_id: string; id: string }): Promise<Schedule>;
  /** Whether the agent should speak up now: 14 signals, the decision and why, the next tick. No embedding or LLM call; records the act unless `dry_run`. */
  heartbeatCheck(args: HeartbeatArgs): Promise<HeartbeatReport>;
  /** `heartbeatCheck` with the agent's recent messages and the memories matching `query`. */
  heartbeatContext(args: HeartbeatArgs): Promise<{ report: HeartbeatReport; recent_messages: Message[]; relevant_memories: SearchHit[] }>;
  /** Records a message of the conversation (who talks, and whether acts are answered). */
  recordMessage(args: { entity_id: string; role: 'user' | 'agent'; content: string; session_id?: string; act_id?: string }): Promise<Message>;
  /** Decides an open conflict. */
  resolveConflict(args: { entity_id: string; id: string; resolution: Resolution; reason?: string }): Promise<Conflict>;
  /** All of one owner's memories as JSONL. */
  export(args: { entity_id: string }): Promise<string>;
  /** Restores memories from JSONL made by `export`. */
  import(jsonl: string): Promise<ImportReport>;
  /** Any engine call by its snake_case name. */
  call(method: string, args?: object): Promise<unknown>;
  /** The whole store as a SQLite image. */
  exportBytes(): Promise<Uint8Array>;
  /** Moves the clock of a store opened with a fixed `now`. */
  setNow(ms: Millis): Promise<void>;
  /** Writes what is pending, closes the store and stops its worker. */
  close(): Promise<void>;
}

export default Mnemo;
