//! `mnemo-static-v1`, the default embedder: static token vectors distilled from
//! all-MiniLM-L6-v2 (`scripts/distill/`, the Model2Vec recipe). A text's vector is the
//! normalised sum of its WordPiece tokens' vectors, summed in token order in f32, so every
//! target gets the same bits.
//!
//! The weights file (`core/assets/mnemo-static-v1.bin`, 4 MB) is linked into native hosts and
//! the component; the browser and edge package fetch it once and hand it over, which keeps the
//! engine module small.

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
    /// Per token: its scale and the offset of its row in `rows` (`None`: no vector).
    index: Vec<Option<(f32, usize)>>,
    rows: Vec<u8>,
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
    /// Parses a weights file written by `scripts/distill/distill.py`.
    pub fn from_bytes(bytes: &[u8]) -> Result<StaticModel> {
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
            tokens.push(token.to_string());
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
        let rows = r.take(rows_len, "the vectors")?.to_vec();
        if r.at != bytes.len() {
            return Err(bad("bytes follow the vectors"));
        }
        Ok(StaticModel {
            tokenizer: WordPiece::new(&tokens),
            dims,
            index,
            rows,
        })
    }

    /// The weights linked into this build (native hosts and the component).
    #[cfg(feature = "bundled-model")]
    pub fn bundled() -> Arc<StaticModel> {
        static MODEL: std::sync::OnceLock<Arc<StaticModel>> = std::sync::OnceLock::new();
        MODEL
            .get_or_init(|| {
                let bytes = include_bytes!("../../assets/mnemo-static-v1.bin");
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
            let row = &self.rows[*at..*at + self.dims / 2];
            for (pair, byte) in v.chunks_exact_mut(2).zip(row) {
                pair[0] += scale * ((byte & 0x0f) as i32 - NIBBLE_BIAS) as f32;
                pair[1] += scale * ((byte >> 4) as i32 - NIBBLE_BIAS) as f32;
            }
        }
        v
    }
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
