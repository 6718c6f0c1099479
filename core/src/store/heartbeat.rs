//! SQL of the heartbeat: the bounded, index-backed questions the signal scan asks about an
//! owner's memories and graph, the acts it decided, and the messages the host recorded.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::{memory_from_row, owner_token, parse, COLUMNS};
use crate::clock::Millis;
use crate::error::Result;
use crate::graph::EntityType;
use crate::heartbeat::{Autonomy, DecisionReason, MessageRole, Urgency};
use crate::model::{Memory, MemoryType};

/// A memory and its primary key.
pub type Row2 = (i64, Memory);

/// Searchable (ACTIVE, status active) rows of one owner.
const LIVE: &str = "entity_id = ?1 AND state = 'ACTIVE' AND status = 'active'";

fn memories(conn: &Connection, sql: &str, args: impl rusqlite::Params) -> Result<Vec<Row2>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(args, memory_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Live memories of `owner`, counted up to `cap`.
pub fn live_count(conn: &Connection, owner: &str, cap: usize) -> Result<usize> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM (SELECT 1 FROM memories WHERE entity_id = ?1 AND state != 'DELETED' AND status = 'active' LIMIT ?2)",
        )?
        .query_row(params![owner, cap as i64], |r| r.get(0))?;
    Ok(n as usize)
}

/// Memories of `owner` written after `since`, counted up to `cap`.
pub fn created_since(conn: &Connection, owner: &str, since: Millis, cap: usize) -> Result<usize> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM (SELECT 1 FROM memories WHERE entity_id = ?1 AND created_at > ?2 AND state != 'DELETED' LIMIT ?3)",
        )?
        .query_row(params![owner, since, cap as i64], |r| r.get(0))?;
    Ok(n as usize)
}

/// Live memories whose `expires_at` falls in `[from, to]`, soonest first.
pub fn expiring(
    conn: &Connection,
    owner: &str,
    from: Millis,
    to: Millis,
    limit: usize,
) -> Result<Vec<Row2>> {
    memories(
        conn,
        &format!("SELECT {COLUMNS} FROM memories WHERE {LIVE} AND expires_at BETWEEN ?2 AND ?3 ORDER BY expires_at, pk LIMIT ?4"),
        params![owner, from, to, limit as i64],
    )
}

/// Live PLAN/ACTIVITY memories without a schedule, at or above `floor` importance, updated
/// since `updated_since` or expiring before `expiring_before`; most important first.
pub fn pending(
    conn: &Connection,
    owner: &str,
    floor: f64,
    updated_since: Millis,
    expiring_before: Millis,
    limit: usize,
) -> Result<Vec<Row2>> {
    memories(
        conn,
        &format!(
            "SELECT {COLUMNS} FROM memories WHERE pk IN ( \
               SELECT pk FROM memories WHERE entity_id = ?1 AND type IN ('PLAN', 'ACTIVITY') AND updated_at >= ?3 \
               UNION SELECT pk FROM memories WHERE entity_id = ?1 AND expires_at IS NOT NULL AND expires_at <= ?4) \
             AND {LIVE} AND type IN ('PLAN', 'ACTIVITY') AND cron_tag IS NULL AND importance >= ?2 \
             ORDER BY importance DESC, updated_at DESC, pk LIMIT ?5"
        ),
        params![owner, floor, updated_since, expiring_before, limit as i64],
    )
}

/// Live memories of one type updated since `since`, newest first.
pub fn of_type(
    conn: &Connection,
    owner: &str,
    t: MemoryType,
    since: Millis,
    limit: usize,
) -> Result<Vec<Row2>> {
    memories(
        conn,
        &format!("SELECT {COLUMNS} FROM memories WHERE {LIVE} AND type = ?2 AND updated_at >= ?3 ORDER BY updated_at DESC, pk DESC LIMIT ?4"),
        params![owner, t.as_str(), since, limit as i64],
    )
}

/// Live memories written in `[from, to)`, newest first.
pub fn created_in(
    conn: &Connection,
    owner: &str,
    from: Millis,
    to: Millis,
    limit: usize,
) -> Result<Vec<Row2>> {
    memories(
        conn,
        &format!("SELECT {COLUMNS} FROM memories WHERE {LIVE} AND created_at >= ?2 AND created_at < ?3 ORDER BY created_at DESC, pk DESC LIMIT ?4"),
        params![owner, from, to, limit as i64],
    )
}

