//! Whatever a person types reaches every reader of free text without a fault: a question
//! through search (its time, order, relations, speakers, several-things and code readers) and
//! `heartbeat_context`, a message through `remember` (the extractor's dates, names, relations
//! and places), a document through `ingest` (its markdown and HTML readers and chunking). Each reader looks ahead by index, and a message may end, or be cut, anywhere;
//! in the browser a panic would end the worker. The words are drawn, the same every run, from
//! the readers' own vocabulary, with punctuation, digits and other scripts between them
//! (20,000 questions, 10,000 messages and 5,000 documents were, once; each run takes less).
mod common;

use common::*;
use mnemo_core::*;

/// Words the time readers look for (`period`), and numbers and suffixes they must weigh.
#[rustfmt::skip]
const TIME_WORDS: &[&str] = &[
    "on", "the", "in", "of", "from", "to", "until", "through", "between", "and", "or", "since",
    "as", "by", "before", "after", "last", "this", "next", "past", "previous", "ago", "back", "a",
    "two", "three", "couple", "few", "several", "half", "first", "second", "third", "twenty",
    "thirtieth", "1st", "3rd", "15th", "31st", "0", "1", "3", "10", "12", "24", "29", "32", "48",
    "2023", "2025", "1969", "9999", "10000", "2010s", "s", "2025-12", "2025-12-24", "2025-02-30",
    "2025-12-24T10:00:00Z", "Q1", "Q3", "Q4", "Q5", "quarter", "day", "days", "week", "weeks",
    "weekend", "weekends", "fortnight", "month", "months", "year", "years", "hours", "today",
    "yesterday", "tonight", "tomorrow", "Monday", "Tuesday", "Friday", "March", "May",
    "February", "December", "summer", "Christmas", "Easter", "New", "Year's", "Eve", "early",
    "mid", "late", "start", "end", "beginning", "time", "evening", "morning", "earlier", "over",
    "during", "around", "about", "Thanksgiving", "Black", "Boxing", "St", "Patrick", "-",
    "\u{2013}", "coming", "later", "other", "some", "night", "Saturdays", "winter", "birthday",
    "his", "their", "upcoming",
];

/// Words the other readers look for, and some they must pass over.
#[rustfmt::skip]
const OTHER_WORDS: &[&str] = &[
    // Order and several things.
    "most", "recent", "latest", "earliest", "right", "just", "how", "many", "times", "list",
    "all", "which", "what", "when", "where", "who", "did", "do", "have", "has", "long",
    // Relations, people, places and groups.
    "I", "me", "my", "we", "our", "he", "she", "they", "sister", "husband", "son", "daughter",
    "mom", "boss", "friend", "Ana", "Leo", "Lisbon", "'s", "lives", "works", "work", "as",
    "nurse", "at", "company", "team", "moved", "started", "school", "study", "job", "living",
    "name", "is", "called", "allergic", "penicillin", "due", "deadline", "meeting",
    // Code.
    "test", "tests", "fn", "src/lib.rs", "defined", "function",
    // Other scripts, marks and noise.
    "café", "naïve", "Straße", "東京", "مرحبا", "שלום", "🙂", "e\u{301}", "\u{200d}", "NaN",
    "-1", "1e309", "0x1F", "'", "\"", "(", ")", "?", "!", ".", ",", ";", ":", "*", "OR", "NEAR",
    "AND", "NOT", "^", "\\",
];

/// Draws from the engine's own seeded generator (SplitMix64): the same on every run.
struct Draws(SeededEntropy);

impl Draws {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One to `max` words of `lists`, joined by spaces or punctuation, sometimes capitalised.
    fn words(&mut self, lists: &[&[&str]], max: usize) -> String {
        let n = 1 + self.below(max);
        let mut t = String::new();
        for k in 0..n {
            if k > 0 {
                let gaps = [" ", " ", " ", ", ", "-", " - ", ". ", "/", ".", "'"];
                t.push_str(gaps[self.below(gaps.len())]);
            }
            let mut at = self.below(lists.iter().map(|l| l.len()).sum());
            let list = lists.iter().find(|l| {
                let inside = at < l.len();
                if !inside {
                    at -= l.len();
                }
                inside
            });
            let word = list.map_or("", |l| l[at]);
            if self.below(4) == 0 {
                let mut c = word.chars();
                if let Some(first) = c.next() {
                    t.extend(first.to_uppercase());
                    t.push_str(c.as_str());
                }
            } else {
                t.push_str(word);
            }
        }
        t
    }

    /// One to `max` words of every kind.
    fn text(&mut self, max: usize) -> String {
        self.words(&[TIME_WORDS, OTHER_WORDS], max)
    }
}

/// A store with what the readers follow: relations, places, times, transcript lines, code.
fn store() -> Engine {
    let (mut e, clock) = engine();
    for text in [
        "My sister Ana lives in Lisbon.",
        "I work as a nurse at St Mary's hospital.",
        "My son Leo started school in March.",
        "I am allergic to penicillin.",
        "The grant report is due on Friday.",
        "Yesterday I bought a blender for the kitchen.",
    ] {
        e.remember("u", text, RememberOptions::default())
            .expect("remember");
        clock.advance(DAY_MS);
    }
    let lines = [
        "Ana: I moved to Porto last week!",
        "Leo: the test in src/lib.rs fails",
    ];
    for line in lines {
        let m = NewMemory::of(Id::owner("u").expect("owner"), content(line));
        e.seed(vec![m]).expect("seed");
    }
    e
}

/// A fault of the engine's own, as opposed to a refusal of the input.
fn fault(e: &Error) -> bool {
    matches!(e.code(), "internal" | "storage_error")
}

