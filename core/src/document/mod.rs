//! Documents (Kybernesis' memory items with chunks): a file or a long text ingested as one
//! record, cut into passages ([`chunk`]) that are memories of kind `passage` — each embedded
//! and in the text index, so search finds the passage that answers, not the whole document.
//! A document's passages are never merged, contradicted or clustered with other memories
//! (`write::Scope`); they carry the document's tags, owner, agent and visibility, and a row
//! of `passages` saying where in the document they are.
//!
//! Ingesting the same text again changes nothing; new text under the same `source_ref`
//! replaces the document (the old version and its passages become `superseded`, their
//! history kept); forgetting a document forgets its passages.

pub mod chunk;
pub mod html;
pub(crate) mod sql;
pub mod summary;

use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::embed;
use crate::error::{Error, Result};
use crate::extract;
use crate::field::{DocumentText, Id, Label, Owner, SourceRef, Tags};
use crate::lexicon;
use crate::model::{
    string_enum, Kind, Layer, MemoryType, Source, Status, StatusChange, Visibility,
};
use crate::store::{Tx, View};
use crate::text;
use crate::write::{self, NewMemory};
pub use chunk::ChunkSizes;
pub(crate) use sql::{passage_of, PassageRow};

/// Most automatic tags a document gets (the design's six).
pub const MAX_AUTO_TAGS: usize = 6;
/// Most passages of one document a search returns unless asked for more
/// (`SearchRequest::per_document`): a long document should not fill a list by itself.
pub const PER_DOCUMENT: usize = 3;

string_enum! {
    /// Where a document came from; its first automatic tag.
    DocumentSource, "source" {
        /// A file the user gave (the default).
        Upload = "upload",
        /// Pasted or shared in a conversation.
        Chat = "chat",
        /// Synchronised from another service (a drive, a wiki, a mailbox).
        Connector = "connector",
        /// A web page.
        Web = "web",
        /// The user's own notes.
        Note = "note",
        /// An email.
        Email = "email",
        /// Written by a program through the API.
        Api = "api",
    }
}

string_enum! {
    /// How a document's text is written, which says how it is read.
    DocumentFormat, "format" {
        /// Plain text: sentences and paragraphs, no markup read.
        Text = "text",
        /// Markdown: headings name sections; code blocks and tables are kept whole.
        Markdown = "markdown",
        /// HTML: read as a reader sees the page (scripts, styles, navigation and hidden
        /// elements left out), its headings, lists, tables and preformatted text as markdown.
        Html = "html",
    }
}

impl DocumentFormat {
    /// The format a document's media type or file name says (`text/html`, `.htm`: html;
    /// `text/plain`, `.txt`, a PDF's text: text), else markdown.
    pub fn of(mime: Option<&str>, filename: Option<&str>) -> DocumentFormat {
        let mime = mime.map(|m| m.split(';').next().unwrap_or(m).trim().to_ascii_lowercase());
        match mime.as_deref() {
            Some("text/html" | "application/xhtml+xml") => return DocumentFormat::Html,
            // A PDF's text (a host extracts it) has no markup.
            Some("text/plain" | "application/pdf") => return DocumentFormat::Text,
            Some("text/markdown" | "text/x-markdown") => return DocumentFormat::Markdown,
            _ => {}
        }
        let ext = filename
            .and_then(|f| f.rsplit_once('.'))
            .map(|(_, e)| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("html" | "htm" | "xhtml") => DocumentFormat::Html,
            Some("txt" | "text" | "pdf") => DocumentFormat::Text,
            _ => DocumentFormat::Markdown,
        }
    }
}

