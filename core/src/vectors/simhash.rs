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
            times(&mut x, signs);
            hadamard(&mut x);
        }
        signs_of(&x, out);
    }
}

/// `x[i] *= by[i]` (exact: the factors are ±1).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn times(x: &mut [f32], by: &[f32]) {
    x.iter_mut().zip(by).for_each(|(x, s)| *x *= s);
}

/// [`times`] in WebAssembly SIMD, four at a step.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn times(x: &mut [f32], by: &[f32]) {
    use core::arch::wasm32::*;
    let n = x.len().min(by.len());
    let whole = n - n % 4;
    let (p, q) = (x.as_mut_ptr(), by.as_ptr());
    for i in (0..whole).step_by(4) {
        // SAFETY: `i + 4 <= whole <= n`, inside both slices; v128 loads and stores need no
        // alignment.
        #[allow(unsafe_code)]
        unsafe {
            let at = p.add(i).cast::<v128>();
            v128_store(
                at,
                f32x4_mul(v128_load(at), v128_load(q.add(i).cast::<v128>())),
            );
        }
    }
    x[whole..n]
        .iter_mut()
        .zip(&by[whole..n])
        .for_each(|(x, s)| *x *= s);
}

/// Bit `b` of word `w` of `out`: whether `x[64w + b]` is positive.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn signs_of(x: &[f32], out: &mut [u64]) {
    for (word, chunk) in out.iter_mut().zip(x.chunks_exact(64)) {
        *word = chunk
            .iter()
            .enumerate()
            .fold(0u64, |w, (b, x)| w | (u64::from(*x > 0.0) << b));
    }
}

/// [`signs_of`] in WebAssembly SIMD: four comparisons and their four bits at a step.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn signs_of(x: &[f32], out: &mut [u64]) {
    use core::arch::wasm32::*;
    let zero = f32x4_splat(0.0);
    for (w, word) in out.iter_mut().enumerate().take(x.len() / 64) {
        let mut bits = 0u64;
        for j in 0..16 {
            // SAFETY: `64w + 4j + 4 <= 64(w + 1) <= x.len()`: four f32s inside `x`; a v128
            // load needs no alignment.
            #[allow(unsafe_code)]
            let four = unsafe { v128_load(x.as_ptr().add(64 * w + 4 * j).cast::<v128>()) };
            bits |= u64::from(i32x4_bitmask(f32x4_gt(four, zero))) << (4 * j);
        }
        *word = bits;
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

/// [`stages`] in WebAssembly SIMD, four butterflies a step (the same additions, so the same
/// bits): the browser build optimises the engine for size, which leaves loops as written,
/// and a write's lookup encodes its vector twice.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn stages(x: &mut [f32], h: usize) {
    use core::arch::wasm32::*;
    if !h.is_multiple_of(4) {
        return stages_one_at_a_time(x, h);
    }
    let (n, p) = (x.len(), x.as_mut_ptr());
    let mut h = h;
    while h < n {
        for start in (0..n - n % (2 * h)).step_by(2 * h) {
            for k in (start..start + h).step_by(4) {
                // SAFETY: `k + h + 4 <= start + 2h <= n`: both runs of four f32s are inside
                // `x`, the 16 bytes a v128 load or store reads or writes; neither needs
                // alignment.
                #[allow(unsafe_code)]
                unsafe {
                    let (u, v) = (p.add(k).cast::<v128>(), p.add(k + h).cast::<v128>());
                    let (s, d) = (v128_load(u), v128_load(v));
                    v128_store(u, f32x4_add(s, d));
                    v128_store(v, f32x4_sub(s, d));
                }
            }
        }
        h *= 2;
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn stages(x: &mut [f32], h: usize) {
    stages_one_at_a_time(x, h)
}

/// The stages of the transform from butterflies `h` values apart.
fn stages_one_at_a_time(x: &mut [f32], mut h: usize) {
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
