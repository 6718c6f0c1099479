//! Extraction: turning raw conversation into structured memories. The
//! built-in [`RuleExtractor`] is deterministic and offline: a significance gate, then per
//! sentence a memory type, kind, importance, hedging, sentiment, tags, a deadline, and the
//! entities and relationships it names. Hosts may supply their own [`Extractor`] (an LLM).

mod classify;
mod entities;
mod gate;
pub mod llm;
mod relations;
mod sentiment;
mod transcript;
mod when;
mod words;

use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::error::Result;
use crate::field::MAX_TAG_CHARS;
use crate::graph::EntityType;
pub use crate::graph::{EntityMention, RelationMention};
use crate::lexicon::{self, FIRST_PERSON_FOR_QUESTIONS, SUBJECTS};
use crate::model::{Kind, MemoryType};

pub use relations::{kin_named, with_kin_replaced, KinPhrase, KinStep, MAX_KIN_STEPS};
pub use transcript::ChatMessage;
pub use words::sentences;

/// Role-tagged messages as the transcript text the extractor reads.
pub fn transcript(messages: &[ChatMessage]) -> Result<String> {
    transcript::from_messages(messages)
}

/// One memory an extractor found in a text. From a host extractor only `content` is required;
/// the rest defaults to a CONTEXT fact of importance 0.5, full confidence, neutral sentiment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
#[schemars(extend("required" = ["content"]))]
pub struct Extracted {
    /// The memory's text: not blank, at most 50,000 characters.
    #[schemars(length(min = 1, max = crate::field::MAX_CONTENT_CHARS))]
    pub content: String,
    /// The memory type, which sets how fast it decays (default CONTEXT).
    #[serde(rename = "type")]
    pub memory_type: MemoryType,
    /// What sort of knowledge it is (default fact).
    pub kind: Kind,
    /// How much it matters, 0 to 1 (default 0.5).
    #[schemars(range(min = 0, max = 1))]
    pub importance: f64,
    /// How sure the statement is, 0 to 1 (default 1).
    #[schemars(range(min = 0, max = 1))]
    pub confidence: f64,
    /// Whether the speaker hedged ("I think", "maybe"); confidence is lower then (default false).
    pub hedged: bool,
    /// How it feels, from -1 to 1 (default 0).
    #[schemars(range(min = -1, max = 1))]
    pub sentiment: f64,
    /// Keywords, stored as the memory's auto tags: at most 64, each 1 to 64 characters once
    /// trimmed.
    #[schemars(length(max = crate::field::MAX_TAGS), inner(length(min = 1, max = crate::field::MAX_TAG_CHARS)))]
    pub tags: Vec<String>,
    /// When it stops being true, in milliseconds since the Unix epoch, from 1973 (an earlier value
    /// looks like seconds and is refused) to 9999 (default none).
    #[schemars(range(min = crate::clock::MIN_PLAUSIBLE_MS, max = crate::clock::MAX_MILLIS))]
    pub expires_at: Option<Millis>,
    /// The entities it names, for the knowledge graph (at most 64; default none).
    #[schemars(length(max = crate::graph::MAX_PER_MEMORY))]
    pub entities: Vec<EntityMention>,
    /// The relationships it states, for the knowledge graph (at most 64; default none).
    #[schemars(length(max = crate::graph::MAX_PER_MEMORY))]
    pub relationships: Vec<RelationMention>,
    /// The content's vector, when the host embeds what an extractor found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("x-embeds" = "content"))]
    pub vector: Option<Vec<f32>>,
}

impl Default for Extracted {
    fn default() -> Self {
        Extracted {
            content: String::new(),
            memory_type: MemoryType::Context,
            kind: Kind::Fact,
            importance: 0.5,
            confidence: 1.0,
            hedged: false,
            sentiment: 0.0,
            tags: Vec::new(),
            expires_at: None,
            entities: Vec::new(),
            relationships: Vec::new(),
            vector: None,
        }
    }
}

/// Turns a piece of conversation into memories. An empty result means "nothing significant".
pub trait Extractor {
    /// Memories found in `text`, said at `now`.
    fn extract(&self, text: &str, now: Millis) -> Result<Vec<Extracted>>;

    /// One text for a cluster of near-duplicates consolidation is merging (`texts`, the most
    /// important first), from the host's LLM: `None` when there is none (the merged memory
    /// keeps every sentence of its members), else the summary or why there is none.
    fn summarise(
        &self,
        _texts: &[&str],
        _now: Millis,
    ) -> Option<std::result::Result<String, String>> {
        None
    }