/// Arguments of `ingest`: a document to store as searchable passages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IngestRequest {
    /// The owner of the document (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The document's title (1 to 512 characters, one line), shown with every passage found
    /// (default: an HTML page's `<title>`, else its first heading, else the file's name, else
    /// its first line).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Label>,
    /// The document's text: plain text, markdown or HTML (see `format`; at most 10,000,000
    /// characters). Hosts turn PDF into text first.
    pub content: DocumentText,
    /// How the text is written (default: what `mime`, else the extension of `filename`,
    /// says — `text/html` or `.html` is html; `text/plain`, `.txt` or a PDF's text is text —,
    /// else markdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<DocumentFormat>,
    /// Where it came from (default upload).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<DocumentSource>,
    /// The file's name (1 to 512 characters), whose extension and words become tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filename: Option<Label>,
    /// The file's media type (`text/markdown`, `application/pdf`, …), kept as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime: Option<Label>,
    /// The document's identity at its source (a path, a URL, a connector's id): 1 to 1,024
    /// characters. New text under the same `source_ref` replaces the document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_ref: Option<SourceRef>,
    /// Manual tags, kept on the document and every passage: at most 64, each 1 to 64
    /// characters; the system never removes them (default none).
    #[serde(default)]
    pub tags: Tags,
    /// The agent that stored it, stored with each passage (1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; default none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<Id>,
    /// The team the document is shared with (1 to 256 characters of `[A-Za-z0-9_:.-]`;
    /// default none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub team_id: Option<Id>,
    /// Who besides the owner's agent may see it (default private, or the team's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visibility: Option<Visibility>,
    /// How the text is cut into passages (default 800 to 1,200 characters, 100 of overlap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunking: Option<ChunkSizes>,
}

string_enum! {
    /// A document version's status.
    DocumentStatus, "document status" {
        /// The current version.
        Active = "active",
        /// Replaced by a newer version under the same `source_ref`.
        Superseded = "superseded",
    }
}

string_enum! {
    /// Who wrote a summary.
    SummaryBy, "summary_by" {
        /// The engine, choosing the text's own sentences.
        Sentences = "sentences",
        /// The host's LLM (checked): asked by consolidation, or written with `write_summary`.
        Llm = "llm",
    }
}

/// A stored document (its text is in its passages).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Document {
    /// The document's id, unique in the store.
    pub id: String,
    /// The owner it belongs to.
    pub entity_id: String,
    /// The agent that stored it, if one was named.
    pub agent_id: Option<String>,
    /// The team it is shared with, if any.
    pub team_id: Option<String>,
    /// Who besides the owner's agent may see it.
    pub visibility: Visibility,
    /// Its title.
    pub title: String,
    /// How its text was written (an HTML page's text is kept as read, in markdown).
    pub format: DocumentFormat,
    /// Two or three sentences that stand for the whole.
    pub summary: String,
    /// Who wrote the summary: the engine from the text's sentences, or the host's LLM.
    pub summary_by: SummaryBy,
    /// Where it came from.
    pub source: DocumentSource,
    /// The file's name, if given.
    pub filename: Option<String>,
    /// The file's media type, if given.
    pub mime: Option<String>,
    /// Its identity at its source, if given.
    pub source_ref: Option<String>,
    /// SHA-256 (hex) of its normalised text.
    pub content_hash: String,
    /// Its length, in characters.
    pub chars: usize,
    /// How many passages it was cut into.
    pub passages: usize,
    /// Tags added by the caller; the system never removes them.
    pub manual_tags: Vec<String>,
    /// Tags added by the system (at most six): source, file extension, words of the file
    /// name or title, frequent words of the text.
    pub auto_tags: Vec<String>,
    /// Whether it is the current version (`active`) or was replaced (`superseded`).
    pub status: DocumentStatus,
    /// For a superseded version: the document that replaced it.
    pub superseded_by: Option<String>,
    /// When it was ingested, in milliseconds since the Unix epoch.
    pub created_at: Millis,
    /// When it was last changed (superseded, forgotten), in milliseconds since the Unix epoch.
    pub updated_at: Millis,
    /// When it was forgotten, in milliseconds since the Unix epoch (none unless forgotten).
    pub deleted_at: Option<Millis>,
}

/// What `ingest` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IngestReport {
    /// `created` (a new document), `unchanged` (the same text was already stored: nothing
    /// written) or `replaced` (new text under an existing `source_ref`).
    pub action: IngestAction,
    /// The document now stored.
    pub document: Document,
    /// For `replaced`: the id of the version it superseded.
    pub replaced: Option<String>,
}

string_enum! {
    /// What an ingest did.
    IngestAction, "action" {
        /// A new document was stored.
        Created = "created",
        /// The same text was already stored; nothing was written.
        Unchanged = "unchanged",
        /// New text under an existing `source_ref` replaced the document.
        Replaced = "replaced",
    }
}

