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
