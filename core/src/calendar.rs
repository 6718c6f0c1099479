//! The calendar the engine shares: weekday names as people write them, stepping to a weekday,
//! and an owner's local hour, day and weekday at a UTC offset (the engine has no time-zone
//! database, so every target computes the same local time).

use time::{Date, Duration, Month, Weekday};

use crate::clock::{Millis, DAY_MS, MINUTE_MS};

/// Weekday names and the short forms people write, lower case.
const WEEKDAYS: &[(&str, Weekday)] = &[
    ("monday", Weekday::Monday),
    ("tuesday", Weekday::Tuesday),
    ("wednesday", Weekday::Wednesday),
    ("thursday", Weekday::Thursday),
    ("friday", Weekday::Friday),
    ("saturday", Weekday::Saturday),
    ("sunday", Weekday::Sunday),
    ("mon", Weekday::Monday),
    ("tue", Weekday::Tuesday),
    ("tues", Weekday::Tuesday),
    ("wed", Weekday::Wednesday),
    ("thu", Weekday::Thursday),
    ("thur", Weekday::Thursday),
    ("thurs", Weekday::Thursday),
    ("fri", Weekday::Friday),
    ("sat", Weekday::Saturday),
    ("sun", Weekday::Sunday),
];

/// Month names and the short forms people write, lower case ("may" is also a verb: callers
/// take it for a month only beside a day number or after "in").
const MONTHS: &[(&str, Month)] = &[
    ("january", Month::January),
    ("february", Month::February),
    ("march", Month::March),
    ("april", Month::April),
    ("may", Month::May),
    ("june", Month::June),
    ("july", Month::July),
    ("august", Month::August),
    ("september", Month::September),
    ("october", Month::October),
    ("november", Month::November),
    ("december", Month::December),
    ("jan", Month::January),
    ("feb", Month::February),
    ("mar", Month::March),
    ("apr", Month::April),
    ("jun", Month::June),
    ("jul", Month::July),
    ("aug", Month::August),
    ("sep", Month::September),
    ("sept", Month::September),
    ("oct", Month::October),
    ("nov", Month::November),
    ("dec", Month::December),
];

/// The month a lower-case word names ("march", "sept").
pub fn month(w: &str) -> Option<Month> {
    MONTHS.iter().find(|x| x.0 == w).map(|x| x.1)
}

/// Numbers written as words, zero to twelve.
const NUMBER_WORDS: &[&str] = &[
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
];

/// Every word the calendar reads as a weekday, a month or a number ("friday", "thurs",
/// "march", "sept", "twelve"), lower case.
pub fn names() -> impl Iterator<Item = &'static str> {
    WEEKDAYS
        .iter()
        .map(|w| w.0)
        .chain(MONTHS.iter().map(|m| m.0))
        .chain(NUMBER_WORDS.iter().copied())
}

/// A count written in words ("two") or digits ("14"), 0 to 1,000.
pub fn number(w: &str) -> Option<i64> {
    match NUMBER_WORDS.iter().position(|x| *x == w) {
        Some(n) => Some(n as i64),
        None => w.parse::<i64>().ok().filter(|n| (0..=1000).contains(n)),
    }
}

/// A day of the month: "3", "3rd", "21st".
pub fn day_number(w: &str) -> Option<u8> {
    let digits = w.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    if !matches!(&w[digits.len()..], "" | "st" | "nd" | "rd" | "th") {
        return None;
    }
    digits.parse::<u8>().ok().filter(|d| (1..=31).contains(d))
}

/// A year people mean by four digits: 1900 to 2200.
pub fn year_number(w: &str) -> Option<i32> {
    w.parse::<i32>().ok().filter(|y| (1900..=2200).contains(y))
}

/// The weekday a word names ("friday", "Fri", "thurs"), in any case.
pub fn weekday(name: &str) -> Option<Weekday> {
    WEEKDAYS
        .iter()
        .find(|w| w.0.eq_ignore_ascii_case(name))
        .map(|w| w.1)
}

/// `d` moved by `n` days, or left where it is when that would leave the calendar (its last
/// day is 9999-12-31, a clock the engine accepts): one checked step for every day counted,
/// so nothing said or asked panics at the calendar's edge.
#[inline(never)]
pub fn shift(d: Date, n: i64) -> Date {
    d.checked_add(Duration::days(n)).unwrap_or(d)
}

