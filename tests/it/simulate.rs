//! The simulator (`cogitator::simulate`), dataset validation (`cogitator::validate`) and their
//! CLI subcommands: known answers worked out by hand, exact vs Monte Carlo agreement, and
//! property tests.

use cogitator::simulate::{self, Conditions, Dice, Keyword, Rules, Scenario, Target, Weapon};
use cogitator::validate::{default_panel, expected_damage_csv, validate_datasheets};
use proptest::prelude::*;

use crate::util::{sim_target as target, sim_weapon as weapon};

fn sc(attackers: u32, weapon: Weapon, target: Target) -> Scenario {
    Scenario {
        attackers,
        weapon,
        target,
        conditions: Conditions::default(),
    }
}

fn exact(s: &Scenario) -> simulate::Outcome {
    simulate::exact(s).unwrap()
}

#[track_caller]
fn close(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-12, "got {got}, want {want}");
}

// --- known answers -----------------------------------------------------------------------

/// SUSTAINED HITS 1 + LETHAL HITS, 6 attacks, BS 4+, S4 vs T4 (4+), no save, D1, 20×W1.
/// Per attack: normal hit (rolls 4,5) 2/6 → wounds 1/2; critical hit (6) 1/6 → auto-wound
/// (1) plus one sustained hit that wounds on 1/2. E[damage] per attack = 2/6·1/2 + 1/6·3/2
/// = 1/6 + 1/4 = 5/12; ×6 = 5/2. Hits: 6·(2/6 + 1/6·2) = 4. Wounds = damage = 5/2.
/// P(0 damage) = P(attack does nothing)^6 = (3/6 miss + 2/6·1/2)^6 = (2/3)^6 = 64/729.
#[test]
fn known_sustained_and_lethal() {
    let o = exact(&sc(
        1,
        weapon(
            "6",
            Some(4),
            4,
            0,
            "1",
            &["SUSTAINED HITS 1", "LETHAL HITS"],
        ),
        target(20, 4, None, 1),
    ));
    close(o.expected_attacks, 6.0);
    close(o.expected_hits, 4.0);
    close(o.expected_wounds, 2.5);
    close(o.expected_damage, 2.5);
    close(o.expected_models_destroyed, 2.5);
    close(o.damage_distribution[0], 64.0 / 729.0);
}

/// CONVERSION with LETHAL HITS, 1 attack, S4 vs T4 (wound 4+), no save, D1, 1×W1.
/// Beyond the rule's distance, an unmodified *successful* hit roll of 4+ is critical:
/// - BS 4+: rolls 4,5,6 are critical (auto-wound): E = 3/6 = 1/2. Within the distance only a 6:
///   E = 1/6 + 2/6·1/2 = 1/3.
/// - BS 5+: a 4 misses, so it cannot be critical: rolls 5,6 critical: E = 2/6 = 1/3; within the
///   distance E = 1/6 + 1/6·1/2 = 1/4.
/// - 9th edition has no Critical Hits: E = 3/6·1/2 = 1/4 with BS 4+, beyond or not.
#[test]
fn known_conversion_beyond_its_distance() {
    let run = |skill: u8, beyond: bool, rules: Rules| {
        let mut s = sc(
            1,
            weapon("1", Some(skill), 4, 0, "1", &["CONVERSION", "LETHAL HITS"]),
            target(1, 4, None, 1),
        );
        s.conditions.beyond_conversion = beyond;
        s.conditions.rules = rules;
        let o = exact(&s);
        // Exact against Monte Carlo as well: the two engines read the same plan.
        let mc = simulate::monte_carlo(&s, 20_000, 7).unwrap();
        assert!((mc.expected_damage - o.expected_damage).abs() < 0.02);
        o.expected_damage
    };
    close(run(4, true, Rules::Tenth), 1.0 / 2.0);
    close(run(4, false, Rules::Tenth), 1.0 / 3.0);
    close(run(5, true, Rules::Tenth), 1.0 / 3.0);
    close(run(5, false, Rules::Tenth), 1.0 / 4.0);
    close(run(4, true, Rules::Ninth), 1.0 / 4.0);
}

/// ANTI-INFANTRY 4+ and DEVASTATING WOUNDS, 6 attacks, BS 4+ (hit 1/2), S4 vs T4, Sv 2+, D1.
/// Against INFANTRY every successful wound roll (4,5,6) is critical → no save:
/// per attack 1/2·1/2 = 1/4, ×6 = 3/2.
/// Against a non-INFANTRY target only a 6 is critical: per hit 1/6 (devastating) + 2/6·1/6
/// (normal wound, failed 2+ save) = 4/18 = 2/9; per attack 1/9; ×6 = 2/3.
#[test]
fn known_anti_and_devastating() {
    let w = weapon(
        "6",
        Some(4),
        4,
        0,
        "1",
        &["ANTI-INFANTRY 4+", "DEVASTATING WOUNDS"],
    );
    let mut t = target(10, 4, Some(2), 1);
    t.keywords = vec!["Infantry".into()];
    close(exact(&sc(1, w.clone(), t.clone())).expected_damage, 1.5);
    t.keywords = vec!["VEHICLE".into()];
    close(exact(&sc(1, w, t)).expected_damage, 2.0 / 3.0);
}

