//! Schedules (SPEC §6, issue 6): cron-tagged PLAN memories that fall due again and again
//! (`tag` has the grammar and the calendar). `scheduled` reports each due time once — the
//! heartbeat's `scheduled` signal — and counts the due times that passed unacknowledged as
//! missed; `schedule_ack` moves a schedule on to its next due time.

mod tag;

use serde::{Deserialize, Serialize};

pub use tag::Tag;

use crate::clock::Millis;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::model::{string_enum, MemoryType, Source};
use crate::store::schedules::{self as sql, ScheduleRow};
use crate::text;
use crate::write::NewMemory;

string_enum! {
    /// Whether a schedule still falls due.
    ScheduleStatus, "schedule status" {
        Active = "active",
        /// A one-off that was acknowledged.
        Done = "done",
        Cancelled = "cancelled",
    }
}

/// Most missed due times counted at once (a long-idle `every:1m` stops counting there).
const MAX_MISSED_STEPS: i64 = 10_000;

/// A schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// The id of its PLAN memory.
    pub id: String,
    pub content: String,
    pub cron_tag: String,
    pub status: ScheduleStatus,
    /// When it next falls due (none once done or cancelled).
    pub next_due_at: Option<Millis>,
    /// Due times that passed without an acknowledgement.
    pub missed: i64,
    pub acknowledged_at: Option<Millis>,
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

/// A new schedule, for [`Engine::schedule_create`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScheduleCreate {
    pub entity_id: String,
    pub content: String,
    /// `cron:daily:09:00`, `cron:weekly:mon:09:00`, `cron:every:2h`, `cron:once:<RFC 3339>`, …
    pub cron_tag: String,
}

/// Changes to a schedule, for [`Engine::schedule_update`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScheduleUpdate {
    pub entity_id: String,
    pub id: String,
    pub content: Option<String>,
    pub cron_tag: Option<String>,
}

/// Which schedules [`Engine::schedules`] lists.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SchedulesRequest {
    pub entity_id: String,
    /// Done and cancelled ones too.
    pub all: bool,
}

/// One schedule of one owner.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ScheduleRef {
    pub entity_id: String,
    pub id: String,
}

impl Engine {
    fn schedule_row(&mut self, owner: &str, id: &str) -> Result<ScheduleRow> {
        text::check_id("entity_id", owner)?;
        text::check_id("id", id)?;
        self.flush()?;
        sql::get(&self.conn, owner, id)?.ok_or_else(|| Error::NotFound {
            entity_id: owner.to_string(),
            id: id.to_string(),
        })
    }

    /// Creates a schedule: a PLAN memory with the tag, falling due from now on.
    pub fn schedule_create(&mut self, req: &ScheduleCreate) -> Result<Schedule> {
        let tag = Tag::parse(&req.cron_tag)?;
        let now = self.now()?;
        let next = tag.next_after(now, now).ok_or_else(|| {
            Error::invalid("cron_tag", "a one-off schedule must be in the future")
        })?;
        let prepared = self.prepare(
            NewMemory {
                entity_id: req.entity_id.clone(),
                content: req.content.clone(),
                memory_type: Some(MemoryType::Plan),
                source: Some(Source::User),
                cron_tag: Some(req.cron_tag.clone()),
                ..Default::default()
            },
            &[],
            now,
        )?;
        let owner = req.entity_id.clone();
        // A schedule is its own memory even when its words repeat another's: no dedup.
        let id = self.transaction(&owner, |e| {
            let (pk, id) = e.create(prepared.memory, &prepared.vector, &[], now)?;
            sql::insert(&e.conn, pk, &owner, &req.cron_tag, now, Some(next))?;
            Ok(id)
        })?;
        self.cache.invalidate(&owner);
        let row = self.schedule_row(&owner, &id)?;
        Ok(row.into())
    }

    /// An owner's schedules, soonest due first.
    pub fn schedules(&mut self, req: &SchedulesRequest) -> Result<Vec<Schedule>> {
        text::check_id("entity_id", &req.entity_id)?;
        Ok(sql::list(&self.conn, &req.entity_id, req.all)?
            .into_iter()
            .map(Schedule::from)
            .collect())
    }

    /// The owner's schedules that are due now, each due time reported once. Due times that
    /// passed unacknowledged before a later one came are counted as missed.
    pub fn scheduled(&mut self, entity_id: &str) -> Result<Vec<Schedule>> {
        text::check_id("entity_id", entity_id)?;
        let now = self.now()?;
        let due = self.due_schedules(entity_id, now)?;
        self.mark_surfaced(entity_id, &due)?;
        Ok(due.into_iter().map(Schedule::from).collect())
    }

