// `npm run bench:parse`: the parser module (`@mnemo/memory/parser`) in Node on this repository's
// own source files (`git ls-files`, the extensions it reads, in calls of 200 files): its first
// call (the module fetched and compiled) and files and MiB read per second over three runs.
// Writes bench-results/parse.json and prints it.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { parseSources } from '../src/parser.js';
import { root } from '../test/helpers.mjs';

const EXTENSIONS = /\.(rs|py|pyi|ts|mts|cts|tsx|js|mjs|cjs|jsx|go)$/i;
const BATCH = 200;

const paths = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((p) => EXTENSIONS.test(p));
const files = [];
for (const path of paths) files.push({ path, text: await readFile(join(root, path), 'utf8') });
const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);

let t = performance.now();
await parseSources(files.slice(0, 1));
const firstMs = performance.now() - t;

const runs = [];
let symbols = 0;
for (let run = 0; run < 3; run++) {
  symbols = 0;
  t = performance.now();
  for (let i = 0; i < files.length; i += BATCH) {
    for (const f of await parseSources(files.slice(i, i + BATCH))) symbols += f.symbols?.length ?? 0;
  }
  const s = (performance.now() - t) / 1000;
  runs.push({ seconds: +s.toFixed(3), files_per_s: Math.round(files.length / s), mib_per_s: +(bytes / 2 ** 20 / s).toFixed(2) });
}
const result = { date: new Date().toISOString().slice(0, 10), files: files.length, mib: +(bytes / 2 ** 20).toFixed(2), symbols, first_call_ms: Math.round(firstMs), runs };
await mkdir(join(root, 'bench-results'), { recursive: true });
await writeFile(join(root, 'bench-results/parse.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