/// Devastating Wounds mortal wounds do not spill over. TORRENT (auto-hit), ANTI-X 2+ makes
/// every wound roll of 2–6 (5/6) a Critical Wound. One attack, D6 mortal wounds against
/// 3 models with W2: damage = min(D6, 2): 1 w.p. 1/6, 2 w.p. 5/6, so E = 5/6·(1/6 + 10/6)
/// = 55/36; P(1 model destroyed) = 5/6·5/6 = 25/36 and never 2 (with spill-over a 4+ would
/// kill two).
/// Two attacks with D3 against W1 models: each critical wound kills exactly one model
/// (excess lost): destroyed ~ Binomial(2, 5/6), E = 5/3, never 3+.
#[test]
fn known_devastating_no_spill_over() {
    let mut t = target(3, 4, Some(2), 2);
    t.keywords = vec!["X".into()];
    let o = exact(&sc(
        1,
        weapon(
            "1",
            None,
            4,
            0,
            "D6",
            &["TORRENT", "ANTI-X 2+", "DEVASTATING WOUNDS"],
        ),
        t.clone(),
    ));
    close(o.expected_damage, 55.0 / 36.0);
    close(o.models_destroyed_distribution[1], 25.0 / 36.0);
    assert_eq!(o.models_destroyed_distribution[2], 0.0);
    t.wounds = 1;
    let o = exact(&sc(
        1,
        weapon(
            "2",
            None,
            4,
            0,
            "D3",
            &["TORRENT", "ANTI-X 2+", "DEVASTATING WOUNDS"],
        ),
        t,
    ));
    close(o.expected_damage, 5.0 / 3.0);
    close(o.models_destroyed_distribution[2], 25.0 / 36.0);
    assert_eq!(o.models_destroyed_distribution[3], 0.0);
}

/// MELTA 2 at half range: 1 attack, BS 2+ (5/6), S8 vs T10 (5+: 1/3), AP-4 vs Sv 3+ (7+: no
/// save), D6+2 (mean 5.5) against one W12 vehicle (never capped): 5/6·1/3·11/2 = 55/36.
/// Not at half range: D6 (mean 3.5): 35/36.
#[test]
fn known_melta_half_range() {
    let s = sc(
        1,
        weapon("1", Some(2), 8, -4, "D6", &["MELTA 2"]),
        target(1, 10, Some(3), 12),
    );
    close(exact(&s).expected_damage, 35.0 / 36.0);
    let mut half = s.clone();
    half.conditions.half_range = true;
    close(exact(&half).expected_damage, 55.0 / 36.0);
}

/// Feel No Pain 5+ (each wound lost ignored w.p. 1/3). TORRENT, S8 vs T4 (2+: 5/6), no save,
/// D2, 5 models W2. Post-FNP damage k of one event: 0 w.p. 1/9, 1 w.p. 4/9, 2 w.p. 4/9.
/// One attack: E = 5/6·(4/9 + 8/9) = 10/9; P(1 destroyed) = 5/6·4/9 = 10/27.
/// Two attacks (allocation: a model that lost a wound takes the next event, excess lost):
/// E[total | 1 event] = 12/9 = 108/81. With two events, by first event k1:
///   k1=0 (1/9): total k2 → mean 12/9;
///   k1=1 (4/9): 1 wound left: total 1 (k2=0, 1/9) or 2 (8/9) → mean 17/9;
///   k1=2 (4/9): fresh model: 2 + k2 → mean 30/9;
///   E[total | 2 events] = (12 + 4·17 + 4·30)/81 = 200/81.
/// P(1 event) = 2·5/6·1/6 = 10/36, P(2) = 25/36: E = (10·108 + 25·200)/(36·81) = 1520/729.
#[test]
fn known_feel_no_pain_and_allocation() {
    let mut t = target(5, 4, None, 2);
    t.fnp = Some(5);
    let o = exact(&sc(
        1,
        weapon("1", None, 8, 0, "2", &["TORRENT"]),
        t.clone(),
    ));
    close(o.expected_damage, 10.0 / 9.0);
    close(o.expected_models_destroyed, 10.0 / 27.0);
    let o = exact(&sc(1, weapon("2", None, 8, 0, "2", &["TORRENT"]), t));
    close(o.expected_damage, 1520.0 / 729.0);
}

