//! Builds the engine component (`mnemo-wasm` for wasm32-wasip2) so that `cargo build -p
//! mnemo-host` alone yields a working `mnemo`; the binary embeds it. SQLite inside the
//! component is compiled by clang-19 against Debian's wasi-libc, through a sysroot of symlinks
//! (TOOLCHAIN.md).
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest
        .parent()
        .expect("host-native sits in the workspace")
        .to_path_buf();
    for dir in [
        "core/src",
        "core/Cargo.toml",
        "wasm/src",
        "wasm/wit",
        "wasm/Cargo.toml",
        "Cargo.lock",
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
    let sysroot = wasi_sysroot(&target_dir);

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
        .env("CARGO_TARGET_DIR", &target_dir)
        .env("CC_wasm32_wasip2", "clang-19")
        .env("AR_wasm32_wasip2", "llvm-ar-19")
        .env(
            "CFLAGS_wasm32_wasip2",
            format!("--sysroot={}", sysroot.display()),
        );
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

/// A sysroot where clang finds wasi-libc under the wasip2 names.
fn wasi_sysroot(target_dir: &Path) -> PathBuf {
    let s = target_dir.join("wasi-sysroot");
    for sub in ["include", "lib"] {
        std::fs::create_dir_all(s.join(sub)).expect("cannot create the WASI sysroot");
        for t in ["wasm32-wasi", "wasm32-wasip1", "wasm32-wasip2"] {
            let link = s.join(sub).join(t);
            if std::fs::symlink_metadata(&link).is_err() {
                std::os::unix::fs::symlink(Path::new("/usr").join(sub).join("wasm32-wasi"), &link)
                    .expect("cannot link the WASI sysroot");
            }
        }
    }
    s
}
