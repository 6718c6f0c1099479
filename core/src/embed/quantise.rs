//! Re-quantisation by retention (engram; see docs/DESIGN.md): as a memory fades its vector is
//! stored with fewer bits, and search weighs a comparison against a coarse vector down.
//!
//! Stored forms: `f32` is 4 bytes a dimension, little-endian. `int8`, `int4` and `int2` are a
//! 4-byte little-endian f32 scale followed by one code a dimension, packed low bits first.
//! `int8` and `int4` map −scale ..= scale (scale = the largest magnitude) evenly onto −127 ..=
//! 127 and −7 ..= 7. `int2` keeps each coordinate's sign and whether it is in the larger half
//! by magnitude, decoded as the mean magnitudes of a Gaussian's two halves (0.3244σ and
//! 1.2711σ). A decoded vector is normalised again, so a dot product with it is a cosine; its
//! direction depends on the codes alone (the scale only tells a zero vector), so decoding,
//! encoding again at the same precision and decoding gives the same bits (an import of an
//! export stores what was exported). Every step is plain f32 arithmetic in a fixed order, so
//! every target decodes the same bits.

use serde::{Deserialize, Serialize};

use super::{dot, from_blob, normalise, to_blob};

/// How a vector is stored, ordered finest first (a coarser precision compares greater).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Default,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    /// Full precision, as embedded.
    #[default]
    F32,
    /// 8 bits per element.
    Int8,
    /// 4 bits per element.
    Int4,
    /// 2 bits per element.
    Int2,
}

/// Retention above which a vector keeps full precision (engram's table) …
pub const F32_ABOVE: f64 = 0.8;
/// … above which it is kept at 8 bits …
pub const INT8_ABOVE: f64 = 0.5;
/// … and above which at 4 bits; below, at 2 bits.
pub const INT4_ABOVE: f64 = 0.2;

/// Mean magnitude of a Gaussian's smaller and larger halves (split at the median |x|,
/// 0.6745σ), in σ: 2(φ(0) − φ(0.6745))/0.5 and 2φ(0.6745)/0.5.
const INT2_LEVELS: [f32; 2] = [0.3244, 1.2711];

impl Precision {
    /// Every precision, finest first.
    pub const ALL: [Precision; 4] = [
        Precision::F32,
        Precision::Int8,
        Precision::Int4,
        Precision::Int2,
    ];

    /// Its name as stored and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::Int8 => "int8",
            Precision::Int4 => "int4",
            Precision::Int2 => "int2",
        }
    }

    /// The precision named `name` (as [`Precision::as_str`] writes it).
    pub fn parse(name: &str) -> Option<Precision> {
        Precision::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// Bits a dimension.
    pub fn bits(self) -> usize {
        match self {
            Precision::F32 => 32,
            Precision::Int8 => 8,
            Precision::Int4 => 4,
            Precision::Int2 => 2,
        }
    }

    /// The precision a vector is kept at when its memory's retention is `retention`:
    /// > 0.8 f32, > 0.5 int8, > 0.2 int4, else int2.
    pub fn for_retention(retention: f64) -> Precision {
        if retention > F32_ABOVE {
            Precision::F32
        } else if retention > INT8_ABOVE {
            Precision::Int8
        } else if retention > INT4_ABOVE {
            Precision::Int4
        } else {
            Precision::Int2
        }
    }

    /// The retention at or below which a vector leaves this precision for a coarser one
    /// (`None` at 2 bits).
    pub fn floor(self) -> Option<f64> {
        match self {
            Precision::F32 => Some(F32_ABOVE),
            Precision::Int8 => Some(INT8_ABOVE),
            Precision::Int4 => Some(INT4_ABOVE),
            Precision::Int2 => None,
        }
    }

    /// What search divides a cosine against a vector stored at this precision by (engram's
    /// mixed-precision penalty, 1 + 0.01·((32/bits)^1.5 − 1), written out so no target
    /// computes a power): the coarser the vector, the less its closeness is trusted.
    pub fn penalty(self) -> f32 {
        match self {
            Precision::F32 => 1.0,
            // 4^1.5 = 8
            Precision::Int8 => 1.07,
            // 8^1.5 = 16·√2 = 22.627417
            Precision::Int4 => 1.216_274_2,
            // 16^1.5 = 64
            Precision::Int2 => 1.63,
        }
    }

    /// Bytes a `dim`-dimensional vector takes stored at this precision.
    pub fn stored_len(self, dim: usize) -> usize {
        match self {
            Precision::F32 => 4 * dim,
            p => 4 + (dim * p.bits()).div_ceil(8),
        }
    }
}

