//! Importance from nine factors (engram): what a memory was given when written, and what its
//! use since says — how often, how lately, how steadily, how it feels, which layer holds it,
//! how far its source is trusted, how often it was confirmed, and its ACT-R base-level
//! activation. Computed from the stored row and the clock alone (no model call), each factor
//! from 0 to 1, weighed by [`WEIGHTS`] (which sum to 1).
//!
//! engram's own formula leaves ACT-R out although it names it, and caps several factors
//! (valence at 0.3, layers at 0.3, confirmations at 0.2), so its composite cannot pass 0.76;
//! here every factor spans 0–1 and the weights say each one's share. Its stability
//! (`accesses / (days between first and last use + 1)`) is highest for a burst; here it is
//! highest for use spread over weeks.

use serde::{Deserialize, Serialize};

use crate::clock::{Millis, DAY_MS, MINUTE_MS};
use crate::math;
use crate::model::{Layer, Memory};

/// The nine factors of a memory's importance, each from 0 to 1 — or, as [`WEIGHTS`], the
/// share each has of the whole.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Factors {
    /// The importance the memory was written with: its type's base, emphasis, feelings,
    /// names and deadlines, less for hedging, moved by surprise (how unlike its neighbours
    /// it was).
    pub base: f64,
    /// How often it was used (returned by a search, read, reinforced), on a log scale:
    /// ln(1 + uses) / ln(21), full at 20 uses.
    pub frequency: f64,
    /// How lately it was used (or made): halves every 30 days for a user's own words, faster
    /// for less trusted sources (30 / (1 + 2·(1 − trust)) days).
    pub recency: f64,
    /// How strongly it feels, either way: |sentiment|.
    pub valence: f64,
    /// Steady use rather than a burst: (1 − e^(−span/7 days)) × min(1, uses / 3), the span
    /// running from when it was made to its last use.
    pub stability: f64,
    /// Its layer: working 0, episodic 1/3, procedural 2/3, semantic 1 (engram's boosts 0,
    /// 0.1, 0.2, 0.3, scaled to 1).
    pub layer: f64,
    /// The trust of its source (user 1, agent 0.7, conversation 0.6, import 0.5).
    pub trust: f64,
    /// Independent confirmations (the same thing said in another session or by another
    /// source): ln(1 + confirmations) / ln(5), full at 4.
    pub confirmations: f64,
    /// ACT-R base-level activation B = ln(Σ tⱼ^−0.5) over its making and its uses (t in
    /// days, the uses between the first and the last spread evenly), as 1 / (1 + e^−B): one
    /// mention a day ago is 0.5, a month ago 0.15.
    pub activation: f64,
}

/// Each factor's share of importance. The base weighs most (what was said matters more than
/// how it was used); frequency and recency next (engram's 0.12 each); the rest are
/// "moderate" in the design.
pub const WEIGHTS: Factors = Factors {
    base: 0.25,
    frequency: 0.12,
    recency: 0.12,
    valence: 0.06,
    stability: 0.08,
    layer: 0.10,
    trust: 0.10,
    confirmations: 0.07,
    activation: 0.10,
};

/// Uses at which `frequency` is full.
const FREQUENCY_FULL: f64 = 20.0;
/// Recency's half-life for a source of full trust, in days.
const RECENCY_HALF_LIFE_DAYS: f64 = 30.0;
/// The span of use at which `stability` reaches 1 − 1/e, in days.
const STABILITY_SPAN_DAYS: f64 = 7.0;
/// Uses at which `stability` stops growing with their number.
const STABILITY_USES: f64 = 3.0;
/// Confirmations at which `confirmations` is full.
const CONFIRMATIONS_FULL: f64 = 4.0;
/// ACT-R's decay exponent d (Anderson's default).
const ACTIVATION_DECAY: f64 = 0.5;
/// The shortest time since a use ACT-R counts: a use a moment ago counts as a minute ago.
const ACTIVATION_MIN_DAYS: f64 = MINUTE_MS as f64 / DAY_MS as f64;
/// engram's layer boosts, and their largest (semantic), by which they are scaled to 0–1.
const LAYER_BOOST_MAX: f64 = 0.3;

