//! Questions about the speaker's people ("which city does my sister live in?"), other
//! people's ("where does Ana's husband work?") and their places ("what does my company
//! make?"): the relation a question names is looked up in the owner's knowledge graph (where
//! "my sister Ana is a nurse" made `user sibling_of Ana`), and who it is ("Ana") is matched in
//! the phrase's place, so "Ana lives in Lisbon" answers though it says nothing of a sister.

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::extract::{kin_named, with_kin_replaced};
use crate::graph::{self, SPEAKER};
use crate::store::View;

/// The most entities one phrase of a question is followed to ("my kids": each child).
pub const MAX_HOPS: usize = 3;
/// Kinship and work nouns that stand for every noun of their relation ("my kids": a son and
/// a daughter; "my boss": whoever manages the speaker, called her manager or her supervisor):
/// any statement of the relation names who they are. Any other noun is followed only to whom
/// a statement calls by it ("my sister" not to a brother, though both are `sibling_of`; "my
/// intern" not to every report).
const EVERY_NOUN_OF_THEIR_RELATION: &[&str] = &[
    "kid",
    "child",
    "baby",
    "sibling",
    "partner",
    "spouse",
    "grandkid",
    "grandchild",
    "pet",
    "boss",
    "manager",
    "supervisor",
    "lead",
    "team lead",
    "colleague",
    "coworker",
    "co-worker",
];

/// A relation the query named, and who the owner's knowledge graph says it is: the hit was
/// found through that entity ("my sister" → Ana, "my sister's husband" → Rui, "my company" →
/// Acme).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hop {
    /// The query's words naming the relation ("my sister", "Ana's husband", "my company").
    pub phrase: String,
    /// The entity of the owner's knowledge graph they name ("Ana").
    pub entity: String,
}

/// The relations a question names that the owner's graph answers: each hop, and who each
/// phrase is, to put in its place in any reading of the question.
#[derive(Debug, Default)]
pub(super) struct Resolved {
    /// Each entity a phrase was followed to.
    pub hops: Vec<Hop>,
    /// The words of each phrase followed, and the names of who it is ("my sister", "Ana").
    names: Vec<(String, String)>,
}

impl Resolved {
    /// `text` with every phrase followed read as who it is ("which city does Ana live in?").
    pub fn in_place(&self, text: &str) -> String {
        if self.names.is_empty() {
            return text.to_string();
        }
        let phrases = kin_named(text);
        let replaced: Vec<_> = phrases
            .iter()
            .filter_map(|p| {
                let (_, names) = self.names.iter().find(|(words, _)| *words == p.words)?;
                Some((p, names.clone()))
            })
            .collect();
        match replaced.is_empty() {
            true => text.to_string(),
            false => with_kin_replaced(text, &replaced),
        }
    }
}

/// The hops of `text` (the query's words to match) in `owner`'s graph, as the caller sees it.
/// A relationship counts only through a memory stating it that the caller may see (another
/// agent's private "my sister Ana" names no one to this one), and that says the noun asked
/// (see [`EVERY_NOUN_OF_THEIR_RELATION`]); newest statement first, at most [`MAX_HOPS`]
/// entities a phrase. A chained phrase ("my sister's husband") is followed a relation at a
/// time from whom the one before names, and only whole: a phrase the graph does not answer to
/// its end is not followed.
pub(super) fn resolve(view: &View, owner: &str, text: &str) -> Result<Resolved> {
    let mut resolved = Resolved::default();
    for phrase in kin_named(text) {
        // Whose relation: the speaker's, or that of the entity the name before "'s" keys;
        // then, a step at a time, of whom the step before named.
        let mut keys: Vec<String> = match &phrase.anchor {
            None => vec![SPEAKER.to_string()],
            Some(name) => graph::name_key(name).into_iter().collect(),
        };
        let mut names: Vec<String> = Vec::new();
        for step in &phrase.steps {
            let every =
                !step.noun_said || EVERY_NOUN_OF_THEIR_RELATION.contains(&step.noun.as_str());
            names.clear();
            for &relation in &step.relations {
                for key in &keys {
                    for found in graph::related(
                        view.conn(),
                        owner,
                        key,
                        relation,
                        step.outward,
                        if every { "" } else { &step.noun },
                        MAX_HOPS,
                    )? {
                        if names.len() < MAX_HOPS && !names.contains(&found) {
                            names.push(found);
                        }
                    }
                }
            }
            keys = names.iter().filter_map(|n| graph::name_key(n)).collect();
        }
        if names.is_empty() {
            continue;
        }
        // A place or group keeps its noun beside the name ("my team": "Falcons team"): no
        // statement said it, so the words asked still count.
        let mut with = names.join(" ");
        if let Some(step) = phrase.steps.last().filter(|s| !s.noun_said) {
            with = format!("{with} {}", step.noun);
        }
        resolved.names.push((phrase.words.clone(), with));
        resolved.hops.extend(names.into_iter().map(|entity| Hop {
            phrase: phrase.words.clone(),
            entity,
        }));
    }
    Ok(resolved)
}
