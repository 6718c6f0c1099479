//! Checked values. A call's arguments are parsed into these types once, as the call's JSON is
//! read: each type deserialises only from a value that passes its check (the path of the value
//! names the field in the error), and its JSON Schema states that check, so the schema faces
//! show is the engine's rule. The code behind takes them and checks nothing again. Rust callers
//! build them with `parse`, whose error names the field and says what is expected.

use std::borrow::Cow;
use std::ops::Deref;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::error::{Error, Result};

/// Reads a checked type's raw value (a string, a number, a list of strings) and checks it
/// inside the deserialiser's own visit of the value, so a refusal is placed right after that
/// value and its path names it (`args.items[0].importance`), as a wrong type would be.
trait Raw: Sized {
    fn read<'de, D: Deserializer<'de>, T>(
        d: D,
        check: fn(Self) -> CheckResult<T>,
    ) -> std::result::Result<T, D::Error>;
}

/// A check's verdict: the checked value, or why the raw one is refused.
type CheckResult<T> = std::result::Result<T, String>;

/// The visitor of one raw type, with the check to run on what it reads.
struct Check<T, R>(fn(R) -> CheckResult<T>);

impl<'de, T> Visitor<'de> for Check<T, String> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<T, E> {
        (self.0)(v.to_string()).map_err(E::custom)
    }
    fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<T, E> {
        (self.0)(v).map_err(E::custom)
    }
}

impl<'de, T> Visitor<'de> for Check<T, f64> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("f64")
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<T, E> {
        (self.0)(v).map_err(E::custom)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<T, E> {
        (self.0)(v as f64).map_err(E::custom)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<T, E> {
        (self.0)(v as f64).map_err(E::custom)
    }
}

impl<'de, T> Visitor<'de> for Check<T, usize> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("usize")
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<T, E> {
        let n =
            usize::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))?;
        (self.0)(n).map_err(E::custom)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<T, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
        }
    }
}

impl<'de, T> Visitor<'de> for Check<T, Vec<String>> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a sequence")
    }
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<T, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<String>()? {
            items.push(item);
        }
        (self.0)(items).map_err(de::Error::custom)
    }
}

impl Raw for String {
    fn read<'de, D: Deserializer<'de>, T>(
        d: D,
        check: fn(Self) -> CheckResult<T>,
    ) -> std::result::Result<T, D::Error> {
        d.deserialize_string(Check(check))
    }
}

impl Raw for f64 {
    fn read<'de, D: Deserializer<'de>, T>(
        d: D,
        check: fn(Self) -> CheckResult<T>,
    ) -> std::result::Result<T, D::Error> {
        d.deserialize_f64(Check(check))
    }
}

impl Raw for usize {
    fn read<'de, D: Deserializer<'de>, T>(
        d: D,
        check: fn(Self) -> CheckResult<T>,
    ) -> std::result::Result<T, D::Error> {
        d.deserialize_u64(Check(check))
    }
}

impl Raw for Vec<String> {
    fn read<'de, D: Deserializer<'de>, T>(
        d: D,
        check: fn(Self) -> CheckResult<T>,
    ) -> std::result::Result<T, D::Error> {
        d.deserialize_seq(Check(check))
    }
}

/// Makes a checked type read as its raw value through `$check` (the reason it refuses one
/// becomes the parse error at the value's path), write as its raw value, and show `$schema`.
macro_rules! checked {
    ($ty:ident($raw:ty), $check:path, $schema:expr) => {
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
                <$raw as Raw>::read(d, $check)
            }
        }

        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                self.0.serialize(s)
            }
        }

        impl JsonSchema for $ty {
            fn inline_schema() -> bool {
                true
            }
            fn schema_name() -> Cow<'static, str> {
                stringify!($ty).into()
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                $schema
            }
        }
    };
}

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

