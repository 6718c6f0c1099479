//! # mnemo-wasm
//!
//! The core engine as WebAssembly, in two faces that only convert — every decision stays in
//! `mnemo-core`, so each target runs the same engine code:
//!
//! - **browser/edge** (`wasm32-unknown-unknown`, wasm-bindgen): the `Mnemo` class the npm
//!   package in `www/` wraps; JSON text in and out, stores in memory, OPFS, or a host's
//!   page store (a Cloudflare Durable Object, `cloudflare/`), which can also be served
//!   Mnemo's HTTP API (`mnemo-http`, through the functions of `http`).
//!   Build: `npm run build` (cargo → wasm-bindgen → wasm-opt).
//! - **component** (`wasm32-wasip2`, wit-bindgen): the `mnemo` world of `wit/mnemo.wit`, run
//!   by the native host (`host-native/`); the store is a SQLite file in a preopened directory.
//!   Build: `cargo build -p mnemo-wasm --target wasm32-wasip2 --release` (the host's build
//!   script does it).
//!
//! Natively it holds the generators that write from the engine's call schema: `typescript`
//! (the npm package's declarations and call table), `python` (the Python package's methods and
//! types) and `reference` (`docs/API.md`), which write a schema's type through one walk
//! (`syntax`).

#![warn(missing_docs)]

#[cfg(all(target_arch = "wasm32", target_os = "unknown", feature = "http"))]
mod http;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod interop;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod mnemo;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod pages;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod storage;
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use mnemo::Mnemo;

#[cfg(target_os = "wasi")]
mod component;
/// The write-ahead log's writes gathered into one per commit (the component's stores; tested
/// natively).
#[cfg(any(target_os = "wasi", all(test, not(target_arch = "wasm32"))))]
mod log_buffer;

/// The npm package's generated bindings (a build-time tool: natively only).
#[cfg(not(target_arch = "wasm32"))]
pub mod typescript;

/// How the generators write a schema's type (a build-time tool: natively only).
#[cfg(not(target_arch = "wasm32"))]
mod syntax;

/// The Python package's generated bindings (a build-time tool: natively only).
#[cfg(not(target_arch = "wasm32"))]
pub mod python;

/// The API reference, `docs/API.md` (a build-time tool: natively only).
#[cfg(not(target_arch = "wasm32"))]
pub mod reference;
