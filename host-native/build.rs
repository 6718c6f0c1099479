//! Builds the engine component (`mnemo-wasm` for wasm32-wasip2) so that `cargo build -p
//! mnemo-host` alone yields a working `mnemo`; the binary embeds it. SQLite inside the
//! component is compiled by clang-19 against Debian's wasi-libc: `.cargo/config.toml` names
//! `scripts/wasi-clang` as the wasm32-wasip2 C compiler.
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest
        .parent()
        .expect("host-native sits in the workspace")
        .to_path_buf();
    // Everything the component is built from, the embedder's weights included (linked in
    // with `include_bytes!`, which the inner build tracks but this script must ask for).
    for dir in [
        "core/src",
        "core/assets",
        "core/Cargo.toml",
        "wasm/src",
        "wasm/wit",
        "wasm/Cargo.toml",
        "Cargo.lock",
        ".cargo/config.toml",
        "scripts/wasi-clang",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(dir).display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it"));
    // <target>/<profile>/build/<pkg>/out → <target>/component: its own cargo lock.
    let target_dir = out
        .ancestors()
        .nth(4)
        .expect("OUT_DIR is deep")
        .join("component");

    let mut cargo = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cargo
        .current_dir(&root)
        .args([
            "build",
            "-p",
            "mnemo-wasm",
            "--target",
            "wasm32-wasip2",
            "--release",
        ])
        .env("CARGO_TARGET_DIR", &target_dir);
    // What the outer build set for itself must not leak into the inner one.
    for var in [
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_MAKEFLAGS",
        "MAKEFLAGS",
        "MFLAGS",
        "CARGO_BUILD_TARGET",
        "TARGET",
        "HOST",
        "OPT_LEVEL",
        "PROFILE",
        "DEBUG",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        cargo.env_remove(var);
    }
    let status = cargo
        .status()
        .expect("cannot run cargo to build the component");
    assert!(status.success(), "building the mnemo component (wasm32-wasip2) failed; see above. It needs `rustup target add wasm32-wasip2` and Debian's clang-19, llvm-19 and wasi-libc");
    let component = target_dir.join("wasm32-wasip2/release/mnemo_wasm.wasm");
    println!("cargo:rustc-env=MNEMO_COMPONENT={}", component.display());
}
