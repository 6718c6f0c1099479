// The package in real headless Chromium (Debian's, driven by playwright-core): OPFS stores in
// a dedicated worker that survive reloads and browser restarts, the conformance scenario
// against the native core, bad input, a second tab, and the IndexedDB fallback.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { rm } from 'node:fs/promises';

import { browser, nativeScenario, newProfile, scenarioNames, serve } from './helpers.mjs';

let server;
before(async () => {
  server = await serve();
});
after(() => server.close());

const facts = [
  { entity_id: 'ana', content: 'Ana drinks green tea every morning', type: 'PREFERENCE' },
  { entity_id: 'ana', content: "Ana's sister Lena lives in Lisbon", type: 'RELATIONSHIP' },
  { entity_id: 'ben', content: 'Ben drinks black coffee', type: 'PREFERENCE' },
];

/** A page of the test site, with the package loaded. */
async function page(context) {
  const p = await context.newPage();
  p.on('pageerror', (e) => console.error('page error:', e.message));
  await p.goto(`${server.url}/www/test/page.html`);
  await p.waitForFunction(() => window.ready === true);
  return p;
}

/**
 * Runs `fn(launch)` with a fresh profile directory; `launch()` starts Chromium on it. Every
 * browser still open afterwards is closed (also when an assertion failed), and the profile
 * removed.
 */
async function withProfile(fn) {
  const profile = await newProfile();
  const open = [];
  const launch = async () => {
    const context = await browser(profile);
    open.push(context);
    return context;
  };
  try {
    await fn(launch);
  } finally {
    await Promise.allSettled(open.map((c) => c.close()));
    await rm(profile, { recursive: true, force: true });
  }
}

/** Counts the network requests for the default embedder's weights file made in `context`. */
function countWeightFetches(context) {
  const seen = { count: 0 };
  context.on('request', (r) => {
    if (r.url().endsWith('/mnemo-static-v1.bin')) seen.count++;
  });
  return seen;
}

test('an OPFS store survives a reload and a browser restart', async () => {
  await withProfile(async (launch) => {
    let context = await launch();
    const firstFetches = countWeightFetches(context);
    let p = await page(context);
    const seeded = await p.evaluate(async (facts) => {
      const m = await Mnemo.open({ name: 'e2e', storage: 'opfs' });
      const r = await m.seed(facts);
      return r.outcomes.map((o) => o.id);
    }, facts);
    assert.equal(seeded.filter(Boolean).length, 3);

    // Reload without closing: the worker dies with the page, every call was a transaction.
    await p.reload();
    await p.waitForFunction(() => window.ready === true);
    const afterReload = await p.evaluate(async () => {
      const m = await Mnemo.open({ name: 'e2e', storage: 'opfs' });
      const hits = await m.search({ entity_id: 'ana', query: 'green tea' });
      const stats = await m.stats({ entity_id: 'ana' });
      await m.close();
      return { first: hits[0].memory.id, total: stats.total };
    });
    assert.equal(afterReload.first, seeded[0]);
    assert.equal(afterReload.total, 2);
    // Two workers each loaded the embedder's weights; only the first downloaded them.
    assert.equal(firstFetches.count, 1);
    await context.close();

    context = await launch();
    const laterFetches = countWeightFetches(context);
    p = await page(context);
    const afterRestart = await p.evaluate(async () => {
      const m = await Mnemo.open({ name: 'e2e', storage: 'opfs' });
      const hits = await m.search({ entity_id: 'ben', query: 'coffee' });
      return hits.map((h) => h.memory.id);
    });
    assert.deepEqual(afterRestart, [seeded[2]]);
    // After a restart they come from the Cache API, not the network.
    assert.equal(laterFetches.count, 0);
    await context.close();
  });
});

for (const name of scenarioNames()) {
  test(`in Chromium over OPFS scenario ${name} gives the native core’s JSON, byte for byte`, async () => {
    const { scenario, native } = nativeScenario(name);
    await withProfile(async (launch) => {
      const context = await launch();
      const p = await page(context);
      const got = await p.evaluate(async (s) => {
        const m = await Mnemo.open({ name: 'conformance', storage: 'opfs', now: s.now, seed: s.seed, config: s.config });
        const out = await runSteps(m, s.steps);
        await m.close();
        return JSON.stringify(out);
      }, scenario);
      assert.equal(got, JSON.stringify(native));
    });
  });
}

