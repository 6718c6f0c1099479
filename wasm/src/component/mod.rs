//! The component face: the `mnemo` WIT world's `engine` interface over the core, with the
//! host's clock, and its embedder and extractor when it has them.

mod convert;

use std::cell::{RefCell, RefMut};

use mnemo_core::{
    Clock, Config, Embedder, Engine, Error, HashEmbedder, LlmExtractor, Millis, SeededEntropy,
};

wit_bindgen::generate!({ world: "mnemo", path: "wit" });

use convert::Conv;
use exports::mnemo::engine::engine::{self as wit, GuestStore, OpenOptions};
use mnemo::engine::host;
use mnemo::engine::types;

/// The host's clock.
struct HostClock;

impl Clock for HostClock {
    fn now(&self) -> Millis {
        host::now()
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

/// A core result as a typed WIT result.
fn typed<T: Conv<U>, U>(result: mnemo_core::Result<T>) -> Result<U, wit::Error> {
    result.map(Conv::conv).map_err(error)
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
            ));
        if !options.config.trim().is_empty() {
            let mut de = serde_json::Deserializer::from_str(&options.config);
            let config: Config = mnemo_core::api::deserialize("config", &mut de).map_err(error)?;
            builder = builder.config(config);
        }
        builder = match host::embedder() {
            Some(e) => builder.embedder(HostEmbedder {
                model: e.model,
                dim: e.dimension as usize,
            }),
            None => builder.embedder(HashEmbedder::default()),
        };
        // The host holds an OS lock on the data directory, so this is the store's only
        // connection: keep SQLite's lock between transactions instead of taking and dropping
        // its lock directory around each one (a crash leaves it; the host clears it).
        let conn = rusqlite::Connection::open(&options.path)
            .and_then(|c| {
                c.execute_batch("PRAGMA locking_mode = EXCLUSIVE;")
                    .map(|_| c)
            })
            .map_err(|e| error(Error::Storage(e)))?;
        let engine = builder.open_connection(conn).map_err(error)?;
        Ok(wit::Store::new(Store(RefCell::new(engine))))
    }

    fn remember(&self, args: types::RememberArgs) -> Result<types::WriteReport, wit::Error> {
        typed(self.engine().remember_args(args.conv()))
    }

    fn extract(&self, content: String) -> Result<Vec<types::Extracted>, wit::Error> {
        typed(self.engine().extract(&content))
    }

    fn seed(&self, items: Vec<types::NewMemory>) -> Result<types::WriteReport, wit::Error> {
        typed(self.engine().seed(items.conv()))
    }

    fn search(&self, request: types::SearchRequest) -> Result<Vec<types::SearchHit>, wit::Error> {
        typed(self.engine().search(&request.conv()))
    }

    fn get(&self, entity_id: String, id: String) -> Result<types::Memory, wit::Error> {
        typed(self.engine().get(&entity_id, &id))
    }

    fn list(&self, request: types::ListRequest) -> Result<types::Page, wit::Error> {
        typed(self.engine().list(&request.conv()))
    }

    fn update(
        &self,
        entity_id: String,
        id: String,
        patch: types::MemoryPatch,
    ) -> Result<types::Memory, wit::Error> {
        typed(self.engine().update(&entity_id, &id, patch.conv()))
    }

    fn forget(&self, entity_id: String, id: String) -> Result<types::Memory, wit::Error> {
        typed(self.engine().forget(&entity_id, &id))
    }

    fn reinforce(&self, entity_id: String, id: String) -> Result<types::Memory, wit::Error> {
        typed(self.engine().reinforce(&entity_id, &id))
    }

    fn demote(&self, entity_id: String, id: String) -> Result<types::Memory, wit::Error> {
        typed(self.engine().demote(&entity_id, &id))
    }

    fn pin(
        &self,
        entity_id: String,
        id: String,
        pinned: bool,
    ) -> Result<types::Memory, wit::Error> {
        typed(self.engine().pin(&entity_id, &id, pinned))
    }

    fn set_status(
        &self,
        entity_id: String,
        id: String,
        status: types::Status,
        reason: String,
    ) -> Result<types::Memory, wit::Error> {
        typed(
            self.engine()
                .set_status(&entity_id, &id, status.conv(), &reason),
        )
    }

    fn status_history(
        &self,
        entity_id: String,
        id: String,
    ) -> Result<Vec<types::StatusChange>, wit::Error> {
        typed(self.engine().status_history(&entity_id, &id))
    }

    fn stats(&self, entity_id: String) -> Result<types::Stats, wit::Error> {
        typed(self.engine().stats(&entity_id))
    }

    fn maintain(&self) -> Result<types::MaintainReport, wit::Error> {
        typed(self.engine().maintain())
    }

    fn export(&self, entity_id: String) -> Result<String, wit::Error> {
        typed(self.engine().export_jsonl(&entity_id))
    }

    fn import(&self, jsonl: String) -> Result<types::ImportReport, wit::Error> {
        typed(self.engine().import_jsonl(jsonl.as_bytes()))
    }

    fn embedding_model(&self) -> types::ModelInfo {
        let engine = self.engine();
        let (model, dimension) = engine.embedding_model();
        types::ModelInfo {
            model: model.to_string(),
            dimension: dimension.conv(),
        }
    }

    fn entities(&self, request: types::EntitiesRequest) -> Result<Vec<types::Entity>, wit::Error> {
        typed(self.engine().entities(&request.conv()))
    }

    fn relationships(
        &self,
        request: types::RelationshipsRequest,
    ) -> Result<Vec<types::Relationship>, wit::Error> {
        typed(self.engine().relationships(&request.conv()))
    }

    fn traverse(&self, request: types::TraverseRequest) -> Result<types::Traversal, wit::Error> {
        typed(self.engine().traverse(&request.conv()))
    }

    fn path(&self, request: types::PathRequest) -> Result<types::GraphPath, wit::Error> {
        typed(self.engine().path(&request.conv()))
    }

    fn conflicts(
        &self,
        request: types::ConflictsRequest,
    ) -> Result<Vec<types::Conflict>, wit::Error> {
        typed(self.engine().conflicts(&request.conv()))
    }

    fn resolve_conflict(
        &self,
        request: types::ResolveRequest,
    ) -> Result<types::Conflict, wit::Error> {
        typed(self.engine().resolve_conflict(&request.conv()))
    }

    fn schedule_create(
        &self,
        request: types::ScheduleCreate,
    ) -> Result<types::Schedule, wit::Error> {
        typed(self.engine().schedule_create(&request.conv()))
    }

    fn schedules(&self, entity_id: String, all: bool) -> Result<Vec<types::Schedule>, wit::Error> {
        typed(
            self.engine()
                .schedules(&mnemo_core::SchedulesRequest { entity_id, all }),
        )
    }

    fn scheduled(&self, entity_id: String) -> Result<Vec<types::Schedule>, wit::Error> {
        typed(self.engine().scheduled(&entity_id))
    }

    fn schedule_ack(&self, entity_id: String, id: String) -> Result<types::Schedule, wit::Error> {
        typed(
            self.engine()
                .schedule_ack(&mnemo_core::ScheduleRef { entity_id, id }),
        )
    }

    fn schedule_update(
        &self,
        request: types::ScheduleUpdate,
    ) -> Result<types::Schedule, wit::Error> {
        typed(self.engine().schedule_update(&request.conv()))
    }

    fn schedule_cancel(
        &self,
        entity_id: String,
        id: String,
    ) -> Result<types::Schedule, wit::Error> {
        typed(
            self.engine()
                .schedule_cancel(&mnemo_core::ScheduleRef { entity_id, id }),
        )
    }

    fn heartbeat_check(
        &self,
        request: types::HeartbeatRequest,
    ) -> Result<types::HeartbeatReport, wit::Error> {
        typed(self.engine().heartbeat_check(&request.conv()))
    }

    fn heartbeat_context(
        &self,
        request: types::HeartbeatRequest,
    ) -> Result<types::HeartbeatContext, wit::Error> {
        typed(self.engine().heartbeat_context(&request.conv()))
    }

    fn record_message(&self, request: types::MessageRequest) -> Result<types::Message, wit::Error> {
        typed(self.engine().record_message(&request.conv()))
    }

    fn call(&self, method: String, args: String) -> Result<String, wit::Error> {
        self.engine().call_json(&method, &args).map_err(error)
    }

    fn flush(&self) -> Result<(), wit::Error> {
        self.engine().flush().map_err(error)
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
}

export!(Component);
