//! What the scan found, as signals: each keyed for the fingerprint, quoted for the summary,
//! and moved up or down a tier by fresh memories and `critical`/`urgent`/`low-priority`/
//! `backlog` tags.

use super::scan::{Scan, GOAL_GRACE_MS};
use super::tick;
use super::{GoalStatus, SignalKind, Trend, Urgency};
use crate::clock::{Millis, MINUTE_MS};
use crate::model::Memory;

/// A memory written this recently moves its signal up a tier.
const FRESH_MS: Millis = 30 * MINUTE_MS;
/// Tags that move a signal up, and down.
const UP_TAGS: &[&str] = &["critical", "urgent"];
const DOWN_TAGS: &[&str] = &["low-priority", "backlog"];
/// Longest memory text quoted in the summary.
const SUMMARY_CHARS: usize = 200;

/// A signal being built: what it is about and how it reads.
pub(super) struct Built<'a> {
    pub kind: SignalKind,
    pub memories: Vec<(i64, &'a Memory)>,
    /// Ids of memories it is about that are not loaded here (conflicts, relationships).
    pub other_ids: Vec<String>,
    pub keys: Vec<String>,
    pub lines: Vec<String>,
    pub summary: String,
}

impl<'a> Built<'a> {
    fn new(kind: SignalKind, summary: String) -> Self {
        Built {
            kind,
            memories: Vec::new(),
            other_ids: Vec::new(),
            keys: Vec::new(),
            lines: Vec::new(),
            summary,
        }
    }

    /// Adds memories, each keyed and quoted.
    fn with(mut self, prefix: &str, rows: impl IntoIterator<Item = (i64, &'a Memory)>) -> Self {
        for (pk, m) in rows {
            self.keys.push(format!("{prefix}:{}", m.id));
            self.lines.push(quote(&m.content));
            self.memories.push((pk, m));
        }
        self
    }

    /// Every memory id it is about, each once, in order.
    pub fn memory_ids(&self) -> impl Iterator<Item = String> + '_ {
        let mut seen = std::collections::BTreeSet::new();
        self.memories
            .iter()
            .map(|(_, m)| m.id.clone())
            .chain(self.other_ids.iter().cloned())
            .filter(move |id| seen.insert(id.clone()))
    }

    /// Adds one item: its fingerprint key, the memories it is about (beyond those loaded
    /// here) and its line in the summary.
    fn item(&mut self, key: String, ids: impl IntoIterator<Item = String>, line: String) {
        self.keys.push(key);
        self.other_ids.extend(ids);
        self.lines.push(line);
    }

    /// Its tier: the kind's, up for a fresh memory or a critical/urgent tag (at most
    /// elevated), down when every memory is low-priority/backlog.
    pub fn tier(&self, now: Millis) -> Urgency {
        let mut tier = self.kind.tier();
        let tagged =
            |m: &Memory, tags: &[&str]| m.tags().iter().any(|t| tags.contains(&t.as_str()));
        if self
            .memories
            .iter()
            .any(|(_, m)| now - m.created_at < FRESH_MS)
        {
            tier = tier.up(Urgency::Elevated);
        }
        if self.memories.iter().any(|(_, m)| tagged(m, UP_TAGS)) {
            tier = tier.up(Urgency::Elevated);
        }
        if !self.memories.is_empty() && self.memories.iter().all(|(_, m)| tagged(m, DOWN_TAGS)) {
            tier = tier.down();
        }
        tier
    }
}

