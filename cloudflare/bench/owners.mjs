// A scale simulation of the Cloudflare face on this machine: N owners (default 10,000), each in
// its own Durable Object, in Cloudflare's runtime (workerd through miniflare) with its storage
// on disk. Every owner is seeded, then a mixed workload (search, remember, seed one, get) runs
// over random owners with C requests in flight. Writes throughput, latency percentiles, each
// owner's p95, storage per owner and the runtime's memory to bench-results/cloudflare.json.
//
//   npm run build && npm run bench:cloudflare
//   MNEMO_BENCH_OWNERS=1000 MNEMO_BENCH_MIXED=5000 MNEMO_BENCH_CONCURRENCY=32 npm run bench:cloudflare

import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, send, start } from '../test/runtime.mjs';

const OWNERS = Number(process.env.MNEMO_BENCH_OWNERS ?? 10_000);
const MIXED = Number(process.env.MNEMO_BENCH_MIXED ?? 3 * OWNERS);
const CONCURRENCY = Number(process.env.MNEMO_BENCH_CONCURRENCY ?? 32);
/**
 * How long an object keeps its engine open after a request. One workerd process holds every
 * object here (in production they spread over machines and idle ones are evicted), so a short
 * idle time keeps its memory to the owners active now.
 */
const IDLE_MS = Number(process.env.MNEMO_BENCH_IDLE_MS ?? 2000);
/** Memories each owner starts with (one seed request). */
const SEEDED = 8;
/** Memories given to one more owner, 100 per seed request, to see a store grow. */
const LARGE = Number(process.env.MNEMO_BENCH_LARGE ?? 5000);

// A small deterministic generator, so two runs send the same requests.
let state = 0x9e3779b9;
const random = () => {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 2 ** 32;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const PEOPLE = ['Ines', 'Tomas', 'Rui', 'Marta', 'Joana', 'Pedro', 'Sofia', 'Luis'];
const PLACES = ['Porto', 'Lisbon', 'Braga', 'Faro', 'Coimbra', 'Aveiro'];
const THINGS = ['violin lessons', 'marathon training', 'pottery class', 'chess club', 'book club', 'night shifts'];
const fact = () =>
  pick([
    () => `My sister ${pick(PEOPLE)} moved to ${pick(PLACES)} last ${pick(['spring', 'winter', 'year'])}.`,
    () => `I have ${pick(THINGS)} every ${pick(['Monday', 'Thursday', 'Saturday'])} at ${Math.floor(random() * 12) + 7}.`,
    () => `I am allergic to ${pick(['penicillin', 'peanuts', 'cats', 'pollen'])}.`,
    () => `I work as a ${pick(['nurse', 'marine biologist', 'teacher', 'carpenter'])} in ${pick(PLACES)}.`,
    () => `My favourite drink is ${pick(['green tea', 'espresso', 'port wine', 'lemonade'])}.`,
  ])();
const question = () => pick(['what do I do for a living', 'where does my sister live', 'what am I allergic to', 'what do I like to drink', `when is ${pick(THINGS)}`]);

const owner = (i) => `owner-${i}`;

function percentile(sorted, p) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const summary = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  const r = (v) => (v === null ? null : Math.round(v * 100) / 100);
  return { count: s.length, p50_ms: r(percentile(s, 50)), p95_ms: r(percentile(s, 95)), p99_ms: r(percentile(s, 99)), max_ms: r(s.at(-1) ?? null) };
};

/** Runs `jobs` with `CONCURRENCY` in flight; each job's latency is recorded under its kind and owner. */
async function drive(mf, jobs, record) {
  let next = 0;
  const failures = [];
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      const t = performance.now();
      const r = await send(mf, job.method, job.path, { body: job.body });
      const ms = performance.now() - t;
      if (r.status !== 200) failures.push({ kind: job.kind, owner: job.owner, status: r.status, answer: r.text.slice(0, 200) });
      record(job, ms, r.headers);
    }
  };
  const t = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { seconds: (performance.now() - t) / 1000, failures };
}

function dirBytes(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    try {
      total += e.isDirectory() ? dirBytes(p) : statSync(p).size;
    } catch {
      // a journal the runtime removed meanwhile
    }
  }
  return total;
}

/** Resident memory of the workerd processes, in MiB (Linux). */
function workerdMiB() {
  let kib = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerd')) continue;
      kib += Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
    } catch {
      // the process ended
    }
  }
  return Math.round(kib / 1024);
}

const persist = mkdtempSync(join(tmpdir(), 'mnemo-bench-do-'));
const mf = await start({ persist, hooks: false, vars: { MNEMO_IDLE_MS: String(IDLE_MS) } });
const perOwner = new Map();
const byKind = new Map();
const pages = new Map();
/** Each owner's store size, as its last answer gave it. */
const storeBytes = new Map();
const record = (job, ms, headers) => {
  const io = pages.get(job.kind) ?? pages.set(job.kind, { requests: 0, read: 0, written: 0 }).get(job.kind);
  io.requests++;
  io.read += Number(headers.get('x-mnemo-pages-read') ?? 0);
  io.written += Number(headers.get('x-mnemo-pages-written') ?? 0);
  storeBytes.set(job.owner, Number(headers.get('x-mnemo-store-bytes') ?? 0));
  (perOwner.get(job.owner) ?? perOwner.set(job.owner, []).get(job.owner)).push(ms);
  (byKind.get(job.kind) ?? byKind.set(job.kind, []).get(job.kind)).push(ms);
};
let peakMiB = 0;
const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, workerdMiB())), 1000);

