//! Writes the npm package's generated bindings — `www/src/index.d.ts`, `www/src/calls.js` and
//! `www/src/schema.json` —, the Python package's `python/mnemo/_calls.py` and the API reference
//! `docs/API.md` from the engine's call declarations. Run after adding or changing a call:
//!
//! `cargo run -p mnemo-wasm --example bindings`

use std::path::Path;

fn main() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let www = root.join("www/src");
    let schema = mnemo_core::api::schema();
    let b = mnemo_wasm::typescript::generate(&schema);
    std::fs::write(www.join("index.d.ts"), b.declarations)?;
    std::fs::write(www.join("calls.js"), b.calls)?;
    std::fs::write(www.join("schema.json"), b.schema)?;
    std::fs::write(
        root.join("python/mnemo/_calls.py"),
        mnemo_wasm::python::generate(&schema),
    )?;
    std::fs::write(
        root.join("docs/API.md"),
        mnemo_wasm::reference::generate(&schema),
    )?;
    println!("wrote www/src/index.d.ts, www/src/calls.js, www/src/schema.json, python/mnemo/_calls.py and docs/API.md");
    Ok(())
}
