//! The memory data model: types, kinds, layers, states, statuses, tiers, sources.

use serde::{Deserialize, Serialize};

use crate::clock::Millis;

/// Declares a string-valued enum with `as_str`, `FromStr` (clear error on unknown values),
/// `ALL`, and serde using the same spelling.
macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident, $field:literal { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, schemars::JsonSchema)]
        pub enum $name {
            $($(#[$vmeta])* #[schemars(rename = $text)] $variant),+
        }
        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every value's spelling, in declaration order.
            const TEXTS: &'static [&'static str] = &[$($text),+];
            /// The value's spelling in storage and JSON.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }
        // Written as its spelling, and read by one reader that serves every such enum (see
        // `Variant`): serde's derive would put a string, bytes and enum reader and a writer per
        // enum into the WebAssembly module.
        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let i = d.deserialize_str($crate::model::Variant($name::TEXTS))?;
                Ok($name::ALL[i])
            }
        }
        impl std::str::FromStr for $name {
            type Err = $crate::error::Error;
            fn from_str(s: &str) -> Result<Self, $crate::error::Error> {
                match s {
                    $($text => Ok($name::$variant),)+
                    _ => Err($crate::error::Error::UnknownValue {
                        field: $field,
                        value: s.chars().take(64).collect(),
                        allowed: [$($text),+].join(", "),
                    }),
                }
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use string_enum;

/// Reads a `string_enum!` value from its spelling, as its index: one reader for every such
/// enum, with serde's words for a bad one (`unknown variant `x`, expected one of …`). Only a
/// string is such a value.
pub(crate) struct Variant(pub &'static [&'static str]);

impl<'de> serde::de::Visitor<'de> for Variant {
    type Value = usize;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("variant identifier")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<usize, E> {
        let shown = || v.chars().take(64).collect::<String>();
        self.0
            .iter()
            .position(|t| *t == v)
            .ok_or_else(|| E::unknown_variant(&shown(), self.0))
    }
}

string_enum! {
    /// The eight memory types; each has a base stability.
    MemoryType, "type" {
        /// Who the owner is (name, job, background); decays slowest (stability 365 days).
        Identity = "IDENTITY",
        /// What the owner likes or dislikes (stability 270 days).
        Preference = "PREFERENCE",
        /// Who the owner knows and how (stability 270 days).
        Relationship = "RELATIONSHIP",
        /// Something that happened (stability 120 days).
        Event = "EVENT",
        /// Something the owner is doing (stability 90 days).
        Activity = "ACTIVITY",
        /// Something the owner intends to do, a goal or a deadline (stability 60 days).
        Plan = "PLAN",
        /// The situation of the moment (stability 21 days).
        Context = "CONTEXT",
        /// Small talk and passing details; fades fastest (stability 3 days).
        Ephemeral = "EPHEMERAL",
    }
}

impl MemoryType {
    /// Base stability τ in days: the e-folding time of the retention curve.
    pub fn stability_days(self) -> f64 {
        match self {
            MemoryType::Identity => 365.0,
            MemoryType::Preference => 270.0,
            MemoryType::Relationship => 270.0,
            MemoryType::Event => 120.0,
            MemoryType::Activity => 90.0,
            MemoryType::Plan => 60.0,
            MemoryType::Context => 21.0,
            MemoryType::Ephemeral => 3.0,
        }
    }
}

string_enum! {
    /// What sort of knowledge a memory holds; recall filters use it.
    Kind, "kind" {
        /// A statement of what is (returned by every recall filter).
        Fact = "fact",
        /// How to do something, a rule or a habit.
        Procedure = "procedure",
        /// A story or an account (only `full_context` recall returns it).
        Narrative = "narrative",
        /// A passage of a document (`ingest` writes them; never merged, contradicted or
        /// clustered with other memories).
        Passage = "passage",
    }
}

string_enum! {
    /// Memory layer: working memories promote to episodic, then semantic.
    Layer, "layer" {
        /// Fresh: promoted to episodic with age or use.
        Working = "working",
        /// Older or used again; promoted to semantic when important and used often.
        Episodic = "episodic",
        /// Lasting knowledge: exempt from decay.
        Semantic = "semantic",
        /// How things are done: exempt from decay.
        Procedural = "procedural",
        /// Compressed code knowledge — a source file's path, language, summary and symbols —
        /// that only `ingest_code` writes: exempt from decay, never merged, contradicted or
        /// clustered.
        Codebase = "codebase",
    }
}

string_enum! {
    /// Lifecycle state, driven by retention.
    State, "state" {
        /// Retained well; searched and returned as usual.
        Active = "ACTIVE",
        /// Fading: still searched, ranked lower.
        Stale = "STALE",
        /// Faded: searched only when asked or when too few others answer.
        Archived = "ARCHIVED",
        /// Forgotten (soft-deleted): purged after the retention period.
        Deleted = "DELETED",
    }
}

string_enum! {
    /// Validity status; every change is written to the status history.
    Status, "status" {
        /// Believed true.
        Active = "active",
        /// Contradicted by a newer statement, not decided yet.
        Challenged = "challenged",
        /// Known to be wrong.
        Invalidated = "invalidated",
        /// Absorbed into another memory (`merged_into`).
        Merged = "merged",
        /// Replaced by a newer memory.
        Superseded = "superseded",
    }
}

string_enum! {
    /// Storage tier: how often a memory is likely to be needed.
    Tier, "tier" {
        /// Used recently or often.
        Hot = "hot",
        /// Used now and then.
        Warm = "warm",
        /// Rarely needed: searched when others answer too few.
        Archive = "archive",
    }
}

string_enum! {
    /// Who wrote the memory; decides its trust.
    Source, "source" {
        /// The owner said it directly (trust 1).
        User = "user",
        /// The agent wrote it (trust 0.7).
        Agent = "agent",
        /// Extracted from a conversation (trust 0.6).
        Conversation = "conversation",
        /// Brought in from elsewhere: notes, a file (trust 0.5).
        Import = "import",
    }
}

impl Source {
    /// Trust of a source: human 1.0, agent 0.7, extracted 0.6, ingest 0.5.
    pub fn trust(self) -> f64 {
        match self {
            Source::User => 1.0,
            Source::Agent => 0.7,
            Source::Conversation => 0.6,
            Source::Import => 0.5,
        }
    }
}

string_enum! {
    /// Who may see a memory besides its owner's agent.
    Visibility, "visibility" {
        /// The owner's agent only.
        Private = "private",
        /// The owner's team (`team_id`).
        Team = "team",
        /// Anyone.
        Global = "global",
    }
}

string_enum! {
    /// Which kinds a search returns.
    RecallFilter, "recall" {
        /// Facts only.
        FactsOnly = "facts_only",
        /// Facts and procedures.
        FactsPlusRules = "facts_plus_rules",
        /// Every kind, narratives and document passages too.
        FullContext = "full_context",
    }
}

impl RecallFilter {
    /// Whether a memory of `kind` passes this filter.
    pub fn admits(self, kind: Kind) -> bool {
        match self {
            RecallFilter::FactsOnly => kind == Kind::Fact,
            RecallFilter::FactsPlusRules => matches!(kind, Kind::Fact | Kind::Procedure),
            RecallFilter::FullContext => true,
        }
    }
}

/// One stored memory, as every surface returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// The memory's id, unique in the store.
    pub id: String,
    /// The owner the memory belongs to.
    pub entity_id: String,
    /// The agent that wrote it, if one was named.
    pub agent_id: Option<String>,
    /// The conversation session it belongs to, if one was named.
    pub session_id: Option<String>,
    /// The team it is shared with, if any.
    pub team_id: Option<String>,
    /// Who besides the owner's agent may see it.
    pub visibility: Visibility,
    /// What the memory says.
    pub content: String,
    /// SHA-256 (hex) of the normalised content.
    pub content_hash: String,
    /// The memory type, which sets how fast it decays.
    #[serde(rename = "type")]
    pub memory_type: MemoryType,
    /// What sort of knowledge it holds (fact, procedure, narrative).
    pub kind: Kind,
    /// The memory layer: working, episodic, semantic or procedural.
    pub layer: Layer,
    /// The lifecycle state, driven by retention: ACTIVE, STALE, ARCHIVED or DELETED.
    pub state: State,
    /// The validity status: active, challenged, invalidated, merged or superseded.
    pub status: Status,
    /// The storage tier: hot, warm or archive.
    pub tier: Tier,
    /// How much it matters, 0 to 1.
    pub importance: f64,
    /// How sure the statement is, 0 to 1.
    pub confidence: f64,
    /// How it feels, from -1 (negative) to 1 (positive).
    pub sentiment: f64,
    /// Who wrote it: user, agent, conversation or import.
    pub source: Source,
    /// Trust of its source, 0 to 1 (user 1, agent 0.7, conversation 0.6, import 0.5).
    pub trust: f64,
    /// How many times it was used (returned by a search, read with `get`, reinforced).
    pub access_count: i64,
    /// When it was last used, in milliseconds since the Unix epoch (none until first used).
    pub last_accessed_at: Option<Millis>,
    /// Feedback score: reinforce +3, demote −1.
    pub feedback: i64,
    /// Whether it is pinned (pinned memories do not decay).
    pub pinned: bool,
    /// Tags added by the caller; the system never removes them.
    pub manual_tags: Vec<String>,
    /// Tags added by the system.
    pub auto_tags: Vec<String>,
    /// When it stops being true, in milliseconds since the Unix epoch (none when it does not).
    pub expires_at: Option<Millis>,
    /// Its schedule tag (`cron:…`), when it is a schedule's plan.
    pub cron_tag: Option<String>,
    /// Where it came from (a message id, a document and chunk), if given.
    pub source_ref: Option<String>,
    /// Surprise at write time (0..1): how far the memory was from its nearest neighbours.
    pub surprise: Option<f64>,
    /// For a memory with status `merged`: the memory that absorbed it.
    pub merged_into: Option<String>,
    /// When it was first said, in milliseconds since the Unix epoch; it ages from then.
    pub created_at: Millis,
    /// When it was last written, in milliseconds since the Unix epoch.
    pub updated_at: Millis,
    /// When the current lifecycle state began, in milliseconds since the Unix epoch.
    pub state_changed_at: Millis,
    /// When it was forgotten, in milliseconds since the Unix epoch (none unless DELETED).
    pub deleted_at: Option<Millis>,
    /// When its layer was set by hand (`set_layer`), in milliseconds since the Unix epoch:
    /// automatic promotion then leaves it in that layer (absent when never set by hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer_set_at: Option<Millis>,
    /// How many times another session or source said the same thing (a write dedup found to
    /// repeat it): independent corroboration, each raising its confidence (absent while 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub confirmations: i64,
}

