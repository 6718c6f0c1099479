//! Nothing committed is lost: a process killed (SIGKILL) in the middle of writing leaves a
//! store that reopens, passes SQLite's integrity check, and holds every acknowledged memory.
mod common;

use std::io::{BufRead, BufReader, Write};

use common::*;
use mnemo_core::*;

/// Environment variable that turns this test binary into the writer child.
const CHILD: &str = "MNEMO_CRASH_CHILD_DB";

/// The child: seed batches forever, printing each stored id after its batch committed. Run
/// only by `a_killed_writer_loses_nothing_it_acknowledged`.
#[test]
#[ignore = "the writer process of a_killed_writer_loses_nothing_it_acknowledged"]
fn crash_writer_child() {
    let Some(path) = std::env::var_os(CHILD) else {
        return;
    };
    // Semantic dedup off: every batch of 50 distinct notes stores exactly 50 memories.
    let cfg = without_dedup();
    let mut e = Engine::builder(ManualClock::new(T0))
        .config(cfg)
        .entropy(SeededEntropy::new(std::process::id() as u64))
        .open(&path)
        .unwrap();
    let mut out = std::io::stdout().lock();
    for batch in 0.. {
        let items: Vec<NewMemory> = (0..50)
            .map(|i| NewMemory {
                session_id: Some(id(&format!("s{batch}"))),
                ..mem("u", &format!("batch {batch} note {i} about topic{}", i % 7))
            })
            .collect();
        let report = e.seed(items).unwrap();
        for id in report.stored_ids() {
            writeln!(out, "{id}").unwrap();
        }
        out.flush().unwrap();
    }
}

#[test]
fn a_killed_writer_loses_nothing_it_acknowledged() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let dir = TempDir::new("crash");
    let path = dir.file("m.db");
    let mut child = spawn_writer("crash_writer_child", CHILD, &path);
    let mut acked = Vec::new();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    while acked.len() < 600 {
        let line = lines.next().expect("child stopped early").unwrap();
        if line.starts_with("mem_") {
            acked.push(line);
        }
    }
    // Kill it while it is (almost certainly) inside its next transaction.
    kill_and_check(child, &path);
    let mut e = Engine::builder(ManualClock::new(T0)).open(&path).unwrap();
    let page = e
        .list(&ListRequest {
            limit: limit(1000),
            ..ListRequest::new(id("u"))
        })
        .unwrap();
    let stored: std::collections::HashSet<String> =
        page.memories.iter().map(|m| m.id.clone()).collect();
    let missing: Vec<&String> = acked.iter().filter(|id| !stored.contains(*id)).collect();
    assert!(
        missing.is_empty(),
        "{} acknowledged memories lost, e.g. {:?}",
        missing.len(),
        missing.first()
    );
    // Whole batches only: the store holds a multiple of 50 memories.
    assert_eq!(
        page.total % 50,
        0,
        "{} memories: a batch was half-written",
        page.total
    );
    // The text index is consistent with the rows: the last acknowledged batch is searchable.
    let last_batch = (acked.len() / 50) - 1;
    let hits = search(&mut e, "u", &format!("batch {last_batch} note"));
    assert!(hits.iter().any(|h| h
        .memory
        .content
        .starts_with(&format!("batch {last_batch} "))));
    // And the store takes new writes.
    seed_one(&mut e, mem("u", "written after the crash"));
}
