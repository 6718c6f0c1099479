//! What of the graph a caller sees. The owner's view is the whole graph as stored. An agent's
//! view is what the memories it may see say: an entity only if such a memory names it, a
//! relationship only if such a memory states it, their counts, confidence and dates from
//! those memories alone, and of an entity's names only those such a memory contains — so
//! another agent's private "Ana Souza" does not surface as the full name of this agent's "Ana".

use rusqlite::{params, Connection};

use super::sql::{self, EntityRow, RelationRow};
use super::{key, EntityMention, RelationMention, SPEAKER};
use crate::error::Result;
use crate::order::Keyed;
use crate::store::{parse, View};

/// The names of an entity a caller knows: the one to show and the others.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Names {
    /// The name to show: the entity's own when known, else the first known alias.
    pub name: String,
    /// The other known names.
    pub aliases: Vec<String>,
    /// The keys of every known name.
    keys: Vec<String>,
}

impl Names {
    /// Whether `k` is the key of a name the caller knows.
    pub fn knows(&self, k: &str) -> bool {
        self.keys.iter().any(|x| x == k)
    }

    /// Whether the key of a known name contains `q`.
    pub fn matches(&self, q: &str) -> bool {
        self.keys.iter().any(|k| k.contains(q))
    }
}

/// One call's sight of an owner's graph, remembering the names it has worked out.
pub(crate) struct Sight<'c> {
    conn: &'c Connection,
    narrowed: bool,
    names: Keyed<i64, Option<Names>>,
}

/// Whether lower-cased `text` says `name` (a key) as words of its own: "ana" in "Ana called",
/// not in "banana".
fn says(text: &str, name: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    text.match_indices(name).any(|(at, _)| {
        !word(text[..at].chars().next_back()) && !word(text[at + name.len()..].chars().next())
    })
}

/// Rows of memories a narrowed caller may see, joined as `m`.
const SEEN: &str = "m.state != 'DELETED' AND mnemo_visible(m.agent_id, m.visibility, m.team_id)";

/// Which memories bear on which entity: those naming it, and those stating a relationship
/// from or to it (the speaker is named by none, only related).
pub(super) const BEARING: &str = "bearing(entity_pk, memory_pk) AS (\
    SELECT entity_pk, memory_pk FROM memory_entities \
    UNION SELECT r.from_pk, v.memory_pk FROM relationship_evidence v JOIN relationships r ON r.pk = v.relationship_pk \
    UNION SELECT r.to_pk, v.memory_pk FROM relationship_evidence v JOIN relationships r ON r.pk = v.relationship_pk)";

impl<'c> Sight<'c> {
    /// The sight of the call `view` serves.
    pub fn of(view: &'c View) -> Sight<'c> {
        Sight::new(view.conn(), view.viewer().is_narrowed())
    }

    /// The whole graph when not `narrowed`, else what the visible memories say.
    pub fn new(conn: &'c Connection, narrowed: bool) -> Sight<'c> {
        Sight {
            conn,
            narrowed,
            names: Keyed::new(),
        }
    }

    /// Whether the caller sees only part of the graph.
    pub fn is_narrowed(&self) -> bool {
        self.narrowed
    }

    /// The names of entity `e` the caller knows; `None` when it sees no memory naming it.
    pub fn names(&mut self, e: &EntityRow) -> Result<Option<Names>> {
        if let Some(n) = self.names.get(&e.pk) {
            return Ok(n.clone());
        }
        let n = if self.narrowed {
            self.known(e)?
        } else {
            Some(Names {
                name: e.name.clone(),
                aliases: sql::aliases(self.conn, e.pk)?,
                keys: Vec::new(),
            })
        };
        self.names.insert(e.pk, n.clone());
        Ok(n)
    }

    /// The name of entity `pk` to show (its stored name in the owner's view).
    pub fn name_of(&mut self, pk: i64) -> Result<Option<String>> {
        let e = sql::entity(self.conn, pk)?;
        Ok(self.names(&e)?.map(|n| n.name))
    }

    /// The names of `e` that a memory the caller may see contains (the speaker is always
    /// known by its name); `None` when no such memory names or relates it. A visible memory that names
    /// the entity by none of its stored names (a host extractor's choice) shows its name.
    fn known(&mut self, e: &EntityRow) -> Result<Option<Names>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "WITH {BEARING} SELECT m.content FROM bearing b JOIN memories m ON m.pk = b.memory_pk \
             WHERE b.entity_pk = ?1 AND {SEEN}"
        ))?;
        let texts: Vec<String> = stmt
            .query_map([e.pk], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if texts.is_empty() {
            return Ok(None);
        }
        let texts: Vec<String> = texts.iter().map(|t| t.to_lowercase()).collect();
        let mut stmt = self.conn.prepare_cached(
            "SELECT key, name FROM entity_keys WHERE entity_pk = ?1 ORDER BY key",
        )?;
        let all: Vec<(String, String)> = stmt
            .query_map([e.pk], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
        let own = key(&e.name);
        let known: Vec<(String, String)> = all
            .into_iter()
            .filter(|(k, _)| k == SPEAKER || texts.iter().any(|t| says(t, k)))
            .collect();
        let name = match known.iter().find(|(k, _)| *k == own) {
            Some(_) => e.name.clone(),
            None => match known.first() {
                Some((_, n)) => n.clone(),
                None => {
                    return Ok(Some(Names {
                        name: e.name.clone(),
                        aliases: Vec::new(),
                        keys: vec![own],
                    }))
                }
            },
        };
        let aliases = known
            .iter()
            .filter(|(_, n)| n.to_lowercase() != name.to_lowercase())
            .map(|(_, n)| n.clone())
            .collect();
        Ok(Some(Names {
            name,
            aliases,
            keys: known.into_iter().map(|(k, _)| k).collect(),
        }))
    }

    /// The owner's relationships (or those touching entity `pk`) the caller sees, in the order
    /// first stated, their ends named as the caller knows them; in a narrowed view their
    /// evidence, confidence and dates are those of the visible statements.
    pub fn relationships(&mut self, owner: &str, pk: Option<i64>) -> Result<Vec<RelationRow>> {
        let rows = sql::relationships(self.conn, owner, pk)?;
        if !self.narrowed {
            return Ok(rows);
        }
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let (evidence, sum, first, last): (i64, Option<f64>, Option<i64>, Option<i64>) = self
                .conn
                .prepare_cached(&format!(
                    "SELECT count(*), sum(v.confidence), min(v.seen_at), max(v.seen_at) \
                     FROM relationship_evidence v JOIN memories m ON m.pk = v.memory_pk \
                     WHERE v.relationship_pk = ?1 AND {SEEN}"
                ))?
                .query_row(params![r.pk], |x| {
                    Ok((x.get(0)?, x.get(1)?, x.get(2)?, x.get(3)?))
                })?;
            let (Some(first_seen), Some(last_seen)) = (first, last) else {
                continue;
            };
            let (Some(from), Some(to)) = (self.name_of(r.from_pk)?, self.name_of(r.to_pk)?) else {
                continue;
            };
            out.push(RelationRow {
                from,
                to,
                evidence,
                confidence_sum: sum.unwrap_or(0.0),
                first_seen,
                last_seen,
                ..r
            });
        }
        Ok(out)
    }

