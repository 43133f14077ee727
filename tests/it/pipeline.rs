//! Whole-pipeline behaviour: determinism, bad inputs, exit codes, order independence.

use crate::util;
use cogitator::emit;
use cogitator::pipeline::{run, Options};
use cogitator::source::SourceFile;
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cogitator"))
}

fn read_dir_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.unwrap();
        if e.file_type().is_file() {
            let rel = e
                .path()
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            out.push((rel, std::fs::read(e.path()).unwrap()));
        }
    }
    out
}

#[test]
fn output_is_identical_across_runs_and_thread_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "2", "2"] {
        let out = tmp.path().join(format!("out-{threads}-{}", outputs.len()));
        let status = bin()
            .args([
                "ingest",
                util::raw().to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "{}",
            String::from_utf8_lossy(&status.stderr)
        );
        outputs.push(read_dir_files(&out));
    }
    assert!(!outputs[0].is_empty());
    assert_eq!(outputs[0], outputs[1], "1 thread vs 2 threads");
    assert_eq!(outputs[1], outputs[2], "two runs");
    // no absolute paths, no timestamps
    let root = util::repo().to_string_lossy().into_owned();
    for (name, bytes) in &outputs[0] {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains(&root), "{name} carries an absolute path");
        assert!(!text.contains("2026-"), "{name} carries a date");
    }
}

#[test]
fn bad_inputs_give_diagnostics_and_the_run_goes_on() {
    let good = std::fs::read(util::raw().join("000_7d74a1f54db65dd5.txt")).unwrap();
    let sources = vec![
        SourceFile::new("a-empty.txt", Vec::new()),
        SourceFile::new("b-binary.html", vec![0u8, 159, 146, 150, 0, 1, 2, 3, 255]),
        SourceFile::new("c-truncated.txt", good[..good.len() / 3].to_vec()),
        SourceFile::new("d-good.txt", good.clone()),
        SourceFile::new("e-copy.txt", good),
        SourceFile::new("f-latin1.txt", b"RANGED WEAPONS | RANGE | A | BS | S | AP | D\nCaf\xe9 gun | 24\" | 1 | 3+ | 4 | 0 | 1\n".to_vec()),
    ];
    let ds = run(&sources, &[], &Options::default());
    let code_for = |file: &str| -> Vec<&str> {
        ds.diagnostics
            .iter()
            .filter(|d| d.file.as_deref() == Some(file))
            .map(|d| d.code.as_str())
            .collect()
    };
    assert!(code_for("a-empty.txt").contains(&"S002"));
    assert!(code_for("b-binary.html").contains(&"S003"));
    assert!(code_for("e-copy.txt").contains(&"S006"));
    assert!(code_for("f-latin1.txt").contains(&"S004"));
    let status = |file: &str| {
        ds.manifest
            .inputs
            .iter()
            .find(|i| i.file == file)
            .unwrap()
            .status
    };
    use cogitator::model::InputStatus::*;
    assert_eq!(status("a-empty.txt"), Skipped);
    assert_eq!(status("b-binary.html"), Skipped);
    assert_eq!(status("d-good.txt"), Ok);
    assert_eq!(status("e-copy.txt"), Duplicate);
    // the good file still gave its datasheet, once
    let from_good = ds
        .datasheets
        .iter()
        .filter(|d| d.sources.iter().any(|s| s.file == "d-good.txt"))
        .count();
    assert_eq!(from_good, 1);
}