test('bad input from JS rejects with a clear error and leaves the OPFS store unchanged', async () => {
  await withProfile(async (launch) => {
    const context = await launch();
    const p = await page(context);
    const result = await p.evaluate(async (facts) => {
      const m = await Mnemo.open({ name: 'bad', storage: 'opfs' });
      await m.seed(facts);
      const before = JSON.stringify(await m.list({ entity_id: 'ana' }));
      const nanVector = new Float32Array(384).fill(0.1);
      nanVector[7] = NaN;
      const cases = {
        wrongType: () => m.seed([{ entity_id: 'ana', content: { text: 'hi' } }]),
        nanVector: () => m.seed([{ entity_id: 'ana', content: 'vector with a hole', vector: nanVector }]),
        infImportance: () => m.seed([{ entity_id: 'ana', content: 'x', importance: Infinity }]),
        wrongDimension: () => m.search({ entity_id: 'ana', query: 'tea', vector: [1, 2] }),
        hugeString: () => m.remember({ entity_id: 'ana', content: 'memory '.repeat(100_000) }),
        hugeBatchOneBad: () =>
          m.seed([...Array(500)].map((_, i) => ({ entity_id: 'ana', content: `fact ${i}` })).concat([{ entity_id: '', content: 'x' }])),
        unknownField: () => m.search({ entity_id: 'ana', query: 'tea', colour: 'red' }),
        unknownMethod: () => m.call('drop', {}),
        bigint: () => m.search({ entity_id: 'ana', query: 'tea', limit: 10n }),
        injection: () => m.get({ entity_id: 'ana', id: "x'; DROP TABLE memories; --" }),
      };
      const errors = {};
      for (const [name, run] of Object.entries(cases)) errors[name] = (await attempt(run)).error ?? 'resolved';
      const after = JSON.stringify(await m.list({ entity_id: 'ana' }));
      const unicode = await m.search({ entity_id: 'ana', query: '🍵 "tea" NEAR( OR' });
      await m.close();
      return { errors, unchanged: before === after, unicodeTop: unicode[0]?.memory.content };
    }, facts);
    const e = result.errors;
    assert.equal(e.wrongType.code, 'invalid_input');
    assert.match(e.wrongType.message, /args\.items\[0\]\.content/);
    assert.deepEqual(e.nanVector, { code: 'non_finite_vector', message: 'vector element 7 is NaN; vectors must be finite' });
    assert.equal(e.infImportance.code, 'invalid_input');
    assert.match(e.infImportance.message, /importance/);
    assert.equal(e.wrongDimension.code, 'dimension_mismatch');
    assert.equal(e.hugeString.code, 'invalid_input');
    assert.match(e.hugeString.message, /content/);
    assert.equal(e.hugeBatchOneBad.code, 'invalid_input');
    assert.match(e.hugeBatchOneBad.message, /entity_id/);
    assert.match(e.unknownField.message, /colour/);
    assert.equal(e.unknownMethod.code, 'unknown_value');
    assert.equal(e.bigint.code, 'invalid_input');
    assert.equal(e.injection.code, 'invalid_input');
    assert.ok(result.unchanged, 'a rejected call changed the store');
    assert.equal(result.unicodeTop, facts[0].content);
    await context.close();
  });
});

/** Two tabs of one browser; the first holds OPFS store `name`, seeded with `facts`. */
async function twoTabs(launch, name) {
  const context = await launch();
  const first = await page(context);
  const second = await page(context);
  await first.evaluate(
    async ({ facts, name }) => {
      window.store = await Mnemo.open({ name, storage: 'opfs' });
      await window.store.seed(facts);
    },
    { facts, name },
  );
  return { first, second };
}

test('with share: false a second tab gets a clear error, and the store once the first tab closes it', async () => {
  await withProfile(async (launch) => {
    const { first, second } = await twoTabs(launch, 'shared');
    const refused = await second.evaluate(() => attempt(() => Mnemo.open({ name: 'shared', storage: 'opfs', share: false })));
    assert.equal(refused.error.code, 'store_locked');
    assert.match(refused.error.message, /open in another tab/);
    // The first tab still works, and nothing was damaged.
    assert.equal(await first.evaluate(async () => (await window.store.stats({ entity_id: 'ana' })).total), 2);
    await first.evaluate(() => window.store.close());
    const total = await second.evaluate(async () => {
      const m = await Mnemo.open({ name: 'shared', storage: 'opfs' });
      return (await m.stats({ entity_id: 'ana' })).total;
    });
    assert.equal(total, 2);
  });
});

