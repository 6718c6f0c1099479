//! A word longer than a tag may be (a URL, a key, a hash) stays in the memory's content and is
//! left out of its tags: `remember` never refuses a message for one.
mod common;

use common::*;
use mnemo_core::field::{MAX_TAGS, MAX_TAG_CHARS};
use mnemo_core::*;

/// Remembers `text` for `ana` and returns the memories stored, checking each keeps the long
/// word in its content and holds only tags the store accepts.
fn remembered(e: &mut Engine, text: &str, long: &str) -> Vec<Memory> {
    let r = e
        .remember("ana", text, RememberOptions::default())
        .unwrap_or_else(|err| panic!("{text:?} was refused: {err}"));
    let ids: Vec<String> = r
        .outcomes
        .iter()
        .filter_map(|o| o.id().map(str::to_string))
        .collect();
    assert!(!ids.is_empty(), "nothing stored from {text:?}: {r:?}");
    let memories: Vec<Memory> = ids.iter().map(|id| e.get("ana", id).unwrap()).collect();
    assert!(
        memories.iter().any(|m| m.content.contains(long)),
        "the long word left the content: {memories:?}"
    );
    for m in &memories {
        assert!(m.auto_tags.len() <= MAX_TAGS, "{:?}", m.auto_tags);
        for t in &m.auto_tags {
            assert!(t.chars().count() <= MAX_TAG_CHARS, "tag {t:?} is too long");
        }
    }
    memories
}

#[test]
fn a_long_url_or_key_is_kept_in_the_content_and_not_made_a_tag() {
    let (mut e, _) = engine();
    let path = "a".repeat(MAX_TAG_CHARS + 16);
    let url = format!("https://example.com/{path}");
    let m = remembered(
        &mut e,
        &format!("I keep my Lisbon travel notes at {url} for the trip"),
        &url,
    );
    // The ordinary keywords are still tags.
    assert!(m[0].auto_tags.iter().any(|t| t == "lisbon"), "{m:?}");
    let key = "k3y".repeat(30);
    remembered(
        &mut e,
        &format!("My deploy key for the staging server is {key} and it expires soon"),
        &key,
    );
}

#[test]
fn a_long_name_is_kept_in_the_content_and_not_made_a_tag() {
    let (mut e, _) = engine();
    let name = format!("Z{}", "q".repeat(MAX_TAG_CHARS + 10));
    remembered(
        &mut e,
        &format!("My sister {name} lives in Porto and loves the sea"),
        &name,
    );
}

#[test]
fn an_llm_answer_with_unusable_tags_keeps_its_memory_and_drops_those_tags() {
    let long = "x".repeat(MAX_TAG_CHARS + 1);
    let many: Vec<String> = (0..MAX_TAGS + 20).map(|i| format!("tag{i}")).collect();
    let tags: Vec<String> = [long.as_str(), "", "router", "nul\u{0}tag"]
        .into_iter()
        .map(String::from)
        .chain(many)
        .collect();
    let answer = serde_json::json!({"memories": [{
        "content": format!("User keeps the router password {long} in the drawer"),
        "type": "CONTEXT",
        "tags": tags,
    }]})
    .to_string();
    let mut e = Engine::builder(ManualClock::new(T0))
        .extractor(LlmExtractor(move |_: &str, _: &str, _: Millis| {
            Some(Ok(answer.clone()))
        }))
        .open_in_memory()
        .unwrap();
    let m = remembered(&mut e, "the router password is in the drawer", &long);
    assert_eq!(m[0].auto_tags[0], "router", "{:?}", m[0].auto_tags);
    assert!(!m[0].auto_tags.iter().any(|t| t.contains('\0')));
}
