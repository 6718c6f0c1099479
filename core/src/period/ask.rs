//! What else a question asks of time besides a span: the order of a run of events ("the
//! first", "the most recent"), when something happened ("when did I…"), how long something has
//! lasted ("I've had them for 3 years"), and an event to place its answer against ("right after
//! the Sintra trip", "during the trip", "on my birthday").

use super::words::{count, words, Word};
use super::year::season;

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
pub(super) const DURATION_UNITS: &[&str] = &[
    "day", "days", "week", "weeks", "month", "months", "year", "years", "decade", "decades",
];
/// Words that may stand between "for" and a duration's count: "for about four months", "for
/// just under a year", "for the past two years".
pub(super) const DURATION_HEDGES: &[&str] = &[
    "about", "around", "almost", "nearly", "over", "just", "under", "roughly", "the", "past",
    "last", "a", "couple", "of",
];
/// Words that make a statement's "for three years" reach up to when it was said: "I've
/// been", "had them", "have lived".
pub(super) const PERFECT_MARKERS: &[&str] = &["been", "ve", "have", "has", "had"];

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
pub(super) const NEXT_TO: &[&str] = &["right", "just", "immediately", "straight", "soon"];
/// Whose an event "on" names is ("on my birthday").
pub(super) const OWNERS: &[&str] = &["my", "our", "his", "her", "their"];
/// Times of day, week or year that are no event: "during the week", "on my weekend".
#[rustfmt::skip]
pub(super) const TIME_NOUNS: &[&str] = &[
    "day", "days", "week", "weeks", "weekend", "weekends", "morning", "afternoon", "evening",
    "night", "month", "year", "time",
];

/// Words that open the event's name and say nothing of it.
pub(super) const EVENT_OPENERS: &[&str] =
    &["the", "my", "our", "a", "an", "that", "this", "i", "we"];

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
