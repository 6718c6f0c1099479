// Starts the Worker and its Durable Objects in workerd (Cloudflare's open-source runtime, from
// npm through miniflare) on this machine, with the same module rules as wrangler.toml.
import { Miniflare } from 'miniflare';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const TOKEN = 'test-token-0123456789';

/** The Worker's compatibility date, as wrangler.toml gives it to `wrangler dev` and deploys. */
export const compatibilityDate = readFileSync(join(root, 'cloudflare/wrangler.toml'), 'utf8').match(/^compatibility_date = "([\d-]+)"/m)[1];

/**
 * A running Worker: `persist` a directory that keeps the objects' storage across restarts,
 * `hooks` the test headers on, `token` null for a deployment without its secret, `vars` more
 * variables.
 */
export async function start({ persist, hooks = true, token = TOKEN, vars = {} } = {}) {
  const mf = new Miniflare({
    modules: true,
    scriptPath: join(root, 'cloudflare/src/index.js'),
    modulesRoot: root,
    modulesRules: [
      { type: 'ESModule', include: ['**/*.js'] },
      { type: 'CompiledWasm', include: ['**/*.wasm'] },
      { type: 'Data', include: ['**/*.bin'] },
      { type: 'Text', include: ['**/schema.json'] },
    ],
    compatibilityDate,
    durableObjects: { MNEMO_OWNERS: { className: 'MnemoOwner', useSQLite: true } },
    durableObjectsPersist: persist ?? false,
    bindings: { ...(token === null ? {} : { MNEMO_TOKEN: token }), ...(hooks ? { MNEMO_TEST_HOOKS: '1' } : {}), ...vars },
  });
  await mf.ready;
  return mf;
}

/** Sends a request with the token; answers `{status, body, text, headers}` (body parsed when JSON). */
export async function send(mf, method, path, { body, headers = {}, token = TOKEN } = {}) {
  const res = await mf.dispatchFetch(`http://mnemo.test${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}
