//! The host's workspace, as drift detection sees it: the files and directories memories cite
//! (`core/src/engine.rs`, `docs/API.md:12`), found in their text ([`refs`]), and what the
//! host finds at those paths ([`Workspace`]). The engine never touches a file system: a host
//! that names a workspace (the native `--workspace DIR`, Python's `workspace=`) answers for
//! it through the component's `workspace` import, and any host may report what it found with
//! the `drift` call.

pub mod refs;

use serde::{Deserialize, Serialize};

pub use refs::{cited_paths, cited_symbols, Citation};

/// What a host found at a path a memory cites.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "state", rename_all = "snake_case", deny_unknown_fields)]
pub enum PathState {
    /// Nothing is there.
    Missing,
    /// A directory.
    Directory,
    /// A file, with its number of lines when the host counted them (none for a binary file
    /// or one too large to read).
    File {
        /// Lines in the file.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lines: Option<u32>,
    },
    /// The host could not tell (outside the workspace, unreadable, a symbolic-link loop): why.
    /// The memories citing it are left as they are.
    Unknown {
        /// Why the host could not tell.
        reason: String,
    },
}

/// A workspace a host names: what is at the paths memories cite.
pub trait Workspace {
    /// The state of each of `paths` (as memories cite them: relative to the workspace's root,
    /// `/`-separated, or absolute), in order; `None` when the host names no workspace.
    fn states(&self, paths: &[String]) -> Option<Vec<PathState>>;
}

/// The workspace of a host that names none: drift detection skips, and says so.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoWorkspace;

impl Workspace for NoWorkspace {
    fn states(&self, _paths: &[String]) -> Option<Vec<PathState>> {
        None
    }
}
