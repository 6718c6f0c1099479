//! Bridges (engram's cross-domain synthesis): two entities the owner's memories name together
//! in different contexts — sessions, documents, conversations apart — with no relationship
//! between them in the graph. Consolidation proposes them with their evidence and has the
//! host's LLM, when there is one, confirm or reject each; nothing is deleted, and a decided
//! pair is not proposed again. `bridges` lists them as the caller sees them: only evidence it
//! may see, and only bridges that evidence still makes (two contexts).

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::sight::Sight;
use super::sql as graph_sql;
use super::SPEAKER;
use crate::clock::Millis;
use crate::error::Result;
use crate::field::{Id, Limit, Owner};
use crate::model::string_enum;
use crate::store::View;

/// Contexts (sessions, documents, or memories said outside any) that must name two entities
/// together before they are proposed as a bridge.
pub const BRIDGE_MIN_CONTEXTS: usize = 2;
/// Memories kept as a bridge's evidence, one per context first.
pub const BRIDGE_EVIDENCE: usize = 5;
/// Characters a confirmed bridge's relation may have (how the host's LLM says the two relate).
pub const BRIDGE_RELATION_CHARS: usize = 80;
/// Characters a decided bridge's reason may have.
pub const BRIDGE_REASON_CHARS: usize = 480;
/// Bridges `bridges` lists by default.
const DEFAULT_LIMIT: usize = 50;

string_enum! {
    /// Where a bridge stands.
    BridgeStatus, "bridge status" {
        /// Proposed by consolidation, not yet checked.
        Proposed = "proposed",
        /// The host's LLM found the two connected.
        Confirmed = "confirmed",
        /// The host's LLM found them merely mentioned together.
        Rejected = "rejected",
    }
}

/// Arguments of `bridges`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BridgesRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees the bridges that the memories it may see make
    /// (its own, `global` ones and `team` ones of its teams), with those as evidence (default
    /// none: the owner's view).
    pub agent_id: Option<Id>,
    /// Only bridges of this status (default all).
    pub status: Option<BridgeStatus>,
    /// At most this many, 1 to 1000 (default 50), the most contexts first.
    pub limit: Option<Limit>,
}

/// Two entities memories name together in different contexts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Bridge {
    /// The bridge's id.
    pub id: String,
    /// One entity's name.
    pub a: String,
    /// The other's.
    pub b: String,
    /// Proposed, or confirmed or rejected by the host's LLM.
    pub status: BridgeStatus,
    /// How the LLM says `a` relates to `b`, when it confirmed the bridge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relation: Option<String>,
    /// Why the LLM decided as it did, citing the memories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Distinct contexts among the evidence: sessions, documents, or memories said outside any.
    pub contexts: usize,
    /// Memories that name both, at most 5.
    pub evidence: Vec<BridgeEvidence>,
    /// When consolidation proposed it, in milliseconds since the Unix epoch.
    pub proposed_at: Millis,
    /// When the LLM decided, in milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_at: Option<Millis>,
}

/// A memory that names both ends of a bridge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BridgeEvidence {
    /// The memory's id.
    pub id: String,
    /// What it says.
    pub content: String,
}

/// A memory naming two entities, and the context it was said in.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mention {
    pub pk: i64,
    pub context: String,
}

/// The live memories naming both `a` and `b` (at most 50, oldest first), each with its
/// context: its document, else its session, else itself; only those `visible` ones when
/// narrowed (`mnemo_visible`).
pub(crate) fn naming_both(conn: &Connection, a: i64, b: i64) -> Result<Vec<Mention>> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.pk, coalesce('document:' || p.document_pk, 'session:' || m.session_id, 'memory:' || m.pk) \
         FROM memory_entities x JOIN memory_entities y ON y.memory_pk = x.memory_pk AND y.entity_pk = ?2 \
         JOIN memories m ON m.pk = x.memory_pk LEFT JOIN passages p ON p.memory_pk = m.pk \
         WHERE x.entity_pk = ?1 AND m.status = 'active' AND m.state IN ('ACTIVE', 'STALE') \
           AND mnemo_visible(m.agent_id, m.visibility, m.team_id) AND mnemo_existed(m.created_at) \
         ORDER BY m.pk LIMIT 50",
    )?;
    let rows = stmt.query_map(params![a, b], |r| {
        Ok(Mention {
            pk: r.get(0)?,
            context: r.get(1)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many distinct contexts `mentions` come from.
pub(crate) fn contexts(mentions: &[Mention]) -> usize {
    let mut seen: Vec<&str> = mentions.iter().map(|m| m.context.as_str()).collect();
    crate::order::sort(&mut seen);
    seen.dedup();
    seen.len()
}

/// The evidence to keep: one memory per context first, then the rest, at most
/// [`BRIDGE_EVIDENCE`].
pub(crate) fn evidence(mentions: &[Mention]) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    let mut used: Vec<&str> = Vec::new();
    for m in mentions {
        if !used.contains(&m.context.as_str()) {
            used.push(&m.context);
            out.push(m.pk);
        }
    }
    for m in mentions {
        if !out.contains(&m.pk) {
            out.push(m.pk);
        }
    }
    out.truncate(BRIDGE_EVIDENCE);
    out
}

/// Entities a memory names, the speaker aside.
pub(crate) fn named_by(conn: &Connection, memory_pk: i64) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT x.entity_pk FROM memory_entities x JOIN entities e ON e.pk = x.entity_pk \
         WHERE x.memory_pk = ?1 AND e.name != ?2 ORDER BY x.entity_pk",
    )?;
    let rows = stmt.query_map(params![memory_pk, SPEAKER], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Whether the pair `a < b` of `owner` has a bridge already, or a relationship either way.
pub(crate) fn known_pair(conn: &Connection, owner: &str, a: i64, b: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM bridges WHERE owner = ?1 AND a_pk = ?2 AND b_pk = ?3) \
             OR EXISTS (SELECT 1 FROM relationships WHERE owner = ?1 \
               AND ((from_pk = ?2 AND to_pk = ?3) OR (from_pk = ?3 AND to_pk = ?2)))",
        )?
        .query_row(params![owner, a, b], |r| r.get(0))?)
}

