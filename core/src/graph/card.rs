//! Peer cards (engram): for an entity enough memories bear on, what an agent should know of it
//! at a glance — its names and type, the most important live facts about it, its strongest
//! relationships, when it was first and last mentioned, and a paragraph saying so. A card is
//! made when asked, from what the caller may see (an agent's card leaves out what another
//! agent keeps private), so it is current whenever it is read.

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::query::{entity_named, relationship};
use super::sight::{Sight, BEARING};
use super::sql::{self as graph_sql, EntityRow};
use super::{EntityType, Relationship, SPEAKER};
use crate::clock::Millis;
use crate::error::{Error, Result};
use crate::field::{Id, Owner};
use crate::importance;
use crate::model::{string_enum, Memory, MemoryType};
use crate::store::memories::{memory_from_row, COLUMNS};
use crate::store::View;

/// Live memories that must bear on an entity (name it, or state a relationship of it) before
/// it has a card: fewer say too little to sum up.
pub const CARD_MIN_MEMORIES: usize = 3;
/// Facts a card lists.
pub const CARD_FACTS: usize = 5;
/// Relationships a card lists.
pub const CARD_RELATIONSHIPS: usize = 5;
/// Facts the engine's own summary quotes.
const SUMMARY_FACTS: usize = 2;

/// Arguments of `card`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: its card is made from what its own memories, `global`
    /// ones and `team` ones of the owner's teams it is a member of say (default none: the
    /// owner's view, every memory).
    pub agent_id: Option<Id>,
    /// The entity: a name or alias, as `entities` lists them.
    pub name: String,
}

/// A peer card: what an agent should know of an entity at a glance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Card {
    /// The entity's name.
    pub name: String,
    /// What sort of entity it is.
    #[serde(rename = "type")]
    pub entity_type: EntityType,
    /// Other names it goes by.
    pub aliases: Vec<String>,
    /// Live memories that name it or state a relationship of it.
    pub memories: usize,
    /// The most important of those now (all nine factors of importance), at most 5.
    pub facts: Vec<CardFact>,
    /// Its strongest relationships either way, at most 5.
    pub relationships: Vec<Relationship>,
    /// When the first of those memories was written, in milliseconds since the Unix epoch.
    pub first_seen: Millis,
    /// When the last of them was written, in milliseconds since the Unix epoch.
    pub last_seen: Millis,
    /// A paragraph saying who or what it is: its names, relationships and most important facts.
    pub summary: String,
    /// Who wrote the summary: `engine` (from the card) or `llm` (the host's, during
    /// consolidation, from the same facts; shown in the owner's view while the facts are
    /// still those).
    pub summary_by: CardSummaryBy,
}

string_enum! {
    /// Who wrote a card's summary.
    CardSummaryBy, "card summary_by" {
        /// The engine, from the card's names, relationships and facts.
        Engine = "engine",
        /// The host's LLM, during consolidation.
        Llm = "llm",
    }
}

/// One fact on a card.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CardFact {
    /// The memory's id.
    pub id: String,
    /// What it says.
    pub content: String,
    /// Its type.
    #[serde(rename = "type")]
    pub memory_type: MemoryType,
    /// Its importance now, 0 to 1 (all nine factors).
    pub importance: f64,
}

/// The card of the entity `req.name` names, as the caller sees it.
pub(crate) fn card(view: &View, owner: &Owner, req: &CardRequest) -> Result<Card> {
    let mut sight = Sight::of(view);
    let e = entity_named(&mut sight, owner, "name", &req.name)?;
    built(view.conn(), &mut sight, owner.as_str(), &e, view.now()?)?.map_err(|memories| {
        Error::NoCard {
            entity_id: owner.to_string(),
            name: req.name.chars().take(64).collect(),
            memories,
            needed: CARD_MIN_MEMORIES,
        }
    })
}

/// The card of `e` as `sight` sees it at `now`, or how many live memories bear on it when
/// that is too few for one.
fn built(
    conn: &Connection,
    sight: &mut Sight,
    owner: &str,
    e: &EntityRow,
    now: Millis,
) -> Result<std::result::Result<Card, usize>> {
    let live = bearing(conn, owner, e.pk)?;
    if live.len() < CARD_MIN_MEMORIES {
        return Ok(Err(live.len()));
    }
    Ok(Ok(made(conn, sight, owner, e, live, now)?))
}