test('a second tab is served through the tab that holds the store', async () => {
  await withProfile(async (launch) => {
    const { first, second } = await twoTabs(launch, 'served');
    const guest = await second.evaluate(async () => {
      window.store = await Mnemo.open({ name: 'served', storage: 'opfs' });
      const wrote = await window.store.seed([{ entity_id: 'ana', content: 'Ana takes the 8:15 train to work' }]);
      const hits = await window.store.search({ entity_id: 'ana', query: 'green tea' });
      const bad = await attempt(() => window.store.seed([{ entity_id: 'ana', content: 7 }]));
      const mismatch = await attempt(() =>
        Mnemo.open({ name: 'served', storage: 'opfs', embed: { model: 'toy', dimension: 3, embed: (t) => t.map(() => [1, 0, 0]) } }),
      );
      // Vectors cross from the holder's worker to this tab as a Float32Array.
      const flat = await window.store.embedVectors({ texts: ['green tea', 'the 8:15 train'] });
      const json = await window.store.embed({ texts: ['green tea', 'the 8:15 train'] });
      const same = json.vectors.flat().every((x, i) => Math.fround(x) === flat.vectors[i]);
      const vectors = { float32: flat.vectors instanceof Float32Array, length: flat.vectors.length, same };
      return { wrote: wrote.outcomes[0].action, top: hits[0]?.memory.content, bad: bad.error, mismatch: mismatch.error, vectors };
    });
    assert.deepEqual(guest.vectors, { float32: true, length: 512, same: true });
    assert.equal(guest.wrote, 'created');
    assert.equal(guest.top, facts[0].content);
    assert.equal(guest.bad.code, 'invalid_input');
    assert.equal(guest.mismatch.code, 'embedder_mismatch');
    // The write went to the one store the first tab holds.
    assert.equal(await first.evaluate(async () => (await window.store.stats({ entity_id: 'ana' })).total), 3);
    // When the holder closes, the guest is told, and can then hold the store itself.
    await first.evaluate(() => window.store.close());
    const after = await second.evaluate(async () => {
      const moved = await attempt(() => window.store.stats({ entity_id: 'ana' }));
      const own = await Mnemo.open({ name: 'served', storage: 'opfs' });
      return { moved: moved.error, total: (await own.stats({ entity_id: 'ana' })).total };
    });
    assert.equal(after.moved.code, 'store_moved');
    assert.equal(after.total, 3);
  });
});

test('a host embedder embeds a document in the page for the worker, and for a second tab through the first', async () => {
  await withProfile(async (launch) => {
    const context = await launch();
    const [first, second] = [await page(context), await page(context)];
    // The same toy 3-d model in both tabs (counts of budget, travel and other words).
    const install = () => {
      window.toy = {
        model: 'toy-topics',
        dimension: 3,
        embed: async (texts) =>
          texts.map((t) => {
            const w = t.toLowerCase().split(/\W+/).filter(Boolean);
            return new Float32Array([w.filter((x) => x === 'budget').length, w.filter((x) => x === 'travel').length, 0.1]);
          }),
      };
      window.doc = (topic) =>
        `# ${topic}\n\n` + Array.from({ length: 30 }, (_, i) => `The ${topic} note ${i} was read aloud at the meeting.`).join(' ');
    };
    await first.evaluate(install);
    await second.evaluate(install);
    const held = await first.evaluate(async () => {
      window.store = await Mnemo.open({ name: 'docs', storage: 'opfs', embed: window.toy });
      const r = await window.store.ingest({ entity_id: 'ana', title: 'Budget', content: window.doc('budget') });
      const hits = await window.store.search({ entity_id: 'ana', query: 'budget', kinds: ['passage'] });
      const bad = await attempt(() =>
        Mnemo.open({ name: 'other', storage: 'opfs', embed: { ...window.toy, embed: async () => { throw new Error('offline'); } } }).then((m) =>
          m.ingest({ entity_id: 'ana', content: window.doc('budget') }),
        ),
      );
      return { action: r.action, passages: r.document.passages, top: hits[0]?.passage?.title, vector: hits[0]?.why.vector, bad: bad.error };
    });
    assert.equal(held.action, 'created');
    assert.ok(held.passages >= 2, JSON.stringify(held));
    assert.equal(held.top, 'Budget');
    assert.ok(held.vector > 0.9, JSON.stringify(held));
    assert.equal(held.bad.code, 'embedder_error');
    // A second tab, served by the first, ingests through it with its own embedder.
    const guest = await second.evaluate(async () => {
      const m = await Mnemo.open({ name: 'docs', storage: 'opfs', embed: window.toy });
      const r = await m.ingest({ entity_id: 'ana', title: 'Travel', content: window.doc('travel') });
      const hits = await m.search({ entity_id: 'ana', query: 'travel', kinds: ['passage'] });
      return { action: r.action, top: hits[0]?.passage?.title };
    });
    assert.deepEqual(guest, { action: 'created', top: 'Travel' });
    assert.equal((await first.evaluate(() => window.store.documents({ entity_id: 'ana' }))).length, 2);
  });
});

