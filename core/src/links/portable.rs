//! Co-recall links in an export: a link is listed once, on the record of whichever of its two
//! memories is exported first, and restored once both memories are in. (Shared-content links
//! are found again by the next consolidation.)

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::{Kind, MAX_STRENGTH};
use crate::clock::{check_time, Millis};
use crate::error::{Error, Result};
use crate::field::Id;
use crate::model::Memory;

/// A co-recall link in an export, listed on the record of whichever of its two memories is
/// exported first (by creation time, then id), naming the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkRecord {
    /// The other memory's id.
    pub id: String,
    pub co_recalls: i64,
    /// The strength as stored (decayed to `decayed_at`).
    pub strength: f64,
    pub last_at: Millis,
    pub decayed_at: Millis,
}

/// The links memory `m` (key `pk`) lists in an export: those to memories exported after it.
pub(crate) fn export(conn: &Connection, pk: i64, m: &Memory) -> Result<Vec<LinkRecord>> {
    let mut stmt = conn.prepare_cached(
        "SELECT o.id, o.created_at, l.count, l.strength, l.last_at, l.decayed_at \
         FROM memory_links l JOIN memories o ON o.pk = CASE WHEN l.a = ?1 THEN l.b ELSE l.a END \
         WHERE (l.a = ?1 OR l.b = ?1) AND l.kind = ?2 ORDER BY o.created_at, o.id",
    )?;
    let rows = stmt.query_map(params![pk, Kind::Recalled.as_str()], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Millis>(1)?,
            LinkRecord {
                id: r.get(0)?,
                co_recalls: r.get(2)?,
                strength: r.get(3)?,
                last_at: r.get(4)?,
                decayed_at: r.get(5)?,
            },
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (id, created_at, link) = row?;
        if (m.created_at, m.id.as_str()) < (created_at, id.as_str()) {
            out.push(link);
        }
    }
    Ok(out)
}

/// Checks an exported link before anything is written.
pub(crate) fn check(links: &[LinkRecord]) -> Result<()> {
    for (i, l) in links.iter().enumerate() {
        let field = |name: &str| format!("links[{i}].{name}");
        Id::parse(&field("id"), &l.id)?;
        if l.co_recalls < 1 {
            return Err(Error::invalid(field("co_recalls"), "must be at least 1"));
        }
        if !(l.strength.is_finite() && (0.0..=MAX_STRENGTH).contains(&l.strength)) {
            return Err(Error::invalid(
                field("strength"),
                format!("{} is not between 0 and {MAX_STRENGTH}", l.strength),
            ));
        }
        check_time(&field("last_at"), l.last_at)?;
        check_time(&field("decayed_at"), l.decayed_at)?;
    }
    Ok(())
}

/// Restores the exported links of memory `pk` of `owner` (a link to a memory this store does
/// not hold for `owner` is left out; one already present is kept as it is).
pub(crate) fn restore(conn: &Connection, owner: &str, pk: i64, links: &[LinkRecord]) -> Result<()> {
    for l in links {
        let other: Option<i64> = conn
            .prepare_cached("SELECT pk FROM memories WHERE id = ?1 AND entity_id = ?2")?
            .query_row([&l.id, owner], |r| r.get(0))
            .optional()?;
        let Some(other) = other.filter(|o| *o != pk) else {
            continue;
        };
        conn.prepare_cached(
            "INSERT INTO memory_links (a, b, kind, count, strength, last_at, decayed_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING",
        )?
        .execute(params![
            pk.min(other),
            pk.max(other),
            Kind::Recalled.as_str(),
            l.co_recalls,
            l.strength,
            l.last_at,
            l.decayed_at
        ])?;
    }
    Ok(())
}
