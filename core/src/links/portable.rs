//! Links in an export, co-recall and shared-content alike: a link is listed once, on the record
//! of whichever of its two memories is exported first, and restored once both memories are in,
//! so an imported store relates its memories as the exporting one did before any consolidation.

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::{Kind, MAX_STRENGTH};
use crate::clock::{check_time, Millis};
use crate::error::{Error, Result};
use crate::field::Id;
use crate::model::Memory;

/// Which link a record is.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum LinkKind {
    /// Returned together by searches (co-recall).
    #[default]
    Recalled,
    /// Sharing entities and tags (found by consolidation).
    Shared,
}

impl LinkKind {
    fn stored(self) -> Kind {
        match self {
            LinkKind::Recalled => Kind::Recalled,
            LinkKind::Shared => Kind::Shared,
        }
    }
}

fn is_recalled(k: &LinkKind) -> bool {
    *k == LinkKind::Recalled
}

/// A link in an export, listed on the record of whichever of its two memories is exported
/// first (by creation time, then id), naming the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkRecord {
    /// The other memory's id.
    pub id: String,
    /// Left out for a co-recall link.
    #[serde(default, skip_serializing_if = "is_recalled")]
    pub kind: LinkKind,
    /// Co-recalls of a co-recall link; of a shared-content link, the tags and entities the
    /// two share.
    pub co_recalls: i64,
    /// The strength as stored (decayed to `decayed_at`).
    pub strength: f64,
    /// When the link was last strengthened, in milliseconds since the Unix epoch.
    pub last_at: Millis,
    /// When its strength was last decayed, in milliseconds since the Unix epoch.
    pub decayed_at: Millis,
}

/// The links memory `m` (key `pk`) lists in an export: those to memories exported after it.
pub(crate) fn export(conn: &Connection, pk: i64, m: &Memory) -> Result<Vec<LinkRecord>> {
    let mut stmt = conn.prepare_cached(
        "SELECT o.id, o.created_at, l.count, l.strength, l.last_at, l.decayed_at, l.kind \
         FROM memory_links l JOIN memories o ON o.pk = CASE WHEN l.a = ?1 THEN l.b ELSE l.a END \
         WHERE (l.a = ?1 OR l.b = ?1) AND mnemo_visible(o.agent_id, o.visibility, o.team_id) \
         ORDER BY o.created_at, o.id, l.kind",
    )?;
    let rows = stmt.query_map(params![pk], |r| {
        let kind: String = r.get(6)?;
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Millis>(1)?,
            LinkRecord {
                id: r.get(0)?,
                kind: if kind == Kind::Shared.as_str() {
                    LinkKind::Shared
                } else {
                    LinkKind::Recalled
                },
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
        // A shared-content link may rest on likeness of meaning with one guessed tag alone.
        let least = match l.kind {
            LinkKind::Recalled => 1,
            LinkKind::Shared => 0,
        };
        if l.co_recalls < least {
            return Err(Error::invalid(
                field("co_recalls"),
                format!("must be at least {least}"),
            ));
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
            l.kind.stored().as_str(),
            l.co_recalls,
            l.strength,
            l.last_at,
            l.decayed_at
        ])?;
    }
    Ok(())
}
