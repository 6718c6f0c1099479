//! Bridges in an export: a bridge is listed once, on the record of the first of its evidence
//! memories in the export (by creation time, then id), with its decision and the ids of all its evidence, and restored once every
//! memory of the import is in, so a confirmed or rejected pair stays decided (and is not
//! proposed again) in the store an export is imported into.
//!
//! An export made for an agent lists a bridge only when the agent sees every memory of its
//! evidence: the bridge and its decision rest on all of them.

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::bridge::{BridgeStatus, BRIDGE_EVIDENCE, BRIDGE_REASON_CHARS, BRIDGE_RELATION_CHARS};
use super::sight::Sight;
use super::sql as graph_sql;
use super::{EntityMention, MAX_PER_MEMORY};
use crate::clock::{check_time, Millis};
use crate::error::{Error, Result};
use crate::field::Id;

/// Bridges one record may list: one per pair of the entities it names.
const MAX_PER_RECORD: usize = MAX_PER_MEMORY * (MAX_PER_MEMORY - 1) / 2;

/// A bridge in an export, listed on the record of its first evidence memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BridgeRecord {
    /// The bridge's id.
    pub id: String,
    /// One entity's name, as the record's `entities` name it.
    pub a: String,
    /// The other's.
    pub b: String,
    /// Proposed, or confirmed or rejected by the host's LLM.
    pub status: BridgeStatus,
    /// How the LLM says `a` relates to `b`, when it confirmed the bridge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
    /// Why the LLM decided as it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// When consolidation proposed it, in milliseconds since the Unix epoch.
    pub proposed_at: Millis,
    /// When the LLM decided, in milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_at: Option<Millis>,
    /// The ids of the memories kept as its evidence, this record's first: 1 to 5.
    pub evidence: Vec<String>,
}

