//! One heartbeat check: scan, turn what was found into signals (with freshness and tag
//! adjustments), decide, record the act, and report.

use std::collections::BTreeSet;

use super::decide::{self, Decision, Found, PastAct, Situation};
use super::period::TimePeriod;
use super::scan::{Scan, Scanner};
use super::signals::{quote, signals, Built};
use super::sql::{self, ActRow};
use super::tick::{self, TickInput};
use super::{
    HeartbeatConfig, HeartbeatReport, Options, Signal, SignalKind, Urgency, CONVERSATION_MS,
    LOOKBACK_MS, MIN_ACTS_FOR_RATE, RESPONSE_WINDOW_MS,
};
use crate::calendar;
use crate::clock::{Millis, MINUTE_MS};
use crate::error::Result;
use crate::field::Owner;
use crate::model::{Memory, MemoryType};
use crate::order::{CollectOrdered, Keyed};
use crate::schedule::{self, ScheduleRow};
use crate::store::{Tx, View};
use crate::text;

/// A nudge is about a memory not surfaced within this (4 h), among the newest.
const NUDGE_QUIET_MS: Millis = 4 * 60 * MINUTE_MS;
const NUDGE_CANDIDATES: usize = 200;
/// Importance a nudge needs: plans and activities, then anything.
const NUDGE_WORK_IMPORTANCE: f64 = 0.5;
const NUDGE_ANY_IMPORTANCE: f64 = 0.6;
/// Share of the acts (older than the response window, or answered already) that a user
/// message answered within it; 1 with fewer than 3 such acts.
fn response_rate(acts: &[ActRow], user_messages: &[Millis], now: Millis) -> (f64, Vec<bool>) {
    let answered: Vec<bool> = acts
        .iter()
        .map(|a| {
            user_messages
                .iter()
                .any(|&t| t > a.at && t - a.at <= RESPONSE_WINDOW_MS)
        })
        .collect();
    let settled: Vec<bool> = acts
        .iter()
        .zip(&answered)
        .filter(|(a, &yes)| yes || now - a.at > RESPONSE_WINDOW_MS)
        .map(|(_, &yes)| yes)
        .collect();
    let rate = if settled.len() < MIN_ACTS_FOR_RATE {
        1.0
    } else {
        settled.iter().filter(|&&y| y).count() as f64 / settled.len() as f64
    };
    (rate, answered)
}

/// An act the agent is to take, with the schedules it surfaces.
pub(crate) struct Act {
    row: ActRow,
    surfaced: Vec<ScheduleRow>,
}

/// One check: the report, and the act to record (when the agent should act and this is not a
/// dry run; the report's `act_id` is set when it is recorded).
pub(crate) struct Checked {
    pub report: HeartbeatReport,
    pub act: Option<Act>,
}

/// Records an act — what it surfaced, and the snapshot later checks compare against — and
/// marks the schedules it surfaced; returns its id.
pub(crate) fn record(
    tx: &mut Tx,
    cfg: &HeartbeatConfig,
    owner: &Owner,
    mut act: Act,
) -> Result<String> {
    let pk = crate::store::next_pk(tx.conn(), "heartbeat_acts")?;
    act.row.id = text::derived_id("act", &[owner.as_bytes()], &[act.row.at, pk]);
    sql::prune(tx.conn(), owner, act.row.at - cfg.keep_ms())?;
    sql::insert_act(tx.conn(), owner, &act.row)?;
    schedule::mark_surfaced(tx, &act.surfaced)?;
    Ok(act.row.id)
}

/// Runs one check for `owner` with checked options; nothing is written.
pub(crate) fn check(
    view: &mut View,
    cfg: &HeartbeatConfig,
    owner: &Owner,
    opts: &Options,
) -> Result<Checked> {
    let check = Check::begin(view, owner, opts)?;
    let scan = check.scan(view, cfg)?;
    let signals = check.signals(view, &scan)?;
    let known = check.known(view, signals.found.is_empty())?;
    let decision = decide::decide(&signals.found, &check.situation(&known, &scan));
    let act = check.act(&decision, &signals, &scan);
    let next_tick_ms = check.next_tick(cfg, &known, &scan, signals.found.len(), act.is_some());
    let report = check.report(decision, known, &scan, &signals, next_tick_ms);
    Ok(Checked { report, act })
}

/// What a check runs with: its owner, options and time, and the owner's latest acts.
struct Check<'a> {
    owner: &'a Owner,
    opts: &'a Options,
    now: Millis,
    /// The week's acts, newest first.
    acts: Vec<ActRow>,
    /// The latest act: the newest of the week's, else an older one if any.
    last_act: Option<ActRow>,
}

