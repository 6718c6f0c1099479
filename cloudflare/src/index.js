// Mnemo on Cloudflare: a Worker that serves Mnemo's HTTP API (the routes of `mnemo serve`,
// under /api/v1) and keeps each owner's memories in their own SQLite-backed Durable Object.
//
// The Worker checks the bearer token (the MNEMO_TOKEN secret) and forwards the request to its
// owner's object. The object runs the engine (the same WebAssembly as the browser package) on
// SQLite pages it keeps in its own storage, one row per page. Everything else — the health
// answer, which paths exist, the body limit, which owner a request concerns, every error and
// its status, the routes themselves — is the engine's HTTP pipeline (`mnemo-http`, reached
// through `Mnemo.http*`), the same as `mnemo serve`'s, so both servers answer alike.

import { DurableObject } from 'cloudflare:workers';
import wasm from '../pkg/mnemo_wasm_bg.wasm';
import weights from '../pkg/mnemo-static-v1.bin';
import schema from '../../www/src/schema.json';
import { initSync, Mnemo } from '../pkg/mnemo_wasm.js';

/**
 * Headers for tests (honoured only when the MNEMO_TEST_HOOKS variable is "1"): the options a
 * fresh object opens its store with (`{now, seed, config}`), the clock before this request, and
 * the object to use whatever owners the request names (a conformance scenario's several owners
 * in one store).
 */
const TEST_HOOKS = ['x-mnemo-open', 'x-mnemo-now', 'x-mnemo-object'];
/**
 * How long an object keeps its engine open after its last request (the MNEMO_IDLE_MS variable
 * changes it). Then it writes what searches recorded (accesses, co-recalls) and closes the
 * engine, so the memory of an isolate goes to the owners active now.
 */
const IDLE_MS = 30_000;
/** Time between an object's maintenance passes (decay, lifecycle, consolidation). */
const MAINTAIN_EVERY_MS = 6 * 60 * 60 * 1000;

let loaded = false;

/** Instantiates the engine once per isolate (every object of this isolate shares it). */
function load() {
  if (loaded) return;
  initSync({ module: wasm });
  Mnemo.loadModel(new Uint8Array(weights));
  Mnemo.loadSchema(schema);
  loaded = true;
}

/** A reply of the engine's HTTP pipeline, `{status, body}`, as a Response. */
function send({ status, body }) {
  return new Response(body, { status, headers: { 'content-type': 'application/json' } });
}

/** Whether the request carries the bearer token (compared in constant time, as digests). */
async function authorised(request, token) {
  const header = request.headers.get('authorization') ?? '';
  if (!header.startsWith('Bearer ')) return false;
  const digest = (s) => crypto.subtle.digest('SHA-256', new TextEncoder().encode(s));
  const [given, wanted] = await Promise.all([digest(header.slice(7).trim()), digest(token)]);
  return crypto.subtle.timingSafeEqual(given, wanted);
}

export default {
  /** The Worker: what is answered before the token, the token, then the owner's object. */
  async fetch(request, env) {
    load();
    const url = new URL(request.url);
    const early = Mnemo.httpGate(request.method, url.pathname);
    if (early) return send(early);
    if (!env.MNEMO_TOKEN) {
      return send(Mnemo.httpError('not_configured', 'MNEMO_TOKEN is not set: run `wrangler secret put MNEMO_TOKEN`'));
    }
    if (!(await authorised(request, env.MNEMO_TOKEN))) return send(Mnemo.httpUnauthorized());
    const tooLarge = Mnemo.httpCheckLength(url.pathname, request.headers.get('content-length'));
    if (tooLarge) return send(tooLarge);
    const body = new Uint8Array(await request.arrayBuffer());
    const store = request.headers.get('x-mnemo-object');
    const found = Mnemo.httpOwner(request.method, url.pathname, url.search.slice(1), request.headers, body, store);
    if (found.owner === undefined) return send(found);
    const hooks = TEST_HOOKS.filter((h) => request.headers.has(h));
    if (hooks.length && env.MNEMO_TEST_HOOKS !== '1') {
      return send(Mnemo.httpError('invalid_input', `${hooks.join(', ')}: test hooks, off in this deployment`));
    }
    const stub = env.MNEMO_OWNERS.get(env.MNEMO_OWNERS.idFromName(store ?? found.owner));
    // The object holds this owner only, so it needs no owner beyond what the request says.
    const headers = new Headers();
    for (const h of hooks) headers.set(h, request.headers.get(h));
    return stub.fetch(new Request(url, { method: request.method, headers, body: body.length ? body : undefined }));
  },
};

/**
 * One owner's memories: the engine on SQLite pages kept in this object's storage. Every request
 * runs in one storage transaction, so its writes are durable together (the runtime answers only
 * once they are) or not at all.
 */
export class MnemoOwner extends DurableObject {
  #store = null;
  #failed = null;
  #last = 0;

