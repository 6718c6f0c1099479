// Shared by the package's tests: repo paths, the native reference run of a conformance
// scenario, a static server on 127.0.0.1, and Debian's Chromium driven by playwright-core.
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Names of the conformance scenarios in tests/scenarios (adding one is adding a file). Those
 * that send source text (`reads_source`) run as sent on every face: the browser package reads
 * the texts with its parser module (its engine has none), the Worker's engine has the parser.
 */
export function scenarioNames() {
  return readdirSync(join(root, 'tests/scenarios'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length));
}

/**
 * The scenario file's JSON, and the outcomes recorded for it in tests/scenarios/expected (the
 * native core gives exactly these: core's `scenarios` test checks it).
 */
export function nativeScenario(name) {
  const read = (...path) => JSON.parse(readFileSync(join(root, 'tests/scenarios', ...path), 'utf8'));
  return { scenario: read(`${name}.json`), native: read('expected', `${name}.json`) };
}

export { runSteps } from './steps.mjs';

/**
 * The native benchmarks' corpus as JSON (`{model, dimension, items, queries}`), written once
 * by core's bench_corpus example into bench-results/; returns its path relative to the root.
 */
export function benchCorpus(n, q) {
  mkdirSync(join(root, 'bench-results'), { recursive: true });
  const file = `bench-results/corpus-${n}-${q}.json`;
  if (!existsSync(join(root, file))) {
    const out = openSync(join(root, file), 'w');
    try {
      execFileSync('cargo', ['run', '-q', '--release', '-p', 'mnemo-core', '--example', 'bench_corpus', '--', `${n}`, `${q}`], {
        cwd: root,
        stdio: ['ignore', out, 'inherit'],
      });
    } finally {
      closeSync(out);
    }
  }
  return file;
}

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.css': 'text/css',
  '.png': 'image/png',
};

/**
 * Serves the repository (or `dir`) read-only on 127.0.0.1 (a secure origin, as OPFS needs):
 * uncached, or with `cache` as an app's host serves its built files (cacheable for an hour).
 * `sent` counts the response bytes written.
 */
export async function serve(port = 0, { cache = false, dir = root } = {}) {
  const sent = { bytes: 0 };
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (path.includes('..')) return res.writeHead(400).end();
    try {
      const body = await readFile(join(dir, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream', 'cache-control': cache ? 'max-age=3600' : 'no-store' });
      sent.bytes += body.length;
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, sent, close: () => new Promise((r) => server.close(r)) };
}

/** Flags Debian's Chromium needs to run headless in a container (no sandbox, no GPU). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const newProfile = () => mkdtemp(join(tmpdir(), 'mnemo-chromium-'));

/** Starts Debian's Chromium on `profile` (a persistent profile, so OPFS survives restarts). */
export async function browser(profile) {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** `npm pack` of www/ into `dir`, as a user's install gets it; the tarball's path. */
export function pack(dir) {
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir, join(root, 'www')], { encoding: 'utf8' });
  return join(dir, out.trim().split('\n').pop());
}

/** A fresh app at `dir` with `tarball` installed from it and `files` (name → text) written. */
export async function freshApp(dir, tarball, files) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `app-${basename(dir)}`, private: true, type: 'module' }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', tarball], { cwd: dir, stdio: 'inherit' });
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}
