//! Times counted from today: "yesterday", "last week", "10 days ago", "this weekend", "the
//! past few days", "the other day", and times ahead, "tomorrow", "next Friday", "the week after
//! next", "in 3 days".

use time::{Date, Month, Weekday};

use crate::calendar::{self, month, shift, year_number};
use crate::clock::Window;

use super::dates::{date_at, month_of, the_day, year_after};
use super::span::{days, first_of, last_saturday, latest_month, months_from, year};
use super::words::{count, Word};
use super::year::{nth_of_four, quarter, quarter_of, quarter_start, SEASONS};
use super::{in_calendar, On};

/// The span named by the words from `i`, and how many words name it.
pub(super) fn at(ws: &[Word], i: usize, on: On) -> Option<(Window, usize)> {
    let today = on.today;
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let tomorrow = shift(today, 1);
    let monday = shift(today, -(today.weekday().number_days_from_monday() as i64));
    let this_month = first_of(today.year(), today.month())?;
    let this_year = first_of(today.year(), Month::January)?;
    // "earlier this week" is "this week".
    let (i, lead) = if w(i) == "earlier" && w(i + 1) == "this" {
        (i + 1, 1)
    } else if (w(i), w(i + 1), w(i + 2)) == ("earlier", "in", "the")
        && matches!(w(i + 3), "week" | "month" | "year")
    {
        let from = match w(i + 3) {
            "week" => monday,
            "month" => this_month,
            _ => this_year,
        };
        return Some((days(from, tomorrow), 4));
    } else {
        (i, 0)
    };
    // "the previous week" is "last week".
    let first = match (w(i), w(i + 1)) {
        ("previous", "week" | "weekend" | "month" | "year" | "quarter") => "last",
        (x, _) => x,
    };
    let found = match (first, w(i + 1), w(i + 2)) {
        ("today" | "tonight", _, _) => Some((days(today, tomorrow), 1)),
        // The weekend now or just past: "over the weekend", "this weekend" (not "on the
        // weekend", as often a habit's).
        // Not "over the weekend before 4th October", counted from its day.
        ("this", "weekend", _) | ("over", "the", "weekend")
            if !matches!(
                w(i + 2 + usize::from(first == "over")),
                "before" | "after" | "of"
            ) =>
        {
            let saturday = match today.weekday() {
                Weekday::Saturday => today,
                Weekday::Sunday => shift(today, -1),
                // Said ahead on a weekday, the coming one.
                _ if on.ahead => calendar::next_weekday(today, Weekday::Saturday, true),
                _ => calendar::previous_weekday(today, Weekday::Saturday),
            };
            Some((
                days(saturday, shift(saturday, 2)),
                2 + usize::from(first == "over"),
            ))
        }
        // The same day a year ago, give or take a week: "this time last year".
        ("this", "time", "last") if w(i + 3) == "year" => {
            let day = same_day_back(today, 12)?;
            Some((days(shift(day, -7), shift(day, 8)), 4))
        }
        ("this", "morning" | "afternoon" | "evening", _) => Some((days(today, tomorrow), 2)),
        ("last", "night", _) => Some((days(shift(today, -1), today), 2)),
        ("yesterday", _, _) => Some((days(shift(today, -1), today), 1)),
        // Before "last week": "the last week of October".
        (nth, "week" | "weekend", "of") if nth_of_four(nth).is_some() => {
            let (from, until, used) = month_of(ws, i + 3, on)?;
            let n = nth_of_four(nth)?;
            // The nth seven days of the month (the last: its final seven), a day either side.
            let start = if n == 0 {
                shift(until, -7)
            } else {
                shift(from, 7 * (n - 1))
            };
            Some((days(shift(start, -1), shift(start, 8)), 3 + used))
        }
        // Said ahead, the whole of it ("I'll finish it this week").
        ("this", unit @ ("week" | "month" | "year"), _) if on.ahead => {
            let from = match unit {
                "week" => monday,
                "month" => this_month,
                _ => this_year,
            };
            let before = next(unit, today, false)?.after;
            Some((
                Window {
                    before,
                    ..days(from, tomorrow)
                },
                2,
            ))
        }
        ("this", "week", _) => Some((days(monday, tomorrow), 2)),
        ("this", "month", _) => Some((days(this_month, tomorrow), 2)),
        ("this", "year", _) => Some((days(this_year, tomorrow), 2)),
        ("last", "week", _) => Some((days(shift(monday, -7), monday), 2)),
        ("last", "weekend", _) | ("this", "past", "weekend") => {
            let saturday = last_saturday(today);
            Some((
                days(saturday, shift(saturday, 2)),
                2 + usize::from(w(i) == "this"),
            ))
        }
        ("last", "month", _) => Some((
            days(months_from(today.year(), today.month(), -1)?, this_month),
            2,
        )),
        ("last", "year", _) => Some((year(today.year() - 1)?, 2)),
        // The calendar's quarters: "last quarter" the one before this, "this quarter" to today.
        // Not "the last quarter of the game".
        ("last", "quarter", next) if next != "of" => {
            let (q, y) = (quarter_of(today), today.year());
            let (q, y) = if q == 1 { (4, y - 1) } else { (q - 1, y) };
            Some((quarter(q, y)?, 2))
        }
        ("this", "quarter", next) if next != "of" => Some((
            days(quarter_start(quarter_of(today), today.year())?, tomorrow),
            2,
        )),
        ("last" | "this", s, _) if SEASONS.iter().any(|x| x.0 == s) => {
            let start = SEASONS.iter().find(|x| x.0 == s)?.1;
            // The latest such season begun by today; "last" one that has ended; "this" one
            // still to come this year ("this summer", said in March, of the coming one).
            let mut from = latest_month(on, start)?;
            let until = months_from(from.year(), from.month(), 3)?;
            if w(i) == "last" && until > today {
                from = first_of(from.year() - 1, start)?;
            }
            if w(i) == "this" && until <= today {
                from = first_of(today.year(), start)
                    .filter(|d| *d > today)
                    .unwrap_or(from);
            }
            Some((days(from, months_from(from.year(), from.month(), 3)?), 2))
        }
        ("this", "past", d) if calendar::weekday(d).is_some() && d.len() > 2 => {
            let day = calendar::previous_weekday(today, calendar::weekday(d)?);
            Some((days(day, shift(day, 1)), 3))
        }
        ("last" | "on", d, _) if calendar::weekday(d).is_some() && d.len() > 2 => {
            // "on Tuesday the 3rd", "on Friday, March 6": the date.
            let dated = (w(i) == "on")
                .then(|| date_at(ws, i + 2, on).or_else(|| the_day(ws, i + 2, on)))
                .flatten();
            let latest = match (w(i), on.ahead) {
                // Said ahead, "on Friday" is the coming one (today, on a Friday).
                ("on", true) => calendar::next_weekday(today, calendar::weekday(d)?, false),
                _ => calendar::previous_weekday(today, calendar::weekday(d)?),
            };
            let (day, used) = match dated {
                Some((date, n)) => (date, 2 + n),
                // "on Saturday before last": the one before the latest.
                None if (w(i + 2), w(i + 3)) == ("before", "last") => (shift(latest, -7), 4),
                None => (latest, 2),
            };
            Some((days(day, shift(day, 1)), used))
        }
        // Said ahead, a weekday alone is the coming one ("see you Friday", "by Friday").
        (d, _, _) if on.ahead && d.len() > 3 && calendar::weekday(d).is_some() => {
            let day = calendar::next_weekday(today, calendar::weekday(d)?, false);
            Some((days(day, shift(day, 1)), 1))
        }
        // A month; "in March 3" and "in March 1-10" are of their days.
        ("in" | "during" | "last", m, _)
            if month(m).is_some()
                && (m.len() > 3 || m == "may")
                && date_at(ws, i + 1, on).is_none() =>
        {
            let m = month(m)?;
            let (from, used) = match year_after(ws, i + 2, today) {
                Some((y, n)) => (first_of(y, m)?, 2 + n),
                None if w(i) == "last" && today.month() == m => (first_of(today.year() - 1, m)?, 2),
                None => (latest_month(on, m)?, 2),
            };
            Some((days(from, months_from(from.year(), m, 1)?), used))
        }
        ("in" | "during", y, _) if year_number(y).is_some() && !ws[i + 1].dash => {
            Some((year(year_number(y)?)?, 2))
        }
        // Two counts: "two or three days ago", "3-4 weeks ago", "a week or two ago".
        (a, "or" | "to", b) if count(a).is_some() && count(b).is_some() && ago_word(w(i + 4)) => {
            Some((ago_between(count(a)?, count(b)?, w(i + 3), today)?, 5))
        }
        (a, b, unit)
            if count(a).is_some() && count(b).is_some() && ws[i].dash && ago_word(w(i + 3)) =>
        {
            Some((ago_between(count(a)?, count(b)?, unit, today)?, 4))
        }
        ("a" | "an", unit, "or") if count(w(i + 3)).is_some() && ago_word(w(i + 4)) => {
            Some((ago_between(1, count(w(i + 3))?, unit, today)?, 5))
        }
        // "a year ago today", "three months ago today": that day, a day either side.
        (n, unit, "ago")
            if count(n).is_some() && w(i + 3) == "today" && months_in(unit).is_some() =>
        {
            let day = same_day_back(today, count(n)? * months_in(unit)?)?;
            Some((days(shift(day, -1), shift(day, 2)), 4))
        }
        (n, unit, "ago" | "back") if count(n).is_some() => Some((ago(count(n)?, unit, today)?, 3)),
        _ => None,
    };
    let found = found
        .or_else(|| more(ws, i, on))
        .or_else(|| in_calendar::read(ws, i, on));
    found.map(|(window, used)| (window, used + lead))
}

