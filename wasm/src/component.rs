//! The component face: the `mnemo` WIT world's `engine` interface over the core — a store
//! resource whose `call` runs any engine call given as JSON — with the host's clock, and its
//! embedder and extractor when it has them.

use std::cell::{RefCell, RefMut};

use mnemo_core::{
    Clock, Config, Embedder, Engine, Error, LlmExtractor, Millis, PathState, SeededEntropy,
    Workspace,
};

wit_bindgen::generate!({ world: "mnemo", path: "wit" });

use exports::mnemo::engine::engine::{self as wit, GuestStore, OpenOptions};
use mnemo::engine::host;

/// Opens the store's file at `path` for the component's one connection, which runs so:
///
/// - `page_size` as the host asks, for a store this creates (SQLite's 4 KiB when it does not
///   ask; an existing file keeps its own), and the write-ahead log copied back when it holds
///   [`CHECKPOINT_BYTES`], whatever the page size.
/// - `locking_mode = EXCLUSIVE`: the host holds an OS lock on the data directory, so this is
///   the store's only connection: keep SQLite's lock between transactions instead of taking
///   and dropping its lock directory around each one (a crash leaves it; the host clears it).
///   It also lets WAL keep its index in memory, as WASI has no shared memory.
/// - the [`log_buffer`](crate::log_buffer) VFS: a commit's frames reach the log in one write
///   instead of two per page.
/// - `journal_mode = WAL`: a commit appends to `mnemo.db-wal` and syncs once, instead of
///   writing a rollback journal and the database and syncing both; `close` copies it back.
///   Turning a file to WAL writes its header (through a rollback journal): on a disk too full
///   for that the file stays as it is, so it still reads, and a write is refused as
///   `storage_full`.
/// - `synchronous = FULL`: every commit is synced before the call answers, so what a host
///   acknowledged survives a crash of the machine, not only of the process. A host that
///   groups its writes (`call-batch`) pays that sync once per group.
fn connect(path: &str, page_size: u32) -> rusqlite::Result<rusqlite::Connection> {
    crate::log_buffer::register()?;
    let conn = rusqlite::Connection::open_with_flags_and_vfs(
        path,
        rusqlite::OpenFlags::default(),
        crate::log_buffer::NAME,
    )?;
    conn.pragma_update(None, "page_size", page_size)?;
    conn.pragma_update(None, "wal_autocheckpoint", CHECKPOINT_BYTES / page_size)?;
    conn.execute_batch("PRAGMA locking_mode = EXCLUSIVE;")?;
    match conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0)) {
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull) => {}
        other => {
            other?;
        }
    }
    conn.execute_batch("PRAGMA synchronous = FULL;")?;
    Ok(conn)
}

/// SQLite's page size unless the host asks for another.
const DEFAULT_PAGE_SIZE: u32 = 4_096;
/// The write-ahead log is copied back into the store when it holds this much: SQLite's default
/// of 1,000 pages of its default size.
const CHECKPOINT_BYTES: u32 = 4_096_000;

/// The page size the host asked for, checked: SQLite takes a power of two from 512 to 65,536
/// and silently ignores anything else.
fn page_size(asked: Option<u32>) -> Result<u32, Error> {
    match asked {
        None => Ok(DEFAULT_PAGE_SIZE),
        Some(n) if n.is_power_of_two() && (512..=65_536).contains(&n) => Ok(n),
        Some(n) => Err(Error::InvalidInput {
            field: "page_size".into(),
            reason: format!("{n} is not a power of two from 512 to 65536"),
        }),
    }
}

/// The host's clock.
struct HostClock;

impl Clock for HostClock {
    fn now(&self) -> Millis {
        host::now()
    }
}

/// The host's workspace, when it names one.
struct HostWorkspace;

impl Workspace for HostWorkspace {
    fn states(&self, paths: &[String]) -> Option<Vec<PathState>> {
        let states = host::workspace(paths)?;
        Some(
            states
                .into_iter()
                .map(|s| match s {
                    host::PathState::Missing => PathState::Missing,
                    host::PathState::Directory => PathState::Directory,
                    host::PathState::File(lines) => PathState::File { lines },
                    host::PathState::Unknown(reason) => PathState::Unknown { reason },
                })
                .collect(),
        )
    }
}

/// The host's embedding model.
struct HostEmbedder {
    model: String,
    dim: usize,
}

impl Embedder for HostEmbedder {
    fn model_id(&self) -> &str {
        &self.model
    }
    fn dimension(&self) -> usize {
        self.dim
    }
    fn embed(&self, text: &str) -> mnemo_core::Result<Vec<f32>> {
        host::embed(&[text.to_string()])
            .map_err(Error::Embedder)?
            .pop()
            .ok_or_else(|| Error::Embedder("the host embedder returned no vector".into()))
    }
}

fn error(e: Error) -> wit::Error {
    wit::Error {
        code: e.code().to_string(),
        message: e.to_string(),
    }
}

/// One open store.
struct Store(RefCell<Engine>);

impl Store {
    fn engine(&self) -> RefMut<'_, Engine> {
        self.0.borrow_mut()
    }
}

impl GuestStore for Store {
    fn open(options: OpenOptions) -> Result<wit::Store, wit::Error> {
        let mut builder = Engine::builder(HostClock)
            .entropy(SeededEntropy::new(options.seed))
            // The host's LLM when it has one, checked, else the built-in extractor.
            .extractor(LlmExtractor(
                |instructions: &str, text: &str, now: Millis| {
                    host::extract(instructions, text, now)
                },
            ))
            .workspace(HostWorkspace);
        if !options.config.trim().is_empty() {
            let config: Config =
                mnemo_core::api::from_text("config", &options.config).map_err(error)?;
            builder = builder.config(config);
        }
        // The host's model when it has one, else the built-in embedder the store records
        // (new stores: the distilled default, linked into this component).
        if let Some(e) = host::embedder() {
            builder = builder.embedder(HostEmbedder {
                model: e.model,
                dim: e.dimension as usize,
            });
        }
        let page_size = page_size(options.page_size).map_err(error)?;
        let conn = connect(&options.path, page_size).map_err(|e| error(Error::from(e)))?;
        let engine = builder.open_connection(conn).map_err(error)?;
        Ok(wit::Store::new(Store(RefCell::new(engine))))
    }

    fn call(&self, method: String, args: String) -> Result<String, wit::Error> {
        self.engine().call_json(&method, &args).map_err(error)
    }

    fn call_batch(
        &self,
        calls: Vec<(String, String)>,
    ) -> Result<Vec<Result<String, wit::Error>>, wit::Error> {
        let calls: Vec<(&str, &str)> = calls
            .iter()
            .map(|(m, a)| (m.as_str(), a.as_str()))
            .collect();
        let answers = self.engine().batch_json(&calls).map_err(error)?;
        Ok(answers.into_iter().map(|a| a.map_err(error)).collect())
    }

    fn flush(&self) -> Result<(), wit::Error> {
        self.engine().flush().map_err(error)
    }

    fn close(&self) -> Result<(), wit::Error> {
        self.engine().settle_file().map_err(error)
    }

    fn changes(&self) -> u64 {
        self.0.borrow().changes()
    }
}

struct Component;

impl wit::Guest for Component {
    type Store = Store;

    fn methods() -> Vec<String> {
        mnemo_core::METHODS.iter().map(|m| m.to_string()).collect()
    }

    fn schema() -> String {
        mnemo_core::api::schema().to_string()
    }
}

export!(Component);
