//! # mnemo-wasm
//!
//! Mnemo for browsers and edge runtimes: the core engine as a wasm-bindgen class. The class
//! only converts — JS values in, one [`mnemo_core::Call`] to the engine, JSON-shaped JS
//! values out — so the browser runs exactly the engine code every other target runs. The npm
//! package in `www/` wraps it in a worker and an idiomatic async API.
//!
//! Build: `cargo build -p mnemo-wasm --target wasm32-unknown-unknown --release`, then
//! `wasm-bindgen --target web` (see the root `package.json`). On other targets this crate is
//! empty.
#![cfg(target_arch = "wasm32")]

mod interop;
mod mnemo;
mod storage;

pub use mnemo::Mnemo;
