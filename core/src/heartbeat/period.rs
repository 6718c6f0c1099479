//! Time of day: the owner's local hour puts a check in a period; each period lets
//! only signals of some urgency through and stretches cooldowns and the tick by its factor.
//! Quiet hours are the host's to set; outside them the small hours count as late night.

use serde::{Deserialize, Serialize};

use super::Urgency;
use crate::error::{Error, Result};
use crate::model::string_enum;

string_enum! {
    /// Part of the owner's day.
    TimePeriod, "time period" {
        /// 07–10: everything may surface; cooldowns ×0.5.
        Morning = "morning",
        /// 10–17: everything may surface; cooldowns ×1.
        Working = "working",
        /// 17–21: normal urgency and up; cooldowns ×1.5.
        Evening = "evening",
        /// 21–23 (and the small hours when quiet hours are off): elevated and up; ×3.
        LateNight = "late_night",
        /// Quiet hours (default 23–07): immediate only; ×10.
        Quiet = "quiet",
    }
}

/// First hour of the morning, working and evening periods and of late night.
const MORNING_FROM: u32 = 7;
const WORKING_FROM: u32 = 10;
const EVENING_FROM: u32 = 17;
const LATE_NIGHT_FROM: u32 = 21;

impl TimePeriod {
    /// The period of local hour `hour` (0–23).
    pub fn of_hour(hour: u32, quiet: &QuietHours) -> TimePeriod {
        if quiet.contains(hour) {
            TimePeriod::Quiet
        } else if (MORNING_FROM..WORKING_FROM).contains(&hour) {
            TimePeriod::Morning
        } else if (WORKING_FROM..EVENING_FROM).contains(&hour) {
            TimePeriod::Working
        } else if (EVENING_FROM..LATE_NIGHT_FROM).contains(&hour) {
            TimePeriod::Evening
        } else {
            TimePeriod::LateNight
        }
    }

    /// Factor on cooldowns and on the tick interval (0.5, 1, 1.5, 3, 10).
    pub fn multiplier(self) -> f64 {
        match self {
            TimePeriod::Morning => 0.5,
            TimePeriod::Working => 1.0,
            TimePeriod::Evening => 1.5,
            TimePeriod::LateNight => 3.0,
            TimePeriod::Quiet => 10.0,
        }
    }

    /// The least urgent signal that may surface in this period.
    pub fn min_tier(self) -> Urgency {
        match self {
            TimePeriod::Morning | TimePeriod::Working => Urgency::Low,
            TimePeriod::Evening => Urgency::Normal,
            TimePeriod::LateNight => Urgency::Elevated,
            TimePeriod::Quiet => Urgency::Immediate,
        }
    }

    /// Whether a nudge (speaking up with nothing pressing) is polite now.
    pub fn allows_nudge(self) -> bool {
        matches!(self, TimePeriod::Morning | TimePeriod::Working)
    }
}

/// The owner's quiet hours: local hours `start` up to (not including) `end`, wrapping past
/// midnight when `start > end`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct QuietHours {
    /// Whether quiet hours apply.
    pub enabled: bool,
    /// The local hour they begin, 0 to 23.
    #[schemars(range(max = 23))]
    pub start: u32,
    /// The local hour they end (exclusive), 0 to 23; before `start` they run past midnight.
    #[schemars(range(max = 23))]
    pub end: u32,
}

impl Default for QuietHours {
    fn default() -> Self {
        QuietHours {
            enabled: true,
            start: 23,
            end: 7,
        }
    }
}

impl QuietHours {
    /// Whether local hour `hour` is quiet.
    pub fn contains(&self, hour: u32) -> bool {
        if !self.enabled || self.start == self.end {
            return false;
        }
        if self.start < self.end {
            (self.start..self.end).contains(&hour)
        } else {
            hour >= self.start || hour < self.end
        }
    }

    /// Checks both hours are 0–23.
    pub fn validate(&self, field: &str) -> Result<()> {
        for (name, h) in [("start", self.start), ("end", self.end)] {
            if h > 23 {
                return Err(Error::invalid(
                    format!("{field}.{name}"),
                    format!("{h} is not an hour of the day (0–23)"),
                ));
            }
        }
        Ok(())
    }
}

/// Most a UTC offset may be, in minutes (UTC−14 … UTC+14 covers every zone in use).
pub const MAX_UTC_OFFSET_MINUTES: i32 = 14 * 60;

/// Checks a UTC offset in minutes.
pub fn check_offset(field: &str, minutes: i32) -> Result<()> {
    if minutes.abs() > MAX_UTC_OFFSET_MINUTES {
        return Err(Error::invalid(
            field,
            format!("{minutes} minutes is not a UTC offset (−840 … 840)"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_hour_falls_in_its_period() {
        let q = QuietHours::default();
        let expect = |h: u32| match h {
            7..=9 => TimePeriod::Morning,
            10..=16 => TimePeriod::Working,
            17..=20 => TimePeriod::Evening,
            21 | 22 => TimePeriod::LateNight,
            _ => TimePeriod::Quiet,
        };
        for h in 0..24 {
            assert_eq!(TimePeriod::of_hour(h, &q), expect(h), "hour {h}");
        }
    }

    #[test]
    fn quiet_hours_are_configurable_and_can_be_off() {
        let off = QuietHours {
            enabled: false,
            ..Default::default()
        };
        assert_eq!(TimePeriod::of_hour(2, &off), TimePeriod::LateNight);
        assert_eq!(TimePeriod::of_hour(23, &off), TimePeriod::LateNight);
        let day = QuietHours {
            enabled: true,
            start: 13,
            end: 15,
        };
        assert_eq!(TimePeriod::of_hour(13, &day), TimePeriod::Quiet);
        assert_eq!(TimePeriod::of_hour(14, &day), TimePeriod::Quiet);
        assert_eq!(TimePeriod::of_hour(15, &day), TimePeriod::Working);
        assert_eq!(TimePeriod::of_hour(23, &day), TimePeriod::LateNight);
        assert!(QuietHours {
            enabled: true,
            start: 24,
            end: 7
        }
        .validate("q")
        .is_err());
    }

    #[test]
    fn offsets_are_bounded() {
        assert!(check_offset("o", 841).is_err());
        assert!(check_offset("o", -840).is_ok());
    }
}
