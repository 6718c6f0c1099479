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
    let max = largest(v);
    if max == 0.0 || !max.is_finite() {
        out.iter_mut().for_each(|c| *c = 0);
        return 0.0;
    }
    let scale = max / MAX_CODE;
    let done = codes_simd(v, scale, out);
    for (c, x) in out[done..].iter_mut().zip(&v[done..]) {
        *c = code(*x, scale);
    }
    scale
}

/// The largest magnitude in `v`, compared rather than by `f32::max` (WebAssembly's `f32.max`
/// treats NaN otherwise than Rust's does, so that is a library call per coordinate).
fn largest(v: &[f32]) -> f32 {
    v.iter()
        .fold(0f32, |m, x| if x.abs() > m { x.abs() } else { m })
}

/// The code of `x` at `scale`: `x / scale` rounded (halves away from zero), within ±127.
/// Written out rather than `f32::clamp`, whose check of its bounds would bring float
/// formatting into the WebAssembly (see `math::clamp`), in a loop over every coordinate.
#[inline(always)]
#[allow(clippy::manual_clamp)]
fn code(x: f32, scale: f32) -> i8 {
    let r = round(x / scale);
    (if r > MAX_CODE {
        MAX_CODE
    } else if r < -MAX_CODE {
        -MAX_CODE
    } else {
        r
    }) as i8
}

/// `x.round()` (halves away from zero) from truncation, which WebAssembly has as an
/// instruction where `round` is a library call. `x - x.trunc()` is exact, so the result is
/// the same for every finite `x`.
#[inline(always)]
fn round(x: f32) -> f32 {
    let t = x.trunc();
    if (x - t).abs() < 0.5 {
        t
    } else if x < 0.0 {
        t - 1.0
    } else {
        t + 1.0
    }
}

/// [`code`] of the coordinates of `v` 16 at a time, in WebAssembly SIMD (the same operations
/// lane by lane, so the same codes); answers how many it wrote (the rest are for the caller).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn codes_simd(v: &[f32], scale: f32, out: &mut [i8]) -> usize {
    use core::arch::wasm32::*;
    let n = v.len().min(out.len());
    let whole = n - n % 16;
    let (scale, half, one, top) = (
        f32x4_splat(scale),
        f32x4_splat(0.5),
        f32x4_splat(1.0),
        f32x4_splat(MAX_CODE),
    );
    let lane = |x: v128| {
        let y = f32x4_div(x, scale);
        let t = f32x4_trunc(y);
        // ±1 where the fraction is half or more (the sign of y), else 0.
        let away = v128_and(
            f32x4_ge(f32x4_abs(f32x4_sub(y, t)), half),
            v128_or(one, v128_and(y, f32x4_splat(-0.0))),
        );
        let r = f32x4_add(t, away);
        i32x4_trunc_sat_f32x4(f32x4_pmax(f32x4_pmin(r, top), f32x4_neg(top)))
    };
    for i in (0..whole).step_by(16) {
        // SAFETY: `i + 16 <= whole <= n`, within `v` and `out`; v128 loads and stores need no
        // alignment.
        #[allow(unsafe_code)]
        unsafe {
            let at = |k: usize| lane(v128_load(v.as_ptr().add(i + 4 * k).cast::<v128>()));
            let low = i16x8_narrow_i32x4(at(0), at(1));
            let high = i16x8_narrow_i32x4(at(2), at(3));
            v128_store(
                out.as_mut_ptr().add(i).cast::<v128>(),
                i8x16_narrow_i16x8(low, high),
            );
        }
    }
    whole
}

/// Elsewhere the loop in [`quantise`] codes every coordinate.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn codes_simd(_: &[f32], _: f32, _: &mut [i8]) -> usize {
    0
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
    fn rounding_by_truncation_is_rounding() {
        let edges = [
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.5,
            -1.5,
            2.5,
            0.49999997,
            -0.49999997,
            126.5,
            -126.5,
            127.0,
            8_388_607.5,
            8_388_608.0,
            1e-40,
            -1e-40,
        ];
        let mut x = 0x1234_5678u32;
        let spread = (0..100_000).map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x as f32 / u32::MAX as f32 - 0.5) * 300.0
        });
        for v in edges.into_iter().chain(spread) {
            assert_eq!(round(v).to_bits(), v.round().to_bits(), "{v}");
        }
    }

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
