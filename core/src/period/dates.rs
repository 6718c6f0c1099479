//! Days and months written out: "3 May", "May 3rd, 2025", "the 3rd of May", "March first",
//! "the 15th", "2025-12-24", "24.12.2025", a month with its year, a decade, and ranges of days.

use time::{Date, Month};

use crate::calendar::{day_number, month, shift, year_number};
use crate::clock::Window;

use super::span::{days, first_of, latest_month, months_from};
use super::words::{month_number, Word};
use super::year::latest_holiday;
use super::On;

/// A day named from word `i`: a date ([`date_at`]) or a holiday's day (Christmas Day,
/// Easter Sunday: the middle of its span), the latest begun by today.
pub(super) fn day_named(ws: &[Word], i: usize, on: On) -> Option<(Date, usize)> {
    date_at(ws, i, on).or_else(|| {
        let (from, until, used) = latest_holiday(ws, i, on, false)?;
        Some((shift(from, (until - from).whole_days() / 2), used))
    })
}

/// A decade's first year written from word `i` ("2010s", "1990's"), and how many words. Not
/// a century's first ("the 1900s" is as often the whole century).
pub(super) fn decade(ws: &[Word], i: usize) -> Option<(i32, usize)> {
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let (year, used) = match w(i).strip_suffix('s') {
        Some(y) => (y, 1),
        None if w(i + 1) == "s" => (w(i), 2),
        None => return None,
    };
    year_number(year)
        .filter(|y| y % 10 == 0 && y % 100 != 0)
        .map(|y| (y, used))
}

/// The latest `m`/`d` by today (ahead: the first from today).
pub(super) fn latest_date(m: Month, d: u8, on: On) -> Option<Date> {
    let today = on.today;
    let this = Date::from_calendar_date(today.year(), m, d).ok();
    if on.ahead {
        return match this {
            Some(day) if day >= today => Some(day),
            _ => Date::from_calendar_date(today.year() + 1, m, d).ok(),
        };
    }
    match this {
        Some(day) if day <= today => Some(day),
        _ => Date::from_calendar_date(today.year() - 1, m, d).ok(),
    }
}

/// A date written as numbers joined by the same "/" or ".", with a four-digit year first or
/// last, from word `i`: "2025/12/24", "24.12.2025" (day first, as dots are written),
/// "12/24/2025" or "24/12/2025" (only where one order alone is a date).
pub(super) fn numeric_date(ws: &[Word], i: usize) -> Option<(Date, usize)> {
    let joint = ws.get(i)?.joint.filter(|c| matches!(c, '/' | '.'))?;
    if ws.get(i + 1)?.joint != Some(joint) || ws.get(i + 2)?.joint == Some(joint) {
        return None;
    }
    let (a, b, c) = (&ws[i].text, &ws[i + 1].text, &ws[i + 2].text);
    let (y, m, d) = match (a.len(), c.len()) {
        (4, 1 | 2) => (a, b, c),
        (1 | 2, 4) if joint == '.' => (c, b, a),
        (1 | 2, 4) => match (month_number(a), month_number(b)) {
            (Some(_), None) => (c, a, b),
            (None, Some(_)) => (c, b, a),
            _ => return None,
        },
        _ => return None,
    };
    let date = Date::from_calendar_date(year_number(y)?, month_number(m)?, day_number(d)?).ok()?;
    Some((date, 3))
}

/// The month named from word `i` ("November 2022", "November": its latest past one): its
/// first day, the first day after it, and how many words name it.
pub(super) fn month_of(ws: &[Word], i: usize, on: On) -> Option<(Date, Date, usize)> {
    let today = on.today;
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let m = month(w(i))?;
    let (from, used) = match year_after(ws, i + 1, today) {
        Some((y, n)) => (first_of(y, m)?, 1 + n),
        None => (latest_month(on, m)?, 1),
    };
    Some((from, months_from(from.year(), m, 1)?, used))
}

