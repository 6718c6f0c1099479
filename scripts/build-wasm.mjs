// Builds the engine's WebAssembly for JS hosts: cargo (release, wasm32-unknown-unknown) →
// wasm-bindgen --target web → wasm-opt -Oz (npm `binaryen`), three times: the browser
// package's engine module (www/pkg/, held to a size ceiling), its parser module
// (www/pkg/parser/: the source reader on its own, loaded only by `@mnemo/memory/parser`), and
// the Cloudflare Worker's engine, with Mnemo's HTTP API and the parser (cloudflare/pkg/).
//
// wasm-bindgen-cli must match the `wasm-bindgen` crate version pinned in wasm/Cargo.toml; it
// is found through $WASM_BINDGEN, ~/.cache/mnemo/wasm-bindgen-<version>/bin, or PATH, and
// installed into that cache with `cargo install` when missing (about 9 minutes, once).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync, statSync, mkdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, env = {}) =>
  execFileSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });

const version = readFileSync(join(root, 'wasm/Cargo.toml'), 'utf8').match(/wasm-bindgen = "=([\d.]+)"/)?.[1];
if (!version) throw new Error('wasm/Cargo.toml must pin wasm-bindgen = "=x.y.z"');

function findWasmBindgen() {
  const candidates = [
    process.env.WASM_BINDGEN,
    join(homedir(), `.cache/mnemo/wasm-bindgen-${version}/bin/wasm-bindgen`),
    'wasm-bindgen',
  ].filter(Boolean);
  for (const c of candidates) {
    try {
      const out = execFileSync(c, ['--version'], { encoding: 'utf8' });
      if (out.includes(version)) return c;
    } catch {}
  }
  return null;
}

function installWasmBindgen() {
  const dir = join(homedir(), `.cache/mnemo/wasm-bindgen-${version}`);
  console.log(`wasm-bindgen-cli ${version} not found: installing it into ${dir}`);
  // No --locked: its lock file pins a crate version the registry may no longer serve.
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', version, '--root', dir], {
    CARGO_TARGET_DIR: join(homedir(), '.cache/mnemo/wasm-bindgen-build'),
  });
  return join(dir, 'bin/wasm-bindgen');
}

// SQLite for the browser is compiled from the same amalgamation as the native build's
// (libsqlite3-sys, through rusqlite): FTS5's ranking changes between SQLite versions, and the
// same store must rank the same everywhere.
function nativeSqliteSource() {
  const meta = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--locked'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 }));
  const pkg = meta.packages.find((p) => p.name === 'libsqlite3-sys');
  if (!pkg) throw new Error('libsqlite3-sys is not in the dependency graph');
  const dir = join(dirname(pkg.manifest_path), 'sqlite3');
  if (!existsSync(join(dir, 'sqlite3.c'))) throw new Error(`no sqlite3.c in ${dir}`);
  return dir;
}

const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const wasmBindgen = findWasmBindgen() ?? installWasmBindgen();

/** The engine module's ceiling, gzip: the browser package's checked size (see docs/BENCHMARKS.md). */
const CEILING_KIB = 1000;

/** The parser module's ceiling, gzip: its grammars, measured with room for a grammar's update. */
const PARSER_CEILING_KIB = 850;

/**
 * Builds one module: cargo (package `crate`, with `features`) → wasm-bindgen → wasm-opt -Oz
 * into `dir`, with the default embedder's weights beside an engine module; checks that every
 * symbol is defined; its gzip size.
 */
