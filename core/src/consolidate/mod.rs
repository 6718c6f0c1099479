//! Consolidation, the sleep cycle: the steps that keep a growing store useful, run
//! by `maintain` once per `every_hours` of engine time and by `consolidate` on demand. Each
//! step is bounded in work per run (at most [`STEP_BATCH`] rows) and idempotent: a run after
//! one that reported no more work changes nothing.
//!
//! Steps so far, in the order they run: stale-edge cleanup ([`edges`]), belief probing
//! ([`probe`]), drift detection against the host's workspace ([`drift`]), auto-tag refresh
//! ([`tags`]), cluster-and-merge of near-duplicates ([`cluster`]), size-bounded pruning
//! ([`prune`]), relationship discovery from shared entities and tags ([`relate`]), bridges
//! between entities named together in different contexts ([`synthesis`]), the daily
//! decay of co-recall links ([`crate::links`]), tiering by what those left ([`tiers`]) and
//! re-quantisation of fading memories' vectors by retention ([`quantise`]) and documents'
//! summaries rewritten by the host's LLM ([`summaries`]), peer cards' summaries by the host's
//! LLM ([`cards`]), and old acts and messages dropped
//! ([`events`]);
//! decay, lifecycle and purges are the maintenance pass they run after.

mod cards;
mod cluster;
mod drift;
mod edges;
mod events;
mod probe;
mod prune;
mod quantise;
mod relate;
mod summaries;
mod synthesis;
mod tags;
mod tiers;

use serde::{Deserialize, Serialize};

use crate::clock::{Millis, DAY_MS};
use crate::error::{Error, Result};
use crate::extract::Extractor;
use crate::heartbeat::HeartbeatConfig;
use crate::links::{self, LinksReport};
use crate::store::Tx;
use crate::workspace::Workspace;

pub(crate) use cards::write_host_summary;
pub use cards::{CardSummaryWrite, CardWanted, CardsReport};
pub use cluster::{ClusterMerge, ClusterReport};
pub(crate) use drift::report_findings;
pub use drift::{DriftFindings, DriftReport, DriftWanted, PathFound, PathKind, MAX_DRIFT_PATHS};
pub use edges::EdgesReport;
pub use events::EventsReport;
pub use probe::{ProbeReport, CHALLENGE_IMPORTANCE_LOSS};
pub use prune::PruneReport;
pub use quantise::QuantiseReport;
pub use relate::RelateReport;
pub use summaries::{SummariesReport, SummaryWanted};
pub(crate) use synthesis::decide_bridge;
pub use synthesis::{BridgeDecision, BridgeWanted, SynthesisReport};
pub use tags::TagsReport;
pub use tiers::TiersReport;

/// Rows a step reads or changes per run at most.
pub(crate) const STEP_BATCH: usize = 1000;

/// Where the time of the last consolidation is kept (meta table).
const LAST_RUN_KEY: &str = "consolidated_at";

/// Settings of consolidation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ConsolidateConfig {
    /// `maintain` consolidates when this many hours passed since the last run (0: every time).
    pub every_hours: f64,
    /// Relationships not stated for this many days …
    pub stale_edge_days: f64,
    /// … whose mean confidence is at most this are removed (Kybernesis: 7 days, 0.35).
    pub stale_edge_confidence: f64,
    /// Live (not archived or deleted) memories an owner may hold before pruning archives the
    /// least useful; none: no bound.
    pub max_memories: Option<u64>,
    /// Share of the owner's live memories pruning archives at least, in percent (koshi: 1 %);
    /// it archives at least down to `max_memories`.
    pub prune_percent: f64,
}

impl Default for ConsolidateConfig {
    fn default() -> Self {
        ConsolidateConfig {
            every_hours: 24.0,
            stale_edge_days: 7.0,
            stale_edge_confidence: 0.35,
            max_memories: None,
            prune_percent: 1.0,
        }
    }
}

impl ConsolidateConfig {
    /// Checks the settings are in range.
    pub fn validate(&self) -> Result<()> {
        for (name, v, max) in [
            ("every_hours", self.every_hours, 24.0 * 365.0),
            ("stale_edge_days", self.stale_edge_days, 3650.0),
            ("stale_edge_confidence", self.stale_edge_confidence, 1.0),
            ("prune_percent", self.prune_percent, 100.0),
        ] {
            if !v.is_finite() || !(0.0..=max).contains(&v) {
                return Err(Error::invalid(
                    format!("config.consolidation.{name}"),
                    format!("{v} is not between 0 and {max}"),
                ));
            }
        }
        if self.max_memories == Some(0) {
            return Err(Error::invalid(
                "config.consolidation.max_memories",
                "must be at least 1 (leave it out for no bound)",
            ));
        }
        Ok(())
    }
}

