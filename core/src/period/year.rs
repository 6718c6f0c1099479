//! The year's named parts: seasons, quarters and holidays (Easter by the computus), each the
//! latest begun or, read ahead, the next not over.

use time::{Date, Month, Weekday};

use crate::calendar::{self, shift};
use crate::clock::Window;

use super::span::{days, first_of, months_from};
use super::words::Word;
use super::On;

/// Seasons (northern hemisphere, meteorological): their first month; each lasts three.
pub(super) const SEASONS: &[(&str, Month)] = &[
    ("spring", Month::March),
    ("summer", Month::June),
    ("autumn", Month::September),
    ("fall", Month::September),
    ("winter", Month::December),
];

/// The quarter of the year `today` is in (1 to 4).
pub(super) fn quarter_of(today: Date) -> u8 {
    (today.month() as u8 - 1) / 3 + 1
}

/// The quarter a word names: "q1" to "q4".
pub(super) fn quarter_number(w: &str) -> Option<u8> {
    w.strip_prefix('q')?
        .parse()
        .ok()
        .filter(|q| (1..=4).contains(q))
}

/// The first day of quarter `q` (1 to 4) of `year`.
pub(super) fn quarter_start(q: u8, year: i32) -> Option<Date> {
    first_of(year, Month::try_from(3 * q - 2).ok()?)
}

/// Quarter `q` (1 to 4) of `year`.
pub(super) fn quarter(q: u8, year: i32) -> Option<Window> {
    let from = quarter_start(q, year)?;
    Some(days(from, months_from(year, from.month(), 3)?))
}

/// Quarter `q` of the year written after it (its year and words, [`year_after`]), or the
/// latest begun by `today` (ahead: the first not over); and how many words wrote the year.
pub(super) fn latest_quarter(
    q: u8,
    written: Option<(i32, usize)>,
    on: On,
) -> Option<(Window, usize)> {
    let today = on.today;
    match written {
        Some((y, used)) => Some((quarter(q, y)?, used)),
        None if on.ahead => {
            let start = quarter_start(q, today.year())?;
            let over = months_from(start.year(), start.month(), 3)? <= today;
            Some((quarter(q, today.year() + i32::from(over))?, 0))
        }
        None => {
            let begun = quarter_start(q, today.year())? <= today;
            let year = today.year() - i32::from(!begun);
            Some((quarter(q, year)?, 0))
        }
    }
}

/// The first month of a season's name.
pub(super) fn season(s: &str) -> Option<Month> {
    SEASONS.iter().find(|x| x.0 == s).map(|x| x.1)
}

/// The season beginning in month `start` of `year` (winter: that December, into the next year).
pub(super) fn season_of(start: Month, year: i32) -> Option<Window> {
    let from = first_of(year, start)?;
    Some(days(from, months_from(year, start, 3)?))
}

/// A holiday named from word `i`, in `year`: its first day, the day after it, and how many
/// words name it. Christmas is the 24th to the 26th of December, Easter Good Friday to Easter
/// Monday.
pub(super) fn holiday(ws: &[Word], i: usize, year: i32) -> Option<(Date, Date, usize)> {
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let on = |m: Month, d: u8, n: i64, used: usize| {
        let from = Date::from_calendar_date(year, m, d).ok()?;
        Some((from, shift(from, n), used))
    };
    match (w(i), w(i + 1), w(i + 2), w(i + 3)) {
        ("christmas", "eve", _, _) => on(Month::December, 24, 1, 2),
        ("christmas", "day", _, _) => on(Month::December, 25, 1, 2),
        ("christmas" | "xmas", _, _, _) => on(Month::December, 24, 3, 1),
        ("new", "year", "s", "eve") => on(Month::December, 31, 1, 4),
        ("new", "year", "s", "day") => on(Month::January, 1, 1, 4),
        ("halloween", _, _, _) => on(Month::October, 31, 1, 1),
        ("boxing", "day", _, _) => on(Month::December, 26, 1, 2),
        ("st" | "saint", "patrick", "s", "day") => on(Month::March, 17, 1, 4),
        // The United States' Thanksgiving, November's fourth Thursday, and the day after.
        ("thanksgiving", _, _, _) | ("black", "friday", _, _) => {
            let first = Date::from_calendar_date(year, Month::November, 1).ok()?;
            let day = shift(calendar::next_weekday(first, Weekday::Thursday, false), 21);
            let day = shift(day, i64::from(w(i) == "black"));
            Some((day, shift(day, 1), 1 + usize::from(w(i) == "black")))
        }
        ("valentine", "s", "day", _) => on(Month::February, 14, 1, 3),
        ("easter", _, _, _) => {
            let sunday = easter(year)?;
            Some((shift(sunday, -2), shift(sunday, 2), 1))
        }
        _ => None,
    }
}

/// The holiday named from word `i`, the latest begun by today (`ended`: the latest over;
/// ahead: the first not over).
pub(super) fn latest_holiday(
    ws: &[Word],
    i: usize,
    on: On,
    ended: bool,
) -> Option<(Date, Date, usize)> {
    let today = on.today;
    let (from, until, used) = holiday(ws, i, today.year())?;
    if on.ahead && !ended {
        return if until <= today {
            holiday(ws, i, today.year() + 1)
        } else {
            Some((from, until, used))
        };
    }
    if from > today || (ended && until > today) {
        holiday(ws, i, today.year() - 1)
    } else {
        Some((from, until, used))
    }
}

/// Easter Sunday of `year` (the Gregorian computus: Meeus/Jones/Butcher).
pub(super) fn easter(year: i32) -> Option<Date> {
    let a = year % 19;
    let b = year / 100;
    let c = year % 100;
    let d = b / 4;
    let e = b % 4;
    let f = (b + 8) / 25;
    let g = (b - f + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let i = c / 4;
    let k = c % 4;
    let l = (32 + 2 * e + 2 * i - h - k) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let month = (h + l - 7 * m + 114) / 31;
    let day = (h + l - 7 * m + 114) % 31 + 1;
    Date::from_calendar_date(year, Month::try_from(month as u8).ok()?, day as u8).ok()
}

/// Which of four an ordinal names (a month's week, a year's quarter): 1 to 4, 0 for the last.
pub(super) fn nth_of_four(w: &str) -> Option<i64> {
    match w {
        "first" | "1st" => Some(1),
        "second" | "2nd" => Some(2),
        "third" | "3rd" => Some(3),
        "fourth" | "4th" => Some(4),
        "last" | "final" => Some(0),
        _ => None,
    }
}