/// One passage of a document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Passage {
    /// The id of the memory holding it (`get`, `forget`, `reinforce` take it).
    pub memory_id: String,
    /// Its place in the document, from 0.
    pub position: usize,
    /// The markdown headings above it, outermost first.
    pub section: Vec<String>,
    /// Where it begins in the document's text, in characters (Unicode scalar values).
    pub start: usize,
    /// Where it ends (exclusive), in characters.
    pub end: usize,
    /// One or two sentences that stand for it.
    pub summary: String,
    /// Who wrote the summary: the engine from the passage's sentences, or the host's LLM.
    pub summary_by: SummaryBy,
    /// Its text.
    pub content: String,
}

/// Where a passage found by search lies: its document and section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PassageOf {
    /// The document's id (`document` shows it whole).
    pub document_id: String,
    /// The document's title.
    pub title: String,
    /// The markdown headings above the passage, outermost first.
    pub section: Vec<String>,
    /// The passage's place in the document, from 0.
    pub position: usize,
    /// How many passages the document has.
    pub passages: usize,
    /// Where the passage begins in the document's text, in characters.
    pub start: usize,
    /// Where it ends (exclusive), in characters.
    pub end: usize,
    /// One or two sentences that stand for it.
    pub summary: String,
}

/// A document with its passages, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentDetail {
    /// The document.
    pub document: Document,
    /// Its passages, first to last.
    pub passages: Vec<Passage>,
}

/// Arguments of `documents`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentsRequest {
    /// The owner of the documents: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own documents, `global` ones and `team`
    /// ones of its teams (default none: the owner's view).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<Id>,
    /// Superseded versions and forgotten documents too (default false).
    #[serde(default)]
    pub all: bool,
}

/// Arguments of `document` and `forget_document`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentRef {
    /// The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    pub entity_id: Owner,
    /// The document's id.
    pub id: Id,
    /// The agent the call is made for (default none: the owner's view); an agent forgets
    /// only documents it stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<Id>,
}

/// A document checked and cut, its passages embedded: ready to store.
pub(crate) struct Prepared {
    req: IngestRequest,
    /// The text stored and cut: the content as given, or an HTML page as read.
    text: String,
    title: String,
    format: DocumentFormat,
    /// The document's summary, and each passage's.
    summary: String,
    summaries: Vec<String>,
    hash: String,
    chars: usize,
    auto_tags: Vec<String>,
    pieces: Vec<chunk::Piece>,
    passages: Vec<write::Prepared>,
}

/// Longest title taken from a document's first line, in characters.
const TITLE_FROM_LINE: usize = 100;

/// A document read in its format and cut: the format, the text stored, an HTML page's title,
/// the pieces.
struct Read {
    format: DocumentFormat,
    text: String,
    page_title: Option<String>,
    pieces: Vec<chunk::Piece>,
}

/// Reads a document in its format (an HTML page as text) and cuts it into passages.
fn read(req: &IngestRequest) -> Result<Read> {
    let sizes = req.chunking.unwrap_or_default().check("chunking")?;
    let format = req
        .format
        .unwrap_or_else(|| DocumentFormat::of(req.mime.as_deref(), req.filename.as_deref()));
    let (text, page_title) = match format {
        DocumentFormat::Html => {
            let page = html::to_text(&req.content);
            (page.text, page.title)
        }
        _ => (req.content.to_string(), None),
    };
    if text.trim().is_empty() {
        return Err(Error::invalid(
            "content",
            "has no text once the page's markup, scripts and styles are left out",
        ));
    }
    let pieces = chunk::chunk(&text, sizes, format != DocumentFormat::Text);
    Ok(Read {
        format,
        text,
        page_title,
        pieces,
    })
}

/// The texts `ingest` embeds for `req`: every passage, then every sentence its summaries are
/// chosen from (a sentence the overlap of two passages holds comes twice). A host whose
/// embedding model the engine cannot call while it works (the npm package's `embed`, which
/// answers later) embeds these first and hands the engine their vectors
/// ([`crate::Engine::texts_to_embed`]).
pub fn texts(req: &IngestRequest) -> Result<Vec<String>> {
    let pieces = read(req)?.pieces;
    let sentences = pieces.iter().flat_map(|p| summary::sentences(&p.text));
    Ok(pieces
        .iter()
        .map(|p| p.text.clone())
        .chain(sentences)
        .collect())
}

