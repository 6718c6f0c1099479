//! Conflicts: a new memory that contradicts a close existing one — a
//! negation, a stated change ("no longer", "switched to", "now"), a preference that flipped, a
//! number, place, job or partner that changed. Each kind has a default resolution mode; the
//! configuration may override it. `detect` decides, `resolve` (in the write path and the
//! `resolve_conflict` call) applies a mode, `query` lists conflicts.

mod detect;
mod query;
mod resolve;
mod sql;

use serde::{Deserialize, Serialize};

use crate::model::string_enum;

pub use detect::{detect, exclusive, Statement};
pub(crate) use query::{list, resolve, DEFAULT_LIMIT};
pub use query::{Conflict, ConflictsRequest, ResolveRequest};
pub(crate) use resolve::{find, settle};

string_enum! {
    /// What kind of contradiction a conflict is.
    ConflictKind, "conflict kind" {
        /// One says the opposite of the other ("likes" / "does not like").
        Negation = "negation",
        /// The new one says something changed ("no longer", "switched to").
        StatedChange = "stated_change",
        /// A preference turned the other way.
        PreferenceFlip = "preference_flip",
        /// The same thing with a different number.
        ChangedNumber = "changed_number",
        /// Lives or was born somewhere else.
        ChangedPlace = "changed_place",
        /// Works somewhere else.
        ChangedJob = "changed_job",
        /// A different partner or relationship.
        ChangedRelationship = "changed_relationship",
    }
}

string_enum! {
    /// How a conflict is resolved.
    ConflictMode, "conflict mode" {
        /// The existing memory stays; the new one is not stored.
        KeepExisting = "keep_existing",
        /// The new memory is stored; the existing one becomes superseded.
        UseNew = "use_new",
        /// Both statements are kept in one new memory; both old ones become merged.
        Merge = "merge",
        /// Both are kept and the conflict stays open until `resolve_conflict` (the heartbeat
        /// surfaces it).
        Ask = "ask",
        /// The newer statement (by creation time) wins; the older becomes superseded.
        Temporal = "temporal",
    }
}

string_enum! {
    /// Whether a conflict still waits for a decision.
    ConflictStatus, "conflict status" {
        /// Waiting for a decision.
        Open = "open",
        /// Decided.
        Resolved = "resolved",
    }
}

string_enum! {
    /// A decision on an open conflict.
    Resolution, "resolution" {
        /// The existing memory stands; the new one, if stored, is superseded.
        KeepExisting = "keep_existing",
        /// The new memory stands; the existing one is superseded.
        UseNew = "use_new",
        /// Both statements are merged into one new memory.
        Merge = "merge",
        /// Both memories stand: the conflict was not one.
        KeepBoth = "keep_both",
    }
}

impl ConflictKind {
    /// The mode used unless the configuration says otherwise: a change the speaker stated, or
    /// a fact that naturally changes (where one lives or works, an age), goes to the newer
    /// statement; a bare contradiction or a flipped taste is asked about.
    pub fn default_mode(self) -> ConflictMode {
        match self {
            ConflictKind::StatedChange
            | ConflictKind::ChangedNumber
            | ConflictKind::ChangedPlace
            | ConflictKind::ChangedJob
            | ConflictKind::ChangedRelationship => ConflictMode::Temporal,
            ConflictKind::Negation | ConflictKind::PreferenceFlip => ConflictMode::Ask,
        }
    }
}

/// Conflict settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ConflictConfig {
    /// Look for conflicts at all.
    pub enabled: bool,
    /// One mode for every kind instead of each kind's default.
    pub mode: Option<ConflictMode>,
    /// Cosine similarity above which a neighbour is compared for the textual kinds (negation,
    /// stated change, flipped preference, changed number).
    pub min_similarity: f64,
}

impl Default for ConflictConfig {
    fn default() -> Self {
        ConflictConfig {
            enabled: true,
            mode: None,
            min_similarity: 0.3,
        }
    }
}

impl ConflictConfig {
    /// The mode for a conflict of `kind`.
    pub fn mode_for(&self, kind: ConflictKind) -> ConflictMode {
        self.mode.unwrap_or_else(|| kind.default_mode())
    }
}