/// Benefit of Cover: 6 TORRENT attacks, S8 vs T4 (5/6), D1, 20 W1 models.
/// Sv 3+ against AP 0 is not improved: fail 2/6 → 6·5/6·1/3 = 5/3 (same as without cover).
/// Sv 4+ against AP 0 with cover → 3+: 5/3 (2.5 without cover).
/// Sv 3+ against AP -1 with cover → 3+: 5/3 (4+ without: 2.5). IGNORES COVER: 2.5.
#[test]
fn known_cover_against_ap0() {
    let case = |sv: u8, ap: i32, cover: bool, kws: &[&str]| {
        let mut s = sc(
            1,
            weapon("6", None, 8, ap, "1", &[&["TORRENT"], kws].concat()),
            target(20, 4, Some(sv), 1),
        );
        s.conditions.cover = cover;
        exact(&s).expected_damage
    };
    close(case(3, 0, false, &[]), 5.0 / 3.0);
    close(case(3, 0, true, &[]), 5.0 / 3.0);
    close(case(4, 0, false, &[]), 2.5);
    close(case(4, 0, true, &[]), 5.0 / 3.0);
    close(case(3, -1, false, &[]), 2.5);
    close(case(3, -1, true, &[]), 5.0 / 3.0);
    close(case(4, 0, true, &["IGNORES COVER"]), 2.5);
}

/// TORRENT with SUSTAINED HITS 1: no hit roll, so no Critical Hits and no extra hits.
/// 6 attacks → exactly 6 hits; S4 vs T4 (1/2), no save, D1, 20×W1: damage 3.
#[test]
fn known_torrent_with_sustained_hits() {
    let o = exact(&sc(
        1,
        weapon("6", None, 4, 0, "1", &["TORRENT", "SUSTAINED HITS 1"]),
        target(20, 4, None, 1),
    ));
    close(o.expected_hits, 6.0);
    close(o.expected_damage, 3.0);
    assert!(o.notes.iter().any(|n| n.starts_with("SUSTAINED HITS 1")));
}

/// BLAST against 11 models. 10e: +1 attack per 5 models → D6+2, mean 5.5.
/// 9e: against 11+ models random attacks take the maximum → 6. 9e against 6 models: at least
/// 3 → (3+3+3+4+5+6)/6 = 4. 9e RAPID FIRE doubles (A2 → 4); 10e RAPID FIRE 1 adds 1 (→ 3).
#[test]
fn known_blast_and_rapid_fire() {
    let mut s = sc(
        1,
        weapon("D6", Some(4), 4, 0, "1", &["BLAST"]),
        target(11, 4, None, 1),
    );
    close(exact(&s).expected_attacks, 5.5);
    s.conditions.rules = Rules::Ninth;
    close(exact(&s).expected_attacks, 6.0);
    s.target.models = 6;
    close(exact(&s).expected_attacks, 4.0);
    let mut s = sc(
        1,
        weapon("2", Some(4), 4, 0, "1", &["RAPID FIRE 1"]),
        target(10, 4, None, 1),
    );
    close(exact(&s).expected_attacks, 2.0);
    s.conditions.half_range = true;
    close(exact(&s).expected_attacks, 3.0);
    s.conditions.rules = Rules::Ninth;
    close(exact(&s).expected_attacks, 4.0);
}

/// Modifiers: INDIRECT FIRE against a non-visible target: −1 to hit and unmodified 1–3 fail.
/// BS 2+ → hits on 4, 5 (4−1 ≥ 2) and 6: 3/6 (instead of 5/6). HEAVY (+1, stationary) and
/// STEALTH (−1) cancel: BS 4+ → 1/2. TWIN-LINKED at S4 vs T4: 1/2 + 1/2·1/2 = 3/4.
/// Invulnerable 4+ against AP −3 on Sv 2+ (armour 5+): fail 1/2.
#[test]
fn known_modifiers_rerolls_and_invuln() {
    let t = target(20, 4, None, 1);
    let mut s = sc(
        1,
        weapon("6", Some(2), 4, 0, "1", &["INDIRECT FIRE"]),
        t.clone(),
    );
    close(exact(&s).expected_hits, 5.0);
    s.conditions.target_visible = false;
    close(exact(&s).expected_hits, 3.0);
    let mut s = sc(1, weapon("6", Some(4), 4, 0, "1", &["HEAVY"]), t.clone());
    s.conditions.stationary = true;
    s.conditions.stealth = true;
    close(exact(&s).expected_hits, 3.0);
    let s = sc(
        1,
        weapon("4", None, 4, 0, "1", &["TORRENT", "TWIN-LINKED"]),
        t.clone(),
    );
    close(exact(&s).expected_wounds, 3.0);
    let mut t2 = target(20, 4, Some(2), 1);
    t2.invuln = Some(4);
    let s = sc(1, weapon("4", None, 8, -3, "1", &["TORRENT"]), t2);
    close(exact(&s).expected_damage, 4.0 * 5.0 / 6.0 * 0.5);
}

