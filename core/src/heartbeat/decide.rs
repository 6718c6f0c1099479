//! should_act: the steps, in order, that turn the signals found into a decision —
//! first contact, critical deadline, time of day, conversation, confluence, cooldown and
//! fingerprint, topic dedup — and the nudge after silence when nothing is pressing. Pure:
//! everything it needs about the owner's past comes in [`Situation`].

use std::collections::BTreeSet;

use sha2::{Digest, Sha256};

use super::period::TimePeriod;
use super::policy::{self, Autonomy};
use super::{DecisionReason, SignalKind, Urgency};
use crate::clock::{Millis, MINUTE_MS};
use crate::order::CollectOrdered;
use crate::text;

/// Fewer live memories than this, and the agent has never spoken up: say hello.
pub const FIRST_CONTACT_MEMORIES: usize = 5;
/// The same immediate signals are not repeated within this.
const IMMEDIATE_REPEAT_MS: Millis = 30 * MINUTE_MS;
/// The same fingerprint is stale within this many normal cooldowns.
const STALE_COOLDOWNS: i64 = 2;
/// The same topic is not raised again within this many normal cooldowns.
const TOPIC_COOLDOWNS: i64 = 4;
/// Entity overlap above which two acts are about the same topic.
const TOPIC_OVERLAP: f64 = 0.85;
/// A topic raised this many times without an answer is dropped.
const TOPIC_IGNORED_ACTS: usize = 8;

/// One signal as the decision sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub kind: SignalKind,
    pub tier: Urgency,
    /// What identifies it for the fingerprint ("deadlines:mem_…", "goal:mem_…:stalled").
    pub keys: Vec<String>,
    /// Graph entities its memories name (for topic dedup).
    pub entities: Vec<i64>,
}

/// An earlier act of the agent for this owner.
#[derive(Debug, Clone, PartialEq)]
pub struct PastAct {
    pub at: Millis,
    pub fingerprint: String,
    pub entities: Vec<i64>,
    pub nudge: bool,
    /// A user message came within the response window after it.
    pub responded: bool,
}

/// What the decision knows besides the signals.
#[derive(Debug, Clone)]
pub struct Situation<'a> {
    pub now: Millis,
    pub autonomy: Autonomy,
    pub period: TimePeriod,
    pub in_conversation: bool,
    /// Memories written since the last act.
    pub velocity: usize,
    /// Live memories of the owner (counted up to [`FIRST_CONTACT_MEMORIES`]).
    pub memories: usize,
    /// The agent has acted for this owner before.
    pub acted_before: bool,
    /// A deadline falls within the hour.
    pub critical_deadline: bool,
    pub response_rate: f64,
    /// Acts of the last week, newest first.
    pub acts: &'a [PastAct],
    /// Time since the owner's last message (or newest memory).
    pub silence: Option<Millis>,
    /// Nudges already given today (local day).
    pub nudges_today: u32,
    /// A memory worth a nudge, when one is found.
    pub nudge_memory: Option<String>,
}

impl Situation<'_> {
    /// Whether an act (not a nudge) with this fingerprint came within `within` of now.
    fn said(&self, fingerprint: &str, within: Millis) -> bool {
        self.acts
            .iter()
            .any(|a| !a.nudge && a.fingerprint == fingerprint && self.now - a.at < within)
    }
}

/// The decision.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    pub should_act: bool,
    pub reason: DecisionReason,
    /// Urgency of what is surfaced (the highest kept signal's).
    pub tier: Option<Urgency>,
    /// Indices of the signals that survived the filters: what is surfaced.
    pub kept: Vec<usize>,
    /// Sum of the kept signals' weights.
    pub confluence: u32,
    /// Cooldown in force, after the time-of-day and response-rate factors.
    pub cooldown: Millis,
    /// First 16 hex of SHA-256 over the kept signals' sorted keys.
    pub fingerprint: String,
    /// The memory a nudge is about.
    pub nudge: Option<String>,
}

