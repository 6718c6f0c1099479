//! Extraction: turning raw conversation text into structured memories. The rule-based
//! extractor comes with its own issue; until then `PassThrough` stores the text as one memory.

use serde::{Deserialize, Serialize};

use crate::clock::Millis;
use crate::error::Result;
use crate::model::{Kind, MemoryType};

/// One memory an extractor found in a text. From a host extractor only `content` is required;
/// the rest defaults to a CONTEXT fact of importance 0.5, full confidence, neutral sentiment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Extracted {
    pub content: String,
    #[serde(rename = "type")]
    pub memory_type: MemoryType,
    pub kind: Kind,
    pub importance: f64,
    pub confidence: f64,
    pub sentiment: f64,
    pub tags: Vec<String>,
    pub expires_at: Option<Millis>,
    /// The content's vector, when the host embeds what an extractor found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
            sentiment: 0.0,
            tags: Vec::new(),
            expires_at: None,
            vector: None,
        }
    }
}

/// Turns a piece of conversation into memories. An empty result means "nothing significant".
pub trait Extractor {
    /// Memories found in `text`, said at `now`.
    fn extract(&self, text: &str, now: Millis) -> Result<Vec<Extracted>>;
}

/// Stores the whole text as one CONTEXT narrative of middling importance.
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
