//! Three-tier dedup (exact hash, near-identical, near-duplicate) and surprise-adjusted
//! importance, and the two writes they lead to: a new memory, or a merge.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::embed;
use crate::error::Result;
use crate::field::MAX_TAGS;
use crate::lexicon::is_stopword;
use crate::math;
use crate::model::{Memory, State, Status, StatusChange};
use crate::store::Tx;
use crate::text;

/// Three-tier dedup thresholds (Keyoku seed: 1.0 hash, ≥ 0.95 skip, 0.85–0.95 merge-or-skip).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DedupConfig {
    /// Turn semantic dedup off (exact-hash dedup always runs).
    pub enabled: bool,
    /// Cosine at or above which a new memory is a semantic duplicate and is skipped (unless
    /// each text says something the other does not).
    pub skip_threshold: f64,
    /// Cosine at or above which (and below `skip_threshold`) a memory that adds nothing is
    /// skipped and one that only adds to its neighbour is merged into it.
    pub merge_threshold: f64,
}

impl Default for DedupConfig {
    fn default() -> Self {
        DedupConfig {
            enabled: true,
            skip_threshold: 0.95,
            merge_threshold: 0.85,
        }
    }
}

/// How much of the way to certainty one confirmation takes a memory's confidence.
pub const CONFIRMATION_GAIN: f64 = 0.2;

/// Whether `new`, which dedup found to say what `existing` says, corroborates it: said in
/// another session, or by another source. A repeat in the same session by the same source
/// only counts as using the memory.
pub fn corroborates(new: &Memory, existing: &Memory) -> bool {
    let other_session = new.session_id.is_some() && new.session_id != existing.session_id;
    other_session || new.source != existing.source
}

/// When `new` corroborates `existing` (key `pk`), counts the confirmation and saves it: its
/// confidence goes [`CONFIRMATION_GAIN`] of the way to 1. Whether it did.
pub(crate) fn confirm(tx: &mut Tx, pk: i64, new: &Memory, existing: &mut Memory) -> Result<bool> {
    if !corroborates(new, existing) {
        return Ok(false);
    }
    existing.confirmations += 1;
    existing.confidence += (1.0 - existing.confidence) * CONFIRMATION_GAIN;
    tx.save(pk, existing)?;
    Ok(true)
}

/// What the write path does with a new memory after comparing it to its nearest neighbour.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Store it.
    Create,
    /// Skip it: cosine ≥ the skip threshold, or a near-duplicate that adds nothing.
    Skip {
        /// Cosine similarity to the neighbour.
        similarity: f64,
        /// Whether it is a near-duplicate that adds nothing (below the skip threshold).
        subset: bool,
    },
    /// Merge it with the neighbour: it adds information.
    Merge {
        /// Cosine similarity to the neighbour.
        similarity: f64,
    },
}

/// Tiers two and three: decide on semantic similarity to the closest existing memory, and on
/// what each text says that the other does not. (Tier one, the exact hash, is checked against
/// the store before this.) Above the merge threshold:
/// - two texts that each say something the other does not stay two memories, however close:
///   an embedder that understands meaning puts "project falcon budget approved" and "…
///   revised", or "invoice 4 paid" and "invoice 5 paid", near 0.95, and they are two facts
///   (rewordings that swap words are left to consolidation's cluster-and-merge, which keeps
///   what each said);
/// - otherwise, at or above the skip threshold the new text is a semantic duplicate (skipped);
///   below it, a text that adds no content word is skipped (a subset) and one that adds to the
///   existing one is merged into it.
pub fn judge(
    cfg: &DedupConfig,
    similarity: f64,
    new_content: &str,
    existing_content: &str,
) -> Verdict {
    if !cfg.enabled || similarity < cfg.merge_threshold {
        return Verdict::Create;
    }
    // Counted, not just listed: "memory 98 about topic 1" adds 98 to "memory 1 about topic 1"
    // and drops one of its 1s.
    let (new, old) = (word_counts(new_content), word_counts(existing_content));
    let exceeds = |a: &HashMap<String, usize>, b: &HashMap<String, usize>| {
        a.iter().any(|(w, n)| b.get(w).is_none_or(|m| n > m))
    };
    let (adds, drops) = (exceeds(&new, &old), exceeds(&old, &new));
    if adds && drops {
        Verdict::Create
    } else if similarity >= cfg.skip_threshold {
        Verdict::Skip {
            similarity,
            subset: false,
        }
    } else if adds {
        Verdict::Merge { similarity }
    } else {
        Verdict::Skip {
            similarity,
            subset: true,
        }
    }
}

