//! Inputs that are not ours (issue 13): discovery skips what it must not read, reports what it
//! cannot follow and goes on; formats no decoder reads are skipped by name, never turned into
//! records. Each test is named after what broke.

use crate::util;
use cogitator::discover::{discover_with, Options as DiscoverOptions};
use cogitator::model::{Dataset, InputStatus};
use cogitator::pipeline::{run, Options};
use std::fs;
use std::path::{Path, PathBuf};

const DUMP: &str = "\
Tyranids – Hormagaunts
DEEP STRIKE

Some units can arrive from above.

During the Declare Battle Formations step, if every model in a unit has this ability, you can set it up in Reserves instead of setting it up on the battlefield.
";

fn ingest_with(paths: &[PathBuf], opts: &DiscoverOptions) -> Dataset {
    let found = discover_with(paths, opts).expect("discover");
    run(
        &found.sources,
        &found.failed,
        &Options {
            skip_validation: true,
            ..Options::default()
        },
    )
}

fn ingest(paths: &[PathBuf]) -> Dataset {
    ingest_with(paths, &DiscoverOptions::default())
}

fn files(ds: &Dataset) -> Vec<&str> {
    ds.manifest.inputs.iter().map(|i| i.file.as_str()).collect()
}

fn codes_for<'a>(ds: &'a Dataset, file: &str) -> Vec<&'a str> {
    ds.diagnostics
        .iter()
        .filter(|d| d.file.as_deref() == Some(file))
        .map(|d| d.code.as_str())
        .collect()
}

fn write(path: &Path, text: &str) {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).unwrap();
    }
    fs::write(path, text).unwrap();
}

#[test]
fn git_and_hidden_directories_are_not_read() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a.txt"), DUMP);
    write(&tmp.path().join(".git/objects/x.txt"), DUMP);
    write(&tmp.path().join(".cache/b.txt"), DUMP);
    write(&tmp.path().join("sub/c.txt"), DUMP);
    let ds = ingest(&[tmp.path().to_path_buf()]);
    assert_eq!(files(&ds), ["a.txt", "sub/c.txt"]);
}

#[test]
fn a_previous_output_inside_an_input_tree_is_not_read_again() {
    // Rules grew 279 → 1,525 → 6,767 over three runs when the output was read back as input.
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a.txt"), DUMP);
    write(
        &tmp.path().join("out/manifest.json"),
        "{\n  \"tool\": \"cogitator\",\n  \"version\": \"0.1.0\"\n}\n",
    );
    write(&tmp.path().join("out/rules.json"), "[]\n");
    let ds = ingest(&[tmp.path().to_path_buf()]);
    assert_eq!(files(&ds), ["a.txt", "out"]);
    assert_eq!(codes_for(&ds, "out"), ["S014"]);
    assert_eq!(ds.manifest.inputs[1].status, InputStatus::Skipped);
    // And this run's own --out is never entered, marker or not.
    write(&tmp.path().join("next/notes.txt"), DUMP);
    let ds = ingest_with(
        &[tmp.path().to_path_buf()],
        &DiscoverOptions {
            exclude: vec![tmp.path().join("next")],
            ..DiscoverOptions::default()
        },
    );
    assert!(!files(&ds).contains(&"next/notes.txt"), "{:?}", files(&ds));
}

#[cfg(unix)]
#[test]
fn dangling_symlink_is_a_diagnostic_and_the_run_goes_on() {
    // Used to abort the whole run with exit 2 and nothing written.
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a.txt"), DUMP);
    std::os::unix::fs::symlink(tmp.path().join("gone.txt"), tmp.path().join("b.txt")).unwrap();
    let ds = ingest(&[tmp.path().to_path_buf()]);
    assert_eq!(files(&ds), ["a.txt", "b.txt"]);
    assert_eq!(codes_for(&ds, "b.txt"), ["S014"]);
    let msg = &ds
        .diagnostics
        .iter()
        .find(|d| d.code == "S014")
        .unwrap()
        .message;
    assert!(msg.contains("dangling"), "{msg}");
    assert_eq!(ds.manifest.inputs[0].status, InputStatus::Ok);
    assert_eq!(ds.manifest.inputs[1].status, InputStatus::Skipped);
}

