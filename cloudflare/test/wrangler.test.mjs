// The Worker as a Workers developer runs it: `wrangler dev --config cloudflare/wrangler.toml`
// (cloudflare/README.md) starts, and over real HTTP answers health, stores a remember, finds it
// with a search, and refuses a request without the token. And the runtime these tests drive
// through miniflare is the one wrangler runs, so the two cannot drift apart again (they did:
// the tests passed on a newer workerd while `wrangler dev` refused the compatibility date).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { supportedCompatibilityDate } from 'miniflare';
import { compatibilityDate, root } from './runtime.mjs';

const packageJson = (dir) => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));

/** The version of `name` that a package in `dir` gets, found as Node finds it (nearest node_modules up). */
function versionFrom(dir, name) {
  for (let d = join(root, dir); d.startsWith(root); d = dirname(d)) {
    const p = join(d, 'node_modules', name, 'package.json');
    if (existsSync(p)) return JSON.parse(readFileSync(p, 'utf8')).version;
  }
  throw new Error(`${name} is not installed for ${dir}`);
}

/** How long `wrangler dev` may take to answer its first request (it bundles, then starts workerd). */
const START_MS = 120_000;

test('the tests run the miniflare and workerd that wrangler dev runs, and wrangler.toml’s date is one they support', () => {
  const wrangler = packageJson('node_modules/wrangler').dependencies;
  assert.equal(packageJson('.').devDependencies.miniflare, wrangler.miniflare, 'package.json must pin miniflare to wrangler’s');
  assert.equal(versionFrom('.', 'miniflare'), wrangler.miniflare, 'the tests’ miniflare');
  assert.equal(versionFrom('node_modules/wrangler', 'miniflare'), wrangler.miniflare, 'wrangler’s miniflare');
  assert.equal(versionFrom('node_modules/miniflare', 'workerd'), wrangler.workerd, 'the workerd the tests’ miniflare runs');
  assert.equal(versionFrom('node_modules/wrangler', 'workerd'), wrangler.workerd, 'the workerd wrangler runs');
  assert.ok(compatibilityDate <= supportedCompatibilityDate, `compatibility_date ${compatibilityDate} is newer than this workerd’s ${supportedCompatibilityDate}`);
});

/** A port nobody listens on now, on loopback. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Stops the whole process group (wrangler and the workerd it started), waiting at most 10 s. */
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const kill = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {}
  };
  kill('SIGTERM');
  const timer = setTimeout(() => kill('SIGKILL'), 5_000);
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  clearTimeout(timer);
  kill('SIGKILL');
}

test('wrangler dev serves the Worker: health, a remember, a search that finds it, and no answer without the token', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mnemo-wrangler-dev-'));
  const token = 'dev-token-0123456789';
  // What a developer keeps in cloudflare/.dev.vars, here in a file of its own so a developer's
  // own .dev.vars is neither read nor overwritten.
  const vars = join(dir, '.dev.vars');
  writeFileSync(vars, `MNEMO_TOKEN=${token}\n`);
  const [port, inspector] = [await freePort(), await freePort()];
  const args = ['dev', '--config', 'cloudflare/wrangler.toml', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector), '--persist-to', join(dir, 'state'), '--env-file', vars];
  const started = performance.now();
  const child = spawn(join(root, 'node_modules/.bin/wrangler'), args, {
    cwd: root,
    detached: true, // its own process group, so stop() ends workerd too
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      CI: 'true',
      WRANGLER_SEND_METRICS: 'false',
      WRANGLER_SEND_ERROR_REPORTS: 'false',
      WRANGLER_LOG_PATH: join(dir, 'logs'),
      WRANGLER_REGISTRY_PATH: join(dir, 'registry'),
    },
  });
  // Should this process end before the finally below runs, wrangler and workerd end with it.
  const orphaned = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  };
  process.once('exit', orphaned);
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  try {
    const base = `http://127.0.0.1:${port}/api/v1`;
    const call = async (method, path, body, auth = token) => {
      const res = await fetch(base + path, {
        method,
        headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      return { status: res.status, text, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
    };

    // Up when health answers; wrangler gone or START_MS passed is a failure with its output.
    let health;
    while (!health) {
      assert.equal(child.exitCode, null, `wrangler dev exited with ${child.exitCode}:\n${output}`);
      assert.ok(performance.now() - started < START_MS, `wrangler dev did not answer within ${START_MS / 1000} s:\n${output}`);
      try {
        health = await call('GET', '/health', undefined, null);
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    t.diagnostic(`wrangler dev answered health after ${Math.round(performance.now() - started)} ms`);
    assert.equal(health.status, 200, health.text);
    assert.equal(health.body.status, 'ok');

    const remembered = await call('POST', '/remember', { entity_id: 'ana', content: 'I moved to Porto in March and I work as a nurse.' });
    assert.equal(remembered.status, 200, remembered.text);
    const ids = remembered.body.outcomes.map((o) => o.id).filter(Boolean);
    assert.ok(ids.length > 0, remembered.text);

    const found = await call('POST', '/search', { entity_id: 'ana', query: 'Porto' });
    assert.equal(found.status, 200, found.text);
    assert.ok(found.body.some((hit) => ids.includes(hit.memory.id)), found.text);

    for (const auth of [null, 'not-the-token']) {
      const refused = await call('POST', '/search', { entity_id: 'ana', query: 'Porto' }, auth);
      assert.equal(refused.status, 401, `${auth}: ${refused.text}`);
    }
  } finally {
    await stop(child);
    process.off('exit', orphaned);
    rmSync(dir, { recursive: true, force: true });
  }
});
