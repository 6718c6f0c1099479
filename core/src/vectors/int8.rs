//! int8 copies of vectors for the pass between the Hamming prefilter and the exact scores:
//! a quarter of the bytes of f32 to read per row, and integer dot products, so the same bits
//! on every target. Each vector is scaled on its own (symmetric, its largest coordinate is
//! ±127), which keeps a unit vector's cosines within about 1e-3 of the exact ones.

/// Lanes of the portable [`dot`]: independent accumulators the compiler turns into SIMD.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
const LANES: usize = 16;

/// Largest code: codes are symmetric, −127 ..= 127.
const MAX_CODE: f32 = 127.0;

/// Writes the int8 codes of `v` into `out` (as long as `v`) and answers their scale (a
/// coordinate is about code × scale); a zero vector gets zero codes and scale. (Stored vectors
/// are finite: the store refuses others.)
pub fn quantise(v: &[f32], out: &mut [i8]) -> f32 {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    if max == 0.0 || !max.is_finite() {
        out.iter_mut().for_each(|c| *c = 0);
        return 0.0;
    }
    let scale = max / MAX_CODE;
    for (c, x) in out.iter_mut().zip(v) {
        *c = crate::math::clamp((x / scale).round(), -MAX_CODE, MAX_CODE) as i8;
    }
    scale
}

/// Integer dot product of two codes of equal length (exact: ≤ 127² × length fits an i32 for
/// any length under 133,000).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub fn dot(a: &[i8], b: &[i8]) -> i32 {
    let mut acc = [0i32; LANES];
    let (ac, bc) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: i32 = ac
        .remainder()
        .iter()
        .zip(bc.remainder())
        .map(|(x, y)| i32::from(*x) * i32::from(*y))
        .sum();
    for (x, y) in ac.zip(bc) {
        for l in 0..LANES {
            acc[l] += i32::from(i16::from(x[l]) * i16::from(y[l]));
        }
    }
    acc.iter().sum::<i32>() + tail
}

/// [`dot`] in WebAssembly SIMD, 16 codes at a time: LLVM does not find `i32x4.dot_i16x8_s`
/// in the portable loop. Integer sums, so the same result as the portable one.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub fn dot(a: &[i8], b: &[i8]) -> i32 {
    use core::arch::wasm32::*;
    let n = a.len().min(b.len());
    let whole = n - n % 16;
    let mut acc = i32x4_splat(0);
    for i in (0..whole).step_by(16) {
        // SAFETY: `i + 16 <= whole <= n`, within both slices; a v128 load needs no alignment.
        #[allow(unsafe_code)]
        let (x, y) = unsafe {
            (
                v128_load(a.as_ptr().add(i).cast::<v128>()),
                v128_load(b.as_ptr().add(i).cast::<v128>()),
            )
        };
        let low = i32x4_dot_i16x8(i16x8_extend_low_i8x16(x), i16x8_extend_low_i8x16(y));
        let high = i32x4_dot_i16x8(i16x8_extend_high_i8x16(x), i16x8_extend_high_i8x16(y));
        acc = i32x4_add(acc, i32x4_add(low, high));
    }
    let tail: i32 = a[whole..n]
        .iter()
        .zip(&b[whole..n])
        .map(|(x, y)| i32::from(*x) * i32::from(*y))
        .sum();
    i32x4_extract_lane::<0>(acc)
        + i32x4_extract_lane::<1>(acc)
        + i32x4_extract_lane::<2>(acc)
        + i32x4_extract_lane::<3>(acc)
        + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_scale_and_integer_dot() {
        let mut c = [0i8; 3];
        let s = quantise(&[0.5, -1.0, 0.25], &mut c);
        assert_eq!(c, [64, -127, 32]);
        assert!((s - 1.0 / 127.0).abs() < 1e-9);
        assert_eq!(quantise(&[0.0, 0.0, 0.0], &mut c), 0.0);
        assert_eq!(c, [0, 0, 0]);
        // Every length around the lanes, and the extreme codes (no overflow).
        for n in [0usize, 1, 15, 16, 17, 37, 256, 1000] {
            let a: Vec<i8> = (0..n)
                .map(|i| (i * 7 % 255) as i32 - 127)
                .map(|x| x as i8)
                .collect();
            let b: Vec<i8> = (0..n)
                .map(|i| (i * 13 % 255) as i32 - 127)
                .map(|x| x as i8)
                .collect();
            let naive: i32 = a.iter().zip(&b).map(|(x, y)| *x as i32 * *y as i32).sum();
            assert_eq!(dot(&a, &b), naive, "length {n}");
            let most = vec![-127i8; n];
            assert_eq!(dot(&most, &most), 127 * 127 * n as i32);
        }
    }

    #[test]
    fn scaled_codes_keep_the_cosine() {
        let mut rnd = crate::vectors::uniform(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..50 {
            let mut a: Vec<f32> = (0..256).map(|_| rnd()).collect();
            let mut b: Vec<f32> = (0..256).map(|_| rnd()).collect();
            crate::embed::normalise(&mut a);
            crate::embed::normalise(&mut b);
            let (mut ca, mut cb) = (vec![0i8; 256], vec![0i8; 256]);
            let (sa, sb) = (quantise(&a, &mut ca), quantise(&b, &mut cb));
            let approx = dot(&ca, &cb) as f32 * sa * sb;
            let exact = crate::embed::dot(&a, &b);
            assert!((approx - exact).abs() < 2e-3, "{approx} vs {exact}");
        }
    }
}
