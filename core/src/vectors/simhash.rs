//! Binary codes of vectors for a Hamming-distance prefilter: SimHash (Charikar 2002), the signs
//! of a fixed random rotation. Two vectors' codes differ in a fraction θ/π of their bits, θ
//! the angle between them, whatever the embedder: sparse vectors (the hashing embedder's)
//! are spread over every bit by the rotation first, so a code's weight does not follow the
//! number of features a text had.
//!
//! The rotation is a randomised Hadamard transform applied twice (H·D₂·H·D₁, D random signs
//! from a fixed seed), O(n log n) per vector. It adds and subtracts in one fixed order and
//! popcounts are integers, so codes and distances are the same bits on every target.

use crate::clock::{Entropy, SeededEntropy};

/// Seed of the rotation's random signs (changing it changes every code, not any result
/// beyond which candidates the prefilter keeps).
const ROTATION_SEED: u64 = 0x6d6e_656d_6f5f_7368; // "mnemo_sh"

/// Bits of a code are at least this many (whole 64-bit words). A shorter vector is padded
/// with zeros before the rotation, so it still gets 512 independent signs: at 256 bits the
/// default embedder's LoCoMo turns kept only 0.986 of their true ten nearest.
const MIN_BITS: usize = 512;

/// The rotation and code layout for one dimension.
#[derive(Debug, Default)]
pub struct SimHash {
    dim: usize,
    /// Length of the rotated vector (a power of two ≥ `dim`), which is the code's bit count.
    bits: usize,
    /// Random ±1 signs of the two rounds.
    signs: [Vec<f32>; 2],
}

impl SimHash {
    /// The codes of `dim`-dimensional vectors.
    pub fn new(dim: usize) -> Self {
        let bits = dim.next_power_of_two().max(MIN_BITS);
        let rng = SeededEntropy::new(ROTATION_SEED);
        let signs = || -> Vec<f32> {
            (0..bits)
                .map(|_| if rng.next_u64() >> 63 == 0 { 1.0 } else { -1.0 })
                .collect()
        };
        let signs = [signs(), signs()];
        SimHash { dim, bits, signs }
    }

    /// 64-bit words per code.
    pub fn words(&self) -> usize {
        self.bits / 64
    }

    /// Largest Hamming distance between two codes.
    pub fn max_distance(&self) -> usize {
        self.bits
    }

    /// Writes the code of `v` (length `dim`) into `out` (length [`Self::words`]).
    pub fn encode(&self, v: &[f32], out: &mut [u64]) {
        debug_assert_eq!(v.len(), self.dim);
        let mut x = vec![0f32; self.bits];
        x[..self.dim].copy_from_slice(v);
        for signs in &self.signs {
            x.iter_mut().zip(signs).for_each(|(x, s)| *x *= s);
            hadamard(&mut x);
        }
        for (word, chunk) in out.iter_mut().zip(x.chunks_exact(64)) {
            *word = chunk
                .iter()
                .enumerate()
                .fold(0u64, |w, (b, x)| w | (u64::from(*x > 0.0) << b));
        }
    }
}

/// Fast Walsh–Hadamard transform in place (unnormalised; `x.len()` a power of two).
fn hadamard(x: &mut [f32]) {
    if x.len() < 4 {
        return stages(x, 1);
    }
    // The first two stages, whose butterflies are too short to vectorise, four values at a
    // time: the same additions in the same order as stage by stage, so the same bits.
    for q in x.chunks_exact_mut(4) {
        let (a, b, c, d) = (q[0] + q[1], q[0] - q[1], q[2] + q[3], q[2] - q[3]);
        q[0] = a + c;
        q[1] = b + d;
        q[2] = a - c;
        q[3] = b - d;
    }
    stages(x, 4);
}

/// The stages of the transform from butterflies `h` values apart.
fn stages(x: &mut [f32], mut h: usize) {
    while h < x.len() {
        for block in x.chunks_exact_mut(2 * h) {
            let (a, b) = block.split_at_mut(h);
            for (u, v) in a.iter_mut().zip(b.iter_mut()) {
                let (s, d) = (*u + *v, *u - *v);
                *u = s;
                *v = d;
            }
        }
        h *= 2;
    }
}

/// Hamming distance of two codes.
pub fn hamming(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transform_gives_the_bits_of_the_stage_by_stage_one() {
        let mut next = crate::vectors::uniform(41);
        for n in [1usize, 2, 4, 8, 64, 512, 1024] {
            for _ in 0..20 {
                let v: Vec<f32> = (0..n).map(|_| next()).collect();
                let (mut a, mut b) = (v.clone(), v);
                hadamard(&mut a);
                stages(&mut b, 1);
                let bits = |x: &[f32]| x.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&a), bits(&b), "{n} values");
            }
        }
    }
    use crate::embed::{dot, normalise};

    #[test]
    fn hadamard_matches_its_definition() {
        let mut x = [1.0, 2.0, 3.0, 4.0];
        hadamard(&mut x);
        assert_eq!(x, [10.0, -2.0, -4.0, 0.0]);
    }

    #[test]
    fn codes_estimate_the_angle_even_for_sparse_vectors() {
        let dim = 384;
        let sh = SimHash::new(dim);
        assert_eq!(sh.words(), 8);
        let code = |v: &[f32]| {
            let mut c = vec![0u64; sh.words()];
            sh.encode(v, &mut c);
            c
        };
        // Sparse vectors like the hashing embedder's: a few features each.
        let sparse = |feats: &[(usize, f32)]| {
            let mut v = vec![0f32; dim];
            feats.iter().for_each(|&(i, x)| v[i] = x);
            normalise(&mut v);
            v
        };
        let a = sparse(&[(3, 1.0), (50, -1.0), (200, 1.0), (301, 0.5)]);
        let b = sparse(&[(3, 1.0), (50, -1.0), (200, 1.0), (90, 0.5)]);
        let c = sparse(&[(7, 1.0), (140, -1.0)]);
        let d = sparse(&[
            (8, 1.0),
            (9, 1.0),
            (10, 1.0),
            (11, 1.0),
            (12, -1.0),
            (13, 1.0),
        ]);
        let (ca, cb, cc, cd) = (code(&a), code(&b), code(&c), code(&d));
        let bits = sh.max_distance() as f32;
        for (x, y, cx, cy) in [(&a, &b, &ca, &cb), (&a, &c, &ca, &cc), (&c, &d, &cc, &cd)] {
            let expected = dot(x, y).clamp(-1.0, 1.0).acos() / std::f32::consts::PI;
            let measured = hamming(cx, cy) as f32 / bits;
            assert!(
                (expected - measured).abs() < 0.12,
                "angle/π {expected:.3}, code distance {measured:.3}"
            );
        }
        // Unrelated vectors of any sparsity sit near half the bits apart; codes are stable.
        assert!(hamming(&ca, &cb) < hamming(&ca, &cc));
        assert_eq!(code(&a), ca);
        assert_eq!(hamming(&ca, &ca), 0);
    }
}
