// The Cloudflare face in Cloudflare's own runtime (workerd, from npm through miniflare): the
// conformance scenarios give the native core's JSON through the Worker and a Durable Object;
// owners in different objects never see each other; a restarted runtime keeps every
// acknowledged write; bad requests are refused and change nothing; and wrangler bundles the
// deployment that wrangler.toml describes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nativeScenario, scenarioNames } from '../../www/test/helpers.mjs';
import { root, send, start, TOKEN } from './runtime.mjs';

/** A scenario's steps as HTTP calls to one object, in the `{ok}` / `{error}` form of every face. */
async function runScenario(mf, object, scenario) {
  const open = JSON.stringify({ now: scenario.now, seed: scenario.seed, config: scenario.config });
  const out = [];
  for (const step of scenario.steps) {
    const headers = { 'x-mnemo-object': object, 'x-mnemo-open': open };
    if (step.at !== undefined) headers['x-mnemo-now'] = String(step.at);
    const r = await send(mf, 'POST', `/api/v1/call/${step.method}`, { body: step.args ?? {}, headers });
    out.push(r.status === 200 ? { ok: r.body } : { error: { code: r.body.code, message: r.body.error } });
  }
  return out;
}

test('every conformance scenario gives the native core’s JSON, byte for byte, from a Durable Object', async () => {
  const mf = await start();
  try {
    for (const name of scenarioNames()) {
      const { scenario, native } = nativeScenario(name);
      const got = await runScenario(mf, `scenario-${name}`, scenario);
      assert.equal(JSON.stringify(got), JSON.stringify(native), name);
    }
  } finally {
    await mf.dispose();
  }
});

test('owners live in different objects and never see each other', async () => {
  const mf = await start();
  try {
    const ana = await send(mf, 'POST', '/api/v1/remember', { body: { entity_id: 'ana', content: 'My passport number is X1234567 and I live in Porto.' } });
    assert.equal(ana.status, 200, ana.text);
    const id = ana.body.outcomes[0].id;
    // The same words searched by another owner, and as an owner id full of SQL and unicode.
    // Owner ids the engine refuses are refused before they reach (or create) an object.
    for (const other of ['bob', 'ana.', "ana' OR 1=1 --", 'ana\u0000', 'Ána', '李', 'a'.repeat(257)]) {
      const r = await send(mf, 'POST', '/api/v1/search', { body: { entity_id: other, query: 'passport number Porto' } });
      const valid = /^[A-Za-z0-9_:.-]{1,256}$/.test(other);
      assert.equal(r.status, valid ? 200 : 400, `${other}: ${r.text}`);
      if (valid) assert.deepEqual(r.body, [], other);
      else assert.match(r.body.error, /invalid args\.entity_id: /, other);
      const get = await send(mf, 'GET', `/api/v1/memories/${id}?entity_id=${encodeURIComponent(other)}`);
      assert.notEqual(get.status, 200, `${other} read ana's memory: ${get.text}`);
    }
    // By id alone, the owner comes from the header; ana's object has it, bob's does not.
    assert.equal((await send(mf, 'GET', `/api/v1/memories/${id}`, { headers: { 'x-mnemo-owner': 'ana' } })).status, 200);
    assert.equal((await send(mf, 'GET', `/api/v1/memories/${id}`, { headers: { 'x-mnemo-owner': 'bob' } })).status, 404);
    const found = await send(mf, 'POST', '/api/v1/search', { body: { entity_id: 'ana', query: 'passport number Porto' } });
    assert.equal(found.body[0].memory.id, id);
    // Each object's store holds its own owner only.
    const stats = await send(mf, 'GET', '/api/v1/stats/ana');
    assert.equal(stats.status, 200, stats.text);
    const census = async (owner) => {
      const r = await send(mf, 'POST', '/api/v1/call/store_stats', { body: {}, headers: { 'x-mnemo-owner': owner } });
      assert.equal(r.status, 200, r.text);
      return r.body;
    };
    assert.deepEqual((await census('ana')).owners, [{ entity_id: 'ana', total: 1 }]);
    const bob = await census('bob');
    assert.deepEqual(bob.owners, [], JSON.stringify(bob));
    assert.equal(bob.total, 0);
  } finally {
    await mf.dispose();
  }
});

