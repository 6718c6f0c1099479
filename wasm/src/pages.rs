//! A store whose database file lives in the host's page store: SQLite's pages, one record
//! each, read and written synchronously by the host (a Cloudflare Durable Object keeps them in
//! its own SQLite storage). The engine's SQLite runs here as on every target, so answers are
//! the same bits; the host makes each call's page writes durable together (the Durable
//! Object's `transactionSync`). Journals and temporary files stay in memory: a call that
//! fails leaves the host's transaction to roll back, and the host then opens the store again.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::Uint8Array;
use rsqlite_vfs::{
    register_vfs, AccessMode, FileKind, LockLevel, MemChunksFile, OpenRequest, OpenedFile,
    SQLiteIoMethods, SQLiteVfs, SyncOptions, VfsError, VfsErrorCode, VfsFile, VfsResult, VfsStore,
};
use rusqlite::{Connection, OpenFlags};
use sqlite_wasm_rs::WasmOsCallback;
use wasm_bindgen::prelude::*;

use crate::interop::coded;

/// Bytes in a record of the page store, and the page size of the stores it creates: each page
/// SQLite writes is one whole record. (A Durable Object bills per row written and per GB
/// stored: smaller pages make an empty store smaller for about the same rows per write.)
pub const PAGE: usize = PAGE_SIZE as usize;
const PAGE_SIZE: u32 = 4096;

/// The VFS's name in SQLite's registry.
const VFS_NAME: &str = "mnemo-pages";

#[wasm_bindgen]
extern "C" {
    /// The host's page store: `read(index)` → the record's bytes or `undefined`,
    /// `write(index, bytes)` (copy them: the view is the engine's memory), `pages()` → one
    /// more than the highest index written (0 when empty), `truncate(pages)` removes the
    /// records from index `pages` on. Each throws if the storage fails.
    #[wasm_bindgen(typescript_type = "PageStore")]
    #[derive(Clone)]
    pub type PageStore;

    #[wasm_bindgen(method, catch)]
    fn read(this: &PageStore, index: f64) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn write(this: &PageStore, index: f64, bytes: &[u8]) -> Result<(), JsValue>;

    #[wasm_bindgen(method, catch)]
    fn pages(this: &PageStore) -> Result<f64, JsValue>;

    #[wasm_bindgen(method, catch)]
    fn truncate(this: &PageStore, pages: f64) -> Result<(), JsValue>;
}

/// The VFS's state: the page stores of open databases by file name, and the journals.
#[derive(Default)]
struct Files {
    stores: RefCell<HashMap<String, PageStore>>,
    memory: RefCell<HashMap<String, Rc<RefCell<MemChunksFile>>>>,
    error: RefCell<Option<VfsError>>,
    os: WasmOsCallback,
}

thread_local! {
    /// Databases opened so far (each gets its own file name).
    static OPENED: Cell<u64> = const { Cell::new(0) };
    /// Whether the VFS is registered in this thread's SQLite.
    static REGISTERED: Cell<bool> = const { Cell::new(false) };
}

/// Opens the connection of a store kept in `store`.
pub fn connect(store: PageStore) -> Result<Connection, JsValue> {
    let n = OPENED.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    let name = format!("/store-{n}");
    if !REGISTERED.with(Cell::get) {
        // SAFETY: wasm32 has one thread; the VFS data lives for the program (never
        // unregistered), and `PagesVfs` uses the crate's default file layout.
        unsafe { register_vfs::<PagesIo, PagesVfs>(VFS_NAME, Files::default(), false) }
            .map_err(|e| {
                coded(
                    &format!("cannot register the page VFS: {e}"),
                    "storage_error",
                )
            })?
            .into_raw();
        REGISTERED.with(|r| r.set(true));
    }
    with_files(|files| files.stores.borrow_mut().insert(name.clone(), store))?;
    Connection::open_with_flags_and_vfs(
        &name,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        VFS_NAME,
    )
    .and_then(|conn| {
        // Takes effect on a new store only (before its first table).
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
        Ok(conn)
    })
    .map_err(|e| {
        // A failed open closes nothing: forget the page store here.
        let _ = with_files(|files| files.stores.borrow_mut().remove(&name));
        coded(&format!("storage error: {e}"), "storage_error")
    })
}

