// The package under Node (an edge-like runtime): memory storage, the bytes round trip, host
// embedders and extractors, bad input, and the conformance scenario against the native core.
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { Mnemo } from '../src/index.js';
import { parseSources } from '../src/parser.js';
import { nativeScenario, root, runSteps, scenarioNames } from './helpers.mjs';

const T0 = 1_700_000_000_000;
const open = (extra = {}) => Mnemo.open({ storage: 'memory', now: T0, seed: 7, ...extra });
const facts = [
  { entity_id: 'ana', content: 'Ana drinks green tea every morning', type: 'PREFERENCE' },
  { entity_id: 'ana', content: "Ana's sister Lena lives in Lisbon", type: 'RELATIONSHIP' },
  { entity_id: 'ben', content: 'Ben drinks black coffee', type: 'PREFERENCE' },
];

for (const name of scenarioNames()) {
  test(`scenario ${name} gives the native core’s JSON, byte for byte`, async () => {
    const { scenario, native } = nativeScenario(name);
    const m = await Mnemo.open({ storage: 'memory', now: scenario.now, seed: scenario.seed, config: scenario.config });
    const got = await runSteps(m, scenario.steps);
    assert.equal(JSON.stringify(got), JSON.stringify(native));
    await m.close();
  });
}

test('ingestCode takes files as text, read by the parser module first, or already parsed', async () => {
  const m = await open({});
  const file = { path: 'server/src/auth.rs', text: '//! Tokens.\npub fn check_token(t: &str) -> bool { true }\n' };
  assert.equal((await m.ingestCode({ entity_id: 'kai', files: [file] })).created, 1);
  const [hit] = await m.search({ entity_id: 'kai', query: 'where is the token checked?' });
  assert.equal(hit.memory.content, 'server/src/auth.rs — rust, 2 lines. Tokens.\n- pub fn check_token(t: &str) -> bool (line 2)');
  // The same memory as from the file read by parseSources and sent parsed.
  assert.equal((await m.ingestCode({ entity_id: 'lea', files: await parseSources([file]) })).created, 1);
  assert.equal((await m.search({ entity_id: 'lea', query: 'where is the token checked?' }))[0].memory.content, hit.memory.content);
  // Bad text is told as bad input, naming the file, and nothing is written.
  await assert.rejects(
    m.ingestCode({ entity_id: 'kai', files: [{ path: 'b.rs', text: 'fn b() {}' }, { path: 'a.rs', text: 'fn a() {}\0' }] }),
    (e) => e.code === 'invalid_input' && /files\[1\]\.text: holds a NUL byte/.test(e.message),
  );
  assert.equal((await m.stats({ entity_id: 'kai' })).total, 1);
  const parsed = { path: 'web/cart.ts', language: 'typescript', lines: 1, symbols: [{ kind: 'function', name: 'addToCart', signature: 'export function addToCart()', line: 1 }] };
  assert.equal((await m.ingestCode({ entity_id: 'kai', files: [parsed] })).created, 1);
  await m.close();
});