/// How often each content word (not a stop word) occurs in a text.
fn word_counts(s: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for w in text::words(s).into_iter().filter(|w| !is_stopword(w)) {
        *counts.entry(w).or_insert(0) += 1;
    }
    counts
}

/// Content words (not stop words) of a text.
fn content_words(s: &str) -> HashSet<String> {
    word_counts(s).into_keys().collect()
}

/// Whether `new` says something `existing` does not: a content word it lacks.
pub fn adds_information(new: &str, existing: &str) -> bool {
    let old = content_words(existing);
    content_words(new).iter().any(|w| !old.contains(w))
}

/// Merged content keeping both facts: the new text alone when it already says everything the
/// existing one did, else the existing text followed by each new sentence that adds to it.
pub fn merge_content(existing: &str, new: &str) -> String {
    if !adds_information(existing, new) && adds_information(new, existing) {
        return new.trim().to_string();
    }
    let mut out = existing.trim().to_string();
    for s in text::sentences(new) {
        if adds_information(s, &out) {
            if !out.ends_with(['.', '!', '?']) {
                out.push('.');
            }
            out.push(' ');
            out.push_str(s);
        }
    }
    out
}

/// Surprise: the k nearest neighbours compared at write time.
pub const SURPRISE_K: usize = 5;
/// Surprise = sigmoid(10·(mean distance − 0.35)).
const SURPRISE_STEEPNESS: f64 = 10.0;
const SURPRISE_MIDPOINT: f64 = 0.35;
/// Importance moves by (surprise − 0.5)·0.6, i.e. at most ±0.3 …
const SURPRISE_GAIN: f64 = 0.6;
/// … within [0.05, 1].
const IMPORTANCE_FLOOR: f64 = 0.05;

/// Surprise from the cosine similarities of the nearest neighbours (cosine distance = 1 − cos).
/// With no neighbours at all the memory is as novel as can be (distance 1).
pub fn surprise(neighbour_similarities: &[f64]) -> f64 {
    let mean_distance = if neighbour_similarities.is_empty() {
        1.0
    } else {
        neighbour_similarities.iter().map(|s| 1.0 - s).sum::<f64>()
            / neighbour_similarities.len() as f64
    };
    1.0 / (1.0 + math::exp(-SURPRISE_STEEPNESS * (mean_distance - SURPRISE_MIDPOINT)))
}

/// Importance after the surprise adjustment: (surprise − 0.5)·0.6, scaled by the room left on
/// that side, so that novel statements — in a young store, nearly all of them — keep the order
/// the extractor gave them instead of piling up at 1.
pub fn adjust_importance(importance: f64, surprise: f64) -> f64 {
    let importance = crate::math::clamp(importance, IMPORTANCE_FLOOR, 1.0);
    let shift = (surprise - 0.5) * SURPRISE_GAIN;
    let room = if shift > 0.0 {
        1.0 - importance
    } else {
        importance - IMPORTANCE_FLOOR
    };
    crate::math::clamp(importance + shift * room, IMPORTANCE_FLOOR, 1.0)
}

/// Stores a new memory, its importance adjusted by its surprise among `neighbours` (the
/// nearest existing memories and their cosines); returns its key and id.
pub(crate) fn create(
    tx: &mut Tx,
    mut memory: Memory,
    vector: &[f32],
    neighbours: &[(i64, f32)],
) -> Result<(i64, String)> {
    let sims: Vec<f64> = neighbours.iter().map(|n| n.1 as f64).collect();
    let s = surprise(&sims);
    memory.surprise = Some(s);
    memory.importance = adjust_importance(memory.importance, s);
    let pk = tx.insert(&mut memory, vector)?;
    Ok((pk, memory.id))
}

