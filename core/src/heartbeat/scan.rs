//! The 14 signals, each from bounded SQL over the owner's stored rows and stored vectors:
//! nothing here embeds, extracts or calls a model.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::{Deserialize, Serialize};

use super::sql::{self, ActRow, Brief, Row2};
use super::{
    AlertLevel, Continuity, DeltaKind, GoalProgress, GoalStatus, HeartbeatConfig, KnowledgeGap,
    Options, Pattern, PositiveDelta, RelationshipAlert, SentimentTrend, Trend,
};
use crate::calendar;
use crate::clock::{Millis, DAY_MS, MINUTE_MS};
use crate::conflict::{self, Conflict, ConflictStatus};
use crate::decay;
use crate::error::Result;
use crate::importance;
use crate::lexicon::{is_stopword, WH_WORDS};
use crate::model::{Memory, MemoryType};
use crate::order::{CollectOrdered, Keyed};
use crate::schedule::{self, ScheduleRow};
use crate::store::{memories, View};

const HOUR_MS: Millis = 60 * MINUTE_MS;
/// A deadline this close (or this recently passed) is critical.
pub const CRITICAL_MS: Millis = HOUR_MS;
/// Deadlines passed longer ago than this are no longer signalled.
const OVERDUE_GRACE_MS: Millis = DAY_MS;
/// Pending work: updated this recently, or expiring this soon (7 d, 14 d; overdue by
/// more than the first, it is no longer pending). Process chatter is left out in the query.
const PENDING_UPDATED_MS: Millis = 7 * DAY_MS;
const PENDING_EXPIRING_MS: Millis = 14 * DAY_MS;
/// Continuity: the newest session memory must be younger than this, the session is the
/// memories within the next window of it, and it counts as paused after the last.
const CONTINUITY_MAX_AGE_MS: Millis = 12 * HOUR_MS;
const SESSION_SPAN_MS: Millis = 2 * HOUR_MS;
const SESSION_PAUSED_MS: Millis = 30 * MINUTE_MS;
const CONTINUITY_MEMORIES: usize = 5;
const RESUME_TOPICS: usize = 3;
const RESUME_TOPIC_CHARS: usize = 80;
/// Goals: at most this many plans, activities of the last 30 days (at most 200), related at
/// cosine ≥ 0.4; 10 activities make full progress; on track with one in 7 days, at
/// risk with a deadline within 14 days; a plan younger than a day is not yet stalled.
const GOALS: usize = 10;
const GOAL_ACTIVITY_MS: Millis = 30 * DAY_MS;
const GOAL_ACTIVITIES: usize = 200;
const GOAL_SIMILARITY: f32 = 0.4;
const GOAL_FULL: f64 = 10.0;
const ON_TRACK_MS: Millis = 7 * DAY_MS;
const AT_RISK_DAYS: f64 = 14.0;
pub const GOAL_GRACE_MS: Millis = DAY_MS;
/// Knowledge gaps: questions of the last 30 days (among the newest 100 memories, at most 10
/// looked at), answered by a memory ≥ 0.6 similar (at most 5) among the 20
/// newest holding the question's 4 longest content words.
const GAP_LOOKBACK_MS: Millis = 30 * DAY_MS;
const GAP_RECENT: usize = 100;
const GAP_QUESTIONS: usize = 10;
const GAP_TERMS: usize = 4;
const GAP_CANDIDATES: usize = 20;
const GAP_SIMILARITY: f32 = 0.6;
const GAPS: usize = 5;
/// Decaying: important memories whose retention falls below the threshold within a week,
/// among the 60 whose lifecycle changes soonest (maintenance up to a day late).
const DECAY_HORIZON_MS: Millis = 7 * DAY_MS;
const DECAY_CANDIDATES: usize = 60;
/// Sentiment: the newest 40 felt memories, at least 6; a change of 0.3 is a trend; 0.7 is
/// notable.
const SENTIMENT_WINDOW: usize = 40;
const SENTIMENT_MIN: usize = 6;
const SENTIMENT_SHIFT: f64 = 0.3;
const SENTIMENT_NOTABLE: f64 = 0.7;
/// Relationships: silent 7 days; a related plan due within 14 days makes it urgent; plans
/// due within 30 days are looked at besides pending work.
const SILENT_DAYS: i64 = 7;
const URGENT_PLAN_MS: Millis = 14 * DAY_MS;
const RELATED_PLAN_MS: Millis = 30 * DAY_MS;
const RELATED_PLANS: usize = 100;
/// Patterns: 90 days, at least 10 memories; a topic on 3 of the same weekdays; full
/// confidence at 10; the newest 100 memories of a day read.
const PATTERN_DAYS: i64 = 90;
const PATTERN_MIN_MEMORIES: usize = 10;
const PATTERN_MIN_DAYS: u32 = 3;
const PATTERN_FULL: f64 = 10.0;
const PATTERN_PER_DAY: usize = 100;
/// Positive deltas: a silence over 7 days more than halved is re-engagement.
const REENGAGED_AFTER_DAYS: i64 = 7;
/// Velocity is counted up to this many memories.
const VELOCITY_CAP: usize = 1000;