    /// Schedules due at `now` whose due time was not reported yet, caught up to the latest
    /// due time (the ones overtaken counted as missed); nothing is written.
    pub(crate) fn due_schedules(&self, owner: &str, now: Millis) -> Result<Vec<ScheduleRow>> {
        let mut out = Vec::new();
        for mut s in sql::due(&self.conn, owner, now)? {
            let Ok(tag) = Tag::parse(&s.cron_tag) else {
                continue;
            };
            let mut steps = 0;
            while let Some(next) = s.next_due.and_then(|d| tag.next_after(d, s.start_at)) {
                if next > now || steps == MAX_MISSED_STEPS {
                    break;
                }
                // An acknowledgement moves the due time past now, so one still here
                // with a later one come was missed.
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

    /// Writes back schedules from [`Engine::due_schedules`]: reported, missed runs counted.
    pub(crate) fn mark_surfaced(&mut self, owner: &str, due: &[ScheduleRow]) -> Result<()> {
        if due.is_empty() {
            return Ok(());
        }
        self.transaction(owner, |e| sql::save_all(&e.conn, due))
    }

    /// Acknowledges a schedule: it moves on to its next due time (a one-off is done).
    pub fn schedule_ack(&mut self, req: &ScheduleRef) -> Result<Schedule> {
        let mut s = self.schedule_row(&req.entity_id, &req.id)?;
        if s.status != ScheduleStatus::Active {
            return Err(Error::invalid(
                "id",
                format!("schedule {} is {}", s.id, s.status),
            ));
        }
        let tag = Tag::parse(&s.cron_tag)?;
        let now = self.now()?;
        s.acknowledged_at = Some(now);
        s.next_due = tag.next_after(now.max(s.next_due.unwrap_or(now)), s.start_at);
        if s.next_due.is_none() {
            s.status = ScheduleStatus::Done;
        }
        self.transaction(&req.entity_id, |e| sql::save(&e.conn, &s))?;
        Ok(s.into())
    }

    /// Changes a schedule's text or tag; a new tag falls due from now on.
    pub fn schedule_update(&mut self, req: &ScheduleUpdate) -> Result<Schedule> {
        let mut s = self.schedule_row(&req.entity_id, &req.id)?;
        if s.status == ScheduleStatus::Cancelled {
            return Err(Error::invalid(
                "id",
                format!("schedule {} is cancelled", s.id),
            ));
        }
        let now = self.now()?;
        let tag = match &req.cron_tag {
            Some(t) => {
                let tag = Tag::parse(t)?;
                let next = tag.next_after(now, now).ok_or_else(|| {
                    Error::invalid("cron_tag", "a one-off schedule must be in the future")
                })?;
                s.start_at = now;
                s.cron_tag = t.clone();
                s.next_due = Some(next);
                s.surfaced_due = None;
                s.status = ScheduleStatus::Active;
                Some(t.clone())
            }
            None => None,
        };
        if req.content.is_none() && tag.is_none() {
            return Err(Error::invalid("schedule", "give a new content or cron_tag"));
        }
        if let Some(content) = &req.content {
            self.update(
                &req.entity_id,
                &req.id,
                crate::engine::MemoryPatch {
                    content: Some(content.clone()),
                    ..Default::default()
                },
            )?;
        }
        self.transaction(&req.entity_id, |e| {
            if let Some(t) = &tag {
                sql::set_memory_tag(&e.conn, s.memory_pk, Some(t))?;
            }
            sql::save(&e.conn, &s)
        })?;
        self.cache.invalidate(&req.entity_id);
        let row = self.schedule_row(&req.entity_id, &req.id)?;
        Ok(row.into())
    }

    /// Cancels a schedule: it no longer falls due, and its memory decays like any plan.
    pub fn schedule_cancel(&mut self, req: &ScheduleRef) -> Result<Schedule> {
        let mut s = self.schedule_row(&req.entity_id, &req.id)?;
        if s.status == ScheduleStatus::Cancelled {
            return Err(Error::invalid(
                "id",
                format!("schedule {} is already cancelled", s.id),
            ));
        }
        s.status = ScheduleStatus::Cancelled;
        s.next_due = None;
        self.transaction(&req.entity_id, |e| {
            sql::set_memory_tag(&e.conn, s.memory_pk, None)?;
            sql::save(&e.conn, &s)
        })?;
        let row = self.schedule_row(&req.entity_id, &req.id)?;
        Ok(row.into())
    }
}
