//! The wasmtime host of the engine component as a library: the component with its data
//! directory, clock and model endpoints. The `mnemo` binary is built on it, and so is
//! `mnemo-bench`, which measures the component as `mnemo` runs it.

#![warn(missing_docs)]

pub mod ahead;
pub mod datadir;
pub mod providers;
pub mod runtime;
pub mod workspace;

/// 64 bits that differ between runs (the id generator's seed when none is given).
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}
