// The package as an app uses it: `npm pack` of www/, installed into a fresh app per bundler
// (Vite, webpack 5, esbuild, and a Next.js client component), built by that bundler, served the way an app is (unknown paths
// answer the app's page, as `vite preview` and most hosts do), and opened in Chromium: an OPFS
// store remembers, ingests a page from a File and a source file as text (read by the parser
// module, fetched then), searches, and after a reload finds them again. A weights URL that
// answers a page instead of the file is refused by name.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';

import { browser, freshApp, newProfile, pack, root } from './helpers.mjs';

/** The app: one page whose script opens a store and answers `run(step)`. */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>app</title></head>
<body><script type="module" src="./main.js"></script></body></html>
`;
/**
 * What the app does, with `Mnemo` taken from `mnemo` (an expression): `run(step)` writes (and
 * searches) or only searches after a reload; `weightsFrom(url)` opens a store with its
 * weights at `url` and answers the error it gets, if any.
 */
const appCode = (mnemo) => `window.run = async (step) => {
  const { Mnemo } = await ${mnemo};
  const m = await Mnemo.open({ name: 'app', storage: 'opfs' });
  try {
    if (step === 'write') {
      await m.remember({ entity_id: 'ana', content: 'I am allergic to penicillin.' });
      const page = '<h1>Trip</h1><script>leak()</script><p>The ferry to the island leaves at 7:40 from pier 3.</p>';
      await m.ingestFile(new File([page], 'trip.html', { type: 'text/html' }), { entity_id: 'ana-docs' });
      // A source file sent as text: the package fetches its parser module only now.
      await m.ingestCode({ entity_id: 'ana-code', files: [{ path: 'src/auth.rs', text: '//! Tokens.\\npub fn check_token(t: &str) -> bool { true }\\n' }] });
      // Who "my sister" is, said once, for a question about her later.
      for (const content of ['My sister Ana is a nurse.', 'Ana lives in Lisbon now.', 'I live in Porto.']) {
        await m.remember({ entity_id: 'ana-kin', content });
      }
    }
    const [kin] = await m.search({ entity_id: 'ana-kin', query: 'Which city does my sister live in?', limit: 3 });
    const hits = await m.search({ entity_id: 'ana', query: 'what medicine should I avoid' });
    const [found] = await m.search({ entity_id: 'ana-docs', query: 'when does the ferry leave?' });
    // Vectors come back from the bundled worker as one Float32Array.
    const flat = await m.embedVectors({ texts: ['penicillin', 'the ferry'] });
    const vectors = [flat.vectors instanceof Float32Array, flat.vectors.length, flat.dimension];
    const [code] = await m.search({ entity_id: 'ana-code', query: 'where is the token checked?' });
    return { hits: hits.map((h) => h.memory.content), passage: [found?.passage?.section, found?.memory.content], vectors, code: code?.memory.content, kin: [kin?.memory.content, kin?.why.hop] };
  } finally {
    await m.close();
  }
};
window.weightsFrom = async (url) => {
  const { Mnemo } = await ${mnemo};
  try {
    await (await Mnemo.open({ name: 'other', storage: 'memory', weights: url })).close();
    return 'opened';
  } catch (e) {
    return \`\${e.code}: \${e.message}\`;
  }
};
window.ready = true;
`;
const MAIN = `import * as mnemo from '@mnemo/memory';\n\n${appCode('mnemo')}`;

let work;
let tarball;
before(async () => {
  work = await mkdtemp(join(tmpdir(), 'mnemo-bundlers-'));
  tarball = pack(work);
});
after(() => rm(work, { recursive: true, force: true }));

/**
 * A fresh app with the packed package installed from its tarball; its directory (under `under`,
 * by default a temporary one).
 */
async function app(name, under = work) {
  return freshApp(join(under, name), tarball, { 'index.html': PAGE, 'main.js': MAIN });
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

/**
 * Serves `dir` on loopback as an app host does: a path with no file answers the page. Two
 * broken deployments besides: `/gone.bin` is missing (404), `/cut.bin` is the weights cut short.
 */
async function host(dir, weights) {
  const page = await readFile(join(dir, 'index.html'));
  const cut = (await readFile(join(dir, weights))).subarray(0, 100_000);
  const requested = [];
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname));
    requested.push(path);
    if (path === '/gone.bin') return res.writeHead(404).end('no such file');
    if (path === '/cut.bin') return res.writeHead(200).end(cut);
    try {
      if (path.includes('..')) throw new Error('outside');
      const file = path === '/' ? 'index.html' : path;
      const body = await readFile(join(dir, file));
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, requested, close: () => new Promise((r) => server.close(r)) };
}

/** Every file under `dir`, relative. */
async function files(dir, prefix = '') {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = join(prefix, e.name);
    out.push(...(e.isDirectory() ? await files(join(dir, e.name), rel) : [rel]));
  }
  return out;
}

