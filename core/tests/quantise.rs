//! Re-quantisation by retention, with a moved clock: each memory's vector is stored at the
//! precision its retention calls for (never finer than before), the store reports what it
//! saved, search weighs coarse vectors down but still finds them, a second run changes
//! nothing, owners stay apart, and an export carries the precision through an import.
mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::*;
use mnemo_core::embed::Precision;
use mnemo_core::*;

/// Notes unlike each other, so dedup keeps each one.
const NOTES: [&str; 8] = [
    "The boiler in the cellar was serviced by a plumber named Ortiz.",
    "My sister Ines flies in from Lisbon for the first week of May.",
    "I switched the garden hose timer to water at six in the morning.",
    "The dentist moved my appointment to the Thursday after Easter.",
    "Our piano needs tuning before the recital at the community hall.",
    "I renewed the passport online and the photo was rejected twice.",
    "The bicycle chain snapped on the climb past the old quarry.",
    "Invoices for the kitchen renovation go to the shared folder.",
];

/// Writes the notes for `owner` six weeks apart, oldest first; returns their ids.
fn write_aged(e: &mut Engine, clock: &ManualClock, owner: &str) -> Vec<String> {
    NOTES
        .iter()
        .map(|note| {
            let id = seed_one(e, mem(owner, note));
            clock.advance(42 * DAY_MS);
            id
        })
        .collect()
}

fn records(e: &mut Engine, owner: &str) -> Vec<ExportRecord> {
    e.export_jsonl(owner)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn precisions(e: &mut Engine, owner: &str) -> BTreeMap<String, Precision> {
    records(e, owner)
        .into_iter()
        .map(|r| (r.memory.id, r.embedding_precision))
        .collect()
}

fn quantisation(e: &mut Engine) -> consolidate::QuantiseReport {
    e.consolidate().unwrap().consolidation.unwrap().quantisation
}

#[test]
fn fading_memories_are_stored_coarser_as_their_retention_calls_for() {
    let (mut e, clock) = engine_with_config(without_dedup());
    let ids = write_aged(&mut e, &clock, "ana");
    let before = e.stats("ana").unwrap();
    assert_eq!(before.by_precision, BTreeMap::from([("f32".into(), 8)]));
    let dim = before.embedding_dim as u64;
    assert_eq!(before.vector_bytes, 8 * 4 * dim);

    let report = quantisation(&mut e);
    let now = clock.now();
    let retention = Config::default().retention;
    let mut seen = BTreeSet::new();
    for r in records(&mut e, "ana") {
        let due = if decay::is_exempt(&r.memory) {
            Precision::F32
        } else {
            Precision::for_retention(decay::retention(&r.memory, now, &retention))
        };
        assert_eq!(r.embedding_precision, due, "{}", r.memory.content);
        seen.insert(due);
    }
    // Six weeks apart, the notes spread over at least three precisions, 2 bits among them.
    assert!(
        seen.len() >= 3 && seen.contains(&Precision::Int2),
        "{seen:?}"
    );

    // The report and the census agree on what moved and what it saved.
    let after = e.stats("ana").unwrap();
    let count = |p: Precision| after.by_precision.get(p.as_str()).copied().unwrap_or(0);
    assert_eq!(report.examined, 8);
    assert_eq!(
        (report.to_int8, report.to_int4, report.to_int2),
        (
            count(Precision::Int8),
            count(Precision::Int4),
            count(Precision::Int2)
        )
    );
    assert_eq!(after.vector_bytes, before.vector_bytes - report.bytes_saved);
    let expected: u64 = Precision::ALL
        .iter()
        .map(|&p| count(p) as u64 * p.stored_len(dim as usize) as u64)
        .sum();
    assert_eq!(after.vector_bytes, expected);
    assert!(report.bytes_saved > 0);

    // A second run changes nothing.
    let again = quantisation(&mut e);
    assert_eq!((again.to_int8, again.to_int4, again.to_int2), (0, 0, 0));
    assert_eq!(again.bytes_saved, 0);
    assert_eq!(e.stats("ana").unwrap(), after);

    // The oldest note, now at 2 bits, is still found by what it says, its cosine divided by
    // the 2-bit penalty; finding it revives it, but bits once dropped stay dropped.
    let oldest = &ids[0];
    assert_eq!(precisions(&mut e, "ana")[oldest], Precision::Int2);
    // It is archived by now: an archive search finds it.
    let hits = e
        .search(&SearchRequest {
            include_archived: true,
            ..SearchRequest::new(id("ana"), NOTES[0])
        })
        .unwrap();
    let hit = hits.iter().find(|h| &h.memory.id == oldest).expect("found");
    assert!(
        hit.why.vector <= 1.0 / 1.63 + 1e-6 && hit.why.vector > 0.5,
        "{:?}",
        hit.why
    );
    quantisation(&mut e);
    assert_eq!(precisions(&mut e, "ana")[oldest], Precision::Int2);
}

#[test]
fn owners_are_apart_and_fresh_or_pinned_memories_keep_full_precision() {
    let (mut e, clock) = engine_with_config(without_dedup());
    let old = write_aged(&mut e, &clock, "ana");
    e.pin("ana", &old[0], true).unwrap();
    // Ben's notes are written just before the run: all stay f32 whatever Ana's do.
    for note in NOTES {
        seed_one(&mut e, mem("ben", note));
    }
    let report = quantisation(&mut e);
    assert!(report.to_int8 + report.to_int4 + report.to_int2 > 0);
    let ben = e.stats("ben").unwrap();
    assert_eq!(ben.by_precision, BTreeMap::from([("f32".into(), 8)]));
    assert_eq!(precisions(&mut e, "ana")[&old[0]], Precision::F32, "pinned");
    // Ben's search ranks as before: his vectors are untouched.
    let hit = &search(&mut e, "ben", NOTES[3])[0];
    assert_eq!(hit.memory.content, NOTES[3]);
    assert!(hit.why.vector > 0.99, "{:?}", hit.why);
}

/// Ana's aged notes after one consolidation, and her export.
fn faded_export() -> (Engine, ManualClock, String) {
    let (mut e, clock) = engine_with_config(without_dedup());
    write_aged(&mut e, &clock, "ana");
    quantisation(&mut e);
    let exported = e.export_jsonl("ana").unwrap();
    assert!(exported.contains("\"embedding_precision\":\"int2\""));
    (e, clock, exported)
}

#[test]
fn an_export_carries_each_vectors_precision_through_an_import() {
    let (mut e, clock, exported) = faded_export();

    let (mut fresh, fresh_clock) = engine_with_config(without_dedup());
    fresh_clock.set(clock.now());
    let report = fresh.import_jsonl(exported.as_bytes()).unwrap();
    assert_eq!(report.restored, 8);
    assert_eq!(fresh.export_jsonl("ana").unwrap(), exported);
    assert_eq!(fresh.stats("ana").unwrap(), e.stats("ana").unwrap());
}

#[test]
fn an_import_with_a_bad_precision_is_refused_and_changes_nothing() {
    let (_, _, good) = faded_export();
    let line = good
        .lines()
        .find(|l| l.contains("\"embedding_precision\":\"int2\""))
        .unwrap();
    let (mut other, _) = engine_with_config(without_dedup());
    let empty = snapshot(&mut other, "ana");
    for bad in [
        "\"int16\"",
        "\"INT2\"",
        "\"\"",
        "2",
        "null",
        "[\"int2\"]",
        "\"int2'; DROP TABLE memories; --\"",
        "\"整数\"",
    ] {
        let spoiled = line.replace(
            "\"embedding_precision\":\"int2\"",
            &format!("\"embedding_precision\":{bad}"),
        );
        let err = other.import_jsonl(spoiled.as_bytes()).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("line 1") && message.contains("embedding_precision is one of"),
            "{bad}: {message}"
        );
        assert_eq!(snapshot(&mut other, "ana"), empty, "{bad}");
    }
}