/// First 16 hex digits of SHA-256 over the sorted, de-duplicated keys ("" for none).
pub fn fingerprint<'k>(keys: impl IntoIterator<Item = &'k String>) -> String {
    let sorted = keys.into_iter().collect_set();
    if sorted.is_empty() {
        return String::new();
    }
    let mut h = Sha256::new();
    for k in sorted {
        h.update((k.len() as u64).to_le_bytes());
        h.update(k.as_bytes());
    }
    text::hex(&h.finalize())[..16].to_string()
}

/// Entities two sets share, over the larger set (1 when both name the same entities).
fn overlap(a: &BTreeSet<i64>, b: &[i64]) -> f64 {
    let b = b.iter().copied().collect_set();
    let larger = a.len().max(b.len());
    if larger == 0 {
        return 0.0;
    }
    a.intersection(&b).count() as f64 / larger as f64
}

/// Runs the steps over `signals` in `s`.
pub fn decide(signals: &[Found], s: &Situation) -> Decision {
    let factor = policy::response_factor(s.response_rate) * s.period.multiplier();
    let stretch = |ms: Millis| (ms as f64 * factor) as Millis;
    let all: Vec<usize> = (0..signals.len()).collect();
    let d = Decision {
        should_act: false,
        reason: DecisionReason::NoSignals,
        tier: None,
        kept: Vec::new(),
        confluence: 0,
        cooldown: 0,
        fingerprint: String::new(),
        nudge: None,
    };
    let finish = |mut d: Decision, kept: Vec<usize>, reason: DecisionReason, act: bool| {
        d.tier = kept.iter().map(|&i| signals[i].tier).max();
        d.confluence = kept.iter().map(|&i| policy::weight(signals[i].tier)).sum();
        d.fingerprint = fingerprint(kept.iter().flat_map(|&i| &signals[i].keys));
        d.kept = kept;
        d.reason = reason;
        d.should_act = act;
        d
    };
    // 1. First contact: a new owner hears from the agent once.
    if s.memories < FIRST_CONTACT_MEMORIES && !s.acted_before {
        let mut d = finish(d, all, DecisionReason::FirstContact, true);
        d.tier = Some(d.tier.unwrap_or(Urgency::Normal));
        return d;
    }
    // 2. A deadline within the hour goes out whatever the hour.
    if s.critical_deadline {
        let kept: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| {
                signals[i].kind == SignalKind::Deadlines || signals[i].tier >= s.period.min_tier()
            })
            .collect();
        let d = finish(d, kept, DecisionReason::ActDeadlineCritical, true);
        if s.said(&d.fingerprint, IMMEDIATE_REPEAT_MS) {
            return Decision {
                should_act: false,
                reason: DecisionReason::SuppressStale,
                ..d
            };
        }
        return d;
    }
    // 3. Time of day: late hours let only urgent signals through.
    let kept: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&i| signals[i].tier >= s.period.min_tier())
        .collect();
    if !signals.is_empty() && kept.is_empty() {
        return finish(d, kept, DecisionReason::SuppressTimePeriod, false);
    }
    // 4. In a conversation only elevated signals interrupt (normal ones too when busy).
    if s.in_conversation {
        let min = if s.velocity >= super::tick::BUSY_VELOCITY {
            Urgency::Normal
        } else {
            Urgency::Elevated
        };
        let inside: Vec<usize> = kept
            .iter()
            .copied()
            .filter(|&i| signals[i].tier >= min)
            .collect();
        if inside.is_empty() {
            let reason = if kept.is_empty() {
                DecisionReason::NoSignals
            } else {
                DecisionReason::SuppressConversationLow
            };
            return finish(d, kept, reason, false);
        }
        return confluence(
            signals,
            s,
            finish(d, inside, DecisionReason::Act, false),
            stretch,
        );
    }
    if kept.is_empty() {
        return nudge(s, d);
    }
    confluence(
        signals,
        s,
        finish(d, kept, DecisionReason::Act, false),
        stretch,
    )
}

