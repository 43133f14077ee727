//! Small fixtures of every format a reader reads, committed under `tests/fixtures/<format>/`
//! and named after the trap each tests, with `insta` snapshots of what they give (in
//! `tests/it/snapshots/`, each reviewed by hand against its fixture). They need no
//! `../shared/corpus`, so every reader is exercised on a fresh clone.
//!
//! To add one: write the file (invented names and values, in the shape of the real source),
//! add a line to [`FIXTURES`], run `cargo insta test --accept` (or `INSTA_UPDATE=always cargo
//! test --test it fixtures::`), then read every new `.snap` against the fixture before
//! committing it. CI (`CI=true`) fails on a missing or changed snapshot. The compliance laws
//! (`compliance.rs`) run over the same list.

use crate::util;
use cogitator::model::Dataset;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A reader's fixture: its format folder, the file or directory under it, and the trap.
pub struct Fixture {
    pub format: &'static str,
    pub name: &'static str,
    /// The format name the manifest gives its inputs.
    pub manifest_format: &'static str,
}

/// Every fixture, one or more per reader (text, markdown, html, pdf, csv export, bsdata).
pub const FIXTURES: &[Fixture] = &[
    Fixture {
        format: "html",
        name: "weapon-with-two-profiles.html",
        manifest_format: "html",
    },
    Fixture {
        format: "html",
        name: "invuln-with-condition.html",
        manifest_format: "html",
    },
    Fixture {
        format: "html",
        name: "bracketed-keywords-one-span-per-word.html",
        manifest_format: "html",
    },
    Fixture {
        format: "html",
        name: "stratagem-listed-and-carded-in-tooltips.html",
        manifest_format: "html",
    },
    Fixture {
        format: "html",
        name: "faction-page-detachment-named-by-the-heading-before-its-rule.html",
        manifest_format: "html",
    },
    Fixture {
        format: "csv",
        name: "export-two-profile-weapon-and-starred-invuln",
        manifest_format: "csv",
    },
    Fixture {
        format: "bsdata",
        name: ".",
        manifest_format: "xml",
    },
    Fixture {
        format: "bsdata",
        name: "weapon-from-a-library-catalogue",
        manifest_format: "xml",
    },
    Fixture {
        format: "markdown",
        name: "stratagem-card-inside-a-sequence-step.md",
        manifest_format: "markdown",
    },
    Fixture {
        format: "text",
        name: "damaged-profile-and-keyword-brackets.txt",
        manifest_format: "text",
    },
    Fixture {
        format: "pdf",
        name: "invuln-in-shield.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "abilities-header-on-weapon-header.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "keyword-cell-after-name.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "shield-value-before-label.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "shield-condition-same-baseline.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "shield-note-far-from-label.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "faction-keyword-box-below-keywords.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "card-without-weapon-tables.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "shield-without-value.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "same-profile-in-both-tables.pdf",
        manifest_format: "pdf",
    },
    Fixture {
        format: "pdf",
        name: "landscape-card-footnote-band.pdf",
        manifest_format: "pdf",
    },
];

/// `tests/fixtures`.
pub fn root() -> PathBuf {
    util::repo().join("tests/fixtures")
}

/// The files of fixture `name` of `format`: (path relative to the format folder, bytes), in
/// name order. The name `.` is the files directly in the format folder (BattleScribe's
/// `game.gst` and `necrons.cat`, which `bsdata.rs` also reads).
pub fn files_of(format: &str, name: &str) -> Vec<(String, Vec<u8>)> {
    let base = root().join(format);
    let path = base.join(name);
    let depth = if name == "." { 1 } else { usize::MAX };
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(&path)
        .max_depth(depth)
        .sort_by_file_name()
    {
        let e = e.expect("walk fixture");
        if e.file_type().is_file() {
            let rel = e.path().strip_prefix(&base).expect("under base");
            let rel = rel.to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read(e.path()).expect("read fixture")));
        }
    }
    assert!(!out.is_empty(), "no files in {}", path.display());
    out
}

impl Fixture {
    /// The fixture's files ([`files_of`]).
    pub fn files(&self) -> Vec<(String, Vec<u8>)> {
        files_of(self.format, self.name)
    }

    /// A name for snapshots: `html-weapon-with-two-profiles`.
    pub fn key(&self) -> String {
        let stem = Path::new(self.name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| s != ".")
            .unwrap_or_default();
        if stem.is_empty() || self.name == "." {
            self.format.to_string()
        } else {
            format!("{}-{stem}", self.format)
        }
    }
}

/// The pipeline (without the simulator stage) over `files`.
pub fn ingest(files: &[(String, Vec<u8>)]) -> Dataset {
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    util::ingest_in_memory(&refs)
}

/// `x` as JSON.
fn json_of<T: serde::Serialize>(x: &T) -> Value {
    serde_json::to_value(x).expect("records serialize")
}

/// What a dataset holds, as the snapshots show it: one array per record file, and each
/// input's manifest entry.
pub fn parts(ds: &Dataset) -> Vec<(&'static str, Value)> {
    vec![
        ("datasheets", json_of(&ds.datasheets)),
        ("rules", json_of(&ds.rules)),
        ("stratagems", json_of(&ds.stratagems)),
        ("enhancements", json_of(&ds.enhancements)),
        ("detachments", json_of(&ds.detachments)),
        ("diagnostics", json_of(&ds.diagnostics)),
        ("inputs", json_of(&ds.manifest.inputs)),
    ]
}

#[test]
fn every_fixture_gives_its_reviewed_snapshots() {
    let mut snapshots = 0;
    for f in FIXTURES {
        let ds = ingest(&f.files());
        for (part, value) in parts(&ds) {
            if value.as_array().is_some_and(Vec::is_empty) {
                continue;
            }
            insta::assert_json_snapshot!(format!("{}__{part}", f.key()), value);
            snapshots += 1;
        }
    }
    assert!(snapshots >= 20, "{snapshots} snapshots");
}

/// Each fixture is read by the reader it is for, completely, and gives records.
#[test]
fn every_fixture_is_read_by_its_reader_and_gives_records() {
    for f in FIXTURES {
        let ds = ingest(&f.files());
        for i in &ds.manifest.inputs {
            assert_eq!(i.format, f.manifest_format, "{}", i.file);
            assert_eq!(
                i.status,
                cogitator::model::InputStatus::Ok,
                "{}: {:#?}",
                i.file,
                ds.diagnostics
            );
        }
        let records = ds.datasheets.len()
            + ds.rules.len()
            + ds.stratagems.len()
            + ds.enhancements.len()
            + ds.detachments.len();
        assert!(records > 0, "{} gives no records", f.key());
        assert_eq!(ds.manifest.diagnostics.error, 0, "{:#?}", ds.diagnostics);
    }
}

/// The committed PDF fixtures are what their generator (`fixture_pdf.rs`, written with
/// `lopdf`) writes; `COGITATOR_WRITE_FIXTURES=1` rewrites them.
#[test]
fn committed_pdf_fixtures_are_the_generators_output() {
    let write = std::env::var("COGITATOR_WRITE_FIXTURES").as_deref() == Ok("1");
    for (name, generate) in crate::fixture_pdf::GENERATED {
        let path = root().join("pdf").join(name);
        let bytes = generate();
        if write {
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, &bytes).expect("write fixture");
        }
        let committed = std::fs::read(&path).expect("the committed PDF fixture");
        assert!(
            committed == bytes,
            "{} is not the generator's output: review fixture_pdf.rs and rewrite it with \
             COGITATOR_WRITE_FIXTURES=1",
            path.display()
        );
    }
}
