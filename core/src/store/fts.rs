//! `mnemo_bm25`, the FTS5 rank function of text search: FTS5's own `bm25()` (same formula,
//! constants and column weights, so the same scores), weighing only the phrases of the
//! question.
//!
//! A search's MATCH also names the owner (`owner:…`) and the archived flag. Those phrases sit
//! in columns of weight 0 and add nothing to a score, but the built-in `bm25()` still counts
//! the rows of every phrase to find its rarity: one pass over the owner's whole posting list
//! per search, which was a fifth of a search over 3,000 memories and grows with the owner.
//! `mnemo_bm25(memories_fts, first, end)` counts only phrases `first .. end`. Its logarithm
//! is the portable one ([`crate::math::ln`]), so every target computes the same bits.
//!
//! BM25 divides by each matching row's length, which FTS5 reads from its `docsize` table: a
//! lookup per row, a third of a text search. [`RowLengths`] keeps the lengths read, per
//! connection. SQLite's update hook forgets a row's length whenever its `docsize` row is
//! written (insert, update, delete, triggers included), a length read inside a transaction
//! that has written is not kept (a rollback could undo what it saw), and a commit by another
//! connection (`PRAGMA data_version`) forgets them all.
//!
//! FTS5 takes rank functions only through its C API, which rusqlite does not wrap: this is
//! the crate's one module of `unsafe` code.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr;
use std::sync::Mutex;

use rusqlite::ffi::{self, Fts5Context, Fts5ExtensionApi};
use rusqlite::Connection;

use crate::error::Result;

/// BM25's term-frequency saturation (FTS5's `k1`).
const K1: f64 = 1.2;
/// BM25's length normalisation (FTS5's `b`).
const B: f64 = 0.75;
/// Weight of a match in each column of `memories_fts`: content, tags, owner, flags.
const COLUMN_WEIGHTS: [f64; 4] = [1.0, 0.5, 0.0, 0.0];

/// Lengths are kept for row ids below this (16 MB at most); a row with a higher id, or of
/// 65,535 tokens or more, has its length read from `docsize` each time.
const MAX_KEPT_ROWID: usize = 1 << 23;

/// The token counts of rows `mnemo_bm25` has read, for one connection.
struct RowLengths {
    db: *mut ffi::sqlite3,
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    /// By row id: 1 + the row's tokens in all columns, 0 when not kept. Indexed rather than
    /// hashed: FTS5 visits a query's rows in id order, so the reads go forward through memory
    /// (a hash map's random probes were half of `mnemo_bm25`'s time).
    tokens: Vec<u16>,
    /// `PRAGMA data_version` when the lengths were read (another connection's commit moves it).
    data_version: i64,
}

impl Kept {
    fn get(&self, rowid: i64) -> Option<i64> {
        let kept = *self.tokens.get(usize::try_from(rowid).ok()?)?;
        (kept != 0).then(|| i64::from(kept) - 1)
    }

    fn keep(&mut self, rowid: i64, tokens: i64) {
        let (Ok(i), Ok(kept)) = (usize::try_from(rowid), u16::try_from(tokens + 1)) else {
            return;
        };
        if i < MAX_KEPT_ROWID && kept != 0 {
            if i >= self.tokens.len() {
                self.tokens.resize(i + 1, 0);
            }
            self.tokens[i] = kept;
        }
    }

    fn forget(&mut self, rowid: i64) {
        if let Some(kept) = usize::try_from(rowid)
            .ok()
            .and_then(|i| self.tokens.get_mut(i))
        {
            *kept = 0;
        }
    }
}