/// `v` stored at precision `p`.
pub fn encode(v: &[f32], p: Precision) -> Vec<u8> {
    match p {
        Precision::F32 => to_blob(v),
        Precision::Int8 | Precision::Int4 => {
            let steps = steps(p);
            let scale = v.iter().fold(0f32, |m, x| m.max(x.abs()));
            let codes = v.iter().map(|x| {
                let q = if scale > 0.0 {
                    crate::math::clamp((x / scale * steps).round(), -steps, steps)
                } else {
                    0.0
                };
                // Offset so every code is unsigned: −steps → 0 … steps → 2·steps.
                (q + steps) as u8
            });
            pack(scale, codes, p.bits())
        }
        Precision::Int2 => {
            let rms = (dot(v, v) / v.len().max(1) as f32).sqrt();
            // The larger half: the ⌊n/2⌋ largest magnitudes, ties to the lower index.
            let mut order: Vec<usize> = (0..v.len()).collect();
            crate::order::sort_by(&mut order, |&a, &b| {
                v[b].abs().total_cmp(&v[a].abs()).then(a.cmp(&b))
            });
            let mut large = vec![false; v.len()];
            order[..v.len() / 2].iter().for_each(|&i| large[i] = true);
            // 0: large negative, 1: small negative, 2: small positive, 3: large positive.
            let codes = v.iter().zip(&large).map(|(&x, &l)| match (x < 0.0, l) {
                (true, true) => 0,
                (true, false) => 1,
                (false, false) => 2,
                (false, true) => 3,
            });
            pack(rms, codes, 2)
        }
    }
}

/// The vector stored as `blob` at precision `p` (`dim` dimensions), normalised; `None` when
/// the blob is not one (wrong length, a scale that is not a finite number ≥ 0).
pub fn decode(blob: &[u8], p: Precision, dim: usize) -> Option<Vec<f32>> {
    if p == Precision::F32 {
        return from_blob(blob);
    }
    if blob.len() != p.stored_len(dim) {
        return None;
    }
    let scale = f32::from_le_bytes([blob[0], blob[1], blob[2], blob[3]]);
    if !scale.is_finite() || scale < 0.0 {
        return None;
    }
    if scale == 0.0 {
        return Some(vec![0.0; dim]);
    }
    let codes = unpack(&blob[4..], p.bits(), dim);
    let mut v: Vec<f32> = match p {
        Precision::Int2 => codes
            .map(|c| match c {
                0 => -INT2_LEVELS[1],
                1 => -INT2_LEVELS[0],
                2 => INT2_LEVELS[0],
                _ => INT2_LEVELS[1],
            })
            .collect(),
        _ => {
            let steps = steps(p);
            codes.map(|c| c as f32 - steps).collect()
        }
    };
    normalise(&mut v);
    Some(v)
}

/// The largest code magnitude of the even quantisers.
fn steps(p: Precision) -> f32 {
    match p {
        Precision::Int8 => 127.0,
        _ => 7.0,
    }
}

/// `scale`, then `codes` of `bits` bits each, packed low bits first.
fn pack(scale: f32, codes: impl Iterator<Item = u8>, bits: usize) -> Vec<u8> {
    let mut out = scale.to_le_bytes().to_vec();
    let per_byte = 8 / bits;
    let mut byte = 0u8;
    let mut filled = 0;
    for c in codes {
        byte |= c << (filled * bits);
        filled += 1;
        if filled == per_byte {
            out.push(byte);
            (byte, filled) = (0, 0);
        }
    }
    if filled > 0 {
        out.push(byte);
    }
    out
}

