//! Drift detection (engram's "validate claims against filesystem, auto-invalidate dead refs"):
//! memories that cite paths in the host's workspace (`core/src/engine.rs`, `docs/API.md:12`,
//! found by [`crate::workspace::refs`]) are checked against it. A memory one of whose paths is
//! gone — or whose cited line is past its file's end — is `invalidated`, the reason naming the
//! path; one drift invalidated whose paths are all back is restored to the status it had.
//! Paths the host cannot tell about (outside the workspace, unreadable) change nothing. A
//! name cited in backticks beside a file (`` `check_token` ``) is dead when the codebase
//! layer read that file after the memory was written and found no such name in it; one cited
//! with no path, when a complete run of the codebase layer after the memory finds no file
//! declaring a name some file declared when the memory was written (this needs no workspace).
//!
//! With a workspace (the host's `workspace` import), each run examines the memories in use
//! from a cursor, 1,000 a run, and those drift invalidated, 1,000 a run, and asks the host
//! once. Without one the step says so, and lists the paths the memories examined cite
//! (`wanted`) for a host to check and report with the `drift` call, which applies what it
//! found to one owner's memories.

use std::collections::BTreeMap;

use rusqlite::params;
use serde::{Deserialize, Serialize};

use super::{next_batch, STEP_BATCH};
use crate::codebase::{declared, names_read_after, Declared};
use crate::error::{Error, Result};
use crate::field::Owner;
use crate::model::{Layer, Memory, Status};
use crate::order::Keyed;
use crate::store::{memories, Tx};
use crate::workspace::{cited_paths, cited_symbols, Citation, PathState, Workspace};

/// Where the step's cursor is kept (meta table).
const CURSOR_KEY: &str = "drift_cursor";
/// How the reasons of drift's status changes begin: what tells its invalidations apart.
const REASON_PREFIX: &str = "drift: ";
/// Paths one `drift` call reports at most, and one run asks the host about at most.
pub const MAX_DRIFT_PATHS: usize = 1000;

/// What drift detection did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DriftReport {
    /// Whether the host names a workspace (else the step checked nothing, and lists the
    /// paths waiting in `wanted`).
    pub workspace: bool,
    /// Memories citing paths whose state was known.
    pub checked: usize,
    /// Memories invalidated: a path they cite is gone, or a line past its file's end.
    pub invalidated: usize,
    /// Memories drift had invalidated whose paths are all back, restored.
    pub restored: usize,
    /// Paths the host could not tell about (outside the workspace, unreadable): their
    /// memories are left as they are.
    pub unknown: usize,
    /// The step stopped at its bound: run again to finish.
    pub more: bool,
    /// With no workspace: each owner's paths the memories examined cite, for a host to check
    /// and report with `drift`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wanted: Vec<DriftWanted>,
}

/// Paths an owner's memories cite, waiting for a host to check them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DriftWanted {
    /// The owner.
    pub entity_id: String,
    /// The paths, as the memories cite them.
    pub paths: Vec<String>,
}

/// Arguments of `drift`: what a host found at paths an owner's memories cite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DriftFindings {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// What is at each path (1 to 1,000), as the memories cite it (`drift.wanted` lists them).
    #[schemars(length(min = 1, max = MAX_DRIFT_PATHS))]
    pub paths: Vec<PathFound>,
}

/// What a host found at one path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathFound {
    /// The path, as memories cite it (1 to 1,024 characters).
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// `missing`, `directory` or `file`.
    pub state: PathKind,
    /// A file's number of lines, when counted (a cited line past it is a dead reference).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<u32>,
}

crate::model::string_enum! {
    /// What a host found at a path.
    PathKind, "state" {
        /// Nothing is there.
        Missing = "missing",
        /// A directory.
        Directory = "directory",
        /// A file.
        File = "file",
    }
}

/// What one memory's citations come to.
enum Verdict {
    /// A cited path is gone: why.
    Dead(String),
    /// Every cited path is there.
    Alive,
    /// Some path's state is not known, and none is dead.
    Unsure,
}

