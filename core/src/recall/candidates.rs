//! Candidates of a search: the owner's nearest vectors and best BM25 matches fused into one
//! relevance, with relevance lent between neighbouring memories of a conversation.

use std::collections::BTreeMap;

use sha2::{Digest, Sha256};

use crate::clock::{Millis, Window};
use crate::order::{CollectOrdered, Keyed};
use crate::store::memories::Reach;
use crate::text;

/// A candidate memory and its relevance to the query (what the cache stores).
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The memory's row in the store.
    pub pk: i64,
    /// Cosine similarity to the query vector.
    pub vector: f64,
    /// Text relevance: the share of the query's words it says (vague words weighing less,
    /// [`crate::text::coverage`]), weighed by their rarity, squared (0 if it did not match the
    /// text; see [`fuse`]).
    pub text: f64,
    /// Relevance lent by a session neighbour.
    pub context: f64,
}

/// A query's candidates, and whether it names the speaker of a transcript line its words
/// matched (`speaker`).
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub candidates: Vec<Candidate>,
    pub speaking: bool,
}

impl Candidate {
    /// A candidate with its cosine to the query; text relevance and context come later.
    pub fn near(pk: i64, cosine: f32) -> Candidate {
        Candidate {
            pk,
            vector: cosine as f64,
            text: 0.0,
            context: 0.0,
        }
    }
    /// A candidate with both relevances given (for tests of the stages).
    #[cfg(test)]
    pub fn scored(pk: i64, vector: f64, text: f64) -> Candidate {
        Candidate {
            text,
            vector,
            ..Candidate::near(pk, 0.0)
        }
    }
    /// The memory's own relevance: vector_weight·cosine⁺ + (1 − vector_weight)·text.
    pub fn own(&self, vector_weight: f64) -> f64 {
        vector_weight * crate::math::clamp(self.vector, 0.0, 1.0)
            + (1.0 - vector_weight) * self.text
    }
    /// Relevance: its own, or what a neighbour lent it, whichever is higher.
    pub fn relevance(&self, vector_weight: f64) -> f64 {
        self.own(vector_weight).max(self.context)
    }
}

