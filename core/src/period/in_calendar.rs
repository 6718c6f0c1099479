//! Times named in the calendar: dates ("on 3 May", "2025-12-24", "24/12/2025") and ranges of
//! them, months, years, decades, their parts ("early March", "the end of the month"),
//! quarters, seasons, holidays, and one side of a span ("since March", "before 2020", "by
//! Friday").

use time::{Month, Weekday};

use crate::calendar::{self, day_number, day_of, month, shift, year_number};
use crate::clock::Window;

use super::dates::{
    date_at, day_named, decade, iso_month, latest_date, month_of, on_date, range, the_day,
    year_after,
};
use super::from_today::{at, next};
use super::span::{days, first_of, month_part, months_from, year};
use super::words::{count, month_number, Word};
use super::year::{
    holiday, latest_holiday, latest_quarter, nth_of_four, quarter_number, season, season_of,
};
use super::On;

/// The spans named by the calendar's names from word `i`: dates and ranges of them, months,
/// years, decades, parts of them, quarters, seasons, holidays, and one side of a span ("since
/// March", "before 2020"). Tried where no reading counted from today reads.
pub(super) fn read(ws: &[Word], i: usize, on: On) -> Option<(Window, usize)> {
    let today = on.today;
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let tomorrow = shift(today, 1);
    match (w(i), w(i + 1), w(i + 2)) {
        ("between", _, _) => range(ws, i + 1, on, &["and"]).map(|(w, n)| (w, n + 1)),
        ("from", _, _) => range(ws, i + 1, on, TO).map(|(w, n)| (w, n + 1)),
        // "2025-12" (a day after it is a date's).
        (_, _, d) if iso_month(ws, i).is_some() && (d.is_empty() || !ws[i + 1].dash) => {
            let (y, m) = iso_month(ws, i)?;
            Some((days(first_of(y, m)?, months_from(y, m, 1)?), 2))
        }
        ("on", "the", _) => {
            let (date, used) = the_day(ws, i + 1, on)?;
            Some((days(date, shift(date, 1)), 1 + used))
        }
        // "on 3/28", "on 12/24": a month and day with no year, where only one order is a
        // date (not "on 1/2"; not without "on": "open 24/7").
        ("on", a, b)
            if ws.get(i + 1).and_then(|x| x.joint) == Some('/')
                && ws.get(i + 2).and_then(|x| x.joint) != Some('/') =>
        {
            let (m, d) = match (
                month_number(a),
                month_number(b),
                day_number(a),
                day_number(b),
            ) {
                (Some(m), None, _, Some(d)) | (None, Some(m), Some(d), _) => (m, d),
                _ => return None,
            };
            let date = latest_date(m, d, on)?;
            Some((days(date, shift(date, 1)), 3))
        }
        // A decade: "the 2010s", "the 1990's".
        ("the", _, _) if decade(ws, i + 1).is_some() => {
            let (y, used) = decade(ws, i + 1)?;
            Some((
                days(
                    first_of(y, Month::January)?,
                    first_of(y + 10, Month::January)?,
                ),
                1 + used,
            ))
        }
        // "around March 3" (two days either side), "around Christmas" (three).
        ("around", _, _) => {
            if let Some((from, until, used)) = latest_holiday(ws, i + 1, on, false) {
                return Some((days(shift(from, -3), shift(until, 3)), 1 + used));
            }
            let (day, used) = date_at(ws, i + 1, on)?;
            Some((days(shift(day, -2), shift(day, 3)), 1 + used))
        }
        // "two weeks before March 10", "three days after Christmas": that many days or weeks
        // from the day, as loosely as so many ago ([`ago`]), on to the day itself (what was
        // said on it tells of the days before it, as for "the week before").
        (n, unit, side @ ("before" | "after")) if count(n).is_some() => {
            let per = match unit.strip_suffix('s').unwrap_or(unit) {
                "day" => 1,
                "week" => 7,
                _ => return None,
            };
            let (day, used) = day_named(ws, i + 3, on)?;
            let sign = if side == "before" { -1 } else { 1 };
            let d = shift(day, sign * per * count(n)?);
            let slack = if per == 1 { 1 } else { 3 };
            let window = if sign < 0 {
                days(shift(d, -slack), shift(day, 1))
            } else {
                days(day, shift(d, slack + 1))
            };
            Some((window, 3 + used))
        }
        ("week" | "weekend", "of", _) => {
            let (day, used) = date_at(ws, i + 2, on)?;
            let monday = shift(day, -(day.weekday().number_days_from_monday() as i64));
            let window = if w(i) == "week" {
                days(monday, shift(monday, 7))
            } else {
                days(shift(monday, 5), shift(monday, 7))
            };
            Some((window, 2 + used))
        }
        (m, y, _) if month(m).is_some() && year_number(y).is_some() => {
            let (from, until, used) = month_of(ws, i, on)?;
            Some((days(from, until), used))
        }
        // Next to a day named after it: "the Monday before July 24, 2023", "the weekend
        // before 4 October", "the Saturday after 28 October", "the week after 3 May". The
        // window runs on to (or from) that day: what was said on it tells of the days next
        // to it ("last weekend", a plan for "Saturday").
        ("the", unit, side @ ("before" | "after")) if day_named(ws, i + 3, on).is_some() => {
            let (day, used) = day_named(ws, i + 3, on)?;
            let before = side == "before";
            // The first and the last day of the unit next to the day.
            let (first, last) = match unit {
                "day" if before => (shift(day, -1), shift(day, -1)),
                "day" => (shift(day, 1), shift(day, 1)),
                "week" if before => (shift(day, -7), shift(day, -1)),
                "week" => (shift(day, 1), shift(day, 7)),
                "weekend" => {
                    let saturday = if before {
                        calendar::previous_weekday(shift(day, -1), Weekday::Saturday)
                    } else {
                        calendar::next_weekday(day, Weekday::Saturday, true)
                    };
                    (saturday, shift(saturday, 1))
                }
                _ => {
                    let wd = calendar::weekday(unit).filter(|_| unit.len() > 2)?;
                    let d = if before {
                        calendar::previous_weekday(day, wd)
                    } else {
                        calendar::next_weekday(day, wd, true)
                    };
                    (d, d)
                }
            };
            let window = match before {
                true => days(first, shift(day, 1)),
                false => days(day, shift(last, 1)),
            };
            Some((window, 3 + used))
        }
        // Parts of a month or year: "early March", "mid-May 2025", "late 2024", "the start of
        // the month", "the end of last month". A part is ten days of a month, four months of
        // a year.
        (part @ ("early" | "mid" | "late"), m, _) if month(m).is_some() => {
            let (from, until, used) = month_of(ws, i + 1, on)?;
            Some((month_part(part, from, until)?, used + 1))
        }
        (part @ ("early" | "mid" | "late"), _, _) if year_after(ws, i + 1, today).is_some() => {
            let (y, used) = year_after(ws, i + 1, today)?;
            let from = first_of(
                y,
                match part {
                    "early" => Month::January,
                    "mid" => Month::May,
                    _ => Month::September,
                },
            )?;
            Some((days(from, months_from(y, from.month(), 4)?), 1 + used))
        }
        // "in Q3", "Q1 2025", "the first quarter of 2025": a year's quarter (the latest begun
        // without a year). "Q3" only after a word that places it: "the Q4 budget" is a subject.
        (q, _, _)
            if quarter_number(q).is_some()
                && i.checked_sub(1)
                    .is_some_and(|k| PLACING.contains(&ws[k].text.as_str())) =>
        {
            latest_quarter(quarter_number(q)?, year_after(ws, i + 1, today), on)
                .map(|(window, used)| (window, 1 + used))
        }
        // "The last quarter" alone is the one before this ([`at`]'s "last quarter").
        ("the", nth, "quarter")
            if nth_of_four(nth)
                .is_some_and(|n| n > 0 || year_after(ws, i + 3, today).is_some()) =>
        {
            let q = match nth_of_four(nth)? {
                0 => 4,
                n => u8::try_from(n).ok()?,
            };
            latest_quarter(q, year_after(ws, i + 3, today), on)
                .map(|(window, used)| (window, 3 + used))
        }
        // A year's start, end or half: "the end of last year", "the start of 2025", "the
        // second half of this year" (a start or end is four months, as "early 2025" is).
        ("the", part, of)
            if matches!(
                (part, of),
                ("start" | "beginning" | "end", "of") | ("first" | "second", "half")
            ) && year_after(ws, i + 3, today).is_some() =>
        {
            // After "half", `year_after` reads the "of" too.
            let (y, used) = year_after(ws, i + 3, today)?;
            let (from, months) = match part {
                "start" | "beginning" => (Month::January, 4),
                "end" => (Month::September, 4),
                "first" => (Month::January, 6),
                _ => (Month::July, 6),
            };
            let from = first_of(y, from)?;
            Some((days(from, months_from(y, from.month(), months)?), 3 + used))
        }
        ("the", part @ ("start" | "beginning" | "end"), "of") => {
            let (window, used) = part_of(ws, i + 3, part, on)?;
            Some((window, 3 + used))
        }
        // Said ahead without "the": "end of next month", "by end of the week".
        (part @ ("start" | "beginning" | "end"), "of", _) if on.ahead => {
            let (window, used) = part_of(ws, i + 2, part, on)?;
            Some((window, 2 + used))
        }
        // A season of a year ("the summer of 2025", "in summer 2025"). A season alone is not
        // read: it is as often a habit's ("what do I do during the summer?").
        ("the", s, "of") if season(s).is_some() && year_number(w(i + 3)).is_some() => {
            Some((season_of(season(s)?, year_number(w(i + 3))?)?, 4))
        }
        (s, y, _) if season(s).is_some() && year_number(y).is_some() => {
            Some((season_of(season(s)?, year_number(y)?)?, 2))
        }
        (s, "of", y) if season(s).is_some() && year_number(y).is_some() => {
            Some((season_of(season(s)?, year_number(y)?)?, 3))
        }
        ("in" | "during" | "over", "the", s) if season(s).is_some() => {
            let (window, used) = read(ws, i + 2, on)?;
            Some((window, used + 2))
        }
        ("in" | "during" | "over", s, _) if season(s).is_some() => {
            let (window, used) = read(ws, i + 1, on)?;
            Some((window, used + 1))
        }
        // Holidays asked about as a time ("last Christmas", "on New Year's Eve", "this
        // Easter"; not "what do we eat at Christmas?"): the latest one begun by today ("last":
        // one that has ended).
        (first @ ("last" | "this" | "on"), _, _) if holiday(ws, i + 1, today.year()).is_some() => {
            let (from, until, used) = latest_holiday(ws, i + 1, on, first == "last")?;
            Some((days(from, until), used + 1))
        }
        // "since Monday", "since March", "since 3 May", "since last week": from then to today.
        ("since", next, _) => {
            let (from, used) = match calendar::weekday(next) {
                Some(day) if next.len() > 2 => (calendar::previous_weekday(today, day), 1),
                _ => {
                    let (window, used) = edge_of(ws, i + 1, on)?;
                    (day_of(window.after?)?, used)
                }
            };
            Some((days(from, tomorrow), 1 + used))
        }
        // One side of a span: "as of December 2023", "until last week" and "by July 10, 2022"
        // end where it ends, "before 2020" where it begins; "after March" begins where it
        // ends. "By" only with a year: "by Friday" is a deadline asked about, not a time.
        (edge @ ("as" | "by" | "before" | "after" | "until" | "till"), next, _) => {
            let from = i + 1 + usize::from(edge == "as");
            let compared = next == "or" || (i > 0 && ws[i - 1].text == "or");
            if (edge == "as" && next != "of") || compared {
                return None;
            }
            let (span, used) = edge_of(ws, from, on)?;
            let dated = ws[from..from + used]
                .iter()
                .any(|x| year_number(&x.text).is_some());
            if edge == "by" && !dated && !on.ahead {
                return None;
            }
            let window = match edge {
                "before" => Window {
                    after: None,
                    before: span.after,
                },
                "after" => Window {
                    after: span.before,
                    before: None,
                },
                _ => Window {
                    after: None,
                    before: span.before,
                },
            };
            Some((window, from - i + used))
        }
        _ => range(ws, i, on, TO).or_else(|| on_date(ws, i, on)),
    }
}

