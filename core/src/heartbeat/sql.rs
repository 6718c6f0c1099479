//! SQL of the heartbeat: the bounded, index-backed questions the signal scan asks about an
//! owner's memories and graph, the acts it decided, and the messages the host recorded.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::{Autonomy, DecisionReason, Message, MessageRole, Urgency};
use crate::clock::Millis;
use crate::error::Result;
use crate::graph::EntityType;
use crate::model::{Memory, MemoryType};
use crate::store::memories::{memory_from_row, owner_token, COLUMNS};
use crate::store::{json_list, parse};

/// A memory and its primary key.
pub type Row2 = (i64, Memory);

/// Searchable (ACTIVE, status active) rows of one owner, that the caller sees and that were
/// written by the time the check reads as of; a document's passages are not the owner's
/// plans, moods or news.
const LIVE: &str =
    "entity_id = ?1 AND state = 'ACTIVE' AND status = 'active' AND kind != 'passage' \
                    AND mnemo_visible(agent_id, visibility, team_id) AND mnemo_existed(created_at)";

fn memories(conn: &Connection, sql: &str, args: impl rusqlite::Params) -> Result<Vec<Row2>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(args, memory_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Live memories of `owner`, counted up to `cap`.
pub fn live_count(conn: &Connection, owner: &str, cap: usize) -> Result<usize> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM (SELECT 1 FROM memories WHERE entity_id = ?1 AND state != 'DELETED' AND status = 'active' AND mnemo_visible(agent_id, visibility, team_id) AND mnemo_existed(created_at) LIMIT ?2)",
        )?
        .query_row(params![owner, cap as i64], |r| r.get(0))?;
    Ok(n as usize)
}