/// What the last act saw, kept with it for positive deltas.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Goal states by plan memory id.
    pub goals: Keyed<String, GoalStatus>,
    /// Days silent by entity key (pk).
    pub silent: Keyed<i64, i64>,
    pub sentiment: Option<Trend>,
}

/// Everything the scan found, before the decision.
#[derive(Debug, Default)]
pub struct Scan {
    pub scheduled: Vec<ScheduleRow>,
    pub deadlines: Vec<Row2>,
    pub critical_deadline: bool,
    pub conflicts: Vec<Conflict>,
    pub continuity: Option<(Continuity, Vec<i64>)>,
    pub stale_monitors: Vec<Row2>,
    pub velocity: usize,
    pub pending: Vec<Row2>,
    /// Goals with their plan's key.
    pub goals: Vec<(GoalProgress, i64)>,
    pub gaps: Vec<(KnowledgeGap, i64)>,
    pub deltas: Vec<PositiveDelta>,
    pub decaying: Vec<Row2>,
    pub sentiment: Option<SentimentTrend>,
    pub alerts: Vec<RelationshipAlert>,
    pub patterns: Vec<Pattern>,
    pub snapshot: Snapshot,
}

/// The `n` longest words of `text` that carry content (no stop words or wh-words), split as
/// the FTS index splits them.
fn content_words(text: &str, n: usize) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        let w = w.to_lowercase();
        if w.chars().count() >= 2
            && !is_stopword(&w)
            && !WH_WORDS.contains(&w.as_str())
            && !words.contains(&w)
        {
            words.push(w);
        }
    }
    crate::order::sort_by_key(&mut words, |w| std::cmp::Reverse(w.chars().count()));
    words.truncate(n);
    words
}

/// Whether text reads as a question: it ends with "?" or opens with a wh-word.
pub fn is_question(text: &str) -> bool {
    let t = text.trim();
    t.ends_with('?')
        || t.split(|c: char| !c.is_alphanumeric())
            .next()
            .is_some_and(|w| WH_WORDS.contains(&w.to_lowercase().as_str()))
}

fn days(ms: Millis) -> f64 {
    ms as f64 / DAY_MS as f64
}