/// Cache key of a query's candidates: everything that decides them.
pub fn cache_key(
    owner: &str,
    viewer: &str,
    query: &str,
    vector: &[f32],
    reach: Reach,
    k: usize,
    window: Window,
) -> String {
    let mut h = Sha256::new();
    let end = |t: Option<Millis>| {
        t.map_or([0; 9], |t| {
            let mut b = [1; 9];
            b[1..].copy_from_slice(&t.to_le_bytes());
            b
        })
    };
    for part in [
        owner.as_bytes(),
        viewer.as_bytes(),
        query.as_bytes(),
        &[reach as u8],
        &(k as u64).to_le_bytes(),
        &end(window.after),
        &end(window.before),
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    vector.iter().for_each(|x| h.update(x.to_le_bytes()));
    text::hex(&h.finalize())
}

/// Union of the vector and text candidates, in key order. Every candidate gets its cosine
/// (from `cosine`); text matches (key, BM25, coverage) get their text relevance: the share of
/// the query's words they say, each counted at the least half, the rest by their BM25 over the
/// best of this query, so that among memories saying as much the rarer words rank first;
/// squared, so that saying one word of several asked about is weak evidence (see
/// [`PARTIAL_MATCH_POWER`]).
pub fn fuse(
    vector_hits: &[(i64, f32)],
    text_hits: &[TextHit],
    cosine: impl Fn(i64) -> Option<f32>,
) -> Vec<Candidate> {
    let best = text_hits.iter().map(|h| h.bm25).fold(0.0f64, f64::max);
    let mut all: Keyed<i64, Candidate> = Keyed::new();
    for &(pk, cos) in vector_hits {
        all.insert(pk, Candidate::near(pk, cos));
    }
    for h in text_hits {
        let rarity = if best > 0.0 {
            (h.bm25 / best).max(0.0)
        } else {
            0.0
        };
        let text = (h.coverage * (0.5 + 0.5 * rarity)).powi(PARTIAL_MATCH_POWER);
        all.or_insert_with(h.pk, || Candidate::near(h.pk, cosine(h.pk).unwrap_or(0.0)))
            .text = text;
    }
    all.into_values().collect()
}

/// A text match of a query.
#[derive(Debug, Clone, Copy)]
pub struct TextHit {
    /// The memory's row.
    pub pk: i64,
    /// Its BM25.
    pub bm25: f64,
    /// How much of what was asked it says ([`crate::text::coverage`]).
    pub coverage: f64,
    /// It is a transcript line of a speaker the query names (`speaker`).
    pub named_speaker: bool,
}

/// The power text relevance is raised to. A memory that says one word of a three-word
/// question ("What do I tinker with in my spare time?" — "I keep a spare key under the
/// flowerpot") is a third of a match, 0.11 once squared, and no longer outranks the memory
/// that means what was asked but shares no word with it; a memory saying every word asked
/// about keeps 1. On the paraphrase development set squaring finds the answering fact in the
/// top 3 more often than linear or 1.5 (cubing a little more, but it costs LoCoMo recall);
/// on LoCoMo it lifts the default embedder's R@1 and R@5 and keeps its R@10, costs the other
/// embedders some R@10, and lifts MiniLM vectors' top 3 on the paraphrases.
pub const PARTIAL_MATCH_POWER: i32 = 2;

/// Candidates sorted by relevance, best first (ties by key, so every target agrees).
pub fn by_relevance(candidates: &mut [Candidate], vector_weight: f64) {
    crate::order::sort_by(candidates, |a, b| {
        b.relevance(vector_weight)
            .total_cmp(&a.relevance(vector_weight))
            .then(a.pk.cmp(&b.pk))
    });
}

/// A candidate at least this relevant lends its neighbours its full share; a weaker one lends
/// in proportion to how far it is from it (`relevance / FULL_LENDING_RELEVANCE` of the share),
/// so that a weak match does not lift its conversation to within a few points of itself: in a
/// five-message conversation, "what do I like to drink?" (answer relevance 0.15) returned the
/// other four messages lent 0.11 each, and now lends them 0.04, below the default minimum.
/// LoCoMo dev R@10 moves by at most two thousandths for any embedder (0.3 and 0.5 did worse).
pub const FULL_LENDING_RELEVANCE: f64 = 0.4;

/// How many places along a conversation a relevant memory lends relevance: to the messages
/// just before and after it, and to the ones beyond those (with two speakers taking turns,
/// the same speaker's message before or after, which often answers what the other asked).
pub const CONVERSATION_REACH: usize = 2;

/// The share of next door's lending that reaches the message two places away. Lending two
/// places away moved LoCoMo dev R@10 0.734 → 0.750 (single-hop 0.806 → 0.836, temporal 0.899
/// → 0.913, multi-hop 0.462 → 0.444, whose questions gather answers from other sessions);
/// 0.7 gave 0.748, 1.0 0.750 with multi-hop 0.427.
pub const SECOND_PLACE_SHARE: f64 = 0.85;

/// The share of its lending a memory gives a neighbour `places` apart in its conversation: all
/// of it next door, [`SECOND_PLACE_SHARE`] two places away, none further.
pub fn conversation_share(places: usize) -> f64 {
    match places {
        1 => 1.0,
        2 => SECOND_PLACE_SHARE,
        _ => 0.0,
    }
}

/// Relevance lent between neighbours (of a conversation, or linked by co-recall): each of the
/// `parents` most relevant candidates lends `weight` × share × its relevance to its neighbours
/// (less when it is less relevant than [`FULL_LENDING_RELEVANCE`]; `neighbours` maps a list of
/// keys to (key, neighbour, share) triples), adding them as candidates when they are not
/// already. `cosine` gives a new candidate's own cosine.
pub fn lend_context(
    candidates: &mut Vec<Candidate>,
    vector_weight: f64,
    weight: f64,
    parents: usize,
    neighbours: impl FnOnce(&[i64]) -> crate::Result<Vec<(i64, i64, f64)>>,
    cosine: impl Fn(i64) -> Option<f32>,
) -> crate::Result<()> {
    if weight <= 0.0 || parents == 0 || candidates.is_empty() {
        return Ok(());
    }
    by_relevance(candidates, vector_weight);
    let lenders: Keyed<i64, f64> = candidates
        .iter()
        .take(parents)
        .map(|c| (c.pk, c.own(vector_weight)))
        .collect();
    let keys: Vec<i64> = lenders.keys().copied().collect();
    let mut index: BTreeMap<i64, usize> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| (c.pk, i))
        .collect_map();
    for (pk, n, share) in neighbours(&keys)? {
        let Some(rel) = lenders.get(&pk) else {
            continue;
        };
        let i = *index.entry(n).or_insert_with(|| {
            candidates.push(Candidate::near(n, cosine(n).unwrap_or(0.0)));
            candidates.len() - 1
        });
        let lent = weight * share * rel * (rel / FULL_LENDING_RELEVANCE).min(1.0);
        candidates[i].context = candidates[i].context.max(lent);
    }
    by_relevance(candidates, vector_weight);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fuse_weighs_coverage_by_rarity_and_fills_cosines() {
        let c = fuse(
            &[(1, 0.9), (2, 0.5)],
            &[
                TextHit {
                    pk: 2,
                    bm25: 8.0,
                    coverage: 1.0,
                    named_speaker: false,
                },
                TextHit {
                    pk: 3,
                    bm25: 2.0,
                    coverage: 0.5,
                    named_speaker: true,
                },
            ],
            |pk| {
                if pk == 3 {
                    Some(0.25)
                } else {
                    None
                }
            },
        );
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
                    // (0.5 · (0.5 + 0.5 · 2/8))²
                    text: 0.09765625,
                    context: 0.0
                },
            ]
        );
    }

    fn cand(pk: i64, vector: f64, text: f64) -> Candidate {
        Candidate::scored(pk, vector, text)
    }

    #[test]
    fn context_is_lent_to_session_neighbours() {
        // 1 matches the query; 2 (its neighbour) shares no words; 3 is weakly relevant.
        let mut c = vec![cand(1, 0.0, 1.0), cand(3, 0.2, 0.2)];
        let neighbours = |_: &[i64]| Ok(vec![(1, 2, 1.0)]);
        lend_context(&mut c, 0.5, 0.7, 30, neighbours, |_| Some(0.1)).unwrap();
        assert_eq!(c.iter().map(|c| c.pk).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert!((c[1].context - 0.35).abs() < 1e-12);
        assert!((c[1].relevance(0.5) - 0.35).abs() < 1e-12);
        assert!((c[1].vector - 0.1f32 as f64).abs() < 1e-12);
        // A neighbour never lowers relevance, and weight 0 lends nothing.
        let mut d = vec![cand(1, 0.0, 1.0), cand(2, 1.0, 1.0)];
        lend_context(
            &mut d,
            0.5,
            0.7,
            30,
            |_| Ok(vec![(1, 2, 1.0), (2, 1, 1.0)]),
            |_| None,
        )
        .unwrap();
        assert_eq!(d[0].relevance(0.5), 1.0);
        let mut e = vec![cand(1, 0.0, 1.0)];
        lend_context(&mut e, 0.5, 0.0, 30, |_| Ok(vec![(1, 2, 1.0)]), |_| None).unwrap();
        assert_eq!(e.len(), 1);
    }

    #[test]
    fn a_weak_match_lends_its_neighbours_less_than_its_share() {
        // 1 is a weak match (own relevance 0.15), 3 a strong one (0.8): each lends 0.7 of it,
        // the weak one only 0.15 / FULL_LENDING_RELEVANCE of that.
        let mut c = vec![cand(1, 0.3, 0.0), cand(3, 0.6, 1.0)];
        let neighbours = |_: &[i64]| Ok(vec![(1, 2, 1.0), (3, 4, 1.0)]);
        lend_context(&mut c, 0.5, 0.7, 30, neighbours, |_| Some(0.0)).unwrap();
        let context = |pk| c.iter().find(|c| c.pk == pk).map(|c| c.context);
        let weak = 0.7 * 0.15 * (0.15 / FULL_LENDING_RELEVANCE);
        assert!((context(2).unwrap() - weak).abs() < 1e-12);
        assert!((context(4).unwrap() - 0.7 * 0.8).abs() < 1e-12);
        assert!(
            context(2).unwrap() < 0.15 - 0.1,
            "lent well below its lender"
        );
    }

    #[test]
    fn cache_key_depends_on_every_input() {
        let open = Window::default();
        let k = cache_key("u", "", "q", &[1.0], Reach::Warm, 10, open);
        assert_ne!(k, cache_key("v", "", "q", &[1.0], Reach::Warm, 10, open));
        assert_ne!(k, cache_key("u", "", "q2", &[1.0], Reach::Warm, 10, open));
        assert_ne!(k, cache_key("u", "bob", "q", &[1.0], Reach::Warm, 10, open));
        assert_ne!(k, cache_key("u", "", "q", &[1.5], Reach::Warm, 10, open));
        assert_ne!(k, cache_key("u", "", "q", &[1.0], Reach::Live, 10, open));
        assert_ne!(k, cache_key("u", "", "q", &[1.0], Reach::All, 10, open));
        assert_ne!(k, cache_key("u", "", "q", &[1.0], Reach::Warm, 11, open));
        let after = |t| Window {
            after: Some(t),
            before: None,
        };
        let before = |t| Window {
            after: None,
            before: Some(t),
        };
        assert_ne!(
            k,
            cache_key("u", "", "q", &[1.0], Reach::Warm, 10, after(0))
        );
        assert_ne!(
            k,
            cache_key("u", "", "q", &[1.0], Reach::Warm, 10, before(0))
        );
        assert_ne!(
            cache_key("u", "", "q", &[1.0], Reach::Warm, 10, after(5)),
            cache_key("u", "", "q", &[1.0], Reach::Warm, 10, before(5))
        );
        assert_eq!(k, cache_key("u", "", "q", &[1.0], Reach::Warm, 10, open));
    }
}
