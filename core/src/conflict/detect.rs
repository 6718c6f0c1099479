//! Whether two statements contradict each other, and how.

use super::ConflictKind;
use crate::graph::RelationMention;
use crate::graph::{key, Relation};
use crate::lexicon::{
    ADDITIVE, CHANGE, FEELING, FILLER_FOR_CONFLICT, FIRST_PERSON_FOR_CONFLICT,
    NEGATIONS_FOR_CONFLICT,
};
use crate::model::MemoryType;

/// What conflict detection needs to know of a memory.
#[derive(Debug, Clone, Copy)]
pub struct Statement<'a> {
    /// What the memory says.
    pub content: &'a str,
    /// Its memory type.
    pub memory_type: MemoryType,
    /// Its sentiment, -1 to 1.
    pub sentiment: f64,
    /// The relationships it states.
    pub relationships: &'a [RelationMention],
}

/// Relations a subject has one of at a time: a second one with another object replaces it.
const EXCLUSIVE: &[(Relation, ConflictKind)] = &[
    (Relation::LivesIn, ConflictKind::ChangedPlace),
    (Relation::BornIn, ConflictKind::ChangedPlace),
    (Relation::WorksAt, ConflictKind::ChangedJob),
    (Relation::ReportsTo, ConflictKind::ChangedJob),
    (Relation::MarriedTo, ConflictKind::ChangedRelationship),
    (Relation::Dating, ConflictKind::ChangedRelationship),
    (Relation::EngagedTo, ConflictKind::ChangedRelationship),
];

/// Whether a subject has one object of `r` at a time (where one lives, works, who one is
/// married to): a second one with another object is a conflict.
pub fn exclusive(r: Relation) -> bool {
    EXCLUSIVE.iter().any(|(x, _)| *x == r)
}

fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace('\u{2019}', "'")
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn has_phrase(words: &[String], phrase: &str) -> bool {
    let p: Vec<&str> = phrase.split(' ').collect();
    words
        .windows(p.len())
        .any(|w| w.iter().zip(&p).all(|(a, b)| a == b))
}

fn negated(words: &[String]) -> bool {
    words
        .iter()
        .filter(|w| NEGATIONS_FOR_CONFLICT.contains(&w.as_str()) || w.ends_with("n't"))
        .count()
        % 2
        == 1
}

/// Content words: not filler, not negation, not numbers.
fn content(words: &[String], also_drop: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = words
        .iter()
        .filter(|w| {
            !(FILLER_FOR_CONFLICT.contains(&w.as_str())
                || NEGATIONS_FOR_CONFLICT.contains(&w.as_str())
                || w.ends_with("n't")
                || also_drop.contains(&w.as_str()))
        })
        .cloned()
        .collect();
    crate::order::sort(&mut v);
    v.dedup();
    v
}

fn jaccard(a: &[String], b: &[String]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let inter = a.iter().filter(|w| b.contains(w)).count();
    inter as f64 / (a.len() + b.len() - inter) as f64
}