test('fromBytes restores a native WAL-mode mnemo.db into a new OPFS store that outlives a restart, never over one', async () => {
  await withProfile(async (launch) => {
    let context = await launch();
    let p = await page(context);
    const got = await p.evaluate(async (facts) => {
      const source = await Mnemo.open({ name: 'source', storage: 'memory' });
      await source.seed(facts);
      const bytes = await source.exportBytes();
      await source.close();
      // What the native server's mnemo.db says after a crash (or copied without its -wal):
      // header bytes 18 and 19 say WAL, which the OPFS pool cannot run.
      bytes[18] = 2;
      bytes[19] = 2;
      const m = await Mnemo.fromBytes(bytes, { name: 'restored', storage: 'opfs' });
      await m.seed([{ entity_id: 'ana', content: 'Ana learns Portuguese' }]);
      const total = (await m.stats({ entity_id: 'ana' })).total;
      const header = Array.from((await m.exportBytes()).slice(18, 20));
      await m.close();
      const over = await attempt(() => Mnemo.fromBytes(bytes, { name: 'restored', storage: 'opfs' }));
      const junk = await attempt(() => Mnemo.fromBytes(new TextEncoder().encode('SQLite format 3 and nothing else'), { name: 'junk', storage: 'opfs' }));
      // The refused image wrote nothing: the name opens as a new, empty store.
      const fresh = await Mnemo.open({ name: 'junk', storage: 'opfs' });
      const freshTotal = (await fresh.stats({ entity_id: 'ana' })).total;
      await fresh.close();
      const badName = await attempt(() => Mnemo.fromBytes(bytes, { name: '../x', storage: 'opfs' }));
      return { total, header, over: over.error, junk: junk.error, freshTotal, badName: badName.error };
    }, facts);
    assert.equal(got.total, 3);
    assert.deepEqual(got.header, [1, 1]);
    assert.equal(got.over.code, 'store_exists');
    assert.equal(got.junk.code, 'not_a_store');
    assert.equal(got.freshTotal, 0);
    assert.equal(got.badName.code, 'invalid_input');
    await context.close();

    // A new browser on the same profile: the restored store, its write and nothing from the
    // refused second restore.
    context = await launch();
    p = await page(context);
    const after = await p.evaluate(async () => {
      const m = await Mnemo.open({ name: 'restored', storage: 'opfs' });
      const hits = await m.search({ entity_id: 'ana', query: 'Portuguese' });
      const total = (await m.stats({ entity_id: 'ana' })).total;
      await m.close();
      return { top: hits[0]?.memory.content, total };
    });
    assert.deepEqual(after, { top: 'Ana learns Portuguese', total: 3 });
    await context.close();
  });
});

test("the README's first example runs in a page as written", async () => {
  // Its first ```js block, given what it assumes (a blob store holding a store image, and the
  // bytes of one to move in), its import the page's.
  const { readFile } = await import('node:fs/promises');
  const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8');
  const block = readme.split('```js\n')[1].split('```')[0];
  assert.match(block, /^import \{ Mnemo \} from '@mnemo\/memory';$/m);
  // What the agent's handle sees is read before the owner's handle closes the store.
  assert.match(block, /^await m\.close\(\);$/m);
  const code = block
    .replace(/^import .*$/m, '')
    .replace(/^await m\.close\(\);$/m, "const bobSaw = await bob.search({ entity_id: 'ana', query: 'Eva nurse Lisbon' });\n$&");
  await withProfile(async (launch) => {
    const p = await page(await launch());
    const done = await p.evaluate(async (code) => {
      const { image, saved, blob } = await blobStore('Ana keeps bees on the roof');
      const example = new Function(
        'Mnemo', 'blob', 'bytes',
        `return (async () => {\n${code}\nreturn { hits, bobSaw, moved };\n})();`,
      );
      const { hits, bobSaw, moved } = await example(Mnemo, blob, image);
      return {
        top: hits[0].memory.content,
        why: Object.keys(hits[0].why),
        saved,
        moved: (await moved.search({ entity_id: 'ana', query: 'bees' })).map((h) => h.memory.content),
        bob: bobSaw.length,
      };
    }, code);
    // Search finds what was seeded, and says why.
    assert.equal(done.top, "Ana's sister Eva is a nurse");
    assert.ok(done.why.includes('semantic') && done.why.includes('text'), JSON.stringify(done.why));
    // The edge store went back to the blob store; the moved image kept its memory.
    assert.equal(done.saved.length, 1);
    assert.ok(done.saved[0] > 4096, String(done.saved[0]));
    assert.deepEqual(done.moved, ['Ana keeps bees on the roof']);
    // The agent's handle sees none of what the owner's wrote, private by default.
    assert.equal(done.bob, 0);
  });
});