/// Why `id` does not match [`ID_PATTERN`], if it does not.
fn check_id(id: &str) -> CheckResult<()> {
    if id.is_empty() {
        return Err("must not be empty".into());
    }
    if id.len() > MAX_ID_LEN {
        return Err(format!(
            "is {} bytes; at most {MAX_ID_LEN} allowed",
            id.len()
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
        return Err(format!(
            "contains {c:?}; only {} are allowed",
            items.join(" ")
        ));
    }
    Ok(())
}

/// An id: of an owner, a memory, a session, an agent, a team, a conflict, an act.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Id(String);

impl Id {
    /// Parses the id in `field`.
    pub fn parse(field: &str, id: &str) -> Result<Id> {
        check_id(id).map_err(|reason| Error::invalid(field, reason))?;
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

    fn check(id: String) -> CheckResult<Id> {
        check_id(&id).map(|()| Id(id))
    }
}

checked!(
    Id(String),
    Id::check,
    json_schema!({"type": "string", "pattern": ID_PATTERN})
);

impl Deref for Id {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Id {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Id {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::str::FromStr for Id {
    type Err = Error;
    /// Parses an id, named `id` in the error.
    fn from_str(id: &str) -> Result<Id> {
        Id::parse("id", id)
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
        Content::check(content.to_string()).map_err(|reason| Error::invalid(field, reason))
    }

    /// The text as given.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The text, owned.
    pub fn into_string(self) -> String {
        self.0
    }

    fn check(content: String) -> CheckResult<Content> {
        if content.trim().is_empty() {
            return Err("must not be empty".into());
        }
        let n = content.chars().count();
        if n > MAX_CONTENT_CHARS {
            return Err(format!(
                "is {n} characters; at most {MAX_CONTENT_CHARS} allowed"
            ));
        }
        if content.contains('\0') {
            return Err("contains a NUL character".into());
        }
        Ok(Content(content))
    }
}

checked!(
    Content(String),
    Content::check,
    json_schema!({"type": "string", "minLength": 1, "maxLength": MAX_CONTENT_CHARS})
);

impl Deref for Content {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// Longest document accepted by `ingest`, in characters (10 million: about 10 MB of text).
pub const MAX_DOCUMENT_CHARS: usize = 10_000_000;
/// Longest document title, file name or media type, in characters.
pub const MAX_LABEL_CHARS: usize = 512;

/// A document's text: not blank, at most [`MAX_DOCUMENT_CHARS`], no NUL.
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentText(String);

impl DocumentText {
    /// Parses the text in `field`.
    pub fn parse(field: &str, text: &str) -> Result<DocumentText> {
        DocumentText::check(text.to_string()).map_err(|reason| Error::invalid(field, reason))
    }

    fn check(text: String) -> CheckResult<DocumentText> {
        if text.trim().is_empty() {
            return Err("must not be empty".into());
        }
        // Counting stops at the limit: a huge text is refused without walking all of it.
        if text.len() > MAX_DOCUMENT_CHARS && text.chars().nth(MAX_DOCUMENT_CHARS).is_some() {
            return Err(format!(
                "is longer than {MAX_DOCUMENT_CHARS} characters; split it into several documents"
            ));
        }
        if text.contains('\0') {
            return Err("contains a NUL character (is it a binary file?)".into());
        }
        Ok(DocumentText(text))
    }
}

checked!(
    DocumentText(String),
    DocumentText::check,
    json_schema!({"type": "string", "minLength": 1, "maxLength": MAX_DOCUMENT_CHARS})
);

impl Deref for DocumentText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

/// A short label (a title, a file name, a media type): trimmed, not empty, at most
/// [`MAX_LABEL_CHARS`], on one line.
#[derive(Debug, Clone, PartialEq)]
pub struct Label(String);

impl Label {
    /// Parses the label in `field`.
    pub fn parse(field: &str, label: &str) -> Result<Label> {
        Label::check(label.to_string()).map_err(|reason| Error::invalid(field, reason))
    }

    fn check(label: String) -> CheckResult<Label> {
        let t = label.trim();
        if t.is_empty() {
            return Err("must not be empty".into());
        }
        if t.chars().count() > MAX_LABEL_CHARS {
            return Err(format!("is longer than {MAX_LABEL_CHARS} characters"));
        }
        if t.chars().any(char::is_control) {
            return Err("must be one line without control characters".into());
        }
        Ok(Label(t.to_string()))
    }
}

checked!(
    Label(String),
    Label::check,
    json_schema!({"type": "string", "minLength": 1, "maxLength": MAX_LABEL_CHARS})
);

impl Deref for Label {
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
        Tags::check(tags.to_vec()).map_err(|reason| Error::invalid(field, reason))
    }

    /// The tags.
    pub fn into_vec(self) -> Vec<String> {
        self.0
    }

    fn check(tags: Vec<String>) -> CheckResult<Tags> {
        if tags.len() > MAX_TAGS {
            return Err(format!(
                "{} tags given; at most {MAX_TAGS} allowed",
                tags.len()
            ));
        }
        let mut out: Vec<String> = Vec::with_capacity(tags.len());
        for t in &tags {
            let t = t.trim();
            if t.is_empty() {
                return Err("a tag must not be empty".into());
            }
            if t.chars().count() > MAX_TAG_CHARS || t.contains('\0') {
                return Err(format!(
                    "tag {:?} is longer than {MAX_TAG_CHARS} characters or has a NUL",
                    t.chars().take(20).collect::<String>()
                ));
            }
            if !out.iter().any(|o| o == t) {
                out.push(t.to_string());
            }
        }
        Ok(Tags(out))
    }
}

checked!(
    Tags(Vec<String>),
    Tags::check,
    json_schema!({
        "type": "array",
        "maxItems": MAX_TAGS,
        "items": {"type": "string", "minLength": 1, "maxLength": MAX_TAG_CHARS}
    })
);

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
        Unit::check(v).map_err(|reason| Error::invalid(field, reason))
    }

    /// An optional score.
    pub fn parse_opt(field: &str, v: Option<f64>) -> Result<Option<Unit>> {
        v.map(|v| Unit::parse(field, v)).transpose()
    }

    /// The number.
    pub fn get(self) -> f64 {
        self.0
    }

    fn check(v: f64) -> CheckResult<Unit> {
        if !v.is_finite() || !(0.0..=1.0).contains(&v) {
            return Err(format!("{v} is not a number between 0 and 1"));
        }
        Ok(Unit(v))
    }
}

checked!(
    Unit(f64),
    Unit::check,
    json_schema!({"type": "number", "minimum": 0, "maximum": 1})
);

/// A sentiment between −1 and 1.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub struct Sentiment(f64);

impl Sentiment {
    /// Parses a sentiment (the field `sentiment`).
    pub fn parse(v: f64) -> Result<Sentiment> {
        Sentiment::check(v).map_err(|reason| Error::invalid("sentiment", reason))
    }

    /// The number.
    pub fn get(self) -> f64 {
        self.0
    }

    fn check(v: f64) -> CheckResult<Sentiment> {
        if v.is_finite() && (-1.0..=1.0).contains(&v) {
            Ok(Sentiment(v))
        } else {
            Err(format!("{v} is not a number between -1 and 1"))
        }
    }
}

checked!(
    Sentiment(f64),
    Sentiment::check,
    json_schema!({"type": "number", "minimum": -1, "maximum": 1})
);

/// Longest `source_ref`, in characters.
pub const MAX_SOURCE_REF_CHARS: usize = 1024;

/// A caller's pointer to where a memory came from (a message id, a document and chunk).
#[derive(Debug, Clone, PartialEq)]
pub struct SourceRef(String);

impl SourceRef {
    /// Parses a `source_ref`: 1 to 1,024 characters without NUL.
    pub fn parse(r: &str) -> Result<SourceRef> {
        SourceRef::check(r.to_string()).map_err(|reason| Error::invalid("source_ref", reason))
    }

    /// The reference.
    pub fn into_string(self) -> String {
        self.0
    }

    /// The reference as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn check(r: String) -> CheckResult<SourceRef> {
        if r.is_empty() || r.chars().count() > MAX_SOURCE_REF_CHARS || r.contains('\0') {
            return Err(format!(
                "must be 1 to {MAX_SOURCE_REF_CHARS} characters without NUL"
            ));
        }
        Ok(SourceRef(r))
    }
}

checked!(
    SourceRef(String),
    SourceRef::check,
    json_schema!({"type": "string", "minLength": 1, "maxLength": MAX_SOURCE_REF_CHARS})
);

/// How many results a call returns, or the size of a page: 1 to [`MAX_LIMIT`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Limit(usize);

impl Limit {
    /// Parses an optional `limit`, `default` when absent.
    pub fn parse(limit: Option<usize>, default: usize) -> Result<Limit> {
        match limit {
            None => Ok(Limit(default)),
            Some(n) => Limit::check(n).map_err(|reason| Error::invalid("limit", reason)),
        }
    }

    /// A limit of `n`, named `limit` in the error.
    pub fn new(n: usize) -> Result<Limit> {
        Limit::check(n).map_err(|reason| Error::invalid("limit", reason))
    }

    /// A limit the engine itself sets (a named default, within bounds).
    pub(crate) const fn fixed(n: usize) -> Limit {
        Limit(n)
    }

    /// The number given, or `default` when none was.
    pub fn or(limit: Option<Limit>, default: usize) -> usize {
        limit.map_or(default, Limit::get)
    }

    /// The number.
    pub fn get(self) -> usize {
        self.0
    }

    fn check(n: usize) -> CheckResult<Limit> {
        if (1..=MAX_LIMIT).contains(&n) {
            Ok(Limit(n))
        } else {
            Err(format!("{n} is not between 1 and {MAX_LIMIT}"))
        }
    }
}

checked!(
    Limit(usize),
    Limit::check,
    json_schema!({"type": "integer", "format": "uint", "minimum": 1, "maximum": MAX_LIMIT})
);

/// A short free text (a reason for a status change or a resolution): trimmed, 1 to
/// [`MAX_REASON_CHARS`] characters.
#[derive(Debug, Clone, PartialEq)]
pub struct Reason(String);

/// Longest reason, in characters.
pub const MAX_REASON_CHARS: usize = 1000;

impl Reason {
    /// Parses a `reason`.
    pub fn parse(reason: &str) -> Result<Reason> {
        Reason::check(reason.to_string()).map_err(|r| Error::invalid("reason", r))
    }

    /// The reason.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    fn check(reason: String) -> CheckResult<Reason> {
        let r = reason.trim();
        if r.is_empty() || r.chars().count() > MAX_REASON_CHARS {
            return Err(format!("must be 1 to {MAX_REASON_CHARS} characters"));
        }
        Ok(Reason(r.to_string()))
    }
}

checked!(
    Reason(String),
    Reason::check,
    json_schema!({"type": "string", "minLength": 1, "maxLength": MAX_REASON_CHARS})
);

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

    /// Arguments made of checked fields, as a call's are.
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        entity_id: Id,
        tags: Option<Tags>,
        importance: Option<Unit>,
        limit: Option<Limit>,
        items: Option<Vec<Args>>,
    }

    #[test]
    fn a_refused_value_is_named_by_its_path_wherever_it_stands() {
        let err = |json: &str| {
            crate::json::from_text::<Args>("args", json)
                .unwrap_err()
                .to_string()
        };
        // Last in its object or not, after spaces or a newline, nested in a list.
        for (json, field) in [
            (
                r#"{"entity_id": "a", "importance": 1.5}"#,
                "args.importance",
            ),
            (
                r#"{"importance": 1.5 , "entity_id": "a"}"#,
                "args.importance",
            ),
            (
                "{\"entity_id\": \"a\",\n \"importance\":\n 2\n}",
                "args.importance",
            ),
            (r#"{"entity_id": "", "limit": 5}"#, "args.entity_id"),
            (r#"{"limit": 5, "entity_id": "it's"}"#, "args.entity_id"),
            (r#"{"entity_id": "a", "limit": 0}"#, "args.limit"),
            (r#"{"entity_id": "a", "limit": -1}"#, "args.limit"),
            (r#"{"entity_id": "a", "tags": ["x", " "]}"#, "args.tags"),
            (r#"{"tags": ["x", " "], "entity_id": "a"}"#, "args.tags"),
            (r#"{"tags": ["x", 5], "entity_id": "a"}"#, "args.tags[1]"),
            (
                r#"{"entity_id": "a", "items": [{"entity_id": "b"}, {"entity_id": "c", "importance": 7}]}"#,
                "args.items[1].importance",
            ),
            (
                r#"{"entity_id": "a", "items": [{"entity_id": ""}]}"#,
                "args.items[0].entity_id",
            ),
        ] {
            let e = err(json);
            assert!(e.starts_with(&format!("invalid {field}: ")), "{json}: {e}");
        }
        assert_eq!(
            err(r#"{"entity_id": "a", "importance": 1.5}"#),
            "invalid args.importance: 1.5 is not a number between 0 and 1"
        );
        assert_eq!(
            err(r#"{"entity_id": 5}"#),
            "invalid args.entity_id: invalid type: integer `5`, expected a string"
        );
        // What the check refuses, the schema states.
        let schema = serde_json::to_value(schemars::schema_for!(Args)).unwrap();
        assert_eq!(schema["properties"]["entity_id"]["pattern"], ID_PATTERN);
        assert_eq!(schema["properties"]["limit"]["maximum"], MAX_LIMIT);
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
