//! The words a reading takes: lower case, where each lies in the text, how it is joined to
//! the next ("2025-12", "12/24"), and counts written in words or digits.

use time::Month;

use crate::calendar;

/// One word of the question: lower case, where it lies, and whether a dash joins it to the
/// next ("2025-12-24", "March 1-10").
pub(super) struct Word {
    pub(super) text: String,
    pub(super) at: std::ops::Range<usize>,
    pub(super) dash: bool,
    /// Written with a capital first letter.
    pub(super) capital: bool,
    /// The one character joining it to the next word, when nothing else is between them
    /// (the "/" of "12/24").
    pub(super) joint: Option<char>,
}

pub(super) fn words(question: &str) -> Vec<Word> {
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
pub(super) fn month_number(w: &str) -> Option<Month> {
    Month::try_from(w.parse::<u8>().ok().filter(|_| w.len() <= 2)?).ok()
}

pub(super) fn count(w: &str) -> Option<i64> {
    match w {
        "a" | "an" => Some(1),
        "few" | "several" | "some" => Some(3),
        _ => calendar::number(w).filter(|n| *n > 0),
    }
}