test("the repository README's browser example runs in a page as written", async () => {
  // Its ```js block, given what it assumes: a file input holding a markdown file, and a blob
  // store holding a store image.
  const { readFile } = await import('node:fs/promises');
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const block = readme.split('```js\n')[1].split('```')[0];
  assert.match(block, /^import \{ Mnemo \} from '@mnemo\/memory';/m);
  const code = block.replace(/^import .*$/m, '');
  await withProfile(async (launch) => {
    const p = await page(await launch());
    const done = await p.evaluate(async (code) => {
      const { saved, blob } = await blobStore('Ana keeps bees on the roof');
      const file = new File(['# Ferry\n\nThe ferry to the island leaves at 7:40 from pier 3.\n'], 'ferry.md', { type: 'text/markdown' });
      const input = { files: [file] };
      const logged = [];
      const console = { log: (...a) => logged.push(a) };
      const example = new Function(
        'Mnemo', 'blob', 'input', 'console',
        `return (async () => {\n${code}\nreturn { hits, store };\n})();`,
      );
      const { hits, store } = await example(Mnemo, blob, input, console);
      const again = await Mnemo.open({ name: 'chat', storage: 'opfs' });
      const ferry = await again.search({ entity_id: 'ana', query: 'when does the ferry leave?' });
      await again.close();
      return {
        top: hits[0].memory.content,
        logged: logged.map((a) => [a[0], typeof a[1], Object.keys(a[2] ?? {}).length]),
        ferry: ferry[0]?.passage ? ferry[0].memory.content : null,
        bees: (await store.search({ entity_id: 'ana', query: 'bees' })).map((h) => h.memory.content),
        saved,
      };
    }, code);
    // What it prints: the hit, its score and why.
    assert.equal(done.top, "Ana's sister Eva is a nurse");
    assert.deepEqual(done.logged.map(([content, score]) => [content, score]), [["Ana's sister Eva is a nurse", 'number']]);
    assert.ok(done.logged[0][2] > 3, JSON.stringify(done.logged));
    // The file went in as a document whose passage search finds, in the OPFS store it closed.
    assert.match(done.ferry ?? '', /7:40 from pier 3/);
    // The edge store came from the blob store and went back to it.
    assert.deepEqual(done.bees, ['Ana keeps bees on the roof']);
    assert.equal(done.saved.length, 1);
  });
});

test('the IndexedDB storage keeps a store across reloads', async () => {
  await withProfile(async (launch) => {
    const context = await launch();
    const p = await page(context);
    const id = await p.evaluate(async (facts) => {
      const m = await Mnemo.open({ name: 'fallback', storage: 'idb' });
      const r = await m.seed(facts);
      return r.outcomes[1].id;
    }, facts);
    await p.reload();
    await p.waitForFunction(() => window.ready === true);
    const hits = await p.evaluate(async () => {
      const m = await Mnemo.open({ name: 'fallback', storage: 'idb' });
      return (await m.search({ entity_id: 'ana', query: 'sister in Lisbon' })).map((h) => h.memory.id);
    });
    assert.equal(hits[0], id);
    // A store restored from an image into IndexedDB survives a reload; a second restore onto
    // its name is refused.
    const restored = await p.evaluate(async () => {
      const m = await Mnemo.open({ name: 'fallback', storage: 'idb' });
      const bytes = await m.exportBytes();
      await m.close();
      const copy = await Mnemo.fromBytes(bytes, { name: 'copy', storage: 'idb' });
      await copy.seed([{ entity_id: 'ana', content: 'Ana learns Portuguese' }]);
      await copy.close();
      return (await attempt(() => Mnemo.fromBytes(bytes, { name: 'copy', storage: 'idb' }))).error;
    });
    assert.equal(restored.code, 'store_exists');
    await p.reload();
    await p.waitForFunction(() => window.ready === true);
    const copyTotal = await p.evaluate(async () => {
      const m = await Mnemo.open({ name: 'copy', storage: 'idb' });
      return (await m.stats({ entity_id: 'ana' })).total;
    });
    assert.equal(copyTotal, 3);
    await context.close();
  });
});

