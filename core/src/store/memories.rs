//! SQL of memory rows: the memories table, their vectors, the FTS5 index kept in step by
//! triggers, and status history.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::LazyLock;

use super::viewer::VISIBLE;
use rusqlite::types::Value;
use rusqlite::{params, params_from_iter, Connection, OptionalExtension, Row};

use crate::clock::{Millis, Window};
use crate::embed::{quantise, Precision};
use crate::error::{Error, Result};
use crate::model::*;
use crate::order::CollectOrdered;
use crate::text;

use super::{json_list, parse};

/// Columns of a memory row, in the order [`memory_from_row`] reads them.
pub(crate) const COLUMNS: &str = "pk, id, entity_id, agent_id, session_id, team_id, visibility, content, content_hash, \
    type, kind, layer, state, status, tier, importance, confidence, sentiment, source, trust, access_count, \
    last_accessed_at, feedback, pinned, manual_tags, auto_tags, expires_at, cron_tag, source_ref, surprise, \
    merged_into, created_at, updated_at, state_changed_at, deleted_at, layer_set_at, confirmations";
/// How many [`COLUMNS`] there are: a query's own columns after them start at this index.
const COLUMN_COUNT: usize = 37;

/// The statement [`insert`] runs (written once: the cache looks statements up by their text).
static INSERT: LazyLock<String> = LazyLock::new(|| {
    let values: Vec<String> = (1..=COLUMN_COUNT).map(|i| format!("?{i}")).collect();
    format!(
        "INSERT INTO memories ({COLUMNS}, due_at) VALUES (NULL, {})",
        values.join(", ")
    )
});

/// The statement [`lookup`] runs, as [`INSERT`].
static BY_PK: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {COLUMNS} FROM memories WHERE pk = ?1"));

/// A memory row and its primary key.
pub(crate) fn memory_from_row(r: &Row) -> rusqlite::Result<(i64, Memory)> {
    Ok((
        r.get(0)?,
        Memory {
            id: r.get(1)?,
            entity_id: r.get(2)?,
            agent_id: r.get(3)?,
            session_id: r.get(4)?,
            team_id: r.get(5)?,
            visibility: parse(r, 6)?,
            content: r.get(7)?,
            content_hash: r.get(8)?,
            memory_type: parse(r, 9)?,
            kind: parse(r, 10)?,
            layer: parse(r, 11)?,
            state: parse(r, 12)?,
            status: parse(r, 13)?,
            tier: parse(r, 14)?,
            importance: r.get(15)?,
            confidence: r.get(16)?,
            sentiment: r.get(17)?,
            source: parse(r, 18)?,
            trust: r.get(19)?,
            access_count: r.get(20)?,
            last_accessed_at: r.get(21)?,
            feedback: r.get(22)?,
            pinned: r.get(23)?,
            manual_tags: json_list(r, 24)?,
            auto_tags: json_list(r, 25)?,
            expires_at: r.get(26)?,
            cron_tag: r.get(27)?,
            source_ref: r.get(28)?,
            surprise: r.get(29)?,
            merged_into: r.get(30)?,
            created_at: r.get(31)?,
            updated_at: r.get(32)?,
            state_changed_at: r.get(33)?,
            deleted_at: r.get(34)?,
            layer_set_at: r.get(35)?,
            confirmations: r.get(36)?,
        },
    ))
}

fn json(tags: &[String]) -> String {
    serde_json::to_string(tags).unwrap_or_else(|_| "[]".into())
}

/// The owner as one FTS token ('o' + hex of its bytes), as the FTS triggers write it.
pub(crate) fn owner_token(owner: &str) -> String {
    format!(
        "o{}",
        crate::text::hex(owner.as_bytes()).to_ascii_uppercase()
    )
}

/// Inserts a memory and its vector (the FTS row follows by trigger); returns its key.
pub fn insert(
    conn: &Connection,
    m: &Memory,
    embedding: Option<&[f32]>,
    due_at: Option<Millis>,
) -> Result<i64> {
    conn.prepare_cached(&INSERT)?.execute(params![
        m.id,
        m.entity_id,
        m.agent_id,
        m.session_id,
        m.team_id,
        m.visibility.as_str(),
        m.content,
        m.content_hash,
        m.memory_type.as_str(),
        m.kind.as_str(),
        m.layer.as_str(),
        m.state.as_str(),
        m.status.as_str(),
        m.tier.as_str(),
        m.importance,
        m.confidence,
        m.sentiment,
        m.source.as_str(),
        m.trust,
        m.access_count,
        m.last_accessed_at,
        m.feedback,
        m.pinned,
        json(&m.manual_tags),
        json(&m.auto_tags),
        m.expires_at,
        m.cron_tag,
        m.source_ref,
        m.surprise,
        m.merged_into,
        m.created_at,
        m.updated_at,
        m.state_changed_at,
        m.deleted_at,
        m.layer_set_at,
        m.confirmations,
        due_at,
    ])?;
    let pk = conn.last_insert_rowid();
    if let Some(v) = embedding {
        set_embedding(conn, pk, v, Precision::F32)?;
    }
    Ok(pk)
}

/// Writes the text-index rows of the memories `pks` that a search can find (active, not
/// deleted): their words, tags, owner and flags, as the update trigger rewrites them. A
/// memory is inserted without one; [`crate::store::Tx`] writes it at once, or for a whole
/// batch at its end.
pub fn index_text(conn: &Connection, pks: &[i64]) -> Result<()> {
    if pks.is_empty() {
        return Ok(());
    }
    let list = format!(
        "[{}]",
        pks.iter().map(i64::to_string).collect::<Vec<_>>().join(",")
    );
    conn.prepare_cached(
        "INSERT INTO memories_fts (rowid, content, tags, owner, flags) SELECT \
         pk, content, \
         trim(coalesce((SELECT group_concat(value, ' ') FROM json_each(manual_tags)), '') || ' ' || \
              coalesce((SELECT group_concat(value, ' ') FROM json_each(auto_tags)), '')), \
         'o' || hex(entity_id), \
         trim(CASE state WHEN 'ARCHIVED' THEN 'archived' ELSE '' END || ' ' || \
              CASE WHEN tier = 'archive' OR state = 'ARCHIVED' THEN 'cold' ELSE '' END) \
         FROM memories WHERE pk IN (SELECT value FROM json_each(?1)) \
         AND status = 'active' AND state != 'DELETED'",
    )?
    .execute([list])?;
    Ok(())
}

