//! Prints the JSON Schema of every engine call (arguments and results), the document faces
//! derive their bindings from.
//!
//! `cargo run -p mnemo-core --example schema > mnemo-calls.schema.json`

fn main() -> Result<(), serde_json::Error> {
    println!(
        "{}",
        serde_json::to_string_pretty(&mnemo_core::api::schema())?
    );
    Ok(())
}
