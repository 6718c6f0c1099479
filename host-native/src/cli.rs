//! The command line: flags and subcommands, and the engine calls each command makes — typed
//! values of the core's call vocabulary (`mnemo_core::Call`), sent to the engine as JSON.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use mnemo_core::api::{ImportArgs, SeedArgs};
use mnemo_core::{Call, NewMemory};
use serde_json::{json, Value};

use crate::datadir::Need;
use crate::files;

/// The heading of the flags every command takes, listed after the command's own in `--help`.
const GLOBAL: &str = "Global options";

/// Long-term memory for AI agents: remember, search and manage memories in a local store.
#[derive(Parser)]
#[command(name = "mnemo", version)]
pub struct Cli {
    /// The data directory holding the store.
    #[arg(long, global = true, help_heading = GLOBAL, env = "MNEMO_DATA", default_value = "mnemo-data")]
    pub data: PathBuf,
    /// Run as if it were this time (RFC 3339, e.g. 2026-01-31T09:00:00Z, or ms since the
    /// epoch): every time-dependent step uses it, so scripts can replay months in seconds.
    #[arg(long, global = true, help_heading = GLOBAL, conflicts_with = "start_at")]
    pub now: Option<String>,
    /// Start the clock at this time and let it run (RFC 3339 or ms since the epoch): a server
    /// that lives in another time, e.g. to watch a schedule fall due.
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub start_at: Option<String>,
    /// Print one JSON document instead of text (`export`: JSONL, one per line).
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub json: bool,
    /// Seed of the memory-id generator (default: random).
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub seed: Option<u64>,
    /// An OpenAI-compatible embeddings API (e.g. http://127.0.0.1:11434/v1 for Ollama) to
    /// embed with instead of the built-in embedder; needs --embed-model.
    #[arg(long, global = true, help_heading = GLOBAL, env = "MNEMO_EMBED_URL", requires = "embed_model")]
    pub embed_url: Option<String>,
    /// The model the embeddings API should use (recorded in the store).
    #[arg(long, global = true, help_heading = GLOBAL, env = "MNEMO_EMBED_MODEL")]
    pub embed_model: Option<String>,
    /// An OpenAI-compatible chat API (e.g. http://127.0.0.1:11434/v1) whose model extracts
    /// memories from what `remember` is given, instead of the built-in extractor; its answers
    /// are checked and a bad one falls back to the built-in extractor. Needs --llm-model.
    #[arg(long, global = true, help_heading = GLOBAL, env = "MNEMO_LLM_URL", requires = "llm_model")]
    pub llm_url: Option<String>,
    /// The chat model to ask.
    #[arg(long, global = true, help_heading = GLOBAL, env = "MNEMO_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// The engine's settings: a JSON file of the fields to change, e.g.
    /// `{"consolidation": {"max_memories": 100000}}` (unknown fields are refused).
    #[arg(long, global = true, help_heading = GLOBAL, env = "MNEMO_CONFIG")]
    pub config: Option<PathBuf>,
    /// Act as this agent of the owner (every command, `call` and `mcp` included): it sees its
    /// own memories, `global` ones and those of its teams, and changes only its own; what it
    /// writes is its own; the owner's calls (teams, imports, maintenance) are refused.
    #[arg(long, global = true, help_heading = GLOBAL, env = "MNEMO_AGENT")]
    pub agent: Option<String>,
    /// The project directory whose files memories cite: consolidation checks the paths they
    /// name (`src/auth.rs`, `docs/API.md:12`) and invalidates a memory whose path is gone,
    /// restoring it when the path is back. Only paths inside it are looked at; nothing there is
    /// written.
    #[arg(long, global = true, help_heading = GLOBAL, env = "MNEMO_WORKSPACE")]
    pub workspace: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

/// What `mnemo schedule` does.
#[derive(Subcommand)]
pub enum ScheduleAction {
    /// Create a schedule: `--cron cron:daily:09:00 "take the vitamins"`.
    Create {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// cron:hourly, cron:daily[:HH:MM], cron:weekly:DAY:HH:MM, cron:weekdays:HH:MM,
        /// cron:monthly:D:HH:MM, cron:every:<duration>, cron:once:<RFC 3339>.
        #[arg(long)]
        cron: String,
        /// What the plan says ("take the vitamins").
        text: String,
    },
    /// The owner's schedules, soonest due first.
    List {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// Done and cancelled ones too.
        #[arg(long)]
        all: bool,
    },
    /// Acknowledge a schedule: it moves on to its next due time.
    Ack {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The schedule's id.
        id: String,
    },
    /// Change a schedule's text or tag.
    Update {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The schedule's id.
        id: String,
        /// The new cron tag (as for create).
        #[arg(long)]
        cron: Option<String>,
        /// The new text.
        #[arg(long)]
        text: Option<String>,
    },
    /// Cancel a schedule.
    Cancel {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The schedule's id.
        id: String,
    },
}

/// The commands, one per subcommand.
#[derive(Subcommand)]
pub enum Command {
    /// Remember a piece of conversation (the extractor decides what to store).
    Remember {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// What was said: one message, which the extractor cuts into statements.
        text: String,
        /// The conversation session, stored with each memory (a session's memories lend each
        /// other relevance in search).
        #[arg(long)]
        session: Option<String>,
        /// Where it was said (a message's id): in a search, after the first of one message's
        /// statements, its others give way to other messages' hits.
        #[arg(long)]
        source_ref: Option<String>,
    },
    /// Show what the extractor finds in a message, without storing anything.
    Extract {
        /// The message to read.
        text: String,
    },
    /// Store one memory, or JSONL memories from a file (`-` for stdin).
    Seed {
        /// The owner (for a single memory; JSONL lines carry their own `entity_id`).
        #[arg(long)]
        entity: Option<String>,
        /// The memory's content.
        content: Option<String>,
        /// The memory type, which sets how fast it decays: IDENTITY, PREFERENCE, RELATIONSHIP,
        /// EVENT (the default), ACTIVITY, PLAN, CONTEXT or EPHEMERAL.
        #[arg(long = "type")]
        memory_type: Option<String>,
        /// How much it matters, 0 to 1 (default 0.5, then adjusted by how surprising it is).
        #[arg(long, value_parser = finite)]
        importance: Option<f64>,
        /// Manual tags, comma-separated.
        #[arg(long, value_delimiter = ',')]
        tags: Vec<String>,
        /// Pin it: it does not decay.
        #[arg(long)]
        pinned: bool,
        /// A deadline: RFC 3339 or ms since the epoch.
        #[arg(long)]
        expires: Option<String>,
        /// JSONL file of memories (`{"entity_id", "content", …}` per line).
        #[arg(long, conflicts_with = "content")]
        file: Option<PathBuf>,
    },
    /// Hybrid search of one owner's memories.
    Search {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The question or words to search for.
        query: String,
        /// Results wanted, 1 to 1,000 (default 10).
        #[arg(long)]
        limit: Option<usize>,
        /// balanced, recent, important, historical or comprehensive.
        #[arg(long)]
        mode: Option<String>,
        /// Only memories of this type (repeat for several).
        #[arg(long = "type")]
        types: Vec<String>,
        /// Search ARCHIVED memories too (default: only when the others give too few good
        /// answers).
        #[arg(long)]
        include_archived: bool,
        /// Only memories said at or after this time (RFC 3339 or ms since the epoch).
        #[arg(long)]
        after: Option<String>,
        /// Only memories said before this time (RFC 3339 or ms since the epoch).
        #[arg(long)]
        before: Option<String>,
        /// What "now" is for the question's words such as "yesterday" (RFC 3339 or ms).
        #[arg(long)]
        as_of: Option<String>,
    },
    /// One memory.
    Get {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The memory's id.
        id: String,
    },
    /// An owner's memories, newest first.
    List {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// Page size, 1 to 1,000 (default 50).
        #[arg(long)]
        limit: Option<usize>,
        /// Memories to skip before the page starts.
        #[arg(long, default_value_t = 0)]
        offset: usize,
        /// Only memories in this lifecycle state (repeat for several; default any but
        /// DELETED).
        #[arg(long = "state")]
        states: Vec<String>,
        /// Only memories of this type (repeat for several).
        #[arg(long = "type")]
        types: Vec<String>,
    },
    /// Change a memory.
    Update {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The memory's id.
        id: String,
        /// The new content (embedded again).
        #[arg(long)]
        content: Option<String>,
        /// The new memory type.
        #[arg(long = "type")]
        memory_type: Option<String>,
        /// The new importance, 0 to 1.
        #[arg(long, value_parser = finite)]
        importance: Option<f64>,
        /// The new manual tags, comma-separated (replacing the old).
        #[arg(long, value_delimiter = ',')]
        tags: Option<Vec<String>>,
    },
    /// Forget a memory (soft delete; purged after 90 days).
    Forget {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The memory's id.
        id: String,
    },
    /// Reinforce a memory (feedback +3).
    Reinforce {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The memory's id.
        id: String,
    },
    /// Demote a memory (feedback −1).
    Demote {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The memory's id.
        id: String,
    },
    /// Pin a memory (exempt from decay), or unpin it with --off.
    Pin {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The memory's id.
        id: String,
        /// Unpin it: it decays again.
        #[arg(long)]
        off: bool,
    },
    /// Set a memory's validity status (active, challenged, invalidated, superseded).
    Status {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The memory's id.
        id: String,
        /// active, challenged, invalidated or superseded.
        status: String,
        /// Why, kept in the memory's history.
        #[arg(long)]
        reason: String,
    },
    /// Move a memory to another layer by hand (working, episodic, semantic, procedural): up to
    /// semantic or procedural, which do not decay, or down; promotion leaves it there.
    Layer {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The memory's id.
        id: String,
        /// working, episodic, semantic or procedural.
        layer: String,
        /// Why, kept in the memory's history.
        #[arg(long)]
        reason: String,
    },
    /// A memory's status changes and moves between layers.
    History {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The memory's id.
        id: String,
    },
    /// The entities of an owner's knowledge graph, most mentioned first.
    Entities {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// Only these types (PERSON, ORGANIZATION, LOCATION, PRODUCT, CONCEPT, EVENT, OTHER).
        #[arg(long = "type", value_delimiter = ',')]
        types: Vec<String>,
        /// Only names or aliases containing this.
        #[arg(long)]
        query: Option<String>,
        /// Page size, 1 to 1,000 (default 50).
        #[arg(long)]
        limit: Option<usize>,
    },
    /// Relationships of an owner's graph (or of one entity), strongest first.
    Relationships {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// Only those touching this entity (a name or alias; `user` is the owner).
        #[arg(long)]
        of: Option<String>,
        /// Only these relations (works_at, friend_of, …).
        #[arg(long = "relation", value_delimiter = ',')]
        relations: Vec<String>,
        /// Drop relationships weaker than this (strength is 0 to 1).
        #[arg(long, value_parser = finite)]
        min_strength: Option<f64>,
        /// Leave out inferred reverse edges.
        #[arg(long)]
        stated_only: bool,
        /// At most this many, strongest first, 1 to 1,000 (default 50).
        #[arg(long)]
        limit: Option<usize>,
    },
    /// Walk the graph breadth-first from an entity.
    Traverse {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The entity to start from (a name or alias; `user` is the owner).
        from: String,
        /// Hops (1–5, default 2).
        #[arg(long)]
        depth: Option<usize>,
        /// Follow only these relations (works_at, friend_of, …).
        #[arg(long = "relation", value_delimiter = ',')]
        relations: Vec<String>,
    },
    /// The peer card of an entity: its names, most important facts, strongest relationships
    /// and a summary (it needs 3 live memories that name it).
    Card {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// A name or alias, as `entities` lists them.
        name: String,
    },
    /// Bridges consolidation proposed: entities named together in different conversations,
    /// with their evidence and the LLM's decision.
    Bridges {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// Only these: proposed, confirmed or rejected.
        #[arg(long)]
        status: Option<String>,
        /// At most this many, the most contexts first, 1 to 1,000 (default 50).
        #[arg(long)]
        limit: Option<usize>,
    },
    /// The shortest path between two entities.
    Path {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// One end (a name or alias; `user` is the owner).
        from: String,
        /// The other end (a name or alias).
        to: String,
        /// Longest path looked for, in hops, 1 to 5 (default 5).
        #[arg(long)]
        max_depth: Option<usize>,
    },
    /// Conflicts found on writes, newest first.
    Conflicts {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// Only open ones (waiting for `resolve`).
        #[arg(long, conflicts_with = "resolved")]
        open: bool,
        /// Only resolved ones.
        #[arg(long)]
        resolved: bool,
        /// At most this many, newest first, 1 to 1,000 (default 50).
        #[arg(long)]
        limit: Option<usize>,
    },
    /// Decide an open conflict: keep_existing, use_new, merge or keep_both.
    Resolve {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The conflict's id (cfl_…).
        id: String,
        /// keep_existing, use_new, merge or keep_both.
        resolution: String,
        /// Why, kept with the conflict.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Schedules: cron-tagged plans that fall due again and again.
    Schedule {
        /// What to do with schedules.
        #[command(subcommand)]
        action: ScheduleAction,
    },
    /// The schedules due now (each due time once).
    Scheduled {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
    },
    /// Whether the agent should speak up now: the 14 signals, the decision and why, and when
    /// to check again. Records the act unless --dry-run.
    Heartbeat {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// observe, suggest (the default) or act.
        #[arg(long)]
        autonomy: Option<String>,
        /// The owner's offset from UTC in minutes (e.g. -300, 60).
        #[arg(long, allow_hyphen_values = true)]
        utc_offset: Option<i32>,
        /// How far ahead deadlines count ("24h", "3d").
        #[arg(long)]
        deadline_window: Option<String>,
        /// Whether the owner is in a conversation now (default: a message under 15 min old).
        #[arg(long)]
        in_conversation: Option<bool>,
        /// Decide but record nothing.
        #[arg(long)]
        dry_run: bool,
        /// Also return the agent's recent messages and the memories matching this text.
        #[arg(long)]
        query: Option<String>,
    },
    /// Record a message of the conversation, so the heartbeat knows when the owner talks and
    /// whether acts are answered.
    Message {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// user or agent.
        #[arg(long, default_value = "user")]
        role: String,
        /// The act (act_…) an agent message delivers.
        #[arg(long)]
        act: Option<String>,
        /// The conversation session.
        #[arg(long)]
        session: Option<String>,
        /// What was said.
        text: String,
    },
    /// Counts of an owner's memories.
    Stats {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
    },
    /// Apply decay, lifecycle and purges to the memories that are due (and consolidate once a
    /// day).
    Maintain,
    /// Maintain, then consolidate now: stale relationships removed, owners over
    /// `consolidation.max_memories` pruned to the archive.
    Consolidate,
    /// Move the store to another built-in embedder (every memory embedded again).
    Reembed {
        /// `mnemo-static-v1` (the default: distilled from MiniLM, matches meaning) or
        /// `mnemo-hash-v1` (feature hashing: matches words).
        #[arg(long)]
        model: String,
    },
    /// An owner's memories as JSONL (to stdout).
    Export {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
    },
    /// Import JSONL (full exports, or `{entity_id, content, …}` records) from a file or `-`;
    /// with --entity, markdown notes (a MEMORY.md: each bullet and paragraph through the
    /// extractor, tagged with its heading; importing the same file again adds nothing).
    Import {
        /// The JSONL or markdown file (`-` for stdin).
        file: PathBuf,
        /// The owner of the markdown notes in FILE.
        #[arg(long)]
        entity: Option<String>,
    },
    /// Store documents (plain text, markdown or HTML files) as passages that search finds one by
    /// one; a file ingested again replaces its earlier version (its path is its source).
    Ingest {
        /// The owner of the documents.
        #[arg(long)]
        entity: String,
        /// The files (`.txt`, `.md`, `.html`, …: UTF-8 text).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The title (with one file; default: an HTML page's title, else its first heading,
        /// else the file's name).
        #[arg(long)]
        title: Option<String>,
        /// Where the documents came from: upload (default), chat, connector, web, note,
        /// email or api.
        #[arg(long)]
        source: Option<String>,
        /// Manual tags, comma-separated.
        #[arg(long, value_delimiter = ',')]
        tags: Vec<String>,
    },
    /// Store a repository's source files as codebase memories — one per file: its path,
    /// language, opening comment and symbols (functions, types, modules) with their lines,
    /// parsed with tree-sitter (Rust, Python, TypeScript, JavaScript, Go) — keeping to what
    /// .gitignore keeps. Run again to re-sync: unchanged files change nothing, changed ones are
    /// replaced, deleted ones invalidated.
    IngestCode {
        /// The owner of the memories.
        #[arg(long)]
        entity: String,
        /// The repository's directory.
        dir: PathBuf,
    },
    /// An owner's documents, newest first (with `--all`, superseded and forgotten ones too).
    Documents {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// Superseded and forgotten documents too.
        #[arg(long)]
        all: bool,
    },
    /// One document with its passages: their sections, places and summaries.
    Document {
        /// The owner (`entity_id`).
        #[arg(long)]
        entity: String,
        /// The document's id.
        id: String,
    },
    /// Run a conformance scenario (tests/scenarios/*.json) on a fresh store and print every
    /// call's outcome as JSON — byte-identical to the native core and the browser.
    Scenario {
        /// The scenario's JSON file.
        file: PathBuf,
    },
    /// Serve the HTTP API (Keyoku's /api/v1 routes) on this store.
    Serve {
        /// The address to listen on.
        #[arg(long, default_value = "127.0.0.1")]
        bind: String,
        /// The port to listen on.
        #[arg(long, default_value_t = 18900)]
        port: u16,
        /// Connections served at once; one more is answered 503 (lowered to fit the
        /// process's file limit).
        #[arg(long, default_value_t = 1024)]
        max_connections: usize,
        /// Seconds a client may take to send a request's head or its body, or to leave a
        /// kept-alive connection idle.
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
        timeout: u64,
        /// Seconds between maintenance passes (decay, lifecycle, purges, and consolidation once
        /// its `every_hours` came round); 0: none (run `POST /consolidate` yourself).
        #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(0..=604_800))]
        maintain_every: u64,
    },
    /// Serve the memory as Model Context Protocol tools (memory_search, memory_store, …): on
    /// stdin/stdout for a desktop agent, or with --http over streamable HTTP at /mcp (behind
    /// the same token as `serve`).
    Mcp {
        /// Act for this owner only: no tool takes an entity_id (with `--agent`, no tool takes
        /// an agent_id either).
        #[arg(long)]
        entity: Option<String>,
        /// Serve over streamable HTTP instead of stdio.
        #[arg(long)]
        http: bool,
        /// With --http, the address to listen on.
        #[arg(long, default_value = "127.0.0.1", requires = "http")]
        bind: String,
        /// With --http, the port to listen on.
        #[arg(long, default_value_t = 18901, requires = "http")]
        port: u16,
        /// Seconds between maintenance passes (decay, lifecycle, purges, and consolidation —
        /// drift detection against `--workspace` included — once its `every_hours` came
        /// round), the first as the server starts; 0: none.
        #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(0..=604_800))]
        maintain_every: u64,
    },
    /// Any engine call by name, with JSON arguments; `--list` lists the calls, `--schema`
    /// prints the JSON Schema of one call's arguments and result.
    Call {
        /// The method (see --list).
        #[arg(required_unless_present = "list")]
        method: Option<String>,
        /// The call's arguments as JSON (see --schema).
        #[arg(default_value = "{}")]
        args: String,
        /// List every call with what it does.
        #[arg(long, conflicts_with = "schema")]
        list: bool,
        /// Print the schema of the call's arguments and result instead of running it.
        #[arg(long)]
        schema: bool,
    },
}

impl Command {
    /// What the command needs of the data directory. A command that adds to the store
    /// creates it; any other (a read, or a change to what must already be there) needs it to
    /// exist, so a mistyped `--data` is an error rather than an empty store; one that uses
    /// no store of the user's runs on a scratch one.
    pub fn need(&self) -> Need {
        match self {
            Command::Remember { .. }
            | Command::Seed { .. }
            | Command::Import { .. }
            | Command::Ingest { .. }
            | Command::IngestCode { .. }
            | Command::Message { .. }
            | Command::Schedule {
                action: ScheduleAction::Create { .. },
            }
            | Command::Serve { .. }
            | Command::Mcp { .. } => Need::Create,
            Command::Extract { .. } | Command::Scenario { .. } => Need::Scratch,
            Command::Call {
                method,
                list,
                schema,
                ..
            } => match mnemo_core::CALLS
                .iter()
                .find(|c| Some(c.method) == method.as_deref())
            {
                _ if *list || *schema => Need::Scratch,
                Some(c) if c.creates => Need::Create,
                Some(c) if c.stateless => Need::Scratch,
                Some(_) => Need::Existing,
                // The engine refuses an unknown method, naming it, whatever the store.
                None => Need::Scratch,
            },
            _ => Need::Existing,
        }
    }
}

/// Milliseconds since the epoch from `--now`.
pub fn parse_now(s: &str) -> Result<i64> {
    parse_time("--now", s)
}

/// The time flag `flag`'s value: RFC 3339 or milliseconds since the epoch.
fn parse_time(flag: &str, s: &str) -> Result<i64> {
    if let Ok(ms) = s.parse::<i64>() {
        return Ok(ms);
    }
    let t = time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
        .with_context(|| {
            format!(
                "{flag} {s:?} is neither RFC 3339 (2026-01-31T09:00:00Z) nor ms since the epoch"
            )
        })?;
    Ok((t.unix_timestamp_nanos() / 1_000_000) as i64)
}

/// A whole text input: a file, or `-` for stdin (scenarios).
pub fn read_input(path: &PathBuf) -> Result<String> {
    let mut s = String::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut s)?;
    } else {
        s = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    }
    Ok(s)
}

