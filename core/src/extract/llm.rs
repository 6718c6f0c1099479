//! Extraction by an LLM: the instructions every host sends with a message, and the checking of
//! what comes back. The answer must follow [`INSTRUCTIONS`]' JSON schema; anything else —
//! malformed JSON, a wrong type, an unknown memory type, a number out of range — is refused
//! whole, and the engine falls back to the built-in extractor and says why.

use serde::Deserialize;

use super::{EntityMention, Extracted, RelationMention};
use crate::clock::Millis;
use crate::field::MAX_CONTENT_CHARS;
use crate::graph::{EntityType, Relation, BRIDGE_REASON_CHARS, BRIDGE_RELATION_CHARS};
use crate::model::{Kind, MemoryType};

/// What the LLM is asked to do, with the JSON schema of its answer.
pub const INSTRUCTIONS: &str = r#"You extract long-term memories from one message a user sent to their assistant.
Answer with JSON only, no prose, in exactly this shape:
{"memories": [{
  "content": "one self-contained statement, in the user's words where possible",
  "type": "IDENTITY | PREFERENCE | RELATIONSHIP | EVENT | ACTIVITY | PLAN | CONTEXT | EPHEMERAL",
  "kind": "fact | procedure | narrative",
  "importance": 0.0-1.0,
  "confidence": 0.0-1.0 (lower when the user hedges),
  "hedged": true | false,
  "sentiment": -1.0-1.0,
  "tags": ["keyword", ...],
  "expires_at": "RFC 3339 date-time when a plan or deadline ends, else null",
  "entities": [{"name": "...", "type": "PERSON | ORGANIZATION | LOCATION | PRODUCT | CONCEPT | EVENT | OTHER", "aliases": []}],
  "relationships": [{"from": "user or an entity name", "relation": "works_at | lives_in | friend_of | sibling_of | parent_of | married_to | dating | manages | reports_to | uses | likes | dislikes | ...", "to": "...", "confidence": 0.0-1.0}]
}]}
IDENTITY: who the user is. PREFERENCE: likes, dislikes, how they want answers. RELATIONSHIP: people, pets, organisations, places in their life. EVENT: what happened. ACTIVITY: what they are doing now. PLAN: what they intend, with deadlines. CONTEXT: about this conversation. EPHEMERAL: true only right now.
The user is "user" in relationships. Chit-chat ("ok", "thanks", "lol") gives {"memories": []}. Only "content" is required."#;

/// What the LLM is asked when consolidation merges a cluster of near-duplicates (only when
/// the host has one): the members' texts come numbered, most important first.
pub const SUMMARY_INSTRUCTIONS: &str = r#"You merge near-duplicate memories a user's assistant kept about them into one memory.
The numbered texts below say the same things in different words, the most important first.
Answer with JSON only, no prose, in exactly this shape: {"summary": "..."}
The summary is one to three sentences in the user's own voice that keep every fact any of the texts states (names, numbers, dates, places, preferences) and say nothing they do not."#;

/// What the LLM is asked when consolidation rewrites a document passage's summary (only when
/// the host has one): the passage comes after its document's title and section.
pub const PASSAGE_SUMMARY_INSTRUCTIONS: &str = r#"You summarise one passage of a document a user gave their assistant to remember.
The document's title and the passage's section come first, then the passage.
Answer with JSON only, no prose, in exactly this shape: {"summary": "..."}
The summary is one or two sentences that say what the passage states (names, numbers, dates, decisions), so that someone searching for it would recognise it. Say nothing the passage does not."#;

/// What the LLM is asked when consolidation rewrites a document's summary: its title, then its
/// passages' summaries in order.
pub const DOCUMENT_SUMMARY_INSTRUCTIONS: &str = r#"You summarise a document a user gave their assistant to remember.
Its title comes first, then a numbered summary of each of its passages, in order.
Answer with JSON only, no prose, in exactly this shape: {"summary": "..."}
The summary is two or three sentences that say what the document is and what it mainly states. Say nothing the passages do not."#;

/// What the LLM is asked when consolidation writes a peer card's summary: the card (name,
/// type, aliases, relationships, facts), as the engine lays it out.
pub const CARD_SUMMARY_INSTRUCTIONS: &str = r#"You write the summary on a card an assistant keeps about someone or something its user mentions.
The card comes next: the name and what sort of thing it is, other names, relationships, then the most important facts the assistant remembers, one per line.
Answer with JSON only, no prose, in exactly this shape: {"summary": "..."}
The summary is two or three sentences that say who or what this is to the user and the most important of the facts. Say nothing the card does not."#;

/// What the LLM is asked when consolidation proposes a bridge between two entities that
/// memories of different conversations name together: the two names, then those memories.
pub const BRIDGE_INSTRUCTIONS: &str = r#"You check a link an assistant's memory proposes between two things a user mentioned together in different conversations.
The two names come first, then the memories that name both, one per line.
Answer with JSON only, no prose, in exactly this shape: {"related": true, "relation": "...", "reason": "..."}
"related" is true only if the memories show the two are really connected (not just mentioned in the same breath). "relation" is a few words saying how the first relates to the second (empty when not related). "reason" is one sentence citing the memories. Say nothing the memories do not."#;

