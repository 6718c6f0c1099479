//! The npm package's checked-in bindings are what the generator makes of the engine's call
//! declarations, and so is the API reference `docs/API.md`: a call added, renamed or changed
//! without regenerating them fails here
//! (`cargo run -p mnemo-wasm --example bindings` regenerates them).
use std::path::Path;

#[test]
fn the_packages_bindings_are_generated_from_the_declarations() {
    let www = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/src");
    let b = mnemo_wasm::typescript::generate(&mnemo_core::api::schema());
    let read = |f: &str| std::fs::read_to_string(www.join(f)).unwrap_or_default();
    assert!(
        read("index.d.ts") == b.declarations
            && read("calls.js") == b.calls
            && read("schema.json") == b.schema,
        "www/src/index.d.ts, calls.js or schema.json is out of date: run `cargo run -p mnemo-wasm --example bindings`"
    );
    for info in mnemo_core::CALLS {
        assert!(
            b.calls.contains(&format!("method: '{}'", info.method)),
            "{}",
            info.method
        );
    }
}

#[test]
fn the_api_reference_is_generated_from_the_declarations() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/API.md");
    let written = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        written == mnemo_wasm::reference::generate(&mnemo_core::api::schema()),
        "docs/API.md is out of date: run `cargo run -p mnemo-wasm --example bindings`"
    );
}
