//! Time and randomness come from the host: the engine never reads the wall clock or the OS RNG.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::Arc;

/// Milliseconds since the Unix epoch, UTC. Every timestamp in Mnemo has this unit.
pub type Millis = i64;

/// Milliseconds in one day.
pub const DAY_MS: i64 = 86_400_000;
/// Milliseconds in one minute.
pub const MINUTE_MS: i64 = 60_000;

/// Latest time Mnemo accepts: 9999-12-31T23:59:59.999Z (earliest: the epoch).
pub const MAX_MILLIS: Millis = 253_402_300_799_999;

/// Checks that a timestamp lies between the epoch and the year 9999.
pub fn check_time(field: &str, t: Millis) -> crate::Result<()> {
    if (0..=MAX_MILLIS).contains(&t) {
        Ok(())
    } else {
        Err(crate::Error::invalid(
            field,
            format!("{t} ms is outside 1970-01-01 … 9999-12-31"),
        ))
    }
}

/// A span of time a search keeps to: from `after` (inclusive) to `before` (exclusive), either
/// end open when not given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Window {
    /// Earliest time inside, when bounded.
    pub after: Option<Millis>,
    /// First time past the end, when bounded.
    pub before: Option<Millis>,
}

impl Window {
    /// Whether both ends are open (every time is inside).
    pub fn is_open(&self) -> bool {
        self.after.is_none() && self.before.is_none()
    }

    /// Whether `t` lies inside.
    pub fn contains(&self, t: Millis) -> bool {
        self.after.is_none_or(|a| t >= a) && self.before.is_none_or(|b| t < b)
    }
}

/// Earliest time a caller may give a record (a memory's `created_at`, `expires_at`):
/// 1973-03-03T09:46:40Z, 10^11 ms. A time in seconds since the epoch (1690000000 is July
/// 2023) reads as a day of January 1970 in milliseconds, so anything earlier is taken for
/// seconds and refused rather than stored in 1970; real dates from 1973 on pass. The host's
/// clock is not held to it (tests run engines at small fixed times).
pub const MIN_PLAUSIBLE_MS: Millis = 100_000_000_000;

/// Checks a time a caller gives a record: [`check_time`], and not before
/// [`MIN_PLAUSIBLE_MS`], which is what a time in seconds looks like.
pub fn check_record_time(field: &str, t: Millis) -> crate::Result<()> {
    check_time(field, t)?;
    if t < MIN_PLAUSIBLE_MS {
        return Err(crate::Error::invalid(
            field,
            format!(
                "{t} is before 1973-03-03 ({MIN_PLAUSIBLE_MS}): looks like seconds; times are \
                 milliseconds since the Unix epoch (multiply by 1000)"
            ),
        ));
    }
    Ok(())
}

/// The host's notion of "now".
pub trait Clock {
    /// Current time in milliseconds since the Unix epoch.
    fn now(&self) -> Millis;
}

/// A clock the host (or a test) sets by hand. Clones share the same time.
#[derive(Debug, Clone, Default)]
pub struct ManualClock(Arc<AtomicI64>);

impl ManualClock {
    /// A clock reading `now`.
    pub fn new(now: Millis) -> Self {
        ManualClock(Arc::new(AtomicI64::new(now)))
    }
    /// Set the time.
    pub fn set(&self, now: Millis) {
        self.0.store(now, Ordering::SeqCst)
    }
    /// Move the time forward (or back, with a negative delta).
    pub fn advance(&self, delta: Millis) {
        self.0.fetch_add(delta, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Millis {
        self.0.load(Ordering::SeqCst)
    }
}

/// The host's source of randomness (used for memory ids).
pub trait Entropy {
    /// Next 64 random bits.
    fn next_u64(&self) -> u64;
}

/// Deterministic SplitMix64 generator: the same seed gives the same ids on every target.
#[derive(Debug, Clone, Default)]
pub struct SeededEntropy(Arc<AtomicU64>);

impl SeededEntropy {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        SeededEntropy(Arc::new(AtomicU64::new(seed)))
    }
}

impl Entropy for SeededEntropy {
    fn next_u64(&self) -> u64 {
        // SplitMix64 (Steele, Lea, Flood 2014).
        let mut z = self
            .0
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::SeqCst)
            .wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
