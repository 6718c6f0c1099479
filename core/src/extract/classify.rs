//! What a statement is: its memory type (from weighted cue phrases), kind, hedging and
//! importance.

use std::sync::LazyLock;

use super::words::{has, has_any, PhraseSet, Token};
use crate::lexicon::{
    self, ADJECTIVE_MARKERS, EMPHASIS, FIRST_PERSON_FOR_TYPE, FUTURE, HEDGES, NOT_GERUNDS,
    NOT_PAST, PAST_VERBS, PLAN_GERUNDS, PROCEDURE_CUES,
};
use crate::model::{Kind, MemoryType};

/// The lowest confidence hedging brings a statement to.
const MIN_CONFIDENCE: f64 = 0.3;

/// Base importance of each type (identity and relationships matter longest), before the
/// adjustments in [`importance`].
fn base_importance(t: MemoryType) -> f64 {
    match t {
        MemoryType::Identity => 0.8,
        MemoryType::Relationship => 0.7,
        MemoryType::Plan => 0.65,
        MemoryType::Preference => 0.6,
        MemoryType::Event => 0.55,
        MemoryType::Activity => 0.5,
        MemoryType::Context => 0.3,
        MemoryType::Ephemeral => 0.2,
    }
}

/// Whether a statement tells of the past: a past-tense verb not used as an adjective.
pub fn past_tense(tokens: &[Token]) -> bool {
    tokens.iter().enumerate().any(|(i, t)| {
        let w = t.lower.as_str();
        if t.punct || NOT_PAST.contains(&w) {
            return false;
        }
        let before = i.checked_sub(1).map_or("", |k| tokens[k].lower.as_str());
        let adjective = ADJECTIVE_MARKERS.contains(&before);
        PAST_VERBS.contains(&w) || (w.len() >= 5 && w.ends_with("ed") && !adjective)
    })
}

/// Whether a statement speaks of the future in words.
pub fn future_words(padded: &str) -> bool {
    has_any(padded, &FUTURE)
}

/// `cues.txt`: the cue phrases of each memory type and their weight.
static CUES: LazyLock<Vec<(MemoryType, f64, &'static [&'static str])>> = LazyLock::new(|| {
    lexicon::CUES
        .iter()
        .map(|(name, weight, phrases)| {
            let t = name
                .parse::<MemoryType>()
                .unwrap_or_else(|e| panic!("lexicon/cues.txt [{name}]: {e}"));
            (t, *weight, phrases.as_slice())
        })
        .collect()
});

/// Every type cue of `CUES` in one set, and the section each belongs to.
static CUE_SET: LazyLock<(PhraseSet, Vec<usize>)> = LazyLock::new(|| {
    let phrases = CUES.iter().flat_map(|(_, _, p)| p.iter().copied());
    let section = CUES
        .iter()
        .enumerate()
        .flat_map(|(s, (_, _, p))| std::iter::repeat_n(s, p.len()))
        .collect();
    (PhraseSet::new(phrases), section)
});

/// The memory type of a statement, given its tokens, padded words and whether it names a
/// future or past moment.
pub fn memory_type(tokens: &[Token], padded: &str, future: bool, past: bool) -> MemoryType {
    let mut scores = [0.0f64; 8];
    let index = |t: MemoryType| MemoryType::ALL.iter().position(|&x| x == t).unwrap_or(0);
    let (cues, section) = &*CUE_SET;
    let mut found = vec![0usize; CUES.len()];
    for i in cues.found(padded) {
        found[section[i]] += 1;
    }
    for ((t, weight, _), &hits) in CUES.iter().zip(&found) {
        if hits > 0 {
            scores[index(*t)] += weight * (1.0 + 0.25 * (hits - 1) as f64);
        }
    }
    if future {
        scores[index(MemoryType::Plan)] += 2.0;
    }
    if past || past_tense(tokens) {
        scores[index(MemoryType::Event)] += 2.0;
    }
    // "I used to like …": about the past, unless "but now".
    if has(padded, "used to") && !has(padded, "now") {
        scores[index(MemoryType::Event)] += 1.5;
    }
    let words: Vec<&str> = padded.split_whitespace().collect();
    // "I'm 34", "I'm Kenji": who the speaker is.
    for w in words.windows(2) {
        if matches!(w[0], "i'm" | "im") {
            let age = w[1].parse::<u32>().is_ok_and(|n| (1..=120).contains(&n));
            let name = tokens
                .iter()
                .any(|t| t.capital && t.lower == w[1] && !t.punct && t.lower != "i");
            if age || name {
                scores[index(MemoryType::Identity)] += 3.0;
            }
        }
        // "I'm renovating", "we're collaborating": ongoing activity; "I'm flying": a plan.
        if matches!(w[0], "i'm" | "we're" | "im") && w[1].len() > 4 && w[1].ends_with("ing") {
            if PLAN_GERUNDS.contains(&w[1]) {
                scores[index(MemoryType::Plan)] += 1.5;
            } else {
                scores[index(MemoryType::Activity)] += 2.0;
            }
        }
    }
    // "taking a night class …", "teaching myself guitar": a sentence opening on a gerund.
    if let Some(first) = words.first() {
        if first.len() > 4 && first.ends_with("ing") && !NOT_GERUNDS.contains(first) {
            if PLAN_GERUNDS.contains(first) {
                scores[index(MemoryType::Plan)] += 1.5;
            } else {
                scores[index(MemoryType::Activity)] += 2.5;
            }
        }
    }
    // Questions are session talk.
    if tokens.last().is_some_and(|t| t.lower == "?") {
        scores[index(MemoryType::Context)] += 2.0;
    }
    let (best, score) = scores
        .iter()
        .enumerate()
        .fold((0, 0.0), |b, (i, &s)| if s > b.1 { (i, s) } else { b });
    if score == 0.0 {
        return if has_any(padded, &FIRST_PERSON_FOR_TYPE) {
            MemoryType::Event
        } else {
            MemoryType::Context
        };
    }
    MemoryType::ALL[best]
}

