//! Transactions and read views over the store, and what the engine keeps in memory beside it.
//!
//! Beside the SQLite file the engine keeps each owner's vector set (for nearest-neighbour
//! scans), a generation per owner (search candidates cached at an older generation are
//! stale), and the accesses and co-recalls searches recorded but have not written yet. Every write goes
//! through a [`Tx`], which keeps all three in step with what it wrote, by one policy:
//!
//! - the memory rows it writes change the loaded vector sets as they go;
//! - when it commits, the accesses it wrote are done with, and the generation of every owner
//!   whose memories it wrote moves on;
//! - when it rolls back (an error, or dropped uncommitted), those owners' generations move on
//!   and their vector sets are dropped as well (reloaded from the store when next needed);
//!   the accesses it meant to write wait for the next transaction.
//!
//! A host serving many clients may run several calls in one *group* ([`Group`]): one outer
//! transaction, each call's transactions nested in it as savepoints, so the calls succeed or
//! fail on their own while the file is committed (and synced) once for all of them. Should
//! that one commit fail, every owner written in the group is treated as rolled back.
//!
//! No other code touches the vector sets, the generations or the pending accesses.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ops::{Deref, DerefMut};

use rusqlite::{Connection, Transaction, TransactionBehavior};

use super::hashes::OwnerHashes;
use super::memories;
use crate::clock::{check_time, Entropy, Millis};
use crate::decay::{self, RetentionConfig};
use crate::embed::{self, Embedder, Precision};
use crate::error::{Error, Result};
use crate::model::{Kind, Memory, State, Status, StatusChange, Tier};
use crate::order::Keyed;
use crate::text;
use crate::vectors::OwnerVectors;

/// Attempts at drawing an unused memory id before giving up.
const ID_ATTEMPTS: usize = 16;

/// A new memory's id: "mem_", 8 hex digits of the second it is made (the host's clock, from
/// 1970 to 2106), then 16 more. The time first makes a store's ids, and the unique index over
/// them, grow at one end: with random ids a batch of 1,000 writes into a store of 100k changed
/// hundreds of pages of that index, each read, journaled and written again at commit. The 16
/// digits start, in each second, at SHA-256 over the host's random draw and the row key the
/// memory will get, and count up from there for the ids made after it in the same second
/// (`last`: the last id made, as (second, tail)), so those grow at one end too. The random
/// start keeps ids apart across stores (an import keeps them) and within one, even for a host
/// that replays the same random sequence (a fixed seed, reopened).
pub(crate) fn memory_id(
    now: Millis,
    draw: u64,
    next_pk: i64,
    last: &mut Option<(i64, u64)>,
) -> String {
    let second = now.div_euclid(1000).clamp(0, u32::MAX as i64);
    let tail = match *last {
        Some((s, t)) if s == second && t < u64::MAX => t + 1,
        _ => text::digest64(&[], &[draw as i64, next_pk]),
    };
    *last = Some((second, tail));
    let digits = u32::try_from(second).unwrap_or(u32::MAX).to_be_bytes();
    format!(
        "mem_{}{}",
        text::hex(&digits),
        text::hex(&tail.to_be_bytes())
    )
}

/// Accesses of one memory (or co-recalls of a pair) recorded by searches and not yet written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pending {
    pub count: i64,
    pub at: Millis,
}

/// The savepoint a transaction nested in a group runs in.
const SAVEPOINT: &str = "mnemo_call";

/// What the engine keeps in memory beside the store (see the module documentation).
#[derive(Debug, Default)]
pub(crate) struct Derived {
    vectors: HashMap<String, OwnerVectors>,
    /// Each loaded owner's content hashes (the exact-duplicate lookup).
    hashes: HashMap<String, OwnerHashes>,
    generations: HashMap<String, u64>,
    /// Accesses not yet written, by memory key (with the owner, to read the rows back).
    accesses: Keyed<i64, (String, Pending)>,
    /// Co-recalls not yet written, by pair of memory keys (lower first).
    co_recalls: BTreeMap<(i64, i64), Pending>,
    /// Owners written by the nested transactions of an open group: undone should the group's
    /// commit fail.
    grouped: BTreeSet<String>,
    /// The last memory id made, as (second, tail) ([`memory_id`]).
    last_id: Option<(i64, u64)>,
}

impl Derived {
    /// How many memories have accesses, and how many pairs of memories co-recalls, waiting to
    /// be written.
    pub fn pending_count(&self) -> (usize, usize) {
        (self.accesses.len(), self.co_recalls.len())
    }

    /// Forgets every loaded vector set and hash map and moves every known owner's generation
    /// on.
    pub fn invalidate_all(&mut self) {
        self.vectors.clear();
        self.hashes.clear();
        self.generations.values_mut().for_each(|g| *g += 1);
    }

    /// Forgets what was loaded or cached of `owner` (its rows changed under it).
    fn invalidate(&mut self, owner: String) {
        self.vectors.remove(&owner);
        self.hashes.remove(&owner);
        *self.generations.entry(owner).or_insert(0) += 1;
    }
}

/// Begins the outer transaction of a group commit (see the module documentation): every
/// [`Tx`] until [`commit_group`] is nested in it. (Not a `Transaction` value: the store must
/// stay free to hand out its nested ones.)
pub(crate) fn begin_group(conn: &Connection) -> Result<()> {
    Ok(conn.execute_batch("BEGIN IMMEDIATE")?)
}