test('a package deployed without its parser module says so when sent text, and writes nothing', async () => {
  // Its WebAssembly missing, or its script (a bundle that left the chunk out).
  for (const missing of ['mnemo_wasm_parser_bg.wasm', 'parser.js']) {
    const dir = await mkdtemp(join(tmpdir(), 'mnemo-no-parser-'));
    try {
      const keep = { recursive: true, filter: (f) => !f.endsWith(missing) };
      await cp(join(root, 'www/src'), join(dir, 'src'), keep);
      await cp(join(root, 'www/pkg'), join(dir, 'pkg'), keep);
      const { Mnemo: Deployed } = await import(pathToFileURL(join(dir, 'src/index.js')).href);
      const m = await Deployed.open({ storage: 'memory', now: T0, seed: 7 });
      await assert.rejects(
        m.ingestCode({ entity_id: 'kai', files: [{ path: 'a.rs', text: 'fn a() {}' }] }),
        (e) => e.code === 'not_implemented' && /the parser module did not load/.test(e.message) && /`symbols`/.test(e.message),
        missing,
      );
      assert.equal((await m.stats({ entity_id: 'kai' })).total, 0);
      await m.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
});

test('the parser module reads texts as the native engine does; what it cannot read the engine refuses', async () => {
  const m = await open({});
  const texts = [
    { path: 'server/src/auth.rs', text: '//! Bearer tokens.\npub struct Session;\n\npub fn check_token(header: &str) -> bool { true }\n' },
    { path: 'web/src/cart.tsx', text: 'export function Cart(p: Props) { return <div>{p.n}</div>; }\n' },
    { path: 'tools/rapport_été.py', text: '"""Rapport — 月次 📈."""\ndef render(rows):\n    return rows\n' },
    { path: 'Makefile.inc', text: 'package a\nfunc Run() {}\n', language: 'go' },
  ];
  const parsed = await parseSources(texts);
  assert.deepEqual(parsed.map((f) => [f.path, f.language, f.lines, f.summary, f.text]), [
    ['server/src/auth.rs', 'rust', 4, 'Bearer tokens.', undefined],
    ['web/src/cart.tsx', 'typescript', 1, undefined, undefined],
    ['tools/rapport_été.py', 'python', 3, 'Rapport — 月次 📈.', undefined],
    ['Makefile.inc', 'go', 2, undefined, undefined],
  ]);
  assert.deepEqual(parsed[0].symbols.map((s) => [s.kind, s.name, s.line]), [['type', 'Session', 2], ['function', 'check_token', 4]]);
  assert.equal((await m.ingestCode({ entity_id: 'kai', files: parsed })).created, 4);
  assert.match((await m.search({ entity_id: 'kai', query: 'where is the token checked?' }))[0].memory.content, /check_token/);
  assert.equal((await m.stats({ entity_id: 'mia' })).total, 0);

  // Not read (but for the bad path, which only the engine judges), given back as they were;
  // the engine refuses them, naming the file, and writes nothing.
  const bad = [
    [{ path: 'a.rs', text: 'fn a() {}\0' }, /files\[0\]\.text: holds a NUL byte/],
    [{ path: 'a.rs', text: 'x'.repeat(1048577) }, /files\[0\]\.text: 1048577 bytes/],
    [{ path: 'notes.md', text: '# hi' }, /files\[0\]\.language: is not told by notes\.md/],
    [{ path: 'a.c', text: 'int a;', language: 'c' }, /files\[0\]\.language: the parser reads/],
    [{ path: '../etc/passwd.rs', text: 'fn a() {}' }, /files\[0\]\.path/],
    [{ path: "x'); DROP TABLE memories;--.rs", text: 'fn a() {}', extra: 1 }, /unknown field `extra`/],
    [{ path: 'a.rs', text: Number.NaN }, /files\[0\]\.language/],
  ];
  for (const [file, says] of bad) {
    const [back] = await parseSources([file]);
    if (typeof file.text === 'string' && !file.path.startsWith('..')) assert.deepEqual(back, file);
    await assert.rejects(m.ingestCode({ entity_id: 'kai', files: [back] }), (e) => e.code === 'invalid_input' && says.test(e.message));
  }
  assert.equal((await m.stats({ entity_id: 'kai' })).total, 4);

  for (const notList of [undefined, 'a.rs', { files: [] }, 7]) {
    await assert.rejects(parseSources(notList), (e) => e.code === 'invalid_input' && /expected a list/.test(e.message));
  }
  const cyclic = { path: 'a.rs' };
  cyclic.self = cyclic;
  await assert.rejects(parseSources([cyclic]), (e) => e.code === 'invalid_input' && /invalid files/.test(e.message));
  assert.deepEqual(await parseSources([]), []);
  await m.close();
});

test('the default embedder: its weights are checked, it finds meaning, and reembed moves a store', async () => {
  const { Mnemo: Core } = await import('../pkg/mnemo_wasm.js');
  const { loadWasm } = await import('../src/host.js');
  await loadWasm();
  // A damaged weights file is refused with the reason; the weights already loaded stay.
  for (const bad of [new Uint8Array([1, 2, 3]), new Uint8Array(64)]) {
    assert.throws(() => Core.loadModel(bad), (e) => e.code === 'embedder_error' && /weights file/.test(e.message));
  }
  await assert.rejects(open({ weights: 42 }), (e) => e.code === 'invalid_input' && /weights/.test(e.message));
  const m = await open({});
  assert.deepEqual(await m.embeddingModel(), { model: 'mnemo-static-v1', dimension: 256 });
  await m.seed([
    { entity_id: 'ana', content: 'I work as a marine biologist at the aquarium' },
    { entity_id: 'ana', content: 'My sister Ines is visiting me in May' },
  ]);
  const job = async () => (await m.search({ entity_id: 'ana', query: 'what do I do for a living?' }))[0]?.memory.content;
  assert.match(await job(), /marine biologist/);
  // Moved to the hashing embedder and back: every memory is embedded again.
  const hashed = await m.reembed({ model: 'mnemo-hash-v1' });
  assert.deepEqual([hashed.model, hashed.dimension, hashed.previous_model, hashed.memories], ['mnemo-hash-v1', 384, 'mnemo-static-v1', 2]);
  await assert.rejects(m.reembed({ model: 'text-embedding-3-small' }), (e) => e.code === 'invalid_input' && /model/.test(e.message));
  assert.deepEqual(await m.embeddingModel(), { model: 'mnemo-hash-v1', dimension: 384 });
  await m.reembed({ model: 'mnemo-static-v1' });
  assert.match(await job(), /marine biologist/);
  await m.close();
});

test('embedVectors gives embed\'s vectors as one Float32Array, and refuses what embed refuses', async () => {
  const m = await open({});
  const texts = ['Ana drinks green tea every morning', 'Zoë’s café — naïve résumé 🍵', '数据库很快', 'fine'];
  const json = await m.embed({ texts });
  const flat = await m.embedVectors({ texts });
  assert.equal(flat.model, json.model);
  assert.equal(flat.dimension, json.dimension);
  assert.ok(flat.vectors instanceof Float32Array);
  assert.equal(flat.vectors.length, texts.length * flat.dimension);
  // The same floats: each JSON number is the shortest text of the f32 the array holds.
  json.vectors.forEach((v, i) =>
    assert.deepEqual(Array.from(flat.vectors.subarray(i * flat.dimension, (i + 1) * flat.dimension)), v.map(Math.fround)),
  );
  assert.ok(flat.vectors.some((x) => x !== 0));
  const before = await m.storeStats();
  for (const bad of [{ texts: [] }, { texts: [' '] }, { texts: [7] }, { texts: 'one' }, {}, { texts: ['a'], extra: 1 }, { texts: Array(1001).fill('a') }]) {
    const why = await m.embed(bad).catch((e) => e);
    const got = await m.embedVectors(bad).catch((e) => e);
    assert.equal(got.code, 'invalid_input', JSON.stringify(bad).slice(0, 60));
    assert.equal(got.message, why.message);
  }
  assert.deepEqual(await m.storeStats(), before, 'nothing is written');
  await m.close();
});

test('every call the engine declares is a method of Mnemo, and reaches the engine', async () => {
  const { CALLS } = await import('../src/calls.js');
  const { loadWasm } = await import('../src/host.js');
  const { Mnemo: Core } = await import('../pkg/mnemo_wasm.js');
  await loadWasm();
  // calls.js (generated from the declarations) lists what this build of the engine accepts.
  assert.deepEqual(CALLS.map((c) => c.method), Core.methods());
  const m = await open({});
  for (const { method, name, unwrap } of CALLS) {
    assert.equal(typeof m[name], 'function', name);
    // Called through its method with nothing useful, a call answers or refuses its arguments
    // — never the method.
    await m[name](unwrap ? undefined : {}).catch((e) => {
      assert.ok(!(e.code === 'unknown_value' && /method/.test(e.message)), `${method}: ${e.message}`);
      assert.equal(e.code, 'invalid_input', `${method}: ${e.message}`);
    });
  }
  await assert.rejects(m.call('frobnicate', {}), { code: 'unknown_value' });
  await m.close();
});

test('memory storage: seed, search, get, and owners stay apart', async () => {
  const m = await open();
  const report = await m.seed(facts);
  assert.deepEqual(report.outcomes.map((o) => o.action), ['created', 'created', 'created']);
  const hits = await m.search({ entity_id: 'ana', query: 'what tea does Ana drink?' });
  assert.equal(hits[0].memory.content, facts[0].content);
  assert.ok(hits[0].why.text > 0 && hits[0].score > 0);
  assert.ok(hits.every((h) => h.memory.entity_id === 'ana'));
  const got = await m.get({ entity_id: 'ana', id: hits[0].memory.id });
  assert.equal(got.id, hits[0].memory.id);
  await assert.rejects(m.get({ entity_id: 'ben', id: hits[0].memory.id }), { code: 'not_found' });
  await m.close();
  await assert.rejects(m.stats({ entity_id: 'ana' }), { code: 'closed' });
});

test('a store opened for an agent sees and changes only what that agent may', async () => {
  const owner = await open();
  await owner.teamCreate({ entity_id: 'acme', name: 'Platform', id: 'platform' });
  for (const member_id of ['alice', 'bob']) await owner.teamMemberAdd({ entity_id: 'acme', team_id: 'platform', member_id });
  const { outcomes } = await owner.seed([
    { entity_id: 'acme', agent_id: 'alice', visibility: 'private', content: 'The vault code is kumquat 4711' },
    { entity_id: 'acme', agent_id: 'alice', team_id: 'platform', content: 'Deploy the rutabaga release on Friday' },
    { entity_id: 'acme', agent_id: 'carol', content: 'Carol is allergic to persimmon' },
  ]);
  const [secret, shared, carols] = outcomes.map((o) => o.id);
  await owner.remember({ entity_id: 'acme', agent_id: 'alice', visibility: 'private', content: 'My sister Ana Souza lives in Lisbon.' });
  await owner.recordMessage({ entity_id: 'acme', agent_id: 'alice', role: 'user', content: 'Keep the zucchini plan between us' });
  const bob = await Mnemo.fromBytes(await owner.exportBytes(), { now: T0, seed: 7, agent: 'bob' });
  // Every read bob can make, and none shows what alice or carol keep from him.
  const everything = 'vault kumquat rutabaga persimmon Lisbon';
  const reads = [
    bob.search({ entity_id: 'acme', query: everything, min_score: 0 }),
    bob.list({ entity_id: 'acme', limit: 1000 }),
    bob.list({ entity_id: 'acme', ids: [secret, shared, carols] }),
    bob.sample({ entity_id: 'acme', limit: 1000 }),
    bob.stats({ entity_id: 'acme' }),
    bob.export({ entity_id: 'acme' }),
    bob.heartbeatCheck({ entity_id: 'acme', dry_run: true }),
    bob.heartbeatContext({ entity_id: 'acme', dry_run: true, query: everything }),
    bob.entities({ entity_id: 'acme' }),
    bob.relationships({ entity_id: 'acme' }),
    bob.messages({ entity_id: 'acme' }),
    bob.conflicts({ entity_id: 'acme' }),
    bob.schedules({ entity_id: 'acme', all: true }),
    ...[secret, shared, carols].flatMap((id) => ['get', 'related', 'statusHistory'].map((m) => bob[m]({ entity_id: 'acme', id }).catch((e) => ({ refused: e.code })))),
  ];
  const seen = JSON.stringify(await Promise.all(reads));
  assert.ok(seen.includes('rutabaga'), 'bob sees his team\'s memory');
  for (const word of ['kumquat', 'persimmon', 'Souza', 'Lisbon', 'zucchini', secret, carols]) {
    assert.ok(!seen.includes(word), `bob sees ${word}: ${seen}`);
  }
  for (const id of [secret, carols]) await assert.rejects(bob.get({ entity_id: 'acme', id }), { code: 'not_found' });
  await assert.rejects(bob.forget({ entity_id: 'acme', id: shared }), { code: 'invalid_input' });
  await assert.rejects(bob.search({ entity_id: 'acme', agent_id: 'alice', query: 'vault' }), /opened for agent "bob" only/);
  // The owner's calls are not an agent's: bob cannot join a team to read what it keeps.
  await assert.rejects(bob.teamMemberAdd({ entity_id: 'acme', team_id: 'platform', member_id: 'bob' }), /teamMemberAdd|team_member_add is the owner's/);
  await assert.rejects(bob.call('team_create', { entity_id: 'acme', name: 'Mine' }), { code: 'invalid_input' });
  await assert.rejects(bob.import('{"entity_id":"acme","content":"x"}'), /import is the owner's/);
  assert.equal((await bob.embed({ texts: ['hello'] })).vectors.length, 1, 'store-wide reads are anyone\'s');
  // What bob writes is his, even in alice's words.
  const mine = await bob.seed([{ entity_id: 'acme', content: 'The vault code is kumquat 4711' }]);
  assert.equal(mine.outcomes[0].action, 'created');
  assert.equal((await bob.get({ entity_id: 'acme', id: mine.outcomes[0].id })).agent_id, 'bob');
  await assert.rejects(Mnemo.open({ agent: "bob'; --" }), { code: 'invalid_input' });
  await Promise.all([owner.close(), bob.close()]);
});

test('exportBytes and fromBytes round-trip a whole store', async () => {
  const m = await open();
  await m.seed(facts);
  const before = await m.search({ entity_id: 'ana', query: 'Lisbon sister' });
  const bytes = await m.exportBytes();
  assert.ok(bytes instanceof Uint8Array);
  assert.equal(new TextDecoder().decode(bytes.slice(0, 15)), 'SQLite format 3');
  const copy = await Mnemo.fromBytes(bytes, { now: T0, seed: 7 });
  assert.deepEqual(await copy.stats({ entity_id: 'ana' }), await m.stats({ entity_id: 'ana' }));
  const after = await copy.search({ entity_id: 'ana', query: 'Lisbon sister' });
  assert.deepEqual(after.map((h) => h.memory.id), before.map((h) => h.memory.id));
  // The copy is independent: writing to it leaves the original alone.
  await copy.seed([{ entity_id: 'ana', content: 'Ana learns Portuguese' }]);
  assert.equal((await copy.stats({ entity_id: 'ana' })).total, 3);
  assert.equal((await m.stats({ entity_id: 'ana' })).total, 2);
  await Promise.all([m.close(), copy.close()]);
});

test('fromBytes opens a file the native server left in WAL mode, for writing', async () => {
  const m = await open();
  await m.seed(facts);
  const bytes = await m.exportBytes();
  await m.close();
  // What mnemo.db looks like after a crash of the native server (or copied without its
  // mnemo.db-wal): header bytes 18 and 19, the file format versions, say WAL.
  bytes[18] = 2;
  bytes[19] = 2;
  const copy = await Mnemo.fromBytes(bytes, { now: T0, seed: 7 });
  assert.equal((await copy.stats({ entity_id: 'ana' })).total, 2);
  await copy.seed([{ entity_id: 'ana', content: 'Ana learns Portuguese' }]);
  assert.equal((await copy.stats({ entity_id: 'ana' })).total, 3);
  const again = await copy.exportBytes();
  assert.deepEqual([again[18], again[19]], [1, 1]);
  await copy.close();
});

test('fromBytes refuses what is not a Mnemo store', async () => {
  await assert.rejects(Mnemo.fromBytes(new Uint8Array(0)), { code: 'not_a_store' });
  await assert.rejects(Mnemo.fromBytes(new TextEncoder().encode('hello, not sqlite at all')), { code: 'not_a_store' });
  await assert.rejects(Mnemo.fromBytes('SQLite format 3'), { code: 'invalid_input' });
  await assert.rejects(Mnemo.fromBytes(new Uint8Array(4096), { storage: 'opfs' }), { code: 'not_a_store' });
  // A store embedded with another model is refused, not mixed.
  const m = await open();
  await m.seed(facts);
  const bytes = await m.exportBytes();
  const embed = { model: 'other', dimension: 3, embed: async (t) => t.map(() => [1, 0, 0]) };
  await assert.rejects(Mnemo.fromBytes(bytes, { embed }), { code: 'embedder_mismatch' });
  await m.close();
});

test('bad input rejects with a clear error and changes nothing', async () => {
  const m = await open();
  await m.seed(facts);
  const stats = await m.stats({ entity_id: 'ana' });
  const cyclic = { entity_id: 'ana', content: 'x', metadata: {} };
  cyclic.metadata.self = cyclic;
  const cases = [
    [() => m.seed([{ entity_id: 'ana', content: 42 }]), 'invalid_input', /args\.items\[0\]\.content/],
    [() => m.seed('not a list'), 'invalid_input', /args\.items/],
    [() => m.seed([{ entity_id: 'ana', content: 'x', vector: Array(384).fill(NaN) }]), 'non_finite_vector', /finite/],
    [() => m.seed([{ entity_id: 'ana', content: 'x', vector: [1, 2, 3] }]), 'dimension_mismatch', /256/],
    [() => m.seed([{ entity_id: 'ana', content: 'é'.repeat(200_000) }]), 'invalid_input', /content/],
    [() => m.seed([{ entity_id: 'ana', content: '' }]), 'invalid_input', /empty/],
    [() => m.seed([facts[0], { entity_id: 'ana', content: 'ok', type: 'HOBBY' }]), 'invalid_input', /HOBBY.*expected one of/],
    [() => m.seed([{ entity_id: 'ana', content: 'x', importance: 2 }]), 'invalid_input', /importance/],
    [() => m.seed([{ entity_id: 'ana', content: 'x', colour: 'red' }]), 'invalid_input', /colour/],
    [() => m.search({ entity_id: 'ana', query: 'x', limit: 'ten' }), 'invalid_input', /args\.limit/],
    [() => m.search({ entity_id: "ana' OR 1=1 --", query: 'tea' }), 'invalid_input', /entity_id/],
    [() => m.call('drop_table', {}), 'unknown_value', /drop_table/],
    [() => m.call(42, {}), 'invalid_input', /method/],
    [() => m.setNow(NaN), 'invalid_input', /now/],
    [() => m.remember({ entity_id: 'ana', content: 'x', metadata: { n: -Infinity } }), 'invalid_input', /args\.metadata\.n: -Infinity/],
    [() => m.remember(cyclic), 'invalid_input', /circular/],
    // Half of a UTF-16 pair alone, which a JavaScript string may hold.
    [() => m.remember({ entity_id: 'ana', content: 'tea \ud800 time' }), 'invalid_input', /args\.content: is not Unicode text: it holds half of a UTF-16 surrogate pair/],
  ];
  for (const [run, code, message] of cases) {
    await assert.rejects(run(), (e) => {
      assert.equal(e.code, code, e.message);
      assert.match(e.message, message);
      return true;
    });
  }
  // FTS syntax and unicode are just text.
  const hits = await m.search({ entity_id: 'ana', query: 'tea" OR NEAR(* ) AND 🍵 ' });
  assert.equal(hits[0].memory.content, facts[0].content);
  const uni = await m.seed([{ entity_id: 'ana', content: 'Ана любит 绿茶 🍵' }]);
  assert.equal(uni.outcomes[0].action, 'created');
  assert.equal((await m.stats({ entity_id: 'ana' })).total, stats.total + 1);
  await m.close();
});

test('ingestFile stores a File as passages search finds; bad files are refused and write nothing', async () => {
  const m = await open();
  const para = (topic, n) => Array.from({ length: n }, (_, i) => `<p>The ${topic} note ${i} records what was agreed.</p>`).join('');
  const html =
    '<html><head><title>Office move</title><script>var token = "zebra-secret";</script></head><body>' +
    `<h1>Office move</h1>${para('planning', 10)}<h2>Timeline</h2><p>The movers come on Tuesday 3 March.</p>${para('closing', 10)}</body></html>`;
  const report = await m.ingestFile(new File([html], 'move.html', { type: 'text/html' }), { entity_id: 'ana', tags: ['office'] });
  assert.equal(report.action, 'created');
  const doc = report.document;
  assert.deepEqual(
    [doc.title, doc.format, doc.filename, doc.mime, doc.manual_tags],
    ['Office move', 'html', 'move.html', 'text/html', ['office']],
  );
  const hits = await m.search({ entity_id: 'ana', query: 'when do the movers come?' });
  assert.equal(hits[0].passage.document_id, doc.id);
  assert.deepEqual(hits[0].passage.section, ['Office move', 'Timeline']);
  assert.deepEqual(await m.search({ entity_id: 'ana', query: 'zebra secret token' }), []);
  assert.deepEqual(await m.search({ entity_id: 'ben', query: 'when do the movers come?' }), []);
  // A Blob without a name: markdown by default, its title from its heading; args win over the file.
  const blob = await m.ingestFile(new Blob(['# Recipes\n\nBake the bread at 220 degrees.']), { entity_id: 'ana', title: 'Bread' });
  assert.deepEqual([blob.document.title, blob.document.format, blob.document.filename], ['Bread', 'markdown', null]);
  const total = (await m.stats({ entity_id: 'ana' })).total;
  const bad = [
    [() => m.ingestFile('just text', { entity_id: 'ana' }), /expected a File or Blob/],
    [() => m.ingestFile(new Blob(['x']), 'ana'), /expected an object/],
    [() => m.ingestFile(new File([new Uint8Array([37, 80, 68, 70, 0, 1, 2])], 'scan.pdf'), { entity_id: 'ana' }), /"scan\.pdf" is not text.*NUL/],
    [() => m.ingestFile(new File([new Uint8Array([0xff, 0xfe, 0x41])], 'latin.txt'), { entity_id: 'ana' }), /not UTF-8/],
    [() => m.ingestFile(new File([''], 'empty.txt'), { entity_id: 'ana' }), /content/],
    [() => m.ingestFile(new File(['<script>x()</script>'], 'code.html'), { entity_id: 'ana' }), /no text/],
    [() => m.ingestFile(new File(['words'], 'a.md'), { entity_id: "ana' --" }), /entity_id/],
    [() => m.ingestFile(new File(['words'], 'a.md'), {}), /entity_id/],
  ];
  for (const [run, message] of bad) {
    await assert.rejects(run(), (e) => {
      assert.equal(e.code, 'invalid_input', e.message);
      assert.match(e.message, message);
      return true;
    });
  }
  // Too large is refused from its size, before it is read.
  const huge = { size: 40_000_001, name: 'huge.txt', arrayBuffer: () => assert.fail('read') };
  Object.setPrototypeOf(huge, Blob.prototype);
  await assert.rejects(m.ingestFile(huge, { entity_id: 'ana' }), /at most 10,000,000 characters/);
  // A real 100 MB text handed to ingest is refused whole, by its length.
  await assert.rejects(m.ingest({ entity_id: 'ana', content: 'word '.repeat(20_000_000) }), {
    code: 'invalid_input',
    message: /content: is longer than 10000000 characters/,
  });
  assert.equal((await m.stats({ entity_id: 'ana' })).total, total);
  assert.equal((await m.documents({ entity_id: 'ana' })).length, 2);
  await m.close();
});

test('a host embedder supplies every vector; its failures are reported', async () => {
  const calls = [];
  // A toy 3-d "model": counts of a, e, o — enough to make nearest neighbours predictable.
  const embed = {
    model: 'toy-vowels',
    dimension: 3,
    embed: async (texts) => {
      calls.push(texts);
      return texts.map((t) => {
        const v = ['a', 'e', 'o'].map((c) => t.split(c).length - 1 + 0.1);
        const n = Math.hypot(...v);
        return new Float32Array(v.map((x) => x / n));
      });
    },
  };
  const m = await open({ embed });
  await m.seed(facts);
  assert.deepEqual(calls[0], facts.map((f) => f.content));
  assert.deepEqual(await m.embeddingModel(), { model: 'toy-vowels', dimension: 3 });
  const hits = await m.search({ entity_id: 'ana', query: 'green tea' });
  assert.deepEqual(calls.at(-1), ['green tea']);
  assert.ok(hits[0].why.vector > 0);
  const r = await m.remember({ entity_id: 'ana', content: 'Ana moved to Porto last spring' });
  assert.equal(r.outcomes[0].action, 'created');
  assert.deepEqual(calls.at(-1), ['Ana moved to Porto last spring']);
  // New content gets a new vector; the caller's arguments are left as they were given.
  const patch = { content: 'Ana moved to Porto in the spring of 2019' };
  const updated = await m.update({ entity_id: 'ana', id: r.outcomes[0].id, patch });
  assert.equal(updated.content, patch.content);
  assert.deepEqual(calls.at(-1), [patch.content]);
  assert.equal(patch.vector, undefined);
  // A vector given (a typed array too) is used as it is: nothing embedded.
  const before = calls.length;
  const given = [{ entity_id: 'ana', content: 'Ana keeps bees', vector: new Float32Array([-1, 0, 0]) }];
  assert.equal((await m.seed(given)).outcomes[0].action, 'created');
  assert.equal(calls.length, before);
  // Its vector moved beside the JSON from a copy of the item: the caller's item keeps it.
  assert.deepEqual(Array.from(given[0].vector), [-1, 0, 0]);
  await assert.rejects(
    m.seed([{ entity_id: 'ana', content: 'NaN inside', vector: new Float32Array([0, NaN, 1]) }]),
    { code: 'non_finite_vector', message: /element 1/ },
  );
  // A seed's vectors travel beside its JSON, each item keeping its own: two items saying the
  // same with different vectors (two owners) keep theirs; a wrong length is refused by path.
  await m.seed([
    { entity_id: 'cy', content: 'Same words', vector: [0, 3, 4] },
    { entity_id: 'di', content: 'Same words', vector: [0, 0, 2] },
  ]);
  const stored = async (owner) => JSON.parse((await m.export({ entity_id: owner })).split('\n')[0]).embedding;
  assert.deepEqual(await stored('cy'), [0, 0.6, 0.8]);
  assert.deepEqual(await stored('di'), [0, 0, 1]);
  await assert.rejects(
    m.seed([{ entity_id: 'ana', content: 'fine', vector: [1, 0, 0] }, { entity_id: 'ana', content: 'short', vector: [1, 0] }]),
    { code: 'dimension_mismatch' },
  );
  assert.equal((await m.list({ entity_id: 'ana', tag: undefined })).memories.filter((x) => x.content === 'fine').length, 0);
  const bad = await open({ embed: { ...embed, embed: async () => [[1, 0, 0]] } });
  await assert.rejects(bad.seed(facts), { code: 'embedder_error' });
  const throws = await open({ embed: { ...embed, embed: async () => { throw new Error('model offline'); } } });
  await assert.rejects(throws.search({ entity_id: 'ana', query: 'x' }), /model offline/);
  await assert.rejects(open({ embed: { model: 'x' } }), { code: 'invalid_input' });
  await Promise.all([m.close(), bad.close(), throws.close()]);
});

test('a host embedder embeds a question with who the relations it names are, as the store knows them', async () => {
  const calls = [];
  // A toy 3-d model: does the text name Ana, does it say "I", and the rest.
  const vector = (t) => [/\bAna\b/.test(t) ? 1 : 0, /\bI\b/.test(t) ? 1 : 0, 0.1];
  const embed = { model: 'toy-people', dimension: 3, embed: async (texts) => (calls.push(texts), texts.map(vector)) };
  const m = await open({ embed });
  for (const content of ['My sister Ana is a nurse.', 'Ana lives in Lisbon now.', 'I live in Porto.']) {
    await m.remember({ entity_id: 'kin', agent_id: 'alice', content, visibility: content.startsWith('My') ? 'private' : 'global' });
  }
  const asked = 'Which city does my sister live in?';
  const hits = await m.search({ entity_id: 'kin', agent_id: 'alice', query: asked });
  // One embed call: the question with her name in place, then as asked.
  assert.deepEqual(calls.at(-1), ['Which city does Ana live in?', asked]);
  // Searched with the vector of the question naming Ana: Lisbon first, by meaning too.
  assert.equal(hits[0].memory.content, 'Ana lives in Lisbon now.');
  assert.deepEqual(hits[0].why.hop, { phrase: 'my sister', entity: 'Ana' });
  const porto = hits.find((h) => h.memory.content === 'I live in Porto.');
  assert.ok(!porto || porto.why.vector < hits[0].why.vector, JSON.stringify(hits.map((h) => h.why)));
  // Who her sister is, alice said privately: another agent's question, and another
  // owner's, reach the page's model as asked, naming no one.
  for (const who of [{ entity_id: 'kin', agent_id: 'bob' }, { entity_id: 'other' }]) {
    const theirs = await m.search({ ...who, query: asked });
    assert.deepEqual(calls.at(-1), [asked], JSON.stringify(who));
    assert.ok(theirs.every((h) => !h.why.hop), JSON.stringify(theirs));
  }
  // A vector given is used as given; a search the engine refuses embeds nothing.
  const before = calls.length;
  await m.search({ entity_id: 'kin', query: asked, vector: [1, 0, 0] });
  for (const bad of [{ entity_id: 'kin', query: '' }, { entity_id: 'bad id!', query: asked }, { entity_id: 'kin', query: 7 }, { entity_id: 'kin', query: 'x'.repeat(10_001) }]) {
    await assert.rejects(m.search(bad), { code: 'invalid_input' }, JSON.stringify(bad).slice(0, 80));
  }
  assert.equal(calls.length, before);
  await m.close();
});

test('a host embedder embeds a document: its passages and sentences, before ingest; failures write nothing', async () => {
  const calls = [];
  // A toy 4-d model: counts of budget, hiring, travel and other words.
  const topics = ['budget', 'hiring', 'travel'];
  const vector = (t) => {
    const words = t.toLowerCase().split(/\W+/).filter(Boolean);
    const v = [...topics.map((w) => words.filter((x) => x.startsWith(w)).length), 0.1 + words.length / 100];
    return v;
  };
  const embed = { model: 'toy-topics', dimension: 4, embed: async (texts) => (calls.push(texts), texts.map(vector)) };
  const filler = (topic, n) => Array.from({ length: n }, (_, i) => `The ${topic} review number ${i} went through the agenda.`).join(' ');
  const content = `# Plan\n\n## Hiring\n\n${filler('hiring', 14)}\n\n## Budget\n\nThe budget priorities are the data centre and the audit. ${filler('budget', 14)}\n\n## Travel\n\n${filler('travel', 14)}\n`;
  const m = await open({ embed });
  const r = await m.ingest({ entity_id: 'ana', title: 'Plan', content });
  assert.equal(r.action, 'created');
  assert.ok(r.document.passages >= 3, JSON.stringify(r.document));
  // One embed call for the document (under 1,000 texts), each text once, the passages first.
  assert.equal(calls.length, 1);
  assert.equal(new Set(calls[0]).size, calls[0].length);
  const doc = await m.document({ entity_id: 'ana', id: r.document.id });
  assert.deepEqual(calls[0].slice(0, doc.passages.length), doc.passages.map((p) => p.content));
  // Search (the query embedded by the host too) finds the budget passage, by vector.
  const hits = await m.search({ entity_id: 'ana', query: 'budget', kinds: ['passage'] });
  assert.match(hits[0].memory.content, /budget priorities/);
  assert.ok(hits[0].why.vector > 0.9, JSON.stringify(hits[0].why));
  // The vectors stored are the host's, normalised.
  const exported = (await m.export({ entity_id: 'ana' })).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const first = exported.find((x) => x.memory?.content === doc.passages[0].content);
  const want = vector(doc.passages[0].content);
  const norm = Math.hypot(...want);
  assert.equal(first.embedding.length, 4);
  first.embedding.forEach((x, i) => assert.ok(Math.abs(x - want[i] / norm) < 1e-6, `${x} vs ${want[i] / norm}`));
  // The same text again changes nothing; an embedder that fails, or answers badly, writes nothing.
  assert.equal((await m.ingest({ entity_id: 'ana', title: 'Plan', content })).action, 'unchanged');
  for (const [bad, code] of [
    [async () => { throw new Error('model offline'); }, 'embedder_error'],
    [async (t) => t.map(() => [1, 0]), 'embedder_error'],
    [async (t) => t.map(() => [1, NaN, 0, 0]), 'non_finite_vector'],
    [async (t) => t.slice(1).map(vector), 'embedder_error'],
  ]) {
    const b = await open({ embed: { ...embed, embed: bad } });
    await assert.rejects(b.ingest({ entity_id: 'ana', content }), { code });
    assert.deepEqual(await b.documents({ entity_id: 'ana', all: true }), []);
    await b.close();
  }
  // Arguments ingest refuses get ingest's own error, and nothing is embedded.
  const before = calls.length;
  await assert.rejects(m.ingest({ entity_id: 'ana', content: '   ' }), { code: 'invalid_input', message: /content/ });
  await assert.rejects(m.ingest({ entity_id: 'bad id!', content }), { code: 'invalid_input', message: /entity_id/ });
  assert.equal(calls.length, before);
  // Another owner sees nothing of it.
  assert.deepEqual(await m.documents({ entity_id: 'ben' }), []);
  assert.deepEqual(await m.search({ entity_id: 'ben', query: 'budget' }), []);
  await m.close();
});

test('remember takes role-tagged messages and keeps what the user said', async () => {
  const m = await open();
  const r = await m.remember({
    entity_id: 'ana',
    messages: [
      { role: 'user', content: 'I just adopted a greyhound called Pixel.' },
      { role: 'assistant', content: 'Lovely! Shall I remind you about the vet tomorrow?' },
    ],
  });
  assert.equal(r.outcomes.filter((o) => o.action === 'created').length, 1);
  const page = await m.list({ entity_id: 'ana' });
  assert.deepEqual(page.memories.map((x) => x.content), ['I just adopted a greyhound called Pixel.']);
  await assert.rejects(m.remember({ entity_id: 'ana', messages: [{ role: 'narrator', content: 'x' }] }), {
    code: 'invalid_input',
    message: /messages\[0\]\.role/,
  });
  await m.close();
});

test('a host extractor decides what remember stores', async () => {
  const extract = async (content) =>
    content.length < 5 ? [] : content.split('. ').map((s) => ({ content: s, type: 'EVENT', importance: 0.6 }));
  const m = await open({ extract });
  const r = await m.remember({ entity_id: 'ana', content: 'Ana adopted a cat. The cat is called Miso', session_id: 's1' });
  assert.deepEqual(r.outcomes.map((o) => o.action), ['created', 'created']);
  const page = await m.list({ entity_id: 'ana', oldest_first: true });
  assert.deepEqual(page.memories.map((x) => [x.content, x.type, x.source, x.session_id]), [
    ['Ana adopted a cat', 'EVENT', 'conversation', 's1'],
    ['The cat is called Miso', 'EVENT', 'conversation', 's1'],
  ]);
  const none = await m.remember({ entity_id: 'ana', content: 'ok' });
  assert.deepEqual(none.outcomes, [{ action: 'skipped', reason: 'not_significant', existing: null, similarity: null }]);
  await assert.rejects(m.remember({ entity_id: 'ana', messages: [{ role: 'user', content: 'I like tea' }] }), {
    code: 'invalid_input',
    message: /give the conversation as content/,
  });
  const broken = await open({ extract: async () => [{ content: 'x', type: 'NOPE' }] });
  await assert.rejects(broken.remember({ entity_id: 'ana', content: 'hello there' }), { code: 'invalid_input', message: /args\.extracted\[0\]\.type/ });
  await Promise.all([m.close(), broken.close()]);
});

test('the built-in extractor and the knowledge graph through the async API', async () => {
  const m = await open();
  const r = await m.remember({ entity_id: 'kai', content: 'lol ok. My sister Ana works at Farfetch! I need to call her tomorrow.' });
  assert.deepEqual(r.outcomes.map((o) => o.action), ['created', 'created']);
  const page = await m.list({ entity_id: 'kai', oldest_first: true });
  assert.deepEqual(page.memories.map((x) => x.type), ['RELATIONSHIP', 'PLAN']);
  assert.equal(page.memories[1].expires_at, T0 + 86_400_000 + (86_400_000 - (T0 % 86_400_000)) - 1);
  const people = await m.entities({ entity_id: 'kai', types: ['PERSON'] });
  assert.deepEqual(people.map((e) => e.name).sort(), ['Ana', 'user']);
  const rels = await m.relationships({ entity_id: 'kai', entity: 'ana', stated_only: true });
  assert.deepEqual(rels.map((x) => `${x.from} ${x.relation} ${x.to}`), ['user sibling_of Ana', 'Ana works_at Farfetch']);
  const walk = await m.traverse({ entity_id: 'kai', from: 'user', depth: 2 });
  assert.deepEqual(walk.nodes.map((n) => [n.name, n.depth]), [['user', 0], ['Ana', 1], ['Farfetch', 2]]);
  const path = await m.path({ entity_id: 'kai', from: 'Farfetch', to: 'user' });
  assert.equal(path.hops.length, 2);
  const hits = await m.search({ entity_id: 'kai', query: 'anything at all', entities: ['Ana'] });
  assert.equal(hits.length, 1);
  await assert.rejects(m.traverse({ entity_id: 'kai', from: 'Nobody' }), { code: 'not_found', message: /Nobody/ });
  await assert.rejects(m.traverse({ entity_id: 'kai', from: 'user', depth: 6 }), { code: 'invalid_input' });
  await m.close();
});

test('conflicts are found on remember, listed and resolved through the async API', async () => {
  const m = await open();
  await m.remember({ entity_id: 'kai', content: 'I like coffee.' });
  const r = await m.remember({ entity_id: 'kai', content: "I don't like coffee." });
  assert.deepEqual([r.outcomes[0].action, r.outcomes[0].kind, r.outcomes[0].mode], ['conflict', 'negation', 'ask']);
  const [open_] = await m.conflicts({ entity_id: 'kai', status: 'open' });
  assert.equal(open_.existing_content, 'I like coffee.');
  const done = await m.resolveConflict({ entity_id: 'kai', id: open_.id, resolution: 'use_new' });
  assert.deepEqual([done.status, done.resolution], ['resolved', 'use_new']);
  await assert.rejects(m.resolveConflict({ entity_id: 'kai', id: open_.id, resolution: 'keep_both' }), { code: 'invalid_input' });
  await assert.rejects(m.resolveConflict({ entity_id: 'kai', id: open_.id, resolution: 'perhaps' }), { code: 'invalid_input', message: /resolution/ });
  await m.close();
});

test('an LLM callback answering text is checked; a bad answer falls back and says so', async () => {
  const seen = [];
  const answers = [
    '{"memories": [{"content": "User adopted a cat named Miso", "type": "RELATIONSHIP"}]}',
    'Sure! The user has a cat.',
  ];
  const m = await open({ extract: async (content, ctx) => { seen.push(ctx); return answers.shift(); } });
  const good = await m.remember({ entity_id: 'ana', content: 'We adopted a cat, Miso!' });
  assert.equal(good.fallback, undefined);
  const bad = await m.remember({ entity_id: 'ana', content: 'My sister Ana lives in Porto.' });
  assert.match(bad.fallback, /not the extraction JSON.*built-in extractor/);
  const page = await m.list({ entity_id: 'ana', oldest_first: true });
  assert.deepEqual(page.memories.map((x) => [x.content, x.type]), [
    ['User adopted a cat named Miso', 'RELATIONSHIP'],
    ['My sister Ana lives in Porto.', 'RELATIONSHIP'],
  ]);
  assert.match(seen[0].instructions, /"memories"/);
  await m.close();
});

test('a host summariser gives a merged cluster its text; a failing one leaves the sentences', async () => {
  const said = [
    'Ana drinks green tea every morning.',
    'Every morning Ana drinks green tea.',
    'Ana drinks a green tea every morning.',
    'Ana drinks green tea each morning.',
    'In the morning Ana drinks green tea.',
  ];
  const config = { dedup: { enabled: false } };
  const merge = async (summarise) => {
    const m = await open({ config, summarise });
    await m.seed(said.map((content) => ({ entity_id: 'kai', content })));
    const report = await m.consolidate();
    const clusters = report.consolidation.clusters;
    assert.equal(clusters.merged, 5);
    const [one] = clusters.merges;
    const merged = (await m.list({ entity_id: 'kai' })).memories.find((x) => x.id === one.id);
    const members = await m.list({ entity_id: 'kai', statuses: ['merged'] });
    assert.deepEqual(members.memories.map((x) => x.content).sort(), said.slice().sort(), 'members keep their words');
    await m.close();
    return { clusters, one, merged };
  };
  const asked = [];
  const good = await merge(async (texts, ctx) => {
    asked.push([texts, ctx]);
    return 'Ana drinks green tea every morning.  Always.';
  });
  assert.equal(good.clusters.summarised, 1);
  assert.equal(good.one.summarised, true);
  assert.equal(good.merged.content, 'Ana drinks green tea every morning.  Always.');
  assert.deepEqual(asked[0][0].slice().sort(), said.slice().sort());
  assert.deepEqual(asked[0][1], { entity_id: 'kai', id: good.one.id });

  for (const [summarise, why] of [
    [async () => { throw new Error('rate limited'); }, /summarise failed: rate limited/],
    [() => 42, /expected the summary as text/],
    [() => '   ', /content/],
    [() => 'x'.repeat(50_001), /content/],
  ]) {
    const bad = await merge(summarise);
    assert.deepEqual([bad.clusters.summarised, bad.clusters.unsummarised, bad.one.summarised], [0, 1, false]);
    assert.match(bad.clusters.summary_failure, why);
    const kept = bad.merged.content.toLowerCase();
    // Every word that says something (function words aside) is still there.
    const words = said.flatMap((s) => s.replace('.', '').toLowerCase().split(' ')).filter((w) => !['a', 'in', 'the'].includes(w));
    assert.ok(words.every((w) => kept.includes(w)), kept);
  }
  // A summariser that declines (no LLM to ask now) leaves the sentences, and no failure.
  const declined = await merge(() => null);
  assert.deepEqual([declined.clusters.summarised, declined.clusters.unsummarised, declined.one.summarised], [0, 0, false]);
  assert.equal(declined.clusters.summary_failure, null);
  await assert.rejects(open({ summarise: 'yes' }), { code: 'invalid_input', message: /summarise/ });
});

test('a host summariser writes document summaries the engine could not ask for, checked', async () => {
  const content = '# Trip\n\nWe fly to Lisbon on 3 May and stay in Alfama for a week. The flat has a terrace over the river, and the owner leaves the keys with the café below.\n\n## Food\n\nBook the fado dinner on Thursday. Try the custard tarts in Belém early, before the queues, and the grilled sardines at the market hall.';
  const asked = [];
  const m = await open({
    summarise: async (texts, ctx) => {
      asked.push([texts, ctx]);
      return ctx.position === null ? 'A week in Lisbon: where we stay and eat.' : `Part ${ctx.position} of the trip.`;
    },
  });
  const { document } = await m.ingest({ entity_id: 'ana', title: 'Trip', content, chunking: { min_chars: 100, max_chars: 220, overlap: 20 } });
  assert.ok(document.passages >= 2, JSON.stringify(document));
  const detail = await m.document({ entity_id: 'ana', id: document.id });
  // The first run writes each passage's; the next, the document's from them.
  const first = (await m.consolidate()).consolidation.summaries;
  assert.deepEqual([first.passages, first.documents, first.failure], [document.passages, 0, null]);
  assert.deepEqual(asked[0], [[detail.passages[0].content], { entity_id: 'ana', document_id: document.id, position: 0, title: 'Trip', section: detail.passages[0].section }]);
  const second = (await m.consolidate()).consolidation.summaries;
  assert.deepEqual([second.passages, second.documents], [0, 1]);
  assert.deepEqual(asked.at(-1)[0], detail.passages.map((_, i) => `Part ${i} of the trip.`));
  const after = await m.document({ entity_id: 'ana', id: document.id });
  assert.deepEqual(
    [after.document.summary, after.document.summary_by, after.passages.map((p) => [p.summary, p.summary_by])],
    ['A week in Lisbon: where we stay and eat.', 'llm', detail.passages.map((_, i) => [`Part ${i} of the trip.`, 'llm'])],
  );
  assert.equal((await m.consolidate()).consolidation.summaries.wanted, undefined, 'nothing is wanted any more');
  await m.close();

  // A summariser that fails, or whose answer the engine refuses, leaves the engine's summary.
  for (const [summarise, why] of [
    [async () => { throw new Error('rate limited'); }, /summarise failed: rate limited/],
    [() => 42, /expected the summary as text/],
    [() => 'One. Two. Three.', /3 sentences, more than 2/],
    [() => 'x'.repeat(10_000), /characters, more than 480/],
  ]) {
    const bad = await open({ summarise });
    const { document: d } = await bad.ingest({ entity_id: 'ana', title: 'Trip', content });
    const before = await bad.document({ entity_id: 'ana', id: d.id });
    const report = (await bad.consolidate()).consolidation.summaries;
    assert.deepEqual([report.passages, report.documents], [0, 0]);
    assert.match(report.failure, why);
    assert.deepEqual(await bad.document({ entity_id: 'ana', id: d.id }), before);
    await bad.close();
  }
  // One that declines leaves it too, without a failure, and the summaries stay wanted.
  const later = await open({ summarise: async () => undefined });
  const { document: d } = await later.ingest({ entity_id: 'ana', title: 'Trip', content, chunking: { min_chars: 100, max_chars: 220, overlap: 20 } });
  const before = await later.document({ entity_id: 'ana', id: d.id });
  const report = (await later.consolidate()).consolidation.summaries;
  assert.deepEqual([report.passages, report.documents, report.failure, report.wanted.length], [0, 0, null, d.passages]);
  assert.deepEqual(await later.document({ entity_id: 'ana', id: d.id }), before);
  assert.equal((await later.consolidate()).consolidation.summaries.wanted.length, d.passages, 'still wanted');
  await later.close();
});

test('a host judge decides the bridges consolidation proposes, checked by the engine', async () => {
  const said = async (m) => {
    await m.remember({ entity_id: 'kai', content: 'My friends Tiago and Marta went hiking in the Alps.', session_id: 's1' });
    await m.remember({ entity_id: 'kai', content: 'Yesterday Marta lent Tiago her climbing rope.', session_id: 's2' });
  };
  const asked = [];
  const m = await open({
    judge: async (bridge) => {
      asked.push(bridge);
      return { related: true, relation: 'climbs with', reason: 'They hike together and share a rope.' };
    },
  });
  await said(m);
  const report = (await m.consolidate()).consolidation.synthesis;
  assert.equal(asked.length, 1, JSON.stringify(report));
  assert.deepEqual([asked[0].entity_id, [asked[0].a, asked[0].b].sort(), asked[0].texts.length], ['kai', ['Marta', 'Tiago'], 2]);
  assert.deepEqual([report.proposed, report.confirmed, report.rejected, report.failure], [1, 1, 0, undefined]);
  const [bridge] = await m.bridges({ entity_id: 'kai' });
  assert.deepEqual([bridge.id, bridge.status, bridge.relation, bridge.reason], [asked[0].id, 'confirmed', 'climbs with', 'They hike together and share a rope.']);
  assert.equal((await m.consolidate()).consolidation.synthesis.wanted, undefined, 'nothing is wanted any more');
  await m.close();

  // A judge that fails, answers something else, or that the engine refuses, leaves the bridge proposed.
  for (const [judge, why] of [
    [async () => { throw new Error('rate limited'); }, /judge failed: rate limited/],
    [() => 'yes', /expected a decision/],
    [() => [true], /expected a decision/],
    [() => ({ related: true, reason: 'They hike.' }), /related but not how|relation/],
    [() => ({ related: 'yes', relation: 'friends', reason: 'They hike.' }), /related/],
    [() => ({ related: false, reason: 'x'.repeat(10_000) }), /more than 480/],
    [() => ({ related: false, reason: '   ' }), /reason/],
  ]) {
    const bad = await open({ judge });
    await said(bad);
    const r = (await bad.consolidate()).consolidation.synthesis;
    assert.deepEqual([r.proposed, r.confirmed, r.rejected], [1, 0, 0]);
    assert.match(r.failure, why);
    assert.deepEqual((await bad.bridges({ entity_id: 'kai' })).map((x) => x.status), ['proposed']);
    await bad.close();
  }
  // One that declines leaves it proposed without a failure, and wanted again; a rejection is kept.
  let answer = null;
  const later = await open({ judge: async () => answer });
  await said(later);
  const first = (await later.consolidate()).consolidation.synthesis;
  assert.deepEqual([first.confirmed, first.rejected, first.failure, first.wanted.length], [0, 0, undefined, 1]);
  answer = { related: false, reason: 'Mentioned together only.' };
  const second = (await later.consolidate()).consolidation.synthesis;
  assert.deepEqual([second.confirmed, second.rejected], [0, 1]);
  assert.deepEqual((await later.bridges({ entity_id: 'kai' })).map((x) => x.status), ['rejected']);
  await later.close();
  await assert.rejects(open({ judge: 'yes' }), { code: 'invalid_input', message: /judge/ });
});

test('schedules fall due once per due time as setNow moves the clock', async () => {
  const MON_8AM = 1_835_337_600_000;
  const m = await Mnemo.open({ storage: 'memory', now: MON_8AM, seed: 1 });
  const s = await m.scheduleCreate({ entity_id: 'kai', content: 'stand-up', cron_tag: 'cron:weekdays:09:30' });
  assert.equal(s.next_due_at, MON_8AM + 90 * 60_000);
  await m.setNow(MON_8AM + 2 * 3_600_000);
  assert.deepEqual((await m.scheduled({ entity_id: 'kai' })).map((x) => x.id), [s.id]);
  assert.deepEqual(await m.scheduled({ entity_id: 'kai' }), []);
  const acked = await m.scheduleAck({ entity_id: 'kai', id: s.id });
  assert.equal(acked.next_due_at, MON_8AM + 24 * 3_600_000 + 90 * 60_000);
  await assert.rejects(m.scheduleCreate({ entity_id: 'kai', content: 'x', cron_tag: 'cron:daily:25:00' }), { code: 'invalid_input', message: /no such time/ });
  const gone = await m.scheduleCancel({ entity_id: 'kai', id: s.id });
  assert.equal(gone.status, 'cancelled');
  assert.deepEqual(await m.schedules({ entity_id: 'kai' }), []);
  await m.close();
});

test('the heartbeat decides from stored rows: no embedder or extractor call, acts and messages recorded', async () => {
  const MON_10AM = 1_795_428_000_000;
  const calls = { embed: 0, extract: 0 };
  const embed = {
    model: 'toy-vowels',
    dimension: 3,
    embed: async (texts) => {
      calls.embed += 1;
      return texts.map((t) => {
        const v = ['a', 'e', 'o'].map((c) => t.split(c).length - 1 + 0.1);
        const n = Math.hypot(...v);
        return new Float32Array(v.map((x) => x / n));
      });
    },
  };
  const extract = async (content) => {
    calls.extract += 1;
    return [{ content, type: 'PLAN', importance: 0.7, expires_at: MON_10AM + 3 * 3_600_000 }];
  };
  const m = await Mnemo.open({ storage: 'memory', now: MON_10AM, seed: 2, embed, extract });
  const hello = await m.heartbeatCheck({ entity_id: 'kai' });
  assert.equal(hello.decision_reason, 'first_contact');
  await m.remember({ entity_id: 'kai', content: 'Send the invoice to Globex' });
  const before = { ...calls };
  const dry = await m.heartbeatCheck({ entity_id: 'kai', dry_run: true });
  assert.equal(dry.decision_reason, 'act_immediate');
  assert.equal(dry.act_id, null);
  assert.equal(dry.deadlines[0].content, 'Send the invoice to Globex');
  const report = await m.heartbeatCheck({ entity_id: 'kai' });
  assert.match(report.act_id, /^act_[0-9a-f]{16}$/);
  assert.equal(report.fingerprint, dry.fingerprint);
  const msg = await m.recordMessage({ entity_id: 'kai', role: 'agent', content: 'The invoice is due at 13:00', act_id: report.act_id });
  assert.equal(msg.act_id, report.act_id);
  await m.setNow(MON_10AM + 60_000);
  const again = await m.heartbeatCheck({ entity_id: 'kai', dry_run: true });
  assert.equal(again.should_act, false);
  assert.equal(again.in_conversation, true);
  const ctx = await m.heartbeatContext({ entity_id: 'kai', dry_run: true });
  assert.deepEqual(ctx.recent_messages.map((x) => x.content), ['The invoice is due at 13:00']);
  assert.deepEqual(calls, before, 'a check embeds and extracts nothing');
  await assert.rejects(m.heartbeatCheck({ entity_id: 'kai', autonomy: 'shout' }), { code: 'invalid_input', message: /autonomy/ });
  await assert.rejects(m.heartbeatCheck({ entity_id: 'kai', utc_offset_minutes: Number.NaN }), { code: 'invalid_input' });
  await assert.rejects(m.recordMessage({ entity_id: 'kai', role: 'user', content: '' }), { code: 'invalid_input' });
  await assert.rejects(m.recordMessage({ entity_id: 'kai', role: 'user', content: 'x', act_id: report.act_id }), { code: 'invalid_input' });
  await m.close();
});

test('JSONL export and import move one owner between stores', async () => {
  const a = await open();
  await a.seed(facts);
  const jsonl = await a.export({ entity_id: 'ana' });
  assert.equal(jsonl.trim().split('\n').length, 2);
  const b = await open({ seed: 8 });
  const report = await b.import(jsonl);
  assert.equal(report.restored, 2);
  assert.equal((await b.stats({ entity_id: 'ben' })).total, 0);
  await assert.rejects(b.import('{"nope": 1}\n'), { code: 'import_error' });
  await Promise.all([a.close(), b.close()]);
});

test('the clock is the host’s: setNow moves a fixed clock, the system clock refuses it', async () => {
  const m = await open();
  await m.seed([facts[0]]);
  await m.setNow(T0 + 400 * 86_400_000);
  const [hit] = await m.search({ entity_id: 'ana', query: 'green tea' });
  assert.ok(hit.why.retention < 0.3, `retention ${hit.why.retention}`);
  const live = await Mnemo.open({ storage: 'memory' });
  await assert.rejects(live.setNow(T0), { code: 'invalid_input' });
  const [{ created_at }] = (await live.seed([facts[0]])) && (await live.list({ entity_id: 'ana' })).memories;
  assert.ok(Math.abs(created_at - Date.now()) < 60_000);
  await Promise.all([m.close(), live.close()]);
});

test('storage names and kinds are checked', async () => {
  await assert.rejects(Mnemo.open({ storage: 'cloud' }), { code: 'unknown_value' });
  await assert.rejects(Mnemo.open({ storage: 'idb' }), { code: 'storage_unavailable' });
  await assert.rejects(Mnemo.open({ storage: 'memory', name: '../etc' }), { code: 'invalid_input' });
  await assert.rejects(Mnemo.open({ storage: 'memory', colour: 1 }), { code: 'invalid_input' });
  await assert.rejects(Mnemo.open(null), { code: 'invalid_input' });
});

test('a host summariser writes peer cards the engine could not ask for, checked', async () => {
  const asked = [];
  const m = await open({
    summarise: async (texts, ctx) => {
      asked.push([texts, ctx]);
      return ctx.card ? `${ctx.card} is the user's sister, a nurse in Porto.` : null;
    },
  });
  for (const content of ['My sister Ana lives in Porto.', 'Ana works at Farfetch.', 'Ana is a nurse and she loves surfing.']) {
    await m.remember({ entity_id: 'kai', content });
  }
  const before = await m.card({ entity_id: 'kai', name: 'Ana' });
  assert.equal(before.summary_by, 'engine');
  const report = (await m.consolidate()).consolidation.cards;
  assert.deepEqual([report.written, report.failure], [1, undefined]);
  const [texts, ctx] = asked.find(([, c]) => c.card);
  assert.deepEqual(ctx, { entity_id: 'kai', card: before.name });
  assert.equal(texts[0], `${before.name} (person)`);
  assert.ok(texts.some((t) => t === '- Ana works at Farfetch.'), JSON.stringify(texts));
  const after = await m.card({ entity_id: 'kai', name: 'Ana' });
  assert.deepEqual([after.summary_by, after.summary], ['llm', `${before.name} is the user's sister, a nurse in Porto.`]);
  assert.equal((await m.consolidate()).consolidation.cards.wanted, undefined, 'nothing is wanted any more');
  // The engine checks what the host writes: too long, empty, or for an entity without a card.
  await assert.rejects(m.writeCardSummary({ entity_id: 'kai', name: 'Ana', summary: 'One. Two. Three. Four.' }), { code: 'invalid_input', message: /summary/ });
  await assert.rejects(m.writeCardSummary({ entity_id: 'kai', name: 'Ana', summary: ' ' }), { code: 'invalid_input' });
  await assert.rejects(m.writeCardSummary({ entity_id: 'kai', name: 'Farfetch', summary: 'A shop.' }), { code: 'not_found', message: /a card needs 3/ });
  await assert.rejects(m.writeCardSummary({ entity_id: 'kai', name: 'Zeus', summary: 'A god.' }), { code: 'not_found' });
  await m.close();
});
