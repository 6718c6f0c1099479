//! SQL of the knowledge graph: entities and their keys, relationships with their evidence,
//! and which memories name which entities.

use rusqlite::{params, params_from_iter, Connection, OptionalExtension, Row};

use super::{EntityType, Relation};
use crate::clock::Millis;
use crate::error::Result;
use crate::store::parse;
use crate::store::viewer::VISIBLE;

/// An entity row.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityRow {
    pub pk: i64,
    pub name: String,
    pub kind: EntityType,
    pub mentions: i64,
    pub first_seen: Millis,
    pub last_seen: Millis,
}

/// A relationship row, with its ends' names.
#[derive(Debug, Clone, PartialEq)]
pub struct RelationRow {
    pub pk: i64,
    pub from_pk: i64,
    pub from: String,
    pub relation: Relation,
    pub to_pk: i64,
    pub to: String,
    pub inferred: bool,
    pub evidence: i64,
    pub confidence_sum: f64,
    pub first_seen: Millis,
    pub last_seen: Millis,
}

const ENTITY_COLUMNS: &str = "pk, name, type, mentions, first_seen, last_seen";

/// An entity row from [`ENTITY_COLUMNS`] (or columns in their order).
pub(super) fn entity_row(r: &Row) -> rusqlite::Result<EntityRow> {
    Ok(EntityRow {
        pk: r.get(0)?,
        name: r.get(1)?,
        kind: parse(r, 2)?,
        mentions: r.get(3)?,
        first_seen: r.get(4)?,
        last_seen: r.get(5)?,
    })
}

const RELATION_SELECT: &str =
    "SELECT r.pk, r.from_pk, f.name, r.relation, r.to_pk, t.name, r.inferred, \
    r.evidence, r.confidence_sum, r.first_seen, r.last_seen \
    FROM relationships r JOIN entities f ON f.pk = r.from_pk JOIN entities t ON t.pk = r.to_pk";

fn relation_row(r: &Row) -> rusqlite::Result<RelationRow> {
    Ok(RelationRow {
        pk: r.get(0)?,
        from_pk: r.get(1)?,
        from: r.get(2)?,
        relation: parse(r, 3)?,
        to_pk: r.get(4)?,
        to: r.get(5)?,
        inferred: r.get(6)?,
        evidence: r.get(7)?,
        confidence_sum: r.get(8)?,
        first_seen: r.get(9)?,
        last_seen: r.get(10)?,
    })
}

/// The entity a key (or alias key) names.
pub fn by_key(conn: &Connection, owner: &str, key: &str) -> Result<Option<EntityRow>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {ENTITY_COLUMNS} FROM entities WHERE pk = \
             (SELECT entity_pk FROM entity_keys WHERE owner = ?1 AND key = ?2)"
        ))?
        .query_row(params![owner, key], entity_row)
        .optional()?)
}

/// An entity by its row key.
pub fn entity(conn: &Connection, pk: i64) -> Result<EntityRow> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {ENTITY_COLUMNS} FROM entities WHERE pk = ?1"
        ))?
        .query_row(params![pk], entity_row)?)
}