#[test]
fn a_store_from_before_requantisation_has_its_vectors_looked_at_after_the_upgrade() {
    let dir = TempDir::new("requantise-upgrade");
    let path = dir.file("m.db");
    let clock = ManualClock::new(T0);
    let open = || {
        Engine::builder(clock.clone())
            .config(without_dedup())
            .open(&path)
            .unwrap()
    };
    write_aged(&mut open(), &clock, "ana");
    // Back to schema 5, as an older Mnemo left it: no `requantise_at` (the later migrations
    // are run again too).
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(&format!(
            "DROP INDEX memory_vectors_requantise;
             ALTER TABLE memory_vectors DROP COLUMN requantise_at;
             CREATE INDEX memories_owner_hash ON memories(entity_id, content_hash);
             {UNDO_ADDED_COLUMNS}
             DELETE FROM migrations WHERE version >= 6;
             PRAGMA user_version = 5;"
        ))
        .unwrap();
    let mut e = open();
    let report = quantisation(&mut e);
    assert_eq!(report.examined, 8);
    assert!(report.to_int2 > 0, "{report:?}");
    // Then each one waits for its retention to move.
    assert_eq!(quantisation(&mut e).examined, 0);
}

#[test]
fn a_vector_is_looked_at_again_only_when_its_retention_may_have_moved() {
    let (mut e, clock) = engine_with_config(without_dedup());
    seed_one(&mut e, mem("ana", NOTES[0]));
    // New: looked at once, kept at f32, then left until retention nears 0.8.
    assert_eq!(quantisation(&mut e).examined, 1);
    assert_eq!(quantisation(&mut e).examined, 0);
    clock.advance(DAY_MS);
    assert_eq!(quantisation(&mut e).examined, 0);
    // Months later it is due and stored coarser; the runs on the same day find nothing.
    clock.advance(120 * DAY_MS);
    let later = quantisation(&mut e);
    assert_eq!(later.examined, 1);
    assert!(
        later.to_int8 + later.to_int4 + later.to_int2 == 1,
        "{later:?}"
    );
    assert_eq!(quantisation(&mut e).examined, 0);
}
