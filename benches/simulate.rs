//! Simulator benchmark (plain `fn main`, std::time): exact evaluations per second for a few
//! weapon × target pairs, and the time of `validate` over a dataset directory (first
//! non-flag argument, else `output/` if it exists).
//!
//! Run: `cargo bench --bench simulate [-- DATASET_DIR]`.

use cogitator::simulate::{
    self, Conditions, Dice, Keyword, Modifiers, Reroll, Scenario, Target, Weapon,
};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn weapon(a: &str, skill: Option<u8>, s: u32, ap: i32, d: &str, kws: &[&str]) -> Weapon {
    Weapon {
        name: "bench".into(),
        melee: false,
        attacks: Dice::parse(a).expect("dice"),
        skill,
        strength: s,
        ap,
        damage: Dice::parse(d).expect("dice"),
        keywords: kws
            .iter()
            .map(|k| Keyword::parse(k).expect("keyword"))
            .collect(),
    }
}

#[allow(clippy::too_many_arguments)]
fn target(
    models: u32,
    t: u32,
    sv: Option<u8>,
    inv: Option<u8>,
    w: u32,
    fnp: Option<u8>,
    kw: &[&str],
) -> Target {
    Target {
        models,
        toughness: t,
        save: sv,
        invuln: inv,
        wounds: w,
        fnp,
        keywords: kw.iter().map(|s| s.to_string()).collect(),
    }
}

fn rate(s: &Scenario) -> (f64, u64, Duration) {
    // Warm up, then run for about one second.
    for _ in 0..1000 {
        black_box(simulate::exact(black_box(s)).expect("scenario"));
    }
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < Duration::from_secs(1) {
        for _ in 0..1000 {
            black_box(simulate::exact(black_box(s)).expect("scenario"));
        }
        n += 1000;
    }
    let el = start.elapsed();
    (n as f64 / el.as_secs_f64(), n, el)
}

fn main() {
    let cases: Vec<(&str, Scenario)> = vec![
        (
            "10 bolt rifles (A2 = 20 attacks, BS3+ S4 AP-1 D1) vs 10x T3 5+ W1",
            Scenario {
                attackers: 10,
                weapon: weapon("2", Some(3), 4, -1, "1", &["ASSAULT", "HEAVY"]),
                target: target(10, 3, Some(5), None, 1, None, &["INFANTRY"]),
                conditions: Conditions::default(),
            },
        ),
        (
            "5x A4 SUSTAINED HITS 1 + LETHAL HITS (20 attacks, S5 AP-1 D1) vs 5x T4 3+ W2",
            Scenario {
                attackers: 5,
                weapon: weapon(
                    "4",
                    Some(3),
                    5,
                    -1,
                    "1",
                    &["SUSTAINED HITS 1", "LETHAL HITS"],
                ),
                target: target(5, 4, Some(3), None, 2, None, &["INFANTRY"]),
                conditions: Conditions::default(),
            },
        ),
        (
            "10x A2 ANTI-INFANTRY 4+ DEVASTATING (20 attacks, D2) vs 5x T5 2+ 4++ W3",
            Scenario {
                attackers: 10,
                weapon: weapon(
                    "2",
                    Some(3),
                    4,
                    -1,
                    "2",
                    &["ANTI-INFANTRY 4+", "DEVASTATING WOUNDS"],
                ),
                target: target(5, 5, Some(2), Some(4), 3, None, &["INFANTRY"]),
                conditions: Conditions::default(),
            },
        ),
        (
            "2x multi-melta (A2, MELTA 2 at half range, D6) vs T10 3+ W12",
            Scenario {
                attackers: 2,
                weapon: weapon("2", Some(4), 9, -4, "D6", &["MELTA 2", "HEAVY"]),
                target: target(1, 10, Some(3), None, 12, None, &["VEHICLE"]),
                conditions: Conditions {
                    half_range: true,
                    stationary: true,
                    ..Conditions::default()
                },
            },
        ),
        (
            "5x D6+1 blast SUSTAINED HITS D3 (D3 dmg) vs T12 2+ W16 FNP 5+",
            Scenario {
                attackers: 5,
                weapon: weapon(
                    "D6+1",
                    Some(3),
                    8,
                    -2,
                    "D3",
                    &["BLAST", "SUSTAINED HITS D3"],
                ),
                target: target(1, 12, Some(2), None, 16, Some(5), &["MONSTER"]),
                conditions: Conditions::default(),
            },
        ),
        (
            "10 bolt rifles with re-rolls (failed hits, wound rolls of 1), +1 to hit, crit hit 5+, SUSTAINED HITS 1, vs 10x T3 5+ W1",
            Scenario {
                attackers: 10,
                weapon: weapon("2", Some(3), 4, -1, "1", &["SUSTAINED HITS 1"]),
                target: target(10, 3, Some(5), None, 1, None, &["INFANTRY"]),
                conditions: Conditions {
                    modifiers: Modifiers {
                        reroll_hits: Some(Reroll::Failed),
                        reroll_wounds: Some(Reroll::Ones),
                        hit_modifier: 1,
                        crit_hit: Some(5),
                        ..Modifiers::default()
                    },
                    ..Conditions::default()
                },
            },
        ),
        (
            "10x A2 DEVASTATING (D2) re-roll failed wounds vs 5x T5 2+ W3 FNP 6+, FNP 5+ vs mortal wounds, damage -1 (two kernels)",
            Scenario {
                attackers: 10,
                weapon: weapon("2", Some(3), 4, -1, "2", &["DEVASTATING WOUNDS"]),
                target: target(5, 5, Some(2), None, 3, Some(6), &["INFANTRY"]),
                conditions: Conditions {
                    modifiers: Modifiers {
                        reroll_wounds: Some(Reroll::Failed),
                        damage_reduction: 1,
                        fnp_mortal: Some(5),
                        ..Modifiers::default()
                    },
                    ..Conditions::default()
                },
            },
        ),
    ];
    println!("exact evaluations per second (one thread):");
    for (name, s) in &cases {
        let (r, n, el) = rate(s);
        println!("  {r:>12.0} /s  ({n} in {:.2}s)  {name}", el.as_secs_f64());
    }

    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("output"));
    let file = dir.join("datasheets.json");
    let Ok(text) = std::fs::read_to_string(&file) else {
        println!("validate: skipped ({} not found; pass a dataset dir: cargo bench --bench simulate -- DIR)", file.display());
        return;
    };
    let sheets: Vec<cogitator::model::Datasheet> = match serde_json::from_str(&text) {
        Ok(s) => s,
        Err(e) => {
            println!("validate: skipped ({}: {e})", file.display());
            return;
        }
    };
    let panel = cogitator::validate::default_panel();
    let start = Instant::now();
    let (rows, diags) = cogitator::validate::validate_datasheets(&sheets, &panel);
    let el = start.elapsed();
    println!(
        "validate {}: {} datasheets, {} weapon profiles, {} targets -> {} rows, {} diagnostics in {:.3} ms",
        dir.display(),
        sheets.len(),
        sheets.iter().map(|d| d.weapons.len()).sum::<usize>(),
        panel.len(),
        rows.len(),
        diags.len(),
        el.as_secs_f64() * 1000.0
    );
}