/** Opens the built app in Chromium: writes, searches, reloads and searches again. */
async function check(dist, name) {
  const built = await files(dist);
  assert.equal(built.filter((f) => f.endsWith('.wasm')).length, 2, `${name} emitted the engine's and the parser's WebAssembly: ${built}`);
  const weights = built.find((f) => f.endsWith('.bin'));
  assert.ok(weights, `${name} emitted the weights: ${built}`);
  const server = await host(dist, weights);
  const profile = await newProfile();
  const context = await browser(profile);
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => window.ready === true, null, { timeout: 60_000 });
    // A document, ingested from a File, is found to its passage (and its script left out).
    const passage = [['Trip'], '# Trip\n\nThe ferry to the island leaves at 7:40 from pier 3.'];
    const first = await page.evaluate(() => window.run('write'));
    assert.equal(first.hits[0], 'I am allergic to penicillin.', `${name}: ${JSON.stringify(first)}`);
    assert.deepEqual(first.passage, passage, name);
    assert.deepEqual(first.vectors, [true, 512, 256], name);
    assert.equal(first.code, 'src/auth.rs — rust, 2 lines. Tokens.\n- pub fn check_token(t: &str) -> bool (line 2)', name);
    // "my sister" is followed through the graph to Ana, whose city answers.
    const kin = ['Ana lives in Lisbon now.', { phrase: 'my sister', entity: 'Ana' }];
    assert.deepEqual(first.kin, kin, name);
    // The engine's and the parser's WebAssembly, told apart by size (the parser's is larger).
    const wasm = await Promise.all(built.filter((f) => f.endsWith('.wasm')).map(async (f) => [`/${f}`, (await readFile(join(dist, f))).length]));
    const [engineWasm, parserWasm] = wasm.sort((a, b) => a[1] - b[1]).map(([f]) => f);
    assert.ok(server.requested.includes(parserWasm), `${name} fetched the parser to read the source file`);
    const sinceReload = server.requested.length;
    await page.reload();
    await page.waitForFunction(() => window.ready === true);
    const again = await page.evaluate(() => window.run('read'));
    // A page that sends no source file does not fetch the parser.
    const fetched = server.requested.slice(sinceReload);
    assert.ok(fetched.includes(engineWasm) && !fetched.includes(parserWasm), `${name} after a reload fetched ${fetched}`);
    assert.equal(again.hits[0], 'I am allergic to penicillin.', `${name} after a reload: ${JSON.stringify(again)}`);
    assert.deepEqual(again.passage, passage, `${name} after a reload`);
    assert.equal(again.code, first.code, `${name} after a reload`);
    assert.deepEqual(again.kin, kin, `${name} after a reload`);
    // Weights deployed wrong are refused by name: missing, a page in their place, cut short.
    for (const [url, says] of [
      ['/gone.bin', /HTTP 404/],
      ['/nowhere/mnemo-static-v1.bin', /an HTML page/],
      ['/cut.bin', /100000 bytes the engine refuses/],
    ]) {
      const error = await page.evaluate((u) => window.weightsFrom(u), url);
      assert.match(error, /^embedder_error: cannot load the embedder's weights from http:\/\/127\.0\.0\.1:\d+\//, `${name} ${url}`);
      assert.ok(error.includes(url) && says.test(error) && error.includes('pass `weights`'), `${name} ${url}: ${error}`);
    }
    assert.deepEqual(errors, [], name);
  } finally {
    await context.close();
    await server.close();
    await rm(profile, { recursive: true, force: true });
  }
}

