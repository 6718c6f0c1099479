//! The `Mnemo` class exported to JS: opens a store and runs engine calls on it.

use std::cell::RefCell;
use std::sync::Arc;

use js_sys::{Function, Reflect, Uint32Array};
use mnemo_core::{
    Call, Clock, Config, Engine, EngineBuilder, ManualClock, Millis, OnHand, SeededEntropy,
    StaticModel, SuppliedVectors,
};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::interop::{coded, error, from_json};
use crate::pages::{self, PageStore};
use crate::storage::{self, Storage};

/// The system clock of the JS host.
struct JsClock;

impl Clock for JsClock {
    fn now(&self) -> Millis {
        js_sys::Date::now() as Millis
    }
}

thread_local! {
    /// The default embedder's weights, once `loadModel` has been given them (one parsed copy
    /// per thread serves every store it opens).
    static WEIGHTS: RefCell<Option<Arc<StaticModel>>> = const { RefCell::new(None) };
}

/// Options of `Mnemo.open`, `Mnemo.fromBytes` and `Mnemo.restore`.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct OpenOptions {
    /// Store name (OPFS file name); letters, digits, `-`, `_`.
    name: String,
    storage: Storage,
    /// A fixed start time in ms: the clock then moves only by `setNow` (tests, replays).
    now: Option<Millis>,
    /// Seed of the id generator (default: drawn from `crypto.getRandomValues`).
    seed: Option<u64>,
    /// Vectors come from the host's model instead of the built-in embedder.
    embedding: Option<EmbeddingOptions>,
    config: Option<Config>,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            name: "mnemo".into(),
            storage: Storage::Memory,
            now: None,
            seed: None,
            embedding: None,
            config: None,
        }
    }
}

/// The host embedding model a store's vectors come from.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct EmbeddingOptions {
    model: String,
    dimension: usize,
}

/// A Mnemo store: every engine call, on memory or an OPFS file.
#[wasm_bindgen]
pub struct Mnemo {
    pub(crate) engine: Engine,
    /// Set when the store was opened with a fixed `now`.
    clock: Option<ManualClock>,
    /// Vectors the host embedded ahead of a call (stores with the host's embedding model).
    on_hand: Option<OnHand>,
}

#[wasm_bindgen]
impl Mnemo {
    /// Opens (creating if needed) a store; `options` is JSON: `{name, storage: 'memory' |
    /// 'opfs', now?, seed?, embedding?: {model, dimension}, config?}`.
    pub async fn open(options: String) -> Result<Mnemo, JsValue> {
        let options: OpenOptions = from_json("options", &options)?;
        let conn = storage::connect(&options.name, options.storage).await?;
        Mnemo::build(options, |b| b.open_connection(conn))
    }

    /// Opens OPFS store `name`'s files ahead of `open` (which then finds them open), so that
    /// the browser opens them while the thread does other work (the weights' parse).
    pub async fn prepare(name: String) -> Result<(), JsValue> {
        storage::prepare(&name).await
    }

    /// Opens (creating if needed) a store whose database pages live in the host's page store
    /// (`read`, `write`, `size`, `truncate`: see `PageStore`), such as a Cloudflare Durable
    /// Object's storage. `options` as `open`'s, without `storage`.
    #[wasm_bindgen(js_name = openOnPages)]
    pub fn open_on_pages(store: PageStore, options: &str) -> Result<Mnemo, JsValue> {
        let options: OpenOptions = from_json("options", options)?;
        if options.storage != Storage::Memory {
            return Err(coded(
                "invalid options.storage: openOnPages keeps the store in the page store given",
                "invalid_input",
            ));
        }
        let conn = pages::connect(store)?;
        Mnemo::build(options, |b| b.open_connection(conn))
    }

    /// Bytes in each record of a page store (`openOnPages`).
    #[wasm_bindgen(js_name = pageBytes)]
    pub fn page_bytes() -> u32 {
        pages::PAGE as u32
    }

