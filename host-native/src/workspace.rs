//! The workspace `--workspace DIR` names: what is at the paths memories cite, for the
//! engine's drift detection (the component's `workspace` import). Only paths inside the
//! directory are answered — after following symbolic links — and nothing is ever written.

use std::fs::File;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::runtime::mnemo::engine::host::PathState;

/// Files longer than this are not read to count their lines.
const MAX_COUNTED_BYTES: u64 = 64 << 20;
/// How much of a file is looked at for a NUL byte, which makes it binary (as git decides).
const BINARY_SNIFF_BYTES: usize = 8 << 10;
/// Linux's and macOS's error number for too many levels of symbolic links.
const ELOOP: [i32; 2] = [40, 62];

/// A directory whose files memories may cite.
#[derive(Debug, Clone)]
pub struct Workspace {
    /// The directory, with its symbolic links resolved.
    root: PathBuf,
}

impl Workspace {
    /// The workspace at `dir`, which must be a directory.
    pub fn open(dir: &Path) -> Result<Workspace> {
        let root = dir
            .canonicalize()
            .with_context(|| format!("--workspace {}: no such directory", dir.display()))?;
        if !root.is_dir() {
            bail!("--workspace {}: not a directory", dir.display());
        }
        Ok(Workspace { root })
    }

    /// What is at `cited` (relative to the root, or absolute inside it).
    pub fn state(&self, cited: &str) -> PathState {
        let path = Path::new(cited);
        if cited.contains('\0') || path.components().any(|c| c == Component::ParentDir) {
            return PathState::Unknown(format!("{cited} is not a path inside the workspace"));
        }
        let full = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.root.join(path)
        };
        let outside = || PathState::Unknown(format!("{cited} is outside the workspace"));
        let real = match full.canonicalize() {
            Ok(real) => real,
            // Not there: but a path through a link out of the workspace, or an absolute one
            // elsewhere, is not the workspace's to say.
            Err(e) => {
                let inside = full
                    .ancestors()
                    .find_map(|a| a.canonicalize().ok())
                    .is_some_and(|a| a.starts_with(&self.root));
                return if inside {
                    missing_or_unknown(cited, &e)
                } else {
                    outside()
                };
            }
        };
        if !real.starts_with(&self.root) {
            return outside();
        }
        match real.metadata() {
            Ok(m) if m.is_dir() => PathState::Directory,
            Ok(m) if m.is_file() => PathState::File(lines(&real, m.len())),
            // A device, a socket, a pipe: there, and never read.
            Ok(_) => PathState::File(None),
            Err(e) => missing_or_unknown(cited, &e),
        }
    }
}

/// What a failed look at `cited` means: nothing there, or the host cannot tell.
fn missing_or_unknown(cited: &str, e: &std::io::Error) -> PathState {
    use std::io::ErrorKind::*;
    match e.kind() {
        NotFound | NotADirectory => PathState::Missing,
        PermissionDenied => PathState::Unknown(format!("{cited}: permission denied")),
        _ if e.raw_os_error().is_some_and(|n| ELOOP.contains(&n)) => {
            PathState::Unknown(format!("{cited}: a loop of symbolic links"))
        }
        _ => PathState::Unknown(format!("{cited}: {e}")),
    }
}

/// The lines of a text file of `len` bytes (none for a binary or over-large one, or one that
/// cannot be read).
fn lines(path: &Path, len: u64) -> Option<u32> {
    if len > MAX_COUNTED_BYTES {
        return None;
    }
    let mut bytes = Vec::with_capacity(len as usize);
    File::open(path)
        .ok()?
        .take(MAX_COUNTED_BYTES)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0) {
        return None;
    }
    let breaks = bytes.iter().filter(|b| **b == b'\n').count();
    let last = usize::from(bytes.last().is_some_and(|b| *b != b'\n'));
    u32::try_from(breaks + last).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mnemo-ws-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("src")).unwrap();
        d
    }

    #[test]
    fn files_directories_and_what_is_not_there() {
        let d = dir("states");
        std::fs::write(d.join("src/a.rs"), "one\ntwo\nthree").unwrap();
        std::fs::write(d.join("src/empty.rs"), "").unwrap();
        std::fs::write(d.join("blob.bin"), [1u8, 0, 2, 10, 10]).unwrap();
        let ws = Workspace::open(&d).unwrap();
        assert_eq!(ws.state("src/a.rs"), PathState::File(Some(3)));
        assert_eq!(ws.state("src/empty.rs"), PathState::File(Some(0)));
        assert_eq!(ws.state("blob.bin"), PathState::File(None));
        assert_eq!(ws.state("src"), PathState::Directory);
        assert_eq!(ws.state("src/"), PathState::Directory);
        assert_eq!(ws.state("src/gone.rs"), PathState::Missing);
        assert_eq!(ws.state("src/a.rs/inner.rs"), PathState::Missing);
        let abs = d.join("src/a.rs");
        assert_eq!(ws.state(abs.to_str().unwrap()), PathState::File(Some(3)));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn nothing_outside_is_answered() {
        let d = dir("outside");
        let ws = Workspace::open(&d).unwrap();
        for p in ["../x.rs", "/etc/hostname", "src/../../x.rs", "a\0b.rs"] {
            assert!(matches!(ws.state(p), PathState::Unknown(_)), "{p}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc", d.join("etc")).unwrap();
            assert!(matches!(ws.state("etc/hostname"), PathState::Unknown(_)));
            std::os::unix::fs::symlink(d.join("loop-b"), d.join("loop-a")).unwrap();
            std::os::unix::fs::symlink(d.join("loop-a"), d.join("loop-b")).unwrap();
            let PathState::Unknown(why) = ws.state("loop-a/x.rs") else {
                panic!("a loop is not known");
            };
            assert!(why.contains("loop"), "{why}");
        }
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_workspace_must_be_a_directory() {
        let d = dir("open");
        std::fs::write(d.join("f.txt"), "x").unwrap();
        let err = Workspace::open(&d.join("nope")).unwrap_err().to_string();
        assert!(err.contains("no such directory"), "{err}");
        let err = Workspace::open(&d.join("f.txt")).unwrap_err().to_string();
        assert!(err.contains("not a directory"), "{err}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
