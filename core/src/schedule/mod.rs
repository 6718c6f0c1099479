//! Schedules: cron-tagged PLAN memories that fall due again and again (`tag` has the grammar
//! and the calendar). `scheduled` reports each due time once — the heartbeat's `scheduled`
//! signal — and counts the due times that passed unacknowledged as missed; `schedule_ack`
//! moves a schedule on to its next due time.

mod sql;
mod tag;

use serde::{Deserialize, Serialize};

pub(crate) use sql::ScheduleRow;
pub use tag::Tag;

use crate::clock::Millis;
use crate::curate::{self, MemoryPatch};
use crate::dedup;
use crate::error::{Error, Result};
use crate::field::{Content, Id, Owner};
use crate::model::{string_enum, MemoryType, Source};
use crate::store::{memories, Tx, View};
use crate::write::{self, NewMemory, Prepared};

string_enum! {
    /// Whether a schedule still falls due.
    ScheduleStatus, "schedule status" {
        /// It falls due again and again (or once, not yet acknowledged).
        Active = "active",
        /// A one-off that was acknowledged.
        Done = "done",
        /// Cancelled: it no longer falls due.
        Cancelled = "cancelled",
    }
}

/// Most missed due times counted at once (a long-idle `every:1m` stops counting there).
const MAX_MISSED_STEPS: i64 = 10_000;

/// A schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Schedule {
    /// The id of its PLAN memory, which also addresses the schedule.
    pub id: String,
    /// What the schedule is for.
    pub content: String,
    /// When it falls due (`cron:daily:09:00`, `cron:every:2h`, …).
    pub cron_tag: String,
    /// Whether it is active, done or cancelled.
    pub status: ScheduleStatus,
    /// When it next falls due, in milliseconds since the Unix epoch (none once done or cancelled).
    pub next_due_at: Option<Millis>,
    /// Due times that passed without an acknowledgement.
    pub missed: i64,
    /// When it was last acknowledged, in milliseconds since the Unix epoch (none until then).
    pub acknowledged_at: Option<Millis>,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_at: Millis,
}

impl From<ScheduleRow> for Schedule {
    fn from(r: ScheduleRow) -> Self {
        Schedule {
            id: r.id,
            content: r.content,
            cron_tag: r.cron_tag,
            status: r.status,
            next_due_at: r.next_due,
            missed: r.missed,
            acknowledged_at: r.acknowledged_at,
            created_at: r.created_at,
        }
    }
}

/// A new schedule, for [`Engine::schedule_create`](crate::Engine::schedule_create).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleCreate {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// What the schedule is for, stored as a PLAN memory: not blank, at most 50,000 characters.
    pub content: Content,
    /// When it falls due: `cron:hourly`, `cron:daily[:HH:MM]`, `cron:weekly:DAY:HH:MM`,
    /// `cron:weekdays:HH:MM`, `cron:monthly:D:HH:MM`, `cron:every:<duration>` (1 minute to 366
    /// days) or `cron:once:<RFC 3339 time>` (in the future); times in UTC.
    pub cron_tag: String,
    /// The agent whose plan it is, recorded with its memory (it and the owner's view see it;
    /// 1 to 256 characters of `[A-Za-z0-9_:.-]`; default none: the owner's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<Id>,
}

/// Changes to a schedule, for [`Engine::schedule_update`](crate::Engine::schedule_update).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleUpdate {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it changes only its own schedules (default none: the
    /// owner's view, which changes any).
    pub agent_id: Option<Id>,
    /// The schedule's id (its PLAN memory's).
    pub id: Id,
    /// New text: not blank, at most 50,000 characters (default unchanged; give this or `cron_tag`).
    pub content: Option<Content>,
    /// A new schedule tag, as `schedule_create` takes it; it falls due from now on (default
    /// unchanged).
    pub cron_tag: Option<String>,
}

/// Which schedules [`Engine::schedules`](crate::Engine::schedules) lists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SchedulesRequest {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it sees its own memories, `global` ones and `team`
    /// ones of the owner's teams it is a member of, and changes only its own (default none: the
    /// owner's view, which sees and changes every memory).
    pub agent_id: Option<Id>,
    /// Done and cancelled schedules too (default false: only active ones).
    #[serde(default)]
    pub all: bool,
}