/// Checks a document, reads it in its format, cuts it and embeds its passages (outside the
/// transaction).
pub(crate) fn prepare(view: &View, req: IngestRequest) -> Result<Prepared> {
    let source = req.source.unwrap_or(DocumentSource::Upload);
    let Read {
        format,
        text,
        page_title,
        pieces,
    } = read(&req)?;
    let title = match &req.title {
        Some(t) => t.to_string(),
        None => default_title(page_title, &pieces, &text, req.filename.as_deref()),
    };
    let hash = text::content_hash(&text);
    let chars = text.chars().count();
    let auto_tags = auto_tags(source, req.filename.as_deref(), &title, &text);
    let mut passages = Vec::with_capacity(pieces.len());
    for (i, piece) in pieces.iter().enumerate() {
        let memory = NewMemory {
            memory_type: Some(MemoryType::Context),
            layer: Some(Layer::Semantic),
            source: Some(Source::Import),
            tags: req.tags.clone(),
            agent_id: req.agent_id.clone(),
            team_id: req.team_id.clone(),
            visibility: req.visibility,
            ..NewMemory::of(
                req.entity_id.clone(),
                crate::field::Content::parse("content", &piece.text)
                    .map_err(|e| e.within(&format!("passages[{i}]")))?,
            )
        };
        let mut input: write::Input = memory.into();
        input.auto_tags = auto_tags.clone();
        let mut p = write::prepare(view, input)?;
        p.memory.kind = Kind::Passage;
        passages.push(p);
    }
    let (summaries, summary) = summarise(view, &text, &pieces, &passages)?;
    Ok(Prepared {
        req,
        text,
        title,
        format,
        summary,
        summaries,
        hash,
        chars,
        auto_tags,
        pieces,
        passages,
    })
}

/// Each passage's summary and the document's ([`summary`]): a passage's sentences nearest its
/// own centroid; the document's, its sentences nearest the centroid of its passages (the best
/// [`summary::DOCUMENT_CANDIDATES`] kept as the passages go, so a long document costs no more
/// memory than a short one). A passage without a sentence (a table, code) is summarised by its
/// beginning.
fn summarise(
    view: &View,
    text: &str,
    pieces: &[chunk::Piece],
    passages: &[write::Prepared],
) -> Result<(Vec<String>, String)> {
    let whole = summary::centroid(passages.iter().map(|p| p.vector.as_slice()));
    let keywords = frequent_words(text, summary::KEYWORDS);
    let mut summaries = Vec::with_capacity(pieces.len());
    // The document's best sentences so far, closest first: (closeness, place, text, vector).
    let mut best: Vec<(f32, usize, String, Vec<f32>)> = Vec::new();
    let mut place = 0;
    // The previous passage's vectors: its overlap with the next is embedded once.
    let mut previous: Vec<(String, Vec<f32>)> = Vec::new();
    for piece in pieces {
        let sentences = summary::sentences(&piece.text);
        let mut vectors = Vec::with_capacity(sentences.len());
        for s in &sentences {
            let known = previous
                .iter()
                .find(|(t, _)| t == s)
                .map(|(_, v)| v.clone());
            let v = match known {
                Some(v) => v,
                None => view.vector_for(s, None)?,
            };
            let close = embed::dot(&v, &whole) + summary::keyword_bonus(s, &keywords);
            if !best.iter().any(|(_, _, t, _)| t == s)
                && (best.len() < summary::DOCUMENT_CANDIDATES
                    || best.last().is_some_and(|(c, ..)| close > *c))
            {
                let at = best.partition_point(|(c, ..)| *c >= close);
                best.insert(at, (close, place, s.clone(), v.clone()));
                best.truncate(summary::DOCUMENT_CANDIDATES);
            }
            place += 1;
            vectors.push(v);
        }
        let n = if piece.end - piece.start < summary::SHORT_PASSAGE_CHARS {
            1
        } else {
            summary::PASSAGE_SENTENCES
        };
        let centroid = summary::centroid(vectors.iter().map(Vec::as_slice));
        let own = frequent_words(&piece.text, summary::KEYWORDS);
        let bonus: Vec<f32> = sentences
            .iter()
            .map(|s| summary::keyword_bonus(s, &own))
            .collect();
        let picked = summary::pick(&vectors, &bonus, &centroid, n);
        summaries.push(if picked.is_empty() {
            let words = piece.text.split_whitespace().collect::<Vec<_>>().join(" ");
            text::cut_at_word(&words, summary::MAX_SENTENCE_CHARS)
        } else {
            summary::join(&sentences, &picked)
        });
        previous = sentences.into_iter().zip(vectors).collect();
    }
    let n = if pieces.len() < summary::SHORT_DOCUMENT_PASSAGES {
        summary::DOCUMENT_SENTENCES - 1
    } else {
        summary::DOCUMENT_SENTENCES
    };
    // The candidates in the document's order, then the nearest that are not repeats.
    crate::order::sort_by_key(&mut best, |(_, place, ..)| *place);
    let bonus: Vec<f32> = best
        .iter()
        .map(|(_, _, t, _)| summary::keyword_bonus(t, &keywords))
        .collect();
    let (texts, vectors): (Vec<String>, Vec<Vec<f32>>) =
        best.into_iter().map(|(_, _, t, v)| (t, v)).unzip();
    let picked = summary::pick(&vectors, &bonus, &whole, n);
    let document = match picked.is_empty() {
        true => summaries.first().cloned().unwrap_or_default(),
        false => summary::join(&texts, &picked),
    };
    Ok((summaries, document))
}