/// What the scan found, as signals: each built (what it is about, how it reads) and as the
/// decision weighs it, at the same index.
struct Signals<'a> {
    built: Vec<Built<'a>>,
    found: Vec<Found>,
}

/// What the decision knows of the owner besides what the scan found.
struct Known {
    period: TimePeriod,
    in_conversation: bool,
    response_rate: f64,
    /// The week's acts as the decision sees them, newest first.
    past: Vec<PastAct>,
    /// Time since the owner's last message (or newest memory).
    silence: Option<Millis>,
    /// Nudges already given today (local day).
    nudges_today: u32,
    /// A memory worth a nudge, looked for only when no signal was found.
    nudge_memory: Option<Memory>,
    /// Live memories (counted up to `decide::FIRST_CONTACT_MEMORIES`).
    memories: usize,
}

impl<'a> Check<'a> {
    /// Reads the call's time and the owner's latest acts.
    fn begin(view: &View, owner: &'a Owner, opts: &'a Options) -> Result<Self> {
        let now = view.now()?;
        let acts = sql::acts_since(view.conn(), owner, now - LOOKBACK_MS)?;
        let last_act = match acts.first() {
            Some(a) => Some(a.clone()),
            None => sql::last_act(view.conn(), owner)?,
        };
        Ok(Check {
            owner,
            opts,
            now,
            acts,
            last_act,
        })
    }

    /// Runs the signal queries.
    fn scan(&self, view: &mut View, cfg: &HeartbeatConfig) -> Result<Scan> {
        Scanner { view, cfg }.scan(
            self.owner,
            self.now,
            self.opts,
            self.last_act.as_ref(),
            &self.acts,
        )
    }