fn truncate(s: &str, n: usize) -> String {
    let s = s.trim();
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Whether a deadline is critical: it falls within the hour, or passed within it.
fn critical(m: &Memory, now: Millis) -> bool {
    m.expires_at.is_some_and(|t| (t - now).abs() <= CRITICAL_MS)
}

/// The memories acts surfaced within the hour: signals leave them out (deadlines: until they
/// turn critical).
struct Surfaced(BTreeSet<String>);

impl Surfaced {
    fn within_hour(recent_acts: &[ActRow], now: Millis) -> Self {
        let hour_ago = now - HOUR_MS;
        Surfaced(
            recent_acts
                .iter()
                .filter(|a| a.at >= hour_ago)
                .flat_map(|a| a.memory_ids.iter().cloned())
                .collect_set(),
        )
    }

    fn contains(&self, id: &str) -> bool {
        self.0.contains(id)
    }

    /// Whether `m` was not surfaced within the hour.
    fn fresh(&self, m: &Memory) -> bool {
        !self.contains(m.id.as_str())
    }

    /// The rows whose memories were not surfaced within the hour.
    fn fresh_rows(&self, rows: Vec<Row2>) -> Vec<Row2> {
        rows.into_iter().filter(|(_, m)| self.fresh(m)).collect()
    }
}

/// The scan of one owner: the store seen at one moment, and the heartbeat's settings.
pub(crate) struct Scanner<'v, 's> {
    pub view: &'v mut View<'s>,
    pub cfg: &'v HeartbeatConfig,
}

impl Scanner<'_, '_> {
    /// Runs the 14 signal queries for `owner` at `now`.
    pub(crate) fn scan(
        &mut self,
        owner: &str,
        now: Millis,
        opts: &Options,
        last_act: Option<&ActRow>,
        recent_acts: &[ActRow],
    ) -> Result<Scan> {
        let max = opts.max_results;
        let mut scan = Scan {
            scheduled: schedule::due(self.view, owner)?,
            ..Default::default()
        };
        scan.scheduled.truncate(max);
        let surfaced = Surfaced::within_hour(recent_acts, now);

        scan.deadlines = self.deadlines(owner, now, opts, recent_acts)?;
        scan.critical_deadline = scan.deadlines.iter().any(|(_, m)| critical(m, now));
        scan.conflicts = conflict::list(self.view, owner, Some(ConflictStatus::Open), max)?
            .into_iter()
            .filter(|c| !surfaced.contains(&c.existing))
            .collect();
        scan.continuity = self
            .continuity(owner, now)?
            .filter(|(c, _)| c.last_memories.first().is_some_and(|m| surfaced.fresh(m)));
        scan.stale_monitors = surfaced.fresh_rows(self.stale_monitors(owner, now, max)?);
        let since = last_act.map_or(now - DAY_MS, |a| a.at);
        scan.velocity = sql::created_since(self.view.conn(), owner, since, VELOCITY_CAP)?;

        let pending = self.pending(owner, now, max)?;
        let plans: Vec<Row2> = pending
            .iter()
            .filter(|(_, m)| m.memory_type == MemoryType::Plan)
            .take(GOALS)
            .cloned()
            .collect();
        scan.pending = surfaced.fresh_rows(pending);
        let goals = self.goals(owner, now, &plans)?;
        scan.snapshot.goals = goals
            .iter()
            .map(|(g, _)| (g.plan.id.clone(), g.status))
            .collect();
        scan.goals = goals
            .into_iter()
            .filter(|(g, _)| surfaced.fresh(&g.plan))
            .take(max)
            .collect();

        scan.gaps = self.knowledge_gaps(owner, now)?;
        scan.gaps.retain(|(g, _)| !surfaced.contains(&g.memory_id));
        scan.decaying = surfaced.fresh_rows(self.decaying(owner, now, max)?);
        scan.sentiment = sentiment(sql::with_sentiment(
            self.view.conn(),
            owner,
            SENTIMENT_WINDOW,
        )?);
        scan.snapshot.sentiment = scan.sentiment.as_ref().map(|s| s.direction);

        let (alerts, silent) = self.relationship_alerts(owner, now, &plans)?;
        scan.alerts = alerts.into_iter().take(max).collect();
        scan.snapshot.silent = silent;
        scan.patterns = self.patterns(owner, now, opts.offset)?;
        scan.patterns.truncate(max);
        scan.deltas = self.positive_deltas(owner, now, last_act, &scan.snapshot)?;
        Ok(scan)
    }

    /// Deadlines within the window (or passed within a day) that no recent act said, or said
    /// before they turned critical (said once more, then).
    fn deadlines(
        &self,
        owner: &str,
        now: Millis,
        opts: &Options,
        recent_acts: &[ActRow],
    ) -> Result<Vec<Row2>> {
        let mut deadlines = sql::expiring(
            self.view.conn(),
            owner,
            now - OVERDUE_GRACE_MS,
            now + opts.deadline_window,
            opts.max_results,
        )?;
        deadlines.retain(|(_, m)| {
            let said = recent_acts
                .iter()
                .filter(|a| a.memory_ids.contains(&m.id))
                .map(|a| a.at)
                .max();
            match said {
                None => true,
                // Said before it turned critical: say it once more.
                Some(at) => critical(m, now) && m.expires_at.is_some_and(|t| at < t - CRITICAL_MS),
            }
        });
        Ok(deadlines)
    }

    /// Stale monitors: plans tagged `monitor` not touched within their cadence.
    fn stale_monitors(&self, owner: &str, now: Millis, max: usize) -> Result<Vec<Row2>> {
        let cadence = (self.cfg.monitor_cadence_hours * HOUR_MS as f64) as Millis;
        sql::stale_monitors(self.view.conn(), owner, now - cadence, max)
    }

    /// Pending work written at least as important as the floor: updated within 7 days, or
    /// expiring within 14; the most important now (all nine factors) first.
    fn pending(&self, owner: &str, now: Millis, max: usize) -> Result<Vec<Row2>> {
        let mut rows = sql::pending(
            self.view.conn(),
            owner,
            self.cfg.importance_floor,
            now - PENDING_UPDATED_MS,
            (now - PENDING_UPDATED_MS, now + PENDING_EXPIRING_MS),
            3 * sql::PENDING_CANDIDATES,
        )?;
        importance::most_first(&mut rows, now, |(_, m)| m);
        rows.truncate(max);
        Ok(rows)
    }

    /// The newest session, if under 12 h old: its CONTEXT/ACTIVITY memories and the plans
    /// touched in it; interrupted when it left an activity or plan open.
    fn continuity(&mut self, owner: &str, now: Millis) -> Result<Option<(Continuity, Vec<i64>)>> {
        let since = now - CONTINUITY_MAX_AGE_MS;
        let mut last = sql::of_type(
            self.view.conn(),
            owner,
            MemoryType::Context,
            since,
            CONTINUITY_MEMORIES,
        )?;
        last.extend(sql::of_type(
            self.view.conn(),
            owner,
            MemoryType::Activity,
            since,
            CONTINUITY_MEMORIES,
        )?);
        crate::order::sort_by(&mut last, |a, b| {
            b.1.updated_at.cmp(&a.1.updated_at).then(b.0.cmp(&a.0))
        });
        last.truncate(CONTINUITY_MEMORIES);
        let Some(newest) = last.first().map(|(_, m)| m.updated_at) else {
            return Ok(None);
        };
        let age = now - newest;
        if age < SESSION_PAUSED_MS {
            return Ok(None);
        }
        last.retain(|(_, m)| newest - m.updated_at <= SESSION_SPAN_MS);
        let plans = sql::of_type(
            self.view.conn(),
            owner,
            MemoryType::Plan,
            newest - SESSION_SPAN_MS,
            CONTINUITY_MEMORIES,
        )?;
        let open: Vec<&Memory> = last
            .iter()
            .map(|(_, m)| m)
            .filter(|m| m.memory_type == MemoryType::Activity)
            .chain(
                plans
                    .iter()
                    .map(|(_, m)| m)
                    .filter(|m| m.cron_tag.is_none()),
            )
            .collect();
        if open.is_empty() {
            return Ok(None);
        }
        let topics: Vec<String> = open
            .iter()
            .take(RESUME_TOPICS)
            .map(|m| truncate(&m.content, RESUME_TOPIC_CHARS))
            .collect();
        let pks = last.iter().map(|(pk, _)| *pk).collect();
        Ok(Some((
            Continuity {
                last_memories: last.into_iter().map(|(_, m)| m).collect(),
                session_age_hours: age as f64 / HOUR_MS as f64,
                was_interrupted: true,
                resume_suggestion: format!("You were working on: {}", topics.join("; ")),
            },
            pks,
        )))
    }

    /// How each plan is going, from the activities near it (stored vectors) or naming the
    /// same entities.
    fn goals(
        &mut self,
        owner: &str,
        now: Millis,
        plans: &[Row2],
    ) -> Result<Vec<(GoalProgress, i64)>> {
        if plans.is_empty() {
            return Ok(Vec::new());
        }
        let activities = sql::briefs_of_type(
            self.view.conn(),
            owner,
            MemoryType::Activity,
            now - GOAL_ACTIVITY_MS,
            GOAL_ACTIVITIES,
        )?;
        let pks: Vec<i64> = plans
            .iter()
            .map(|(pk, _)| *pk)
            .chain(activities.iter().map(|a| a.pk))
            .collect();
        let mut named: HashMap<i64, BTreeSet<i64>> = HashMap::new();
        for (m, e) in sql::entities_of(self.view.conn(), &pks)? {
            named.entry(m).or_default().insert(e);
        }
        let vectors = self.view.vectors(owner)?;
        let mut out = Vec::new();
        for (plan_pk, plan) in plans {
            let pv = vectors.get(*plan_pk);
            let plan_entities = named.get(plan_pk);
            let related: Vec<&Brief> = activities
                .iter()
                .filter(|a| a.pk != *plan_pk)
                .filter(|a| {
                    let near = match (pv, vectors.get(a.pk)) {
                        (Some(x), Some(y)) => crate::embed::dot(x, y) >= GOAL_SIMILARITY,
                        _ => false,
                    };
                    near || plan_entities
                        .zip(named.get(&a.pk))
                        .is_some_and(|(x, y)| !x.is_disjoint(y))
                })
                .collect();
            let days_left = plan.expires_at.map(|t| days(t - now));
            let status = if related.is_empty() {
                GoalStatus::NoActivity
            } else if related.iter().any(|m| now - m.updated_at < ON_TRACK_MS) {
                GoalStatus::OnTrack
            } else if days_left.is_some_and(|d| (0.0..AT_RISK_DAYS).contains(&d)) {
                GoalStatus::AtRisk
            } else {
                GoalStatus::Stalled
            };
            out.push((
                GoalProgress {
                    plan: plan.clone(),
                    activities: related.iter().map(|m| m.id.clone()).collect(),
                    progress: (related.len() as f64 / GOAL_FULL).min(1.0),
                    days_left,
                    status,
                },
                *plan_pk,
            ));
        }
        Ok(out)
    }

    /// Recent questions with no memory close to them among their best text matches.
    fn knowledge_gaps(&mut self, owner: &str, now: Millis) -> Result<Vec<(KnowledgeGap, i64)>> {
        let questions: Vec<Brief> =
            sql::briefs_since(self.view.conn(), owner, now - GAP_LOOKBACK_MS, GAP_RECENT)?
                .into_iter()
                .filter(|b| is_question(&b.content))
                .take(GAP_QUESTIONS)
                .collect();
        let mut out = Vec::new();
        for q in questions {
            let pk = q.pk;
            if out.len() == GAPS {
                break;
            }
            let terms = content_words(&q.content, GAP_TERMS);
            if terms.is_empty() {
                continue;
            }
            let candidates: Vec<i64> =
                sql::containing_all(self.view.conn(), owner, &terms, GAP_CANDIDATES + 1)?
                    .into_iter()
                    .filter(|&c| c != pk)
                    .collect();
            // Only an answer the caller sees (and had by then) closes the gap.
            let viewer = self.view.viewer();
            let rows: Vec<_> = memories::by_pks(self.view.conn(), owner, &candidates)?
                .into_iter()
                .filter(|(_, m)| viewer.sees(m))
                .collect();
            let vectors = self.view.vectors(owner)?;
            let Some(qv) = vectors.get(pk) else { continue };
            let answered = rows.iter().any(|(c, m)| {
                !is_question(&m.content)
                    && vectors
                        .get(*c)
                        .is_some_and(|v| crate::embed::dot(qv, v) >= GAP_SIMILARITY)
            });
            if !answered {
                out.push((
                    KnowledgeGap {
                        memory_id: q.id.clone(),
                        question: q.content.clone(),
                        asked_at: q.created_at,
                    },
                    pk,
                ));
            }
        }
        Ok(out)
    }

    /// Important memories whose retention falls below the stale threshold within a week.
    fn decaying(&self, owner: &str, now: Millis, max: usize) -> Result<Vec<Row2>> {
        let cfg = self.view.retention();
        let mut out: Vec<Row2> = sql::important_due(
            self.view.conn(),
            owner,
            now - DAY_MS,
            now + DECAY_HORIZON_MS,
            DECAY_CANDIDATES,
        )?
        .into_iter()
        .filter(|(_, m)| {
            !decay::is_exempt(m)
                && decay::retention(m, now, cfg) >= cfg.stale_below
                && decay::retention(m, now + DECAY_HORIZON_MS, cfg) < cfg.stale_below
        })
        .collect();
        out.truncate(max);
        Ok(out)
    }

    /// Entities gone silent for a week while live plans name them; also every silent
    /// entity's days, for the snapshot.
    fn relationship_alerts(
        &self,
        owner: &str,
        now: Millis,
        pending_plans: &[Row2],
    ) -> Result<(Vec<RelationshipAlert>, Keyed<i64, i64>)> {
        // Plan key → (id, deadline).
        let mut plans: Keyed<i64, (String, Option<Millis>)> = pending_plans
            .iter()
            .map(|(pk, m)| (*pk, (m.id.clone(), m.expires_at)))
            .collect();
        for b in sql::plans_expiring(
            self.view.conn(),
            owner,
            now,
            now + RELATED_PLAN_MS,
            RELATED_PLANS,
        )? {
            plans.insert(b.pk, (b.id, b.expires_at));
        }
        let pks: Vec<i64> = plans.keys().copied().collect();
        let mut by_entity: Keyed<i64, Vec<i64>> = Keyed::new();
        for (m, e) in sql::entities_of(self.view.conn(), &pks)? {
            by_entity.or_default(e).push(m);
        }
        let entity_pks: Vec<i64> = by_entity.keys().copied().collect();
        let mut alerts = Vec::new();
        let mut silent = Keyed::new();
        for e in sql::entities_seen(self.view.conn(), owner, &entity_pks)? {
            let days_silent = (now - e.last_seen).div_euclid(DAY_MS);
            if days_silent < SILENT_DAYS {
                continue;
            }
            silent.insert(e.pk, days_silent);
            let related: Vec<&(String, Option<Millis>)> = by_entity
                .get(&e.pk)
                .into_iter()
                .flatten()
                .filter_map(|pk| plans.get(pk))
                .collect();
            let urgent = related
                .iter()
                .any(|(_, due)| due.is_some_and(|t| t >= now && t - now < URGENT_PLAN_MS));
            alerts.push(RelationshipAlert {
                entity: e.name,
                entity_type: e.kind,
                days_silent,
                related_plans: related.iter().map(|(id, _)| id.clone()).collect(),
                urgency: if urgent {
                    AlertLevel::Urgent
                } else {
                    AlertLevel::Attention
                },
            });
        }
        crate::order::sort_by(&mut alerts, |a, b| {
            b.urgency
                .cmp(&a.urgency)
                .then(b.days_silent.cmp(&a.days_silent))
                .then(a.entity.cmp(&b.entity))
        });
        Ok((alerts, silent))
    }

    /// Types and tags that come up on this weekday, week after week.
    fn patterns(&self, owner: &str, now: Millis, offset: i32) -> Result<Vec<Pattern>> {
        if sql::created_since(
            self.view.conn(),
            owner,
            now - PATTERN_DAYS * DAY_MS,
            PATTERN_MIN_MEMORIES,
        )? < PATTERN_MIN_MEMORIES
        {
            return Ok(Vec::new());
        }
        let offset_ms = calendar::local(0, offset);
        let today = calendar::local_day(now, offset);
        // The days each topic came up on.
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for week in 0..=PATTERN_DAYS / 7 {
            let day = today - 7 * week;
            let start = day * DAY_MS - offset_ms;
            if start < now - PATTERN_DAYS * DAY_MS {
                break;
            }
            let topics: BTreeSet<String> = sql::topics_in(
                self.view.conn(),
                owner,
                start,
                (start + DAY_MS).min(now + 1),
                PATTERN_PER_DAY,
            )?
            .into_iter()
            .collect_set();
            for t in topics {
                *seen.entry(t).or_default() += 1;
            }
        }
        let weekday = calendar::local_weekday(now, offset);
        let mut out: Vec<Pattern> = seen
            .into_iter()
            .filter_map(|(topic, n)| Some((topic, u32::try_from(n).ok()?)))
            .filter(|(_, n)| *n >= PATTERN_MIN_DAYS)
            .map(|(topic, n)| Pattern {
                description: format!("{topic} comes up on {weekday}s ({n} of the last weeks)"),
                topic,
                day_of_week: weekday.to_string(),
                days: n,
                confidence: (n as f64 / PATTERN_FULL).min(1.0),
            })
            .collect();
        crate::order::sort_by(&mut out, |a, b| {
            b.days.cmp(&a.days).then(a.topic.cmp(&b.topic))
        });
        Ok(out)
    }

    /// What improved since the last act's snapshot.
    fn positive_deltas(
        &self,
        owner: &str,
        now: Millis,
        last_act: Option<&ActRow>,
        current: &Snapshot,
    ) -> Result<Vec<PositiveDelta>> {
        let Some(before) =
            last_act.and_then(|a| serde_json::from_str::<Snapshot>(&a.snapshot).ok())
        else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (plan, was) in before.goals.iter() {
            if let Some(is) = current.goals.get(plan) {
                if *was != GoalStatus::NoActivity && is > was {
                    out.push(PositiveDelta {
                        kind: DeltaKind::GoalImproved,
                        description: format!("Goal moved from {was} to {is}"),
                        subject: plan.clone(),
                    });
                }
            }
        }
        let pks: Vec<i64> = before.silent.keys().copied().collect();
        for e in sql::entities_seen(self.view.conn(), owner, &pks)? {
            let was = before.silent.get(&e.pk).copied().unwrap_or(0);
            let is = (now - e.last_seen).div_euclid(DAY_MS);
            if was > REENGAGED_AFTER_DAYS && is * 2 < was {
                out.push(PositiveDelta {
                    kind: DeltaKind::EntityReengaged,
                    description: format!("{} is back after {was} days of silence", e.name),
                    subject: e.name,
                });
            }
        }
        if before.sentiment == Some(Trend::Declining)
            && current.sentiment.is_some_and(|t| t != Trend::Declining)
        {
            out.push(PositiveDelta {
                kind: DeltaKind::SentimentImproved,
                description: "Sentiment has recovered from its decline".into(),
                subject: "sentiment".into(),
            });
        }
        Ok(out)
    }
}

/// The trend of the newest felt memories (newest first): the newer half against the older.
fn sentiment(felt: Vec<Row2>) -> Option<SentimentTrend> {
    if felt.len() < SENTIMENT_MIN {
        return None;
    }
    let half = felt.len() / 2;
    let avg = |xs: &[Row2]| xs.iter().map(|(_, m)| m.sentiment).sum::<f64>() / xs.len() as f64;
    let (recent_avg, previous_avg) = (avg(&felt[..half]), avg(&felt[half..]));
    let change = recent_avg - previous_avg;
    let direction = if change > SENTIMENT_SHIFT {
        Trend::Improving
    } else if change < -SENTIMENT_SHIFT {
        Trend::Declining
    } else {
        Trend::Stable
    };
    Some(SentimentTrend {
        recent_avg,
        previous_avg,
        direction,
        delta: change.abs(),
        notable: felt
            .into_iter()
            .map(|(_, m)| m)
            .filter(|m| m.sentiment.abs() > SENTIMENT_NOTABLE)
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn questions_are_recognised() {
        assert!(is_question("When is Ana's birthday?"));
        assert!(is_question("what does Tom drink"));
        assert!(is_question("  Why did the build fail ? "));
        assert!(!is_question("Ana's birthday is in March."));
        assert!(!is_question("Whatever happens, call me."));
        assert!(!is_question(""));
    }

    #[test]
    fn content_words_are_the_longest_meaningful_ones() {
        assert_eq!(
            content_words("When is Ana's birthday?", 4),
            vec!["birthday", "ana"]
        );
        assert_eq!(
            content_words("What did Tom say about the kitchen budget plan?", 2),
            vec!["kitchen", "budget"]
        );
        assert!(content_words("Why is it?", 4).is_empty());
    }
}