#[cfg(unix)]
#[test]
fn symlink_loop_is_a_diagnostic_and_the_run_goes_on() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("d/a.txt"), DUMP);
    std::os::unix::fs::symlink(tmp.path().join("d"), tmp.path().join("d/loop")).unwrap();
    let ds = ingest(&[tmp.path().to_path_buf()]);
    assert_eq!(files(&ds), ["d/a.txt", "d/loop"]);
    assert_eq!(codes_for(&ds, "d/loop"), ["S014"]);
    assert!(ds.diagnostics.iter().any(|d| d.message.contains("loop")));
}

#[cfg(unix)]
#[test]
fn unreadable_subdirectory_is_a_diagnostic_and_the_run_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a.txt"), DUMP);
    write(&tmp.path().join("locked/b.txt"), DUMP);
    let locked = tmp.path().join("locked");
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o000)).unwrap();
    if fs::read_dir(&locked).is_ok() {
        // Root (as CI runs) reads any directory: nothing to test here.
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
        eprintln!("skipped: running with privileges that read a mode-000 directory");
        return;
    }
    let ds = ingest(&[tmp.path().to_path_buf()]);
    fs::set_permissions(&locked, fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(files(&ds), ["a.txt", "locked"]);
    assert_eq!(codes_for(&ds, "locked"), ["S001"]);
    assert_eq!(ds.manifest.inputs[1].status, InputStatus::Failed);
}

#[test]
fn the_same_path_given_twice_is_read_once() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a.txt"), DUMP);
    let a = tmp.path().join("a.txt");
    let ds = ingest(&[a.clone(), a, tmp.path().to_path_buf()]);
    assert_eq!(files(&ds), ["a.txt"]);
    assert!(ds.diagnostics.iter().all(|d| d.code != "S006"));
}

#[test]
fn a_file_over_the_size_limit_is_skipped_with_s012() {
    let tmp = tempfile::tempdir().unwrap();
    write(&tmp.path().join("a.txt"), DUMP);
    write(&tmp.path().join("big.txt"), &DUMP.repeat(20));
    let ds = ingest_with(
        &[tmp.path().to_path_buf()],
        &DiscoverOptions {
            max_file_size: DUMP.len() as u64 * 2,
            ..DiscoverOptions::default()
        },
    );
    assert_eq!(files(&ds), ["a.txt", "big.txt"]);
    assert_eq!(codes_for(&ds, "big.txt"), ["S012"]);
    assert_eq!(ds.manifest.inputs[1].status, InputStatus::Skipped);
    assert_eq!(ds.manifest.inputs[0].status, InputStatus::Ok);
}

#[test]
fn unsupported_formats_become_no_records() {
    // A BattleScribe catalogue used to become 1,764 "rules" with XML tags in their text, and a
    // markdown diagram legend replaced the real 10e:core:objective-markers.
    let tmp = tempfile::tempdir().unwrap();
    let rule_text = "During the Declare Battle Formations step, if every model in a unit has this ability, you can set it up in Reserves.";
    write(
        &tmp.path().join("Tyranids.cat"),
        &format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<catalogue name=\"Tyranids\">\n<rules><rule name=\"Deep Strike\"><description>{rule_text}</description></rule></rules>\n</catalogue>\n"),
    );
    // (Markdown has a decoder since issue 15: tests/it/markdown.rs.)
    // A CSV file that does not look like Wahapedia's export (neither its table names nor a
    // table's header shape; a lone `Datasheets.csv` with the export's header is the export, read
    // with C003 for each missing table: `trust_crash::export_*`).
    write(
        &tmp.path().join("units.csv"),
        "unit,points\nHormagaunts,65\nTermagants,60\n",
    );
    write(
        &tmp.path().join("data.json"),
        "{\"rules\": [\"Deep Strike\"]}",
    );
    write(
        &tmp.path().join("pack.pdf"),
        "%PDF-1.7\n1 0 obj\n<<>>\nendobj\n",
    );
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(DUMP.encode_utf16().flat_map(|u| u.to_le_bytes()))
        .collect();
    fs::write(tmp.path().join("utf16.txt"), utf16).unwrap();
    let ds = ingest(&[tmp.path().to_path_buf()]);
    let formats: Vec<(&str, &str)> = ds
        .manifest
        .inputs
        .iter()
        .map(|i| (i.file.as_str(), i.format.as_str()))
        .collect();
    assert_eq!(
        formats,
        [
            ("Tyranids.cat", "xml"),
            ("data.json", "json"),
            ("pack.pdf", "pdf"),
            ("units.csv", "csv"),
            ("utf16.txt", "utf-16"),
        ]
    );
    for i in &ds.manifest.inputs {
        if i.format == "xml" {
            // Read by the BattleScribe record source (`records::bsdata`): a catalogue without
            // its game system is read as 10th edition (S010); its rules are not 10e records.
            assert_eq!(i.status, InputStatus::Ok, "{}", i.file);
            assert_eq!(codes_for(&ds, &i.file), ["S010"], "{}", i.file);
            continue;
        }
        assert_eq!(i.status, InputStatus::Skipped, "{}", i.file);
        // The PDF has a decoder now: this one has no page tree, so it is not readable.
        let code = if i.format == "pdf" { "S015" } else { "S007" };
        assert_eq!(codes_for(&ds, &i.file), [code], "{}", i.file);
    }
    assert!(ds.rules.is_empty(), "{:#?}", ds.rules);
    assert!(ds.datasheets.is_empty() && ds.stratagems.is_empty());
}

