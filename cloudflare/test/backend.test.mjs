// Why the engine brings its own SQLite into the Durable Object instead of running its SQL on the
// object's SQLite: measured in the runtime itself. The object's SQLite refuses what the engine's
// store is built on — savepoints (every call and every group commit is one), PRAGMAs (foreign
// keys, temp store, page cache) and FTS5's `fts5()` API function, through which the engine
// registers its ranking function `mnemo_bm25`. The object's storage keeps the engine's pages
// instead (cloudflare/src/index.js), and the answers stay the same bits on every target.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Miniflare } from 'miniflare';
import { compatibilityDate } from './runtime.mjs';

const PROBE = `
import { DurableObject } from 'cloudflare:workers';
export class Probe extends DurableObject {
  fetch() {
    const sql = this.ctx.storage.sql;
    const tryit = (f) => { try { f(); return 'ok'; } catch (e) { return e.message; } };
    return Response.json({
      savepoint: tryit(() => sql.exec('SAVEPOINT a')),
      pragma: tryit(() => sql.exec('PRAGMA temp_store = MEMORY')),
      fts5_api: tryit(() => sql.exec('SELECT fts5(?1)', null)),
      fts5_table: tryit(() => sql.exec('CREATE VIRTUAL TABLE t USING fts5(x)')),
      page_blob: tryit(() => { sql.exec('CREATE TABLE p (page INTEGER PRIMARY KEY, bytes BLOB)'); sql.exec('INSERT INTO p VALUES (0, ?)', new Uint8Array(4096).buffer); }),
    });
  }
}
export default { fetch: (request, env) => env.PROBE.get(env.PROBE.idFromName('probe')).fetch(request) };
`;

test("a Durable Object's own SQLite refuses what the engine's store needs; pages it keeps", async () => {
  const mf = new Miniflare({
    modules: true,
    script: PROBE,
    compatibilityDate,
    durableObjects: { PROBE: { className: 'Probe', useSQLite: true } },
  });
  try {
    const got = await (await mf.dispatchFetch('http://probe/')).json();
    assert.match(got.savepoint, /transactionSync/);
    assert.match(got.pragma, /not authorized/);
    assert.match(got.fts5_api, /not authorized to use function: fts5/);
    assert.equal(got.fts5_table, 'ok');
    assert.equal(got.page_blob, 'ok');
  } finally {
    await mf.dispose();
  }
});
