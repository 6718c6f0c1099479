// The package's TypeScript declarations (index.d.ts, generated from the engine's call
// declarations; package.d.ts, written by hand) compile, and describe real usage: the TypeScript
// compiler checks types.check.ts against them, including what they must refuse.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

import { root } from './helpers.mjs';

test('the TypeScript declarations compile and type real usage', () => {
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--lib', 'es2022,dom'];
  let out = '';
  try {
    out = execFileSync(process.execPath, [tsc, ...args, join(root, 'www/test/types.check.ts')], { encoding: 'utf8' });
  } catch (e) {
    out = `${e.stdout}${e.stderr}`;
    assert.fail(`tsc found errors:\n${out}`);
  }
  assert.equal(out.trim(), '');
});
