//! The schedule tag grammar: `cron:hourly`, `cron:daily[:HH:MM]`,
//! `cron:weekly:DAY:HH:MM`, `cron:weekdays:HH:MM`, `cron:monthly:D:HH:MM`, `cron:every:<dur>`,
//! `cron:once:<RFC 3339>`, and when each falls due. Times are UTC; a monthly day past a
//! month's end falls on its last day (the 31st in February is the 28th, or the 29th in a
//! leap year).

use std::fmt;

use time::{Date, Duration, Month, OffsetDateTime, PrimitiveDateTime, Time, Weekday};

use crate::calendar::{self, shift};
use crate::clock::Millis;
use crate::error::{Error, Result};

/// When a schedule falls due.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    /// At the top of every hour.
    Hourly,
    /// Every day at this time (default 09:00).
    Daily(Time),
    /// Every week on this day at this time.
    Weekly(Weekday, Time),
    /// Monday to Friday at this time.
    Weekdays(Time),
    /// Every month on this day (1–31; the month's last day when shorter) at this time.
    Monthly(u8, Time),
    /// Every interval from the schedule's start.
    Every(Millis),
    /// Once, at this moment.
    Once(Millis),
}

/// Shortest `every` interval.
const MIN_EVERY_MS: Millis = 60_000;
/// Longest `every` interval (a year).
const MAX_EVERY_MS: Millis = 366 * 86_400_000;
/// Daily schedules without a time fall due at this hour.
const DEFAULT_HOUR: u8 = 9;

fn bad(tag: &str, why: impl fmt::Display) -> Error {
    Error::invalid(
        "cron_tag",
        format!(
            "{:?} {why}; use cron:hourly, cron:daily[:HH:MM], cron:weekly:DAY:HH:MM, cron:weekdays:HH:MM, cron:monthly:D:HH:MM, cron:every:<duration> or cron:once:<RFC 3339 time>",
            tag.chars().take(80).collect::<String>()
        ),
    )
}

fn clock(tag: &str, h: &str, m: &str) -> Result<Time> {
    let (h, m) = (h.parse::<u8>(), m.parse::<u8>());
    match (h, m) {
        (Ok(h), Ok(m)) => Time::from_hms(h, m, 0).map_err(|_| bad(tag, "has no such time of day")),
        _ => Err(bad(tag, "has a time that is not HH:MM")),
    }
}

impl Tag {
    /// Parses a tag of the grammar above.
    pub fn parse(tag: &str) -> Result<Tag> {
        let Some(rest) = tag.strip_prefix("cron:") else {
            return Err(bad(tag, "does not start with \"cron:\""));
        };
        let parts: Vec<&str> = rest.split(':').collect();
        Ok(match parts.as_slice() {
            ["hourly"] => Tag::Hourly,
            ["daily"] => Tag::Daily(Time::from_hms(DEFAULT_HOUR, 0, 0).unwrap_or(Time::MIDNIGHT)),
            ["daily", h, m] => Tag::Daily(clock(tag, h, m)?),
            ["weekly", d, h, m] => Tag::Weekly(
                calendar::weekday(d).ok_or_else(|| bad(tag, "has no such weekday"))?,
                clock(tag, h, m)?,
            ),
            ["weekdays", h, m] => Tag::Weekdays(clock(tag, h, m)?),
            ["monthly", d, h, m] => {
                let day = d.parse::<u8>().ok().filter(|d| (1..=31).contains(d));
                Tag::Monthly(
                    day.ok_or_else(|| bad(tag, "has a day of the month outside 1–31"))?,
                    clock(tag, h, m)?,
                )
            }
            ["every", d] => {
                let ms = humantime::parse_duration(d)
                    .map_err(|e| bad(tag, format!("has a duration that does not read ({e})")))?
                    .as_millis();
                let ms = Millis::try_from(ms).unwrap_or(Millis::MAX);
                if !(MIN_EVERY_MS..=MAX_EVERY_MS).contains(&ms) {
                    return Err(bad(tag, "has an interval outside one minute to a year"));
                }
                Tag::Every(ms)
            }
            ["once", ..] => {
                let when = &rest["once:".len()..];
                let t = OffsetDateTime::parse(when, &time::format_description::well_known::Rfc3339)
                    .map_err(|e| bad(tag, format!("has a time that is not RFC 3339 ({e})")))?;
                Tag::Once((t.unix_timestamp_nanos() / 1_000_000) as Millis)
            }
            _ => return Err(bad(tag, "is not a schedule")),
        })
    }

