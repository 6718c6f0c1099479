//! The span of time a question names: "yesterday", "10 days ago", "four weeks ago", "last
//! weekend", "earlier this month", "last summer", "in March", "on 3 May", "in 2023", and times
//! ahead as plans name them, "tomorrow", "next week", "next Friday". Days are UTC days of the
//! clock a search runs at (or its `as_of`): a question is about what was said, so a month or
//! weekday alone names its latest past one. A count of days ago allows a day either side, of
//! weeks ago three days, as people count loosely. The same reader gives a plan its time
//! ([`planned`]: a month, a date, a weekday or a holiday named alone is the next one), so
//! what the extractor stores as due and what a question asks of meet.

mod ask;
mod dates;
mod from_today;
mod in_calendar;
mod span;
mod words;
mod year;

use std::sync::LazyLock;

use time::Date;

use crate::calendar::{self, day_of};
use crate::clock::{Millis, Window, DAY_MS};

pub use ask::{anchored, asks_when, names_duration, ordering, ordering_words, Anchor, Order, Side};
use dates::on_date;
use from_today::at;
use words::{words, Word};
/// A span of time a question names, and where it says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The span, whole UTC days.
    pub window: Window,
    /// Byte range of the words that name it in the question.
    pub words: std::ops::Range<usize>,
}

impl Named {
    /// The question without the words that name the span (they are not what to match).
    pub fn without(&self, question: &str) -> String {
        without(question, &self.words)
    }
}

/// `question` without the words at `words` (a byte range of it).
pub fn without(question: &str, words: &std::ops::Range<usize>) -> String {
    let mut s = String::with_capacity(question.len());
    s.push_str(&question[..words.start]);
    s.push(' ');
    s.push_str(&question[words.end..]);
    s
}

/// Days of the week a question keeps to within the span it names: "on weekends in March",
/// "on Mondays last month", "on weekdays this year". A span is one stretch of time; these
/// days are read inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Days {
    /// The days, bit 0 Monday to bit 6 Sunday.
    mask: u8,
    /// Byte range of the words naming them in the question.
    pub words: std::ops::Range<usize>,
}

impl Days {
    /// Whether `at` falls on one of the days (its UTC day, as spans are read).
    pub fn hold(&self, at: Millis) -> bool {
        day_of(at).is_some_and(|d| self.mask & (1 << d.weekday().number_days_from_monday()) != 0)
    }
}

/// Saturday and Sunday, as a [`Days`] mask.
const WEEKEND_DAYS: u8 = 0b110_0000;
/// Monday to Friday.
const WORKING_DAYS: u8 = 0b001_1111;

/// The days of the week a question names in the plural ("on weekends", "on Mondays", "over
/// the weekends", "on weekdays"), with the words that name them. "The weekend" and "last
/// Monday" are spans ([`named`]), not these.
pub fn days_named(question: &str) -> Option<Days> {
    let ws = words(question);
    ws.iter().enumerate().find_map(|(i, w)| {
        let mask = match w.text.as_str() {
            "weekends" => WEEKEND_DAYS,
            "weekdays" => WORKING_DAYS,
            plural => {
                let day = calendar::weekday(plural.strip_suffix('s')?)?;
                if day.to_string().to_lowercase() != plural[..plural.len() - 1] {
                    return None;
                }
                1 << day.number_days_from_monday()
            }
        };
        // The words before it that belong to it: "on", "at", "over", "during", then "the".
        let mut from = i;
        if from > 0 && ws[from - 1].text == "the" {
            from -= 1;
        }
        if from > 0 && matches!(ws[from - 1].text.as_str(), "on" | "at" | "over" | "during") {
            from -= 1;
        }
        Some(Days {
            mask,
            words: ws[from].at.start..w.at.end,
        })
    })
}

/// The day a reading is made on, and which way a time named without its year (week, month)
/// leans.
#[derive(Debug, Clone, Copy)]
struct On {
    today: Date,
    /// Read as a plan says it: a month, a date, a weekday, a season or a holiday named alone
    /// is the next one not over; "this week" (month, year, weekend) the whole of it, or the
    /// coming one; "in 3 days" that day. Otherwise as a question about what was said reads
    /// it: the latest begun.
    ahead: bool,
}

impl On {
    /// The reading of a question about what was said (or of a statement, as told), on `today`.
    fn past(today: Date) -> On {
        On {
            today,
            ahead: false,
        }
    }
}

