// A real MCP client (the protocol's TypeScript SDK) driving `mnemo mcp --entity acme --agent bob`
// on a store where alice, bob's teammate, and carol, outside the team, keep memories. Run by
// host-native/tests/mcp.rs:
//   node mcp-agent-client.mjs <mnemo> <data dir> <ids as JSON {key: id}>
// Exits non-zero with the failed assertion when the server shows bob what he may not see.
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [mnemo, data, idsText] = process.argv.slice(2);
const ids = JSON.parse(idsText);
const transport = new StdioClientTransport({
  command: mnemo,
  args: ['--data', data, 'mcp', '--entity', 'acme', '--agent', 'bob'],
  stderr: 'inherit',
});
const client = new Client({ name: 'mnemo-test-agent-bob', version: '1.0.0' });
await client.connect(transport);
assert.match(client.getInstructions() ?? '', /agent "bob"/);

// No tool asks who bob is or whose memories these are; the owner's team management is not
// offered to an agent.
const { tools } = await client.listTools();
for (const t of tools) {
  assert.ok(!t.inputSchema.properties?.agent_id, `${t.name} takes no agent_id`);
  assert.ok(!t.inputSchema.properties?.entity_id, `${t.name} takes no entity_id`);
  assert.ok(!t.name.startsWith('team_'), `${t.name} is the owner's`);
}
const names = tools.map((t) => t.name);
for (const name of ['memory_search', 'memory_get', 'memory_store', 'memory_forget', 'heartbeat_check', 'memory_entities', 'memory_relationships', 'memory_card']) {
  assert.ok(names.includes(name), `${name} is offered`);
}

async function answer(name, args) {
  const r = await client.callTool({ name, arguments: args });
  return { error: r.isError === true, text: r.content[0].text };
}
const secrets = {
  alice_private: 'kumquat',
  carol_private: 'persimmon',
  owner_private: 'kiwano',
  // What only alice's private "My sister Ana Souza lives in Lisbon." says.
  alice_surname: 'Souza',
  alice_city: 'Lisbon',
};
const shared = { alice_team: 'rutabaga', alice_global: 'quince' };
let probes = 0;
const leaks = [];
function check(what, text) {
  for (const [key, word] of Object.entries(secrets)) {
    probes += 1;
    if (text.includes(word) || text.includes(ids[key])) leaks.push(`${what} shows ${key}`);
  }
}
for (const query of ['vault code kumquat', 'persimmon allergy', 'salary kiwano', 'rutabaga quince']) {
  const r = await answer('memory_search', { query, min_score: 0 });
  check(`search ${query}`, r.text);
}
for (const [key, id] of Object.entries(ids)) {
  for (const [tool, extra] of [['memory_get', {}], ['memory_related', {}], ['memory_set_layer', { layer: 'procedural', reason: 'mine now' }]]) {
    const r = await answer(tool, { id, ...extra });
    check(`${tool} ${key}`, r.error ? r.text.replaceAll(id, '') : r.text);
    if (key in secrets) assert.ok(r.error && /not_found/.test(r.text), `${tool} ${key}: ${r.text}`);
  }
}
check('stats', (await answer('memory_stats', {})).text);
check('heartbeat', (await answer('heartbeat_check', { dry_run: true })).text);
check('schedules', (await answer('schedule_list', {})).text);
for (const args of [{}, { query: 'souza' }, { types: ['LOCATION'] }]) {
  check(`entities ${JSON.stringify(args)}`, (await answer('memory_entities', args)).text);
}
for (const entity of [undefined, 'Ana', 'Ana Souza', 'Lisbon', 'user']) {
  const r = await answer('memory_relationships', entity ? { entity } : {});
  check(`relationships ${entity}`, r.text.replaceAll(`"${entity}"`, ''));
}
check('bridges', (await answer('memory_bridges', {})).text);
for (const name of ['Ana', 'Ana Souza', 'Lisbon', 'Porto', 'user']) {
  const r = await answer('memory_card', { name });
  check(`card ${name}`, r.text.replaceAll(`"${name}"`, ''));
}
assert.deepEqual(leaks, [], `${leaks.length} leaks of ${probes} probes`);

// What bob may see, he sees.
const team = await answer('memory_search', { query: 'rutabaga release', min_score: 0 });
assert.ok(team.text.includes('rutabaga'), team.text);
assert.ok((await answer('memory_get', { id: ids.alice_global })).text.includes('quince'));
assert.equal(JSON.parse((await answer('memory_stats', {})).text).total, 3);
// His graph is what the team's sentence says: Ana, his sister, in Porto.
const ents = JSON.parse((await answer('memory_entities', {})).text).map((e) => e.name);
assert.ok(ents.includes('Ana') && ents.includes('Porto'), JSON.stringify(ents));
const rels = JSON.parse((await answer('memory_relationships', { entity: 'Ana' })).text);
assert.ok(rels.some((r) => r.relation === 'lives_in' && r.to === 'Porto' && r.evidence === 1), JSON.stringify(rels));

// He cannot act for another agent, nor change alice's memories; what he stores is his.
assert.match((await answer('memory_search', { query: 'x', agent_id: 'alice' })).text, /acts for agent "bob" only/);
const forget = await answer('memory_forget', { id: ids.alice_team });
assert.ok(forget.error && /not this agent's/.test(forget.text), forget.text);
const stored = JSON.parse((await answer('memory_store', { content: 'The vault code is kumquat 4711' })).text);
const mine = stored.outcomes.find((o) => o.action === 'created');
assert.ok(mine, `bob's own memory, not a duplicate of alice's: ${JSON.stringify(stored)}`);
assert.equal(JSON.parse((await answer('memory_get', { id: mine.id })).text).agent_id, 'bob');

await client.close();
console.log(JSON.stringify({ ok: true, probes, leaks: leaks.length }));
