//! Cutting a document into passages (Kybernesis' chunking strategy): markdown-aware and
//! sentence-bounded. A heading starts a passage and names the section of the passages under
//! it; a fenced code block or a table is never cut unless it alone is longer than a passage
//! may be; a passage ends at a sentence end once it is long enough, and the next one begins
//! with the last sentence or two of it (the overlap), so a fact cut at the seam is whole in
//! one of them. Every passage is a slice of the document, found by character offsets, and
//! the same text always gives the same passages.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Shortest passage the chunker aims for, in characters (the design's 800).
pub const MIN_CHARS: usize = 800;
/// Longest passage, in characters (the design's 1,200), unless one code block or table alone
/// is longer: it is then cut between lines.
pub const MAX_CHARS: usize = 1_200;
/// Characters of the previous passage a passage starts with (the design's 80–120: whole
/// sentences up to [`OVERLAP_MAX`], else this many characters from a word boundary).
pub const OVERLAP: usize = 100;
/// Most characters of overlap taken as whole sentences.
pub const OVERLAP_MAX: usize = 120;

/// How a document is cut: the sizes a source's documents are chunked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ChunkSizes {
    /// Shortest passage aimed for, in characters: a passage ends at the first sentence end
    /// past it (default 800; 100 to 10,000).
    #[schemars(range(min = 100, max = 10_000))]
    pub min_chars: usize,
    /// Longest passage, in characters (default 1,200; 100 to 20,000; below `min_chars` it is
    /// taken as `min_chars`).
    #[schemars(range(min = 100, max = 20_000))]
    pub max_chars: usize,
    /// Characters of overlap between passages, taken as whole sentences when they fit
    /// (default 100; 0 to 5,000; more than half of `min_chars` is taken as half).
    #[schemars(range(max = 5_000))]
    pub overlap: usize,
}

impl Default for ChunkSizes {
    fn default() -> Self {
        ChunkSizes {
            min_chars: MIN_CHARS,
            max_chars: MAX_CHARS,
            overlap: OVERLAP,
        }
    }
}

impl ChunkSizes {
    /// Checks each size's range (`field` names it in the error) and returns the sizes the
    /// chunker uses: `max_chars` at least `min_chars`, the overlap at most half of `min_chars`.
    pub fn check(&self, field: &str) -> Result<ChunkSizes> {
        let range = |name: &str, v: usize, lo: usize, hi: usize| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(Error::invalid(
                    format!("{field}.{name}"),
                    format!("is {v}; expected {lo} to {hi}"),
                ))
            }
        };
        range("min_chars", self.min_chars, 100, 10_000)?;
        range("max_chars", self.max_chars, 100, 20_000)?;
        range("overlap", self.overlap, 0, 5_000)?;
        Ok(ChunkSizes {
            min_chars: self.min_chars,
            max_chars: self.max_chars.max(self.min_chars),
            overlap: self.overlap.min(self.min_chars / 2),
        })
    }
}

/// One passage of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// Its text: the document's characters `start..end`.
    pub text: String,
    /// Where it begins in the document, in characters (Unicode scalar values).
    pub start: usize,
    /// Where it ends (exclusive), in characters.
    pub end: usize,
    /// The markdown headings above it, outermost first (empty before the first heading).
    pub section: Vec<String>,
}

/// The smallest run of the document a passage is made of: a heading line, a sentence, a
/// whole code block or table (or one of its lines when it alone is too long), or a piece of a
/// sentence too long for a passage. Byte offsets into the document.
#[derive(Debug, Clone)]
struct Unit {
    start: usize,
    end: usize,
    /// A heading: the passage before it ends, and no overlap crosses it.
    heading: bool,
    /// Index into the section paths.
    section: usize,
}

