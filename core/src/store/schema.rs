//! The schema: numbered migrations, and opening a file as a Mnemo store (refusing a foreign
//! file or a newer schema, never damaging either).

use rusqlite::config::DbConfig;
use rusqlite::{params, Connection, OptionalExtension};

use crate::clock::Millis;
use crate::error::{Error, Result};

/// `PRAGMA application_id` of a Mnemo store ("MNMO").
const APPLICATION_ID: i64 = 0x4D4E_4D4F;

/// Numbered migrations; entry `i` takes the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL);
CREATE TABLE memories (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    entity_id TEXT NOT NULL,
    agent_id TEXT, session_id TEXT, team_id TEXT,
    visibility TEXT NOT NULL,
    content TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    type TEXT NOT NULL, kind TEXT NOT NULL, layer TEXT NOT NULL,
    state TEXT NOT NULL, status TEXT NOT NULL, tier TEXT NOT NULL,
    importance REAL NOT NULL, confidence REAL NOT NULL, sentiment REAL NOT NULL,
    source TEXT NOT NULL, trust REAL NOT NULL,
    access_count INTEGER NOT NULL, last_accessed_at INTEGER,
    feedback INTEGER NOT NULL, pinned INTEGER NOT NULL,
    manual_tags TEXT NOT NULL, auto_tags TEXT NOT NULL,
    expires_at INTEGER, cron_tag TEXT, source_ref TEXT, surprise REAL, merged_into TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
    state_changed_at INTEGER NOT NULL, deleted_at INTEGER,
    due_at INTEGER
);
CREATE TABLE memory_vectors (
    pk INTEGER PRIMARY KEY REFERENCES memories(pk) ON DELETE CASCADE,
    embedding BLOB NOT NULL,
    precision TEXT NOT NULL DEFAULT 'f32'
);
CREATE INDEX memories_owner_hash ON memories(entity_id, content_hash);
CREATE INDEX memories_owner_created ON memories(entity_id, created_at);
CREATE INDEX memories_due ON memories(due_at) WHERE due_at IS NOT NULL;
CREATE INDEX memories_owner_session ON memories(entity_id, session_id) WHERE session_id IS NOT NULL;
-- Full-text index of searchable memories (status active, not deleted), kept in step by the
-- triggers below. `owner` holds 'o' || hex(entity_id) as one token and `flags` holds
-- 'archived' for ARCHIVED rows, so a search filters inside FTS5 with no join.
CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, tags, owner, flags, content='', contentless_delete=1,
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
WHEN new.status = 'active' AND new.state != 'DELETED' BEGIN
    INSERT INTO memories_fts (rowid, content, tags, owner, flags) VALUES (
        new.pk, new.content,
        trim(coalesce((SELECT group_concat(value, ' ') FROM json_each(new.manual_tags)), '') || ' ' ||
             coalesce((SELECT group_concat(value, ' ') FROM json_each(new.auto_tags)), '')),
        'o' || hex(new.entity_id),
        CASE new.state WHEN 'ARCHIVED' THEN 'archived' ELSE '' END);
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE ON memories
WHEN old.content IS NOT new.content OR old.manual_tags IS NOT new.manual_tags OR old.auto_tags IS NOT new.auto_tags
  OR (old.state = 'ARCHIVED') IS NOT (new.state = 'ARCHIVED')
  OR (old.status = 'active' AND old.state != 'DELETED') IS NOT (new.status = 'active' AND new.state != 'DELETED') BEGIN
    DELETE FROM memories_fts WHERE rowid = old.pk;
    INSERT INTO memories_fts (rowid, content, tags, owner, flags) SELECT
        new.pk, new.content,
        trim(coalesce((SELECT group_concat(value, ' ') FROM json_each(new.manual_tags)), '') || ' ' ||
             coalesce((SELECT group_concat(value, ' ') FROM json_each(new.auto_tags)), '')),
        'o' || hex(new.entity_id),
        CASE new.state WHEN 'ARCHIVED' THEN 'archived' ELSE '' END
    WHERE new.status = 'active' AND new.state != 'DELETED';
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.pk;
END;
CREATE TABLE status_history (
    seq INTEGER PRIMARY KEY,
    memory_pk INTEGER NOT NULL REFERENCES memories(pk) ON DELETE CASCADE,
    old TEXT NOT NULL, new TEXT NOT NULL, reason TEXT NOT NULL, changed_at INTEGER NOT NULL
);
CREATE INDEX status_history_memory ON status_history(memory_pk);
"#,
    r#"
