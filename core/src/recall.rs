//! The recall pipeline's stages (SPEC §5): candidates from the vector scan and FTS5 are fused
//! into one relevance, scored with the ranking mode, filtered, and thinned for diversity. The
//! engine runs them in order in `Engine::search`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::clock::{Millis, DAY_MS};
use crate::config::{RecallConfig, RetentionConfig};
use crate::decay;
use crate::model::{Memory, MemoryType, RecallFilter, State, Status};
use crate::rank::{self, RankMode, ScoreBreakdown};
use crate::text;

/// Most results one search may return.
pub const MAX_LIMIT: usize = 1000;

// Declared by `string_enum!`, which cannot carry `#[default]`.
#[allow(clippy::derivable_impls)]
impl Default for RecallFilter {
    fn default() -> Self {
        RecallFilter::FullContext
    }
}

/// A search. Only `entity_id` and `query` (or `vector`) are required.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchRequest {
    pub entity_id: String,
    pub query: String,
    /// The query's vector, when the caller embeds it; else the engine's embedder is used.
    pub vector: Option<Vec<f32>>,
    /// Results wanted (1..=1000, default 10).
    pub limit: Option<usize>,
    pub mode: RankMode,
    pub recall: RecallFilter,
    /// Search ARCHIVED memories too.
    pub include_archived: bool,
    /// Only these types (any when empty).
    pub types: Vec<MemoryType>,
    /// Drop hits scoring below this.
    pub min_score: Option<f64>,
    /// Only memories that name one of these entities of the owner's graph (names or aliases).
    pub entities: Vec<String>,
}

/// One search result and why it ranked there.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    pub memory: Memory,
    pub score: f64,
    pub why: ScoreBreakdown,
}

/// A candidate memory and its relevance to the query (what the cache stores).
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub pk: i64,
    /// Cosine similarity to the query vector.
    pub vector: f64,
    /// BM25 relevance normalised to the best text match (0 if it did not match the text).
    pub text: f64,
    /// Relevance lent by a session neighbour.
    pub context: f64,
}

impl Candidate {
    /// The memory's own relevance: vector_weight·cosine⁺ + (1 − vector_weight)·text.
    pub fn own(&self, vector_weight: f64) -> f64 {
        vector_weight * self.vector.clamp(0.0, 1.0) + (1.0 - vector_weight) * self.text
    }
    /// Relevance: its own, or what a neighbour lent it, whichever is higher.
    pub fn relevance(&self, vector_weight: f64) -> f64 {
        self.own(vector_weight).max(self.context)
    }
}

