//! Schedules with the clock moved by the test: each form of tag over a week of hourly ticks,
//! month ends and leap days, each due time reported once, missed ones counted, acknowledge,
//! update, cancel, and bad input that writes nothing.
use mnemo_core::*;

mod common;
use common::{content, id, refused};

/// Monday 2028-02-28 08:00 UTC (2028 is a leap year).
const MON_8AM: Millis = 1_835_337_600_000;
const HOUR: Millis = 3_600_000;

fn at(clock: &ManualClock, t: Millis) -> ManualClock {
    clock.set(t);
    clock.clone()
}

fn create(e: &mut Engine, text: &str, tag: &str) -> Schedule {
    e.schedule_create(&ScheduleCreate {
        entity_id: id("kai"),
        content: content(text),
        cron_tag: tag.into(),
        agent_id: None,
    })
    .unwrap()
}

/// Ticks every hour for `hours` from now; returns how many times each schedule surfaced.
fn tick(
    e: &mut Engine,
    clock: &ManualClock,
    hours: i64,
) -> std::collections::BTreeMap<String, usize> {
    let mut seen = std::collections::BTreeMap::new();
    for _ in 0..hours {
        clock.advance(HOUR);
        for s in e.scheduled("kai").unwrap() {
            *seen.entry(s.content).or_insert(0) += 1;
        }
    }
    seen
}

#[test]
fn each_due_time_is_reported_once_and_acknowledged() {
    let clock = ManualClock::new(MON_8AM);
    let mut e = Engine::builder(clock.clone()).open_in_memory().unwrap();
    let s = create(&mut e, "Take the vitamins", "cron:daily:09:00");
    assert_eq!(
        (s.status, s.next_due_at),
        (ScheduleStatus::Active, Some(MON_8AM + HOUR))
    );
    at(&clock, MON_8AM + HOUR / 2);
    assert!(e.scheduled("kai").unwrap().is_empty(), "not yet due");
    at(&clock, MON_8AM + HOUR + 300_000);
    let due = e.scheduled("kai").unwrap();
    assert_eq!(due.len(), 1);
    assert_eq!(due[0].id, s.id);
    assert!(
        e.scheduled("kai").unwrap().is_empty(),
        "a due time is reported once"
    );
    let acked = e
        .schedule_ack(&ScheduleRef {
            entity_id: id("kai"),
            agent_id: None,
            id: id(&s.id),
        })
        .unwrap();
    assert_eq!(acked.next_due_at, Some(MON_8AM + 25 * HOUR));
    assert_eq!(acked.missed, 0);
    // Another owner sees nothing of it.
    assert!(e.scheduled("bo").unwrap().is_empty());
    let err = e
        .schedule_ack(&ScheduleRef {
            entity_id: id("bo"),
            agent_id: None,
            id: id(&s.id),
        })
        .unwrap_err();
    assert_eq!(err.code(), "not_found");
}

#[test]
fn a_week_of_hourly_ticks_for_every_form() {
    let clock = ManualClock::new(MON_8AM);
    let mut e = Engine::builder(clock.clone()).open_in_memory().unwrap();
    create(&mut e, "daily", "cron:daily:09:00");
    create(&mut e, "weekdays", "cron:weekdays:08:30");
    create(&mut e, "weekly", "cron:weekly:wed:18:00");
    create(&mut e, "every 6h", "cron:every:6h");
    create(&mut e, "hourly", "cron:hourly");
    create(&mut e, "once", "cron:once:2028-03-01T12:00:00Z");
    let seen = tick(&mut e, &clock, 7 * 24);
    assert_eq!(seen["daily"], 7);
    assert_eq!(seen["weekdays"], 5, "Mon–Fri only");
    assert_eq!(seen["weekly"], 1);
    assert_eq!(seen["every 6h"], 28);
    assert_eq!(seen["hourly"], 168);
    assert_eq!(seen["once"], 1);
    // Nothing was acknowledged: each due time a later one overtook is missed.
    let all = e
        .schedules(&SchedulesRequest {
            entity_id: id("kai"),
            agent_id: None,
            all: false,
        })
        .unwrap();
    let missed = |name: &str| all.iter().find(|s| s.content == name).unwrap().missed;
    assert_eq!(missed("daily"), 6);
    assert_eq!(missed("weekdays"), 4);
    assert_eq!(missed("once"), 0, "a one-off has no later time to miss");
}