/// The bridges memory `pk` lists in an export: those whose first evidence (by creation time,
/// then id) it is, when the
/// exporting view sees all of their evidence.
pub(crate) fn export(conn: &Connection, sight: &mut Sight, pk: i64) -> Result<Vec<BridgeRecord>> {
    type Row = (
        i64,
        String,
        i64,
        i64,
        BridgeStatus,
        Option<String>,
        Option<String>,
        Millis,
        Option<Millis>,
    );
    let rows: Vec<Row> = conn
        .prepare_cached(
            "SELECT g.pk, g.id, g.a_pk, g.b_pk, g.status, g.relation, g.reason, g.proposed_at, \
               g.decided_at \
             FROM bridge_evidence v JOIN bridges g ON g.pk = v.bridge_pk \
             WHERE v.memory_pk = ?1 AND mnemo_existed(g.proposed_at) \
               AND NOT EXISTS (SELECT 1 FROM bridge_evidence w \
                 JOIN memories m ON m.pk = w.memory_pk JOIN memories me ON me.pk = ?1 \
                 WHERE w.bridge_pk = g.pk AND (m.created_at, m.id) < (me.created_at, me.id)) \
               AND NOT EXISTS (SELECT 1 FROM bridge_evidence w JOIN memories m ON m.pk = w.memory_pk \
                 WHERE w.bridge_pk = g.pk AND NOT mnemo_visible(m.agent_id, m.visibility, m.team_id)) \
             ORDER BY g.pk",
        )?
        .query_map([pk], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                crate::store::parse(r, 4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(8)?,
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (bridge, id, a, b, status, relation, reason, proposed_at, decided_at) in rows {
        let (Some(a), Some(b)) = (
            sight.names(&graph_sql::entity(conn, a)?)?,
            sight.names(&graph_sql::entity(conn, b)?)?,
        ) else {
            continue;
        };
        let evidence = conn
            .prepare_cached(
                "SELECT m.id FROM bridge_evidence v JOIN memories m ON m.pk = v.memory_pk \
                 WHERE v.bridge_pk = ?1 ORDER BY m.created_at, m.id",
            )?
            .query_map([bridge], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        out.push(BridgeRecord {
            id,
            a: a.name,
            b: b.name,
            status,
            relation,
            reason,
            proposed_at,
            decided_at,
            evidence,
        });
    }
    Ok(out)
}

/// Checks the bridges of the record of memory `memory_id`, which names `entities`, before
/// anything is written.
pub(crate) fn check(
    bridges: &[BridgeRecord],
    memory_id: &str,
    entities: &[EntityMention],
) -> Result<()> {
    if bridges.len() > MAX_PER_RECORD {
        return Err(Error::invalid(
            "bridges",
            format!(
                "has {} bridges; a record lists at most {MAX_PER_RECORD}",
                bridges.len()
            ),
        ));
    }
    let named = |name: &str| entities.iter().any(|e| e.name == name);
    for (i, g) in bridges.iter().enumerate() {
        let field = |name: &str| format!("bridges[{i}].{name}");
        Id::parse(&field("id"), &g.id)?;
        if bridges[..i].iter().any(|o| o.id == g.id) {
            return Err(Error::invalid(
                field("id"),
                format!("{} is listed twice", g.id),
            ));
        }
        for (name, end) in [("a", &g.a), ("b", &g.b)] {
            if !named(end) {
                return Err(Error::invalid(
                    field(name),
                    format!("{end:?} is not among the entities this record names"),
                ));
            }
        }
        if g.a == g.b {
            return Err(Error::invalid(field("b"), "is the same entity as a"));
        }
        if g.evidence.is_empty() || g.evidence.len() > BRIDGE_EVIDENCE {
            return Err(Error::invalid(
                field("evidence"),
                format!(
                    "has {} memories; a bridge keeps 1 to {BRIDGE_EVIDENCE}",
                    g.evidence.len()
                ),
            ));
        }
        for (j, e) in g.evidence.iter().enumerate() {
            Id::parse(&format!("bridges[{i}].evidence[{j}]"), e)?;
        }
        if g.evidence.first().map(String::as_str) != Some(memory_id) {
            return Err(Error::invalid(
                field("evidence"),
                "must start with this record's memory (a bridge is listed on its first evidence)",
            ));
        }
        for (name, text, max) in [
            ("relation", &g.relation, BRIDGE_RELATION_CHARS),
            ("reason", &g.reason, BRIDGE_REASON_CHARS),
        ] {
            if text.as_ref().is_some_and(|t| t.chars().count() > max) {
                return Err(Error::invalid(
                    field(name),
                    format!("is over {max} characters"),
                ));
            }
        }
        if g.relation.is_some() && g.status != BridgeStatus::Confirmed {
            return Err(Error::invalid(
                field("relation"),
                "only a confirmed bridge has one",
            ));
        }
        check_time(&field("proposed_at"), g.proposed_at)?;
        match (g.status, g.decided_at) {
            (BridgeStatus::Proposed, None) if g.relation.is_none() && g.reason.is_none() => {}
            (BridgeStatus::Proposed, _) => {
                return Err(Error::invalid(
                    field("status"),
                    "a proposed bridge has no decided_at, relation or reason",
                ))
            }
            (_, None) => {
                return Err(Error::invalid(
                    field("decided_at"),
                    "a decided bridge says when",
                ))
            }
            (_, Some(at)) => {
                check_time(&field("decided_at"), at)?;
                if at < g.proposed_at {
                    return Err(Error::invalid(field("decided_at"), "is before proposed_at"));
                }
            }
        }
    }
    Ok(())
}

/// The owner of bridge `id` in this store, if it has one.
pub(crate) fn owner_of(conn: &Connection, id: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT owner FROM bridges WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?)
}

/// Restores the bridges listed on memory `pk` of `owner` (a bridge already present is kept as
/// it is; evidence this store does not hold for `owner` is left out).
pub(crate) fn restore(
    conn: &Connection,
    owner: &str,
    pk: i64,
    bridges: &[BridgeRecord],
) -> Result<()> {
    if bridges.is_empty() {
        return Ok(());
    }
    let mut named = Vec::new();
    for e in graph_sql::entities_named_by(conn, pk)? {
        named.push((graph_sql::entity(conn, e)?.name, e));
    }
    let pk_of = |name: &str| {
        named
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, e)| *e)
            .ok_or_else(|| {
                Error::invalid(
                    "bridges",
                    format!("{name:?} is not an entity of its memory in this store"),
                )
            })
    };
    for g in bridges {
        let (a, b) = (pk_of(&g.a)?, pk_of(&g.b)?);
        let inserted = conn
            .prepare_cached(
                "INSERT INTO bridges (id, owner, a_pk, b_pk, status, relation, reason, proposed_at, \
                   decided_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT DO NOTHING",
            )?
            .execute(params![
                g.id,
                owner,
                a.min(b),
                a.max(b),
                g.status.as_str(),
                g.relation,
                g.reason,
                g.proposed_at,
                g.decided_at
            ])?;
        if inserted == 0 {
            continue;
        }
        let bridge = conn.last_insert_rowid();
        for id in &g.evidence {
            conn.prepare_cached(
                "INSERT OR IGNORE INTO bridge_evidence (bridge_pk, memory_pk) \
                 SELECT ?1, pk FROM memories WHERE id = ?2 AND entity_id = ?3",
            )?
            .execute(params![bridge, id, owner])?;
        }
    }
    Ok(())
}
