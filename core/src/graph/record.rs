//! Writing what an extractor found into the graph: each entity resolved to an existing one by
//! key or alias (a person's first name and full name merge), each relationship counted once
//! per memory that states it, with the reverse a bidirectional relation implies.

use rusqlite::Connection;

use super::sql;
use super::{key, name_key, EntityMention, EntityType, RelationMention, MAX_NAME_CHARS, SPEAKER};
use crate::clock::Millis;
use crate::error::{Error, Result};
use crate::field::Unit;
use crate::store::Tx;

/// Most entities or relationships one memory may carry.
pub(crate) const MAX_PER_MEMORY: usize = 64;

/// Checks a host extractor's entities and relationships before anything is written.
pub(crate) fn check(entities: &[EntityMention], relations: &[RelationMention]) -> Result<()> {
    if entities.len() > MAX_PER_MEMORY || relations.len() > MAX_PER_MEMORY {
        return Err(Error::invalid(
            "entities",
            format!(
                "at most {MAX_PER_MEMORY} entities and {MAX_PER_MEMORY} relationships per memory"
            ),
        ));
    }
    let name = |field: &str, n: &str| {
        if name_key(n).is_none() {
            Err(Error::invalid(
                field,
                format!(
                    "{:?} is not a name (1–{MAX_NAME_CHARS} characters with a letter or digit)",
                    n.chars().take(40).collect::<String>()
                ),
            ))
        } else {
            Ok(())
        }
    };
    for e in entities {
        name("entities.name", &e.name)?;
        if e.aliases.len() > MAX_PER_MEMORY {
            return Err(Error::invalid(
                "entities.aliases",
                format!("at most {MAX_PER_MEMORY} per entity"),
            ));
        }
        for a in &e.aliases {
            name("entities.aliases", a)?;
        }
    }
    for r in relations {
        name("relationships.from", &r.from)?;
        name("relationships.to", &r.to)?;
        Unit::parse("relationships.confidence", r.confidence)?;
    }
    Ok(())
}

/// The entity `name` of `kind` for `owner`, found or created; `None` for a name without a key.
fn resolve(
    conn: &Connection,
    owner: &str,
    name: &str,
    kind: EntityType,
    now: Millis,
) -> Result<Option<i64>> {
    let k = key(name);
    if k.is_empty() {
        return Ok(None);
    }
    if let Some(e) = sql::by_key(conn, owner, &k)? {
        return Ok(Some(e.pk));
    }
    if kind == EntityType::Person && k != SPEAKER {
        let first = k.split(' ').next().unwrap_or(&k);
        let others = sql::by_first_word(conn, owner, first, kind)?;
        let multi = k.contains(' ');
        // "Ana Souza" after "Ana": the same person, now with a full name; "Ana" after one
        // "Ana Souza": the same person by first name. Two "Ana …" make "Ana" ambiguous.
        let same: Vec<_> = others
            .iter()
            .filter(|e| {
                let ek = key(&e.name);
                if multi {
                    ek == first
                } else {
                    ek.starts_with(&format!("{first} "))
                }
            })
            .collect();
        if let [e] = same.as_slice() {
            sql::add_key(conn, owner, &k, name, e.pk)?;
            if multi {
                // The full name becomes the entity's name; its first name stays an alias.
                sql::add_key(conn, owner, &key(&e.name), &e.name, e.pk)?;
                sql::rename(conn, e.pk, name)?;
            }
            return Ok(Some(e.pk));
        }
    }
    let pk = sql::insert_entity(conn, owner, name, kind, now)?;
    sql::add_key(conn, owner, &k, name, pk)?;
    Ok(Some(pk))
}

/// Records memory `memory_pk`'s entities and relationships for `owner`, as said at `now`.
pub(crate) fn record(
    tx: &Tx,
    owner: &str,
    memory_pk: i64,
    entities: &[EntityMention],
    relations: &[RelationMention],
    now: Millis,
) -> Result<()> {
    let conn = tx.conn();
    let kind_of = |name: &str| {
        if key(name) == SPEAKER {
            return EntityType::Person;
        }
        entities
            .iter()
            .find(|e| key(&e.name) == key(name))
            .map_or(EntityType::Other, |e| e.entity_type)
    };
    let mut seen = Vec::new();
    let mention = |pk: i64, seen: &mut Vec<i64>| -> Result<()> {
        if !seen.contains(&pk) {
            seen.push(pk);
            // A memory said again names its entities once.
            if sql::link_memory(conn, memory_pk, pk)? {
                sql::mention(conn, pk, now, None)?;
            }
        }
        Ok(())
    };
    for e in entities {
        if let Some(pk) = resolve(conn, owner, &e.name, e.entity_type, now)? {
            for a in &e.aliases {
                sql::add_key(conn, owner, &key(a), a, pk)?;
            }
            mention(pk, &mut seen)?;
        }
    }
    for r in relations {
        let (Some(from), Some(to)) = (
            resolve(conn, owner, &r.from, kind_of(&r.from), now)?,
            resolve(conn, owner, &r.to, kind_of(&r.to), now)?,
        ) else {
            continue;
        };
        if from == to {
            continue;
        }
        for (end, name) in [(from, &r.from), (to, &r.to)] {
            // Every memory is about its owner: the speaker is not linked to each one.
            if key(name) != SPEAKER {
                mention(end, &mut seen)?;
            }
        }
        let pk = sql::relationship(conn, owner, from, r.relation, to, false, now)?;
        sql::add_evidence(conn, pk, memory_pk, r.confidence, now)?;
        if let Some(back) = r.relation.reverse() {
            let pk = sql::relationship(conn, owner, to, back, from, true, now)?;
            sql::add_evidence(conn, pk, memory_pk, r.confidence, now)?;
        }
    }
    Ok(())
}
