//! The significance gate: acknowledgements, laughter, greetings and emoji
//! store nothing.

use super::words::Token;
use crate::lexicon::FILLER_FOR_GATE;

/// Whether a word is laughter ("haha", "hahaha", "hehe", "lolol").
fn laughter(w: &str) -> bool {
    w.len() >= 2
        && (w.chars().all(|c| matches!(c, 'h' | 'a' | 'e' | 'i')) && w.contains('h')
            || w.chars().all(|c| matches!(c, 'l' | 'o')) && w.starts_with('l'))
}

/// A word with letter runs of three or more cut to one ("sooo" → "so", "thanksss" → "thanks").
fn squeezed(w: &str) -> String {
    let chars: Vec<char> = w.chars().collect();
    let mut out = String::with_capacity(w.len());
    let mut i = 0;
    while i < chars.len() {
        let mut j = i;
        while j < chars.len() && chars[j] == chars[i] {
            j += 1;
        }
        let run = if j - i >= 3 { 1 } else { j - i };
        out.extend(std::iter::repeat_n(chars[i], run));
        i = j;
    }
    out
}

/// Whether a whole message (all its tokens) is too trivial to remember.
pub fn trivial(tokens: &[Token]) -> bool {
    tokens.iter().filter(|t| !t.punct).all(|t| {
        let w = squeezed(&t.lower);
        FILLER_FOR_GATE.contains(&w.as_str()) || laughter(&w)
    })
}

#[cfg(test)]
mod tests {
    use super::super::words::tokens;
    use super::*;

    #[test]
    fn trivial_messages() {
        for m in [
            "ok",
            "Thanks!",
            "lol",
            "👍",
            "haha nice",
            "cool cool",
            "got it",
            "sure thing",
            "Good morning!!",
            "okkk thanksss",
            "hahahaha",
            "yes please",
            "no worries :)",
            "...",
            "thank you so much!",
            "makes sense",
            "sounds good",
            "",
        ] {
            assert!(trivial(&tokens(m)), "{m:?} should be trivial");
        }
    }

    #[test]
    fn messages_worth_keeping() {
        for m in [
            "I'm a nurse",
            "ok, my sister is Ana",
            "thanks, I prefer tea",
            "no, I live in Porto",
            "Paris",
            "yes, dentist tomorrow",
            "I hate mornings",
        ] {
            assert!(!trivial(&tokens(m)), "{m:?} should pass the gate");
        }
    }
}
