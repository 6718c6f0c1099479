//! The one error type of the engine: each variant says what went wrong and what to do about it.

use thiserror::Error;

/// Result alias used throughout the engine.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in a Mnemo call. Nothing is written when a call returns one.
#[derive(Error)]
pub enum Error {
    /// An argument failed validation; `field` names it and `reason` says what is expected.
    #[error("invalid {field}: {reason}")]
    InvalidInput {
        /// The argument's path (`content`, `items[0].importance`).
        field: String,
        /// What is expected of it.
        reason: String,
    },

    /// A string did not name one of the allowed values of an enumeration.
    #[error("unknown {field} {value:?}; expected one of: {allowed}")]
    UnknownValue {
        /// The argument.
        field: &'static str,
        /// The value given.
        value: String,
        /// The allowed values, comma-separated.
        allowed: String,
    },

    /// No memory with this id belongs to this owner (memories of other owners are invisible).
    #[error("no memory {id:?} for entity {entity_id:?}")]
    NotFound {
        /// The owner asked about.
        entity_id: String,
        /// The memory id asked for.
        id: String,
    },

    /// No owner has a live memory with this id.
    #[error("no memory {id:?} in this store")]
    UnknownId {
        /// The memory id asked for.
        id: String,
    },

    /// The owner's knowledge graph has no entity by this name or alias.
    #[error("no entity named {name:?} in the graph of {entity_id:?}; list them with `entities`")]
    UnknownEntity {
        /// The owner whose graph was searched.
        entity_id: String,
        /// The name asked for.
        name: String,
    },

    /// No bridge with this id belongs to this owner.
    #[error("no bridge {id:?} for entity {entity_id:?}; list them with `bridges`")]
    UnknownBridge {
        /// The owner asked about.
        entity_id: String,
        /// The bridge id asked for.
        id: String,
    },

    /// Too few live memories bear on the entity for a card.
    #[error(
        "no card for {name:?} in the graph of {entity_id:?}: a card needs {needed} live memories that name it, and it has {memories}"
    )]
    NoCard {
        /// The owner whose graph was searched.
        entity_id: String,
        /// The name asked for.
        name: String,
        /// Live memories that name it or state a relationship of it.
        memories: usize,
        /// How many a card needs.
        needed: usize,
    },

    /// No team with this id belongs to this owner.
    #[error("no team {id:?} for entity {entity_id:?}; make one with `team_create`")]
    UnknownTeam {
        /// The owner asked about.
        entity_id: String,
        /// The team id asked for.
        id: String,
    },

    /// No document with this id belongs to this owner.
    #[error("no document {id:?} for entity {entity_id:?}; list them with `documents`")]
    UnknownDocument {
        /// The owner asked about.
        entity_id: String,
        /// The document id asked for.
        id: String,
    },

    /// No conflict with this id belongs to this owner.
    #[error("no conflict {id:?} for entity {entity_id:?}; list them with `conflicts`")]
    UnknownConflict {
        /// The owner asked about.
        entity_id: String,
        /// The conflict id asked for.
        id: String,
    },

    /// A vector's length differs from the dimension recorded in the store.
    #[error("vector has {got} dimensions but this store uses {expected}; embed with the store's model ({model})")]
    DimensionMismatch {
        /// The store's dimension.
        expected: usize,
        /// The vector's length.
        got: usize,
        /// The store's embedding model.
        model: String,
    },

    /// A vector holds NaN or an infinity.
    #[error("vector element {index} is {}; vectors must be finite", non_finite(*value))]
    NonFiniteVector {
        /// The element's position in the vector.
        index: usize,
        /// The element.
        value: f32,
    },

    /// The embedder differs from the one the store was written with.
    #[error("this store was embedded with {store_model} ({store_dim} dims) but the engine was opened with {embedder_model} ({embedder_dim} dims); open it with the same embedder")]
    EmbedderMismatch {
        /// The model the store was embedded with.
        store_model: String,
        /// Its dimension.
        store_dim: usize,
        /// The model the engine was opened with.
        embedder_model: String,
        /// Its dimension.
        embedder_dim: usize,
    },

    /// The embedder cannot turn text into a vector (e.g. vectors must be supplied by the caller).
    #[error("embedder failed: {0}")]
    Embedder(String),

    /// The extractor failed on the given text.
    #[error("extractor failed: {0}")]
    Extractor(String),

    /// The database was written by a newer Mnemo; opening it could damage it.
    #[error("store schema version {found} is newer than this Mnemo supports ({supported}); upgrade Mnemo to open it")]
    SchemaTooNew {
        /// The store's schema version.
        found: i64,
        /// The newest version this Mnemo reads.
        supported: i64,
    },

    /// The file is not a Mnemo store (or is damaged).
    #[error("not a Mnemo store: {0}")]
    NotAStore(String),

    /// The call needs a part this build of Mnemo leaves out (the source parser, in the browser
    /// and edge packages); the message says what to send or use instead.
    #[error("not in this build: {0}")]
    NotInThisBuild(String),

    /// A fault that is not the caller's: a bug in Mnemo, or a store damaged underneath it.
    /// Calling again with other arguments does not help; the message says what to report.
    #[error("internal error: {0}")]
    Internal(String),

    /// One line of a JSONL import could not be used; nothing from the import was written.
    #[error("import line {line}: {reason}")]
    ImportLine {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },

    /// The disk holding the store is full (SQLite's `SQLITE_FULL`): the write was not stored.
    #[error("the disk holding the store is full ({0}); nothing of this call was stored: free disk space, then try again")]
    StorageFull(rusqlite::Error),

    /// SQLite reported an error.
    #[error("storage error: {0}")]
    Storage(rusqlite::Error),
}

