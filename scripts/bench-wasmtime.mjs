// `npm run bench:wasmtime`: the same seed-and-search workload (the native benchmarks' corpus:
// 10,000 memories with 384-d vectors seeded in batches of 1,000 but the last 200, seeded one per
// call; 1,000 hybrid searches) natively, inside wasmtime hosted
// by Rust (`mnemo-bench workload`) and hosted by Python (the wheel in a venv of its own,
// `python/bench/workload.py`, with the package's page size and with SQLite's 4 KiB), all through the JSON call path on a SQLite file, plus the start-up
// time of a `mnemo` process and of a Python one opening a store, with a cold and a warm compile
// cache; then heartbeat_check on the 100,000-memory
// owner that core's heartbeat bench builds (natively there, inside wasmtime through
// `mnemo-bench heartbeat`; MNEMO_BENCH_HEARTBEAT=0 skips it). Writes
// bench-results/wasmtime.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

import { benchCorpus, root } from '../www/test/helpers.mjs';

const n = Number(process.env.MNEMO_BENCH_N ?? 10_000);
const q = Number(process.env.MNEMO_BENCH_Q ?? 1_000);
const corpus = join(root, benchCorpus(n, q));
const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
execFileSync('cargo', ['build', '-q', '--release', '-p', 'mnemo-core', '--example', 'workload'], { cwd: root, stdio: 'inherit' });
execFileSync('cargo', ['build', '-q', '--release', '-p', 'mnemo-host', '-p', 'mnemo-bench'], { cwd: root, stdio: 'inherit' });
const mnemo = join(target, 'release/mnemo');
const bench = join(target, 'release/mnemo-bench');
const json = (cmd, args, env = {}) => JSON.parse(execFileSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env } }));

/** Rates and percentiles from a run's raw timings (`{memories, seed_seconds, search_ms: [...]}`). */
function summary(run) {
  const ms = [...run.search_ms].sort((a, b) => a - b);
  const pct = (p) => Math.round(ms[Math.floor((p / 100) * ms.length)] * 1000) / 1000;
  const out = {
    memories_per_second: Math.round(run.memories / run.seed_seconds),
    single_writes_per_second: Math.round(run.single_writes / run.single_seconds),
    searches: ms.length,
    search_ms: { p50: pct(50), p95: pct(95) },
  };
  if (run.open_ms !== undefined) out.open_ms = Math.round(run.open_ms * 10) / 10;
  return out;
}

const native = summary(json(join(target, 'release/examples/workload'), [corpus]));
const wasmtime = summary(json(bench, ['workload', corpus]));

// Python: the wheel as a user installs it, in a venv of the bench's own.
const venv = join(homedir(), '.cache/mnemo/python-bench');
execFileSync(join(root, 'scripts/python-wheel'), [join(target, 'python-dist')], { cwd: root, stdio: 'inherit' });
execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
const wheel = readdirSync(join(target, 'python-dist')).filter((f) => f.startsWith('mnemo-')).sort().pop();
execFileSync(join(venv, 'bin/pip'), ['install', '-q', '--force-reinstall', join(target, 'python-dist', wheel)], { stdio: 'inherit' });
const python = summary(json(join(venv, 'bin/python'), [join(root, 'python/bench/workload.py'), corpus]));
// And with SQLite's 4 KiB pages, as the Rust host's stores have them.
const python4k = summary(json(join(venv, 'bin/python'), [join(root, 'python/bench/workload.py'), corpus, '4096']));

// Start-up: a whole `mnemo stats` process, first with an empty compile cache, then warm.
const data = mkdtempSync(join(tmpdir(), 'mnemo-startup-'));
const cache = mkdtempSync(join(tmpdir(), 'mnemo-wasmtime-cache-'));
// A read needs a store: one memory, written with the cache this run times as well.
execFileSync(mnemo, ['--data', data, 'seed', '--entity', 'x', 'a first memory'], { env: { ...process.env, MNEMO_WASMTIME_CACHE: cache } });
rmSync(cache, { recursive: true, force: true });
/** Milliseconds a whole process takes: its first run (cold cache), and the median of five more. */
const startup = (cmd, args, env) => {
  const time = () => {
    const t = process.hrtime.bigint();
    execFileSync(cmd, args, { env: { ...process.env, ...env } });
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const cold = time();
  return { cold, warm: [0, 0, 0, 0, 0].map(time).sort((a, b) => a - b)[2] };
};
const { cold, warm } = startup(mnemo, ['--data', data, 'stats', '--entity', 'x'], { MNEMO_WASMTIME_CACHE: cache });
rmSync(data, { recursive: true, force: true });
rmSync(cache, { recursive: true, force: true });
// A Python process that opens a store: wasmtime's cache lives under HOME, so a fresh HOME is
// a cold cache.
const home = mkdtempSync(join(tmpdir(), 'mnemo-python-home-'));
const { cold: pythonCold, warm: pythonWarm } = startup(join(venv, 'bin/python'), ['-c', 'from mnemo import Mnemo; Mnemo.open().close()'], { HOME: home });
rmSync(home, { recursive: true, force: true });

const round = (x) => Math.round(x * 100) / 100;

// Heartbeat: the native bench builds (or reuses) the store and writes its percentiles.
let heartbeat;
if (process.env.MNEMO_BENCH_HEARTBEAT !== '0') {
  execFileSync('cargo', ['bench', '-q', '-p', 'mnemo-core', '--bench', 'heartbeat'], { cwd: root, stdio: 'inherit' });
  const nativeBeat = JSON.parse(readFileSync(join(target, 'mnemo-bench-heartbeat.json'), 'utf8'));
  const beat = json(bench, ['heartbeat', '--data', join(target, 'mnemo-heartbeat-bench'), '--now', '1795428000000', '--entity', 'bench-owner']);
  const ms = [...beat.check_ms].sort((a, b) => a - b);
  const pct = (p) => round(ms[Math.floor((p / 100) * ms.length)]);
  heartbeat = {
    memories: nativeBeat.memories,
    native_ms: { p50: round(nativeBeat.dry_run.p50_ms), p95: round(nativeBeat.dry_run.p95_ms) },
    wasmtime_ms: { p50: pct(50), p95: pct(95), first_check: round(beat.first_ms) },
    aim_native_p95_ms: 5,
  };
}

/** How many times `slow`'s time `fast`'s is: seeding (by rate) and search p50/p95. */
const ratio = (slow, fast) => ({
  seed_time: round(fast.memories_per_second / slow.memories_per_second),
  single_write_time: round(fast.single_writes_per_second / slow.single_writes_per_second),
  search_p50: round(slow.search_ms.p50 / fast.search_ms.p50),
  search_p95: round(slow.search_ms.p95 / fast.search_ms.p95),
});

const report = {
  when: new Date().toISOString(),
  memories: n,
  searches: q,
  native,
  wasmtime,
  ratio: ratio(wasmtime, native),
  startup_ms: { cold_cache: round(cold), warm_cache_median_of_5: round(warm) },
  python,
  python_over_rust_host: ratio(python, wasmtime),
  python_4k_pages: python4k,
  python_4k_pages_over_rust_host: ratio(python4k, wasmtime),
  python_startup_ms: { cold_cache: round(pythonCold), warm_cache_median_of_5: round(pythonWarm) },
  aims: { ratio: 1.5, python_over_rust_host: 1.3 },
  heartbeat,
};
writeFileSync(join(root, 'bench-results/wasmtime.json'), JSON.stringify(report, null, 2) + '\n');
console.log(JSON.stringify(report, null, 2));