/// How much faster a less trusted source fades: the seed's "auto-extracted: 3× faster"
/// (1 at trust 1, 1/3 at trust 0). Shared with trust-weighted retention.
pub fn trust_scale(trust: f64) -> f64 {
    1.0 / (1.0 + 2.0 * (1.0 - math::clamp(trust, 0.0, 1.0)))
}

impl Factors {
    /// The factors of `m` at `now`.
    pub fn of(m: &Memory, now: Millis) -> Factors {
        let days = |ms: Millis| (ms.max(0)) as f64 / DAY_MS as f64;
        let uses = m.access_count.max(0) as f64;
        let idle = days(now - m.last_touch());
        let span = days(m.last_touch() - m.created_at);
        let age = days(now - m.created_at);
        let half_life = RECENCY_HALF_LIFE_DAYS * trust_scale(m.trust);
        Factors {
            base: math::clamp(m.importance, 0.0, 1.0),
            frequency: (math::ln(1.0 + uses) / math::ln(1.0 + FREQUENCY_FULL)).min(1.0),
            recency: math::exp(-std::f64::consts::LN_2 * idle / half_life),
            valence: math::clamp(m.sentiment.abs(), 0.0, 1.0),
            stability: (1.0 - math::exp(-span / STABILITY_SPAN_DAYS))
                * (uses / STABILITY_USES).min(1.0),
            layer: layer_boost(m.layer) / LAYER_BOOST_MAX,
            trust: math::clamp(m.trust, 0.0, 1.0),
            confirmations: (math::ln(1.0 + m.confirmations.max(0) as f64)
                / math::ln(1.0 + CONFIRMATIONS_FULL))
            .min(1.0),
            activation: logistic(activation(uses + 1.0, age, idle)),
        }
    }

    /// The weighed sum: the memory's importance, 0 to 1.
    pub fn weighed(&self) -> f64 {
        let w = WEIGHTS;
        math::clamp(
            w.base * self.base
                + w.frequency * self.frequency
                + w.recency * self.recency
                + w.valence * self.valence
                + w.stability * self.stability
                + w.layer * self.layer
                + w.trust * self.trust
                + w.confirmations * self.confirmations
                + w.activation * self.activation,
            0.0,
            1.0,
        )
    }
}

/// The importance of `m` at `now`: its [`Factors`], weighed.
pub fn of(m: &Memory, now: Millis) -> f64 {
    Factors::of(m, now).weighed()
}

/// Sorts `rows` by their memory's importance at `now`, the most important first; among
/// equals the latest updated, then the latest made.
pub fn most_first<T>(rows: &mut Vec<T>, now: Millis, memory: impl Fn(&T) -> &Memory) {
    let mut keyed: Vec<(f64, T)> = rows.drain(..).map(|r| (of(memory(&r), now), r)).collect();
    crate::order::sort_by(&mut keyed, |(a, x), (b, y)| {
        let (x, y) = (memory(x), memory(y));
        b.total_cmp(a)
            .then(y.updated_at.cmp(&x.updated_at))
            .then(y.created_at.cmp(&x.created_at))
    });
    rows.extend(keyed.into_iter().map(|(_, r)| r));
}

/// engram's layer boosts.
fn layer_boost(layer: Layer) -> f64 {
    match layer {
        Layer::Working => 0.0,
        Layer::Episodic => 0.1,
        Layer::Procedural | Layer::Codebase => 0.2,
        Layer::Semantic => 0.3,
    }
}