/// LETHAL HITS auto-wounds are not Critical Wounds, so they never trigger DEVASTATING WOUNDS.
/// BS 6+ (every hit is a 6), LETHAL + DEVASTATING, Sv 2+: each attack hits 1/6, auto-wounds,
/// and is saved 5/6: 6·1/6·1/6 = 1/6.
#[test]
fn known_lethal_hits_do_not_trigger_devastating() {
    let o = exact(&sc(
        1,
        weapon(
            "6",
            Some(6),
            4,
            0,
            "1",
            &["LETHAL HITS", "DEVASTATING WOUNDS"],
        ),
        target(20, 4, Some(2), 1),
    ));
    close(o.expected_damage, 1.0 / 6.0);
}

#[test]
fn indirect_fire_with_torrent_is_refused() {
    let mut s = sc(
        1,
        weapon("D6", None, 4, 0, "1", &["TORRENT", "INDIRECT FIRE"]),
        target(5, 4, Some(3), 1),
    );
    assert!(simulate::exact(&s).is_ok());
    s.conditions.target_visible = false;
    assert!(matches!(
        simulate::exact(&s),
        Err(simulate::SimError::IndirectTorrent)
    ));
    assert!(simulate::monte_carlo(&s, 10, 1).is_err());
}

#[test]
fn hazardous_and_notes_are_reported() {
    let o = exact(&sc(
        5,
        weapon(
            "1",
            Some(3),
            9,
            -4,
            "D6",
            &["HAZARDOUS", "PISTOL", "PRECISION"],
        ),
        target(1, 10, Some(3), 12),
    ));
    close(o.expected_hazardous_mortal_wounds.unwrap(), 2.5);
    assert!(o.notes.iter().any(|n| n.starts_with("PISTOL")));
    assert!(o.notes.iter().any(|n| n.starts_with("PRECISION")));
    let j = o.to_json();
    let keys: Vec<&str> = j.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "method",
            "expected_attacks",
            "expected_hits",
            "expected_wounds",
            "expected_damage",
            "expected_models_destroyed",
            "damage_distribution",
            "models_destroyed_distribution",
            "notes",
            "expected_hazardous_mortal_wounds"
        ]
    );
    assert_eq!(j["damage_distribution"][3]["value"], 3);
}

// --- exact vs Monte Carlo ------------------------------------------------------------------

fn grid() -> Vec<Scenario> {
    let weapons = [
        weapon(
            "D6+1",
            Some(3),
            8,
            -2,
            "D3",
            &["SUSTAINED HITS 1", "LETHAL HITS"],
        ),
        weapon("3", Some(4), 4, 0, "1", &["TWIN-LINKED", "RAPID FIRE 1"]),
        weapon(
            "2",
            Some(4),
            6,
            -1,
            "2",
            &["CONVERSION", "SUSTAINED HITS 1", "HEAVY"],
        ),
        weapon(
            "2",
            Some(3),
            5,
            -1,
            "D6",
            &["ANTI-INFANTRY 4+", "DEVASTATING WOUNDS"],
        ),
        weapon("D6", None, 5, 0, "1", &["TORRENT", "IGNORES COVER"]),
        weapon("D3", Some(4), 9, -3, "D6+1", &["MELTA 2", "HEAVY", "BLAST"]),
        weapon(
            "4",
            Some(2),
            6,
            -1,
            "2",
            &["SUSTAINED HITS D3", "DEVASTATING WOUNDS", "LANCE"],
        ),
    ];
    let mut targets = vec![
        Target {
            keywords: vec!["INFANTRY".into()],
            ..target(10, 3, Some(5), 1)
        },
        target(5, 4, Some(3), 2),
        Target {
            invuln: Some(4),
            keywords: vec!["INFANTRY".into()],
            ..target(5, 5, Some(2), 3)
        },
        target(1, 10, Some(3), 12),
        Target {
            fnp: Some(5),
            ..target(1, 12, Some(2), 16)
        },
    ];
    targets.push(Target {
        fnp: Some(6),
        ..target(3, 4, Some(4), 2)
    });
    let mut out = Vec::new();
    for (i, w) in weapons.iter().enumerate() {
        for (j, t) in targets.iter().enumerate() {
            let mut s = sc(1 + ((i + j) % 5) as u32, w.clone(), t.clone());
            s.conditions.half_range = (i + j) % 2 == 0;
            s.conditions.stationary = (i + j) % 3 == 0;
            s.conditions.charged = (i + j) % 2 == 1;
            s.conditions.cover = j % 2 == 0;
            s.conditions.beyond_conversion = (i + j) % 2 == 1;
            if (i * j) % 7 == 3 {
                s.conditions.rules = Rules::Ninth;
            }
            out.push(s);
        }
    }
    out
}

