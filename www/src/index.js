// Mnemo for browsers and edge runtimes. `await Mnemo.open(...)` starts a dedicated worker that
// owns the store (browsers) or runs it in-process (Node, edge functions), and returns an async
// proxy whose methods are the engine's calls — one per call the engine declares (calls.js,
// generated from the declarations). Host embedders and extractors run here, in the caller's
// thread, and their results travel with the call.

import { CALLS } from './calls.js';
import { coded, parserMissing } from './wasm.js';

const BY_METHOD = new Map(CALLS.map((c) => [c.method, c]));

/** Talks to a store in a dedicated worker. */
class WorkerTransport {
  #worker;
  #next = 0;
  #pending = new Map();

  constructor(worker) {
    this.#worker = worker;
    worker.onmessage = ({ data: { id, ok, value, error } }) => {
      const p = this.#pending.get(id);
      if (!p) return;
      this.#pending.delete(id);
      if (ok) p.resolve(value);
      else p.reject(coded(error.message, error.code));
    };
    worker.onerror = (e) => {
      e.preventDefault?.();
      const err = coded(`the Mnemo worker failed: ${e.message ?? 'could not start'}`, 'worker_error');
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
  }

  request(op, payload) {
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      this.#pending.set(id, { resolve, reject });
      try {
        this.#worker.postMessage({ id, op, payload });
      } catch (e) {
        this.#pending.delete(id);
        reject(coded(`cannot send ${op} to the worker: ${e.message}`, 'invalid_input'));
      }
    });
  }

  terminate() {
    this.unshare?.();
    this.#worker.terminate();
  }
}

/** Runs the store in this thread (Node, edge runtimes, or `worker: false`). */
class LocalTransport {
  #store;
  constructor(store) {
    this.#store = store;
  }
  request(op, payload) {
    switch (op) {
      case 'call':
        return this.#store.call(payload.method, payload.args, payload.handed);
      case 'embedTexts':
        return this.#store.embedTexts(payload);
      case 'embedVectors':
        return this.#store.embedVectors(payload);
      case 'exportBytes':
        return this.#store.exportBytes();
      case 'setNow':
        return this.#store.setNow(payload);
      case 'close':
        return this.#store.close();
    }
    return Promise.reject(coded(`unknown operation ${op}`, 'internal'));
  }
  terminate() {}
}

/** How long a tab waits for the tab holding a store to answer before giving up. */
const HOLDER_TIMEOUT_MS = 10_000;
/** How long `open` waits for the holding tab to say it shares the store. */
const HOLDER_PING_MS = 1_500;
/**
 * Largest file `ingestFile` reads: a document is at most 10,000,000 characters, which UTF-8
 * writes in at most four bytes each (the CLI's limit too).
 */
const MAX_DOCUMENT_BYTES = 40_000_000;
/** Texts per call of a host embedding model when a document's passages and sentences are embedded. */
const EMBED_BATCH = 1_000;
/**
 * Calls whose texts the engine makes itself (a document's passages; a question read with who
 * its relations name): with a host embedding model, the page asks the store which texts they
 * embed, embeds those, and hands the vectors over with the call.
 */
const ASKED_FIRST = new Set(['ingest', 'search']);

const channelName = (name) => `mnemo:${name ?? 'mnemo'}`;

/**
 * Talks to a store held by another tab of this origin, through a BroadcastChannel: that tab
 * runs the calls on its worker and answers. Only calls cross (not close or the clock).
 */
class TabTransport {
  #channel;
  #me = crypto.randomUUID();
  #next = 0;
  #pending = new Map();
  #gone = null;

  constructor(name) {
    this.name = name ?? 'mnemo';
    this.#channel = new BroadcastChannel(channelName(name));
    this.#channel.onmessage = ({ data }) => {
      if (data?.type === 'closed') {
        this.#gone = coded(
          `the tab holding store ${JSON.stringify(this.name)} closed it; open the store again here`,
          'store_moved',
        );
        for (const p of this.#pending.values()) p.reject(this.#gone);
        this.#pending.clear();
      }
      if (data?.type !== 'reply' || data.to !== this.#me) return;
      const p = this.#pending.get(data.id);
      if (!p) return;
      this.#pending.delete(data.id);
      clearTimeout(p.timer);
      if (data.ok) p.resolve(data.value);
      else p.reject(coded(data.error.message, data.error.code));
    };
  }

