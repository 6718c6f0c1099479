// A real MCP client — the protocol's TypeScript SDK, as agents embed it — driving `mnemo mcp`.
// Run by host-native/tests/mcp.rs:
//   node mcp-client.mjs stdio <mnemo> <data dir>      (every tool takes entity_id)
//   node mcp-client.mjs stdio-bound <mnemo> <data dir> (started with --entity ana)
//   node mcp-client.mjs http <url> <token>
// Exits non-zero with the failed assertion when the server does not behave.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [mode, a, b] = process.argv.slice(2);
const bound = mode === 'stdio-bound';
let transport;
if (mode === 'http') {
  transport = new StreamableHTTPClientTransport(new URL(a), {
    requestInit: { headers: { Authorization: `Bearer ${b}` } },
  });
} else {
  const args = ['--data', b, 'mcp', ...(bound ? ['--entity', 'ana'] : [])];
  transport = new StdioClientTransport({ command: a, args, stderr: 'inherit' });
}
const client = new Client({ name: 'mnemo-test-agent', version: '1.0.0' });
await client.connect(transport);

const info = client.getServerVersion();
assert.equal(info.name, 'mnemo');
assert.match(client.getInstructions() ?? '', /memory_store/);

// The tools, with their argument schemas from the engine's declarations.
const { tools } = await client.listTools();
const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
for (const name of [
  'memory_search', 'memory_get', 'memory_store', 'memory_forget', 'memory_update', 'memory_stats',
  'memory_reinforce', 'memory_demote', 'schedule_create', 'schedule_list', 'heartbeat_check',
  'memory_entities', 'memory_relationships', 'memory_related', 'memory_set_layer', 'memory_card', 'memory_bridges',
]) {
  assert.ok(byName[name], `tool ${name} is listed`);
  assert.equal(byName[name].inputSchema.type, 'object', name);
  assert.ok(byName[name].description.length > 10, name);
}
assert.equal(byName.memory_search.annotations.readOnlyHint, true);
assert.equal(byName.memory_forget.annotations.destructiveHint, true);
assert.ok(byName.memory_search.inputSchema.properties.query, 'search takes a query');
if (bound) {
  // Bound to one owner: no tool asks for it.
  for (const t of tools) assert.ok(!t.inputSchema.properties?.entity_id, `${t.name} takes no entity_id`);
} else {
  assert.ok(byName.memory_search.inputSchema.required.includes('entity_id'));
}
const who = bound ? {} : { entity_id: 'ana' };

/** Calls a tool; answers its JSON (structured content when an object, else the text). */
async function call(name, args) {
  const r = await client.callTool({ name, arguments: { ...who, ...args } });
  assert.ok(!r.isError, `${name} failed: ${r.content?.[0]?.text}`);
  return r.structuredContent ?? JSON.parse(r.content[0].text);
}
/** Calls a tool that must refuse; answers its message. */
async function refused(name, args) {
  const r = await client.callTool({ name, arguments: args });
  assert.equal(r.isError, true, `${name} should refuse ${JSON.stringify(args)}`);
  return r.content[0].text;
}

const stored = await call('memory_store', {
  content: 'My sister Ines works as a marine biologist in Porto. I need to call her tomorrow.',
});
const ids = stored.outcomes.filter((o) => o.action === 'created').map((o) => o.id);
assert.ok(ids.length >= 1, JSON.stringify(stored));
// A retried store (the agent did not see the first answer) makes no duplicate.
const retried = await call('memory_store', {
  content: 'My sister Ines works as a marine biologist in Porto. I need to call her tomorrow.',
});
assert.ok(retried.outcomes.every((o) => o.action === 'skipped'), JSON.stringify(retried));
const stats = await call('memory_stats', {});
assert.equal(stats.total, ids.length);

