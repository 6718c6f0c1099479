//! The heartbeat with the clock moved by the test: each of the 14 signals fires when it
//! should and stays silent when it should not, decisions end to end (acts recorded, schedules
//! surfaced once, conversation, response rate), zero embedder and extractor calls, bad input
//! that writes nothing, and owners kept apart.
use std::cell::Cell;
use std::rc::Rc;

use mnemo_core::*;

mod common;
use common::{content, id, limit, refused, tags, unit};

/// Monday 2026-11-23 10:00 UTC (working hours).
const MON_10AM: Millis = 1_795_392_000_000 + 10 * HOUR;
const MINUTE: Millis = 60_000;
const HOUR: Millis = 3_600_000;
const DAY: Millis = 24 * HOUR;
const OWNER: &str = "kai";

/// An engine on the hashing embedder: the tests place memories by hand-made vectors of its
/// dimension, and the heartbeat's signals do not depend on which embedder made the rest.
fn engine() -> (Engine, ManualClock) {
    let clock = ManualClock::new(MON_10AM);
    (
        Engine::builder(clock.clone())
            .embedder(HashEmbedder::default())
            .open_in_memory()
            .unwrap(),
        clock,
    )
}

/// A memory of `OWNER` written now with an exact importance (seed's surprise adjustment undone).
fn put(e: &mut Engine, m: NewMemory) -> String {
    let importance = m.importance;
    let r = e
        .seed(vec![NewMemory {
            entity_id: id(OWNER),
            ..m
        }])
        .unwrap();
    let id = match &r.outcomes[0] {
        Outcome::Created { id, .. } => id.clone(),
        other => panic!("not created: {other:?}"),
    };
    if let Some(i) = importance {
        e.update(
            OWNER,
            &id,
            MemoryPatch {
                importance: Some(i),
                ..Default::default()
            },
        )
        .unwrap();
    }
    id
}

fn mem(text: &str, t: MemoryType, importance: f64) -> NewMemory {
    NewMemory {
        memory_type: Some(t),
        importance: Some(unit(importance)),
        ..NewMemory::of(id(OWNER), content(text))
    }
}

/// A message of `owner` in no session, delivering no act.
fn msg(owner: &str, role: MessageRole, text: &str) -> RecordMessage {
    RecordMessage {
        entity_id: id(owner),
        agent_id: None,
        role,
        content: content(text),
        session_id: None,
        act_id: None,
        action_ref: None,
    }
}

/// A unit vector mixing axes `a` (weight `wa`) and `b`.
fn vec2(a: usize, wa: f32, b: usize) -> Vec<f32> {
    let mut v = vec![0.0; embed::HASH_DIM];
    v[a] = wa;
    v[b] += (1.0 - wa * wa).sqrt();
    v
}

fn req() -> HeartbeatRequest {
    HeartbeatRequest {
        dry_run: true,
        ..HeartbeatRequest::new(id(OWNER))
    }
}

fn check(e: &mut Engine) -> HeartbeatReport {
    e.heartbeat_check(&req()).unwrap()
}

fn act(e: &mut Engine) -> HeartbeatReport {
    e.heartbeat_check(&HeartbeatRequest {
        dry_run: false,
        ..req()
    })
    .unwrap()
}

fn fired(r: &HeartbeatReport, kind: SignalKind) -> Option<&Signal> {
    r.signals.iter().find(|s| s.kind == kind)
}

/// Enough unrelated background that first contact is over.
fn background(e: &mut Engine) {
    for (i, w) in ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]
        .iter()
        .enumerate()
    {
        put(
            e,
            NewMemory {
                vector: Some(vec2(300 + i, 1.0, 301 + i)),
                ..mem(&format!("{w} likes {w}"), MemoryType::Preference, 0.3)
            },
        );
    }
}

#[test]
fn scheduled_surfaces_once_per_due_time_through_acts() {
    let (mut e, clock) = engine();
    background(&mut e);
    e.schedule_create(&ScheduleCreate {
        entity_id: id(OWNER),
        content: content("Stand-up"),
        cron_tag: "cron:daily:11:00".into(),
        agent_id: None,
    })
    .unwrap();
    assert!(
        fired(&check(&mut e), SignalKind::Scheduled).is_none(),
        "not due yet"
    );
    clock.set(MON_10AM + HOUR + 5 * MINUTE);
    let dry = check(&mut e);
    assert_eq!(
        fired(&dry, SignalKind::Scheduled).map(|s| s.tier),
        Some(Urgency::Immediate)
    );
    assert!(
        fired(&check(&mut e), SignalKind::Scheduled).is_some(),
        "a dry run marks nothing"
    );
    let r = act(&mut e);
    assert!(
        r.should_act && r.act_id.is_some(),
        "{:?}",
        r.decision_reason
    );
    assert_eq!(r.decision_reason, DecisionReason::ActImmediate);
    assert_eq!(r.scheduled.len(), 1);
    assert!(r.summary.contains("Stand-up"), "{}", r.summary);
    clock.advance(10 * MINUTE);
    assert!(
        fired(&act(&mut e), SignalKind::Scheduled).is_none(),
        "surfaced once"
    );
    clock.set(MON_10AM + DAY + HOUR + 5 * MINUTE);
    assert!(
        fired(&check(&mut e), SignalKind::Scheduled).is_some(),
        "the next day's due time"
    );
}

#[test]
fn deadlines_in_the_window_and_critical_ones_at_night() {
    let (mut e, clock) = engine();
    background(&mut e);
    put(
        &mut e,
        NewMemory {
            expires_at: Some(MON_10AM + 30 * HOUR),
            ..mem("Renew the passport", MemoryType::Plan, 0.7)
        },
    );
    put(
        &mut e,
        NewMemory {
            expires_at: Some(MON_10AM - 3 * DAY),
            ..mem("Old overdue thing", MemoryType::Plan, 0.7)
        },
    );
    assert!(
        fired(&check(&mut e), SignalKind::Deadlines).is_none(),
        "30 h out, 3 days overdue"
    );
    let soon = put(
        &mut e,
        NewMemory {
            expires_at: Some(MON_10AM + 5 * HOUR),
            ..mem("Send the invoice", MemoryType::Plan, 0.7)
        },
    );
    let r = check(&mut e);
    assert_eq!(
        fired(&r, SignalKind::Deadlines).map(|s| s.memories.clone()),
        Some(vec![soon])
    );
    let wide = e
        .heartbeat_check(&HeartbeatRequest {
            deadline_window: Some("2d".into()),
            ..req()
        })
        .unwrap();
    assert_eq!(wide.deadlines.len(), 2);
    // 02:00 on Tuesday: quiet hours, but the invoice is due within the hour.
    clock.set(MON_10AM + 4 * HOUR + 10 * MINUTE);
    let mut night = req();
    night.utc_offset_minutes = Some(-12 * 60 + 30); // 02:40 local
    night.dry_run = false;
    let r = e.heartbeat_check(&night).unwrap();
    assert_eq!(r.time_period, TimePeriod::Quiet);
    assert_eq!(
        (r.should_act, r.decision_reason),
        (true, DecisionReason::ActDeadlineCritical)
    );
    clock.advance(10 * MINUTE);
    let again = e.heartbeat_check(&night).unwrap();
    assert!(
        !again.should_act,
        "said already: {:?}",
        again.decision_reason
    );
}

