//! The store on disk: persistence, migrations, and refusing what is not ours.
mod common;

use common::*;
use mnemo_core::*;

#[test]
fn memories_persist_across_reopen() {
    let dir = TempDir::new("persist");
    let path = dir.file("m.db");
    let clock = ManualClock::new(T0);
    let id = {
        let mut e = Engine::builder(clock.clone()).open(&path).unwrap();
        seed_one(&mut e, mem("u", "the boiler was serviced in June"))
    };
    let mut e = Engine::builder(clock.clone()).open(&path).unwrap();
    assert_eq!(ids(&search(&mut e, "u", "boiler serviced")), vec![id]);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let (version, app): (i64, i64) = conn.query_row("SELECT (SELECT user_version FROM pragma_user_version), (SELECT application_id FROM pragma_application_id)", [], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
    assert_eq!((version, app), (SCHEMA_VERSION, 0x4D4E_4D4F));
    let applied: i64 = conn
        .query_row("SELECT count(*) FROM migrations", [], |r| r.get(0))
        .unwrap();
    assert_eq!(applied, SCHEMA_VERSION);
}

#[test]
fn a_store_from_a_newer_version_is_refused_untouched() {
    let dir = TempDir::new("newer");
    let path = dir.file("m.db");
    seed_one(
        &mut Engine::builder(ManualClock::new(T0)).open(&path).unwrap(),
        mem("u", "x"),
    );
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    let before = std::fs::read(&path).unwrap();
    let err = Engine::builder(ManualClock::new(T0))
        .open(&path)
        .err()
        .unwrap();
    assert_eq!(err.code(), "schema_too_new");
    assert!(
        err.to_string().contains("version 99") && err.to_string().contains("upgrade Mnemo"),
        "{err}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn foreign_and_corrupt_files_are_refused() {
    let dir = TempDir::new("foreign");
    let foreign = dir.file("other.db");
    rusqlite::Connection::open(&foreign)
        .unwrap()
        .execute_batch("CREATE TABLE accounts (id INTEGER, balance REAL)")
        .unwrap();
    let err = Engine::builder(ManualClock::new(T0))
        .open(&foreign)
        .err()
        .unwrap();
    assert_eq!(err.code(), "not_a_store");
    let garbage = dir.file("garbage.db");
    std::fs::write(&garbage, b"this is not a database, just text that is long enough to have a header....................................").unwrap();
    let err = Engine::builder(ManualClock::new(T0))
        .open(&garbage)
        .err()
        .unwrap();
    assert_eq!(err.code(), "not_a_store", "{err}");
    assert!(std::fs::read(&garbage).unwrap().starts_with(b"this is not"));
}

#[test]
fn the_store_records_its_embedder() {
    let dir = TempDir::new("embedder");
    let path = dir.file("m.db");
    drop(Engine::builder(ManualClock::new(T0)).open(&path).unwrap());
    let err = Engine::builder(ManualClock::new(T0))
        .embedder(SuppliedVectors::new("all-MiniLM-L6-v2", 384))
        .open(&path)
        .err()
        .unwrap();
    assert_eq!(err.code(), "embedder_mismatch");
    assert!(
        err.to_string().contains("mnemo-static-v1") && err.to_string().contains("all-MiniLM-L6-v2"),
        "{err}"
    );
    assert!(Engine::builder(ManualClock::new(T0)).open(&path).is_ok());

    // A store of the host's vectors, opened without the host's embedder: refused, by name.
    let other = dir.file("host.db");
    drop(
        Engine::builder(ManualClock::new(T0))
            .embedder(SuppliedVectors::new("all-MiniLM-L6-v2", 384))
            .open(&other)
            .unwrap(),
    );
    let err = Engine::builder(ManualClock::new(T0))
        .open(&other)
        .err()
        .unwrap();
    assert_eq!(err.code(), "embedder_mismatch");
    assert!(err.to_string().contains("all-MiniLM-L6-v2"), "{err}");
}

#[test]
fn invalid_configuration_is_refused() {
    let bad = Config {
        dedup: DedupConfig {
            skip_threshold: 0.8,
            merge_threshold: 0.9,
            enabled: true,
        },
        ..Default::default()
    };
    assert_eq!(
        Engine::builder(ManualClock::new(T0))
            .config(bad)
            .open_in_memory()
            .err()
            .unwrap()
            .code(),
        "invalid_input"
    );
    let nan = Config {
        recall: RecallConfig {
            vector_weight: f64::NAN,
            ..Default::default()
        },
        ..Default::default()
    };
    assert_eq!(
        Engine::builder(ManualClock::new(T0))
            .config(nan)
            .open_in_memory()
            .err()
            .unwrap()
            .code(),
        "invalid_input"
    );
}

#[test]
fn search_accesses_are_written_with_the_next_write_or_on_drop() {
    let dir = TempDir::new("pending");
    let path = dir.file("m.db");
    let clock = ManualClock::new(T0);
    let id = {
        let mut e = Engine::builder(clock.clone()).open(&path).unwrap();
        let id = seed_one(&mut e, mem("u", "the alarm code is 2580"));
        let before = std::fs::read(&path).unwrap();
        let hits = search(&mut e, "u", "alarm code");
        assert_eq!(hits[0].memory.access_count, 1);
        // A search writes nothing to the file by itself …
        assert_eq!(std::fs::read(&path).unwrap(), before);
        // … and a second search already ranks with the first one's access.
        assert_eq!(search(&mut e, "u", "alarm code")[0].memory.access_count, 2);
        id
    }; // dropping the engine writes the pending accesses
    let mut e = Engine::builder(clock.clone()).open(&path).unwrap();
    assert_eq!(peek(&mut e, "u", &id).access_count, 2);
    search(&mut e, "u", "alarm code");
    e.flush().unwrap();
    drop(e);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let n: i64 = conn
        .query_row(
            "SELECT access_count FROM memories WHERE id = ?1",
            [&id],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(n, 3);
}

/// An embedder that, each time it is asked, looks at the store's file from a second
/// connection and records what it saw.
struct Probe<T> {
    path: std::path::PathBuf,
    inner: HashEmbedder,
    look: fn(&rusqlite::Connection) -> T,
    seen: std::sync::Arc<std::sync::Mutex<Vec<T>>>,
}

impl<T> Probe<T> {
    fn new(path: &std::path::Path, look: fn(&rusqlite::Connection) -> T) -> Self {
        Probe {
            path: path.to_path_buf(),
            inner: HashEmbedder::default(),
            look,
            seen: Default::default(),
        }
    }
}

impl<T: Send + 'static> Embedder for Probe<T> {
    fn model_id(&self) -> &str {
        self.inner.model_id()
    }
    fn dimension(&self) -> usize {
        self.inner.dimension()
    }
    fn embed(&self, text: &str) -> Result<Vec<f32>> {
        let other = rusqlite::Connection::open(&self.path).expect("second connection");
        self.seen.lock().expect("probe").push((self.look)(&other));
        self.inner.embed(text)
    }
}

/// Whether the store's write lock is free (a slow embedder must never hold up the other
/// writers of the file).
fn lock_free(other: &rusqlite::Connection) -> bool {
    other.execute_batch("BEGIN IMMEDIATE; COMMIT;").is_ok()
}

/// How many memories another connection sees.
fn visible(other: &rusqlite::Connection) -> i64 {
    other
        .query_row("SELECT count(*) FROM memories", [], |r| r.get(0))
        .expect("count")
}

#[test]
fn the_embedder_never_runs_while_the_store_is_write_locked() {
    let dir = TempDir::new("embed-lock");
    let path = dir.file("m.db");
    let probe = Probe::new(&path, lock_free);
    let free = probe.seen.clone();
    let mut e = Engine::builder(ManualClock::new(T0))
        .embedder(probe)
        .open(&path)
        .unwrap();
    let id = seed_one(&mut e, mem("u", "the boiler was serviced in June"));
    e.remember("u", "I moved to Lisbon last spring.", Default::default())
        .unwrap();
    e.update(
        "u",
        &id,
        MemoryPatch {
            content: Some(content("the boiler was serviced in July")),
            ..Default::default()
        },
    )
    .unwrap();
    let s = e
        .schedule_create(&ScheduleCreate {
            entity_id: common::id("u"),
            content: content("water the plants"),
            cron_tag: "cron:daily:09:00".into(),
            agent_id: None,
        })
        .unwrap();
    e.schedule_update(&ScheduleUpdate {
        entity_id: common::id("u"),
        agent_id: None,
        id: common::id(&s.id),
        content: Some(content("water the plants and the herbs")),
        cron_tag: None,
    })
    .unwrap();
    e.import_jsonl(br#"{"entity_id":"u","content":"a plain record to embed"}"#)
        .unwrap();
    search(&mut e, "u", "boiler");
    let free = free.lock().unwrap().clone();
    // One embedding per write above and one for the search, each with the lock free.
    assert!(free.len() >= 7, "{free:?}");
    assert!(free.iter().all(|&f| f), "{free:?}");
}

/// A clock that moves on a millisecond every time it is read, as a real one may.
struct Ticking(std::sync::atomic::AtomicI64);

impl Clock for Ticking {
    fn now(&self) -> Millis {
        self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
    }
}

#[test]
fn a_call_reads_the_clock_once_for_all_it_writes() {
    let mut e = Engine::builder(Ticking(T0.into()))
        .open_in_memory()
        .unwrap();
    // What the write stores (the memory) and what it learns (the graph) carry one time.
    let report = e
        .remember("u", "My sister Ana lives in Lisbon.", Default::default())
        .unwrap();
    let created: Vec<Millis> = report
        .outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Created { id } => Some(e.get("u", id).unwrap().created_at),
            _ => None,
        })
        .collect();
    assert!(!created.is_empty(), "{report:?}");
    let entities = e.entities(&EntitiesRequest::new(id("u"))).unwrap();
    assert!(!entities.is_empty());
    for x in &entities {
        assert_eq!(x.first_seen, created[0], "{x:?}");
    }
    assert!(created.iter().all(|&t| t == created[0]), "{created:?}");
}

fn seed_args(content: &str) -> String {
    serde_json::json!({ "items": [{ "entity_id": "u", "content": content }] }).to_string()
}

#[test]
fn a_batch_commits_once_and_each_call_stands_or_falls_alone() {
    let dir = TempDir::new("group");
    let path = dir.file("m.db");
    let probe = Probe::new(&path, visible);
    let seen = probe.seen.clone();
    let mut e = Engine::builder(ManualClock::new(T0))
        .embedder(probe)
        .open(&path)
        .unwrap();
    let (first, second) = (
        seed_args("the boiler was serviced in June"),
        seed_args("my sister Ana lives in Lisbon"),
    );
    let bad = r#"{"items": [{"entity_id": "u", "content": "x", "importance": 7}]}"#;
    let missing = r#"{"entity_id": "u", "id": "mem_0000000000000000"}"#;
    let search = r#"{"entity_id": "u", "query": "boiler serviced"}"#;
    let answers = e
        .batch_json(&[
            ("seed", &first),
            ("seed", bad),
            ("forget", missing),
            ("search", search),
            ("seed", &second),
            ("no_such_call", "{}"),
        ])
        .unwrap();
    let codes: Vec<&str> = answers
        .iter()
        .map(|a| a.as_ref().map_or_else(|e| e.code(), |_| "ok"))
        .collect();
    assert_eq!(
        codes,
        [
            "ok",
            "invalid_input",
            "not_found",
            "ok",
            "ok",
            "unknown_value"
        ]
    );
    // The search inside the batch sees the first seed's write.
    let hits: serde_json::Value = serde_json::from_str(answers[3].as_ref().unwrap()).unwrap();
    assert_eq!(hits.as_array().map(Vec::len), Some(1), "{hits}");
    // No other connection saw either memory until the one commit at the end (each seed and
    // the search embedded while the batch was open).
    assert_eq!(*seen.lock().unwrap(), vec![0, 0, 0]);
    assert_eq!(visible(&rusqlite::Connection::open(&path).unwrap()), 2);
    // A call outside a batch commits on its own, as before.
    e.call_json("seed", &seed_args("the car needs new tyres"))
        .unwrap();
    e.call_json("seed", &seed_args("the dentist moved to Friday"))
        .unwrap();
    assert_eq!(seen.lock().unwrap()[3..], [2, 3]);
}

#[test]
fn calls_in_a_batch_run_in_order_and_see_each_others_writes() {
    let mut e = Engine::builder(ManualClock::new(T0))
        .open_in_memory()
        .unwrap();
    let id = seed_one(&mut e, mem("u", "the boiler was serviced in June"));
    let forget = serde_json::json!({ "entity_id": "u", "id": id }).to_string();
    let boiler = r#"{"entity_id": "u", "query": "boiler serviced"}"#;
    let answers = e
        .batch_json(&[
            ("search", boiler),
            ("forget", &forget),
            ("search", boiler),
            ("forget", &forget),
            ("seed", &seed_args("the car needs new tyres")),
        ])
        .unwrap();
    let found = |i: usize| -> usize {
        let hits: serde_json::Value = serde_json::from_str(answers[i].as_ref().unwrap()).unwrap();
        hits.as_array().map_or(0, Vec::len)
    };
    assert_eq!((found(0), found(2)), (1, 0));
    assert!(answers[1].is_ok() && answers[4].is_ok());
    assert_eq!(answers[3].as_ref().map_err(|e| e.code()), Err("not_found"));
    assert_eq!(e.stats("u").unwrap().total, 1);
    assert_eq!(search(&mut e, "u", "car tyres").len(), 1);
}

#[test]
fn a_file_left_in_wal_mode_opens_from_bytes_for_writing() {
    let dir = TempDir::new("wal-bytes");
    let path = dir.file("m.db");
    let id = {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("PRAGMA journal_mode = WAL;").unwrap();
        let mut e = Engine::builder(ManualClock::new(T0))
            .open_connection(conn)
            .unwrap();
        seed_one(&mut e, mem("u", "the boiler was serviced in June"))
    };
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[18..20], &[2, 2], "the file says WAL");
    let mut e = Engine::builder(ManualClock::new(T0))
        .open_bytes(&bytes)
        .unwrap();
    assert_eq!(ids(&search(&mut e, "u", "boiler serviced")), vec![id]);
    seed_one(&mut e, mem("u", "the car needs new tyres"));
    assert_eq!(e.stats("u").unwrap().total, 2);
    assert_eq!(&e.to_bytes().unwrap()[18..20], &[1, 1]);
}

#[test]
fn settling_the_file_leaves_no_wal_behind() {
    let dir = TempDir::new("wal-settle");
    let path = dir.file("m.db");
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL;")
        .unwrap();
    let mut e = Engine::builder(ManualClock::new(T0))
        .open_connection(conn)
        .unwrap();
    seed_one(&mut e, mem("u", "the boiler was serviced in June"));
    assert!(dir.file("m.db-wal").exists());
    e.settle_file().unwrap();
    assert!(!dir.file("m.db-wal").exists());
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[18..20], &[1, 1]);
    // Still usable, and what it writes next lands in the file itself.
    seed_one(&mut e, mem("u", "the car needs new tyres"));
    drop(e);
    let mut e = Engine::builder(ManualClock::new(T0))
        .open_bytes(&std::fs::read(&path).unwrap())
        .unwrap();
    assert_eq!(e.stats("u").unwrap().total, 2);
}