#[test]
fn any_question_is_searched_without_a_fault() {
    let mut e = store();
    let mut draws = Draws(SeededEntropy::new(1));
    let (epoch, last) = (0, 253_402_214_400_000); // 1970-01-01, 9999-12-31
    for round in 0..2_000 {
        let query = draws.text(8);
        let mut req = SearchRequest::new(Id::owner("u").expect("owner"), &query);
        req.as_of = match round % 4 {
            0 => None,
            1 => Some(T0 + 3 * DAY_MS),
            2 => Some(epoch),
            _ => Some(last),
        };
        match e.search(&req) {
            Ok(hits) => assert!(hits.len() <= 10, "{query:?}: {} hits", hits.len()),
            Err(err) => assert!(!fault(&err), "{query:?}: {err:?}"),
        }
        let heartbeat = HeartbeatRequest {
            query: Some(query.clone()),
            ..HeartbeatRequest::new(Id::owner("u").expect("owner"))
        };
        if let Err(err) = e.heartbeat_context(&heartbeat) {
            assert!(!fault(&err), "heartbeat {query:?}: {err:?}");
        }
    }
}

#[test]
fn any_message_is_remembered_without_a_fault() {
    let mut e = store();
    let mut draws = Draws(SeededEntropy::new(2));
    for _ in 0..1_000 {
        let message = draws.text(12);
        if let Err(err) = e.remember("u", &message, RememberOptions::default()) {
            assert!(!fault(&err), "{message:?}: {err:?}");
        }
    }
    // The store still answers: what was said before the drawn messages is found.
    let hits = e
        .search(&SearchRequest::new(
            Id::owner("u").expect("owner"),
            "Which hospital do I work at as a nurse?",
        ))
        .expect("search");
    let said = |h: &mnemo_core::recall::SearchHit| h.memory.content.contains("St Mary's");
    assert!(hits.iter().any(said), "{hits:?}");
}

/// Markup the document readers look for (markdown and HTML), to draw documents from.
const MARKUP: &[&str] = &[
    "# ",
    "## ",
    "###### ",
    "\n",
    "\n\n",
    "- ",
    "* ",
    "1. ",
    "> ",
    "```",
    "```rust\n",
    "`",
    "**",
    "_",
    "[a](",
    ")",
    "![img](x.png)",
    "|",
    "| --- |",
    "---\n",
    "<h1>",
    "</h1>",
    "<p>",
    "</p>",
    "<title>",
    "</title>",
    "<script>",
    "</script>",
    "<style>",
    "</style>",
    "<br>",
    "<ul><li>",
    "</li></ul>",
    "<table><tr><td>",
    "</td></tr></table>",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "&amp;",
    "&#x1F600;",
    "&nbsp;",
    "&bogus;",
    "<",
    ">",
    "<a href=\"",
    "\">",
    "\t",
    "\r\n",
    "\u{feff}",
    "\u{2028}",
];

#[test]
fn any_document_is_ingested_without_a_fault() {
    let mut e = store();
    let mut draws = Draws(SeededEntropy::new(3));
    for round in 0..300 {
        let mut text = String::new();
        for _ in 0..1 + draws.below(40) {
            if draws.below(2) == 0 {
                text.push_str(MARKUP[draws.below(MARKUP.len())]);
            } else {
                text.push_str(&draws.text(10));
            }
        }
        let format = ["markdown", "html", "text"][round % 3];
        let args = serde_json::json!({
            "entity_id": "u", "title": format!("drawn {round}"), "content": text, "format": format,
        });
        match Call::parse("ingest", &args).and_then(|c| e.call(c)) {
            Ok(_) => {}
            Err(err) => assert!(!fault(&err), "{format} {text:?}: {err:?}"),
        }
    }
    let found = e
        .search(&SearchRequest::new(
            Id::owner("u").expect("owner"),
            "penicillin",
        ))
        .expect("search");
    let said =
        |h: &mnemo_core::recall::SearchHit| h.memory.content.contains("allergic to penicillin");
    assert!(found.iter().any(said), "{found:?}");
}

/// Every run of up to six time words (and punctuation between them) reads without a panic,
/// at now, the epoch's day and the calendar's last, as a span that is neither open nor empty,
/// ends by the calendar's last day, and whose words are inside the question; the other readers
/// of `period` take the same runs (2,000,000 were, once). Asked on the epoch's day,
/// "yesterday" is in 1969: a span no memory is in.
#[test]
fn any_run_of_time_words_reads_safely() {
    use mnemo_core::period;
    let mut draws = Draws(SeededEntropy::new(4));
    let last = 253_402_300_800_000; // 10000-01-01
    for _ in 0..30_000 {
        let q = draws.words(&[TIME_WORDS], 6);
        for now in [T0, 0, 253_402_214_400_000] {
            let Some(n) = period::named(&q, now) else {
                continue;
            };
            let (after, before) = (n.window.after, n.window.before);
            assert!(after.is_some() || before.is_some(), "{q}: an open window");
            if let (Some(a), Some(b)) = (after, before) {
                assert!(a < b, "{q}: an empty window {a}..{b}");
            }
            for t in [after, before].into_iter().flatten() {
                assert!(t <= last, "{q}: {t} past 9999");
            }
            assert!(q.get(n.words.clone()).is_some(), "{q}: words {:?}", n.words);
            period::without(&q, &n.words);
        }
        period::stated(&q, T0);
        period::days_named(&q);
        period::asks_when(&q);
        period::names_duration(&q);
        if let Some((_, words)) = period::ordering_words(&q) {
            assert!(q.get(words.clone()).is_some(), "{q}: ordering {words:?}");
        }
        if let Some(a) = period::anchored(&q) {
            assert!(
                q.get(a.words.clone()).is_some(),
                "{q}: anchor {:?}",
                a.words
            );
        }
    }
}