/// What a merge stored.
pub(crate) struct Merged {
    pub pk: i64,
    /// The new memory holding both.
    pub id: String,
    /// The memory it absorbed (now status merged).
    pub absorbed: String,
}

/// Merges `new` and `existing` (key `old_pk`) into a new memory holding both facts;
/// `existing` becomes status merged, with the reason in its history. A merged vector is the
/// normalised mean of the two when the caller's model made them, else the merged text's.
pub(crate) fn merge(
    tx: &mut Tx,
    old_pk: i64,
    existing: Memory,
    new: Memory,
    new_vector: Vec<f32>,
    supplied: bool,
    similarity: f64,
) -> Result<Merged> {
    let now = tx.now()?;
    let mut merged = combined(&existing, &[&new], now);
    let vector = if supplied {
        let old = tx.embedding(old_pk)?.unwrap_or_else(|| new_vector.clone());
        mean(&[old, new_vector])
    } else {
        tx.memory_vector(&merged.content, None)?
    };
    let pk = tx.insert(&mut merged, &vector)?;
    let reason = format!("merged into {} (similarity {similarity:.3})", merged.id);
    let absorbed = absorb(tx, old_pk, existing, &merged.id, reason)?;
    Ok(Merged {
        pk,
        id: merged.id,
        absorbed,
    })
}

/// A new memory (not stored yet) saying everything `base` and then each of `others` said:
/// their content merged sentence by sentence, tags united, the highest importance and
/// confidence, pinned if any was; a later memory's expiry and source win. It is dated by what
/// it says: created when the first of them was, last touched when the last of them was (a
/// statement seeded with its own past time keeps that time), and written `now`.
pub(crate) fn combined(base: &Memory, others: &[&Memory], now: Millis) -> Memory {
    let all = || std::iter::once(base).chain(others.iter().copied());
    let mut m = Memory {
        id: String::new(),
        merged_into: None,
        last_accessed_at: all().map(Memory::last_touch).max(),
        created_at: all().map(|m| m.created_at).min().unwrap_or(now),
        updated_at: now,
        state: State::Active,
        state_changed_at: now,
        ..base.clone()
    };
    for o in others {
        m.content = merge_content(&m.content, &o.content);
        for t in &o.manual_tags {
            if !m.manual_tags.contains(t) {
                m.manual_tags.push(t.clone());
            }
        }
        m.importance = m.importance.max(o.importance);
        m.confidence = m.confidence.max(o.confidence);
        m.pinned |= o.pinned;
        m.expires_at = o.expires_at.or(m.expires_at);
        m.source_ref = o.source_ref.clone().or(m.source_ref);
    }
    m.manual_tags.truncate(MAX_TAGS);
    m.content_hash = text::content_hash(&m.content);
    m
}

/// The normalised mean of `vectors` (all of one dimension).
pub(crate) fn mean(vectors: &[Vec<f32>]) -> Vec<f32> {
    let mut v = vectors.first().cloned().unwrap_or_default();
    for other in vectors.iter().skip(1) {
        v.iter_mut().zip(other).for_each(|(a, b)| *a += b);
    }
    embed::normalise(&mut v);
    v
}

