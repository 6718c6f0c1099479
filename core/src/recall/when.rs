//! What the time a question names asks of a memory: whether a memory names a time at all
//! (for a question asking when), tells of a span though said outside it, or falls due in it;
//! the span before or after an event a question is placed against ("right after the Sintra
//! trip"), dated by the search's own memories of it; and whether a question names anything
//! besides its span.

use super::{Cache, Search, SearchRequest};
use crate::clock::{Millis, Window, DAY_MS};
use crate::error::Result;
use crate::field::Limit;
use crate::model::Memory;
use crate::period;
use crate::store::View;
use crate::text;

/// Whether `text`, said at `said`, names a time: a span of the past ("last month"), how long
/// something has lasted ("for 3 years now") or a time still to come ("tomorrow", "this
/// weekend").
pub(super) fn names_a_time(text: &str, said: Millis) -> bool {
    !period::stated(text, said).is_empty()
        || period::names_duration(text)
        || crate::extract::names_time_ahead(text, said)
}

/// Whether `text`, said at `said`, outside `span`, names a time inside it: said after it, of
/// what happened ("a convention last month", said in April, of March), or before it, of what
/// was planned ("the dentist next Friday").
pub(super) fn tells_of(span: Window, text: &str, said: Millis) -> bool {
    if span.contains(said) {
        return false;
    }
    let meets = |spans: Vec<Window>| spans.into_iter().any(|w| period::overlap(w, span));
    let statement = period::Statement::new(text, said);
    // Said before the span, a month or a day named alone tells of the next one, unless it is
    // told of the past: "we fly to Lisbon in March", said in November. Not a deadline's open
    // side ("before Christmas" is due then, `due_in`, not of every day until).
    let before = span.after.is_some_and(|a| said < a);
    let closed = |mut spans: Vec<Window>| {
        spans.retain(|w| w.after.is_some() && w.before.is_some());
        spans
    };
    meets(statement.told())
        || (before && meets(closed(statement.plans())) && !crate::extract::told_of_past(text))
}

/// Whether memory `m` is due inside `span` (its `expires_at`: a plan's or deadline's time).
pub(super) fn due_in(span: Window, m: &Memory) -> bool {
    m.expires_at.is_some_and(|t| span.contains(t))
}

/// The longest span a question names that is read whole when none of its memories answers in
/// words (a week).
pub(super) const READ_WHOLE_MS: Millis = 7 * DAY_MS;
/// How long after a span (and before one not over yet) the memories said are read for a time
/// inside it, beside the query's candidates from the whole store.
pub(super) const TELLS_WITHIN_MS: Millis = 31 * DAY_MS;
/// Relevance the best match of an anchor's event needs before the question is placed against
/// it ("after the Sintra trip" needs a memory of the trip).
const ANCHOR_MIN_RELEVANCE: f64 = 0.3;
/// Memories of the event looked at: the event may span several ("two days in Sintra").
const ANCHOR_MEMORIES: usize = 5;
/// How far from its best match a memory of the event may lie.
const ANCHOR_SPAN_MS: Millis = 3 * DAY_MS;

/// The span before or after the event `anchor` names, as the search's own memories date it:
/// before the first memory of it, or after the last (those within the relevance gate of the
/// best match); none when no memory is close enough to be the event.
pub(super) fn anchored(
    view: &mut View,
    cache: &mut Cache,
    search: &Search,
    anchor: &period::Anchor,
    now: Millis,
) -> Result<Option<period::Named>> {
    let event = SearchRequest {
        limit: Limit::new(ANCHOR_MEMORIES).ok(),
        as_of: search.req.as_of,
        ..SearchRequest::new(search.owner.clone(), anchor.event.clone())
    };
    let found = Search::new(view, search.cfg, search.owner, &event, now)?.ranked(view, cache)?;
    let Some(best) = found.first() else {
        return Ok(None);
    };
    if best.why.relevance < ANCHOR_MIN_RELEVANCE {
        return Ok(None);
    }
    // The event: its best match, and the memories saying its words within days of it (the
    // second day of a trip), each at the time it names or else when it was said.
    let at = event_time(&best.memory).0;
    let times: Vec<(Millis, Millis)> = found
        .iter()
        .filter(|r| r.why.text > 0.0)
        .map(|r| event_time(&r.memory))
        .filter(|(from, _)| (from - at).abs() <= ANCHOR_SPAN_MS)
        .collect();
    let first = times.iter().map(|t| t.0).min();
    let last = times.iter().map(|t| t.1).max();
    let (Some(first), Some(last)) = (first, last) else {
        return Ok(None);
    };
    let window = match anchor.side {
        period::Side::Before => Window {
            after: Some(0),
            before: Some(first),
        },
        period::Side::After => Window {
            after: Some(last + 1),
            before: Some(search.req.as_of.unwrap_or(now) + 1),
        },
        // The (UTC) days the event was spoken of.
        period::Side::During => Window {
            after: Some(first - first.rem_euclid(DAY_MS)),
            before: Some((last - last.rem_euclid(DAY_MS)).saturating_add(DAY_MS)),
        },
    };
    Ok(Some(period::Named {
        window,
        words: anchor.words.clone(),
    }))
}

/// When what memory `m` speaks of happened, its first and last moments: the span of at most
/// a few days it names, read at when it was said (a plan's as a plan says it: "the Sintra
/// trip is next weekend", said on Monday, is of that weekend), else the moment it was said.
fn event_time(m: &Memory) -> (Millis, Millis) {
    let statement = period::Statement::new(&m.content, m.created_at);
    let spans = match crate::extract::told_of_past(&m.content) {
        true => statement.told(),
        false => statement.plans(),
    };
    spans
        .into_iter()
        .find_map(|w| Some((w.after?, w.before? - 1)).filter(|(a, b)| b - a < ANCHOR_SPAN_MS))
        .unwrap_or((m.created_at, m.created_at))
}

/// Words that, beside a named span, say nothing of what a question is about ("what do I have
/// tomorrow?", "what is planned for next week?").
#[rustfmt::skip]
const TIME_ONLY_WORDS: &[&str] = &[
    "thing", "things", "happen", "happened", "happening", "do", "did", "done", "doing", "first",
    "last", "latest", "earliest", "recent", "recently", "have", "has", "had", "plan", "plans",
    "planned", "due", "scheduled", "upcoming", "coming",
];

/// Whether `text` (a question without the words naming its span) names nothing to match.
pub(super) fn names_nothing(text: &str) -> bool {
    text::query_terms(text).iter().all(|t| {
        crate::lexicon::is_stopword(t)
            || crate::lexicon::vague(t)
            || TIME_ONLY_WORDS.contains(&t.as_str())
    })
}