fn moments(d: &[f64]) -> (f64, f64) {
    let m: f64 = d.iter().enumerate().map(|(v, p)| v as f64 * p).sum();
    let var: f64 = d
        .iter()
        .enumerate()
        .map(|(v, p)| (v as f64 - m).powi(2) * p)
        .sum();
    (m, var.sqrt())
}

/// For every scenario of the grid, the Monte Carlo means lie within 5 standard errors
/// (σ from the exact distribution, N trials) of the exact means, and the Monte Carlo never
/// produces a value the exact engine gives probability 0.
#[test]
fn exact_agrees_with_monte_carlo() {
    const N: u64 = 20_000;
    for (k, s) in grid().iter().enumerate() {
        let e = exact(s);
        let m = simulate::monte_carlo(s, N, 1000 + k as u64).unwrap();
        for (what, de, dm) in [
            ("damage", &e.damage_distribution, &m.damage_distribution),
            (
                "models destroyed",
                &e.models_destroyed_distribution,
                &m.models_destroyed_distribution,
            ),
        ] {
            assert_eq!(de.len(), dm.len());
            let (mean, sigma) = moments(de);
            let (mc_mean, _) = moments(dm);
            let bound = 5.0 * sigma / (N as f64).sqrt() + 1e-12;
            assert!(
                (mc_mean - mean).abs() <= bound,
                "scenario {k} {what}: exact {mean}, mc {mc_mean}, bound {bound}: {s:?}"
            );
            for (v, (&pe, &pm)) in de.iter().zip(dm.iter()).enumerate() {
                if pe < 1e-15 {
                    assert_eq!(
                        pm, 0.0,
                        "scenario {k} {what}: value {v} impossible but sampled: {s:?}"
                    );
                }
            }
        }
        // Attacks, hits and wounds per volley lie in [0, max_hits], where per model the
        // attacks are at most 2·A_max (9e RAPID FIRE doubles) + 1 (10e RAPID FIRE 1, the only
        // one in the grid) + models/5 (10e BLAST), and each attack yields at most 1 + 3 hits
        // (SUSTAINED HITS D3); wounds ≤ hits. By Popoviciu's inequality σ ≤ max_hits/2.
        let per_model = 2 * s.weapon.attacks.max() + 1 + s.target.models / 5;
        let max_attacks = f64::from(s.attackers * per_model * 4);
        let bound = 5.0 * (max_attacks / 2.0) / (N as f64).sqrt();
        assert!(
            (m.expected_attacks - e.expected_attacks).abs() <= bound,
            "scenario {k} attacks"
        );
        assert!(
            (m.expected_hits - e.expected_hits).abs() <= bound,
            "scenario {k} hits"
        );
        assert!(
            (m.expected_wounds - e.expected_wounds).abs() <= bound,
            "scenario {k} wounds"
        );
    }
}

#[test]
fn monte_carlo_is_reproducible() {
    let s = &grid()[7];
    assert_eq!(
        simulate::monte_carlo(s, 500, 42).unwrap(),
        simulate::monte_carlo(s, 500, 42).unwrap()
    );
}

// --- properties ----------------------------------------------------------------------------

const KEYWORDS: &[&str] = &[
    "SUSTAINED HITS 1",
    "LETHAL HITS",
    "DEVASTATING WOUNDS",
    "TWIN-LINKED",
    "ANTI-INFANTRY 4+",
    "MELTA 1",
    "RAPID FIRE 1",
    "BLAST",
    "HEAVY",
    "LANCE",
    "TORRENT",
];