impl RowLengths {
    fn kept(&self) -> std::sync::MutexGuard<'_, Kept> {
        // A panic while holding the lock leaves only a map of lengths behind: still usable.
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Makes `mnemo_bm25` available on `conn`.
pub(crate) fn register(conn: &Connection) -> Result<()> {
    // SAFETY: `conn.handle()` is a live connection for this call; the statement is finalised
    // before returning, and FTS5 writes the API pointer (valid for the connection's life)
    // into `api` while it steps.
    unsafe {
        let db = conn.handle();
        let stmt = statement(db, c"SELECT fts5(?1)")
            .map_err(|rc| failure(rc, "preparing the FTS5 API lookup"))?;
        let mut api: *mut ffi::fts5_api = ptr::null_mut();
        ffi::sqlite3_bind_pointer(
            stmt,
            1,
            ptr::addr_of_mut!(api).cast(),
            c"fts5_api_ptr".as_ptr(),
            None,
        );
        ffi::sqlite3_step(stmt);
        ffi::sqlite3_finalize(stmt);
        let Some(create) = api.as_ref().and_then(|a| a.xCreateFunction) else {
            return Err(failure(ffi::SQLITE_ERROR, "this SQLite has no FTS5"));
        };
        // The lengths live as long as the function: FTS5 frees them (`free_lengths`) as the
        // connection closes, after its last write, so the update hook never outlives them.
        let lengths = Box::into_raw(Box::new(RowLengths {
            db,
            kept: Mutex::default(),
        }));
        let rc = create(
            api,
            c"mnemo_bm25".as_ptr(),
            lengths.cast(),
            Some(mnemo_bm25),
            Some(free_lengths),
        );
        if rc != ffi::SQLITE_OK {
            drop(Box::from_raw(lengths));
            return Err(failure(rc, "registering mnemo_bm25"));
        }
        ffi::sqlite3_update_hook(db, Some(row_written), lengths.cast());
    }
    Ok(())
}

/// SQLite's update hook: a row of a `docsize` table was written, so its length may have changed.
unsafe extern "C" fn row_written(
    lengths: *mut c_void,
    _op: c_int,
    _db: *const c_char,
    table: *const c_char,
    rowid: ffi::sqlite3_int64,
) {
    // SAFETY: `lengths` is the `RowLengths` registered with the hook, alive until the
    // connection closes; `table` is a NUL-terminated name for the call.
    unsafe {
        if CStr::from_ptr(table).to_bytes().ends_with(b"_docsize") {
            (*lengths.cast::<RowLengths>()).kept().forget(rowid);
        }
    }
}

/// Frees a connection's `RowLengths` when FTS5 drops `mnemo_bm25`.
unsafe extern "C" fn free_lengths(p: *mut c_void) {
    if !p.is_null() {
        // SAFETY: `p` came from `Box::into_raw` in `register`, and FTS5 frees it once.
        drop(unsafe { Box::from_raw(p.cast::<RowLengths>()) });
    }
}

/// A statement of `sql` on `db`, for the caller to step and finalise.
unsafe fn statement(
    db: *mut ffi::sqlite3,
    sql: &CStr,
) -> std::result::Result<*mut ffi::sqlite3_stmt, c_int> {
    let mut stmt = ptr::null_mut();
    // SAFETY: the caller passes a live connection; `sql` is NUL-terminated.
    let rc = unsafe { ffi::sqlite3_prepare_v2(db, sql.as_ptr(), -1, &mut stmt, ptr::null_mut()) };
    if rc == ffi::SQLITE_OK {
        Ok(stmt)
    } else {
        Err(rc)
    }
}

/// The connection's `PRAGMA data_version`: it moves when another connection commits.
unsafe fn data_version(db: *mut ffi::sqlite3) -> std::result::Result<i64, c_int> {
    // SAFETY: `db` is the live connection `mnemo_bm25` runs on; the statement is finalised.
    unsafe {
        let stmt = statement(db, c"PRAGMA data_version")?;
        let version = if ffi::sqlite3_step(stmt) == ffi::SQLITE_ROW {
            Ok(ffi::sqlite3_column_int64(stmt, 0))
        } else {
            Err(ffi::sqlite3_errcode(db))
        };
        ffi::sqlite3_finalize(stmt);
        version
    }
}

fn failure(rc: c_int, what: &str) -> crate::Error {
    rusqlite::Error::SqliteFailure(ffi::Error::new(rc), Some(what.to_string())).into()
}

/// What one query's rows share: the average row length and each phrase's rarity (0 for the
/// phrases not weighed), plus a buffer for a row's term frequencies.
struct Query {
    /// The weighed phrases: `first .. end`.
    first: c_int,
    end: c_int,
    avgdl: f64,
    idf: Vec<f64>,
    freq: Vec<f64>,
}

/// The function FTS5 calls for each matching row (`mnemo_bm25(memories_fts, first, end)`).
unsafe extern "C" fn mnemo_bm25(
    api: *const Fts5ExtensionApi,
    fts: *mut Fts5Context,
    ctx: *mut ffi::sqlite3_context,
    n: c_int,
    args: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: FTS5 passes a valid API, context and `n` argument values.
    let result = unsafe {
        let arg = |i: c_int| (i < n).then(|| ffi::sqlite3_value_int(*args.add(i as usize)));
        score(&*api, fts, arg(0), arg(1))
    };
    // SAFETY: `ctx` is the call's result context.
    unsafe {
        match result {
            Ok(s) => ffi::sqlite3_result_double(ctx, s),
            Err(rc) => ffi::sqlite3_result_error_code(ctx, rc),
        }
    }
}

/// Calls an FTS5 API function, turning its status into a `Result`.
macro_rules! call {
    ($api:expr, $f:ident, $($arg:expr),*) => {{
        let f = $api.$f.ok_or(ffi::SQLITE_ERROR)?;
        let rc = f($($arg),*);
        if rc != ffi::SQLITE_OK {
            return Err(rc);
        }
    }};
}

/// The row's BM25 over phrases `first .. end` (all of them when not given), as FTS5's
/// `-bm25()` would give it.
unsafe fn score(
    api: &Fts5ExtensionApi,
    fts: *mut Fts5Context,
    first: Option<c_int>,
    end: Option<c_int>,
) -> std::result::Result<f64, c_int> {
    // SAFETY (whole body): `fts` is the live context of this row; the aux data is a `Query`
    // this function boxed for this query, freed by FTS5 through `free_query` when it ends.
    unsafe {
        let get = api.xGetAuxdata.ok_or(ffi::SQLITE_ERROR)?;
        let mut query = get(fts, 0).cast::<Query>();
        if query.is_null() {
            let q = Box::into_raw(Box::new(prepare(api, fts, first, end)?));
            let set = api.xSetAuxdata.ok_or(ffi::SQLITE_ERROR)?;
            let rc = set(fts, q.cast(), Some(free_query));
            if rc != ffi::SQLITE_OK {
                // FTS5 has already freed it through `free_query`.
                return Err(rc);
            }
            query = q;
        }
        let q = &mut *query;
        // Only the weighed phrases' positions are read: the owner's phrase is in every row,
        // and `xInstCount` would decode its positions (and the flags') for each one.
        let next = api.xPhraseNext.ok_or(ffi::SQLITE_ERROR)?;
        for phrase in q.first..q.end {
            let mut f = 0.0;
            let mut iter = ffi::Fts5PhraseIter {
                a: ptr::null(),
                b: ptr::null(),
            };
            let (mut column, mut offset) = (0, 0);
            call!(
                api,
                xPhraseFirst,
                fts,
                phrase,
                &mut iter,
                &mut column,
                &mut offset
            );
            while column >= 0 {
                f += COLUMN_WEIGHTS.get(column as usize).copied().unwrap_or(1.0);
                next(fts, &mut iter, &mut column, &mut offset);
            }
            q.freq[phrase as usize] = f;
        }
        let d = row_length(api, fts)? as f64;
        let mut score = 0.0;
        for (idf, f) in q.idf.iter().zip(&q.freq) {
            score += idf * ((f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * d / q.avgdl)));
        }
        Ok(score)
    }
}

