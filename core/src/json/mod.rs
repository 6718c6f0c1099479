//! JSON text to typed values, with a bad value named by its path (`args.items[0].importance`)
//! in the engine's own error. Calls, imports and the faces' option objects all parse through
//! here, so every target reports the same bad argument with the same words.

mod path;
mod value;

use serde::de::{Deserialize, DeserializeOwned};
use serde_json::Value;

use crate::error::{Error, Result};

/// Parses `T` from JSON text, naming a bad value by its path below `field`
/// (`args.items[0].importance`), or by its path alone when `field` is empty (`memory.pinned`;
/// `record` when the value as a whole is wrong). Faces use it for their own option objects
/// too, and imports for each line.
pub fn from_text<T: DeserializeOwned>(field: &str, text: &str) -> Result<T> {
    from_value(field, &parse_named(field, text)?)
}

/// [`parse`], a syntax error named by its path below `field`. Apart from [`from_text`] so
/// that one copy serves every type it reads (a closure in a generic function is copied for
/// each type).
fn parse_named(field: &str, text: &str) -> Result<Value> {
    parse(text).map_err(|e| {
        let path = path::path_at(text, path::offset(text, e.line(), e.column()));
        let reason = e.to_string();
        // A host's string holding half of a UTF-16 pair (JavaScript and Python strings can)
        // is written as a lone `\ud800`-style escape, which serde_json names by the escape.
        let reason = if reason.contains("hex escape") && has_surrogate_escape(text) {
            LONE_SURROGATE.to_string()
        } else {
            plain_reason(&reason)
        };
        Error::invalid(named(field, &path), reason)
    })
}

/// What a text with a lone surrogate is told.
const LONE_SURROGATE: &str =
    "is not Unicode text: it holds half of a UTF-16 surrogate pair (\\ud800 to \\udfff) alone";

/// Whether JSON `text` escapes a UTF-16 surrogate (`\ud800` to `\udfff`, either case).
fn has_surrogate_escape(text: &str) -> bool {
    text.as_bytes().windows(4).any(|w| {
        w[0] == b'\\'
            && w[1] == b'u'
            && w[2].eq_ignore_ascii_case(&b'd')
            && matches!(w[3].to_ascii_lowercase(), b'8'..=b'9' | b'a'..=b'f')
    })
}

/// JSON text as a value, as serde_json reads it except that an object naming a key twice is
/// an error (`duplicate field `x``) rather than the last one silently winning.
pub fn parse(text: &str) -> serde_json::Result<Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value::Strict(value) = value::Strict::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// [`from_text`] of a JSON value.
pub fn from_value<T: DeserializeOwned>(field: &str, value: &Value) -> Result<T> {
    T::deserialize(value::Reader(value)).map_err(|e| unread(field, e))
}

/// A value that did not read, as the engine's error (one copy for every type).
#[inline(never)]
fn unread(field: &str, e: value::Error) -> Error {
    Error::invalid(named(field, &e.path()), e.reason())
}

/// A bad value's name: its `path` below `field` (`args.items[0]`), `field` when the value
/// as a whole is wrong, `record` when neither is given.
fn named(field: &str, path: &str) -> String {
    match (path, field) {
        ("", "") => "record".to_string(),
        ("", field) => field.to_string(),
        (path, "") => path.to_string(),
        (path, field) if path.starts_with('[') => format!("{field}{path}"),
        (path, field) => format!("{field}.{path}"),
    }
}

/// A deserialiser's message without what depends on how the arguments were written down (the
/// path already names the field): serde_json's " at line L column C", a JS "Error: " prefix.
/// Every face then reports the same bad argument with the same words.
fn plain_reason(reason: &str) -> String {
    let reason = reason.strip_prefix("Error: ").unwrap_or(reason);
    let positioned = reason.rfind(" at line ").filter(|&i| {
        let tail: Vec<&str> = reason[i + " at line ".len()..].split(' ').collect();
        matches!(tail.as_slice(), [l, "column", c] if l.parse::<u64>().is_ok() && c.parse::<u64>().is_ok())
    });
    positioned.map_or(reason, |i| &reason[..i]).to_string()
}