/// The year written after a month or a day, and how many words write it: "2025", "of
/// 2025", "last year", "of this year".
pub(super) fn year_after(ws: &[Word], i: usize, today: Date) -> Option<(i32, usize)> {
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let of = usize::from(w(i) == "of");
    let y = today.year();
    match (w(i + of), w(i + of + 1)) {
        (n, _) if year_number(n).is_some() => Some((year_number(n)?, of + 1)),
        ("last", "year") => Some((y - 1, of + 2)),
        ("this", "year") => Some((y, of + 2)),
        ("next", "year") => Some((y + 1, of + 2)),
        // "the end of the year"; not "the year before last".
        ("the", "year") if !matches!(w(i + of + 2), "before" | "after") => Some((y, of + 2)),
        _ => None,
    }
}

/// Days of the month as ordinal words, the first to the twentieth.
pub(super) const DAY_WORDS: &[&str] = &[
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
];

/// A day of the month written as an ordinal word from word `i` ("first", "twenty-first",
/// "thirtieth"), and how many words write it.
pub(super) fn day_word(ws: &[Word], i: usize) -> Option<(u8, usize)> {
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let ordinal = |x: &str| DAY_WORDS.iter().position(|d| *d == x).map(|p| p as u8 + 1);
    match (w(i), ordinal(w(i + 1))) {
        ("twenty", Some(d)) if d < 10 => Some((20 + d, 2)),
        ("thirty", Some(1)) => Some((31, 2)),
        ("thirtieth", _) => Some((30, 1)),
        (x, _) => ordinal(x).map(|d| (d, 1)),
    }
}

/// A day of the month without its month, from "the" at word `i`: "the 15th" or "the first"
/// (in words only where the question ends), the latest past one (ahead: the first from
/// today); "of last month", "of next month" or "of
/// this month" after it, that month's. A month after it is [`date_at`]'s ("the 3rd of May").
pub(super) fn the_day(ws: &[Word], i: usize, on: On) -> Option<(Date, usize)> {
    let today = on.today;
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    if w(i) != "the" {
        return None;
    }
    let (d, n) = match day_number(w(i + 1)) {
        Some(d) if w(i + 1).ends_with(|c: char| c.is_ascii_alphabetic()) => (d, 1),
        Some(_) => return None,
        None => day_word(ws, i + 1).filter(|&(_, n)| {
            w(i + 1 + n).is_empty() || (w(i + 1 + n) == "of" && w(i + 3 + n) == "month")
        })?,
    };
    let after = i + 1 + n;
    let this_month = first_of(today.year(), today.month())?;
    let (month, used) = match (w(after), w(after + 1), w(after + 2)) {
        ("of", "last", "month") => (months_from(today.year(), today.month(), -1)?, 1 + n + 3),
        ("of", "next", "month") => (months_from(today.year(), today.month(), 1)?, 1 + n + 3),
        ("of", "this" | "the", "month") => (this_month, 1 + n + 3),
        ("of", _, _) => return None,
        (m, _, _) if month(m).is_some() => return None,
        _ => {
            // The latest past one, or (ahead) the first from today.
            let keep = |day: &Date| {
                if on.ahead {
                    *day >= today
                } else {
                    *day <= today
                }
            };
            let this = this_month.replace_day(d).ok().filter(keep);
            let date = match this {
                Some(day) => day,
                None => months_from(today.year(), today.month(), if on.ahead { 1 } else { -1 })?
                    .replace_day(d)
                    .ok()?,
            };
            return Some((date, 1 + n));
        }
    };
    Some((month.replace_day(d).ok()?, used))
}

/// A year and month written "2025-12", from word `i`.
pub(super) fn iso_month(ws: &[Word], i: usize) -> Option<(i32, Month)> {
    let y = year_number(&ws.get(i)?.text).filter(|_| ws[i].dash)?;
    Some((y, month_number(&ws.get(i + 1)?.text)?))
}