/// Rewrites every field of a stored memory (the FTS row follows by trigger when its text,
/// tags, archived flag or searchability changed).
pub fn update(conn: &Connection, pk: i64, m: &Memory, due_at: Option<Millis>) -> Result<()> {
    conn.prepare_cached(
        "UPDATE memories SET agent_id=?2, session_id=?3, team_id=?4, visibility=?5, content=?6, content_hash=?7, \
         type=?8, kind=?9, layer=?10, state=?11, status=?12, tier=?13, importance=?14, confidence=?15, sentiment=?16, \
         source=?17, trust=?18, access_count=?19, last_accessed_at=?20, feedback=?21, pinned=?22, manual_tags=?23, \
         auto_tags=?24, expires_at=?25, cron_tag=?26, source_ref=?27, surprise=?28, merged_into=?29, updated_at=?30, \
         state_changed_at=?31, deleted_at=?32, due_at=?33, layer_set_at=?34, confirmations=?35 WHERE pk=?1",
    )?
    .execute(params![
        pk, m.agent_id, m.session_id, m.team_id, m.visibility.as_str(), m.content, m.content_hash,
        m.memory_type.as_str(), m.kind.as_str(), m.layer.as_str(), m.state.as_str(), m.status.as_str(), m.tier.as_str(),
        m.importance, m.confidence, m.sentiment, m.source.as_str(), m.trust, m.access_count, m.last_accessed_at,
        m.feedback, m.pinned, json(&m.manual_tags), json(&m.auto_tags), m.expires_at, m.cron_tag, m.source_ref,
        m.surprise, m.merged_into, m.updated_at, m.state_changed_at, m.deleted_at, due_at,
        m.layer_set_at, m.confirmations,
    ])?;
    Ok(())
}

/// Writes back what an access changes ([`crate::decay::access`], then its settling): the
/// count, the last access, the state, layer and tier, and when maintenance is next due. A
/// full [`update`] sets every column, and so rewrites the entry of every index on the table.
pub fn update_access(conn: &Connection, pk: i64, m: &Memory, due_at: Option<Millis>) -> Result<()> {
    conn.prepare_cached(
        "UPDATE memories SET access_count=?2, last_accessed_at=?3, state=?4, state_changed_at=?5, \
         layer=?6, tier=?7, due_at=?8 WHERE pk=?1",
    )?
    .execute(params![
        pk,
        m.access_count,
        m.last_accessed_at,
        m.state.as_str(),
        m.state_changed_at,
        m.layer.as_str(),
        m.tier.as_str(),
        due_at,
    ])?;
    Ok(())
}