/// Stores a prepared document in the caller's transaction: nothing when the same text is
/// stored already (in the same scope), else a new version, superseding the one under the
/// same `source_ref`.
pub(crate) fn store(tx: &mut Tx, p: Prepared) -> Result<IngestReport> {
    let owner = p.req.entity_id.clone();
    let now = tx.now()?;
    let scope = |d: &sql::DocumentRow| {
        d.doc.agent_id.as_deref() == p.req.agent_id.as_deref()
            && d.doc.team_id.as_deref()
                == p.passages.first().and_then(|x| x.memory.team_id.as_deref())
    };
    let current = sql::live_matching(
        tx.conn(),
        &owner,
        &p.hash,
        p.req.source_ref.as_ref().map(SourceRef::as_str),
    )?;
    if let Some(same) = current.iter().find(|d| {
        d.doc.content_hash == p.hash
            && d.doc.source_ref.as_deref() == p.req.source_ref.as_ref().map(SourceRef::as_str)
            && d.doc.title == p.title
            && scope(d)
    }) {
        return Ok(IngestReport {
            action: IngestAction::Unchanged,
            document: same.doc.clone(),
            replaced: None,
        });
    }
    let previous = p
        .req
        .source_ref
        .as_ref()
        .map(SourceRef::as_str)
        .and_then(|r| {
            current
                .iter()
                .find(|d| d.doc.source_ref.as_deref() == Some(r) && scope(d))
        });
    let pk = crate::store::next_pk(tx.conn(), "documents")?;
    let id = text::derived_id("doc", &[owner.as_bytes(), p.hash.as_bytes()], &[now, pk]);
    let first = p.passages.first().map(|x| &x.memory);
    let doc = Document {
        id: id.clone(),
        entity_id: owner.to_string(),
        agent_id: p.req.agent_id.as_ref().map(|a| a.to_string()),
        team_id: first.and_then(|m| m.team_id.clone()),
        visibility: first.map_or(Visibility::Private, |m| m.visibility),
        title: p.title.clone(),
        format: p.format,
        summary: p.summary.clone(),
        summary_by: SummaryBy::Sentences,
        source: p.req.source.unwrap_or(DocumentSource::Upload),
        filename: p.req.filename.as_ref().map(|f| f.to_string()),
        mime: p.req.mime.as_ref().map(|m| m.to_string()),
        source_ref: p.req.source_ref.as_ref().map(|r| r.as_str().to_string()),
        content_hash: p.hash.clone(),
        chars: p.chars,
        passages: p.pieces.len(),
        manual_tags: p.req.tags.clone().into_vec(),
        auto_tags: p.auto_tags.clone(),
        status: DocumentStatus::Active,
        superseded_by: None,
        created_at: now,
        updated_at: now,
        deleted_at: None,
    };
    sql::insert(tx.conn(), pk, &doc, &p.text)?;
    tx.defer_text();
    let passages = p.pieces.iter().zip(p.summaries.iter()).zip(p.passages);
    for (position, ((piece, summary), mut passage)) in passages.enumerate() {
        passage.memory.source_ref = Some(format!("{id}#{position}"));
        let memory_pk = tx.insert(&mut passage.memory, &passage.vector)?;
        sql::insert_passage(
            tx.conn(),
            memory_pk,
            pk,
            position,
            piece,
            summary,
            SummaryBy::Sentences,
        )?;
    }
    tx.index_text()?;
    let replaced = match previous {
        Some(old) => {
            supersede(tx, old, &id, now)?;
            Some(old.doc.id.clone())
        }
        None => None,
    };
    Ok(IngestReport {
        action: if replaced.is_some() {
            IngestAction::Replaced
        } else {
            IngestAction::Created
        },
        document: doc,
        replaced,
    })
}