const hits = (await client.callTool({ name: 'memory_search', arguments: { ...who, query: 'marine biologist' } }));
const found = JSON.parse(hits.content[0].text);
assert.ok(found.length >= 1 && found[0].memory.content.includes('marine biologist'), hits.content[0].text);
const id = found[0].memory.id;
// A time window: the tool's schema offers it, a window after the memory was said holds nothing,
// one around it finds it, and one that holds no time is refused by name.
assert.equal(byName.memory_search.inputSchema.properties.after.type.includes('integer'), true);
const said = found[0].memory.created_at;
const windowed = async (after, before) => client.callTool({ name: 'memory_search', arguments: { ...who, query: 'marine biologist', after, before } });
assert.deepEqual(JSON.parse((await windowed(said + 1, undefined)).content[0].text), []);
assert.equal(JSON.parse((await windowed(said, said + 1)).content[0].text)[0].memory.id, id);
const noTime = await windowed(said, said);
assert.equal(noTime.isError, true);
assert.match(noTime.content[0].text, /before/);
assert.equal((await call('memory_get', { id })).id, id);
assert.equal((await call('memory_update', { id, patch: { importance: 0.9 } })).importance, 0.9);
assert.equal((await call('memory_reinforce', { id })).feedback, 3);
assert.equal((await call('memory_demote', { id })).feedback, 2);
assert.equal((await call('memory_set_layer', { id, layer: 'procedural', reason: 'how it is done' })).layer, 'procedural');
assert.match(await refused('memory_set_layer', { ...who, id, layer: 'procedural', reason: 'again' }), /invalid_input: .*already in the procedural layer/);
assert.match(await refused('memory_set_layer', { ...who, id, layer: 'attic', reason: 'no' }), /invalid_input: .*layer/);
const plan = await call('schedule_create', { content: 'Water the plants', cron_tag: 'cron:daily:09:00' });
const plans = JSON.parse((await client.callTool({ name: 'schedule_list', arguments: { ...who } })).content[0].text);
assert.deepEqual(plans.map((p) => p.id), [plan.id]);
const beat = await call('heartbeat_check', { dry_run: true });
assert.equal(typeof beat.should_act, 'boolean');
const entities = JSON.parse((await client.callTool({ name: 'memory_entities', arguments: { ...who } })).content[0].text);
assert.ok(entities.some((e) => e.name === 'Ines'), JSON.stringify(entities));
// Memories the agent keeps finding together become related (from the third time).
const surf = (await call('memory_store', { content: 'Ines surfs at Matosinhos beach in Porto every weekend.' }))
  .outcomes.find((o) => o.action === 'created').id;
for (let i = 0; i < 3; i++) {
  const together = JSON.parse((await client.callTool({ name: 'memory_search', arguments: { ...who, query: 'Ines Porto' } })).content[0].text);
  assert.ok([id, surf].every((m) => together.slice(0, 5).some((h) => h.memory.id === m)), JSON.stringify(together));
}
// Ines now has a peer card: her names, facts and relationships, and a summary.
await call('memory_store', { content: 'Ines works at Farfetch.' });
const card = await call('memory_card', { name: 'ines' });
assert.equal(card.name, 'Ines');
assert.ok(card.memories >= 3 && card.facts.length >= 3, JSON.stringify(card));
assert.match(card.summary, /^Ines \(person\)/);
assert.match(await refused('memory_card', { ...who, name: 'Porto' }), /not_found: .*a card needs 3/);
assert.match(await refused('memory_card', { ...who, name: '' }), /invalid_input/);
assert.ok(Array.isArray(await call('memory_bridges', {})));
assert.match(await refused('memory_bridges', { ...who, status: 'maybe' }), /invalid_input/);
const related = JSON.parse((await client.callTool({ name: 'memory_related', arguments: { ...who, id } })).content[0].text);
assert.ok(related.some((r) => r.memory.id === surf && r.co_recalls === 3), JSON.stringify(related));
assert.equal((await call('memory_forget', { id })).state, 'DELETED');

// Bad input: a refusal the model can read, naming what is wrong; nothing changes.
assert.match(await refused('memory_search', { ...who, query: 'tea', limit: 'many' }), /invalid_input: .*limit/);
assert.match(await refused('memory_store', { ...who, content: '' }), /content/);
assert.match(await refused('memory_get', { ...who, id: "x'; DROP TABLE memories; --" }), /invalid_input|not_found/);
assert.match(await refused('memory_search', { ...who, query: 'tea', vector: [1, 2] }), /dimension/);
assert.match(await refused('memory_store', { ...who, content: 'héllo 🌊 '.repeat(20_000) }), /content/);
assert.match(await refused('memory_related', { ...who, id: 'mem_0000000000000000' }), /not_found/);
assert.match(await refused('memory_related', { ...who, id: 'x', limit: 0 }), /invalid_input: .*limit/);
if (bound) {
  assert.match(await refused('memory_stats', { entity_id: 'ben' }), /acts for entity "ana" only/);
} else {
  assert.match(await refused('memory_stats', {}), /entity_id/);
  // Owners stay apart.
  assert.equal((await call('memory_stats', { entity_id: 'ben' })).total, 0);
}
await assert.rejects(client.callTool({ name: 'memory_drop_everything', arguments: {} }), /no tool/);

