//! `mnemo-static-v1`, the default embedder: static token vectors distilled from
//! all-MiniLM-L6-v2 (`scripts/distill/`, the Model2Vec recipe). A text's vector is the
//! normalised sum of its WordPiece tokens' vectors, summed in token order in f32, so every
//! target gets the same bits.
//!
//! The weights file (`core/assets/mnemo-static-v1.bin`, 4 MB) is linked into native hosts and
//! the component; the browser and edge package fetch it once and hand it over, which keeps the
//! engine module small.

use std::borrow::Cow;
use std::sync::Arc;

use super::wordpiece::WordPiece;
use super::{normalise, Embedder};
use crate::error::{Error, Result};

/// Model id of the distilled embedder.
pub const STATIC_MODEL: &str = "mnemo-static-v1";
/// First bytes of its weights file.
const MAGIC: &[u8; 8] = b"MNEMOSV1";
/// Stored values are 4-bit, `value + 8`.
const NIBBLE_BIAS: i32 = 8;

/// Parsed weights of a static embedder: the vocabulary and one quantised row per token.
#[derive(Debug)]
pub struct StaticModel {
    tokenizer: WordPiece,
    dims: usize,
    /// Per token: its scale and the offset of its row in `file` (`None`: no vector).
    index: Vec<Option<(f32, usize)>>,
    /// The weights file, kept whole: the rows are read where they are in it (a browser hands
    /// over its download, so the 4 MB are not copied again).
    file: Cow<'static, [u8]>,
}

/// A reader over the weights file that names what is missing.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8]> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| bad(&format!("it ends inside {what}")))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u32(&mut self, what: &str) -> Result<u32> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

fn bad(why: &str) -> Error {
    Error::Embedder(format!("not a {STATIC_MODEL} weights file: {why}"))
}

impl StaticModel {
    /// Parses a weights file written by `scripts/distill/distill.py`, and keeps it.
    pub fn from_bytes(file: impl Into<Cow<'static, [u8]>>) -> Result<StaticModel> {
        let file = file.into();
        let bytes: &[u8] = &file;
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len(), "the header")? != MAGIC {
            return Err(bad("wrong magic bytes"));
        }
        let dims = r.u32("the header")? as usize;
        let count = r.u32("the header")? as usize;
        if dims == 0 || !dims.is_multiple_of(2) || dims > 4096 || count == 0 || count > 1 << 20 {
            return Err(bad(&format!("{dims} dimensions and {count} tokens")));
        }
        let mut tokens = Vec::with_capacity(count);
        for _ in 0..count {
            let len = r.take(1, "the vocabulary")?[0] as usize;
            let token = std::str::from_utf8(r.take(len, "the vocabulary")?)
                .map_err(|_| bad("a token is not UTF-8"))?;
            tokens.push(token);
        }
        let row_len = dims / 2;
        let mut index = Vec::with_capacity(count);
        let mut rows_len = 0usize;
        for chunk in r.take(count * 4, "the scales")?.chunks_exact(4) {
            let scale = f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
            if !scale.is_finite() || scale < 0.0 {
                return Err(bad("a scale is not a finite non-negative number"));
            }
            index.push((scale > 0.0).then(|| {
                rows_len += row_len;
                (scale, rows_len - row_len)
            }));
        }
        let rows_at = r.at;
        r.take(rows_len, "the vectors")?;
        if r.at != bytes.len() {
            return Err(bad("bytes follow the vectors"));
        }
        for (_, at) in index.iter_mut().flatten() {
            *at += rows_at;
        }
        let tokenizer = WordPiece::new(&tokens);
        drop(tokens);
        Ok(StaticModel {
            tokenizer,
            dims,
            index,
            file,
        })
    }

    /// The weights linked into this build (native hosts and the component).
    #[cfg(feature = "bundled-model")]
    pub fn bundled() -> Arc<StaticModel> {
        static MODEL: std::sync::OnceLock<Arc<StaticModel>> = std::sync::OnceLock::new();
        MODEL
            .get_or_init(|| {
                let bytes: &'static [u8] = include_bytes!("../../assets/mnemo-static-v1.bin");
                // The file is checked by this crate's tests; it cannot be malformed here.
                Arc::new(StaticModel::from_bytes(bytes).expect("the bundled weights parse"))
            })
            .clone()
    }

    /// The WordPiece token ids of `text`, as BERT's uncased tokenizer gives them (without
    /// `[CLS]` and `[SEP]`).
    pub fn token_ids(&self, text: &str) -> Vec<u32> {
        self.tokenizer.encode(text)
    }

    /// Length of its vectors.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The unnormalised sum of the token vectors of `text`, in token order.
    fn sum(&self, text: &str) -> Vec<f32> {
        let mut v = vec![0f32; self.dims];
        for id in self.token_ids(text) {
            let Some(Some((scale, at))) = self.index.get(id as usize) else {
                continue;
            };
            add_row(&mut v, *scale, &self.file[*at..*at + self.dims / 2]);
        }
        v
    }
}

