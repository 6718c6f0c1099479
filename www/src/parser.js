// The package's parser module: reads source files' texts into what `ingestCode` takes. The
// engine module leaves the parser out to keep every page's download small; this module (the
// grammars of tree-sitter for Rust, Python, TypeScript/TSX, JavaScript and Go, about 800 KiB
// gzip) is fetched only when a program parses: `ingestCode` with a file as text, or `parseSources`.

import init, { readSources } from '../pkg/parser/mnemo_wasm_parser.js';
import { coded, instantiate, parserMissing } from './wasm.js';

let ready;

/** Loads and instantiates the parser's WebAssembly (once per thread). */
function loadParser() {
  // A literal `new URL(…, import.meta.url)`, which bundlers recognise and emit with the app.
  ready ??= instantiate(init, new URL('../pkg/parser/mnemo_wasm_parser_bg.wasm', import.meta.url));
  // A failed load is not kept: the next call may try again (the network may be back).
  ready.catch(() => (ready = undefined));
  return ready;
}

/**
 * Reads files' texts as the `mnemo` binary and the Python package do inside `ingest_code`:
 * each `{path, text, language?}` comes back as `{path, language, lines, summary?, symbols}`,
 * which `ingestCode` stores as the same memories the other faces store from the same texts.
 * A file the parser does not read (a text over 1 MiB or binary, another language, a file
 * already parsed) comes back as given, for `ingestCode` to take or refuse with the engine's
 * own error naming it: one place judges a file. Rejects with `invalid_input` when `files` is
 * not a list.
 */
export async function parseSources(files) {
  if (!Array.isArray(files)) {
    throw coded('invalid files: expected a list of {path, text, language?}', 'invalid_input');
  }
  let json;
  try {
    json = JSON.stringify(files);
  } catch (e) {
    throw coded(`invalid files: ${e.message}`, 'invalid_input');
  }
  try {
    await loadParser();
  } catch (e) {
    throw parserMissing(e);
  }
  try {
    return JSON.parse(readSources(json));
  } catch (e) {
    throw e?.code ? e : coded(e?.message ?? String(e), 'internal');
  }
}