    /// What the scan found as signals, each with its tier and the entities its memories name
    /// (for topic dedup).
    fn signals<'s>(&self, view: &View, scan: &'s Scan) -> Result<Signals<'s>> {
        let built = signals(scan, self.now, self.opts.deadline_window);
        let pks: Vec<i64> = built
            .iter()
            .flat_map(|b| b.memories.iter().map(|(pk, _)| *pk))
            .collect();
        let mut named: Keyed<i64, Vec<i64>> = Keyed::new();
        for (m, e) in sql::entities_of(view.conn(), &pks)? {
            named.or_default(m).push(e);
        }
        let found = built
            .iter()
            .map(|b| Found {
                kind: b.kind,
                tier: b.tier(self.now),
                keys: b.keys.clone(),
                entities: b
                    .memories
                    .iter()
                    .flat_map(|(pk, _)| named.get(pk).into_iter().flatten().copied())
                    .collect_set()
                    .into_iter()
                    .collect(),
            })
            .collect();
        Ok(Signals { built, found })
    }

    /// What the decision knows of the owner: the conversation, how the agent's acts were
    /// answered, the silence, today's nudges, and (when `nudge_wanted`) a memory to nudge
    /// about.
    fn known(&self, view: &View, nudge_wanted: bool) -> Result<Known> {
        let (owner, opts, now) = (self.owner, self.opts, self.now);
        let last_message = sql::messages(view.conn(), owner, None, None, 1)?
            .into_iter()
            .next();
        let in_conversation = opts.in_conversation.unwrap_or_else(|| {
            last_message
                .as_ref()
                .is_some_and(|m| now - m.at < CONVERSATION_MS)
        });
        let user_messages = sql::user_message_times(view.conn(), owner, now - LOOKBACK_MS)?;
        let (response_rate, answered) = response_rate(&self.acts, &user_messages, now);
        let past: Vec<PastAct> = self
            .acts
            .iter()
            .zip(answered)
            .map(|(a, responded)| PastAct {
                at: a.at,
                fingerprint: a.fingerprint.clone(),
                entities: a.entities.clone(),
                nudge: a.reason == super::DecisionReason::Nudge,
                responded,
            })
            .collect();
        let quiet_since = match &last_message {
            Some(m) => Some(m.at),
            None => sql::newest_created(view.conn(), owner)?,
        };
        let today = calendar::local_day(now, opts.offset);
        let nudges_today = past
            .iter()
            .filter(|a| a.nudge && calendar::local_day(a.at, opts.offset) == today)
            .count() as u32;
        let period = TimePeriod::of_hour(calendar::local_hour(now, opts.offset), &opts.quiet);
        let nudge_memory = if nudge_wanted {
            nudge_candidate(view, owner, now, &self.acts)?
        } else {
            None
        };
        Ok(Known {
            period,
            in_conversation,
            response_rate,
            past,
            silence: quiet_since.map(|t| now - t),
            nudges_today,
            nudge_memory,
            memories: sql::live_count(view.conn(), owner, decide::FIRST_CONTACT_MEMORIES)?,
        })
    }

    /// The situation the decision is taken in.
    fn situation<'k>(&self, known: &'k Known, scan: &Scan) -> Situation<'k> {
        Situation {
            now: self.now,
            autonomy: self.opts.autonomy,
            period: known.period,
            in_conversation: known.in_conversation,
            velocity: scan.velocity,
            memories: known.memories,
            acted_before: self.last_act.is_some(),
            critical_deadline: scan.critical_deadline,
            response_rate: known.response_rate,
            acts: &known.past,
            silence: known.silence,
            nudges_today: known.nudges_today,
            nudge_memory: known.nudge_memory.as_ref().map(|m| m.id.clone()),
        }
    }

    /// The act to record, when the agent should act and this is not a dry run: what it
    /// surfaces (memories, entities, schedules) and the snapshot later checks compare against.
    fn act(&self, decision: &Decision, signals: &Signals, scan: &Scan) -> Option<Act> {
        if !decision.should_act || self.opts.dry_run {
            return None;
        }
        let kept = decision.kept.iter().copied().collect_set();
        let mut seen = BTreeSet::new();
        let memory_ids: Vec<String> = kept
            .iter()
            .flat_map(|&i| signals.built[i].memory_ids())
            .chain(decision.nudge.iter().cloned())
            .filter(|id| seen.insert(id.clone()))
            .collect();
        let entities: BTreeSet<i64> = kept
            .iter()
            .flat_map(|&i| signals.found[i].entities.iter().copied())
            .collect_set();
        let row = ActRow {
            id: String::new(),
            at: self.now,
            reason: decision.reason,
            tier: decision.tier.unwrap_or(Urgency::Normal),
            autonomy: self.opts.autonomy,
            fingerprint: decision.fingerprint.clone(),
            memory_ids,
            entities: entities.into_iter().collect(),
            snapshot: serde_json::to_string(&scan.snapshot).unwrap_or_else(|_| "{}".into()),
        };
        let scheduled = kept
            .iter()
            .any(|&i| signals.built[i].kind == SignalKind::Scheduled);
        let surfaced = if scheduled {
            scan.scheduled.clone()
        } else {
            Vec::new()
        };
        Some(Act { row, surfaced })
    }

    /// When to check next, given what was found and whether the agent acts now.
    fn next_tick(
        &self,
        cfg: &HeartbeatConfig,
        known: &Known,
        scan: &Scan,
        signals: usize,
        acting: bool,
    ) -> Millis {
        tick::next_interval(
            &cfg.tick,
            TickInput {
                period: known.period,
                since_act: if acting {
                    Some(0)
                } else {
                    self.last_act.as_ref().map(|a| self.now - a.at)
                },
                signals,
                velocity: scan.velocity,
            },
        )
    }

    /// The report: the decision, every signal found (the surfaced ones also as text), and
    /// what the scan found.
    fn report(
        &self,
        decision: Decision,
        known: Known,
        scan: &Scan,
        signals: &Signals,
        next_tick_ms: Millis,
    ) -> HeartbeatReport {
        let kept = decision.kept.iter().copied().collect_set();
        let order = signals.by_tier();
        let nudge = known.nudge_memory.filter(|_| decision.nudge.is_some());
        let summary = signals.summary(&order, &kept, nudge.as_ref());
        let strip =
            |rows: &[(i64, Memory)]| rows.iter().map(|(_, m)| m.clone()).collect::<Vec<_>>();
        HeartbeatReport {
            entity_id: self.owner.to_string(),
            checked_at: self.now,
            should_act: decision.should_act,
            decision_reason: decision.reason,
            urgency_tier: decision.tier,
            autonomy: self.opts.autonomy,
            fingerprint: decision.fingerprint,
            confluence_score: decision.confluence,
            cooldown_ms: decision.cooldown,
            time_period: known.period,
            in_conversation: known.in_conversation,
            response_rate: known.response_rate,
            memory_velocity: scan.velocity,
            next_tick_ms,
            act_id: None,
            nudge,
            signals: signals.listed(&order, &kept),
            scheduled: scan.scheduled.iter().cloned().map(Into::into).collect(),
            deadlines: strip(&scan.deadlines),
            conflicts: scan.conflicts.clone(),
            continuity: scan.continuity.as_ref().map(|(c, _)| c.clone()),
            stale_monitors: strip(&scan.stale_monitors),
            pending_work: strip(&scan.pending),
            goal_progress: scan.goals.iter().map(|(g, _)| g.clone()).collect(),
            knowledge_gaps: scan.gaps.iter().map(|(g, _)| g.clone()).collect(),
            positive_deltas: scan.deltas.clone(),
            decaying: strip(&scan.decaying),
            sentiment_trend: scan.sentiment.clone(),
            relationship_alerts: scan.alerts.clone(),
            behavioral_patterns: scan.patterns.clone(),
            summary,
        }
    }
}

