//! The SQL of `documents` and `passages`. Reads go through `mnemo_visible`, so an agent's
//! call sees only the documents it may.

use rusqlite::{params, Connection, OptionalExtension, Row};

use super::chunk::Piece;
use super::{Document, Passage, SummaryBy};
use crate::clock::Millis;
use crate::error::{Error, Result};
use crate::model::Memory;
use crate::store::memories::{memory_from_row, COLUMNS};
use crate::store::{json_list, parse};

/// A document row and its primary key.
#[derive(Debug, Clone)]
pub(crate) struct DocumentRow {
    pub pk: i64,
    pub doc: Document,
}

const DOCUMENT: &str = "pk, id, owner, agent_id, team_id, visibility, title, source, filename, \
     mime, source_ref, content_hash, chars, passages, manual_tags, auto_tags, status, \
     superseded_by, created_at, updated_at, deleted_at, format, summary, summary_by";

fn document_from_row(r: &Row) -> rusqlite::Result<DocumentRow> {
    Ok(DocumentRow {
        pk: r.get(0)?,
        doc: Document {
            id: r.get(1)?,
            entity_id: r.get(2)?,
            agent_id: r.get(3)?,
            team_id: r.get(4)?,
            visibility: parse(r, 5)?,
            title: r.get(6)?,
            source: parse(r, 7)?,
            filename: r.get(8)?,
            mime: r.get(9)?,
            source_ref: r.get(10)?,
            content_hash: r.get(11)?,
            chars: r.get::<_, i64>(12)? as usize,
            passages: r.get::<_, i64>(13)? as usize,
            manual_tags: json_list(r, 14)?,
            auto_tags: json_list(r, 15)?,
            status: parse(r, 16)?,
            superseded_by: r.get(17)?,
            created_at: r.get(18)?,
            updated_at: r.get(19)?,
            deleted_at: r.get(20)?,
            format: parse(r, 21)?,
            summary: r.get(22)?,
            summary_by: parse(r, 23)?,
        },
    })
}

fn tags_json(tags: &[String]) -> Result<String> {
    serde_json::to_string(tags).map_err(|e| Error::bug(format!("tags do not serialise: {e}")))
}

/// Stores a document row (its text kept beside it).
pub(crate) fn insert(conn: &Connection, pk: i64, d: &Document, content: &str) -> Result<()> {
    conn.prepare_cached(&format!(
        "INSERT INTO documents ({DOCUMENT}, content) VALUES \
         (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)"
    ))?
    .execute(params![
        pk,
        d.id,
        d.entity_id,
        d.agent_id,
        d.team_id,
        d.visibility.as_str(),
        d.title,
        d.source.as_str(),
        d.filename,
        d.mime,
        d.source_ref,
        d.content_hash,
        d.chars as i64,
        d.passages as i64,
        tags_json(&d.manual_tags)?,
        tags_json(&d.auto_tags)?,
        d.status.as_str(),
        d.superseded_by,
        d.created_at,
        d.updated_at,
        d.deleted_at,
        d.format.as_str(),
        d.summary,
        d.summary_by.as_str(),
        content,
    ])?;
    Ok(())
}

/// Stores where passage `memory_pk` lies in document `document_pk`.
pub(crate) fn insert_passage(
    conn: &Connection,
    memory_pk: i64,
    document_pk: i64,
    position: usize,
    piece: &Piece,
    summary: &str,
    summary_by: SummaryBy,
) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO passages (memory_pk, document_pk, position, section, start, \"end\", summary, \
         summary_by) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        memory_pk,
        document_pk,
        position as i64,
        tags_json(&piece.section)?,
        piece.start as i64,
        piece.end as i64,
        summary,
        summary_by.as_str(),
    ])?;
    Ok(())
}

/// The owner's live documents with text `hash` or under `source_ref`: the ones an ingest
/// may leave unchanged or replace (found through their indexes, however many the owner has).
pub(crate) fn live_matching(
    conn: &Connection,
    owner: &str,
    hash: &str,
    source_ref: Option<&str>,
) -> Result<Vec<DocumentRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {DOCUMENT} FROM documents WHERE owner = ?1 AND status = 'active' \
         AND deleted_at IS NULL AND (content_hash = ?2 OR source_ref = ?3) ORDER BY pk"
    ))?;
    let rows = stmt.query_map(params![owner, hash, source_ref], document_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The owner's documents the caller sees, newest first: the live ones, or every one.
pub(crate) fn list(conn: &Connection, owner: &str, all: bool) -> Result<Vec<DocumentRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {DOCUMENT} FROM documents WHERE owner = ?1 \
         AND (?2 OR (status = 'active' AND deleted_at IS NULL)) \
         AND mnemo_visible(agent_id, visibility, team_id) AND mnemo_existed(created_at) \
         ORDER BY created_at DESC, pk DESC"
    ))?;
    let rows = stmt.query_map(params![owner, all], document_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Document `id` of `owner`, if the caller sees it.
pub(crate) fn get(conn: &Connection, owner: &str, id: &str) -> Result<Option<DocumentRow>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {DOCUMENT} FROM documents WHERE id = ?1 AND owner = ?2 \
             AND mnemo_visible(agent_id, visibility, team_id) AND mnemo_existed(created_at)"
        ))?
        .query_row([id, owner], document_from_row)
        .optional()?)
}