/// The span `n` `unit`s ago ("day", "weeks", "fortnight", "weekends", "month", "years"): a
/// count of days allows a day either side, of weeks three days.
pub(super) fn ago(n: i64, unit: &str, today: Date) -> Option<Window> {
    let unit = unit.strip_suffix('s').unwrap_or(unit);
    Some(match unit {
        "fortnight" => {
            let d = shift(today, -(14 * n));
            days(shift(d, -3), shift(d, 4))
        }
        "weekend" => {
            let saturday = shift(last_saturday(today), -(7 * (n - 1)));
            days(saturday, shift(saturday, 2))
        }
        "day" => {
            let d = shift(today, -n);
            days(shift(d, -1), shift(d, 2))
        }
        "week" => {
            let d = shift(today, -(7 * n));
            days(shift(d, -3), shift(d, 4))
        }
        "month" => {
            let from = months_from(today.year(), today.month(), -(n as i32))?;
            days(from, months_from(from.year(), from.month(), 1)?)
        }
        "year" => year(today.year() - n as i32)?,
        // "two Saturdays ago": the latest one's, counted back.
        d => {
            let day =
                calendar::previous_weekday(today, calendar::weekday(d).filter(|_| d.len() > 2)?);
            let day = shift(day, -(7 * (n - 1)));
            days(day, shift(day, 1))
        }
    })
}

