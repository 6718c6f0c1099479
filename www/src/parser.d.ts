// The parser module's declarations (written by hand): `@mnemo/memory/parser`.
import type { Symbol } from './index.js';

/** A source file to read: its path in the repository and its text. */
export interface SourceText {
  /** Its path from the repository's root, `/`-separated; its extension tells the language. */
  path: string;
  /** Its source text (at most 1 MiB, UTF-8, no NUL byte). */
  text: string;
  /** Its language when the extension does not tell it: `rust`, `python`, `typescript`, `javascript` or `go`. */
  language?: string;
}

/** A file read: what `ingestCode` stores of it. */
export interface ParsedFile {
  /** Its path, as given. */
  path: string;
  /** Its language. */
  language: string;
  /** Its number of lines. */
  lines: number;
  /** The first sentence of its opening comment or docstring, if it opens with one. */
  summary?: string;
  /** The symbols it defines, with their signatures and lines, in order of line. */
  symbols: Symbol[];
}

/**
 * Reads source files' texts (Rust, Python, TypeScript/TSX, JavaScript, Go) as the `mnemo`
 * binary and the Python package do inside `ingest_code`, as `ingestCode` does with a file sent
 * as text — call it yourself to parse in another thread — in a WebAssembly module of its own
 * (about 800 KiB gzip, fetched on the first call). A file the parser does not read (a text
 * over 1 MiB or binary, another language) comes back as given, for `ingestCode` to refuse
 * with the engine's own error naming it. The list goes to `ingestCode` as it is. Rejects with
 * `invalid_input` when `files` is not a list.
 */
export function parseSources(files: SourceText[]): Promise<(ParsedFile | SourceText)[]>;
