//! The moment a sentence names, in UTC: the span of time it names, read by [`period`] as a plan
//! says it ("tomorrow", "next Friday", "by the end of the month", "in two weeks", "before
//! Christmas"), with the time of day it says ("at 3", "9am", "in the evening") or a count of
//! minutes or hours ahead ("in 3 hours"). A span without a time of day means the end of its
//! last day: a deadline "by Friday" lasts all Friday.

use time::{Date, PrimitiveDateTime, Time};

use crate::calendar::{self, day_of, shift};
use crate::clock::{Millis, DAY_MS, MAX_MILLIS, MINUTE_MS};
use crate::period;

/// A moment a sentence names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct When {
    pub at: Millis,
    /// Said as past ("yesterday", "last week", "two days ago", "in 2019"): a span over before
    /// the day it was said.
    pub past: bool,
}

/// Words that name the sentence's time of day, as hour and minute.
const DAY_PARTS: &[(&str, u8, u8)] = &[
    ("noon", 12, 0),
    ("midday", 12, 0),
    ("midnight", 23, 59),
    ("morning", 12, 0),
    ("afternoon", 17, 0),
    ("evening", 21, 0),
    ("tonight", 23, 59),
];

/// A count said in words or digits ("two", "a couple of", "3").
fn count(words: &[&str], i: usize) -> Option<(i64, usize)> {
    let w = *words.get(i)?;
    if let Some(n) = calendar::number(w).filter(|_| !w.starts_with(|c: char| c.is_ascii_digit())) {
        return Some((n, 1));
    }
    match (w, words.get(i + 1).copied(), words.get(i + 2).copied()) {
        ("a" | "an", Some("couple"), Some("of")) => Some((2, 3)),
        ("a", Some("few"), _) => Some((3, 2)),
        ("a" | "an", _, _) => Some((1, 1)),
        ("couple", Some("of"), _) => Some((2, 2)),
        ("few", _, _) => Some((3, 1)),
        _ => calendar::number(w).map(|n| (n, 1)),
    }
}

/// A clock time: "3pm", "3:30", "15:30", "9am", or a bare hour after "at" (1–7 → afternoon).
fn clock_time(words: &[&str], i: usize) -> Option<(u8, u8, usize)> {
    let w = *words.get(i)?;
    let (body, mut suffix) = match w.strip_suffix("am").or_else(|| w.strip_suffix("a.m")) {
        Some(b) => (b, Some(false)),
        None => match w.strip_suffix("pm").or_else(|| w.strip_suffix("p.m")) {
            Some(b) => (b, Some(true)),
            None => (w, None),
        },
    };
    let mut used = 1;
    if suffix.is_none() {
        match words.get(i + 1).copied() {
            Some("am" | "a.m") => (suffix, used) = (Some(false), 2),
            Some("pm" | "p.m") => (suffix, used) = (Some(true), 2),
            _ => {}
        }
    }
    let (h, m) = match body.split_once(':') {
        Some((h, m)) => (h.parse::<u8>().ok()?, m.parse::<u8>().ok()?),
        None => (body.parse::<u8>().ok()?, 0),
    };
    if m > 59 {
        return None;
    }
    let after_at = i > 0 && matches!(words[i - 1], "at" | "@" | "around" | "by");
    let h = match suffix {
        Some(pm) if (1..=12).contains(&h) => (h % 12) + if pm { 12 } else { 0 },
        Some(_) => return None,
        None if body.contains(':') && h <= 23 => h,
        None if after_at && (1..=7).contains(&h) => h + 12,
        None if after_at && (8..=12).contains(&h) => h,
        None => return None,
    };
    Some((h, m, used))
}

/// "in 3 hours", "within 20 minutes" at word `i` ("in"): that moment after `now`, no later
/// than the calendar's last.
fn minutes_ahead(words: &[&str], i: usize, now: Millis) -> Option<Millis> {
    let (n, used) = count(words, i + 1)?;
    let unit = *words.get(i + 1 + used)?;
    let per = match unit.strip_suffix('s').unwrap_or(unit) {
        "minute" | "min" => MINUTE_MS,
        "hour" | "hr" => 60 * MINUTE_MS,
        _ => return None,
    };
    Some(now.saturating_add(n.saturating_mul(per)).min(MAX_MILLIS))
}

fn millis(t: PrimitiveDateTime) -> Millis {
    (t.assume_utc().unix_timestamp_nanos() / 1_000_000) as Millis
}