/// What one consolidation did, step by step.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Consolidation {
    /// Stale relationships and withdrawn evidence removed from the graph.
    pub edges: EdgesReport,
    /// Memories challenged because newer ones of their scope say otherwise.
    pub probing: ProbeReport,
    /// Memories invalidated because a path they cite is gone from the host's workspace, and
    /// restored when it is back.
    pub drift: DriftReport,
    /// Automatic tags refreshed.
    pub tags: TagsReport,
    /// Clusters of near-duplicate memories merged.
    pub clusters: ClusterReport,
    /// Memories archived to keep owners within `max_memories`.
    pub pruning: PruneReport,
    /// Memories linked by the entities and tags they share.
    pub relationships: RelateReport,
    /// Entity pairs named together in different contexts proposed as bridges, and those the
    /// host's LLM confirmed or rejected.
    pub synthesis: SynthesisReport,
    /// Co-recall links decayed (×0.95 per day) and removed (below 0.1).
    pub links: LinksReport,
    /// Memories moved between hot, warm and archive tiers.
    pub tiers: TiersReport,
    /// Vectors stored with fewer bits as their memories faded.
    pub quantisation: QuantiseReport,
    /// Documents' and passages' summaries rewritten by the host's LLM.
    pub summaries: SummariesReport,
    /// Peer cards' summaries written by the host's LLM.
    pub cards: CardsReport,
    /// Heartbeat acts and recorded messages older than `heartbeat.keep_days` dropped.
    pub events: EventsReport,
    /// A step stopped at its bound: run again to finish.
    pub more: bool,
}

/// Whether `maintain` should consolidate at `now` (never ran, or `every_hours` passed).
pub(crate) fn due(tx: &Tx, cfg: &ConsolidateConfig, now: Millis) -> Result<bool> {
    let every = (cfg.every_hours * DAY_MS as f64 / 24.0) as Millis;
    Ok(match last_run(tx)? {
        None => true,
        Some(at) => now.saturating_sub(at) >= every,
    })
}

/// The memories in use a cursor step examines this run: up to [`STEP_BATCH`] after the cursor
/// kept in the meta table under `key`, which moves past them (back to the beginning once the
/// end is reached; in the run's transaction, so a failed run moves nothing). Returns them with
/// their owners, and whether more wait.
pub(crate) fn next_batch(tx: &Tx, key: &str) -> Result<(Vec<(i64, String)>, bool)> {
    let conn = tx.conn();
    let cursor: i64 = crate::store::schema::meta(conn, key)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut rows = crate::store::memories::in_use_after(conn, cursor, STEP_BATCH + 1)?;
    let more = rows.len() > STEP_BATCH;
    rows.truncate(STEP_BATCH);
    let next = match rows.last() {
        Some((pk, _)) if more => *pk,
        _ => 0,
    };
    crate::store::schema::set_meta(conn, key, &next.to_string())?;
    Ok((rows, more))
}

fn last_run(tx: &Tx) -> Result<Option<Millis>> {
    Ok(crate::store::schema::meta(tx.conn(), LAST_RUN_KEY)?.and_then(|v| v.parse().ok()))
}

/// Runs every step once, in one transaction, and records the time it ran; `llm` summarises
/// the clusters merged, and rewrites documents' summaries, when the host has one; `workspace`
/// is what drift detection checks cited paths against.
pub(crate) fn run(
    tx: &mut Tx,
    cfg: &ConsolidateConfig,
    heartbeat: &HeartbeatConfig,
    llm: &dyn Extractor,
    workspace: &dyn Workspace,
) -> Result<Consolidation> {
    let now = tx.now()?;
    let edges = edges::clean(tx, cfg, now)?;
    let probing = probe::probe(tx)?;
    let drift = drift::detect(tx, workspace)?;
    let tags = tags::refresh(tx, now)?;
    let clusters = cluster::merge_clusters(tx, now, llm)?;
    let pruning = prune::prune(tx, cfg, now)?;
    let relationships = relate::discover(tx, now)?;
    let synthesis = synthesis::synthesise(tx, llm, now)?;
    let links = links::decay(tx.conn(), now, STEP_BATCH)?;
    let tiers = tiers::retier(tx)?;
    let quantisation = quantise::requantise(tx)?;
    let summaries = summaries::rewrite(tx, llm, now)?;
    let cards = cards::write(tx, llm, now)?;
    let events = events::prune(tx, heartbeat, now)?;
    crate::store::schema::set_meta(tx.conn(), LAST_RUN_KEY, &now.to_string())?;
    Ok(Consolidation {
        more: edges.more
            || probing.more
            || drift.more
            || tags.more
            || clusters.more
            || pruning.more
            || relationships.more
            || synthesis.more
            || links.more
            || tiers.more
            || quantisation.more
            || summaries.more
            || cards.more
            || events.more,
        edges,
        probing,
        drift,
        tags,
        clusters,
        pruning,
        relationships,
        synthesis,
        links,
        tiers,
        quantisation,
        summaries,
        cards,
        events,
    })
}