/// A number flag's value: finite only. NaN and the infinities have no JSON form (they would
/// reach the engine as `null`, i.e. as if the flag were not given), so they are refused here.
fn finite(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(x),
        Ok(_) => Err("must be a finite number (e.g. 0.8), not NaN or an infinity".into()),
        Err(e) => Err(format!("not a number ({e})")),
    }
}

/// Longest line a JSONL input may have. A memory's content is at most 50,000 characters; an
/// exported record with its vector, history and graph stays far below this.
const MAX_LINE_BYTES: usize = 16 << 20;

/// The non-blank lines of a JSONL input (a file, or `-` for stdin), each with its number
/// (the first is 1). The input is streamed and checked as it arrives: a NUL byte (never in
/// JSONL text), a line over [`MAX_LINE_BYTES`] or invalid UTF-8 is refused at once with
/// `bad(line, reason)`, so a wrong input (a binary, a device) is never read whole.
fn read_lines(
    path: &Path,
    bad: impl Fn(usize, String) -> mnemo_core::Error,
) -> Result<Vec<(usize, String)>> {
    let (name, mut reader): (String, Box<dyn BufRead>) = if path.as_os_str() == "-" {
        ("stdin".into(), Box::new(std::io::stdin().lock()))
    } else {
        let file =
            std::fs::File::open(path).with_context(|| format!("reading {}", path.display()))?;
        (path.display().to_string(), Box::new(BufReader::new(file)))
    };
    let mut lines = Vec::new();
    let mut line: Vec<u8> = Vec::new();
    let mut number = 1;
    loop {
        let buf = reader
            .fill_buf()
            .with_context(|| format!("reading {name}"))?;
        let eof = buf.is_empty();
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        if let Some(at) = chunk.iter().position(|&b| b == 0) {
            let column = line.len() + at + 1;
            return Err(bad(
                number,
                format!("a NUL byte at column {column}: {name} is not JSONL text (a binary file?)"),
            )
            .into());
        }
        if line.len() + chunk.len() > MAX_LINE_BYTES {
            return Err(bad(
                number,
                format!(
                    "longer than {} MiB; {name} is not JSONL of memories",
                    MAX_LINE_BYTES >> 20
                ),
            )
            .into());
        }
        line.extend_from_slice(chunk);
        let used = newline.map_or(chunk.len(), |i| i + 1);
        reader.consume(used);
        if newline.is_some() || (eof && !line.is_empty()) {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let text = String::from_utf8(std::mem::take(&mut line))
                .map_err(|e| bad(number, format!("not valid UTF-8 ({})", e.utf8_error())))?;
            if !text.trim().is_empty() {
                lines.push((number, text));
            }
            number += 1;
        }
        if eof {
            return Ok(lines);
        }
    }
}