  request(op, payload, timeout = HOLDER_TIMEOUT_MS) {
    if (op === 'close') return Promise.resolve(this.#channel.close());
    if (this.#gone) return Promise.reject(this.#gone);
    return new Promise((resolve, reject) => {
      const id = this.#next++;
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(
          coded(
            `the tab holding store ${JSON.stringify(this.name)} did not answer; close it there, then open the store again`,
            'store_locked',
          ),
        );
      }, timeout);
      this.#pending.set(id, { resolve, reject, timer });
      try {
        this.#channel.postMessage({ type: 'request', from: this.#me, id, op, payload });
      } catch (e) {
        this.#pending.delete(id);
        clearTimeout(timer);
        reject(coded(`cannot send ${op} to the holding tab: ${e.message}`, 'invalid_input'));
      }
    });
  }

  terminate() {
    this.#channel.close();
  }
}

/** Serves this tab's store to other tabs that found it locked (the holder's side). */
function shareWith(name, transport) {
  const channel = new BroadcastChannel(channelName(name));
  channel.onmessage = async ({ data }) => {
    if (data?.type !== 'request') return;
    const { from, id, op, payload } = data;
    try {
      if (!['call', 'embedTexts', 'embedVectors', 'exportBytes', 'ping'].includes(op)) throw coded(`${op} is not shared`, 'invalid_input');
      const value = op === 'ping' ? 'pong' : await transport.request(op, payload);
      channel.postMessage({ type: 'reply', to: from, id, ok: true, value });
    } catch (e) {
      channel.postMessage({ type: 'reply', to: from, id, ok: false, error: { message: e.message, code: e.code } });
    }
  };
  const unshare = () => {
    globalThis.removeEventListener?.('pagehide', unshare);
    channel.postMessage({ type: 'closed' });
    channel.close();
  };
  // A tab that goes away without `close()` still tells the tabs it served.
  globalThis.addEventListener?.('pagehide', unshare);
  return unshare;
}

async function connect(options, bytes) {
  const { worker = typeof window !== 'undefined' && typeof Worker !== 'undefined', share, ...open } = options;
  if (bytes !== undefined) open.bytes = bytes;
  if (worker) {
    const w = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'mnemo' });
    const t = new WorkerTransport(w);
    try {
      await t.request('open', open);
    } catch (e) {
      t.terminate();
      if (e.code !== 'store_locked' || share === false || typeof BroadcastChannel === 'undefined') throw e;
      // Another tab holds the store: be served through it, if it answers.
      const remote = new TabTransport(open.name);
      try {
        await remote.request('ping', null, HOLDER_PING_MS);
      } catch {
        remote.terminate();
        throw e;
      }
      if (open.embedding) {
        const held = await remote.request('call', { method: 'embedding_model', args: {} });
        if (held.model !== open.embedding.model || held.dimension !== open.embedding.dimension) {
          remote.terminate();
          throw coded(
            `store ${JSON.stringify(remote.name)} is held by another tab with embedder ${held.model} (${held.dimension} dims), not ${open.embedding.model} (${open.embedding.dimension} dims)`,
            'embedder_mismatch',
          );
        }
      }
      return remote;
    }
    if (share !== false && open.storage && open.storage !== 'memory' && typeof BroadcastChannel !== 'undefined') {
      t.unshare = shareWith(open.name, t);
    }
    return t;
  }
  const { openStore } = await import('./host.js');
  return new LocalTransport(await openStore(open));
}

/**
 * A copy of call arguments as plain data the engine can read: typed arrays (what embedding
 * models return) become arrays; the caller's objects are never changed.
 */