/// Splits the document into units, with the section path of each; plain text (not
/// `markdown`) has no headings, code blocks or tables.
fn units(text: &str, max_chars: usize, markdown: bool) -> (Vec<Unit>, Vec<Vec<String>>) {
    let mut units = Vec::new();
    let mut sections: Vec<Vec<String>> = vec![Vec::new()];
    let mut path: Vec<(usize, String)> = Vec::new();
    let lines: Vec<(usize, &str)> = {
        let mut at = 0;
        text.split_inclusive('\n')
            .map(|l| {
                let start = at;
                at += l.len();
                (start, l)
            })
            .collect()
    };
    let mut i = 0;
    while i < lines.len() {
        let (start, line) = lines[i];
        let trimmed = line.trim();
        let section = sections.len() - 1;
        if trimmed.is_empty() {
            i += 1;
            continue;
        }
        // A fenced code block, to its closing fence (or the end).
        if markdown && (trimmed.starts_with("```") || trimmed.starts_with("~~~")) {
            let fence = &trimmed[..3];
            let mut j = i + 1;
            while j < lines.len() && !lines[j].1.trim().starts_with(fence) {
                j += 1;
            }
            let last = j.min(lines.len() - 1);
            whole(text, &lines[i..=last], section, max_chars, &mut units);
            i = last + 1;
            continue;
        }
        // A table: consecutive lines starting with `|`.
        if markdown && trimmed.starts_with('|') {
            let mut j = i;
            while j + 1 < lines.len() && lines[j + 1].1.trim().starts_with('|') {
                j += 1;
            }
            whole(text, &lines[i..=j], section, max_chars, &mut units);
            i = j + 1;
            continue;
        }
        let hashes = trimmed.chars().take_while(|&c| c == '#').count();
        if markdown && (1..=6).contains(&hashes) && trimmed[hashes..].starts_with(' ') {
            while path.last().is_some_and(|(level, _)| *level >= hashes) {
                path.pop();
            }
            path.push((hashes, trimmed[hashes..].trim().to_string()));
            sections.push(path.iter().map(|(_, t)| t.clone()).collect());
            let (s, e) = trim_range(text, start, start + line.len());
            units.push(Unit {
                start: s,
                end: e,
                heading: true,
                section: sections.len() - 1,
            });
            i += 1;
            continue;
        }
        // Prose: this line and the ones after it up to a blank line or another block.
        let mut j = i;
        while j + 1 < lines.len() {
            let next = lines[j + 1].1.trim();
            let h = next.chars().take_while(|&c| c == '#').count();
            if next.is_empty()
                || (markdown
                    && (next.starts_with("```")
                        || next.starts_with("~~~")
                        || next.starts_with('|')
                        || ((1..=6).contains(&h) && next[h..].starts_with(' '))))
            {
                break;
            }
            j += 1;
        }
        let end = lines[j].0 + lines[j].1.len();
        prose(text, start, end, section, max_chars, &mut units);
        i = j + 1;
    }
    (units, sections)
}

/// `start..end` without the white space at its ends.
fn trim_range(text: &str, start: usize, end: usize) -> (usize, usize) {
    let s = &text[start..end];
    let lead = s.len() - s.trim_start().len();
    let trail = s.len() - s.trim_end().len();
    (start + lead, (end - trail).max(start + lead))
}

/// Characters in `text[start..end]`.
fn chars(text: &str, start: usize, end: usize) -> usize {
    text[start..end].chars().count()
}

/// A code block or table: one unit, or one per line when it alone is too long.
fn whole(text: &str, lines: &[(usize, &str)], section: usize, max: usize, out: &mut Vec<Unit>) {
    let (start, end) = trim_range(
        text,
        lines[0].0,
        lines[lines.len() - 1].0 + lines[lines.len() - 1].1.len(),
    );
    if chars(text, start, end) <= max {
        out.push(Unit {
            start,
            end,
            heading: false,
            section,
        });
        return;
    }
    for &(s, l) in lines {
        let (s, e) = trim_range(text, s, s + l.len());
        if e > s {
            long(text, s, e, section, max, out);
        }
    }
}

/// Prose: one unit per sentence (ending at `.`, `!`, `?` or `…` before white space, or at a
/// line end).
fn prose(text: &str, start: usize, end: usize, section: usize, max: usize, out: &mut Vec<Unit>) {
    let mut from = start;
    let slice = &text[start..end];
    let mut it = slice.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let next = it.peek().map(|&(_, n)| n);
        let ends = match c {
            '\n' => true,
            '.' | '!' | '?' | '…' => next.is_none_or(char::is_whitespace),
            _ => false,
        };
        if ends {
            let (s, e) = trim_range(text, from, start + i + c.len_utf8());
            if e > s {
                long(text, s, e, section, max, out);
            }
            from = start + i + c.len_utf8();
        }
    }
    let (s, e) = trim_range(text, from, end);
    if e > s {
        long(text, s, e, section, max, out);
    }
}