impl Signals<'_> {
    /// The signals' indices, most urgent first (ties in the order found).
    fn by_tier(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.built.len()).collect();
        crate::order::sort_by_key(&mut order, |&i| std::cmp::Reverse(self.found[i].tier));
        order
    }

    /// The surfaced (`kept`) signals as text, in `order`, and the nudge if any.
    fn summary(&self, order: &[usize], kept: &BTreeSet<usize>, nudge: Option<&Memory>) -> String {
        let mut summary = String::new();
        for &i in order.iter().filter(|i| kept.contains(i)) {
            let b = &self.built[i];
            summary += &format!(
                "{} ({}): {}\n",
                b.kind.as_str().to_ascii_uppercase().replace('_', " "),
                self.found[i].tier,
                b.summary
            );
            for line in &b.lines {
                summary += &format!("  - {line}\n");
            }
        }
        if let Some(m) = nudge {
            summary += &format!(
                "NUDGE: it has been quiet for a while\n  - {}\n",
                quote(&m.content)
            );
        }
        summary
    }

    /// Every signal found, in `order`, saying whether it is surfaced.
    fn listed(&self, order: &[usize], kept: &BTreeSet<usize>) -> Vec<Signal> {
        order
            .iter()
            .map(|&i| {
                let b = &self.built[i];
                Signal {
                    kind: b.kind,
                    tier: self.found[i].tier,
                    surfaced: kept.contains(&i),
                    memories: b.memory_ids().collect(),
                    summary: b.summary.clone(),
                }
            })
            .collect()
    }
}

/// A memory worth checking in about: among the newest, one not surfaced within 4 h — a plan or
/// activity written with importance ≥ 0.5, else anything ≥ 0.6, else the most important; the
/// most important now (all nine factors) first.
fn nudge_candidate(
    view: &View,
    owner: &str,
    now: Millis,
    acts: &[ActRow],
) -> Result<Option<Memory>> {
    let said: BTreeSet<String> = acts
        .iter()
        .filter(|a| now - a.at < NUDGE_QUIET_MS)
        .flat_map(|a| a.memory_ids.iter().cloned())
        .collect_set();
    let mut rows: Vec<Memory> = sql::newest(view.conn(), owner, 0, NUDGE_CANDIDATES)?
        .into_iter()
        .map(|(_, m)| m)
        .filter(|m| !said.contains(m.id.as_str()) && m.cron_tag.is_none())
        .collect();
    crate::importance::most_first(&mut rows, now, |m| m);
    let work = |m: &&Memory| {
        matches!(m.memory_type, MemoryType::Plan | MemoryType::Activity)
            && m.importance >= NUDGE_WORK_IMPORTANCE
    };
    let pick = rows
        .iter()
        .find(work)
        .or_else(|| rows.iter().find(|m| m.importance >= NUDGE_ANY_IMPORTANCE))
        .or_else(|| rows.first());
    Ok(pick.cloned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn act(at: Millis) -> ActRow {
        ActRow {
            id: String::new(),
            at,
            reason: super::super::DecisionReason::Act,
            tier: Urgency::Normal,
            autonomy: super::super::Autonomy::Suggest,
            fingerprint: String::new(),
            memory_ids: Vec::new(),
            entities: Vec::new(),
            snapshot: String::new(),
        }
    }

    #[test]
    fn response_rate_counts_answers_within_two_hours() {
        let h = 3_600_000;
        let now = 100 * h;
        let acts = [act(90 * h), act(80 * h), act(70 * h), act(60 * h)];
        // Two answered within 2 h, one answered too late, one not at all.
        let msgs = [60 * h + h, 70 * h + 3 * h, 90 * h + h / 2];
        let (rate, answered) = response_rate(&acts, &msgs, now);
        assert_eq!(answered, vec![true, false, false, true]);
        assert_eq!(rate, 0.5);
        // Fewer than 3 settled acts: 1.
        assert_eq!(response_rate(&acts[..2], &[], now).0, 1.0);
        // An act under 2 h old without an answer is not counted yet.
        let young = [act(now - h), act(80 * h), act(70 * h), act(60 * h)];
        assert_eq!(response_rate(&young, &[], now).0, 0.0);
        assert_eq!(
            response_rate(&young[..3], &[], now).0,
            1.0,
            "only two settled"
        );
    }
}