pub(super) fn quote(content: &str) -> String {
    let t = content.trim();
    if t.chars().count() <= SUMMARY_CHARS {
        t.to_string()
    } else {
        let mut s: String = t.chars().take(SUMMARY_CHARS - 1).collect();
        s.push('…');
        s
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn hours(ms: Millis) -> String {
    format!("{:.1} h", ms as f64 / 3_600_000.0)
}

/// Turns what the scan found into signals, most urgent first.
pub(super) fn signals<'a>(scan: &'a Scan, now: Millis, window: Millis) -> Vec<Built<'a>> {
    [
        scheduled(scan),
        deadlines(scan, now, window),
        conflicts(scan),
        continuity(scan),
        stale_monitors(scan),
        velocity(scan),
        pending_work(scan),
        goal_progress(scan, now),
        knowledge_gaps(scan),
        positive_deltas(scan),
        decaying(scan),
        sentiment(scan),
        relationships(scan),
        patterns(scan),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Schedules due, each with the runs it missed.
fn scheduled(scan: &Scan) -> Option<Built<'_>> {
    if scan.scheduled.is_empty() {
        return None;
    }
    let mut b = Built::new(
        SignalKind::Scheduled,
        format!(
            "{} due",
            plural(scan.scheduled.len(), "schedule", "schedules")
        ),
    );
    for s in &scan.scheduled {
        let missed = if s.missed > 0 {
            format!(" ({} missed)", s.missed)
        } else {
            String::new()
        };
        b.item(
            format!("scheduled:{}:{}", s.id, s.next_due.unwrap_or(0)),
            [s.id.clone()],
            format!("{} [{}]{missed}", quote(&s.content), s.cron_tag),
        );
    }
    Some(b)
}

/// Deadlines within the window, each with the time left (or overdue).
fn deadlines(scan: &Scan, now: Millis, window: Millis) -> Option<Built<'_>> {
    if scan.deadlines.is_empty() {
        return None;
    }
    let mut b = Built::new(
        SignalKind::Deadlines,
        format!(
            "{} within {}",
            plural(scan.deadlines.len(), "deadline", "deadlines"),
            hours(window)
        ),
    )
    .with("deadline", scan.deadlines.iter().map(|(pk, m)| (*pk, m)));
    b.lines = scan
        .deadlines
        .iter()
        .map(|(_, m)| {
            let left = m.expires_at.unwrap_or(now) - now;
            let when = if left < 0 {
                format!("overdue by {}", hours(-left))
            } else {
                format!("due in {}", hours(left))
            };
            format!("{} ({when})", quote(&m.content))
        })
        .collect();
    Some(b)
}

/// Conflicts to ask about, each quoting both sides.
fn conflicts(scan: &Scan) -> Option<Built<'_>> {
    if scan.conflicts.is_empty() {
        return None;
    }
    let mut b = Built::new(
        SignalKind::Conflicts,
        format!(
            "{} to ask about",
            plural(scan.conflicts.len(), "conflict", "conflicts")
        ),
    );
    for c in &scan.conflicts {
        b.item(
            format!("conflict:{}", c.id),
            std::iter::once(c.existing.clone()).chain(c.memory.clone()),
            format!("{} ⟷ {}", quote(&c.existing_content), quote(&c.content)),
        );
    }
    Some(b)
}

/// A paused session, with how to resume it.
fn continuity(scan: &Scan) -> Option<Built<'_>> {
    let (c, pks) = scan.continuity.as_ref()?;
    let mut b = Built::new(
        SignalKind::Continuity,
        format!(
            "a session paused {} ago",
            hours((c.session_age_hours * 3_600_000.0) as Millis)
        ),
    )
    .with("continuity", pks.iter().copied().zip(&c.last_memories));
    b.lines = vec![c.resume_suggestion.clone()];
    Some(b)
}

/// Monitors overdue for a check.
fn stale_monitors(scan: &Scan) -> Option<Built<'_>> {
    if scan.stale_monitors.is_empty() {
        return None;
    }
    Some(
        Built::new(
            SignalKind::StaleMonitors,
            format!(
                "{} overdue for a check",
                plural(scan.stale_monitors.len(), "monitor", "monitors")
            ),
        )
        .with(
            "monitor",
            scan.stale_monitors.iter().map(|(pk, m)| (*pk, m)),
        ),
    )
}

/// Many memories written since the last check-in.
fn velocity(scan: &Scan) -> Option<Built<'_>> {
    if scan.velocity < tick::BUSY_VELOCITY {
        return None;
    }
    let mut b = Built::new(
        SignalKind::MemoryVelocity,
        format!(
            "{} since the last check-in",
            plural(scan.velocity, "new memory", "new memories")
        ),
    );
    let line = b.summary.clone();
    b.item("velocity".into(), [], line);
    Some(b)
}

/// Plans and tasks open.
fn pending_work(scan: &Scan) -> Option<Built<'_>> {
    if scan.pending.is_empty() {
        return None;
    }
    Some(
        Built::new(
            SignalKind::PendingWork,
            format!(
                "{} open",
                plural(scan.pending.len(), "plan or task", "plans and tasks")
            ),
        )
        .with("work", scan.pending.iter().map(|(pk, m)| (*pk, m))),
    )
}

