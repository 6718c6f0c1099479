// Runs a conformance scenario's steps through an open `Mnemo`, giving the native runner's
// `{ok}` / `{error: {code, message}}` outcomes. Browser-safe: the test page imports it too.
// With `parse` (the parser module's `parseSources`), files `ingest_code` is sent as text are
// read with it first, as a program using this package does.
export async function runSteps(m, steps, parse) {
  const out = [];
  for (const step of steps) {
    if (step.at !== undefined) await m.setNow(step.at);
    try {
      let args = step.args ?? {};
      if (parse && step.method === 'ingest_code') args = { ...args, files: await parse(args.files) };
      out.push({ ok: await m.call(step.method, args) });
    } catch (e) {
      out.push({ error: { code: e.code, message: e.message } });
    }
  }
  return out;
}
