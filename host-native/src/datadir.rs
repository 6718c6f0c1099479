//! The data directory: created on first use, held with an OS file lock for as long as the
//! process runs (two processes never share a store), and cleared of the stale SQLite lock a
//! crash leaves behind.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::runtime::DB_FILE;

/// A data directory this process owns until it is dropped.
pub struct DataDir {
    pub path: PathBuf,
    _lock: File,
}

impl DataDir {
    /// Takes `path` (creating it), or fails if another process holds it.
    pub fn take(path: &Path) -> Result<DataDir> {
        std::fs::create_dir_all(path).with_context(|| format!("creating {}", path.display()))?;
        let lock_path = path.join(".mnemo.lock");
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .with_context(|| format!("opening {}", lock_path.display()))?;
        if lock.try_lock().is_err() {
            bail!(
                "the data directory {} is in use by another mnemo process; stop it, or pass another --data",
                path.display()
            );
        }
        // SQLite under WASI locks with a `<db>.lock` directory. Holding the OS lock, this
        // process is the only owner, so one left behind is from a crash: clear it and let the
        // hot journal roll back on open.
        let stale = path.join(format!("{DB_FILE}.lock"));
        if stale.is_dir() {
            std::fs::remove_dir_all(&stale)
        } else {
            std::fs::remove_file(&stale)
        }
        .or_else(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Ok(())
            } else {
                Err(e)
            }
        })
        .with_context(|| format!("clearing the stale lock {}", stale.display()))?;
        Ok(DataDir {
            path: path.to_path_buf(),
            _lock: lock,
        })
    }
}