/// Runs `f` on the registered VFS's state.
fn with_files<T>(f: impl FnOnce(&Files) -> T) -> Result<T, JsValue> {
    // SAFETY: the VFS was registered above with `Files` as its data, on this one thread.
    let vfs = unsafe { rsqlite_vfs::registered_vfs(VFS_NAME) }
        .ok()
        .flatten()
        .ok_or_else(|| coded("the page VFS is not registered", "storage_error"))?;
    // SAFETY: registered by `connect` with app data of type `Files`, never freed.
    let data = unsafe { rsqlite_vfs::VfsAppData::<Files>::get(vfs) };
    Ok(f(data))
}

fn storage_failed(what: &str, e: JsValue) -> VfsError {
    let why = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into());
    VfsError::new(
        VfsErrorCode::IoWrite,
        format!("page store {what}: {why}").into(),
    )
}

/// A database file kept in a page store.
struct PagedFile {
    store: PageStore,
    /// The file's length, read once at open.
    size: u64,
}

impl PagedFile {
    fn page(&self, index: u64) -> VfsResult<Option<Vec<u8>>> {
        let value = self
            .store
            .read(index as f64)
            .map_err(|e| storage_failed("read", e))?;
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        let bytes: Uint8Array = value.dyn_into().map_err(|_| {
            VfsError::new(
                VfsErrorCode::IoRead,
                "page store read: not a Uint8Array".into(),
            )
        })?;
        Ok(Some(bytes.to_vec()))
    }

    fn read(&mut self, buf: &mut [u8], offset: u64) -> VfsResult<usize> {
        let end = self.size.min(offset + buf.len() as u64);
        let mut at = offset;
        while at < end {
            let (index, within) = (at / PAGE as u64, (at % PAGE as u64) as usize);
            let n = ((end - at) as usize).min(PAGE - within);
            let out = &mut buf[(at - offset) as usize..][..n];
            match self.page(index)? {
                Some(page) if page.len() >= within + n => out.copy_from_slice(&page[within..][..n]),
                _ => out.fill(0),
            }
            at += n as u64;
        }
        Ok(end.saturating_sub(offset) as usize)
    }

    fn write(&mut self, buf: &[u8], offset: u64) -> VfsResult<()> {
        let end = offset + buf.len() as u64;
        let mut at = offset;
        while at < end {
            let (index, within) = (at / PAGE as u64, (at % PAGE as u64) as usize);
            let n = ((end - at) as usize).min(PAGE - within);
            let from = &buf[(at - offset) as usize..][..n];
            let result = if n == PAGE {
                self.store.write(index as f64, from)
            } else {
                // Part of a page (the header SQLite rewrites): read, change, write back.
                let mut page = self.page(index)?.unwrap_or_default();
                page.resize(PAGE, 0);
                page[within..within + n].copy_from_slice(from);
                self.store.write(index as f64, &page)
            };
            result.map_err(|e| storage_failed("write", e))?;
            at += n as u64;
        }
        self.size = self.size.max(end);
        Ok(())
    }

    fn truncate(&mut self, size: u64) -> VfsResult<()> {
        self.store
            .truncate(size.div_ceil(PAGE as u64) as f64)
            .map_err(|e| storage_failed("truncate", e))?;
        self.size = size;
        Ok(())
    }
}

/// An open file: the database in its page store, or a journal in memory.
enum Handle {
    Paged(PagedFile),
    Memory(Rc<RefCell<MemChunksFile>>),
}

impl VfsFile for Handle {
    fn read(&mut self, buf: &mut [u8], offset: u64) -> VfsResult<usize> {
        match self {
            Handle::Paged(f) => f.read(buf, offset),
            Handle::Memory(f) => f.borrow_mut().read(buf, offset),
        }
    }

    fn write(&mut self, buf: &[u8], offset: u64) -> VfsResult<()> {
        match self {
            Handle::Paged(f) => f.write(buf, offset),
            Handle::Memory(f) => f.borrow_mut().write(buf, offset),
        }
    }