/// SQLite's errors, with a full disk told apart: that one the user can fix.
impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DiskFull) => Error::StorageFull(e),
            _ => Error::Storage(e),
        }
    }
}

/// A non-finite number as `Display` writes it (`NaN`, `inf`, `-inf`), without the standard
/// library's float formatting, which the WebAssembly leaves out.
fn non_finite(x: f32) -> &'static str {
    if x.is_nan() {
        "NaN"
    } else if x > 0.0 {
        "inf"
    } else {
        "-inf"
    }
}

/// An error's code and message: what `{:?}` and a failed `unwrap` show. (Derived, it would
/// write an `f32` field with the standard library's float formatting, which the WebAssembly
/// leaves out.)
impl std::fmt::Debug for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {self}", self.code())
    }
}

impl Error {
    /// A short, stable, machine-readable code for this error (used by JS and HTTP faces).
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidInput { .. } => "invalid_input",
            Error::UnknownValue { .. } => "unknown_value",
            Error::NotFound { .. }
            | Error::UnknownId { .. }
            | Error::UnknownEntity { .. }
            | Error::NoCard { .. }
            | Error::UnknownBridge { .. }
            | Error::UnknownConflict { .. }
            | Error::UnknownDocument { .. }
            | Error::UnknownTeam { .. } => "not_found",
            Error::DimensionMismatch { .. } => "dimension_mismatch",
            Error::NonFiniteVector { .. } => "non_finite_vector",
            Error::EmbedderMismatch { .. } => "embedder_mismatch",
            Error::Embedder(_) => "embedder_error",
            Error::Extractor(_) => "extractor_error",
            Error::SchemaTooNew { .. } => "schema_too_new",
            Error::NotAStore(_) => "not_a_store",
            Error::NotInThisBuild(_) => "not_implemented",
            Error::Internal(_) => "internal",
            Error::ImportLine { .. } => "import_error",
            Error::StorageFull(_) => "storage_full",
            Error::Storage(_) => "storage_error",
        }
    }

    pub(crate) fn invalid(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::InvalidInput {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// A fault of Mnemo's own code (an answer that does not serialise, a state that cannot
    /// be): `what` says what failed.
    pub(crate) fn bug(what: impl std::fmt::Display) -> Self {
        Error::Internal(format!(
            "{what}; this is a bug in Mnemo, not in the call: please report it"
        ))
    }

    /// A stored value that does not read back as Mnemo wrote it: `what` names it.
    pub(crate) fn damaged(what: impl std::fmt::Display) -> Self {
        Error::Internal(format!(
            "{what}; the store is damaged (changed outside Mnemo?): restore it from a backup"
        ))
    }

    /// The same error with a bad field named inside `prefix` (`memories[2]` + `importance` →
    /// `memories[2].importance`); other errors are unchanged.
    pub(crate) fn within(self, prefix: &str) -> Self {
        match self {
            Error::InvalidInput { field, reason } => Error::InvalidInput {
                field: format!("{prefix}.{field}"),
                reason,
            },
            e => e,
        }
    }
}