/// The engine calls one command makes: one, or a batch per chunk of a file seeded or
/// imported. A value the engine would refuse is refused here with the engine's error (a
/// `mnemo_core::Error` inside the `anyhow::Error`).
pub fn calls(command: Command) -> Result<Vec<Call>> {
    match command {
        Command::Seed {
            file: Some(file), ..
        } => seed_file(&file),
        Command::Import { file, entity: None } => import_file(&file),
        Command::Ingest {
            entity,
            files,
            title,
            source,
            tags,
        } => ingest_files(&entity, &files, title, source, &tags),
        Command::IngestCode { entity, dir } => ingest_code(&entity, &dir),
        command => Ok(vec![call(command)?]),
    }
}

/// The one engine call of a command that makes one: its flags written as the call's JSON
/// arguments (flags not given left out) and parsed as every face parses them, so a bad value
/// is refused with the engine's own error, named by its argument (`args.limit`).
fn call(command: Command) -> Result<Call> {
    let (method, args) = match command {
        Command::Remember {
            entity,
            text,
            session,
            source_ref,
        } => (
            "remember",
            json!({"entity_id": entity, "content": text, "session_id": session,
                   "source_ref": source_ref}),
        ),
        Command::Extract { text } => ("extract", json!({ "content": text })),
        Command::Seed {
            entity,
            content,
            memory_type,
            importance,
            tags,
            pinned,
            expires,
            file: None,
        } => {
            let (Some(entity), Some(content)) = (entity, content) else {
                bail!("seed needs --entity and a content, or --file");
            };
            let expires_at = expires
                .as_deref()
                .map(|s| parse_time("--expires", s))
                .transpose()?;
            let item = given(json!({"entity_id": entity, "content": content,
                "type": memory_type, "importance": importance, "tags": tags, "pinned": pinned,
                "expires_at": expires_at}));
            ("seed", json!({ "items": [item] }))
        }
        Command::Search {
            entity,
            query,
            limit,
            mode,
            types,
            include_archived,
            after,
            before,
            as_of,
        } => {
            let time = |flag: &str, t: Option<String>| -> Result<Option<i64>> {
                t.as_deref().map(|s| parse_time(flag, s)).transpose()
            };
            let (after, before) = (time("--after", after)?, time("--before", before)?);
            let as_of = time("--as-of", as_of)?;
            (
                "search",
                given(json!({"entity_id": entity, "query": query, "limit": limit,
                    "mode": mode, "types": types, "include_archived": include_archived,
                    "after": after, "before": before, "as_of": as_of})),
            )
        }
        Command::Get { entity, id } => ("get", memory_ref(entity, id)),
        Command::List {
            entity,
            limit,
            offset,
            states,
            types,
        } => (
            "list",
            json!({"entity_id": entity, "limit": limit, "offset": offset, "states": states,
                   "types": types}),
        ),
        Command::Update {
            entity,
            id,
            content,
            memory_type,
            importance,
            tags,
        } => {
            let patch = given(json!({"content": content, "type": memory_type,
                "importance": importance, "tags": tags}));
            (
                "update",
                json!({"entity_id": entity, "id": id, "patch": patch}),
            )
        }
        Command::Forget { entity, id } => ("forget", memory_ref(entity, id)),
        Command::Reinforce { entity, id } => ("reinforce", memory_ref(entity, id)),
        Command::Demote { entity, id } => ("demote", memory_ref(entity, id)),
        Command::Pin { entity, id, off } => (
            "pin",
            json!({"entity_id": entity, "id": id, "pinned": !off}),
        ),
        Command::Status {
            entity,
            id,
            status,
            reason,
        } => (
            "set_status",
            json!({"entity_id": entity, "id": id, "status": status, "reason": reason}),
        ),
        Command::Layer {
            entity,
            id,
            layer,
            reason,
        } => (
            "set_layer",
            json!({"entity_id": entity, "id": id, "layer": layer, "reason": reason}),
        ),
        Command::History { entity, id } => ("status_history", memory_ref(entity, id)),
        Command::Stats { entity } => ("stats", owner(entity)),
        Command::Documents { entity, all } => {
            ("documents", json!({"entity_id": entity, "all": all}))
        }
        Command::Document { entity, id } => ("document", memory_ref(entity, id)),
        Command::Scheduled { entity } => ("scheduled", owner(entity)),
        Command::Heartbeat {
            entity,
            autonomy,
            utc_offset,
            deadline_window,
            in_conversation,
            dry_run,
            query,
        } => (
            // The context for a query when one is given, else a check.
            if query.is_some() {
                "heartbeat_context"
            } else {
                "heartbeat_check"
            },
            json!({"entity_id": entity, "autonomy": autonomy, "utc_offset_minutes": utc_offset,
                   "deadline_window": deadline_window, "in_conversation": in_conversation,
                   "dry_run": dry_run, "query": query}),
        ),
        Command::Message {
            entity,
            role,
            act,
            session,
            text,
        } => (
            "record_message",
            json!({"entity_id": entity, "role": role, "content": text, "act_id": act,
                   "session_id": session}),
        ),
        Command::Schedule { action } => schedule(action),
        Command::Conflicts {
            entity,
            open,
            resolved,
            limit,
        } => {
            // `--open` wins; all conflicts without either.
            let status = match (open, resolved) {
                (true, _) => Some("open"),
                (_, true) => Some("resolved"),
                _ => None,
            };
            (
                "conflicts",
                json!({"entity_id": entity, "status": status, "limit": limit}),
            )
        }
        Command::Resolve {
            entity,
            id,
            resolution,
            reason,
        } => (
            "resolve_conflict",
            json!({"entity_id": entity, "id": id, "resolution": resolution, "reason": reason}),
        ),
        Command::Entities {
            entity,
            types,
            query,
            limit,
        } => (
            "entities",
            json!({"entity_id": entity, "types": types, "query": query, "limit": limit}),
        ),
        Command::Relationships {
            entity,
            of,
            relations,
            min_strength,
            stated_only,
            limit,
        } => (
            "relationships",
            json!({"entity_id": entity, "entity": of, "relations": relations,
                   "min_strength": min_strength, "stated_only": stated_only, "limit": limit}),
        ),
        Command::Traverse {
            entity,
            from,
            depth,
            relations,
        } => (
            "traverse",
            json!({"entity_id": entity, "from": from, "depth": depth, "relations": relations}),
        ),
        Command::Card { entity, name } => ("card", json!({"entity_id": entity, "name": name})),
        Command::Bridges {
            entity,
            status,
            limit,
        } => (
            "bridges",
            json!({"entity_id": entity, "status": status, "limit": limit}),
        ),
        Command::Path {
            entity,
            from,
            to,
            max_depth,
        } => (
            "path",
            json!({"entity_id": entity, "from": from, "to": to, "max_depth": max_depth}),
        ),
        Command::Maintain => ("maintain", json!({})),
        Command::Consolidate => ("consolidate", json!({})),
        Command::Reembed { model } => ("reembed", json!({ "model": model })),
        Command::Export { entity } => ("export", owner(entity)),
        Command::Import {
            file,
            entity: Some(entity),
        } => import_notes(&file, entity)?,
        Command::Seed { file: Some(_), .. }
        | Command::Import { entity: None, .. }
        | Command::Ingest { .. }
        | Command::IngestCode { .. } => {
            unreachable!("a batch per chunk of the file: handled by calls")
        }
        Command::Call { .. }
        | Command::Scenario { .. }
        | Command::Serve { .. }
        | Command::Mcp { .. } => {
            unreachable!("handled by run")
        }
    };
    Ok(Call::parse(method, &given(args))?)
}