test('the demo chat stores, lists and explains memories (screenshot)', async () => {
  await withProfile(async (launch) => {
    const context = await launch();
    const p = await context.newPage();
    p.on('pageerror', (e) => console.error('demo error:', e.message));
    await p.setViewportSize({ width: 1400, height: 800 });
    await p.goto(`${server.url}/www/demo/index.html?user=sam`);
    await p.waitForFunction(() => window.mnemoDemoReady === true);
    const messages = [
      'I live in Porto and work as a marine biologist',
      'My favourite drink is green tea with a little honey',
      'My sister Ines is visiting me in May',
      'My favourite drink is green tea with a little honey',
    ];
    for (const [i, text] of messages.entries()) {
      await p.fill('#message', text);
      await p.click('#say button');
      await p.waitForFunction((n) => document.querySelectorAll('#chat li.agent').length === n, i + 1);
    }
    // The heartbeat said hello to a new owner when the page opened; a check now decides again.
    assert.match(await p.textContent('#chat li.nudge'), /^Hi!/);
    await p.evaluate(() => { document.querySelector('#decision').textContent = ''; });
    await p.click('#beat');
    await p.waitForFunction(() => document.querySelector('#decision').textContent !== '');
    assert.match(await p.textContent('#decision'), /^(speak up|stay quiet) — [a-z ]+(, [a-z]+)? · (morning|working|evening|late night|quiet) · confluence \d+/);
    assert.ok((await p.$$('#signals li')).length > 0);
    assert.match(await p.textContent('#next-beat'), /^\d+ min$/);
    await p.fill('#query', 'what do I like to drink?');
    await p.click('#find button');
    await p.waitForFunction(() => document.querySelectorAll('#hits li').length > 0);

    const replies = await p.$$eval('#chat li.agent', (li) => li.map((x) => x.textContent));
    assert.equal(replies[0], 'Noted.');
    assert.match(replies[3], /I already knew that \(exact duplicate\)/);
    const rows = await p.$$eval('#memories tbody tr', (tr) => tr.map((r) => [...r.cells].map((c) => c.textContent)));
    assert.equal(rows.length, 3);
    // The built-in extractor typed each statement.
    assert.ok(rows.some(([content, type, , state]) => content.includes('green tea') && type === 'PREFERENCE' && state === 'ACTIVE'));
    assert.ok(rows.some(([content, type]) => content.includes('sister Ines') && type === 'RELATIONSHIP'));
    assert.equal(await p.textContent('#count'), '(3)');
    // Each memory cites the message it was said in, as `remember`'s source_ref: the user's
    // message in the chat with that recorded id, and no two of the three the same message.
    const cited = async () => p.$$eval('#memories tbody tr', (tr) => tr.map((r) => {
      const id = r.title.replace(/^said in message /, '');
      return [r.cells[0].textContent, document.querySelector(`#chat li.user[data-message="${CSS.escape(id)}"]`)?.textContent ?? null];
    }));
    const sources = await cited();
    assert.ok(sources.every(([content, message]) => message !== null && message.includes(content.slice(0, 20))), JSON.stringify(sources));
    assert.equal(new Set(sources.map(([, message]) => message)).size, 3);
    const top = await p.textContent('#hits li');
    assert.match(top, /green tea/);
    assert.match(top, /relevance \d\.\d\d \(text \d\.\d\d, vector \d\.\d\d/);
    // Why, in words: what it says of the question, and how relevant it is.
    assert.match(top, /^\d\.\d\d My favourite drink is green tea with a little honey\d+ % relevant: it says “drink”/);
    // Asked in other words, meaning finds the job; never told, nothing comes back.
    await p.fill('#query', 'what do I do for a living?');
    await p.click('#find button');
    await p.waitForFunction(() => /biologist/.test(document.querySelector('#hits li')?.textContent ?? ''));
    assert.match(await p.textContent('#hits li'), /close in meaning|nearly the same/);
    assert.match(await p.textContent('#embedder'), /mnemo-static-v1 \(256-d\)/);
    // The tiers are listed; a consolidation says what each step did.
    assert.ok(rows.every(([, , , , tier]) => ['hot', 'warm', 'archive'].includes(tier)), JSON.stringify(rows));
    await p.evaluate(() => { document.querySelector('#consolidation').textContent = ''; });
    await p.click('#consolidate');
    await p.waitForFunction(() => document.querySelector('#consolidation').textContent !== '');
    assert.match(await p.textContent('#consolidation'), /^last consolidation .*: 0 tagged · 0 merged in 0 clusters · 0 archived · 0 stale relationships removed · \d+ linked by what they share · 0 co-recall links faded · 0 vectors stored with fewer bits · 0 faded by decay$/);
    assert.equal(await p.textContent('#storage'), 'opfs');

    // A file given to the page (as a drop or the file input does) becomes a document: its
    // passages, summaries and tags are shown, and search finds the passage that answers.
    const ferry = '<html><head><title>Ferry timetable</title><script>track()</script></head><body><h1>Ferry</h1>' +
      '<p>The ferry to the island leaves at 7:40 from pier 3. Tickets are sold on board.</p>' +
      '<h2>Winter</h2><p>In winter the ferry runs twice a day, at 8:10 and at 17:30.</p></body></html>';
    await p.setInputFiles('#file', { name: 'ferry.html', mimeType: 'text/html', buffer: Buffer.from(ferry) });
    await p.waitForFunction(() => document.querySelectorAll('#documents li').length === 1);
    assert.match(await p.textContent('#documents li'), /^Ferry timetable — 2 passages, html: .*winter.* #upload #html #ferry/);
    assert.match(await p.textContent('#ingested'), /^ferry\.html: 2 passages/);
    await p.click('#documents li');
    await p.waitForFunction(() => document.querySelectorAll('#passages li').length === 2);
    assert.match(await p.textContent('#passages li:nth-child(2)'), /^Ferry › WinterIn winter the ferry runs twice a day/);
    await p.fill('#query', 'when does the ferry run in winter?');
    await p.click('#find button');
    await p.waitForFunction(() => /from “Ferry timetable” › Ferry › Winter/.test(document.querySelector('#hits li')?.textContent ?? ''));
    assert.equal(await p.textContent('#count'), '(3)', 'passages are listed with their document, not as memories');
    // A binary file is refused by name, and nothing is stored.
    await p.setInputFiles('#file', { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from([37, 80, 68, 70, 0, 1]) });
    await p.waitForFunction(() => /^scan\.pdf: invalid_input: .*not text/.test(document.querySelector('#ingested').textContent));
    assert.equal((await p.$$('#documents li')).length, 1);

    // A reload brings the conversation back as it was recorded.
    const said = await p.$$eval('#chat li', (li) => li.map((x) => [x.className === 'user', x.textContent]));
    await p.reload();
    await p.waitForFunction(() => window.mnemoDemoReady === true);
    const restored = await p.$$eval('#chat li', (li) => li.map((x) => [x.className === 'user', x.textContent]));
    assert.deepEqual(restored.slice(0, said.length), said);
    await p.waitForFunction(() => document.querySelectorAll('#memories tbody tr').length > 0);
    assert.deepEqual((await cited()).slice(0, 3), sources.slice(0, 3), 'the restored chat still holds the messages the memories cite');

    const { mkdir, stat } = await import('node:fs/promises');
    await mkdir(new URL('./out/', import.meta.url), { recursive: true });
    const shot = new URL('./out/demo.png', import.meta.url);
    await p.screenshot({ path: shot.pathname, fullPage: true });
    assert.ok((await stat(shot)).size > 20_000, 'the screenshot is empty');
    await context.close();
  });
});

/**
 * A loopback stand-in for an OpenAI-compatible chat endpoint (what Ollama or a provider
 * serves): it keeps each request and answers with a reply that names what it was told.
 */
async function chatEndpoint() {
  const { createServer } = await import('node:http');
  const requests = [];
  const server = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type, authorization' };
    if (req.method === 'OPTIONS') return res.writeHead(204, cors).end();
    if (req.url !== '/v1/chat/completions') return res.writeHead(404, cors).end('no such route');
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const request = JSON.parse(body);
      requests.push({ path: req.url, authorization: req.headers.authorization, request });
      const system = request.messages[0].content;
      const content = /^Summarise this passage/.test(system)
        ? 'A passage, summarised.'
        : /^Summarise the document/.test(system)
          ? 'The document, summarised.'
          : /penicillin/.test(system)
            ? 'Avoid penicillin: you told me you are allergic to it.'
            : 'I do not know yet.';
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content } }] }));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, requests, close: () => new Promise((r) => server.close(r)) };
}

