// The two servers answer alike: the same Keyoku-shaped session — remember, seed, search, list,
// read, tag, reinforce, schedule, heartbeat, stats, graph, export, and refusals — sent to the
// native `mnemo serve` (the engine component in wasmtime) on loopback and to the Worker and its
// Durable Object (workerd), with the same clock and id seed, gets byte-identical answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root, send, start, TOKEN } from './runtime.mjs';

const NOW = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const SEED = 42;

/** The `mnemo` binary `cargo test` built (scripts/test runs it first). */
function mnemoBinary() {
  const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
  const bin = process.env.MNEMO_BIN ?? join(target, 'debug/mnemo');
  assert.ok(existsSync(bin), `no mnemo binary at ${bin}: run cargo build -p mnemo-host (or set MNEMO_BIN)`);
  return bin;
}

/** Starts `mnemo serve` on a free loopback port; resolves to its base URL and process. */
function serveNative(data) {
  const child = spawn(mnemoBinary(), ['--data', data, '--now', String(NOW), '--seed', String(SEED), 'serve', '--port', '0', '--maintain-every', '0'], {
    env: { ...process.env, MNEMO_TOKEN: TOKEN },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const m = err.match(/serving (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/);
      if (m) resolve({ base: m[1], child });
    });
    child.on('exit', (code) => reject(new Error(`mnemo serve exited ${code}: ${err}`)));
  });
}

async function nativeSend(base, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

test('mnemo serve and the Durable Object give the same answers to the same Keyoku session', async () => {
  const data = mkdtempSync(join(tmpdir(), 'mnemo-parity-'));
  const { base, child } = await serveNative(data);
  const mf = await start();
  const open = JSON.stringify({ now: NOW, seed: SEED });
  const both = async (method, path, body) => {
    const native = await nativeSend(base, method, path, body);
    const worker = await send(mf, method, path, { body, headers: { 'x-mnemo-open': open, 'x-mnemo-object': 'parity' } });
    assert.equal(worker.status, native.status, `${method} ${path}: ${native.text.slice(0, 200)} / ${worker.text.slice(0, 200)}`);
    assert.equal(worker.text, native.text, `${method} ${path}`);
    return native.status === 200 ? JSON.parse(native.text) : null;
  };
  try {
    const remembered = await both('POST', '/api/v1/remember', {
      entity_id: 'ana',
      content: 'I work as a marine biologist in Porto. My sister Ines is visiting me in May. I am allergic to penicillin.',
      session_id: 's1',
    });
    const id = remembered.outcomes.find((o) => o.id).id;
    await both('POST', '/api/v1/seed', {
      memories: [
        { entity_id: 'ana', content: 'The dentist appointment is on Tuesday at 10.', type: 'EVENT', importance: 0.7 },
        { entity_id: 'ana', content: 'I prefer green tea to coffee.', tags: ['drinks'] },
      ],
    });
    const job = await both('POST', '/api/v1/search', { entity_id: 'ana', query: 'what is my job', limit: 3 });
    assert.match(JSON.stringify(job), /marine biologist/);
    await both('POST', '/api/v1/search', { entity_id: 'ana', query: 'medicine to avoid', mode: 'semantic', min_score: 0.1 });
    await both('GET', '/api/v1/memories?entity_id=ana&limit=10');
    await both('GET', `/api/v1/memories/${id}?entity_id=ana`);
    await both('PUT', `/api/v1/memories/${id}/tags`, { entity_id: 'ana', tags: ['work', 'ocean'] });
    await both('POST', `/api/v1/memories/${id}/reinforce`, { entity_id: 'ana' });
    await both('POST', '/api/v1/schedule', { entity_id: 'ana', agent_id: 'bot', content: 'Water the plants', cron_tag: 'cron:daily:09:00' });
    await both('GET', '/api/v1/scheduled?entity_id=ana');
    await both('POST', '/api/v1/heartbeat/check', { entity_id: 'ana' });
    await both('GET', '/api/v1/stats/ana');
    await both('GET', '/api/v1/graph/entities?entity_id=ana');
    await both('GET', '/api/v1/export?entity_id=ana');
    // Refusals answer alike too.
    await both('POST', '/api/v1/remember', { entity_id: 'ana', content: '' });
    await both('POST', '/api/v1/search', { entity_id: 'ana', query: 'x', limit: 'ten' });
    await both('GET', '/api/v1/memories/mem_0000000000000000?entity_id=ana');
    await both('GET', '/api/v1/teams/t1?entity_id=ana');
  } finally {
    child.kill();
    await mf.dispose();
    rmSync(data, { recursive: true, force: true });
  }
});
