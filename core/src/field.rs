//! Checked values. A call's arguments are parsed into these types once, where the call enters
//! the engine; the code behind takes them and checks nothing again. Each error names the field
//! and says what is expected.

use std::ops::Deref;

use crate::error::{Error, Result};

/// What every id and entity id must match, as a JSON Schema `pattern` states it: the one
/// statement of the id's characters and length, which the check and its error message read.
pub const ID_PATTERN: &str = "^[A-Za-z0-9_:.-]{1,256}$";
/// Longest id / entity id, in bytes (the length in [`ID_PATTERN`]).
pub const MAX_ID_LEN: usize = 256;
/// Longest content accepted, in characters (applied on every surface).
pub const MAX_CONTENT_CHARS: usize = 50_000;
/// Most tags on one memory.
pub const MAX_TAGS: usize = 64;
/// Longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 64;
/// Most results one call may return, and the largest page.
pub const MAX_LIMIT: usize = 1000;

/// The character class of [`ID_PATTERN`] (`A-Za-z0-9_:.-`).
fn id_class() -> &'static str {
    let class = ID_PATTERN.strip_prefix("^[").unwrap_or(ID_PATTERN);
    class.split(']').next().unwrap_or(class)
}

/// The items of a regular expression's character class, as `(first, last)` pairs: `a-z` is a
/// range, any other character (a `-` at either end included) stands for itself.
fn class_items(class: &str) -> impl Iterator<Item = (char, char)> + '_ {
    let mut chars = class.chars();
    std::iter::from_fn(move || {
        let first = chars.next()?;
        let mut ahead = chars.clone();
        match (ahead.next(), ahead.next()) {
            (Some('-'), Some(last)) => {
                chars = ahead;
                Some((first, last))
            }
            _ => Some((first, first)),
        }
    })
}

