//! Dates and times said relative to now ("tomorrow at 3", "next Friday", "on March 3", "in two
//! weeks", "by the end of the month") resolved to an instant, in UTC. A date without a time of
//! day means the end of that day: a deadline "by Friday" lasts all Friday.

use time::{Date, Duration, Month, OffsetDateTime, PrimitiveDateTime, Time, Weekday};

use crate::calendar::{
    self, day_number, month, next_weekday, previous_weekday, shift, year_number,
};
use crate::clock::{Millis, MAX_MILLIS};

/// A moment a sentence names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct When {
    pub at: Millis,
    /// Said as past ("yesterday", "last week", "two days ago", "in 2019").
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

fn end_of(date: Date) -> PrimitiveDateTime {
    PrimitiveDateTime::new(
        date,
        Time::from_hms_milli(23, 59, 59, 999).unwrap_or(Time::MIDNIGHT),
    )
}

fn millis(t: PrimitiveDateTime) -> Millis {
    (t.assume_utc().unix_timestamp_nanos() / 1_000_000) as Millis
}

fn last_of_month(year: i32, m: Month) -> Option<Date> {
    Date::from_calendar_date(year, m, m.length(year)).ok()
}

/// The next `month`/`day` on or after `today` (this year or next).
fn next_date(today: Date, m: Month, day: u8) -> Option<Date> {
    let this = Date::from_calendar_date(today.year(), m, day).ok();
    match this {
        Some(d) if d >= today => Some(d),
        _ => Date::from_calendar_date(today.year() + 1, m, day).ok(),
    }
}

