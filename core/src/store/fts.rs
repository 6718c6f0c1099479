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
//! FTS5 takes rank functions only through its C API, which rusqlite does not wrap: this is
//! the crate's one module of `unsafe` code.
#![allow(unsafe_code)]

use std::ffi::{c_int, c_void};
use std::ptr;

use rusqlite::ffi::{self, Fts5Context, Fts5ExtensionApi};
use rusqlite::Connection;

use crate::error::Result;

/// BM25's term-frequency saturation (FTS5's `k1`).
const K1: f64 = 1.2;
/// BM25's length normalisation (FTS5's `b`).
const B: f64 = 0.75;
/// Weight of a match in each column of `memories_fts`: content, tags, owner, flags.
const COLUMN_WEIGHTS: [f64; 4] = [1.0, 0.5, 0.0, 0.0];

/// Makes `mnemo_bm25` available on `conn`.
pub(crate) fn register(conn: &Connection) -> Result<()> {
    // SAFETY: `conn.handle()` is a live connection for this call; the statement is finalised
    // before returning, and FTS5 writes the API pointer (valid for the connection's life)
    // into `api` while it steps.
    unsafe {
        let db = conn.handle();
        let mut stmt = ptr::null_mut();
        let rc = ffi::sqlite3_prepare_v2(
            db,
            c"SELECT fts5(?1)".as_ptr(),
            -1,
            &mut stmt,
            ptr::null_mut(),
        );
        if rc != ffi::SQLITE_OK {
            return Err(failure(rc, "preparing the FTS5 API lookup"));
        }
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
        let rc = create(
            api,
            c"mnemo_bm25".as_ptr(),
            ptr::null_mut(),
            Some(mnemo_bm25),
            None,
        );
        if rc != ffi::SQLITE_OK {
            return Err(failure(rc, "registering mnemo_bm25"));
        }
    }
    Ok(())
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
        let mut tokens = 0;
        call!(api, xColumnSize, fts, -1, &mut tokens);
        let d = tokens as f64;
        let mut score = 0.0;
        for (idf, f) in q.idf.iter().zip(&q.freq) {
            score += idf * ((f * (K1 + 1.0)) / (f + K1 * (1.0 - B + B * d / q.avgdl)));
        }
        Ok(score)
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