    /// A document's or a passage's summary written by the host's LLM, asked with
    /// `instructions` about `text`: `None` when there is none (the engine's summaries stay),
    /// else its answer or why it failed. The caller checks the answer.
    fn ask(
        &self,
        _instructions: &str,
        _text: &str,
        _now: Millis,
    ) -> Option<std::result::Result<String, String>> {
        None
    }

    /// [`Extractor::extract`], saying why another extractor stood in when one did.
    fn extraction(&self, text: &str, now: Millis) -> Result<Extraction> {
        Ok(Extraction {
            memories: self.extract(text, now)?,
            fallback: None,
        })
    }
}

/// What an extraction found, and why the built-in extractor stood in, if it did.
#[derive(Debug, Clone, PartialEq)]
pub struct Extraction {
    /// The memories found, in the order found.
    pub memories: Vec<Extracted>,
    /// Why the built-in extractor stood in for an LLM's answer (none when it did not).
    pub fallback: Option<String>,
}

/// The memories in an LLM's answer about `text`, or, when the answer cannot be used, the
/// built-in extractor's and why.
pub fn from_answer(answer: &str, text: &str, now: Millis) -> Result<Extraction> {
    match llm::parse(answer) {
        Ok(memories) => Ok(Extraction {
            memories,
            fallback: None,
        }),
        Err(why) => fall_back(text, now, &why),
    }
}

/// The built-in extractor in place of an LLM whose answer could not be used, and why.
fn fall_back(text: &str, now: Millis, why: &str) -> Result<Extraction> {
    Ok(Extraction {
        memories: RuleExtractor.extract(text, now)?,
        fallback: Some(format!("{why}; the built-in extractor was used")),
    })
}

/// An LLM behind a function `ask(instructions, text, now)`: `None` when there is none (the
/// built-in extractor runs), else its answer or why it failed. An answer that does not follow
/// [`llm::INSTRUCTIONS`], or a failure, falls back to the built-in extractor and says so. The
/// same function summarises the clusters consolidation merges ([`llm::SUMMARY_INSTRUCTIONS`]).
pub struct LlmExtractor<F>(pub F);

impl<F: Fn(&str, &str, Millis) -> Option<std::result::Result<String, String>>> Extractor
    for LlmExtractor<F>
{
    fn extract(&self, text: &str, now: Millis) -> Result<Vec<Extracted>> {
        Ok(self.extraction(text, now)?.memories)
    }

    fn extraction(&self, text: &str, now: Millis) -> Result<Extraction> {
        match (self.0)(llm::INSTRUCTIONS, text, now) {
            None => RuleExtractor.extraction(text, now),
            Some(Err(e)) => fall_back(text, now, &format!("the LLM failed ({e})")),
            Some(Ok(answer)) => from_answer(&answer, text, now),
        }
    }

    fn summarise(
        &self,
        texts: &[&str],
        now: Millis,
    ) -> Option<std::result::Result<String, String>> {
        (self.0)(llm::SUMMARY_INSTRUCTIONS, &llm::numbered(texts), now)
            .map(|answer| answer.and_then(|a| llm::parse_summary(&a)))
    }

    fn ask(
        &self,
        instructions: &str,
        text: &str,
        now: Millis,
    ) -> Option<std::result::Result<String, String>> {
        (self.0)(instructions, text, now)
    }
}

/// Stores the whole text as one CONTEXT narrative of middling importance (for hosts that want
/// messages kept verbatim).
#[derive(Debug, Default, Clone, Copy)]
pub struct PassThrough;

impl Extractor for PassThrough {
    fn extract(&self, text: &str, _now: Millis) -> Result<Vec<Extracted>> {
        Ok(vec![Extracted {
            content: text.trim().to_string(),
            kind: Kind::Narrative,
            ..Default::default()
        }])
    }
}

/// A sentence shorter than this is part of the statement before it.
const MIN_STATEMENT_WORDS: usize = 4;

/// Most auto tags per memory.
const MAX_TAGS: usize = 6;
/// Shortest keyword used as a tag.
pub(crate) const MIN_TAG_CHARS: usize = 4;

