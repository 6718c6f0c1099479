//! Sentiment from a word list (−1..1): positive and negative words with strengths, flipped by a
//! negation and scaled by an intensifier just before them, squashed into −1..1 as x / √(x² + 1).

use crate::lexicon::{INTENSIFIERS, NEGATIONS_FOR_SENTIMENT, SENTIMENT};

/// Sentiment of a sentence's lower-case words, in −1..1.
pub fn score(words: &[&str]) -> f64 {
    let mut sum = 0.0;
    for (i, w) in words.iter().enumerate() {
        let Some(&(_, mut v)) = SENTIMENT.iter().find(|(x, _)| x == w) else {
            continue;
        };
        let before = &words[i.saturating_sub(3)..i];
        if before.iter().any(|b| INTENSIFIERS.contains(b)) {
            v *= 1.4;
        }
        if before.iter().any(|b| NEGATIONS_FOR_SENTIMENT.contains(b)) {
            v *= -0.6;
        }
        sum += v;
    }
    if sum == 0.0 {
        return 0.0;
    }
    // x / √(x² + α) with α = 1: ±1 only in the limit.
    let s = sum / (sum * sum + 1.0).sqrt();
    (s * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> f64 {
        let w: Vec<&str> = text.split(' ').collect();
        score(&w)
    }

    #[test]
    fn polarity_negation_and_intensity() {
        assert!(s("i love my new job") > 0.5);
        assert!(s("i hate cilantro") < -0.5);
        assert_eq!(s("i live in porto"), 0.0);
        assert!(s("i don't like it") < 0.0);
        assert!(s("i'm not sad") > 0.0);
        assert!(s("i'm really happy") > s("i'm happy"));
        assert!((-1.0..=1.0).contains(&s("love love love love love amazing")));
    }
}