/// Marks memory `m` (key `pk`) merged into `into`, with `reason` in its status history;
/// returns its id.
pub(crate) fn absorb(
    tx: &mut Tx,
    pk: i64,
    mut m: Memory,
    into: &str,
    reason: String,
) -> Result<String> {
    tx.record_status(
        pk,
        &StatusChange {
            old: m.status,
            new: Status::Merged,
            reason,
            changed_at: tx.now()?,
            layer: None,
        },
    )?;
    m.status = Status::Merged;
    m.merged_into = Some(into.to_string());
    tx.save(pk, &mut m)?;
    Ok(m.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_follow_thresholds() {
        let cfg = DedupConfig::default();
        assert_eq!(
            judge(&cfg, 0.97, "I live in Lisbon, Portugal", "I live in Lisbon"),
            Verdict::Skip {
                similarity: 0.97,
                subset: false
            }
        );
        assert_eq!(
            judge(&cfg, 0.95, "tea", "tea"),
            Verdict::Skip {
                similarity: 0.95,
                subset: false
            }
        );
        assert_eq!(
            judge(&cfg, 0.90, "I like green tea", "I like tea"),
            Verdict::Merge { similarity: 0.90 }
        );
        assert_eq!(
            judge(&cfg, 0.90, "I like tea", "I really like tea a lot"),
            Verdict::Skip {
                similarity: 0.90,
                subset: true
            }
        );
        assert_eq!(
            judge(&cfg, 0.90, "like tea", "I like tea and cake"),
            Verdict::Skip {
                similarity: 0.90,
                subset: true
            }
        );
        assert_eq!(judge(&cfg, 0.849, "x", "y"), Verdict::Create);
        let off = DedupConfig {
            enabled: false,
            ..cfg.clone()
        };
        assert_eq!(judge(&off, 0.99, "x", "x"), Verdict::Create);
        let custom = DedupConfig {
            skip_threshold: 0.99,
            merge_threshold: 0.9,
            ..cfg
        };
        assert_eq!(
            judge(&custom, 0.97, "old and new words", "old"),
            Verdict::Merge { similarity: 0.97 }
        );
        assert_eq!(judge(&custom, 0.97, "new words", "old"), Verdict::Create);
        assert_eq!(judge(&custom, 0.89, "new words", "old"), Verdict::Create);
        // Different facts an embedder of meaning puts close together stay apart; a number
        // that differs is never a paraphrase.
        assert_eq!(
            judge(
                &cfg,
                0.88,
                "My sister works at Globex",
                "My brother works at Globex"
            ),
            Verdict::Create
        );
        assert_eq!(
            judge(&cfg, 0.96, "Invoice 4 paid", "Invoice 5 paid"),
            Verdict::Create
        );
        assert_eq!(
            judge(&cfg, 0.99, "dentist on tuesday", "dentist on thursday"),
            Verdict::Create
        );
        assert_eq!(
            judge(&cfg, 0.99, "I met Ana in Porto", "I met Rui in Porto"),
            Verdict::Create
        );
    }

    #[test]
    fn merge_keeps_both_facts() {
        assert_eq!(
            merge_content("I live in Lisbon", "I live in Lisbon. I have a cat."),
            "I live in Lisbon. I have a cat."
        );
        assert_eq!(
            merge_content(
                "I live in Lisbon. I like jazz.",
                "I live in Lisbon with a cat."
            ),
            "I live in Lisbon. I like jazz. I live in Lisbon with a cat."
        );
        assert_eq!(
            merge_content("Ana is my sister.", "Ana is my sister"),
            "Ana is my sister."
        );
    }

    #[test]
    fn surprise_follows_the_mean_distance_curve() {
        // Far from everything: importance boosted by almost 0.3 of the room left.
        assert!((surprise(&[]) - 1.0 / (1.0 + (-6.5f64).exp())).abs() < 1e-12);
        assert!(adjust_importance(0.5, surprise(&[])) > 0.64);
        // Novel statements keep their order and stay apart.
        let (low, high) = (adjust_importance(0.6, 1.0), adjust_importance(0.8, 1.0));
        assert!(low < high && high < 1.0 && high - low > 0.1, "{low} {high}");
        // Mean distance 0.35 → surprise 0.5 → unchanged.
        assert!((surprise(&[0.65, 0.65]) - 0.5).abs() < 1e-12);
        assert!((adjust_importance(0.5, 0.5) - 0.5).abs() < 1e-12);
        // Redundant: importance reduced, never below the floor.
        assert!(adjust_importance(0.5, surprise(&[0.99; 5])) < 0.4);
        assert_eq!(adjust_importance(0.0, 0.0), 0.05);
        assert_eq!(adjust_importance(1.0, 1.0), 1.0);
    }
}