    /// The entity a key stands for, if the caller knows it by that key.
    pub fn by_key(&mut self, owner: &str, k: &str) -> Result<Option<EntityRow>> {
        let Some(e) = sql::by_key(self.conn, owner, k)? else {
            return Ok(None);
        };
        if !self.narrowed {
            return Ok(Some(e));
        }
        Ok(match self.names(&e)? {
            Some(n) if n.knows(k) => Some(EntityRow { name: n.name, ..e }),
            _ => None,
        })
    }

    /// Entity rows of an owner, any type in `kinds` (all when empty), most mentioned first: in
    /// a narrowed view, those a visible memory names or relates, counted from those memories.
    pub fn entities(&mut self, owner: &str, kinds: &[super::EntityType]) -> Result<Vec<EntityRow>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "WITH {BEARING} SELECT e.pk, e.name, e.type, count(*), min(m.created_at), max(m.created_at) \
             FROM entities e JOIN bearing b ON b.entity_pk = e.pk \
             JOIN memories m ON m.pk = b.memory_pk WHERE e.owner = ?1 AND {SEEN} \
             GROUP BY e.pk ORDER BY 4 DESC, e.pk"
        ))?;
        let rows: Vec<EntityRow> = stmt
            .query_map([owner], sql::entity_row)?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows
            .into_iter()
            .filter(|e| kinds.is_empty() || kinds.contains(&e.kind))
            .collect())
    }

    /// What one memory contributed to the graph: the entities it names and the relationships
    /// it stated (not the inferred reverses), as an extractor would give them, named as the
    /// caller knows them.
    pub fn memory_graph(
        &mut self,
        memory_pk: i64,
    ) -> Result<(Vec<EntityMention>, Vec<RelationMention>)> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT e.pk FROM memory_entities m JOIN entities e ON e.pk = m.entity_pk \
             WHERE m.memory_pk = ?1 ORDER BY e.pk",
        )?;
        let named: Vec<i64> = stmt
            .query_map(params![memory_pk], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut entities = Vec::with_capacity(named.len());
        for pk in named {
            let e = sql::entity(self.conn, pk)?;
            if let Some(n) = self.names(&e)? {
                entities.push(EntityMention {
                    name: n.name,
                    entity_type: e.kind,
                    aliases: n.aliases,
                });
            }
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT r.from_pk, r.relation, r.to_pk, v.confidence FROM relationship_evidence v \
             JOIN relationships r ON r.pk = v.relationship_pk \
             WHERE v.memory_pk = ?1 AND NOT r.inferred ORDER BY r.pk",
        )?;
        let stated: Vec<(i64, super::Relation, i64, f64)> = stmt
            .query_map(params![memory_pk], |r| {
                Ok((r.get(0)?, parse(r, 1)?, r.get(2)?, r.get(3)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        let mut relations = Vec::with_capacity(stated.len());
        for (from, relation, to, confidence) in stated {
            if let (Some(from), Some(to)) = (self.name_of(from)?, self.name_of(to)?) {
                relations.push(RelationMention {
                    from,
                    relation,
                    to,
                    confidence,
                });
            }
        }
        Ok((entities, relations))
    }
}

#[cfg(test)]
mod tests {
    use super::says;

    #[test]
    fn a_name_is_said_only_as_words_of_its_own() {
        assert!(says("ana called about the picnic", "ana"));
        assert!(says("my sister ana souza lives in lisbon.", "ana souza"));
        assert!(says("we met ana.", "ana") && says("(ana)", "ana"));
        assert!(!says("a banana and havana", "ana"));
        assert!(!says("anastasia", "ana"));
        assert!(says("zoë's cat", "zoë") && !says("zoëlle", "zoë"));
    }
}