/// Commits a group: everything its transactions released; on failure nothing of it stays and
/// the owners they wrote are invalidated.
pub(crate) fn commit_group(conn: &Connection, derived: &mut Derived) -> Result<()> {
    let written = std::mem::take(&mut derived.grouped);
    let result = conn.execute_batch("COMMIT");
    if result.is_err() {
        if !conn.is_autocommit() {
            // Best effort: a failed rollback leaves SQLite's own (it rolls back on close).
            let _ = conn.execute_batch("ROLLBACK");
        }
        for owner in written {
            derived.invalidate(owner);
        }
    }
    Ok(result?)
}

/// How a [`Tx`] holds its transaction: its own, or a savepoint in a group's.
enum Inner<'s> {
    Own(Transaction<'s>),
    Nested(&'s Connection),
}

/// What a call runs with: its time, and the host's embedder and entropy; the retention
/// settings decide when a saved memory is next due for maintenance.
#[derive(Clone, Copy)]
pub(crate) struct Host<'s> {
    pub now: Millis,
    pub embedder: &'s dyn Embedder,
    pub entropy: &'s dyn Entropy,
    pub retention: &'s RetentionConfig,
    /// Who the call reads for.
    pub viewer: &'s super::viewer::Current,
}

/// Read access to the store at one moment: its rows, the owners' vector sets (loaded on first
/// use), and the accesses searches recorded.
pub(crate) struct View<'s> {
    conn: &'s Connection,
    derived: &'s mut Derived,
    host: Host<'s>,
}

impl<'s> View<'s> {
    pub(crate) fn new(conn: &'s Connection, derived: &'s mut Derived, host: Host<'s>) -> Self {
        View {
            conn,
            derived,
            host,
        }
    }

    /// The connection, for the SQL of the module asking.
    pub fn conn(&self) -> &'s Connection {
        self.conn
    }

    /// The time the call runs at (the host's clock, checked to be in range).
    pub fn now(&self) -> Result<Millis> {
        check_time("clock", self.host.now)?;
        Ok(self.host.now)
    }

    /// The retention settings.
    pub fn retention(&self) -> &'s RetentionConfig {
        self.host.retention
    }

    /// The embedder the store's vectors come from.
    pub fn embedder(&self) -> &dyn Embedder {
        self.host.embedder
    }

    /// The host's randomness.
    pub fn entropy(&self) -> &dyn Entropy {
        self.host.entropy
    }

    /// Who the call reads for: which memories it may see and change.
    pub fn viewer(&self) -> &'s super::viewer::Current {
        self.host.viewer
    }

    /// The vector for `text` (a question, a sentence): the caller's (checked and normalised),
    /// or the embedder's.
    pub fn vector_for(&self, text: &str, supplied: Option<&[f32]>) -> Result<Vec<f32>> {
        embed::vector_for(self.host.embedder, text, supplied)
    }

    /// The vector of a memory's `content` ([`embed::memory_vector`]: a transcript line's
    /// speaker has a fixed share of it).
    pub fn memory_vector(&self, content: &str, supplied: Option<&[f32]>) -> Result<Vec<f32>> {
        embed::memory_vector(self.host.embedder, content, supplied)
    }

    /// Memory `pk`'s stored vector (decoded, whatever its precision).
    pub fn embedding(&self, pk: i64) -> Result<Option<Vec<f32>>> {
        let dim = self.host.embedder.dimension();
        Ok(memories::embedding(self.conn, pk, dim)?.map(|(v, _)| v))
    }

    /// `owner`'s vector set, loaded from the store on first use.
    pub fn vectors(&mut self, owner: &str) -> Result<&OwnerVectors> {
        if !self.derived.vectors.contains_key(owner) {
            let dim = self.host.embedder.dimension();
            let mut set = OwnerVectors::new(dim);
            let stored: Vec<_> = memories::vectors(self.conn, owner, dim)?
                .into_iter()
                .filter(|s| s.vector.len() == dim)
                .collect();
            set.extend(stored.iter().map(|s| (s.pk, &s.vector, s.precision)));
            for s in &stored {
                set.set_cold(s.pk, s.cold);
                set.set_said(s.pk, s.said);
            }
            self.derived.vectors.insert(owner.to_string(), set);
        }
        Ok(&self.derived.vectors[owner])
    }

    /// A live (not deleted) memory of `owner` with this content hash, if any (the oldest).
    #[cfg(test)]
    pub fn by_hash(&mut self, owner: &str, hash: &str) -> Result<Option<(i64, Memory)>> {
        self.by_hash_where(owner, hash, |_| true)
    }

    /// [`View::by_hash`] among the memories `keep` accepts.
    pub fn by_hash_where(
        &mut self,
        owner: &str,
        hash: &str,
        keep: impl Fn(&Memory) -> bool,
    ) -> Result<Option<(i64, Memory)>> {
        if !self.derived.hashes.contains_key(owner) {
            let loaded = OwnerHashes::load(self.conn, owner)?;
            self.derived.hashes.insert(owner.to_string(), loaded);
        }
        let pks = self.derived.hashes[owner].candidates(hash);
        Ok(memories::by_pks(self.conn, owner, &pks)?
            .into_iter()
            .find(|(_, m)| m.content_hash == hash && m.state != State::Deleted && keep(m)))
    }

    /// The generation of `owner`: it moves on whenever a transaction writes its memories.
    pub fn generation(&self, owner: &str) -> u64 {
        self.derived.generations.get(owner).copied().unwrap_or(0)
    }

    /// Accesses recorded for memory `pk` and not written yet.
    pub fn pending(&self, pk: i64) -> Option<Pending> {
        self.derived.accesses.get(&pk).map(|(_, p)| *p)
    }

    /// Records one access of `owner`'s memory `pk` at the call's time (written by the next
    /// transaction).
    pub fn record_access(&mut self, owner: &str, pk: i64) -> Result<()> {
        let now = self.now()?;
        let (_, p) = self
            .derived
            .accesses
            .or_insert_with(pk, || (owner.to_string(), Pending { count: 0, at: now }));
        p.count += 1;
        p.at = p.at.max(now);
        Ok(())
    }

    /// Records that a search returned `pks` together, best first (written by the next
    /// transaction as co-recall links).
    pub fn record_co_recall(&mut self, pks: &[i64]) -> Result<()> {
        let now = self.now()?;
        for pair in super::links::pairs(pks) {
            let p = self
                .derived
                .co_recalls
                .entry(pair)
                .or_insert(Pending { count: 0, at: now });
            p.count += 1;
            p.at = p.at.max(now);
        }
        Ok(())
    }

    /// Recomputes the fields that follow from memory `pk`'s others at the call's time (layer
    /// and tier), as a read shows them.
    pub fn refresh(&self, pk: i64, m: &mut Memory) -> Result<()> {
        decay::refresh(m, self.now()?, self.host.retention, || {
            super::links::count(self.conn, pk)
        })
    }
}