function plain(value) {
  if (ArrayBuffer.isView(value)) return Array.from(value);
  if (Array.isArray(value)) {
    // A list of numbers (a vector) is copied as it is; only objects inside are made plain.
    const copy = value.slice();
    for (let i = 0; i < copy.length; i++) if (copy[i] && typeof copy[i] === 'object') copy[i] = plain(copy[i]);
    return copy;
  }
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/**
 * A copy of `args` in which the objects the host writes vectors into (the call's `embeds`
 * paths) are copies, and everything else is shared: the caller's objects are never changed,
 * and a thousand items' vectors are not copied to be dropped.
 */
function copyEmbedded(method, args) {
  let copy = { ...args };
  for (const { path } of BY_METHOD.get(method)?.embeds ?? []) copy = copyAlong(copy, path);
  return copy;
}

/** `value` with the plain objects along `path` (`*`: each item of a list) copied. */
function copyAlong(value, path) {
  if (Array.isArray(value)) return path[0] === '*' ? value.map((v) => copyAlong(v, path.slice(1))) : value;
  if (!value || typeof value !== 'object' || ![Object.prototype, null].includes(Object.getPrototypeOf(value))) return value;
  const copy = { ...value };
  const [key, ...rest] = path;
  if (key !== undefined && key !== '*' && Object.hasOwn(copy, key)) copy[key] = copyAlong(copy[key], rest);
  return copy;
}

/** The objects at `path` in `value` (`*`: each item of a list). */
function objectsAt(value, path) {
  let nodes = [value];
  for (const key of path) {
    nodes = nodes.flatMap((n) => (key === '*' ? (Array.isArray(n) ? n : []) : n && typeof n === 'object' ? [n[key]] : []));
  }
  return nodes.filter((n) => n && typeof n === 'object' && !Array.isArray(n));
}

/** Whether two vectors hold the same numbers. */
function sameVector(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Splits host callbacks from the options the engine sees. */
function hostOptions(options) {
  if (options === null || typeof options !== 'object') {
    throw coded('invalid options: expected an object', 'invalid_input');
  }
  const { embed, extract, summarise, judge, agent, ...rest } = options;
  if (agent !== undefined && (typeof agent !== 'string' || !/^[A-Za-z0-9_:.-]{1,256}$/.test(agent))) {
    throw coded('invalid agent: expected an agent id (1 to 256 characters of A-Z a-z 0-9 _ : . -)', 'invalid_input');
  }
  if (embed !== undefined) {
    const ok =
      embed && typeof embed.embed === 'function' && typeof embed.model === 'string' && Number.isInteger(embed.dimension);
    if (!ok) {
      throw coded('invalid embed: expected {model: string, dimension: integer, embed(texts) → vectors}', 'invalid_input');
    }
    rest.embedding = { model: embed.model, dimension: embed.dimension };
  }
  if (extract !== undefined && typeof extract !== 'function') {
    throw coded('invalid extract: expected a function (content) → memories', 'invalid_input');
  }
  if (summarise !== undefined && typeof summarise !== 'function') {
    throw coded('invalid summarise: expected a function (texts) → summary', 'invalid_input');
  }
  if (judge !== undefined && typeof judge !== 'function') {
    throw coded('invalid judge: expected a function (bridge) → {related, relation, reason}', 'invalid_input');
  }
  if (typeof rest.weights === 'string' || rest.weights instanceof URL) rest.weights = weightsUrl(rest.weights);
  return { rest, embed, extract, summarise, judge, agent };
}

/**
 * The weights' URL as an absolute string (what a worker can be sent): relative to the page, as
 * a URL written in a page is; in a runtime without a page, it must be absolute.
 */
function weightsUrl(given) {
  try {
    return new URL(given, globalThis.document?.baseURI ?? globalThis.location?.href).href;
  } catch {
    throw coded(`invalid weights: ${JSON.stringify(String(given))} is not a URL (give an absolute one, or the bytes)`, 'invalid_input');
  }
}

/**
 * `ingest_code`'s arguments with the files sent as `text` read by the parser module first, as
 * `parseSources` does (the engine module has no parser, and every other face takes texts): the
 * module is fetched the first time a program sends one, so a page that never does downloads
 * nothing more. Files it does not read go on as given, for the engine to judge.
 */
async function readTexts(args) {
  const files = args.files;
  if (!Array.isArray(files) || !files.some((f) => typeof f?.text === 'string')) return args;
  let parser;
  try {
    parser = await import('./parser.js');
  } catch (e) {
    throw parserMissing(e);
  }
  return { ...args, files: await parser.parseSources(files) };
}

/** A Mnemo store. Every method returns a promise; arguments and results are plain objects. */
export class Mnemo {
  #t;
  #embed;
  #extract;
  #summarise;
  #judge;
  #agent;
  #llmInstructions;
  #kept;

  constructor(transport, { embed, extract, summarise, judge, agent }, kept) {
    this.#t = transport;
    this.#embed = embed;
    this.#extract = extract;
    this.#summarise = summarise;
    this.#judge = judge;
    this.#agent = agent;
    this.#kept = kept;
  }

  /** Where the store is kept: the storage asked for, or the one it fell back to. */
  get storage() {
    return this.#kept.storage;
  }

  /** Why the store is not kept where asked (OPFS unavailable): `{from, to, reason}`, or undefined. */
  get fallback() {
    return this.#kept.fallback;
  }

  /**
   * Opens (creating if needed) a store: `{name, storage: 'opfs' | 'idb' | 'memory', embed?,
   * extract?, summarise?, judge?, agent?, now?, seed?, config?, worker?, share?}`. With `agent`, every
   * call that names an agent is made for that one: it sees its own memories, `global` ones and
   * those of its teams, and changes only its own. When another tab holds the store, this
   * tab is served through it (unless `share: false`, which rejects with `store_locked`).
   */
  static async open(options = {}) {
    const { rest, ...host } = hostOptions(options);
    const { fallback = true, ...open } = rest;
    const storage = open.storage ?? 'memory';
    try {
      return new Mnemo(await connect(open, undefined), host, { storage });
    } catch (e) {
      // Where OPFS cannot be used (a browser without sync access handles, Firefox's private
      // mode, no dedicated worker), the store is kept in IndexedDB, else in memory, and says so.
      if (!(fallback && storage === 'opfs' && e.code === 'storage_unavailable')) throw e;
      const to = typeof indexedDB !== 'undefined' ? 'idb' : 'memory';
      const kept = { storage: to, fallback: { from: 'opfs', to, reason: e.message } };
      console.warn(
        `mnemo: OPFS is not available here, so store ${JSON.stringify(open.name ?? 'mnemo')} is kept in ` +
          `${to === 'idb' ? 'IndexedDB' : 'memory only (gone after a reload)'} (${e.message})`,
      );
      return new Mnemo(await connect({ ...open, storage: to }, undefined), host, kept);
    }
  }

  /**
   * Opens a store from a SQLite image (`exportBytes`, or a native server's `mnemo.db`): a
   * memory store by default; with `storage: 'opfs' | 'idb'`, a new persistent store `name`
   * made from it (rejects with `store_exists` when that name already holds one).
   */
  static async fromBytes(bytes, options = {}) {
    if (!(bytes instanceof Uint8Array)) throw coded('invalid bytes: expected a Uint8Array', 'invalid_input');
    const { rest, ...host } = hostOptions(options);
    // A restore is made where it is asked or not at all: `fallback` is `open`'s alone.
    const { fallback: _, ...open } = rest;
    return new Mnemo(await connect({ storage: 'memory', ...open }, bytes), host, { storage: open.storage ?? 'memory' });
  }

  /** Embeds `texts` with the host embedder, checking what it returns. */
  async #vectors(texts) {
    let vectors;
    try {
      vectors = await this.#embed.embed(texts);
    } catch (e) {
      throw coded(`embedder failed: ${e?.message ?? e}`, 'embedder_error');
    }
    if (!Array.isArray(vectors) || vectors.length !== texts.length) {
      throw coded(`embedder failed: expected ${texts.length} vectors, got ${vectors?.length}`, 'embedder_error');
    }
    return vectors.map((v) => Array.from(v));
  }

  /** Runs an engine call by its snake_case name, after host extraction and embedding. */
  async call(method, args = {}) {
    if (typeof method !== 'string') throw coded('invalid method: expected a string', 'invalid_input');
    let handed;
    if (args !== null && typeof args === 'object' && !Array.isArray(args)) {
      args = await this.#prepare(method, this.#forAgent(method, args));
      if (method === 'ingest_code') args = await readTexts(args);
      // A search given its vector embeds nothing: no round trip to ask.
      if (ASKED_FIRST.has(method) && this.#embed && args.vector == null) handed = await this.#handed(method, args);
      else if (method === 'seed' && this.#embed) handed = this.#handOver(args);
    }
    const answer = await this.#t.request('call', handed ? { method, args, handed } : { method, args });
    if (this.#summarise && (method === 'consolidate' || method === 'maintain')) {
      await this.#summariseMerges(answer);
      await this.#summariseDocuments(answer);
      await this.#summariseCards(answer);
    }
    if (this.#judge && (method === 'consolidate' || method === 'maintain')) await this.#judgeBridges(answer);
    return answer;
  }

  /**
   * Moves the vectors of a `seed`'s items out of its arguments into one `Float32Array` handed
   * with the call (the engine takes each item's vector by its content): a thousand items'
   * vectors are then not written as JSON text and parsed back. A vector the engine should
   * refuse (not a list of the model's length of finite numbers), or one for a content already
   * handed with another vector, stays in its item, where the engine checks it as before.
   */
  #handOver(args) {
    const dim = this.#embed.dimension;
    const items = Array.isArray(args.items) ? args.items : [];
    const at = new Map();
    const moved = [];
    const texts = [];
    // Each vector is copied in as it is checked: element by element (`Float32Array#set` from
    // a list of numbers is several times slower).
    const vectors = new Float32Array(items.length * dim);
    for (const item of items) {
      const v = item?.vector;
      const text = item?.content;
      if (typeof text !== 'string' || !(Array.isArray(v) || ArrayBuffer.isView(v)) || v.length !== dim) continue;
      const seen = at.get(text);
      if (seen !== undefined) {
        if (!sameVector(moved[seen], v)) continue;
      } else {
        const start = moved.length * dim;
        let finite = true;
        for (let i = 0; i < dim && finite; i++) {
          const x = v[i];
          finite = typeof x === 'number' && Number.isFinite(x);
          vectors[start + i] = x;
        }
        if (!finite) continue;
        at.set(text, moved.length);
        moved.push(v);
        texts.push(text);
      }
      delete item.vector;
    }
    if (!moved.length) return undefined;
    return { texts, vectors: vectors.slice(0, moved.length * dim) };
  }

  /**
   * The texts the engine makes itself for an `ingest` or a `search` (a document's passages and
   * the sentences its summaries are chosen from; a question with who the relations it names
   * are in place, then as asked), embedded by the host embedding model: handed to the store
   * with the call. Arguments the call refuses hand nothing, so it answers with its own error.
   */
  async #handed(method, args) {
    let texts;
    try {
      // Each once: a sentence in the overlap of two passages is listed twice.
      texts = [...new Set(await this.#t.request('embedTexts', { method, args }))];
    } catch {
      return undefined;
    }
    if (!texts.length) return undefined;
    const dim = this.#embed.dimension;
    const vectors = new Float32Array(texts.length * dim);
    for (let start = 0; start < texts.length; start += EMBED_BATCH) {
      const batch = await this.#vectors(texts.slice(start, start + EMBED_BATCH));
      batch.forEach((v, i) => {
        if (v.length !== dim) {
          throw coded(`embedder failed: the vector of text ${start + i} has ${v.length} dimensions, not ${dim}`, 'embedder_error');
        }
        vectors.set(v, (start + i) * dim);
      });
    }
    return { texts, vectors };
  }

  /**
   * The host summariser's text for each cluster consolidation merged without one, written as
   * the merged memory's content (`update`: checked, and embedded again). A summariser that
   * throws or answers something the engine refuses leaves the merged sentences, counted in
   * `unsummarised` with the reason in `summary_failure`; one that answers `null` declines (it
   * has no LLM to ask now) and leaves them, as the engine does without an LLM.
   */
  async #summariseMerges(report) {
    const clusters = report?.consolidation?.clusters;
    for (const merge of clusters?.merges ?? []) {
      if (merge.summarised) continue;
      try {
        const content = await this.#summarise(merge.texts.slice(), { entity_id: merge.entity_id, id: merge.id });
        if (content === null || content === undefined) continue;
        if (typeof content !== 'string') throw coded(`expected the summary as text, got ${typeof content}`, 'extractor_error');
        await this.call('update', { entity_id: merge.entity_id, id: merge.id, patch: { content } });
        merge.summarised = true;
        clusters.summarised += 1;
      } catch (e) {
        clusters.unsummarised += 1;
        clusters.summary_failure = `summarise failed: ${e?.message ?? e}`;
      }
    }
  }

  /**
   * The host summariser's summary of each document passage and document the consolidation
   * lists as `wanted` (it had no LLM to ask), written with `write_summary`, which checks it;
   * counted in the report's `passages` and `documents`. One that fails (the summariser throws,
   * or the engine refuses its answer) leaves the engine's summary, its reason in `failure`; one
   * the summariser declines (`null`) leaves it too, and stays wanted.
   */
  async #summariseDocuments(report) {
    const summaries = report?.consolidation?.summaries;
    for (const want of summaries?.wanted ?? []) {
      const { entity_id, document_id, position, title, section } = want;
      try {
        const summary = await this.#summarise(want.texts.slice(), { entity_id, document_id, position, title, section: section.slice() });
        if (summary === null || summary === undefined) continue;
        if (typeof summary !== 'string') throw coded(`expected the summary as text, got ${typeof summary}`, 'extractor_error');
        await this.call('write_summary', position === null ? { entity_id, document_id, summary } : { entity_id, document_id, position, summary });
        if (position === null) summaries.documents += 1;
        else summaries.passages += 1;
      } catch (e) {
        summaries.failure = `summarise failed: ${e?.message ?? e}`;
      }
    }
  }

  /**
   * The host summariser's summary of each peer card the consolidation lists as `wanted` (the
   * card laid out a line each: name and type, other names, relationships, facts), written with
   * `write_card_summary`, which checks it; counted in the report's `written`. One that fails
   * leaves the engine's summary, its reason in `failure`; one declined (`null`) stays wanted.
   */
  async #summariseCards(report) {
    const cards = report?.consolidation?.cards;
    for (const want of cards?.wanted ?? []) {
      const { entity_id, name } = want;
      try {
        const summary = await this.#summarise(want.texts.slice(), { entity_id, card: name });
        if (summary === null || summary === undefined) continue;
        if (typeof summary !== 'string') throw coded(`expected the summary as text, got ${typeof summary}`, 'extractor_error');
        await this.call('write_card_summary', { entity_id, name, summary });
        cards.written += 1;
      } catch (e) {
        cards.failure = `summarise failed: ${e?.message ?? e}`;
      }
    }
  }

  /**
   * The host judge's decision on each bridge the consolidation lists as `wanted` (two
   * entities named together in different conversations, and the memories that name both),
   * written with `decide_bridge`, which checks it; counted in the report's `confirmed` or
   * `rejected`. One that fails or is refused leaves the bridge proposed, its reason in
   * `failure`; one declined (`null`) stays wanted.
   */
  async #judgeBridges(report) {
    const synthesis = report?.consolidation?.synthesis;
    for (const want of synthesis?.wanted ?? []) {
      const { entity_id, id, a, b } = want;
      try {
        const verdict = await this.#judge({ entity_id, id, a, b, texts: want.texts.slice() });
        if (verdict === null || verdict === undefined) continue;
        if (typeof verdict !== 'object' || Array.isArray(verdict)) {
          throw coded(`expected a decision {related, relation, reason}, got ${Array.isArray(verdict) ? 'a list' : typeof verdict}`, 'extractor_error');
        }
        const { related, relation, reason } = verdict;
        await this.call('decide_bridge', relation === undefined ? { entity_id, id, related, reason } : { entity_id, id, related, relation, reason });
        if (related) synthesis.confirmed += 1;
        else synthesis.rejected += 1;
      } catch (e) {
        synthesis.failure = `judge failed: ${e?.message ?? e}`;
      }
    }
  }

  /**
   * Ingests a `File` or `Blob` of UTF-8 text (plain text, markdown or HTML, told by its type or
   * name): `args` are `ingest`'s other arguments (`entity_id`, `title`, `tags`, …), the file's
   * name and type its `filename` and `mime` unless given. A file too large, binary or not
   * UTF-8 is refused before it is read whole.
   */
  async ingestFile(file, args = {}) {
    if (typeof Blob === 'undefined' || !(file instanceof Blob)) {
      throw coded('invalid file: expected a File or Blob', 'invalid_input');
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      throw coded('invalid args: expected an object of `ingest` arguments', 'invalid_input');
    }
    const shown = typeof file.name === 'string' && file.name ? JSON.stringify(file.name) : 'the blob';
    if (file.size > MAX_DOCUMENT_BYTES) {
      throw coded(`invalid file: ${shown} is ${file.size} bytes; a document is at most 10,000,000 characters: split it`, 'invalid_input');
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const binary = `invalid file: ${shown} is not text (PDF, Word and other binary files: give their text)`;
    if (bytes.includes(0)) throw coded(`${binary}: it holds NUL bytes`, 'invalid_input');
    let content;
    try {
      content = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      throw coded(`${binary}: it is not UTF-8`, 'invalid_input');
    }
    const named = {};
    if (typeof file.name === 'string' && file.name) named.filename = file.name;
    if (file.type) named.mime = file.type;
    return this.call('ingest', { ...named, ...args, content });
  }

  /** The extraction instructions (with their JSON schema) to send an LLM, from the engine. */
  async #instructions() {
    this.#llmInstructions ??= await this.#t.request('call', { method: 'llm_instructions', args: {} });
    return this.#llmInstructions;
  }

  /**
   * `args` with this handle's agent where the call names one (a copy; another agent refused);
   * the owner's calls (teams, imports, maintenance) refused.
   */
  #forAgent(method, args) {
    const call = BY_METHOD.get(method);
    if (this.#agent !== undefined && call?.owner) {
      throw coded(`invalid method: ${method} is the owner's, and this store was opened for agent ${JSON.stringify(this.#agent)}; open it without \`agent\` to call it`, 'invalid_input');
    }
    const paths = call?.agents ?? [];
    if (this.#agent === undefined || !paths.length) return args;
    args = plain(args);
    for (const path of paths) {
      for (const o of objectsAt(args, path)) {
        if (o.agent_id === undefined) o.agent_id = this.#agent;
        else if (o.agent_id !== this.#agent) {
          throw coded(`invalid agent_id: this store was opened for agent ${JSON.stringify(this.#agent)} only`, 'invalid_input');
        }
      }
    }
    return args;
  }

  async #prepare(method, args) {
    const extracting = method === 'remember' && args.extracted === undefined && args.llm_output === undefined && (this.#extract || this.#embed);
    // Only arguments the host writes into are copied (the caller's objects stay as they were).
    if (!extracting && !this.#embed) return args;
    args = copyEmbedded(method, args);
    if (extracting && args.messages !== undefined) {
      throw coded('invalid messages: with a host extractor or embedder, give the conversation as content ("User: …" / "Assistant: …" lines)', 'invalid_input');
    }
    if (extracting) {
      const extracted = this.#extract
        ? await this.#extract(args.content, { entity_id: args.entity_id, instructions: await this.#instructions() })
        : await this.#t.request('call', { method: 'extract', args: { content: args.content } });
      // An LLM's raw answer: the engine checks it, and falls back to its own extractor.
      if (typeof extracted === 'string') {
        if (this.#embed) {
          throw coded('an extractor that answers text needs the built-in embedder; with your own embedder, return parsed memories', 'extractor_error');
        }
        return { ...args, llm_output: extracted };
      }
      if (!Array.isArray(extracted)) throw coded('extractor failed: expected an array of memories or an LLM answer (text)', 'extractor_error');
      args = { ...args, extracted: plain(extracted) };
    }
    if (this.#embed) await this.#embedInto(method, args);
    return args;
  }

  /**
   * Gives every object of `args` that the call's declaration marks (`embeds`) its vector from
   * the host embedder, when it has text and no vector yet: one `embed` for the whole call.
   */
  async #embedInto(method, args) {
    if (ASKED_FIRST.has(method)) return;
    const missing = [];
    for (const { path, text, vector } of BY_METHOD.get(method)?.embeds ?? []) {
      for (const o of objectsAt(args, path)) {
        if (o[vector] === undefined && typeof o[text] === 'string' && o[text].trim()) missing.push([o, text, vector]);
      }
    }
    if (!missing.length) return;
    const vectors = await this.#vectors(missing.map(([o, text]) => o[text]));
    missing.forEach(([o, , vector], i) => (o[vector] = vectors[i]));
  }

  /**
   * `embed` with its vectors in one `Float32Array` (`{model, dimension, vectors}`; text `i`'s
   * vector is `vectors.subarray(i * dimension, (i + 1) * dimension)`): the same vectors, with
   * no text made of them, for a page that embeds many texts.
   */
  embedVectors(args) {
    return this.#t.request('embedVectors', args);
  }

  /** The whole store as a SQLite image (`Uint8Array`), for `Mnemo.fromBytes` or any SQLite tool. */
  exportBytes() {
    return this.#t.request('exportBytes');
  }

  /** Moves the clock of a store opened with a fixed `now` (tests, replays). */
  setNow(ms) {
    return this.#t.request('setNow', ms);
  }

  /** Writes what is pending, closes the store and stops its worker. */
  async close() {
    try {
      await this.#t.request('close');
    } finally {
      this.#t.terminate();
    }
  }
}

// One method per declared call; a few take their one argument directly (`seed(items)`).
for (const { method, name, unwrap } of CALLS) {
  if (Object.hasOwn(Mnemo.prototype, name)) continue;
  Object.defineProperty(Mnemo.prototype, name, {
    value(args) {
      return this.call(method, unwrap ? { [unwrap]: args } : args);
    },
    writable: true,
    configurable: true,
  });
}

export default Mnemo;
