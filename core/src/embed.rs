//! Embeddings: the `Embedder` trait, the built-in deterministic hashing embedder, and the
//! vector arithmetic every target shares (one code path, so results match bit for bit).

use rust_stemmers::{Algorithm, Stemmer};

use crate::error::{Error, Result};
use crate::text;

/// Turns text into a vector. Hosts may plug their own (a JS function, an HTTP endpoint).
pub trait Embedder {
    /// Model id recorded in the store; a store refuses a different one.
    fn model_id(&self) -> &str;
    /// Length of every vector this embedder produces.
    fn dimension(&self) -> usize;
    /// The embedding of `text`.
    fn embed(&self, text: &str) -> Result<Vec<f32>>;
}

/// Dimension of the built-in embedder.
pub const HASH_DIM: usize = 384;
/// Model id of the built-in embedder (bump the version when its features change).
pub const HASH_MODEL: &str = "mnemo-hash-v1";

/// Weights of the built-in embedder's feature families.
const W_STEM: f32 = 1.0;
const W_STOPWORD: f32 = 0.15;
const W_BIGRAM: f32 = 0.5;
const W_TRIGRAM: f32 = 0.2;

/// Built-in embedder: signed feature hashing of stemmed words, word bigrams and character
/// trigrams, L2-normalised. Pure Rust, no model, identical bits on every target.
pub struct HashEmbedder {
    stemmer: Stemmer,
    dim: usize,
}

impl Default for HashEmbedder {
    fn default() -> Self {
        HashEmbedder {
            stemmer: Stemmer::create(Algorithm::English),
            dim: HASH_DIM,
        }
    }
}

/// Common English function words, down-weighted by the built-in embedder.
const STOPWORDS: &[&str] = &[
    "a", "about", "all", "am", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by",
    "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "him",
    "his", "how", "i", "if", "im", "in", "into", "is", "it", "its", "just", "me", "my", "of", "on",
    "or", "our", "she", "so", "that", "the", "their", "them", "then", "there", "they", "this",
    "to", "too", "us", "was", "we", "were", "what", "when", "where", "which", "who", "why", "will",
    "with", "would", "you", "your", "yours",
];

/// Whether `w` (lower-case) is a common function word.
pub fn is_stopword(w: &str) -> bool {
    STOPWORDS.binary_search(&w).is_ok()
}

/// 64-bit FNV-1a.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl HashEmbedder {
    fn add(&self, v: &mut [f32], family: &[u8], feature: &[u8], weight: f32) {
        let h = fnv1a(&[family, feature]);
        let i = (h % self.dim as u64) as usize;
        v[i] += if h >> 63 == 0 { weight } else { -weight };
    }
}

impl Embedder for HashEmbedder {
    fn model_id(&self) -> &str {
        HASH_MODEL
    }
    fn dimension(&self) -> usize {
        self.dim
    }
    fn embed(&self, input: &str) -> Result<Vec<f32>> {
        let mut v = vec![0f32; self.dim];
        let words = text::words(input);
        let mut prev: Option<String> = None;
        for w in &words {
            if is_stopword(w) {
                self.add(&mut v, b"w", w.as_bytes(), W_STOPWORD);
                continue;
            }
            let stem = self.stemmer.stem(w).into_owned();
            self.add(&mut v, b"s", stem.as_bytes(), W_STEM);
            if let Some(p) = &prev {
                self.add(&mut v, b"b", format!("{p} {stem}").as_bytes(), W_BIGRAM);
            }
            let padded: Vec<char> = format!("<{w}>").chars().collect();
            for tri in padded.windows(3) {
                let t: String = tri.iter().collect();
                self.add(&mut v, b"c", t.as_bytes(), W_TRIGRAM);
            }
            prev = Some(stem);
        }
        normalise(&mut v);
        Ok(v)
    }
}

/// An embedder for stores whose vectors always come from the caller (e.g. a model the host
/// runs): it records the model and dimension, and refuses to embed text itself.
pub struct SuppliedVectors {
    model: String,
    dim: usize,
}

impl SuppliedVectors {
    /// Vectors of `dim` dimensions made by `model`.
    pub fn new(model: impl Into<String>, dim: usize) -> Self {
        SuppliedVectors {
            model: model.into(),
            dim,
        }
    }
}

impl Embedder for SuppliedVectors {
    fn model_id(&self) -> &str {
        &self.model
    }
    fn dimension(&self) -> usize {
        self.dim
    }
    fn embed(&self, _text: &str) -> Result<Vec<f32>> {
        Err(Error::Embedder(format!(
            "this engine has no embedder for {}; pass a vector with the call",
            self.model
        )))
    }
}