/// Live memories carrying `tag` (manual or automatic), found through the FTS index.
pub fn tagged(conn: &Connection, owner: &str, tag: &str, limit: usize) -> Result<Vec<Row2>> {
    let query = format!(
        "owner:{} AND tags:\"{}\"",
        owner_token(owner),
        tag.replace('"', "")
    );
    let sql = format!(
        "SELECT {COLUMNS} FROM memories WHERE pk IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?2) \
         AND {LIVE} AND (EXISTS (SELECT 1 FROM json_each(manual_tags) WHERE value = ?3) OR EXISTS (SELECT 1 FROM json_each(auto_tags) WHERE value = ?3)) \
         ORDER BY pk LIMIT ?4"
    );
    memories(conn, &sql, params![owner, query, tag, limit as i64])
}

/// Importance at or above which a memory is worth saving from decay (NOTES: 0.8). The
/// partial index `memories_important_due` is built on this literal.
pub const IMPORTANT: f64 = 0.8;

/// Live memories of importance ≥ [`IMPORTANT`] whose lifecycle changes by `to` (also those
/// maintenance has not reached yet), latest first.
pub fn important_due(
    conn: &Connection,
    owner: &str,
    to: Millis,
    limit: usize,
) -> Result<Vec<Row2>> {
    memories(
        conn,
        &format!("SELECT {COLUMNS} FROM memories WHERE {LIVE} AND importance >= {IMPORTANT} AND due_at <= ?2 ORDER BY due_at DESC, pk LIMIT ?3"),
        params![owner, to, limit as i64],
    )
}

/// The newest live memories with a sentiment, newest first.
pub fn with_sentiment(conn: &Connection, owner: &str, limit: usize) -> Result<Vec<Row2>> {
    memories(
        conn,
        &format!("SELECT {COLUMNS} FROM memories WHERE {LIVE} AND sentiment != 0 ORDER BY created_at DESC, pk DESC LIMIT ?2"),
        params![owner, limit as i64],
    )
}

/// (memory pk, entity pk) for each entity the given memories name.
pub fn entities_of(conn: &Connection, pks: &[i64]) -> Result<Vec<(i64, i64)>> {
    if pks.is_empty() {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT me.memory_pk, me.entity_pk FROM json_each(?1) AS j CROSS JOIN memory_entities me ON me.memory_pk = j.value ORDER BY 1, 2",
    )?;
    let keys = serde_json::to_string(pks).unwrap_or_else(|_| "[]".into());
    let rows = stmt.query_map([keys], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// An entity with when it was last mentioned.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    pub pk: i64,
    pub name: String,
    pub kind: EntityType,
    pub last_seen: Millis,
}

/// Entities of `owner` by primary key.
pub fn entities_seen(conn: &Connection, owner: &str, pks: &[i64]) -> Result<Vec<Seen>> {
    if pks.is_empty() {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT e.pk, e.name, e.type, e.last_seen FROM json_each(?2) AS j CROSS JOIN entities e ON e.pk = j.value WHERE e.owner = ?1 ORDER BY e.pk",
    )?;
    let keys = serde_json::to_string(pks).unwrap_or_else(|_| "[]".into());
    let rows = stmt.query_map(params![owner, keys], |r| {
        Ok(Seen {
            pk: r.get(0)?,
            name: r.get(1)?,
            kind: parse(r, 2)?,
            last_seen: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// An act of the agent, as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct ActRow {
    pub id: String,
    pub at: Millis,
    pub reason: DecisionReason,
    pub tier: Urgency,
    pub autonomy: Autonomy,
    pub fingerprint: String,
    pub memory_ids: Vec<String>,
    pub entities: Vec<i64>,
    /// JSON of what the act saw (for positive deltas).
    pub snapshot: String,
}

fn json_list<T: serde::de::DeserializeOwned>(r: &Row, i: usize) -> rusqlite::Result<Vec<T>> {
    let s: String = r.get(i)?;
    serde_json::from_str(&s).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}

fn act_row(r: &Row) -> rusqlite::Result<ActRow> {
    Ok(ActRow {
        id: r.get(0)?,
        at: r.get(1)?,
        reason: parse(r, 2)?,
        tier: parse(r, 3)?,
        autonomy: parse(r, 4)?,
        fingerprint: r.get(5)?,
        memory_ids: json_list(r, 6)?,
        entities: json_list(r, 7)?,
        snapshot: r.get(8)?,
    })
}

const ACT_COLUMNS: &str =
    "id, at, reason, tier, autonomy, fingerprint, memory_ids, entities, snapshot";

/// Records an act.
pub fn insert_act(conn: &Connection, owner: &str, a: &ActRow) -> Result<()> {
    conn.prepare_cached(&format!(
        "INSERT INTO heartbeat_acts (owner, {ACT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
    ))?
    .execute(params![
        owner,
        a.id,
        a.at,
        a.reason.as_str(),
        a.tier.as_str(),
        a.autonomy.as_str(),
        a.fingerprint,
        serde_json::to_string(&a.memory_ids).unwrap_or_else(|_| "[]".into()),
        serde_json::to_string(&a.entities).unwrap_or_else(|_| "[]".into()),
        a.snapshot,
    ])?;
    Ok(())
}

/// The owner's acts since `since`, newest first.
pub fn acts_since(conn: &Connection, owner: &str, since: Millis) -> Result<Vec<ActRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ACT_COLUMNS} FROM heartbeat_acts WHERE owner = ?1 AND at >= ?2 ORDER BY at DESC, pk DESC"
    ))?;
    let rows = stmt.query_map(params![owner, since], act_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The owner's latest act.
pub fn last_act(conn: &Connection, owner: &str) -> Result<Option<ActRow>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {ACT_COLUMNS} FROM heartbeat_acts WHERE owner = ?1 ORDER BY at DESC, pk DESC LIMIT 1"
        ))?
        .query_row([owner], act_row)
        .optional()?)
}