    fn truncate(&mut self, size: u64) -> VfsResult<()> {
        match self {
            Handle::Paged(f) => f.truncate(size),
            Handle::Memory(f) => f.borrow_mut().truncate(size),
        }
    }

    fn sync(&mut self, options: SyncOptions) -> VfsResult<()> {
        match self {
            // Durability is the host's: its transaction commits the call's writes together.
            Handle::Paged(_) => Ok(()),
            Handle::Memory(f) => f.borrow_mut().sync(options),
        }
    }

    // One connection per store: the host holds its object alone.
    fn lock(&mut self, _level: LockLevel) -> VfsResult<()> {
        Ok(())
    }

    fn unlock(&mut self, _level: LockLevel) -> VfsResult<()> {
        Ok(())
    }

    fn check_reserved_lock(&self) -> VfsResult<bool> {
        Ok(false)
    }

    fn size(&self) -> VfsResult<u64> {
        match self {
            Handle::Paged(f) => Ok(f.size),
            Handle::Memory(f) => f.borrow().size(),
        }
    }
}

struct PagesStore;

impl VfsStore for PagesStore {
    type File = Handle;
    type AppData = Files;

    fn record_error(data: &Files, error: VfsError) {
        data.error.replace(Some(error));
    }

    fn last_error(data: &Files) -> Option<VfsError> {
        data.error.borrow().clone()
    }

    fn open_file(data: &Files, request: OpenRequest<'_>) -> VfsResult<OpenedFile<Handle>> {
        let access = request.options.access();
        let Some(filename) = request.filename else {
            let file = Rc::new(RefCell::new(MemChunksFile::default()));
            return Ok(OpenedFile {
                file: Handle::Memory(file),
                access,
            });
        };
        let name = filename.path();
        if request.options.kind() == Some(FileKind::MainDb) {
            let store = data.stores.borrow().get(name).cloned().ok_or_else(|| {
                VfsError::new(
                    VfsErrorCode::CantOpen,
                    format!("no page store for {name}").into(),
                )
            })?;
            let pages = store.pages().map_err(|e| storage_failed("pages", e))?;
            if !(pages.is_finite() && pages >= 0.0 && pages.fract() == 0.0) {
                return Err(VfsError::new(
                    VfsErrorCode::CantOpen,
                    format!("page store holds {pages} pages, not a count").into(),
                ));
            }
            return Ok(OpenedFile {
                file: Handle::Paged(PagedFile {
                    store,
                    size: pages as u64 * PAGE as u64,
                }),
                access,
            });
        }
        let mut memory = data.memory.borrow_mut();
        let file = memory
            .entry(name.to_string())
            .or_insert_with(|| Rc::new(RefCell::new(MemChunksFile::default())))
            .clone();
        Ok(OpenedFile {
            file: Handle::Memory(file),
            access,
        })
    }

    fn close_file(
        data: &Files,
        name: Option<&str>,
        file: Handle,
        options: rsqlite_vfs::OpenOptions,
    ) -> VfsResult<()> {
        match (name, file) {
            // The store's own file: the connection is done with its page store.
            (Some(name), Handle::Paged(_)) => {
                data.stores.borrow_mut().remove(name);
            }
            (Some(name), Handle::Memory(_)) if options.delete_on_close() => {
                data.memory.borrow_mut().remove(name);
            }
            _ => {}
        }
        Ok(())
    }

    fn access(data: &Files, name: &str, _mode: AccessMode) -> VfsResult<bool> {
        Ok(data.stores.borrow().contains_key(name) || data.memory.borrow().contains_key(name))
    }

    fn full_pathname(_data: &Files, name: &str) -> VfsResult<String> {
        Ok(name.into())
    }

    fn delete_file(data: &Files, name: &str, _sync_dir: bool) -> VfsResult<()> {
        data.memory.borrow_mut().remove(name);
        Ok(())
    }
}

struct PagesIo;

impl SQLiteIoMethods for PagesIo {
    type Store = PagesStore;
}

struct PagesVfs;

impl SQLiteVfs<PagesIo> for PagesVfs {
    type Os = WasmOsCallback;

    fn os(data: &Files) -> &WasmOsCallback {
        &data.os
    }
}
