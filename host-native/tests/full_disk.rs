//! A full disk, on a real small filesystem (a tmpfs of 1.5 MB, which this test mounts; a
//! file-size limit would not do: wasmtime's memory images count against it and `mnemo` cannot
//! start). A write that committed is reported as committed, reads answer while the disk is
//! full, the next write is refused with `storage_full` (HTTP 507 from `serve`), and nothing is
//! lost when space returns.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

/// The small filesystem's size.
const SMALL: &str = "1500k";
/// Its size once space returns.
const LARGER: &str = "8m";
/// Memories per seed command while filling the disk.
const BATCH: usize = 40;
/// What the warning on a store not settled at close says.
const NOT_SETTLED: &str = "warning: the store was not settled at close";

/// A tmpfs mounted on a fresh directory, unmounted and removed on drop.
struct Tmpfs(PathBuf);

impl Tmpfs {
    /// Mounts a tmpfs of `size`; why not, when it cannot (not root, no mount permitted).
    fn mount(name: &str, size: &str) -> Result<Tmpfs, String> {
        let dir = std::env::temp_dir().join(format!("mnemo-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let tmpfs = Tmpfs(dir);
        tmpfs.mount_with(&format!("size={size}"))?;
        Ok(tmpfs)
    }

    /// Changes the filesystem's size, keeping its files.
    fn resize(&self, size: &str) {
        self.mount_with(&format!("remount,size={size}"))
            .expect("remount the tmpfs");
    }

    fn mount_with(&self, options: &str) -> Result<(), String> {
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs"])
            .arg(&self.0)
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "mount -t tmpfs -o {options} failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

fn mnemo(data: &Path, args: &[&str]) -> Output {
    common::run(data, args)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A memory no other is a duplicate of: words drawn from `n`.
fn note(n: usize) -> String {
    let mut x = n as u64;
    let mut word = || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        format!("w{:x}", (z ^ (z >> 31)) & 0xff_ffff)
    };
    format!("note {n}: {} {} {} {}", word(), word(), word(), word())
}

/// The contents of an owner's export, each line checked to be a JSON object.
fn exported(data: &Path) -> Vec<String> {
    let out = mnemo(data, &["export", "--entity", "ana"]);
    assert_eq!(out.status.code(), Some(0), "export: {}", stderr(&out));
    let mut contents: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            let memory: Value = serde_json::from_str(line).expect("each line is JSON");
            memory["memory"]["content"]
                .as_str()
                .expect("a content")
                .to_string()
        })
        .collect();
    contents.sort();
    contents
}

#[test]
fn a_full_disk_refuses_the_next_write_with_storage_full_and_loses_nothing() {
    let tmpfs = match Tmpfs::mount("full-disk", SMALL) {
        Ok(t) => t,
        Err(why) => {
            eprintln!("skipped: this test needs a small filesystem of its own: {why}");
            return;
        }
    };
    let data = tmpfs.0.join("data");
    // The batches' files live off the small filesystem.
    let files = std::env::temp_dir().join(format!("mnemo-full-disk-in-{}", std::process::id()));
    std::fs::create_dir_all(&files).unwrap();

    // Seed until the disk is full: each seed either committed (exit 0, its outcomes printed)
    // or stored nothing (exit 1, `storage_full`).
    let mut committed: Vec<String> = Vec::new();
    let mut warned = 0;
    let refusal = loop {
        let batch: Vec<String> = (committed.len()..committed.len() + BATCH)
            .map(note)
            .collect();
        let file = files.join("batch.jsonl");
        let lines: Vec<String> = batch
            .iter()
            .map(|c| json!({"entity_id": "ana", "content": c}).to_string())
            .collect();
        std::fs::write(&file, lines.join("\n")).unwrap();
        let out = mnemo(&data, &["seed", "--file", file.to_str().unwrap()]);
        match out.status.code() {
            Some(0) => {
                let report: Value = serde_json::from_slice(&out.stdout).expect("a seed report");
                let outcomes = report["outcomes"].as_array().expect("outcomes");
                assert_eq!(outcomes.len(), BATCH, "{report}");
                assert!(
                    outcomes.iter().all(|o| o["action"] == "created"),
                    "{report}"
                );
                if stderr(&out).contains(NOT_SETTLED) {
                    warned += 1;
                }
                committed.extend(batch);
            }
            Some(1) => break out,
            other => panic!("seed exited {other:?}: {}", stderr(&out)),
        }
        assert!(committed.len() < 100_000, "the disk never filled");
    };
    assert!(
        !committed.is_empty(),
        "the first seed failed: {}",
        stderr(&refusal)
    );
    let error: Value = serde_json::from_slice(&refusal.stdout).expect("an error document");
    assert_eq!(error["error"]["code"], "storage_full", "{error}");
    assert!(
        error["error"]["message"]
            .as_str()
            .unwrap()
            .contains("free disk space"),
        "{error}"
    );
    // A seed that committed but could not settle the file at close (the log stays) says so
    // on stderr, exit 0; so does every read until space returns.

    // Reads answer while the disk is full.
    let out = mnemo(&data, &["stats", "--entity", "ana"]);
    assert_eq!(out.status.code(), Some(0), "stats: {}", stderr(&out));
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["total"], committed.len(), "{stats}");
    assert!(
        warned == 0 || stderr(&out).contains(NOT_SETTLED),
        "{}",
        stderr(&out)
    );
    let out = mnemo(&data, &["search", "--entity", "ana", &committed[0]]);
    assert_eq!(out.status.code(), Some(0), "search: {}", stderr(&out));
    let hits: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(hits[0]["memory"]["content"], committed[0].as_str());
    let mut expected = committed.clone();
    expected.sort();
    assert_eq!(exported(&data), expected);

    // `serve` answers the write that could not be stored with 507, and reads with 200.
    let mut server = common::Server::start_in(data.clone(), Some("full-disk-token"), &[], None);
    server.keep = true;
    let (status, body) = server.send(
        "POST",
        "/api/v1/seed",
        json!({"items": (1_000_000..1_000_000 + BATCH)
            .map(|n| json!({"entity_id": "ana", "content": note(n)}))
            .collect::<Vec<_>>()}),
    );
    assert_eq!(status, 507, "{body}");
    assert_eq!(body["code"], "storage_full", "{body}");
    assert_eq!(server.total(), committed.len() as u64);
    drop(server);

    // Space returns: the next write is stored, and every earlier memory is there.
    tmpfs.resize(LARGER);
    let last = note(2_000_000);
    let out = mnemo(&data, &["seed", "--entity", "ana", &last]);
    assert_eq!(out.status.code(), Some(0), "seed: {}", stderr(&out));
    assert!(!stderr(&out).contains(NOT_SETTLED), "{}", stderr(&out));
    assert!(
        !data.join("mnemo.db-wal").exists(),
        "the log was settled into the store"
    );
    expected.push(last);
    expected.sort();
    assert_eq!(exported(&data), expected);

    // A disk filled by something else while the store was closed: it still reads, refuses a
    // write, and takes one again once the filler is gone.
    let filler = tmpfs.0.join("filler");
    fill(&filler);
    let out = mnemo(&data, &["stats", "--entity", "ana"]);
    assert_eq!(out.status.code(), Some(0), "stats: {}", stderr(&out));
    let stats: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(stats["total"], expected.len(), "{stats}");
    let out = mnemo(&data, &["seed", "--entity", "ana", &note(3_000_000)]);
    assert_eq!(out.status.code(), Some(1), "seed: {}", stderr(&out));
    let error: Value = serde_json::from_slice(&out.stdout).expect("an error document");
    assert_eq!(error["error"]["code"], "storage_full", "{error}");
    std::fs::remove_file(&filler).unwrap();
    let last = note(4_000_000);
    let out = mnemo(&data, &["seed", "--entity", "ana", &last]);
    assert_eq!(out.status.code(), Some(0), "seed: {}", stderr(&out));
    expected.push(last);
    expected.sort();
    assert_eq!(exported(&data), expected);

    let _ = std::fs::remove_dir_all(&files);
}

/// Writes `path` until its filesystem has no space left.
fn fill(path: &Path) {
    use std::io::Write;
    let mut file = std::fs::File::create(path).expect("create the filler");
    for chunk in [1 << 16, 1 << 12, 1] {
        while file.write_all(&vec![0; chunk]).is_ok() {}
    }
    let _ = file.sync_all();
}
