//! How often an agent may speak up: autonomy levels with their confluence thresholds,
//! cooldowns and nudges, and how an owner's response rate
//! stretches them.

use super::Urgency;
use crate::clock::{Millis, MINUTE_MS};
use crate::model::string_enum;

const HOUR_MS: Millis = 60 * MINUTE_MS;

string_enum! {
    /// How the agent uses what the heartbeat finds. The engine decides whether to speak up;
    /// the level decides how, and how often.
    Autonomy, "autonomy" {
        /// Signals collected, not delivered: learn the owner's patterns first.
        Observe = "observe",
        /// Signals offered as suggestions; the owner decides.
        Suggest = "suggest",
        /// The agent acts on its own.
        Act = "act",
    }
}

impl Autonomy {
    /// Confluence score weak signals need to reach together (act 8, suggest 12,
    /// observe 20).
    pub fn threshold(self) -> u32 {
        match self {
            Autonomy::Act => 8,
            Autonomy::Suggest => 12,
            Autonomy::Observe => 20,
        }
    }

    /// Least time between two acts at a given urgency (observe 4h/2h/8h, suggest
    /// 2h/30m/4h, act 10m/5m/30m for normal/elevated/low). Immediate signals use the
    /// elevated one.
    pub fn cooldown(self, tier: Urgency) -> Millis {
        let (normal, elevated, low) = match self {
            Autonomy::Observe => (4 * HOUR_MS, 2 * HOUR_MS, 8 * HOUR_MS),
            Autonomy::Suggest => (2 * HOUR_MS, 30 * MINUTE_MS, 4 * HOUR_MS),
            Autonomy::Act => (10 * MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS),
        };
        match tier {
            Urgency::Immediate | Urgency::Elevated => elevated,
            Urgency::Normal => normal,
            Urgency::Low => low,
        }
    }

    /// Silence after which the agent may nudge, and at most how many nudges a day (
    /// suggest 4 h / 3, act 2 h / 8, observe never).
    pub fn nudge(self) -> Option<NudgePolicy> {
        match self {
            Autonomy::Observe => None,
            Autonomy::Suggest => Some(NudgePolicy {
                after: 4 * HOUR_MS,
                per_day: 3,
                max_interval: 24 * HOUR_MS,
            }),
            Autonomy::Act => Some(NudgePolicy {
                after: 2 * HOUR_MS,
                per_day: 8,
                max_interval: 48 * HOUR_MS,
            }),
        }
    }
}

/// When nudges after silence may come.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NudgePolicy {
    /// Silence before the first nudge of a day.
    pub after: Millis,
    /// Nudges per local day.
    pub per_day: u32,
    /// The doubling backoff between nudges stops growing here.
    pub max_interval: Millis,
}

impl NudgePolicy {
    /// Least time since the last nudge before the next, when `today` nudges came already:
    /// `after` doubled per nudge that day, capped, stretched by the response-rate factor.
    pub fn backoff(&self, today: u32, response_factor: f64) -> Millis {
        let doubled = self.after.saturating_mul(1 << today.min(20));
        (doubled.min(self.max_interval) as f64 * response_factor) as Millis
    }
}

/// Below this response rate cooldowns are ×10, below the next ×3.
const IGNORED_RATE: f64 = 0.1;
const LOW_RATE: f64 = 0.3;

/// Factor on cooldowns for an owner who answers this share of the agent's acts.
pub fn response_factor(rate: f64) -> f64 {
    if rate < IGNORED_RATE {
        10.0
    } else if rate < LOW_RATE {
        3.0
    } else {
        1.0
    }
}

/// Weight of a signal in the confluence score (immediate 10, elevated 5, normal 3,
/// low 1).
pub fn weight(tier: Urgency) -> u32 {
    match tier {
        Urgency::Immediate => 10,
        Urgency::Elevated => 5,
        Urgency::Normal => 3,
        Urgency::Low => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cooldowns_per_autonomy_and_urgency() {
        use Urgency::*;
        let h = |x: f64| (x * HOUR_MS as f64) as Millis;
        let table = [
            (Autonomy::Observe, [h(4.0), h(2.0), h(8.0)]),
            (Autonomy::Suggest, [h(2.0), h(0.5), h(4.0)]),
            (
                Autonomy::Act,
                [10 * MINUTE_MS, 5 * MINUTE_MS, 30 * MINUTE_MS],
            ),
        ];
        for (level, [normal, elevated, low]) in table {
            assert_eq!(level.cooldown(Normal), normal, "{level}");
            assert_eq!(level.cooldown(Elevated), elevated, "{level}");
            assert_eq!(level.cooldown(Immediate), elevated, "{level}");
            assert_eq!(level.cooldown(Low), low, "{level}");
        }
        assert_eq!(
            [Autonomy::Act, Autonomy::Suggest, Autonomy::Observe].map(Autonomy::threshold),
            [8, 12, 20]
        );
    }

    #[test]
    fn response_rate_curve() {
        for (rate, factor) in [
            (0.0, 10.0),
            (0.05, 10.0),
            (0.099, 10.0),
            (0.1, 3.0),
            (0.29, 3.0),
            (0.3, 1.0),
            (1.0, 1.0),
        ] {
            assert_eq!(response_factor(rate), factor, "rate {rate}");
        }
    }

    #[test]
    fn nudges_back_off_doubling_up_to_the_cap() {
        let p = Autonomy::Suggest.nudge().expect("suggest nudges");
        assert_eq!(p.backoff(0, 1.0), 4 * HOUR_MS);
        assert_eq!(p.backoff(1, 1.0), 8 * HOUR_MS);
        assert_eq!(p.backoff(2, 1.0), 16 * HOUR_MS);
        assert_eq!(p.backoff(3, 1.0), 24 * HOUR_MS, "capped");
        assert_eq!(p.backoff(0, 3.0), 12 * HOUR_MS);
        assert!(Autonomy::Observe.nudge().is_none());
        assert_eq!(
            Autonomy::Act.nudge().map(|p| (p.after, p.per_day)),
            Some((2 * HOUR_MS, 8))
        );
    }
}