/// `text[start..end]` as one unit, or cut at word boundaries into units of at most `max`
/// characters when it is longer.
fn long(text: &str, start: usize, end: usize, section: usize, max: usize, out: &mut Vec<Unit>) {
    let mut from = start;
    // The byte after `max` characters, while more than `max` are left (each step reads only
    // the characters it keeps).
    while let Some(limit) = text[from..end]
        .char_indices()
        .nth(max)
        .map(|(i, _)| from + i)
    {
        // The last white space within `max` characters, else exactly `max` characters.
        let cut = text[from..limit]
            .rfind(char::is_whitespace)
            .map(|i| from + i)
            .filter(|&c| c > from)
            .unwrap_or(limit);
        let (s, e) = trim_range(text, from, cut);
        out.push(Unit {
            start: s,
            end: e,
            heading: false,
            section,
        });
        from = trim_range(text, cut, end).0;
    }
    if end > from {
        out.push(Unit {
            start: from,
            end,
            heading: false,
            section,
        });
    }
}

/// Cuts `text` into passages of `sizes`, reading its markdown structure when `markdown`;
/// blank text has none.
pub fn chunk(text: &str, sizes: ChunkSizes, markdown: bool) -> Vec<Piece> {
    // Runs too long for a passage are cut so that one of them and an overlap fit in one.
    let longest = sizes
        .max_chars
        .saturating_sub(OVERLAP_MAX.max(sizes.overlap))
        .max(sizes.max_chars / 2)
        .max(1);
    let (units, sections) = units(text, longest, markdown);
    let mut pieces = Vec::new();
    // The character offset of a passage's start, counted on from the last one (starts only
    // grow).
    let mut cursor = (0usize, 0usize);
    let mut char_of = |byte: usize| {
        cursor = (byte, cursor.1 + chars(text, cursor.0, byte));
        cursor.1
    };
    let mut first = 0; // the passage's first unit
    let mut start = units.first().map_or(0, |u| u.start); // may be inside unit `first`
    while first < units.len() {
        // Take units while the passage stays within `max_chars`; stop at `min_chars`, and
        // before a heading (which starts the next passage) once the passage has text beyond
        // its headings: a heading with no text of its own joins the section under it.
        let mut last = first;
        while last + 1 < units.len()
            && !(units[last + 1].heading && units[first..=last].iter().any(|u| !u.heading))
            && chars(text, start, units[last].end) < sizes.min_chars
            && chars(text, start, units[last + 1].end) <= sizes.max_chars
        {
            last += 1;
        }
        let end = units[last].end;
        let start_char = char_of(start);
        pieces.push(Piece {
            text: text[start..end].to_string(),
            start: start_char,
            end: start_char + chars(text, start, end),
            // The section of its text (the innermost of headings that lead it).
            section: sections[units[first..=last]
                .iter()
                .find(|u| !u.heading)
                .unwrap_or(&units[first])
                .section]
                .clone(),
        });
        if last + 1 >= units.len() {
            break;
        }
        // The next passage: after a heading break, from the heading; else with the overlap.
        if units[last + 1].heading {
            first = last + 1;
            start = units[first].start;
            continue;
        }
        let next = units[last + 1].start;
        let overlap = overlap_start(text, &units, first, last, start, sizes.overlap);
        // The overlap is taken only when the next sentence still fits after it.
        match overlap {
            Some((k, at)) if chars(text, at, units[last + 1].end) <= sizes.max_chars => {
                first = k;
                start = at;
            }
            _ => {
                first = last + 1;
                start = next;
            }
        }
    }
    pieces
}