/// Goals off track, once past their grace period.
fn goal_progress(scan: &Scan, now: Millis) -> Option<Built<'_>> {
    let troubled: Vec<_> = scan
        .goals
        .iter()
        .filter(|(g, _)| {
            g.status != GoalStatus::OnTrack && now - g.plan.created_at >= GOAL_GRACE_MS
        })
        .collect();
    if troubled.is_empty() {
        return None;
    }
    let mut b = Built::new(
        SignalKind::GoalProgress,
        format!("{} need attention", plural(troubled.len(), "goal", "goals")),
    );
    for (g, pk) in &troubled {
        b.item(
            format!("goal:{}:{}", g.plan.id, g.status),
            [],
            format!(
                "{} — {} ({} activities)",
                quote(&g.plan.content),
                g.status,
                g.activities.len()
            ),
        );
        b.memories.push((*pk, &g.plan));
    }
    Some(b)
}

/// Questions nothing answers yet.
fn knowledge_gaps(scan: &Scan) -> Option<Built<'_>> {
    if scan.gaps.is_empty() {
        return None;
    }
    let mut b = Built::new(
        SignalKind::KnowledgeGaps,
        format!(
            "{} nothing answers yet",
            plural(scan.gaps.len(), "question", "questions")
        ),
    );
    for (g, _) in &scan.gaps {
        b.item(
            format!("gap:{}", g.memory_id),
            [g.memory_id.clone()],
            quote(&g.question),
        );
    }
    Some(b)
}

/// Improvements since the last check-in.
fn positive_deltas(scan: &Scan) -> Option<Built<'_>> {
    if scan.deltas.is_empty() {
        return None;
    }
    let mut b = Built::new(
        SignalKind::PositiveDeltas,
        format!(
            "{} since the last check-in",
            plural(scan.deltas.len(), "improvement", "improvements")
        ),
    );
    for d in &scan.deltas {
        b.item(
            format!("delta:{}:{}", d.kind, d.subject),
            [],
            d.description.clone(),
        );
    }
    Some(b)
}

/// Important memories fading within a week.
fn decaying(scan: &Scan) -> Option<Built<'_>> {
    if scan.decaying.is_empty() {
        return None;
    }
    Some(
        Built::new(
            SignalKind::Decaying,
            format!(
                "{} fading within a week",
                plural(
                    scan.decaying.len(),
                    "important memory",
                    "important memories"
                )
            ),
        )
        .with("decay", scan.decaying.iter().map(|(pk, m)| (*pk, m))),
    )
}

/// A sentiment trend that moved or has notable memories, with those memories.
fn sentiment(scan: &Scan) -> Option<Built<'_>> {
    let t = scan
        .sentiment
        .as_ref()
        .filter(|t| t.direction != Trend::Stable || !t.notable.is_empty())?;
    let mut b = Built::new(
        SignalKind::Sentiment,
        format!(
            "sentiment {} ({:+.2})",
            t.direction,
            t.recent_avg - t.previous_avg
        ),
    );
    let line = b.summary.clone();
    b.item(format!("sentiment:{}", t.direction), [], line);
    for m in &t.notable {
        b.item(
            format!("sentiment:{}", m.id),
            [m.id.clone()],
            quote(&m.content),
        );
    }
    Some(b)
}

/// People and things silent while plans involve them.
fn relationships(scan: &Scan) -> Option<Built<'_>> {
    if scan.alerts.is_empty() {
        return None;
    }
    let mut b = Built::new(
        SignalKind::Relationships,
        format!(
            "{} silent while plans involve them",
            plural(scan.alerts.len(), "person or thing", "people and things")
        ),
    );
    for a in &scan.alerts {
        b.item(
            format!("rel:{}:{}", a.entity, a.urgency),
            a.related_plans.iter().cloned(),
            format!(
                "{} — silent {} days ({})",
                a.entity, a.days_silent, a.urgency
            ),
        );
    }
    Some(b)
}

/// Topics usual for today.
fn patterns(scan: &Scan) -> Option<Built<'_>> {
    if scan.patterns.is_empty() {
        return None;
    }
    let mut b = Built::new(
        SignalKind::Patterns,
        format!(
            "{} for today",
            plural(scan.patterns.len(), "usual topic", "usual topics")
        ),
    );
    for p in &scan.patterns {
        b.item(format!("pattern:{}", p.topic), [], p.description.clone());
    }
    Some(b)
}