test('agents of one owner see only what they may through the Worker, on every read route', async () => {
  const mf = await start();
  const call = async (method, body) => {
    const r = await send(mf, 'POST', `/api/v1/call/${method}`, { body });
    assert.equal(r.status, 200, `${method}: ${r.text}`);
    return r.body;
  };
  try {
    await call('team_create', { entity_id: 'acme', name: 'Platform', id: 'platform' });
    for (const member_id of ['alice', 'bob']) await call('team_member_add', { entity_id: 'acme', team_id: 'platform', member_id });
    const written = {
      alice_private: { agent_id: 'alice', visibility: 'private', content: 'The vault code is kumquat 4711' },
      alice_team: { agent_id: 'alice', team_id: 'platform', content: 'Deploy the rutabaga release on Friday' },
      alice_global: { agent_id: 'alice', visibility: 'global', content: 'The office is near the quince market' },
      carol_private: { agent_id: 'carol', content: 'Carol is allergic to persimmon' },
      owner_private: { content: 'The salary review settled on kiwano terms' },
    };
    const ids = {};
    for (const [key, item] of Object.entries(written)) {
      const r = await call('seed', { items: [{ entity_id: 'acme', type: 'PLAN', ...item }] });
      ids[key] = r.outcomes[0].id;
    }
    await call('remember', { entity_id: 'acme', agent_id: 'alice', visibility: 'private', content: 'My sister Ana Souza lives in Lisbon.' });
    await call('record_message', { entity_id: 'acme', agent_id: 'alice', role: 'user', content: 'Keep the zucchini plan between us' });
    const words = { alice_private: 'kumquat', alice_team: 'rutabaga', alice_global: 'quince', carol_private: 'persimmon', owner_private: 'kiwano', alice_graph: 'Lisbon', alice_message: 'zucchini' };
    const may = {
      alice: ['alice_private', 'alice_team', 'alice_global', 'alice_graph', 'alice_message'],
      bob: ['alice_team', 'alice_global'],
      carol: ['alice_global', 'carol_private'],
      dave: ['alice_global'],
    };
    let probes = 0;
    const leaks = [];
    for (const [agent, sees] of Object.entries(may)) {
      const q = `entity_id=acme&agent_id=${agent}`;
      const body = (b) => ({ entity_id: 'acme', agent_id: agent, ...b });
      const asked = [
        ['POST', '/api/v1/search', body({ query: 'vault rutabaga quince persimmon kiwano Lisbon', min_score: 0, limit: 50 })],
        ['POST', '/api/v1/heartbeat/check', body({ dry_run: true })],
        ['POST', '/api/v1/heartbeat/context', body({ dry_run: true, query: 'vault rutabaga quince persimmon kiwano' })],
        ['GET', `/api/v1/memories?${q}&limit=1000`],
        ['GET', `/api/v1/memories/sample?${q}&limit=1000`],
        ['GET', `/api/v1/stats?${q}`],
        ['GET', `/api/v1/export?${q}`],
        ['GET', `/api/v1/conflicts?${q}`],
        ['GET', `/api/v1/schedules?${q}&all=true`],
        ['POST', '/api/v1/call/entities', body({})],
        ['POST', '/api/v1/call/relationships', body({})],
        ['POST', '/api/v1/call/messages', body({})],
        ['POST', '/api/v1/call/list', body({ ids: Object.values(ids) })],
        ...Object.entries(ids).flatMap(([key, id]) => [
          ['GET', `/api/v1/memories/${id}?${q}`, undefined, key],
          ['GET', `/api/v1/memories/${id}/history?${q}`, undefined, key],
          ['POST', '/api/v1/call/related', body({ id }), key],
        ]),
      ];
      for (const [method, path, b, asking] of asked) {
        const r = await send(mf, method, path, { body: b });
        assert.ok(r.status === 200 || r.status === 404, `${agent} ${method} ${path}: ${r.status} ${r.text}`);
        for (const [key, word] of Object.entries(words)) {
          probes += 1;
          // A refusal repeats the id it was asked about: that shows nothing.
          const named = r.status === 404 && asking === key;
          const shown = r.text.includes(word) || (!named && ids[key] && r.text.includes(ids[key]));
          if (shown && !sees.includes(key)) leaks.push(`${agent} ${method} ${path} shows ${key}`);
        }
      }
      const listed = await send(mf, 'GET', `/api/v1/memories?${q}&limit=1000`);
      for (const key of sees.filter((k) => written[k])) assert.ok(listed.text.includes(words[key]), `${agent} lists ${key}`);
    }
    assert.ok(probes >= 500, `${probes} probes`);
    assert.deepEqual(leaks, [], `${leaks.length} leaks of ${probes} probes`);
    console.log(`worker agent probes: ${probes}, leaks: ${leaks.length}`);
  } finally {
    await mf.dispose();
  }
});