/// The moment `text` names, said at `now`: the first span it names ([`period::planned`]) at
/// the time of day it says, or a count of minutes or hours ahead. `words` are its lower-case
/// tokens, each punctuation mark `|`.
pub fn resolve(text: &str, words: &[&str], now: Millis) -> Option<When> {
    let today = day_of(now)?;
    let midnight = now - now.rem_euclid(DAY_MS);
    let mut said = Said {
        // The span's last day, and whether it was over before today.
        date: period::planned(text, now)
            .and_then(|n| n.window.before)
            .and_then(|before| Some((day_of(before - 1)?, before <= midnight))),
        ..Said::default()
    };
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if said.exact.is_none() && matches!(w, "in" | "within") {
            said.exact = minutes_ahead(words, i, now);
        }
        if said.time_of_day.is_none() {
            if let Some((h, m, used)) = clock_time(words, i) {
                said.time_of_day = Some((h, m));
                i += used;
                continue;
            }
            if let Some(&(_, h, m)) = DAY_PARTS.iter().find(|p| p.0 == w) {
                said.time_of_day = Some((h, m));
            }
        }
        i += 1;
    }
    said.when(today, now)
}

/// What the words say: a day (and whether it is past), an exact moment, a time of day.
#[derive(Default)]
struct Said {
    date: Option<(Date, bool)>,
    exact: Option<Millis>,
    time_of_day: Option<(u8, u8)>,
}

