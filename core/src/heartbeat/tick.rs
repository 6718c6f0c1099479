//! The adaptive tick: when the host should run the next check. Multipliers stack:
//! the time period's; acted < 5 min ago ×2, < 15 min ×1.5; no signals ×3, 4+ signals ×0.8;
//! 5+ new memories since the last act ×0.7.

use serde::{Deserialize, Serialize};

use super::period::TimePeriod;
use crate::clock::{Millis, MINUTE_MS};

/// Memories since the last act that count as a busy owner.
pub const BUSY_VELOCITY: usize = 5;

/// Bounds and base of the tick, in ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct TickConfig {
    /// Interval before multipliers (5 min).
    pub base_ms: Millis,
    /// Never sooner than this (1 min).
    pub min_ms: Millis,
    /// Never later than this (quiet hours ×10 would otherwise give 50 min and more).
    pub max_ms: Millis,
}

impl Default for TickConfig {
    fn default() -> Self {
        TickConfig {
            base_ms: 5 * MINUTE_MS,
            min_ms: MINUTE_MS,
            max_ms: 60 * MINUTE_MS,
        }
    }
}

/// What the next interval depends on.
#[derive(Debug, Clone, Copy)]
pub struct TickInput {
    pub period: TimePeriod,
    /// Time since the last act (this check's own act counts as 0).
    pub since_act: Option<Millis>,
    /// Signals this check found (after filtering).
    pub signals: usize,
    /// Memories written since the last act.
    pub velocity: usize,
}

/// The interval until the next check, in ms.
pub fn next_interval(cfg: &TickConfig, t: TickInput) -> Millis {
    let mut m = t.period.multiplier();
    match t.since_act {
        Some(d) if d < 5 * MINUTE_MS => m *= 2.0,
        Some(d) if d < 15 * MINUTE_MS => m *= 1.5,
        _ => {}
    }
    if t.signals == 0 {
        m *= 3.0;
    } else if t.signals >= 4 {
        m *= 0.8;
    }
    if t.velocity >= BUSY_VELOCITY {
        m *= 0.7;
    }
    ((cfg.base_ms as f64 * m).round() as Millis).clamp(cfg.min_ms, cfg.max_ms.max(cfg.min_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tick(
        period: TimePeriod,
        since_act: Option<Millis>,
        signals: usize,
        velocity: usize,
    ) -> Millis {
        next_interval(
            &TickConfig::default(),
            TickInput {
                period,
                since_act,
                signals,
                velocity,
            },
        )
    }

    #[test]
    fn every_multiplier_applies() {
        let base = 5 * MINUTE_MS;
        let w = TimePeriod::Working;
        assert_eq!(tick(w, None, 1, 0), base);
        assert_eq!(tick(TimePeriod::Morning, None, 1, 0), base / 2);
        assert_eq!(tick(TimePeriod::Evening, None, 1, 0), base * 3 / 2);
        assert_eq!(tick(TimePeriod::LateNight, None, 1, 0), base * 3);
        assert_eq!(tick(TimePeriod::Quiet, None, 1, 0), base * 10);
        assert_eq!(tick(w, Some(0), 1, 0), base * 2, "acted just now");
        assert_eq!(tick(w, Some(10 * MINUTE_MS), 1, 0), base * 3 / 2);
        assert_eq!(tick(w, Some(15 * MINUTE_MS), 1, 0), base);
        assert_eq!(tick(w, None, 0, 0), base * 3, "nothing to say");
        assert_eq!(tick(w, None, 4, 0), base * 4 / 5);
        assert_eq!(tick(w, None, 1, 5), base * 7 / 10, "busy owner");
        assert_eq!(
            tick(w, None, 4, 5),
            (base as f64 * 0.8 * 0.7).round() as Millis
        );
    }

    #[test]
    fn the_interval_stays_in_bounds() {
        assert_eq!(tick(TimePeriod::Quiet, Some(0), 0, 0), 60 * MINUTE_MS);
        assert_eq!(
            tick(TimePeriod::Morning, None, 9, 9),
            (5.0 * 0.5 * 0.8 * 0.7 * MINUTE_MS as f64).round() as Millis
        );
        let tight = TickConfig {
            base_ms: MINUTE_MS,
            ..Default::default()
        };
        let t = TickInput {
            period: TimePeriod::Morning,
            since_act: None,
            signals: 5,
            velocity: 9,
        };
        assert_eq!(next_interval(&tight, t), MINUTE_MS);
    }
}
