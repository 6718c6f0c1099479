// `npm run bench:browser`: the browser benchmark in Debian's Chromium with an OPFS store — a
// first and a return visit to a chat page (navigation to the first answer, bytes downloaded),
// seeding 10,000 memories with 384-d vectors, 1,000 hybrid searches, the default embedder's
// throughput on short sentences, ingesting documents (one of 10 MB, 1,000 small) — plus the
// package's download size. Writes bench-results/browser.json and prints it
// (`MNEMO_BENCH_ONLY=visits`, `documents` or `seed` runs that part alone and only prints it).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { benchCorpus, browser, newProfile, root, serve } from '../test/helpers.mjs';

const n = Number(process.env.MNEMO_BENCH_N ?? 10_000);
const q = Number(process.env.MNEMO_BENCH_Q ?? 1_000);

async function size(files) {
  let raw = 0;
  let gzip = 0;
  for (const f of files) {
    const bytes = await readFile(join(root, f));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw_kib: Math.round(raw / 1024), gzip_kib: Math.round(gzip / 1024) };
}

const corpus = benchCorpus(n, q);

/**
 * A first visit (a new profile: nothing cached) and `returns` return visits to a chat page
 * served as an app's host serves its files (cacheable): from navigation start to the first
 * answer of a search on its OPFS store, and the bytes the server sent for each.
 */
async function visits(returns = 5) {
  const site = await serve(0, { cache: true });
  const dir = await newProfile();
  const context = await browser(dir);
  const visit = async () => {
    const before = site.sent.bytes;
    const page = await context.newPage();
    await page.goto(`${site.url}/www/bench/visit.html`);
    await page.waitForFunction(() => window.done === true, null, { timeout: 120_000 });
    const [ms, hits, started, opened] = await page.evaluate(() => [window.answered, window.hits, window.started, window.opened]);
    await page.close();
    return { ms: Math.round(ms), hits, kib: Math.round((site.sent.bytes - before) / 1024), script_ms: Math.round(started), open_ms: Math.round(opened - started), search_ms: Math.round(ms - opened) };
  };
  try {
    const first = await visit();
    const again = [];
    for (let i = 0; i < returns; i++) again.push(await visit());
    const median = (key) => again.map((v) => v[key]).sort((a, b) => a - b)[Math.floor(again.length / 2)];
    // Where the time goes: the page's script starting, Mnemo.open (worker, WebAssembly,
    // weights, OPFS), the first search.
    const phases = (v) => ({ script_ms: v.script_ms, open_ms: v.open_ms, first_search_ms: v.search_ms });
    return {
      first_visit: { to_first_answer_ms: first.ms, ...phases(first), downloaded_kib: first.kib },
      return_visit: {
        to_first_answer_ms_median: median('ms'),
        to_first_answer_ms: again.map((v) => v.ms),
        script_ms: median('script_ms'),
        open_ms: median('open_ms'),
        first_search_ms: median('search_ms'),
        downloaded_kib: again.at(-1).kib,
        found_what_the_first_wrote: again.every((v) => v.hits > 0),
      },
    };
  } finally {
    await context.close();
    await site.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Ingest throughput in a page of its own (`ingesting` in bench.js). */
async function documents() {
  const site = await serve();
  const dir = await newProfile();
  const context = await browser(dir);
  try {
    const page = await context.newPage();
    await page.goto(`${site.url}/www/bench/bench.html`);
    await page.waitForFunction(() => window.ready === true);
    return await page.evaluate((a) => runIngesting(a), { locomo: '/tests/data/locomo/locomo-dev.json', corpus: `/${corpus}` });
  } finally {
    await context.close();
    await site.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Milliseconds from navigation start to an OPFS store ready for calls (page, worker,
 * WebAssembly compile, OPFS pool), in a new page of `context`: cold in a fresh profile, where
 * nothing of the module is cached.
 */
async function opening(context, url) {
  const page = await context.newPage();
  await page.goto(`${url}/www/bench/bench.html`);
  await page.waitForFunction(() => window.ready === true);
  const ms = await page.evaluate(async () => {
    const m = await Mnemo.open({ name: 'open-probe', storage: 'opfs' });
    const t = performance.now();
    await m.close();
    return t;
  });
  await page.close();
  return Math.round(ms);
}

/** Seeding and searching alone, in a fresh page of a fresh profile (`MNEMO_BENCH_ONLY=seed`). */
async function seeding() {
  const site = await serve();
  const dir = await newProfile();
  try {
    const context = await browser(dir);
    // As in the whole bench: two openings first, which leave the module's code cached.
    await opening(context, site.url);
    await opening(context, site.url);
    const page = await context.newPage();
    await page.goto(`${site.url}/www/bench/bench.html`);
    await page.waitForFunction(() => window.ready === true);
    const { memories_per_second, seed_batch_ms, search_ms, stats_ms } = await page.evaluate((corpus) => runBench({ corpus }), `/${corpus}`);
    await context.close();
    return { memories_per_second, seed_batch_ms, search_ms, stats_ms };
  } finally {
    await site.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const only = process.env.MNEMO_BENCH_ONLY;
const parts = { visits, documents, seed: seeding };
if (parts[only]) {
  console.log(JSON.stringify(await parts[only](), null, 2));
  process.exit(0);
}
const visited = await visits();
const ingested = await documents();

const server = await serve();
const profile = await newProfile();
try {
  const context = await browser(profile);
  const open_cold_ms = await opening(context, server.url);
  const open_warm_ms = await opening(context, server.url);
  const page = await context.newPage();
  await page.goto(`${server.url}/www/bench/bench.html`);
  await page.waitForFunction(() => window.ready === true);
  const result = await page.evaluate((corpus) => runBench({ corpus }), `/${corpus}`);
  const embedding = await page.evaluate((sentences) => runEmbedding({ sentences }), '/tests/data/meaning/paraphrase.json');
  const version = context.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent));
  await context.close();

  const report = {
    when: new Date().toISOString(),
    browser: version,
    ...result,
    embedding,
    documents: ingested,
    ...visited,
    open_cold_ms,
    open_warm_ms,
    wasm: await size(['www/pkg/mnemo_wasm_bg.wasm']),
    bundle: await size(['www/pkg/mnemo_wasm_bg.wasm', 'www/pkg/mnemo_wasm.js', 'www/src/index.js', 'www/src/host.js', 'www/src/worker.js', 'www/src/idb.js']),
    aims: { memories_per_second: 10_000, search_p95_ms: 3, embedded_sentences_per_second: 150_000, return_visit_to_first_answer_ms: 150, wasm_gzip_kib: 1_000 },
  };
  await writeFile(join(root, 'bench-results/browser.json'), JSON.stringify(report, null, 2) + '\n');
  console.log(JSON.stringify(report, null, 2));
} finally {
  await server.close();
  await rm(profile, { recursive: true, force: true });
}
