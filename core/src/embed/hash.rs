//! `mnemo-hash-v1`: signed feature hashing of stemmed words, word bigrams and character
//! trigrams. No model, so it matches words rather than meaning; stores made with it keep it.

use rust_stemmers::{Algorithm, Stemmer};

use super::{normalise, Embedder};
use crate::error::Result;
use crate::lexicon::is_stopword;
use crate::text;

/// Dimension of the hashing embedder.
pub const HASH_DIM: usize = 384;
/// Model id of the hashing embedder (bump the version when its features change).
pub const HASH_MODEL: &str = "mnemo-hash-v1";

/// Weights of its feature families.
const W_STEM: f32 = 1.0;
const W_STOPWORD: f32 = 0.15;
const W_BIGRAM: f32 = 0.5;
const W_TRIGRAM: f32 = 0.2;

/// The hashing embedder: signed feature hashing of stemmed words, word bigrams and character
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

#[cfg(test)]
mod tests {
    use super::super::dot;
    use super::*;

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
}