/// The day a count of days, weeks, months (30 days) or years (365) from word `i` ("3 days",
/// "a couple of weeks", "a few months") comes to after today, and how many words say it.
pub(super) fn counted_ahead(ws: &[Word], i: usize, today: Date) -> Option<(Date, usize)> {
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let (n, used) = match (w(i), w(i + 1), w(i + 2)) {
        ("a" | "an", "couple", "of") | ("couple", "of", _) => {
            (2, 3 - usize::from(w(i) == "couple"))
        }
        ("a", "few", _) => (3, 2),
        (n, _, _) => (count(n)?, 1),
    };
    Some((shift(today, days_in(n, w(i + used))?), used + 1))
}

/// How many days `n` days, weeks, months (30 days) or years (365) are, as a stretch up to or
/// from today counts them.
pub(super) fn days_in(n: i64, unit: &str) -> Option<i64> {
    let per = match unit.strip_suffix('s').unwrap_or(unit) {
        "day" => 1,
        "week" => 7,
        "month" => 30,
        "year" => 365,
        _ => return None,
    };
    Some(per * n)
}

/// The next `unit` after today: "week" (Monday to Sunday), "weekend" (next week's; the first
/// after today when `coming`), "month", "year", or a day of the week (the first after today).
pub(super) fn next(unit: &str, today: Date, coming: bool) -> Option<Window> {
    let monday = calendar::next_weekday(today, Weekday::Monday, true);
    let saturday = match coming {
        true => calendar::next_weekday(today, Weekday::Saturday, true),
        false => shift(monday, 5),
    };
    Some(match unit {
        "week" => days(monday, shift(monday, 7)),
        "weekend" => days(saturday, shift(saturday, 2)),
        "month" => {
            let from = months_from(today.year(), today.month(), 1)?;
            days(from, months_from(from.year(), from.month(), 1)?)
        }
        "year" => year(today.year() + 1)?,
        d => {
            let day =
                calendar::next_weekday(today, calendar::weekday(d).filter(|_| d.len() > 2)?, true);
            days(day, shift(day, 1))
        }
    })
}

