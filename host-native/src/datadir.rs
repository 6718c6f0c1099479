//! The data directory: created (private to its user) by a command that writes, required to
//! hold a store by one that reads, held with an OS file lock for as long as the process runs
//! (two processes never share a store), and cleared of the stale SQLite lock a crash leaves
//! behind.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io::ErrorKind;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::runtime::DB_FILE;

/// Mode of a data directory this process creates (only its user reads private memories).
const DIR_MODE: u32 = 0o700;
/// Mode of a store file this process creates.
const DB_MODE: u32 = 0o600;

/// What a command needs of the data directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// A store to write to: the directory and `mnemo.db` are created when missing.
    Create,
    /// The store already there: a missing directory or `mnemo.db` is an error, and nothing is
    /// created (a mistyped `--data` must not answer from a new, empty store).
    Existing,
    /// No store of the user's at all (`extract`, `call --list`): a private scratch directory,
    /// removed when the command ends.
    Scratch,
}

/// A data directory this process owns until it is dropped.
pub struct DataDir {
    /// The directory.
    pub path: PathBuf,
    _lock: File,
    /// A scratch directory, removed on drop.
    scratch: bool,
}

impl DataDir {
    /// Takes `path`, creating the directory and the store when missing, or fails if another
    /// process holds it.
    pub fn take(path: &Path) -> Result<DataDir> {
        DataDir::open(path, Need::Create)
    }

    /// Takes `path` as `need` says (a scratch directory instead of `path` for
    /// [`Need::Scratch`]), or fails if another process holds it.
    pub fn open(path: &Path, need: Need) -> Result<DataDir> {
        match need {
            Need::Create => create(path)?,
            Need::Existing => existing(path)?,
            Need::Scratch => return scratch(),
        }
        lock(path, false)
    }
}

impl Drop for DataDir {
    fn drop(&mut self) {
        if self.scratch {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// Creates the directory (mode 0700, parents too) and an empty store file (mode 0600; an empty
/// file is an empty SQLite database) when they are missing. What exists keeps its mode.
fn create(path: &Path) -> Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(path)
        .with_context(|| format!("creating the data directory {}", path.display()))?;
    let db = path.join(DB_FILE);
    check_db_file(&db)?;
    match OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(DB_MODE)
        .open(&db)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e).with_context(|| format!("creating the store {}", db.display())),
    }
}

/// Fails, naming the path, unless `path` is a directory holding a store file.
fn existing(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => bail!(
            "the data directory {} is not a directory; pass the directory holding mnemo.db as --data",
            path.display()
        ),
        Err(e) if e.kind() == ErrorKind::NotFound => bail!(
            "no Mnemo store at {}: the directory does not exist; check --data (or MNEMO_DATA), \
             or write something first (remember, seed, import)",
            path.display()
        ),
        Err(e) => {
            return Err(e).with_context(|| format!("reading the data directory {}", path.display()))
        }
    }
    let db = path.join(DB_FILE);
    if std::fs::symlink_metadata(&db).is_err_and(|e| e.kind() == ErrorKind::NotFound) {
        bail!(
            "no Mnemo store at {}: the directory has no {DB_FILE}; check --data (or MNEMO_DATA), \
             or write something first (remember, seed, import)",
            path.display()
        );
    }
    check_db_file(&db)
}

/// Fails when the store's path is taken by something that is not a file (a directory).
fn check_db_file(db: &Path) -> Result<()> {
    match std::fs::metadata(db) {
        Ok(m) if !m.is_file() => bail!(
            "{} is {}, but the store must be a file; move it away or pass another --data",
            db.display(),
            if m.is_dir() {
                "a directory"
            } else {
                "not a regular file"
            }
        ),
        _ => Ok(()),
    }
}

/// A new private directory under the system's temporary directory, removed on drop.
fn scratch() -> Result<DataDir> {
    let path = std::env::temp_dir().join(format!(
        "mnemo-scratch-{}-{:016x}",
        std::process::id(),
        crate::random_seed()
    ));
    DirBuilder::new()
        .mode(DIR_MODE)
        .create(&path)
        .with_context(|| format!("creating the scratch directory {}", path.display()))?;
    lock(&path, true)
}

/// Takes the OS lock on `path`, then clears a stale SQLite lock.
fn lock(path: &Path, scratch: bool) -> Result<DataDir> {
    let lock_path = path.join(".mnemo.lock");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(DB_MODE)
        .open(&lock_path)
        .with_context(|| format!("opening {}", lock_path.display()))?;
    // From here the directory is this value's: a scratch one is removed on any return.
    let dir = DataDir {
        path: path.to_path_buf(),
        _lock: lock,
        scratch,
    };
    if dir._lock.try_lock().is_err() {
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
        if e.kind() == ErrorKind::NotFound {
            Ok(())
        } else {
            Err(e)
        }
    })
    .with_context(|| format!("clearing the stale lock {}", stale.display()))?;
    Ok(dir)
}