/// Whether an act with this id belongs to `owner`.
pub fn act_exists(conn: &Connection, owner: &str, id: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM heartbeat_acts WHERE owner = ?1 AND id = ?2")?
        .exists([owner, id])?)
}

/// Next row key of a table (for ids derived from it).
pub fn next_pk(conn: &Connection, table: &str) -> Result<i64> {
    debug_assert!(matches!(table, "heartbeat_acts" | "messages"));
    Ok(conn
        .prepare_cached(&format!("SELECT coalesce(max(pk), 0) + 1 FROM {table}"))?
        .query_row([], |r| r.get(0))?)
}

/// A recorded message.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageRow {
    pub id: String,
    pub role: MessageRole,
    pub content: String,
    pub session_id: Option<String>,
    pub act_id: Option<String>,
    pub at: Millis,
}

/// Records a message.
pub fn insert_message(conn: &Connection, owner: &str, m: &MessageRow) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO messages (owner, id, role, content, session_id, act_id, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![owner, m.id, m.role.as_str(), m.content, m.session_id, m.act_id, m.at])?;
    Ok(())
}

/// The newest messages of `owner` (of one role, if given), newest first.
pub fn messages(
    conn: &Connection,
    owner: &str,
    role: Option<MessageRole>,
    limit: usize,
) -> Result<Vec<MessageRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, role, content, session_id, act_id, at FROM messages WHERE owner = ?1 AND (?2 IS NULL OR role = ?2) \
         ORDER BY at DESC, pk DESC LIMIT ?3",
    )?;
    let rows = stmt.query_map(
        params![owner, role.map(|r| r.as_str()), limit as i64],
        |r| {
            Ok(MessageRow {
                id: r.get(0)?,
                role: parse(r, 1)?,
                content: r.get(2)?,
                session_id: r.get(3)?,
                act_id: r.get(4)?,
                at: r.get(5)?,
            })
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Times of the owner's user messages since `since`, oldest first.
pub fn user_message_times(conn: &Connection, owner: &str, since: Millis) -> Result<Vec<Millis>> {
    let mut stmt = conn.prepare_cached(
        "SELECT at FROM messages WHERE owner = ?1 AND role = 'user' AND at >= ?2 ORDER BY at",
    )?;
    let rows = stmt.query_map(params![owner, since], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Drops the owner's acts and messages older than `before` (the heartbeat looks back a week).
pub fn prune(conn: &Connection, owner: &str, before: Millis) -> Result<()> {
    conn.prepare_cached("DELETE FROM heartbeat_acts WHERE owner = ?1 AND at < ?2")?
        .execute(params![owner, before])?;
    conn.prepare_cached("DELETE FROM messages WHERE owner = ?1 AND at < ?2")?
        .execute(params![owner, before])?;
    Ok(())
}

/// The topics of live memories written in `[from, to)` (at most `limit` memories): each
/// one's type in lower case and its tags.
pub fn topics_in(
    conn: &Connection,
    owner: &str,
    from: Millis,
    to: Millis,
    limit: usize,
) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT type, manual_tags, auto_tags FROM memories WHERE {LIVE} AND created_at >= ?2 AND created_at < ?3 \
         ORDER BY created_at DESC LIMIT ?4"
    ))?;
    let rows = stmt.query_map(params![owner, from, to, limit as i64], |r| {
        let t: String = r.get(0)?;
        let mut topics = vec![t.to_lowercase()];
        topics.extend(json_list::<String>(r, 1)?);
        topics.extend(json_list::<String>(r, 2)?);
        Ok(topics)
    })?;
    let mut out = Vec::new();
    for r in rows {
        out.extend(r?);
    }
    Ok(out)
}

/// When the owner's newest memory was written.
pub fn newest_created(conn: &Connection, owner: &str) -> Result<Option<Millis>> {
    Ok(conn
        .prepare_cached("SELECT max(created_at) FROM memories WHERE entity_id = ?1")?
        .query_row([owner], |r| r.get(0))?)
}