/// Checks an id against [`ID_PATTERN`].
fn check_id(field: &str, id: &str) -> Result<()> {
    if id.is_empty() {
        return Err(Error::invalid(field, "must not be empty"));
    }
    if id.len() > MAX_ID_LEN {
        return Err(Error::invalid(
            field,
            format!("is {} bytes; at most {MAX_ID_LEN} allowed", id.len()),
        ));
    }
    let allowed = |c: char| class_items(id_class()).any(|(a, b)| (a..=b).contains(&c));
    if let Some(c) = id.chars().find(|&c| !allowed(c)) {
        let items: Vec<String> = class_items(id_class())
            .map(|(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        return Err(Error::invalid(
            field,
            format!("contains {c:?}; only {} are allowed", items.join(" ")),
        ));
    }
    Ok(())
}

/// An id: of an owner, a memory, a session, an agent, a conflict, an act.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Id(String);

impl Id {
    /// Parses the id in `field`.
    pub fn parse(field: &str, id: &str) -> Result<Id> {
        check_id(field, id)?;
        Ok(Id(id.to_string()))
    }

    /// An optional id.
    pub fn parse_opt(field: &str, id: Option<&str>) -> Result<Option<Id>> {
        id.map(|id| Id::parse(field, id)).transpose()
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Id {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Id {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<Id> for String {
    fn from(id: Id) -> String {
        id.0
    }
}

/// The owner of memories (`entity_id`): every read and write is scoped to one.
pub type Owner = Id;

impl Id {
    /// Parses an owner id (the field `entity_id`).
    pub fn owner(entity_id: &str) -> Result<Owner> {
        Id::parse("entity_id", entity_id)
    }
}

/// Text to remember or search with: not blank, at most [`MAX_CONTENT_CHARS`], no NUL.
#[derive(Debug, Clone, PartialEq)]
pub struct Content(String);

impl Content {
    /// Parses the text in `field`.
    pub fn parse(field: &str, content: &str) -> Result<Content> {
        if content.trim().is_empty() {
            return Err(Error::invalid(field, "must not be empty"));
        }
        let n = content.chars().count();
        if n > MAX_CONTENT_CHARS {
            return Err(Error::invalid(
                field,
                format!("is {n} characters; at most {MAX_CONTENT_CHARS} allowed"),
            ));
        }
        if content.contains('\0') {
            return Err(Error::invalid(field, "contains a NUL character"));
        }
        Ok(Content(content.to_string()))
    }

    /// The text as given.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Content {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// Tags: trimmed, not empty, at most [`MAX_TAG_CHARS`] each and [`MAX_TAGS`] in all, each once,
/// in the order given.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tags(Vec<String>);

impl Tags {
    /// Parses the tags in `field`.
    pub fn parse(field: &str, tags: &[String]) -> Result<Tags> {
        if tags.len() > MAX_TAGS {
            return Err(Error::invalid(
                field,
                format!("{} tags given; at most {MAX_TAGS} allowed", tags.len()),
            ));
        }
        let mut out: Vec<String> = Vec::with_capacity(tags.len());
        for t in tags {
            let t = t.trim();
            if t.is_empty() {
                return Err(Error::invalid(field, "a tag must not be empty"));
            }
            if t.chars().count() > MAX_TAG_CHARS || t.contains('\0') {
                return Err(Error::invalid(
                    field,
                    format!(
                        "tag {:?} is longer than {MAX_TAG_CHARS} characters or has a NUL",
                        t.chars().take(20).collect::<String>()
                    ),
                ));
            }
            if !out.iter().any(|o| o == t) {
                out.push(t.to_string());
            }
        }
        Ok(Tags(out))
    }

    /// The tags.
    pub fn into_vec(self) -> Vec<String> {
        self.0
    }
}

impl Deref for Tags {
    type Target = [String];
    fn deref(&self) -> &[String] {
        &self.0
    }
}

/// A score between 0 and 1 (importance, confidence, trust).
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Unit(f64);

impl Unit {
    /// Parses the number in `field`.
    pub fn parse(field: &str, v: f64) -> Result<Unit> {
        if !v.is_finite() || !(0.0..=1.0).contains(&v) {
            return Err(Error::invalid(
                field,
                format!("{v} is not a number between 0 and 1"),
            ));
        }
        Ok(Unit(v))
    }

    /// An optional score.
    pub fn parse_opt(field: &str, v: Option<f64>) -> Result<Option<Unit>> {
        v.map(|v| Unit::parse(field, v)).transpose()
    }

    /// The number.
    pub fn get(self) -> f64 {
        self.0
    }
}

/// A sentiment between −1 and 1.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Sentiment(f64);

impl Sentiment {
    /// Parses a sentiment (the field `sentiment`).
    pub fn parse(v: f64) -> Result<Sentiment> {
        if v.is_finite() && (-1.0..=1.0).contains(&v) {
            Ok(Sentiment(v))
        } else {
            Err(Error::invalid(
                "sentiment",
                format!("{v} is not a number between -1 and 1"),
            ))
        }
    }

    /// The number.
    pub fn get(self) -> f64 {
        self.0
    }
}

/// Longest `source_ref`, in characters.
pub const MAX_SOURCE_REF_CHARS: usize = 1024;

/// A caller's pointer to where a memory came from (a message id, a document and chunk).
#[derive(Debug, Clone, PartialEq)]
pub struct SourceRef(String);

impl SourceRef {
    /// Parses a `source_ref`: 1 to 1,024 characters without NUL.
    pub fn parse(r: &str) -> Result<SourceRef> {
        if r.is_empty() || r.chars().count() > MAX_SOURCE_REF_CHARS || r.contains('\0') {
            return Err(Error::invalid(
                "source_ref",
                format!("must be 1 to {MAX_SOURCE_REF_CHARS} characters without NUL"),
            ));
        }
        Ok(SourceRef(r.to_string()))
    }

    /// The reference.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// How many results a call returns, or the size of a page: 1 to [`MAX_LIMIT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Limit(usize);

impl Limit {
    /// Parses an optional `limit`, `default` when absent.
    pub fn parse(limit: Option<usize>, default: usize) -> Result<Limit> {
        match limit {
            None => Ok(Limit(default)),
            Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(Limit(n)),
            Some(n) => Err(Error::invalid(
                "limit",
                format!("{n} is not between 1 and {MAX_LIMIT}"),
            )),
        }
    }

    /// The number.
    pub fn get(self) -> usize {
        self.0
    }
}

/// A short free text (a reason for a status change or a resolution): trimmed, 1 to
/// [`MAX_REASON_CHARS`] characters.
#[derive(Debug, Clone, PartialEq)]
pub struct Reason(String);

/// Longest reason, in characters.
pub const MAX_REASON_CHARS: usize = 1000;

impl Reason {
    /// Parses a `reason`.
    pub fn parse(reason: &str) -> Result<Reason> {
        let r = reason.trim();
        if r.is_empty() || r.chars().count() > MAX_REASON_CHARS {
            return Err(Error::invalid(
                "reason",
                format!("must be 1 to {MAX_REASON_CHARS} characters"),
            ));
        }
        Ok(Reason(r.to_string()))
    }

    /// The reason.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_check_and_its_message_read_the_declared_pattern() {
        assert_eq!(id_class(), "A-Za-z0-9_:.-");
        assert!(ID_PATTERN.ends_with(&format!("{{1,{MAX_ID_LEN}}}$")));
        let e = Id::parse("entity_id", "it's").unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid entity_id: contains '\\''; only A-Z a-z 0-9 _ : . - are allowed"
        );
        // Every character the class names is allowed, and no other ASCII one.
        for c in (0u8..128).map(char::from) {
            let named = c.is_ascii_alphanumeric() || "_:.-".contains(c);
            assert_eq!(Id::parse("id", &c.to_string()).is_ok(), named, "{c:?}");
        }
        assert_eq!(
            class_items("-a-c_").collect::<Vec<_>>(),
            [('-', '-'), ('a', 'c'), ('_', '_')]
        );
    }

    #[test]
    fn ids_follow_the_pattern() {
        assert!(Id::parse("id", "user-1:a.b_c").is_ok());
        assert!(Id::parse("id", "").is_err());
        assert!(Id::parse("id", "a b").is_err());
        assert!(Id::parse("id", "x'; DROP TABLE memories;--").is_err());
        assert!(Id::parse("id", &"a".repeat(257)).is_err());
        assert!(Id::parse("id", "é").is_err());
        let e = Id::owner("").unwrap_err().to_string();
        assert_eq!(e, "invalid entity_id: must not be empty");
    }

    #[test]
    fn content_limits() {
        assert!(Content::parse("content", "   ").is_err());
        assert!(Content::parse("content", &"x".repeat(MAX_CONTENT_CHARS + 1)).is_err());
        assert!(Content::parse("content", &"é".repeat(MAX_CONTENT_CHARS)).is_ok());
        assert!(Content::parse("content", "a\0b").is_err());
    }

    #[test]
    fn tags_are_cleaned_once() {
        let t = Tags::parse("tags", &[" a ".into(), "b".into(), "a".into()]).unwrap();
        assert_eq!(&*t, &["a".to_string(), "b".to_string()]);
        assert!(Tags::parse("tags", &["".into()]).is_err());
        assert!(Tags::parse("tags", &["x".repeat(65)]).is_err());
        assert!(Tags::parse("tags", &vec!["t".to_string(); 65]).is_err());
    }

    #[test]
    fn numbers_in_range() {
        assert!(Unit::parse("importance", 1.0).is_ok());
        assert!(Unit::parse("importance", 1.5).is_err());
        assert!(Unit::parse("importance", f64::NAN).is_err());
        assert!(Sentiment::parse(-1.0).is_ok());
        assert!(Sentiment::parse(1.01).is_err());
        assert_eq!(Limit::parse(None, 10).unwrap().get(), 10);
        assert!(Limit::parse(Some(0), 10).is_err());
        assert!(Limit::parse(Some(1001), 10).is_err());
        assert!(Reason::parse("  ").is_err());
        assert_eq!(Reason::parse(" ok ").unwrap().as_str(), "ok");
    }
}
