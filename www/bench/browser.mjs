// `npm run bench:browser`: the browser benchmark in Debian's Chromium with an OPFS store —
// cold open time, seeding 10,000 memories with 384-d vectors, 1,000 hybrid searches, the default
// embedder's throughput on short sentences — plus the package's download size. Writes
// bench-results/browser.json and prints it.
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

const server = await serve();
const profile = await newProfile();
try {
  const context = await browser(profile);
  // Cold open: a fresh profile, so nothing of the module is cached; from navigation start to
  // a store ready for calls (page, worker, WebAssembly compile, OPFS pool).
  const coldOpen = async () => {
    const page = await context.newPage();
    await page.goto(`${server.url}/www/bench/bench.html`);
    await page.waitForFunction(() => window.ready === true);
    const ms = await page.evaluate(async () => {
      const m = await Mnemo.open({ name: 'open-probe', storage: 'opfs' });
      const t = performance.now();
      await m.close();
      return t;
    });
    await page.close();
    return Math.round(ms);
  };
  const open_cold_ms = await coldOpen();
  const open_warm_ms = await coldOpen();
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
    open_cold_ms,
    open_warm_ms,
    wasm: await size(['www/pkg/mnemo_wasm_bg.wasm']),
    bundle: await size(['www/pkg/mnemo_wasm_bg.wasm', 'www/pkg/mnemo_wasm.js', 'www/src/index.js', 'www/src/host.js', 'www/src/worker.js', 'www/src/idb.js']),
    aims: { memories_per_second: 10_000, search_p95_ms: 3, bundle_gzip_kib: 600 },
  };
  await writeFile(join(root, 'bench-results/browser.json'), JSON.stringify(report, null, 2) + '\n');
  console.log(JSON.stringify(report, null, 2));
} finally {
  await server.close();
  await rm(profile, { recursive: true, force: true });
}