/// Steps 5–7 over the kept signals: immediate ones go out unless just said; weak ones must
/// add up; then cooldown, fingerprint and topic.
fn confluence(
    signals: &[Found],
    s: &Situation,
    mut d: Decision,
    stretch: impl Fn(Millis) -> Millis,
) -> Decision {
    let top = d.tier.unwrap_or(Urgency::Low);
    let verdict = |d: Decision, reason: DecisionReason, act: bool| Decision {
        should_act: act,
        reason,
        ..d
    };
    // 5. Immediate signals always surface, once.
    if top == Urgency::Immediate {
        d.cooldown = IMMEDIATE_REPEAT_MS;
        return if s.said(&d.fingerprint, IMMEDIATE_REPEAT_MS) {
            verdict(d, DecisionReason::SuppressStale, false)
        } else {
            verdict(d, DecisionReason::ActImmediate, true)
        };
    }
    // Weak signals act only together.
    let mut reason = DecisionReason::Act;
    if top < Urgency::Elevated {
        if d.confluence < s.autonomy.threshold() {
            return verdict(d, DecisionReason::SuppressConfluence, false);
        }
        reason = DecisionReason::ActConfluence;
    }
    // 6. Cooldown since the last act, then the same signals within a longer window.
    d.cooldown = stretch(s.autonomy.cooldown(top));
    if let Some(last) = s.acts.first() {
        if s.now - last.at < d.cooldown {
            return verdict(d, DecisionReason::SuppressCooldown, false);
        }
    }
    let normal = s.autonomy.cooldown(Urgency::Normal);
    if s.said(&d.fingerprint, stretch(STALE_COOLDOWNS * normal)) {
        return verdict(d, DecisionReason::SuppressStale, false);
    }
    // 7. Topic dedup: the same entities raised recently, or raised again and again unanswered.
    let entities: BTreeSet<i64> = d
        .kept
        .iter()
        .flat_map(|&i| signals[i].entities.iter().copied())
        .collect_set();
    if !entities.is_empty() {
        let window = stretch(TOPIC_COOLDOWNS * normal);
        let same: Vec<&PastAct> = s
            .acts
            .iter()
            .filter(|a| overlap(&entities, &a.entities) > TOPIC_OVERLAP)
            .collect();
        let recent = same.iter().any(|a| s.now - a.at < window);
        let ignored = same.iter().filter(|a| !a.responded).count() >= TOPIC_IGNORED_ACTS;
        if recent || ignored {
            return verdict(d, DecisionReason::SuppressTopicRepeat, false);
        }
    }
    verdict(d, reason, true)
}

