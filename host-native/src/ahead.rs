//! The model endpoints the component may call (an LLM that extracts memories, an embeddings
//! API), with their answers fetched ahead of the engine.
//!
//! A server runs every engine call on one thread, and a call that waits on an endpoint holds
//! that thread: one `remember` waiting seconds for an LLM made every other client wait as long,
//! searches included. So before a call is queued, [`Providers::prefetch`] asks the endpoints,
//! on the request's own thread, what the engine will ask them for that call, and keeps the
//! answers. When the engine asks, it takes the kept answer instead of waiting.
//!
//! Answers are kept by exactly what was asked (the instructions and text, or the text to
//! embed) and taken once. A question not asked ahead, or dropped from the bounded store, is
//! asked when the engine needs it, so a call's result never depends on what was fetched ahead.
//!
//! The built-in extractor needs no endpoint, but it too is work the engine's thread need not
//! do: [`Providers::extract_ahead`] runs it (the same code as the component's, natively) on
//! the request's thread and hands the engine a `remember` with its memories already found.

use std::num::NonZeroUsize;
use std::sync::Mutex;

use lru::LruCache;
use mnemo_core::api::RememberArgs;
use mnemo_core::embed;
use mnemo_core::extract::{self, Extractor, LlmExtractor, RuleExtractor};
use mnemo_core::field::Content;
use mnemo_core::Call;

use crate::providers::{HttpChat, HttpEmbedder};

/// LLM answers kept at most (each a few kilobytes).
const MAX_ANSWERS: usize = 1_024;
/// Vectors kept at most (a 1,536-d vector is 6 KB: 6 MB in all).
const MAX_VECTORS: usize = 1_024;

/// Where the store's vectors come from when not from the built-in embedder.
pub enum Embedding {
    /// The caller passes a vector with each call (benchmarks, tools with their own model).
    Supplied {
        /// The model's name, recorded in the store.
        model: String,
        /// The length of its vectors.
        dimension: u32,
    },
    /// An OpenAI-compatible embeddings endpoint.
    Http(HttpEmbedder),
}

/// The host's endpoints and the answers fetched ahead; shared by the engine's thread and the
/// threads that serve requests.
pub struct Providers {
    /// Where vectors come from (else the built-in embedder).
    pub embedding: Option<Embedding>,
    /// The LLM that extracts memories (else the built-in extractor).
    pub llm: Option<HttpChat>,
    /// (instructions, text) → the LLM's answer or why it failed.
    answers: Mutex<LruCache<(String, String), Result<String, String>>>,
    /// Text → its vector from the embeddings endpoint.
    vectors: Mutex<LruCache<String, Vec<f32>>>,
}

/// Locks `m`, whatever a panicking holder left: the stores hold only answers that are valid
/// on their own.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A bounded store of `n` entries.
fn store<K: std::hash::Hash + Eq, V>(n: usize) -> Mutex<LruCache<K, V>> {
    Mutex::new(LruCache::new(
        NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN),
    ))
}

impl Providers {
    /// The host's endpoints (either may be absent), nothing fetched ahead yet.
    pub fn new(embedding: Option<Embedding>, llm: Option<HttpChat>) -> Providers {
        Providers {
            embedding,
            llm,
            answers: store(MAX_ANSWERS),
            vectors: store(MAX_VECTORS),
        }
    }

    /// The embeddings endpoint, if vectors come from one.
    fn embedder(&self) -> Option<&HttpEmbedder> {
        match &self.embedding {
            Some(Embedding::Http(h)) => Some(h),
            _ => None,
        }
    }

    /// Whether any endpoint is remote (else there is nothing to fetch ahead).
    pub fn remote(&self) -> bool {
        self.llm.is_some() || self.embedder().is_some()
    }

    /// The LLM's answer to `instructions` about `content`: the one fetched ahead, else asked
    /// now. `None` when there is no LLM.
    pub fn ask(&self, instructions: &str, content: &str) -> Option<Result<String, String>> {
        let llm = self.llm.as_ref()?;
        let key = (instructions.to_string(), content.to_string());
        let kept = lock(&self.answers).pop(&key);
        Some(kept.unwrap_or_else(|| llm.ask(instructions, content)))
    }

    /// The vectors of `texts` from the embeddings endpoint: those fetched ahead, the rest
    /// asked for now (in one request).
    pub fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, String> {
        let h = match &self.embedding {
            Some(Embedding::Http(h)) => h,
            Some(Embedding::Supplied { model, .. }) => {
                return Err(format!("vectors of {model} come with each call; pass one"))
            }
            None => {
                return Err(
                    "this host has no embedding model; the built-in embedder is in use".into(),
                )
            }
        };
        let mut out: Vec<Option<Vec<f32>>> = {
            let mut kept = lock(&self.vectors);
            // Kept, not taken: a speaker's name is embedded for each of her lines.
            texts.iter().map(|t| kept.get(t).cloned()).collect()
        };
        let missing: Vec<String> = (texts.iter().zip(&out))
            .filter(|(_, v)| v.is_none())
            .map(|(t, _)| t.clone())
            .collect();
        if !missing.is_empty() {
            let mut fetched = h.embed(&missing)?.into_iter();
            for slot in out.iter_mut().filter(|v| v.is_none()) {
                *slot = fetched.next();
            }
        }
        out.into_iter()
            .map(|v| v.ok_or_else(|| format!("{} returned too few vectors", h.model())))
            .collect()
    }

