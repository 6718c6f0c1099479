// What the package's modules share: loading a wasm-bindgen module from beside the package's
// files, and the errors they throw.

/**
 * Instantiates a wasm-bindgen module through its `init`, from `url`: fetched where the runtime
 * fetches (browsers, edge runtimes), read from the file in Node, which has no `file:` fetch.
 */
export async function instantiate(init, url) {
  if (url.protocol === 'file:') return init({ module_or_path: await readFileUrl(url) });
  return init({ module_or_path: url });
}

/**
 * Reads a `file:` URL with Node's fs. The module name is hidden from bundlers, which would
 * otherwise try to bundle Node's fs into a browser app (a page never reads `file:` URLs).
 */
export async function readFileUrl(url) {
  const fs = 'node:fs/promises';
  const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fs);
  return readFile(url);
}

/** An `Error` with a machine-readable `code`, as the engine throws. */
export function coded(message, code) {
  return Object.assign(new Error(message), { code });
}

/**
 * The error for source text when the parser module did not load (its script or its
 * WebAssembly missing from a deployment): what to serve, or what to send instead.
 */
export function parserMissing(e) {
  return coded(
    `the parser module did not load (${e?.message ?? e}): serve the package's pkg/parser/ beside pkg/, or send each file's \`language\`, \`lines\`, \`summary\` and \`symbols\` instead of its \`text\``,
    'not_implemented',
  );
}
