//! Ranking a search's candidates: which may appear (status, state, the recall filter and the
//! types asked for), which qualify (relevance within the gate of the best), and the composite
//! score of a mode — relevance, recency, retention, importance and confidence, times the
//! feedback multiplier.

use serde::{Deserialize, Serialize};

use super::candidates::Candidate;
use super::{RecallConfig, SearchRequest};
use crate::clock::{Millis, DAY_MS};
use crate::decay::{self, RetentionConfig};
use crate::math;
use crate::model::{string_enum, Memory, State, Status};

string_enum! {
    /// Ranking mode: how much each signal weighs in the composite score.
    RankMode, "mode" {
        /// Relevance first, recency, retention and importance alike (0.35/0.20/0.20/0.20/0.05).
        Balanced = "balanced",
        /// The recently used first (recency weighs 0.50).
        Recent = "recent",
        /// The important first: importance, all nine factors of it, weighs 0.35.
        Important = "important",
        /// The well retained, whenever they were used (relevance 0.50, retention 0.25).
        Historical = "historical",
        /// Relevance above all, the rest evenly (0.45/0.15/0.15/0.20/0.05).
        Comprehensive = "comprehensive",
    }
}

// Declared by `string_enum!`, which cannot carry `#[default]`.
#[allow(clippy::derivable_impls)]
impl Default for RankMode {
    fn default() -> Self {
        RankMode::Balanced
    }
}

/// Weights of the composite score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Weights {
    /// Weight of relevance relative to the best match.
    pub semantic: f64,
    /// Weight of recency.
    pub recency: f64,
    /// Weight of retention.
    pub retention: f64,
    /// Weight of importance.
    pub importance: f64,
    /// Weight of confidence.
    pub confidence: f64,
}

impl RankMode {
    /// The weights of this mode (S/R/D/I/C).
    pub fn weights(self) -> Weights {
        let w = |semantic, recency, retention, importance, confidence| Weights {
            semantic,
            recency,
            retention,
            importance,
            confidence,
        };
        match self {
            RankMode::Balanced => w(0.35, 0.20, 0.20, 0.20, 0.05),
            RankMode::Recent => w(0.30, 0.50, 0.10, 0.07, 0.03),
            RankMode::Important => w(0.40, 0.10, 0.10, 0.35, 0.05),
            RankMode::Historical => w(0.50, 0.05, 0.25, 0.15, 0.05),
            RankMode::Comprehensive => w(0.45, 0.15, 0.15, 0.20, 0.05),
        }
    }
}

/// The feedback score scales the rank by e^(0.2·score).
const FEEDBACK_RATE: f64 = 0.2;
/// Recency = 1 / (1 + 0.01·days since last hit).
const RECENCY_RATE_PER_DAY: f64 = 0.01;

/// The feedback multiplier: +3 → 1.82×, −1 → 0.82×.
pub fn feedback_multiplier(feedback: i64) -> f64 {
    math::exp(FEEDBACK_RATE * feedback as f64)
}

/// Recency from days since the last access (or creation).
pub fn recency(days: f64) -> f64 {
    1.0 / (1.0 + RECENCY_RATE_PER_DAY * days.max(0.0))
}

