//! Where a browser store lives: SQLite's in-memory VFS, or a file in the Origin Private File
//! System through the sahpool VFS (dedicated workers only).

use rsqlite_vfs::transfer::DbTransfer;
use rsqlite_vfs::VfsFilesManager;
use rusqlite::{Connection, OpenFlags};
use serde::Deserialize;
use sqlite_wasm_rs::WasmOsCallback;
use sqlite_wasm_vfs::sahpool::{install, OpfsSAHError, OpfsSAHPoolCfgBuilder, OpfsSAHPoolUtil};
use wasm_bindgen::JsValue;

use crate::interop::coded;

/// The storage a store is opened on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Storage {
    /// Lost when the page or process ends (edge functions save it with `exportBytes`).
    #[default]
    Memory,
    /// A SQLite file in OPFS, kept across reloads and browser restarts.
    Opfs,
}

/// Longest store name: it becomes an OPFS directory and a VFS name.
const MAX_NAME_CHARS: usize = 64;

/// Checks a store name: 1–64 letters, digits, `-` or `_`.
pub fn check_name(name: &str) -> Result<(), JsValue> {
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        Ok(())
    } else {
        Err(coded(
            &format!(
                "invalid name: {name:?} must be 1 to {MAX_NAME_CHARS} letters, digits, '-' or '_'"
            ),
            "invalid_input",
        ))
    }
}

/// Opens the connection for store `name` on `storage`.
pub async fn connect(name: &str, storage: Storage) -> Result<Connection, JsValue> {
    check_name(name)?;
    match storage {
        Storage::Memory => Connection::open_in_memory().map_err(storage_error),
        Storage::Opfs => {
            pool(name).await?;
            open_file(name)
        }
    }
}

/// Opens OPFS store `name`'s pool of files (what `connect` then finds open).
pub async fn prepare(name: &str) -> Result<(), JsValue> {
    check_name(name)?;
    pool(name).await.map(drop)
}

/// Creates OPFS store `name` from a SQLite image and opens it. Refuses (changing nothing)
/// when the name already holds a store: restoring never overwrites.
pub async fn import(name: &str, image: &[u8]) -> Result<Connection, JsValue> {
    check_name(name)?;
    let pool = pool(name).await?;
    let file = file_name(name);
    if pool.contains(&file).map_err(opfs_error)? {
        return Err(coded(
            &format!(
                "store {name:?} already exists in OPFS: open it with Mnemo.open, or restore \
                 under another name"
            ),
            "store_exists",
        ));
    }
    // Writes the file format bytes as a rollback journal's (a WAL header from the native
    // server's file would otherwise be kept, and this VFS has no WAL).
    pool.import_db(&file, image).map_err(opfs_error)?;
    open_file(name)
}

/// Removes OPFS store `name` (after a restore whose image the engine refused).
pub async fn remove(name: &str) -> Result<(), JsValue> {
    pool(name)
        .await?
        .remove(&file_name(name))
        .map_err(opfs_error)?;
    Ok(())
}

/// Files a new store's pool holds: the database, its rollback journal, and one spare (SQLite's
/// temporary files are kept in memory). Each is an OPFS access handle the pool opens, one
/// after another, whenever the store is opened: the library's default of six made opening
/// slower for files never used.
const POOL_FILES: usize = 3;

/// The OPFS pool of store `name`: one directory and VFS per store, so two stores in one page
/// never share OPFS handles.
async fn pool(name: &str) -> Result<OpfsSAHPoolUtil, JsValue> {
    let cfg = OpfsSAHPoolCfgBuilder::new()
        .vfs_name(&vfs_name(name))
        .directory(&format!(".mnemo/{name}"))
        .initial_capacity(POOL_FILES)
        .build();
    install::<WasmOsCallback>(&cfg, false).await.map_err(|e| {
        coded(
            &format!(
                "cannot open OPFS store {name:?}: {e}. OPFS needs a dedicated worker on a secure \
                 origin, and one connection at a time: close the store in other tabs, or open \
                 it with storage 'memory'"
            ),
            "storage_unavailable",
        )
    })
}

fn vfs_name(name: &str) -> String {
    format!("mnemo-{name}")
}

fn file_name(name: &str) -> String {
    format!("/{name}.sqlite3")
}

/// Opens store `name`'s file in its (installed) pool.
fn open_file(name: &str) -> Result<Connection, JsValue> {
    Connection::open_with_flags_and_vfs(
        file_name(name),
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        vfs_name(name).as_str(),
    )
    .map_err(storage_error)
}

fn storage_error(e: rusqlite::Error) -> JsValue {
    coded(&format!("storage error: {e}"), "storage_error")
}

fn opfs_error(e: OpfsSAHError) -> JsValue {
    coded(&format!("OPFS storage error: {e}"), "storage_error")
}
