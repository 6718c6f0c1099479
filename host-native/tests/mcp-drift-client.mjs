// A real MCP client (the protocol's TypeScript SDK) on `mnemo --workspace W mcp`: the server's
// first maintenance pass checks the paths memories cite, so a memory citing a deleted file is
// invalidated and leaves the agent's searches. Run by host-native/tests/drift.rs:
//   node mcp-drift-client.mjs <mnemo> <data dir> <workspace> <memory id>
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [mnemo, data, workspace, id] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: mnemo,
  // The clock the memory was written at (the test's), so decay leaves it be.
  args: ['--data', data, '--now', '2023-11-14T22:13:20Z', '--workspace', workspace, 'mcp', '--entity', 'kai'],
  stderr: 'inherit',
});
const client = new Client({ name: 'mnemo-drift-agent', version: '1.0.0' });
await client.connect(transport);
async function call(name, args) {
  const r = await client.callTool({ name, arguments: args });
  assert.ok(!r.isError, `${name} failed: ${r.content?.[0]?.text}`);
  return r.structuredContent ?? JSON.parse(r.content[0].text);
}
// The pass runs beside the session's first calls: wait for it (at most 10 s).
let memory;
for (let i = 0; i < 100; i++) {
  memory = await call('memory_get', { id });
  if (memory.status !== 'active') break;
  await new Promise((r) => setTimeout(r, 100));
}
assert.equal(memory.status, 'invalidated');
const hits = await call('memory_search', { query: 'where is the token checked' });
assert.ok(!JSON.stringify(hits).includes(id), 'an invalidated memory is not found');
await client.close();
console.log(JSON.stringify({ ok: true, status: memory.status }));
