//! Which memories the calling agent may see. Several agents may share one owner's store: a
//! call made for an agent (`agent_id`) sees that agent's own memories, `global` ones, and
//! `team` ones of the owner's teams it belongs to; a call without an agent is the owner's own
//! view and sees everything. The rule is stated once, here, and reaches SQL as the function
//! `mnemo_visible(agent_id, visibility, team_id)` ([`VISIBLE`]), which every read of memory
//! rows for a caller filters by. A call may also read as of a past time (the heartbeat's
//! `as_of`): then `mnemo_existed(time)` leaves out memories, messages and acts of later times.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::functions::FunctionFlags;
use rusqlite::Connection;

use crate::clock::Millis;
use crate::error::Result;
use crate::model::{Memory, Visibility};

/// The SQL condition on a `memories` row that the calling agent may see it.
pub(crate) const VISIBLE: &str = "mnemo_visible(agent_id, visibility, team_id)";

/// One agent's view of an owner's memories (or a team's: no agent, one team).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Viewer {
    /// The agent.
    pub agent: Option<String>,
    /// The owner's teams it belongs to.
    pub teams: BTreeSet<String>,
    /// Only the agent's own memories (a search that is not team-aware).
    pub own_only: bool,
}

impl Viewer {
    /// Whether the viewer may see a memory written by `agent_id` with `visibility` in
    /// `team_id`.
    pub fn sees(&self, agent_id: Option<&str>, visibility: &str, team_id: Option<&str>) -> bool {
        if self.agent.is_some() && agent_id == self.agent.as_deref() {
            return true;
        }
        !self.own_only
            && (visibility == Visibility::Global.as_str()
                || (visibility == Visibility::Team.as_str()
                    && team_id.is_some_and(|t| self.teams.contains(t))))
    }
}

/// Who the running call reads for, and as of when.
#[derive(Debug, Clone, Default)]
struct Reading {
    /// The viewer (none: the owner's view).
    viewer: Option<Viewer>,
    /// The time the call reads as of (none: now): later memories are not seen.
    until: Option<Millis>,
}

/// While it lives, calls read for the viewer it was made for ([`Current::narrow`]); when it is
/// dropped, for the viewer before. One that narrowed nothing (the owner's view asked)
/// changes nothing.
#[must_use = "the view is narrowed only while this lives"]
pub(crate) struct Viewing(Option<(Current, Option<Viewer>)>);

impl Viewing {
    /// A view left as it is.
    pub fn unchanged() -> Viewing {
        Viewing(None)
    }
}

impl Drop for Viewing {
    fn drop(&mut self) {
        if let Some((current, before)) = self.0.take() {
            current.set(before);
        }
    }
}

/// The viewer of the call running now, shared with the SQL functions.
#[derive(Debug, Clone, Default)]
pub(crate) struct Current(Arc<Mutex<Reading>>);

impl Current {
    fn lock(&self) -> MutexGuard<'_, Reading> {
        // A panic while the lock was held leaves a valid value: take it.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes `viewer` the viewer of the calls that follow (none: the owner's view).
    pub fn set(&self, viewer: Option<Viewer>) {
        self.lock().viewer = viewer;
    }

    /// Makes `viewer` the viewer of the calls that follow until the answer is dropped, then
    /// the one before again.
    pub fn narrow(&self, viewer: Viewer) -> Viewing {
        let before = self.lock().viewer.replace(viewer);
        Viewing(Some((self.clone(), before)))
    }

    /// Makes the calls that follow read as of `until` (none: now).
    pub fn set_until(&self, until: Option<Millis>) {
        self.lock().until = until;
    }

    /// Whether the call reads for an agent or a team rather than the owner.
    pub fn is_narrowed(&self) -> bool {
        self.lock().viewer.is_some()
    }

    /// What the call may see, as text for the keys of what is cached per reader: empty for
    /// the owner's view of now, which sees everything.
    pub fn fingerprint(&self) -> String {
        let r = self.lock();
        match (&r.viewer, r.until) {
            (None, None) => String::new(),
            (v, until) => format!("{v:?} {until:?}"),
        }
    }

    /// Whether the viewer may see `m` (the owner's view sees every memory written by then).
    pub fn sees(&self, m: &Memory) -> bool {
        let r = self.lock();
        r.until.is_none_or(|t| m.created_at <= t)
            && r.viewer.as_ref().is_none_or(|v| {
                v.sees(
                    m.agent_id.as_deref(),
                    m.visibility.as_str(),
                    m.team_id.as_deref(),
                )
            })
    }

    /// Whether the viewer may change `m`: its own memory, or any in the owner's view.
    pub fn may_change(&self, m: &Memory) -> bool {
        self.lock()
            .viewer
            .as_ref()
            .is_none_or(|v| v.agent.is_some() && m.agent_id == v.agent)
    }

    /// Registers [`VISIBLE`] and `mnemo_existed` on `conn`, answering for this viewer.
    pub fn install(&self, conn: &Connection) -> Result<()> {
        let current = self.clone();
        conn.create_scalar_function("mnemo_existed", 1, FunctionFlags::SQLITE_UTF8, move |ctx| {
            let t: Millis = ctx.get(0)?;
            Ok(current.lock().until.is_none_or(|until| t <= until))
        })?;
        let current = self.clone();
        conn.create_scalar_function("mnemo_visible", 3, FunctionFlags::SQLITE_UTF8, move |ctx| {
            let reading = current.lock();
            let Some(v) = reading.viewer.as_ref() else {
                return Ok(true);
            };
            let agent: Option<String> = ctx.get(0)?;
            let visibility: String = ctx.get(1)?;
            let team: Option<String> = ctx.get(2)?;
            Ok(v.sees(agent.as_deref(), &visibility, team.as_deref()))
        })?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_agent_sees_its_own_global_and_its_teams_memories() {
        let v = Viewer {
            agent: Some("a".into()),
            teams: BTreeSet::from(["t".to_string()]),
            own_only: false,
        };
        let own = Viewer {
            own_only: true,
            ..v.clone()
        };
        assert!(own.sees(Some("a"), "team", Some("t")) && !own.sees(Some("b"), "global", None));
        let team = Viewer {
            agent: None,
            ..v.clone()
        };
        assert!(team.sees(Some("b"), "team", Some("t")) && !team.sees(None, "private", None));
        assert!(v.sees(Some("a"), "private", None));
        assert!(!v.sees(Some("b"), "private", None));
        assert!(!v.sees(None, "private", None));
        assert!(v.sees(Some("b"), "global", None));
        assert!(v.sees(Some("b"), "team", Some("t")));
        assert!(!v.sees(Some("b"), "team", Some("u")));
        assert!(!v.sees(Some("b"), "team", None));
        let conn = Connection::open_in_memory().unwrap();
        let current = Current::default();
        current.install(&conn).unwrap();
        let ask = |a: Option<&str>| -> bool {
            conn.query_row("SELECT mnemo_visible(?1, 'private', NULL)", [a], |r| {
                r.get(0)
            })
            .unwrap()
        };
        assert!(ask(Some("b")), "the owner's view sees everything");
        current.set(Some(v));
        assert!(!ask(Some("b")) && ask(Some("a")));
    }
}