/// One schedule of one owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScheduleRef {
    /// The owner of the memories (a user, an agent, a project): 1 to 256 characters of
    /// `[A-Za-z0-9_:.-]`; every read and write is scoped to one owner.
    pub entity_id: Owner,
    /// The agent the call is made for: it changes only its own schedules (default none: the
    /// owner's view, which changes any).
    pub agent_id: Option<Id>,
    /// The schedule's id (its PLAN memory's).
    pub id: Id,
}

/// A schedule checked and embedded, ready to store.
pub(crate) struct NewSchedule {
    prepared: Prepared,
    cron_tag: String,
    next: Millis,
}

/// A schedule of `owner` by its memory's id.
fn row(view: &View, owner: &str, id: &str) -> Result<ScheduleRow> {
    sql::get(view.conn(), owner, id)?.ok_or_else(|| Error::NotFound {
        entity_id: owner.to_string(),
        id: id.to_string(),
    })
}

/// A schedule the caller may change: its own (in the owner's view, any).
fn own_row(view: &View, owner: &str, id: &str) -> Result<ScheduleRow> {
    let s = row(view, owner, id)?;
    let theirs =
        memories::get(view.conn(), owner, id)?.is_some_and(|(_, m)| !view.viewer().may_change(&m));
    if theirs {
        return Err(Error::invalid(
            "id",
            format!("schedule {id} is not this agent's: an agent changes only its own schedules"),
        ));
    }
    Ok(s)
}

/// Checks a new schedule (its tag first) and builds its PLAN memory.
pub(crate) fn prepare(view: &View, req: &ScheduleCreate) -> Result<NewSchedule> {
    let tag = Tag::parse(&req.cron_tag)?;
    let now = view.now()?;
    let next = tag
        .next_after(now, now)
        .ok_or_else(|| Error::invalid("cron_tag", "a one-off schedule must be in the future"))?;
    let prepared = write::prepare(
        view,
        NewMemory {
            memory_type: Some(MemoryType::Plan),
            source: Some(Source::User),
            cron_tag: Some(req.cron_tag.clone()),
            agent_id: req.agent_id.clone(),
            ..NewMemory::of(req.entity_id.clone(), req.content.clone())
        }
        .into(),
    )?;
    Ok(NewSchedule {
        prepared,
        cron_tag: req.cron_tag.clone(),
        next,
    })
}

/// Stores a schedule: its memory (a schedule is its own memory even when its words repeat
/// another's: no dedup) falling due from now on.
pub(crate) fn create(tx: &mut Tx, s: NewSchedule) -> Result<Schedule> {
    let owner = s.prepared.memory.entity_id.clone();
    let start = s.prepared.memory.created_at;
    let (pk, id) = dedup::create(tx, s.prepared.memory, &s.prepared.vector, &[])?;
    sql::insert(tx.conn(), pk, &owner, &s.cron_tag, start, Some(s.next))?;
    Ok(row(tx, &owner, &id)?.into())
}

/// An owner's schedules, soonest due first.
pub(crate) fn list(view: &View, owner: &Owner, all: bool) -> Result<Vec<Schedule>> {
    Ok(sql::list(view.conn(), owner, all)?
        .into_iter()
        .map(Schedule::from)
        .collect())
}

/// Schedules due at the view's time whose due time was not reported yet, caught up to the
/// latest due time (the ones overtaken counted as missed); nothing is written.
pub(crate) fn due(view: &View, owner: &str) -> Result<Vec<ScheduleRow>> {
    let now = view.now()?;
    let mut out = Vec::new();
    for mut s in sql::due(view.conn(), owner, now)? {
        let Ok(tag) = Tag::parse(&s.cron_tag) else {
            continue;
        };
        let mut steps = 0;
        while let Some(next) = s.next_due.and_then(|d| tag.next_after(d, s.start_at)) {
            if next > now || steps == MAX_MISSED_STEPS {
                break;
            }
            // An acknowledgement moves the due time past now, so one still here with a
            // later one come was missed.
            s.missed += 1;
            s.next_due = Some(next);
            steps += 1;
        }
        if s.surfaced_due != s.next_due {
            s.surfaced_due = s.next_due;
            out.push(s);
        }
    }
    Ok(out)
}

/// Writes back schedules from [`due`]: reported, missed runs counted.
pub(crate) fn mark_surfaced(tx: &Tx, due: &[ScheduleRow]) -> Result<()> {
    sql::save_all(tx.conn(), due)
}