/// A document's passages, in order.
pub(crate) fn passages(conn: &Connection, document_pk: i64) -> Result<Vec<Passage>> {
    let mut stmt = conn.prepare_cached(
        "SELECT m.id, p.position, p.section, p.start, p.\"end\", m.content, p.summary, p.summary_by \
         FROM passages p JOIN memories m ON m.pk = p.memory_pk \
         WHERE p.document_pk = ?1 ORDER BY p.position",
    )?;
    let rows = stmt.query_map([document_pk], |r| {
        Ok(Passage {
            memory_id: r.get(0)?,
            position: r.get::<_, i64>(1)? as usize,
            section: json_list(r, 2)?,
            start: r.get::<_, i64>(3)? as usize,
            end: r.get::<_, i64>(4)? as usize,
            summary: r.get(6)?,
            summary_by: parse(r, 7)?,
            content: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many passages document `document_pk` has.
pub(crate) fn passage_count(conn: &Connection, document_pk: i64) -> Result<usize> {
    let n: i64 = conn
        .prepare_cached("SELECT count(*) FROM passages WHERE document_pk = ?1")?
        .query_row([document_pk], |r| r.get(0))?;
    Ok(n as usize)
}

/// The memory rows of a document's passages, in order.
pub(crate) fn passage_memories(conn: &Connection, document_pk: i64) -> Result<Vec<(i64, Memory)>> {
    let columns = COLUMNS
        .split(", ")
        .map(|c| format!("m.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ");
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {columns} FROM passages p JOIN memories m ON m.pk = p.memory_pk \
         WHERE p.document_pk = ?1 ORDER BY p.position"
    ))?;
    let rows = stmt.query_map([document_pk], memory_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Marks a document superseded by `by`.
pub(crate) fn set_superseded(conn: &Connection, pk: i64, by: &str, now: Millis) -> Result<()> {
    conn.prepare_cached(
        "UPDATE documents SET status = 'superseded', superseded_by = ?2, updated_at = ?3 WHERE pk = ?1",
    )?
    .execute(params![pk, by, now])?;
    Ok(())
}

/// Marks a document forgotten.
pub(crate) fn set_deleted(conn: &Connection, pk: i64, now: Millis) -> Result<()> {
    conn.prepare_cached("UPDATE documents SET deleted_at = ?2, updated_at = ?2 WHERE pk = ?1")?
        .execute(params![pk, now])?;
    Ok(())
}

/// Where a passage lies: its document and place.
#[derive(Debug, Clone)]
pub(crate) struct PassageRow {
    /// The document's key.
    pub document_pk: i64,
    /// What search shows of it.
    pub of: super::PassageOf,
    /// Who wrote its summary.
    pub summary_by: SummaryBy,
}

/// Where memory `pk` lies, if it is a passage.
pub(crate) fn passage_of(conn: &Connection, pk: i64) -> Result<Option<PassageRow>> {
    Ok(conn
        .prepare_cached(
            "SELECT d.pk, d.id, d.title, p.section, p.position, d.passages, p.start, p.\"end\", \
             p.summary, p.summary_by \
             FROM passages p JOIN documents d ON d.pk = p.document_pk WHERE p.memory_pk = ?1",
        )?
        .query_row([pk], |r| {
            Ok(PassageRow {
                document_pk: r.get(0)?,
                of: super::PassageOf {
                    document_id: r.get(1)?,
                    title: r.get(2)?,
                    section: json_list(r, 3)?,
                    position: r.get::<_, i64>(4)? as usize,
                    passages: r.get::<_, i64>(5)? as usize,
                    start: r.get::<_, i64>(6)? as usize,
                    end: r.get::<_, i64>(7)? as usize,
                    summary: r.get(8)?,
                },
                summary_by: parse(r, 9)?,
            })
        })
        .optional()?)
}

/// The document memory `pk` is a passage of, and its place in it (`None` for a memory that is
/// not a passage).
pub(crate) fn place_of(conn: &Connection, pk: i64) -> Result<Option<(i64, usize)>> {
    Ok(conn
        .prepare_cached("SELECT document_pk, position FROM passages WHERE memory_pk = ?1")?
        .query_row([pk], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as usize)))
        .optional()?)
}

/// The key and owner of document `id`, in any owner.
pub(crate) fn pk_of(conn: &Connection, id: &str) -> Result<Option<(i64, String)>> {
    Ok(conn
        .prepare_cached("SELECT pk, owner FROM documents WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?)
}

/// Document `pk` with its whole text, for an export.
pub(crate) fn record(conn: &Connection, pk: i64) -> Result<Option<super::DocumentRecord>> {
    Ok(conn
        .prepare_cached(&format!(
            "SELECT {DOCUMENT}, content FROM documents WHERE pk = ?1"
        ))?
        .query_row([pk], |r| {
            Ok(super::DocumentRecord {
                document: document_from_row(r)?.doc,
                content: r.get("content")?,
            })
        })
        .optional()?)
}

/// A passage whose summary the engine wrote, of a live document.
pub(crate) struct PassageToSummarise {
    pub memory_pk: i64,
    pub owner: String,
    pub document_id: String,
    pub position: usize,
    pub title: String,
    pub section: Vec<String>,
    pub content: String,
}

/// Up to `limit` passages of live documents whose summaries the engine wrote, by document
/// then place.
pub(crate) fn passages_to_summarise(
    conn: &Connection,
    limit: usize,
) -> Result<Vec<PassageToSummarise>> {
    let mut stmt = conn.prepare_cached(
        "SELECT p.memory_pk, d.owner, d.id, p.position, d.title, p.section, m.content \
         FROM passages p JOIN documents d ON d.pk = p.document_pk JOIN memories m ON m.pk = p.memory_pk \
         WHERE p.summary_by = 'sentences' AND d.status = 'active' AND d.deleted_at IS NULL \
         AND m.state != 'DELETED' ORDER BY p.document_pk, p.position LIMIT ?1",
    )?;
    let rows = stmt.query_map([limit as i64], |r| {
        Ok(PassageToSummarise {
            memory_pk: r.get(0)?,
            owner: r.get(1)?,
            document_id: r.get(2)?,
            position: r.get::<_, i64>(3)? as usize,
            title: r.get(4)?,
            section: json_list(r, 5)?,
            content: r.get(6)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A live document whose summary the engine wrote, every passage's summary by the LLM.
pub(crate) struct DocumentToSummarise {
    pub pk: i64,
    pub owner: String,
    pub id: String,
    pub title: String,
    pub chars: usize,
    /// Its passages' summaries, in order.
    pub summaries: Vec<String>,
}

/// Up to `limit` live documents whose summaries the engine wrote and whose passages' the LLM
/// did, in key order.
pub(crate) fn documents_to_summarise(
    conn: &Connection,
    limit: usize,
) -> Result<Vec<DocumentToSummarise>> {
    let mut stmt = conn.prepare_cached(
        "SELECT d.pk, d.title, d.chars, d.owner, d.id FROM documents d WHERE d.summary_by = 'sentences' \
         AND d.status = 'active' AND d.deleted_at IS NULL AND NOT EXISTS \
         (SELECT 1 FROM passages p WHERE p.document_pk = d.pk AND p.summary_by != 'llm') \
         ORDER BY d.pk LIMIT ?1",
    )?;
    let found = stmt
        .query_map([limit as i64], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
            ))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let mut out = Vec::with_capacity(found.len());
    for (pk, title, chars, owner, id) in found {
        let summaries = conn
            .prepare_cached(
                "SELECT summary FROM passages WHERE document_pk = ?1 ORDER BY position",
            )?
            .query_map([pk], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        out.push(DocumentToSummarise {
            pk,
            owner,
            id,
            title,
            chars: chars as usize,
            summaries,
        });
    }
    Ok(out)
}

/// Replaces a passage's summary by the LLM's.
pub(crate) fn set_passage_summary(conn: &Connection, memory_pk: i64, summary: &str) -> Result<()> {
    conn.prepare_cached(
        "UPDATE passages SET summary = ?2, summary_by = 'llm' WHERE memory_pk = ?1",
    )?
    .execute(params![memory_pk, summary])?;
    Ok(())
}

/// Replaces a document's summary by the LLM's.
pub(crate) fn set_document_summary(conn: &Connection, pk: i64, summary: &str) -> Result<()> {
    conn.prepare_cached("UPDATE documents SET summary = ?2, summary_by = 'llm' WHERE pk = ?1")?
        .execute(params![pk, summary])?;
    Ok(())
}