-- The knowledge graph, per owner. An entity is found by its key (lower-case name
-- without titles) or any alias's; relationships count their evidence (one row per memory that
-- stated them); an inferred row is the reverse a bidirectional relation implies.
CREATE TABLE entities (
    pk INTEGER PRIMARY KEY,
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    mentions INTEGER NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen INTEGER NOT NULL
);
CREATE TABLE entity_keys (
    owner TEXT NOT NULL,
    key TEXT NOT NULL,
    entity_pk INTEGER NOT NULL REFERENCES entities(pk) ON DELETE CASCADE,
    name TEXT NOT NULL,
    PRIMARY KEY (owner, key)
) WITHOUT ROWID;
CREATE INDEX entity_keys_entity ON entity_keys(entity_pk);
CREATE TABLE relationships (
    pk INTEGER PRIMARY KEY,
    owner TEXT NOT NULL,
    from_pk INTEGER NOT NULL REFERENCES entities(pk) ON DELETE CASCADE,
    relation TEXT NOT NULL,
    to_pk INTEGER NOT NULL REFERENCES entities(pk) ON DELETE CASCADE,
    inferred INTEGER NOT NULL,
    evidence INTEGER NOT NULL,
    confidence_sum REAL NOT NULL,
    first_seen INTEGER NOT NULL,
    last_seen INTEGER NOT NULL,
    UNIQUE (owner, from_pk, relation, to_pk)
);
CREATE INDEX relationships_from ON relationships(from_pk);
CREATE INDEX relationships_to ON relationships(to_pk);
CREATE TABLE relationship_evidence (
    relationship_pk INTEGER NOT NULL REFERENCES relationships(pk) ON DELETE CASCADE,
    memory_pk INTEGER NOT NULL REFERENCES memories(pk) ON DELETE CASCADE,
    confidence REAL NOT NULL,
    seen_at INTEGER NOT NULL,
    PRIMARY KEY (relationship_pk, memory_pk)
) WITHOUT ROWID;
CREATE TABLE memory_entities (
    memory_pk INTEGER NOT NULL REFERENCES memories(pk) ON DELETE CASCADE,
    entity_pk INTEGER NOT NULL REFERENCES entities(pk) ON DELETE CASCADE,
    PRIMARY KEY (memory_pk, entity_pk)
) WITHOUT ROWID;
CREATE INDEX memory_entities_entity ON memory_entities(entity_pk);
-- Conflicts between a new statement and an existing memory; `new_pk` is null when the new
-- statement was not stored (keep_existing), its text is kept in `new_content`.
CREATE TABLE conflicts (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    kind TEXT NOT NULL,
    mode TEXT NOT NULL,
    status TEXT NOT NULL,
    new_pk INTEGER REFERENCES memories(pk) ON DELETE CASCADE,
    new_content TEXT NOT NULL,
    existing_pk INTEGER NOT NULL REFERENCES memories(pk) ON DELETE CASCADE,
    resolution TEXT,
    reason TEXT,
    created_at INTEGER NOT NULL,
    resolved_at INTEGER
);
CREATE INDEX conflicts_owner ON conflicts(owner, status);
-- Schedules: cron-tagged PLAN memories and when they fall due. `surfaced_due` is the due time
-- `scheduled` last reported (each due time once); `missed` counts due times that passed
-- without an acknowledgement.
CREATE TABLE schedules (
    memory_pk INTEGER PRIMARY KEY REFERENCES memories(pk) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    cron_tag TEXT NOT NULL,
    start_at INTEGER NOT NULL,
    next_due INTEGER,
    surfaced_due INTEGER,
    acknowledged_at INTEGER,
    missed INTEGER NOT NULL,
    status TEXT NOT NULL
);
CREATE INDEX schedules_due ON schedules(owner, status, next_due);
"#,
    r#"