/// Whether a count is 0 (left out of a memory's JSON).
fn is_zero(n: &i64) -> bool {
    *n == 0
}

impl Memory {
    /// Whether the memory may be a duplicate, a contradiction or a cluster member of others: a
    /// document's passage (its document's words) and a file's memory of the codebase layer
    /// are neither.
    pub fn mixes(&self) -> bool {
        self.kind != Kind::Passage && self.layer != Layer::Codebase
    }

    /// Manual tags followed by auto tags not already present.
    pub fn tags(&self) -> Vec<String> {
        let mut all = self.manual_tags.clone();
        for t in &self.auto_tags {
            if !all.contains(t) {
                all.push(t.clone());
            }
        }
        all
    }

    /// Decay clock origin: the last access, else creation.
    pub fn last_touch(&self) -> Millis {
        self.last_accessed_at
            .unwrap_or(self.created_at)
            .max(self.created_at)
    }

    /// The message it was told in, as its `source_ref` (a message's id) and time, when that
    /// is known: the statements `remember` took from one message were told in conversation
    /// under its `source_ref`, at the same moment. `None` when not told in conversation, or
    /// without a `source_ref`.
    pub(crate) fn message(&self) -> Option<(&str, Millis)> {
        match (self.source, self.source_ref.as_deref()) {
            (Source::Conversation, Some(message)) => Some((message, self.created_at)),
            _ => None,
        }
    }
}

/// A memory's move between layers, by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LayerChange {
    /// The layer before.
    pub old: Layer,
    /// The layer after.
    pub new: Layer,
}

/// One entry of a memory's status audit trail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusChange {
    /// The status before the change.
    pub old: Status,
    /// The status after the change.
    pub new: Status,
    /// Why it changed.
    pub reason: String,
    /// When it changed, in milliseconds since the Unix epoch.
    pub changed_at: Millis,
    /// For a move between layers (`set_layer`; the status stays): the layers before and after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<LayerChange>,
}
