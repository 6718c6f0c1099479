//! The log's writes gathered, on real files through the default VFS.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Mutex;

use rusqlite::{Connection, OpenFlags};

use super::{register, Held, COPY_LIMIT, COPY_READS, LIMIT, NAME, WRITES};

/// The tests count writes in one counter: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// A fresh directory for `name`.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mnemo-log-buffer-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A store opened as the component opens one.
fn open(path: &Path) -> Connection {
    register().unwrap();
    let conn = Connection::open_with_flags_and_vfs(path, OpenFlags::default(), NAME).unwrap();
    conn.execute_batch(
        "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
         CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT);
         CREATE INDEX IF NOT EXISTS t_body ON t (body);",
    )
    .unwrap();
    conn
}

/// Inserts `n` rows of about 1 KB from `first` in one transaction.
fn insert(conn: &mut Connection, first: i64, n: i64) {
    let tx = conn.transaction().unwrap();
    for i in first..first + n {
        tx.execute(
            "INSERT INTO t (id, body) VALUES (?1, ?2)",
            (i, format!("{i:08}").repeat(120)),
        )
        .unwrap();
    }
    tx.commit().unwrap();
}

/// The rows and integrity of a copy of the store and its log, opened without this VFS, as
/// another process would find them after a crash.
fn copy_reads(from: &Path, name: &str) -> i64 {
    let to = dir(name);
    for f in ["s.db", "s.db-wal"] {
        if from.join(f).exists() {
            std::fs::copy(from.join(f), to.join(f)).unwrap();
        }
    }
    let copy = Connection::open(to.join("s.db")).unwrap();
    let ok: String = copy
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let n = copy
        .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
        .unwrap();
    drop(copy);
    std::fs::remove_dir_all(to).unwrap();
    n
}

#[test]
fn a_commit_writes_its_log_once_and_is_in_the_file_when_it_answers() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let d = dir("commit");
    let mut conn = open(&d.join("s.db"));
    insert(&mut conn, 0, 10);
    let before = WRITES.load(Ordering::Relaxed);
    // About 16 pages of 4 KiB (rows and index): 32 calls to write their frames without the
    // buffer.
    insert(&mut conn, 100, 30);
    assert_eq!(
        WRITES.load(Ordering::Relaxed) - before,
        1,
        "one write for the commit's frames"
    );
    // Nothing closed or checkpointed: the copy holds both commits, whole.
    assert_eq!(copy_reads(&d, "commit-copy"), 40);
    drop(conn);
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn commits_larger_than_the_limit_rollbacks_and_checkpoints_keep_every_row() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let d = dir("large");
    let mut conn = open(&d.join("s.db"));
    let before = WRITES.load(Ordering::Relaxed);
    // About 2.5 MB of rows: the held writes reach the limit and go out in parts, each at most
    // the limit, and less than a tenth of the calls the frames would make one by one.
    insert(&mut conn, 0, 2_000);
    let writes = WRITES.load(Ordering::Relaxed) - before;
    let frames: i64 = conn
        .query_row("PRAGMA page_count", [], |r| r.get(0))
        .unwrap();
    assert!(
        writes >= 2_000 * 1_000 / LIMIT && (writes as i64) < frames * 2 / 10,
        "{writes} writes, {frames} pages"
    );
    // A rolled-back transaction leaves nothing, and the next commit writes after it.
    {
        let tx = conn.transaction().unwrap();
        tx.execute("INSERT INTO t (id, body) VALUES (-1, 'gone')", [])
            .unwrap();
        tx.rollback().unwrap();
    }
    insert(&mut conn, 5_000, 50);
    assert_eq!(copy_reads(&d, "large-copy"), 2_050);
    // A checkpoint reads the log back into the store, each frame from the copy in memory.
    let copied = COPY_READS.load(Ordering::Relaxed);
    let frames: i64 = conn
        .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get(2))
        .unwrap();
    assert!(frames > 0);
    assert!(
        (COPY_READS.load(Ordering::Relaxed) - copied) as i64 >= frames,
        "{frames} frames copied back, read from the copy"
    );
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    insert(&mut conn, 9_000, 5);
    assert_eq!(copy_reads(&d, "large-checkpointed"), 2_055);
    // Closed and reopened through the VFS: every row, and the index agrees.
    drop(conn);
    let conn = open(&d.join("s.db"));
    let n: i64 = conn
        .query_row("SELECT count(*) FROM t WHERE body > ''", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 2_055);
    drop(conn);
    std::fs::remove_dir_all(d).unwrap();
}

#[test]
fn a_log_left_by_a_crash_is_read_from_the_file_and_then_kept() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let d = dir("crash");
    let mut conn = open(&d.join("s.db"));
    insert(&mut conn, 0, 300);
    // The files as a crash leaves them: the rows only in the log.
    let image = dir("crash-image");
    for f in ["s.db", "s.db-wal"] {
        std::fs::copy(d.join(f), image.join(f)).unwrap();
    }
    drop(conn);
    // Opened through the VFS, nothing of that log is in a copy: it is read from the file,
    // appended to, checkpointed, and every row is there, the index agreeing.
    let mut conn = open(&image.join("s.db"));
    insert(&mut conn, 1_000, 20);
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    insert(&mut conn, 2_000, 5);
    let n: i64 = conn
        .query_row("SELECT count(*) FROM t WHERE body > ''", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 325);
    assert_eq!(copy_reads(&image, "crash-copy"), 325);
    drop(conn);
    std::fs::remove_dir_all(d).unwrap();
    std::fs::remove_dir_all(image).unwrap();
}

#[test]
fn the_copy_holds_only_bytes_the_file_holds() {
    let mut h = Held {
        start: 0,
        bytes: Vec::new(),
        copy: Vec::new(),
    };
    // A write beyond the copy's end leaves a gap nothing is known of: not kept.
    h.copy_write(10, b"late");
    assert_eq!(h.copied(10, 4), None);
    h.copy_write(0, b"header");
    h.copy_write(6, b"-frame");
    assert_eq!(h.copied(0, 12), Some(&b"header-frame"[..]));
    // Overwritten in place, and past the end in one write.
    h.copy_write(4, b"ER-FRAMES");
    assert_eq!(h.copied(0, 13), Some(&b"headER-FRAMES"[..]));
    assert_eq!(h.copied(10, 4), None, "past the end");
    assert_eq!(h.copied(-1, 1), None);
    assert_eq!(h.copied(i64::MAX, 1), None);
    // A failed write or a truncation forgets from there.
    h.forget_from(6);
    assert_eq!(h.copied(0, 6), Some(&b"headER"[..]));
    assert_eq!(h.copied(0, 7), None);
    // Never more than the limit, whatever is written.
    let big = vec![7u8; COPY_LIMIT + 100];
    h.copy_write(0, &big);
    assert_eq!(h.copy.len(), COPY_LIMIT);
    h.copy_write(COPY_LIMIT as i64, b"more");
    assert_eq!(h.copy.len(), COPY_LIMIT);
    assert_eq!(h.copied(COPY_LIMIT as i64 - 1, 1), Some(&[7u8][..]));
}