/// The start or end of the month named from word `i` ("the month", "last month", "next
/// month", "March": its first or last ten days, [`month_part`]), or of a week ("the week",
/// "next week": its Monday and Tuesday, or its weekend), and how many words name it.
pub(super) fn part_of(ws: &[Word], i: usize, part: &str, on: On) -> Option<(Window, usize)> {
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let today = on.today;
    let month = |n: i32| months_from(today.year(), today.month(), n);
    let (from, until, used) = match (w(i), w(i + 1)) {
        ("the" | "this", "month") => (month(0)?, month(1)?, 2),
        ("last", "month") => (month(-1)?, month(0)?, 2),
        ("next", "month") => (month(1)?, month(2)?, 2),
        (which @ ("the" | "this" | "next"), "week") => {
            let week = match which {
                "next" => next("week", today, false)?,
                _ => next("week", shift(today, -7), false)?,
            };
            let monday = day_of(week.after?)?;
            let (from, until) = match part {
                "end" => (shift(monday, 5), shift(monday, 7)),
                _ => (monday, shift(monday, 2)),
            };
            return Some((days(from, until), 2));
        }
        _ => month_of(ws, i, on)?,
    };
    let part = if part == "end" { "late" } else { "early" };
    Some((month_part(part, from, until)?, used))
}