/// ACT-R base-level activation of `n` presentations over a lifetime of `age` days, the last
/// `idle` days ago: the last counted exactly, the others spread evenly over the rest of the
/// lifetime (Petrov's approximation), B = ln(t_last^−d + (n−1)·(L^(1−d) − t_last^(1−d)) /
/// ((1−d)·(L − t_last))).
fn activation(n: f64, age: f64, idle: f64) -> f64 {
    let d = ACTIVATION_DECAY;
    let pow = |t: f64, e: f64| math::exp(e * math::ln(t));
    let last = idle.max(ACTIVATION_MIN_DAYS);
    let life = age.max(last);
    let rest = if n <= 1.0 {
        0.0
    } else if life - last < ACTIVATION_MIN_DAYS {
        // Every use at once: each as old as the last.
        (n - 1.0) * pow(last, -d)
    } else {
        (n - 1.0) * (pow(life, 1.0 - d) - pow(last, 1.0 - d)) / ((1.0 - d) * (life - last))
    };
    math::ln(pow(last, -d) + rest)
}

/// 1 / (1 + e^−x).
fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + math::exp(-x))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory() -> Memory {
        crate::decay::tests::memory(crate::model::MemoryType::Event, 0)
    }

    #[test]
    fn weights_sum_to_one() {
        let w = WEIGHTS;
        let sum = w.base
            + w.frequency
            + w.recency
            + w.valence
            + w.stability
            + w.layer
            + w.trust
            + w.confirmations
            + w.activation;
        assert!((sum - 1.0).abs() < 1e-12, "{sum}");
    }

    #[test]
    fn activation_at_its_landmarks() {
        let one = |days: f64| logistic(activation(1.0, days, days));
        assert!((one(1.0) - 0.5).abs() < 1e-12);
        assert!((one(30.0) - 0.1543).abs() < 1e-3, "{}", one(30.0));
        // More uses, and later ones, raise it.
        assert!(logistic(activation(5.0, 30.0, 1.0)) > logistic(activation(2.0, 30.0, 1.0)));
        assert!(logistic(activation(5.0, 30.0, 1.0)) > logistic(activation(5.0, 30.0, 20.0)));
        // A burst at once is the limit of a spread as it narrows.
        let burst = activation(5.0, 2.0, 2.0);
        let near = activation(5.0, 2.0 + 1e-6, 2.0);
        assert!((burst - near).abs() < 1e-3, "{burst} {near}");
    }

    #[test]
    fn steady_use_outweighs_a_burst() {
        let now = 60 * DAY_MS;
        let mut steady = memory();
        steady.access_count = 5;
        steady.last_accessed_at = Some(now - DAY_MS);
        let mut burst = steady.clone();
        burst.created_at = now - DAY_MS - 10 * MINUTE_MS;
        let (s, b) = (Factors::of(&steady, now), Factors::of(&burst, now));
        assert!(s.stability > 0.99, "{s:?}");
        assert!(b.stability < 0.01, "{b:?}");
    }

    #[test]
    fn each_factor_moves_the_whole() {
        let now = 90 * DAY_MS;
        let plain = memory();
        let base = of(&plain, now);
        type Raise = (&'static str, fn(&mut Memory));
        let raised: [Raise; 6] = [
            ("used", |m| m.access_count = 10),
            ("feeling", |m| m.sentiment = -0.9),
            ("semantic", |m| m.layer = Layer::Semantic),
            ("confirmed", |m| m.confirmations = 2),
            ("important", |m| m.importance = 0.9),
            ("recent", |m| {
                m.last_accessed_at = Some(90 * DAY_MS - DAY_MS)
            }),
        ];
        for (what, raise) in raised {
            let mut m = plain.clone();
            raise(&mut m);
            assert!(of(&m, now) > base, "{what}");
        }
        let mut imported = plain.clone();
        imported.trust = 0.5;
        assert!(of(&imported, now) < base);
        // Bounds hold for anything stored.
        let mut extreme = plain.clone();
        extreme.access_count = i64::MAX;
        extreme.confirmations = i64::MAX;
        extreme.sentiment = f64::MAX;
        extreme.importance = 7.0;
        extreme.layer = Layer::Semantic;
        extreme.last_accessed_at = Some(now);
        let v = of(&extreme, now);
        assert!((0.0..=1.0).contains(&v), "{v}");
    }

    #[test]
    fn trust_scale_is_the_seeds() {
        assert_eq!(trust_scale(1.0), 1.0);
        assert!((trust_scale(0.0) - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(trust_scale(-4.0), trust_scale(0.0));
    }
}