/// Nothing pressing: after enough silence, in daytime, within the day's allowance and
/// backoff, the agent may check in about one memory.
fn nudge(s: &Situation, mut d: Decision) -> Decision {
    let Some(policy) = s.autonomy.nudge() else {
        return d;
    };
    match s.silence {
        Some(quiet) if quiet >= policy.after => {}
        _ => return d,
    }
    if s.nudges_today >= policy.per_day {
        d.reason = DecisionReason::SuppressNudgeCap;
        return d;
    }
    let backoff = policy.backoff(s.nudges_today, policy::response_factor(s.response_rate));
    d.cooldown = backoff;
    if let Some(last) = s.acts.iter().find(|a| a.nudge) {
        if s.now - last.at < backoff {
            d.reason = DecisionReason::SuppressNudgeBackoff;
            return d;
        }
    }
    if !s.period.allows_nudge() {
        d.reason = DecisionReason::SuppressTimePeriod;
        return d;
    }
    let Some(id) = s.nudge_memory.clone() else {
        return d;
    };
    d.fingerprint = fingerprint([&format!("nudge:{id}")]);
    d.nudge = Some(id);
    d.tier = Some(Urgency::Normal);
    d.reason = DecisionReason::Nudge;
    d.should_act = true;
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use DecisionReason as R;

    const MIN: Millis = MINUTE_MS;
    const HOUR: Millis = 60 * MIN;
    const NOW: Millis = 1_000 * HOUR;

    fn sig(kind: SignalKind, tier: Urgency, key: &str, entities: &[i64]) -> Found {
        Found {
            kind,
            tier,
            keys: vec![key.to_string()],
            entities: entities.to_vec(),
        }
    }

    fn base(acts: &[PastAct]) -> Situation<'_> {
        Situation {
            now: NOW,
            autonomy: Autonomy::Suggest,
            period: TimePeriod::Working,
            in_conversation: false,
            velocity: 0,
            memories: 50,
            acted_before: true,
            critical_deadline: false,
            response_rate: 1.0,
            acts,
            silence: Some(10 * MIN),
            nudges_today: 0,
            nudge_memory: Some("mem_n".into()),
        }
    }

    fn past(ago: Millis, signals: &[Found], entities: &[i64]) -> PastAct {
        PastAct {
            at: NOW - ago,
            fingerprint: fingerprint(signals.iter().flat_map(|s| &s.keys)),
            entities: entities.to_vec(),
            nudge: false,
            responded: true,
        }
    }

    fn elevated() -> Vec<Found> {
        vec![sig(
            SignalKind::Conflicts,
            Urgency::Elevated,
            "conflict:c1",
            &[1],
        )]
    }

    fn weak(n: usize) -> Vec<Found> {
        (0..n)
            .map(|i| {
                sig(
                    SignalKind::PendingWork,
                    Urgency::Normal,
                    &format!("work:{i}"),
                    &[i as i64],
                )
            })
            .collect()
    }

    #[test]
    fn first_contact_acts_once() {
        let mut s = base(&[]);
        s.memories = 2;
        s.acted_before = false;
        let d = decide(&[], &s);
        assert_eq!(
            (d.should_act, d.reason, d.tier),
            (true, R::FirstContact, Some(Urgency::Normal))
        );
        s.acted_before = true;
        assert_ne!(decide(&[], &s).reason, R::FirstContact);
        s.acted_before = false;
        s.memories = FIRST_CONTACT_MEMORIES;
        assert_ne!(decide(&[], &s).reason, R::FirstContact);
    }

    #[test]
    fn a_critical_deadline_bypasses_quiet_hours_but_not_twice_in_half_an_hour() {
        let signals = vec![sig(
            SignalKind::Deadlines,
            Urgency::Immediate,
            "deadline:d",
            &[],
        )];
        let mut s = base(&[]);
        s.period = TimePeriod::Quiet;
        s.critical_deadline = true;
        let d = decide(&signals, &s);
        assert_eq!((d.should_act, d.reason), (true, R::ActDeadlineCritical));
        let acts = [past(20 * MIN, &signals, &[])];
        let mut s2 = base(&acts);
        s2.critical_deadline = true;
        assert_eq!(decide(&signals, &s2).reason, R::SuppressStale);
        let acts = [past(31 * MIN, &signals, &[])];
        let mut s3 = base(&acts);
        s3.critical_deadline = true;
        assert_eq!(decide(&signals, &s3).reason, R::ActDeadlineCritical);
    }

    #[test]
    fn each_period_lets_its_tiers_through() {
        let by_tier = [
            (Urgency::Low, SignalKind::Patterns),
            (Urgency::Normal, SignalKind::PendingWork),
            (Urgency::Elevated, SignalKind::Conflicts),
            (Urgency::Immediate, SignalKind::Scheduled),
        ];
        for period in TimePeriod::ALL.iter().copied() {
            for (tier, kind) in by_tier {
                let signals = vec![sig(kind, tier, "k", &[])];
                let mut s = base(&[]);
                s.period = period;
                s.autonomy = Autonomy::Act;
                let d = decide(&signals, &s);
                let passes = tier >= period.min_tier();
                assert_eq!(
                    d.reason == R::SuppressTimePeriod,
                    !passes,
                    "{period} {tier}: {:?}",
                    d.reason
                );
            }
        }
    }

    #[test]
    fn a_conversation_is_interrupted_only_for_elevated_signals() {
        let mut s = base(&[]);
        s.in_conversation = true;
        assert_eq!(decide(&weak(5), &s).reason, R::SuppressConversationLow);
        assert_eq!(decide(&elevated(), &s).reason, R::Act);
        s.velocity = 7;
        assert_eq!(
            decide(&weak(5), &s).reason,
            R::ActConfluence,
            "busy owner: normal passes"
        );
        assert_eq!(
            decide(&[], &s).reason,
            R::NoSignals,
            "no nudge in a conversation"
        );
    }

    #[test]
    fn weak_signals_must_add_up_to_the_autonomy_threshold() {
        for (autonomy, needed) in [
            (Autonomy::Act, 3),
            (Autonomy::Suggest, 4),
            (Autonomy::Observe, 7),
        ] {
            let mut s = base(&[]);
            s.autonomy = autonomy;
            let below = decide(&weak(needed - 1), &s);
            assert_eq!(below.reason, R::SuppressConfluence, "{autonomy}");
            assert!(!below.should_act);
            let at = decide(&weak(needed), &s);
            assert_eq!(
                (at.should_act, at.reason),
                (true, R::ActConfluence),
                "{autonomy}"
            );
            assert_eq!(at.confluence, 3 * needed as u32);
        }
        let s = base(&[]);
        let d = decide(
            &[sig(SignalKind::Scheduled, Urgency::Immediate, "s", &[])],
            &s,
        );
        assert_eq!(
            (d.should_act, d.reason, d.confluence),
            (true, R::ActImmediate, 10)
        );
    }

    #[test]
    fn cooldown_follows_autonomy_period_and_response_rate() {
        let other = weak(1);
        // Suggest, elevated: 30 min.
        for (ago, rate, period, expect) in [
            (29 * MIN, 1.0, TimePeriod::Working, R::SuppressCooldown),
            (31 * MIN, 1.0, TimePeriod::Working, R::Act),
            (20 * MIN, 1.0, TimePeriod::Morning, R::Act),
            (40 * MIN, 1.0, TimePeriod::Evening, R::SuppressCooldown),
            (4 * HOUR, 0.05, TimePeriod::Working, R::SuppressCooldown),
            (5 * HOUR + MIN, 0.05, TimePeriod::Working, R::Act),
            (80 * MIN, 0.2, TimePeriod::Working, R::SuppressCooldown),
            (91 * MIN, 0.2, TimePeriod::Working, R::Act),
        ] {
            let acts = [past(ago, &other, &[99])];
            let mut s = base(&acts);
            s.response_rate = rate;
            s.period = period;
            assert_eq!(
                decide(&elevated(), &s).reason,
                expect,
                "{ago} {rate} {period}"
            );
        }
        let acts = [past(6 * MIN, &other, &[99])];
        let mut s = base(&acts);
        s.autonomy = Autonomy::Act;
        assert_eq!(decide(&elevated(), &s).reason, R::Act, "act: 5 min");
        s.autonomy = Autonomy::Observe;
        assert_eq!(
            decide(&elevated(), &s).reason,
            R::SuppressCooldown,
            "observe: 2 h"
        );
    }

    #[test]
    fn the_same_signals_are_stale_for_two_normal_cooldowns() {
        let signals = elevated();
        let acts = [past(3 * HOUR, &signals, &[])];
        let d = decide(&signals, &base(&acts));
        assert_eq!(d.reason, R::SuppressStale);
        assert_eq!(d.fingerprint, acts[0].fingerprint);
        let acts = [past(4 * HOUR + MIN, &signals, &[])];
        assert_eq!(decide(&signals, &base(&acts)).reason, R::Act);
        let immediate = vec![sig(SignalKind::Scheduled, Urgency::Immediate, "s", &[])];
        let acts = [past(10 * MIN, &immediate, &[])];
        assert_eq!(decide(&immediate, &base(&acts)).reason, R::SuppressStale);
    }

    #[test]
    fn the_same_topic_waits_and_an_ignored_one_is_dropped() {
        let signals = vec![sig(
            SignalKind::Conflicts,
            Urgency::Elevated,
            "conflict:new",
            &[1, 2, 3, 4, 5, 6, 7],
        )];
        let acts = [past(5 * HOUR, &weak(1), &[1, 2, 3, 4, 5, 6, 7])];
        assert_eq!(
            decide(&signals, &base(&acts)).reason,
            R::SuppressTopicRepeat
        );
        let acts = [past(5 * HOUR, &weak(1), &[1, 2, 3, 4, 5, 8, 9])];
        assert_eq!(
            decide(&signals, &base(&acts)).reason,
            R::Act,
            "5 of 7 shared is under 85 %"
        );
        let acts = [past(9 * HOUR, &weak(1), &[1, 2, 3, 4, 5, 6, 7])];
        assert_eq!(
            decide(&signals, &base(&acts)).reason,
            R::Act,
            "window is 4 normal cooldowns"
        );
        let ignored: Vec<PastAct> = (0..8)
            .map(|i| PastAct {
                responded: false,
                ..past((10 + i) * HOUR, &weak(1), &[1, 2, 3, 4, 5, 6, 7])
            })
            .collect();
        assert_eq!(
            decide(&signals, &base(&ignored)).reason,
            R::SuppressTopicRepeat
        );
        assert_eq!(decide(&signals, &base(&ignored[..7])).reason, R::Act);
    }

    #[test]
    fn nudges_after_silence_within_the_days_allowance() {
        let mut s = base(&[]);
        assert_eq!(
            decide(&[], &s).reason,
            R::NoSignals,
            "not silent long enough"
        );
        s.silence = Some(4 * HOUR);
        let d = decide(&[], &s);
        assert_eq!(
            (d.should_act, d.reason, d.nudge.as_deref()),
            (true, R::Nudge, Some("mem_n"))
        );
        s.autonomy = Autonomy::Observe;
        assert_eq!(decide(&[], &s).reason, R::NoSignals, "observe never nudges");
        s.autonomy = Autonomy::Suggest;
        s.nudges_today = 3;
        assert_eq!(decide(&[], &s).reason, R::SuppressNudgeCap);
        s.nudges_today = 1;
        let acts = [PastAct {
            nudge: true,
            ..past(7 * HOUR, &[], &[])
        }];
        let mut s2 = base(&acts);
        s2.silence = Some(7 * HOUR);
        s2.nudges_today = 1;
        assert_eq!(
            decide(&[], &s2).reason,
            R::SuppressNudgeBackoff,
            "second nudge waits 8 h"
        );
        s2.now += HOUR;
        assert_eq!(decide(&[], &s2).reason, R::Nudge);
        s.nudges_today = 0;
        s.period = TimePeriod::Evening;
        assert_eq!(decide(&[], &s).reason, R::SuppressTimePeriod);
        s.period = TimePeriod::Working;
        s.nudge_memory = None;
        assert_eq!(
            decide(&[], &s).reason,
            R::NoSignals,
            "nothing to nudge about"
        );
    }

    #[test]
    fn fingerprints_ignore_order_and_differ_by_content() {
        let a = fingerprint(&["x".to_string(), "y".to_string()]);
        let b = fingerprint(&["y".to_string(), "x".to_string(), "x".to_string()]);
        assert_eq!(a, b);
        assert_eq!(a.len(), 16);
        assert_ne!(a, fingerprint(&["x".to_string()]));
        assert_eq!(fingerprint(&[]), "", "nothing surfaced, no fingerprint");
    }
}