/// Words before a quarter's name that make it a time ("in Q3"), not a subject ("the Q4
/// budget"). Not "for": "the plan for Q4" is as often of the quarter ahead, and a quarter
/// alone is read as the latest begun.
pub(super) const PLACING: &[&str] = &[
    "in", "during", "over", "since", "until", "till", "before", "after", "by", "of",
];

/// The words that join a range's two ends ("from 1 March to 10 March"), besides a dash.
pub(super) const TO: &[&str] = &["to", "until", "till", "through", "thru"];

/// The span named from word `i` after a word that places a question against it ("since",
/// "until", "as of"): a month or a year alone ("March", "December 2023", "2020") as well as
/// what [`at`] reads.
pub(super) fn edge_of(ws: &[Word], i: usize, on: On) -> Option<(Window, usize)> {
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    if let Some(y) = year_number(w(i)).filter(|_| !ws[i].dash) {
        return Some((year(y)?, 1));
    }
    // Said ahead, a holiday alone: "before Christmas", "by Easter". (A question's "before
    // Christmas" is placed against what was said of it: [`anchored`].)
    if let Some((from, until, used)) = latest_holiday(ws, i, on, false).filter(|_| on.ahead) {
        return Some((days(from, until), used));
    }
    match month_of(ws, i, on) {
        Some((from, until, used)) if date_at(ws, i, on).is_none() => {
            Some((days(from, until), used))
        }
        _ => at(ws, i, on),
    }
}
