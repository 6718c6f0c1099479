// Generated from the engine's call declarations (mnemo_core::api) by
// `cargo run -p mnemo-wasm --example bindings`; do not edit.

/**
 * Every engine call: its snake_case `method`, its `name` on `Mnemo`, the `embeds` where a host
 * embedder supplies vectors — the objects at `path` (`*`: each item of a list) get `vector` from
 * their `text` — and, for a method that takes its one argument directly, the field it `unwrap`s.
 */
export const CALLS = [
  { method: 'remember', name: 'remember', embeds: [{ path: ['extracted', '*'], text: 'content', vector: 'vector' }] },
  { method: 'extract', name: 'extract', embeds: [] },
  { method: 'seed', name: 'seed', embeds: [{ path: ['items', '*'], text: 'content', vector: 'vector' }], unwrap: 'items' },
  { method: 'search', name: 'search', embeds: [{ path: [], text: 'query', vector: 'vector' }] },
  { method: 'get', name: 'get', embeds: [] },
  { method: 'list', name: 'list', embeds: [] },
  { method: 'update', name: 'update', embeds: [{ path: ['patch'], text: 'content', vector: 'vector' }] },
  { method: 'forget', name: 'forget', embeds: [] },
  { method: 'forget_all', name: 'forgetAll', embeds: [] },
  { method: 'locate', name: 'locate', embeds: [] },
  { method: 'sample', name: 'sample', embeds: [] },
  { method: 'store_stats', name: 'storeStats', embeds: [] },
  { method: 'reinforce', name: 'reinforce', embeds: [] },
  { method: 'demote', name: 'demote', embeds: [] },
  { method: 'pin', name: 'pin', embeds: [] },
  { method: 'set_status', name: 'setStatus', embeds: [] },
  { method: 'status_history', name: 'statusHistory', embeds: [] },
  { method: 'related', name: 'related', embeds: [] },
  { method: 'stats', name: 'stats', embeds: [] },
  { method: 'maintain', name: 'maintain', embeds: [] },
  { method: 'consolidate', name: 'consolidate', embeds: [] },
  { method: 'export', name: 'export', embeds: [] },
  { method: 'import', name: 'import', embeds: [], unwrap: 'jsonl' },
  { method: 'import_notes', name: 'importNotes', embeds: [] },
  { method: 'embedding_model', name: 'embeddingModel', embeds: [] },
  { method: 'embed', name: 'embed', embeds: [] },
  { method: 'reembed', name: 'reembed', embeds: [] },
  { method: 'entities', name: 'entities', embeds: [] },
  { method: 'relationships', name: 'relationships', embeds: [] },
  { method: 'traverse', name: 'traverse', embeds: [] },
  { method: 'path', name: 'path', embeds: [] },
  { method: 'conflicts', name: 'conflicts', embeds: [] },
  { method: 'resolve_conflict', name: 'resolveConflict', embeds: [] },
  { method: 'llm_instructions', name: 'llmInstructions', embeds: [] },
  { method: 'schedule_create', name: 'scheduleCreate', embeds: [] },
  { method: 'schedules', name: 'schedules', embeds: [] },
  { method: 'scheduled', name: 'scheduled', embeds: [] },
  { method: 'schedule_ack', name: 'scheduleAck', embeds: [] },
  { method: 'schedule_update', name: 'scheduleUpdate', embeds: [] },
  { method: 'schedule_cancel', name: 'scheduleCancel', embeds: [] },
  { method: 'heartbeat_check', name: 'heartbeatCheck', embeds: [] },
  { method: 'heartbeat_context', name: 'heartbeatContext', embeds: [] },
  { method: 'record_message', name: 'recordMessage', embeds: [] },
  { method: 'messages', name: 'messages', embeds: [] },
];