/// Raises the tier of the other passages of the document passage `pk` is in to `tier`, where
/// theirs is colder (a document is tiered as one memory); returns each raised row's key and
/// whether it is still cold (ARCHIVED). Nothing for a memory that is not a passage.
pub fn raise_document_tier(conn: &Connection, pk: i64, tier: Tier) -> Result<Vec<(i64, bool)>> {
    let rank = |t: &str| format!("(CASE {t} WHEN 'hot' THEN 0 WHEN 'warm' THEN 1 ELSE 2 END)");
    let mut stmt = conn.prepare_cached(&format!(
        "UPDATE memories SET tier = ?2 WHERE pk IN (SELECT o.memory_pk FROM passages p \
         JOIN passages o ON o.document_pk = p.document_pk WHERE p.memory_pk = ?1 AND o.memory_pk != ?1) \
         AND {} > {} RETURNING pk, state = 'ARCHIVED'",
        rank("tier"),
        rank("?2")
    ))?;
    let rows = stmt.query_map(params![pk, tier.as_str()], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Sets a memory's tier alone (a document's passages moved in step).
pub fn set_tier(conn: &Connection, pk: i64, tier: Tier) -> Result<()> {
    conn.prepare_cached("UPDATE memories SET tier = ?2 WHERE pk = ?1")?
        .execute(params![pk, tier.as_str()])?;
    Ok(())
}

/// Whether writing `m` over row `pk` changes what a search can find: the text index's fields
/// (as its update trigger compares them), whether it is searchable or [`cold`], and its session
/// (which neighbours lend it relevance). Counts, times, other tier moves and layers do not;
/// vectors change only through [`set_embedding`].
pub fn changes_findings(conn: &Connection, pk: i64, m: &Memory) -> Result<bool> {
    let same: Option<bool> = conn
        .prepare_cached(
            "SELECT content IS ?2 AND manual_tags IS ?3 AND auto_tags IS ?4 AND session_id IS ?5 \
             AND (state = 'ARCHIVED') IS ?6 AND (status = 'active' AND state != 'DELETED') IS ?7 \
             AND (tier = 'archive' OR state = 'ARCHIVED') IS ?8 FROM memories WHERE pk = ?1",
        )?
        .query_row(
            params![
                pk,
                m.content,
                json(&m.manual_tags),
                json(&m.auto_tags),
                m.session_id,
                m.state == State::Archived,
                searchable(m),
                cold(m)
            ],
            |r| r.get(0),
        )
        .optional()?;
    Ok(same != Some(true))
}

/// Stores (or replaces) a memory's vector at `precision`; returns the vector as the store now
/// gives it back (decoded, for a coarser precision).
pub fn set_embedding(
    conn: &Connection,
    pk: i64,
    v: &[f32],
    precision: Precision,
) -> Result<Vec<f32>> {
    let blob = quantise::encode(v, precision);
    // Consolidation looks at a vector newly stored at its next run (see `requantise_at`).
    conn.prepare_cached(
        "INSERT OR REPLACE INTO memory_vectors (pk, embedding, precision, requantise_at) \
         VALUES (?1, ?2, ?3, CASE WHEN ?3 = 'int2' THEN NULL ELSE 0 END)",
    )?
    .execute(params![pk, blob, precision.as_str()])?;
    Ok(match precision {
        Precision::F32 => v.to_vec(),
        p => quantise::decode(&blob, p, v.len()).unwrap_or_default(),
    })
}

/// A stored vector (`dim` dimensions), decoded; `None` when it is damaged.
fn stored_vector(blob: &[u8], precision: &str, dim: usize) -> Option<(Vec<f32>, Precision)> {
    let p = Precision::parse(precision)?;
    quantise::decode(blob, p, dim).map(|v| (v, p))
}

/// Removes a memory for good (its vector, FTS row and status history with it).
pub fn purge(conn: &Connection, pk: i64) -> Result<()> {
    // Its evidence goes with it (by cascade); the relationships it stated count one less.
    withdraw_evidence(conn, pk)?;
    conn.prepare_cached("DELETE FROM memories WHERE pk = ?1")?
        .execute([pk])?;
    Ok(())
}

/// Withdraws memory `memory_pk` as evidence of every relationship it stated (their counts and
/// confidence lowered with it); returns how many it stated. A relationship left with none is
/// removed by consolidation. The store runs it when it purges a memory; the graph's SQL
/// otherwise lives in `graph`.
pub fn withdraw_evidence(conn: &Connection, memory_pk: i64) -> Result<usize> {
    conn.prepare_cached(
        "UPDATE relationships SET evidence = evidence - 1, confidence_sum = max(0, confidence_sum - \
         (SELECT e.confidence FROM relationship_evidence e \
          WHERE e.relationship_pk = relationships.pk AND e.memory_pk = ?1)) \
         WHERE pk IN (SELECT relationship_pk FROM relationship_evidence WHERE memory_pk = ?1)",
    )?
    .execute([memory_pk])?;
    Ok(conn
        .prepare_cached("DELETE FROM relationship_evidence WHERE memory_pk = ?1")?
        .execute([memory_pk])?)
}

/// A memory of `owner` by id, in any state.
pub fn get(conn: &Connection, owner: &str, id: &str) -> Result<Option<(i64, Memory)>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} FROM memories WHERE id = ?1 AND entity_id = ?2"
        ))?
        .query_row([id, owner], memory_from_row)
        .optional()?)
}

/// Whether a memory takes part in searches: status active and not deleted.
pub fn searchable(m: &Memory) -> bool {
    m.status == Status::Active && m.state != State::Deleted
}

/// The key the next inserted memory will get.
pub fn next_pk(conn: &Connection) -> Result<i64> {
    super::next_pk(conn, "memories")
}

/// The owner of the memory with this id, if any.
pub fn owner_of(conn: &Connection, id: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT entity_id FROM memories WHERE id = ?1")?
        .query_row([id], |r| r.get(0))
        .optional()?)
}

/// Whether any memory (of any owner) has this id.
pub fn id_taken(conn: &Connection, id: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM memories WHERE id = ?1")?
        .exists([id])?)
}

/// Memories of `owner` by primary key, in key order (missing or other owners' keys are left
/// out).
pub fn by_pks(conn: &Connection, owner: &str, pks: &[i64]) -> Result<Vec<(i64, Memory)>> {
    let sorted = pks.iter().copied().collect_set();
    lookup(conn, Some(owner), sorted)
}

/// The memory of `owner` with key `pk`, if there is one.
pub fn by_pk(conn: &Connection, owner: &str, pk: i64) -> Result<Option<Memory>> {
    Ok(lookup(conn, Some(owner), [pk])?.pop().map(|(_, m)| m))
}

/// The rows of `pks` in the order given, those of `owner` only when one is given (missing
/// keys are left out). One indexed lookup per key: for the few hundred rows a call reads this
/// is cheaper than a join over a JSON list of keys, which must also sort its result.
fn lookup(
    conn: &Connection,
    owner: Option<&str>,
    pks: impl IntoIterator<Item = i64>,
) -> Result<Vec<(i64, Memory)>> {
    let mut stmt = conn.prepare_cached(&BY_PK)?;
    let mut rows = Vec::new();
    for pk in pks {
        if let Some(row) = stmt.query_row([pk], memory_from_row).optional()? {
            if owner.is_none_or(|o| row.1.entity_id == o) {
                rows.push(row);
            }
        }
    }
    Ok(rows)
}

/// The content of each memory among `pks`, by key.
pub fn contents(conn: &Connection, pks: &[i64]) -> Result<HashMap<i64, String>> {
    let mut stmt = conn.prepare_cached("SELECT content FROM memories WHERE pk = ?1")?;
    let mut contents = HashMap::with_capacity(pks.len());
    for &pk in pks {
        if let Some(c) = stmt.query_row([pk], |r| r.get(0)).optional()? {
            contents.insert(pk, c);
        }
    }
    Ok(contents)
}

/// A searchable memory's vector as its owner's set holds it.
pub struct StoredVector {
    pub pk: i64,
    pub vector: Vec<f32>,
    pub precision: Precision,
    /// The memory is [`cold`].
    pub cold: bool,
    /// When it was said (`created_at`).
    pub said: Millis,
}