/// The title of a document given none: an HTML page's `<title>`, else its first heading
/// (markdown), else the file's name, else its first line (cut at a word to
/// [`TITLE_FROM_LINE`] characters).
fn default_title(
    page: Option<String>,
    pieces: &[chunk::Piece],
    text: &str,
    filename: Option<&str>,
) -> String {
    let fits = |t: &String| Label::parse("title", t).is_ok();
    // The chunker's sections: the headings it read (none in plain text or inside code).
    let heading = || pieces.iter().find_map(|p| p.section.first().cloned());
    let first_line = || {
        let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
        let line = line.trim_start_matches(['#', '-', '|', ' ']).trim();
        Some(text::cut_at_word(line, TITLE_FROM_LINE))
    };
    page.filter(fits)
        .or_else(|| heading().filter(fits))
        .or_else(|| filename.map(str::to_string).filter(fits))
        .or_else(|| first_line().filter(fits))
        .unwrap_or_else(|| "Untitled".to_string())
}

/// Marks an old version superseded by `by`, and its passages too (out of search, history
/// kept).
fn supersede(tx: &mut Tx, old: &sql::DocumentRow, by: &str, now: Millis) -> Result<()> {
    sql::set_superseded(tx.conn(), old.pk, by, now)?;
    let reason = format!("document {} replaced by {by}", old.doc.id);
    for (pk, mut m) in sql::passage_memories(tx.conn(), old.pk)? {
        if m.status == Status::Superseded {
            continue;
        }
        let change = StatusChange {
            old: m.status,
            new: Status::Superseded,
            reason: reason.clone(),
            changed_at: now,
            layer: None,
        };
        m.status = Status::Superseded;
        tx.save(pk, &mut m)?;
        tx.record_status(pk, &change)?;
    }
    Ok(())
}

/// An owner's documents as the caller sees them, newest first.
pub(crate) fn list(view: &View, req: &DocumentsRequest) -> Result<Vec<Document>> {
    Ok(sql::list(view.conn(), &req.entity_id, req.all)?
        .into_iter()
        .map(|d| d.doc)
        .collect())
}

/// One document with its passages, if the caller sees it.
pub(crate) fn get(view: &View, owner: &Owner, id: &Id) -> Result<DocumentDetail> {
    let row = visible(view.conn(), owner, id)?;
    let passages = sql::passages(view.conn(), row.pk)?;
    Ok(DocumentDetail {
        document: row.doc,
        passages,
    })
}

/// The document `id` of `owner` as the caller sees it, or not found.
fn visible(conn: &rusqlite::Connection, owner: &Owner, id: &Id) -> Result<sql::DocumentRow> {
    sql::get(conn, owner, id)?.ok_or_else(|| Error::UnknownDocument {
        entity_id: owner.to_string(),
        id: id.to_string(),
    })
}

/// Arguments of `write_summary`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SummaryWrite {
    /// The owner of the document: 1 to 256 characters of `[A-Za-z0-9_:.-]`.
    pub entity_id: Owner,
    /// The document's id.
    pub document_id: Id,
    /// The passage's place in the document, from 0; none for the document's own summary.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<usize>,
    /// The summary the host's LLM wrote: at most two sentences for a passage, three for a
    /// document, shorter than the text it summarises.
    pub summary: String,
    /// The agent the call is made for (default none: the owner's view); an agent writes only
    /// the summaries of documents it stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<Id>,
}