/// A memory's citations judged against what is known of the paths.
fn judge(cited: &[Citation], found: &Keyed<String, PathState>) -> Verdict {
    let mut sure = true;
    for c in cited {
        match (found.get(&c.path), c.line) {
            (Some(PathState::Missing), _) => {
                return Verdict::Dead(format!("{} is gone from the workspace", c.path))
            }
            (Some(PathState::Directory), Some(line)) => {
                return Verdict::Dead(format!("{} is a directory, with no line {line}", c.path))
            }
            (Some(PathState::File { lines: Some(n) }), Some(line)) if line > *n => {
                return Verdict::Dead(format!("{} has {n} lines, not {line}", c.path))
            }
            (Some(PathState::File { .. } | PathState::Directory), _) => {}
            (Some(PathState::Unknown { .. }) | None, _) => sure = false,
        }
    }
    if sure {
        Verdict::Alive
    } else {
        Verdict::Unsure
    }
}

/// Why a name `memory` cites beside its files is gone, when the codebase layer (`ingest_code`)
/// read every one of those files after the memory was written and none of them declares it
/// any more; `None` when all are there or it cannot tell (a file not read, read before or as the
/// memory, or with more symbols than its memory lists). The layer's memories are those of the
/// owner's whole view or of the memory's own agent.
fn gone_symbol(
    tx: &Tx,
    memory: &Memory,
    cited: &[Citation],
    found: &Keyed<String, PathState>,
) -> Result<Option<String>> {
    let symbols = cited_symbols(&memory.content);
    let files: Vec<&str> = cited
        .iter()
        .filter(|c| matches!(found.get(&c.path), Some(PathState::File { .. })))
        .map(|c| c.path.as_str())
        .collect();
    if symbols.is_empty() || files.is_empty() {
        return Ok(None);
    }
    let mut declared = std::collections::BTreeSet::new();
    for path in &files {
        match names_read_after(
            tx.conn(),
            memory.entity_id.as_str(),
            memory.agent_id.as_deref(),
            path,
            memory.created_at,
        )? {
            Some(names) => declared.extend(names),
            None => return Ok(None),
        }
    }
    Ok(symbols
        .iter()
        .find(|name| !declared.contains(*name))
        .map(|name| format!("`{name}` is no longer in {}", files.join(", "))))
}

/// A memory drift may change: in use, or invalidated by drift.
struct Candidate {
    pk: i64,
    owner: String,
    memory: Memory,
    cited: Vec<Citation>,
}

/// Applies what is known of the paths to the candidates; counts into `report`.
fn apply(
    tx: &mut Tx,
    candidates: Vec<Candidate>,
    found: &Keyed<String, PathState>,
    report: &mut DriftReport,
) -> Result<()> {
    for Candidate {
        pk,
        owner: _,
        mut memory,
        cited,
    } in candidates
    {
        let mut verdict = judge(&cited, found);
        if matches!(verdict, Verdict::Alive) {
            if let Some(why) = gone_symbol(tx, &memory, &cited, found)? {
                verdict = Verdict::Dead(why);
            }
        }
        let dead = match verdict {
            Verdict::Unsure => continue,
            Verdict::Dead(why) => Some(why),
            Verdict::Alive => None,
        };
        let paths: Vec<&str> = cited.iter().map(|c| c.path.as_str()).collect();
        let back = format!("{} back in the workspace", paths.join(", "));
        settle(tx, pk, &mut memory, dead, back, report)?;
    }
    Ok(())
}

/// One checked memory's verdict applied: invalidated when in use and `dead` says why, or,
/// when alive and drift had invalidated it, restored to the status it had (the reason says
/// what is `back`); counted into `report`.
fn settle(
    tx: &mut Tx,
    pk: i64,
    memory: &mut Memory,
    dead: Option<String>,
    back: String,
    report: &mut DriftReport,
) -> Result<()> {
    report.checked += 1;
    let (new, reason) = match (memory.status, dead) {
        (Status::Active | Status::Challenged, Some(why)) => (Status::Invalidated, why),
        (Status::Invalidated, None) => match drift_invalidated_from(tx, pk)? {
            Some(before) => (before, back),
            None => return Ok(()),
        },
        _ => return Ok(()),
    };
    if new == Status::Invalidated {
        report.invalidated += 1;
    } else {
        report.restored += 1;
    }
    tx.change_status(pk, memory, new, format!("{REASON_PREFIX}{reason}"))
}

/// The status a memory had before drift invalidated it, when its last change was drift's.
fn drift_invalidated_from(tx: &Tx, pk: i64) -> Result<Option<Status>> {
    let last = memories::status_history(tx.conn(), pk)?.pop();
    Ok(last
        .filter(|c| c.new == Status::Invalidated && c.reason.starts_with(REASON_PREFIX))
        .map(|c| c.old))
}