/// Whether an extracted keyword can be stored as a tag (trimmed, not empty, at most
/// [`MAX_TAG_CHARS`] characters, no NUL). One that cannot (a long URL, a key) is dropped as a
/// tag only: it stays in the memory's content, so the message is never refused for it.
pub(crate) fn usable_tag(tag: &str) -> bool {
    let tag = tag.trim();
    !tag.is_empty() && tag.chars().count() <= MAX_TAG_CHARS && !tag.contains('\0')
}

/// The built-in extractor: rules and word lists, the same output on every target.
#[derive(Debug, Default, Clone, Copy)]
pub struct RuleExtractor;

impl Extractor for RuleExtractor {
    fn extract(&self, text: &str, now: Millis) -> Result<Vec<Extracted>> {
        // A chat capture ("User: … / Assistant: …"): the user's turns, each on its own.
        if let Some(turns) = transcript::user_turns(text) {
            let mut found = Vec::new();
            for turn in turns {
                found.extend(self.extract(&turn, now)?);
            }
            return Ok(found);
        }
        if gate::trivial(&words::tokens(text)) {
            return Ok(Vec::new());
        }
        // A transcript line ("Caroline: …") keeps its speaker on every statement; a note's
        // label ("Reminder: …") stays on its first, and is read as no part of any.
        let (label, text) = crate::text::line_label(text);
        let speaker = label.filter(|l| !crate::text::is_note_label(l));
        // Fragments of fewer than four words ("third time lucky") belong to the statement
        // before them.
        let mut statements: Vec<String> = Vec::new();
        for s in words::sentences(text) {
            let tokens = words::tokens(s);
            if gate::trivial(&tokens) {
                continue;
            }
            // A fragment has no subject of its own: "I like tea." stands alone.
            let fragment = tokens.iter().filter(|t| !t.punct).count() < MIN_STATEMENT_WORDS
                && !tokens
                    .first()
                    .is_some_and(|t| SUBJECTS.contains(&t.lower.as_str()));
            match statements.last_mut() {
                Some(last) if fragment => {
                    last.push(' ');
                    last.push_str(s);
                }
                _ => statements.push(s.to_string()),
            }
        }
        let mut found: Vec<Extracted> = Vec::new();
        for s in &statements {
            let Some(mut x) = statement(s, now) else {
                continue;
            };
            if let Some(person) = referent(s, found.last()) {
                names_too(&mut x, person);
            }
            match (speaker, label) {
                (Some(name), _) => x.content = format!("{name}: {}", x.content),
                (None, Some(note)) if found.is_empty() => {
                    x.content = format!("{note}: {}", x.content);
                }
                _ => {}
            }
            found.push(x);
        }
        Ok(found)
    }
}

/// The person `sentence` points back to by its first word ("he runs a restaurant"): the one
/// person the statement before it names, if it names exactly one.
fn referent(sentence: &str, before: Option<&Extracted>) -> Option<EntityMention> {
    let first = words::tokens(sentence).into_iter().find(|t| !t.punct)?;
    let pointing = matches!(
        first.lower.as_str(),
        "he" | "she" | "he's" | "she's" | "his" | "her" | "him" | "they" | "they're" | "their"
    );
    let mut people = before
        .filter(|_| pointing)?
        .entities
        .iter()
        .filter(|e| e.entity_type == EntityType::Person);
    match (people.next(), people.next()) {
        (Some(one), None) => Some(one.clone()),
        _ => None,
    }
}

/// `x` names `person` too: as an entity, and as a tag when it has room for one.
fn names_too(x: &mut Extracted, person: EntityMention) {
    let tag = person.name.to_lowercase();
    if !x.entities.iter().any(|e| e.name == person.name) {
        x.entities.push(person);
    }
    if x.tags.len() < MAX_TAGS && usable_tag(&tag) && !x.tags.contains(&tag) {
        x.tags.push(tag);
    }
}