test('a fresh Vite app bundles the package and keeps memories in OPFS', async () => {
  const dir = await app('vite');
  const { build } = await import('vite');
  await build({ root: dir, logLevel: 'warn', configFile: false, build: { outDir: join(dir, 'dist') } });
  await check(join(dir, 'dist'), 'vite');
});

test('a fresh webpack 5 app bundles the package and keeps memories in OPFS', async () => {
  const dir = await app('webpack');
  const { default: webpack } = await import('webpack');
  const stats = await new Promise((resolve, reject) =>
    webpack(
      { mode: 'production', context: dir, entry: './main.js', output: { path: join(dir, 'dist'), clean: true } },
      (err, s) => (err ? reject(err) : resolve(s)),
    ),
  );
  assert.ok(!stats.hasErrors(), stats.toString('errors-only'));
  await writeFile(join(dir, 'dist/index.html'), PAGE);
  await check(join(dir, 'dist'), 'webpack');
});

/** The Next.js app: a client component that opens the store once the page is in the browser. */
const NEXT_PAGE = `'use client';
import { useEffect } from 'react';

export default function Page() {
  useEffect(() => {
${appCode("import('@mnemo/memory')")}
  }, []);
  return <p>app</p>;
}
`;

test('a fresh Next.js app bundles the package in a client component and keeps memories in OPFS', async () => {
  // Inside the repository, so Next.js and React resolve from its node_modules (Turbopack
  // compiles nothing outside the workspace root, a symlinked package included).
  const dir = await app('next', join(root, 'www/test/out/bundlers'));
  await mkdir(join(dir, 'app'), { recursive: true });
  const config = { output: 'export', turbopack: { root } };
  await writeFile(join(dir, 'next.config.mjs'), `export default ${JSON.stringify(config)};\n`);
  await writeFile(join(dir, 'app/layout.js'), 'export default function Layout({ children }) {\n  return <html><body>{children}</body></html>;\n}\n');
  await writeFile(join(dir, 'app/page.js'), NEXT_PAGE);
  execFileSync(join(root, 'node_modules/.bin/next'), ['build'], {
    cwd: dir,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await check(join(dir, 'out'), 'next');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a fresh esbuild app bundles the package, with its assets copied as the README says', async () => {
  const dir = await app('esbuild');
  const esbuild = await import('esbuild');
  // The package's files, found as a build script finds them (its exports name pkg/ and the
  // schema).
  const resolve = createRequire(join(dir, 'package.json')).resolve;
  const pkg = dirname(dirname(resolve('@mnemo/memory/pkg/mnemo-static-v1.bin')));
  assert.ok(JSON.parse(await readFile(resolve('@mnemo/memory/schema.json'), 'utf8')).calls.length > 40);
  // esbuild does not emit `new URL(…, import.meta.url)` assets: the worker is a second entry
  // point, and pkg/ is copied beside the bundle.
  await esbuild.build({
    absWorkingDir: dir,
    entryPoints: { main: './main.js', worker: join(pkg, 'src/worker.js') },
    bundle: true,
    format: 'esm',
    outdir: 'dist/src',
    logLevel: 'warning',
  });
  await cp(join(pkg, 'pkg'), join(dir, 'dist/pkg'), { recursive: true });
  await writeFile(join(dir, 'dist/index.html'), PAGE.replace('./main.js', './src/main.js'));
  await check(join(dir, 'dist'), 'esbuild');
});