/// The span of time `question` names, at `now`, if it names one.
pub fn named(question: &str, now: Millis) -> Option<Named> {
    let ws = words(question);
    let today = day_of(now)?;
    let on = On::past(today);
    let spans = spans_in(&ws, on);
    let &(first, used, mut window) = spans.first()?;
    // A question's "this week" (month, year) is the whole of it: what is planned for its days
    // ahead is of it too ("what do I have this week?"). A statement's ends when it was said.
    // "What am I doing this weekend?", asked on a weekday, is of the coming one; "what did I
    // do this weekend?" of the one just past. Both as a plan reads them.
    if used == 2 && ws[first].text == "this" {
        let past = ws.iter().any(|w| PAST_WORDS.contains(&w.text.as_str()));
        if matches!(ws[first + 1].text.as_str(), "week" | "month" | "year")
            || (ws[first + 1].text == "weekend" && !past)
        {
            window = at(&ws, first, On { today, ahead: true })?.0;
        }
    }
    let phrase = |from: usize, to: usize| ws[from].at.start..ws[to - 1].at.end;
    // A span counted from a day the question names beside it: "last weekend before April 10,
    // 2023", "last week, as mentioned on 6 November".
    let counted = ["today", "tonight", "yesterday", "this", "last", "earlier"]
        .contains(&ws[first].text.as_str())
        || ws[first + used - 1].text == "ago";
    let one_day = |w: &Window| w.before.zip(w.after).is_some_and(|(b, a)| b - a == DAY_MS);
    let from_day = spans
        .iter()
        .skip(1)
        .filter(|(i, _, _)| *i <= first + used + COUNTED_FROM_WITHIN)
        .find_map(|&(i, n, w)| {
            // "before" the day is counted from it, not a span of its own.
            let day = match ws[i].text.as_str() {
                "before" => on_date(&ws, i + 1, on)?.0,
                _ => w,
            };
            one_day(&day).then_some((i, n, day))
        });
    if let (true, Some((i, n, day))) = (counted, from_day) {
        let reread = day
            .after
            .and_then(day_of)
            .and_then(|d| at(&ws, first, On::past(d)));
        if let Some((window, _)) = reread {
            return Some(Named {
                window,
                words: phrase(first, i + n),
            });
        }
    }
    // A part of the day beside a day ("in the evening on 20 March", "on 3 May at night") is
    // of the day: its words are the span's.
    let (mut from, mut to) = (first, first + used);
    if window
        .before
        .zip(window.after)
        .is_some_and(|(b, a)| b - a == DAY_MS)
    {
        let texts: Vec<&str> = ws.iter().map(|w| w.text.as_str()).collect();
        for part in PARTS_OF_DAY {
            let n = part.len();
            // "in the evening on 20 March": the part, then "on", then the day.
            let back = from - usize::from(from > 0 && texts[from - 1] == "on");
            if back >= n && texts[back - n..back] == **part {
                from = back - n;
            }
            if texts.get(to..to + n).is_some_and(|t| t == *part) {
                to += n;
            }
        }
    }
    Some(Named {
        window,
        words: phrase(from, to),
    })
}

/// Words that ask about the past: "this weekend" in a question with one is the one just past.
const PAST_WORDS: &[&str] = &["did", "was", "were", "went", "happened"];

/// Parts of a day that name no span of their own beside a day the question names.
const PARTS_OF_DAY: &[&[&str]] = &[
    &["in", "the", "morning"],
    &["in", "the", "afternoon"],
    &["in", "the", "evening"],
    &["at", "night"],
    &["during", "the", "day"],
];

/// How many words may lie between a counted span and the day it is counted from ("last
/// week, as mentioned on …").
const COUNTED_FROM_WITHIN: usize = 3;

/// The spans `ws` names, read at `today`: each one's first word, its number of words, and
/// the span.
fn spans_in(ws: &[Word], on: On) -> Vec<(usize, usize, Window)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < ws.len() {
        if !may_start(&ws[i].text) {
            i += 1;
            continue;
        }
        match at(ws, i, on).filter(|(w, _)| spans_time(w)) {
            Some((window, used)) => {
                spans.push((i, used, window));
                i += used;
            }
            None => i += 1,
        }
    }
    spans
}