#[test]
fn renamed_files_give_the_same_rules() {
    // (Input order: tests/it/inputs.rs `input_order_does_not_matter`.)
    let mut sources: Vec<SourceFile> = std::fs::read_dir(util::raw())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| {
            SourceFile::new(
                p.file_name().unwrap().to_string_lossy(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    sources.sort_by(|a, b| a.path.cmp(&b.path));
    let renamed: Vec<SourceFile> = sources
        .iter()
        .map(|s| SourceFile::new(format!("zz/{}", s.path), s.bytes.clone()))
        .collect();
    let r1 = run(&sources, &[], &Options::default()).rules;
    let r2 = run(&renamed, &[], &Options::default()).rules;
    let key = |r: &cogitator::model::Rule| {
        (
            r.id.clone(),
            r.name.clone(),
            r.text.clone(),
            r.occurrences.len(),
        )
    };
    assert_eq!(
        r1.iter().map(key).collect::<Vec<_>>(),
        r2.iter().map(key).collect::<Vec<_>>()
    );
}

#[test]
fn exit_codes() {
    let tmp = tempfile::tempdir().unwrap();
    let ok = bin()
        .args([
            "ingest",
            util::raw().to_str().unwrap(),
            "--out",
            tmp.path().join("o").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(ok.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(
        stdout.contains("datasheets") && stdout.contains("diagnostics"),
        "{stdout}"
    );
    let missing = bin()
        .args(["ingest", "/nonexistent/path/x"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let usage = bin().args(["ingest", "--no-such-flag"]).output().unwrap();
    assert_eq!(usage.status.code(), Some(2));
    let explain = bin().args(["lint", "--explain", "X101"]).output().unwrap();
    assert_eq!(explain.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&explain.stdout).contains("Example:"));
}

#[test]
fn interrupted_write_leaves_previous_output() {
    // The output is written to a sibling temp dir and renamed: a pre-existing output survives
    // until the new one is complete, and no temp dir is left behind after success.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("output");
    let ds = run::<SourceFile>(&[], &[], &Options::default());
    // A previous output (only those are replaced); one holding a file cogitator did not write
    // is refused and the file kept (trust_output::previous_output_with_added_files_…).
    emit::write(&ds, &out).unwrap();
    std::fs::write(out.join("stale.txt"), "old").unwrap();
    assert!(emit::write(&ds, &out).is_err());
    assert!(out.join("stale.txt").exists());
    std::fs::remove_file(out.join("stale.txt")).unwrap();
    emit::write(&ds, &out).unwrap();
    assert!(out.join("manifest.json").exists());
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

proptest! {
    #![proptest_config(util::proptest_config(64))]

    /// Junk bytes never panic any decoder or extractor.
    #[test]
    fn junk_input_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..2048), html in any::<bool>()) {
        let name = if html { "junk.html" } else { "junk.txt" };
        let ds = run(&[SourceFile::new(name, bytes)], &[], &Options::default());
        prop_assert_eq!(ds.manifest.inputs.len(), 1);
        // A panic is caught per input (`S018`): it must not happen at all.
        prop_assert!(ds.diagnostics.iter().all(|d| d.code != "S018"), "{:?}", ds.diagnostics);
    }

    /// Text-like junk built from the dumps' own tokens never panics either.
    #[test]
    fn token_soup_never_panics(tokens in proptest::collection::vec(prop::sample::select(vec![
        "RANGED WEAPONS", "MELEE WEAPONS", " | ", "\n", "1 model", "70", "M", "12\"", "KEYWORDS:",
        "ABILITIES", "CORE: Deep Strike", "1CP", "Core – Battle Tactic", "WHEN:", "•", "[", "]",
        "Weapons with [X] in their profile", ".Some", "theThis", "INVULNERABLE SAVE", "DAMAGED:",
        "STRATAGEMS", "FACTION KEYWORDS:", "(⌀40mm)", "|", "", "é", "\u{FEFF}",
    ]), 0..200)) {
        let text: String = tokens.concat();
        let ds = run(&[SourceFile::new("soup.txt", text.into_bytes())], &[], &Options::default());
        prop_assert_eq!(ds.manifest.inputs.len(), 1);
        // A panic is caught per input (`S018`): it must not happen at all.
        prop_assert!(ds.diagnostics.iter().all(|d| d.code != "S018"), "{:?}", ds.diagnostics);
    }
}

#[test]
fn every_block_is_accounted_for() {
    let ds = cogitator::ingest(&[util::raw()], &Options::default()).unwrap();
    for i in &ds.manifest.inputs {
        let a = i.account;
        assert_eq!(
            a.in_records + a.chrome + a.unassigned,
            i.blocks,
            "{}: {a:?}",
            i.file
        );
    }
}

#[test]
fn duplicates_found_on_disk_by_size_then_hash() {
    // Only same-size files are hashed before processing; the others are hashed when read.
    let tmp = tempfile::tempdir().unwrap();
    let text = "Deep Strike\nDuring the Declare Battle Formations step, set it up in Reserves.\n";
    let other = "Deep Strike\nDuring the Declare Battle Formations step, set it up in Reservez.\n";
    std::fs::write(tmp.path().join("a.txt"), text).unwrap();
    std::fs::write(tmp.path().join("b.txt"), text).unwrap();
    std::fs::write(tmp.path().join("c.txt"), other).unwrap();
    std::fs::write(
        tmp.path().join("d.txt"),
        "Leader\nThis model can lead a unit.\n",
    )
    .unwrap();
    let ds = cogitator::ingest(&[tmp.path().to_path_buf()], &Options::default()).unwrap();
    let entry = |f: &str| ds.manifest.inputs.iter().find(|i| i.file == f).unwrap();
    assert_eq!(entry("b.txt").duplicate_of.as_deref(), Some("a.txt"));
    assert_eq!(entry("c.txt").duplicate_of, None);
    assert_eq!(entry("d.txt").duplicate_of, None);
    for f in ["a.txt", "b.txt", "c.txt", "d.txt"] {
        assert_eq!(entry(f).sha256.len(), 64, "{f} hashed");
    }
    assert_eq!(entry("a.txt").sha256, entry("b.txt").sha256);
    assert_ne!(entry("a.txt").sha256, entry("c.txt").sha256);
}