/// The arguments without the flags not given (`null`, an empty list): the call's defaults
/// stand for them.
fn given(args: Value) -> Value {
    match args {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(_, v)| !v.is_null() && v.as_array().is_none_or(|a| !a.is_empty()))
                .collect(),
        ),
        other => other,
    }
}

fn memory_ref(entity_id: String, id: String) -> Value {
    json!({ "entity_id": entity_id, "id": id })
}

fn owner(entity_id: String) -> Value {
    json!({ "entity_id": entity_id })
}

/// A `seed --file`: the file's JSONL memories, a call per [`SEED_BATCH`].
fn seed_file(file: &Path) -> Result<Vec<Call>> {
    let field = |n: usize| format!("{} line {n}", file.display());
    let lines = read_lines(file, |n, reason| mnemo_core::Error::InvalidInput {
        field: field(n),
        reason,
    })?;
    let mut items: Vec<NewMemory> = Vec::with_capacity(lines.len());
    for (n, line) in &lines {
        items.push(mnemo_core::api::from_text(&field(*n), line)?);
    }
    Ok(items
        .chunks(SEED_BATCH)
        .map(|c| Call::Seed(SeedArgs { items: c.to_vec() }))
        .collect())
}

/// An `import` without `--entity`: an export's JSONL, a call per [`IMPORT_BATCH`] lines, each
/// its own transaction, so what was acknowledged stays. Markdown notes need an owner.
fn import_file(file: &Path) -> Result<Vec<Call>> {
    if file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown"))
    {
        return Err(mnemo_core::Error::InvalidInput {
            field: "entity".into(),
            reason: format!(
                "{} is markdown notes: say whose they are with --entity",
                file.display()
            ),
        }
        .into());
    }
    let lines = read_lines(file, |line, reason| mnemo_core::Error::ImportLine {
        line,
        reason,
    })?;
    Ok(lines
        .chunks(IMPORT_BATCH)
        .map(|c| {
            let lines: Vec<&str> = c.iter().map(|(_, l)| l.as_str()).collect();
            Call::Import(ImportArgs {
                jsonl: lines.join("\n"),
            })
        })
        .collect())
}