/// Writes the host's LLM's summary of a live document (or of its passage at `position`) in
/// place of the engine's, checked as consolidation checks an LLM's; the document as it is now.
pub(crate) fn write_summary(tx: &mut Tx, req: &SummaryWrite) -> Result<Document> {
    let (owner, id) = (&req.entity_id, &req.document_id);
    let row = visible(tx.conn(), owner, id)?;
    if row.doc.status != DocumentStatus::Active || row.doc.deleted_at.is_some() {
        return Err(Error::invalid(
            "document_id",
            format!(
                "document {:?} is forgotten or superseded: only a live document's summaries are written",
                id.as_str()
            ),
        ));
    }
    let passages = sql::passage_memories(tx.conn(), row.pk)?;
    if passages.iter().any(|(_, m)| !tx.viewer().may_change(m)) {
        return Err(Error::invalid(
            "document_id",
            format!(
                "document {:?} was stored by another agent: only it or the owner may write its summaries",
                id.as_str()
            ),
        ));
    }
    let checked = |bounds, of_chars| {
        summary::check(&req.summary, bounds, of_chars).map_err(|why| Error::invalid("summary", why))
    };
    match req.position {
        Some(at) => {
            let Some((pk, passage)) = passages.get(at) else {
                return Err(Error::invalid(
                    "position",
                    format!(
                        "document {:?} has {} passages (positions 0 to {})",
                        id.as_str(),
                        passages.len(),
                        passages.len().saturating_sub(1)
                    ),
                ));
            };
            let text = checked(&summary::PASSAGE, passage.content.chars().count())?;
            sql::set_passage_summary(tx.conn(), *pk, &text)?;
        }
        None => {
            let text = checked(&summary::DOCUMENT, row.doc.chars)?;
            sql::set_document_summary(tx.conn(), row.pk, &text)?;
        }
    }
    Ok(visible(tx.conn(), owner, id)?.doc)
}

/// Forgets a document and its passages (soft delete, as `forget` does a memory).
pub(crate) fn forget(tx: &mut Tx, owner: &Owner, id: &Id) -> Result<Document> {
    let row = visible(tx.conn(), owner, id)?;
    let passages = sql::passage_memories(tx.conn(), row.pk)?;
    if passages.iter().any(|(_, m)| !tx.viewer().may_change(m)) {
        return Err(Error::invalid(
            "id",
            format!(
                "document {:?} was stored by another agent: only it or the owner may forget it",
                id.as_str()
            ),
        ));
    }
    let now = tx.now()?;
    for (pk, m) in passages {
        if m.deleted_at.is_none() {
            crate::curate::forget_row(tx, pk, m)?;
        }
    }
    if row.doc.deleted_at.is_none() {
        sql::set_deleted(tx.conn(), row.pk, now)?;
    }
    Ok(visible(tx.conn(), owner, id)?.doc)
}

/// The automatic tags: the source, the file's extension, words of the file name (else the
/// title), then the text's most frequent uncommon words of four letters or more; normalised
/// (lower case), each once, at most [`MAX_AUTO_TAGS`].
pub fn auto_tags(
    source: DocumentSource,
    filename: Option<&str>,
    title: &str,
    text: &str,
) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    let push = |t: String, tags: &mut Vec<String>| {
        if tags.len() < MAX_AUTO_TAGS
            && !t.is_empty()
            && t.chars().count() <= 64
            && !tags.contains(&t)
        {
            tags.push(t);
        }
    };
    push(source.as_str().to_string(), &mut tags);
    let name = filename.map(|f| f.rsplit(['/', '\\']).next().unwrap_or(f));
    if let Some((stem, ext)) = name.and_then(|n| n.rsplit_once('.')) {
        if !stem.is_empty()
            && (1..=8).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
        {
            push(ext.to_lowercase(), &mut tags);
        }
    }
    let label = name.map_or(title, |n| n.rsplit_once('.').map_or(n, |(stem, _)| stem));
    for w in text::words(label) {
        // A file is named with care: only function words are left out of its name.
        if w.chars().count() >= 3
            && !lexicon::is_stopword(&w)
            && !w.chars().all(|c| c.is_ascii_digit())
        {
            push(w, &mut tags);
        }
    }
    for w in frequent_words(text, MAX_AUTO_TAGS) {
        push(w, &mut tags);
    }
    tags
}

/// The `n` most frequent uncommon words of at least four letters in `text` (ties: first
/// seen first).
fn frequent_words(text: &str, n: usize) -> Vec<String> {
    let mut counts: std::collections::HashMap<String, (usize, usize)> = Default::default();
    for (i, w) in text::words(text).into_iter().enumerate() {
        if w.chars().count() >= extract::MIN_TAG_CHARS
            && w.chars().any(char::is_alphabetic)
            && !lexicon::common(&w)
        {
            counts.entry(w).or_insert((0, i)).0 += 1;
        }
    }
    let mut ranked: Vec<(String, (usize, usize))> = counts.into_iter().collect();
    crate::order::sort_by(&mut ranked, |a, b| {
        b.1 .0.cmp(&a.1 .0).then(a.1 .1.cmp(&b.1 .1))
    });
    ranked.into_iter().take(n).map(|(w, _)| w).collect()
}