/// The cards of the entities the memories `ids` name or relate (the speaker aside), most
/// named first, at most `max`; entities without enough evidence have none.
pub(crate) fn cards_of(view: &View, owner: &Owner, ids: &[&str], max: usize) -> Result<Vec<Card>> {
    if ids.is_empty() || max == 0 {
        return Ok(Vec::new());
    }
    let list = serde_json::to_string(ids).map_err(|e| Error::Internal(e.to_string()))?;
    let mut stmt = view.conn().prepare_cached(&format!(
        "WITH {BEARING} SELECT b.entity_pk FROM bearing b JOIN memories m ON m.pk = b.memory_pk \
         JOIN entities e ON e.pk = b.entity_pk \
         WHERE m.entity_id = ?1 AND m.id IN (SELECT value FROM json_each(?2)) AND e.name != ?3 \
         AND mnemo_visible(m.agent_id, m.visibility, m.team_id) \
         GROUP BY b.entity_pk ORDER BY count(*) DESC, b.entity_pk"
    ))?;
    let pks: Vec<i64> = stmt
        .query_map(params![owner.as_str(), list, SPEAKER], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut sight = Sight::of(view);
    let mut out = Vec::new();
    for pk in pks {
        if out.len() == max {
            break;
        }
        let e = graph_sql::entity(view.conn(), pk)?;
        if sight.names(&e)?.is_some() {
            let now = view.now()?;
            out.extend(built(view.conn(), &mut sight, owner.as_str(), &e, now)?.ok());
        }
    }
    Ok(out)
}

/// The live memories (active or stale, status active, not passages) that bear on entity `pk`
/// and the caller may see.
fn bearing(conn: &Connection, owner: &str, pk: i64) -> Result<Vec<Memory>> {
    let mut stmt = conn.prepare_cached(&format!(
        "WITH {BEARING} SELECT {COLUMNS} FROM memories WHERE pk IN \
         (SELECT memory_pk FROM bearing WHERE entity_pk = ?1) AND entity_id = ?2 \
         AND state IN ('ACTIVE', 'STALE') AND status = 'active' AND kind != 'passage' \
         AND mnemo_visible(agent_id, visibility, team_id) AND mnemo_existed(created_at) ORDER BY pk"
    ))?;
    let rows = stmt.query_map(rusqlite::params![pk, owner], memory_from_row)?;
    Ok(rows
        .map(|r| r.map(|(_, m)| m))
        .collect::<rusqlite::Result<_>>()?)
}

/// The card of `e` from the memories `live` that bear on it, at `now`: the summary the host's
/// LLM wrote when the caller sees the whole graph and the facts are still those it was
/// written from, else the engine's.
fn made(
    conn: &Connection,
    sight: &mut Sight,
    owner: &str,
    e: &EntityRow,
    mut live: Vec<Memory>,
    now: Millis,
) -> Result<Card> {
    let names = sight.names(e)?;
    let (name, aliases) = names.map_or((e.name.clone(), Vec::new()), |n| (n.name, n.aliases));
    let first_seen = live.iter().map(|m| m.created_at).min().unwrap_or(0);
    let last_seen = live.iter().map(|m| m.created_at).max().unwrap_or(0);
    let memories = live.len();
    importance::most_first(&mut live, now, |m| m);
    let facts: Vec<CardFact> = live
        .into_iter()
        .take(CARD_FACTS)
        .map(|m| CardFact {
            importance: importance::of(&m, now),
            id: m.id,
            content: m.content,
            memory_type: m.memory_type,
        })
        .collect();
    let mut relationships: Vec<Relationship> = sight
        .relationships(owner, Some(e.pk))?
        .into_iter()
        .map(|r| relationship(r, now))
        .collect();
    // Strongest first; of equals, those seen from the entity first.
    crate::order::sort_by(&mut relationships, |a, b| {
        b.strength
            .total_cmp(&a.strength)
            .then((a.from != name).cmp(&(b.from != name)))
    });
    // A relationship and its reverse say one thing: keep the stronger, as seen from the entity.
    let mut said = std::collections::BTreeSet::new();
    relationships.retain(|r| {
        let seen_from_here = if r.from == name {
            (r.to.clone(), Some(r.relation.as_str()))
        } else {
            (r.from.clone(), r.relation.reverse().map(|x| x.as_str()))
        };
        seen_from_here.1.is_none() || said.insert(seen_from_here)
    });
    relationships.truncate(CARD_RELATIONSHIPS);
    let mut card = Card {
        name,
        entity_type: e.kind,
        aliases,
        memories,
        facts,
        relationships,
        first_seen,
        last_seen,
        summary: String::new(),
        summary_by: CardSummaryBy::Engine,
    };
    card.summary = summary(&card);
    if !sight.is_narrowed() {
        if let Some(written) = llm_summary(conn, e.pk, &card)? {
            card.summary = written;
            card.summary_by = CardSummaryBy::Llm;
        }
    }
    Ok(card)
}

/// The engine's summary of a card: "Ana (person; also Ana Souza): works at Acme; lives in
/// Lisbon. Ana is a nurse. Ana's birthday is 3 May."
pub fn summary(card: &Card) -> String {
    let mut out = card.name.clone();
    out.push_str(" (");
    out.push_str(&card.entity_type.as_str().to_lowercase());
    if !card.aliases.is_empty() {
        out.push_str("; also ");
        out.push_str(&card.aliases.join(", "));
    }
    out.push(')');
    let said: Vec<String> = card
        .relationships
        .iter()
        .map(|r| {
            let words = r.relation.as_str().replace('_', " ");
            let who = |n: &str| {
                if n == SPEAKER {
                    "the user".to_string()
                } else {
                    n.to_string()
                }
            };
            if r.from == card.name {
                format!("{words} {}", who(&r.to))
            } else {
                format!("{} {words} {}", who(&r.from), card.name)
            }
        })
        .collect();
    if !said.is_empty() {
        out.push_str(": ");
        out.push_str(&said.join("; "));
    }
    out.push('.');
    for f in card.facts.iter().take(SUMMARY_FACTS) {
        let fact = f.content.trim();
        out.push(' ');
        out.push_str(fact);
        if !fact.ends_with(['.', '!', '?']) {
            out.push('.');
        }
    }
    out
}

/// The facts a card's summary is written from, as they read now: a hash of their ids and
/// words (a fact edited since is another source; their order does not count).
fn sources(card: &Card) -> String {
    let mut said: Vec<String> = card
        .facts
        .iter()
        .map(|f| format!("{}\n{}", f.id, f.content))
        .collect();
    crate::order::sort(&mut said);
    crate::text::content_hash(&said.join("\n\n"))
}

/// The LLM's summary of entity `pk`, if it was written from the facts `card` has now.
fn llm_summary(conn: &Connection, pk: i64, card: &Card) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT summary FROM card_summaries WHERE entity_pk = ?1 AND sources = ?2")?
        .query_row(params![pk, sources(card)], |r| r.get(0))
        .optional()?)
}

