//! The wasmtime side: loads the engine component embedded in this binary (compiled once, then
//! from wasmtime's on-disk cache), gives it the data directory, the clock and the providers,
//! and runs calls on one store.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, Context, Result};
use wasmtime::component::{Component, HasSelf, Linker, ResourceAny, ResourceTable};
use wasmtime::{Cache, CacheConfig, Config, Engine, Store};
use wasmtime_wasi::{FsPerms, WasiCtx, WasiCtxView, WasiView};

/// The component's world as Rust types, generated from `wasm/wit/mnemo.wit` (documented there).
#[allow(missing_docs)]
mod wit {
    wasmtime::component::bindgen!({
        world: "mnemo",
        path: "../wasm/wit",
        additional_derives: [PartialEq],
    });
}
pub use wit::*;

pub use exports::mnemo::engine::engine::Error as CallError;
use exports::mnemo::engine::engine::OpenOptions;
use mnemo::engine::host::{EmbedderInfo, Host, PathState};

pub use crate::ahead::Embedding;
use crate::ahead::Providers;
use crate::providers::HttpChat;
use crate::workspace::Workspace;

/// The engine component, built by build.rs.
const COMPONENT: &[u8] = include_bytes!(env!("MNEMO_COMPONENT"));
/// Where the store lives inside the component's sandbox.
const GUEST_DIR: &str = "/data";
/// The store's file name in the data directory.
pub const DB_FILE: &str = "mnemo.db";

/// Where time comes from: the system clock, a fixed instant (`--now`), or an instant that
/// then runs with the system's (`--start-at`).
#[derive(Debug, Clone, Copy)]
pub enum Clock {
    /// The system's clock.
    System,
    /// Always this instant, in ms since the epoch.
    Fixed(i64),
    /// `at` ms since the epoch when the process read `since`.
    Running {
        /// Ms since the epoch when it was read.
        at: i64,
        /// When the process read it.
        since: Instant,
    },
}

impl Clock {
    /// A clock that reads `at` now and runs on from there.
    pub fn running_from(at: i64) -> Clock {
        Clock::Running {
            at,
            since: Instant::now(),
        }
    }

    /// Milliseconds since the epoch.
    pub fn now(&self) -> i64 {
        match self {
            Clock::Fixed(t) => *t,
            Clock::Running { at, since } => at.saturating_add(since.elapsed().as_millis() as i64),
            Clock::System => SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_millis() as i64)
                .unwrap_or(0),
        }
    }
}

/// What the component's `host` imports answer with.
pub struct State {
    wasi: WasiCtx,
    table: ResourceTable,
    clock: Clock,
    providers: Arc<Providers>,
    workspace: Option<Workspace>,
}

impl WasiView for State {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

impl Host for State {
    fn now(&mut self) -> i64 {
        self.clock.now()
    }
    fn embedder(&mut self) -> Option<EmbedderInfo> {
        self.providers.embedding.as_ref().map(|e| match e {
            Embedding::Supplied { model, dimension } => EmbedderInfo {
                model: model.clone(),
                dimension: *dimension,
            },
            Embedding::Http(h) => EmbedderInfo {
                model: h.model().to_string(),
                dimension: h.dimension,
            },
        })
    }
    fn embed(&mut self, texts: Vec<String>) -> Result<Vec<Vec<f32>>, String> {
        self.providers.embed(&texts)
    }
    fn extract(
        &mut self,
        instructions: String,
        content: String,
        _now: i64,
    ) -> Option<Result<String, String>> {
        self.providers.ask(&instructions, &content)
    }
    fn workspace(&mut self, paths: Vec<String>) -> Option<Vec<PathState>> {
        let ws = self.workspace.as_ref()?;
        Some(paths.iter().map(|p| ws.state(p)).collect())
    }
}

/// How to open a store.
pub struct Options {
    /// The data directory holding the store.
    pub data: PathBuf,
    /// Where time comes from.
    pub clock: Clock,
    /// The seed of the memory-id generator.
    pub seed: u64,
    /// Where vectors come from (else the built-in embedder).
    pub embedding: Option<Embedding>,
    /// The LLM that extracts memories (else the built-in extractor).
    pub llm: Option<HttpChat>,
    /// The engine's settings as JSON (`mnemo_core::Config`; empty: the defaults).
    pub config: String,
    /// The directory drift detection checks the paths memories cite against (else none).
    pub workspace: Option<Workspace>,
}

/// One store open inside the component.
pub struct Runtime {
    store: Store<State>,
    bindings: Mnemo,
    handle: ResourceAny,
}

/// wasmtime's compile cache: `MNEMO_WASMTIME_CACHE`, else ~/.cache/mnemo/wasmtime.
fn cache() -> Result<Cache> {
    let mut config = CacheConfig::new();
    if let Some(dir) = std::env::var_os("MNEMO_WASMTIME_CACHE") {
        config.with_directory(PathBuf::from(dir));
    } else if let Some(home) = std::env::var_os("HOME") {
        config.with_directory(Path::new(&home).join(".cache/mnemo/wasmtime"));
    }
    Ok(Cache::new(config)?)
}

impl Runtime {
    /// Instantiates the component and opens the store in `options.data`.
    pub fn open(options: Options) -> Result<Runtime> {
        let mut config = Config::new();
        config.cache(Some(cache()?));
        // Linear memory is initialised by copying the data segments, not from a memfd image:
        // sealing that memfd fails now and then with EBUSY on a busy machine (the kernel waits
        // for pinned pages and gives up), which stopped a command before it ran. The copy is
        // of the component's data segments, once per start.
        config.memory_init_cow(false);
        // `MNEMO_PERFMAP=1 perf record …` names the component's functions in the profile.
        if std::env::var_os("MNEMO_PERFMAP").is_some() {
            config.profiler(wasmtime::ProfilingStrategy::PerfMap);
        }
        let engine = Engine::new(&config)?;
        let component = Component::new(&engine, COMPONENT)
            .map_err(anyhow::Error::from)
            .context("loading the engine component")?;
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
        Mnemo::add_to_linker::<State, HasSelf<State>>(&mut linker, |s| s)?;
        let wasi = WasiCtx::builder()
            .preopened_dir(&options.data, GUEST_DIR, FsPerms::ReadWrite)
            .map_err(anyhow::Error::from)
            .with_context(|| format!("opening {}", options.data.display()))?
            .allow_blocking_current_thread(true)
            .build();
        let state = State {
            wasi,
            table: ResourceTable::new(),
            clock: options.clock,
            providers: Arc::new(Providers::new(options.embedding, options.llm)),
            workspace: options.workspace,
        };
        let mut store = Store::new(&engine, state);
        let bindings = Mnemo::instantiate(&mut store, &component, &linker)?;
        let open = OpenOptions {
            path: format!("{GUEST_DIR}/{DB_FILE}"),
            seed: options.seed,
            config: options.config,
            // SQLite's 4 KiB: the server's commits are small, and this host's file calls cheap.
            page_size: None,
        };
        let handle = bindings
            .mnemo_engine_engine()
            .store()
            .call_open(&mut store, &open)?
            // The engine names the file as the sandbox sees it; the user knows it by theirs.
            .map_err(|e| {
                let theirs = options.data.join(DB_FILE).display().to_string();
                let message = e.message.replace(&open.path, &theirs);
                anyhow!("{message} ({})", e.code)
            })?;
        Ok(Runtime {
            store,
            bindings,
            handle,
        })
    }