/// The first `n` codes of `bits` bits packed in `bytes`.
fn unpack(bytes: &[u8], bits: usize, n: usize) -> impl Iterator<Item = u8> + '_ {
    let per_byte = 8 / bits;
    let mask = ((1u16 << bits) - 1) as u8;
    (0..n).map(move |i| (bytes[i / per_byte] >> ((i % per_byte) * bits)) & mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic pseudo-random unit vector.
    fn unit(seed: u64, dim: usize) -> Vec<f32> {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut v: Vec<f32> = (0..dim)
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                // Sum of uniforms: roughly Gaussian, as embedding coordinates are.
                (0..4)
                    .map(|k| ((s >> (16 * k)) & 0xffff) as f32 / 65536.0 - 0.5)
                    .sum()
            })
            .collect();
        normalise(&mut v);
        v
    }

    #[test]
    fn each_precision_keeps_the_cosine_it_promises_in_the_bytes_it_promises() {
        // Least cosine between a vector and its decoded copy, over 200 vectors of 384 dims.
        for (p, floor, len) in [
            (Precision::F32, 0.99999, 1536),
            (Precision::Int8, 0.9999, 388),
            (Precision::Int4, 0.98, 196),
            (Precision::Int2, 0.9, 100),
        ] {
            let mut least = 1f32;
            for seed in 0..200 {
                let v = unit(seed, 384);
                let blob = encode(&v, p);
                assert_eq!(blob.len(), len, "{p:?}");
                assert_eq!(blob.len(), p.stored_len(384));
                let back = decode(&blob, p, 384).unwrap();
                least = least.min(dot(&v, &back));
            }
            assert!(least >= floor, "{p:?}: least cosine {least}");
            if p != Precision::F32 {
                assert!(least < 0.99999, "{p:?} loses something");
            }
        }
    }

    #[test]
    fn a_decoded_vector_encodes_to_the_same_codes() {
        // Re-quantising what was decoded (an import of an export) changes nothing.
        for p in Precision::ALL {
            for (seed, dim) in [(1, 384), (2, 7), (3, 1)] {
                let once = decode(&encode(&unit(seed, dim), p), p, dim).unwrap();
                let twice = decode(&encode(&once, p), p, dim).unwrap();
                assert_eq!(once, twice, "{p:?} dim {dim}");
            }
            // Far from Gaussian: one coordinate set, or all equal.
            let mut one_hot = vec![0.0; 384];
            one_hot[5] = 1.0;
            for v in [one_hot, vec![0.051; 384]] {
                let once = decode(&encode(&v, p), p, 384).unwrap();
                assert_eq!(once, decode(&encode(&once, p), p, 384).unwrap(), "{p:?}");
            }
        }
    }

    #[test]
    fn odd_dimensions_zero_vectors_and_damaged_blobs() {
        for p in [Precision::Int8, Precision::Int4, Precision::Int2] {
            // 7 dims: the last byte is part filled.
            let v = unit(9, 7);
            let back = decode(&encode(&v, p), p, 7).unwrap();
            assert_eq!(back.len(), 7);
            assert!(dot(&v, &back) > 0.8, "{p:?}");
            // A zero vector stays zero.
            let zero = decode(&encode(&[0.0; 8], p), p, 8).unwrap();
            assert_eq!(zero, vec![0.0; 8]);
            // Wrong length, wrong dimension, a NaN or negative scale: not a vector.
            let blob = encode(&v, p);
            assert!(decode(&blob[..blob.len() - 1], p, 7).is_none());
            assert!(decode(&blob, p, 64).is_none());
            assert!(decode(&[], p, 7).is_none());
            for bad in [f32::NAN, f32::INFINITY, -1.0] {
                let mut b = blob.clone();
                b[..4].copy_from_slice(&bad.to_le_bytes());
                assert!(decode(&b, p, 7).is_none(), "{p:?} scale {bad}");
            }
        }
    }

    #[test]
    fn retention_chooses_the_precision_and_coarser_vectors_weigh_less() {
        let at = |r| Precision::for_retention(r);
        assert_eq!(at(1.0), Precision::F32);
        assert_eq!(at(0.81), Precision::F32);
        assert_eq!(at(0.8), Precision::Int8);
        assert_eq!(at(0.51), Precision::Int8);
        assert_eq!(at(0.5), Precision::Int4);
        assert_eq!(at(0.21), Precision::Int4);
        assert_eq!(at(0.2), Precision::Int2);
        assert_eq!(at(0.0), Precision::Int2);
        // Each band's floor is where the next begins.
        for p in Precision::ALL {
            match p.floor() {
                Some(f) => {
                    assert_eq!(at(f + 1e-9), p);
                    assert!(at(f) > p);
                }
                None => assert_eq!(p, Precision::Int2),
            }
        }
        // The penalty is engram's formula, and grows as bits fall.
        for p in Precision::ALL {
            let formula = 1.0 + 0.01 * ((32.0 / p.bits() as f64).powf(1.5) - 1.0);
            assert!((p.penalty() as f64 - formula).abs() < 1e-6, "{p:?}");
            assert_eq!(Precision::parse(p.as_str()), Some(p));
        }
        assert!(Precision::ALL
            .windows(2)
            .all(|w| w[0].penalty() < w[1].penalty()));
        assert_eq!(Precision::parse("int16"), None);
    }
}