/// Vectors (`dim` dimensions) of `owner`'s searchable memories (not deleted, status active),
/// by primary key.
pub fn vectors(conn: &Connection, owner: &str, dim: usize) -> Result<Vec<StoredVector>> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.pk, v.embedding, v.precision, m.tier = 'archive' OR m.state = 'ARCHIVED', \
         m.created_at FROM memories m JOIN memory_vectors v ON v.pk = m.pk \
         WHERE m.entity_id = ?1 AND m.state != 'DELETED' AND m.status = 'active' ORDER BY m.pk",
    )?;
    let rows = stmt.query_map([owner], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, Vec<u8>>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, bool>(3)?,
            r.get::<_, Millis>(4)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (pk, blob, precision, cold, said) = row?;
        let (vector, precision) = stored_vector(&blob, &precision, dim).ok_or_else(|| {
            Error::damaged(format!("memory {pk}'s stored vector does not decode"))
        })?;
        out.push(StoredVector {
            pk,
            vector,
            precision,
            cold,
            said,
        });
    }
    Ok(out)
}

/// How far a search reaches among an owner's searchable memories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Hot and warm memories only.
    Warm,
    /// The archive tier too (ARCHIVED memories still left out).
    Live,
    /// ARCHIVED memories too.
    All,
}

/// Whether a memory is cold: archive tier or ARCHIVED. Ordinary searches look through the
/// others first (the text index flags cold rows `cold`, the vector sets mark them).
pub fn cold(m: &Memory) -> bool {
    m.tier == Tier::Archive || m.state == State::Archived
}

