//! The Unicode the tokenizer needs, and no more: each character's class (control, punctuation,
//! non-spacing mark or other) and canonical decomposition with combining-class ordering (NFD),
//! from tables generated out of the `unicode-general-category` and `unicode-normalization`
//! crates. Those crates carry every table of their standards (composition, compatibility
//! forms, all 30 categories): about 150 KB of the browser module, against 32 KB here.
//!
//! Regenerate after moving those crates (dev-dependencies) to a newer Unicode with
//! `MNEMO_BLESS=1 cargo test -p mnemo-core --lib embed::unicode`; the same test checks every
//! code point against them.

#[rustfmt::skip]
mod tables;

use tables::{CLASS_RUNS, COMBINING_RUNS, DECOMPOSED, DECOMPOSITIONS, DECOMPOSITION_ENDS};

/// What the tokenizer tells apart among characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Other = 0,
    /// Control, format, surrogate, private use or unassigned (categories C*).
    Control = 1,
    /// Any punctuation category (P*).
    Punctuation = 2,
    /// A non-spacing mark (Mn), such as an accent.
    Mark = 3,
}

/// Bits of a class run's entry holding the class (the start is above them).
const CLASS_BITS: u32 = 2;
/// Bits of a combining run's entry holding the combining class.
const COMBINING_BITS: u32 = 8;

/// The value of the run of `runs` (entries `start << bits | value`, ascending, the first
/// starting at 0) that holds `c`.
fn run_value(runs: &[u32], bits: u32, c: char) -> u32 {
    let at = runs.partition_point(|&r| r >> bits <= c as u32);
    at.checked_sub(1).map_or(0, |i| runs[i] & ((1 << bits) - 1))
}

/// The classes of the ASCII characters, read from the runs once, at compile time.
static ASCII_CLASSES: [u8; 128] = {
    let mut out = [0u8; 128];
    let (mut c, mut run) = (0, 0);
    while c < 128 {
        while run + 1 < CLASS_RUNS.len() && CLASS_RUNS[run + 1] >> CLASS_BITS <= c as u32 {
            run += 1;
        }
        out[c] = (CLASS_RUNS[run] & ((1 << CLASS_BITS) - 1)) as u8;
        c += 1;
    }
    out
};

/// The class of `c`.
pub fn class(c: char) -> Class {
    let value = match c.is_ascii() {
        true => ASCII_CLASSES[c as usize] as u32,
        false => run_value(&CLASS_RUNS, CLASS_BITS, c),
    };
    match value {
        1 => Class::Control,
        2 => Class::Punctuation,
        3 => Class::Mark,
        _ => Class::Other,
    }
}

/// The canonical combining class of `c` (0 for a starter).
fn combining_class(c: char) -> u8 {
    run_value(&COMBINING_RUNS, COMBINING_BITS, c) as u8
}

/// Hangul syllables decompose by arithmetic (Unicode §3.12), not by table.
const HANGUL_FIRST: u32 = 0xAC00;
const HANGUL_COUNT: u32 = 11_172;
const LEADING_FIRST: u32 = 0x1100;
const VOWEL_FIRST: u32 = 0x1161;
const TRAILING_BEFORE_FIRST: u32 = 0x11A7;
const VOWELS: u32 = 21;
const TRAILINGS: u32 = 28;

/// Calls `each` with the characters of `c`'s full canonical decomposition, in order.
fn decompose(c: char, mut each: impl FnMut(char)) {
    let s = (c as u32).wrapping_sub(HANGUL_FIRST);
    if s < HANGUL_COUNT {
        let jamo = |x: u32| char::from_u32(x).unwrap_or(c);
        each(jamo(LEADING_FIRST + s / (VOWELS * TRAILINGS)));
        each(jamo(VOWEL_FIRST + (s % (VOWELS * TRAILINGS)) / TRAILINGS));
        if !s.is_multiple_of(TRAILINGS) {
            each(jamo(TRAILING_BEFORE_FIRST + s % TRAILINGS));
        }
        return;
    }
    match DECOMPOSED.binary_search(&(c as u32)) {
        Ok(i) => {
            let start = i
                .checked_sub(1)
                .map_or(0, |j| DECOMPOSITION_ENDS[j] as usize);
            let end = DECOMPOSITION_ENDS[i] as usize;
            DECOMPOSITIONS[start..end].chars().for_each(each);
        }
        Err(_) => each(c),
    }
}