/// The stored tag of a schedule, checked when it was created: one that does not parse now was
/// changed outside Mnemo.
fn stored_tag(s: &ScheduleRow) -> Result<Tag> {
    Tag::parse(&s.cron_tag).map_err(|e| {
        Error::damaged(format!(
            "schedule {}'s stored cron_tag {:?} does not parse ({e})",
            s.id, s.cron_tag
        ))
    })
}

/// Acknowledges a schedule: it moves on to its next due time (a one-off is done).
pub(crate) fn ack(tx: &mut Tx, owner: &Owner, id: &Id) -> Result<Schedule> {
    let mut s = own_row(tx, owner, id)?;
    if s.status != ScheduleStatus::Active {
        return Err(Error::invalid(
            "id",
            format!("schedule {} is {}", s.id, s.status),
        ));
    }
    let tag = stored_tag(&s)?;
    let now = tx.now()?;
    s.acknowledged_at = Some(now);
    s.next_due = tag.next_after(now.max(s.next_due.unwrap_or(now)), s.start_at);
    if s.next_due.is_none() {
        s.status = ScheduleStatus::Done;
    }
    sql::save(tx.conn(), &s)?;
    Ok(s.into())
}

/// A checked change of a schedule: its row as it will be, the new tag, and the new text with
/// its vector (worked out in a read view, so a slow embedder never holds the write lock).
pub(crate) struct Edit {
    row: ScheduleRow,
    tag: bool,
    content: Option<(Content, Vec<f32>)>,
}

/// Checks a change of a schedule's text or tag; a new tag falls due from now on.
pub(crate) fn edit(view: &View, owner: &Owner, id: &Id, req: &ScheduleUpdate) -> Result<Edit> {
    let mut s = own_row(view, owner, id)?;
    if s.status == ScheduleStatus::Cancelled {
        return Err(Error::invalid(
            "id",
            format!("schedule {} is cancelled", s.id),
        ));
    }
    let now = view.now()?;
    if let Some(t) = &req.cron_tag {
        let next = Tag::parse(t)?.next_after(now, now).ok_or_else(|| {
            Error::invalid("cron_tag", "a one-off schedule must be in the future")
        })?;
        s.start_at = now;
        s.cron_tag = t.clone();
        s.next_due = Some(next);
        s.surfaced_due = None;
        s.status = ScheduleStatus::Active;
    }
    if req.content.is_none() && req.cron_tag.is_none() {
        return Err(Error::invalid("schedule", "give a new content or cron_tag"));
    }
    let patch = MemoryPatch {
        content: req.content.clone(),
        ..Default::default()
    };
    Ok(Edit {
        content: curate::new_content(view, owner, id, &patch)?,
        tag: req.cron_tag.is_some(),
        row: s,
    })
}

/// Writes a checked change of a schedule.
pub(crate) fn update(tx: &mut Tx, owner: &Owner, id: &Id, edit: Edit) -> Result<Schedule> {
    if edit.content.is_some() {
        curate::update(tx, owner, id, MemoryPatch::default(), edit.content)?;
    }
    if edit.tag {
        set_tag(
            tx,
            owner,
            edit.row.memory_pk,
            Some(edit.row.cron_tag.clone()),
        )?;
    }
    sql::save(tx.conn(), &edit.row)?;
    Ok(row(tx, owner, id)?.into())
}

/// Cancels a schedule: it no longer falls due, and its memory decays like any plan.
pub(crate) fn cancel(tx: &mut Tx, owner: &Owner, id: &Id) -> Result<Schedule> {
    let mut s = own_row(tx, owner, id)?;
    if s.status == ScheduleStatus::Cancelled {
        return Err(Error::invalid(
            "id",
            format!("schedule {} is already cancelled", s.id),
        ));
    }
    s.status = ScheduleStatus::Cancelled;
    s.next_due = None;
    set_tag(tx, owner, s.memory_pk, None)?;
    sql::save(tx.conn(), &s)?;
    Ok(row(tx, owner, id)?.into())
}

/// Sets (or clears) the cron tag of a schedule's memory; whether it decays follows.
fn set_tag(tx: &mut Tx, owner: &Owner, pk: i64, tag: Option<String>) -> Result<()> {
    if let Some((_, mut m)) = memories::by_pks(tx.conn(), owner, &[pk])?.pop() {
        m.cron_tag = tag;
        tx.update(pk, &mut m)?;
    }
    Ok(())
}