/// Why a hit ranked where it did: every input of its score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ScoreBreakdown {
    /// How relevant the memory is to the query, 0–1, comparable across queries: its own
    /// (vector_weight·cosine⁺ + (1 − vector_weight)·text) or what a session neighbour lent
    /// it, whichever is higher. `min_score` is compared with this.
    pub relevance: f64,
    /// Relevance relative to the best match of this query (1 = the best match).
    pub semantic: f64,
    /// Cosine similarity of the query vector and the memory's vector, divided by the
    /// mixed-precision penalty when consolidation stored the vector with fewer bits.
    pub vector: f64,
    /// Text relevance: the share of the query's words the memory says (a vague word such as
    /// "own" weighing a quarter), weighed by their rarity (BM25), squared so that saying one
    /// word of several is weak evidence; 0 when none matched.
    pub text: f64,
    /// The words of the query the memory says (compared by stem), in the order asked; common
    /// words only when the query has no other.
    pub matched: Vec<String>,
    /// Relevance lent by a neighbouring memory: one of the same session, or one linked by
    /// co-recall when `recall.link_weight` is on (0 when none).
    pub context: f64,
    /// How recently the memory was used (or made), 0 to 1: 1 / (1 + rate × days since).
    pub recency: f64,
    /// How much of the memory is retained by its decay curve, 0 to 1.
    pub retention: f64,
    /// The importance the mode weighed, 0 to 1: in the `important` mode all nine
    /// `importance_factors` weighed; in the others, which weigh recency and retention of
    /// their own, the importance the memory was written with (`importance_factors.base`).
    pub importance: f64,
    /// The nine factors of the memory's importance, each 0 to 1, with their weights: base
    /// (as written, with surprise) 0.25, frequency of use 0.12, recency of use 0.12, valence
    /// 0.06, stability of use 0.08, layer 0.10, source trust 0.10, confirmations 0.07, ACT-R
    /// activation 0.10.
    pub importance_factors: crate::importance::Factors,
    /// The memory's confidence, 0 to 1.
    pub confidence: f64,
    /// e^(0.2·feedback).
    pub feedback_multiplier: f64,
    /// Penalty for STALE memories (1 otherwise).
    pub state_multiplier: f64,
    /// Penalty for the codebase layer's file of tests or benchmarks when the query does not
    /// ask about tests (they name the functions of the code they test more often than it
    /// does): [`TEST_FILE_PENALTY`]; 1, and not shown, otherwise.
    #[serde(default = "unpenalised", skip_serializing_if = "is_unpenalised")]
    pub test_file_multiplier: f64,
    /// Boost for a memory that names a time ("yesterday", "in March", "last week") when the
    /// query asks when (and names no span of its own): [`WHEN_BOOST`]; 1, and not shown,
    /// otherwise.
    #[serde(default = "unpenalised", skip_serializing_if = "is_unpenalised")]
    pub when_multiplier: f64,
    /// Penalty for a transcript line ("Melanie: …") of another speaker than the one the query
    /// names ("What does Caroline do?"), when the query names the speaker of a line that
    /// matches it: 0.7 (`recall::speaker`); 1, and not shown, otherwise.
    #[serde(default = "unpenalised", skip_serializing_if = "is_unpenalised")]
    pub speaker_multiplier: f64,
    /// The ranking mode the score was made under.
    pub mode: RankMode,
    /// The span of time the query named ("last weekend", "10 days ago"), when it named one and
    /// gave no `after`/`before`: the memories said inside it rank first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<PeriodMatch>,
    /// The order of time the query asked for ("the first": `earliest`, "the most recent":
    /// `latest`), on the hits it put in that order: the closest matches among the first
    /// `limit`, ordered by when they were said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<crate::period::Order>,
    /// A relation the query named ("my sister", "Ana's husband") and the entity of the
    /// owner's knowledge graph it was followed to, on a hit found by that entity's name,
    /// matched in the relation's place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hop: Option<super::Hop>,
    /// The id of the hit ranked above it that was said in the same message (the same
    /// `source_ref`, at the same moment): this one gave way to other messages' hits, and
    /// follows them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gave_way_to: Option<String>,
}

/// The span of time a query named, and whether a hit was said inside it or tells of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PeriodMatch {
    /// Its start (milliseconds since the Unix epoch, inclusive); absent when it has none
    /// ("before 2020").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Millis>,
    /// Its end (exclusive); absent when it has none ("after March").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Millis>,
    /// The memory was said inside it.
    pub inside: bool,
    /// Said outside it, the memory names a time inside it ("last month", said in April of
    /// March; "next Friday", said before it), or is due inside it (`expires_at`): it tells of
    /// the span and ranks with what was said there.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tells: bool,
}

impl ScoreBreakdown {
    /// The composite score: weighted sum × feedback, state, test-file, when and speaker
    /// multipliers.
    pub fn score(&self) -> f64 {
        let w = self.mode.weights();
        (w.semantic * self.semantic
            + w.recency * self.recency
            + w.retention * self.retention
            + w.importance * self.importance
            + w.confidence * self.confidence)
            * self.feedback_multiplier
            * self.state_multiplier
            * self.test_file_multiplier
            * self.when_multiplier
            * self.speaker_multiplier
    }
}

/// What a codebase file of tests or benchmarks is multiplied by when a query is not about
/// tests: a where-question's answer is the code, not the test that calls it.
pub const TEST_FILE_PENALTY: f64 = 0.5;

/// What a memory naming a time is multiplied by when a query asks when: "When did I see the
/// dentist?" is answered by "I saw the dentist yesterday" before "I like my dentist".
pub const WHEN_BOOST: f64 = 1.3;

/// A multiplier that changes nothing.
fn unpenalised() -> f64 {
    1.0
}

/// Whether a multiplier changes nothing.
fn is_unpenalised(x: &f64) -> bool {
    *x == 1.0
}

/// How many of the candidates (their relevances, best first) qualify for ranking: those
/// within `gate` of the best relevance, and at least `limit`.
pub fn qualifying(relevances: &[f64], gate: f64, limit: usize) -> usize {
    let best = relevances.first().copied().unwrap_or(0.0);
    relevances
        .iter()
        .take_while(|&&r| r >= gate * best)
        .count()
        .max(limit)
        .min(relevances.len())
}

/// Whether a memory may appear in the results of `req`.
pub fn admits(req: &SearchRequest, m: &Memory) -> bool {
    m.status == Status::Active
        && match m.state {
            State::Active | State::Stale => true,
            State::Archived => req.include_archived,
            State::Deleted => false,
        }
        && req.recall.admits(m.kind)
        && (req.types.is_empty() || req.types.contains(&m.memory_type))
        && (req.kinds.is_empty() || req.kinds.contains(&m.kind))
}

