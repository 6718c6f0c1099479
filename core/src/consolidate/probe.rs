//! Belief probing (engram's "adversarial belief probing: challenge old beliefs, reduce
//! importance on invalidated ones"): a memory that is the evidence of a relationship a
//! subject has one of at a time (where one lives or was born, works or reports, who one is
//! married to, dating or engaged to) is challenged when newer memories of the same scope state
//! another object of it, and were all said after it — "Ana works at Farfetch" once "Ana Souza
//! now works at Google" was said, which no write-time conflict caught (the names were not yet
//! one entity). It becomes `challenged` (out of searches, in its status history with the
//! newer memory named), and loses importance. A pair a conflict already joined (the owner was
//! asked, or decided) is left to that decision; nothing is deleted, and a challenged memory
//! is not probed again.

use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::STEP_BATCH;
use crate::conflict;
use crate::error::Result;
use crate::graph::Relation;
use crate::model::Status;
use crate::store::{memories, Tx};

/// Importance a challenged memory loses (down to [`MIN_IMPORTANCE`]).
pub const CHALLENGE_IMPORTANCE_LOSS: f64 = 0.2;
/// The least importance a challenge leaves.
const MIN_IMPORTANCE: f64 = 0.05;

/// What belief probing did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProbeReport {
    /// Memories challenged: newer memories of their scope say otherwise.
    pub challenged: usize,
    /// The step stopped at its bound.
    pub more: bool,
}

/// A memory to challenge, and what says otherwise.
struct Challenge {
    pk: i64,
    owner: String,
    newer_id: String,
    subject: String,
    relation: String,
    object: String,
}

/// Runs the step.
pub(super) fn probe(tx: &mut Tx) -> Result<ProbeReport> {
    let exclusive: Vec<&str> = Relation::ALL
        .iter()
        .filter(|r| conflict::exclusive(**r))
        .map(|r| r.as_str())
        .collect();
    let list = serde_json::to_string(&exclusive)
        .map_err(|e| crate::error::Error::Internal(e.to_string()))?;
    // For each active memory stating an old object of an exclusive relation, the newest other
    // object whose statements all came after it, from a memory of the same scope.
    let found: Vec<Challenge> = tx
        .conn()
        .prepare_cached(
            "SELECT m.pk, m.entity_id, n.id, s.name, r.relation, o.name, max(newer.first_seen) \
             FROM relationships r \
             JOIN relationships newer ON newer.owner = r.owner AND newer.from_pk = r.from_pk \
               AND newer.relation = r.relation AND newer.to_pk != r.to_pk AND newer.inferred = 0 \
             JOIN relationship_evidence v ON v.relationship_pk = r.pk \
             JOIN memories m ON m.pk = v.memory_pk \
             JOIN relationship_evidence nv ON nv.relationship_pk = newer.pk \
             JOIN memories n ON n.pk = nv.memory_pk \
             JOIN entities s ON s.pk = newer.from_pk \
             JOIN entities o ON o.pk = newer.to_pk \
             WHERE r.inferred = 0 AND r.relation IN (SELECT value FROM json_each(?1)) \
               AND r.last_seen < newer.first_seen \
               AND m.status = 'active' AND m.state != 'DELETED' AND m.created_at < newer.first_seen \
               AND n.status = 'active' AND n.state != 'DELETED' \
               AND n.agent_id IS m.agent_id AND n.visibility = m.visibility AND n.team_id IS m.team_id \
               AND NOT EXISTS (SELECT 1 FROM conflicts c WHERE \
                 (c.existing_pk = m.pk AND c.new_pk = n.pk) OR (c.existing_pk = n.pk AND c.new_pk = m.pk)) \
             GROUP BY m.pk ORDER BY m.pk LIMIT ?2",
        )?
        .query_map(params![list, STEP_BATCH as i64 + 1], |r| {
            Ok(Challenge {
                pk: r.get(0)?,
                owner: r.get(1)?,
                newer_id: r.get(2)?,
                subject: r.get(3)?,
                relation: r.get(4)?,
                object: r.get(5)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut report = ProbeReport {
        more: found.len() > STEP_BATCH,
        ..ProbeReport::default()
    };
    for c in found.into_iter().take(STEP_BATCH) {
        let Some(mut m) = memories::by_pk(tx.conn(), &c.owner, c.pk)? else {
            continue;
        };
        let reason = format!(
            "belief probing: newer memories say {} {} {} ({})",
            c.subject, c.relation, c.object, c.newer_id
        );
        m.importance = (m.importance - CHALLENGE_IMPORTANCE_LOSS).max(MIN_IMPORTANCE);
        tx.change_status(c.pk, &mut m, Status::Challenged, reason)?;
        report.challenged += 1;
    }
    Ok(report)
}