    /// Opens an in-memory store from a whole SQLite image made by `exportBytes`.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8], options: &str) -> Result<Mnemo, JsValue> {
        let options: OpenOptions = from_json("options", options)?;
        if options.storage != Storage::Memory {
            return Err(coded(
                "invalid options.storage: fromBytes opens a 'memory' store",
                "invalid_input",
            ));
        }
        Mnemo::build(options, |b| b.open_bytes(bytes))
    }

    /// Creates the OPFS store `options.name` from a whole SQLite image (`exportBytes`, or a
    /// native `mnemo.db`, WAL header and all) and opens it. The image is checked as a store
    /// first; an existing store of that name is never overwritten.
    pub async fn restore(bytes: Vec<u8>, options: String) -> Result<Mnemo, JsValue> {
        let options: OpenOptions = from_json("options", &options)?;
        if options.storage != Storage::Opfs {
            return Err(coded(
                "invalid options.storage: restore writes an 'opfs' store",
                "invalid_input",
            ));
        }
        storage::check_name(&options.name)?;
        // Opened in memory, the image is checked (SQLite, Mnemo's schema, the embedder) and
        // comes back out in rollback-journal form.
        let image = Mnemo::build(options.clone(), |b| b.open_bytes(&bytes))?
            .engine
            .to_bytes()
            .map_err(error)?;
        let conn = storage::import(&options.name, &image).await?;
        let name = options.name.clone();
        match Mnemo::build(options, |b| b.open_connection(conn)) {
            Ok(m) => Ok(m),
            Err(e) => {
                storage::remove(&name).await?;
                Err(e)
            }
        }
    }

    fn build(
        options: OpenOptions,
        open: impl FnOnce(EngineBuilder) -> mnemo_core::Result<Engine>,
    ) -> Result<Mnemo, JsValue> {
        let (builder, clock) = match options.now {
            Some(now) => {
                let clock = ManualClock::new(now);
                (Engine::builder(clock.clone()), Some(clock))
            }
            None => (Engine::builder(JsClock), None),
        };
        let seed = match options.seed {
            Some(seed) => seed,
            None => random_seed()?,
        };
        let mut builder = builder.entropy(SeededEntropy::new(seed));
        if let Some(weights) = WEIGHTS.with(|w| w.borrow().clone()) {
            builder = builder.weights(weights);
        }
        if let Some(config) = options.config {
            builder = builder.config(config);
        }
        let mut on_hand = None;
        if let Some(e) = options.embedding {
            let supplied = SuppliedVectors::new(e.model, e.dimension);
            on_hand = Some(supplied.on_hand());
            builder = builder.embedder(supplied);
        }
        let engine = open(builder).map_err(error)?;
        Ok(Mnemo {
            engine,
            clock,
            on_hand,
        })
    }

    /// Hands over the default embedder's weights (`mnemo-static-v1.bin`, shipped beside this
    /// module): stores opened afterwards in this thread embed with it. Checked here; a
    /// damaged file is refused with the reason.
    #[wasm_bindgen(js_name = loadModel)]
    pub fn load_model(bytes: Vec<u8>) -> Result<(), JsValue> {
        let model = StaticModel::from_bytes(bytes).map_err(error)?;
        WEIGHTS.with(|w| *w.borrow_mut() = Some(Arc::new(model)));
        Ok(())
    }

    /// This build's version.
    pub fn version() -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }

    /// The engine's calls, by method name (what `call` accepts).
    pub fn methods() -> Vec<String> {
        mnemo_core::METHODS.iter().map(|m| m.to_string()).collect()
    }

    /// Runs one engine call (`remember`, `search`, … — snake_case names and arguments, as on
    /// every surface) given its arguments as JSON text, and answers JSON text.
    pub fn call(&mut self, method: &str, args: &str) -> Result<String, JsValue> {
        self.engine.call_json(method, args).map_err(error)
    }

    /// The texts call `method` embeds for its arguments (JSON), as the engine will make them
    /// (`ingest`'s passages and sentences, `search`'s question with who its relations name in
    /// place): a host embedding model embeds them, and `handVectors` gives the vectors to the
    /// store, before the call.
    #[wasm_bindgen(js_name = embedTexts)]
    pub fn embed_texts(&mut self, method: &str, args: &str) -> Result<Vec<String>, JsValue> {
        self.engine.texts_to_embed(method, args).map_err(error)
    }

    /// Puts the host embedding model's vectors of `texts` on hand for the next calls (the
    /// `i`th text's vector is the `i`th run of `dimension` floats), in place of any there;
    /// no texts lets them all go. For a store opened with `embedding`.
    #[wasm_bindgen(js_name = handVectors)]
    pub fn hand_vectors(&self, texts: Vec<String>, vectors: &[f32]) -> Result<(), JsValue> {
        let Some(on_hand) = &self.on_hand else {
            return Err(coded(
                "this store embeds with the built-in embedder; vectors are handed to stores opened with `embedding`",
                "invalid_input",
            ));
        };
        on_hand.hand(texts, vectors).map_err(error)
    }

    /// `embed`'s vectors (same arguments, as JSON) as one `Float32Array`: text `i`'s vector is
    /// the `i`th run of `dimension` floats. The floats are not written as text and read back.
    #[wasm_bindgen(js_name = embedVectors)]
    pub fn embed_vectors(&self, args: &str) -> Result<Vec<f32>, JsValue> {
        // Read as `call` reads `embed`'s arguments (one reader, not a second).
        match Call::from_json("embed", args).map_err(error)? {
            Call::Embed(req) => Ok(self.engine.embed(&req).map_err(error)?.vectors.concat()),
            _ => Err(coded("embedVectors reads embed's arguments", "internal")),
        }
    }

    /// The whole store as a SQLite image (a `Uint8Array`).
    #[wasm_bindgen(js_name = exportBytes)]
    pub fn export_bytes(&mut self) -> Result<Vec<u8>, JsValue> {
        self.engine.to_bytes().map_err(error)
    }

    /// Moves the clock of a store opened with a fixed `now`.
    #[wasm_bindgen(js_name = setNow)]
    pub fn set_now(&self, now: f64) -> Result<(), JsValue> {
        let clock = self.clock.as_ref().ok_or_else(|| {
            coded(
                "setNow needs a store opened with a fixed `now`; this one uses the system clock",
                "invalid_input",
            )
        })?;
        if !now.is_finite() || now.fract() != 0.0 {
            return Err(coded(
                &format!("invalid now: {now} is not a whole number of milliseconds"),
                "invalid_input",
            ));
        }
        mnemo_core::clock::check_time("now", now as Millis).map_err(error)?;
        clock.set(now as Millis);
        Ok(())
    }

    /// A counter that grows whenever a call writes (the package saves IndexedDB copies when
    /// it has moved).
    pub fn changes(&self) -> f64 {
        self.engine.changes() as f64
    }

    /// Writes the accesses searches recorded (done by every write call too). Call before
    /// `free()` to close a store without losing them.
    pub fn flush(&mut self) -> Result<(), JsValue> {
        self.engine.flush().map_err(error)
    }
}

/// 64 random bits from `crypto.getRandomValues`.
fn random_seed() -> Result<u64, JsValue> {
    let crypto = Reflect::get(&js_sys::global(), &"crypto".into())?;
    let get: Function = Reflect::get(&crypto, &"getRandomValues".into())?
        .dyn_into()
        .map_err(|_| {
            coded(
                "this runtime has no crypto.getRandomValues; pass a seed",
                "unsupported",
            )
        })?;
    let words = Uint32Array::new_with_length(2);
    get.call1(&crypto, &words)?;
    Ok((u64::from(words.get_index(0)) << 32) | u64::from(words.get_index(1)))
}
