//! The span of time a question names: "yesterday", "10 days ago", "four weeks ago", "last
//! weekend", "earlier this month", "last summer", "in March", "on 3 May", "in 2023", and times
//! ahead as plans name them, "tomorrow", "next week", "next Friday". Days are UTC days of the
//! clock a search runs at (or its `as_of`): a question is about what was said, so a month or
//! weekday alone names its latest past one. A count of days ago allows a day either side, of
//! weeks ago three days, as people count loosely. The same reader gives a plan its time
//! ([`planned`]: a month, a date, a weekday or a holiday named alone is the next one), so
//! what the extractor stores as due and what a question asks of meet.

use time::{Date, Month, OffsetDateTime, Weekday};

use crate::calendar::{self, day_number, month, shift, year_number};
use crate::clock::{Millis, Window, DAY_MS};

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

/// Which end of a run of events a question asks for.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// "the first", "the earliest".
    Earliest,
    /// "the last", "the latest", "the most recent".
    Latest,
}

/// The order a question asks for ("first", "earliest"; "last", "latest", "most recent").
/// Read after a named span's words are taken out, so the "last" of "last week" is a span, not
/// an order.
pub fn ordering(question: &str) -> Option<Order> {
    ordering_words(question).map(|(order, _)| order)
}

/// [`ordering`], with the byte range of the words that ask for it ("most recent").
pub fn ordering_words(question: &str) -> Option<(Order, std::ops::Range<usize>)> {
    let ws = words(question);
    ws.iter().enumerate().find_map(|(i, w)| {
        let next = ws.get(i + 1);
        match w.text.as_str() {
            "first" | "earliest" => Some((Order::Earliest, w.at.clone())),
            "last" | "latest" => Some((Order::Latest, w.at.clone())),
            "most" => next
                .filter(|n| matches!(n.text.as_str(), "recent" | "recently"))
                .map(|n| (Order::Latest, w.at.start..n.at.end)),
            _ => None,
        }
    })
}

/// Whether a question asks when something happened ("When did I…", "what day…", "how long
/// ago…", "how long have I…"): a memory that names its day, or how long it has lasted,
/// answers it better than one that does not. "What time" asks for an hour, which the spans
/// read here do not name; "how long is the trip" asks for a length, not a time.
pub fn asks_when(question: &str) -> bool {
    let ws = words(question);
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    w(0) == "when"
        || (0..ws.len()).any(|i| {
            matches!(
                (w(i), w(i + 1), w(i + 2)),
                ("what" | "which", "date" | "day" | "month" | "year", _)
                    | (
                        "how",
                        "long",
                        "ago" | "has" | "have" | "had" | "did" | "does" | "do"
                    )
            )
        })
}

/// Units a statement of how long something has lasted counts in.
const DURATION_UNITS: &[&str] = &[
    "day", "days", "week", "weeks", "month", "months", "year", "years", "decade", "decades",
];
/// Words that may stand between "for" and a duration's count: "for about four months", "for
/// just under a year", "for the past two years".
const DURATION_HEDGES: &[&str] = &[
    "about", "around", "almost", "nearly", "over", "just", "under", "roughly", "the", "past",
    "last", "a", "couple", "of",
];
/// Words that make a statement's "for three years" reach up to when it was said: "I've
/// been", "had them", "have lived".
const PERFECT_MARKERS: &[&str] = &["been", "ve", "have", "has", "had"];

/// Whether a statement says how long something has lasted up to when it was said ("I've had
/// them for 3 years now", "seven years now", "I've been playing for about four months"): it
/// names, as a count back from then, when that began.
pub fn names_duration(text: &str) -> bool {
    let ws = words(text);
    let w = |k: usize| ws.get(k).map_or("", |x| x.text.as_str());
    let perfect = ws
        .iter()
        .any(|x| PERFECT_MARKERS.contains(&x.text.as_str()));
    (0..ws.len()).any(|i| {
        let amount = count(w(i)).is_some() || matches!(w(i), "couple" | "several");
        // "a couple of months".
        let unit = if w(i + 1) == "of" { i + 2 } else { i + 1 };
        if !amount || !DURATION_UNITS.contains(&w(unit)) {
            return false;
        }
        if w(unit + 1) == "now" {
            return true;
        }
        // "for" a few hedging words before the count, in a statement of what has lasted.
        perfect
            && (1..=4)
                .take_while(|back| *back <= i)
                .map(|back| w(i - back))
                .take_while(|x| *x == "for" || DURATION_HEDGES.contains(x))
                .any(|x| x == "for")
    })
}

/// Which side of an event a question asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// "before the move".
    Before,
    /// "after the Sintra trip".
    After,
    /// Its own days: "during the Sintra trip", "on my birthday".
    During,
}

/// An event a question places its answer against: "before the doctor's appointment", "right
/// after the Sintra trip".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Anchor {
    /// Which side of the event.
    pub side: Side,
    /// The words naming the event ("the Sintra trip"), to find it by.
    pub event: String,
    /// Byte range of the whole phrase in the question ("right after the Sintra trip").
    pub words: std::ops::Range<usize>,
    /// The question asks for what came next to it ("right after", "just before",
    /// "immediately after"): the nearest in time first.
    pub next: bool,
}

impl Anchor {
    /// The order of time the answer is in: nearest the event first when asked for what came
    /// right next to it.
    pub fn order(&self) -> Option<Order> {
        match self.side {
            Side::Before => self.next.then_some(Order::Latest),
            Side::After => self.next.then_some(Order::Earliest),
            Side::During => None,
        }
    }
}

/// Words that make "before"/"after" ask for what came right next to the event.
const NEXT_TO: &[&str] = &["right", "just", "immediately", "straight", "soon"];
/// Whose an event "on" names is ("on my birthday").
const OWNERS: &[&str] = &["my", "our", "his", "her", "their"];
/// Times of day, week or year that are no event: "during the week", "on my weekend".
#[rustfmt::skip]
const TIME_NOUNS: &[&str] = &[
    "day", "days", "week", "weeks", "weekend", "weekends", "morning", "afternoon", "evening",
    "night", "month", "year", "time",
];

/// Words that open the event's name and say nothing of it.
const EVENT_OPENERS: &[&str] = &["the", "my", "our", "a", "an", "that", "this", "i", "we"];

/// The event `question` places its answer before or after, if it names one: "before" or
/// "after" followed by words naming it, to the end of the clause. "Before or after" compares
/// two events and is not an anchor; nor is "after that" or "before then".
pub fn anchored(question: &str) -> Option<Anchor> {
    let ws = words(question);
    let (i, side) = ws
        .iter()
        .enumerate()
        .find_map(|(i, w)| match w.text.as_str() {
            "before" => Some((i, Side::Before)),
            "after" => Some((i, Side::After)),
            "during" => Some((i, Side::During)),
            // "on my birthday", "on our trip": not "on Monday", "on it".
            "on" if ws
                .get(i + 1)
                .is_some_and(|n| OWNERS.contains(&n.text.as_str())) =>
            {
                Some((i, Side::During))
            }
            _ => None,
        })?;
    let near = |j: usize| ws.get(j).map(|w| w.text.as_str());
    if matches!(near(i + 1), Some("or")) || (i > 0 && matches!(near(i - 1), Some("or"))) {
        return None;
    }
    let next = i > 0 && near(i - 1).is_some_and(|w| NEXT_TO.contains(&w));
    let start = if next {
        ws[i - 1].at.start
    } else {
        ws[i].at.start
    };
    // The event runs to the end of the clause.
    let rest = &question[ws[i].at.end..];
    let clause_end = rest
        .find(['?', '.', '!', ',', ';'])
        .map_or(question.len(), |k| ws[i].at.end + k);
    let event_words: Vec<&Word> = ws[i + 1..]
        .iter()
        .take_while(|w| w.at.end <= clause_end)
        .collect();
    let named: Vec<&str> = event_words
        .iter()
        .map(|w| w.text.as_str())
        .skip_while(|w| EVENT_OPENERS.contains(w))
        .collect();
    // "After how many weeks did…" asks a duration, and an event names something; "during
    // the summer" or "on the weekend" is a habit's time, not an event.
    if i == 0
        || named.is_empty()
        || (named.len() == 1 && (season(named[0]).is_some() || TIME_NOUNS.contains(&named[0])))
        || matches!(named.as_slice(), ["that" | "then" | "it" | "this"])
        || matches!(
            named[0],
            "how" | "what" | "when" | "which" | "who" | "many" | "much" | "long"
        )
    {
        return None;
    }
    let first = event_words.iter().find(|w| w.text == named[0])?;
    Some(Anchor {
        side,
        event: question[first.at.start..clause_end].trim().to_string(),
        words: start..clause_end,
        next,
    })
}

