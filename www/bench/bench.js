// The browser benchmark's workload, run in the page: a deterministic corpus of sentences with
// 384-d vectors clustered around 50 topics (like core/benches), seeded into an OPFS store in
// batches, then hybrid searches (query text + query vector) timed one by one through the
// public API (worker round trip included).
import { Mnemo } from '../src/index.js';

const DIM = 384;
const TOPICS = 50;
const WORDS = (
  'garden kitchen coffee tea bicycle train airport hotel museum library concert guitar piano ' +
  'violin painting camera mountain river ocean forest island desert village city market bakery ' +
  'doctor teacher lawyer nurse engineer farmer sister brother mother father cousin friend ' +
  'neighbour colleague birthday wedding holiday meeting project deadline budget contract ' +
  'football tennis swimming running yoga chess novel poetry recipe dinner breakfast lunch'
).split(' ');

/** SplitMix64 over BigInt: the same stream on every run. */
function rng(seed) {
  let s = BigInt(seed);
  const M = (1n << 64n) - 1n;
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & M;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    z ^= z >> 31n;
    return Number(z >> 11n) / 2 ** 53;
  };
}

function normal(r) {
  return (r() + r() + r() + r() - 2) * Math.sqrt(3);
}

function unit(v) {
  const n = Math.hypot(...v);
  return v.map((x) => Math.fround(x / n));
}

/** `n` memories and `q` queries. */
export function corpus(n, q, seed = 1) {
  const r = rng(seed);
  const centroids = Array.from({ length: TOPICS }, () => unit(Array.from({ length: DIM }, () => normal(r))));
  const vector = (topic) => unit(centroids[topic].map((c) => 0.5 * c + (0.5 / Math.sqrt(DIM)) * normal(r)));
  const sentence = (k) => Array.from({ length: k }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
  const items = Array.from({ length: n }, (_, i) => {
    const topic = i % TOPICS;
    return { entity_id: 'bench', content: `memory ${i}: ${sentence(12)}`, vector: vector(topic) };
  });
  const queries = Array.from({ length: q }, () => ({ entity_id: 'bench', query: sentence(4), vector: vector(Math.floor(r() * TOPICS)) }));
  return { items, queries };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Seeds `n` memories (batches of `batch`) and times `q` searches; returns the figures. */
export async function run({ n = 10_000, q = 1_000, batch = 1_000, storage = 'opfs' } = {}) {
  const t0 = performance.now();
  const embed = { model: 'bench-384', dimension: DIM, embed: () => Promise.reject(new Error('vectors are supplied')) };
  const m = await Mnemo.open({ name: `bench-${Date.now()}`, storage, embed });
  const openMs = performance.now() - t0;
  const { items, queries } = corpus(n, q);

  const s0 = performance.now();
  let created = 0;
  for (let i = 0; i < items.length; i += batch) {
    const r = await m.seed(items.slice(i, i + batch));
    created += r.outcomes.filter((o) => o.action === 'created').length;
  }
  const seedMs = performance.now() - s0;

  const times = [];
  let empty = 0;
  for (const query of queries) {
    const a = performance.now();
    const hits = await m.search({ ...query, limit: 10 });
    times.push(performance.now() - a);
    if (!hits.length) empty++;
  }
  times.sort((a, b) => a - b);
  // The last 200 queries again (still in the 500-entry LRU cache): answered from it.
  const cached = [];
  for (const query of queries.slice(-200)) {
    const a = performance.now();
    await m.search({ ...query, limit: 10 });
    cached.push(performance.now() - a);
  }
  cached.sort((a, b) => a - b);
  const stats = await m.stats({ entity_id: 'bench' });
  await m.close();
  const round = (x) => Math.round(x * 1000) / 1000;
  return {
    storage,
    memories: n,
    created,
    stored: stats.total,
    seed_batch: batch,
    seed_seconds: round(seedMs / 1000),
    memories_per_second: Math.round((n / seedMs) * 1000),
    searches: q,
    searches_without_hits: empty,
    // Uncached: every query is new. Through the public API, worker round trip included.
    search_ms: { p50: round(pct(times, 50)), p95: round(pct(times, 95)), p99: round(pct(times, 99)), max: round(times.at(-1)) },
    cached_search_ms: { p50: round(pct(cached, 50)), p95: round(pct(cached, 95)) },
    open_ms_in_page: round(openMs),
  };
}
