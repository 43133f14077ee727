//! One regression test per bug fixed, named after what broke. Fixtures are small texts written
//! by hand in the dumps' shape.

use cogitator::model::Dataset;
use cogitator::pipeline::{run, Options};
use cogitator::source::SourceFile;

fn ingest(files: &[(&str, &str)]) -> Dataset {
    let sources: Vec<SourceFile> = files
        .iter()
        .map(|(p, t)| SourceFile::new(*p, t.as_bytes().to_vec()))
        .collect();
    run(&sources, &[], &Options::default())
}

const GLOSSARY_NAMED: &str = "\
RANGED WEAPONS | RANGE | A | BS | S | AP | D
Bolt rifle [assault, heavy] | 24\" | 2 | 3+ | 4 | -1 | 1
STEALTH

Some warriors are masters of disguise and concealment.

If every model in a unit has this ability, then each time a ranged attack is made against it, subtract 1 from that attack’s Hit roll.
";

const GLOSSARY_GLUED: &str = "\
RANGED WEAPONS | RANGE | A | BS | S | AP | D | |
Bolt rifle [assault, heavy] | |||||||
Bolt rifle [assault, heavy] | 24\" | 2 | 3+ | 4 | -1 | 1 | |
1 model | 80 |
Some warriors are masters of disguise and concealment.
If every model in a unit has this ability, then each time a ranged attack is made against it, subtract 1 from that attack’s Hit roll.
";

#[test]
fn unclassified_copy_merges_with_its_named_twin() {
    // The glued dump cannot say what kind of rule Stealth is; the named copy can. The kind must
    // not keep identical paragraphs apart.
    let ds = ingest(&[("a.txt", GLOSSARY_GLUED), ("b.txt", GLOSSARY_NAMED)]);
    let stealth: Vec<_> = ds
        .rules
        .iter()
        .filter(|r| r.text.starts_with("If every model"))
        .collect();
    assert_eq!(stealth.len(), 1, "{stealth:#?}");
    assert_eq!(stealth[0].name.as_deref(), Some("STEALTH"));
    assert_eq!(stealth[0].occurrences.len(), 2);
    assert_eq!(stealth[0].kind, "core");
}

#[test]
fn faction_keywords_value_line_is_not_a_heading() {
    let text = "\
Chaos Daemons – Soul Grinder
Soul Grinder
(⌀100mm)
M
10\"
T
10
Sv
2+
W
16
Ld
6+
OC
5
KEYWORDS: VEHICLE, WALKER
FACTION KEYWORDS:
LEGIONES DAEMONICA
STRATAGEMS
";
    let ds = ingest(&[("sg.txt", text)]);
    assert_eq!(ds.datasheets.len(), 1);
    assert_eq!(
        ds.datasheets[0].faction_keywords,
        vec!["LEGIONES DAEMONICA"]
    );
    assert!(ds
        .rules
        .iter()
        .all(|r| r.flavor.as_deref() != Some("LEGIONES DAEMONICA")));
}

#[test]
fn named_ability_group_does_not_leak_into_abilities() {
    let text = "\
Hero – Hero
Hero
(⌀40mm)
M
6\"
T
4
Sv
3+
W
5
Ld
6+
OC
1
SPECIAL ABILITIES
Trick (Aura): While a friendly unit is within 6\" of this model, it is cool.
ABILITIES
CORE: Deep Strike
Own Thing: Each time this model makes an attack, re-roll a Hit roll of 1.
1 model
80
";
    let ds = ingest(&[("h.txt", text)]);
    let d = &ds.datasheets[0];
    let group = |n: &str| {
        d.abilities
            .iter()
            .find(|a| a.name == n)
            .map(|a| a.group.clone())
    };
    assert_eq!(group("Trick").as_deref(), Some("special"));
    assert_eq!(group("Own Thing").as_deref(), Some("datasheet"));
    assert_eq!(group("Deep Strike").as_deref(), Some("core"));
    assert_eq!(d.points.len(), 1);
}

#[test]
fn possessive_before_a_lost_link_is_a_seam() {
    // "…in your opponent’sThis crumbling…": the flavor of the next enhancement starts at "This".
    let pieces = cogitator::extract::text::split_glued(
        "model only. Once per battle, in your opponent’sThis crumbling and code-locked tome",
    );
    let texts: Vec<_> = pieces.iter().map(|p| p.text.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "model only. Once per battle, in your opponent’s",
            "This crumbling and code-locked tome"
        ]
    );
}

#[test]
fn unnamed_rules_with_the_same_opening_are_not_variants() {
    // Two different unnamed rules that both start "Each time a unit from your army…" must keep
    // separate ids without a D201 conflict.
    let text = "\
RANGED WEAPONS | RANGE | A | BS | S | AP | D | |
Gun | 24\" | 1 | 3+ | 4 | 0 | 1 | |
1 model | 80 |
Erupting from whirling Warp gates, they strike.
Each time a unit from your army is set up using the Deep Strike ability, re-roll a Hit roll of 1.
So potent is the mind-choir of this force.
Each time a unit from your army is selected to fight, that unit can take a Leadership test.
";
    let ds = ingest(&[("x.txt", text)]);
    let unnamed: Vec<_> = ds.rules.iter().filter(|r| r.name.is_none()).collect();
    assert_eq!(unnamed.len(), 2);
    assert_ne!(unnamed[0].id, unnamed[1].id);
    assert!(!unnamed.iter().any(|r| r.id.contains('~')));
    assert!(!ds.diagnostics.iter().any(|d| d.code == "D201"));
}

/// Runs the binary with stdout into a pipe whose reader has gone away.
fn run_into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .args(args)
        .current_dir(crate::util::repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn cogitator");
    // The reader is gone before the command prints anything (`| head` that has had enough).
    drop(child.stdout.take());
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut stderr);
    }
    let status = child.wait().expect("wait");
    (status.code(), stderr)
}

#[test]
fn closed_stdout_pipe_is_not_a_panic() {
    // `lint --docs | head` and `ingest -v … | head -3` used to panic with exit 101 ("failed
    // printing to stdout: Broken pipe").
    let (code, stderr) = run_into_closed_pipe(&["lint", "--docs"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let out = tempfile::tempdir().expect("tempdir");
    let out_dir = out.path().join("out");
    let (code, stderr) = run_into_closed_pipe(&[
        "ingest",
        "-v",
        "raw",
        "--no-validate",
        "--out",
        out_dir.to_str().expect("utf-8 path"),
    ]);
    // The ingest's own exit code (0: no error diagnostics in the seeds), the dataset written.
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out_dir.join("manifest.json").is_file());
}