/// Memories of `owner` written after `since`, counted up to `cap`: a document counts once,
/// however many passages it was cut into.
pub fn created_since(conn: &Connection, owner: &str, since: Millis, cap: usize) -> Result<usize> {
    let n: i64 = conn
        .prepare_cached(
            "SELECT count(*) FROM (SELECT 1 FROM memories WHERE entity_id = ?1 AND created_at > ?2 AND state != 'DELETED' AND kind != 'passage' AND mnemo_visible(agent_id, visibility, team_id) AND mnemo_existed(created_at) \
             UNION ALL SELECT 1 FROM documents WHERE owner = ?1 AND created_at > ?2 AND deleted_at IS NULL AND mnemo_visible(agent_id, visibility, team_id) AND mnemo_existed(created_at) LIMIT ?3)",
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

/// Candidates of pending work taken from each of its two sources (recently updated, soon
/// due), so a store with thousands of deadlines reads at most this many rows.
pub const PENDING_CANDIDATES: usize = 200;

/// Live PLAN/ACTIVITY memories without a schedule, at or above `floor` importance, not
/// process chatter ("monitoring…", "syncing…"), among the [`PENDING_CANDIDATES`] most
/// recently updated since `updated_since` and the as many soonest due in `expiring`; the
/// most important as written first (the heartbeat orders them by importance now).
pub fn pending(
    conn: &Connection,
    owner: &str,
    floor: f64,
    updated_since: Millis,
    expiring: (Millis, Millis),
    limit: usize,
) -> Result<Vec<Row2>> {
    memories(
        conn,
        &format!(
            "SELECT {COLUMNS} FROM (SELECT c.k AS top FROM \
               (SELECT * FROM (SELECT pk AS k FROM memories WHERE entity_id = ?1 AND type = 'PLAN' AND updated_at >= ?3 \
                               ORDER BY updated_at DESC LIMIT {PENDING_CANDIDATES}) \
                UNION SELECT * FROM (SELECT pk FROM memories WHERE entity_id = ?1 AND type = 'ACTIVITY' AND updated_at >= ?3 \
                               ORDER BY updated_at DESC LIMIT {PENDING_CANDIDATES}) \
                UNION SELECT * FROM (SELECT pk FROM memories WHERE entity_id = ?1 AND expires_at BETWEEN ?4 AND ?5 \
                               ORDER BY expires_at LIMIT {PENDING_CANDIDATES})) AS c \
               CROSS JOIN memories ON pk = c.k \
               WHERE {LIVE} AND type IN ('PLAN', 'ACTIVITY') AND cron_tag IS NULL AND importance >= ?2 \
                 AND ltrim(content) NOT LIKE 'monitoring%' AND ltrim(content) NOT LIKE 'syncing%' \
               ORDER BY importance DESC, updated_at DESC, pk LIMIT ?6) \
             CROSS JOIN memories ON pk = top ORDER BY importance DESC, updated_at DESC, pk"
        ),
        params![owner, floor, updated_since, expiring.0, expiring.1, limit as i64],
    )
}

/// `columns` of an owner's live memories of type ?2 updated since ?3, newest first (?4 rows).
fn of_type_sql(columns: &str) -> String {
    format!("SELECT {columns} FROM memories WHERE {LIVE} AND type = ?2 AND updated_at >= ?3 ORDER BY updated_at DESC, pk DESC LIMIT ?4")
}

/// `columns` of an owner's newest live memories written since ?2 (?3 rows).
fn newest_sql(columns: &str) -> String {
    format!("SELECT {columns} FROM memories WHERE {LIVE} AND created_at >= ?2 ORDER BY created_at DESC, pk DESC LIMIT ?3")
}

/// The few columns the scan needs of many rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Brief {
    pub pk: i64,
    pub id: String,
    pub content: String,
    pub memory_type: MemoryType,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub expires_at: Option<Millis>,
}

const BRIEF: &str = "pk, id, content, type, created_at, updated_at, expires_at";

fn briefs(conn: &Connection, sql: &str, args: impl rusqlite::Params) -> Result<Vec<Brief>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(args, |r| {
        Ok(Brief {
            pk: r.get(0)?,
            id: r.get(1)?,
            content: r.get(2)?,
            memory_type: parse(r, 3)?,
            created_at: r.get(4)?,
            updated_at: r.get(5)?,
            expires_at: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Live memories of one type updated since `since`, newest first, in brief.
pub fn briefs_of_type(
    conn: &Connection,
    owner: &str,
    t: MemoryType,
    since: Millis,
    limit: usize,
) -> Result<Vec<Brief>> {
    briefs(
        conn,
        &of_type_sql(BRIEF),
        params![owner, t.as_str(), since, limit as i64],
    )
}

/// Live memories written since `since`, newest first, in brief.
pub fn briefs_since(
    conn: &Connection,
    owner: &str,
    since: Millis,
    limit: usize,
) -> Result<Vec<Brief>> {
    briefs(
        conn,
        &newest_sql(BRIEF),
        params![owner, since, limit as i64],
    )
}

/// Live PLAN memories expiring in `[from, to]`, soonest first, in brief.
pub fn plans_expiring(
    conn: &Connection,
    owner: &str,
    from: Millis,
    to: Millis,
    limit: usize,
) -> Result<Vec<Brief>> {
    briefs(
        conn,
        &format!("SELECT {BRIEF} FROM memories WHERE {LIVE} AND expires_at BETWEEN ?2 AND ?3 AND type = 'PLAN' ORDER BY expires_at, pk LIMIT ?4"),
        params![owner, from, to, limit as i64],
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
        &of_type_sql(COLUMNS),
        params![owner, t.as_str(), since, limit as i64],
    )
}

/// The newest live memories written since `since`, newest first.
pub fn newest(conn: &Connection, owner: &str, since: Millis, limit: usize) -> Result<Vec<Row2>> {
    memories(
        conn,
        &newest_sql(COLUMNS),
        params![owner, since, limit as i64],
    )
}

/// Live PLAN memories tagged `monitor` (manual or automatic) and not touched (accessed or
/// updated) since `cutoff`, found through the FTS index by the tag's posting list alone (an
/// owner's can hold every row of a big store).
pub fn stale_monitors(
    conn: &Connection,
    owner: &str,
    cutoff: Millis,
    limit: usize,
) -> Result<Vec<Row2>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM (SELECT rowid AS k FROM memories_fts WHERE memories_fts MATCH 'tags:\"monitor\"') \
         CROSS JOIN memories ON pk = k \
         WHERE {LIVE} AND type = 'PLAN' AND max(coalesce(last_accessed_at, created_at), created_at, updated_at) < ?2 \
           AND (EXISTS (SELECT 1 FROM json_each(manual_tags) WHERE value = 'monitor') \
                OR EXISTS (SELECT 1 FROM json_each(auto_tags) WHERE value = 'monitor')) \
         ORDER BY pk LIMIT ?3"
    );
    memories(conn, &sql, params![owner, cutoff, limit as i64])
}

/// Importance at or above which a memory is worth saving from decay (0.8). The
/// partial index `memories_important_due` is built on this literal.
pub const IMPORTANT: f64 = 0.8;

/// Live memories of importance ≥ [`IMPORTANT`] whose lifecycle changes in `[from, to]`,
/// soonest first.
pub fn important_due(
    conn: &Connection,
    owner: &str,
    from: Millis,
    to: Millis,
    limit: usize,
) -> Result<Vec<Row2>> {
    memories(
        conn,
        &format!("SELECT {COLUMNS} FROM memories WHERE {LIVE} AND importance >= {IMPORTANT} AND due_at BETWEEN ?2 AND ?3 ORDER BY due_at, pk LIMIT ?4"),
        params![owner, from, to, limit as i64],
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
        "SELECT {ACT_COLUMNS} FROM heartbeat_acts WHERE owner = ?1 AND at >= ?2 AND mnemo_existed(at) ORDER BY at DESC, pk DESC"
    ))?;
    let rows = stmt.query_map(params![owner, since], act_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The owner's latest act.
pub fn last_act(conn: &Connection, owner: &str) -> Result<Option<ActRow>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {ACT_COLUMNS} FROM heartbeat_acts WHERE owner = ?1 AND mnemo_existed(at) ORDER BY at DESC, pk DESC LIMIT 1"
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

/// Records a message.
pub fn insert_message(conn: &Connection, owner: &str, m: &Message) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO messages (owner, id, role, content, session_id, act_id, at, agent_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![owner, m.id, m.role.as_str(), m.content, m.session_id, m.act_id, m.at, m.agent_id])?;
    Ok(())
}

/// The newest messages of `owner` (of one agent's conversation and one role, if given), newest
/// first.
pub fn messages(
    conn: &Connection,
    owner: &str,
    agent: Option<&str>,
    role: Option<MessageRole>,
    limit: usize,
) -> Result<Vec<Message>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, role, content, session_id, act_id, at, agent_id FROM messages WHERE owner = ?1 \
         AND (?2 IS NULL OR role = ?2) AND (?4 IS NULL OR agent_id = ?4) AND mnemo_existed(at) \
         ORDER BY at DESC, pk DESC LIMIT ?3",
    )?;
    let rows = stmt.query_map(
        params![owner, role.map(|r| r.as_str()), limit as i64, agent],
        |r| {
            Ok(Message {
                id: r.get(0)?,
                role: parse(r, 1)?,
                content: r.get(2)?,
                session_id: r.get(3)?,
                act_id: r.get(4)?,
                at: r.get(5)?,
                agent_id: r.get(6)?,
            })
        },
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Times of the owner's user messages since `since`, oldest first.
pub fn user_message_times(conn: &Connection, owner: &str, since: Millis) -> Result<Vec<Millis>> {
    let mut stmt = conn.prepare_cached(
        "SELECT at FROM messages WHERE owner = ?1 AND role = 'user' AND at >= ?2 AND mnemo_existed(at) ORDER BY at",
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

/// Drops acts, then messages, older than `before` across the store, oldest first within each
/// owner, at most `budget` rows: how many of each, and whether more wait.
pub fn prune_store(
    conn: &Connection,
    before: Millis,
    budget: usize,
) -> Result<(usize, usize, bool)> {
    let mut dropped = [0usize; 2];
    let mut left = budget;
    for (i, table) in ["heartbeat_acts", "messages"].iter().enumerate() {
        let owners: Vec<String> = conn
            .prepare_cached(&format!(
                "SELECT DISTINCT owner FROM {table} ORDER BY owner"
            ))?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for owner in owners {
            // One over the budget tells whether more wait.
            let n = conn
                .prepare_cached(&format!(
                    "DELETE FROM {table} WHERE pk IN (SELECT pk FROM {table} \
                     WHERE owner = ?1 AND at < ?2 ORDER BY at LIMIT ?3)"
                ))?
                .execute(params![owner, before, left as i64])?;
            dropped[i] += n;
            left -= n;
            if left == 0 {
                let more: bool = conn
                    .prepare_cached(
                        "SELECT EXISTS (SELECT 1 FROM heartbeat_acts WHERE at < ?1) \
                         OR EXISTS (SELECT 1 FROM messages WHERE at < ?1)",
                    )?
                    .query_row(params![before], |r| r.get(0))?;
                return Ok((dropped[0], dropped[1], more));
            }
        }
    }
    Ok((dropped[0], dropped[1], false))
}

/// The distinct topics of live memories written in `[from, to)` (the newest `limit`): each
/// one's type in lower case and its tags.
pub fn topics_in(
    conn: &Connection,
    owner: &str,
    from: Millis,
    to: Millis,
    limit: usize,
) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(&format!(
        "WITH day AS MATERIALIZED (SELECT type, manual_tags, auto_tags FROM memories WHERE {LIVE} \
           AND created_at >= ?2 AND created_at < ?3 ORDER BY created_at DESC LIMIT ?4) \
         SELECT lower(type) FROM day \
         UNION SELECT j.value FROM day, json_each(day.manual_tags) AS j \
         UNION SELECT j.value FROM day, json_each(day.auto_tags) AS j"
    ))?;
    let rows = stmt.query_map(params![owner, from, to, limit as i64], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// When the owner's newest memory was written.
pub fn newest_created(conn: &Connection, owner: &str) -> Result<Option<Millis>> {
    Ok(conn
        .prepare_cached("SELECT max(created_at) FROM memories WHERE entity_id = ?1 AND mnemo_visible(agent_id, visibility, team_id) AND mnemo_existed(created_at)")?
        .query_row([owner], |r| r.get(0))?)
}

/// Live memories of `owner` whose text holds every one of `terms` (plain words), newest
/// first: unranked, so FTS5 walks its posting lists from the end and stops at `limit`.
pub fn containing_all(
    conn: &Connection,
    owner: &str,
    terms: &[String],
    limit: usize,
) -> Result<Vec<i64>> {
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let words: Vec<String> = terms
        .iter()
        .map(|t| format!("\"{}\"", t.replace('"', "")))
        .collect();
    let query = format!(
        "owner:{} AND content:({})",
        owner_token(owner),
        words.join(" AND ")
    );
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY rowid DESC LIMIT {limit}"
    ))?;
    let rows = stmt.query_map([query], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