/// The memories drift invalidated (of `owner`, or every owner's), up to `limit`, from `pk`
/// on.
fn drift_invalidated(tx: &Tx, owner: Option<&str>, limit: usize) -> Result<Vec<(i64, String)>> {
    let rows = tx
        .conn()
        .prepare_cached(
            "SELECT m.pk, m.entity_id FROM memories m \
             WHERE m.status = 'invalidated' AND m.state != 'DELETED' \
               AND (?1 IS NULL OR m.entity_id = ?1) \
               AND (SELECT h.reason FROM status_history h WHERE h.memory_pk = m.pk \
                    ORDER BY h.seq DESC LIMIT 1) LIKE ?2 \
             ORDER BY m.pk LIMIT ?3",
        )?
        .query_map(
            params![owner, format!("{REASON_PREFIX}%"), limit as i64],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?
        .collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// The keys of `rows` by owner, of the memories whose text holds `mark` (only those are then
/// read whole).
fn marked(tx: &Tx, rows: &[(i64, String)], mark: &str) -> Result<Keyed<String, Vec<i64>>> {
    let pks: Vec<i64> = rows.iter().map(|r| r.0).collect();
    let list = serde_json::to_string(&pks).map_err(|e| Error::Internal(e.to_string()))?;
    let found: std::collections::BTreeSet<i64> = tx
        .conn()
        .prepare_cached(
            "SELECT pk FROM memories WHERE pk IN (SELECT value FROM json_each(?1)) \
             AND instr(content, ?2) > 0",
        )?
        .query_map(params![list, mark], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut by_owner: Keyed<String, Vec<i64>> = Keyed::new();
    for (pk, owner) in rows.iter().filter(|r| found.contains(&r.0)) {
        by_owner.or_default(owner.clone()).push(*pk);
    }
    Ok(by_owner)
}

/// The memories of `rows` that cite paths, with their citations: only those with a slash in
/// their text are read whole.
fn citing(tx: &Tx, rows: &[(i64, String)]) -> Result<Vec<Candidate>> {
    let mut out = Vec::new();
    for (owner, pks) in marked(tx, rows, "/")? {
        for (pk, memory) in memories::by_pks(tx.conn(), &owner, &pks)? {
            let cited = cited_paths(&memory.content);
            if !cited.is_empty() {
                out.push(Candidate {
                    pk,
                    owner: owner.to_string(),
                    memory,
                    cited,
                });
            }
        }
    }
    crate::order::sort_by_key(&mut out, |c| c.pk);
    Ok(out)
}

/// Checks the memories of `rows` that cite code names in backticks and no path against the
/// codebase layer as a whole (no workspace needed): once a complete `ingest_code` run after
/// the memory was written finds no file declaring a name some file declared when the memory
/// was written, the memory is invalidated; one so invalidated whose names are all declared
/// again is restored. A name no file ever declared (a library, a flag) is never checked.
fn names_alone(tx: &mut Tx, rows: &[(i64, String)], report: &mut DriftReport) -> Result<()> {
    let mut known: BTreeMap<(String, Option<String>), Option<Declared>> = BTreeMap::new();
    for (owner, pks) in marked(tx, rows, "`")? {
        for (pk, mut memory) in memories::by_pks(tx.conn(), &owner, &pks)? {
            // A file's own memory is judged by its path (a Go struct tag is in backticks).
            let names = cited_symbols(&memory.content);
            if memory.layer == Layer::Codebase
                || names.is_empty()
                || !cited_paths(&memory.content).is_empty()
            {
                continue;
            }
            let scope = (owner.to_string(), memory.agent_id.clone());
            if !known.contains_key(&scope) {
                let d = declared(tx.conn(), &owner, memory.agent_id.as_deref())?;
                known.insert(scope.clone(), d);
            }
            let Some(d) = known.get(&scope).and_then(Option::as_ref) else {
                continue;
            };
            if d.complete_at <= memory.created_at {
                continue;
            }
            let dead = d
                .gone(&names, memory.created_at)
                .map(|name| format!("`{name}` is no longer in the codebase"));
            let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            let back = format!("{} back in the codebase", quoted.join(", "));
            settle(tx, pk, &mut memory, dead, back, report)?;
        }
    }
    Ok(())
}

/// Runs the step with the host's workspace.
pub(super) fn detect(tx: &mut Tx, workspace: &dyn Workspace) -> Result<DriftReport> {
    let (mut rows, more) = next_batch(tx, CURSOR_KEY)?;
    let invalidated = drift_invalidated(tx, None, STEP_BATCH + 1)?;
    let mut report = DriftReport {
        more: more || invalidated.len() > STEP_BATCH,
        ..DriftReport::default()
    };
    rows.extend(invalidated.into_iter().take(STEP_BATCH));
    names_alone(tx, &rows, &mut report)?;
    let mut candidates = citing(tx, &rows)?;
    let mut paths: Vec<String> = Vec::new();
    let mut kept = 0;
    for c in &candidates {
        let new: Vec<&Citation> = c
            .cited
            .iter()
            .filter(|p| !paths.contains(&p.path))
            .collect();
        if paths.len() + new.len() > MAX_DRIFT_PATHS {
            report.more = true;
            break;
        }
        paths.extend(new.into_iter().map(|p| p.path.clone()));
        kept += 1;
    }
    candidates.truncate(kept);
    if paths.is_empty() {
        report.workspace = workspace.states(&[]).is_some();
        return Ok(report);
    }
    let Some(states) = workspace.states(&paths) else {
        let mut wanted: Keyed<String, Vec<String>> = Keyed::new();
        for c in &candidates {
            let list = wanted.or_default(c.owner.clone());
            for p in &c.cited {
                if !list.contains(&p.path) {
                    list.push(p.path.clone());
                }
            }
        }
        report.wanted = wanted
            .into_iter()
            .map(|(entity_id, paths)| DriftWanted {
                entity_id: entity_id.to_string(),
                paths,
            })
            .collect();
        return Ok(report);
    };
    report.workspace = true;
    if states.len() != paths.len() {
        return Err(Error::Internal(format!(
            "the host's workspace answered {} states for {} paths",
            states.len(),
            paths.len()
        )));
    }
    report.unknown = states
        .iter()
        .filter(|s| matches!(s, PathState::Unknown { .. }))
        .count();
    let found: Keyed<String, PathState> = paths.into_iter().zip(states).collect();
    apply(tx, candidates, &found, &mut report)?;
    Ok(report)
}

/// Applies what a host found at paths to one owner's memories that cite them (`drift`).
pub(crate) fn report_findings(tx: &mut Tx, req: &DriftFindings) -> Result<DriftReport> {
    if req.paths.is_empty() || req.paths.len() > MAX_DRIFT_PATHS {
        return Err(Error::invalid(
            "paths",
            format!("give 1 to {MAX_DRIFT_PATHS} paths, not {}", req.paths.len()),
        ));
    }
    let mut found: Keyed<String, PathState> = Keyed::new();
    for (i, p) in req.paths.iter().enumerate() {
        if p.path.is_empty() || p.path.chars().count() > 1024 {
            return Err(Error::invalid(
                format!("paths[{i}].path"),
                "must be 1 to 1,024 characters",
            ));
        }
        if p.lines.is_some() && p.state != PathKind::File {
            return Err(Error::invalid(
                format!("paths[{i}].lines"),
                format!("only a file has lines, and this path is {}", p.state),
            ));
        }
        let state = match p.state {
            PathKind::Missing => PathState::Missing,
            PathKind::Directory => PathState::Directory,
            PathKind::File => PathState::File { lines: p.lines },
        };
        if found.insert(p.path.clone(), state).is_some() {
            return Err(Error::invalid(
                format!("paths[{i}].path"),
                format!("{} is given twice", p.path),
            ));
        }
    }
    let owner = req.entity_id.as_str();
    // The owner's memories that may cite a path (a slash in their text), then those that do
    // cite one of these.
    let rows: Vec<(i64, String)> = tx
        .conn()
        .prepare_cached(
            "SELECT pk, entity_id FROM memories WHERE entity_id = ?1 AND state != 'DELETED' \
             AND status IN ('active', 'challenged', 'invalidated') AND instr(content, '/') > 0 \
             ORDER BY pk",
        )?
        .query_map([owner], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let candidates: Vec<Candidate> = citing(tx, &rows)?
        .into_iter()
        .filter(|c| c.cited.iter().any(|p| found.contains_key(&p.path)))
        .collect();
    let mut report = DriftReport {
        workspace: true,
        ..DriftReport::default()
    };
    apply(tx, candidates, &found, &mut report)?;
    Ok(report)
}