    /// The first time strictly after `after` this schedule falls due, counting `every` from
    /// `start`; `None` once a one-off has passed.
    pub fn next_after(&self, after: Millis, start: Millis) -> Option<Millis> {
        let at = to_dt(after)?;
        let day = at.date();
        let first_after = |candidates: &mut dyn Iterator<Item = PrimitiveDateTime>| {
            candidates.map(millis).find(|&t| t > after)
        };
        match *self {
            Tag::Hourly => {
                let hour = PrimitiveDateTime::new(day, Time::from_hms(at.hour(), 0, 0).ok()?);
                hour.checked_add(Duration::HOUR).map(millis)
            }
            Tag::Daily(t) => {
                first_after(&mut (0..=1).map(|k| PrimitiveDateTime::new(shift(day, k), t)))
            }
            Tag::Weekly(w, t) => {
                let next = calendar::next_weekday(day, w, false);
                first_after(
                    &mut [next, shift(next, 7)]
                        .into_iter()
                        .map(|d| PrimitiveDateTime::new(d, t)),
                )
            }
            Tag::Weekdays(t) => first_after(
                &mut (0..=7)
                    .map(|k| shift(day, k))
                    .filter(|d| !matches!(d.weekday(), Weekday::Saturday | Weekday::Sunday))
                    .map(|d| PrimitiveDateTime::new(d, t)),
            ),
            Tag::Monthly(dom, t) => {
                let mut months = Vec::with_capacity(3);
                let (mut y, mut m) = (day.year(), day.month());
                for _ in 0..3 {
                    let d = dom.min(m.length(y));
                    // Past the calendar's last month (9999): the months before it still count.
                    let Ok(date) = Date::from_calendar_date(y, m, d) else {
                        break;
                    };
                    months.push(PrimitiveDateTime::new(date, t));
                    if m == Month::December {
                        y += 1;
                    }
                    m = m.next();
                }
                first_after(&mut months.into_iter())
            }
            Tag::Every(ms) => {
                if after < start {
                    return Some(start + ms);
                }
                let n = (after - start) / ms + 1;
                Some(start + n * ms)
            }
            Tag::Once(t) => (t > after).then_some(t),
        }
    }
}

fn to_dt(t: Millis) -> Option<PrimitiveDateTime> {
    let dt = OffsetDateTime::from_unix_timestamp_nanos(i128::from(t) * 1_000_000).ok()?;
    Some(PrimitiveDateTime::new(dt.date(), dt.time()))
}