/// The words other than numbers and the calendar's names that a reading may begin with.
const FIRST_WORDS: &[&str] = &[
    "a",
    "after",
    "an",
    "around",
    "as",
    "before",
    "beginning",
    "between",
    "by",
    "coming",
    "couple",
    "day",
    "during",
    "earlier",
    "early",
    "end",
    "few",
    "from",
    "half",
    "in",
    "last",
    "late",
    "later",
    "mid",
    "month",
    "next",
    "night",
    "on",
    "over",
    "previous",
    "several",
    "since",
    "some",
    "start",
    "the",
    "thirty",
    "this",
    "till",
    "today",
    "tomorrow",
    "tonight",
    "twenty",
    "until",
    "week",
    "weekend",
    "within",
    "year",
    "yesterday",
];

/// Every word a reading may begin with but numbers written in digits: [`FIRST_WORDS`], the
/// calendar's names, seasons, ordinals and quarters, sorted.
static FIRST: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
    let mut all: Vec<&'static str> = FIRST_WORDS
        .iter()
        .copied()
        .chain(calendar::names())
        .chain(year::SEASONS.iter().map(|s| s.0))
        .chain(dates::DAY_WORDS.iter().copied())
        .chain(["thirtieth", "final", "q1", "q2", "q3", "q4"])
        .collect();
    all.sort_unstable();
    all.dedup();
    all
});

/// Whether a reading may begin at word `w` (lower case): most words of a text begin none, and
/// are passed over without trying every reading.
fn may_start(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_digit()) || FIRST.binary_search(&w).is_ok()
}

/// Whether a reading names some time: not every time ("before until 2025"), and not a span
/// that ends before it begins ("since December", asked in November).
fn spans_time(w: &Window) -> bool {
    !w.is_open() && w.after.zip(w.before).is_none_or(|(a, b)| a < b)
}

/// A statement's words, read once for the spans it names either way: as told ([`stated`])
/// and as a plan says them ([`plans`]).
pub struct Statement {
    ws: Vec<Word>,
    /// The day it was said; `None` outside the calendar.
    today: Option<Date>,
}

impl Statement {
    /// `text`, said at `said`.
    pub fn new(text: &str, said: Millis) -> Statement {
        Statement {
            ws: words(text),
            today: day_of(said),
        }
    }

    /// The spans it names as told ([`stated`]).
    pub fn told(&self) -> Vec<Window> {
        self.read(false).into_iter().map(|n| n.window).collect()
    }

    /// The spans it names as a plan says them ([`plans`]).
    pub fn plans(&self) -> Vec<Window> {
        self.read(true).into_iter().map(|n| n.window).collect()
    }

    /// The spans, read leaning `ahead` or not, and their words.
    fn read(&self, ahead: bool) -> Vec<Named> {
        let Some(today) = self.today else {
            return Vec::new();
        };
        let ws = &self.ws;
        spans_in(ws, On { today, ahead })
            .into_iter()
            .map(|(first, used, window)| Named {
                window,
                words: ws[first].at.start..ws[first + used - 1].at.end,
            })
            .collect()
    }
}

/// The spans a statement names, read at `said` (when it was said): "I went to a convention
/// last month", said in April, is of March; "the dentist next Friday", said on Monday, of that
/// Friday. A memory said outside a span the question names may tell of it.
pub fn stated(text: &str, said: Millis) -> Vec<Window> {
    Statement::new(text, said).told()
}

/// The first span a plan names, read at `said` as a plan says it: "by Friday" (the coming
/// one), "in March" (the next), "this week" (the whole of it), "in 3 days" (that day), "on
/// the 15th", "before Christmas". What the extractor takes a plan's or a deadline's time
/// from; a span over before `said`'s day ("yesterday", "last week") is of the past.
pub fn planned(text: &str, said: Millis) -> Option<Named> {
    Statement::new(text, said).read(true).into_iter().next()
}

/// Every span a statement names read as a plan says it ([`planned`]): "we fly to Lisbon in
/// March", said in November, is of the March after.
pub fn plans(text: &str, said: Millis) -> Vec<Window> {
    Statement::new(text, said).plans()
}

/// Whether two spans share a moment.
pub fn overlap(a: Window, b: Window) -> bool {
    let after = a
        .after
        .unwrap_or(Millis::MIN)
        .max(b.after.unwrap_or(Millis::MIN));
    let before = a
        .before
        .unwrap_or(Millis::MAX)
        .min(b.before.unwrap_or(Millis::MAX));
    after < before
}

#[cfg(test)]
mod tests;
