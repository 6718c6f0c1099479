// Runs a conformance scenario's steps through an open `Mnemo`, giving the native runner's
// `{ok}` / `{error: {code, message}}` outcomes. Browser-safe: the test page imports it too.
export async function runSteps(m, steps) {
  const out = [];
  for (const step of steps) {
    if (step.at !== undefined) await m.setNow(step.at);
    try {
      out.push({ ok: await m.call(step.method, step.args ?? {}) });
    } catch (e) {
      out.push({ error: { code: e.code, message: e.message } });
    }
  }
  return out;
}