/// One sentence as a memory, or `None` when it is trivial ("Thanks!").
fn statement(sentence: &str, now: Millis) -> Option<Extracted> {
    let tokens = words::tokens(sentence);
    if gate::trivial(&tokens) {
        return None;
    }
    let lower = lowered(&tokens);
    let padded = words::padded(&tokens);
    let mut found = entities::find(&tokens);
    // A question that says nothing about the speaker or anything named ("how many
    // tablespoons are in a cup?") is not a memory.
    let question = tokens.last().is_some_and(|t| t.lower == "?");
    if question && found.is_empty() && !lower.iter().any(|w| FIRST_PERSON_FOR_QUESTIONS.contains(w))
    {
        return None;
    }
    let when = when::resolve(sentence, &lower, now);
    // "finished the marathon on Sunday": a past verb makes a bare weekday last Sunday's.
    let told_as_past = told_as_past(&tokens, &padded);
    let mut future = when.is_some_and(|w| !w.past && w.at > now) && !told_as_past;
    let past = when.is_some_and(|w| w.past) || (when.is_some() && told_as_past);
    let today_end = now - now.rem_euclid(crate::clock::DAY_MS) + crate::clock::DAY_MS - 1;
    let expires = when.filter(|_| future).map(|w| w.at);
    // "today" alone is no plan: the weather today, a feeling today.
    if when.is_some_and(|w| w.at == today_end) {
        future = false;
    }
    let memory_type = classify::memory_type(&tokens, &padded, future, past);
    let hedge = classify::hedging(&padded);
    let sentiment = sentiment::score(&lower);
    let links = relations::find(&tokens, &mut found);
    let confidence = ((1.0 - hedge) * 100.0).round() / 100.0;
    let expires_at = expires.filter(|_| {
        matches!(
            memory_type,
            MemoryType::Plan | MemoryType::Ephemeral | MemoryType::Context
        )
    });
    let word_count = lower.iter().filter(|w| **w != "|").count();
    let mut entities: Vec<EntityMention> = Vec::new();
    for f in found {
        if !entities.iter().any(|e| e.name == f.name) {
            entities.push(EntityMention {
                name: f.name,
                entity_type: f.kind,
                aliases: Vec::new(),
            });
        }
    }
    Some(Extracted {
        content: sentence.to_string(),
        memory_type,
        kind: classify::kind(&padded, word_count, memory_type),
        importance: classify::importance(
            memory_type,
            &padded,
            sentiment,
            entities.len(),
            expires_at.is_some(),
            hedge,
        ),
        confidence,
        hedged: hedge > 0.0,
        sentiment,
        tags: tags(&lower, entities.iter().map(|e| e.name.as_str())),
        expires_at,
        relationships: links
            .into_iter()
            .map(|l| RelationMention {
                from: l.from,
                relation: l.relation,
                to: l.to,
                confidence: ((0.9 * (1.0 - hedge)) * 100.0).round() / 100.0,
            })
            .collect(),
        entities,
        vector: None,
    })
}

/// The keywords the extractor would tag `text` with (see [`tags`]): consolidation gives them
/// to memories that came without.
pub(crate) fn keywords(text: &str) -> Vec<String> {
    let tokens = words::tokens(text);
    tags(
        &lowered(&tokens),
        entities::find(&tokens).iter().map(|f| f.name.as_str()),
    )
}

/// Whether a sentence tells of the past ("finished the marathon on Sunday"): a past verb
/// and no word of the future.
fn told_as_past(tokens: &[words::Token], padded: &str) -> bool {
    classify::past_tense(tokens) && !classify::future_words(padded)
}

/// Whether `text` is told of the past ("we went to Lisbon in March"): what it names alone is
/// then not of a plan.
pub(crate) fn told_of_past(text: &str) -> bool {
    let tokens = words::tokens(text);
    told_as_past(&tokens, &words::padded(&tokens))
}

/// Whether `text`, said at `said`, names a time still to come then ("I'll come over
/// tomorrow", "I'm going to make it this weekend"), as the extractor reads dates.
pub(crate) fn names_time_ahead(text: &str, said: Millis) -> bool {
    let tokens = words::tokens(text);
    when::resolve(text, &lowered(&tokens), said).is_some_and(|w| !w.past && w.at > said)
}

/// A sentence's words in lower case, each punctuation mark `|`: what the readers of dates and
/// tags take.
fn lowered(tokens: &[words::Token]) -> Vec<&str> {
    tokens
        .iter()
        .map(|t| if t.punct { "|" } else { t.lower.as_str() })
        .collect()
}