/// The first `day` on or after `from` (strictly after when `strict`); `from` itself where
/// that day lies past the calendar's last (9999-12-31).
pub fn next_weekday(from: Date, day: Weekday, strict: bool) -> Date {
    let ahead = (day.number_days_from_monday() as i64
        - from.weekday().number_days_from_monday() as i64)
        .rem_euclid(7);
    let ahead = if strict && ahead == 0 { 7 } else { ahead };
    shift(from, ahead)
}

/// The last `day` strictly before `from`; `from` itself where that day lies before the
/// calendar's first.
pub fn previous_weekday(from: Date, day: Weekday) -> Date {
    let back = (from.weekday().number_days_from_monday() as i64
        - day.number_days_from_monday() as i64)
        .rem_euclid(7);
    let back = if back == 0 { 7 } else { back };
    shift(from, -back)
}

/// The UTC day of a time; `None` outside the calendar.
pub fn day_of(t: Millis) -> Option<Date> {
    Some(
        time::OffsetDateTime::from_unix_timestamp(t.div_euclid(1000))
            .ok()?
            .date(),
    )
}

/// `now` in local time at `offset_minutes` from UTC, as ms since the (local) epoch.
pub fn local(now: Millis, offset_minutes: i32) -> Millis {
    now + offset_minutes as Millis * MINUTE_MS
}

/// The local hour (0–23) of `now`.
pub fn local_hour(now: Millis, offset_minutes: i32) -> u32 {
    (local(now, offset_minutes).rem_euclid(DAY_MS) / (60 * MINUTE_MS)) as u32
}

/// The local day number of `now` (days since 1970-01-01, local).
pub fn local_day(now: Millis, offset_minutes: i32) -> i64 {
    local(now, offset_minutes).div_euclid(DAY_MS)
}

/// The local weekday of `now`.
pub fn local_weekday(now: Millis, offset_minutes: i32) -> Weekday {
    // 1970-01-01 was a Thursday.
    Weekday::Thursday.nth_next((local_day(now, offset_minutes).rem_euclid(7)) as u8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::Month;

    const HOUR: Millis = 60 * MINUTE_MS;

    #[test]
    fn weekday_names_in_any_case_and_length() {
        assert_eq!(weekday("Friday"), Some(Weekday::Friday));
        assert_eq!(weekday("THURS"), Some(Weekday::Thursday));
        assert_eq!(weekday("tue"), Some(Weekday::Tuesday));
        assert_eq!(weekday("fr"), None);
        assert_eq!(weekday("someday"), None);
    }

    #[test]
    fn stepping_to_a_weekday() {
        let mon = Date::from_calendar_date(2026, Month::November, 23).unwrap();
        assert_eq!(next_weekday(mon, Weekday::Monday, false), mon);
        assert_eq!(
            next_weekday(mon, Weekday::Monday, true),
            mon + Duration::days(7)
        );
        assert_eq!(
            next_weekday(mon, Weekday::Friday, false),
            mon + Duration::days(4)
        );
        assert_eq!(
            previous_weekday(mon, Weekday::Monday),
            mon - Duration::days(7)
        );
        assert_eq!(
            previous_weekday(mon, Weekday::Sunday),
            mon - Duration::days(1)
        );
        assert_eq!(
            previous_weekday(mon, Weekday::Tuesday),
            mon - Duration::days(6)
        );
        // At the calendar's ends (9999-12-31 is a Friday): no step past them, and no hang.
        assert_eq!(Date::MAX.weekday(), Weekday::Friday);
        assert_eq!(next_weekday(Date::MAX, Weekday::Saturday, false), Date::MAX);
        assert_eq!(next_weekday(Date::MAX, Weekday::Friday, true), Date::MAX);
        assert_eq!(next_weekday(Date::MAX, Weekday::Friday, false), Date::MAX);
        assert_eq!(previous_weekday(Date::MIN, Weekday::Monday), Date::MIN);
    }

    #[test]
    fn local_time_follows_the_offset() {
        // 2026-11-23 is a Monday; 08:30 UTC.
        let t = 1_795_392_000_000 + 8 * HOUR + 30 * MINUTE_MS;
        assert_eq!(local_weekday(t, 0), Weekday::Monday);
        assert_eq!(local_hour(t, 0), 8);
        assert_eq!(local_hour(t, -9 * 60), 23);
        assert_eq!(
            local_weekday(t, -9 * 60),
            Weekday::Sunday,
            "still Sunday in UTC−9"
        );
        assert_eq!(local_hour(t, 330), 14, "UTC+5:30");
        assert_eq!(local_weekday(t, 0).to_string(), "Monday");
    }
}