/// The row's tokens in all columns: kept from an earlier read, else read from `docsize`
/// (and kept, unless this transaction has written).
unsafe fn row_length(
    api: &Fts5ExtensionApi,
    fts: *mut Fts5Context,
) -> std::result::Result<i64, c_int> {
    // SAFETY: as in `score`; the user data is the connection's `RowLengths` (`register`).
    unsafe {
        let lengths = api.xUserData.ok_or(ffi::SQLITE_ERROR)?(fts).cast::<RowLengths>();
        let lengths = lengths.as_ref();
        let rowid = api.xRowid.ok_or(ffi::SQLITE_ERROR)?(fts);
        if let Some(tokens) = lengths.and_then(|l| l.kept().get(rowid)) {
            return Ok(tokens);
        }
        let mut tokens = 0;
        call!(api, xColumnSize, fts, -1, &mut tokens);
        if let Some(lengths) =
            lengths.filter(|l| ffi::sqlite3_txn_state(l.db, ptr::null()) != ffi::SQLITE_TXN_WRITE)
        {
            lengths.kept().keep(rowid, tokens.into());
        }
        Ok(tokens.into())
    }
}

/// Counts the rows of each weighed phrase (their rarity) and the average row length.
unsafe fn prepare(
    api: &Fts5ExtensionApi,
    fts: *mut Fts5Context,
    first: Option<c_int>,
    end: Option<c_int>,
) -> std::result::Result<Query, c_int> {
    // SAFETY: as in `score`.
    unsafe {
        let phrases = api.xPhraseCount.ok_or(ffi::SQLITE_ERROR)?(fts).max(0);
        let (first, end) = (
            first.unwrap_or(0).max(0),
            end.unwrap_or(phrases).min(phrases),
        );
        // Another connection's commit may have changed any row: forget every length kept.
        if let Some(lengths) = api.xUserData.ok_or(ffi::SQLITE_ERROR)?(fts)
            .cast::<RowLengths>()
            .as_ref()
        {
            let version = data_version(lengths.db)?;
            let mut kept = lengths.kept();
            if kept.data_version != version {
                kept.tokens.clear();
                kept.data_version = version;
            }
        }
        let (mut rows, mut tokens) = (0i64, 0i64);
        call!(api, xRowCount, fts, &mut rows);
        call!(api, xColumnTotalSize, fts, -1, &mut tokens);
        let mut idf = vec![0.0; phrases as usize];
        for i in first..end {
            let mut hits = 0i64;
            call!(
                api,
                xQueryPhrase,
                fts,
                i,
                ptr::addr_of_mut!(hits).cast(),
                Some(count_row)
            );
            let (n, h) = (rows as f64, hits as f64);
            let x = crate::math::ln((n - h + 0.5) / (h + 0.5));
            idf[i as usize] = if x <= 0.0 { 1e-6 } else { x };
        }
        Ok(Query {
            first,
            end: end.max(first),
            avgdl: tokens as f64 / rows as f64,
            freq: vec![0.0; idf.len()],
            idf,
        })
    }
}

