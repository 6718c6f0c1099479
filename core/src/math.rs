//! Transcendental functions from one portable implementation (the `libm` crate, a port of
//! musl's). The platform's own `exp`/`ln` differ in the last bit between glibc, wasm and
//! others; these give the same bits everywhere, so every target ranks identically.

/// e^x.
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// The natural logarithm.
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// `x` held to `lo..=hi` (`lo ≤ hi`), NaN staying NaN, as `f64::clamp` does; without its
/// check of the bounds, whose panic message would bring the standard library's float
/// formatting into the WebAssembly.
pub fn clamp<T: PartialOrd>(x: T, lo: T, hi: T) -> T {
    if x < lo {
        lo
    } else if x > hi {
        hi
    } else {
        x
    }
}