/// The score breakdown of a candidate memory at `now`; `best` is the best relevance among
/// this query's admitted candidates.
pub fn score(
    c: &Candidate,
    m: &Memory,
    best: f64,
    mode: RankMode,
    now: Millis,
    recall: &RecallConfig,
    retention: &RetentionConfig,
) -> ScoreBreakdown {
    let relevance = c.relevance(recall.vector_weight);
    let importance_factors = crate::importance::Factors::of(m, now);
    ScoreBreakdown {
        relevance,
        semantic: if best > 0.0 { relevance / best } else { 0.0 },
        vector: c.vector,
        text: c.text,
        matched: Vec::new(),
        context: c.context,
        recency: recency((now - m.last_touch()) as f64 / DAY_MS as f64),
        retention: decay::retention(m, now, retention),
        importance: match mode {
            RankMode::Important => importance_factors.weighed(),
            _ => importance_factors.base,
        },
        importance_factors,
        confidence: m.confidence,
        feedback_multiplier: feedback_multiplier(m.feedback),
        state_multiplier: if m.state == State::Stale {
            recall.stale_penalty
        } else {
            1.0
        },
        test_file_multiplier: 1.0,
        when_multiplier: 1.0,
        speaker_multiplier: 1.0,
        mode,
        period: None,
        order: None,
        hop: None,
        gave_way_to: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_one() {
        for m in RankMode::ALL {
            let w = m.weights();
            let sum = w.semantic + w.recency + w.retention + w.importance + w.confidence;
            assert!((sum - 1.0).abs() < 1e-12, "{m}");
        }
    }

    #[test]
    fn feedback_and_recency_multipliers() {
        assert_eq!((feedback_multiplier(3) * 100.0).round() / 100.0, 1.82);
        assert_eq!((feedback_multiplier(-1) * 100.0).round() / 100.0, 0.82);
        assert_eq!((feedback_multiplier(-5) * 100.0).round() / 100.0, 0.37);
        assert_eq!(feedback_multiplier(0), 1.0);
        assert_eq!(recency(0.0), 1.0);
        assert_eq!(recency(100.0), 0.5);
    }

    fn hit(mode: RankMode, semantic: f64, recency: f64, importance: f64) -> ScoreBreakdown {
        ScoreBreakdown {
            relevance: semantic,
            semantic,
            vector: semantic,
            text: 0.0,
            matched: Vec::new(),
            context: 0.0,
            recency,
            retention: 1.0,
            importance,
            importance_factors: crate::importance::WEIGHTS,
            confidence: 1.0,
            feedback_multiplier: 1.0,
            state_multiplier: 1.0,
            test_file_multiplier: 1.0,
            when_multiplier: 1.0,
            speaker_multiplier: 1.0,
            mode,
            period: None,
            order: None,
            hop: None,
            gave_way_to: None,
        }
    }

    #[test]
    fn modes_order_differently() {
        // A: most relevant, old, unimportant. B: half as relevant, fresh. C: half, important.
        let order = |mode| {
            let mut v = [
                ("A", hit(mode, 1.0, 0.0, 0.0)),
                ("B", hit(mode, 0.5, 0.9, 0.0)),
                ("C", hit(mode, 0.5, 0.0, 1.0)),
            ];
            crate::order::sort_by(&mut v, |a, b| b.1.score().total_cmp(&a.1.score()));
            v.iter().map(|x| x.0).collect::<String>()
        };
        assert_eq!(order(RankMode::Recent), "BAC");
        assert_eq!(order(RankMode::Important), "CAB");
        assert_eq!(order(RankMode::Historical), "ACB");
        assert_eq!(order(RankMode::Balanced), "CBA");
        assert_eq!(order(RankMode::Comprehensive), "ACB");
    }

    fn cand(pk: i64, vector: f64, text: f64) -> Candidate {
        Candidate::scored(pk, vector, text)
    }

    #[test]
    fn gate_keeps_comparable_relevance_and_at_least_limit() {
        let sorted: Vec<f64> = [
            cand(1, 1.0, 1.0),
            cand(2, 0.9, 0.8),
            cand(3, 0.5, 0.5),
            cand(4, 0.1, 0.0),
        ]
        .iter()
        .map(|c| c.relevance(0.5))
        .collect();
        assert_eq!(qualifying(&sorted, 0.8, 1), 2);
        assert_eq!(qualifying(&sorted, 0.8, 3), 3);
        assert_eq!(qualifying(&sorted, 0.8, 10), 4);
        assert_eq!(qualifying(&sorted, 0.0, 1), 4);
        assert_eq!(qualifying(&[], 0.8, 1), 0);
    }
}
