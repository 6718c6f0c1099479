//! Writes the npm package's generated bindings — `www/src/index.d.ts`, `www/src/calls.js` and
//! `www/src/schema.json` —
//! from the engine's call declarations. Run after adding or changing a call:
//!
//! `cargo run -p mnemo-wasm --example bindings`

use std::path::Path;

fn main() -> std::io::Result<()> {
    let www = Path::new(env!("CARGO_MANIFEST_DIR")).join("../www/src");
    let b = mnemo_wasm::typescript::generate(&mnemo_core::api::schema());
    std::fs::write(www.join("index.d.ts"), b.declarations)?;
    std::fs::write(www.join("calls.js"), b.calls)?;
    std::fs::write(www.join("schema.json"), b.schema)?;
    println!("wrote www/src/index.d.ts, www/src/calls.js and www/src/schema.json");
    Ok(())
}