/// Adds one token's row to `v`: `scale` × (nibble − bias), the low nibble of byte `i` to
/// dimension `2i`, the high one to `2i + 1`.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn add_row(v: &mut [f32], scale: f32, row: &[u8]) {
    add_pairs(v, scale, row);
}

/// The nibbles of `row` added to `v` one pair at a time.
fn add_pairs(v: &mut [f32], scale: f32, row: &[u8]) {
    for (pair, byte) in v.chunks_exact_mut(2).zip(row) {
        pair[0] += scale * ((byte & 0x0f) as i32 - NIBBLE_BIAS) as f32;
        pair[1] += scale * ((byte >> 4) as i32 - NIBBLE_BIAS) as f32;
    }
}

/// [`add_row`] in WebAssembly SIMD, 16 bytes (32 dimensions) at a time: each dimension gets
/// the same multiply, then add (never fused), so the same bits as every other target; written
/// out because the browser build optimises for size, which leaves loops as they are written.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn add_row(v: &mut [f32], scale: f32, row: &[u8]) {
    use core::arch::wasm32::*;
    let n = row.len().min(v.len() / 2);
    let whole = n - n % 16;
    let (mask, bias, s) = (
        u8x16_splat(0x0f),
        i32x4_splat(NIBBLE_BIAS),
        f32x4_splat(scale),
    );
    for i in (0..whole).step_by(16) {
        // SAFETY: `i + 16 <= whole <= row.len()`; a v128 load needs no alignment.
        #[allow(unsafe_code)]
        let bytes = unsafe { v128_load(row.as_ptr().add(i).cast::<v128>()) };
        let (low, high) = (v128_and(bytes, mask), u8x16_shr(bytes, 4));
        // The 32 nibbles in dimension order: low 0, high 0, low 1, high 1, …
        let halves = [
            u8x16_shuffle::<0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23>(low, high),
            u8x16_shuffle::<8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31>(
                low, high,
            ),
        ];
        let mut at = 2 * i;
        for half in halves {
            for eight in [u16x8_extend_low_u8x16(half), u16x8_extend_high_u8x16(half)] {
                for four in [
                    u32x4_extend_low_u16x8(eight),
                    u32x4_extend_high_u16x8(eight),
                ] {
                    let q = f32x4_convert_i32x4(i32x4_sub(four, bias));
                    // SAFETY: `at + 4 <= 2 * whole <= v.len()`.
                    #[allow(unsafe_code)]
                    unsafe {
                        let p = v.as_mut_ptr().add(at).cast::<v128>();
                        v128_store(p, f32x4_add(v128_load(p), f32x4_mul(s, q)));
                    }
                    at += 4;
                }
            }
        }
    }
    add_pairs(&mut v[2 * whole..], scale, &row[whole..n]);
}

/// The distilled embedder over a parsed weights file.
#[derive(Debug, Clone)]
pub struct StaticEmbedder {
    model: Arc<StaticModel>,
}

impl StaticEmbedder {
    /// An embedder over `model` (one parsed copy may serve many stores).
    pub fn new(model: Arc<StaticModel>) -> Self {
        StaticEmbedder { model }
    }
}

impl Embedder for StaticEmbedder {
    fn model_id(&self) -> &str {
        STATIC_MODEL
    }
    fn dimension(&self) -> usize {
        self.model.dims
    }
    fn embed(&self, text: &str) -> Result<Vec<f32>> {
        let mut v = self.model.sum(text);
        normalise(&mut v);
        Ok(v)
    }
}
