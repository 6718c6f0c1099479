//! A store file damaged on disk: maintenance finds it and says so instead of reporting success.
mod common;

use common::*;
use mnemo_core::*;

/// Overwrites 4 KiB in the middle of `path` (pages a maintenance pass's own queries never
/// read, as a disk or a copy can damage them).
fn damage(path: &std::path::Path) {
    use std::io::{Seek, SeekFrom, Write};
    let len = std::fs::metadata(path).unwrap().len();
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(len / 2)).unwrap();
    f.write_all(&[0xff; 4096]).unwrap();
}

#[test]
fn maintain_refuses_a_damaged_store_and_says_what_to_do() {
    let dir = TempDir::new("damaged");
    let path = dir.file("m.db");
    let open = || {
        Engine::builder(ManualClock::new(T0))
            .entropy(SeededEntropy::new(7))
            .open(&path)
    };
    {
        let mut e = open().unwrap();
        let items = (0..300)
            .map(|i| {
                mem(
                    "ana",
                    &format!("memory number {i} about topic {} and more", i % 17),
                )
            })
            .collect();
        e.seed(items).unwrap();
        // A whole store maintains cleanly.
        e.maintain().unwrap();
    }
    damage(&path);
    let mut e = open().expect("the damage spares what opening reads");
    let err = e.maintain().expect_err("maintained a damaged store");
    assert_eq!(err.code(), "storage_error", "{err}");
    let message = err.to_string();
    for needle in ["damaged", "quick_check", "backup", ".recover"] {
        assert!(message.contains(needle), "{needle:?} not in {message:?}");
    }
}

#[test]
fn a_stored_value_changed_outside_mnemo_is_an_internal_fault_not_the_callers() {
    let dir = TempDir::new("damaged-row");
    let path = dir.file("m.db");
    let open = || {
        Engine::builder(ManualClock::new(T0))
            .entropy(SeededEntropy::new(7))
            .open(&path)
    };
    let id = {
        let mut e = open().unwrap();
        e.schedule_create(&ScheduleCreate {
            entity_id: id("kai"),
            content: content("stand-up"),
            cron_tag: "cron:daily:09:00".into(),
            agent_id: None,
        })
        .unwrap()
        .id
    };
    // The tag was checked when the schedule was made; a tool writing the file underneath
    // Mnemo changes it to one that does not parse.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let changed = conn
        .execute("UPDATE schedules SET cron_tag = 'cron:fortnightly'", [])
        .unwrap();
    assert_eq!(changed, 1);
    drop(conn);
    let mut e = open().unwrap();
    let args = format!(r#"{{"entity_id": "kai", "id": "{id}"}}"#);
    let err = e.call_json("schedule_ack", &args).unwrap_err();
    // Not `invalid_input`: no argument of this call is wrong, and no other would help.
    assert_eq!(err.code(), "internal", "{err}");
    let message = err.to_string();
    for needle in [id.as_str(), "cron:fortnightly", "damaged", "backup"] {
        assert!(message.contains(needle), "{needle:?} not in {message:?}");
    }
}

/// The file is checked whole by the first pass after a store is opened and then once a day,
/// not by every pass (the check reads every page and the whole text index): damage done
/// underneath a running engine is found by the next day's first pass.
#[test]
fn an_open_store_is_checked_whole_once_a_day() {
    let dir = TempDir::new("damaged-daily");
    let path = dir.file("m.db");
    let clock = ManualClock::new(T0);
    let mut e = Engine::builder(clock.clone())
        .entropy(SeededEntropy::new(7))
        .open(&path)
        .unwrap();
    let items = (0..300)
        .map(|i| {
            mem(
                "ana",
                &format!("{} keeps {i} jars of honey", ["Ana", "Rui", "Eva"][i % 3]),
            )
        })
        .collect();
    e.seed(items).unwrap();
    e.maintain().unwrap();
    // A tool writing the file underneath Mnemo removes a block of the text index.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let changed = conn
        .execute(
            "DELETE FROM memories_fts_data WHERE id = (SELECT max(id) FROM memories_fts_data)",
            [],
        )
        .unwrap();
    assert_eq!(changed, 1);
    drop(conn);
    // The same day: checked already, maintained.
    clock.advance(DAY_MS - 1);
    e.maintain().unwrap();
    // The next: checked, and refused.
    clock.advance(1);
    let err = e.maintain().expect_err("maintained a damaged store");
    assert_eq!(err.code(), "storage_error", "{err}");
    assert!(err.to_string().contains("quick_check"), "{err}");
    // Refused again while it stays damaged.
    assert!(e.maintain().is_err());
}
