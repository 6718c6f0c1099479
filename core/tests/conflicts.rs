//! Conflicts on the write path: each kind's default mode, every mode by configuration, the
//! status history of each transition, open conflicts listed and resolved, and what must not
//! be taken for a conflict.
mod common;

use common::*;
use mnemo_core::*;

fn engine_with(mode: Option<ConflictMode>) -> (Engine, ManualClock) {
    let clock = ManualClock::new(T0);
    let mut config = Config::default();
    config.conflicts.mode = mode;
    let e = Engine::builder(clock.clone())
        .config(config)
        .open_in_memory()
        .unwrap();
    (e, clock)
}

fn say(e: &mut Engine, text: &str) -> Outcome {
    let mut r = e.remember("kai", text, RememberOptions::default()).unwrap();
    assert_eq!(r.outcomes.len(), 1, "{text}: {r:?}");
    r.outcomes.remove(0)
}

fn created(o: &Outcome) -> String {
    match o {
        Outcome::Created { id } => id.clone(),
        o => panic!("expected created, got {o:?}"),
    }
}

fn status(e: &mut Engine, id: &str) -> Status {
    e.list(&ListRequest {
        limit: limit(100),
        ..ListRequest::new(common::id("kai"))
    })
    .unwrap()
    .memories
    .into_iter()
    .find(|m| m.id == id)
    .map(|m| m.status)
    .unwrap()
}

fn conflicts(e: &mut Engine, status: Option<ConflictStatus>) -> Vec<Conflict> {
    e.conflicts(&ConflictsRequest {
        entity_id: id("kai"),
        agent_id: None,
        status,
        limit: None,
    })
    .unwrap()
}

#[test]
fn a_new_job_supersedes_the_old_one_by_default() {
    let (mut e, clock) = engine_with(None);
    let old = created(&say(&mut e, "I work at Acme."));
    clock.advance(DAY_MS);
    let o = say(&mut e, "I work at Globex now.");
    let Outcome::Conflict {
        id: Some(new),
        existing,
        kind,
        mode,
        conflict,
    } = o
    else {
        panic!("expected a conflict, got {o:?}");
    };
    assert_eq!(
        (existing.as_str(), kind, mode),
        (
            old.as_str(),
            ConflictKind::ChangedJob,
            ConflictMode::Temporal
        )
    );
    assert_eq!(status(&mut e, &old), Status::Superseded);
    assert_eq!(status(&mut e, &new), Status::Active);
    let history = e.status_history("kai", &old).unwrap();
    assert_eq!(
        (history[0].old, history[0].new),
        (Status::Active, Status::Superseded)
    );
    assert!(history[0].reason.contains(&conflict), "{:?}", history[0]);
    let c = conflicts(&mut e, Some(ConflictStatus::Resolved));
    assert_eq!(
        (c[0].id.as_str(), c[0].resolution),
        (conflict.as_str(), Some(Resolution::UseNew))
    );
    assert!(conflicts(&mut e, Some(ConflictStatus::Open)).is_empty());
    // Search now finds the new job only.
    let hits = search(&mut e, "kai", "where do I work");
    assert!(
        hits.iter().all(|h| h.memory.id != old),
        "a superseded memory is not searched"
    );
}

#[test]
fn a_bare_contradiction_is_asked_about_until_resolved() {
    let (mut e, _) = engine_with(None);
    let old = created(&say(&mut e, "I like coffee."));
    let o = say(&mut e, "I don't like coffee.");
    let Outcome::Conflict {
        id: Some(new),
        kind,
        mode,
        conflict,
        ..
    } = o
    else {
        panic!("{o:?}")
    };
    assert_eq!((kind, mode), (ConflictKind::Negation, ConflictMode::Ask));
    assert_eq!(
        (status(&mut e, &old), status(&mut e, &new)),
        (Status::Active, Status::Active)
    );
    let open = conflicts(&mut e, Some(ConflictStatus::Open));
    assert_eq!(open.len(), 1);
    assert_eq!(
        (open[0].content.as_str(), open[0].existing_content.as_str()),
        ("I don't like coffee.", "I like coffee.")
    );

    let done = e
        .resolve_conflict(&ResolveRequest {
            entity_id: id("kai"),
            id: id(&conflict),
            resolution: Resolution::UseNew,
            reason: Some(Reason::parse("asked: stopped drinking it").unwrap()),
        })
        .unwrap();
    assert_eq!(
        (done.status, done.resolution),
        (ConflictStatus::Resolved, Some(Resolution::UseNew))
    );
    assert_eq!(status(&mut e, &old), Status::Superseded);
    assert!(e.status_history("kai", &old).unwrap()[0]
        .reason
        .contains("asked: stopped drinking it"));
    let again = e
        .resolve_conflict(&ResolveRequest {
            entity_id: id("kai"),
            id: id(&conflict),
            resolution: Resolution::KeepBoth,
            reason: None,
        })
        .unwrap_err();
    assert_eq!(again.code(), "invalid_input");
    let other = e
        .resolve_conflict(&ResolveRequest {
            entity_id: id("bo"),
            id: id(&conflict),
            resolution: Resolution::KeepBoth,
            reason: None,
        })
        .unwrap_err();
    assert_eq!(
        other.code(),
        "not_found",
        "another owner's conflict is invisible"
    );
}