/// Up to `examine` entities after `cursor` (by key), the speaker aside, with their owners.
pub(crate) fn entities_after(
    conn: &Connection,
    cursor: i64,
    examine: usize,
) -> Result<Vec<(i64, String)>> {
    let rows = conn
        .prepare_cached(
            "SELECT pk, owner FROM entities WHERE pk > ?1 AND name != ?2 ORDER BY pk LIMIT ?3",
        )?
        .query_map(params![cursor, SPEAKER, examine as i64], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The key of the entity `name` names in `owner`'s whole graph.
pub(crate) fn entity_pk(conn: &Connection, owner: &str, name: &str) -> Result<i64> {
    let mut sight = Sight::new(conn, false);
    Ok(entity_named(&mut sight, owner, "name", name)?.pk)
}

/// The card of entity `pk` in its owner's whole view at `now`, or how many live memories
/// bear on it when that is too few for one.
pub(crate) fn owner_card(
    conn: &Connection,
    owner: &str,
    pk: i64,
    now: Millis,
) -> Result<std::result::Result<Card, usize>> {
    let e = graph_sql::entity(conn, pk)?;
    built(conn, &mut Sight::new(conn, false), owner, &e, now)
}

/// Keeps the LLM's `summary` of entity `pk`, written from the facts `card` has.
pub(crate) fn write_llm_summary(
    conn: &Connection,
    pk: i64,
    card: &Card,
    summary: &str,
    now: Millis,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO card_summaries (entity_pk, sources, summary, written_at) VALUES (?1, ?2, ?3, ?4) \
         ON CONFLICT (entity_pk) DO UPDATE SET sources = ?2, summary = ?3, written_at = ?4",
    )?
    .execute(params![pk, sources(card), summary, now])?;
    Ok(())
}