impl Said {
    /// The moment said: the exact one, else the day at the time of day said (the day's end
    /// when none is), or a time alone today (tomorrow once it has passed).
    fn when(self, today: Date, now: Millis) -> Option<When> {
        if let Some(t) = self.exact {
            return Some(When { at: t, past: false });
        }
        let end_of = |d: Date| millis(PrimitiveDateTime::new(d, Time::MIDNIGHT)) + DAY_MS - 1;
        let (h, m) = match self.time_of_day {
            Some(t) => t,
            None => {
                let (d, past) = self.date?;
                return Some(When {
                    at: end_of(d),
                    past,
                });
            }
        };
        let time = Time::from_hms(h, m, 0).ok()?;
        let (d, past) = match self.date {
            Some(d) => d,
            // A time alone: today, or tomorrow once it has passed.
            None => {
                let t = PrimitiveDateTime::new(today, time);
                if millis(t) >= now {
                    (today, false)
                } else {
                    (shift(today, 1), false)
                }
            }
        };
        let at = if (h, m) == (23, 59) {
            end_of(d)
        } else {
            millis(PrimitiveDateTime::new(d, time))
        };
        Some(When { at, past })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::OffsetDateTime;

    /// Wednesday 2026-11-18 10:00 UTC.
    const NOW: Millis = 1_794_996_000_000;

    fn at(text: &str) -> Option<String> {
        let tokens = super::super::words::tokens(text);
        let words: Vec<&str> = tokens
            .iter()
            .map(|t| if t.punct { "|" } else { t.lower.as_str() })
            .collect();
        resolve(text, &words, NOW).map(|w| {
            let t =
                OffsetDateTime::from_unix_timestamp_nanos(i128::from(w.at) * 1_000_000).unwrap();
            format!(
                "{}-{:02}-{:02} {:02}:{:02}{}",
                t.year(),
                t.month() as u8,
                t.day(),
                t.hour(),
                t.minute(),
                if w.past { " past" } else { "" }
            )
        })
    }

    #[test]
    fn the_clock_under_test_is_a_wednesday_morning() {
        assert_eq!(at("today").as_deref(), Some("2026-11-18 23:59"));
    }

    #[test]
    fn relative_days_and_weekdays() {
        assert_eq!(
            at("dentist tomorrow at 3").as_deref(),
            Some("2026-11-19 15:00")
        );
        assert_eq!(
            at("the day after tomorrow").as_deref(),
            Some("2026-11-20 23:59")
        );
        assert_eq!(
            at("renew my passport by Friday").as_deref(),
            Some("2026-11-20 23:59")
        );
        assert_eq!(at("next Friday").as_deref(), Some("2026-11-20 23:59"));
        assert_eq!(at("on Wednesday").as_deref(), Some("2026-11-18 23:59"));
        assert_eq!(
            at("next wednesday at 9am").as_deref(),
            Some("2026-11-25 09:00")
        );
        assert_eq!(
            at("call mom on Monday evening").as_deref(),
            Some("2026-11-23 21:00")
        );
        assert_eq!(at("last Friday").as_deref(), Some("2026-11-13 23:59 past"));
        assert_eq!(at("yesterday").as_deref(), Some("2026-11-17 23:59 past"));
    }

    #[test]
    fn spans_and_periods() {
        assert_eq!(at("in two weeks").as_deref(), Some("2026-12-02 23:59"));
        assert_eq!(
            at("in a couple of days").as_deref(),
            Some("2026-11-20 23:59")
        );
        assert_eq!(at("in 3 hours").as_deref(), Some("2026-11-18 13:00"));
        assert_eq!(
            at("by the end of the month").as_deref(),
            Some("2026-11-30 23:59")
        );
        assert_eq!(at("end of next month").as_deref(), Some("2026-12-31 23:59"));
        assert_eq!(at("next month").as_deref(), Some("2026-12-31 23:59"));
        assert_eq!(at("this weekend").as_deref(), Some("2026-11-22 23:59"));
        assert_eq!(at("next week").as_deref(), Some("2026-11-29 23:59"));
        assert_eq!(at("next year").as_deref(), Some("2027-12-31 23:59"));
        // As loosely as a question reads it (three days either side): the span's last day.
        assert_eq!(
            at("two weeks ago").as_deref(),
            Some("2026-11-07 23:59 past")
        );
        assert_eq!(at("in 2019").as_deref(), Some("2019-12-31 23:59 past"));
        assert_eq!(at("in March").as_deref(), Some("2027-03-31 23:59"));
    }

    #[test]
    fn calendar_dates() {
        assert_eq!(at("on March 3").as_deref(), Some("2027-03-03 23:59"));
        assert_eq!(
            at("December 1st, 2026 at 5pm").as_deref(),
            Some("2026-12-01 17:00")
        );
        assert_eq!(
            at("the 3rd of December").as_deref(),
            Some("2026-12-03 23:59")
        );
        assert_eq!(at("on the 25th").as_deref(), Some("2026-11-25 23:59"));
        assert_eq!(at("on the 2nd").as_deref(), Some("2026-12-02 23:59"));
        assert_eq!(at("due 2027-01-15").as_deref(), Some("2027-01-15 23:59"));
        assert_eq!(at("Feb 29 2028").as_deref(), Some("2028-02-29 23:59"));
        assert_eq!(at("Feb 30").as_deref(), None);
    }

    /// What the one calendar reader knows that a plan may say (read as the questions about
    /// it are, so that a plan and a question meet).
    #[test]
    fn plans_name_holidays_dates_and_weeks_as_questions_do() {
        assert_eq!(
            at("buy the presents before Christmas").as_deref(),
            Some("2026-12-23 23:59")
        );
        assert_eq!(at("by Christmas Eve").as_deref(), Some("2026-12-24 23:59"));
        assert_eq!(
            at("the review is the week after next").as_deref(),
            Some("2026-12-06 23:59")
        );
        assert_eq!(at("on 24/12/2026").as_deref(), Some("2026-12-24 23:59"));
        assert_eq!(
            at("on Tuesday the 24th at 10am").as_deref(),
            Some("2026-11-24 10:00")
        );
        assert_eq!(
            at("on the 3rd of next month").as_deref(),
            Some("2026-12-03 23:59")
        );
        assert_eq!(
            at("in a couple of weeks").as_deref(),
            Some("2026-12-02 23:59")
        );
        assert_eq!(at("within 3 days").as_deref(), Some("2026-11-21 23:59"));
        assert_eq!(
            at("finish it by the end of the week").as_deref(),
            Some("2026-11-22 23:59")
        );
        assert_eq!(at("end of next week").as_deref(), Some("2026-11-29 23:59"));
        assert_eq!(at("this month").as_deref(), Some("2026-11-30 23:59"));
        assert_eq!(at("over the weekend").as_deref(), Some("2026-11-22 23:59"));
        assert_eq!(at("in Q1").as_deref(), Some("2027-03-31 23:59"));
        assert_eq!(at("at Easter").as_deref(), None);
        assert_eq!(at("on Easter").as_deref(), Some("2027-03-29 23:59"));
        assert_eq!(
            at("in March next year").as_deref(),
            Some("2027-03-31 23:59")
        );
        assert_eq!(
            at("the other day").as_deref(),
            Some("2026-11-17 23:59 past")
        );
        assert_eq!(
            at("late last year").as_deref(),
            Some("2025-12-31 23:59 past")
        );
    }

    /// At the calendar's last moment and its first, every plan reads to a time inside it, or
    /// none: nothing panics or wraps.
    #[test]
    fn plans_at_the_calendars_edges_stay_inside_it() {
        let plans = [
            "in 1000 years",
            "in 1000 days at 5pm",
            "next year",
            "by Christmas",
            "this week",
            "the week after next",
            "on the 31st",
            "in March",
            "in Q4",
            "end of next month",
            "in 1000 hours",
            "tomorrow at 11pm",
        ];
        for now in [MAX_MILLIS, 0] {
            let mut read = 0;
            for p in plans {
                let tokens = super::super::words::tokens(p);
                let words: Vec<&str> = tokens.iter().map(|t| t.lower.as_str()).collect();
                if let Some(w) = resolve(p, &words, now) {
                    assert!((0..=MAX_MILLIS).contains(&w.at), "{p} at {now}: {w:?}");
                    read += 1;
                }
            }
            // At the epoch every plan has a time; at the last moment those that fit in it.
            let least = if now == 0 { plans.len() } else { 6 };
            assert!(read >= least, "{read} of {} read at {now}", plans.len());
        }
    }

    #[test]
    fn times_alone_and_words_that_are_not_dates() {
        assert_eq!(at("meeting at 15:30").as_deref(), Some("2026-11-18 15:30"));
        assert_eq!(at("call at 8am").as_deref(), Some("2026-11-19 08:00"));
        assert_eq!(at("I may go").as_deref(), None);
        assert_eq!(at("I have 3 kids").as_deref(), None);
        assert_eq!(at("I'm 34").as_deref(), None);
        assert_eq!(at("in a bit").as_deref(), None);
        assert_eq!(at("I like the sun").as_deref(), None);
    }
}