/// The `ingest` calls of files: one per file, each read as text (see [`files::read`]) and
/// checked before anything is stored.
fn ingest_files(
    entity: &str,
    files: &[PathBuf],
    title: Option<String>,
    source: Option<String>,
    tags: &[String],
) -> Result<Vec<Call>> {
    if title.is_some() && files.len() > 1 {
        bail!("--title names one document: give one file, or leave titles to the files' headings");
    }
    let mut calls = Vec::with_capacity(files.len());
    for file in files {
        let shown = file.display();
        let read = files::read(file)?;
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| shown.to_string());
        let source_ref = std::fs::canonicalize(file)
            .map(|p| format!("file://{}", p.display()))
            .ok();
        let args = given(
            json!({"entity_id": entity, "title": title, "content": read.text,
            "filename": name, "mime": read.mime, "source": source, "tags": tags,
            "source_ref": source_ref}),
        );
        let call = Call::parse("ingest", &args).with_context(|| format!("ingesting {shown}"))?;
        calls.push(call);
    }
    Ok(calls)
}

/// An `ingest-code`: the repository's files read and parsed, in as few calls as fit; what was
/// not read is said on stderr.
fn ingest_code(entity: &str, dir: &Path) -> Result<Vec<Call>> {
    let tree = crate::code::read(dir)?;
    for why in &tree.skipped {
        eprintln!("mnemo: left out {why}");
    }
    if tree.files.is_empty() {
        bail!(
            "{}: no Rust, Python, TypeScript, JavaScript or Go files to read",
            dir.display()
        );
    }
    crate::code::batches(tree.files)
        .into_iter()
        .map(|(files, complete)| {
            let args = json!({"entity_id": entity, "files": files, "complete": complete});
            Ok(Call::parse("ingest_code", &args)?)
        })
        .collect()
}