/// Seasons (northern hemisphere, meteorological): their first month; each lasts three.
const SEASONS: &[(&str, Month)] = &[
    ("spring", Month::March),
    ("summer", Month::June),
    ("autumn", Month::September),
    ("fall", Month::September),
    ("winter", Month::December),
];

/// One word of the question: lower case, where it lies, and whether a dash joins it to the
/// next ("2025-12-24", "March 1-10").
struct Word {
    text: String,
    at: std::ops::Range<usize>,
    dash: bool,
    /// Written with a capital first letter.
    capital: bool,
    /// The one character joining it to the next word, when nothing else is between them
    /// (the "/" of "12/24").
    joint: Option<char>,
}

fn words(question: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in question
        .char_indices()
        .chain(std::iter::once((question.len(), ' ')))
    {
        let inside = c.is_alphanumeric();
        match (start, inside) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                out.push(Word {
                    text: question[s..i].to_lowercase(),
                    at: s..i,
                    dash: false,
                    capital: question[s..i].starts_with(char::is_uppercase),
                    joint: None,
                });
                start = None;
            }
            _ => {}
        }
    }
    for k in 1..out.len() {
        let between = &question[out[k - 1].at.end..out[k].at.start];
        let mut chars = between.chars();
        out[k - 1].joint = chars.next().filter(|_| chars.next().is_none());
        out[k - 1].dash = matches!(between.trim(), "-" | "\u{2013}" | "\u{2014}");
    }
    out
}

/// A month written as its number, joined by a dash to the year before it ("2025-12").
fn month_number(w: &str) -> Option<Month> {
    Month::try_from(w.parse::<u8>().ok().filter(|_| w.len() <= 2)?).ok()
}

fn count(w: &str) -> Option<i64> {
    match w {
        "a" | "an" => Some(1),
        "few" | "several" | "some" => Some(3),
        _ => calendar::number(w).filter(|n| *n > 0),
    }
}

fn first_of(year: i32, m: Month) -> Option<Date> {
    Date::from_calendar_date(year, m, 1).ok()
}

/// The whole of `year`.
fn year(y: i32) -> Option<Window> {
    Some(days(
        first_of(y, Month::January)?,
        first_of(y + 1, Month::January)?,
    ))
}

/// The first day of the month `n` months after (or before, negative) `year`/`m`.
fn months_from(year: i32, m: Month, n: i32) -> Option<Date> {
    let index = year * 12 + (m as i32 - 1) + n;
    let month = Month::try_from((index.rem_euclid(12) + 1) as u8).ok()?;
    first_of(index.div_euclid(12), month)
}

