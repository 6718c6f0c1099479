// The browser benchmark's workload, run in the page: the native benchmarks' corpus (made by
// `core/examples/bench_corpus.rs`: 384-d vectors clustered around 50 topics, one owner),
// seeded into an OPFS store in batches of 1,000, then hybrid searches (query text + query
// vector) timed one by one through the public API, worker round trip included.
import { Mnemo } from '../src/index.js';

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Embedding throughput of the built-in default (`mnemo-static-v1`, weights fetched like an app's)
 * through the public calls, worker round trip and vectors included: every fact and question of
 * the meaning set (short sentences) three times over per round (1,014 texts), in calls of
 * `batch` texts, by `embed` (vectors as JSON numbers) and by `embedVectors` (one
 * `Float32Array`), round by round in turn. The first `warmup` rounds are not counted (V8
 * compiles the hot code again, optimised, while they run); the figure is the median round's.
 */
export async function embedding({ sentences, rounds = 30, warmup = 30, batches = [100, 1_000] } = {}) {
  const set = await (await fetch(sentences)).json();
  const once = [...set.facts.flatMap((f) => [f.fact, ...f.questions]), ...set.abstain];
  const texts = [...once, ...once, ...once];
  const m = await Mnemo.open({ name: `embed-${Date.now()}`, storage: 'memory' });
  const ways = {
    embedVectors: (c) => m.embedVectors({ texts: c }),
    embed: (c) => m.embed({ texts: c }),
  };
  const by_batch = {};
  for (const batch of batches) {
    const calls = [];
    for (let i = 0; i < texts.length; i += batch) calls.push(texts.slice(i, i + batch));
    const rates = { embedVectors: [], embed: [] };
    for (let r = -warmup; r < rounds; r++) {
      for (const [name, way] of Object.entries(ways)) {
        const t = performance.now();
        for (const c of calls) await way(c);
        if (r >= 0) rates[name].push((texts.length * 1000) / (performance.now() - t));
      }
    }
    const median = (xs) => Math.round(xs.sort((a, b) => a - b)[xs.length >> 1]);
    by_batch[batch] = { sentences_per_second: median(rates.embedVectors), as_json: median(rates.embed) };
  }
  const { model, dimension } = await m.embed({ texts: [texts[0]] });
  await m.close();
  return { model, dimension, sentences_per_round: texts.length, rounds, by_batch };
}

/** Seeds `n` memories (batches of `batch`) and times `q` searches; returns the figures. */
export async function run({ corpus, batch = 1_000, storage = 'opfs' } = {}) {
  const { items, queries, model, dimension } = await (await fetch(corpus)).json();
  const n = items.length;
  const q = queries.length;
  const t0 = performance.now();
  const embed = { model, dimension, embed: () => Promise.reject(new Error('vectors are supplied')) };
  const m = await Mnemo.open({ name: `bench-${Date.now()}`, storage, embed });
  const openMs = performance.now() - t0;

  const s0 = performance.now();
  let created = 0;
  // Each batch's time: the first runs in V8's baseline code, compiled as it is first called.
  const batchMs = [];
  for (let i = 0; i < items.length; i += batch) {
    const b0 = performance.now();
    const r = await m.seed(items.slice(i, i + batch));
    batchMs.push(Math.round(performance.now() - b0));
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
  // The owner's counts (a dashboard's call), 20 times.
  const counting = [];
  for (let i = 0; i < 20; i++) {
    const a = performance.now();
    await m.stats({ entity_id: items[0].entity_id });
    counting.push(performance.now() - a);
  }
  counting.sort((a, b) => a - b);
  const stats = await m.stats({ entity_id: items[0].entity_id });
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
    seed_batch_ms: batchMs,
    searches: q,
    searches_without_hits: empty,
    // Uncached: every query is new. Through the public API, worker round trip included.
    search_ms: { p50: round(pct(times, 50)), p95: round(pct(times, 95)), p99: round(pct(times, 99)), max: round(times.at(-1)) },
    cached_search_ms: { p50: round(pct(cached, 50)), p95: round(pct(cached, 95)) },
    stats_ms: { p50: round(pct(counting, 50)) },
    open_ms_in_page: round(openMs),
  };
}

/**
 * Ingest throughput with the default embedder in an OPFS store, through the public API
 * (worker round trip included): one document of nearly 10 MB made of LoCoMo's sessions over
 * and over (a heading before each), then `small` documents of one session each; then search
 * latency in the owner holding those documents beside `memories` of the corpus (their text:
 * the built-in embedder embeds them), against a store of the memories alone, query by query
 * side by side (half the corpus's queries, half LoCoMo's questions). The same workload as
 * core's `documents_bench` example, natively.
 */
export async function ingesting({ locomo, corpus, small = 1_000, bytes = 10_000_000, memories = 10_000, searches = 200 } = {}) {
  const sessions = [];
  const questions = [];
  for (const conv of await (await fetch(locomo)).json()) {
    const c = conv.conversation;
    for (let n = 1; Array.isArray(c[`session_${n}`]); n++) {
      sessions.push(c[`session_${n}`].map((t) => `${t.speaker}: ${t.text}`).join('\n'));
    }
    questions.push(...conv.qa.map((q) => q.question));
  }
  const size = (s) => new TextEncoder().encode(s).length;
  const parts = [];
  let total = 0;
  fill: for (let round = 1; ; round++) {
    for (const [i, s] of sessions.entries()) {
      const next = `## Round ${round}, session ${i}\n\n${s}\n\n`;
      if (total + size(next) > bytes) break fill;
      parts.push(next);
      total += size(next);
    }
  }
  const big = parts.join('');
  // The long document in a store of its own, the small ones in another (as natively).
  const long = await Mnemo.open({ name: `ingest-long-${Date.now()}`, storage: 'opfs' });
  let t = performance.now();
  const one = await long.ingest({ entity_id: 'bench', title: 'Everything said', content: big, source: 'chat' });
  const bigS = (performance.now() - t) / 1000;
  await long.close();
  const m = await Mnemo.open({ name: `ingest-${Date.now()}`, storage: 'opfs' });
  const docs = Array.from({ length: small }, (_, i) => sessions[i % sessions.length]);
  const smallBytes = docs.reduce((a, d) => a + size(d), 0);
  t = performance.now();
  let passages = 0;
  for (const [i, d] of docs.entries()) {
    passages += (await m.ingest({ entity_id: 'bench', title: `Session ${i}`, content: d, source: 'chat' })).document.passages;
  }
  const smallS = (performance.now() - t) / 1000;
  // Search beside the memories, with and without the documents.
  const { items, queries } = await (await fetch(corpus)).json();
  const alone = await Mnemo.open({ name: `memories-${Date.now()}`, storage: 'opfs' });
  for (const store of [m, alone]) {
    for (let i = 0; i < memories; i += 1_000) {
      await store.seed(items.slice(i, i + 1_000).map(({ vector, ...x }) => ({ ...x, entity_id: 'bench' })));
    }
  }
  const asked = [
    ...queries.slice(0, searches / 2).map((q) => q.query),
    ...questions.slice(0, searches / 2),
  ];
  const withDocs = [];
  const without = [];
  let passageHits = 0;
  for (const query of asked) {
    let a = performance.now();
    const hits = await m.search({ entity_id: 'bench', query });
    withDocs.push(performance.now() - a);
    passageHits += hits.filter((h) => h.passage).length;
    a = performance.now();
    await alone.search({ entity_id: 'bench', query });
    without.push(performance.now() - a);
  }
  await m.close();
  await alone.close();
  const r = (x) => Math.round(x * 1000) / 1000;
  const ms = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { p50: r(pct(sorted, 50)), p95: r(pct(sorted, 95)), p99: r(pct(sorted, 99)) };
  };
  const half = searches / 2;
  return {
    one_10mb_document: { bytes: total, passages: one.document.passages, seconds: r(bigS), mb_per_s: r(total / 1e6 / bigS) },
    small_documents: {
      documents: small, bytes: smallBytes, passages, seconds: r(smallS),
      mb_per_s: r(smallBytes / 1e6 / smallS), documents_per_s: Math.round(small / smallS),
    },
    search_beside_10k_memories: {
      queries: asked.length,
      with_1000_documents_ms: ms(withDocs),
      without_documents_ms: ms(without),
      memory_queries_with_documents_ms: ms(withDocs.slice(0, half)),
      locomo_questions_with_documents_ms: ms(withDocs.slice(half)),
      locomo_questions_without_documents_ms: ms(without.slice(half)),
      passages_in_answers: passageHits,
    },
  };
}