#[test]
fn monthly_schedules_follow_month_ends_and_leap_days() {
    let clock = ManualClock::new(MON_8AM);
    let mut e = Engine::builder(clock.clone()).open_in_memory().unwrap();
    let s = create(&mut e, "pay rent", "cron:monthly:31:09:00");
    // Feb 2028 has 29 days: the 31st falls on the 29th.
    assert_eq!(s.next_due_at, Some(MON_8AM + 25 * HOUR));
    let mut dues = Vec::new();
    for _ in 0..3 {
        let due = e
            .schedules(&SchedulesRequest {
                entity_id: id("kai"),
                agent_id: None,
                all: false,
            })
            .unwrap()[0]
            .next_due_at
            .unwrap();
        clock.set(due);
        assert_eq!(e.scheduled("kai").unwrap().len(), 1);
        dues.push(due);
        e.schedule_ack(&ScheduleRef {
            entity_id: id("kai"),
            agent_id: None,
            id: id(&s.id),
        })
        .unwrap();
    }
    let days: Vec<Millis> = dues
        .windows(2)
        .map(|w| (w[1] - w[0]) / (24 * HOUR))
        .collect();
    assert_eq!(days, [31, 30], "Feb 29 → Mar 31 → Apr 30");
}

#[test]
fn one_offs_update_cancel_and_refusals() {
    let clock = ManualClock::new(MON_8AM);
    let mut e = Engine::builder(clock.clone()).open_in_memory().unwrap();
    let once = create(&mut e, "call the bank", "cron:once:2028-02-28T12:00:00Z");
    at(&clock, MON_8AM + 5 * HOUR);
    assert_eq!(e.scheduled("kai").unwrap().len(), 1);
    let r = ScheduleRef {
        entity_id: id("kai"),
        agent_id: None,
        id: id(&once.id),
    };
    let done = e.schedule_ack(&r).unwrap();
    assert_eq!(
        (done.status, done.next_due_at),
        (ScheduleStatus::Done, None)
    );
    assert_eq!(e.schedule_ack(&r).unwrap_err().code(), "invalid_input");

    let s = create(&mut e, "stretch", "cron:every:2h");
    let u = e
        .schedule_update(&ScheduleUpdate {
            entity_id: id("kai"),
            agent_id: None,
            id: id(&s.id),
            content: Some(content("stretch and breathe")),
            cron_tag: Some("cron:daily:07:00".into()),
        })
        .unwrap();
    assert_eq!(
        (u.content.as_str(), u.cron_tag.as_str()),
        ("stretch and breathe", "cron:daily:07:00")
    );
    assert_eq!(u.next_due_at, Some(MON_8AM + 23 * HOUR));
    let c = e
        .schedule_cancel(&ScheduleRef {
            entity_id: id("kai"),
            agent_id: None,
            id: id(&s.id),
        })
        .unwrap();
    assert_eq!((c.status, c.next_due_at), (ScheduleStatus::Cancelled, None));
    assert_eq!(
        e.schedules(&SchedulesRequest {
            entity_id: id("kai"),
            agent_id: None,
            all: false
        })
        .unwrap()
        .len(),
        0
    );
    assert_eq!(
        e.schedules(&SchedulesRequest {
            entity_id: id("kai"),
            agent_id: None,
            all: true
        })
        .unwrap()
        .len(),
        2
    );
    assert_eq!(
        e.get("kai", &s.id).unwrap().cron_tag,
        None,
        "a cancelled schedule decays like any plan"
    );

    let before = e.stats("kai").unwrap().total;
    for tag in [
        "cron:daily:24:00",
        "cron:every:1s",
        "cron:once:2020-01-01T00:00:00Z",
        "weekly",
    ] {
        let err = e
            .schedule_create(&ScheduleCreate {
                entity_id: id("kai"),
                content: content("x"),
                cron_tag: tag.into(),
                agent_id: None,
            })
            .unwrap_err();
        assert_eq!(err.code(), "invalid_input", "{tag}");
    }
    // Content the type refuses to hold comes as JSON, as every face sends it.
    for text in ["".to_string(), "y".repeat(60_000)] {
        let args =
            serde_json::json!({"entity_id": "kai", "content": text, "cron_tag": "cron:daily"});
        let err = refused(&mut e, "schedule_create", &args.to_string());
        assert!(err.contains("args.content"), "{err}");
    }
    assert_eq!(
        e.stats("kai").unwrap().total,
        before,
        "a refused schedule writes nothing"
    );
}

#[test]
fn a_schedule_does_not_decay() {
    let clock = ManualClock::new(MON_8AM);
    let mut e = Engine::builder(clock.clone()).open_in_memory().unwrap();
    let s = create(&mut e, "water the plants", "cron:weekly:sat:10:00");
    clock.advance(400 * DAY_MS);
    e.maintain().unwrap();
    assert_eq!(e.get("kai", &s.id).unwrap().state, State::Active);
}