fn arb_scenario() -> impl Strategy<Value = Scenario> {
    (
        (
            1u32..4,
            prop::sample::select(vec!["1", "2", "D3", "D6", "D6+1"]),
            2u8..7,
            1u32..13,
            -4i32..1,
        ),
        (
            prop::sample::select(vec!["1", "2", "D3", "D6", "3"]),
            prop::collection::vec(0..KEYWORDS.len(), 0..3),
        ),
        (
            1u32..11,
            2u32..13,
            prop::option::of(2u8..7),
            prop::option::of(3u8..7),
            1u32..8,
            prop::option::of(4u8..7),
        ),
        (
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                (n, a, bs, s, ap),
                (d, kws),
                (models, t, sv, inv, w, fnp),
                (half, stat, chg, cover, inf),
            )| {
                let names: Vec<&str> = kws.iter().map(|&i| KEYWORDS[i]).collect();
                let mut target = target(models, t, sv, w);
                target.invuln = inv;
                target.fnp = fnp;
                if inf {
                    target.keywords = vec!["INFANTRY".into()];
                }
                let mut s = sc(n, weapon(a, Some(bs), s, ap, d, &names), target);
                s.conditions.half_range = half;
                s.conditions.stationary = stat;
                s.conditions.charged = chg;
                s.conditions.cover = cover;
                s
            },
        )
}

fn damage(s: &Scenario) -> f64 {
    exact(s).expected_damage
}