#[test]
fn input_order_does_not_matter() {
    // The pipeline is fed the seeds in path order and in reverse order, without re-sorting:
    // the dataset must be byte-identical.
    let mut sources: Vec<cogitator::source::SourceFile> = fs::read_dir(util::raw())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .map(|p| {
            cogitator::source::SourceFile::new(
                p.file_name().unwrap().to_string_lossy(),
                fs::read(&p).unwrap(),
            )
        })
        .collect();
    assert_eq!(sources.len(), 5);
    // A byte-identical copy: which of the two is processed must not depend on the order either.
    let copy = cogitator::source::SourceFile::new("000_copy.txt", sources[0].bytes.clone());
    sources.push(copy);
    sources.sort_by(|a, b| a.path.cmp(&b.path));
    let forward = cogitator::emit::files(&run(&sources, &[], &Options::default()));
    sources.reverse();
    assert!(sources[0].path > sources[5].path, "really reversed");
    let backward = cogitator::emit::files(&run(&sources, &[], &Options::default()));
    assert_eq!(forward, backward);
    // A rotation too (neither sorted nor reversed).
    sources.rotate_left(2);
    let rotated = cogitator::emit::files(&run(&sources, &[], &Options::default()));
    assert_eq!(forward, rotated);
}

#[test]
fn the_whole_corpus_gives_no_junk_records() {
    // `ingest ../shared/corpus` used to give 82,428 rules with 314 duplicate ids.
    let Some(corpus) = util::corpus() else { return };
    let ds = ingest(&[corpus]);
    for i in &ds.manifest.inputs {
        match i.format.as_str() {
            "html" => assert!(
                matches!(
                    i.status,
                    InputStatus::Ok | InputStatus::Skipped | InputStatus::Duplicate
                ),
                "{}",
                i.file
            ),
            // The export's tables and the BattleScribe files, read by the record sources.
            "csv" | "xml" => assert_eq!(i.status, InputStatus::Ok, "{}", i.file),
            // BattleScribe JSON (11th edition), claimed by the BattleScribe record source.
            "json" if i.file.starts_with("bsdata/") => {
                assert_eq!(i.status, InputStatus::Ok, "{}", i.file)
            }
            // The GW app's data (game-datacards): a faction file is read by
            // `records::game_datacards` (datasheets, and its army side: army and detachment
            // rules, stratagems, enhancements, detachments); the core rules give 288
            // numbered rules (25 sections, 154 containers other than introductions and
            // stratagems, 109 numbered accordions: counted with python3 from the file); the
            // FAQ and keywords files are claimed to say why they give no records (`G015`), and
            // are `skipped`.
            "json" if i.file.ends_with("/core_rules.json") => {
                assert_eq!(i.status, InputStatus::Ok, "{}", i.file);
                assert_eq!((i.records.rules, i.records.datasheets), (288, 0));
            }
            "json"
                if i.file.ends_with("11th/faqs.json") || i.file.ends_with("11th/keywords.json") =>
            {
                assert_eq!(i.status, InputStatus::Skipped, "{}", i.file);
                assert_eq!(i.records, Default::default(), "{}", i.file);
            }
            "json" if i.file.starts_with("game-datacards/") => {
                if i.status == InputStatus::Ok {
                    let r = &i.records;
                    assert!(r.datasheets > 0 && r.rules > 0, "{}", i.file);
                    assert!(r.stratagems > 0 && r.enhancements > 0, "{}", i.file);
                    assert!(r.detachments > 0, "{}", i.file);
                } else {
                    assert_eq!(i.status, InputStatus::Skipped, "{}", i.file);
                    assert_eq!(i.records, Default::default(), "{}", i.file);
                }
            }
            // The errata documents (`extract::gw_kind` → `extract::gw_errata`): Index Card
            // Errata 1.0 prints 39 entries, 1.2 prints 186 (counted by `notes/errata-read.py`).
            "pdf" if i.file.starts_with("pdf-errata/") => {
                assert_eq!(i.status, InputStatus::Ok, "{}", i.file);
                assert!(
                    [39, 186].contains(&i.records.errata),
                    "{}: {} errata",
                    i.file,
                    i.records.errata
                );
                assert_eq!(i.records.datasheets, 0, "{}", i.file);
            }
            // The points documents (`extract::gw_points`): MFM 1.0 prices 917 units and 106
            // enhancements, 1.1 adds 109 Forge World units (notes/pdf-points.md).
            "pdf" if i.file.starts_with("pdf-points/") => {
                assert_eq!(i.status, InputStatus::Ok, "{}", i.file);
                assert!(
                    [917 + 106, 1026 + 106].contains(&i.records.points),
                    "{}: {} points records",
                    i.file,
                    i.records.points
                );
                assert_eq!(i.records.datasheets, 0, "{}", i.file);
            }
            // The faction pack and the index cards: read by `extract::gw_card`.
            "pdf" => assert_eq!(i.status, InputStatus::Ok, "{}", i.file),
            // The Tournament Companion, read by `extract::companion`.
            "markdown" => assert_eq!(i.status, InputStatus::Ok, "{}", i.file),
            // The Munitorum Field Manual YAML, read by `records::mfm_yaml` (points, detachments
            // and enhancements; never rules or datasheets).
            "yaml" => {
                assert_eq!(i.status, InputStatus::Ok, "{}", i.file);
                assert_eq!(
                    (i.records.rules, i.records.datasheets),
                    (0, 0),
                    "{}",
                    i.file
                );
            }
            _ => {
                assert_eq!(i.status, InputStatus::Skipped, "{} ({})", i.file, i.format);
                assert_eq!(i.records, Default::default(), "{}", i.file);
            }
        }
    }
    let by_format = |f: &str| ds.manifest.inputs.iter().filter(|i| i.format == f).count();
    assert_eq!(by_format("csv"), 20, "the export's tables");
    assert_eq!(by_format("xml"), 9, "the BattleScribe XML files");
    assert_eq!(
        by_format("pdf"),
        13,
        "faction pack, 8 index cards, 2 points, 2 errata"
    );
    assert_eq!(by_format("markdown"), 1);
    // 11th-edition BattleScribe JSON (6) and the GW app's data (6: 3 faction files read).
    assert_eq!(by_format("json"), 12);
    // The 11th-edition points as YAML (31 files): structured data, never read as a text dump
    // (they gave 2,038 nameless rules when they were).
    assert_eq!(by_format("yaml"), 31);
    assert_eq!(by_format("text"), 0);
    // Only the HTML pages, the export, the BattleScribe files, the PDFs, the Markdown rules
    // document and the GW app's faction and core rules files give records: the same counts as
    // those alone.
    let c = util::corpus().unwrap();
    let five = ingest(&[
        c.join("wahapedia-html"),
        c.join("wahapedia-csv"),
        c.join("bsdata"),
        c.join("pdf"),
        c.join("pdf-index-cards"),
        c.join("pdf-points"),
        c.join("pdf-errata"),
        c.join("markdown"),
        c.join("game-datacards"),
    ]);
    assert_eq!(ds.rules.len(), five.rules.len());
    assert_eq!(ds.datasheets.len(), five.datasheets.len());
    assert_eq!(ds.stratagems.len(), five.stratagems.len());
    let mut ids: Vec<&str> = ds.rules.iter().map(|r| r.id.as_str()).collect();
    ids.sort();
    let n = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate rule ids");
    assert!(
        ds.rules.iter().all(|r| !r.text.contains("</")),
        "markup in a rule's text"
    );
}