/// `text` in canonical decomposition (NFD) with its non-spacing marks removed: "Café" →
/// "Cafe".
pub fn strip_accents(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // The combining characters after the last starter, in canonical order (stable by class).
    let mut pending: Vec<(u8, char)> = Vec::new();
    let flush = |out: &mut String, pending: &mut Vec<(u8, char)>| {
        out.extend(
            pending
                .drain(..)
                .map(|(_, c)| c)
                .filter(|&c| class(c) != Class::Mark),
        );
    };
    for c in text.chars() {
        // ASCII has no decomposition, combining class or mark.
        if c.is_ascii() {
            flush(&mut out, &mut pending);
            out.push(c);
            continue;
        }
        decompose(c, |d| match combining_class(d) {
            0 => {
                flush(&mut out, &mut pending);
                if class(d) != Class::Mark {
                    out.push(d);
                }
            }
            ccc => {
                let at = pending.partition_point(|&(k, _)| k <= ccc);
                pending.insert(at, (ccc, d));
            }
        });
    }
    flush(&mut out, &mut pending);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_general_category::{get_general_category, GeneralCategory as Gc};
    use unicode_normalization::char::{canonical_combining_class, decompose_canonical};
    use unicode_normalization::UnicodeNormalization;

    fn reference_class(c: char) -> Class {
        match get_general_category(c) {
            Gc::Control | Gc::Format | Gc::Surrogate | Gc::PrivateUse | Gc::Unassigned => {
                Class::Control
            }
            Gc::ConnectorPunctuation
            | Gc::DashPunctuation
            | Gc::OpenPunctuation
            | Gc::ClosePunctuation
            | Gc::InitialPunctuation
            | Gc::FinalPunctuation
            | Gc::OtherPunctuation => Class::Punctuation,
            Gc::NonspacingMark => Class::Mark,
            _ => Class::Other,
        }
    }

    fn scalars() -> impl Iterator<Item = char> {
        (0..=char::MAX as u32).filter_map(char::from_u32)
    }

    fn is_hangul_syllable(c: char) -> bool {
        (c as u32).wrapping_sub(HANGUL_FIRST) < HANGUL_COUNT
    }

    /// Runs `start << bits | value` over every scalar, a run starting where the value changes
    /// (surrogates, which are no `char`, are left in the run before them).
    fn runs(bits: u32, value: impl Fn(char) -> u32) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::new();
        for c in scalars() {
            let v = value(c);
            if out.last().is_none_or(|&r| r & ((1 << bits) - 1) != v) {
                out.push((c as u32) << bits | v);
            }
        }
        out
    }

    fn rust_array(name: &str, ty: &str, doc: &str, items: &[String]) -> String {
        let mut s = format!(
            "/// {doc}\npub(super) static {name}: [{ty}; {}] = [\n",
            items.len()
        );
        for line in items.chunks(8) {
            s.push_str(&format!("    {},\n", line.join(", ")));
        }
        s.push_str("];\n\n");
        s
    }

    /// The tables as the crates give them, as Rust source.
    fn generate() -> String {
        let hex = |v: &[u32]| v.iter().map(|x| format!("{x:#x}")).collect::<Vec<_>>();
        let classes = runs(CLASS_BITS, |c| reference_class(c) as u32);
        let combining = runs(COMBINING_BITS, |c| canonical_combining_class(c) as u32);
        let (mut keys, mut ends, mut pool) = (Vec::new(), Vec::new(), String::new());
        for c in scalars().filter(|&c| !is_hangul_syllable(c)) {
            let mut full = String::new();
            decompose_canonical(c, |d| full.push(d));
            if full != c.to_string() {
                keys.push(c as u32);
                pool.push_str(&full);
                ends.push(pool.len().to_string());
            }
        }
        assert!(
            pool.len() <= u16::MAX as usize,
            "decompositions outgrew u16 offsets"
        );
        let escaped: String = pool
            .chars()
            .map(|c| format!("\\u{{{:x}}}", c as u32))
            .collect();
        let mut s = format!(
            "// Generated by `MNEMO_BLESS=1 cargo test -p mnemo-core --lib embed::unicode` from \
             unicode-general-category (Unicode {}.{}.{}) and unicode-normalization (Unicode \
             {}.{}.{}). Do not edit.\n\n",
            unicode_general_category::UNICODE_VERSION.0,
            unicode_general_category::UNICODE_VERSION.1,
            unicode_general_category::UNICODE_VERSION.2,
            unicode_normalization::UNICODE_VERSION.0,
            unicode_normalization::UNICODE_VERSION.1,
            unicode_normalization::UNICODE_VERSION.2,
        );
        s += &rust_array(
            "CLASS_RUNS",
            "u32",
            "Where each run of one `Class` starts: `start << 2 | class`.",
            &hex(&classes),
        );
        s += &rust_array(
            "COMBINING_RUNS",
            "u32",
            "Where each run of one canonical combining class starts: `start << 8 | class`.",
            &hex(&combining),
        );
        s += &rust_array(
            "DECOMPOSED",
            "u32",
            "The characters with a canonical decomposition, Hangul syllables aside, ascending.",
            &hex(&keys),
        );
        s += &rust_array(
            "DECOMPOSITION_ENDS",
            "u16",
            "Where each one's full decomposition ends in `DECOMPOSITIONS` (it starts where the \
             one before ends).",
            &ends,
        );
        s += &format!(
            "/// The full canonical decompositions, one after another.\n\
             pub(super) static DECOMPOSITIONS: &str = \"{escaped}\";\n"
        );
        s
    }

    #[test]
    fn tables_are_the_unicode_crates() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/embed/unicode/tables.rs");
        let fresh = generate();
        if std::env::var_os("MNEMO_BLESS").is_some() {
            std::fs::write(path, &fresh).expect("write the tables");
        }
        let kept = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            kept == fresh,
            "{path} is not what the unicode crates give: regenerate it with MNEMO_BLESS=1"
        );
    }

    #[test]
    fn every_character_is_classed_and_decomposed_as_the_crates_do() {
        for c in scalars() {
            assert_eq!(class(c), reference_class(c), "class of {:#x}", c as u32);
            assert_eq!(
                combining_class(c),
                canonical_combining_class(c),
                "combining class of {:#x}",
                c as u32
            );
            let (mut ours, mut theirs) = (String::new(), String::new());
            decompose(c, |d| ours.push(d));
            decompose_canonical(c, |d| theirs.push(d));
            assert_eq!(ours, theirs, "decomposition of {:#x}", c as u32);
        }
    }

    /// NFD then marks dropped, as the tokenizer did with the crates.
    fn reference_strip(text: &str) -> String {
        text.nfd()
            .filter(|&c| get_general_category(c) != Gc::NonspacingMark)
            .collect()
    }

    #[test]
    fn accents_are_stripped_as_nfd_does() {
        assert_eq!(strip_accents("Café Zürich ñandú"), "Cafe Zurich nandu");
        assert_eq!(strip_accents("한국어"), reference_strip("한국어"));
        // Combining characters in canonical order across a character's own decomposition and
        // marks that follow it; spacing marks with a combining class (U+1D165, U+1D16D) stay
        // and are reordered.
        for s in [
            "a\u{301}\u{316}",
            "\u{1d15f}\u{1d16d}\u{1d165}",
            "\u{1d16d}\u{301}\u{1d165}x",
            "\u{1e0b}\u{323}",
            "\u{0958}\u{94d}",
        ] {
            assert_eq!(strip_accents(s), reference_strip(s), "{s:?}");
        }
        // Random strings over the characters where the order matters.
        let pool: Vec<char> = scalars()
            .filter(|&c| {
                canonical_combining_class(c) != 0
                    || c.to_string().nfd().count() > 1
                    || c.is_ascii_alphabetic()
            })
            .collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = 1 + next() % 8;
            let s: String = (0..len)
                .map(|_| pool[(next() % pool.len() as u64) as usize])
                .collect();
            assert_eq!(strip_accents(&s), reference_strip(&s), "{s:?}");
        }
    }
}
