// Runs a store in the current thread: loads the WebAssembly once, takes the store's lock,
// opens it on its storage, and runs calls one at a time. The worker (browsers) and the
// in-process transport (Node, edge runtimes) both use this file.

import init, { Mnemo as Core } from '../pkg/mnemo_wasm.js';
import { CALLS } from './calls.js';
import * as idb from './idb.js';
import { coded, instantiate, readFileUrl } from './wasm.js';

export { coded };

let ready;

/** Loads and instantiates the WebAssembly module (once per thread). */
export function loadWasm() {
  ready ??= instantiate(init, new URL('../pkg/mnemo_wasm_bg.wasm', import.meta.url));
  return ready;
}

/** The default embedder's weights file, shipped beside the WebAssembly. */
export const MODEL_FILE = 'mnemo-static-v1.bin';
/**
 * Where the weights are, by default: a literal `new URL(…, import.meta.url)`, which bundlers
 * (Vite, webpack, Parcel, Next.js) recognise, so they emit the file with the app.
 */
const defaultWeights = () => new URL('../pkg/mnemo-static-v1.bin', import.meta.url);
/** The Cache API cache that keeps it after the first download. */
const MODEL_CACHE = 'mnemo-models';

let model;

/**
 * Gives the engine the default embedder's weights (once per thread): `source` is their bytes,
 * a URL, or nothing for the file beside the WebAssembly. Browsers keep the download in the
 * Cache API, so later visits and workers read it without the network.
 */
export function loadModel(source) {
  if (source !== undefined && !(source instanceof Uint8Array) && typeof source !== 'string' && !(source instanceof URL)) {
    return Promise.reject(coded('invalid weights: expected a Uint8Array or a URL', 'invalid_input'));
  }
  model ??= (async () => {
    if (source instanceof Uint8Array) {
      await loadWasm();
      return Core.loadModel(source);
    }
    await fetchModel(source === undefined ? defaultWeights() : new URL(source));
  })();
  // A failed load is not kept: the next store may try again (the network may be back).
  model.catch(() => (model = undefined));
  return model;
}

/**
 * Loads the weights at `url` into the engine, reading them while the WebAssembly compiles.
 * Browsers keep a download the engine accepted in the Cache API (never a page a server
 * answered in its place); a kept copy the engine refuses is dropped and fetched again.
 */
async function fetchModel(url) {
  if (url.protocol === 'file:') {
    const [bytes] = await Promise.all([readFileUrl(url), loadWasm()]);
    return load(url, new Uint8Array(bytes), '');
  }
  const cache = await globalThis.caches?.open(MODEL_CACHE).catch(() => undefined);
  const read = async () => {
    const kept = await cache?.match(url);
    return kept ? { kept: true, bytes: new Uint8Array(await kept.arrayBuffer()), type: '' } : download(url);
  };
  let [got] = await Promise.all([read(), loadWasm()]);
  if (got.kept) {
    try {
      return Core.loadModel(got.bytes);
    } catch {
      await cache.delete(url).catch(() => {});
      got = await download(url);
    }
  }
  load(url, got.bytes, got.type);
  await cache?.put(url, new Response(got.bytes, { headers: { 'content-type': 'application/octet-stream' } })).catch(() => {});
}

/** The bytes at `url` from the network, and the type the server gave them. */
async function download(url) {
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw coded(`cannot load the embedder's weights from ${url}: ${e?.message ?? e}`, 'embedder_error');
  }
  if (!response.ok) {
    throw coded(`cannot load the embedder's weights from ${url}: HTTP ${response.status}${HOSTING}`, 'embedder_error');
  }
  return { kept: false, bytes: new Uint8Array(await response.arrayBuffer()), type: response.headers.get('content-type') ?? '' };
}

/** What to do when the weights are not where the package looks for them. */
const HOSTING = `; serve ${MODEL_FILE} (in the package's pkg/) at that URL — a bundler that does not emit \`new URL(…, import.meta.url)\` assets needs it copied — or pass \`weights\` (a URL or the bytes) to Mnemo.open`;

/** Gives `bytes` fetched from `url` to the engine, saying what was fetched instead when it refuses them. */
function load(url, bytes, type) {
  try {
    Core.loadModel(bytes);
  } catch (e) {
    const got = /html/i.test(type) || /^\s*<(!doctype|html)/i.test(new TextDecoder().decode(bytes.subarray(0, 64)))
      ? `an HTML page (${bytes.length} bytes), not the weights: the file was not deployed and the server answered with a page instead`
      : `${bytes.length} bytes the engine refuses (${e?.message ?? e})`;
    throw coded(`cannot load the embedder's weights from ${url}: it gave ${got}${HOSTING}`, 'embedder_error');
  }
}

const STORAGES = ['memory', 'opfs', 'idb'];

