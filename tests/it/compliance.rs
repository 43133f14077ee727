//! The compliance harness (issue 25, after vector's component specs): one generic check of the
//! contract's laws, run for every reader over its fixtures (`fixtures::FIXTURES`), so a new
//! source gets them by adding a fixture and a line to [`READERS`]:
//!
//! 1. ids do not change when the inputs are reordered, or moved and renamed;
//! 2. every sub-record (model, weapon, ability, DAMAGED and named boxes, points) is located in
//!    one of its record's sources, on a line that exists;
//! 3. a truncated input is reported as [`READERS`] states for that reader (the law as it truly
//!    holds today; the gaps to `partial` + `X111` are listed in `notes/structure-fixtures.md`);
//! 4. junk under the fixture's names gives no records;
//! 5. two runs, on one thread and on two, give the same bytes.

use crate::fixtures::{self, Fixture, FIXTURES};
use cogitator::model::{Dataset, InputStatus};
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// What a reader does with its input cut in half (law 3), as it truly holds.
struct Truncated {
    /// The file of the fixture that is cut.
    file: &'static str,
    /// The cut file's manifest status.
    status: InputStatus,
    /// Whether a record the cut shortens gets an `X111`.
    x111: bool,
    /// A diagnostic code the cut must give, when the reader gives one.
    code: Option<&'static str>,
}

/// One reader's laws, keyed by its fixtures' format folder.
struct Reader {
    format: &'static str,
    truncated: Truncated,
    /// Whether points are located in one of the datasheet's sources (law 2).
    points_located: bool,
    /// Whether plain prose under the fixture's names gives records (law 4; random bytes never
    /// may).
    prose_gives_records: bool,
}

const READERS: &[Reader] = &[
    Reader {
        format: "html",
        // `S008` and `partial`, but a datasheet cut short has no X111 (X111 is for stratagems
        // and enhancements only).
        truncated: Truncated {
            file: "weapon-with-two-profiles.html",
            status: InputStatus::Partial,
            x111: false,
            code: Some("S008"),
        },
        points_located: true,
        prose_gives_records: false,
    },
    Reader {
        format: "csv",
        // A table cut in a row: the stratagem that lost its text has X111 (X109 too), but
        // the table stays `ok`.
        truncated: Truncated {
            file: "export-two-profile-weapon-and-starred-invuln/Stratagems.csv",
            status: InputStatus::Ok,
            x111: true,
            code: Some("X109"),
        },
        points_located: true,
        prose_gives_records: false,
    },
    Reader {
        format: "bsdata",
        // Malformed XML (`B001`: the rest is not read), so `partial`; no X111.
        truncated: Truncated {
            file: "necrons.cat",
            status: InputStatus::Partial,
            x111: false,
            code: Some("B001"),
        },
        points_located: true,
        prose_gives_records: false,
    },
    Reader {
        format: "markdown",
        // The cut stratagem card has X111; the file stays `ok`.
        truncated: Truncated {
            file: "stratagem-card-inside-a-sequence-step.md",
            status: InputStatus::Ok,
            x111: true,
            code: Some("X111"),
        },
        points_located: true,
        // Prose without a rules source's structure is skipped with `S021`, as for text.
        prose_gives_records: false,
    },
    Reader {
        format: "text",
        // A dump cut in half reads as a shorter dump: `ok`, no diagnostic of the cut.
        truncated: Truncated {
            file: "damaged-profile-and-keyword-brackets.txt",
            status: InputStatus::Ok,
            x111: false,
            code: None,
        },
        points_located: true,
        prose_gives_records: false,
    },
    Reader {
        format: "pdf",
        // A PDF cut in half (no cross-reference table, no trailer) is not read at all.
        truncated: Truncated {
            file: "invuln-in-shield.pdf",
            status: InputStatus::Skipped,
            x111: false,
            code: Some("S015"),
        },
        points_located: true,
        prose_gives_records: false,
    },
];

fn reader(f: &Fixture) -> &'static Reader {
    READERS
        .iter()
        .find(|r| r.format == f.format)
        .unwrap_or_else(|| panic!("no laws for the {} reader: add it to READERS", f.format))
}

/// Every id of the dataset, by record family.
fn ids(ds: &Dataset) -> BTreeSet<String> {
    let fam = |f: &str, id: &str| format!("{f} {id}");
    ds.datasheets
        .iter()
        .map(|r| fam("datasheet", &r.id))
        .chain(ds.rules.iter().map(|r| fam("rule", &r.id)))
        .chain(ds.stratagems.iter().map(|r| fam("stratagem", &r.id)))
        .chain(ds.enhancements.iter().map(|r| fam("enhancement", &r.id)))
        .chain(ds.detachments.iter().map(|r| fam("detachment", &r.id)))
        .collect()
}

fn record_count(ds: &Dataset) -> usize {
    ids(ds).len()
}