    /// Asks the endpoints now what the engine will ask them for `method` with `args`, and
    /// keeps the answers for it. Arguments the engine would refuse are left to it; `now`
    /// only dates the extraction that finds which texts get embedded.
    pub fn prefetch(&self, method: &str, args: &str, now: i64) {
        if !self.remote() {
            return;
        }
        let Ok(call) = Call::from_json(method, args) else {
            return;
        };
        // What the engine embeds for the call, when it does: a memory's content as the engine
        // embeds it (a transcript line: its words and its speaker's name), a question whole.
        let memories = |contents: Vec<String>| -> Vec<String> {
            (contents.iter())
                .flat_map(|c| embed::memory_texts(c))
                .map(str::to_string)
                .collect()
        };
        let mut texts: Vec<String> = match call {
            Call::Remember(a) => memories(self.remember_texts(a, now)),
            Call::Seed(a) => memories(
                (a.items.into_iter())
                    .filter(|m| m.vector.is_none())
                    .map(|m| m.content.into_string())
                    .collect(),
            ),
            Call::Search(r) if r.vector.is_none() => vec![r.query],
            Call::Update(u) if u.patch.vector.is_none() => memories(
                (u.patch.content.into_iter())
                    .map(Content::into_string)
                    .collect(),
            ),
            _ => Vec::new(),
        };
        let Some(h) = self.embedder() else { return };
        // Each text once.
        texts.retain(|t| !t.trim().is_empty());
        let mut seen = std::collections::HashSet::new();
        texts.retain(|t| seen.insert(t.clone()));
        if texts.is_empty() {
            return;
        }
        // A failure is left for the engine's own request to meet and report.
        if let Ok(vectors) = h.embed(&texts) {
            let mut kept = lock(&self.vectors);
            for (t, v) in texts.into_iter().zip(vectors) {
                kept.put(t, v);
            }
        }
    }

    /// The arguments of a `remember` for the built-in extractor (no LLM here, none given in
    /// the call), with the memories it finds in the content (or the messages' transcript) at
    /// `now` given as `extracted`:
    /// what the engine would have found, so it stores the same. `None` for any other call,
    /// and for arguments the engine would refuse (it says why itself).
    pub fn extract_ahead(&self, method: &str, args: &str, now: i64) -> Option<String> {
        if method != "remember" || self.llm.is_some() {
            return None;
        }
        let Ok(Call::Remember(mut a)) = Call::from_json(method, args) else {
            return None;
        };
        if a.extracted.is_some() || a.llm_output.is_some() {
            return None;
        }
        // The text the engine would extract from: the content, or the messages' transcript.
        let text = match (&a.messages, &a.content) {
            (Some(messages), None) => extract::transcript(messages).ok()?,
            (None, Some(content)) => content.as_str().to_string(),
            _ => return None,
        };
        Content::parse("messages", &text).ok()?;
        a.extracted = Some(RuleExtractor.extract(&text, now).ok()?);
        serde_json::to_string::<RememberArgs>(&a).ok()
    }

    /// For a `remember`: the LLM's answer about its text (kept), and the memories' texts that
    /// will be embedded, found as the engine finds them.
    fn remember_texts(&self, a: RememberArgs, now: i64) -> Vec<String> {
        if let Some(extracted) = a.extracted {
            return (extracted.into_iter())
                .filter(|x| x.vector.is_none())
                .map(|x| x.content)
                .collect();
        }
        let text = match (&a.messages, a.content) {
            (Some(messages), _) => match extract::transcript(messages) {
                Ok(t) => t,
                Err(_) => return Vec::new(),
            },
            (None, Some(content)) => content.into_string(),
            (None, None) => return Vec::new(),
        };
        if text.trim().is_empty() {
            return Vec::new();
        }
        let found = match (&a.llm_output, &self.llm) {
            (Some(answer), _) => extract::from_answer(answer, &text, now).map(|x| x.memories),
            (None, Some(llm)) => LlmExtractor(|instructions: &str, text: &str, _| {
                let answer = llm.ask(instructions, text);
                let key = (instructions.to_string(), text.to_string());
                lock(&self.answers).put(key, answer.clone());
                Some(answer)
            })
            .extract(&text, now),
            (None, None) => RuleExtractor.extract(&text, now),
        };
        found.map_or_else(
            |_| Vec::new(),
            |memories| memories.into_iter().map(|m| m.content).collect(),
        )
    }
}
