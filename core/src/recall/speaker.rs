//! Who said it. Memories kept as transcript lines ("Caroline: I'm keen on counselling") say
//! who speaks; a question that names a speaker ("What career is Caroline pursuing?") is about
//! what that speaker said, not what others said to them ("Melanie: Yeah, Caroline, totally!"),
//! so the other speakers' lines count for less. When no line of a speaker it names matches
//! the question's words, and for memories that are not lines, nothing changes.

use crate::text;

/// What another speaker's line is multiplied by (its relevance for the gate, and its score)
/// when the question names a speaker. LoCoMo dev R@10 overall by this multiplier: 1 (none)
/// 0.750, 0.9 0.761, 0.8 0.767, 0.7 0.773, 0.5 0.769 (docs/BENCHMARKS.md).
pub(super) const OTHERS_MULTIPLIER: f64 = 0.7;

/// The words of a question, lower case and sorted, as a speaker's name is looked for among
/// them.
pub(super) fn words(question: &str) -> Vec<String> {
    let mut words: Vec<String> = lower_words(question).collect();
    crate::order::sort_by(&mut words, |a, b| a.cmp(b));
    words
}

/// Whether `content` is a line of a speaker the question's words `asked` name: `Some(true)`,
/// of another speaker `Some(false)`, `None` when it is no transcript line.
pub(super) fn line_named(content: &str, asked: &[String]) -> Option<bool> {
    let label = text::speaker_label(content).0?;
    Some(lower_words(label).all(|w| asked.binary_search(&w).is_ok()))
}

/// The runs of letters and digits of `text`, lower case ("Caroline's" is "caroline", "s").
fn lower_words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_speaker_is_named_by_every_word_of_the_label() {
        let asked = words("What did Dr. Lee tell Caroline's mother?");
        assert_eq!(line_named("Caroline: hi there", &asked), Some(true));
        assert_eq!(line_named("Dr. Lee: take two", &asked), Some(true));
        assert_eq!(line_named("Melanie: Caroline, hi!", &asked), Some(false));
        assert_eq!(line_named("Dr. Smith: take two", &asked), Some(false));
        assert_eq!(line_named("no label here", &asked), None);
        // A note's label is no speaker: the note is nobody else's line.
        assert_eq!(line_named("Reminder: Caroline's party", &asked), None);
        assert_eq!(line_named("lower: not a name", &asked), None);
        let user = words("what does the user like?");
        assert_eq!(line_named("User: tea, always", &user), Some(true));
    }
}
