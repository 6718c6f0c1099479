//! Embeddings: the `Embedder` trait, the built-in embedders (`mnemo-static-v1`, distilled
//! from MiniLM, the default; `mnemo-hash-v1`, feature hashing), and the vector arithmetic
//! every target shares (one code path, so results match bit for bit).

mod distilled;
mod hash;
pub mod quantise;
mod unicode;
mod wordpiece;

use std::sync::Arc;

pub use distilled::{StaticEmbedder, StaticModel, STATIC_MODEL};
pub use hash::{HashEmbedder, HASH_DIM, HASH_MODEL};
pub use quantise::Precision;

use crate::error::{Error, Result};

/// The embedder of new stores when the host brings none.
pub const DEFAULT_MODEL: &str = STATIC_MODEL;
/// The built-in embedders, by model id.
pub const BUILTIN_MODELS: [&str; 2] = [STATIC_MODEL, HASH_MODEL];

/// The built-in embedder `model`; `weights` are the distilled embedder's (when this build
/// links none, the host must hand them over).
pub fn builtin(model: &str, weights: Option<&Arc<StaticModel>>) -> Result<Box<dyn Embedder>> {
    match model {
        HASH_MODEL => Ok(Box::new(HashEmbedder::default())),
        STATIC_MODEL => {
            let model = match weights {
                Some(w) => w.clone(),
                None => bundled().ok_or_else(|| {
                    Error::Embedder(format!(
                        "the {STATIC_MODEL} weights are not loaded: pass the weights file \
                         (mnemo-static-v1.bin) to the engine before opening a store"
                    ))
                })?,
            };
            Ok(Box::new(StaticEmbedder::new(model)))
        }
        other => Err(Error::Embedder(format!(
            "{other:?} is not a built-in embedder (they are {}); a store of another model's \
             vectors opens with that model's embedder",
            BUILTIN_MODELS.join(", ")
        ))),
    }
}

#[cfg(feature = "bundled-model")]
fn bundled() -> Option<Arc<StaticModel>> {
    Some(StaticModel::bundled())
}

#[cfg(not(feature = "bundled-model"))]
fn bundled() -> Option<Arc<StaticModel>> {
    None
}

/// Turns text into a vector. Hosts may plug their own (a JS function, an HTTP endpoint).
pub trait Embedder {
    /// Model id recorded in the store; a store refuses a different one.
    fn model_id(&self) -> &str;
    /// Length of every vector this embedder produces.
    fn dimension(&self) -> usize;
    /// The embedding of `text`.
    fn embed(&self, text: &str) -> Result<Vec<f32>>;
    /// Whether this embedder embeds any text it is given (false: it only has vectors the host
    /// made of whole contents, [`SuppliedVectors`]).
    fn embeds_text(&self) -> bool {
        true
    }
}

/// An embedder for stores whose vectors always come from the caller (e.g. a model the host
/// runs): it records the model and dimension, and embeds no text itself. It takes a text's
/// vector from those the host handed over ahead of a call ([`OnHand`]), else refuses it.
pub struct SuppliedVectors {
    on_hand: OnHand,
}

impl SuppliedVectors {
    /// Vectors of `dim` dimensions made by `model`.
    pub fn new(model: impl Into<String>, dim: usize) -> Self {
        SuppliedVectors {
            on_hand: OnHand {
                model: model.into(),
                dim,
                hand: Default::default(),
            },
        }
    }

    /// Where the host hands this embedder vectors ahead of a call.
    pub fn on_hand(&self) -> OnHand {
        self.on_hand.clone()
    }
}

impl Embedder for SuppliedVectors {
    fn model_id(&self) -> &str {
        &self.on_hand.model
    }
    fn dimension(&self) -> usize {
        self.on_hand.dim
    }
    fn embeds_text(&self) -> bool {
        false
    }
    fn embed(&self, text: &str) -> Result<Vec<f32>> {
        self.on_hand.get(text).ok_or_else(|| {
            Error::Embedder(format!(
                "this engine has no embedder for {}; pass a vector with the call",
                self.on_hand.model
            ))
        })
    }
}

/// Vectors a host embedded ahead of a call whose texts the engine makes itself (a document's
/// passages and sentences: [`crate::document::texts`]), by text, for a [`SuppliedVectors`]
/// embedder, whose model and dimension they have. Shared between the host and the embedder.
#[derive(Clone)]
pub struct OnHand {
    model: String,
    dim: usize,
    hand: std::rc::Rc<std::cell::RefCell<Hand>>,
}