test('the demo answers from memory: what it recalled reaches the prompt and the reply (screenshot)', async () => {
  const endpoint = await chatEndpoint();
  try {
    await withProfile(async (launch) => {
      const context = await launch();
      const p = await context.newPage();
      p.on('pageerror', (e) => console.error('demo error:', e.message));
      await p.setViewportSize({ width: 1400, height: 900 });
      await p.goto(`${server.url}/www/demo/index.html?user=lee`);
      await p.waitForFunction(() => window.mnemoDemoReady === true);
      const send = async (text) => {
        const n = await p.$$eval('#chat li.agent', (li) => li.length);
        await p.fill('#message', text);
        await p.click('#say button');
        await p.waitForFunction((k) => document.querySelectorAll('#chat li.agent').length > k, n);
        return p.$$eval('#chat li.agent', (li) => li.at(-1).textContent);
      };
      for (const fact of [
        'I work as a nurse at the city hospital',
        'My daughter Mia studies law at the University of Coimbra',
        'I am allergic to penicillin',
        'The tax return is due on the 30th of June',
      ]) {
        await send(fact);
      }
      // Without a model, the reply is what was recalled for the question.
      const recalled = await send('what medicine should I avoid?');
      assert.match(recalled, /^From what you told me: .*“I am allergic to penicillin”/, recalled);
      assert.match(await p.textContent('#prompt-memories li'), /allergic to penicillin.*% relevant/s);
      assert.match(await p.textContent('#prompt'), /allergic to penicillin/);
      // With a model: the remembered fact is in the request it gets, and its answer is the reply.
      await p.click('#llm summary');
      await p.fill('#llm-url', endpoint.url);
      await p.fill('#llm-model', 'test-model');
      await p.fill('#llm-key', 'sk-test-key');
      await p.click('#llm-form button');
      assert.match(await p.textContent('#llm-state'), /test-model at http:\/\/127\.0\.0\.1/);
      const answered = await send('which medicine is a problem for me?');
      assert.equal(answered, 'Avoid penicillin: you told me you are allergic to it.');
      const asked = endpoint.requests.at(-1);
      assert.equal(asked.path, '/v1/chat/completions');
      assert.equal(asked.authorization, 'Bearer sk-test-key');
      assert.equal(asked.request.model, 'test-model');
      assert.match(asked.request.messages[0].content, /- I am allergic to penicillin/);
      assert.equal(asked.request.messages.at(-1).content, 'which medicine is a problem for me?');
      // The key is not kept; the endpoint is.
      const kept = await p.evaluate(() => JSON.stringify(localStorage));
      assert.ok(!kept.includes('sk-test-key') && kept.includes(endpoint.url), kept);
      // An endpoint that fails says so in the chat.
      await p.fill('#llm-url', endpoint.url.replace('/v1', '/nope'));
      await p.click('#llm-form button');
      assert.match(await send('and what about aspirin?'), /^\(llm_error\) http:\/\/127\.0\.0\.1:\d+\/nope answered HTTP 404: no such route$/);
      await p.fill('#llm-url', endpoint.url);
      await p.click('#llm-form button');
      await send('what medicine should I avoid?');
      // The model also writes documents' summaries: each passage's at one consolidation, the
      // document's from them at the next (the engine's own stood in before, and stay without
      // a model).
      const notes = '# Garden\n\nThe tomatoes go in the south bed in May, once the nights stay above ten degrees. Water them at the roots in the morning.\n\n## Roses\n\nPrune the roses in late February, just above an outward bud, and feed them after the first flush of flowers.';
      await p.setInputFiles('#file', { name: 'garden.md', mimeType: 'text/markdown', buffer: Buffer.from(notes) });
      await p.waitForFunction(() => /^garden\.md: \d+ passages/.test(document.querySelector('#ingested').textContent));
      const before = endpoint.requests.length;
      await p.click('#consolidate');
      await p.waitForFunction(() => /summar(y|ies) written by the model/.test(document.querySelector('#consolidation').textContent));
      await p.click('#consolidate');
      await p.waitForFunction(() => /The document, summarised\./.test(document.querySelector('#documents').textContent));
      const summaries = endpoint.requests.slice(before).map((r) => r.request.messages[0].content);
      assert.ok(summaries.some((x) => /^Summarise this passage of the document “/.test(x)), summaries.join('\n'));
      assert.ok(summaries.some((x) => /^Summarise the document “/.test(x)), summaries.join('\n'));
      await p.click('#documents li');
      await p.waitForFunction(() => [...document.querySelectorAll('#passages li')].every((li) => li.textContent.endsWith('A passage, summarised.')));
      const { mkdir } = await import('node:fs/promises');
      await mkdir(new URL('./out/', import.meta.url), { recursive: true });
      const shot = new URL('./out/demo-chat.png', import.meta.url);
      await p.screenshot({ path: shot.pathname, fullPage: true });
      console.log(`demo chat screenshot: ${shot.pathname}`);
      await context.close();
    });
  } finally {
    await endpoint.close();
  }
});