/// A range of days from word `i`, its ends joined by one of `joins` or a dash: "11 August
/// and 15 August 2023" (after "between"), "March 1 to March 10", "1-10 March", "March 1st
/// through the 10th", "2025-12-20 to 2026-01-03". The second end may be a day of the first's
/// month; a year written once, after the second, is both's.
pub(super) fn range(ws: &[Word], i: usize, on: On, joins: &[&str]) -> Option<(Window, usize)> {
    let today = on.today;
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    // "1-10 March": the first end is a day of the second's month.
    if let (Some(d), true) = (day_number(w(i)), ws.get(i).is_some_and(|x| x.dash)) {
        let (until, used) = date_at(ws, i + 1, on)?;
        let from = until.replace_day(d).ok().filter(|f| *f <= until)?;
        return Some((days(from, shift(until, 1)), 1 + used));
    }
    let (first, u1) = date_at(ws, i, on)?;
    let joined = ws[i + u1 - 1].dash;
    if !joined && !joins.contains(&w(i + u1)) {
        return None;
    }
    let k = i + u1 + usize::from(!joined);
    let (until, u2) = date_at(ws, k, on).or_else(|| {
        // A day of the first's month: "the 10th", "10", perhaps with the year.
        let the = usize::from(w(k) == "the");
        let day = day_number(w(k + the))?;
        match year_after(ws, k + the + 1, today) {
            Some((y, n)) => Some((
                Date::from_calendar_date(y, first.month(), day).ok()?,
                the + 1 + n,
            )),
            // "from March 28 to the 2nd": a day before the first's is of the next month.
            None if day < first.day() => {
                let next = months_from(first.year(), first.month(), 1)?;
                Some((next.replace_day(day).ok()?, the + 1))
            }
            None => Some((first.replace_day(day).ok()?, the + 1)),
        }
    })?;
    let mut from = first;
    if from > until {
        from = from.replace_year(until.year()).ok()?;
        if from > until {
            from = from.replace_year(until.year() - 1).ok()?;
        }
    }
    Some((days(from, shift(until, 1)), k - i + u2))
}

/// "on 3 May", "May 3rd", "the 3rd of May", with a year or the latest past one.
pub(super) fn on_date(ws: &[Word], i: usize, on: On) -> Option<(Window, usize)> {
    let (date, used) = date_at(ws, i, on)?;
    Some((days(date, shift(date, 1)), used))
}

/// The day named from word `i`, and how many words name it (see [`on_date`]).
pub(super) fn date_at(ws: &[Word], i: usize, on: On) -> Option<(Date, usize)> {
    let today = on.today;
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    // "2025-12-24", or a time's first part: "2025-12-24T10:00:00Z".
    if let Some((y, m)) = iso_month(ws, i) {
        let day = w(i + 2);
        let (d, time) = day.split_at(day.find(|c: char| !c.is_ascii_digit()).unwrap_or(day.len()));
        let timed = time
            .strip_prefix('t')
            .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit()));
        if !ws[i + 1].dash || d.len() > 2 || !(time.is_empty() || timed) {
            return None;
        }
        return Some((Date::from_calendar_date(y, m, d.parse().ok()?).ok()?, 3));
    }
    if let Some(found) = numeric_date(ws, i) {
        return Some(found);
    }
    let (m, d, used) = if let (Some(m), Some(d)) = (month(w(i)), day_number(w(i + 1))) {
        (m, d, 2)
    } else if let (Some(d), Some(m)) = (day_number(w(i)), month(w(i + 1))) {
        (m, d, 2)
    } else if let (Some(d), "of", Some(m)) = (day_number(w(i)), w(i + 1), month(w(i + 2))) {
        (m, d, 3)
    } else if let (Some(m), Some((d, n))) = (
        month(w(i)).filter(|_| ws[i].capital && w(i) != "may"),
        day_word(ws, i + 1),
    ) {
        // "March first", "June twenty-first": the month written as a name, not "May" (as
        // often a verb: "May first-time buyers…").
        (m, d, 1 + n)
    } else if let Some((d, n)) = day_word(ws, i).filter(|&(_, n)| w(i + n) == "of") {
        // "the first of March", "the twenty-first of May": in words only before "of".
        (month(w(i + n + 1))?, d, n + 2)
    } else {
        return None;
    };
    let (date, used) = match year_after(ws, i + used, today) {
        Some((y, n)) => (Date::from_calendar_date(y, m, d).ok()?, used + n),
        None => (latest_date(m, d, on)?, used),
    };
    Some((date, used))
}
