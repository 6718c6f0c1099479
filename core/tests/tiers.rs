//! Tiers with a moved clock: consolidation moves idle, unimportant memories to the archive
//! tier; an ordinary search looks through hot and warm memories, and through the archive tier
//! only when asked or when those have too little; being found or read brings a memory back.
mod common;

use common::*;
use mnemo_core::*;

const OWNER: &str = "ana";

/// Sets a memory's importance (as a caller may; a seed's is adjusted by its surprise).
fn importance(e: &mut Engine, id: &str, importance: f64) {
    e.update(
        OWNER,
        id,
        MemoryPatch {
            importance: Some(unit(importance)),
            ..Default::default()
        },
    )
    .unwrap();
}

/// Twelve important notes about the garden, and one unimportant note about a gnome, 60
/// days ago (an EVENT's retention is then about 0.6: not hot by retention alone).
fn garden() -> (Engine, ManualClock, String) {
    garden_with(without_dedup())
}

/// [`garden`] with `config`.
fn garden_with(config: Config) -> (Engine, ManualClock, String) {
    let (mut e, clock) = engine_with_config(config);
    let said = [
        "The garden tomatoes need water every evening",
        "I planted garden roses along the south fence",
        "Our garden shed holds the lawn mower",
        "The garden hose leaks near the tap",
        "Garden compost is ready in spring",
        "Blackbirds nest in the garden hedge",
        "The garden path needs new gravel",
        "Mint spreads everywhere in the herb garden",
        "The garden bench was painted blue",
        "Slugs ate the lettuce in the garden",
        "The apple tree in the garden needs pruning",
        "A garden pond would attract frogs",
    ];
    let ids: Vec<String> = said
        .iter()
        .map(|c| seed_one(&mut e, mem(OWNER, c)))
        .collect();
    for id in &ids {
        importance(&mut e, id, 0.9);
    }
    let gnome = seed_one(
        &mut e,
        mem(OWNER, "A gnome with a red hat stands by the pond"),
    );
    importance(&mut e, &gnome, 0.1);
    clock.advance(60 * DAY_MS);
    (e, clock, gnome)
}
fn search_with(e: &mut Engine, query: &str, include_archived: bool) -> Vec<String> {
    ids(&e
        .search(&SearchRequest {
            include_archived,
            limit: limit(10),
            ..SearchRequest::new(id(OWNER), query)
        })
        .unwrap())
}

#[test]
fn the_archive_tier_is_searched_when_asked_or_when_the_rest_has_too_little() {
    let (mut e, _clock, gnome) = garden();
    // Stored hot when written; consolidation finds it idle for 60 days and unimportant.
    // (The maintenance pass before it may re-tier it first, when it is due for a layer.)
    let c = e.consolidate().unwrap().consolidation.unwrap().tiers;
    assert_eq!(c.examined, 13, "{c:?}");
    assert_eq!(peek(&mut e, OWNER, &gnome).tier, Tier::Archive);
    assert_eq!(
        peek(&mut e, OWNER, &gnome).state,
        State::Active,
        "a tier, not a state"
    );
    // The twelve hot notes answer "garden": the archive tier is not looked at.
    let hits = search_with(&mut e, "garden", false);
    assert_eq!(hits.len(), 10);
    assert!(!hits.contains(&gnome), "{hits:?}");
    // Asked for, it is searched.
    let e_hits = search_with(&mut e, "garden gnome", true);
    assert!(e_hits.contains(&gnome));
    // A word only the archived note says: the hot ones are too little, so it is found.
    let (mut f, _clock, gnome_f) = garden();
    f.consolidate().unwrap();
    let hits = search_with(&mut f, "gnome", false);
    assert_eq!(hits.first(), Some(&gnome_f), "{hits:?}");
    // Found, it is in use again: hot, and among the garden notes once more.
    assert_eq!(peek(&mut f, OWNER, &gnome_f).tier, Tier::Hot);
    f.flush().unwrap();
    let hits = search_with(&mut f, "garden gnome pond", false);
    assert!(hits.contains(&gnome_f), "{hits:?}");
}

