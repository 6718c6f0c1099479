// A real MCP client (the protocol's TypeScript SDK) asking `mnemo mcp` one question, as an
// agent would. Run by host-native/tests/codebase.rs and mcp.rs:
//   node mcp-search-client.mjs <mnemo> <data dir> <owner> <question>
// Prints the top hits as JSON: `[{content, why}]`.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [mnemo, data, owner, question] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: mnemo,
  args: ['--data', data, '--now', '2023-11-14T22:13:20Z', 'mcp', '--entity', owner, '--maintain-every', '0'],
  stderr: 'inherit',
});
const client = new Client({ name: 'mnemo-code-agent', version: '1.0.0' });
await client.connect(transport);
const r = await client.callTool({ name: 'memory_search', arguments: { query: question, limit: 3 } });
if (r.isError) throw new Error(r.content?.[0]?.text);
const hits = r.structuredContent?.hits ?? r.structuredContent ?? JSON.parse(r.content[0].text);
await client.close();
console.log(JSON.stringify((Array.isArray(hits) ? hits : hits.results ?? []).map((h) => ({ content: h.memory.content, why: h.why }))));