/// A write transaction (BEGIN IMMEDIATE). Memory rows are written through its methods, which
/// keep the loaded vector sets in step; other tables through [`View::conn`]. Commit with
/// [`Tx::commit`]; dropped uncommitted, it rolls back.
pub(crate) struct Tx<'s> {
    tx: Option<Inner<'s>>,
    view: View<'s>,
    /// Owners whose memory rows this transaction wrote.
    written: BTreeSet<String>,
    /// Memories inserted whose text-index rows wait for [`Tx::index_text`] (while
    /// [`Tx::defer_text`] is on; written before any other change to a memory, and at commit).
    unindexed: Option<Vec<i64>>,
}

impl<'s> Deref for Tx<'s> {
    type Target = View<'s>;
    fn deref(&self) -> &View<'s> {
        &self.view
    }
}

impl<'s> DerefMut for Tx<'s> {
    fn deref_mut(&mut self) -> &mut View<'s> {
        &mut self.view
    }
}

impl<'s> Tx<'s> {
    /// Begins a transaction and writes the accesses searches recorded.
    pub(crate) fn begin(
        conn: &'s Connection,
        derived: &'s mut Derived,
        host: Host<'s>,
    ) -> Result<Tx<'s>> {
        // `new_unchecked` takes a shared connection: the store hands out one transaction at a
        // time (it needs `&mut` to), so transactions nest only in a group's.
        let tx = if conn.is_autocommit() {
            Inner::Own(Transaction::new_unchecked(
                conn,
                TransactionBehavior::Immediate,
            )?)
        } else {
            conn.execute_batch(&format!("SAVEPOINT {SAVEPOINT}"))?;
            Inner::Nested(conn)
        };
        let mut tx = Tx {
            tx: Some(tx),
            view: View::new(conn, derived, host),
            written: BTreeSet::new(),
            unindexed: None,
        };
        tx.write_accesses()?;
        Ok(tx)
    }

    /// Commits. On failure the transaction rolls back (with the policy above).
    pub fn commit(mut self) -> Result<()> {
        self.index_text()?;
        let tx = self
            .tx
            .take()
            .ok_or_else(|| Error::bug("a transaction was committed after it finished"))?;
        let (committed, nested) = match tx {
            Inner::Own(tx) => (tx.commit(), false),
            Inner::Nested(conn) => {
                let released = conn.execute_batch(&format!("RELEASE {SAVEPOINT}"));
                if released.is_err() {
                    Inner::Nested(conn).roll_back();
                }
                (released, true)
            }
        };
        match committed {
            Ok(()) => {
                self.view.derived.accesses.clear();
                self.view.derived.co_recalls.clear();
                if nested {
                    let written = self.written.iter().cloned();
                    self.view.derived.grouped.extend(written);
                }
                self.finish(false);
                Ok(())
            }
            Err(e) => {
                self.finish(true);
                Err(e.into())
            }
        }
    }

    /// Keeps the derived state in step as the transaction ends.
    fn finish(&mut self, rolled_back: bool) {
        let derived = &mut *self.view.derived;
        for owner in std::mem::take(&mut self.written) {
            if rolled_back {
                derived.invalidate(owner);
            } else {
                *derived.generations.entry(owner).or_insert(0) += 1;
            }
        }
    }

    /// Writes the pending accesses (the rows are read back first, so nothing else is lost)
    /// and co-recalls.
    fn write_accesses(&mut self) -> Result<()> {
        let co_recalls: Vec<(i64, i64, i64, Millis)> = (self.view.derived.co_recalls.iter())
            .map(|(&(a, b), p)| (a, b, p.count, p.at))
            .collect();
        super::links::record(self.view.conn, &co_recalls)?;
        let pending = self.view.derived.accesses.clone();
        let mut by_owner: Keyed<String, Vec<i64>> = Keyed::new();
        for (pk, (owner, _)) in pending.iter() {
            by_owner.or_default(owner.clone()).push(*pk);
        }
        for (owner, pks) in by_owner {
            for (pk, mut m) in memories::by_pks(self.conn(), &owner, &pks)? {
                if let Some((_, p)) = pending.get(&pk) {
                    self.access(pk, &mut m, p.count, p.at)?;
                }
            }
        }
        Ok(())
    }

    /// Marks what a search finds of `owner` changed without a memory row changing (a
    /// passage's summary rewritten): its cached searches are emptied at commit.
    pub fn findings_changed(&mut self, owner: &str) {
        self.written(owner);
    }

    fn written(&mut self, owner: &str) {
        if !self.written.contains(owner) {
            self.written.insert(owner.to_string());
        }
    }

    /// The loaded vector set of `owner`, if it is loaded (an unloaded one is read from the
    /// store, this transaction's rows included, when next needed).
    fn loaded(&mut self, owner: &str) -> Option<&mut OwnerVectors> {
        self.view.derived.vectors.get_mut(owner)
    }

    /// Keeps the loaded hash map of `m`'s owner in step with row `pk` as `m` now is.
    fn sync_hash(&mut self, pk: i64, m: &Memory) {
        let moved = (self.view.derived.hashes.get_mut(&m.entity_id)).is_some_and(|h| h.set(pk, m));
        if moved {
            self.written(&m.entity_id);
        }
    }

    /// Records that `m` (row `pk`) was written with vector `v` stored at `precision`, which
    /// its owner's loaded set takes when `m` is searchable.
    fn indexed(&mut self, pk: i64, m: &Memory, v: &[f32], precision: Precision) {
        self.written(&m.entity_id);
        if memories::searchable(m) {
            if let Some(set) = self.loaded(&m.entity_id) {
                set.upsert(pk, v, precision);
                set.set_cold(pk, memories::cold(m));
                set.set_said(pk, m.created_at);
            }
        }
    }

    /// Keeps the loaded vector set of `m`'s owner in step with whether `m` is searchable.
    fn sync_vector(&mut self, pk: i64, m: &Memory) -> Result<()> {
        let searchable = memories::searchable(m);
        let missing = match self.loaded(&m.entity_id) {
            None => return Ok(()),
            Some(set) if !searchable => {
                set.remove(pk);
                return Ok(());
            }
            Some(set) => {
                set.set_cold(pk, memories::cold(m));
                set.set_said(pk, m.created_at);
                set.get(pk).is_none()
            }
        };
        if missing {
            let dim = self.view.host.embedder.dimension();
            if let Some((v, precision)) = memories::embedding(self.conn(), pk, dim)? {
                if let Some(set) = self.loaded(&m.entity_id) {
                    set.upsert(pk, &v, precision);
                    set.set_cold(pk, memories::cold(m));
                    set.set_said(pk, m.created_at);
                }
            }
        }
        Ok(())
    }

    /// Stores a new memory and its vector under a fresh id, which it sets ([`memory_id`]).
    /// Should an id be taken anyway, another is drawn.
    pub fn insert(&mut self, m: &mut Memory, vector: &[f32]) -> Result<i64> {
        let host = self.view.host;
        // A new memory has no links yet.
        let due = decay::settle(m, self.now()?, host.retention, || Ok(0))?;
        let mut inserted = None;
        for _ in 0..ID_ATTEMPTS {
            let next_pk = memories::next_pk(self.conn())?;
            let now = self.now()?;
            m.id = memory_id(
                now,
                host.entropy.next_u64(),
                next_pk,
                &mut self.view.derived.last_id,
            );
            match memories::insert(self.conn(), m, Some(vector), due) {
                Err(Error::Storage(rusqlite::Error::SqliteFailure(e, _)))
                    if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE =>
                {
                    // Taken: the next attempt starts afresh from a new draw.
                    self.view.derived.last_id = None;
                    continue;
                }
                other => {
                    inserted = Some(other?);
                    break;
                }
            }
        }
        let pk = inserted.ok_or_else(|| {
            Error::Internal(
                "the host's random source keeps repeating ids; a fault of the host's entropy, \
                 not of the call"
                    .into(),
            )
        })?;
        self.sync_hash(pk, m);
        self.index_text_of(pk)?;
        self.indexed(pk, m, vector, Precision::F32);
        Ok(pk)
    }

    /// Inserts from now on leave their text-index rows to [`Tx::index_text`], which writes
    /// them in one statement (a batch of writes: see the schema's last migration).
    pub fn defer_text(&mut self) {
        self.unindexed.get_or_insert_with(Vec::new);
    }

    /// Writes the text-index rows of the memories inserted since [`Tx::defer_text`] and stops
    /// deferring them.
    pub fn index_text(&mut self) -> Result<()> {
        self.index_waiting()?;
        self.unindexed = None;
        Ok(())
    }

    /// Writes the text-index rows waiting, and keeps deferring: a memory's row must be there
    /// before the memory changes (the update trigger rewrites it).
    fn index_waiting(&mut self) -> Result<()> {
        if let Some(pks) = self.unindexed.as_mut().filter(|p| !p.is_empty()) {
            let pks = std::mem::take(pks);
            memories::index_text(self.conn(), &pks)?;
        }
        Ok(())
    }

    /// The text-index row of a memory just inserted: now, or with the batch's.
    fn index_text_of(&mut self, pk: i64) -> Result<()> {
        match self.unindexed.as_mut() {
            Some(waiting) => {
                waiting.push(pk);
                Ok(())
            }
            None => memories::index_text(self.conn(), &[pk]),
        }
    }

    /// Stores a memory exactly as given — its id, layer and tier as they were (an import of an
    /// export); only when maintenance next looks at it is computed.
    pub fn restore(&mut self, m: &Memory, vector: Option<(&[f32], Precision)>) -> Result<i64> {
        let due = decay::next_due(m, self.now()?, self.retention());
        let pk = memories::insert(self.conn(), m, None, due)?;
        self.sync_hash(pk, m);
        self.index_text_of(pk)?;
        match vector {
            Some((v, precision)) => {
                let stored = memories::set_embedding(self.conn(), pk, v, precision)?;
                self.indexed(pk, m, &stored, precision)
            }
            None => self.written(&m.entity_id),
        }
        Ok(pk)
    }

    /// Writes back a memory whose fields changed (its layer, tier and next due time are
    /// recomputed first).
    pub fn update(&mut self, pk: i64, m: &mut Memory) -> Result<()> {
        self.index_waiting()?;
        let conn = self.conn();
        let tier = m.tier;
        let due = decay::settle(m, self.now()?, self.view.host.retention, || {
            super::links::count(conn, pk)
        })?;
        self.in_step(pk, m, tier)?;
        // Maintenance moves tiers and layers all day; only what a search finds moves the
        // owner's generation (and so empties its cached searches).
        let findings = memories::changes_findings(self.conn(), pk, m)?;
        memories::update(self.conn(), pk, m, due)?;
        if findings {
            self.written(&m.entity_id);
        }
        self.sync_hash(pk, m);
        self.sync_vector(pk, m)
    }

    /// [`Tx::update`] of a memory the caller edited: its `updated_at` becomes now.
    pub fn save(&mut self, pk: i64, m: &mut Memory) -> Result<()> {
        m.updated_at = self.now()?;
        self.update(pk, m)
    }

    /// Records `count` accesses of a memory at `at` and writes back what that changes: counts,
    /// last access time, a stale or archived memory revived, its layer and tier. A caller that
    /// changed other fields of `m` saves them ([`Tx::save`]).
    pub fn access(&mut self, pk: i64, m: &mut Memory, count: i64, at: Millis) -> Result<()> {
        self.access_settled(pk, m, count, at, at)
    }

    /// [`Tx::access`] of one use at `at`, which may lie in the past (a statement seeded with its
    /// own time said the memory again): its layer and tier are what they are now.
    pub fn said_again(&mut self, pk: i64, m: &mut Memory, at: Millis) -> Result<()> {
        let now = self.now()?;
        self.access_settled(pk, m, 1, at, now)
    }

    /// Records `count` accesses at `at`, then settles `m` at `settle_at`.
    fn access_settled(
        &mut self,
        pk: i64,
        m: &mut Memory,
        count: i64,
        at: Millis,
        settle_at: Millis,
    ) -> Result<()> {
        self.index_waiting()?;
        let (before, cold, tier) = (m.state, memories::cold(m), m.tier);
        decay::access(m, count, at);
        let conn = self.conn();
        let due = decay::settle(m, settle_at, self.view.host.retention, || {
            super::links::count(conn, pk)
        })?;
        self.in_step(pk, m, tier)?;
        memories::update_access(self.conn(), pk, m, due)?;
        // Counts and times do not change what a search finds; a revival does, and so does
        // leaving the archive tier.
        if m.state != before {
            self.written(&m.entity_id);
            self.sync_hash(pk, m);
        }
        if memories::cold(m) != cold {
            self.written(&m.entity_id);
            self.sync_vector(pk, m)?;
        }
        Ok(())
    }

    /// Keeps a document's passages in one tier, as the document is one memory: a passage
    /// settled into a hotter tier than it had (`was`) raises the others to it; one settled
    /// colder keeps the tier it had, which only tiering lowers, for the whole document at
    /// once ([`Tx::set_tier`]).
    fn in_step(&mut self, pk: i64, m: &mut Memory, was: Tier) -> Result<()> {
        if m.kind != Kind::Passage {
            return Ok(());
        }
        if m.tier > was {
            m.tier = was;
        } else if m.tier < was {
            let raised = memories::raise_document_tier(self.conn(), pk, m.tier)?;
            if !raised.is_empty() {
                self.written(&m.entity_id);
            }
            if let Some(set) = self.loaded(&m.entity_id) {
                for (other, archived) in raised {
                    set.set_cold(other, archived);
                }
            }
        }
        Ok(())
    }

    /// Moves memory `pk` (as `m` is) to `tier`, nothing else changed: a document's passages
    /// tiered together.
    pub fn set_tier(&mut self, pk: i64, m: &mut Memory, tier: Tier) -> Result<()> {
        self.index_waiting()?;
        let cold = memories::cold(m);
        m.tier = tier;
        memories::set_tier(self.conn(), pk, tier)?;
        if memories::cold(m) != cold {
            self.written(&m.entity_id);
            self.sync_vector(pk, m)?;
        }
        Ok(())
    }

    /// Replaces a memory's vector (at full precision).
    pub fn set_vector(&mut self, pk: i64, m: &Memory, v: &[f32]) -> Result<()> {
        self.store_vector(pk, m, v, Precision::F32)
    }

    /// Stores a memory's vector at `precision` (re-quantisation by retention).
    pub fn store_vector(
        &mut self,
        pk: i64,
        m: &Memory,
        v: &[f32],
        precision: Precision,
    ) -> Result<()> {
        let stored = memories::set_embedding(self.conn(), pk, v, precision)?;
        self.indexed(pk, m, &stored, precision);
        Ok(())
    }

    /// Removes a memory for good (its vector, index entry and history with it).
    pub fn purge(&mut self, pk: i64, owner: &str) -> Result<()> {
        self.index_waiting()?;
        memories::purge(self.conn(), pk)?;
        self.written(owner);
        if let Some(set) = self.loaded(owner) {
            set.remove(pk);
        }
        if let Some(hashes) = self.view.derived.hashes.get_mut(owner) {
            hashes.remove(pk);
        }
        Ok(())
    }

    /// Appends to a memory's status history.
    pub fn record_status(&mut self, pk: i64, change: &StatusChange) -> Result<()> {
        memories::record_status(self.conn(), pk, change)
    }

    /// Gives memory `pk` the status `new`, now, with `reason` in its status history, and
    /// saves it (with whatever else the caller changed on `m`).
    pub fn change_status(
        &mut self,
        pk: i64,
        m: &mut Memory,
        new: Status,
        reason: String,
    ) -> Result<()> {
        let change = StatusChange {
            old: m.status,
            new,
            reason,
            changed_at: self.now()?,
            layer: None,
        };
        m.status = new;
        self.record_status(pk, &change)?;
        self.save(pk, m)
    }
}