/// The vectors on hand: each text's place in `vectors`, one run of floats after another.
#[derive(Default)]
struct Hand {
    at: std::collections::HashMap<String, usize>,
    vectors: Vec<f32>,
}

impl OnHand {
    /// Puts `vectors` on hand in place of what was there (none: lets them all go): the `i`th
    /// text's vector is the `i`th run of the model's dimension in floats (a text given twice
    /// keeps its first). Each is checked (dimension, finite) and normalised, as a vector
    /// passed with a call is.
    pub fn hand(&self, texts: Vec<String>, vectors: &[f32]) -> Result<()> {
        let dim = self.dim;
        if vectors.len() != texts.len() * dim {
            return Err(Error::invalid(
                "vectors",
                format!(
                    "{} floats for {} texts of {dim} dimensions",
                    vectors.len(),
                    texts.len()
                ),
            ));
        }
        let mut hand = Hand {
            at: std::collections::HashMap::new(),
            vectors: vectors.to_vec(),
        };
        for (i, text) in texts.into_iter().enumerate() {
            let v = &mut hand.vectors[i * dim..(i + 1) * dim];
            check_vector(v, dim, &self.model)?;
            normalise(v);
            hand.at.entry(text).or_insert(i);
        }
        *self.hand.borrow_mut() = hand;
        Ok(())
    }

    /// The vector on hand for `text`.
    fn get(&self, text: &str) -> Option<Vec<f32>> {
        let hand = self.hand.borrow();
        let i = *hand.at.get(text)?;
        Some(hand.vectors[i * self.dim..(i + 1) * self.dim].to_vec())
    }
}

/// The share of a transcript line's vector its speaker's name has ("Caroline: …"), beside
/// the vector of what was said: a small fixed share, where embedding the whole line made a
/// short line ("Caroline: Hey Mel, what's up?") mostly its speaker's name, so that every
/// question naming her found it. LoCoMo dev R@10, turns seeded / remembered: the whole line
/// 0.773 / 0.677; a share of 0: 0.778 / 0.690, 0.1: 0.776 / 0.691, 0.2: 0.771 / 0.693, 0.3:
/// 0.773 / 0.701; 0.1 is the share that lowers no category of either (docs/BENCHMARKS.md).
pub const SPEAKER_SHARE: f32 = 0.1;

/// The texts the engine embeds for a memory's `content`: a transcript line's words and its
/// speaker's name ([`memory_vector`] joins their vectors), any other content whole. What a
/// host whose embedding model is slow fetches ahead of a write.
pub fn memory_texts(content: &str) -> Vec<&str> {
    match crate::text::speaker_label(content) {
        (Some(label), said) => vec![said, label],
        (None, _) => vec![content],
    }
}

/// The vector of a memory's `content`: the caller's (checked and normalised); else, for a
/// transcript line, the embedder's vector of its words with its speaker's name's at
/// [`SPEAKER_SHARE`]; else the embedder's of the whole content. An embedder that only has the
/// host's vectors of whole contents ([`Embedder::embeds_text`] false) is asked for the whole.
pub fn memory_vector(
    embedder: &dyn Embedder,
    content: &str,
    supplied: Option<&[f32]>,
) -> Result<Vec<f32>> {
    if supplied.is_some() || !embedder.embeds_text() {
        return vector_for(embedder, content, supplied);
    }
    let [said, label] = memory_texts(content)[..] else {
        return vector_for(embedder, content, None);
    };
    let mut v = vector_for(embedder, said, None)?;
    let mut name = vector_for(embedder, label, None)?;
    normalise(&mut v);
    normalise(&mut name);
    v.iter_mut()
        .zip(&name)
        .for_each(|(x, n)| *x += SPEAKER_SHARE * n);
    normalise(&mut v);
    Ok(v)
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
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
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

/// [`dot`] in WebAssembly SIMD: the same 16 lanes as four `f32x4`, multiplied and added (never
/// fused) and folded in the same order, so the same bits; written out because the browser
/// build optimises the engine for size, which leaves loops as they are written.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len());
    let whole = n - n % LANES;
    let mut acc = [f32x4_splat(0.0); LANES / 4];
    for i in (0..whole).step_by(LANES) {
        for (j, lane) in acc.iter_mut().enumerate() {
            let at = i + 4 * j;
            // SAFETY: `at + 4 <= whole <= n`, within both slices; a v128 load needs no
            // alignment.
            #[allow(unsafe_code)]
            let (x, y) = unsafe {
                (
                    v128_load(a.as_ptr().add(at).cast::<v128>()),
                    v128_load(b.as_ptr().add(at).cast::<v128>()),
                )
            };
            *lane = f32x4_add(*lane, f32x4_mul(x, y));
        }
    }
    let tail: f32 = a[whole..n]
        .iter()
        .zip(&b[whole..n])
        .map(|(x, y)| x * y)
        .sum();
    // Lanes l and l + 8, then l and l + 4 (the four f32x4 folded pairwise) …
    let eight = [f32x4_add(acc[0], acc[2]), f32x4_add(acc[1], acc[3])];
    let four = f32x4_add(eight[0], eight[1]);
    // … then l and l + 2, and 0 and 1.
    let two = [
        f32x4_extract_lane::<0>(four) + f32x4_extract_lane::<2>(four),
        f32x4_extract_lane::<1>(four) + f32x4_extract_lane::<3>(four),
    ];
    (two[0] + two[1]) + tail
}

