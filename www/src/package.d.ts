// The package's own types: how a store is opened and what a host plugs in. The engine's calls
// and their types are in index.d.ts, generated from the engine's declarations.

import type { Extracted } from './index';

/** Milliseconds since the Unix epoch. */
export type Millis = number;
/** A vector, as embedding models return it. */
export type Vector = number[] | Float32Array;

/**
 * A host embedding model. The store records `model` and `dimension` and refuses others. It
 * embeds what a call stores or searches for, and for `ingest` a document's passages and
 * sentences (at most 1,000 texts per call).
 */
export interface Embedder {
  model: string;
  dimension: number;
  embed(texts: string[]): Promise<Vector[]> | Vector[];
}

/**
 * A host extractor: memories found in `content`, or an LLM's raw answer to `instructions`
 * (text; the engine checks it against the schema and falls back to its own extractor, saying
 * why in the report's `fallback`). `[]` means nothing worth remembering.
 */
export type Extractor = (
  content: string,
  context: { entity_id: string; instructions: string },
) => Promise<Extracted[] | string> | Extracted[] | string;

/**
 * A host summariser, typically an LLM, called after `consolidate` and `maintain`: one text for
 * a cluster of near-duplicate memories consolidation merged (`texts`, the most important
 * first; `context.id` is the merged memory), which the merged memory then says (without one it
 * holds the members' sentences merged); and a summary of each document passage or document
 * the report lists as `wanted` (`texts`: the passage's text, or the document's passages'
 * summaries; `context.document_id`, and `context.position` for a passage), which the engine
 * checks (at most two sentences for a passage, three for a document, shorter than its text)
 * and keeps in place of its own (`write_summary`). `null` declines (no LLM to ask now): the
 * engine's text stays, and nothing counts as a failure.
 */
export type Summariser = (
  texts: string[],
  context:
    | { entity_id: string; id: string }
    | { entity_id: string; document_id: string; position: number | null; title: string; section: string[] }
    | { entity_id: string; card: string },
) => Promise<string | null> | string | null;

/** A host judge's decision on a bridge: whether the memories show the two connected, how, why. */
export interface BridgeVerdict {
  /** The two are really connected (not just mentioned in the same breath). */
  related: boolean;
  /** How the first relates to the second, a few words (at most 80 characters; needed when related). */
  relation?: string;
  /** Why, citing the memories: at most 480 characters. */
  reason: string;
}

/**
 * A host judge, typically an LLM, called after `consolidate` and `maintain` for each bridge the
 * report lists in `synthesis.wanted`: two entities (`a`, `b`) named together in different
 * conversations, and the memories that name both (`texts`). The engine checks the decision
 * (`decide_bridge`) and counts it in `synthesis.confirmed` or `rejected`; one that throws or
 * that the engine refuses leaves the bridge proposed, its reason in `synthesis.failure`.
 * `null` declines (no LLM to ask now): the bridge stays wanted.
 */
export type BridgeJudge = (bridge: {
  entity_id: string;
  id: string;
  a: string;
  b: string;
  texts: string[];
}) => Promise<BridgeVerdict | null> | BridgeVerdict | null;

export interface OpenOptions {
  /** Store name: 1–64 letters, digits, '-' or '_' (default 'mnemo'). */
  name?: string;
  /** 'opfs' (browsers: a SQLite file in OPFS), 'idb' (IndexedDB copy), 'memory' (default). */
  storage?: 'opfs' | 'idb' | 'memory';
  /** Your own embedding model; without it the store uses the built-in `mnemo-static-v1`. */
  embed?: Embedder;
  /**
   * The agent this handle acts for: every call that names an agent is made for it (it sees its
   * own memories, `global` ones and those of its teams, and changes only its own).
   */
  agent?: string;
  /**
   * Where the built-in embedder's weights come from: their bytes, or a URL, relative to the page
   * (default: `mnemo-static-v1.bin` beside the package's WebAssembly, which bundlers emit with
   * the app; browsers keep it in the Cache API after the first download). The first store of a
   * thread loads them; later ones reuse them.
   */
  weights?: Uint8Array | string | URL;
  extract?: Extractor;
  summarise?: Summariser;
  judge?: BridgeJudge;
  /** A fixed start time: the clock then moves only by `setNow` (tests, replays). */
  now?: Millis;
  /** Seed of the memory-id generator (default: random). */
  seed?: number;
  /** Engine configuration (dedup thresholds, retention mode, recall weights), snake_case. */
  config?: Record<string, unknown>;
  /** Run in a dedicated worker (default in browser pages) or in this thread. */
  worker?: boolean;
  /** Be served through another tab holding the store (default), or refuse with `store_locked`. */
  share?: boolean;
  /**
   * Where OPFS is unavailable, keep an `opfs` store in IndexedDB (else in memory) and say so in
   * `fallback` (default), or refuse with `storage_unavailable`.
   */
  fallback?: boolean;
}

/** Why a store is not kept where it was asked to be. */
export interface StorageFallback {
  /** The storage asked for. */
  from: 'opfs';
  /** Where the store is kept instead. */
  to: 'idb' | 'memory';
  /** Why the storage asked for could not be used. */
  reason: string;
}

/** Errors carry the engine's message and a stable machine-readable code. */
export interface MnemoError extends Error {
  code:
    | 'invalid_input' | 'unknown_value' | 'not_found' | 'dimension_mismatch' | 'non_finite_vector'
    | 'embedder_mismatch' | 'embedder_error' | 'extractor_error' | 'schema_too_new' | 'not_a_store'
    | 'import_error' | 'not_implemented' | 'storage_error' | 'storage_full' | 'storage_unavailable' | 'store_locked'
    | 'store_moved' | 'closed' | 'worker_error' | 'internal' | string;
}