/** Fields that hold vectors, as the engine's call declarations name them. */
const VECTOR_FIELDS = new Set(CALLS.flatMap((c) => c.embeds.map((e) => e.vector)));

/**
 * Finds the NaN or infinity JSON would have turned into null, and names it. A list's elements
 * are looked at in a plain loop, its path written only for the one refused (a vector is
 * hundreds of numbers, a seed thousands of vectors).
 */
function rejectNonFinite(value, path, key) {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return;
    const element = path.match(/\[(\d+)\]$/);
    if (element && VECTOR_FIELDS.has(key)) {
      throw coded(`vector element ${element[1]} is ${value}; vectors must be finite`, 'non_finite_vector');
    }
    throw coded(`invalid ${path}: ${value} is not a finite number`, 'invalid_input');
  }
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if ((typeof v === 'number' && !Number.isFinite(v)) || (v && typeof v === 'object')) rejectNonFinite(v, `${path}[${i}]`, key);
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) rejectNonFinite(v, path === 'args' && !k ? path : `${path}.${k}`, k);
  }
}

/** What `scan` found: a typed array (`TYPED`), a number JSON cannot hold (`NON_FINITE`). */
const TYPED = 1;
const NON_FINITE = 2;
/** How deep `scan` looks: deeper than the engine reads (serde_json stops at 128). */
const DEPTH = 160;

/**
 * One walk over `value` for what JSON.stringify alone would get wrong: typed arrays (written
 * as objects) and NaN or infinities (written as null). No paths are built: a seed's thousand
 * items are looked through in a few loops, and `rejectNonFinite` names the culprit only when
 * there is one. Below `DEPTH` it stops looking: JSON.stringify then names a cycle, and the
 * engine refuses nesting that deep.
 */
function scan(value, depth = 0) {
  if (typeof value === 'number') return Number.isFinite(value) ? 0 : NON_FINITE;
  if (!value || typeof value !== 'object' || depth > DEPTH) return 0;
  if (ArrayBuffer.isView(value)) {
    for (let i = 0; i < value.length; i++) if (!Number.isFinite(value[i])) return TYPED | NON_FINITE;
    return TYPED;
  }
  let found = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (typeof v === 'number') {
        if (!Number.isFinite(v)) found |= NON_FINITE;
      } else if (v && typeof v === 'object') found |= scan(v, depth + 1);
    }
    return found;
  }
  for (const k in value) {
    const v = value[k];
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) found |= NON_FINITE;
    } else if (v && typeof v === 'object') found |= scan(v, depth + 1);
  }
  return found;
}

/** Writes typed arrays as arrays; called only when there are some (a replacer sees every value). */
const typedAsArrays = (_, v) => (ArrayBuffer.isView(v) ? Array.from(v) : v);

/** The JSON text the engine parses: plain data (typed arrays as arrays), finite numbers. */
export function toJson(args, field = 'args') {
  let text;
  let found;
  try {
    const value = args ?? {};
    found = scan(value);
    text = found & TYPED ? JSON.stringify(value, typedAsArrays) : JSON.stringify(value);
  } catch (e) {
    throw coded(`invalid ${field}: ${e.message}`, 'invalid_input');
  }
  if (text === undefined) throw coded(`invalid ${field}: expected an object`, 'invalid_input');
  if (found & NON_FINITE) rejectNonFinite(args, field);
  return text;
}

/**
 * Holds the Web Lock named after a store for as long as this thread lives, so a second tab
 * gets a clear error instead of a second connection. Resolves to a function that lets it go
 * (when the store could not be opened after all), or to null when another holds it.
 */
function takeLock(name) {
  const locks = globalThis.navigator?.locks;
  if (!locks) return Promise.resolve(() => {});
  return new Promise((resolve, reject) => {
    locks
      .request(`mnemo:${name}`, { ifAvailable: true }, (lock) => {
        if (!lock) return resolve(null);
        // Kept until the thread ends (a closed store's worker is terminated), or let go.
        return new Promise((release) => resolve(release));
      })
      .catch(reject);
  });
}

/** A store open in this thread. */
export class Store {
  #core;
  #persist;
  #queue = Promise.resolve();
  #saved = -1;

  constructor(core, persist) {
    this.#core = core;
    this.#persist = persist;
  }

  /** Runs `fn(core)` after every call before it has finished. */
  #serial(fn) {
    const next = this.#queue.then(() => {
      if (!this.#core) throw coded('the store is closed', 'closed');
      return fn(this.#core);
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  /**
   * One engine call; for `idb` stores the image is saved before the promise resolves.
   * `handed` (`{texts, vectors}`: a host embedding model's vectors of texts the engine makes
   * itself, one run of floats per text) is on hand for this call only.
   */
  call(method, args, handed) {
    return this.#serial(async (core) => {
      if (handed) core.handVectors(handed.texts, handed.vectors);
      try {
        const value = JSON.parse(core.call(method, toJson(args)));
        await this.#save(core);
        return value;
      } finally {
        if (handed) core.handVectors([], new Float32Array(0));
      }
    });
  }

