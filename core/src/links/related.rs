//! The `related` call: a memory's linked memories, each once, with what links them — how often
//! searches returned them together, and what they share.

use crate::order::Keyed;

use rusqlite::Connection;
use serde::{Deserialize, Serialize};

use super::{of, Kind};
use crate::clock::Millis;
use crate::error::Result;
use crate::field::{Id, Limit, Owner};
use crate::graph;
use crate::links::shared::Shareable;
use crate::model::Memory;
use crate::store::memories;

/// Which memory's links to read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RelatedRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// The memory whose links to follow.
    pub id: Id,
    /// Memories wanted, 1 to 1,000 (default 10).
    pub limit: Option<Limit>,
}

/// A memory linked to another, and what links them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RelatedMemory {
    /// The linked memory.
    pub memory: Memory,
    /// The stronger of the two links, 0–1: co-recall (+0.1 per co-recall, ×0.95 per day) and
    /// shared content (0.3 per shared tag, half for a tag only the extractor gave, + 0.4 per
    /// shared entity + 0.3·cosine, at most 1, as consolidation last weighed it).
    pub strength: f64,
    /// Times searches returned the two together (0 when no co-recall link is formed).
    pub co_recalls: i64,
    /// When searches last returned them together, in milliseconds since the Unix epoch (none
    /// without a co-recall link).
    pub last_recalled_at: Option<Millis>,
    /// Tags both carry (their sources aside), now.
    pub shared_tags: Vec<String>,
    /// Entities of the graph both name, now.
    pub shared_entities: Vec<String>,
}

/// What links a memory to one other: a formed co-recall link (strength now, co-recalls, last
/// time), a shared-content link (strength).
#[derive(Default)]
struct Ends {
    recalled: Option<(f64, i64, Millis)>,
    shared: Option<f64>,
}

/// The live memories of `owner` linked to memory `m` (key `pk`) at `now`, strongest first
/// (ties by id), at most `limit`.
pub(crate) fn related(
    conn: &Connection,
    owner: &str,
    pk: i64,
    m: &Memory,
    now: Millis,
    limit: usize,
    sees: impl Fn(&Memory) -> bool,
) -> Result<Vec<RelatedMemory>> {
    let mut ends: Keyed<i64, Ends> = Keyed::new();
    for link in of(conn, pk)? {
        let end = ends.or_default(link.other);
        match link.kind {
            Kind::Recalled => {
                if let Some(s) = link.recalled_at(now) {
                    end.recalled = Some((s, link.count, link.last_at));
                }
            }
            Kind::Shared => end.shared = Some(link.strength),
        }
    }
    let mine = Shareable::of(conn, pk, m)?;
    let mut out = Vec::new();
    for (other, Ends { recalled, shared }) in ends {
        if recalled.is_none() && shared.is_none() {
            continue;
        }
        let Some(memory) = memories::by_pk(conn, owner, other)? else {
            continue;
        };
        if !memories::searchable(&memory) || !sees(&memory) {
            continue;
        }
        let theirs = Shareable::of(conn, other, &memory)?;
        let mut shared_entities = Vec::new();
        for e in mine.entities.intersection(&theirs.entities) {
            shared_entities.push(graph::entity(conn, *e)?.name);
        }
        crate::order::sort(&mut shared_entities);
        out.push(RelatedMemory {
            strength: recalled.map_or(0.0, |r| r.0).max(shared.unwrap_or(0.0)),
            co_recalls: recalled.map_or(0, |r| r.1),
            last_recalled_at: recalled.map(|r| r.2),
            shared_tags: mine.shared_tags(&theirs),
            shared_entities,
            memory,
        });
    }
    crate::order::sort_by(&mut out, |a, b| {
        b.strength
            .total_cmp(&a.strength)
            .then_with(|| a.memory.id.cmp(&b.memory.id))
    });
    out.truncate(limit);
    Ok(out)
}
