//! The store: one SQLite database, its schema (`schema`), the SQL of memory rows
//! (`memories`) and of the link rows a write records (`links`), and the transactions every
//! write goes through (`tx`). Feature modules keep
//! the SQL of their own tables beside them and run it inside these transactions.

mod fts;
mod hashes;
pub(crate) mod links;
pub(crate) mod memories;
pub(crate) mod schema;
mod tx;
pub(crate) mod viewer;

use rusqlite::{Connection, Row};

pub use schema::SCHEMA_VERSION;
use tx::{begin_group, commit_group};
pub(crate) use tx::{Derived, Host, Snapshot, Tx, View};

use crate::clock::{check_time, Clock, Entropy, Millis};
use crate::decay::RetentionConfig;
use crate::embed::{self, Embedder};
use crate::error::{Error, Result};

/// An open store: the connection, the host's clock, entropy and embedder, the retention
/// settings rows are scheduled by, and what the engine keeps in memory beside it.
pub(crate) struct Store {
    conn: Connection,
    clock: Box<dyn Clock>,
    entropy: Box<dyn Entropy>,
    embedder: Box<dyn Embedder>,
    retention: RetentionConfig,
    derived: Derived,
    /// Who the call running now reads for.
    viewer: viewer::Current,
}

impl Store {
    /// A store in memory at the fixed time `now`, its vectors supplied in two dimensions: the
    /// unit tests' store.
    #[cfg(test)]
    pub(crate) fn in_memory(now: Millis) -> Store {
        Store::open(
            Connection::open_in_memory().expect("open an in-memory database"),
            Box::new(crate::clock::ManualClock::new(now)),
            Box::new(crate::clock::SeededEntropy::new(1)),
            |_| Ok(Box::new(embed::SuppliedVectors::new("test", 2))),
            RetentionConfig::default(),
        )
        .expect("open an in-memory store")
    }

    /// Opens (creating and migrating as needed) the store on `conn`. A store records the
    /// embedder its vectors come from and refuses another; `embedder` is given the model the
    /// store records (`None` for a new store) and picks the embedder.
    pub fn open(
        mut conn: Connection,
        clock: Box<dyn Clock>,
        entropy: Box<dyn Entropy>,
        embedder: impl FnOnce(Option<&str>) -> Result<Box<dyn Embedder>>,
        retention: RetentionConfig,
    ) -> Result<Store> {
        let now = clock.now();
        check_time("clock", now)?;
        schema::open(&mut conn, now)?;
        let recorded = schema::meta(&conn, "embedding_model")?;
        let embedder = embedder(recorded.as_deref())?;
        let (model, dim) = (embedder.model_id().to_string(), embedder.dimension());
        if dim == 0 || model.is_empty() {
            return Err(Error::invalid(
                "embedder",
                "model id must be non-empty and dimension positive",
            ));
        }
        match (
            schema::meta(&conn, "embedding_model")?,
            schema::meta(&conn, "embedding_dim")?,
        ) {
            (Some(m), Some(d)) => {
                let store_dim: usize = d.parse().map_err(|_| {
                    Error::NotAStore(format!("embedding_dim {d:?} is not a number"))
                })?;
                if m != model || store_dim != dim {
                    return Err(Error::EmbedderMismatch {
                        store_model: m,
                        store_dim,
                        embedder_model: model,
                        embedder_dim: dim,
                    });
                }
            }
            _ => {
                schema::set_meta(&conn, "embedding_model", &model)?;
                schema::set_meta(&conn, "embedding_dim", &dim.to_string())?;
            }
        }
        let viewer = viewer::Current::default();
        viewer.install(&conn)?;
        Ok(Store {
            conn,
            clock,
            entropy,
            embedder,
            retention,
            derived: Derived::default(),
            viewer,
        })
    }

    /// The host's time, checked to be in range.
    pub fn now(&self) -> Result<Millis> {
        let now = self.clock.now();
        check_time("clock", now)?;
        Ok(now)
    }

    /// The embedder the store's vectors come from.
    pub fn embedder(&self) -> &dyn Embedder {
        &*self.embedder
    }

    /// Who the call running now reads for.
    pub fn viewer(&self) -> &viewer::Current {
        &self.viewer
    }

