//! Spans of whole UTC days, and the steps between them: a month's or a year's first day, the
//! latest month begun, the last weekend, a part of a month.

use time::{Date, Month, Weekday};

use crate::calendar::{self, shift};
use crate::clock::{Window, DAY_MS};

use super::On;

pub(super) fn first_of(year: i32, m: Month) -> Option<Date> {
    Date::from_calendar_date(year, m, 1).ok()
}

/// The whole of `year`.
pub(super) fn year(y: i32) -> Option<Window> {
    Some(days(
        first_of(y, Month::January)?,
        first_of(y + 1, Month::January)?,
    ))
}

/// The first day of the month `n` months after (or before, negative) `year`/`m`.
pub(super) fn months_from(year: i32, m: Month, n: i32) -> Option<Date> {
    let index = year * 12 + (m as i32 - 1) + n;
    let month = Month::try_from((index.rem_euclid(12) + 1) as u8).ok()?;
    first_of(index.div_euclid(12), month)
}

/// The first day of the latest `m` begun by today (ahead: the first not over).
pub(super) fn latest_month(on: On, m: Month) -> Option<Date> {
    let today = on.today;
    let this = first_of(today.year(), m)?;
    if on.ahead {
        let over = months_from(today.year(), m, 1)? <= today;
        return if over {
            first_of(today.year() + 1, m)
        } else {
            Some(this)
        };
    }
    if this <= today {
        Some(this)
    } else {
        first_of(today.year() - 1, m)
    }
}

/// A span of days `[from, until)`.
pub(super) fn days(from: Date, until: Date) -> Window {
    let ms = |d: Date| d.midnight().assume_utc().unix_timestamp() * 1000;
    // A span past the calendar's last day (9999-12-31, where a step forward stays) ends with it.
    let before = if until <= from && until == Date::MAX {
        ms(until) + DAY_MS
    } else {
        ms(until)
    };
    Window {
        after: Some(ms(from)),
        before: Some(before),
    }
}

/// The Saturday of the last weekend that has begun before today (a Sunday's is the one
/// before it).
pub(super) fn last_saturday(today: Date) -> Date {
    let saturday = calendar::previous_weekday(today, Weekday::Saturday);
    if today.weekday() == Weekday::Sunday {
        shift(saturday, -7)
    } else {
        saturday
    }
}

/// Ten days of the month `[from, until)`: its first ("early"), middle ("mid") or last ("late").
pub(super) fn month_part(part: &str, from: Date, until: Date) -> Option<Window> {
    Some(match part {
        "early" => days(from, shift(from, 10)),
        "mid" => days(shift(from, 10), shift(from, 20)),
        "late" => days(shift(until, -10), until),
        _ => return None,
    })
}