-- The heartbeat. Indexes that keep its signal scan bounded on large owners: by type
-- and update time (pending work, continuity, goals), by deadline, by sentiment, and the
-- important memories by when their lifecycle next changes (decaying; 0.8 is
-- store::heartbeat::IMPORTANT).
CREATE INDEX memories_owner_type ON memories(entity_id, type, updated_at);
CREATE INDEX memories_owner_expires ON memories(entity_id, expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX memories_owner_felt ON memories(entity_id, created_at) WHERE sentiment != 0;
CREATE INDEX memories_important_due ON memories(entity_id, due_at) WHERE importance >= 0.8;
-- What the heartbeat decided to say: the fingerprint of its signals, the memories and
-- entities it surfaced, and a JSON snapshot (goal states, silent entities, sentiment) that
-- the next checks compare against for positive deltas.
CREATE TABLE heartbeat_acts (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    at INTEGER NOT NULL,
    reason TEXT NOT NULL,
    tier TEXT NOT NULL,
    autonomy TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    memory_ids TEXT NOT NULL,
    entities TEXT NOT NULL,
    snapshot TEXT NOT NULL
);
CREATE INDEX heartbeat_acts_owner ON heartbeat_acts(owner, at);
-- Messages of the conversation as the host recorded them: whether the owner is talking now,
-- answers the agent, or has gone quiet.
CREATE TABLE messages (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    role TEXT NOT NULL,
    content TEXT NOT NULL,
    session_id TEXT,
    act_id TEXT,
    at INTEGER NOT NULL
);
CREATE INDEX messages_owner ON messages(owner, at);
"#,
    r#"
-- Links between memories (links.rs): `recalled` links grow as searches return two memories
-- together. One row per pair and kind, lower key first; `decayed_at` is when consolidation
-- last decayed the strength.
CREATE TABLE memory_links (
    a INTEGER NOT NULL REFERENCES memories(pk) ON DELETE CASCADE,
    b INTEGER NOT NULL REFERENCES memories(pk) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    count INTEGER NOT NULL,
    strength REAL NOT NULL,
    last_at INTEGER NOT NULL,
    decayed_at INTEGER NOT NULL,
    PRIMARY KEY (a, b, kind),
    CHECK (a < b)
) WITHOUT ROWID;
CREATE INDEX memory_links_b ON memory_links(b);
CREATE INDEX memory_links_decayed ON memory_links(kind, decayed_at);
"#,
    r#"
-- Cold memories (archive tier, or ARCHIVED) carry the flag 'cold' in the text index, so an
-- ordinary search looks through the others first (recall). The triggers of migration 1 again,
-- with the flag, and the rows already cold indexed again.
DROP TRIGGER memories_fts_insert;
DROP TRIGGER memories_fts_update;
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
WHEN new.status = 'active' AND new.state != 'DELETED' BEGIN
    INSERT INTO memories_fts (rowid, content, tags, owner, flags) VALUES (
        new.pk, new.content,
        trim(coalesce((SELECT group_concat(value, ' ') FROM json_each(new.manual_tags)), '') || ' ' ||
             coalesce((SELECT group_concat(value, ' ') FROM json_each(new.auto_tags)), '')),
        'o' || hex(new.entity_id),
        trim(CASE new.state WHEN 'ARCHIVED' THEN 'archived' ELSE '' END || ' ' ||
             CASE WHEN new.tier = 'archive' OR new.state = 'ARCHIVED' THEN 'cold' ELSE '' END));
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE ON memories
WHEN old.content IS NOT new.content OR old.manual_tags IS NOT new.manual_tags OR old.auto_tags IS NOT new.auto_tags
  OR (old.state = 'ARCHIVED') IS NOT (new.state = 'ARCHIVED')
  OR (old.tier = 'archive' OR old.state = 'ARCHIVED') IS NOT (new.tier = 'archive' OR new.state = 'ARCHIVED')
  OR (old.status = 'active' AND old.state != 'DELETED') IS NOT (new.status = 'active' AND new.state != 'DELETED') BEGIN
    DELETE FROM memories_fts WHERE rowid = old.pk;
    INSERT INTO memories_fts (rowid, content, tags, owner, flags) SELECT
        new.pk, new.content,
        trim(coalesce((SELECT group_concat(value, ' ') FROM json_each(new.manual_tags)), '') || ' ' ||
             coalesce((SELECT group_concat(value, ' ') FROM json_each(new.auto_tags)), '')),
        'o' || hex(new.entity_id),
        trim(CASE new.state WHEN 'ARCHIVED' THEN 'archived' ELSE '' END || ' ' ||
             CASE WHEN new.tier = 'archive' OR new.state = 'ARCHIVED' THEN 'cold' ELSE '' END)
    WHERE new.status = 'active' AND new.state != 'DELETED';
END;
DELETE FROM memories_fts WHERE rowid IN (SELECT pk FROM memories
    WHERE (tier = 'archive' OR state = 'ARCHIVED') AND status = 'active' AND state != 'DELETED');
INSERT INTO memories_fts (rowid, content, tags, owner, flags) SELECT
    pk, content,
    trim(coalesce((SELECT group_concat(value, ' ') FROM json_each(manual_tags)), '') || ' ' ||
         coalesce((SELECT group_concat(value, ' ') FROM json_each(auto_tags)), '')),
    'o' || hex(entity_id),
    trim(CASE state WHEN 'ARCHIVED' THEN 'archived' ELSE '' END || ' cold')
FROM memories WHERE (tier = 'archive' OR state = 'ARCHIVED') AND status = 'active' AND state != 'DELETED';
"#,
    r#"
-- Re-quantisation by retention (consolidate/quantise.rs): when consolidation should next look
-- at a vector, the time its memory's retention may fall into a coarser band (0: at the next
-- run; NULL: never, at 2 bits). Every vector stored so far is looked at once.
ALTER TABLE memory_vectors ADD COLUMN requantise_at INTEGER;
UPDATE memory_vectors SET requantise_at = 0 WHERE precision != 'int2';
CREATE INDEX memory_vectors_requantise ON memory_vectors(requantise_at) WHERE requantise_at IS NOT NULL;
"#,
    r#"
