//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The repository root (where `Cargo.toml` is).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `../shared/corpus` (or `COGITATOR_CORPUS` when set, e.g. `COGITATOR_CORPUS=/nonexistent` to
/// run the suite as a clone without the corpus does), or `None` with a printed reason (a panic
/// when the corpus is required).
pub fn corpus() -> Option<PathBuf> {
    let dir = match std::env::var_os("COGITATOR_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => repo().join("../shared/corpus"),
    };
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("COGITATOR_REQUIRE_CORPUS").as_deref() == Ok("1") {
        panic!(
            "COGITATOR_REQUIRE_CORPUS=1 but {} is missing",
            dir.display()
        );
    }
    eprintln!("skipped: shared corpus not found at {}", dir.display());
    None
}

/// `../shared/seeds` or `raw/` (the seeds are committed in `raw/`).
pub fn raw() -> PathBuf {
    repo().join("raw")
}

/// Runs the pipeline (without the simulator stage) over in-memory files: (path, content).
pub fn ingest_in_memory<B: AsRef<[u8]>>(files: &[(&str, B)]) -> cogitator::model::Dataset {
    let sources: Vec<cogitator::source::SourceFile> = files
        .iter()
        .map(|(p, b)| cogitator::source::SourceFile::new(*p, b.as_ref().to_vec()))
        .collect();
    cogitator::pipeline::run(
        &sources,
        &[],
        &cogitator::pipeline::Options {
            skip_validation: true,
            ..Default::default()
        },
    )
}

/// The seed every property test starts from, so `cargo test` generates the same cases on every
/// run and machine (issue 24: an unseeded proptest made CI pass or fail by chance). Set
/// `PROPTEST_RNG_SEED=<u64>` to explore other cases; a failure found so is saved under
/// `tests/proptest-regressions/` (committed) and replayed first by every later run.
pub const PROPTEST_SEED: u64 = 0x636f_6769_7461_746f; // "cogitato"

/// The one proptest configuration of the suite: `cases` cases from [`PROPTEST_SEED`] (or from
/// `PROPTEST_RNG_SEED` when it is set), failures persisted beside the test sources.
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, RngSeed};
    let base = Config::default();
    let rng_seed = match base.rng_seed {
        RngSeed::Random => RngSeed::Fixed(PROPTEST_SEED),
        fixed => fixed,
    };
    Config {
        cases,
        rng_seed,
        ..base
    }
}

/// Runs the `cogitator` binary with `args` (`NO_COLOR` set): exit code, stdout, stderr.
pub fn cogitator(args: &[&str]) -> (i32, String, String) {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run cogitator");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Writes a dataset directory from `v`, a JSON object with one array per record file
/// (`datasheets`, `stratagems`, `rules`, `enhancements`, `detachments`, `diagnostics`).
pub fn write_dataset(dir: &std::path::Path, v: &serde_json::Value) {
    std::fs::create_dir_all(dir).expect("mkdir");
    for f in [
        "datasheets",
        "stratagems",
        "rules",
        "enhancements",
        "detachments",
        "diagnostics",
    ] {
        let text = serde_json::to_string_pretty(&v[f]).expect("json");
        std::fs::write(dir.join(format!("{f}.json")), text).expect("write");
    }
}

/// `(models, points, first unit, last unit)` of each points tier; `(0, None)` for a tier that
/// prices every unit.
pub fn tiers_by_unit(
    tiers: &[cogitator::model::PointsOption],
) -> Vec<(u32, u32, u32, Option<u32>)> {
    tiers
        .iter()
        .map(|t| {
            let (from, to) = t.units.map_or((0, None), |u| (u.from, u.to));
            (t.models, t.points, from, to)
        })
        .collect()
}

/// The dataset's diagnostic codes, sorted.
pub fn sorted_codes(ds: &cogitator::model::Dataset) -> Vec<&str> {
    let mut c: Vec<&str> = ds.diagnostics.iter().map(|d| d.code.as_str()).collect();
    c.sort();
    c
}

/// A weapon for the simulator's tests: `a` attacks and `d` damage as dice, `kws` as printed.
pub fn sim_weapon(
    a: &str,
    skill: Option<u8>,
    s: u32,
    ap: i32,
    d: &str,
    kws: &[&str],
) -> cogitator::simulate::Weapon {
    use cogitator::simulate::{Dice, Keyword};
    cogitator::simulate::Weapon {
        name: "test".into(),
        melee: false,
        attacks: Dice::parse(a).unwrap(),
        skill,
        strength: s,
        ap,
        damage: Dice::parse(d).unwrap(),
        keywords: kws.iter().map(|k| Keyword::parse(k).unwrap()).collect(),
    }
}

/// A target for the simulator's tests: `models` of T `t`, save `sv`, `w` wounds, nothing else.
pub fn sim_target(models: u32, t: u32, sv: Option<u8>, w: u32) -> cogitator::simulate::Target {
    cogitator::simulate::Target {
        models,
        toughness: t,
        save: sv,
        invuln: None,
        wounds: w,
        fnp: None,
        keywords: vec![],
    }
}
