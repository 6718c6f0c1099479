// The dedicated worker that owns a store: the page talks to it with {id, op, payload}
// messages and gets {id, ok, value} or {id, ok: false, error: {message, code}} back.

import { coded, openStore } from './host.js';

let store;

const ops = {
  open: async (options) => {
    store = await openStore(options);
    return null;
  },
  call: ({ method, args, handed }) => store.call(method, args, handed),
  embedTexts: (payload) => store.embedTexts(payload),
  embedVectors: (args) => store.embedVectors(args),
  exportBytes: () => store.exportBytes(),
  setNow: (ms) => store.setNow(ms),
  close: () => store.close(),
};

self.onmessage = async ({ data: { id, op, payload } }) => {
  try {
    if (op !== 'open' && !store) throw coded('the store is not open', 'closed');
    const value = await ops[op](payload);
    // Vectors move to the page rather than being copied.
    self.postMessage({ id, ok: true, value }, value?.vectors instanceof Float32Array ? [value.vectors.buffer] : []);
  } catch (e) {
    self.postMessage({
      id,
      ok: false,
      error: { message: e?.message ?? String(e), code: e?.code ?? 'internal' },
    });
  }
};