    /// The connection (whole-store operations: images, change counts).
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// A read view at the host's current time.
    pub fn read(&mut self) -> View<'_> {
        self.read_at(self.clock.now())
    }

    /// A read view at `now`: a call that reads, then writes, runs both at one time.
    pub fn read_at(&mut self, now: Millis) -> View<'_> {
        let (conn, derived, host) = self.parts(now);
        View::new(conn, derived, host)
    }

    /// A read view at the host's current time whose reads all run in one read transaction,
    /// for a call that reads much and embeds (if at all) before its first read: the lock is
    /// taken at that read, so a slow embedder still holds up no writer.
    pub fn snapshot(&mut self) -> Snapshot<'_> {
        Snapshot::new(self.read())
    }

    /// Begins a write transaction at `now`.
    fn begin(&mut self, now: Millis) -> Result<Tx<'_>> {
        let (conn, derived, host) = self.parts(now);
        Tx::begin(conn, derived, host)
    }

    /// What a view or a transaction runs over at `now` (checked by the view when a call first
    /// asks for it, so calls that do not use the time never fail on it).
    fn parts(&mut self, now: Millis) -> (&Connection, &mut Derived, Host<'_>) {
        let host = Host {
            now,
            embedder: &*self.embedder,
            entropy: &*self.entropy,
            retention: &self.retention,
            viewer: &self.viewer,
        };
        (&self.conn, &mut self.derived, host)
    }

    /// The whole store as one SQLite image, pending accesses written first.
    pub fn image(&mut self) -> Result<Vec<u8>> {
        self.flush()?;
        Ok(self.conn.serialize(rusqlite::MAIN_DB)?.to_vec())
    }

    /// Runs `f` in one transaction: committed when it returns a value, rolled back when it
    /// returns an error.
    pub fn transaction<T>(&mut self, f: impl FnOnce(&mut Tx) -> Result<T>) -> Result<T> {
        self.transaction_at(self.clock.now(), f)
    }

    /// [`Store::transaction`] at `now` (the time of the view the call read first).
    pub fn transaction_at<T>(
        &mut self,
        now: Millis,
        f: impl FnOnce(&mut Tx) -> Result<T>,
    ) -> Result<T> {
        let mut tx = self.begin(now)?;
        let value = f(&mut tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Begins a group commit: every transaction until [`Store::commit_group`] is nested in
    /// one outer transaction, keeps its own success or failure, and is durable only once the
    /// outer one commits. k calls then cost one commit (one sync of the file) instead of k.
    pub fn begin_group(&mut self) -> Result<()> {
        begin_group(&self.conn)
    }

    /// Commits a group; on error nothing written since [`Store::begin_group`] stays.
    pub fn commit_group(&mut self) -> Result<()> {
        commit_group(&self.conn, &mut self.derived)
    }

    /// Moves every vector of the store (all owners) to `embedder`, in one transaction, and
    /// records it as the store's embedder. Returns how many memories were re-embedded.
    pub fn reembed(&mut self, embedder: Box<dyn Embedder>) -> Result<usize> {
        let count = self.transaction(|tx| {
            let conn = tx.conn();
            let mut rows = conn.prepare("SELECT pk, content FROM memories ORDER BY pk")?;
            let rows = rows
                .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            for (pk, content) in &rows {
                let v = embed::memory_vector(&*embedder, content, None)?;
                memories::set_embedding(conn, *pk, &v, embed::Precision::F32)?;
            }
            schema::set_meta(conn, "embedding_model", embedder.model_id())?;
            schema::set_meta(conn, "embedding_dim", &embedder.dimension().to_string())?;
            Ok(rows.len())
        })?;
        // Every loaded vector set is of the old model: dropped, reloaded when next needed.
        self.derived.invalidate_all();
        self.embedder = embedder;
        Ok(count)
    }

    /// Writes the accesses and co-recalls searches recorded (a transaction that writes nothing
    /// else).
    pub fn flush(&mut self) -> Result<()> {
        if self.pending() == (0, 0) {
            return Ok(());
        }
        self.transaction(|_| Ok(()))
    }

    /// How many memories have accesses, and how many pairs co-recalls, waiting to be written.
    pub fn pending(&self) -> (usize, usize) {
        self.derived.pending_count()
    }
}

/// The key the next row of `table` will get (ids derived from it are the same on every
/// target).
pub(crate) fn next_pk(conn: &Connection, table: &'static str) -> Result<i64> {
    debug_assert!(matches!(
        table,
        "memories" | "conflicts" | "heartbeat_acts" | "messages" | "documents"
    ));
    Ok(conn
        .prepare_cached(&format!("SELECT coalesce(max(pk), 0) + 1 FROM {table}"))?
        .query_row([], |r| r.get(0))?)
}

/// A text column parsed into one of the model's string enums.
pub(crate) fn parse<T: std::str::FromStr<Err = Error>>(r: &Row, i: usize) -> rusqlite::Result<T> {
    text(r, i)?.parse().map_err(|e: Error| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}

/// A text column, borrowed from the row (no copy).
fn text<'r>(r: &'r Row, i: usize) -> rusqlite::Result<&'r str> {
    r.get_ref(i)?.as_str().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}

/// A JSON array column (tags, id lists).
pub(crate) fn json_list<T: serde::de::DeserializeOwned>(
    r: &Row,
    i: usize,
) -> rusqlite::Result<Vec<T>> {
    let s = text(r, i)?;
    if s == "[]" {
        return Ok(Vec::new());
    }
    crate::json::from_text("column", s).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}
