//! Sentiment from a word list (−1..1): positive and negative words with strengths, flipped by a
//! negation and scaled by an intensifier just before them, squashed like VADER's compound score.

/// Words and their valence.
const LEXICON: &[(&str, f64)] = &[
    ("love", 0.9),
    ("loved", 0.9),
    ("loves", 0.9),
    ("adore", 0.9),
    ("amazing", 0.9),
    ("awesome", 0.8),
    ("fantastic", 0.9),
    ("wonderful", 0.9),
    ("excellent", 0.8),
    ("great", 0.7),
    ("happy", 0.8),
    ("glad", 0.6),
    ("excited", 0.8),
    ("thrilled", 0.9),
    ("proud", 0.7),
    ("grateful", 0.7),
    ("thankful", 0.6),
    ("enjoy", 0.6),
    ("enjoyed", 0.6),
    ("like", 0.4),
    ("likes", 0.4),
    ("liked", 0.4),
    ("good", 0.5),
    ("nice", 0.5),
    ("fun", 0.6),
    ("best", 0.7),
    ("favorite", 0.6),
    ("favourite", 0.6),
    ("beautiful", 0.7),
    ("relieved", 0.5),
    ("delighted", 0.9),
    ("perfect", 0.7),
    ("yay", 0.7),
    ("congrats", 0.7),
    ("promoted", 0.6),
    ("won", 0.6),
    ("calm", 0.3),
    ("peaceful", 0.5),
    ("fan", 0.4),
    ("prefer", 0.2),
    ("hope", 0.3),
    ("hate", -0.9),
    ("hated", -0.9),
    ("hates", -0.9),
    ("sad", -0.7),
    ("angry", -0.7),
    ("upset", -0.6),
    ("terrible", -0.8),
    ("awful", -0.8),
    ("horrible", -0.8),
    ("bad", -0.5),
    ("worst", -0.8),
    ("annoyed", -0.5),
    ("annoying", -0.5),
    ("frustrated", -0.6),
    ("frustrating", -0.6),
    ("stressed", -0.6),
    ("stressful", -0.6),
    ("anxious", -0.6),
    ("worried", -0.5),
    ("tired", -0.4),
    ("exhausted", -0.6),
    ("sick", -0.5),
    ("hurt", -0.6),
    ("lonely", -0.6),
    ("depressed", -0.8),
    ("scared", -0.6),
    ("afraid", -0.5),
    ("disappointed", -0.6),
    ("miserable", -0.8),
    ("died", -0.7),
    ("passed", -0.1),
    ("fired", -0.6),
    ("lost", -0.4),
    ("broke", -0.4),
    ("broken", -0.5),
    ("cry", -0.6),
    ("crying", -0.6),
    ("pain", -0.6),
    ("nervous", -0.5),
    ("overwhelmed", -0.6),
    ("dislike", -0.6),
    ("boring", -0.4),
    ("bored", -0.4),
    ("sucks", -0.6),
    ("ugh", -0.4),
    ("allergic", -0.2),
    ("grief", -0.8),
    ("funeral", -0.6),
    ("divorce", -0.6),
    ("sorry", -0.3),
    ("miss", -0.3),
    ("rough", -0.4),
    ("struggling", -0.5),
    ("dread", -0.7),
    ("dreading", -0.7),
];

const NEGATIONS: &[&str] = &[
    "not", "don't", "dont", "never", "no", "isn't", "wasn't", "aren't", "can't", "cannot",
    "didn't", "doesn't", "won't", "hardly", "barely", "nothing", "without",
];

const INTENSIFIERS: &[&str] = &[
    "very",
    "really",
    "so",
    "extremely",
    "super",
    "absolutely",
    "totally",
    "incredibly",
    "truly",
];

/// Sentiment of a sentence's lower-case words, in −1..1.
pub fn score(words: &[&str]) -> f64 {
    let mut sum = 0.0;
    for (i, w) in words.iter().enumerate() {
        let Some(&(_, mut v)) = LEXICON.iter().find(|(x, _)| x == w) else {
            continue;
        };
        let before = &words[i.saturating_sub(3)..i];
        if before.iter().any(|b| INTENSIFIERS.contains(b)) {
            v *= 1.4;
        }
        if before.iter().any(|b| NEGATIONS.contains(b)) {
            v *= -0.6;
        }
        sum += v;
    }
    if sum == 0.0 {
        return 0.0;
    }
    // VADER's normalisation with α = 1: ±1 only in the limit.
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