-- A new memory's text-index row is written by the engine (store/memories.rs, `index_text`),
-- not by a trigger: a batch of writes indexes its memories in one statement at its end. FTS5
-- writes its pending rows to disk at every statement that opens a statement journal, so a
-- row indexed by trigger became a one-row segment of its own, merged again and again.
DROP TRIGGER IF EXISTS memories_fts_insert;
"#,
    r#"
-- A write looks for an exact duplicate in its owner's content hashes held in memory
-- (store/hashes.rs), not in an index: new hashes landed at random places in this one, so a
-- batch of writes into a large owner changed a page of it for most writes.
DROP INDEX IF EXISTS memories_owner_hash;
"#,
    r#"
-- Teams of agents (team/): each owner's own. A memory with visibility 'team' and a team_id is
-- seen by the agents that are members of that team of its owner (store/viewer.rs).
CREATE TABLE IF NOT EXISTS teams (
    owner TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    default_visibility TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (owner, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS team_members (
    owner TEXT NOT NULL,
    team_id TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    role TEXT NOT NULL,
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (owner, team_id, agent_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS team_members_agent ON team_members(owner, agent_id);
"#,
    r#"
-- The agent whose conversation a message is part of (null: the owner's own).
ALTER TABLE messages ADD COLUMN agent_id TEXT;
"#,
    r#"
-- Documents (document/): one row per version of an ingested document, its text kept whole.
-- Its passages are memories of kind 'passage'; `passages` says where each lies.
CREATE TABLE IF NOT EXISTS documents (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    agent_id TEXT, team_id TEXT,
    visibility TEXT NOT NULL,
    title TEXT NOT NULL,
    source TEXT NOT NULL,
    filename TEXT, mime TEXT, source_ref TEXT,
    content TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    chars INTEGER NOT NULL,
    passages INTEGER NOT NULL,
    manual_tags TEXT NOT NULL, auto_tags TEXT NOT NULL,
    status TEXT NOT NULL,
    superseded_by TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, deleted_at INTEGER
);
CREATE INDEX IF NOT EXISTS documents_owner ON documents(owner, created_at);
CREATE TABLE IF NOT EXISTS passages (
    memory_pk INTEGER PRIMARY KEY REFERENCES memories(pk) ON DELETE CASCADE,
    document_pk INTEGER NOT NULL REFERENCES documents(pk) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    section TEXT NOT NULL,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS passages_document ON passages(document_pk, position);
"#,
    r#"
-- How a document's text was written (text, markdown, html): an HTML page is kept as read.
ALTER TABLE documents ADD COLUMN format TEXT NOT NULL DEFAULT 'markdown';
-- Summaries (document/summary.rs): a few sentences of each document and of each passage.
ALTER TABLE documents ADD COLUMN summary TEXT NOT NULL DEFAULT '';
ALTER TABLE passages ADD COLUMN summary TEXT NOT NULL DEFAULT '';
-- Who wrote each summary: the engine ('sentences') or, rewritten by consolidation, the host's LLM.
ALTER TABLE documents ADD COLUMN summary_by TEXT NOT NULL DEFAULT 'sentences';
ALTER TABLE passages ADD COLUMN summary_by TEXT NOT NULL DEFAULT 'sentences';
-- What an ingest looks up: the same text, or an earlier version under the same source_ref.
CREATE INDEX IF NOT EXISTS documents_hash ON documents(owner, content_hash);
CREATE INDEX IF NOT EXISTS documents_source_ref ON documents(owner, source_ref);
"#,
    r#"
-- A layer set by hand (`set_layer`): when, so automatic promotion leaves the memory there.
ALTER TABLE memories ADD COLUMN layer_set_at INTEGER;
-- A layer move in a memory's history: the layers before and after (none for a status change).
ALTER TABLE status_history ADD COLUMN old_layer TEXT;
ALTER TABLE status_history ADD COLUMN new_layer TEXT;
"#,
    r#"
-- How many times another session or source said the same thing (dedup::corroborates).
ALTER TABLE memories ADD COLUMN confirmations INTEGER NOT NULL DEFAULT 0;
"#,
    r#"
-- Bridges (graph/bridge.rs): entity pairs memories name together in different contexts, with
-- no relationship between them; proposed by consolidation, confirmed or rejected by the
-- host's LLM. One row per pair (lower entity key first); its evidence, the memories naming both.
CREATE TABLE IF NOT EXISTS bridges (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL,
    a_pk INTEGER NOT NULL REFERENCES entities(pk) ON DELETE CASCADE,
    b_pk INTEGER NOT NULL REFERENCES entities(pk) ON DELETE CASCADE,
    status TEXT NOT NULL,
    relation TEXT,
    reason TEXT,
    proposed_at INTEGER NOT NULL,
    decided_at INTEGER,
    UNIQUE (owner, a_pk, b_pk)
);
CREATE INDEX IF NOT EXISTS bridges_status ON bridges(status);
CREATE TABLE IF NOT EXISTS bridge_evidence (
    bridge_pk INTEGER NOT NULL REFERENCES bridges(pk) ON DELETE CASCADE,
    memory_pk INTEGER NOT NULL REFERENCES memories(pk) ON DELETE CASCADE,
    PRIMARY KEY (bridge_pk, memory_pk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS bridge_evidence_memory ON bridge_evidence(memory_pk);
"#,
    r#"
-- Peer cards' summaries the host's LLM wrote (graph/card.rs): one per entity, with a hash of
-- the facts it was written from; a card whose facts changed shows the engine's again.
CREATE TABLE IF NOT EXISTS card_summaries (
    entity_pk INTEGER PRIMARY KEY REFERENCES entities(pk) ON DELETE CASCADE,
    sources TEXT NOT NULL,
    summary TEXT NOT NULL,
    written_at INTEGER NOT NULL
);
"#,
];

/// Prepared statements kept per connection: more than the engine's distinct statements.
const STATEMENT_CACHE: usize = 128;

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Opens (creating if needed) and migrates a store. `now` stamps applied migrations.
pub fn open(conn: &mut Connection, now: Millis) -> Result<()> {
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // A file that is not SQLite fails on its first read: say so plainly.
    let (app_id, version): (i64, i64) = conn
        .query_row("SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version)", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
                Error::NotAStore("the file is not a SQLite database".into())
            }
            e => Error::from(e),
        })?;
    let tables: i64 = conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
    if app_id != APPLICATION_ID && (app_id != 0 || tables > 0) {
        return Err(Error::NotAStore(format!(
            "application_id {app_id:#x} with {tables} schema objects belongs to another program"
        )));
    }
    if version > SCHEMA_VERSION {
        return Err(Error::SchemaTooNew {
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    conn.execute_batch("PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;")?;
    // Plans that do not depend on bound values. Without this, a statement whose parameter
    // reaches a virtual table (FTS5 `MATCH ?`, `json_each(?)`) is re-prepared at every call:
    // 13% of a search's time.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    super::fts::register(conn)?;
    // Every statement the engine uses stays prepared (about 60 call sites; rusqlite keeps 16).
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    // A page cache big enough for the hot rows and FTS pages of a large owner (32 MiB).
    conn.execute_batch("PRAGMA cache_size = -32768;")?;
    if version < SCHEMA_VERSION {
        let tx = conn.transaction()?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(sql)?;
            tx.execute(
                "INSERT INTO migrations (version, applied_at) VALUES (?1, ?2)",
                params![i as i64 + 1, now],
            )?;
        }
        tx.execute_batch(&format!(
            "PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {SCHEMA_VERSION};"
        ))?;
        tx.commit()?;
    }
    Ok(())
}

/// Reads a value from the meta table.
pub fn meta(conn: &Connection, key: &str) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
        .optional()?)
}

/// Writes a value to the meta table.
pub fn set_meta(conn: &Connection, key: &str, value: &str) -> Result<()> {
    conn.execute("INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value", [key, value])?;
    Ok(())
}
