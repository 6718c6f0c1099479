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
fn the_python_bindings_are_generated_from_the_declarations() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python/mnemo/_calls.py");
    let written = std::fs::read_to_string(path).unwrap_or_default();
    let generated = mnemo_wasm::python::generate(&mnemo_core::api::schema());
    assert!(
        written == generated,
        "python/mnemo/_calls.py is out of date: run `cargo run -p mnemo-wasm --example bindings`"
    );
    for info in mnemo_core::CALLS {
        // `import` is a Python keyword: the method is `import_`.
        let name = match info.method {
            "import" => "import_",
            method => method,
        };
        assert!(
            generated.contains(&format!("    def {name}(")),
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

/// Every field of every interface in `index.d.ts` carries its doc comment (the description the
/// engine's schema gives it), so an editor shows a programmer what `entity_id` or `query` is.
#[test]
fn every_typescript_field_carries_its_doc() {
    let b = mnemo_wasm::typescript::generate(&mnemo_core::api::schema());
    let lines: Vec<&str> = b.declarations.lines().collect();
    let mut interface = None;
    let (mut bare, mut checked) = (Vec::new(), 0);
    for (i, line) in lines.iter().enumerate() {
        if let Some(name) = line.strip_prefix("export interface ") {
            interface = name.split_whitespace().next();
            continue;
        }
        if *line == "}" {
            interface = None;
            continue;
        }
        let Some(interface) = interface else { continue };
        let field = line
            .strip_prefix("  ")
            .filter(|f| !f.starts_with(' ') && !f.starts_with('/') && !f.starts_with('*'))
            .and_then(|f| f.split(['?', ':']).next());
        if let Some(field) = field {
            checked += 1;
            if !lines[i - 1].trim_end().ends_with("*/") {
                bare.push(format!("{interface}.{field}"));
            }
        }
    }
    assert!(checked > 300, "only {checked} fields found");
    assert!(bare.is_empty(), "fields without a doc comment: {bare:?}");
    let search = b
        .declarations
        .split("export interface SearchRequest {")
        .nth(1)
        .expect("SearchRequest");
    let search = &search[..search.find("\n}").expect("its end")];
    for (field, says) in [("entity_id", "The owner"), ("query", "What to look for")] {
        let at = search.find(&format!("  {field}: ")).expect(field);
        assert!(
            search[..at]
                .rsplit("/**")
                .next()
                .unwrap_or("")
                .contains(says),
            "{field}"
        );
    }
}