/// Where the passage after units `first..=last` (begun at byte `start`) begins with its
/// overlap: the unit and byte offset. Whole sentences of its end when they fit in
/// [`OVERLAP_MAX`] characters, else its last `overlap` characters from a word's start; none
/// when neither moves on from `start`.
fn overlap_start(
    text: &str,
    units: &[Unit],
    first: usize,
    last: usize,
    start: usize,
    overlap: usize,
) -> Option<(usize, usize)> {
    if overlap == 0 {
        return None;
    }
    let end = units[last].end;
    let mut k = last + 1;
    while k > first + 1 && chars(text, units[k - 1].start, end) <= OVERLAP_MAX.max(overlap) {
        k -= 1;
    }
    if k <= last {
        return Some((k, units[k].start));
    }
    // The last sentence is too long to repeat whole: its last `overlap` characters.
    let from = text[..end]
        .char_indices()
        .rev()
        .nth(overlap - 1)
        .map_or(end, |(i, _)| i);
    let word = text[from..end]
        .find(char::is_whitespace)
        .map(|i| trim_range(text, from + i, end).0)?;
    (word < end && word > start && word > units[last].start).then_some((last, word))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The passage's text is the document's characters `start..end`.
    fn check_offsets(text: &str, pieces: &[Piece]) {
        for p in pieces {
            let slice: String = text.chars().skip(p.start).take(p.end - p.start).collect();
            assert_eq!(slice, p.text);
        }
    }

    fn sentences(n: usize) -> String {
        (0..n)
            .map(|i| {
                format!(
                    "Sentence number {i} says something about the budget of team {}.",
                    i % 7
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn short_text_is_one_passage_and_blank_text_none() {
        let p = chunk("  Ana drinks green tea.  \n", ChunkSizes::default(), true);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].text, "Ana drinks green tea.");
        assert_eq!((p[0].start, p[0].end), (2, 23));
        assert!(chunk(" \n\t\n", ChunkSizes::default(), true).is_empty());
    }

    #[test]
    fn prose_is_cut_at_sentence_ends_within_the_sizes_with_a_sentence_of_overlap() {
        let text = sentences(120);
        let pieces = chunk(&text, ChunkSizes::default(), true);
        assert!(pieces.len() > 5);
        check_offsets(&text, &pieces);
        for (i, p) in pieces.iter().enumerate() {
            let n = p.text.chars().count();
            assert!(n <= MAX_CHARS, "passage {i} has {n} characters");
            if i + 1 < pieces.len() {
                assert!(n >= MIN_CHARS, "passage {i} has {n} characters");
            }
            assert!(p.text.ends_with('.'), "passage {i} ends mid-sentence");
            assert!(
                p.text.starts_with("Sentence"),
                "passage {i} starts mid-sentence"
            );
        }
        for w in pieces.windows(2) {
            let overlap = w[0].end.saturating_sub(w[1].start);
            assert!((1..=OVERLAP_MAX).contains(&overlap), "overlap {overlap}");
        }
        assert_eq!(pieces.last().map(|p| p.end), Some(text.chars().count()));
    }

    #[test]
    fn a_heading_starts_a_passage_and_names_its_section() {
        let text = format!(
            "# Plan 2027\n\nIntro text.\n\n## Budget\n\n{}\n\n### Q4\n\nQ4 priorities: hiring and tooling.\n\n## Risks\n\nNone known.\n",
            sentences(30)
        );
        let pieces = chunk(&text, ChunkSizes::default(), true);
        check_offsets(&text, &pieces);
        assert_eq!(pieces[0].section, vec!["Plan 2027"]);
        assert!(pieces[0].text.starts_with("# Plan 2027"));
        let q4 = pieces
            .iter()
            .find(|p| p.text.contains("Q4 priorities"))
            .unwrap();
        assert_eq!(q4.section, vec!["Plan 2027", "Budget", "Q4"]);
        assert!(q4.text.starts_with("### Q4"));
        let risks = pieces
            .iter()
            .find(|p| p.text.contains("None known"))
            .unwrap();
        assert_eq!(risks.section, vec!["Plan 2027", "Risks"]);
        assert!(!risks.text.contains("Q4"), "no overlap crosses a heading");
        let budget: Vec<_> = pieces
            .iter()
            .filter(|p| p.section == ["Plan 2027", "Budget"])
            .collect();
        assert!(budget.len() >= 2);
    }

    #[test]
    fn a_heading_with_no_text_of_its_own_joins_the_section_under_it() {
        let text = "# Plan

## Budget

### Q4

Q4 priorities: hiring.

## Risks

## Open

#### Left
";
        let pieces = chunk(text, ChunkSizes::default(), true);
        check_offsets(text, &pieces);
        let shown: Vec<(&str, Vec<String>)> = pieces
            .iter()
            .map(|p| (p.text.as_str(), p.section.clone()))
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "# Plan\n\n## Budget\n\n### Q4\n\nQ4 priorities: hiring.",
                    vec!["Plan".into(), "Budget".into(), "Q4".into()]
                ),
                // Headings with no text anywhere under them stay one passage, named by the first.
                (
                    "## Risks\n\n## Open\n\n#### Left",
                    vec!["Plan".into(), "Risks".into()]
                ),
            ]
        );
    }

    #[test]
    fn a_code_block_or_table_is_whole_unless_it_alone_is_too_long() {
        let code = format!(
            "```rust\n{}```\n",
            "let x = compute(1, 2, 3); // a line of code\n".repeat(12)
        );
        let table = format!("| a | b |\n|---|---|\n{}", "| 1 | two words |\n".repeat(20));
        let text = format!(
            "{}\n\n{code}\n{}\n\n{table}\n{}",
            sentences(10),
            sentences(10),
            sentences(3)
        );
        let pieces = chunk(&text, ChunkSizes::default(), true);
        check_offsets(&text, &pieces);
        let trimmed_code = code.trim();
        assert!(
            pieces.iter().any(|p| p.text.contains(trimmed_code)),
            "the code block is whole in one passage"
        );
        assert!(
            pieces.iter().any(|p| p.text.contains(table.trim())),
            "the table is whole in one passage"
        );
        let huge = format!(
            "```\n{}```\n",
            "x = 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 11 + 12\n".repeat(100)
        );
        let pieces = chunk(&huge, ChunkSizes::default(), true);
        check_offsets(&huge, &pieces);
        assert!(pieces.len() > 3);
        assert!(pieces.iter().all(|p| p.text.chars().count() <= MAX_CHARS));
    }

    #[test]
    fn text_without_sentence_ends_is_cut_at_words_and_unicode_offsets_hold() {
        let text = "ünïcödé wörds 数据 🍵 ".repeat(400);
        let pieces = chunk(&text, ChunkSizes::default(), true);
        check_offsets(&text, &pieces);
        assert!(pieces.len() > 4);
        assert!(pieces.iter().all(|p| p.text.chars().count() <= MAX_CHARS));
        for w in pieces.windows(2) {
            assert!(w[1].start > w[0].start);
            assert!(
                w[1].start < w[0].end,
                "long sentences overlap by characters"
            );
        }
    }

    #[test]
    fn sizes_are_checked() {
        assert!(ChunkSizes::default().check("chunking").is_ok());
        let bad = ChunkSizes {
            min_chars: 50,
            ..ChunkSizes::default()
        };
        assert!(bad
            .check("chunking")
            .unwrap_err()
            .to_string()
            .contains("chunking.min_chars"));
        let low = ChunkSizes {
            max_chars: 700,
            overlap: 900,
            ..ChunkSizes::default()
        };
        let used = low.check("chunking").unwrap();
        assert_eq!((used.max_chars, used.overlap), (800, 400));
        let bad = ChunkSizes {
            overlap: 5_001,
            ..ChunkSizes::default()
        };
        assert!(bad
            .check("chunking")
            .unwrap_err()
            .to_string()
            .contains("chunking.overlap"));
        let small = ChunkSizes {
            min_chars: 100,
            max_chars: 150,
            overlap: 0,
        };
        let text = sentences(20);
        let pieces = chunk(&text, small, true);
        check_offsets(&text, &pieces);
        for w in pieces.windows(2) {
            assert!(w[1].start >= w[0].end, "no overlap when asked for none");
        }
    }

    #[test]
    fn plain_text_has_no_headings_code_or_tables() {
        let text = "# not a heading\n| not a table |\n``` not code\nJust words.";
        let plain = chunk(text, ChunkSizes::default(), false);
        assert_eq!(plain.len(), 1);
        assert!(plain[0].section.is_empty());
        let markdown = chunk(text, ChunkSizes::default(), true);
        assert_eq!(markdown[0].section, ["not a heading"]);
    }
}