/// Vector bytes as stored: little-endian f32.
pub fn to_blob(v: &[f32]) -> Vec<u8> {
    let mut out = vec![0; v.len() * 4];
    // Whole 4-byte chunks: each float one store (a slice copy per float was a call each in
    // the size-optimised WebAssembly, 3 % of seeding).
    for (bytes, x) in out.as_chunks_mut::<4>().0.iter_mut().zip(v) {
        *bytes = x.to_le_bytes();
    }
    out
}

/// Inverse of [`to_blob`]; `None` when the length is not a multiple of 4.
pub fn from_blob(b: &[u8]) -> Option<Vec<f32>> {
    match b.as_chunks::<4>() {
        (floats, []) => Some(floats.iter().map(|&c| f32::from_le_bytes(c)).collect()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_matches_naive_sum_closely() {
        let a: Vec<f32> = (0..383).map(|i| (i as f32 * 0.37).sin()).collect();
        let b: Vec<f32> = (0..383).map(|i| (i as f32 * 0.11).cos()).collect();
        let naive: f64 = a.iter().zip(&b).map(|(x, y)| *x as f64 * *y as f64).sum();
        assert!((dot(&a, &b) as f64 - naive).abs() < 1e-3);
    }

    #[test]
    fn a_lines_speaker_has_a_fixed_share_of_its_vector() {
        let e = HashEmbedder::default();
        let unit = |t: &str| {
            let mut v = e.embed(t).unwrap();
            normalise(&mut v);
            v
        };
        let (said, name) = (unit("Hey Mel, what's up?"), unit("Caroline"));
        let mut want: Vec<f32> = said
            .iter()
            .zip(&name)
            .map(|(s, n)| s + SPEAKER_SHARE * n)
            .collect();
        normalise(&mut want);
        let line = memory_vector(&e, "Caroline: Hey Mel, what's up?", None).unwrap();
        assert!(
            line.iter().zip(&want).all(|(a, b)| (a - b).abs() < 1e-6),
            "{line:?}"
        );
        // The name's share is the same for a long line: a short one is not mostly its name.
        let whole = vector_for(&e, "Caroline: Hey Mel, what's up?", None).unwrap();
        assert!(
            dot(&line, &name) < dot(&whole, &name),
            "{} {}",
            dot(&line, &name),
            dot(&whole, &name)
        );
        assert_eq!(memory_texts("Caroline: Hey Mel"), ["Hey Mel", "Caroline"]);
        // Any other content is embedded whole; a caller's vector is kept as given.
        for plain in ["no label here", "lower: not a name", "Caroline:"] {
            assert_eq!(memory_texts(plain), [plain]);
            assert_eq!(
                memory_vector(&e, plain, None).unwrap(),
                vector_for(&e, plain, None).unwrap()
            );
        }
        let given = unit("anything");
        let kept = memory_vector(&e, "Caroline: hi there", Some(&given)).unwrap();
        assert_eq!(kept, vector_for(&e, "", Some(&given)).unwrap());
        // An embedder of the host's whole-content vectors is asked for the whole content.
        let supplied = SuppliedVectors::new("m", HASH_DIM);
        supplied
            .on_hand()
            .hand(vec!["Caroline: hi there".into()], &given)
            .unwrap();
        assert_eq!(
            memory_vector(&supplied, "Caroline: hi there", None).unwrap(),
            kept
        );
        assert!(memory_vector(&supplied, "Caroline: bye", None).is_err());
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