/// The passages' memory rows of `memory_pks` that are passages, with where they lie.
pub(crate) fn passages_of(view: &View, pks: &[i64]) -> Result<Vec<(i64, PassageRow)>> {
    let mut out = Vec::new();
    for &pk in pks {
        if let Some(row) = passage_of(view.conn(), pk)? {
            out.push((pk, row));
        }
    }
    Ok(out)
}

/// Where an exported passage lies in its document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PassagePlace {
    /// The document's id.
    pub document_id: String,
    /// The passage's place in the document, from 0.
    pub position: usize,
    /// The markdown headings above it, outermost first.
    pub section: Vec<String>,
    /// Where it begins in the document's text, in characters.
    pub start: usize,
    /// Where it ends (exclusive), in characters.
    pub end: usize,
    /// Its summary.
    pub summary: String,
    /// Who wrote the summary.
    pub summary_by: SummaryBy,
}

/// An exported document: every field, and its whole text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentRecord {
    /// The document, as stored.
    pub document: Document,
    /// Its whole text.
    pub content: String,
}

/// The export of passage memory `pk`: its place, and on the first passage its document.
pub(crate) fn export(
    conn: &rusqlite::Connection,
    pk: i64,
) -> Result<(Option<PassagePlace>, Option<DocumentRecord>)> {
    let Some(row) = sql::passage_of(conn, pk)? else {
        return Ok((None, None));
    };
    let place = PassagePlace {
        document_id: row.of.document_id.clone(),
        position: row.of.position,
        section: row.of.section.clone(),
        start: row.of.start,
        end: row.of.end,
        summary: row.of.summary.clone(),
        summary_by: row.summary_by,
    };
    let record = match row.of.position {
        0 => sql::record(conn, row.document_pk)?,
        _ => None,
    };
    Ok((Some(place), record))
}

/// Checks an imported document before anything is written.
pub(crate) fn check_record(r: &DocumentRecord) -> Result<()> {
    let d = &r.document;
    Id::parse("document.id", &d.id)?;
    Id::parse("document.entity_id", &d.entity_id)?;
    Label::parse("document.title", &d.title)?;
    DocumentText::parse("content", &r.content)?;
    if d.content_hash != text::content_hash(&r.content) {
        return Err(Error::invalid(
            "document.content_hash",
            "does not match the content",
        ));
    }
    for (f, t) in [
        ("created_at", Some(d.created_at)),
        ("updated_at", Some(d.updated_at)),
        ("deleted_at", d.deleted_at),
    ] {
        if let Some(t) = t {
            crate::clock::check_time(&format!("document.{f}"), t)?;
        }
    }
    Ok(())
}

/// Restores an exported document as it was, unless its id is in the store already.
pub(crate) fn restore(tx: &mut Tx, r: &DocumentRecord) -> Result<()> {
    match sql::pk_of(tx.conn(), &r.document.id)? {
        Some((_, owner)) if owner == r.document.entity_id => return Ok(()),
        Some(_) => {
            return Err(Error::invalid(
                "document.id",
                format!("{} belongs to another entity in this store", r.document.id),
            ))
        }
        None => {}
    }
    let pk = crate::store::next_pk(tx.conn(), "documents")?;
    sql::insert(tx.conn(), pk, &r.document, &r.content)
}

/// Restores where passage memory `memory_pk` lies; a passage whose document was not
/// restored (its first passage purged) is left without one.
pub(crate) fn restore_passage(
    tx: &mut Tx,
    owner: &str,
    memory_pk: i64,
    place: &PassagePlace,
) -> Result<()> {
    // Only a document of the passage's own owner: another's is not joined, whatever the
    // record says.
    let Some((document_pk, _)) =
        sql::pk_of(tx.conn(), &place.document_id)?.filter(|(_, o)| o == owner)
    else {
        return Ok(());
    };
    let piece = chunk::Piece {
        text: String::new(),
        start: place.start,
        end: place.end,
        section: place.section.clone(),
    };
    sql::insert_passage(
        tx.conn(),
        memory_pk,
        document_pk,
        place.position,
        &piece,
        &place.summary,
        place.summary_by,
    )
}