proptest! {
    #![proptest_config(crate::util::proptest_config(96))]

    /// Distributions sum to 1; destroyed models never exceed the model count and damage
    /// never exceeds the unit's total wounds (the dense vectors end there).
    #[test]
    fn distributions_are_proper(s in arb_scenario()) {
        let o = exact(&s);
        let total = (s.target.models * s.target.wounds) as usize;
        prop_assert_eq!(o.damage_distribution.len(), total + 1);
        prop_assert_eq!(o.models_destroyed_distribution.len(), s.target.models as usize + 1);
        prop_assert!((o.damage_distribution.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        prop_assert!((o.models_destroyed_distribution.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        prop_assert!(o.damage_distribution.iter().all(|&p| p >= -1e-15));
        prop_assert!(o.expected_damage <= total as f64 + 1e-9);
        prop_assert!(o.expected_models_destroyed <= s.target.models as f64 + 1e-9);
        prop_assert!(o.expected_wounds <= o.expected_hits + 1e-9);
    }

    /// Expected damage never decreases when S rises, AP improves, D rises by 1, or SUSTAINED
    /// HITS 1, TWIN-LINKED or DEVASTATING WOUNDS is added; nor when LETHAL HITS is added to a
    /// weapon *without* DEVASTATING WOUNDS (with it, LETHAL HITS can lower damage: an
    /// auto-wound is not a Critical Wound and so is saveable).
    #[test]
    fn improvements_never_reduce_expected_damage(s in arb_scenario()) {
        let base = damage(&s);
        let ge = |name: &str, better: Scenario| -> Result<(), TestCaseError> {
            let d = damage(&better);
            prop_assert!(d >= base - 1e-9, "{}: {} < {}", name, d, base);
            Ok(())
        };
        let mut b = s.clone();
        b.weapon.strength += 1;
        ge("S+1", b)?;
        if s.weapon.ap > -6 {
            let mut b = s.clone();
            b.weapon.ap -= 1;
            ge("AP-1", b)?;
        }
        let mut b = s.clone();
        b.weapon.damage.modifier += 1;
        ge("D+1", b)?;
        for k in ["SUSTAINED HITS 1", "TWIN-LINKED", "DEVASTATING WOUNDS"] {
            let mut b = s.clone();
            b.weapon.keywords.push(Keyword::parse(k).unwrap());
            ge(k, b)?;
        }
        if !s.weapon.keywords.contains(&Keyword::DevastatingWounds) {
            let mut b = s.clone();
            b.weapon.keywords.push(Keyword::LethalHits);
            ge("LETHAL HITS", b)?;
        }
    }
}

/// The counterexample behind the LETHAL HITS exclusion above: BS 6+, ANTI 2+, DEVASTATING
/// WOUNDS against Sv 2+. Without LETHAL: a hit (1/6) wounds critically 5/6 → 5/36 per attack.
/// With LETHAL: the hit auto-wounds and is saved 5/6 → 1/36 per attack.
#[test]
fn lethal_hits_can_reduce_damage_with_devastating_wounds() {
    let mut t = target(20, 4, Some(2), 1);
    t.keywords = vec!["INFANTRY".into()];
    let w = weapon(
        "1",
        Some(6),
        4,
        0,
        "1",
        &["ANTI-INFANTRY 2+", "DEVASTATING WOUNDS"],
    );
    close(damage(&sc(1, w.clone(), t.clone())), 5.0 / 36.0);
    let mut wl = w;
    wl.keywords.push(Keyword::LethalHits);
    close(damage(&sc(1, wl, t)), 1.0 / 36.0);
}

// --- validate -------------------------------------------------------------------------------

fn datasheets_json() -> serde_json::Value {
    let wp = |name: &str, a: &str, skill: &str, d: &str, kws: &[&str], line: u32| {
        serde_json::json!({
            "name": name, "type": "ranged", "range": "24\"", "A": a, "skill": skill, "S": "4",
            "AP": "-1", "D": d, "keywords": kws, "line": line
        })
    };
    serde_json::json!([{
        "id": "10e:test:squad", "name": "Squad", "edition": "10e", "faction": null,
        "sources": [{"file": "raw/x.txt", "line": 1, "sha256": "00"}],
        "base_size": null,
        "models": [{"name": null, "M": "6\"", "T": "4", "Sv": "3+", "W": "2", "Ld": "6+", "OC": "1"}],
        "invulnerable_save": null, "invulnerable_save_condition": null,
        "weapons": [
            wp("Bolt rifle", "2", "3+", "1", &["ASSAULT", "HEAVY"], 10),
            wp("Weird gun", "D4", "3+", "1", &[], 11),
            wp("Shadow blade", "3", "3+", "2", &["SHADOW FORM"], 12),
            wp("Shadow pistol", "1", "3+", "1", &["SHADOW FORM", "PISTOL"], 13),
            wp("Grenade", "D6", "N/A", "1", &["BLAST"], 14),
            wp("Flamer", "D6", "N/A", "1", &["TORRENT"], 15)
        ],
        "abilities": [], "wargear_options": [], "unit_composition": [], "equipment": [],
        "points": [{"models": 5, "points": 90}, {"models": 10, "points": 180}],
        "damaged": null, "special_rules": [], "leads": [], "keywords": ["INFANTRY"],
        "faction_keywords": [], "stratagems": []
    }])
}

#[test]
fn validate_reports_unusable_profiles_and_writes_sorted_rows() {
    let sheets: Vec<cogitator::model::Datasheet> =
        serde_json::from_value(datasheets_json()).unwrap();
    let panel = default_panel();
    let (rows, diags) = validate_datasheets(&sheets, &panel);
    let codes: Vec<(&str, Option<u32>)> = diags.iter().map(|d| (d.code.as_str(), d.line)).collect();
    // D4 (V301), SHADOW FORM reported once (V303), N/A without TORRENT (V304).
    assert_eq!(
        codes,
        [("V301", Some(11)), ("V303", Some(12)), ("V304", Some(14))],
        "{diags:#?}"
    );
    // Bolt rifle, Flamer, Shadow blade, Shadow pistol × 5 targets.
    assert_eq!(rows.len(), 4 * panel.len());
    let csv = expected_damage_csv(&rows);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "datasheet,weapon,target,expected_damage,expected_models_destroyed"
    );
    let mut sorted = lines[1..].to_vec();
    sorted.sort();
    assert_eq!(sorted, lines[1..].to_vec());
    // Bolt rifle vs infantry-horde (T3 5+ W1): 2 attacks · 4/6 hit (3+) · 4/6 wound (S4 vs
    // T3: 3+) · save 5+ worsened by AP-1 to 6+, fails 5/6 = 2·2/3·2/3·5/6 = 20/27 = 0.7407.
    assert!(
        csv.contains("10e:test:squad,Bolt rifle,infantry-horde,0.7407,0.7407\n"),
        "{csv}"
    );
}

// --- CLI ---------------------------------------------------------------------------------------

fn cogitator(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn cli_simulate_json_with_negative_ap() {
    let out = cogitator(&[
        "simulate",
        "--attacks",
        "D6+1",
        "--skill",
        "3+",
        "--strength",
        "8",
        "--ap",
        "-2",
        "--damage",
        "D3",
        "--keywords",
        "SUSTAINED HITS 1,LETHAL HITS",
        "--attackers",
        "5",
        "--toughness",
        "4",
        "--save",
        "3+",
        "--wounds",
        "2",
        "--models",
        "10",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["method"], "exact");
    assert!((j["expected_attacks"].as_f64().unwrap() - 22.5).abs() < 1e-9);
    assert_eq!(j["damage_distribution"].as_array().unwrap().len(), 21);
    let out = cogitator(&[
        "simulate",
        "--attacks",
        "2",
        "--skill",
        "3+",
        "--strength",
        "4",
        "--ap",
        "-1",
        "--damage",
        "1",
        "--toughness",
        "4",
        "--save",
        "3+",
        "--wounds",
        "1",
        "--models",
        "5",
        "--json",
        "--monte-carlo",
        "1000",
        "--seed",
        "7",
    ]);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(j["method"], "monte_carlo");
    let bad = cogitator(&[
        "simulate",
        "--attacks",
        "D4",
        "--skill",
        "3+",
        "--strength",
        "4",
        "--damage",
        "1",
        "--toughness",
        "4",
        "--wounds",
        "1",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn cli_validate_and_simulate_from_dataset() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("datasheets.json"),
        datasheets_json().to_string(),
    )
    .unwrap();
    let d = dir.path().to_str().unwrap();
    let out = cogitator(&["validate", d]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.path().join("validation/expected-damage.csv")).unwrap();
    assert!(csv.starts_with("datasheet,weapon,target,"));
    let out = cogitator(&[
        "simulate",
        "--dataset",
        d,
        "--datasheet",
        "10e:test:squad",
        "--weapon",
        "bolt rifle",
        "--target",
        "infantry-horde",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!((j["expected_damage"].as_f64().unwrap() - 20.0 / 27.0).abs() < 1e-12);
    // A datasheet as the target: first profile T4 Sv3+ W2, 5 models (smallest points option).
    let out = cogitator(&[
        "simulate",
        "--dataset",
        d,
        "--datasheet",
        "10e:test:squad",
        "--weapon",
        "Bolt rifle",
        "--target",
        "10e:test:squad",
        "--json",
    ]);
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        j["models_destroyed_distribution"].as_array().unwrap().len(),
        6
    );
}

/// Absurd inputs are refused with an error, not a hang or a panic.
#[test]
fn huge_volleys_are_refused() {
    let s = sc(
        200,
        weapon("999", Some(3), 4, 0, "1", &[]),
        target(10, 4, Some(3), 1),
    );
    assert!(matches!(
        simulate::exact(&s),
        Err(simulate::SimError::Invalid { .. })
    ));
    let s = sc(
        10,
        weapon("100", Some(3), 4, 0, "1", &["SUSTAINED HITS 999"]),
        target(10, 4, Some(3), 1),
    );
    assert!(matches!(
        simulate::exact(&s),
        Err(simulate::SimError::Invalid { .. })
    ));
}

/// 9th edition: no critical hits or wounds. 6 attacks, BS 4+ (1/2), S4 vs T4 (1/2), no save,
/// D1 with LETHAL HITS, SUSTAINED HITS 1, ANTI-INFANTRY 2+ and DEVASTATING WOUNDS: all four
/// have no effect, so hits = 3, wounds = damage = 3/2, and each is noted.
#[test]
fn known_ninth_edition_has_no_criticals() {
    let mut t = target(20, 4, None, 1);
    t.keywords = vec!["INFANTRY".into()];
    let kws = [
        "LETHAL HITS",
        "SUSTAINED HITS 1",
        "ANTI-INFANTRY 2+",
        "DEVASTATING WOUNDS",
    ];
    let mut s = sc(1, weapon("6", Some(4), 4, 0, "1", &kws), t);
    s.conditions.rules = Rules::Ninth;
    let o = exact(&s);
    close(o.expected_hits, 3.0);
    close(o.expected_wounds, 1.5);
    close(o.expected_damage, 1.5);
    assert_eq!(
        o.notes
            .iter()
            .filter(|n| n.ends_with("no effect in 9e"))
            .count(),
        4,
        "{:?}",
        o.notes
    );
}

fn arb_field() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        "[0-9dD+ -]{0,6}",
        prop::sample::select(vec![
            "D6",
            "2D6+2",
            "3+",
            "N/A",
            "-2",
            "0",
            "12",
            "D4",
            "7+",
            "-",
            "99999999999"
        ])
        .prop_map(String::from),
        ".{0,8}",
    ])
}

proptest! {
    #![proptest_config(crate::util::proptest_config(256))]

    /// The dice and keyword parsers reject garbage with an error, never a panic.
    #[test]
    fn parsers_never_panic(s in ".{0,12}") {
        let _ = Dice::parse(&s);
        let _ = Keyword::parse(&s);
        if let Ok(d) = Dice::parse(&s) {
            prop_assert_eq!(Dice::parse(&d.to_string()), Ok(d));
            prop_assert!((d.distribution().iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }

    /// Validation of arbitrary weapon strings yields rows or diagnostics, never a panic.
    #[test]
    fn validate_never_panics(
        a in arb_field(), skill in arb_field(), st in arb_field(), ap in arb_field(), d in arb_field(),
        kw in prop::collection::vec(prop_oneof![".{0,10}", prop::sample::select(KEYWORDS.to_vec()).prop_map(String::from)], 0..3),
    ) {
        let mut j = datasheets_json();
        j[0]["weapons"] = serde_json::json!([{
            "name": "w", "type": "melee", "range": "Melee", "A": a, "skill": skill, "S": st, "AP": ap,
            "D": d, "keywords": kw, "line": 3
        }]);
        let sheets: Vec<cogitator::model::Datasheet> = serde_json::from_value(j).unwrap();
        let (rows, diags) = validate_datasheets(&sheets, &default_panel());
        prop_assert!(!rows.is_empty() || !diags.is_empty());
    }
}