/// Cache key of a query's candidates: everything that decides them.
pub fn cache_key(
    owner: &str,
    query: &str,
    vector: &[f32],
    include_archived: bool,
    k: usize,
) -> String {
    let mut h = Sha256::new();
    for part in [
        owner.as_bytes(),
        query.as_bytes(),
        &[include_archived as u8],
        &(k as u64).to_le_bytes(),
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    vector.iter().for_each(|x| h.update(x.to_le_bytes()));
    text::hex(&h.finalize())
}

/// Union of the vector and text candidates, in key order. Every candidate gets its cosine
/// (from `cosine`), and its BM25 relevance divided by the best BM25 of this query.
pub fn fuse(
    vector_hits: &[(i64, f32)],
    text_hits: &[(i64, f64)],
    cosine: impl Fn(i64) -> Option<f32>,
) -> Vec<Candidate> {
    let best_text = text_hits.iter().map(|h| h.1).fold(0.0f64, f64::max);
    let mut all: BTreeMap<i64, Candidate> = BTreeMap::new();
    for &(pk, cos) in vector_hits {
        all.insert(
            pk,
            Candidate {
                pk,
                vector: cos as f64,
                text: 0.0,
                context: 0.0,
            },
        );
    }
    for &(pk, bm25) in text_hits {
        let text = if best_text > 0.0 {
            (bm25 / best_text).max(0.0)
        } else {
            0.0
        };
        all.entry(pk)
            .or_insert_with(|| Candidate {
                pk,
                vector: cosine(pk).unwrap_or(0.0) as f64,
                text: 0.0,
                context: 0.0,
            })
            .text = text;
    }
    all.into_values().collect()
}

/// Candidates sorted by relevance, best first (ties by key, so every target agrees).
pub fn by_relevance(candidates: &mut [Candidate], vector_weight: f64) {
    candidates.sort_by(|a, b| {
        b.relevance(vector_weight)
            .total_cmp(&a.relevance(vector_weight))
            .then(a.pk.cmp(&b.pk))
    });
}

/// Conversational context: each of the `parents` most relevant candidates lends
/// `weight` × its relevance to its session neighbours (`neighbours` maps a list of keys to
/// (key, neighbour) pairs), adding them as candidates when they are not already. `cosine`
/// gives a new candidate's own cosine.
pub fn lend_context(
    candidates: &mut Vec<Candidate>,
    vector_weight: f64,
    weight: f64,
    parents: usize,
    neighbours: impl FnOnce(&[i64]) -> crate::Result<Vec<(i64, i64)>>,
    cosine: impl Fn(i64) -> Option<f32>,
) -> crate::Result<()> {
    if weight <= 0.0 || parents == 0 || candidates.is_empty() {
        return Ok(());
    }
    by_relevance(candidates, vector_weight);
    let lenders: BTreeMap<i64, f64> = candidates
        .iter()
        .take(parents)
        .map(|c| (c.pk, c.own(vector_weight)))
        .collect();
    let keys: Vec<i64> = lenders.keys().copied().collect();
    let mut index: BTreeMap<i64, usize> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| (c.pk, i))
        .collect();
    for (pk, n) in neighbours(&keys)? {
        let Some(rel) = lenders.get(&pk) else {
            continue;
        };
        let i = *index.entry(n).or_insert_with(|| {
            candidates.push(Candidate {
                pk: n,
                vector: cosine(n).unwrap_or(0.0) as f64,
                text: 0.0,
                context: 0.0,
            });
            candidates.len() - 1
        });
        candidates[i].context = candidates[i].context.max(weight * rel);
    }
    by_relevance(candidates, vector_weight);
    Ok(())
}

/// How many of the (relevance-sorted) candidates qualify for ranking: those within `gate` of
/// the best relevance, and at least `limit`.
pub fn qualifying(sorted: &[Candidate], vector_weight: f64, gate: f64, limit: usize) -> usize {
    let best = sorted.first().map_or(0.0, |c| c.relevance(vector_weight));
    sorted
        .iter()
        .take_while(|c| c.relevance(vector_weight) >= gate * best)
        .count()
        .max(limit)
        .min(sorted.len())
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
    ScoreBreakdown {
        semantic: if best > 0.0 { relevance / best } else { 0.0 },
        vector: c.vector,
        text: c.text,
        context: c.context,
        recency: rank::recency((now - m.last_touch()) as f64 / DAY_MS as f64),
        retention: decay::retention(m, now, retention),
        importance: m.importance,
        confidence: m.confidence,
        feedback_multiplier: rank::feedback_multiplier(m.feedback),
        state_multiplier: if m.state == State::Stale {
            recall.stale_penalty
        } else {
            1.0
        },
        mode,
    }
}

