//! Where a browser store lives: SQLite's in-memory VFS, or a file in the Origin Private File
//! System through the sahpool VFS (dedicated workers only).

use rusqlite::{Connection, OpenFlags};
use serde::Deserialize;
use sqlite_wasm_rs::WasmOsCallback;
use sqlite_wasm_vfs::sahpool::{install, OpfsSAHPoolCfgBuilder};
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
    let storage_error = |e: rusqlite::Error| coded(&format!("storage error: {e}"), "storage_error");
    match storage {
        Storage::Memory => Connection::open_in_memory().map_err(storage_error),
        Storage::Opfs => {
            // One pool (directory + VFS) per store, so two stores in one page never share
            // OPFS handles.
            let vfs = format!("mnemo-{name}");
            let cfg = OpfsSAHPoolCfgBuilder::new()
                .vfs_name(&vfs)
                .directory(&format!(".mnemo/{name}"))
                .build();
            install::<WasmOsCallback>(&cfg, false).await.map_err(|e| {
                coded(
                    &format!(
                        "cannot open OPFS store {name:?}: {e}. OPFS needs a dedicated worker on \
                         a secure origin, and one connection at a time: close the store in \
                         other tabs, or open it with storage 'memory'"
                    ),
                    "storage_unavailable",
                )
            })?;
            Connection::open_with_flags_and_vfs(
                format!("/{name}.sqlite3"),
                OpenFlags::SQLITE_OPEN_READ_WRITE
                    | OpenFlags::SQLITE_OPEN_CREATE
                    | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                vfs.as_str(),
            )
            .map_err(storage_error)
        }
    }
}