async function build(dir, features, crate = 'mnemo-wasm') {
  run('cargo', ['build', '-p', crate, '--target', 'wasm32-unknown-unknown', '--profile', 'wasm', ...features], {
    SQLITE_WASM_RS_SOURCE_DIR: nativeSqliteSource(),
  });
  const name = crate.replaceAll('-', '_');
  const wasm = join(targetDir, `wasm32-unknown-unknown/wasm/${name}.wasm`);
  const out = join(root, dir);
  // This module's files go; another module's directory inside (the engine's pkg/ holds the
  // parser's pkg/parser/) stays, so `npm run build -- engine` leaves the parser in place.
  mkdirSync(out, { recursive: true });
  for (const f of readdirSync(out, { withFileTypes: true })) if (f.isFile()) rmSync(join(out, f.name));
  run(wasmBindgen, ['--target', 'web', '--out-dir', out, '--no-typescript', wasm]);
  const bg = join(out, `${name}_bg.wasm`);
  run(join(root, 'node_modules/.bin/wasm-opt'), [
    '-Oz',
    // Lets wasm-opt fold a pointer's constant offsets into its loads and stores (an add may
    // wrap, an offset may not: the two differ only for an address that wraps into the lowest
    // KiB, which Rust never makes). 7 KiB gzip off the module, as emscripten does it.
    '--low-memory-unused',
    '--strip-producers',
    // A function with one caller stays a function of its own instead of being inlined into
    // it (wasm-opt inlines them whatever their size by default). Browsers compile a module's
    // functions on first call, so a page then compiles only the calls it makes: inlined, the
    // dispatch of every engine call was one 110 KB function and the parse of every call's
    // arguments another 100 KB, compiled whole by a page's first search. 50 KiB gzip smaller
    // too; seeding and search ran at the same speed (docs/BENCHMARKS.md).
    '--one-caller-inline-max-function-size=0',
    // Runs the passes again until the module stops shrinking: about 1 KiB gzip for some 40 s
    // a build, needed since the window and period code left under 0.2 KiB below the ceiling.
    '--converge',
    '--enable-simd',
    '--enable-bulk-memory',
    '--enable-nontrapping-float-to-int',
    '--enable-sign-ext',
    '--enable-mutable-globals',
    '--enable-multivalue',
    '--enable-reference-types',
    bg,
    '-o',
    bg,
  ]);
  // The default embedder's weights travel beside the module (fetched once, kept in the Cache
  // API), so the module stays small.
  if (crate === 'mnemo-wasm') copyFileSync(join(root, 'core/assets/mnemo-static-v1.bin'), join(out, 'mnemo-static-v1.bin'));
  const bytes = readFileSync(bg);
  // A C symbol nothing defines (say, a SQLite function a SQLITE_OMIT_ flag removed but the
  // amalgamation's parser still calls) links as an import from "env", and the module would
  // then fail to load in every browser: stop here instead.
  const undefinedSymbols = WebAssembly.Module.imports(await WebAssembly.compile(bytes))
    .filter((i) => i.module === 'env')
    .map((i) => i.name);
  if (undefinedSymbols.length) {
    throw new Error(`the module needs symbols nothing defines: ${undefinedSymbols.join(', ')}`);
  }
  const gzip = gzipSync(bytes, { level: 9 }).length / 1024;
  console.log(`${dir}/${name}_bg.wasm: ${(statSync(bg).size / 1024).toFixed(0)} KiB raw, ${gzip.toFixed(0)} KiB gzip`);
  return gzip;
}

// `npm run build -- parser` (or `engine`, `worker`) builds only those modules.
const only = process.argv.slice(2);
const wanted = (name) => only.length === 0 || only.includes(name);

// The browser package's module (www/pkg/), held to its ceiling.
const browser = wanted('engine') ? await build('www/pkg', []) : 0;
if (browser > CEILING_KIB) {
  throw new Error(
    `www/pkg/mnemo_wasm_bg.wasm is ${browser.toFixed(1)} KiB gzip, above its ceiling of ${CEILING_KIB} KiB: ` +
      'find what grew (docs/BENCHMARKS.md says what each part costs) before raising it',
  );
}
// The Cloudflare Worker's module (cloudflare/pkg/): the same engine with Mnemo's HTTP API and
// the source parser.
if (wanted('worker')) await build('cloudflare/pkg', ['--features', 'http,source']);
// The browser package's parser module (www/pkg/parser/), built after the engine's, which
// `rmSync`s www/pkg.
const parser = wanted('parser') ? await build('www/pkg/parser', [], 'mnemo-wasm-parser') : 0;
if (parser > PARSER_CEILING_KIB) {
  throw new Error(
    `www/pkg/parser/mnemo_wasm_parser_bg.wasm is ${parser.toFixed(1)} KiB gzip, above its ceiling of ${PARSER_CEILING_KIB} KiB: ` +
      'find what grew (a grammar\'s update?) before raising it',
  );
}
