//! SQL of conflicts.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::{ConflictKind, ConflictMode, ConflictStatus, Resolution};
use crate::clock::Millis;
use crate::error::Result;
use crate::store::parse;

/// A conflict row, with the ids of its memories.
#[derive(Debug, Clone, PartialEq)]
pub struct ConflictRow {
    pub pk: i64,
    pub id: String,
    pub kind: ConflictKind,
    pub mode: ConflictMode,
    pub status: ConflictStatus,
    pub new_pk: Option<i64>,
    pub new_id: Option<String>,
    pub new_content: String,
    pub existing_pk: i64,
    pub existing_id: String,
    pub existing_content: String,
    pub resolution: Option<Resolution>,
    pub reason: Option<String>,
    pub created_at: Millis,
    pub resolved_at: Option<Millis>,
}

const SELECT: &str = "SELECT c.pk, c.id, c.kind, c.mode, c.status, c.new_pk, n.id, c.new_content, \
    c.existing_pk, e.id, e.content, c.resolution, c.reason, c.created_at, c.resolved_at \
    FROM conflicts c JOIN memories e ON e.pk = c.existing_pk LEFT JOIN memories n ON n.pk = c.new_pk";

fn row(r: &Row) -> rusqlite::Result<ConflictRow> {
    let resolution: Option<String> = r.get(11)?;
    Ok(ConflictRow {
        pk: r.get(0)?,
        id: r.get(1)?,
        kind: parse(r, 2)?,
        mode: parse(r, 3)?,
        status: parse(r, 4)?,
        new_pk: r.get(5)?,
        new_id: r.get(6)?,
        new_content: r.get(7)?,
        existing_pk: r.get(8)?,
        existing_id: r.get(9)?,
        existing_content: r.get(10)?,
        resolution: resolution.and_then(|s| s.parse().ok()),
        reason: r.get(12)?,
        created_at: r.get(13)?,
        resolved_at: r.get(14)?,
    })
}

/// A conflict to record.
pub struct NewConflict<'a> {
    pub id: &'a str,
    pub owner: &'a str,
    pub kind: ConflictKind,
    pub mode: ConflictMode,
    pub new_pk: Option<i64>,
    pub new_content: &'a str,
    pub existing_pk: i64,
    /// Set when the mode resolved it on write.
    pub resolution: Option<Resolution>,
    pub at: Millis,
}

/// Records a conflict; returns its key.
pub fn insert(conn: &Connection, c: &NewConflict) -> Result<i64> {
    let status = if c.resolution.is_some() {
        ConflictStatus::Resolved
    } else {
        ConflictStatus::Open
    };
    conn.prepare_cached(
        "INSERT INTO conflicts (id, owner, kind, mode, status, new_pk, new_content, existing_pk, resolution, reason, created_at, resolved_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?
    .execute(params![
        c.id,
        c.owner,
        c.kind.as_str(),
        c.mode.as_str(),
        status.as_str(),
        c.new_pk,
        c.new_content,
        c.existing_pk,
        c.resolution.map(|r| r.as_str()),
        c.resolution.map(|_| format!("resolved on write ({})", c.mode.as_str())),
        c.at,
        c.resolution.map(|_| c.at),
    ])?;
    Ok(conn.last_insert_rowid())
}

/// Marks a conflict resolved.
pub fn resolve(
    conn: &Connection,
    pk: i64,
    resolution: Resolution,
    reason: &str,
    now: Millis,
) -> Result<()> {
    conn.prepare_cached(
        "UPDATE conflicts SET status = 'resolved', resolution = ?2, reason = ?3, resolved_at = ?4 WHERE pk = ?1",
    )?
    .execute(params![pk, resolution.as_str(), reason, now])?;
    Ok(())
}

/// One conflict of an owner by id.
pub fn get(conn: &Connection, owner: &str, id: &str) -> Result<Option<ConflictRow>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE c.owner = ?1 AND c.id = ?2"))?
        .query_row(params![owner, id], row)
        .optional()?)
}

/// An owner's conflicts, newest first, optionally only those with `status`.
pub fn list(
    conn: &Connection,
    owner: &str,
    status: Option<ConflictStatus>,
    limit: usize,
) -> Result<Vec<ConflictRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE c.owner = ?1 AND (?2 IS NULL OR c.status = ?2) \
         AND mnemo_visible(e.agent_id, e.visibility, e.team_id) \
         ORDER BY c.created_at DESC, c.pk DESC LIMIT ?3"
    ))?;
    let rows = stmt.query_map(
        params![owner, status.map(|s| s.as_str()), limit as i64],
        row,
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
