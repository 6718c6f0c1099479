//! Every JS ⇄ Rust conversion of the binding. Arguments and results cross as JSON text: the
//! core parses it with the same code as on every other target (so unknown fields, wrong
//! types and their messages match byte for byte), and one string crosses instead of a call
//! per value. The JS package turns objects into that text and back.

use js_sys::{Error as JsError, Reflect};
use mnemo_core::Error;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

/// A JS `Error` carrying the core's message and its machine-readable `code`.
pub fn error(e: Error) -> JsValue {
    coded(&e.to_string(), e.code())
}

/// A JS `Error` with `message` and `code`.
pub fn coded(message: &str, code: &str) -> JsValue {
    let err = JsError::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = Reflect::set(&err, &"code".into(), &code.into());
    err.into()
}

/// Parses JSON text (empty counts as `{}`), naming a bad field by its path below `field`.
pub fn from_json<T: DeserializeOwned>(field: &str, json: &str) -> Result<T, JsValue> {
    let json = if json.trim().is_empty() { "{}" } else { json };
    mnemo_core::api::from_text(field, json).map_err(error)
}