test('where OPFS cannot be used, an opfs store is kept in IndexedDB and says so', async () => {
  await withProfile(async (launch) => {
    const context = await launch();
    const p = await page(context);
    const warned = [];
    p.on('console', (m) => m.type() === 'warning' && warned.push(m.text()));
    // In the page's own thread (no dedicated worker) OPFS's sync access handles do not exist.
    const first = await p.evaluate(() =>
      attempt(async () => {
        const m = await Mnemo.open({ name: 'nowhere', storage: 'opfs', worker: false });
        await m.remember({ entity_id: 'ana', content: 'I am allergic to penicillin.' });
        const out = { storage: m.storage, fallback: m.fallback };
        await m.close();
        return out;
      }),
    );
    assert.equal(first.ok?.storage, 'idb', JSON.stringify(first));
    assert.deepEqual([first.ok.fallback.from, first.ok.fallback.to], ['opfs', 'idb']);
    assert.match(first.ok.fallback.reason, /OPFS/);
    assert.ok(warned.some((w) => /OPFS is not available here, so store "nowhere" is kept in IndexedDB/.test(w)), warned.join('\n'));
    // A reload finds the memory where it was kept.
    await p.reload();
    await p.waitForFunction(() => window.ready === true);
    const again = await p.evaluate(() =>
      attempt(async () => {
        const m = await Mnemo.open({ name: 'nowhere', storage: 'opfs', worker: false });
        const hits = await m.search({ entity_id: 'ana', query: 'penicillin' });
        await m.close();
        return hits.map((h) => h.memory.content);
      }),
    );
    assert.deepEqual(again.ok, ['I am allergic to penicillin.'], JSON.stringify(again));
    // Asked not to fall back, it refuses; a store in OPFS says it is kept there.
    const strict = await p.evaluate(() => attempt(() => Mnemo.open({ name: 'strict', storage: 'opfs', worker: false, fallback: false })));
    assert.equal(strict.error?.code, 'storage_unavailable', JSON.stringify(strict));
    const inOpfs = await p.evaluate(() =>
      attempt(async () => {
        const m = await Mnemo.open({ name: 'fine', storage: 'opfs' });
        const out = [m.storage, m.fallback ?? null];
        await m.close();
        return out;
      }),
    );
    assert.deepEqual(inOpfs.ok, ['opfs', null]);
    await context.close();
  });
});