/// How `new` contradicts `old`, if it does. `similarity` is the cosine of their vectors;
/// `min_similarity` gates the kinds read from the words alone.
pub fn detect(
    new: Statement,
    old: Statement,
    similarity: f64,
    min_similarity: f64,
) -> Option<ConflictKind> {
    let (nw, ow) = (words(new.content), words(old.content));
    let additive = ADDITIVE.iter().any(|a| has_phrase(&nw, a));
    // One subject, one exclusive relation, two objects: the graph says it changed.
    if !additive {
        for n in new.relationships {
            let Some(&(_, kind)) = EXCLUSIVE.iter().find(|(r, _)| *r == n.relation) else {
                continue;
            };
            let clash = old.relationships.iter().any(|o| {
                o.relation == n.relation && key(&o.from) == key(&n.from) && key(&o.to) != key(&n.to)
            });
            if clash {
                return Some(kind);
            }
        }
    }
    // The same words with a number changed: "I'm 34" / "I'm 35", "I have 2 kids" / "3 kids".
    // (The same shape is closer than any similarity says.)
    let shape = |w: &[String]| -> Vec<String> {
        w.iter()
            .filter(|x| {
                !matches!(
                    x.as_str(),
                    "now" | "actually" | "currently" | "just" | "already"
                )
            })
            .map(|x| {
                if x.chars().any(|c| c.is_ascii_digit()) {
                    "#".to_string()
                } else {
                    x.clone()
                }
            })
            .collect()
    };
    let numbers = |w: &[String]| -> Vec<String> {
        w.iter()
            .filter(|x| x.chars().any(|c| c.is_ascii_digit()))
            .cloned()
            .collect()
    };
    // Only a short statement about someone, with one number: "batch 3 of 10" / "batch 4 of 10"
    // are two records, not a change.
    let personal = |w: &[String]| {
        w.len() <= 12
            && w.first()
                .is_some_and(|f| FIRST_PERSON_FOR_CONFLICT.contains(&f.as_str()))
    };
    if shape(&nw) == shape(&ow)
        && personal(&nw)
        && numbers(&nw).len() == 1
        && numbers(&nw) != numbers(&ow)
    {
        return Some(ConflictKind::ChangedNumber);
    }
    if similarity < min_similarity {
        return None;
    }
    let (nc, oc) = (content(&nw, &[]), content(&ow, &[]));
    let about_same = jaccard(&nc, &oc);
    // "I like coffee" / "I don't like coffee (anymore)".
    if negated(&nw) != negated(&ow) && about_same >= 0.75 {
        let stated = CHANGE.iter().any(|c| has_phrase(&nw, c));
        return Some(if stated {
            ConflictKind::StatedChange
        } else {
            ConflictKind::Negation
        });
    }
    // "I love cilantro" / "I hate cilantro": the same thing, opposite feelings.
    let (nt, ot) = (content(&nw, &FEELING), content(&ow, &FEELING));
    if new.sentiment * old.sentiment < 0.0
        && new.sentiment.abs() >= 0.3
        && old.sentiment.abs() >= 0.3
        && !nt.is_empty()
        && jaccard(&nt, &ot) >= 0.5
    {
        return Some(ConflictKind::PreferenceFlip);
    }
    // "I switched to tea" after "I drink coffee every morning": a stated change of the same
    // kind of fact that shares what it is about.
    let stated = CHANGE.iter().any(|c| has_phrase(&nw, c));
    let shared = nc.iter().any(|w| oc.contains(w));
    // ("switched to" reads as an event: the change itself.)
    let comparable = new.memory_type == old.memory_type || new.memory_type == MemoryType::Event;
    if stated && comparable && shared && !additive {
        return Some(ConflictKind::StatedChange);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{Extractor, RuleExtractor};

    fn check(old: &str, new: &str, similarity: f64) -> Option<ConflictKind> {
        let x = |t: &str| RuleExtractor.extract(t, 0).unwrap().remove(0);
        let (o, n) = (x(old), x(new));
        fn st(e: &crate::extract::Extracted) -> Statement<'_> {
            Statement {
                content: &e.content,
                memory_type: e.memory_type,
                sentiment: e.sentiment,
                relationships: &e.relationships,
            }
        }
        detect(st(&n), st(&o), similarity, 0.3)
    }

    #[test]
    fn each_pattern_fires() {
        use ConflictKind::*;
        assert_eq!(
            check("I work at Acme", "I work at Globex", 0.2),
            Some(ChangedJob)
        );
        assert_eq!(
            check("I live in Porto", "I moved to Lisbon", 0.1),
            Some(ChangedPlace)
        );
        assert_eq!(
            check("My wife Mei is a chef", "I'm married to Lena", 0.1),
            Some(ChangedRelationship)
        );
        assert_eq!(check("I'm 34", "I'm 35", 0.8), Some(ChangedNumber));
        assert_eq!(
            check("I have 2 kids", "I have 3 kids", 0.8),
            Some(ChangedNumber)
        );
        assert_eq!(
            check("I like coffee", "I don't like coffee", 0.7),
            Some(Negation)
        );
        assert_eq!(
            check("I eat meat", "I don't eat meat anymore", 0.6),
            Some(StatedChange)
        );
        assert_eq!(
            check("I love cilantro", "I hate cilantro", 0.6),
            Some(PreferenceFlip)
        );
        assert_eq!(
            check(
                "I drink coffee every morning",
                "I switched to tea in the morning",
                0.4
            ),
            Some(StatedChange)
        );
    }

    #[test]
    fn what_must_not_fire() {
        assert_eq!(check("I work at Acme", "I like my new job", 0.5), None);
        assert_eq!(
            check("I work at Acme", "I also work at Globex on weekends", 0.5),
            None
        );
        assert_eq!(
            check("I like coffee", "I like coffee with oat milk", 0.9),
            None
        );
        assert_eq!(
            check("My sister lives in Porto", "I live in Lisbon", 0.5),
            None
        );
        assert_eq!(check("I have 2 kids", "I have 2 kids and a dog", 0.8), None);
        assert_eq!(check("I love cilantro", "I hate mornings", 0.5), None);
        assert_eq!(
            check("I like coffee", "I don't like coffee", 0.1),
            None,
            "too far apart to compare"
        );
        assert_eq!(
            check(
                "I'm learning Korean",
                "I'm learning Korean now with a tutor",
                0.8
            ),
            None
        );
    }
}