    /// Runs one engine call with JSON arguments; the inner error is the engine's answer.
    pub fn call(&mut self, method: &str, args: &str) -> Result<Result<String, CallError>> {
        Ok(self.bindings.mnemo_engine_engine().store().call_call(
            &mut self.store,
            self.handle,
            method,
            args,
        )?)
    }

    /// Runs calls as one group commit (see the WIT's `call-batch`): the inner errors are the
    /// engine's answers to each call; the middle one is the group's commit failing.
    pub fn batch(
        &mut self,
        calls: &[(String, String)],
    ) -> Result<Result<Vec<Result<String, CallError>>, CallError>> {
        Ok(self
            .bindings
            .mnemo_engine_engine()
            .store()
            .call_call_batch(&mut self.store, self.handle, calls)?)
    }

    /// The JSON Schema of every engine call, as the component declares them.
    pub fn schema(&mut self) -> Result<serde_json::Value> {
        let text = self
            .bindings
            .mnemo_engine_engine()
            .call_schema(&mut self.store)?;
        Ok(serde_json::from_str(&text)?)
    }

    /// The methods `call` accepts.
    #[cfg(test)]
    pub fn methods(&mut self) -> Result<Vec<String>> {
        Ok(self
            .bindings
            .mnemo_engine_engine()
            .call_methods(&mut self.store)?)
    }

    /// Runs `f`, then closes the store whatever `f` answered; `f`'s answer stands (see
    /// [`Runtime::close_or_warn`]).
    pub fn close_after<T>(mut self, f: impl FnOnce(&mut Runtime) -> Result<T>) -> Result<T> {
        let result = f(&mut self);
        self.close_or_warn();
        result
    }

    /// Closes the store; a failure is a warning on stderr, not the command's. Closing only
    /// settles the file (it copies the write-ahead log back into `mnemo.db`): every write was
    /// durable at its commit, and a log that cannot be copied back (a full disk) stays beside
    /// the store, read at the next open and copied back at a later close.
    pub fn close_or_warn(self) {
        if let Err(e) = self.close() {
            eprintln!(
                "mnemo: warning: the store was not settled at close ({e:#}); every committed \
                 write is kept in {DB_FILE}-wal and settled into {DB_FILE} at a later close"
            );
        }
    }

    /// The endpoints the component calls, shared with the threads that fetch their answers
    /// ahead of it.
    pub fn providers(&self) -> Arc<Providers> {
        self.store.data().providers.clone()
    }

    /// The clock the component reads.
    pub fn clock(&self) -> Clock {
        self.store.data().clock
    }

    /// Moves a fixed clock (scenarios replay time this way).
    pub fn set_now(&mut self, now: i64) {
        self.store.data_mut().clock = Clock::Fixed(now);
    }

    /// Writes pending accesses, leaves the file whole on its own (no WAL beside it) and drops
    /// the store.
    pub fn close(mut self) -> Result<()> {
        let store = self.bindings.mnemo_engine_engine().store();
        store
            .call_close(&mut self.store, self.handle)?
            .map_err(|e| anyhow!("{} ({})", e.message, e.code))?;
        self.handle.resource_drop(&mut self.store)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