/// Records a proposed bridge of the pair `a < b` with its evidence.
pub(crate) fn propose(
    conn: &Connection,
    owner: &str,
    (a, b): (i64, i64),
    evidence: &[i64],
    now: Millis,
) -> Result<()> {
    let id = crate::text::derived_id("brg", &[owner.as_bytes()], &[a, b]);
    conn.prepare_cached(
        "INSERT INTO bridges (id, owner, a_pk, b_pk, status, proposed_at) VALUES (?1, ?2, ?3, ?4, 'proposed', ?5)",
    )?
    .execute(params![id, owner, a, b, now])?;
    let pk = conn.last_insert_rowid();
    for m in evidence {
        conn.prepare_cached("INSERT INTO bridge_evidence (bridge_pk, memory_pk) VALUES (?1, ?2)")?
            .execute(params![pk, m])?;
    }
    Ok(())
}

/// A proposed bridge waiting for the host's LLM.
pub(crate) struct Waiting {
    pub pk: i64,
    pub owner: String,
    pub id: String,
    pub a: String,
    pub b: String,
    pub evidence: Vec<String>,
}

/// Proposed bridges, oldest first, at most `limit`, with their owners, ids, ends' names and
/// their evidence's text.
pub(crate) fn waiting(conn: &Connection, limit: usize) -> Result<Vec<Waiting>> {
    let rows: Vec<(i64, String, String, String, String)> = conn
        .prepare_cached(
            "SELECT g.pk, g.owner, g.id, a.name, b.name FROM bridges g \
             JOIN entities a ON a.pk = g.a_pk JOIN entities b ON b.pk = g.b_pk \
             WHERE g.status = 'proposed' ORDER BY g.pk LIMIT ?1",
        )?
        .query_map([limit as i64], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut out = Vec::with_capacity(rows.len());
    for (pk, owner, id, a, b) in rows {
        let evidence: Vec<String> = conn
            .prepare_cached(
                "SELECT m.content FROM bridge_evidence v JOIN memories m ON m.pk = v.memory_pk \
                 WHERE v.bridge_pk = ?1 AND m.state != 'DELETED' ORDER BY m.pk",
            )?
            .query_map([pk], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        out.push(Waiting {
            pk,
            owner,
            id,
            a,
            b,
            evidence,
        });
    }
    Ok(out)
}

/// Records the LLM's decision on bridge `pk`.
pub(crate) fn decide(
    conn: &Connection,
    pk: i64,
    related: bool,
    relation: &str,
    reason: &str,
    now: Millis,
) -> Result<()> {
    let status = if related {
        BridgeStatus::Confirmed
    } else {
        BridgeStatus::Rejected
    };
    let relation = Some(relation).filter(|r| related && !r.is_empty());
    conn.prepare_cached(
        "UPDATE bridges SET status = ?2, relation = ?3, reason = ?4, decided_at = ?5 WHERE pk = ?1",
    )?
    .execute(params![pk, status.as_str(), relation, reason, now])?;
    Ok(())
}

/// Bridge rows of an owner, the most evidence first.
struct Row {
    pk: i64,
    id: String,
    a_pk: i64,
    b_pk: i64,
    status: BridgeStatus,
    relation: Option<String>,
    reason: Option<String>,
    proposed_at: Millis,
    decided_at: Option<Millis>,
}

/// The owner's bridges as the caller sees them.
pub(crate) fn bridges(view: &View, owner: &Owner, req: &BridgesRequest) -> Result<Vec<Bridge>> {
    let limit = Limit::or(req.limit, DEFAULT_LIMIT);
    let conn = view.conn();
    let rows: Vec<Row> = conn
        .prepare_cached(&format!(
            "SELECT {ROW} FROM bridges WHERE owner = ?1 AND (?2 IS NULL OR status = ?2) \
               AND mnemo_existed(proposed_at) ORDER BY pk"
        ))?
        .query_map(params![owner.as_str(), req.status.map(|s| s.as_str())], row)?
        .collect::<rusqlite::Result<_>>()?;
    let mut sight = Sight::of(view);
    let mut out = Vec::new();
    for row in rows {
        out.extend(made(conn, &mut sight, row)?);
    }
    crate::order::sort_by(&mut out, |x, y| y.contexts.cmp(&x.contexts));
    out.truncate(limit);
    Ok(out)
}

/// The memories kept as bridge `pk`'s evidence.
fn stored_evidence(conn: &Connection, pk: i64) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT memory_pk FROM bridge_evidence WHERE bridge_pk = ?1 ORDER BY memory_pk",
    )?;
    let rows = stmt.query_map([pk], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The bridge of `row` as `sight` sees it: only evidence it may see; none when that evidence
/// makes no bridge.
fn made(conn: &Connection, sight: &mut Sight, row: Row) -> Result<Option<Bridge>> {
    // The evidence the caller may see, and the contexts it makes.
    let mentions = naming_both(conn, row.a_pk, row.b_pk)?;
    let kept: Vec<i64> = stored_evidence(conn, row.pk)?;
    let visible: Vec<Mention> = mentions
        .into_iter()
        .filter(|m| kept.contains(&m.pk))
        .collect();
    let contexts = contexts(&visible);
    if contexts < BRIDGE_MIN_CONTEXTS {
        return Ok(None);
    }
    let (Some(a), Some(b)) = (
        sight.names(&graph_sql::entity(conn, row.a_pk)?)?,
        sight.names(&graph_sql::entity(conn, row.b_pk)?)?,
    ) else {
        return Ok(None);
    };
    let mut evidence = Vec::new();
    for m in &visible {
        let (id, content): (String, String) = conn
            .prepare_cached("SELECT id, content FROM memories WHERE pk = ?1")?
            .query_row([m.pk], |r| Ok((r.get(0)?, r.get(1)?)))?;
        evidence.push(BridgeEvidence { id, content });
    }
    // The LLM decided on every memory of the evidence: only a caller who sees them all reads
    // its decision.
    let all_seen = visible.len() == kept.len();
    Ok(Some(Bridge {
        id: row.id,
        a: a.name,
        b: b.name,
        status: if all_seen {
            row.status
        } else {
            BridgeStatus::Proposed
        },
        relation: row.relation.filter(|_| all_seen),
        reason: row.reason.filter(|_| all_seen),
        contexts,
        evidence,
        proposed_at: row.proposed_at,
        decided_at: row.decided_at.filter(|_| all_seen),
    }))
}

/// The columns of a bridge row, in [`Row`]'s order.
const ROW: &str = "pk, id, a_pk, b_pk, status, relation, reason, proposed_at, decided_at";

fn row(r: &rusqlite::Row) -> rusqlite::Result<Row> {
    Ok(Row {
        pk: r.get(0)?,
        id: r.get(1)?,
        a_pk: r.get(2)?,
        b_pk: r.get(3)?,
        status: crate::store::parse(r, 4)?,
        relation: r.get(5)?,
        reason: r.get(6)?,
        proposed_at: r.get(7)?,
        decided_at: r.get(8)?,
    })
}

/// The key and status of `owner`'s bridge `id`.
pub(crate) fn by_id(
    conn: &Connection,
    owner: &str,
    id: &str,
) -> Result<Option<(i64, BridgeStatus)>> {
    Ok(conn
        .prepare_cached("SELECT pk, status FROM bridges WHERE owner = ?1 AND id = ?2")?
        .query_row(params![owner, id], |r| {
            Ok((r.get(0)?, crate::store::parse(r, 1)?))
        })
        .optional()?)
}

/// Bridge `pk` of `owner` in the owner's whole view.
pub(crate) fn owner_bridge(conn: &Connection, owner: &str, pk: i64) -> Result<Bridge> {
    let r = conn
        .prepare_cached(&format!(
            "SELECT {ROW} FROM bridges WHERE owner = ?1 AND pk = ?2"
        ))?
        .query_row(params![owner, pk], row)?;
    let id = r.id.clone();
    made(conn, &mut Sight::new(conn, false), r)?
        .ok_or_else(|| crate::error::Error::Internal(format!("bridge {id} has lost its evidence")))
}