#[test]
fn a_second_tiering_changes_nothing_and_owners_stay_apart() {
    let (mut e, _clock, gnome) = garden();
    seed_one(
        &mut e,
        NewMemory {
            importance: Some(unit(0.1)),
            ..mem("bo", "Bo keeps a garden gnome too")
        },
    );
    e.consolidate().unwrap();
    let again = e.consolidate().unwrap().consolidation.unwrap().tiers;
    assert_eq!((again.to_hot, again.to_warm, again.to_archive), (0, 0, 0));
    // Bo's fresh note is hot; nothing of Bo's is in Ana's answer, archived or not.
    let hits = search_with(&mut e, "garden gnome", true);
    assert!(hits.contains(&gnome));
    assert!(hits
        .iter()
        .all(|id| peek(&mut e, OWNER, id).entity_id == OWNER));
}

#[test]
fn links_keep_an_idle_memory_out_of_the_archive() {
    let (mut e, clock) = engine_with_config(without_dedup());
    // Four events naming Ines (linked by the entity, as a host extractor said), one naming
    // no one.
    let said = [
        "Ines started as a marine biologist",
        "Ines surfed at the beach",
        "Ines adopted a grey cat",
        "Ines began cello lessons",
        "The kitchen tap was fixed",
    ];
    let extracted: Vec<Extracted> = said
        .iter()
        .map(|c| Extracted {
            content: c.to_string(),
            memory_type: MemoryType::Event,
            importance: 0.5,
            confidence: 0.9,
            entities: if c.starts_with("Ines") {
                vec![EntityMention {
                    name: "Ines".into(),
                    entity_type: EntityType::Person,
                    aliases: vec![],
                }]
            } else {
                vec![]
            },
            ..Default::default()
        })
        .collect();
    let r = e
        .remember_extracted(OWNER, extracted, RememberOptions::default())
        .unwrap();
    let notes: Vec<String> = r
        .outcomes
        .iter()
        .map(|o| o.id().expect("stored").to_string())
        .collect();
    assert_eq!(notes.len(), 5);
    for id in &notes {
        importance(&mut e, id, 0.1);
    }
    clock.advance(60 * DAY_MS);
    let c = e.consolidate().unwrap().consolidation.unwrap();
    assert_eq!(c.relationships.linked, 6, "{c:?}");
    for id in &notes[..4] {
        assert_eq!(
            peek(&mut e, OWNER, id).tier,
            Tier::Warm,
            "three links keep it warm"
        );
    }
    assert_eq!(peek(&mut e, OWNER, &notes[4]).tier, Tier::Archive);
}

/// A memory found again leaves the archive tier for the vector scan too, within the same
/// session: a search by its vector alone (no words for the text index to match) finds it
/// first, though the hot notes are answers enough that the archive is not looked through.
#[test]
fn a_memory_found_again_is_warm_to_the_vector_scan_at_once() {
    let mut config = without_dedup();
    // Any hot note is answer enough: the archive is searched only when asked.
    config.recall.archive_relevance = 0.0;
    let (mut e, _clock, gnome) = garden_with(config);
    e.consolidate().unwrap();
    let text = peek(&mut e, OWNER, &gnome).content;
    let vector = e
        .embed(&EmbedRequest { texts: vec![text] })
        .unwrap()
        .vectors
        .remove(0);
    let by_vector = |e: &mut Engine| {
        ids(&e
            .search(&SearchRequest {
                vector: Some(vector.clone()),
                limit: limit(1),
                min_score: Some(0.0),
                ..SearchRequest::new(id(OWNER), "")
            })
            .unwrap())
    };
    // Archived: the hot garden notes answer, the gnome is not looked at.
    assert_ne!(by_vector(&mut e), vec![gnome.clone()]);
    // Found when the archive is searched: hot again.
    assert!(search_with(&mut e, "gnome red hat", true).contains(&gnome));
    e.flush().unwrap();
    assert_eq!(peek(&mut e, OWNER, &gnome).tier, Tier::Hot);
    assert_eq!(by_vector(&mut e), vec![gnome]);
}