/// Keywords: entity names first, then uncommon words of at least four letters, in order.
fn tags<'a>(lower: &[&str], entities: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |t: String| {
        if usable_tag(&t) && out.len() < MAX_TAGS && !out.contains(&t) {
            out.push(t);
        }
    };
    for name in entities {
        push(name.to_lowercase());
    }
    for w in lower {
        let w = w.trim_end_matches("'s");
        if w.chars().count() >= MIN_TAG_CHARS
            && w.chars().all(|c| c.is_alphanumeric() || c == '-')
            && !lexicon::common(w)
            && !w.contains('\'')
        {
            push(w.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EntityType, Relation};

    /// Wednesday 2026-11-18 10:00 UTC.
    const NOW: Millis = 1_794_996_000_000;

    fn one(text: &str) -> Extracted {
        let mut v = RuleExtractor.extract(text, NOW).expect("extract");
        assert_eq!(v.len(), 1, "{text}: {v:?}");
        v.remove(0)
    }

    #[test]
    fn transcript_lines_keep_their_speaker_on_every_statement() {
        let v = RuleExtractor
            .extract(
                "Caroline: I went to a support group yesterday. It was so powerful!",
                NOW,
            )
            .unwrap();
        let content: Vec<&str> = v.iter().map(|x| x.content.as_str()).collect();
        assert_eq!(
            content,
            [
                "Caroline: I went to a support group yesterday.",
                "Caroline: It was so powerful!"
            ]
        );
        assert!(RuleExtractor
            .extract("Caroline: ok thanks", NOW)
            .unwrap()
            .is_empty());
        assert_eq!(one("Note: I prefer tea").content, "Note: I prefer tea");
    }

    #[test]
    fn trivial_messages_store_nothing() {
        for m in ["ok", "thanks!", "lol", "👍", "haha nice"] {
            assert!(RuleExtractor.extract(m, NOW).unwrap().is_empty(), "{m}");
        }
    }

    #[test]
    fn a_message_becomes_one_memory_per_statement() {
        let v = RuleExtractor
            .extract(
                "Thanks! I'm a nurse. I work nights at St. Mary's Hospital.",
                NOW,
            )
            .unwrap();
        let types: Vec<MemoryType> = v.iter().map(|x| x.memory_type).collect();
        assert_eq!(types, [MemoryType::Identity, MemoryType::Identity]);
        assert_eq!(v[1].relationships[0].relation, Relation::WorksAt);
        assert_eq!(v[1].entities[0].entity_type, EntityType::Organization);
    }

    #[test]
    fn a_statement_opening_on_he_or_she_names_whom_the_one_before_named() {
        let v = RuleExtractor
            .extract(
                "My husband Tiago is a chef; he runs a small restaurant in Alfama.",
                NOW,
            )
            .unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[1].content, "he runs a small restaurant in Alfama.");
        let tiago = v[1]
            .entities
            .iter()
            .find(|e| e.name == "Tiago")
            .expect("Tiago");
        assert_eq!(tiago.entity_type, EntityType::Person);
        assert!(v[1].tags.contains(&"tiago".to_string()), "{:?}", v[1].tags);
        // Its own type and deadline stay its own.
        let v = RuleExtractor
            .extract(
                "My son Kai has a peanut allergy. He starts kindergarten at Oakwood next week.",
                NOW,
            )
            .unwrap();
        assert_eq!(v[1].memory_type, MemoryType::Plan);
        assert!(v[1].expires_at.is_some());
        assert!(v[1].entities.iter().any(|e| e.name == "Kai"));
        // Nobody, or two people, before it: no one is guessed.
        for text in [
            "My parents live in Faro. They are retired now.",
            "Ana met Rui in Porto. She says he is lovely.",
            "I met Ana today. It was raining the whole time.",
        ] {
            let v = RuleExtractor.extract(text, NOW).unwrap();
            let added = v[1].entities.iter().any(|e| v[0].entities.contains(e));
            assert!(!added, "{text}: {v:#?}");
        }
    }

    #[test]
    fn plans_get_deadlines_and_hedges_lower_confidence() {
        let p = one("I need to renew my passport by Friday");
        assert_eq!(p.memory_type, MemoryType::Plan);
        assert_eq!(p.expires_at, Some(1_795_219_199_999));
        assert!(!p.hedged);
        assert_eq!(p.confidence, 1.0);
        let h = one("I think I might move to Lisbon");
        assert!(h.hedged);
        assert!(h.confidence < 0.7);
        assert!(h.importance < one("I will move to Lisbon").importance);
    }

    #[test]
    fn sentiment_and_tags() {
        let x = one("I absolutely love Porto and the pastel de nata");
        assert!(x.sentiment > 0.5);
        assert_eq!(x.tags[0], "porto");
        assert!(x.tags.contains(&"pastel".to_string()));
        assert!(one("I hate cilantro").sentiment < -0.5);
    }
}
