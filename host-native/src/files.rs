//! A file's text for `ingest`: UTF-8 text read as it is (plain text, markdown, HTML: the
//! engine reads each in its format), a PDF's text layer extracted here. What is not text —
//! a directory, a binary file, a file too large, an encrypted or broken PDF — is refused by
//! name before anything is stored.

use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

/// Largest file read: a document is at most 10,000,000 characters, which UTF-8 writes in at
/// most four bytes each (a PDF holds far less text than its size). Checked before reading.
pub const MAX_DOCUMENT_BYTES: u64 = 4 * mnemo_core::field::MAX_DOCUMENT_CHARS as u64;

/// A file's text, and the media type its extension says (the engine's default otherwise).
pub struct Read {
    pub text: String,
    pub mime: Option<&'static str>,
}

/// Reads `file` as a document's text.
pub fn read(file: &Path) -> Result<Read> {
    let shown = file.display();
    let meta = std::fs::metadata(file).with_context(|| format!("reading {shown}"))?;
    if meta.is_dir() {
        bail!("{shown} is a directory: give the files in it (e.g. {shown}/*.md)");
    }
    if meta.len() > MAX_DOCUMENT_BYTES {
        bail!(
            "{shown} is {} MB; a document is at most 10,000,000 characters: split it",
            meta.len() / 1_000_000
        );
    }
    let extension = file
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    if matches!(extension.as_str(), "docx" | "doc" | "odt" | "rtf" | "pages") {
        bail!("{shown}: {extension} files cannot be ingested yet; save it as PDF, text, markdown or HTML first");
    }
    let bytes = std::fs::read(file).with_context(|| format!("reading {shown}"))?;
    if extension == "pdf" || bytes.starts_with(b"%PDF-") {
        return Ok(Read {
            text: pdf_text(&bytes).map_err(|e| anyhow!("{shown} {e}"))?,
            mime: Some("application/pdf"),
        });
    }
    if bytes.contains(&0) {
        bail!("{shown} holds NUL bytes: it is a binary file, not text");
    }
    let text = String::from_utf8(bytes)
        .map_err(|e| anyhow!("{shown} is not UTF-8 text ({})", e.utf8_error()))?;
    let mime = match extension.as_str() {
        "md" | "markdown" => Some("text/markdown"),
        "txt" | "text" => Some("text/plain"),
        "html" | "htm" | "xhtml" => Some("text/html"),
        _ => None,
    };
    Ok(Read { text, mime })
}

/// The text layer of a PDF, pages apart by a blank line; what is wrong with it otherwise,
/// worded to follow the file's name.
fn pdf_text(bytes: &[u8]) -> Result<String, String> {
    if bytes.is_empty() {
        return Err("is empty: a PDF has at least a header and one page".into());
    }
    // The reader panics on some damaged files: a panic is a broken file here, told as one.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let read = std::panic::catch_unwind(|| pdf_extract::extract_text_from_mem_by_pages(bytes));
    std::panic::set_hook(hook);
    let pages = match read {
        Ok(Ok(pages)) => pages,
        Ok(Err(e)) => {
            let reason = e.to_string();
            let lower = reason.to_lowercase();
            return Err(if lower.contains("encrypt") || lower.contains("password") {
                "is encrypted: Mnemo reads PDFs without a password; save a copy without one".into()
            } else {
                format!("is not a PDF Mnemo can read (broken or cut short?): {reason}")
            });
        }
        Err(_) => return Err("is not a PDF Mnemo can read (broken or cut short?)".into()),
    };
    let text = pages
        .iter()
        .map(|p| p.trim_matches(|c: char| c.is_whitespace() || c == '\0'))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
        .replace('\0', "");
    if text.is_empty() {
        return Err("has no text layer (a scan?): run it through OCR first".into());
    }
    Ok(text)
}