/// Keeps hits in order, dropping any whose vector is more similar than `threshold` to one
/// already kept, until `limit` are kept. `similarity` compares two memories' vectors.
pub fn diversify<T>(
    ranked: Vec<(i64, T)>,
    limit: usize,
    threshold: f64,
    similarity: impl Fn(i64, i64) -> Option<f32>,
) -> Vec<(i64, T)> {
    let mut kept: Vec<(i64, T)> = Vec::with_capacity(limit);
    for (pk, hit) in ranked {
        if kept.len() >= limit {
            break;
        }
        if kept
            .iter()
            .all(|(k, _)| similarity(*k, pk).is_none_or(|s| (s as f64) <= threshold))
        {
            kept.push((pk, hit));
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuse_normalises_text_and_fills_cosines() {
        let c = fuse(&[(1, 0.9), (2, 0.5)], &[(2, 4.0), (3, 2.0)], |pk| {
            if pk == 3 {
                Some(0.25)
            } else {
                None
            }
        });
        assert_eq!(
            c,
            vec![
                Candidate {
                    pk: 1,
                    vector: 0.9f32 as f64,
                    text: 0.0,
                    context: 0.0
                },
                Candidate {
                    pk: 2,
                    vector: 0.5,
                    text: 1.0,
                    context: 0.0
                },
                Candidate {
                    pk: 3,
                    vector: 0.25,
                    text: 0.5,
                    context: 0.0
                },
            ]
        );
    }

    fn cand(pk: i64, vector: f64, text: f64) -> Candidate {
        Candidate {
            pk,
            vector,
            text,
            context: 0.0,
        }
    }

    #[test]
    fn context_is_lent_to_session_neighbours() {
        // 1 matches the query; 2 (its neighbour) shares no words; 3 is weakly relevant.
        let mut c = vec![cand(1, 0.0, 1.0), cand(3, 0.2, 0.2)];
        let neighbours = |_: &[i64]| Ok(vec![(1, 2)]);
        lend_context(&mut c, 0.5, 0.7, 30, neighbours, |_| Some(0.1)).unwrap();
        assert_eq!(c.iter().map(|c| c.pk).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert!((c[1].context - 0.35).abs() < 1e-12);
        assert!((c[1].relevance(0.5) - 0.35).abs() < 1e-12);
        assert!((c[1].vector - 0.1f32 as f64).abs() < 1e-12);
        // A neighbour never lowers relevance, and weight 0 lends nothing.
        let mut d = vec![cand(1, 0.0, 1.0), cand(2, 1.0, 1.0)];
        lend_context(&mut d, 0.5, 0.7, 30, |_| Ok(vec![(1, 2), (2, 1)]), |_| None).unwrap();
        assert_eq!(d[0].relevance(0.5), 1.0);
        let mut e = vec![cand(1, 0.0, 1.0)];
        lend_context(&mut e, 0.5, 0.0, 30, |_| Ok(vec![(1, 2)]), |_| None).unwrap();
        assert_eq!(e.len(), 1);
    }

    #[test]
    fn gate_keeps_comparable_relevance_and_at_least_limit() {
        let sorted = vec![
            cand(1, 1.0, 1.0),
            cand(2, 0.9, 0.8),
            cand(3, 0.5, 0.5),
            cand(4, 0.1, 0.0),
        ];
        assert_eq!(qualifying(&sorted, 0.5, 0.8, 1), 2);
        assert_eq!(qualifying(&sorted, 0.5, 0.8, 3), 3);
        assert_eq!(qualifying(&sorted, 0.5, 0.8, 10), 4);
        assert_eq!(qualifying(&sorted, 0.5, 0.0, 1), 4);
        assert_eq!(qualifying(&[], 0.5, 0.8, 1), 0);
    }

    #[test]
    fn diversity_drops_near_identical() {
        let sim = |a: i64, b: i64| Some(if (a, b) == (1, 2) { 0.95 } else { 0.1 });
        let kept = diversify(vec![(1, ()), (2, ()), (3, ())], 10, 0.9, sim);
        assert_eq!(kept.iter().map(|k| k.0).collect::<Vec<_>>(), vec![1, 3]);
        let kept = diversify(vec![(1, ()), (2, ()), (3, ())], 1, 0.9, sim);
        assert_eq!(kept.len(), 1);
    }

    #[test]
    fn cache_key_depends_on_every_input() {
        let k = cache_key("u", "q", &[1.0], false, 10);
        assert_ne!(k, cache_key("v", "q", &[1.0], false, 10));
        assert_ne!(k, cache_key("u", "q2", &[1.0], false, 10));
        assert_ne!(k, cache_key("u", "q", &[1.5], false, 10));
        assert_ne!(k, cache_key("u", "q", &[1.0], true, 10));
        assert_ne!(k, cache_key("u", "q", &[1.0], false, 11));
        assert_eq!(k, cache_key("u", "q", &[1.0], false, 10));
    }
}
