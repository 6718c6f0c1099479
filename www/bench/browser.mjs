// `npm run bench:browser`: the browser benchmark in Debian's Chromium with an OPFS store — a
// first and a return visit to a chat page (navigation to the first answer, bytes downloaded;
// the package's files as they are, and the same page built by Vite from the packed package),
// seeding 10,000 memories with 384-d vectors, 1,000 hybrid searches, the default embedder's
// throughput on short sentences, ingesting documents (one of 10 MB, 1,000 small) — plus the
// package's download size. Writes bench-results/browser.json and prints it
// (`MNEMO_BENCH_ONLY=visits`, `documents` or `seed` runs that part alone and only prints it).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { benchCorpus, browser, freshApp, newProfile, pack, root, serve } from '../test/helpers.mjs';

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
 * The visit page as an app built with Vite serves it: `npm pack` of www/ installed into a fresh
 * app whose script is the visit page's, built by Vite. Its `dist` directory, in `work`.
 */
async function viteApp(work) {
  const page = await readFile(join(root, 'www/bench/visit.html'), 'utf8');
  const script = page.match(/<script type="module">([\s\S]*)<\/script>/)[1].replace("'/www/src/index.js'", "'@mnemo/memory'");
  const app = await freshApp(join(work, 'app'), pack(work), {
    'main.js': script,
    'index.html': '<!doctype html><meta charset="utf-8"><script type="module" src="./main.js"></script>\n',
  });
  const { build } = await import('vite');
  await build({ root: app, logLevel: 'warn', build: { outDir: join(app, 'dist') } });
  return join(app, 'dist');
}

/**
 * A first visit (a new profile: nothing cached) and `returns` return visits to a chat page
 * served as an app's host serves its files (cacheable): from navigation start to the first
 * answer of a search on its OPFS store, and the bytes the server sent for each. The same page
 * built by Vite (one origin of its own) is visited in turn with the package's own files.
 */
async function visits(returns = 5) {
  const work = await mkdtemp(join(tmpdir(), 'mnemo-visit-'));
  const sites = { package: await serve(0, { cache: true }), vite: await serve(0, { cache: true, dir: await viteApp(work) }) };
  const paths = { package: '/www/bench/visit.html', vite: '/index.html' };
  const dir = await newProfile();
  const context = await browser(dir);
  const visit = async (app) => {
    const site = sites[app];
    const before = site.sent.bytes;
    const page = await context.newPage();
    await page.goto(`${site.url}${paths[app]}`);
    await page.waitForFunction(() => window.done === true, null, { timeout: 120_000 });
    const [ms, hits, started, opened] = await page.evaluate(() => [window.answered, window.hits, window.started, window.opened]);
    await page.close();
    return { ms: Math.round(ms), hits, kib: Math.round((site.sent.bytes - before) / 1024), script_ms: Math.round(started), open_ms: Math.round(opened - started), search_ms: Math.round(ms - opened) };
  };
  try {
    const first = { package: await visit('package'), vite: await visit('vite') };
    const again = { package: [], vite: [] };
    // Alternated, so a slow spell of the machine falls on both.
    for (let i = 0; i < returns; i++) for (const app of i % 2 ? ['vite', 'package'] : ['package', 'vite']) again[app].push(await visit(app));
    const median = (app, key) => again[app].map((v) => v[key]).sort((a, b) => a - b)[Math.floor(returns / 2)];
    // Where the time goes: the page's script starting, Mnemo.open (worker, WebAssembly,
    // weights, OPFS), the first search.
    const phases = (v) => ({ script_ms: v.script_ms, open_ms: v.open_ms, first_search_ms: v.search_ms });
    const returned = (app) => ({
      to_first_answer_ms_median: median(app, 'ms'),
      to_first_answer_ms: again[app].map((v) => v.ms),
      script_ms: median(app, 'script_ms'),
      open_ms: median(app, 'open_ms'),
      first_search_ms: median(app, 'search_ms'),
      downloaded_kib: again[app].at(-1).kib,
      found_what_the_first_wrote: again[app].every((v) => v.hits > 0),
    });
    return {
      first_visit: { to_first_answer_ms: first.package.ms, ...phases(first.package), downloaded_kib: first.package.kib },
      return_visit: returned('package'),
      vite_app: {
        first_visit: { to_first_answer_ms: first.vite.ms, ...phases(first.vite), downloaded_kib: first.vite.kib },
        return_visit: returned('vite'),
      },
    };
  } finally {
    await context.close();
    await Promise.all(Object.values(sites).map((s) => s.close()));
    await rm(dir, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
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
