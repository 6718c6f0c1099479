//! Markdown notes (a MEMORY.md, an agent's notes file): headings, bullet lists and
//! paragraphs, read as the pieces an extractor is given — each bullet and each paragraph with
//! the line it starts on and the heading it sits under. Code blocks and rules are not notes.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::field::{Owner, MAX_TAG_CHARS};

/// Longest notes text `import_notes` takes, in characters.
pub const MAX_NOTES_CHARS: usize = 1_000_000;

/// Arguments of `import_notes`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotesImport {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The notes, as markdown: at most 1,000,000 characters and 10,000 notes.
    #[schemars(length(max = MAX_NOTES_CHARS))]
    pub markdown: String,
    /// Where they come from (a file name): memories get `source_ref` `{source}:{line}`
    /// (default `notes`).
    pub source: Option<String>,
}

/// One note: a bullet or a paragraph.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// The note's text.
    pub text: String,
    /// 1-based line the note starts on.
    pub line: usize,
    /// The heading it sits under, as a tag (lowercase, at most the tag length).
    pub heading: Option<String>,
}

/// The heading a line is, if it is one (`## Work`).
fn heading(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let level = t.chars().take_while(|c| *c == '#').count();
    let rest = &t[level..];
    (level > 0 && level <= 6 && (rest.is_empty() || rest.starts_with(' ')))
        .then(|| rest.trim().trim_end_matches('#').trim())
}

/// The text of a bullet line (`- x`, `* x`, `+ x`, `1. x`, `1) x`), checkbox removed.
fn bullet(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let rest = if let Some(r) = t.strip_prefix(['-', '*', '+']) {
        r
    } else {
        let digits = t.chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || digits > 9 {
            return None;
        }
        t[digits..].strip_prefix(['.', ')'])?
    };
    if !rest.starts_with(' ') {
        return None;
    }
    let rest = rest.trim_start();
    let rest = ["[ ] ", "[x] ", "[X] "]
        .iter()
        .find_map(|c| rest.strip_prefix(c))
        .unwrap_or(rest);
    Some(rest)
}

/// A horizontal rule (`---`, `***`, `___`) or front-matter fence.
fn rule(line: &str) -> bool {
    let t: String = line.chars().filter(|c| !c.is_whitespace()).collect();
    t.len() >= 3
        && (t.chars().all(|c| c == '-')
            || t.chars().all(|c| c == '*')
            || t.chars().all(|c| c == '_'))
}

/// A heading as a tag: lowercase, at most [`MAX_TAG_CHARS`] characters.
fn tag(heading: &str) -> Option<String> {
    let t: String = heading
        .to_lowercase()
        .chars()
        .filter(|c| !matches!(c, '*' | '_' | '`'))
        .take(MAX_TAG_CHARS)
        .collect();
    let t = t.trim().to_string();
    (!t.is_empty()).then_some(t)
}

/// The notes of a markdown text, in order. Too long a text is refused.
pub fn read(markdown: &str) -> Result<Vec<Note>> {
    let n = markdown.chars().count();
    if n > MAX_NOTES_CHARS {
        return Err(Error::invalid(
            "markdown",
            format!("is {n} characters; at most {MAX_NOTES_CHARS} allowed (split the file)"),
        ));
    }
    if markdown.contains('\0') {
        return Err(Error::invalid("markdown", "contains a NUL character"));
    }
    let mut notes: Vec<Note> = Vec::new();
    let mut under: Option<String> = None;
    // The note being read and whether it is a bullet (a paragraph ends at a blank line; a
    // bullet also at the next bullet).
    let mut open: Option<(Note, bool)> = None;
    let mut fenced = false;
    // Front matter (`---` … `---` opening the file) is metadata, not notes.
    let mut front = markdown.lines().next().is_some_and(|l| l.trim() == "---");
    let close = |open: &mut Option<(Note, bool)>, notes: &mut Vec<Note>| {
        if let Some((note, _)) = open.take() {
            if !note.text.trim().is_empty() {
                notes.push(note);
            }
        }
    };
    for (i, line) in markdown.lines().enumerate() {
        let trimmed = line.trim();
        if front {
            front = i == 0 || trimmed != "---";
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            close(&mut open, &mut notes);
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if trimmed.is_empty() || rule(trimmed) {
            close(&mut open, &mut notes);
            continue;
        }
        if let Some(h) = heading(line) {
            close(&mut open, &mut notes);
            under = tag(h);
            continue;
        }
        let (text, is_bullet) = match bullet(line) {
            Some(b) => (b, true),
            None => (trimmed, false),
        };
        match &mut open {
            Some((note, _)) if !is_bullet => {
                note.text.push(' ');
                note.text.push_str(text);
            }
            _ => {
                close(&mut open, &mut notes);
                open = Some((
                    Note {
                        text: text.to_string(),
                        line: i + 1,
                        heading: under.clone(),
                    },
                    is_bullet,
                ));
            }
        }
    }
    close(&mut open, &mut notes);
    Ok(notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bullets_and_paragraphs_under_their_headings() {
        let md = "---\ntitle: notes\n---\n# About me\n\nI live in Porto and\nwork from home.\n\n## Work\n- Data engineer at **Stripe**\n  since March\n- [x] Finished the onboarding\n1. Team lead is Ana\n\n```\nlet x = 1;\n```\n***\nPlain closing line.\n";
        let notes = read(md).unwrap();
        let got: Vec<(&str, usize, Option<&str>)> = notes
            .iter()
            .map(|n| (n.text.as_str(), n.line, n.heading.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                ("I live in Porto and work from home.", 6, Some("about me")),
                ("Data engineer at **Stripe** since March", 10, Some("work")),
                ("Finished the onboarding", 12, Some("work")),
                ("Team lead is Ana", 13, Some("work")),
                ("Plain closing line.", 19, Some("work")),
            ]
        );
    }

    #[test]
    fn what_is_not_markdown_notes_is_refused_or_empty() {
        assert!(read("").unwrap().is_empty());
        assert!(read("#\n\n   \n").unwrap().is_empty());
        assert!(read("a\0b").is_err());
        assert!(read(&"x".repeat(MAX_NOTES_CHARS + 1)).is_err());
        // A long heading is cut to a tag's length.
        let long = format!("# {}\n- a note here", "h".repeat(200));
        assert_eq!(
            read(&long).unwrap()[0]
                .heading
                .as_ref()
                .unwrap()
                .chars()
                .count(),
            MAX_TAG_CHARS
        );
        // "#hashtag" and "-5 degrees" are text, not a heading or a bullet.
        let notes = read("#hashtag day\n-5 degrees outside").unwrap();
        assert_eq!(notes[0].text, "#hashtag day -5 degrees outside");
    }
}
