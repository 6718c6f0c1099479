//! The conformance scenarios (`tests/scenarios/*.json`) run natively give exactly the JSON
//! recorded in `tests/scenarios/expected/`, which every other target (wasmtime, Node,
//! Chromium) is compared with too. A change that alters behaviour shows here; when it is
//! meant, re-record with `MNEMO_BLESS=1 cargo test -p mnemo-core --test scenarios` and review
//! the diff.
mod common;

use std::path::{Path, PathBuf};

use mnemo_core::api::{run_scenario, Scenario};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/scenarios")
}

#[test]
fn every_scenario_gives_the_recorded_json() {
    let bless = std::env::var_os("MNEMO_BLESS").is_some();
    let names = common::scenario_files();
    assert!(names.len() >= 7, "scenarios missing: {names:?}");
    let mut differ = Vec::new();
    for path in names {
        let scenario: Scenario =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("parse");
        let out =
            serde_json::to_string_pretty(&run_scenario(&scenario).expect("run")).unwrap() + "\n";
        let expected = dir().join("expected").join(path.file_name().expect("name"));
        if bless {
            std::fs::write(&expected, &out).expect("write");
        } else if std::fs::read_to_string(&expected).ok().as_deref() != Some(out.as_str()) {
            differ.push(path.display().to_string());
        }
    }
    assert!(
        differ.is_empty(),
        "native outcomes differ from tests/scenarios/expected for {differ:?}"
    );
}