/// A plan told in words gets its deadline from the same calendar reader as the questions:
/// "before Christmas", told on Monday 23 November, is due at the end of the 23rd of December,
/// and the heartbeat raises it then, not before.
#[test]
fn a_plan_told_before_a_holiday_raises_its_deadline_that_day() {
    let (mut e, clock) = engine();
    background(&mut e);
    let told = e
        .remember(
            OWNER,
            "I need to buy the presents for my nieces before Christmas.",
            RememberOptions::default(),
        )
        .unwrap();
    let id = told.outcomes[0].id().expect("stored").to_string();
    assert!(
        fired(&check(&mut e), SignalKind::Deadlines).is_none(),
        "a month ahead"
    );
    // Wednesday 23 December, 10:00: due by the day's end.
    clock.set(MON_10AM + 30 * DAY);
    let r = check(&mut e);
    assert_eq!(
        fired(&r, SignalKind::Deadlines).map(|s| s.memories.clone()),
        Some(vec![id])
    );
}

#[test]
fn open_conflicts_signal_until_resolved() {
    let clock = ManualClock::new(MON_10AM);
    let config = Config {
        conflicts: ConflictConfig {
            mode: Some(ConflictMode::Ask),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut e = Engine::builder(clock.clone())
        .embedder(HashEmbedder::default())
        .config(config)
        .open_in_memory()
        .unwrap();
    background(&mut e);
    e.remember(OWNER, "I live in Lisbon.", RememberOptions::default())
        .unwrap();
    assert!(fired(&check(&mut e), SignalKind::Conflicts).is_none());
    clock.advance(HOUR);
    e.remember(OWNER, "I live in Porto.", RememberOptions::default())
        .unwrap();
    let r = check(&mut e);
    assert_eq!(
        fired(&r, SignalKind::Conflicts).map(|s| s.tier),
        Some(Urgency::Elevated)
    );
    assert_eq!(r.conflicts.len(), 1);
    e.resolve_conflict(&ResolveRequest {
        entity_id: id(OWNER),
        id: id(&r.conflicts[0].id),
        resolution: Resolution::UseNew,
        reason: None,
    })
    .unwrap();
    assert!(fired(&check(&mut e), SignalKind::Conflicts).is_none());
}

#[test]
fn continuity_offers_to_resume_a_paused_session() {
    let (mut e, clock) = engine();
    background(&mut e);
    put(
        &mut e,
        mem("Chatting about the weather", MemoryType::Context, 0.5),
    );
    clock.advance(HOUR);
    assert!(
        fired(&check(&mut e), SignalKind::Continuity).is_none(),
        "nothing left open"
    );
    put(
        &mut e,
        mem("Refactoring the billing module", MemoryType::Activity, 0.5),
    );
    clock.advance(10 * MINUTE);
    assert!(
        fired(&check(&mut e), SignalKind::Continuity).is_none(),
        "still in the session"
    );
    clock.advance(HOUR);
    let r = check(&mut e);
    assert_eq!(
        fired(&r, SignalKind::Continuity).map(|s| s.tier),
        Some(Urgency::Elevated)
    );
    let c = r.continuity.unwrap();
    assert!(
        c.was_interrupted && c.resume_suggestion.contains("billing module"),
        "{c:?}"
    );
    clock.advance(12 * HOUR);
    assert!(
        fired(&check(&mut e), SignalKind::Continuity).is_none(),
        "too old"
    );
}

#[test]
fn stale_monitors_after_their_cadence() {
    let (mut e, clock) = engine();
    background(&mut e);
    put(
        &mut e,
        NewMemory {
            tags: tags(&["monitor"]),
            ..mem("Watch the backup job", MemoryType::Plan, 0.6)
        },
    );
    put(
        &mut e,
        NewMemory {
            tags: tags(&["monitor"]),
            ..mem("Note about monitors", MemoryType::Context, 0.6)
        },
    );
    clock.advance(2 * HOUR);
    assert!(fired(&check(&mut e), SignalKind::StaleMonitors).is_none());
    clock.advance(23 * HOUR);
    let r = check(&mut e);
    assert_eq!(r.stale_monitors.len(), 1, "only the PLAN");
    assert_eq!(
        fired(&r, SignalKind::StaleMonitors).map(|s| s.tier),
        Some(Urgency::Elevated)
    );
}

#[test]
fn memory_velocity_counts_since_the_last_act() {
    let (mut e, clock) = engine();
    background(&mut e);
    let r = check(&mut e);
    assert_eq!(r.memory_velocity, 6);
    assert!(fired(&r, SignalKind::MemoryVelocity).is_some());
    assert!(act(&mut e).should_act);
    clock.advance(HOUR);
    for i in 0..4 {
        put(
            &mut e,
            NewMemory {
                vector: Some(vec2(200 + i, 1.0, 250)),
                ..mem(&format!("note {i}"), MemoryType::Context, 0.2)
            },
        );
    }
    let r = check(&mut e);
    assert_eq!(r.memory_velocity, 4);
    assert!(fired(&r, SignalKind::MemoryVelocity).is_none());
}

#[test]
fn pending_work_is_important_open_plans_without_chatter() {
    let (mut e, _) = engine();
    background(&mut e);
    let plan = put(
        &mut e,
        mem("Write the grant proposal", MemoryType::Plan, 0.7),
    );
    put(&mut e, mem("Maybe tidy the garage", MemoryType::Plan, 0.2));
    put(
        &mut e,
        mem("Monitoring the deploy queue", MemoryType::Activity, 0.9),
    );
    put(
        &mut e,
        NewMemory {
            cron_tag: Some("cron:daily:09:00".into()),
            ..mem("Daily stand-up", MemoryType::Plan, 0.9)
        },
    );
    let r = check(&mut e);
    assert_eq!(
        r.pending_work
            .iter()
            .map(|m| m.id.clone())
            .collect::<Vec<_>>(),
        vec![plan]
    );
    assert_eq!(
        fired(&r, SignalKind::PendingWork).map(|s| s.tier),
        Some(Urgency::Elevated),
        "fresh: one tier up"
    );
}

#[test]
fn pending_work_comes_most_important_now_first() {
    let (mut e, clock) = engine();
    background(&mut e);
    // Written equally important, a minute apart; the later one is read on each of five days.
    clock.set(MON_10AM - 6 * DAY);
    let left = put(
        &mut e,
        mem("Renew the car insurance", MemoryType::Plan, 0.6),
    );
    let used = put(
        &mut e,
        mem("Book the dentist appointment", MemoryType::Plan, 0.6),
    );
    for day in (1..=5).rev() {
        clock.set(MON_10AM - day * DAY);
        e.get(OWNER, &used).unwrap();
    }
    clock.set(MON_10AM);
    let (l, u) = (e.get(OWNER, &left).unwrap(), e.get(OWNER, &used).unwrap());
    assert_eq!((l.importance, l.updated_at), (u.importance, u.updated_at));
    let r = check(&mut e);
    let order: Vec<String> = r.pending_work.iter().map(|m| m.id.clone()).collect();
    assert_eq!(order, vec![used, left]);
}

#[test]
fn goal_progress_from_stored_vectors() {
    let (mut e, clock) = engine();
    background(&mut e);
    let on = put(
        &mut e,
        NewMemory {
            vector: Some(vec2(0, 1.0, 1)),
            ..mem("Run a marathon in spring", MemoryType::Plan, 0.8)
        },
    );
    let risk = put(
        &mut e,
        NewMemory {
            vector: Some(vec2(10, 1.0, 11)),
            expires_at: Some(MON_10AM + 12 * DAY),
            ..mem("Ship the app", MemoryType::Plan, 0.8)
        },
    );
    let stalled = put(
        &mut e,
        NewMemory {
            vector: Some(vec2(20, 1.0, 21)),
            ..mem("Learn Korean", MemoryType::Plan, 0.8)
        },
    );
    let none = put(
        &mut e,
        NewMemory {
            vector: Some(vec2(30, 1.0, 31)),
            ..mem("Paint the fence", MemoryType::Plan, 0.8)
        },
    );
    put(
        &mut e,
        NewMemory {
            vector: Some(vec2(10, 0.6, 12)),
            ..mem("Fixed the login bug", MemoryType::Activity, 0.5)
        },
    );
    put(
        &mut e,
        NewMemory {
            vector: Some(vec2(20, 0.6, 22)),
            ..mem("Did a vocabulary drill", MemoryType::Activity, 0.5)
        },
    );
    put(
        &mut e,
        NewMemory {
            vector: Some(vec2(40, 1.0, 41)),
            ..mem("Unrelated activity", MemoryType::Activity, 0.5)
        },
    );
    clock.advance(8 * DAY);
    put(
        &mut e,
        NewMemory {
            vector: Some(vec2(0, 0.6, 2)),
            ..mem("Ran 10 km", MemoryType::Activity, 0.5)
        },
    );
    for id in [&on, &risk, &stalled, &none] {
        e.update(
            OWNER,
            id,
            MemoryPatch {
                importance: Some(unit(0.8)),
                ..Default::default()
            },
        )
        .unwrap();
    }
    let r = check(&mut e);
    let status = |id: &str| {
        r.goal_progress
            .iter()
            .find(|g| g.plan.id == id)
            .map(|g| (g.status, g.activities.len()))
    };
    assert_eq!(status(&on), Some((GoalStatus::OnTrack, 1)));
    assert_eq!(status(&risk), Some((GoalStatus::AtRisk, 1)));
    assert_eq!(status(&stalled), Some((GoalStatus::Stalled, 1)));
    assert_eq!(status(&none), Some((GoalStatus::NoActivity, 0)));
    let s = fired(&r, SignalKind::GoalProgress).unwrap();
    assert!(!s.memories.contains(&on) && s.memories.contains(&risk) && s.memories.contains(&none));
}

#[test]
fn knowledge_gaps_are_questions_nothing_answers() {
    let (mut e, clock) = engine();
    background(&mut e);
    let q = put(
        &mut e,
        NewMemory {
            vector: Some(vec2(50, 1.0, 51)),
            ..mem("When is Ana's birthday?", MemoryType::Context, 0.5)
        },
    );
    let r = check(&mut e);
    assert_eq!(
        r.knowledge_gaps
            .iter()
            .map(|g| g.memory_id.clone())
            .collect::<Vec<_>>(),
        vec![q]
    );
    assert!(fired(&r, SignalKind::KnowledgeGaps).is_some());
    clock.advance(HOUR);
    put(
        &mut e,
        NewMemory {
            vector: Some(vec2(50, 0.8, 52)),
            ..mem("Ana's birthday is on March 3.", MemoryType::Event, 0.5)
        },
    );
    assert!(check(&mut e).knowledge_gaps.is_empty(), "answered");
}

#[test]
fn decaying_important_memories_within_a_week() {
    let (mut e, clock) = engine();
    background(&mut e);
    let fading = put(&mut e, mem("Door code is 4711", MemoryType::Ephemeral, 0.9));
    put(
        &mut e,
        mem("Minor ephemeral note", MemoryType::Ephemeral, 0.3),
    );
    clock.advance(HOUR);
    let r = check(&mut e);
    e.maintain().unwrap();
    let ids = |r: &HeartbeatReport| r.decaying.iter().map(|m| m.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&check(&mut e)), ids(&r), "with or without maintenance");
    assert_eq!(
        r.decaying.iter().map(|m| m.id.clone()).collect::<Vec<_>>(),
        vec![fading]
    );
    assert_eq!(
        fired(&r, SignalKind::Decaying).map(|s| s.tier),
        Some(Urgency::Low)
    );
    clock.advance(5 * DAY);
    assert!(
        check(&mut e).decaying.is_empty(),
        "already below the threshold"
    );
}

#[test]
fn sentiment_trend_over_felt_memories() {
    let (mut e, clock) = engine();
    background(&mut e);
    for (i, s) in [0.5, 0.4, 0.5, -0.4, -0.5, -0.3].iter().enumerate() {
        clock.advance(MINUTE);
        put(
            &mut e,
            NewMemory {
                sentiment: Some(Sentiment::parse(*s).unwrap()),
                vector: Some(vec2(100 + i, 1.0, 120)),
                ..mem(&format!("feeling {i}"), MemoryType::Event, 0.5)
            },
        );
    }
    let r = check(&mut e);
    let t = r.sentiment_trend.clone().unwrap();
    assert_eq!(t.direction, Trend::Declining);
    assert!(
        (t.recent_avg + 0.4).abs() < 1e-9 && t.notable.is_empty(),
        "{t:?}"
    );
    assert!(fired(&r, SignalKind::Sentiment).is_some());
    for i in 0..6 {
        clock.advance(MINUTE);
        put(
            &mut e,
            NewMemory {
                sentiment: Some(Sentiment::parse(0.1).unwrap()),
                vector: Some(vec2(130 + i, 1.0, 150)),
                ..mem(&format!("calm {i}"), MemoryType::Event, 0.5)
            },
        );
    }
    let r = check(&mut e);
    assert_eq!(
        r.sentiment_trend.as_ref().map(|t| t.direction),
        Some(Trend::Stable)
    );
    assert!(fired(&r, SignalKind::Sentiment).is_none());
}

#[test]
fn relationships_silent_while_plans_involve_them() {
    let (mut e, clock) = engine();
    background(&mut e);
    e.remember(
        OWNER,
        "I need to book the venue with Ana before the wedding on December 10.",
        RememberOptions::default(),
    )
    .unwrap();
    clock.advance(3 * DAY);
    assert!(
        check(&mut e).relationship_alerts.is_empty(),
        "mentioned 3 days ago"
    );
    clock.advance(6 * DAY);
    let r = check(&mut e);
    let a = r.relationship_alerts.first().expect("Ana is silent");
    assert_eq!(
        (a.entity.as_str(), a.days_silent, a.urgency),
        ("Ana", 9, AlertLevel::Urgent)
    );
    assert!(fired(&r, SignalKind::Relationships).is_some());
}

#[test]
fn patterns_recur_on_the_same_weekday() {
    let (mut e, clock) = engine();
    for week in 1..=3 {
        clock.set(MON_10AM - week * 7 * DAY);
        for i in 0..4 {
            put(
                &mut e,
                NewMemory {
                    tags: tags(&["gym"]),
                    vector: Some(vec2((week * 10 + i) as usize, 1.0, 299)),
                    ..mem(&format!("workout {week} {i}"), MemoryType::Activity, 0.3)
                },
            );
        }
    }
    clock.set(MON_10AM);
    let r = check(&mut e);
    let gym = r
        .behavioral_patterns
        .iter()
        .find(|p| p.topic == "gym")
        .expect("gym on Mondays");
    assert_eq!((gym.days, gym.day_of_week.as_str()), (3, "Monday"));
    assert!((gym.confidence - 0.3).abs() < 1e-9);
    clock.set(MON_10AM + DAY);
    assert!(
        check(&mut e).behavioral_patterns.is_empty(),
        "not on Tuesdays"
    );
}

#[test]
fn positive_deltas_against_the_last_acts_snapshot() {
    let (mut e, clock) = engine();
    background(&mut e);
    let plan = put(
        &mut e,
        NewMemory {
            vector: Some(vec2(0, 1.0, 1)),
            tags: tags(&["urgent"]),
            ..mem("Run a marathon", MemoryType::Plan, 0.8)
        },
    );
    put(
        &mut e,
        NewMemory {
            vector: Some(vec2(0, 0.6, 2)),
            ..mem("Ran 5 km", MemoryType::Activity, 0.5)
        },
    );
    clock.advance(8 * DAY);
    e.update(
        OWNER,
        &plan,
        MemoryPatch {
            importance: Some(unit(0.8)),
            ..Default::default()
        },
    )
    .unwrap();
    let before = act(&mut e);
    assert!(before.act_id.is_some(), "{:?}", before.decision_reason);
    assert_eq!(before.goal_progress[0].status, GoalStatus::Stalled);
    clock.advance(3 * HOUR);
    put(
        &mut e,
        NewMemory {
            vector: Some(vec2(0, 0.6, 3)),
            ..mem("Ran 12 km", MemoryType::Activity, 0.5)
        },
    );
    let r = check(&mut e);
    let d = r.positive_deltas.first().expect("the goal moved");
    assert_eq!(
        (d.kind, d.subject.as_str()),
        (DeltaKind::GoalImproved, plan.as_str())
    );
    assert!(fired(&r, SignalKind::PositiveDeltas).is_some());
}

#[test]
fn recorded_messages_are_kept_as_long_as_keep_days_says() {
    let texts = |e: &mut Engine| -> Vec<String> {
        let req: MessagesRequest =
            serde_json::from_value(serde_json::json!({"entity_id": OWNER})).unwrap();
        let mut said: Vec<String> = e
            .messages(&req)
            .unwrap()
            .into_iter()
            .map(|m| m.content)
            .collect();
        said.sort();
        said
    };
    for (keep, kept) in [(None, vec!["first", "second"]), (Some(10), vec!["second"])] {
        let clock = ManualClock::new(MON_10AM);
        let mut config = Config::default();
        if let Some(days) = keep {
            config.heartbeat.keep_days = days;
        }
        let mut e = Engine::builder(clock.clone())
            .embedder(HashEmbedder::default())
            .config(config)
            .open_in_memory()
            .unwrap();
        e.record_message(&msg(OWNER, MessageRole::User, "first"))
            .unwrap();
        clock.advance(11 * DAY);
        e.record_message(&msg(OWNER, MessageRole::User, "second"))
            .unwrap();
        assert_eq!(texts(&mut e), kept, "keep_days {keep:?}");
    }
    // Fewer days than the heartbeat looks back, or more than ten years, are refused by name.
    for days in [0, 6, 3_651] {
        let mut config = Config::default();
        config.heartbeat.keep_days = days;
        let err = Engine::builder(ManualClock::new(MON_10AM))
            .config(config)
            .open_in_memory()
            .err()
            .expect("refused");
        assert!(
            err.to_string().contains("config.heartbeat.keep_days"),
            "{err}"
        );
    }
}

#[test]
fn first_contact_then_messages_drive_conversation_and_response_rate() {
    let (mut e, clock) = engine();
    put(&mut e, mem("Kai likes tea", MemoryType::Preference, 0.5));
    let r = act(&mut e);
    assert_eq!(
        (r.should_act, r.decision_reason),
        (true, DecisionReason::FirstContact)
    );
    let again = check(&mut e);
    assert_ne!(again.decision_reason, DecisionReason::FirstContact);
    e.record_message(&msg(OWNER, MessageRole::User, "hi"))
        .unwrap();
    assert!(check(&mut e).in_conversation);
    clock.advance(16 * MINUTE);
    let r = check(&mut e);
    assert!(!r.in_conversation);
    assert_eq!(r.response_rate, 1.0, "fewer than 3 acts");
    // Acts the owner never answers make the rate 0 (cooldowns ×10, see decide.rs).
    background(&mut e);
    let deadline = |e: &mut Engine, i: usize| {
        put(
            e,
            NewMemory {
                expires_at: Some(clock.now() + 3 * HOUR),
                vector: Some(vec2(150 + i, 1.0, 201)),
                ..mem(&format!("deadline {i}"), MemoryType::Plan, 0.5)
            },
        );
        act(e)
    };
    for i in 0..3 {
        clock.advance(DAY);
        assert_eq!(
            deadline(&mut e, i).decision_reason,
            DecisionReason::ActImmediate
        );
    }
    clock.advance(3 * HOUR);
    assert_eq!(check(&mut e).response_rate, 0.0);
    // An agent message delivers the next act, and the owner answers it.
    clock.advance(DAY);
    let act_id = deadline(&mut e, 3).act_id.expect("acted");
    let m = e
        .record_message(&RecordMessage {
            act_id: Some(id(&act_id)),
            action_ref: None,
            ..msg(OWNER, MessageRole::Agent, "Your deadline is close")
        })
        .unwrap();
    assert_eq!(m.act_id.as_deref(), Some(act_id.as_str()));
    clock.advance(30 * MINUTE);
    e.record_message(&msg(OWNER, MessageRole::User, "thanks, on it"))
        .unwrap();
    let ctx = e.heartbeat_context(&req()).unwrap();
    assert_eq!(
        ctx.report.response_rate, 0.2,
        "1 of 5 acts answered (first contact included)"
    );
    assert_eq!(ctx.recent_messages[0].content, "Your deadline is close");
    let err = e
        .record_message(&RecordMessage {
            act_id: Some(id(&act_id)),
            action_ref: None,
            ..msg("other", MessageRole::Agent, "x")
        })
        .unwrap_err();
    assert!(err.to_string().contains("no act"), "{err}");
}

struct CountingEmbedder(HashEmbedder, Rc<Cell<usize>>);
impl Embedder for CountingEmbedder {
    fn model_id(&self) -> &str {
        self.0.model_id()
    }
    fn dimension(&self) -> usize {
        self.0.dimension()
    }
    fn embed(&self, text: &str) -> Result<Vec<f32>> {
        self.1.set(self.1.get() + 1);
        self.0.embed(text)
    }
}

struct CountingExtractor(RuleExtractor, Rc<Cell<usize>>);
impl Extractor for CountingExtractor {
    fn extract(&self, text: &str, now: Millis) -> Result<Vec<Extracted>> {
        self.1.set(self.1.get() + 1);
        self.0.extract(text, now)
    }
}

#[test]
fn checks_make_no_embedder_or_extractor_call() {
    let (embeds, extracts) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
    let clock = ManualClock::new(MON_10AM);
    let mut e = Engine::builder(clock.clone())
        .embedder(CountingEmbedder(HashEmbedder::default(), embeds.clone()))
        .extractor(CountingExtractor(RuleExtractor, extracts.clone()))
        .open_in_memory()
        .unwrap();
    for text in [
        "I need to book the venue with Ana before the wedding on December 10.",
        "When is Ana's birthday?",
        "I'm refactoring the billing module.",
        "I have to renew my passport by tomorrow.",
        "I feel awful about the exam.",
        "I love the new flat!",
    ] {
        e.remember(OWNER, text, RememberOptions::default()).unwrap();
        clock.advance(HOUR);
    }
    let (before_embed, before_extract) = (embeds.get(), extracts.get());
    assert!(before_embed > 0 && before_extract > 0);
    for _ in 0..24 {
        clock.advance(HOUR);
        act(&mut e);
        e.heartbeat_context(&req()).unwrap();
    }
    assert_eq!(
        (embeds.get(), extracts.get()),
        (before_embed, before_extract)
    );
}

#[test]
fn bad_input_is_refused_and_writes_nothing() {
    let (mut e, _) = engine();
    background(&mut e);
    let changes = e.changes();
    // Ids the type refuses to hold come as JSON, as every face sends them.
    for owner in ["", "a b"] {
        let args = serde_json::json!({"entity_id": owner, "dry_run": false}).to_string();
        let err = refused(&mut e, "heartbeat_check", &args);
        assert!(err.contains("args.entity_id"), "{err}");
    }
    let bad = [
        HeartbeatRequest {
            utc_offset_minutes: Some(900),
            ..req()
        },
        HeartbeatRequest {
            quiet_hours: Some(QuietHours {
                enabled: true,
                start: 24,
                end: 7,
            }),
            ..req()
        },
        HeartbeatRequest {
            deadline_window: Some("soon".into()),
            ..req()
        },
        HeartbeatRequest {
            deadline_window: Some("0s".into()),
            ..req()
        },
        HeartbeatRequest {
            max_results: Some(0),
            ..req()
        },
        HeartbeatRequest {
            max_results: Some(101),
            ..req()
        },
        HeartbeatRequest {
            query: Some("tea".into()),
            ..req()
        },
    ];
    for r in bad {
        let err = e
            .heartbeat_check(&HeartbeatRequest {
                dry_run: false,
                ..r.clone()
            })
            .unwrap_err();
        assert!(matches!(err, Error::InvalidInput { .. }), "{r:?}: {err}");
    }
    // A query the search would refuse is refused before the check records an act.
    for query in ["x".repeat(10_001), " ".into(), "a\0b".into()] {
        let err = e
            .heartbeat_context(&HeartbeatRequest {
                dry_run: false,
                query: Some(query.clone()),
                ..req()
            })
            .unwrap_err();
        assert!(matches!(err, Error::InvalidInput { .. }), "{err}");
    }
    for m in [
        RecordMessage {
            act_id: Some(id("act_1")),
            action_ref: None,
            ..msg(OWNER, MessageRole::User, "hi")
        },
        RecordMessage {
            act_id: Some(id("act_missing")),
            action_ref: None,
            ..msg(OWNER, MessageRole::Agent, "hi")
        },
    ] {
        let err = e.record_message(&m).unwrap_err();
        assert!(matches!(err, Error::InvalidInput { .. }), "{m:?}: {err}");
    }
    // A message without a role, content and ids the types refuse to hold come as JSON.
    let err = refused(
        &mut e,
        "record_message",
        r#"{"entity_id":"kai","content":"hi"}"#,
    );
    assert_eq!(err, "invalid args: missing field `role`");
    for (field, value) in [
        ("content", " ".to_string()),
        ("content", "x".repeat(50_001)),
        ("session_id", "'; DROP TABLE messages;--".to_string()),
    ] {
        let mut args = serde_json::json!({"entity_id": OWNER, "role": "user", "content": "hi"});
        args[field] = value.into();
        let err = refused(&mut e, "record_message", &args.to_string());
        assert!(err.contains(&format!("args.{field}")), "{err}");
    }
    for (method, args) in [
        (
            "heartbeat_check",
            r#"{"entity_id":"kai","autonomy":"shout"}"#,
        ),
        (
            "heartbeat_check",
            r#"{"entity_id":"kai","utc_offset_minutes":"x"}"#,
        ),
        ("heartbeat_check", r#"{"entity_id":"kai","surprise":1}"#),
        (
            "record_message",
            r#"{"entity_id":"kai","role":"robot","content":"hi"}"#,
        ),
    ] {
        let err = e.call_json(method, args).unwrap_err();
        assert_eq!(err.code(), "invalid_input", "{method} {args}: {err}");
    }
    assert_eq!(e.changes(), changes, "nothing written");
    let ok = e
        .record_message(&msg(OWNER, MessageRole::User, "héllo 👋 \u{202e}"))
        .unwrap();
    assert!(ok.id.starts_with("msg_"));
}

#[test]
fn owners_are_kept_apart() {
    let (mut e, _) = engine();
    background(&mut e);
    e.seed(vec![NewMemory {
        entity_id: id("other"),
        expires_at: Some(MON_10AM + HOUR * 2),
        ..mem("Other's deadline", MemoryType::Plan, 0.9)
    }])
    .unwrap();
    e.record_message(&msg("other", MessageRole::User, "hi"))
        .unwrap();
    let r = check(&mut e);
    assert!(
        r.deadlines.is_empty() && r.pending_work.is_empty() && !r.in_conversation,
        "{r:?}"
    );
    assert!(r
        .signals
        .iter()
        .all(|s| s.memories.iter().all(|id| e.get(OWNER, id).is_ok())));
}

#[test]
fn positive_deltas_for_reengaged_entities_and_recovered_sentiment_and_none_without_a_change() {
    let (mut e, clock) = engine();
    background(&mut e);
    e.remember(
        OWNER,
        "I need to book the venue with Ana before the wedding on December 10.",
        RememberOptions::default(),
    )
    .unwrap();
    for (i, s) in [0.6, 0.5, 0.6, -0.5, -0.6, -0.5].iter().enumerate() {
        clock.advance(MINUTE);
        put(
            &mut e,
            NewMemory {
                sentiment: Some(Sentiment::parse(*s).unwrap()),
                vector: Some(vec2(100 + i, 1.0, 120)),
                ..mem(&format!("feeling {i}"), MemoryType::Event, 0.5)
            },
        );
    }
    clock.advance(10 * DAY);
    let before = e
        .heartbeat_check(&HeartbeatRequest {
            autonomy: Some(Autonomy::Act),
            dry_run: false,
            ..req()
        })
        .unwrap();
    assert!(before.act_id.is_some(), "{:?}", before.decision_reason);
    assert_eq!(
        before.sentiment_trend.as_ref().map(|t| t.direction),
        Some(Trend::Declining)
    );
    assert_eq!(
        before.relationship_alerts.first().map(|a| a.days_silent),
        Some(10)
    );
    clock.advance(HOUR);
    assert!(
        check(&mut e).positive_deltas.is_empty(),
        "nothing changed since the act"
    );
    // Ana is back, and the mood lifts.
    e.remember(
        OWNER,
        "Ana called me about the flowers.",
        RememberOptions::default(),
    )
    .unwrap();
    for i in 0..6 {
        clock.advance(MINUTE);
        put(
            &mut e,
            NewMemory {
                sentiment: Some(Sentiment::parse(0.4).unwrap()),
                vector: Some(vec2(130 + i, 1.0, 150)),
                ..mem(&format!("better {i}"), MemoryType::Event, 0.5)
            },
        );
    }
    let r = check(&mut e);
    let kinds: Vec<DeltaKind> = r.positive_deltas.iter().map(|d| d.kind).collect();
    assert!(
        kinds.contains(&DeltaKind::EntityReengaged)
            && kinds.contains(&DeltaKind::SentimentImproved),
        "{:?}",
        r.positive_deltas
    );
    assert!(r.positive_deltas.iter().any(|d| d.subject == "Ana"));
}

#[test]
fn the_same_people_are_not_raised_again_so_soon() {
    let (mut e, clock) = engine();
    background(&mut e);
    clock.advance(HOUR);
    let act_mode = HeartbeatRequest {
        autonomy: Some(Autonomy::Act),
        dry_run: false,
        ..req()
    };
    e.remember(
        OWNER,
        "I need to call Ana about the venue.",
        RememberOptions::default(),
    )
    .unwrap();
    let first = e.heartbeat_check(&act_mode).unwrap();
    assert!(first.should_act, "{:?}", first.decision_reason);
    clock.advance(25 * MINUTE);
    e.remember(
        OWNER,
        "I need to ask Ana about the flowers.",
        RememberOptions::default(),
    )
    .unwrap();
    let second = e
        .heartbeat_check(&HeartbeatRequest {
            dry_run: true,
            ..act_mode.clone()
        })
        .unwrap();
    assert_eq!(
        second.decision_reason,
        DecisionReason::SuppressTopicRepeat,
        "{:?}",
        second.signals
    );
    clock.advance(20 * MINUTE);
    e.remember(
        OWNER,
        "I need to water Tom's plants.",
        RememberOptions::default(),
    )
    .unwrap();
    let third = e
        .heartbeat_check(&HeartbeatRequest {
            dry_run: true,
            ..act_mode
        })
        .unwrap();
    assert!(
        third.should_act,
        "another topic: {:?}",
        third.decision_reason
    );
}

#[test]
fn a_nudge_after_silence_is_about_a_recent_important_memory() {
    let (mut e, clock) = engine();
    put(
        &mut e,
        mem("Kai is learning the cello", MemoryType::Activity, 0.7),
    );
    for i in 0..5 {
        put(
            &mut e,
            NewMemory {
                vector: Some(vec2(200 + i, 1.0, 260)),
                ..mem(&format!("trivia {i}"), MemoryType::Preference, 0.2)
            },
        );
    }
    assert!(act(&mut e).should_act, "first contact");
    e.record_message(&msg(OWNER, MessageRole::User, "bye"))
        .unwrap();
    clock.advance(8 * DAY);
    // Quiet for 8 days: nothing is pending any more, so the agent may check in.
    let r = act(&mut e);
    assert_eq!(
        (r.should_act, r.decision_reason),
        (true, DecisionReason::Nudge),
        "{:?}",
        r.signals
    );
    assert_eq!(
        r.nudge.as_ref().map(|m| m.content.as_str()),
        Some("Kai is learning the cello")
    );
    assert!(r.summary.contains("NUDGE"));
    clock.advance(HOUR);
    assert_eq!(
        act(&mut e).decision_reason,
        DecisionReason::SuppressNudgeBackoff
    );
}

#[test]
fn configuration_sets_the_defaults_and_is_checked() {
    let clock = ManualClock::new(MON_10AM);
    let heartbeat = HeartbeatConfig {
        autonomy: Autonomy::Act,
        utc_offset_minutes: 12 * 60 + 30,
        quiet_hours: QuietHours {
            enabled: true,
            start: 22,
            end: 23,
        },
        ..Default::default()
    };
    let mut e = Engine::builder(clock.clone())
        .embedder(HashEmbedder::default())
        .config(Config {
            heartbeat: heartbeat.clone(),
            ..Default::default()
        })
        .open_in_memory()
        .unwrap();
    let r = check(&mut e);
    assert_eq!(
        (r.autonomy, r.time_period),
        (Autonomy::Act, TimePeriod::Quiet),
        "22:30 local"
    );
    let r = e
        .heartbeat_check(&HeartbeatRequest {
            utc_offset_minutes: Some(0),
            ..req()
        })
        .unwrap();
    assert_eq!(r.time_period, TimePeriod::Working, "the request wins");
    for bad in [
        HeartbeatConfig {
            utc_offset_minutes: 2_000,
            ..heartbeat.clone()
        },
        HeartbeatConfig {
            importance_floor: f64::NAN,
            ..heartbeat.clone()
        },
        HeartbeatConfig {
            deadline_window_hours: -1.0,
            ..heartbeat.clone()
        },
        HeartbeatConfig {
            tick: TickConfig {
                min_ms: 0,
                ..Default::default()
            },
            ..heartbeat.clone()
        },
    ] {
        let err = Engine::builder(ManualClock::new(MON_10AM))
            .config(Config {
                heartbeat: bad,
                ..Default::default()
            })
            .open_in_memory()
            .err()
            .expect("refused");
        assert!(err.to_string().contains("config.heartbeat"), "{err}");
    }
}

#[test]
fn the_recorded_conversation_comes_back_newest_first_for_its_owner_only() {
    let (mut e, clock) = engine();
    let say = |e: &mut Engine, owner: &str, role: MessageRole, text: &str| {
        e.record_message(&RecordMessage {
            session_id: Some(id("s1")),
            ..msg(owner, role, text)
        })
        .unwrap()
    };
    say(
        &mut e,
        OWNER,
        MessageRole::User,
        "I work as a marine biologist",
    );
    clock.advance(1_000);
    say(&mut e, OWNER, MessageRole::Agent, "Noted.");
    clock.advance(1_000);
    say(&mut e, "someone-else", MessageRole::User, "not yours");
    let got = e
        .messages(&MessagesRequest {
            entity_id: id(OWNER),
            agent_id: None,
            limit: None,
        })
        .unwrap();
    let texts: Vec<(&str, MessageRole)> =
        got.iter().map(|m| (m.content.as_str(), m.role)).collect();
    assert_eq!(
        texts,
        vec![
            ("Noted.", MessageRole::Agent),
            ("I work as a marine biologist", MessageRole::User)
        ]
    );
    let one = e
        .messages(&MessagesRequest {
            entity_id: id(OWNER),
            agent_id: None,
            limit: limit(1),
        })
        .unwrap();
    assert_eq!(one.len(), 1);
    for (args, field) in [
        (r#"{"entity_id":"kai","limit":0}"#, "args.limit"),
        (r#"{"entity_id":"kai","limit":1001}"#, "args.limit"),
        (r#"{"entity_id":"a b'--"}"#, "args.entity_id"),
    ] {
        let err = refused(&mut e, "messages", args);
        assert!(err.contains(field), "{err}");
    }
}

#[test]
fn a_hosts_own_act_ids_are_linked_when_known_and_recorded_unlinked_when_not() {
    // Keyoku's plugin sends act ids it made itself (`action_id`, as `action_ref`): a message
    // is recorded either way, linked only to an act of its owner.
    let (mut e, _clock) = engine();
    let act = e
        .heartbeat_check(&HeartbeatRequest::new(id(OWNER)))
        .unwrap()
        .act_id
        .expect("a first contact is an act");
    let send = |e: &mut Engine, action_ref: &str| -> serde_json::Value {
        let args = serde_json::json!({"entity_id": OWNER, "role": "agent", "content": "hi",
            "action_ref": action_ref});
        serde_json::from_str(&e.call_json("record_message", &args.to_string()).unwrap()).unwrap()
    };
    assert_eq!(send(&mut e, &act)["act_id"], act.as_str());
    for unknown in [
        "plugin-act-42",
        "not an id at all ✓",
        "act_of_another_owner",
    ] {
        let m = send(&mut e, unknown);
        assert!(m["act_id"].is_null(), "{unknown}: {m}");
    }
    // Another owner's act is not linked, and a checked act_id is still refused when unknown.
    let other = serde_json::json!({"entity_id": "ben", "role": "agent", "content": "hi", "action_ref": act});
    let m: serde_json::Value =
        serde_json::from_str(&e.call_json("record_message", &other.to_string()).unwrap()).unwrap();
    assert!(m["act_id"].is_null(), "{m}");
    for (args, field) in [
        (
            format!(
                r#"{{"entity_id":"{OWNER}","role":"agent","content":"hi","act_id":"plugin-act-42"}}"#
            ),
            "act_id",
        ),
        (
            format!(
                r#"{{"entity_id":"{OWNER}","role":"agent","content":"hi","act_id":"{act}","action_ref":"{act}"}}"#
            ),
            "action_ref",
        ),
        (
            format!(r#"{{"entity_id":"{OWNER}","role":"agent","content":"hi","action_ref":""}}"#),
            "action_ref",
        ),
    ] {
        let why = refused(&mut e, "record_message", &args);
        assert!(why.contains(field), "{args}: {why}");
    }
}

/// Keyoku's `virtual_now`: a check decides as of the time it is given, not the host's clock —
/// what is due then, from the memories written by then — and refuses a time it cannot read.
#[test]
fn a_check_as_of_a_time_sees_what_was_written_by_then() {
    let (mut e, clock) = engine();
    background(&mut e);
    let invoice = put(
        &mut e,
        NewMemory {
            expires_at: Some(MON_10AM + 5 * HOUR),
            ..mem("Send the invoice", MemoryType::Plan, 0.7)
        },
    );
    clock.set(MON_10AM + 2 * HOUR);
    let venue = put(
        &mut e,
        NewMemory {
            expires_at: Some(MON_10AM + 5 * HOUR),
            ..mem("Book the venue", MemoryType::Plan, 0.7)
        },
    );
    e.schedule_create(&ScheduleCreate {
        entity_id: id(OWNER),
        content: content("Stand-up"),
        cron_tag: "cron:daily:13:00".into(),
        agent_id: None,
    })
    .unwrap();
    let at = |t: Millis| HeartbeatRequest {
        as_of: Some(t),
        ..req()
    };
    let deadlines = |r: &HeartbeatReport| -> Vec<String> {
        let mut d: Vec<String> = r.deadlines.iter().map(|m| m.id.clone()).collect();
        d.sort();
        d
    };
    let hour_in = e.heartbeat_check(&at(MON_10AM + HOUR)).unwrap();
    assert_eq!(
        deadlines(&hour_in),
        vec![invoice.clone()],
        "the venue came later"
    );
    let mut both = vec![invoice, venue];
    both.sort();
    assert_eq!(deadlines(&check(&mut e)), both, "now: both");
    // 13:05 on the virtual clock: the stand-up is due, though the host's clock says 12:00.
    assert!(fired(&check(&mut e), SignalKind::Scheduled).is_none());
    let later = e
        .heartbeat_check(&at(MON_10AM + 3 * HOUR + 5 * MINUTE))
        .unwrap();
    assert!(fired(&later, SignalKind::Scheduled).is_some());
    // The context's memories are those written by then, too.
    let ctx = e
        .heartbeat_context(&HeartbeatRequest {
            query: Some("Book the venue".into()),
            ..at(MON_10AM + HOUR)
        })
        .unwrap();
    assert!(ctx
        .relevant_memories
        .iter()
        .all(|h| h.memory.content != "Book the venue"));
    // A time it cannot read is refused, and nothing is recorded.
    for bad in [
        r#"{"entity_id":"kai","as_of":1795392000}"#,
        r#"{"entity_id":"kai","as_of":-1}"#,
        r#"{"entity_id":"kai","as_of":1e300}"#,
        r#"{"entity_id":"kai","as_of":"2026-11-27T10:00:00Z"}"#,
        r#"{"entity_id":"kai","as_of":null,"dry_run":"yes"}"#,
    ] {
        let err = refused(&mut e, "heartbeat_check", bad);
        assert!(
            err.contains("as_of") || err.contains("dry_run"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn the_context_offers_the_cards_of_whom_the_signals_name() {
    let (mut e, _) = engine();
    background(&mut e);
    for said in [
        "My sister Ana lives in Porto.",
        "Ana works at Farfetch.",
        "Ana loves surfing in Peniche.",
    ] {
        e.remember(OWNER, said, RememberOptions::default()).unwrap();
    }
    let none = e.heartbeat_context(&req()).unwrap();
    assert!(
        none.cards.iter().all(|c| c.name != "Ana"),
        "no signal names her yet"
    );
    e.remember(
        OWNER,
        "I must call Ana about the flat by Friday.",
        RememberOptions::default(),
    )
    .unwrap();
    let ctx = e.heartbeat_context(&req()).unwrap();
    let named: Vec<&String> = ctx
        .report
        .signals
        .iter()
        .flat_map(|s| s.memories.iter())
        .collect();
    assert!(!named.is_empty());
    let ana = ctx
        .cards
        .iter()
        .find(|c| c.name == "Ana")
        .expect("Ana's card");
    assert_eq!(ana.memories, 4);
    assert!(ana.summary.contains("works at Farfetch"), "{}", ana.summary);
}

#[test]
fn consolidation_drops_the_old_events_of_owners_who_stopped_talking() {
    let (mut e, clock) = engine();
    background(&mut e);
    assert!(act(&mut e).act_id.is_some());
    // The owner's agent acted; another owner says 1,200 things; both fall silent, and a third
    // keeps talking.
    for i in 0..1_200 {
        e.record_message(&msg("quiet", MessageRole::User, &format!("note {i}")))
            .unwrap();
    }
    clock.advance(31 * DAY);
    e.record_message(&msg("talker", MessageRole::User, "still here"))
        .unwrap();
    let count = |e: &mut Engine, owner: &str| {
        let req: MessagesRequest =
            serde_json::from_value(serde_json::json!({"entity_id": owner, "limit": 1000})).unwrap();
        e.messages(&req).unwrap().len()
    };
    assert_eq!(
        count(&mut e, "quiet"),
        1000,
        "kept until something drops them"
    );
    let first = e.consolidate().unwrap().consolidation.unwrap();
    // The owner's act (31 days old) first, then messages, up to 1,000 rows in all.
    assert_eq!(
        (first.events.acts, first.events.messages, first.events.more),
        (1, 999, true)
    );
    assert!(first.more);
    let second = e.consolidate().unwrap().consolidation.unwrap();
    assert_eq!(
        (
            second.events.acts,
            second.events.messages,
            second.events.more
        ),
        (0, 201, false)
    );
    assert_eq!(count(&mut e, "quiet"), 0);
    assert_eq!(count(&mut e, "talker"), 1, "what is recent stays");
    let third = e.consolidate().unwrap().consolidation.unwrap();
    assert_eq!(
        third.events,
        mnemo_core::consolidate::EventsReport::default(),
        "nothing left to do"
    );
}