/// How many months a unit of time ago is: "month(s)" one, "year(s)" twelve.
pub(super) fn months_in(unit: &str) -> Option<i64> {
    match unit.strip_suffix('s').unwrap_or(unit) {
        "month" => Some(1),
        "year" => Some(12),
        _ => None,
    }
}

/// The day `months` months before `today`, on the same day of the month (or that month's last).
pub(super) fn same_day_back(today: Date, months: i64) -> Option<Date> {
    let first = months_from(today.year(), today.month(), -i32::try_from(months).ok()?)?;
    let last = first.month().length(first.year());
    first.replace_day(today.day().min(last)).ok()
}

/// Whether a word counts back from today ("ago", "back").
pub(super) fn ago_word(w: &str) -> bool {
    matches!(w, "ago" | "back")
}

/// From `a` or `b` `unit`s ago, whichever is longer ago, to the other, each end as loose as
/// that count alone is ([`ago`]).
pub(super) fn ago_between(a: i64, b: i64, unit: &str, today: Date) -> Option<Window> {
    let (far, near) = (ago(a.max(b), unit, today)?, ago(a.min(b), unit, today)?);
    Some(Window {
        after: far.after,
        before: near.before,
    })
}

/// The rest of [`at`]'s readings counted from today, tried where none of its own reads:
/// times ahead as plans name them, and the days, weeks and stretches just past.
pub(super) fn more(ws: &[Word], i: usize, on: On) -> Option<(Window, usize)> {
    let today = on.today;
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let tomorrow = shift(today, 1);
    let monday = shift(today, -(today.weekday().number_days_from_monday() as i64));
    match (w(i), w(i + 1), w(i + 2)) {
        // Times ahead, as plans name them ("what do I have tomorrow?"): "tomorrow", "the day
        // after tomorrow", "the week after next", "next week", "next Friday" (the first
        // after today, as the extractor reads it), "this coming weekend", "later this month",
        // "in 3 days", "the next few days", "the coming weeks".
        ("tomorrow", _, _) => Some((days(tomorrow, shift(today, 2)), 1)),
        ("the", "day", "after") if w(i + 3) == "tomorrow" => {
            Some((days(shift(today, 2), shift(today, 3)), 4))
        }
        ("the", "week", "after") if w(i + 3) == "next" => {
            Some((days(shift(monday, 14), shift(monday, 21)), 4))
        }
        (first @ ("next" | "coming"), unit, _) => Some((next(unit, today, first == "coming")?, 2)),
        ("this", "coming", unit) => Some((next(unit, today, true)?, 3)),
        ("later", "this", unit) => {
            let until = next(unit, today, false)?.after;
            Some((
                Window {
                    before: until,
                    ..days(tomorrow, tomorrow)
                },
                3,
            ))
        }
        // Said ahead, "in 3 days", "within a couple of weeks", "in 2 months" is that day.
        ("in" | "within", _, _) if on.ahead && counted_ahead(ws, i + 1, today).is_some() => {
            let (day, used) = counted_ahead(ws, i + 1, today)?;
            Some((days(day, shift(day, 1)), 1 + used))
        }
        // Not "in a week" (as often a rate: "twice in a week").
        ("in", n, unit @ ("day" | "days" | "week" | "weeks")) if count(n).is_some() && n != "a" => {
            let n = count(n)?;
            let (day, slack) = match unit.strip_suffix('s').unwrap_or(unit) {
                "day" => (shift(today, n), 1),
                "week" => (shift(today, 7 * n), 3),
                _ => return None,
            };
            Some((days(shift(day, -slack), shift(day, slack + 1)), 3))
        }
        // A count or a plural ("the coming weeks": a few), not "the next day" (of an event
        // the question names); "the coming week".
        ("the", first @ ("next" | "coming"), c) => {
            let (n, unit, used) = match count(c) {
                Some(n) if c != "a" => (n, w(i + 3), 4),
                _ if c.ends_with('s') => (3, c, 3),
                _ if first == "coming" => (1, c, 3),
                _ => return None,
            };
            Some((days(tomorrow, shift(tomorrow, days_in(n, unit)?)), used))
        }
        // "the day before yesterday", "the week (or weekend) before last".
        ("the", _, "before") => {
            let (window, used) = more(ws, i + 1, on)?;
            Some((window, used + 1))
        }
        // "the other day" (the week before today), "the other week" (one to three weeks ago).
        // Not "the other day of the trip".
        ("the", "other", "day" | "night") if w(i + 3) != "of" => {
            Some((days(shift(today, -7), today), 3))
        }
        ("the", "other", "week") if w(i + 3) != "of" => {
            Some((ago_between(1, 3, "weeks", today)?, 3))
        }
        ("day", "before", "yesterday") | ("night", "before", "last") => {
            Some((days(shift(today, -2), shift(today, -1)), 3))
        }
        ("week", "before", "last") => Some((days(shift(monday, -14), shift(monday, -7)), 3)),
        ("weekend", "before", "last") => Some((ago(2, "weekend", today)?, 3)),
        ("month", "before", "last") => Some((ago(2, "months", today)?, 3)),
        ("year", "before", "last") => Some((year(today.year() - 2)?, 3)),
        (d, "before", "last") if calendar::weekday(d).is_some() && d.len() > 2 => {
            let day = shift(calendar::previous_weekday(today, calendar::weekday(d)?), -7);
            Some((days(day, shift(day, 1)), 3))
        }
        // "a couple of days ago", "half a year ago" (of a count of days or months: the middle
        // of the span, as loosely as the count).
        ("couple", "of", unit) if w(i + 3) == "ago" => Some((ago(2, unit, today)?, 4)),
        ("half", "a" | "an", "year") if w(i + 3) == "ago" => Some((ago(6, "months", today)?, 4)),
        // The last stretch up to today: "the past few days", "the last 3 weeks", "the past
        // month" (where "last month" is the calendar's).
        ("the" | "this", "past" | "last", _) => {
            let (n, unit, used) = match (count(w(i + 2)), w(i + 2), w(i + 3)) {
                (_, "couple", "of") => (2, w(i + 4), 5),
                (Some(n), c, _) if c != "a" => (n, w(i + 3), 4),
                _ => (1, w(i + 2), 3),
            };
            if w(i + used) == "of" {
                return None;
            }
            // "the past weekend" is the last one.
            if (n, unit) == (1, "weekend") {
                return Some((ago(1, unit, today)?, used));
            }
            let span = match unit {
                // "the past 48 hours": the days they touch, today's included.
                "hour" | "hours" => (n + 23) / 24 + 1,
                _ => days_in(n, unit)?,
            };
            Some((days(shift(tomorrow, -span), tomorrow), used))
        }
        _ => None,
    }
}