/// `xQueryPhrase`'s callback: one more row holds the phrase.
unsafe extern "C" fn count_row(
    _api: *const Fts5ExtensionApi,
    _fts: *mut Fts5Context,
    hits: *mut c_void,
) -> c_int {
    // SAFETY: `prepare` passes a live `i64`.
    unsafe { *hits.cast::<i64>() += 1 };
    ffi::SQLITE_OK
}

/// Frees a query's `Query` when FTS5 is done with it.
unsafe extern "C" fn free_query(p: *mut c_void) {
    if !p.is_null() {
        // SAFETY: `p` came from `Box::into_raw` in `score`, and FTS5 frees it once.
        drop(unsafe { Box::from_raw(p.cast::<Query>()) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `mnemo_bm25` gives FTS5's `-bm25()` with Mnemo's column weights, whatever the owner
    /// and flag phrases around the question, and leaves the match itself to FTS5.
    /// Every row's score over "garden" from `mnemo_bm25` (with the lengths it keeps) and
    /// from FTS5's own `bm25()` (which reads them each time), by row.
    fn garden_scores(conn: &Connection) -> Vec<(i64, f64, f64)> {
        conn.prepare(
            "SELECT rowid, mnemo_bm25(t, 0, 1), -bm25(t, 1.0, 0.5, 0.0, 0.0) FROM t \
             WHERE t MATCH 'garden' ORDER BY rowid",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
    }

    fn assert_scores_follow(conn: &Connection, when: &str) {
        let scores = garden_scores(conn);
        assert!(!scores.is_empty(), "{when}");
        for (rowid, ours, fts5) in scores {
            assert!(
                (ours - fts5).abs() <= 1e-12 * fts5.abs(),
                "{when}: row {rowid}: {ours} against {fts5}"
            );
        }
    }

    /// The row lengths `mnemo_bm25` keeps follow every change to a row: updates, deletes,
    /// a row id used again, writes rolled back (whole transactions and savepoints, after
    /// scoring inside them), and another connection's commits.
    #[test]
    fn kept_row_lengths_follow_every_change() {
        let path = std::env::temp_dir().join(format!(
            "mnemo-fts-lengths-{}-{:?}.db",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_file(&path);
        let conn = Connection::open(&path).unwrap();
        register(&conn).unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE t USING fts5(content, tags, owner, flags, \
             tokenize='porter unicode61 remove_diacritics 2');",
        )
        .unwrap();
        for i in 1..=12i64 {
            let content = format!("garden {}", "word ".repeat(i as usize));
            conn.execute(
                "INSERT INTO t (rowid, content, tags, owner, flags) VALUES (?1, ?2, '', 'oa', '')",
                rusqlite::params![i, content],
            )
            .unwrap();
        }
        assert_scores_follow(&conn, "first read");
        assert_scores_follow(&conn, "lengths kept");
        let set = |rowid: i64, content: &str| {
            conn.execute(
                "UPDATE t SET content = ?2 WHERE rowid = ?1",
                rusqlite::params![rowid, content],
            )
            .unwrap();
        };
        set(3, "garden");
        assert_scores_follow(&conn, "a row made shorter");
        conn.execute("DELETE FROM t WHERE rowid = 4", []).unwrap();
        conn.execute(
            "INSERT INTO t (rowid, content, tags, owner, flags) \
             VALUES (4, 'garden and a great many more words than before', 'garden tags', 'oa', '')",
            [],
        )
        .unwrap();
        assert_scores_follow(&conn, "a row id used again");
        conn.execute_batch("BEGIN").unwrap();
        set(5, "garden garden garden and many more words too");
        assert_scores_follow(&conn, "inside a transaction that wrote");
        conn.execute_batch("ROLLBACK").unwrap();
        assert_scores_follow(&conn, "after its rollback");
        conn.execute_batch("BEGIN; SAVEPOINT s;").unwrap();
        set(6, "garden");
        assert_scores_follow(&conn, "inside a savepoint");
        conn.execute_batch("ROLLBACK TO s; RELEASE s; COMMIT;")
            .unwrap();
        assert_scores_follow(&conn, "after the savepoint's rollback");
        let other = Connection::open(&path).unwrap();
        other
            .execute(
                "UPDATE t SET content = 'garden garden, said by another connection' WHERE rowid = 7",
                [],
            )
            .unwrap();
        drop(other);
        assert_scores_follow(&conn, "after another connection's commit");
        drop(conn);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn mnemo_bm25_scores_as_fts5_bm25_does() {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn).unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE t USING fts5(content, tags, owner, flags, \
             tokenize='porter unicode61 remove_diacritics 2');",
        )
        .unwrap();
        let rows = [
            (
                "the garden needs water every garden day",
                "garden",
                "oa",
                "",
            ),
            ("I paid the invoice for the garden shed", "money", "oa", ""),
            ("the piano tuner comes on Tuesday", "", "oa", "archived"),
            ("my garden in Porto has lemon trees", "", "ob", ""),
            (
                "a long note about nothing much at all, and then the garden, briefly",
                "",
                "oa",
                "",
            ),
        ];
        for (i, (content, tags, owner, flags)) in rows.iter().enumerate() {
            conn.execute(
                "INSERT INTO t (rowid, content, tags, owner, flags) VALUES (?1, ?2, ?3, ?4, ?5)",
                rusqlite::params![i as i64 + 1, content, tags, owner, flags],
            )
            .unwrap();
        }
        for (query, terms) in [
            ("owner:oa AND (\"garden\")", 1),
            ("owner:oa AND (\"garden\" OR \"invoice\")", 2),
            (
                "(owner:oa AND (\"garden\" OR \"piano\")) NOT flags:archived",
                2,
            ),
            ("owner:ob AND (\"lemon\" OR \"garden\" OR \"nothing\")", 3),
        ] {
            let both: Vec<(i64, f64, f64)> = conn
                .prepare(
                    "SELECT rowid, mnemo_bm25(t, 1, ?2), -bm25(t, 1.0, 0.5, 0.0, 0.0) FROM t \
                     WHERE t MATCH ?1 ORDER BY rowid",
                )
                .unwrap()
                .query_map(rusqlite::params![query, terms + 1], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            assert!(!both.is_empty(), "{query}");
            for (rowid, ours, fts5) in both {
                assert!(ours > 0.0, "{query}: row {rowid}");
                assert!(
                    (ours - fts5).abs() <= 1e-12 * fts5.abs(),
                    "{query}: row {rowid}: {ours} against {fts5}"
                );
            }
        }
        // Weighing every phrase (no range) still scores as bm25 does: the owner's column
        // weighs nothing.
        let (ours, fts5): (f64, f64) = conn
            .query_row(
                "SELECT mnemo_bm25(t), -bm25(t, 1.0, 0.5, 0.0, 0.0) FROM t \
                 WHERE t MATCH 'owner:oa AND garden' AND rowid = 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert!((ours - fts5).abs() <= 1e-12 * fts5, "{ours} against {fts5}");
    }
}