fn millis(t: PrimitiveDateTime) -> Millis {
    (t.assume_utc().unix_timestamp_nanos() / 1_000_000) as Millis
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> Millis {
        let t = OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).unwrap();
        (t.unix_timestamp_nanos() / 1_000_000) as Millis
    }

    fn next(tag: &str, after: &str) -> String {
        let t = Tag::parse(tag)
            .unwrap()
            .next_after(at(after), at("2028-01-01T00:00:00Z"))
            .unwrap();
        let dt = to_dt(t).unwrap();
        format!("{} {:02}:{:02}", dt.date(), dt.hour(), dt.minute())
    }

    #[test]
    fn each_form_falls_due_when_it_says() {
        assert_eq!(
            next("cron:hourly", "2028-02-28T23:30:00Z"),
            "2028-02-29 00:00"
        );
        assert_eq!(
            next("cron:daily", "2028-02-28T10:00:00Z"),
            "2028-02-29 09:00"
        );
        assert_eq!(
            next("cron:daily:09:00", "2028-02-28T08:59:00Z"),
            "2028-02-28 09:00"
        );
        assert_eq!(
            next("cron:daily:09:00", "2028-02-28T09:00:00Z"),
            "2028-02-29 09:00",
            "strictly after"
        );
        assert_eq!(
            next("cron:weekly:mon:09:00", "2028-02-28T10:00:00Z"),
            "2028-03-06 09:00"
        );
        assert_eq!(
            next("cron:weekly:Tuesday:18:30", "2028-02-28T10:00:00Z"),
            "2028-02-29 18:30"
        );
        for day in ["tues", "thu", "thur", "THURS"] {
            let want = if day == "tues" {
                "2028-02-29 07:00"
            } else {
                "2028-03-02 07:00"
            };
            assert_eq!(
                next(&format!("cron:weekly:{day}:07:00"), "2028-02-28T10:00:00Z"),
                want,
                "{day}"
            );
        }
        assert_eq!(
            next("cron:weekdays:08:15", "2028-03-03T09:00:00Z"),
            "2028-03-06 08:15",
            "Friday → Monday"
        );
        assert_eq!(
            next("cron:every:2h", "2028-01-01T05:00:00Z"),
            "2028-01-01 06:00"
        );
        assert_eq!(
            next("cron:every:90m", "2028-01-01T00:00:00Z"),
            "2028-01-01 01:30"
        );
        assert_eq!(
            next("cron:once:2028-03-01T12:00:00Z", "2028-02-28T00:00:00Z"),
            "2028-03-01 12:00"
        );
        assert!(Tag::parse("cron:once:2028-03-01T12:00:00Z")
            .unwrap()
            .next_after(at("2028-03-02T00:00:00Z"), 0)
            .is_none());
    }

    #[test]
    fn the_calendars_last_days_fall_due_while_they_last() {
        // A monthly schedule in the calendar's last November still falls due that month and
        // the next, though the month after those is past the calendar.
        assert_eq!(
            next("cron:monthly:20:09:00", "9999-11-15T00:00:00Z"),
            "9999-11-20 09:00"
        );
        assert_eq!(
            next("cron:monthly:20:09:00", "9999-11-25T00:00:00Z"),
            "9999-12-20 09:00"
        );
        assert_eq!(
            next("cron:daily:23:00", "9999-12-31T10:00:00Z"),
            "9999-12-31 23:00"
        );
        // At its last moment nothing but an interval is due again, and nothing panics.
        let last = crate::clock::MAX_MILLIS;
        for tag in [
            "cron:hourly",
            "cron:daily",
            "cron:weekly:fri:09:00",
            "cron:weekly:sat:09:00",
            "cron:weekdays:09:00",
            "cron:monthly:31:09:00",
            "cron:once:9999-12-31T00:00:00Z",
        ] {
            let next = Tag::parse(tag).unwrap().next_after(last, 0);
            assert_eq!(next, None, "{tag}");
        }
        let every = Tag::parse("cron:every:1h").unwrap().next_after(last, 0);
        assert!(every.is_some_and(|t| t > last));
    }

    #[test]
    fn month_ends_and_leap_days() {
        assert_eq!(
            next("cron:monthly:31:09:00", "2028-01-31T10:00:00Z"),
            "2028-02-29 09:00",
            "leap February"
        );
        assert_eq!(
            next("cron:monthly:31:09:00", "2027-01-31T10:00:00Z"),
            "2027-02-28 09:00"
        );
        assert_eq!(
            next("cron:monthly:31:09:00", "2027-02-28T10:00:00Z"),
            "2027-03-31 09:00"
        );
        assert_eq!(
            next("cron:monthly:30:00:00", "2027-12-30T00:00:00Z"),
            "2028-01-30 00:00",
            "year end"
        );
        assert_eq!(
            next("cron:monthly:1:00:00", "2027-12-31T23:59:00Z"),
            "2028-01-01 00:00"
        );
        assert_eq!(
            next("cron:weekly:sun:23:59", "2027-12-31T12:00:00Z"),
            "2028-01-02 23:59"
        );
    }

    #[test]
    fn bad_tags_say_what_is_allowed() {
        for (tag, why) in [
            ("daily", "does not start"),
            ("cron:daily:25:00", "no such time"),
            ("cron:daily:9", "is not a schedule"),
            ("cron:weekly:funday:09:00", "no such weekday"),
            ("cron:monthly:0:09:00", "outside 1–31"),
            ("cron:every:soon", "does not read"),
            ("cron:every:10s", "outside one minute"),
            ("cron:once:tomorrow", "RFC 3339"),
            ("cron:yearly", "is not a schedule"),
        ] {
            let e = Tag::parse(tag).unwrap_err().to_string();
            assert!(
                e.contains(why) && e.contains("cron:weekly:DAY:HH:MM"),
                "{tag}: {e}"
            );
        }
    }
}