/// The first date the words name, with the time of day when one is said, relative to `now`.
/// `words` are a sentence's lower-case tokens.
pub fn resolve(words: &[&str], now: Millis) -> Option<When> {
    let now_dt = OffsetDateTime::from_unix_timestamp_nanos(i128::from(now) * 1_000_000).ok()?;
    let today = now_dt.date();
    let mut said = Said::default();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if said.date.is_none() && said.exact.is_none() {
            i += said.read_date(words, i, today, now);
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

/// What the words said so far: a date (and whether it is past), an exact moment, a time of
/// day.
#[derive(Default)]
struct Said {
    date: Option<(Date, bool)>,
    exact: Option<Millis>,
    time_of_day: Option<(u8, u8)>,
}

impl Said {
    /// Reads the date (or the exact moment) said at word `i`, if any; returns how many words
    /// beyond `i` it took.
    fn read_date(&mut self, words: &[&str], i: usize, today: Date, now: Millis) -> usize {
        let at = |k: usize| words.get(k).copied().unwrap_or("");
        let w = words[i];
        match (w, at(i + 1), at(i + 2)) {
            ("today" | "tonight", _, _) => self.date = Some((today, false)),
            ("day", "after", "tomorrow") => self.date = Some((shift(today, 2), false)),
            ("tomorrow" | "tmrw" | "tmr", _, _) => self.date = Some((shift(today, 1), false)),
            ("yesterday", _, _) => self.date = Some((shift(today, -1), true)),
            ("next" | "this" | "coming", "week" | "weekend" | "month", _)
            | ("next" | "this", "year", _) => {
                self.date = end_of_period(w == "next", at(i + 1), today)
            }
            ("end", "of", "the" | "this" | "next") => {
                self.date = end_of_period(at(i + 2) == "next", at(i + 3), today)
            }
            ("last", "week" | "weekend", _) => self.date = Some((shift(today, -7), true)),
            ("last", "month", _) => self.date = Some((shift(today, -30), true)),
            ("last", "year", _) => self.date = Some((shift(today, -365), true)),
            ("last" | "next" | "this" | "on" | "by" | "until" | "coming" | "before", d, _)
                if calendar::weekday(d).is_some() =>
            {
                let day = calendar::weekday(d).unwrap_or(Weekday::Monday);
                self.date = Some(match w {
                    "last" => (previous_weekday(today, day), true),
                    "next" => (next_weekday(today, day, true), false),
                    _ => (next_weekday(today, day, false), false),
                });
                return 1;
            }
            (d, _, _) if d.len() > 3 && calendar::weekday(d).is_some() => {
                self.date =
                    calendar::weekday(d).map(|day| (next_weekday(today, day, false), false));
            }
            ("in" | "within", _, _) => self.read_within(words, i, today, now),
            _ => {
                self.date = ago(words, i, today)
                    .or_else(|| calendar_date(words, i, today).map(|d| (d, false)))
            }
        }
        0
    }

    /// "in 3 days", "within 2 hours", "in 2019", "in March", at word `i` ("in").
    fn read_within(&mut self, words: &[&str], i: usize, today: Date, now: Millis) {
        let at = |k: usize| words.get(k).copied().unwrap_or("");
        if let Some((n, used)) = count(words, i + 1) {
            let unit = at(i + 1 + used);
            let unit = unit.strip_suffix('s').unwrap_or(unit);
            // No later than the calendar's last moment, as the day steps stay on its last day.
            let later = |d: Duration| {
                Some(
                    now.saturating_add(d.whole_milliseconds() as Millis)
                        .min(MAX_MILLIS),
                )
            };
            match unit {
                "minute" | "min" => self.exact = later(Duration::minutes(n)),
                "hour" | "hr" => self.exact = later(Duration::hours(n)),
                "day" => self.date = Some((shift(today, n), false)),
                "week" => self.date = Some((shift(today, 7 * n), false)),
                "month" => self.date = Some((shift(today, 30 * n), false)),
                "year" => self.date = Some((shift(today, 365 * n), false)),
                _ => {}
            }
        }
        if self.date.is_none() && self.exact.is_none() {
            if let Some(y) = year_number(at(i + 1)) {
                let past = y < today.year();
                self.date = last_of_month(y, Month::December).map(|d| (d, past));
            } else if let Some(m) = month(at(i + 1)).filter(|_| at(i + 1).len() > 3) {
                let y = today.year() + i32::from((m as u8) < (today.month() as u8));
                self.date = last_of_month(y, m).map(|d| (d, false));
            }
        }
    }

    /// The moment said: the exact one, else the date at the time of day said (the date's end
    /// when none is), or a time alone today (tomorrow once it has passed).
    fn when(self, today: Date, now: Millis) -> Option<When> {
        if let Some(t) = self.exact {
            return Some(When { at: t, past: false });
        }
        let (h, m) = match self.time_of_day {
            Some(t) => t,
            None => {
                let (d, past) = self.date?;
                return Some(When {
                    at: millis(end_of(d)),
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
            millis(end_of(d))
        } else {
            millis(PrimitiveDateTime::new(d, time))
        };
        Some(When { at, past })
    }
}

/// The last day of this (or the `next`) week (its Sunday), month or year, as `unit` says.
fn end_of_period(next: bool, unit: &str, today: Date) -> Option<(Date, bool)> {
    match unit {
        "week" | "weekend" => {
            let sunday = next_weekday(today, Weekday::Sunday, false);
            Some((shift(sunday, if next { 7 } else { 0 }), false))
        }
        "month" => {
            let (y, m) = if next {
                let m = today.month().next();
                (today.year() + i32::from(m == Month::January), m)
            } else {
                (today.year(), today.month())
            };
            last_of_month(y, m).map(|d| (d, false))
        }
        "year" => {
            last_of_month(today.year() + i32::from(next), Month::December).map(|d| (d, false))
        }
        _ => None,
    }
}

/// "N days ago" (weeks, months, years) at word `i`: a past date.
fn ago(words: &[&str], i: usize, today: Date) -> Option<(Date, bool)> {
    let at = |k: usize| words.get(k).copied().unwrap_or("");
    let (n, used) = count(words, i)?;
    let unit = at(i + used);
    let unit = unit.strip_suffix('s').unwrap_or(unit);
    if at(i + used + 1) != "ago" {
        return None;
    }
    let days = match unit {
        "day" => n,
        "week" => 7 * n,
        "month" => 30 * n,
        "year" => 365 * n,
        _ => return None,
    };
    Some((shift(today, -days), true))
}

/// "March 3", "March 3rd, 2027", "3 March", "the 3rd of March", "2026-12-01", "on the 15th".
fn calendar_date(words: &[&str], i: usize, today: Date) -> Option<Date> {
    let at = |k: usize| words.get(k).copied().unwrap_or("");
    let w = at(i);
    // ISO 8601.
    let parts: Vec<&str> = w.split('-').collect();
    if let [y, m, d] = parts.as_slice() {
        if y.len() == 4 {
            let m = Month::try_from(m.parse::<u8>().ok()?).ok()?;
            return Date::from_calendar_date(y.parse().ok()?, m, d.parse().ok()?).ok();
        }
    }
    let with_year = |m: Month, d: u8, k: usize| {
        let k = if at(k) == "|" { k + 1 } else { k };
        match year_number(at(k)) {
            Some(y) => Date::from_calendar_date(y, m, d).ok(),
            None => next_date(today, m, d),
        }
    };
    // "may" is also a verb: only as a month when a day number is next to it.
    if let Some(m) = month(w) {
        if let Some(d) = day_number(at(i + 1)) {
            return with_year(m, d, i + 2);
        }
        return None;
    }
    if let Some(d) = day_number(w) {
        if let Some(m) = month(at(i + 1)) {
            return with_year(m, d, i + 2);
        }
        if at(i + 1) == "of" {
            if let Some(m) = month(at(i + 2)) {
                return with_year(m, d, i + 3);
            }
        }
        // "on the 15th": this month, or next once it has passed.
        if i >= 2 && at(i - 1) == "the" && matches!(at(i - 2), "on" | "by" | "until") && w.len() > 2
        {
            let this = Date::from_calendar_date(today.year(), today.month(), d).ok();
            return match this {
                Some(x) if x >= today => Some(x),
                _ => {
                    let m = today.month().next();
                    let y = today.year() + i32::from(m == Month::January);
                    Date::from_calendar_date(y, m, d).ok()
                }
            };
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Wednesday 2026-11-18 10:00 UTC.
    const NOW: Millis = 1_794_996_000_000;

    fn at(text: &str) -> Option<String> {
        let tokens = super::super::words::tokens(text);
        let words: Vec<&str> = tokens
            .iter()
            .map(|t| if t.punct { "|" } else { t.lower.as_str() })
            .collect();
        resolve(&words, NOW).map(|w| {
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
        assert_eq!(
            at("two weeks ago").as_deref(),
            Some("2026-11-04 23:59 past")
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