/// Entities of `kind` with a key that is `word` or starts with `word ` (for alias merging:
/// "ana" ↔ "ana souza").
pub fn by_first_word(
    conn: &Connection,
    owner: &str,
    word: &str,
    kind: EntityType,
) -> Result<Vec<EntityRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT DISTINCT {ENTITY_COLUMNS} FROM entities WHERE owner = ?1 AND type = ?3 AND pk IN \
         (SELECT entity_pk FROM entity_keys WHERE owner = ?1 AND (key = ?2 OR substr(key, 1, length(?2) + 1) = ?2 || ' ')) \
         ORDER BY pk"
    ))?;
    let rows = stmt.query_map(params![owner, word, kind.as_str()], entity_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Creates an entity; returns its key.
pub fn insert_entity(
    conn: &Connection,
    owner: &str,
    name: &str,
    kind: EntityType,
    now: Millis,
) -> Result<i64> {
    conn.prepare_cached(
        "INSERT INTO entities (owner, name, type, mentions, first_seen, last_seen) VALUES (?1, ?2, ?3, 0, ?4, ?4)",
    )?
    .execute(params![owner, name, kind.as_str(), now])?;
    Ok(conn.last_insert_rowid())
}

/// Makes `key` (spelt `name`) find entity `pk`; a key already taken keeps its entity.
pub fn add_key(conn: &Connection, owner: &str, key: &str, name: &str, pk: i64) -> Result<()> {
    conn.prepare_cached(
        "INSERT OR IGNORE INTO entity_keys (owner, key, entity_pk, name) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![owner, key, pk, name])?;
    Ok(())
}

/// Gives entity `pk` a new name (its keys stay).
pub fn rename(conn: &Connection, pk: i64, name: &str) -> Result<()> {
    conn.prepare_cached("UPDATE entities SET name = ?2 WHERE pk = ?1")?
        .execute(params![pk, name])?;
    Ok(())
}

/// Counts a mention of entity `pk` at `now`, renaming it when `name` is given.
pub fn mention(conn: &Connection, pk: i64, now: Millis, name: Option<&str>) -> Result<()> {
    conn.prepare_cached(
        "UPDATE entities SET mentions = mentions + 1, last_seen = max(last_seen, ?2), name = coalesce(?3, name) WHERE pk = ?1",
    )?
    .execute(params![pk, now, name])?;
    Ok(())
}

/// Records that memory `memory_pk` names entity `entity_pk`; false when it was known.
pub fn link_memory(conn: &Connection, memory_pk: i64, entity_pk: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached(
            "INSERT OR IGNORE INTO memory_entities (memory_pk, entity_pk) VALUES (?1, ?2)",
        )?
        .execute(params![memory_pk, entity_pk])?
        > 0)
}

/// The relationship `from relation to` (created when new); returns its key.
pub fn relationship(
    conn: &Connection,
    owner: &str,
    from: i64,
    relation: Relation,
    to: i64,
    inferred: bool,
    now: Millis,
) -> Result<i64> {
    conn.prepare_cached(
        "INSERT INTO relationships (owner, from_pk, relation, to_pk, inferred, evidence, confidence_sum, first_seen, last_seen) \
         VALUES (?1, ?2, ?3, ?4, ?5, 0, 0, ?6, ?6) ON CONFLICT (owner, from_pk, relation, to_pk) DO UPDATE SET \
         inferred = inferred AND excluded.inferred",
    )?
    .execute(params![owner, from, relation.as_str(), to, inferred, now])?;
    Ok(conn
        .prepare_cached("SELECT pk FROM relationships WHERE owner = ?1 AND from_pk = ?2 AND relation = ?3 AND to_pk = ?4")?
        .query_row(params![owner, from, relation.as_str(), to], |r| r.get(0))?)
}

/// Adds memory `memory_pk` as evidence of relationship `pk` (once per memory).
pub fn add_evidence(
    conn: &Connection,
    pk: i64,
    memory_pk: i64,
    confidence: f64,
    now: Millis,
) -> Result<()> {
    let added = conn
        .prepare_cached(
            "INSERT OR IGNORE INTO relationship_evidence (relationship_pk, memory_pk, confidence, seen_at) VALUES (?1, ?2, ?3, ?4)",
        )?
        .execute(params![pk, memory_pk, confidence, now])?;
    if added > 0 {
        conn.prepare_cached(
            "UPDATE relationships SET evidence = evidence + 1, confidence_sum = confidence_sum + ?2, \
             last_seen = max(last_seen, ?3) WHERE pk = ?1",
        )?
        .execute(params![pk, confidence, now])?;
    }
    Ok(())
}

/// An owner's entities, most mentioned first, filtered by type and by a substring of any of
/// their names.
pub fn entities(
    conn: &Connection,
    owner: &str,
    kinds: &[EntityType],
    name_like: Option<&str>,
    limit: usize,
    offset: usize,
) -> Result<Vec<EntityRow>> {
    let mut sql = format!("SELECT {ENTITY_COLUMNS} FROM entities e WHERE owner = ?1");
    let mut args: Vec<rusqlite::types::Value> = vec![owner.to_string().into()];
    if !kinds.is_empty() {
        sql += &format!(" AND type IN ({})", vec!["?"; kinds.len()].join(","));
        args.extend(kinds.iter().map(|k| k.as_str().to_string().into()));
    }
    if let Some(q) = name_like {
        sql += " AND EXISTS (SELECT 1 FROM entity_keys k WHERE k.entity_pk = e.pk AND instr(k.key, ?) > 0)";
        args.push(q.to_string().into());
    }
    sql += " ORDER BY mentions DESC, pk LIMIT ? OFFSET ?";
    args.push((limit as i64).into());
    args.push((offset as i64).into());
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(params_from_iter(args), entity_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The other names an entity is known by.
pub fn aliases(conn: &Connection, pk: i64) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT k.name FROM entity_keys k JOIN entities e ON e.pk = k.entity_pk \
         WHERE k.entity_pk = ?1 AND lower(k.name) != lower(e.name) ORDER BY k.key",
    )?;
    let rows = stmt.query_map(params![pk], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// An owner's relationships, or those touching entity `pk`.
pub fn relationships(conn: &Connection, owner: &str, pk: Option<i64>) -> Result<Vec<RelationRow>> {
    let sql = match pk {
        Some(_) => format!("{RELATION_SELECT} WHERE r.owner = ?1 AND (r.from_pk = ?2 OR r.to_pk = ?2) ORDER BY r.pk"),
        None => format!("{RELATION_SELECT} WHERE r.owner = ?1 AND ?2 IS NULL ORDER BY r.pk"),
    };
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![owner, pk], relation_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Memories (keys) of an owner that name any of the entities.
pub fn memories_naming(conn: &Connection, entity_pks: &[i64]) -> Result<Vec<i64>> {
    if entity_pks.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT DISTINCT memory_pk FROM memory_entities WHERE entity_pk IN ({}) ORDER BY memory_pk",
        vec!["?"; entity_pks.len()].join(",")
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(params_from_iter(entity_pks), |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The keys of the entities memory `pk` names.
pub fn entities_named_by(conn: &Connection, memory_pk: i64) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT entity_pk FROM memory_entities WHERE memory_pk = ?1 ORDER BY entity_pk",
    )?;
    let rows = stmt.query_map([memory_pk], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Other memories naming an entity memory `pk` names: the newest `limit` (by key).
pub fn naming_the_same(conn: &Connection, memory_pk: i64, limit: usize) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT o.memory_pk FROM memory_entities m \
         JOIN memory_entities o ON o.entity_pk = m.entity_pk AND o.memory_pk != m.memory_pk \
         WHERE m.memory_pk = ?1 ORDER BY 1 DESC LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![memory_pk, limit as i64], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The entities the entity keyed `key` is related to by `relation`, as its subject
/// (`outward`: key → other) or its object (other → key) as stated (not the reverse a
/// symmetric relation implies: "Ana's husband Tom" makes Tom no one's husband but Ana's), by
/// a statement the caller may see
/// that says `word` (lower case, at the start of a word; any statement when empty): their
/// names, newest statement first, at most `limit`.
pub fn related(
    conn: &Connection,
    owner: &str,
    key: &str,
    relation: Relation,
    outward: bool,
    word: &str,
    limit: usize,
) -> Result<Vec<String>> {
    let (this, other) = if outward {
        ("from_pk", "to_pk")
    } else {
        ("to_pk", "from_pk")
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT o.name FROM relationships r JOIN entities o ON o.pk = r.{other} \
         JOIN relationship_evidence v ON v.relationship_pk = r.pk JOIN memories m ON m.pk = v.memory_pk \
         WHERE r.owner = ?1 AND r.relation = ?2 AND NOT r.inferred AND r.{this} = \
         (SELECT entity_pk FROM entity_keys WHERE owner = ?1 AND key = ?3) \
         AND m.entity_id = ?1 AND {VISIBLE} AND mnemo_existed(m.created_at) \
         AND (?4 = '' OR instr(' ' || lower(m.content), ' ' || ?4) > 0) \
         GROUP BY o.pk ORDER BY max(v.memory_pk) DESC LIMIT ?5"
    ))?;
    let rows = stmt.query_map(
        params![owner, relation.as_str(), key, word, limit as i64],
        |r| r.get(0),
    )?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Memories (newest first, at most 20) that stated `relation` with subject key `from_key`.
pub fn stating(
    conn: &Connection,
    owner: &str,
    from_key: &str,
    relation: Relation,
) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(
        "SELECT DISTINCT v.memory_pk FROM relationship_evidence v JOIN relationships r ON r.pk = v.relationship_pk \
         WHERE r.owner = ?1 AND r.relation = ?2 AND NOT r.inferred AND r.from_pk = \
         (SELECT entity_pk FROM entity_keys WHERE owner = ?1 AND key = ?3) ORDER BY v.memory_pk DESC LIMIT 20",
    )?;
    let rows = stmt.query_map(params![owner, relation.as_str(), from_key], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