/// The emitted dataset's files (what `ingest` writes).
fn bytes(ds: &Dataset) -> Vec<(String, String)> {
    cogitator::emit::files(ds)
}

/// `files` moved into another folder and renamed (a CSV export's tables keep their names:
/// the names are the export's format).
fn moved(f: &Fixture, files: &[(String, Vec<u8>)]) -> Vec<(String, Vec<u8>)> {
    files
        .iter()
        .map(|(p, b)| {
            let p = if f.format == "csv" {
                format!("moved/{p}")
            } else {
                format!("moved/renamed-{p}")
            };
            (p, b.clone())
        })
        .collect()
}

/// Law 1: reordered, and moved and renamed, the same ids.
fn ids_do_not_depend_on_order_or_names(f: &Fixture, files: &[(String, Vec<u8>)], base: &Dataset) {
    let mut rev = files.to_vec();
    rev.reverse();
    assert_eq!(
        ids(&fixtures::ingest(&rev)),
        ids(base),
        "{}: reordered",
        f.key()
    );
    assert_eq!(
        ids(&fixtures::ingest(&moved(f, files))),
        ids(base),
        "{}: moved and renamed",
        f.key()
    );
}

/// Law 2: every sub-record's `at` is one of its datasheet's sources, on a line of the file.
fn sub_records_are_located_in_their_sources(
    f: &Fixture,
    files: &[(String, Vec<u8>)],
    ds: &Dataset,
) {
    let r = reader(f);
    let lines = |file: &str| -> u32 {
        let (_, b) = files
            .iter()
            .find(|(p, _)| p == file)
            .unwrap_or_else(|| panic!("{file} is no input of {}", f.key()));
        (b.iter().filter(|c| **c == b'\n').count() + usize::from(!b.ends_with(b"\n"))) as u32
    };
    let mut checked = 0;
    for d in &ds.datasheets {
        let sources: BTreeSet<&str> = d.sources.iter().map(|s| s.file.as_str()).collect();
        let mut at: Vec<(String, &cogitator::source::Location)> = Vec::new();
        at.extend(
            d.models
                .iter()
                .map(|m| (format!("model {:?}", m.name), &m.at)),
        );
        at.extend(
            d.weapons
                .iter()
                .map(|w| (format!("weapon {}", w.name), &w.at)),
        );
        at.extend(
            d.abilities
                .iter()
                .map(|a| (format!("ability {}", a.name), &a.at)),
        );
        at.extend(
            d.damaged
                .iter()
                .chain(&d.special_rules)
                .map(|n| (format!("box {}", n.name), &n.at)),
        );
        if r.points_located {
            at.extend(
                d.points
                    .iter()
                    .map(|p| (format!("points {}", p.models), &p.at)),
            );
        }
        for (what, loc) in at {
            assert!(
                sources.contains(loc.file.as_str()),
                "{}: {} {what} at {} is not one of its sources {sources:?}",
                f.key(),
                d.id,
                loc.file
            );
            // A PDF's lines are the decoder's line numbers, not the file's.
            if f.format != "pdf" {
                let max = lines(&loc.file);
                assert!(
                    loc.line >= 1 && loc.line <= max,
                    "{}: {} {what} at line {} of {} (1..={max})",
                    f.key(),
                    d.id,
                    loc.line,
                    loc.file
                );
            }
            checked += 1;
        }
    }
    assert!(ds.datasheets.is_empty() || checked > 0, "{}", f.key());
}

/// Law 3: the reader's designated file cut in half is reported as [`Truncated`] states.
fn a_truncated_input_is_reported(f: &Fixture, files: &[(String, Vec<u8>)], whole: &Dataset) {
    let t = &reader(f).truncated;
    let mut cut = files.to_vec();
    let (_, b) = cut
        .iter_mut()
        .find(|(p, _)| p == t.file)
        .unwrap_or_else(|| panic!("{}: no file {}", f.key(), t.file));
    b.truncate(b.len() / 2);
    let ds = fixtures::ingest(&cut);
    let input = ds
        .manifest
        .inputs
        .iter()
        .find(|i| i.file == t.file)
        .expect("the cut file's manifest entry");
    assert_eq!(input.status, t.status, "{}: {:#?}", f.key(), ds.diagnostics);
    let codes: BTreeSet<&str> = ds.diagnostics.iter().map(|d| d.code.as_str()).collect();
    let whole_codes: BTreeSet<&str> = whole.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(codes.contains("X111"), t.x111, "{}: {codes:?}", f.key());
    if let Some(code) = t.code {
        assert!(
            codes.contains(code) && !whole_codes.contains(code),
            "{}: the cut gives {code}: {codes:?}",
            f.key()
        );
    }
    // What is kept is never more than the whole input gives.
    assert!(
        ids(&ds).is_subset(&ids(whole)),
        "{}: the cut input gives records the whole does not: {:?}",
        f.key(),
        ids(&ds).difference(&ids(whole)).collect::<Vec<_>>()
    );
}