impl Inner<'_> {
    /// Undoes the transaction's writes (an own transaction does it as it drops).
    fn roll_back(self) {
        if let Inner::Nested(conn) = self {
            // Best effort: should it fail, the group's commit fails and undoes it all.
            let _ = conn.execute_batch(&format!("ROLLBACK TO {SAVEPOINT}; RELEASE {SAVEPOINT}"));
        }
    }
}

/// A read view that holds one read transaction for its life (when none is open already): its
/// statements see one state of the store, and do not each take and drop SQLite's lock, which
/// on a connection not in exclusive locking mode costs more than the row lookups of a search.
/// The transaction is deferred: it locks nothing until its first read.
pub(crate) struct Snapshot<'s> {
    view: View<'s>,
    began: bool,
}

impl<'s> Snapshot<'s> {
    pub(crate) fn new(view: View<'s>) -> Self {
        // Should BEGIN fail, each statement simply runs on its own.
        let began = view.conn.is_autocommit() && view.conn.execute_batch("BEGIN").is_ok();
        Snapshot { view, began }
    }
}

impl<'s> std::ops::Deref for Snapshot<'s> {
    type Target = View<'s>;
    fn deref(&self) -> &View<'s> {
        &self.view
    }
}

impl<'s> std::ops::DerefMut for Snapshot<'s> {
    fn deref_mut(&mut self) -> &mut View<'s> {
        &mut self.view
    }
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        if self.began && !self.view.conn.is_autocommit() {
            // A read transaction has nothing to lose: should COMMIT fail, roll it back.
            if self.view.conn.execute_batch("COMMIT").is_err() {
                let _ = self.view.conn.execute_batch("ROLLBACK");
            }
        }
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if let Some(tx) = self.tx.take() {
            tx.roll_back();
            self.finish(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decay::tests::memory;
    use crate::model::{MemoryType, Status};
    use crate::store::Store;

    const NOW: Millis = 1_700_000_000_000;

    /// A store in memory at a fixed time, whose vectors are supplied (two dimensions).
    struct Fixture(Store);

    /// A new memory of `owner`, made now.
    fn owned(owner: &str) -> Memory {
        let mut m = memory(MemoryType::Event, 0);
        (m.entity_id, m.created_at) = (owner.into(), NOW);
        m
    }

    impl Fixture {
        fn new() -> Fixture {
            Fixture(Store::in_memory(NOW))
        }
        fn tx(&mut self) -> Tx<'_> {
            self.0.begin(NOW).unwrap()
        }
        fn view(&mut self) -> View<'_> {
            self.0.read()
        }
        /// Stores a memory of `owner` and commits; returns its key.
        fn stored(&mut self, owner: &str, v: [f32; 2]) -> i64 {
            self.stored_as(owner, &memory(MemoryType::Event, 0).content_hash, v)
        }
        /// [`Fixture::stored`] with this content hash.
        fn stored_as(&mut self, owner: &str, hash: &str, v: [f32; 2]) -> i64 {
            let mut m = owned(owner);
            m.content_hash = hash.into();
            let mut tx = self.tx();
            let pk = tx.insert(&mut m, &v).unwrap();
            tx.commit().unwrap();
            pk
        }
        fn row(&self, owner: &str, pk: i64) -> Memory {
            memories::by_pks(self.0.conn(), owner, &[pk])
                .unwrap()
                .pop()
                .unwrap()
                .1
        }
    }

    /// Rows of the text index matching `word`, by key (a memory indexed twice twice).
    fn indexed(conn: &Connection, word: &str) -> Vec<i64> {
        let mut stmt = conn
            .prepare("SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY rowid")
            .unwrap();
        let rows = stmt.query_map([word], |r| r.get(0)).unwrap();
        rows.collect::<rusqlite::Result<_>>().unwrap()
    }

    /// With text indexing deferred, new memories wait for the batch's end; one that changes
    /// before then is indexed first, so the update trigger rewrites its row instead of the
    /// batch's end adding a second.
    #[test]
    fn deferred_text_rows_are_written_once_with_the_final_text() {
        let mut f = Fixture::new();
        let new = |content: &str| Memory {
            content: content.into(),
            ..owned("ana")
        };
        let mut tx = f.tx();
        tx.defer_text();
        let (mut a, mut b) = (new("kayak trips"), new("sourdough starter"));
        let pa = tx.insert(&mut a, &[1.0, 0.0]).unwrap();
        let pb = tx.insert(&mut b, &[0.0, 1.0]).unwrap();
        assert!(
            indexed(tx.conn(), "kayak OR sourdough").is_empty(),
            "waiting"
        );
        a.content = "kayak trips on the Douro".into();
        tx.save(pa, &mut a).unwrap();
        assert_eq!(indexed(tx.conn(), "kayak OR sourdough"), vec![pa, pb]);
        let mut c = new("sourdough bread");
        let pc = tx.insert(&mut c, &[1.0, 1.0]).unwrap();
        tx.index_text().unwrap();
        // No longer deferred: the next insert is indexed at once.
        let mut d = new("sourdough pizza");
        let pd = tx.insert(&mut d, &[0.5, 1.0]).unwrap();
        assert_eq!(indexed(tx.conn(), "sourdough"), vec![pb, pc, pd]);
        assert_eq!(indexed(tx.conn(), "kayak"), vec![pa]);
        assert_eq!(indexed(tx.conn(), "douro"), vec![pa]);
        tx.commit().unwrap();
        // Left waiting at commit: written then.
        let mut tx = f.tx();
        tx.defer_text();
        let mut e = new("sourdough crackers");
        let pe = tx.insert(&mut e, &[0.2, 1.0]).unwrap();
        tx.commit().unwrap();
        assert_eq!(indexed(f.0.conn(), "crackers"), vec![pe]);
    }

    #[test]
    fn a_commit_moves_on_the_written_owners_generations_only() {
        let mut f = Fixture::new();
        f.stored("ana", [1.0, 0.0]);
        let (ana, bob) = (f.view().generation("ana"), f.view().generation("bob"));
        assert_eq!((ana, bob), (1, 0));
        // Loaded vector sets follow the rows written, without a reload.
        assert_eq!(f.view().vectors("ana").unwrap().len(), 1);
        let pk = f.stored("ana", [0.0, 1.0]);
        assert_eq!(f.view().generation("ana"), 2);
        assert_eq!(f.view().generation("bob"), 0);
        assert_eq!(
            f.view().vectors("ana").unwrap().nearest(&[0.0, 1.0], 1)[0].0,
            pk
        );
        let mut m = f.row("ana", pk);
        m.state = State::Deleted;
        let mut tx = f.tx();
        tx.update(pk, &mut m).unwrap();
        tx.commit().unwrap();
        assert!(f.view().vectors("ana").unwrap().get(pk).is_none());
    }

    #[test]
    fn a_rollback_drops_the_written_owners_vector_sets_and_keeps_pending_accesses() {
        let mut f = Fixture::new();
        let pk = f.stored("ana", [1.0, 0.0]);
        f.view().vectors("ana").unwrap();
        f.view().record_access("ana", pk).unwrap();
        let before = f.view().generation("ana");
        {
            // Written, then dropped uncommitted: rolled back.
            let mut tx = f.tx();
            tx.insert(&mut owned("ana"), &[0.0, 1.0]).unwrap();
            assert_eq!(tx.vectors("ana").unwrap().nearest(&[0.0, 1.0], 5).len(), 2);
        }
        assert!(
            !f.0.derived.vectors.contains_key("ana"),
            "the set was dropped"
        );
        assert_eq!(f.view().generation("ana"), before + 1);
        assert_eq!(
            f.view()
                .vectors("ana")
                .unwrap()
                .nearest(&[0.0, 1.0], 5)
                .len(),
            1
        );
        // The access the rolled-back transaction wrote is still waiting, and the next
        // commit writes it once.
        assert_eq!(f.view().pending(pk).map(|p| p.count), Some(1));
        f.tx().commit().unwrap();
        assert!(f.view().pending(pk).is_none());
        assert_eq!(f.row("ana", pk).access_count, 1);
    }

    #[test]
    fn an_update_moves_the_generation_only_when_it_changes_what_a_search_finds() {
        let mut f = Fixture::new();
        let pk = f.stored("ana", [1.0, 0.0]);
        type Edit = fn(&mut Memory);
        let cases: [(&str, Edit, bool); 7] = [
            (
                "importance, feedback, pin, counts and times",
                |m| {
                    m.importance = 0.95;
                    m.feedback += 1;
                    m.pinned = true;
                    m.access_count += 2;
                    m.updated_at += 1;
                },
                false,
            ),
            ("content", |m| m.content.push_str(" again"), true),
            ("a tag", |m| m.manual_tags.push("garden".into()), true),
            (
                "an automatic tag",
                |m| m.auto_tags.push("plan".into()),
                true,
            ),
            ("its session", |m| m.session_id = Some("s1".into()), true),
            ("archived", |m| m.state = State::Archived, true),
            ("no longer valid", |m| m.status = Status::Challenged, true),
        ];
        for (what, edit, moves) in cases {
            let g = f.view().generation("ana");
            let mut m = f.row("ana", pk);
            edit(&mut m);
            let mut tx = f.tx();
            tx.update(pk, &mut m).unwrap();
            tx.commit().unwrap();
            assert_eq!(f.view().generation("ana") != g, moves, "{what}");
        }
    }

    #[test]
    fn an_access_moves_the_generation_only_when_it_revives() {
        let mut f = Fixture::new();
        let pk = f.stored("ana", [1.0, 0.0]);
        let g = f.view().generation("ana");
        let mut m = f.row("ana", pk);
        let mut tx = f.tx();
        tx.access(pk, &mut m, 1, NOW).unwrap();
        tx.commit().unwrap();
        assert_eq!(
            f.view().generation("ana"),
            g,
            "a count does not change what a search finds"
        );
        let mut m = f.row("ana", pk);
        m.state = State::Archived;
        let mut tx = f.tx();
        tx.update(pk, &mut m).unwrap();
        tx.commit().unwrap();
        let g = f.view().generation("ana");
        let mut m = f.row("ana", pk);
        let mut tx = f.tx();
        tx.access(pk, &mut m, 1, NOW).unwrap();
        tx.commit().unwrap();
        assert_eq!(m.state, State::Active);
        assert_eq!(f.view().generation("ana"), g + 1, "a revival does");
    }

    #[test]
    fn memory_ids_grow_with_the_second_and_count_up_within_it() {
        let mut last = None;
        let a = memory_id(NOW, 7, 1, &mut last);
        let b = memory_id(NOW + 999, 8, 2, &mut last);
        let c = memory_id(NOW + 1000, 9, 3, &mut last);
        // "mem_", the second in 8 hex digits, 16 more.
        assert_eq!(&a[..12], format!("mem_{:08x}", NOW / 1000));
        assert!(a.len() == 28 && a[4..].chars().all(|ch| ch.is_ascii_hexdigit()));
        // The same second counts up from its random start; the next second starts afresh.
        let tail = |id: &str| u64::from_str_radix(&id[12..], 16).unwrap();
        assert_eq!(tail(&b), tail(&a) + 1);
        assert!(a < b && b < c, "{a} {b} {c}");
        assert_ne!(tail(&c), tail(&b) + 1);
        // A new start depends on the draw and on the row key.
        let fresh = |draw, pk| memory_id(NOW, draw, pk, &mut None);
        assert_eq!(fresh(7, 1), a);
        assert_ne!(fresh(7, 2), a);
        assert_ne!(fresh(8, 1), a);
        // Times outside 1970–2106 keep the format.
        assert_eq!(&fresh_at(-5_000)[..12], "mem_00000000");
        assert_eq!(&fresh_at(i64::MAX)[..12], "mem_ffffffff");
    }

    fn fresh_at(now: Millis) -> String {
        memory_id(now, 1, 1, &mut None)
    }

    #[test]
    fn a_taken_id_is_drawn_again_from_a_fresh_start() {
        // A run of ids taken ahead of the count (say, imported from a store that made them):
        // counting on through it would fail after ID_ATTEMPTS; a fresh start does not.
        let mut f = Fixture::new();
        let run: Vec<String> = (0..=ID_ATTEMPTS)
            .map(|i| {
                let pk = f.stored("ana", [1.0, i as f32]);
                f.row("ana", pk).id
            })
            .collect();
        let (second, start) = f.0.derived.last_id.expect("an id was made");
        assert_eq!(
            run[0],
            format!("mem_{second:08x}{:016x}", start - ID_ATTEMPTS as u64)
        );
        f.0.derived.last_id = Some((second, start - ID_ATTEMPTS as u64 - 1));
        let pk = f.stored("ana", [0.0, 1.0]);
        assert!(!run.contains(&f.row("ana", pk).id));
    }

    #[test]
    fn the_exact_duplicate_lookup_follows_every_write_of_a_row() {
        let (a, b) = crate::store::hashes::sharing_a_key();
        let mut f = Fixture::new();
        let stored = |f: &mut Fixture, hash: &str| f.stored_as("ana", hash, [1.0, 0.0]);
        let found = |f: &mut Fixture, owner: &str, hash: &str| {
            let mut tx = f.tx();
            tx.by_hash(owner, hash).unwrap().map(|(pk, _)| pk)
        };
        let first = stored(&mut f, &a);
        assert_eq!(
            found(&mut f, "ana", &a),
            Some(first),
            "loaded from the store"
        );
        let second = stored(&mut f, &b);
        assert_eq!(
            found(&mut f, "ana", &b),
            Some(second),
            "kept in step: the whole hash decides"
        );
        assert_eq!(found(&mut f, "ana", &a), Some(first));
        assert_eq!(found(&mut f, "ben", &a), None, "owners apart");
        // Content changed, deleted, revived by an update; purged.
        let mut m = f.row("ana", first);
        m.content_hash = "aa".repeat(32);
        let mut tx = f.tx();
        tx.update(first, &mut m).unwrap();
        tx.commit().unwrap();
        assert_eq!(found(&mut f, "ana", &a), None);
        assert_eq!(found(&mut f, "ana", &"aa".repeat(32)), Some(first));
        m.state = State::Deleted;
        let mut tx = f.tx();
        tx.update(first, &mut m).unwrap();
        tx.commit().unwrap();
        assert_eq!(found(&mut f, "ana", &"aa".repeat(32)), None);
        let mut tx = f.tx();
        tx.purge(second, "ana").unwrap();
        tx.commit().unwrap();
        assert_eq!(found(&mut f, "ana", &b), None);
        // A write rolled back leaves nothing behind in the map.
        let mut m = owned("ana");
        m.content_hash = "bb".repeat(32);
        let mut tx = f.tx();
        tx.insert(&mut m, &[0.0, 1.0]).unwrap();
        assert!(tx.by_hash("ana", &"bb".repeat(32)).unwrap().is_some());
        drop(tx);
        assert_eq!(found(&mut f, "ana", &"bb".repeat(32)), None);
        // Nor takes away what it had changed.
        let kept = stored(&mut f, &"cc".repeat(32));
        let mut m = f.row("ana", kept);
        m.content_hash = "dd".repeat(32);
        let mut tx = f.tx();
        tx.update(kept, &mut m).unwrap();
        assert!(tx.by_hash("ana", &"cc".repeat(32)).unwrap().is_none());
        drop(tx);
        assert_eq!(found(&mut f, "ana", &"cc".repeat(32)), Some(kept));
    }
}