/// An LLM's answer to [`BRIDGE_INSTRUCTIONS`]: whether the two are related, how, and why; or
/// why the answer cannot be used.
pub fn parse_bridge(answer: &str) -> Result<(bool, String, String), String> {
    #[derive(Deserialize)]
    struct Bridge {
        related: bool,
        #[serde(default)]
        relation: String,
        reason: String,
    }
    let b: Bridge = answer_json(answer, "bridge")?;
    check_bridge(b.related, &b.relation, &b.reason).map_err(|why| format!("the LLM's {why}"))
}

/// A decision on a bridge, trimmed, when it keeps to its bounds (a reason of at most
/// [`BRIDGE_REASON_CHARS`] characters; a relation of at most [`BRIDGE_RELATION_CHARS`] when
/// related); else why not.
pub fn check_bridge(
    related: bool,
    relation: &str,
    reason: &str,
) -> Result<(bool, String, String), String> {
    let (relation, reason) = (relation.trim(), reason.trim());
    if reason.is_empty() {
        return Err("bridge answer gives no reason".into());
    }
    for (what, text, max) in [
        ("relation", relation, BRIDGE_RELATION_CHARS),
        ("reason", reason, BRIDGE_REASON_CHARS),
    ] {
        let chars = text.chars().count();
        if chars > max {
            return Err(format!(
                "bridge {what} has {chars} characters, more than {max}"
            ));
        }
    }
    if related && relation.is_empty() {
        return Err("bridge answer says the two are related but not how".into());
    }
    Ok((related, relation.to_string(), reason.to_string()))
}

/// An LLM's answer to [`SUMMARY_INSTRUCTIONS`]: the summary, or why it cannot be used (not
/// the JSON asked for, empty, or longer than a memory may be).
pub fn parse_summary(answer: &str) -> Result<String, String> {
    #[derive(Deserialize)]
    struct Summary {
        summary: String,
    }
    let s: Summary = answer_json(answer, "summary")?;
    let summary = s.summary.trim();
    let chars = summary.chars().count();
    if summary.is_empty() {
        Err("the LLM's summary is empty".into())
    } else if chars > MAX_CONTENT_CHARS {
        Err(format!(
            "the LLM's summary has {chars} characters, more than a memory's {MAX_CONTENT_CHARS}"
        ))
    } else {
        Ok(summary.to_string())
    }
}

/// The members' texts as the summary instructions describe them: numbered, one a line.
pub fn numbered(texts: &[&str]) -> String {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{}. {}", i + 1, t.replace('\n', " ")))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One memory as the LLM gives it (unknown fields are ignored; known ones are checked).
#[derive(Deserialize)]
struct Said {
    content: String,
    #[serde(rename = "type", default)]
    memory_type: Option<MemoryType>,
    #[serde(default)]
    kind: Option<Kind>,
    #[serde(default)]
    importance: Option<f64>,
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default)]
    hedged: Option<bool>,
    #[serde(default)]
    sentiment: Option<f64>,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    expires_at: Option<When>,
    #[serde(default)]
    entities: Vec<SaidEntity>,
    #[serde(default)]
    relationships: Vec<SaidRelation>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum When {
    Millis(i64),
    Text(String),
}

#[derive(Deserialize)]
struct SaidEntity {
    name: String,
    #[serde(rename = "type", default)]
    entity_type: Option<EntityType>,
    #[serde(default)]
    aliases: Vec<String>,
}