#[test]
fn every_resolution_of_an_open_conflict() {
    for (resolution, old_after, new_after) in [
        (Resolution::KeepExisting, Status::Active, Status::Superseded),
        (Resolution::UseNew, Status::Superseded, Status::Active),
        (Resolution::KeepBoth, Status::Active, Status::Active),
        (Resolution::Merge, Status::Merged, Status::Merged),
    ] {
        let (mut e, _) = engine_with(None);
        let old = created(&say(&mut e, "I love cilantro."));
        let Outcome::Conflict {
            id: Some(new),
            kind,
            conflict,
            ..
        } = say(&mut e, "I hate cilantro.")
        else {
            panic!()
        };
        assert_eq!(kind, ConflictKind::PreferenceFlip);
        e.resolve_conflict(&ResolveRequest {
            entity_id: id("kai"),
            id: id(&conflict),
            resolution,
            reason: None,
        })
        .unwrap();
        assert_eq!(
            (status(&mut e, &old), status(&mut e, &new)),
            (old_after, new_after),
            "{resolution}"
        );
        if resolution == Resolution::Merge {
            let live: Vec<Memory> = e
                .list(&ListRequest {
                    statuses: vec![Status::Active],
                    ..ListRequest::new(id("kai"))
                })
                .unwrap()
                .memories;
            assert_eq!(live.len(), 1);
            assert!(
                live[0].content.contains("love") && live[0].content.contains("hate"),
                "{}",
                live[0].content
            );
        }
    }
}

#[test]
fn every_mode_by_configuration() {
    // keep_existing: the new statement is not stored.
    let (mut e, _) = engine_with(Some(ConflictMode::KeepExisting));
    let old = created(&say(&mut e, "I live in Porto."));
    let o = say(&mut e, "I live in Lisbon.");
    assert!(
        matches!(
            &o,
            Outcome::Conflict {
                id: None,
                mode: ConflictMode::KeepExisting,
                kind: ConflictKind::ChangedPlace,
                ..
            }
        ),
        "{o:?}"
    );
    assert_eq!(e.stats("kai").unwrap().total, 1);
    assert_eq!(conflicts(&mut e, None)[0].content, "I live in Lisbon.");
    assert_eq!(status(&mut e, &old), Status::Active);

    // use_new and temporal: the new one wins.
    for mode in [ConflictMode::UseNew, ConflictMode::Temporal] {
        let (mut e, _) = engine_with(Some(mode));
        let old = created(&say(&mut e, "I like coffee."));
        let o = say(&mut e, "I don't like coffee.");
        assert!(matches!(&o, Outcome::Conflict { id: Some(_), .. }), "{o:?}");
        assert_eq!(status(&mut e, &old), Status::Superseded, "{mode}");
    }

    // merge: one memory holds both statements.
    let (mut e, _) = engine_with(Some(ConflictMode::Merge));
    let old = created(&say(&mut e, "I work at Acme."));
    let o = say(&mut e, "I work at Globex.");
    let Outcome::Conflict {
        id: Some(merged),
        mode: ConflictMode::Merge,
        ..
    } = o
    else {
        panic!("{o:?}")
    };
    assert_eq!(status(&mut e, &old), Status::Merged);
    let m = e.get("kai", &merged).unwrap();
    assert!(
        m.content.contains("Acme") && m.content.contains("Globex"),
        "{}",
        m.content
    );

    // ask: both kept, the conflict open.
    let (mut e, _) = engine_with(Some(ConflictMode::Ask));
    say(&mut e, "I work at Acme.");
    say(&mut e, "I work at Globex.");
    assert_eq!(e.stats("kai").unwrap().by_status.get("active"), Some(&2));
    assert_eq!(conflicts(&mut e, Some(ConflictStatus::Open)).len(), 1);

    // Off.
    let clock = ManualClock::new(T0);
    let mut config = Config::default();
    config.conflicts.enabled = false;
    let mut e = Engine::builder(clock)
        .config(config)
        .open_in_memory()
        .unwrap();
    say(&mut e, "I work at Acme.");
    assert!(matches!(
        say(&mut e, "I work at Globex."),
        Outcome::Created { .. }
    ));
}

#[test]
fn what_is_not_a_conflict_stays_apart() {
    let (mut e, _) = engine_with(None);
    created(&say(&mut e, "I work at Acme."));
    for text in [
        "I like my new job.",
        "I also work at Globex on weekends.",
        "My sister works at Globex.",
        "I'm learning Korean.",
        "I'm learning Korean now with a tutor.",
    ] {
        let o = say(&mut e, text);
        assert!(!matches!(o, Outcome::Conflict { .. }), "{text}: {o:?}");
    }
    // Structured memories are taken as given.
    let r = e
        .seed(vec![
            mem("kai", "I work at Initech"),
            mem("kai", "Invoice 4 paid"),
            mem("kai", "Invoice 5 paid"),
        ])
        .unwrap();
    assert!(
        r.outcomes
            .iter()
            .all(|o| matches!(o, Outcome::Created { .. })),
        "{r:?}"
    );
    assert!(conflicts(&mut e, None).is_empty());
    // An id the type refuses comes as JSON, as every face sends it.
    let bad = refused(&mut e, "conflicts", r#"{"entity_id":"k k"}"#);
    assert!(bad.starts_with("invalid args.entity_id: "), "{bad}");
}