/// An `import --entity`: the markdown notes of a file (or stdin), named for the file.
fn import_notes(file: &Path, entity: String) -> Result<(&'static str, Value)> {
    let markdown = if file.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut text)
            .context("reading markdown notes from stdin")?;
        text
    } else {
        std::fs::read_to_string(file)
            .with_context(|| format!("reading markdown notes from {}", file.display()))?
    };
    let source = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "stdin".into());
    Ok((
        "import_notes",
        json!({"entity_id": entity, "markdown": markdown, "source": source}),
    ))
}

/// The call of a `schedule` subcommand, with its arguments.
fn schedule(action: ScheduleAction) -> (&'static str, Value) {
    match action {
        ScheduleAction::Create { entity, cron, text } => (
            "schedule_create",
            json!({"entity_id": entity, "content": text, "cron_tag": cron}),
        ),
        ScheduleAction::List { entity, all } => {
            ("schedules", json!({"entity_id": entity, "all": all}))
        }
        ScheduleAction::Ack { entity, id } => ("schedule_ack", memory_ref(entity, id)),
        ScheduleAction::Update {
            entity,
            id,
            cron,
            text,
        } => (
            "schedule_update",
            json!({"entity_id": entity, "id": id, "content": text, "cron_tag": cron}),
        ),
        ScheduleAction::Cancel { entity, id } => ("schedule_cancel", memory_ref(entity, id)),
    }
}

/// Memories per `seed` call when seeding from a file.
pub const SEED_BATCH: usize = 1000;
/// Lines per `import` call (one transaction each).
const IMPORT_BATCH: usize = 1000;

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    /// The definition is sound (clap's own checks), and every command, flag and argument
    /// says in `--help` what it is.
    #[test]
    fn every_command_and_argument_is_documented() {
        fn undocumented(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
            for a in cmd.get_arguments() {
                if a.get_help().is_none() && !matches!(a.get_id().as_str(), "help" | "version") {
                    out.push(format!("{path} {}", a.get_id()));
                }
            }
            for sub in cmd.get_subcommands() {
                let path = format!("{path} {}", sub.get_name());
                if sub.get_about().is_none() {
                    out.push(path.clone());
                }
                undocumented(sub, &path, out);
            }
        }
        Cli::command().debug_assert();
        let mut out = Vec::new();
        undocumented(&Cli::command(), "mnemo", &mut out);
        assert!(out.is_empty(), "undocumented: {out:?}");
    }
}