/// The first day of the latest `m` begun by today (ahead: the first not over).
fn latest_month(on: On, m: Month) -> Option<Date> {
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
fn days(from: Date, until: Date) -> Window {
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

/// The UTC day of a time.
fn day_of(t: Millis) -> Option<Date> {
    Some(
        OffsetDateTime::from_unix_timestamp(t.div_euclid(1000))
            .ok()?
            .date(),
    )
}

/// The spans `ws` names, read at `today`: each one's first word, its number of words, and
/// the span.
fn spans_in(ws: &[Word], on: On) -> Vec<(usize, usize, Window)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < ws.len() {
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

/// Whether a reading names some time: not every time ("before until 2025"), and not a span
/// that ends before it begins ("since December", asked in November).
fn spans_time(w: &Window) -> bool {
    !w.is_open() && w.after.zip(w.before).is_none_or(|(a, b)| a < b)
}

/// The spans a statement names, read at `said` (when it was said): "I went to a convention
/// last month", said in April, is of March; "the dentist next Friday", said on Monday, of that
/// Friday. A memory said outside a span the question names may tell of it.
pub fn stated(text: &str, said: Millis) -> Vec<Window> {
    let Some(today) = day_of(said) else {
        return Vec::new();
    };
    spans_in(&words(text), On::past(today))
        .into_iter()
        .map(|(_, _, w)| w)
        .collect()
}

/// The first span a plan names, read at `said` as a plan says it: "by Friday" (the coming
/// one), "in March" (the next), "this week" (the whole of it), "in 3 days" (that day), "on
/// the 15th", "before Christmas". What the extractor takes a plan's or a deadline's time
/// from; a span over before `said`'s day ("yesterday", "last week") is of the past.
pub fn planned(text: &str, said: Millis) -> Option<Named> {
    let on = On {
        today: day_of(said)?,
        ahead: true,
    };
    let ws = words(text);
    let &(first, used, window) = spans_in(&ws, on).first()?;
    Some(Named {
        window,
        words: ws[first].at.start..ws[first + used - 1].at.end,
    })
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

/// The span named by the words from `i`, and how many words name it.
fn at(ws: &[Word], i: usize, on: On) -> Option<(Window, usize)> {
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
    let found = found.or_else(|| more(ws, i, on));
    found.map(|(window, used)| (window, used + lead))
}

/// The span `n` `unit`s ago ("day", "weeks", "fortnight", "weekends", "month", "years"): a
/// count of days allows a day either side, of weeks three days.
fn ago(n: i64, unit: &str, today: Date) -> Option<Window> {
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
fn counted_ahead(ws: &[Word], i: usize, today: Date) -> Option<(Date, usize)> {
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
fn days_in(n: i64, unit: &str) -> Option<i64> {
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
fn next(unit: &str, today: Date, coming: bool) -> Option<Window> {
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
fn months_in(unit: &str) -> Option<i64> {
    match unit.strip_suffix('s').unwrap_or(unit) {
        "month" => Some(1),
        "year" => Some(12),
        _ => None,
    }
}

/// The day `months` months before `today`, on the same day of the month (or that month's last).
fn same_day_back(today: Date, months: i64) -> Option<Date> {
    let first = months_from(today.year(), today.month(), -i32::try_from(months).ok()?)?;
    let last = first.month().length(first.year());
    first.replace_day(today.day().min(last)).ok()
}

/// Whether a word counts back from today ("ago", "back").
fn ago_word(w: &str) -> bool {
    matches!(w, "ago" | "back")
}

/// From `a` or `b` `unit`s ago, whichever is longer ago, to the other, each end as loose as
/// that count alone is ([`ago`]).
fn ago_between(a: i64, b: i64, unit: &str, today: Date) -> Option<Window> {
    let (far, near) = (ago(a.max(b), unit, today)?, ago(a.min(b), unit, today)?);
    Some(Window {
        after: far.after,
        before: near.before,
    })
}

/// The rest of [`at`]'s readings, tried where none of its own reads.
fn more(ws: &[Word], i: usize, on: On) -> Option<(Window, usize)> {
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
        ("the", nth, "quarter") if nth_of_four(nth).is_some() => {
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
            let (window, used) = more(ws, i + 2, on)?;
            Some((window, used + 2))
        }
        ("in" | "during" | "over", s, _) if season(s).is_some() => {
            let (window, used) = more(ws, i + 1, on)?;
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
fn part_of(ws: &[Word], i: usize, part: &str, on: On) -> Option<(Window, usize)> {
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
const PLACING: &[&str] = &[
    "in", "during", "over", "since", "until", "till", "before", "after", "by", "of",
];

/// The words that join a range's two ends ("from 1 March to 10 March"), besides a dash.
const TO: &[&str] = &["to", "until", "till", "through", "thru"];

/// The span named from word `i` after a word that places a question against it ("since",
/// "until", "as of"): a month or a year alone ("March", "December 2023", "2020") as well as
/// what [`at`] reads.
fn edge_of(ws: &[Word], i: usize, on: On) -> Option<(Window, usize)> {
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

/// The Saturday of the last weekend that has begun before today (a Sunday's is the one
/// before it).
fn last_saturday(today: Date) -> Date {
    let saturday = calendar::previous_weekday(today, Weekday::Saturday);
    if today.weekday() == Weekday::Sunday {
        shift(saturday, -7)
    } else {
        saturday
    }
}

/// Ten days of the month `[from, until)`: its first ("early"), middle ("mid") or last ("late").
fn month_part(part: &str, from: Date, until: Date) -> Option<Window> {
    Some(match part {
        "early" => days(from, shift(from, 10)),
        "mid" => days(shift(from, 10), shift(from, 20)),
        "late" => days(shift(until, -10), until),
        _ => return None,
    })
}

/// The quarter of the year `today` is in (1 to 4).
fn quarter_of(today: Date) -> u8 {
    (today.month() as u8 - 1) / 3 + 1
}

/// The quarter a word names: "q1" to "q4".
fn quarter_number(w: &str) -> Option<u8> {
    w.strip_prefix('q')?
        .parse()
        .ok()
        .filter(|q| (1..=4).contains(q))
}

/// The first day of quarter `q` (1 to 4) of `year`.
fn quarter_start(q: u8, year: i32) -> Option<Date> {
    first_of(year, Month::try_from(3 * q - 2).ok()?)
}

/// Quarter `q` (1 to 4) of `year`.
fn quarter(q: u8, year: i32) -> Option<Window> {
    let from = quarter_start(q, year)?;
    Some(days(from, months_from(year, from.month(), 3)?))
}

/// Quarter `q` of the year written after it (its year and words, [`year_after`]), or the
/// latest begun by `today` (ahead: the first not over); and how many words wrote the year.
fn latest_quarter(q: u8, written: Option<(i32, usize)>, on: On) -> Option<(Window, usize)> {
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
fn season(s: &str) -> Option<Month> {
    SEASONS.iter().find(|x| x.0 == s).map(|x| x.1)
}

/// The season beginning in month `start` of `year` (winter: that December, into the next year).
fn season_of(start: Month, year: i32) -> Option<Window> {
    let from = first_of(year, start)?;
    Some(days(from, months_from(year, start, 3)?))
}

/// A holiday named from word `i`, in `year`: its first day, the day after it, and how many
/// words name it. Christmas is the 24th to the 26th of December, Easter Good Friday to Easter
/// Monday.
fn holiday(ws: &[Word], i: usize, year: i32) -> Option<(Date, Date, usize)> {
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
fn latest_holiday(ws: &[Word], i: usize, on: On, ended: bool) -> Option<(Date, Date, usize)> {
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

/// A day named from word `i`: a date ([`date_at`]) or a holiday's day (Christmas Day,
/// Easter Sunday: the middle of its span), the latest begun by today.
fn day_named(ws: &[Word], i: usize, on: On) -> Option<(Date, usize)> {
    date_at(ws, i, on).or_else(|| {
        let (from, until, used) = latest_holiday(ws, i, on, false)?;
        Some((shift(from, (until - from).whole_days() / 2), used))
    })
}

/// A decade's first year written from word `i` ("2010s", "1990's"), and how many words. Not
/// a century's first ("the 1900s" is as often the whole century).
fn decade(ws: &[Word], i: usize) -> Option<(i32, usize)> {
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
fn latest_date(m: Month, d: u8, on: On) -> Option<Date> {
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
fn numeric_date(ws: &[Word], i: usize) -> Option<(Date, usize)> {
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

/// Easter Sunday of `year` (the Gregorian computus: Meeus/Jones/Butcher).
fn easter(year: i32) -> Option<Date> {
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
fn nth_of_four(w: &str) -> Option<i64> {
    match w {
        "first" | "1st" => Some(1),
        "second" | "2nd" => Some(2),
        "third" | "3rd" => Some(3),
        "fourth" | "4th" => Some(4),
        "last" | "final" => Some(0),
        _ => None,
    }
}

/// The month named from word `i` ("November 2022", "November": its latest past one): its
/// first day, the first day after it, and how many words name it.
fn month_of(ws: &[Word], i: usize, on: On) -> Option<(Date, Date, usize)> {
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
fn year_after(ws: &[Word], i: usize, today: Date) -> Option<(i32, usize)> {
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
const DAY_WORDS: &[&str] = &[
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
fn day_word(ws: &[Word], i: usize) -> Option<(u8, usize)> {
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
fn the_day(ws: &[Word], i: usize, on: On) -> Option<(Date, usize)> {
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
fn iso_month(ws: &[Word], i: usize) -> Option<(i32, Month)> {
    let y = year_number(&ws.get(i)?.text).filter(|_| ws[i].dash)?;
    Some((y, month_number(&ws.get(i + 1)?.text)?))
}

/// A range of days from word `i`, its ends joined by one of `joins` or a dash: "11 August
/// and 15 August 2023" (after "between"), "March 1 to March 10", "1-10 March", "March 1st
/// through the 10th", "2025-12-20 to 2026-01-03". The second end may be a day of the first's
/// month; a year written once, after the second, is both's.
fn range(ws: &[Word], i: usize, on: On, joins: &[&str]) -> Option<(Window, usize)> {
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
fn on_date(ws: &[Word], i: usize, on: On) -> Option<(Window, usize)> {
    let (date, used) = date_at(ws, i, on)?;
    Some((days(date, shift(date, 1)), used))
}

/// The day named from word `i`, and how many words name it (see [`on_date`]).
fn date_at(ws: &[Word], i: usize, on: On) -> Option<(Date, usize)> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Wednesday 2026-11-18 10:00 UTC.
    const NOW: Millis = 1_794_996_000_000;

    /// The span `q` names, as "from..until" dates, and the words naming it.
    fn span(q: &str) -> Option<(String, String)> {
        named(q, NOW).map(|n| {
            let date = |t: Millis| {
                OffsetDateTime::from_unix_timestamp(t / 1000)
                    .unwrap()
                    .date()
                    .to_string()
            };
            (
                format!(
                    "{}..{}",
                    n.window.after.map(date).unwrap_or_default(),
                    n.window.before.map(date).unwrap_or_default()
                ),
                q[n.words.clone()].to_string(),
            )
        })
    }

    fn is(q: &str, dates: &str, words: &str) {
        assert_eq!(span(q), Some((dates.to_string(), words.to_string())), "{q}");
    }

    #[test]
    fn one_side_of_a_span() {
        for (q, dates, words) in [
            (
                "How many pets did Andrew have, as of September 2023?",
                "..2023-10-01",
                "as of September 2023",
            ),
            (
                "How long has Tim been playing the piano for, as of December 2023?",
                "..2024-01-01",
                "as of December 2023",
            ),
            (
                "What instrument is John learning to play as of 27 March, 2022?",
                "..2022-03-28",
                "as of 27 March, 2022",
            ),
            (
                "How many tournaments has Nate won by July 10, 2022?",
                "..2022-07-11",
                "by July 10, 2022",
            ),
            ("what had I read by 2025", "..2026-01-01", "by 2025"),
            (
                "what did I buy before March?",
                "..2026-03-01",
                "before March",
            ),
            (
                "where did I live before 2020",
                "..2020-01-01",
                "before 2020",
            ),
            (
                "what did I cook after last week",
                "2026-11-16..",
                "after last week",
            ),
            ("what happened after 3 May", "2026-05-04..", "after 3 May"),
            (
                "what did I plan until yesterday",
                "..2026-11-18",
                "until yesterday",
            ),
            (
                "what did I read as of last month",
                "..2026-11-01",
                "as of last month",
            ),
            ("since 2024", "2024-01-01..2026-11-19", "since 2024"),
            // Next to a day, on to (or from) it: not a side of a span.
            (
                "What did Andrew do on the Monday before July 24, 2023?",
                "2023-07-17..2023-07-25",
                "the Monday before July 24, 2023",
            ),
            (
                "What did Audrey do over the weekend before 4th October, 2023?",
                "2023-09-30..2023-10-05",
                "the weekend before 4th October, 2023",
            ),
            (
                "What did they plan for the Saturday after October 28, 2023?",
                "2023-10-28..2023-11-05",
                "the Saturday after October 28, 2023",
            ),
            (
                "the week after 3 May",
                "2026-05-03..2026-05-11",
                "the week after 3 May",
            ),
            (
                "the day before 3 May",
                "2026-05-02..2026-05-04",
                "the day before 3 May",
            ),
        ] {
            is(q, dates, words);
        }
        // A deadline, an event, a comparison, and "as" alone are not a side of a span.
        for q in [
            "What must I finish by Friday?",
            "what did I do before the doctor's appointment?",
            "Did I see the doctor before or after March?",
            "as March ended",
        ] {
            assert_eq!(span(q), None, "{q}");
        }
        // Since a day after today: no span from it to today (it would end before it began),
        // only the day.
        is(
            "What have I done since 2027-01-05?",
            "2027-01-05..2027-01-06",
            "2027-01-05",
        );
    }

    #[test]
    fn spans_counted_back_parts_of_months_seasons_holidays_and_since() {
        for (q, dates, words) in [
            (
                "the day before yesterday",
                "2026-11-16..2026-11-17",
                "the day before yesterday",
            ),
            (
                "What did I do the week before last?",
                "2026-11-02..2026-11-09",
                "the week before last",
            ),
            (
                "the weekend before last",
                "2026-11-07..2026-11-09",
                "the weekend before last",
            ),
            (
                "two weekends ago",
                "2026-11-07..2026-11-09",
                "two weekends ago",
            ),
            (
                "What did I buy a couple of days ago?",
                "2026-11-15..2026-11-18",
                "couple of days ago",
            ),
            (
                "a fortnight ago",
                "2026-11-01..2026-11-08",
                "a fortnight ago",
            ),
            (
                "what did I read three months back",
                "2026-08-01..2026-09-01",
                "three months back",
            ),
            (
                "half a year ago",
                "2026-05-01..2026-06-01",
                "half a year ago",
            ),
            // The last stretch up to today; "last month" alone is the calendar's.
            (
                "What did I do the past few days?",
                "2026-11-16..2026-11-19",
                "the past few days",
            ),
            (
                "what did I cook over the past week",
                "2026-11-12..2026-11-19",
                "the past week",
            ),
            (
                "What did I buy in the last month?",
                "2026-10-20..2026-11-19",
                "the last month",
            ),
            (
                "the last 2 weeks",
                "2026-11-05..2026-11-19",
                "the last 2 weeks",
            ),
            // Ten days of a month, four months of a year.
            (
                "What happened in mid-March?",
                "2026-03-11..2026-03-21",
                "mid-March",
            ),
            (
                "late February 2025",
                "2025-02-19..2025-03-01",
                "late February 2025",
            ),
            ("early 2025", "2025-01-01..2025-05-01", "early 2025"),
            ("late 2024", "2024-09-01..2025-01-01", "late 2024"),
            (
                "at the end of last month",
                "2026-10-22..2026-11-01",
                "the end of last month",
            ),
            (
                "at the start of the month",
                "2026-11-01..2026-11-11",
                "the start of the month",
            ),
            // A season of a year.
            (
                "What did I do in the summer of 2025?",
                "2025-06-01..2025-09-01",
                "in the summer of 2025",
            ),
            (
                "What state did Joanna visit in summer 2021?",
                "2021-06-01..2021-09-01",
                "in summer 2021",
            ),
            // Holidays asked about as a time: the latest (ended, for "last").
            (
                "What did I do last Christmas?",
                "2025-12-24..2025-12-27",
                "last Christmas",
            ),
            (
                "on New Year's Eve",
                "2025-12-31..2026-01-01",
                "on New Year's Eve",
            ),
            (
                "What did we do last Easter?",
                "2026-04-03..2026-04-07",
                "last Easter",
            ),
            ("on Halloween", "2026-10-31..2026-11-01", "on Halloween"),
            // From a day to today.
            (
                "What did I eat since Monday?",
                "2026-11-16..2026-11-19",
                "since Monday",
            ),
            ("since March", "2026-03-01..2026-11-19", "since March"),
            (
                "since last week",
                "2026-11-09..2026-11-19",
                "since last week",
            ),
            ("since 3 May", "2026-05-03..2026-11-19", "since 3 May"),
        ] {
            is(q, dates, words);
        }
        // A holiday or a season as a subject, not a time; a vague time.
        for q in [
            "What do we eat at Christmas?",
            "What tradition does Tim love during Halloween?",
            "What does Melanie do during the summer?",
            "the last week of",
        ] {
            assert_eq!(span(q), None, "{q}");
        }
        assert_eq!(
            easter(2024),
            Date::from_calendar_date(2024, Month::March, 31).ok()
        );
        assert_eq!(
            easter(2025),
            Date::from_calendar_date(2025, Month::April, 20).ok()
        );
        assert_eq!(
            easter(2026),
            Date::from_calendar_date(2026, Month::April, 5).ok()
        );
    }

    #[test]
    fn relative_spans() {
        for (q, dates, words) in [
            (
                "What did I eat yesterday?",
                "2026-11-17..2026-11-18",
                "yesterday",
            ),
            ("what happened today", "2026-11-18..2026-11-19", "today"),
            (
                "What kitchen appliance did I buy 10 days ago?",
                "2026-11-07..2026-11-10",
                "10 days ago",
            ),
            (
                "the milestone I mentioned four weeks ago",
                "2026-10-18..2026-10-25",
                "four weeks ago",
            ),
            ("a week ago", "2026-11-08..2026-11-15", "a week ago"),
            (
                "what did I do last weekend?",
                "2026-11-14..2026-11-16",
                "last weekend",
            ),
            (
                "What did we decide last week?",
                "2026-11-09..2026-11-16",
                "last week",
            ),
            (
                "runs earlier this month",
                "2026-11-01..2026-11-19",
                "earlier this month",
            ),
            // The whole of it, its days ahead too; "earlier" ends today.
            ("this week", "2026-11-16..2026-11-23", "this week"),
            // Asked on a weekday: the coming weekend, unless asked of the past.
            (
                "What am I doing this weekend?",
                "2026-11-21..2026-11-23",
                "this weekend",
            ),
            (
                "What did I do this weekend?",
                "2026-11-14..2026-11-16",
                "this weekend",
            ),
            (
                "how many times did I run this year",
                "2026-01-01..2027-01-01",
                "this year",
            ),
            (
                "What do I have this month?",
                "2026-11-01..2026-12-01",
                "this month",
            ),
            ("last month", "2026-10-01..2026-11-01", "last month"),
            ("last year", "2025-01-01..2026-01-01", "last year"),
            ("two months ago", "2026-09-01..2026-10-01", "two months ago"),
            ("3 years ago", "2023-01-01..2024-01-01", "3 years ago"),
            (
                "where did we go last summer",
                "2026-06-01..2026-09-01",
                "last summer",
            ),
            ("last winter", "2025-12-01..2026-03-01", "last winter"),
            (
                "what did I do on Monday",
                "2026-11-16..2026-11-17",
                "on Monday",
            ),
            ("last Wednesday", "2026-11-11..2026-11-12", "last Wednesday"),
            (
                "What did I eat last night?",
                "2026-11-17..2026-11-18",
                "last night",
            ),
            ("this morning", "2026-11-18..2026-11-19", "this morning"),
            ("tonight", "2026-11-18..2026-11-19", "tonight"),
            // A part of a day named beside it is of the day.
            (
                "What did I do in the evening on 20 March?",
                "2026-03-20..2026-03-21",
                "in the evening on 20 March",
            ),
            (
                "who called on Monday at night",
                "2026-11-16..2026-11-17",
                "on Monday at night",
            ),
            // Not beside a day: the words are the question's own.
            (
                "what did I read in the evening last week",
                "2026-11-09..2026-11-16",
                "last week",
            ),
        ] {
            is(q, dates, words);
        }
    }

    #[test]
    fn calendar_spans_are_the_latest_past_ones() {
        for (q, dates, words) in [
            (
                "What did I buy in March?",
                "2026-03-01..2026-04-01",
                "in March",
            ),
            ("in December", "2025-12-01..2026-01-01", "in December"),
            (
                "during November",
                "2026-11-01..2026-12-01",
                "during November",
            ),
            ("last November", "2025-11-01..2025-12-01", "last November"),
            ("in May 2024", "2024-05-01..2024-06-01", "in May 2024"),
            ("trips in 2023", "2023-01-01..2024-01-01", "in 2023"),
            ("What happened on 3 May?", "2026-05-03..2026-05-04", "3 May"),
            (
                "on May 3rd, 2025",
                "2025-05-03..2025-05-04",
                "May 3rd, 2025",
            ),
            (
                "the 24th of December",
                "2025-12-24..2025-12-25",
                "24th of December",
            ),
            (
                "in the beginning of November 2022",
                "2022-11-01..2022-11-11",
                "the beginning of November 2022",
            ),
            (
                "Where was John between August 11 and August 15 2023?",
                "2023-08-11..2023-08-16",
                "between August 11 and August 15 2023",
            ),
            (
                "between 20 December and 3 January",
                "2025-12-20..2026-01-04",
                "between 20 December and 3 January",
            ),
            // The nth seven days of the month, a day either side.
            (
                "Which country was Tim visiting in the second week of November?",
                "2026-11-07..2026-11-16",
                "second week of November",
            ),
            (
                "what did I do on the 15th?",
                "2026-11-15..2026-11-16",
                "on the 15th",
            ),
            ("on the 30th", "2026-10-30..2026-10-31", "on the 30th"),
            ("on the 31st", "2026-10-31..2026-11-01", "on the 31st"),
            (
                "on the 15th of May",
                "2026-05-15..2026-05-16",
                "15th of May",
            ),
            (
                "What did I do in the week of 2 March?",
                "2026-03-02..2026-03-09",
                "week of 2 March",
            ),
            (
                "the weekend of 24 June 2023",
                "2023-06-24..2023-06-26",
                "weekend of 24 June 2023",
            ),
            (
                "the last week of October 2025",
                "2025-10-24..2025-11-02",
                "last week of October 2025",
            ),
        ] {
            is(q, dates, words);
        }
    }

    #[test]
    fn a_span_counted_from_a_day_the_question_names() {
        for (q, dates, words) in [
            (
                "What did Maria do last weekend before April 10, 2023?",
                "2023-04-08..2023-04-10",
                "last weekend before April 10, 2023",
            ),
            (
                "Tim's writing issue last week, as mentioned on November 6, 2023",
                "2023-10-30..2023-11-06",
                "last week, as mentioned on November 6, 2023",
            ),
            (
                "What did Joanna finish yesterday, on 23 January 2022?",
                "2022-01-22..2022-01-23",
                "yesterday, on 23 January 2022",
            ),
            // Too far apart: the day is something else the question names.
            (
                "what did I cook last week for the party I gave on 3 May?",
                "2026-11-09..2026-11-16",
                "last week",
            ),
        ] {
            is(q, dates, words);
        }
    }

    #[test]
    fn ranges_written_dates_quarters_and_parts_of_a_year() {
        for (q, dates, words) in [
            // A range's two ends, joined by a word or a dash; the second may be a day of
            // the first's month, and a year written once is both's.
            (
                "What did I do from March 1 until March 10?",
                "2026-03-01..2026-03-11",
                "from March 1 until March 10",
            ),
            (
                "March 1 to March 10",
                "2026-03-01..2026-03-11",
                "March 1 to March 10",
            ),
            ("in March 1-10", "2026-03-01..2026-03-11", "March 1-10"),
            (
                "from March 28 to the 2nd",
                "2026-03-28..2026-04-03",
                "from March 28 to the 2nd",
            ),
            (
                "1\u{2013}10 March 2025",
                "2025-03-01..2025-03-11",
                "1\u{2013}10 March 2025",
            ),
            (
                "from March 1st through the 10th",
                "2026-03-01..2026-03-11",
                "from March 1st through the 10th",
            ),
            (
                "from 1 March to 10 March 2025",
                "2025-03-01..2025-03-11",
                "from 1 March to 10 March 2025",
            ),
            (
                "from December 20 to January 3",
                "2025-12-20..2026-01-04",
                "from December 20 to January 3",
            ),
            // The previous unit, the one before last, this past weekday, the latest weekend.
            (
                "the previous week",
                "2026-11-09..2026-11-16",
                "previous week",
            ),
            (
                "the previous month",
                "2026-10-01..2026-11-01",
                "previous month",
            ),
            (
                "this past Monday",
                "2026-11-16..2026-11-17",
                "this past Monday",
            ),
            (
                "the Monday before last",
                "2026-11-09..2026-11-10",
                "the Monday before last",
            ),
            (
                "the month before last",
                "2026-09-01..2026-10-01",
                "the month before last",
            ),
            (
                "What did I do over the weekend?",
                "2026-11-14..2026-11-16",
                "over the weekend",
            ),
            (
                "What happened this weekend?",
                "2026-11-14..2026-11-16",
                "this weekend",
            ),
            // The same day months or years back.
            (
                "a year ago today",
                "2025-11-17..2025-11-20",
                "a year ago today",
            ),
            (
                "three months ago today",
                "2026-08-17..2026-08-20",
                "three months ago today",
            ),
            (
                "this time last year",
                "2025-11-11..2025-11-26",
                "this time last year",
            ),
            (
                "in the past 48 hours",
                "2026-11-16..2026-11-19",
                "the past 48 hours",
            ),
            // A day in ordinal words, before "of".
            (
                "What did I do on the first of March?",
                "2026-03-01..2026-03-02",
                "first of March",
            ),
            (
                "the twenty-first of May 2025",
                "2025-05-21..2025-05-22",
                "twenty-first of May 2025",
            ),
            (
                "the thirtieth of June",
                "2026-06-30..2026-07-01",
                "thirtieth of June",
            ),
            // Two counts back.
            (
                "What did I do two or three days ago?",
                "2026-11-14..2026-11-18",
                "two or three days ago",
            ),
            ("3-4 weeks ago", "2026-10-18..2026-11-01", "3-4 weeks ago"),
            (
                "a week or two ago",
                "2026-11-01..2026-11-15",
                "a week or two ago",
            ),
            (
                "2 to 3 months back",
                "2026-08-01..2026-10-01",
                "2 to 3 months back",
            ),
            // Dates written as numbers, year first.
            (
                "What did I do on 2025-12-24?",
                "2025-12-24..2025-12-25",
                "2025-12-24",
            ),
            (
                "What happened at 2025-12-24T10:00:00Z?",
                "2025-12-24..2025-12-25",
                "2025-12-24T10",
            ),
            ("in 2026-03", "2026-03-01..2026-04-01", "2026-03"),
            (
                "between 2026-03-01 and 2026-03-05",
                "2026-03-01..2026-03-06",
                "between 2026-03-01 and 2026-03-05",
            ),
            (
                "since 2026-03-01",
                "2026-03-01..2026-11-19",
                "since 2026-03-01",
            ),
            // A month or a day of a year said in words.
            (
                "What did I do in March of last year?",
                "2025-03-01..2025-04-01",
                "in March of last year",
            ),
            (
                "in March this year",
                "2026-03-01..2026-04-01",
                "in March this year",
            ),
            (
                "on December 24 last year",
                "2025-12-24..2025-12-25",
                "December 24 last year",
            ),
            (
                "the start of March last year",
                "2025-03-01..2025-03-11",
                "the start of March last year",
            ),
            // Quarters: the latest begun without a year.
            ("What did we ship in Q1?", "2026-01-01..2026-04-01", "Q1"),
            ("since Q3", "2026-07-01..2026-11-19", "since Q3"),
            ("in Q3 2025", "2025-07-01..2025-10-01", "Q3 2025"),
            (
                "the first quarter of 2025",
                "2025-01-01..2025-04-01",
                "the first quarter of 2025",
            ),
            (
                "in the fourth quarter",
                "2026-10-01..2027-01-01",
                "the fourth quarter",
            ),
            ("last quarter", "2026-07-01..2026-10-01", "last quarter"),
            ("this quarter", "2026-10-01..2026-11-19", "this quarter"),
            // A year's start, end or half.
            (
                "at the end of last year",
                "2025-09-01..2026-01-01",
                "the end of last year",
            ),
            (
                "the beginning of 2025",
                "2025-01-01..2025-05-01",
                "the beginning of 2025",
            ),
            (
                "in the second half of last year",
                "2025-07-01..2026-01-01",
                "the second half of last year",
            ),
        ] {
            is(q, dates, words);
        }
        // No range, or no date, where the words only look like one.
        for (q, dates, words) in [
            (
                "Did I work 9-5 on March 3?",
                "2026-03-03..2026-03-04",
                "March 3",
            ),
            (
                "on March 3 - the day I moved",
                "2026-03-03..2026-03-04",
                "March 3",
            ),
        ] {
            is(q, dates, words);
        }
        // A quarter not yet begun this year is last year's (asked on 2026-04-12).
        let april = 1_776_024_000_000;
        let window = |q: &str| named(q, april).map(|n| n.window);
        assert_eq!(window("in Q3"), Some(quarter(3, 2025).unwrap()));
        assert_eq!(window("in Q2"), Some(quarter(2, 2026).unwrap()));
        assert_eq!(window("the last quarter"), Some(quarter(1, 2026).unwrap()));
        for q in [
            "from 2025-13-01",
            "in 2025-99",
            "on 2025-12-24x",
            "the first of the month's bills",
            "What do I do on the weekend?",
            "the previous owner",
            "this time",
            // A word that places a span, last: nothing after it to read.
            "What did I do until",
            "earlier this",
            "on 2025-12-245",
            "Q5",
            "in Q5",
            "What happened in the last quarter of the game?",
            "What are the Q4 budget priorities?",
            "What is the plan for Q4?",
            "Q4 budget priorities",
            "the fifth quarter",
            "from then to now",
        ] {
            assert_eq!(span(q), None, "{q}");
        }
    }

    #[test]
    fn dates_in_numbers_decades_and_days_counted_from_a_day() {
        for (q, dates, words) in [
            // Numbers joined by "/" or ".": a four-digit year first or last; dots are day
            // first; with slashes, only an order that alone is a date.
            ("on 2025/12/24", "2025-12-24..2025-12-25", "2025/12/24"),
            ("on 24.12.2025", "2025-12-24..2025-12-25", "24.12.2025"),
            ("on 3.4.2025", "2025-04-03..2025-04-04", "3.4.2025"),
            ("on 12/24/2025", "2025-12-24..2025-12-25", "12/24/2025"),
            ("on 24/12/2025", "2025-12-24..2025-12-25", "24/12/2025"),
            (
                "What did I do on 3/28?",
                "2026-03-28..2026-03-29",
                "on 3/28",
            ),
            (
                "What did I do on 28/3?",
                "2026-03-28..2026-03-29",
                "on 28/3",
            ),
            (
                "What did I do on 12/24?",
                "2025-12-24..2025-12-25",
                "on 12/24",
            ),
            // Decades.
            (
                "What did I do in the 2010s?",
                "2010-01-01..2020-01-01",
                "the 2010s",
            ),
            ("in the 1990's", "1990-01-01..2000-01-01", "the 1990's"),
            // Around a day or a holiday; days or weeks from one.
            (
                "What did I do around March 3?",
                "2026-03-01..2026-03-06",
                "around March 3",
            ),
            (
                "What did I do around Christmas?",
                "2025-12-21..2025-12-30",
                "around Christmas",
            ),
            // Holidays of a fixed day, or a weekday of a month.
            (
                "What did we eat on Thanksgiving?",
                "2025-11-27..2025-11-28",
                "on Thanksgiving",
            ),
            (
                "What did I buy on Black Friday?",
                "2025-11-28..2025-11-29",
                "on Black Friday",
            ),
            (
                "last Boxing Day",
                "2025-12-26..2025-12-27",
                "last Boxing Day",
            ),
            (
                "on St. Patrick's Day",
                "2026-03-17..2026-03-18",
                "on St. Patrick's Day",
            ),
            (
                "What did I do three days before Christmas?",
                "2025-12-21..2025-12-26",
                "three days before Christmas",
            ),
            (
                "What did I do 2 weeks before March 10?",
                "2026-02-21..2026-03-11",
                "2 weeks before March 10",
            ),
            (
                "What did I do a day after Easter?",
                "2026-04-05..2026-04-08",
                "a day after Easter",
            ),
            (
                "the week before Christmas",
                "2025-12-18..2025-12-26",
                "the week before Christmas",
            ),
            // Loose counts and a year's middle.
            (
                "What did I do in the last couple of weeks?",
                "2026-11-05..2026-11-19",
                "the last couple of weeks",
            ),
            (
                "What did I do several weeks ago?",
                "2026-10-25..2026-11-01",
                "several weeks ago",
            ),
            (
                "What did I do in mid-2025?",
                "2025-05-01..2025-09-01",
                "mid-2025",
            ),
        ] {
            is(q, dates, words);
        }
        for none in [
            "What did I do on 1/2?",
            "Is the help desk open 24/7?",
            "What was version 1.2.3.4?",
            "on 2025/13/01",
            "on 31/31/2025",
            "on 3/28/25",
            "What did I do in the 2015s?",
            "a book from the 1900s",
            "What did I do in the 90s?",
            "What did I do three days before I moved?",
        ] {
            assert_eq!(span(none), None, "{none}");
        }
    }

    #[test]
    fn loose_counts_the_other_day_and_parts_of_this_or_last_year() {
        for (q, dates, words) in [
            (
                "What did I buy some days ago?",
                "2026-11-14..2026-11-17",
                "some days ago",
            ),
            (
                "Who did I meet the other day?",
                "2026-11-11..2026-11-18",
                "the other day",
            ),
            (
                "What did we decide the other week?",
                "2026-10-25..2026-11-15",
                "the other week",
            ),
            (
                "What did I do this past week?",
                "2026-11-12..2026-11-19",
                "this past week",
            ),
            (
                "What happened over the past weekend?",
                "2026-11-14..2026-11-16",
                "the past weekend",
            ),
            (
                "What did I do two Saturdays ago?",
                "2026-11-07..2026-11-08",
                "two Saturdays ago",
            ),
            (
                "What did I do on Saturday before last?",
                "2026-11-07..2026-11-08",
                "on Saturday before last",
            ),
            (
                "What did I eat the night before last?",
                "2026-11-16..2026-11-17",
                "the night before last",
            ),
            (
                "What did I do late last year?",
                "2025-09-01..2026-01-01",
                "late last year",
            ),
            (
                "What did I start early this year?",
                "2026-01-01..2026-05-01",
                "early this year",
            ),
            (
                "What did I do at the beginning of the year?",
                "2026-01-01..2026-05-01",
                "the beginning of the year",
            ),
            (
                "the end of the year",
                "2026-09-01..2027-01-01",
                "the end of the year",
            ),
            (
                "What did I read earlier in the month?",
                "2026-11-01..2026-11-19",
                "earlier in the month",
            ),
        ] {
            is(q, dates, words);
        }
        for q in [
            "What did we do on the other day of the trip?",
            "What have I done for some weeks?",
            "Who sat on the other side?",
            "What did I do two Saturdays in a row?",
            "What did I do earlier in the game?",
        ] {
            assert_eq!(span(q), None, "{q}");
        }
    }

    #[test]
    fn times_ahead_as_plans_name_them() {
        // Asked on Wednesday 2026-11-18.
        for (q, dates, words) in [
            (
                "What do I have tomorrow?",
                "2026-11-19..2026-11-20",
                "tomorrow",
            ),
            (
                "What's on the day after tomorrow?",
                "2026-11-20..2026-11-21",
                "the day after tomorrow",
            ),
            (
                "What is planned for next week?",
                "2026-11-23..2026-11-30",
                "next week",
            ),
            (
                "What do I have next Friday?",
                "2026-11-20..2026-11-21",
                "next Friday",
            ),
            (
                "What's happening next weekend?",
                "2026-11-28..2026-11-30",
                "next weekend",
            ),
            (
                "What do I have this coming weekend?",
                "2026-11-21..2026-11-23",
                "this coming weekend",
            ),
            (
                "What is due later this month?",
                "2026-11-19..2026-12-01",
                "later this month",
            ),
            (
                "What happens in 3 days?",
                "2026-11-20..2026-11-23",
                "in 3 days",
            ),
            (
                "What's happening in two weeks?",
                "2026-11-29..2026-12-06",
                "in two weeks",
            ),
            (
                "What do I have in the next few days?",
                "2026-11-19..2026-11-22",
                "the next few days",
            ),
            (
                "What is planned for the coming weeks?",
                "2026-11-19..2026-12-10",
                "the coming weeks",
            ),
            (
                "the week after next",
                "2026-11-30..2026-12-07",
                "the week after next",
            ),
            (
                "What do we plan for the next 2 years?",
                "2026-11-19..2028-11-18",
                "the next 2 years",
            ),
            ("next month", "2026-12-01..2027-01-01", "next month"),
            ("next year", "2027-01-01..2028-01-01", "next year"),
            // A season not begun yet this year; the one just past when it has ended.
            (
                "What are we doing this winter?",
                "2026-12-01..2027-03-01",
                "this winter",
            ),
            (
                "What did we do this summer?",
                "2026-06-01..2026-09-01",
                "this summer",
            ),
            (
                "What is due on the 3rd of next month?",
                "2026-12-03..2026-12-04",
                "on the 3rd of next month",
            ),
        ] {
            is(q, dates, words);
        }
        for q in [
            "What did I do the next day?",
            "Who sits next to me?",
            "When is the next time?",
            "What is coming up?",
            "What's next?",
            "How many times did I run in a week?",
            "What did we do on the next trip?",
            "the coming storm",
        ] {
            assert_eq!(span(q), None, "{q}");
        }
    }

    #[test]
    fn a_day_without_its_month_or_in_words() {
        for (q, dates, words) in [
            // A month written as a name, then the day in words.
            (
                "What did I do on March first?",
                "2026-03-01..2026-03-02",
                "March first",
            ),
            (
                "What happened on June twenty-first?",
                "2026-06-21..2026-06-22",
                "June twenty-first",
            ),
            // A day alone: the latest past one, or of the month named after it.
            (
                "What did I do on the first?",
                "2026-11-01..2026-11-02",
                "on the first",
            ),
            (
                "What did I do on the 25th?",
                "2026-10-25..2026-10-26",
                "on the 25th",
            ),
            (
                "What did I do on the 3rd of last month?",
                "2026-10-03..2026-10-04",
                "on the 3rd of last month",
            ),
            (
                "What did I do on the first of the month?",
                "2026-11-01..2026-11-02",
                "on the first of the month",
            ),
            // A weekday before a date is the date's.
            (
                "What did I do on Tuesday the 3rd?",
                "2026-11-03..2026-11-04",
                "on Tuesday the 3rd",
            ),
            (
                "What did I do on Friday, March 6?",
                "2026-03-06..2026-03-07",
                "on Friday, March 6",
            ),
            (
                "What did I do on Tuesday?",
                "2026-11-17..2026-11-18",
                "on Tuesday",
            ),
        ] {
            is(q, dates, words);
        }
        for none in [
            "Did we march first?",
            "What did we do on May first?",
            "What did I do on the first day of school?",
            "What happened on the first try?",
            "What did I do on the",
        ] {
            assert_eq!(span(none), None, "{none}");
        }
    }

    #[test]
    fn the_spans_a_statement_names_are_read_at_when_it_was_said() {
        // Monday 2023-04-10 12:00 UTC.
        let said = 1_681_128_000_000;
        let spans = |t: &str| -> Vec<(Millis, Millis)> {
            stated(t, said)
                .into_iter()
                .map(|w| (w.after.unwrap(), w.before.unwrap()))
                .collect()
        };
        let day = |y, m, d| {
            Date::from_calendar_date(y, Month::try_from(m).unwrap(), d)
                .unwrap()
                .midnight()
                .assume_utc()
                .unix_timestamp()
                * 1000
        };
        assert_eq!(
            spans("My colleagues and I went to a convention last month."),
            [(day(2023, 3, 1), day(2023, 4, 1))]
        );
        assert_eq!(
            spans("Watched it last night, and on Saturday we hiked."),
            [
                (day(2023, 4, 9), day(2023, 4, 10)),
                (day(2023, 4, 8), day(2023, 4, 9))
            ]
        );
        assert!(spans("I've had them for 3 years now").is_empty());
        assert!(spans("").is_empty());
        assert!(stated("yesterday", Millis::MIN).is_empty());
        let march = Window {
            after: Some(day(2023, 3, 1)),
            before: Some(day(2023, 4, 1)),
        };
        let april = Window {
            after: Some(day(2023, 4, 1)),
            before: None,
        };
        assert!(overlap(march, stated("last month", said)[0]));
        assert!(!overlap(april, march));
        assert!(overlap(Window::default(), march));
    }

    #[test]
    fn ordering_words() {
        let (earliest, latest) = (Some(Order::Earliest), Some(Order::Latest));
        assert_eq!(ordering("What was the first book I started?"), earliest);
        assert_eq!(ordering("Which was EARLIEST?"), earliest);
        assert_eq!(ordering("When did I last go running?"), latest);
        assert_eq!(ordering("my latest run"), latest);
        assert_eq!(ordering("What is the most recent movie I watched?"), latest);
        assert_eq!(ordering("who did I see most recently"), latest);
        // The words that ask for it, to be taken out of what is matched.
        let q = "What is the most recent movie I watched?";
        let (_, at) = super::ordering_words(q).expect("an order");
        assert_eq!(&q[at], "most recent");
        let q = "When was my first run?";
        let (_, at) = super::ordering_words(q).expect("an order");
        assert_eq!(&q[at], "first");
        for q in [
            "the most important thing",
            "lastly, tea",
            "firstly",
            "",
            "????",
            "最初の本",
        ] {
            assert_eq!(ordering(q), None, "{q}");
        }
        // Read once a named span's words are out: "last week" is a span, not an order.
        let q = "What did I do last week?";
        let named = named(q, 1_775_000_000_000).expect("a span");
        assert_eq!(ordering(&named.without(q)), None);
    }

    #[test]
    fn questions_asking_when() {
        for q in [
            "When did Jon receive mentorship?",
            "when is the party",
            "What day did I see the dentist?",
            "In which year did she move?",
            "How long ago did we meet?",
            "How long has Melanie been practicing art?",
            "how long did it take to finish the book",
        ] {
            assert!(asks_when(q), "{q}");
        }
        for q in [
            "What did I eat when I was in Rome?",
            "How long is the trip?",
            "What time is my yoga class?",
            "What does Ana drink?",
            "",
            "whenever",
        ] {
            assert!(!asks_when(q), "{q}");
        }
    }

    #[test]
    fn days_of_the_week_a_question_keeps_to() {
        // 2026-03-07 is a Saturday, 2026-03-09 a Monday.
        let saturday = 1_772_841_600_000 + 3_600_000;
        let monday = saturday + 2 * DAY_MS;
        let q = "What did I do on weekends in March?";
        let d = days_named(q).expect("weekends");
        assert_eq!(&q[d.words.clone()], "on weekends");
        assert!(d.hold(saturday) && d.hold(saturday + DAY_MS) && !d.hold(monday));
        let d = days_named("where did I eat over the weekdays").expect("weekdays");
        assert!(d.hold(monday) && !d.hold(saturday));
        let q = "Which classes did I take on Mondays last month?";
        let d = days_named(q).expect("mondays");
        assert_eq!(&q[d.words.clone()], "on Mondays");
        assert!(d.hold(monday) && !d.hold(monday + DAY_MS));
        for q in [
            "What did I do last weekend?",
            "the weekend of 24 June",
            "on Monday",
            "weds",
            "Mons",
            "",
        ] {
            assert_eq!(days_named(q), None, "{q}");
        }
    }

    #[test]
    fn statements_of_how_long_something_has_lasted() {
        for t in [
            "I've had them for 3 years now and they bring me joy!",
            "Seven years now, and I've found my muses.",
            "I've been playing for about four months now.",
            "I've been playing professionally for just under a year now.",
            "We have lived here for the past two years",
            "she's been sober for a couple of months",
        ] {
            assert!(names_duration(t), "{t}");
        }
        for t in [
            "I'm going to Paris for 3 days.",
            "I waited for a day.",
            "Three cheers for now!",
            "I have three cats",
            "for years",
            "",
            "now",
        ] {
            assert!(!names_duration(t), "{t}");
        }
    }

    #[test]
    fn words_that_name_no_span() {
        for q in [
            "What does Ana drink?",
            "may I have the report",
            "in a week",
            "the last time we met",
            "10 days",
            "March on",
            "",
            "🙂 ago ago",
            "99999999999 days ago",
            "between 30 February and 31 February",
            "between us and them",
            "the week of 99 March",
            "on the 15 minutes",
            "on the 32nd",
            "the second week of",
            "the dream in 99999",
        ] {
            assert_eq!(span(q), None, "{q}");
        }
        // Removing the words leaves the rest to match.
        let q = "What kitchen appliance did I buy 10 days ago?";
        let n = named(q, NOW).unwrap();
        assert_eq!(n.without(q), "What kitchen appliance did I buy  ?");
    }

    #[test]
    fn anchors_are_the_event_after_before_or_after() {
        let a = anchored("What was the last thing I did before the doctor's appointment?").unwrap();
        assert_eq!(
            (a.side, a.event.as_str(), a.next),
            (Side::Before, "doctor's appointment", false)
        );
        let q = "What did I do right after the Sintra trip?";
        let b = anchored(q).unwrap();
        assert_eq!(
            (b.side, b.event.as_str(), b.next),
            (Side::After, "Sintra trip", true)
        );
        assert_eq!(&q[b.words.clone()], "right after the Sintra trip");
        assert_eq!(b.order(), Some(Order::Earliest));
        assert_eq!(a.order(), None);
        // Its own days: "during", or "on" whose it is.
        for (q, event, words) in [
            (
                "What did I eat during the trip to Lisbon?",
                "trip to Lisbon",
                "during the trip to Lisbon",
            ),
            (
                "What happened on my birthday?",
                "birthday",
                "on my birthday",
            ),
            (
                "What did we do on our anniversary, in the end?",
                "anniversary",
                "on our anniversary",
            ),
        ] {
            let c = anchored(q).unwrap();
            assert_eq!((c.side, c.event.as_str()), (Side::During, event), "{q}");
            assert_eq!(&q[c.words.clone()], words);
            assert_eq!(c.order(), None);
        }
        for none in [
            "What do I do during the summer?",
            "What do I do during the week?",
            "What did I do on Monday?",
            "What did we agree on?",
            "What did I do on the weekend?",
            "What do I do on my weekends?",
            "Did I see the doctor before or after the physiotherapy?",
            "What did I do after that?",
            "Was it before?",
            "What did I buy last week?",
            "After how many weeks did Tim reconnect with his friend?",
            "",
        ] {
            assert_eq!(anchored(none), None, "{none}");
        }
    }
}