try {
  console.log(`seeding ${OWNERS} owners × ${SEEDED} memories, ${CONCURRENCY} in flight…`);
  const seeds = Array.from({ length: OWNERS }, (_, i) => ({
    kind: 'first seed (creates the object)',
    owner: owner(i),
    method: 'POST',
    path: '/api/v1/seed',
    body: { memories: Array.from({ length: SEEDED }, () => ({ entity_id: owner(i), content: fact() })) },
  }));
  const seeded = await drive(mf, seeds, record);
  console.log(`  ${(OWNERS / seeded.seconds).toFixed(0)} owners/s, ${seeded.failures.length} failures`);

  console.log(`mixed workload: ${MIXED} requests over random owners…`);
  const mixed = Array.from({ length: MIXED }, () => {
    const i = Math.floor(random() * OWNERS);
    const r = random();
    const o = owner(i);
    if (r < 0.6) return { kind: 'search', owner: o, method: 'POST', path: '/api/v1/search', body: { entity_id: o, query: question(), limit: 5 } };
    if (r < 0.8) return { kind: 'remember', owner: o, method: 'POST', path: '/api/v1/remember', body: { entity_id: o, content: `${fact()} ${fact()}` } };
    if (r < 0.95) return { kind: 'seed one', owner: o, method: 'POST', path: '/api/v1/seed', body: { memories: [{ entity_id: o, content: fact() }] } };
    return { kind: 'stats', owner: o, method: 'GET', path: `/api/v1/stats/${o}` };
  });
  const before = new Map([...byKind].map(([k, v]) => [k, v.length]));
  const run = await drive(mf, mixed, record);
  const mixedMs = [...byKind].flatMap(([k, v]) => v.slice(before.get(k) ?? 0));
  console.log(`  ${(MIXED / run.seconds).toFixed(0)} requests/s, ${run.failures.length} failures`);

  console.log(`one owner grows to ${LARGE} memories, 100 per seed…`);
  const growth = [];
  let written = 0;
  const t0 = performance.now();
  for (let n = 0; n < LARGE; n += 100) {
    const body = { memories: Array.from({ length: Math.min(100, LARGE - n) }, (_, k) => ({ entity_id: 'large', content: `${fact()} (note ${n + k})` })) };
    const r = await send(mf, 'POST', '/api/v1/seed', { body });
    if (r.status !== 200) throw new Error(`seed into the large owner: ${r.text.slice(0, 300)}`);
    written += Number(r.headers.get('x-mnemo-pages-written'));
    if ((n + 100) % 1000 === 0 || n + 100 >= LARGE) {
      growth.push({ memories: Math.min(n + 100, LARGE), store_kib: Math.round(Number(r.headers.get('x-mnemo-store-bytes')) / 1024), pages_written_per_memory: Math.round((written / Math.min(n + 100, LARGE)) * 100) / 100 });
    }
  }
  const growSeconds = (performance.now() - t0) / 1000;
  const searchLarge = [];
  for (let i = 0; i < 50; i++) {
    const t = performance.now();
    await send(mf, 'POST', '/api/v1/search', { body: { entity_id: 'large', query: question(), limit: 10 } });
    searchLarge.push(performance.now() - t);
  }

  const ownerP95 = [...perOwner.values()].map((ms) => percentile([...ms].sort((a, b) => a - b), 95)).sort((a, b) => a - b);
  const storage = dirBytes(persist);
  const stores = [...storeBytes.values()].sort((a, b) => a - b);
  const result = {
    runtime: `workerd (miniflare ${JSON.parse(readFileSync(join(root, 'node_modules/miniflare/package.json'), 'utf8')).version}), Durable Objects on SQLite, storage on disk`,
    machine: '2 cores shared by workerd and the load generator',
    owners: OWNERS,
    memories_seeded_per_owner: SEEDED,
    concurrency: CONCURRENCY,
    idle_ms: IDLE_MS,
    seed_phase: { seconds: Math.round(seeded.seconds * 10) / 10, owners_per_s: Math.round(OWNERS / seeded.seconds), latency: summary(byKind.get('first seed (creates the object)')), failures: seeded.failures.length },
    mixed_phase: {
      requests: MIXED,
      seconds: Math.round(run.seconds * 10) / 10,
      requests_per_s: Math.round(MIXED / run.seconds),
      latency: summary(mixedMs),
      by_kind: Object.fromEntries([...byKind].filter(([k]) => !k.startsWith('first')).map(([k, v]) => [k, summary(v.slice(before.get(k) ?? 0))])),
      failures: run.failures.length,
      first_failures: run.failures.slice(0, 3),
    },
    large_owner: { memories: LARGE, memories_per_s: Math.round(LARGE / growSeconds), growth, search_one_client: summary(searchLarge) },
    per_owner_p95_ms: { owners: ownerP95.length, median: percentile(ownerP95, 50), p95: percentile(ownerP95, 95), max: ownerP95.at(-1) },
    pages_per_request: Object.fromEntries(
      [...pages].map(([k, v]) => [k, { read: Math.round((v.read / v.requests) * 10) / 10, written: Math.round((v.written / v.requests) * 10) / 10 }]),
    ),
    store_kib_per_owner: { median: Math.round(percentile(stores, 50) / 1024), p95: Math.round(percentile(stores, 95) / 1024), max: Math.round(stores.at(-1) / 1024) },
    runtime_files_kib_per_owner: Math.round(storage / OWNERS / 1024),
    workerd_rss_mib: { peak: peakMiB, end: workerdMiB() },
  };
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  const out = join(root, 'bench-results/cloudflare.json');
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
  console.log(`wrote ${out}`);
  if (seeded.failures.length || run.failures.length) process.exitCode = 1;
} finally {
  clearInterval(sampler);
  await mf.dispose();
  rmSync(persist, { recursive: true, force: true });
}