/// A memory's stored vector (`dim` dimensions), decoded, with its precision.
pub fn embedding(conn: &Connection, pk: i64, dim: usize) -> Result<Option<(Vec<f32>, Precision)>> {
    let row: Option<(Vec<u8>, String)> = conn
        .prepare_cached("SELECT embedding, precision FROM memory_vectors WHERE pk = ?1")?
        .query_row([pk], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    Ok(row.and_then(|(blob, p)| stored_vector(&blob, &p, dim)))
}

/// Up to `limit` memories (not deleted) whose vectors consolidation is due to look at by
/// `now` (their `requantise_at`), the longest due first, with their owners.
pub fn due_for_requantising(
    conn: &Connection,
    now: Millis,
    limit: usize,
) -> Result<Vec<(i64, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.pk, m.entity_id FROM memory_vectors v JOIN memories m ON m.pk = v.pk \
         WHERE v.requantise_at <= ?1 AND m.state != 'DELETED' ORDER BY v.requantise_at, v.pk LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![now, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// When consolidation should next look at memory `pk`'s vector (`None`: never).
pub fn set_requantise_at(conn: &Connection, pk: i64, at: Option<Millis>) -> Result<()> {
    conn.prepare_cached("UPDATE memory_vectors SET requantise_at = ?2 WHERE pk = ?1")?
        .execute(params![pk, at])?;
    Ok(())
}

/// [`vector_census`]'s query: the vectors' bytes, then how many there are of each precision
/// in [`Precision::ALL`]'s order.
static VECTOR_CENSUS: LazyLock<String> = LazyLock::new(|| {
    let per_precision: Vec<String> = Precision::ALL
        .iter()
        .map(|p| format!("coalesce(sum(v.precision = '{}'), 0)", p.as_str()))
        .collect();
    format!(
        "SELECT coalesce(sum(length(v.embedding)), 0), {} \
         FROM memory_vectors v JOIN memories m ON m.pk = v.pk \
         WHERE m.state != 'DELETED' AND (?1 IS NULL OR m.entity_id = ?1) \
         AND mnemo_visible(m.agent_id, m.visibility, m.team_id)",
        per_precision.join(", ")
    )
});

/// How many vectors of memories not deleted (of `owner`, or every owner's) are stored at
/// each precision, and the bytes they take. Counted per precision in one pass without
/// grouping: grouped, SQLite sorted every row with its whole vector to sum their lengths.
pub fn vector_census(
    conn: &Connection,
    owner: Option<&str>,
) -> Result<(BTreeMap<String, usize>, u64)> {
    let mut stmt = conn.prepare_cached(&VECTOR_CENSUS)?;
    stmt.query_row([owner], |r| {
        let mut by = BTreeMap::new();
        for (i, p) in Precision::ALL.iter().enumerate() {
            let n = r.get::<_, i64>(i + 1)?;
            if n > 0 {
                by.insert(p.as_str().to_string(), n as usize);
            }
        }
        Ok((by, r.get::<_, i64>(0)? as u64))
    })
    .map_err(Into::into)
}

/// BM25 matches of query terms (as [`text::query_terms`] gives them) among `owner`'s
/// searchable memories, best first, as (pk, relevance) with relevance = −bm25 (higher is
/// better). Content counts twice tags; owner and flags only restrict the match, inside FTS5,
/// and are not weighed (`mnemo_bm25`, see [`super::fts`]). Only memories said inside
/// `window`.
pub fn text_search(
    conn: &Connection,
    owner: &str,
    terms: &[String],
    reach: Reach,
    limit: usize,
    window: Window,
) -> Result<Vec<(i64, f64)>> {
    if terms.is_empty() {
        return Ok(Vec::new());
    }
    let scoped = !holds_every_memory(conn, owner)?;
    scored_text_search(conn, owner, terms, reach, limit, scoped, window)
}

/// Whether `owner` holds every memory in the store (two index seeks). Its text searches then
/// need no owner phrase: matching one makes FTS5 walk the owner's posting list, which names
/// every row of the store (measured: 3× the cost of matching one word in 12k rows).
fn holds_every_memory(conn: &Connection, owner: &str) -> Result<bool> {
    let (first, last): (Option<String>, Option<String>) = conn
        .prepare_cached(
            "SELECT (SELECT min(entity_id) FROM memories), (SELECT max(entity_id) FROM memories)",
        )?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(first.as_deref() == Some(owner) && last.as_deref() == Some(owner))
}

/// [`text_search`], the owner's phrase in the expression when `scoped` (else the caller knows
/// the owner holds every row). The scores are the same either way: only the asked phrases are
/// weighed.
fn scored_text_search(
    conn: &Connection,
    owner: &str,
    terms: &[String],
    reach: Reach,
    limit: usize,
    scoped: bool,
    window: Window,
) -> Result<Vec<(i64, f64)>> {
    // Each term's other forms ("bought" for "buy") find rows too, as phrases after the asked
    // ones, which alone are weighed: a row's rarity is that of the words as asked. (Weighed
    // as their term, a form made the one run said as "ran" stand out of "my first run"'s
    // runs, so that only it was put in order of time.) A form said counts as its term in
    // the share of the question a row says (`text::coverage`).
    let forms = text::other_forms(terms);
    let phrases: Vec<String> = (terms.iter().cloned())
        .chain(forms.iter().map(|f| f.to_string()))
        .collect();
    let Some(any_term) = text::fts_expression(&phrases) else {
        return Ok(Vec::new());
    };
    // LIMIT is written into the SQL: a bound LIMIT reaches FTS5's planner and would make
    // SQLite re-prepare the statement at every call. The asked terms are phrases `first ..
    // first + n`: the owner, when there, is phrase 0; the flags phrase comes last. A time
    // window joins each match's row and keeps those said inside it (before the limit).
    let mut stmt = if window.is_open() {
        conn.prepare_cached(&format!(
            "SELECT rowid, mnemo_bm25(memories_fts, ?3, ?2) AS rel FROM memories_fts \
             WHERE memories_fts MATCH ?1 ORDER BY rel DESC, rowid LIMIT {limit}"
        ))?
    } else {
        conn.prepare_cached(&format!(
            "SELECT memories_fts.rowid, mnemo_bm25(memories_fts, ?3, ?2) AS rel FROM memories_fts \
             JOIN memories m ON m.pk = memories_fts.rowid WHERE memories_fts MATCH ?1 \
             AND m.created_at >= ?4 AND m.created_at < ?5 \
             ORDER BY rel DESC, memories_fts.rowid LIMIT {limit}"
        ))?
    };
    let (expression, first) = if scoped {
        (format!("owner:{} AND ({any_term})", owner_token(owner)), 1)
    } else {
        (format!("({any_term})"), 0)
    };
    let expression = match reach {
        Reach::Warm => format!("({expression}) NOT flags:cold"),
        Reach::Live => format!("({expression}) NOT flags:archived"),
        Reach::All => expression,
    };
    let end = first + terms.len() as i64;
    let read = |r: &Row| Ok((r.get(0)?, portable_bm25(r.get(1)?)));
    let rows = if window.is_open() {
        stmt.query_map(params![expression, end, first], read)?
            .collect::<rusqlite::Result<_>>()?
    } else {
        let (after, before) = (
            window.after.unwrap_or(Millis::MIN),
            window.before.unwrap_or(Millis::MAX),
        );
        stmt.query_map(params![expression, end, first, after, before], read)?
            .collect::<rusqlite::Result<_>>()?
    };
    Ok(rows)
}

/// Memories of `owner` in use (not archived) whose tags hold one of `tags` (as words; the
/// caller compares the tags themselves), newest first (by key), at most `limit`.
pub fn tagged(conn: &Connection, owner: &str, tags: &[String], limit: usize) -> Result<Vec<i64>> {
    // Each tag a phrase of its words: only letters and digits are quoted.
    let phrases: Vec<String> = tags
        .iter()
        .map(|t| text::words(t).join(" "))
        .filter(|p| !p.is_empty())
        .collect();
    let Some(any) = text::fts_expression(&phrases) else {
        return Ok(Vec::new());
    };
    let expr = format!(
        "(owner:{} AND tags:({any})) NOT flags:archived",
        owner_token(owner)
    );
    // LIMIT written into the SQL, as in `text_search`.
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY rowid DESC LIMIT {limit}"
    ))?;
    let rows = stmt.query_map([expr], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Low mantissa bits dropped from BM25 values (32 of 52 kept: ~1e-10 relative precision).
const BM25_DROPPED_BITS: u32 = 20;

/// A BM25 value rounded to 32 mantissa bits. FTS5 computes BM25 in C with the platform's
/// `log()`, whose last bit differs between glibc, wasi-libc and the browser build's libm;
/// rounding makes every target see the same number (a value within an ulp of a rounding
/// boundary could still differ — about one in a million).
fn portable_bm25(x: f64) -> f64 {
    if !x.is_finite() {
        return x;
    }
    let half = 1u64 << (BM25_DROPPED_BITS - 1);
    let mask = !((1u64 << BM25_DROPPED_BITS) - 1);
    f64::from_bits((x.to_bits() + half) & mask)
}

/// Which of `pks` (the owner's memories) the caller may see.
pub fn visible(conn: &Connection, owner: &str, pks: &[i64]) -> Result<BTreeSet<i64>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT pk FROM json_each(?2) AS j CROSS JOIN memories ON pk = j.value \
         WHERE entity_id = ?1 AND {VISIBLE} AND mnemo_existed(created_at)"
    ))?;
    let keys = serde_json::to_string(pks).unwrap_or_else(|_| "[]".into());
    let rows = stmt.query_map(params![owner, keys], |r| r.get::<_, i64>(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The owner's searchable memories the caller may see that are due inside `span` (their
/// `expires_at`: a plan's or deadline's time), soonest first, at most `limit`.
pub fn due_within(conn: &Connection, owner: &str, span: Window, limit: usize) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT pk FROM memories WHERE entity_id = ?1 AND expires_at >= ?2 AND expires_at < ?3 \
         AND status = 'active' AND state != 'DELETED' AND {VISIBLE} AND mnemo_existed(created_at) \
         ORDER BY expires_at, pk LIMIT ?4"
    ))?;
    let (after, before) = (
        span.after.unwrap_or(Millis::MIN),
        span.before.unwrap_or(Millis::MAX),
    );
    let rows = stmt.query_map(params![owner, after, before, limit as i64], |r| {
        r.get::<_, i64>(0)
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// For each of `pks` that has a session: the searchable memories the caller may see written up
/// to `reach` places before and after it in that session (places counted among those), as
/// (pk, neighbour, places apart) triples. One statement for the whole list.
pub fn session_neighbours(
    conn: &Connection,
    owner: &str,
    pks: &[i64],
    reach: usize,
) -> Result<Vec<(i64, i64, usize)>> {
    if pks.is_empty() || reach == 0 {
        return Ok(Vec::new());
    }
    // One column per place: the neighbour that many places before, then after.
    let place = |side: &str, order: &str, skip: usize| {
        format!(
            "(SELECT n.pk FROM memories n WHERE n.entity_id = p.entity_id AND n.session_id = p.session_id \
               AND n.pk {side} p.pk AND n.status = 'active' AND n.state != 'DELETED' \
               AND {VISIBLE} AND mnemo_existed(n.created_at) ORDER BY n.pk {order} LIMIT 1 OFFSET {skip})"
        )
    };
    let columns: Vec<String> = (0..reach)
        .flat_map(|skip| [place("<", "DESC", skip), place(">", "ASC", skip)])
        .collect();
    let sql = format!(
        "SELECT p.pk, {} FROM json_each(?2) AS j CROSS JOIN memories AS p ON p.pk = j.value \
         WHERE p.entity_id = ?1 AND p.session_id IS NOT NULL",
        columns.join(", ")
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let keys = serde_json::to_string(pks).unwrap_or_else(|_| "[]".into());
    let mut rows = stmt.query(params![owner, keys])?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        let pk: i64 = row.get(0)?;
        // Columns 1 and 2 are one place away, 3 and 4 two, …
        for column in 1..=2 * reach {
            if let Some(n) = row.get::<_, Option<i64>>(column)? {
                out.push((pk, n, column.div_ceil(2)));
            }
        }
    }
    Ok(out)
}

/// Appends an entry to a memory's status history.
pub fn record_status(conn: &Connection, pk: i64, change: &StatusChange) -> Result<()> {
    let layer = change.layer.as_ref();
    conn.prepare_cached("INSERT INTO status_history (memory_pk, old, new, reason, changed_at, old_layer, new_layer) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?
        .execute(params![
            pk,
            change.old.as_str(),
            change.new.as_str(),
            change.reason,
            change.changed_at,
            layer.map(|l| l.old.as_str()),
            layer.map(|l| l.new.as_str()),
        ])?;
    Ok(())
}

/// A memory's status history, oldest first.
pub fn status_history(conn: &Connection, pk: i64) -> Result<Vec<StatusChange>> {
    let mut stmt = conn.prepare_cached(
        "SELECT old, new, reason, changed_at, old_layer, new_layer FROM status_history WHERE memory_pk = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([pk], |r| {
        let layer = match r.get::<_, Option<String>>(4)? {
            None => None,
            Some(_) => Some(LayerChange {
                old: parse(r, 4)?,
                new: parse(r, 5)?,
            }),
        };
        Ok(StatusChange {
            old: parse(r, 0)?,
            new: parse(r, 1)?,
            reason: r.get(2)?,
            changed_at: r.get(3)?,
            layer,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Memories whose lifecycle may change by `now` (their `due_at` has come), oldest due first.
pub fn due(conn: &Connection, now: Millis, limit: usize) -> Result<Vec<(i64, Memory)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM memories WHERE due_at IS NOT NULL AND due_at <= ?1 ORDER BY due_at, pk LIMIT ?2"
    ))?;
    let rows = stmt.query_map(params![now, limit as i64], memory_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Filters for [`list`]; empty vectors mean "any".
#[derive(Debug, Default)]
pub struct ListFilter<'a> {
    pub owner: &'a str,
    /// Only these ids (any when empty).
    pub ids: &'a [String],
    pub types: &'a [MemoryType],
    pub states: &'a [State],
    pub statuses: &'a [Status],
    pub kinds: &'a [Kind],
    pub tag: Option<&'a str>,
    pub pinned: Option<bool>,
    pub newest_first: bool,
}

/// One page of memories matching `f`, and how many match in all.
pub fn list(
    conn: &Connection,
    f: &ListFilter,
    limit: usize,
    offset: usize,
) -> Result<(Vec<Memory>, usize)> {
    let mut sql = format!(" FROM memories WHERE entity_id = ? AND {VISIBLE}");
    let mut args: Vec<Value> = vec![Value::Text(f.owner.to_string())];
    fn any_of(sql: &mut String, args: &mut Vec<Value>, column: &str, values: Vec<&'static str>) {
        if !values.is_empty() {
            sql.push_str(&format!(
                " AND {column} IN ({})",
                vec!["?"; values.len()].join(",")
            ));
            args.extend(values.into_iter().map(|v| Value::Text(v.into())));
        }
    }
    let filters: [(&str, Vec<&'static str>); 4] = [
        ("type", f.types.iter().map(|t| t.as_str()).collect()),
        ("state", f.states.iter().map(|t| t.as_str()).collect()),
        ("status", f.statuses.iter().map(|t| t.as_str()).collect()),
        ("kind", f.kinds.iter().map(|t| t.as_str()).collect()),
    ];
    for (column, values) in filters {
        any_of(&mut sql, &mut args, column, values);
    }
    if !f.ids.is_empty() {
        sql.push_str(" AND id IN (SELECT value FROM json_each(?))");
        args.push(Value::Text(
            serde_json::to_string(f.ids).unwrap_or_else(|_| "[]".into()),
        ));
    }
    if let Some(tag) = f.tag {
        sql.push_str(" AND (EXISTS (SELECT 1 FROM json_each(manual_tags) WHERE value = ?) OR EXISTS (SELECT 1 FROM json_each(auto_tags) WHERE value = ?))");
        args.push(Value::Text(tag.into()));
        args.push(Value::Text(tag.into()));
    }
    if let Some(p) = f.pinned {
        sql.push_str(" AND pinned = ?");
        args.push(Value::Integer(p as i64));
    }
    let total: i64 = conn.query_row(
        &format!("SELECT count(*){sql}"),
        params_from_iter(args.iter()),
        |r| r.get(0),
    )?;
    let order = if f.newest_first { "DESC" } else { "ASC" };
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS}{sql} ORDER BY created_at {order}, pk {order} LIMIT ? OFFSET ?"
    ))?;
    args.push(Value::Integer(limit as i64));
    args.push(Value::Integer(offset as i64));
    let rows = stmt.query_map(params_from_iter(args.iter()), memory_from_row)?;
    let items = rows
        .map(|r| r.map(|(_, m)| m))
        .collect::<rusqlite::Result<_>>()?;
    Ok((items, total as usize))
}

/// How many memories there are of each type, state, status and tier together: `owner`'s
/// that the caller may see, or every owner's. One pass over the rows, which every count
/// `stats` answers is folded from.
pub fn census(conn: &Connection, owner: Option<&str>) -> Result<Vec<Tally>> {
    let filter = match owner {
        Some(_) => format!(" WHERE entity_id = ?1 AND {VISIBLE}"),
        None => String::new(),
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT type, state, status, tier, count(*) FROM memories{filter} GROUP BY 1, 2, 3, 4"
    ))?;
    let row = |r: &rusqlite::Row| {
        Ok(Tally {
            kind: r.get(0)?,
            state: r.get(1)?,
            status: r.get(2)?,
            tier: r.get(3)?,
            count: r.get::<_, i64>(4)? as usize,
        })
    };
    let rows = match owner {
        Some(o) => stmt.query_map([o], row)?.collect::<rusqlite::Result<_>>(),
        None => stmt.query_map([], row)?.collect::<rusqlite::Result<_>>(),
    };
    Ok(rows?)
}

/// One group of [`census`]: how many memories have this type, state, status and tier.
pub struct Tally {
    /// The memory type (`EVENT`, `PREFERENCE`, …).
    pub kind: String,
    /// The lifecycle state (`ACTIVE`, …, `DELETED`).
    pub state: String,
    /// The validity status (`active`, `merged`, …).
    pub status: String,
    /// The storage tier (`hot`, `warm`, `archive`).
    pub tier: String,
    /// How many memories.
    pub count: usize,
}

/// Every owner with memories not deleted, and how many, by owner id.
pub fn owners(conn: &Connection) -> Result<Vec<(String, usize)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT entity_id, count(*) FROM memories WHERE state != 'DELETED' GROUP BY 1 ORDER BY 1",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Where a search finds a memory without asking for archived ones: not archived or deleted,
/// and status active.
const IN_USE: &str = "state IN ('ACTIVE', 'STALE') AND status = 'active'";

/// Every owner's count of memories in use that size-bounded pruning may archive: a document's
/// passages are its document's, neither counted nor archived one by one, and the codebase
/// layer is kept whole (its files come and go with the repository).
pub fn live_counts(conn: &Connection) -> Result<Vec<(String, usize)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT entity_id, count(*) FROM memories WHERE {IN_USE} AND kind != 'passage' \
         AND layer != 'codebase' GROUP BY 1 ORDER BY 1"
    ))?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Up to `limit` memories in use with a key above `after`, in key order, with their owners.
pub fn in_use_after(conn: &Connection, after: i64, limit: usize) -> Result<Vec<(i64, String)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT pk, entity_id FROM memories WHERE pk > ?1 AND {IN_USE} ORDER BY pk LIMIT ?2"
    ))?;
    let rows = stmt.query_map(params![after, limit as i64], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Up to `limit` memories in use without automatic tags, made at or before `made_by`, in key
/// order.
pub fn untagged(conn: &Connection, made_by: Millis, limit: usize) -> Result<Vec<(i64, Memory)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM memories WHERE auto_tags = '[]' AND created_at <= ?1 AND {IN_USE} \
         ORDER BY pk LIMIT ?2"
    ))?;
    let rows = stmt.query_map(params![made_by, limit as i64], memory_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A memory pruning may archive, with what decides how useful it is.
#[derive(Debug)]
pub struct Prunable {
    pub pk: i64,
    pub feedback: i64,
    /// Last access, or creation.
    pub last_touch: Millis,
}

/// `owner`'s memories in use that pruning may archive: not pinned, not schedules.
pub fn prunable(conn: &Connection, owner: &str) -> Result<Vec<Prunable>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT pk, feedback, max(coalesce(last_accessed_at, created_at), created_at) \
         FROM memories WHERE entity_id = ?1 AND {IN_USE} AND pinned = 0 AND cron_tag IS NULL \
         AND kind != 'passage' AND layer != 'codebase'"
    ))?;
    let rows = stmt.query_map([owner], |r| {
        Ok(Prunable {
            pk: r.get(0)?,
            feedback: r.get(1)?,
            last_touch: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The owner of live (not deleted) memory `id`, and whether it is a schedule.
pub fn live_owner_of(conn: &Connection, id: &str) -> Result<Option<(String, bool)>> {
    Ok(conn
        .prepare_cached(
            "SELECT m.entity_id, EXISTS (SELECT 1 FROM schedules s WHERE s.memory_pk = m.pk) \
             FROM memories m WHERE m.id = ?1 AND m.state != 'DELETED'",
        )?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// Keys of live (not deleted) memories, of `owner` or of every owner, in key order.
pub fn live_pks(conn: &Connection, owner: Option<&str>) -> Result<Vec<i64>> {
    let rows = match owner {
        Some(o) => conn
            .prepare_cached(
                "SELECT pk FROM memories WHERE entity_id = ?1 AND state != 'DELETED' \
                 AND mnemo_visible(agent_id, visibility, team_id) ORDER BY pk",
            )?
            .query_map([o], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>(),
        None => conn
            .prepare_cached("SELECT pk FROM memories WHERE state != 'DELETED' ORDER BY pk")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>(),
    };
    Ok(rows?)
}

/// The memories with these keys (any owner), in the order of `pks`.
pub fn by_pks_in_order(conn: &Connection, pks: &[i64]) -> Result<Vec<Memory>> {
    let rows = lookup(conn, None, pks.iter().copied())?;
    Ok(rows.into_iter().map(|(_, m)| m).collect())
}

/// Ids of `owner`'s live (not deleted) memories, oldest first.
pub fn live_ids(conn: &Connection, owner: &str) -> Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM memories WHERE entity_id = ?1 AND state != 'DELETED' ORDER BY pk",
    )?;
    let rows = stmt.query_map([owner], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A memory's primary key, row and stored vector (decoded) with its precision.
pub type ExportRow = (i64, Memory, Option<(Vec<f32>, Precision)>);

/// Every memory of `owner` (any state) with its vector (`dim` dimensions), in a stable order
/// for export.
pub fn export_rows(conn: &Connection, owner: &str, dim: usize) -> Result<Vec<ExportRow>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS}, \
         (SELECT embedding FROM memory_vectors v WHERE v.pk = memories.pk), \
         (SELECT precision FROM memory_vectors v WHERE v.pk = memories.pk) \
         FROM memories WHERE entity_id = ?1 AND {VISIBLE} ORDER BY created_at, id"
    ))?;
    let rows = stmt.query_map([owner], |r| {
        let (pk, m) = memory_from_row(r)?;
        let blob: Option<Vec<u8>> = r.get(COLUMN_COUNT)?;
        let precision: Option<String> = r.get(COLUMN_COUNT + 1)?;
        let stored = blob
            .zip(precision)
            .and_then(|(b, p)| stored_vector(&b, &p, dim));
        Ok((pk, m, stored))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decay::tests::memory;

    #[test]
    fn the_column_count_is_the_columns_listed() {
        assert_eq!(COLUMNS.split(',').count(), COLUMN_COUNT);
    }
    use crate::model::MemoryType;
    use crate::store::Store;

    /// A text search of the only owner in the store leaves the owner's phrase out, and gives
    /// the same rows and scores as with it; once another owner writes, each owner's search is
    /// scoped again and finds its own rows only.
    #[test]
    fn a_sole_owner_searches_without_the_owner_phrase_and_scores_the_same() {
        const NOW: Millis = 1_700_000_000_000;
        let mut store = Store::in_memory(NOW);
        let add = |store: &mut Store, owner: &str, id: &str, content: &str| {
            let mut m = memory(MemoryType::Event, 0);
            (m.entity_id, m.id, m.content) = (owner.into(), id.into(), content.into());
            m.created_at = NOW;
            let mut tx = store.begin(NOW).unwrap();
            tx.insert(&mut m, &[1.0, 0.0]).unwrap();
            tx.commit().unwrap();
        };
        let contents = [
            "the garden needs water",
            "a garden garden party in the garden",
            "the invoice for the boiler",
            "a very long note about many things and then, at last, the garden",
        ];
        for (i, c) in contents.iter().enumerate() {
            add(&mut store, "ana", &format!("a{i}"), c);
        }
        let terms = vec!["garden".to_string(), "boiler".to_string()];
        let search = |store: &Store, owner: &str, scoped: bool| {
            scored_text_search(
                store.conn(),
                owner,
                &terms,
                Reach::Warm,
                10,
                scoped,
                Window::default(),
            )
            .unwrap()
        };
        // The public search, which decides whether to scope by owner itself.
        let found = |store: &Store, owner: &str| {
            text_search(
                store.conn(),
                owner,
                &terms,
                Reach::Warm,
                10,
                Window::default(),
            )
            .unwrap()
        };
        assert!(holds_every_memory(store.conn(), "ana").unwrap());
        assert!(!holds_every_memory(store.conn(), "bo").unwrap());
        let alone = found(&store, "ana");
        assert_eq!(alone.len(), 4);
        assert_eq!(alone, search(&store, "ana", true));
        assert_eq!(alone, search(&store, "ana", false));

        add(&mut store, "bo", "b0", "bo's garden by the boiler");
        assert!(!holds_every_memory(store.conn(), "ana").unwrap());
        let (ana, bo) = (found(&store, "ana"), found(&store, "bo"));
        assert_eq!(ana.len(), 4, "{ana:?}");
        assert_eq!(bo.len(), 1, "{bo:?}");
        assert!(ana.iter().all(|(pk, _)| !bo.iter().any(|(b, _)| b == pk)));
        assert_eq!(ana, search(&store, "ana", true));
    }

    #[test]
    fn bm25_values_an_ulp_apart_round_to_the_same_number() {
        for x in [0.8701142513529764f64, 1.5376794773944155e-6, 3.25, -2.0001] {
            let next = f64::from_bits(x.to_bits() + 1);
            assert_eq!(portable_bm25(x), portable_bm25(next), "{x}");
            assert!(((portable_bm25(x) - x) / x).abs() < 1e-9, "{x}");
        }
        assert_eq!(portable_bm25(0.0), 0.0);
        assert!(portable_bm25(f64::NAN).is_nan());
    }
}
