//! SQL of schedules.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::ScheduleStatus;
use crate::clock::Millis;
use crate::error::Result;
use crate::store::parse;

/// A schedule row with its memory's id, content and tag.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduleRow {
    pub memory_pk: i64,
    pub id: String,
    pub content: String,
    pub cron_tag: String,
    pub start_at: Millis,
    pub next_due: Option<Millis>,
    pub surfaced_due: Option<Millis>,
    pub acknowledged_at: Option<Millis>,
    pub missed: i64,
    pub status: ScheduleStatus,
    pub created_at: Millis,
}

const SELECT: &str = "SELECT s.memory_pk, m.id, m.content, s.cron_tag, s.start_at, s.next_due, \
    s.surfaced_due, s.acknowledged_at, s.missed, s.status, m.created_at \
    FROM schedules s JOIN memories m ON m.pk = s.memory_pk";

fn row(r: &Row) -> rusqlite::Result<ScheduleRow> {
    Ok(ScheduleRow {
        memory_pk: r.get(0)?,
        id: r.get(1)?,
        content: r.get(2)?,
        cron_tag: r.get(3)?,
        start_at: r.get(4)?,
        next_due: r.get(5)?,
        surfaced_due: r.get(6)?,
        acknowledged_at: r.get(7)?,
        missed: r.get(8)?,
        status: parse(r, 9)?,
        created_at: r.get(10)?,
    })
}

/// A new schedule for memory `memory_pk`.
pub fn insert(
    conn: &Connection,
    memory_pk: i64,
    owner: &str,
    cron_tag: &str,
    start_at: Millis,
    next_due: Option<Millis>,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO schedules (memory_pk, owner, cron_tag, start_at, next_due, missed, status) \
         VALUES (?1, ?2, ?3, ?4, ?5, 0, 'active')",
    )?
    .execute(params![memory_pk, owner, cron_tag, start_at, next_due])?;
    Ok(())
}

/// Writes a schedule's timing and status back.
pub fn save(conn: &Connection, s: &ScheduleRow) -> Result<()> {
    conn.prepare_cached(
        "UPDATE schedules SET start_at = ?2, next_due = ?3, surfaced_due = ?4, acknowledged_at = ?5, missed = ?6, status = ?7, \
         cron_tag = ?8 WHERE memory_pk = ?1",
    )?
    .execute(params![
        s.memory_pk,
        s.start_at,
        s.next_due,
        s.surfaced_due,
        s.acknowledged_at,
        s.missed,
        s.status.as_str(),
        s.cron_tag
    ])?;
    Ok(())
}

/// Writes back several schedules.
pub fn save_all(conn: &Connection, rows: &[ScheduleRow]) -> Result<()> {
    rows.iter().try_for_each(|s| save(conn, s))
}

/// One schedule of an owner, by its memory's id.
pub fn get(conn: &Connection, owner: &str, id: &str) -> Result<Option<ScheduleRow>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE s.owner = ?1 AND mnemo_visible(m.agent_id, m.visibility, m.team_id) AND m.id = ?2"))?
        .query_row(params![owner, id], row)
        .optional()?)
}

/// An owner's schedules, soonest due first (active only unless `all`).
pub fn list(conn: &Connection, owner: &str, all: bool) -> Result<Vec<ScheduleRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE s.owner = ?1 AND mnemo_visible(m.agent_id, m.visibility, m.team_id) AND (?2 OR s.status = 'active') \
         ORDER BY s.next_due IS NULL, s.next_due, s.memory_pk"
    ))?;
    let rows = stmt.query_map(params![owner, all], row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// An owner's active schedules due at `now`.
pub fn due(conn: &Connection, owner: &str, now: Millis) -> Result<Vec<ScheduleRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{SELECT} WHERE s.owner = ?1 AND mnemo_visible(m.agent_id, m.visibility, m.team_id) AND s.status = 'active' AND s.next_due <= ?2 ORDER BY s.next_due, s.memory_pk"
    ))?;
    let rows = stmt.query_map(params![owner, now], row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