#[derive(Deserialize)]
struct SaidRelation {
    from: String,
    relation: Relation,
    to: String,
    #[serde(default)]
    confidence: Option<f64>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Answer {
    Wrapped { memories: Vec<Said> },
    Bare(Vec<Said>),
}

/// An answer read as the `what` JSON asked for (a Markdown code fence around it allowed), or
/// why it is not.
fn answer_json<T: serde::de::DeserializeOwned>(answer: &str, what: &str) -> Result<T, String> {
    crate::json::from_text("answer", json_of(answer))
        .map_err(|e| format!("the LLM's answer is not the {what} JSON ({e})"))
}

/// The JSON in an answer: without a Markdown code fence around it, if there is one.
fn json_of(text: &str) -> &str {
    let t = text.trim();
    let Some(rest) = t.strip_prefix("```") else {
        return t;
    };
    let rest = rest.split_once('\n').map_or(rest, |(_, body)| body);
    rest.trim_end().strip_suffix("```").unwrap_or(rest).trim()
}

fn unit(field: &str, v: Option<f64>, lo: f64) -> Result<Option<f64>, String> {
    match v {
        Some(x) if !(x.is_finite() && (lo..=1.0).contains(&x)) => {
            Err(format!("{field} {x} is not between {lo} and 1"))
        }
        v => Ok(v),
    }
}

/// The memories in an LLM's answer, or why the answer cannot be used.
pub fn parse(answer: &str) -> Result<Vec<Extracted>, String> {
    let answer: Answer = answer_json(answer, "extraction")?;
    let said = match answer {
        Answer::Wrapped { memories } => memories,
        Answer::Bare(v) => v,
    };
    let mut out = Vec::with_capacity(said.len());
    for (i, s) in said.into_iter().enumerate() {
        let at = |e: String| format!("memories[{i}]: {e}");
        if s.content.trim().is_empty() {
            return Err(at("content is empty".into()));
        }
        let expires_at = match s.expires_at {
            None => None,
            Some(When::Millis(ms)) => Some(ms),
            Some(When::Text(t)) => {
                let t =
                    time::OffsetDateTime::parse(&t, &time::format_description::well_known::Rfc3339)
                        .map_err(|e| {
                            at(format!("expires_at {t:?} is not an RFC 3339 time ({e})"))
                        })?;
                Some((t.unix_timestamp_nanos() / 1_000_000) as Millis)
            }
        };
        let defaults = Extracted::default();
        let mut relationships = Vec::with_capacity(s.relationships.len());
        for r in s.relationships {
            relationships.push(RelationMention {
                from: r.from,
                relation: r.relation,
                to: r.to,
                confidence: unit("relationship confidence", r.confidence, 0.0)
                    .map_err(at)?
                    .unwrap_or(0.8),
            });
        }
        out.push(Extracted {
            content: s.content.trim().to_string(),
            memory_type: s.memory_type.unwrap_or(defaults.memory_type),
            kind: s.kind.unwrap_or(defaults.kind),
            importance: unit("importance", s.importance, 0.0)
                .map_err(at)?
                .unwrap_or(defaults.importance),
            confidence: unit("confidence", s.confidence, 0.0)
                .map_err(at)?
                .unwrap_or(defaults.confidence),
            hedged: s.hedged.unwrap_or(false),
            sentiment: unit("sentiment", s.sentiment, -1.0)
                .map_err(at)?
                .unwrap_or(0.0),
            // Keywords the store cannot hold (too long, too many) are dropped, not the memory.
            tags: s
                .tags
                .into_iter()
                .filter(|t| super::usable_tag(t))
                .take(crate::field::MAX_TAGS)
                .collect(),
            expires_at,
            entities: s
                .entities
                .into_iter()
                .map(|e| EntityMention {
                    name: e.name,
                    entity_type: e.entity_type.unwrap_or(EntityType::Other),
                    aliases: e.aliases,
                })
                .collect(),
            relationships,
            vector: None,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_good_answer_fenced_or_not() {
        let answer = r#"```json
{"memories": [{"content": "User's sister Ana lives in Porto", "type": "RELATIONSHIP", "importance": 0.8,
  "expires_at": "2026-12-01T17:00:00Z", "extra": "ignored",
  "entities": [{"name": "Ana", "type": "PERSON"}],
  "relationships": [{"from": "user", "relation": "sibling_of", "to": "Ana"}]}]}
```"#;
        let v = parse(answer).unwrap();
        assert_eq!(v[0].memory_type, MemoryType::Relationship);
        assert_eq!(v[0].expires_at, Some(1_796_144_400_000));
        assert_eq!(v[0].relationships[0].confidence, 0.8);
        assert_eq!(parse("[]").unwrap(), vec![]);
        assert_eq!(parse(r#"{"memories": []}"#).unwrap(), vec![]);
    }

    #[test]
    fn summaries_are_checked() {
        assert_eq!(
            parse_summary("```json\n{\"summary\": \" I live in Porto. \"}\n```").unwrap(),
            "I live in Porto."
        );
        let long = format!("{{\"summary\": \"{}\"}}", "a".repeat(MAX_CONTENT_CHARS + 1));
        for (answer, why) in [
            (
                "Here is a summary: I live in Porto.",
                "not the summary JSON",
            ),
            (r#"{"summary": 3}"#, "not the summary JSON"),
            (r#"{"summary": "  "}"#, "empty"),
            (long.as_str(), "more than a memory"),
        ] {
            let e = parse_summary(answer).unwrap_err();
            assert!(e.contains(why), "{answer:.40}: {e}");
        }
        assert_eq!(numbered(&["a\nb", "c"]), "1. a b\n2. c");
    }

    #[test]
    fn bad_answers_say_why() {
        for (answer, why) in [
            ("Sure! Here are the memories:", "not the extraction JSON"),
            (
                r#"{"memories": [{"content": "x", "type": "FEELING"}]}"#,
                "not the extraction JSON",
            ),
            (
                r#"{"memories": [{"content": "x", "importance": 7}]}"#,
                "importance 7",
            ),
            (r#"{"memories": [{"content": "  "}]}"#, "content is empty"),
            (
                r#"{"memories": [{"content": "x", "expires_at": "next friday"}]}"#,
                "RFC 3339",
            ),
            (
                r#"{"memories": [{"content": "x", "relationships": [{"from": "user", "relation": "frenemy_of", "to": "Bo"}]}]}"#,
                "not the extraction JSON",
            ),
        ] {
            let e = parse(answer).unwrap_err();
            assert!(e.contains(why), "{answer}: {e}");
        }
    }
}