test('a restarted runtime keeps every acknowledged write', async () => {
  const persist = mkdtempSync(join(tmpdir(), 'mnemo-do-'));
  try {
    let mf = await start({ persist });
    const acked = [];
    for (let i = 0; i < 12; i++) {
      const owner = `owner-${i % 3}`;
      const r = await send(mf, 'POST', '/api/v1/seed', {
        body: { memories: [{ entity_id: owner, content: `Fact number ${i}: the ${['red', 'green', 'blue', 'amber'][i % 4]} notebook is on shelf ${i}.` }] },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.ids.length, 1, r.text);
      acked.push({ owner, id: r.body.ids[0] });
    }
    await mf.dispose();
    mf = await start({ persist });
    try {
      for (const { owner, id } of acked) {
        const r = await send(mf, 'GET', `/api/v1/memories/${id}?entity_id=${owner}`);
        assert.equal(r.status, 200, `${owner}/${id} lost after restart: ${r.text}`);
      }
      const list = await send(mf, 'GET', '/api/v1/memories?entity_id=owner-1');
      assert.equal(list.status, 200, list.text);
      const listed = list.body.map((m) => m.id).sort();
      assert.deepEqual(listed, acked.filter((a) => a.owner === 'owner-1').map((a) => a.id).sort());
      // The restarted store takes writes and finds them.
      const more = await send(mf, 'POST', '/api/v1/remember', { body: { entity_id: 'owner-1', content: 'The violin lessons are on Thursday evenings.' } });
      assert.equal(more.status, 200, more.text);
      const found = await send(mf, 'POST', '/api/v1/search', { body: { entity_id: 'owner-1', query: 'violin lessons' } });
      assert.match(found.body[0].memory.content, /violin/);
    } finally {
      await mf.dispose();
    }
  } finally {
    rmSync(persist, { recursive: true, force: true });
  }
});

test('answers say the storage rows they used; an idle object writes what searches recorded', async () => {
  const persist = mkdtempSync(join(tmpdir(), 'mnemo-do-'));
  try {
    let mf = await start({ persist, vars: { MNEMO_IDLE_MS: '300' } });
    const wrote = await send(mf, 'POST', '/api/v1/remember', { body: { entity_id: 'ana', content: 'I keep bees on the roof of my building.' } });
    const id = wrote.body.outcomes[0].id;
    assert.ok(Number(wrote.headers.get('x-mnemo-pages-written')) > 0);
    assert.equal(Number(wrote.headers.get('x-mnemo-store-bytes')) % 4096, 0);
    assert.ok(Number(wrote.headers.get('x-mnemo-store-bytes')) >= 4096 * 16);
    const found = await send(mf, 'POST', '/api/v1/search', { body: { entity_id: 'ana', query: 'bees on the roof' } });
    assert.equal(found.body[0].memory.id, id);
    // A search is a read: it writes nothing now; the access it recorded waits in memory.
    assert.equal(found.headers.get('x-mnemo-pages-written'), '0');
    // The alarm (300 ms after the request here) writes it and closes the engine; a restart
    // then finds it. Without the alarm the access would be lost with the process.
    await new Promise((r) => setTimeout(r, 1500));
    await mf.dispose();
    mf = await start({ persist });
    try {
      const got = await send(mf, 'GET', `/api/v1/memories/${id}?entity_id=ana`);
      assert.equal(got.status, 200, got.text);
      // The search's access, written by the alarm, and this read's own (1 had the alarm not run).
      assert.equal(got.body.access_count, 2, got.text);
    } finally {
      await mf.dispose();
    }
  } finally {
    rmSync(persist, { recursive: true, force: true });
  }
});

test('bad requests get a clear error and change nothing', async () => {
  const mf = await start({ hooks: false });
  try {
    // What ana's store says (a search that answers may still count an access).
    const count = async () => {
      const list = (await send(mf, 'GET', '/api/v1/memories?entity_id=ana')).body;
      return JSON.stringify(list.map(({ id, content, tags, status }) => ({ id, content, tags, status })));
    };
    assert.equal((await send(mf, 'POST', '/api/v1/remember', { body: { entity_id: 'ana', content: 'I am allergic to penicillin.' } })).status, 200);
    const before = await count();
    const cases = [
      // [what, request, status, code]
      ['no token', { method: 'POST', path: '/api/v1/search', body: { entity_id: 'ana', query: 'x' }, token: null }, 401],
      ['wrong token', { method: 'POST', path: '/api/v1/search', body: { entity_id: 'ana', query: 'x' }, token: 'nope' }, 401],
      ['no /api/v1 prefix', { method: 'GET', path: '/memories' }, 404, 'not_found'],
      ['unknown route', { method: 'GET', path: '/api/v1/nowhere?entity_id=ana' }, 404, 'not_found'],
      ['no owner', { method: 'POST', path: '/api/v1/search', body: { query: 'x' } }, 400, 'owner_required'],
      ['two owners', { method: 'POST', path: '/api/v1/seed', body: { memories: [{ entity_id: 'ana', content: 'a' }, { entity_id: 'bob', content: 'b' }] } }, 400, 'owner_required'],
      ['owner not a string', { method: 'POST', path: '/api/v1/remember', body: { entity_id: 42, content: 'x' } }, 400, 'invalid_input'],
      ['owner too long', { method: 'POST', path: '/api/v1/remember', body: { entity_id: 'a'.repeat(300), content: 'x' } }, 400, 'invalid_input'],
      ['owner with a newline', { method: 'POST', path: '/api/v1/remember', body: { entity_id: 'ana\nbob', content: 'x' } }, 400, 'invalid_input'],
      ['malformed JSON', { method: 'POST', path: '/api/v1/remember?entity_id=ana', body: '{"content": ' }, 400, 'invalid_input'],
      ['not an object', { method: 'POST', path: '/api/v1/remember?entity_id=ana', body: '["ana"]' }, 400, 'invalid_input'],
      ['not UTF-8', { method: 'POST', path: '/api/v1/remember?entity_id=ana', body: new Uint8Array([0xff, 0xfe, 0x7b]) }, 400, 'invalid_input'],
      ['empty content', { method: 'POST', path: '/api/v1/remember', body: { entity_id: 'ana', content: '' } }, 400, 'invalid_input'],
      ['wrong type', { method: 'POST', path: '/api/v1/search', body: { entity_id: 'ana', query: 'x', limit: 'ten' } }, 400, 'invalid_input'],
      ['NaN importance', { method: 'POST', path: '/api/v1/seed', body: '{"memories":[{"entity_id":"ana","content":"x","importance":NaN}]}' }, 400, 'invalid_input'],
      ['wrong dimension', { method: 'POST', path: '/api/v1/call/seed', body: { items: [{ entity_id: 'ana', content: 'x', vector: [1, 2, 3] }] } }, 400],
      ['over 1 MiB', { method: 'POST', path: '/api/v1/remember', body: JSON.stringify({ entity_id: 'ana', content: 'x'.repeat((1 << 20) + 10) }) }, 413, 'body_too_large'],
      // A document's route takes 48 MiB (another owner's, so ana's count holds).
      ['a 1.5 MiB document', { method: 'POST', path: '/api/v1/call/ingest', body: { entity_id: 'dora', title: 'Handbook', content: 'The handbook says what the team does on each day. '.repeat(32000) } }, 200],
      ['SQL in an owner id', { method: 'POST', path: '/api/v1/call/forget_all', body: { entity_id: "ana'; DROP TABLE mnemo_pages; --" } }, 400, 'invalid_input'],
      ['SQL in a search', { method: 'POST', path: '/api/v1/search', body: { entity_id: 'ana', query: "penicillin'; DROP TABLE mnemo_pages; --" } }, 200],
      ['quotes in a tag filter', { method: 'GET', path: '/api/v1/memories?entity_id=ana&tag=%22)%20OR%20*' }, 200],
      ['test hooks off', { method: 'POST', path: '/api/v1/search', body: { entity_id: 'ana', query: 'x' }, headers: { 'x-mnemo-now': '0' } }, 400, 'invalid_input'],
      ['watcher', { method: 'GET', path: '/api/v1/watcher/status?entity_id=ana' }, 501, 'not_implemented'],
      // Source texts the parser does not take, in the 48 MiB the route allows: refused by the
      // engine, naming the file, with nothing written (the good file beside them included).
      ['source over 1 MiB', { method: 'POST', path: '/api/v1/call/ingest_code', body: { entity_id: 'ana', files: [{ path: 'a.rs', text: 'fn a() {}' }, { path: 'b.rs', text: 'fn b() {}\n'.repeat(120000) }] } }, 400, 'invalid_input'],
      ['binary source', { method: 'POST', path: '/api/v1/call/ingest_code', body: { entity_id: 'ana', files: [{ path: 'a.rs', text: 'fn a() {}\u0000' }] } }, 400, 'invalid_input'],
      ['source in another language', { method: 'POST', path: '/api/v1/call/ingest_code', body: { entity_id: 'ana', files: [{ path: 'a.c', text: 'int a;', language: 'c' }] } }, 400, 'invalid_input'],
    ];
    for (const [what, r, status, code] of cases) {
      const got = await send(mf, r.method, r.path, { body: r.body, headers: r.headers, token: r.token === undefined ? TOKEN : r.token });
      assert.equal(got.status, status, `${what}: ${got.text.slice(0, 300)}`);
      if (code) assert.equal(got.body.code, code, `${what}: ${got.text.slice(0, 300)}`);
      if (status >= 400) assert.ok(typeof got.body.error === 'string' && got.body.error.length > 0, `${what}: no message`);
      assert.equal(await count(), before, `${what} changed ana's memories`);
    }
  } finally {
    await mf.dispose();
  }
});

test('without its MNEMO_TOKEN secret the Worker refuses to serve, and says how to set it', async () => {
  const mf = await start({ token: null });
  try {
    const r = await send(mf, 'POST', '/api/v1/search', { body: { entity_id: 'ana', query: 'x' } });
    assert.equal(r.status, 500);
    assert.match(r.body.error, /wrangler secret put MNEMO_TOKEN/);
    assert.equal((await send(mf, 'GET', '/api/v1/health', { token: null })).status, 200);
  } finally {
    await mf.dispose();
  }
});

test('wrangler bundles the deployment wrangler.toml describes', () => {
  const out = mkdtempSync(join(tmpdir(), 'mnemo-wrangler-'));
  try {
    const log = execFileSync(join(root, 'node_modules/.bin/wrangler'), ['deploy', '--dry-run', '--outdir', out, '--config', join(root, 'cloudflare/wrangler.toml')], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
    });
    assert.match(log, /env\.MNEMO_OWNERS \(MnemoOwner\)\s+Durable Object/);
    const files = readdirSync(out);
    for (const part of ['mnemo_wasm_bg.wasm', 'mnemo-static-v1.bin', 'schema.json', 'index.js']) {
      const f = files.find((n) => n.endsWith(part));
      assert.ok(f && statSync(join(out, f)).size > 0, `${part} is not in the bundle: ${files}`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