  constructor(ctx, env) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    sql.exec('CREATE TABLE IF NOT EXISTS mnemo_pages (page INTEGER PRIMARY KEY, bytes BLOB NOT NULL)');
    // The page store the engine's SQLite reads and writes (see wasm/src/pages.rs).
    const failing = (what, f) => (...args) => {
      try {
        return f(...args);
      } catch (e) {
        this.#failed ??= new Error(`${what}: ${e.message}`);
        throw e;
      }
    };
    // Pages read and written by the current request (answered as headers: the storage's
    // billed rows read and written, one per page).
    this.io = { read: 0, written: 0 };
    this.pages = {
      read: failing('read', (page) => {
        this.io.read++;
        const row = sql.exec('SELECT bytes FROM mnemo_pages WHERE page = ?', page).toArray()[0];
        return row ? new Uint8Array(row.bytes) : undefined;
      }),
      write: failing('write', (page, bytes) => {
        this.io.written++;
        sql.exec('INSERT OR REPLACE INTO mnemo_pages (page, bytes) VALUES (?, ?)', page, bytes.slice().buffer);
      }),
      pages: failing('pages', () => {
        const row = sql.exec('SELECT max(page) AS last FROM mnemo_pages').toArray()[0];
        return row?.last === null || row?.last === undefined ? 0 : row.last + 1;
      }),
      truncate: failing('truncate', (pages) => {
        sql.exec('DELETE FROM mnemo_pages WHERE page >= ?', pages);
      }),
    };
  }

  /** The engine on this object's pages, opened at the first request. */
  #engine(openHeader) {
    if (!this.#store) {
      load();
      this.#store = Mnemo.openOnPages(this.pages, openHeader ?? '{}');
    }
    return this.#store;
  }

  /**
   * Closes the engine: when idle (after a flush), or after a storage failure, when its memory
   * may be ahead of the rolled-back pages. The next request opens it again.
   */
  #reset() {
    try {
      this.#store?.free();
    } catch {
      // already unusable
    }
    this.#store = null;
  }

  /** Runs `f` on the engine in one storage transaction; a storage failure undoes it whole. */
  #run(open, f) {
    this.#failed = null;
    try {
      return this.ctx.storage.transactionSync(() => {
        const value = f(this.#engine(open));
        if (this.#failed) throw this.#failed;
        return value;
      });
    } catch (e) {
      if (!this.#failed) throw e; // the engine refused: it changed nothing
      this.#reset();
      throw Object.assign(new Error(`storage failed, nothing was kept: ${this.#failed.message}`), { code: 'storage_error' });
    }
  }

  async fetch(request) {
    const url = new URL(request.url);
    const body = new Uint8Array(await request.arrayBuffer());
    const now = request.headers.get('x-mnemo-now');
    this.io = { read: 0, written: 0 };
    let reply;
    try {
      reply = this.#run(request.headers.get('x-mnemo-open'), (store) => {
        if (now !== null) store.setNow(Number(now));
        return store.http(request.method, url.pathname, url.search.slice(1), body);
      });
    } catch (e) {
      return send(Mnemo.httpError(String(e?.code ?? 'internal'), String(e?.message ?? e)));
    }
    this.#last = Date.now();
    await this.#schedule(this.#idle());
    const response = send(reply);
    response.headers.set('x-mnemo-pages-read', String(this.io.read));
    response.headers.set('x-mnemo-pages-written', String(this.io.written));
    response.headers.set('x-mnemo-store-bytes', String(this.pages.pages() * Mnemo.pageBytes()));
    return response;
  }

  #idle() {
    const ms = Number(this.env.MNEMO_IDLE_MS ?? IDLE_MS);
    return Number.isFinite(ms) && ms >= 0 ? ms : IDLE_MS;
  }

  /** Arms the alarm `after` ms from now unless it is set already. */
  async #schedule(after) {
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + after);
  }

  /**
   * Rings after requests: maintains the store (decay, lifecycle, consolidation) when
   * MAINTAIN_EVERY_MS has passed, and once the object is idle writes what searches recorded
   * and closes the engine. An owner without requests is never woken.
   */
  async alarm() {
    let due = await this.ctx.storage.get('maintain_at');
    if (due === undefined) {
      // A new store: its first maintenance is due a period from now.
      due = Date.now() + MAINTAIN_EVERY_MS;
      await this.ctx.storage.put('maintain_at', due);
    }
    const maintain = Date.now() >= due;
    const idle = Date.now() - this.#last >= this.#idle();
    if (maintain || (idle && this.#store)) {
      this.#run(null, (store) => {
        store.flush();
        if (maintain) store.call('maintain', '{}');
      });
    }
    if (maintain) await this.ctx.storage.put('maintain_at', Date.now() + MAINTAIN_EVERY_MS);
    if (idle) this.#reset();
    else await this.ctx.storage.setAlarm(this.#last + this.#idle());
  }
}