/// Law 4: junk under the fixture's own names gives no records: prose, and seeded random bytes.
fn junk_gives_no_records(f: &Fixture, files: &[(String, Vec<u8>)]) {
    let prose = b"Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n\
        Sed do eiusmod tempor | incididunt | ut labore.\n\n- et dolore magna aliqua\n"
        .to_vec();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(25);
    let random: Vec<u8> = (0..4096).map(|_| rng.random::<u8>()).collect();
    let with = |junk: &[u8]| {
        let renamed: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|(p, _)| (p.clone(), junk.to_vec()))
            .collect();
        fixtures::ingest(&renamed)
    };
    let ds = with(&random);
    assert_eq!(record_count(&ds), 0, "{}: {:?}", f.key(), ids(&ds));
    let ds = with(&prose);
    assert_eq!(
        record_count(&ds) > 0,
        reader(f).prose_gives_records,
        "{}: {:?}",
        f.key(),
        ids(&ds)
    );
}

/// Law 5: one thread and two threads, two runs each, the same bytes.
fn output_is_the_same_for_runs_and_thread_counts(f: &Fixture, files: &[(String, Vec<u8>)]) {
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        pool.install(|| bytes(&fixtures::ingest(files)))
    };
    let one = run(1);
    assert!(!one.is_empty());
    assert_eq!(one, run(1), "{}: two runs on one thread", f.key());
    assert_eq!(one, run(2), "{}: one thread vs two", f.key());
    assert_eq!(run(2), run(2), "{}: two runs on two threads", f.key());
}

/// Every law, for every reader's fixtures.
#[test]
fn every_reader_passes_the_contract_laws() {
    let formats: BTreeSet<&str> = FIXTURES.iter().map(|f| f.format).collect();
    let laws: BTreeSet<&str> = READERS.iter().map(|r| r.format).collect();
    assert_eq!(
        formats, laws,
        "a reader without fixtures, or fixtures without laws"
    );
    let mut truncated = BTreeSet::new();
    for f in FIXTURES {
        let files = f.files();
        let ds = fixtures::ingest(&files);
        assert!(record_count(&ds) > 0, "{}", f.key());
        ids_do_not_depend_on_order_or_names(f, &files, &ds);
        sub_records_are_located_in_their_sources(f, &files, &ds);
        if files.iter().any(|(p, _)| p == reader(f).truncated.file) {
            a_truncated_input_is_reported(f, &files, &ds);
            truncated.insert(f.format);
        }
        junk_gives_no_records(f, &files);
        output_is_the_same_for_runs_and_thread_counts(f, &files);
    }
    assert_eq!(truncated, laws, "every reader's truncation law ran");
}

/// All fixtures in one run, in name order and reversed, and moved into another folder: the
/// same bytes, and the same ids.
#[test]
fn all_fixtures_together_do_not_depend_on_order_or_names() {
    let all: Vec<(String, Vec<u8>)> = FIXTURES
        .iter()
        .flat_map(|f| {
            f.files()
                .into_iter()
                .map(move |(p, b)| (format!("{}/{p}", f.format), b))
        })
        .collect();
    let forward = fixtures::ingest(&all);
    let mut rev = all.clone();
    rev.reverse();
    let backward = fixtures::ingest(&rev);
    assert_eq!(bytes(&forward), bytes(&backward), "reordered");
    let moved: Vec<(String, Vec<u8>)> = all
        .iter()
        .map(|(p, b)| (format!("elsewhere/{p}"), b.clone()))
        .collect();
    assert_eq!(ids(&fixtures::ingest(&moved)), ids(&forward), "moved");
    assert!(record_count(&forward) > 10);
}

/// The laws fail on known-bad datasets: the checks are not vacuous.
#[test]
fn the_laws_fail_on_known_bad_datasets() {
    let f = FIXTURES
        .iter()
        .find(|f| f.format == "html")
        .expect("an html fixture");
    let files = f.files();
    let good = fixtures::ingest(&files);
    // A weapon located in a file that is not a source.
    let mut bad = good.clone();
    bad.datasheets[0].weapons[0].at.file = "elsewhere.html".into();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        sub_records_are_located_in_their_sources(f, &files, &bad)
    }));
    assert!(r.is_err(), "a foreign location passes");
    // A line past the end of the file.
    let mut bad = good.clone();
    bad.datasheets[0].models[0].at.line = 100_000;
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        sub_records_are_located_in_their_sources(f, &files, &bad)
    }));
    assert!(r.is_err(), "a line past the end passes");
    // An id that changes with the file's name.
    let mut bad = good.clone();
    bad.datasheets[0].id.push_str("-weapon-with-two-profiles");
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        ids_do_not_depend_on_order_or_names(f, &files, &bad)
    }));
    assert!(r.is_err(), "an id that changes with the name passes");
}
