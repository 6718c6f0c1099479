//! Reading a source file's text into what its memory says, with `mnemo-source` (tree-sitter's
//! grammars for Rust, Python, TypeScript/TSX, JavaScript and Go). The parser is the `source`
//! feature: the `mnemo` binary, the component and the Python package have it; the engine
//! module of the browser and edge packages leaves it out (its grammars would double their
//! download) and refuses a file's `text`, which those packages read with their parser module
//! (`@mnemo/memory/parser`, the same reader on its own) before `ingest_code`.

use mnemo_source::Refusal;

use super::Parsed;
use crate::error::{Error, Result};

pub use mnemo_source::{language_of_extension, LANGUAGES, MAX_SOURCE_BYTES};

/// The engine's error for a text the reader refuses.
fn refused(r: Refusal) -> Error {
    match r {
        Refusal::Invalid { field, reason } => Error::invalid(field, reason),
        Refusal::Grammar(why) => Error::bug(why),
    }
}

/// A symbol as the engine stores it.
#[cfg(feature = "source")]
fn symbol(s: mnemo_source::Symbol) -> super::Symbol {
    use super::{Symbol, SymbolKind};
    use mnemo_source::Kind;
    Symbol {
        kind: match s.kind {
            Kind::Function => SymbolKind::Function,
            Kind::Method => SymbolKind::Method,
            Kind::Type => SymbolKind::Type,
            Kind::Interface => SymbolKind::Interface,
            Kind::Enum => SymbolKind::Enum,
            Kind::Module => SymbolKind::Module,
            Kind::Constant => SymbolKind::Constant,
            Kind::Macro => SymbolKind::Macro,
        },
        name: s.name,
        signature: s.signature,
        line: s.line,
    }
}

/// Reads files' texts with one parser, kept between files; in a build without the parser,
/// refuses them.
pub(crate) struct Reader {
    #[cfg(feature = "source")]
    inner: mnemo_source::Reader,
}

impl Reader {
    /// A reader whose parser is made on its first file.
    pub(crate) fn new() -> Self {
        Reader {
            #[cfg(feature = "source")]
            inner: mnemo_source::Reader::new(),
        }
    }

    /// What `text`, the file at `path`, says: its language (`named`, or its extension's),
    /// lines, opening comment and symbols. A build without the parser refuses a text it would
    /// read, after refusing a bad one as the parser does.
    pub(crate) fn read(
        &mut self,
        path: String,
        named: Option<String>,
        text: &str,
    ) -> Result<Parsed> {
        #[cfg(feature = "source")]
        {
            let read = self
                .inner
                .read(&path, named.as_deref(), text)
                .map_err(refused)?;
            Ok(Parsed {
                path,
                language: read.language,
                lines: read.lines,
                summary: read.summary,
                symbols: read.symbols.into_iter().map(symbol).collect(),
            })
        }
        #[cfg(not(feature = "source"))]
        {
            mnemo_source::check_text(text).map_err(refused)?;
            mnemo_source::language(&path, named.as_deref()).map_err(refused)?;
            Err(Error::NotInThisBuild(
                "this build of Mnemo (the browser and edge packages) has no source parser: send each file's `language`, `lines`, `summary` and `symbols` instead of its `text`, read the texts first with `parseSources` from `@mnemo/memory/parser` (the npm package's parser module), or ingest through the `mnemo` binary or the Python package".into(),
            ))
        }
    }
}