/// The vector for `content`: the caller's (checked and normalised), or `embedder`'s.
pub fn vector_for(
    embedder: &dyn Embedder,
    content: &str,
    supplied: Option<&[f32]>,
) -> Result<Vec<f32>> {
    let (model, dim) = (embedder.model_id(), embedder.dimension());
    match supplied {
        Some(v) => {
            check_vector(v, dim, model)?;
            let mut v = v.to_vec();
            normalise(&mut v);
            Ok(v)
        }
        None => {
            let v = embedder.embed(content)?;
            check_vector(&v, dim, model)
                .map_err(|e| Error::Embedder(format!("embedder returned a bad vector: {e}")))?;
            Ok(v)
        }
    }
}

/// Checks a caller-supplied vector: right dimension, every element finite.
pub fn check_vector(v: &[f32], dim: usize, model: &str) -> Result<()> {
    if v.len() != dim {
        return Err(Error::DimensionMismatch {
            expected: dim,
            got: v.len(),
            model: model.to_string(),
        });
    }
    if let Some((index, &value)) = v.iter().enumerate().find(|(_, x)| !x.is_finite()) {
        return Err(Error::NonFiniteVector { index, value });
    }
    Ok(())
}

/// Scales `v` to unit length (a zero vector stays zero).
pub fn normalise(v: &mut [f32]) {
    let n = dot(v, v).sqrt();
    if n > 0.0 && n.is_finite() {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

/// Number of independent accumulators in [`dot`]: lets the compiler vectorise the loop while
/// keeping one fixed order of additions on every target.
const LANES: usize = 16;

/// Dot product with a fixed summation order (identical on every target).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; LANES];
    let (ac, bc) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = ac
        .remainder()
        .iter()
        .zip(bc.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ac.zip(bc) {
        for l in 0..LANES {
            acc[l] += x[l] * y[l];
        }
    }
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for l in 0..width {
            acc[l] += acc[l + width];
        }
    }
    acc[0] + tail
}

/// Vector bytes as stored: little-endian f32.
pub fn to_blob(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Inverse of [`to_blob`]; `None` when the length is not a multiple of 4.
pub fn from_blob(b: &[u8]) -> Option<Vec<f32>> {
    if !b.len().is_multiple_of(4) {
        return None;
    }
    Some(
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_are_sorted_for_binary_search() {
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn hash_embedder_is_normalised_and_deterministic() {
        let e = HashEmbedder::default();
        let a = e.embed("I moved to Lisbon in March").unwrap();
        assert_eq!(a.len(), HASH_DIM);
        assert!((dot(&a, &a) - 1.0).abs() < 1e-5);
        assert_eq!(a, e.embed("I moved to Lisbon in March").unwrap());
        // Morphological variants and shared words land close; unrelated text does not.
        let b = e.embed("moving to lisbon").unwrap();
        let c = e.embed("my favourite colour is green").unwrap();
        assert!(dot(&a, &b) > 0.4, "{}", dot(&a, &b));
        assert!(dot(&a, &c) < 0.2, "{}", dot(&a, &c));
        assert!(e.embed("!!!").unwrap().iter().all(|x| *x == 0.0));
    }

    #[test]
    fn dot_matches_naive_sum_closely() {
        let a: Vec<f32> = (0..383).map(|i| (i as f32 * 0.37).sin()).collect();
        let b: Vec<f32> = (0..383).map(|i| (i as f32 * 0.11).cos()).collect();
        let naive: f64 = a.iter().zip(&b).map(|(x, y)| *x as f64 * *y as f64).sum();
        assert!((dot(&a, &b) as f64 - naive).abs() < 1e-3);
    }

    #[test]
    fn vector_checks() {
        assert!(matches!(
            check_vector(&[0.0; 3], 4, "m"),
            Err(Error::DimensionMismatch {
                expected: 4,
                got: 3,
                ..
            })
        ));
        assert!(matches!(
            check_vector(&[0.0, f32::NAN], 2, "m"),
            Err(Error::NonFiniteVector { index: 1, .. })
        ));
        assert!(matches!(
            check_vector(&[f32::INFINITY, 0.0], 2, "m"),
            Err(Error::NonFiniteVector { index: 0, .. })
        ));
        assert!(check_vector(&[0.5, 0.5], 2, "m").is_ok());
        assert_eq!(from_blob(&to_blob(&[1.5, -2.0])).unwrap(), vec![1.5, -2.0]);
        assert!(from_blob(&[1, 2, 3]).is_none());
    }

    #[test]
    fn supplied_vectors_refuse_text() {
        let e = SuppliedVectors::new("all-MiniLM-L6-v2", 384);
        assert!(matches!(e.embed("x"), Err(Error::Embedder(_))));
    }
}