/// Procedures are how-tos and standing rules; narratives are long stories; the rest facts.
pub fn kind(padded: &str, words: usize, t: MemoryType) -> Kind {
    let rule = has_any(padded, &PROCEDURE_CUES);
    if rule
        && matches!(
            t,
            MemoryType::Preference | MemoryType::Context | MemoryType::Activity
        )
    {
        return Kind::Procedure;
    }
    if words > 30 || (t == MemoryType::Event && words > 20) {
        return Kind::Narrative;
    }
    Kind::Fact
}

/// How much hedging takes off (0 when none), and whether there was any.
pub fn hedging(padded: &str) -> f64 {
    let off: f64 = HEDGES
        .iter()
        .filter(|(p, _)| has(padded, p))
        .map(|(_, off)| off)
        .sum();
    off.min(1.0 - MIN_CONFIDENCE)
}

/// Importance: the type's base, more for emphasis, strong feelings, named things and
/// deadlines, less when hedged.
pub fn importance(
    t: MemoryType,
    padded: &str,
    sentiment: f64,
    entities: usize,
    deadline: bool,
    hedge: f64,
) -> f64 {
    let mut v = base_importance(t);
    if has_any(padded, &EMPHASIS) {
        v += 0.1;
    }
    if sentiment.abs() > 0.6 {
        v += 0.05;
    }
    if entities > 0 {
        v += 0.05;
    }
    if deadline {
        v += 0.1;
    }
    v -= hedge * 0.2;
    (crate::math::clamp(v, 0.05, 1.0) * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::super::words::{padded, tokens};
    use super::*;

    fn t(s: &str) -> MemoryType {
        memory_type(&tokens(s), &padded(&tokens(s)), false, false)
    }

    #[test]
    fn the_issue_examples() {
        assert_eq!(t("I'm a nurse"), MemoryType::Identity);
        assert_eq!(t("I prefer tea"), MemoryType::Preference);
        assert_eq!(t("my sister Ana is visiting"), MemoryType::Relationship);
        assert_eq!(t("we moved in March"), MemoryType::Event);
        assert_eq!(t("I'm working on the deck"), MemoryType::Activity);
        let plan = tokens("I need to renew my passport by Friday");
        assert_eq!(
            memory_type(&plan, &padded(&plan), true, false),
            MemoryType::Plan
        );
        assert_eq!(
            t("for this chat, assume I use Python 3.12"),
            MemoryType::Context
        );
        assert_eq!(t("I'm so tired right now"), MemoryType::Ephemeral);
    }

    #[test]
    fn hedges_lower_confidence_within_bounds() {
        assert_eq!(hedging(&padded(&tokens("I live in Porto"))), 0.0);
        assert!(hedging(&padded(&tokens("I think I live in Porto"))) > 0.0);
        assert!(
            hedging(&padded(&tokens(
                "maybe, probably, I guess, not sure, kind of"
            ))) <= 0.7
        );
    }

    #[test]
    fn kinds() {
        let p = padded(&tokens("please keep answers short"));
        assert_eq!(kind(&p, 4, MemoryType::Preference), Kind::Procedure);
        assert_eq!(
            kind(&padded(&tokens("I like tea")), 3, MemoryType::Preference),
            Kind::Fact
        );
        assert_eq!(
            kind(&padded(&tokens("long")), 40, MemoryType::Event),
            Kind::Narrative
        );
    }
}