  /** `embed`'s answer with its vectors as one `Float32Array` (`Mnemo#embedVectors`). */
  embedVectors(args) {
    return this.#serial((core) => {
      const vectors = core.embedVectors(toJson(args));
      return { ...JSON.parse(core.call('embedding_model', '{}')), vectors };
    });
  }

  /** The texts call `method` embeds for `args` (what a host embedding model embeds first). */
  embedTexts({ method, args }) {
    return this.#serial((core) => core.embedTexts(method, toJson(args)));
  }

  /** Saves an `idb` store's image now. */
  save() {
    return this.#serial(async (core) => {
      await this.#persist?.(core);
      this.#saved = core.changes();
    });
  }

  /** Saves an `idb` store's image when a call wrote to it. */
  async #save(core) {
    if (!this.#persist) return;
    const changes = core.changes();
    if (changes === this.#saved) return;
    await this.#persist(core);
    this.#saved = changes;
  }

  exportBytes() {
    return this.#serial((core) => core.exportBytes());
  }

  setNow(ms) {
    return this.#serial((core) => core.setNow(ms));
  }

  close() {
    return this.#serial(async (core) => {
      core.flush();
      await this.#save(core);
      this.#core = undefined;
      core.free();
      this.#release();
    });
  }

  /** Lets go of the store's lock when it closes (a thread may open it again). */
  holds(release) {
    this.#release = release;
    return this;
  }

  #release = () => {};
}

/** The error of a restore onto a name that already holds a store (nothing is overwritten). */
function restoreOver(name) {
  return coded(
    `store ${JSON.stringify(name)} already exists in IndexedDB: open it with Mnemo.open, or restore under another name`,
    'store_exists',
  );
}

/**
 * Opens a store: `{name, storage, now?, seed?, embedding?, weights?, config?}`; with `bytes` (a SQLite
 * image), a memory store of it, or a new persistent store `name` made from it.
 */
export async function openStore({ bytes, weights, ...options } = {}) {
  const name = options.name ?? 'mnemo';
  const storage = options.storage ?? 'memory';
  if (!STORAGES.includes(storage)) {
    throw coded(
      `unknown storage ${JSON.stringify(storage)}; expected one of: ${STORAGES.join(', ')}`,
      'unknown_value',
    );
  }
  // While the WebAssembly compiles and the weights are read (stores of the host's own
  // vectors need none), the store's lock is taken; once the module is ready, an OPFS store's
  // files are opened while the weights are parsed.
  const loading = Promise.all([loadWasm(), options.embedding ? undefined : loadModel(weights)]);
  const release = storage === 'memory' ? () => {} : await takeLock(name);
  if (!release) {
    loading.catch(() => {});
    throw coded(
      `store ${JSON.stringify(name)} is open in another tab or worker, and a store has one ` +
        `owner at a time: close it there (or use that tab), then open it again here`,
      'store_locked',
    );
  }
  try {
    // A failure here comes again, and is reported, when the store opens.
    if (storage === 'opfs' && bytes === undefined) loadWasm().then(() => Core.prepare(name)).catch(() => {});
    await loading;
    return (await openLocked(name, storage, bytes, options)).holds(release);
  } catch (e) {
    release();
    throw e;
  }
}

/** Opens store `name` on `storage`, its lock held. */
async function openLocked(name, storage, bytes, options) {
  if (bytes !== undefined && !(bytes instanceof Uint8Array)) {
    throw coded('invalid bytes: expected a Uint8Array', 'invalid_input');
  }
  if (bytes !== undefined && storage === 'memory') return new Store(Core.fromBytes(bytes, toJson(options, 'options')));
  if (bytes !== undefined && storage === 'opfs') return new Store(await Core.restore(bytes, toJson(options, 'options')));
  if (storage === 'idb') {
    if (!globalThis.indexedDB) throw coded('this runtime has no IndexedDB; use storage "memory"', 'storage_unavailable');
    const memory = { ...options, storage: 'memory' };
    const saved = await idb.load(name);
    if (bytes !== undefined) {
      if (saved) throw restoreOver(name);
      // Checked and opened in memory first: a refused image saves nothing.
      const store = new Store(Core.fromBytes(bytes, toJson(memory, 'options')), (c) => idb.save(name, c.exportBytes()));
      await store.save();
      return store;
    }
    const core = saved ? Core.fromBytes(saved, toJson(memory, 'options')) : await Core.open(toJson(memory, 'options'));
    const store = new Store(core, (c) => idb.save(name, c.exportBytes()));
    if (!saved) await store.save();
    return store;
  }
  return new Store(await Core.open(toJson(options, 'options')));
}