// What was stored, the surfing and work notes and the schedule (a PLAN memory), less the one
// forgotten.
assert.equal((await call('memory_stats', {})).total, ids.length + 3 - 1);

// A document: ingested whole, found to the passage, listed, shown, its owner's alone.
for (const name of ['memory_ingest', 'memory_documents', 'memory_document']) {
  assert.ok(byName[name], `tool ${name} is listed`);
}
assert.equal(byName.memory_documents.annotations.readOnlyHint, true);
const section = (title, words) =>
  `## ${title}\n\n` + Array.from({ length: 12 }, (_, i) => `${words} point ${i + 1} is written down here at length.`).join(' ');
const plan2027 = [
  '# Plan 2027',
  section('Hiring', 'The hiring plan adds two engineers in Lisbon.'),
  section('Budget', 'The Q4 budget priorities are the data centre lease and security audits.'),
  section('Travel', 'Team offsites move to Porto in the spring.'),
].join('\n\n');
const ingested = await call('memory_ingest', { title: 'Plan 2027', content: plan2027, filename: 'plan-2027.md' });
assert.equal(ingested.action, 'created', JSON.stringify(ingested));
const doc = ingested.document;
assert.ok(doc.passages >= 3 && doc.auto_tags.includes('md'), JSON.stringify(doc));
assert.equal((await call('memory_ingest', { title: 'Plan 2027', content: plan2027 })).action, 'unchanged');
const answer = JSON.parse(
  (await client.callTool({ name: 'memory_search', arguments: { ...who, query: 'What are the Q4 budget priorities?' } }))
    .content[0].text,
);
assert.equal(answer[0].passage?.document_id, doc.id, JSON.stringify(answer[0]));
assert.deepEqual(answer[0].passage.section, ['Plan 2027', 'Budget']);
assert.match(answer[0].memory.content, /Q4 budget priorities/);
const listed = JSON.parse((await client.callTool({ name: 'memory_documents', arguments: { ...who } })).content[0].text);
assert.deepEqual(listed.map((d) => d.id), [doc.id]);
const shown = await call('memory_document', { id: doc.id });
assert.equal(shown.passages.length, doc.passages);
assert.equal(shown.passages.map((p) => p.content).join('').length >= plan2027.length, true);
assert.match(await refused('memory_ingest', { ...who, title: 'Empty', content: '  \n ' }), /invalid_input: .*content/);
assert.match(await refused('memory_ingest', { ...who, title: 'Two\nlines', content: 'text' }), /invalid_input: .*title/);
assert.match(await refused('memory_document', { ...who, id: "doc_1' OR 1=1 --" }), /invalid_input|not_found/);

// Source files an agent read, sent as text: the engine parses them, and search finds the function.
assert.ok(byName.memory_ingest_code, 'tool memory_ingest_code is listed');
const auth = '//! Bearer tokens.\n\n/// Whether the header carries the token.\npub fn check_token(header: &str, token: &str) -> bool {\n    header == token\n}\n';
const code = await call('memory_ingest_code', { files: [{ path: 'server/src/auth.rs', text: auth }], complete: true });
assert.deepEqual([code.created, code.symbols], [1, 1], JSON.stringify(code));
const where = JSON.parse(
  (await client.callTool({ name: 'memory_search', arguments: { ...who, query: 'where is the token checked?', limit: 1 } })).content[0].text,
);
assert.match(where[0].memory.content, /^server\/src\/auth\.rs — rust, 6 lines\. Bearer tokens\.\n- pub fn check_token\(header: &str, token: &str\) -> bool \(line 4\)/);
assert.match(await refused('memory_ingest_code', { ...who, files: [{ path: 'blob.rs', text: 'fn a() {}\u0000' }] }), /invalid_input: .*files\[0\]\.text/);
assert.match(await refused('memory_ingest_code', { ...who, files: [{ path: '../etc/passwd.rs', text: '' }] }), /invalid_input: .*files\[0\]\.path/);
if (!bound) {
  // Another owner sees no document and no passage of it.
  assert.match(await refused('memory_document', { entity_id: 'ben', id: doc.id }), /not_found/);
  const bens = JSON.parse((await client.callTool({ name: 'memory_search', arguments: { entity_id: 'ben', query: 'Q4 budget priorities' } })).content[0].text);
  assert.deepEqual(bens, []);
}

await client.close();
console.log(JSON.stringify({ ok: true, tools: tools.length }));
