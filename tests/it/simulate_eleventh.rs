//! The simulator under 11th-edition rules (`Rules::Eleventh`, `--edition 11e`; issue 28), each
//! case worked by hand from the 11th-edition core rules (`game-datacards/11th/core/
//! core_rules.json`; section numbers in the comments and in `docs/simulator.md`).

use cogitator::simulate::{
    self, Conditions, Keyword, Modifiers, Reroll, Rules, Scenario, Target, Weapon,
};

fn weapon(a: &str, skill: u8, s: u32, ap: i32, d: &str, kws: &[&str]) -> Weapon {
    crate::util::sim_weapon(a, Some(skill), s, ap, d, kws)
}

/// An INFANTRY target (for ANTI-INFANTRY).
fn target(models: u32, t: u32, sv: Option<u8>, w: u32) -> Target {
    Target {
        keywords: vec!["INFANTRY".into()],
        ..crate::util::sim_target(models, t, sv, w)
    }
}

fn run(rules: Rules, w: Weapon, t: Target, set: impl Fn(&mut Conditions)) -> simulate::Outcome {
    let mut c = Conditions {
        rules,
        ..Conditions::default()
    };
    set(&mut c);
    simulate::exact(&Scenario {
        attackers: 1,
        weapon: w,
        target: t,
        conditions: c,
    })
    .unwrap()
}

fn eleventh(w: Weapon, t: Target, set: impl Fn(&mut Conditions)) -> simulate::Outcome {
    run(Rules::Eleventh, w, t, set)
}

#[track_caller]
fn close(got: f64, want: f64) {
    assert!((got - want).abs() < 1e-12, "got {got}, want {want}");
}

/// 13.08: cover worsens the attack's BS by 1 and gives no save bonus. A6 BS3+ S4 AP0 D1 vs
/// T4 Sv3+ (10 × W1): 11e hits on 4+ (3/6), wounds 4+ (1/2), unsaved 2/6 → 6·3/6·1/2·2/6 =
/// 1/2. 10e, for contrast: cover adds nothing to a 3+ save against AP 0, BS stays 3+ →
/// 6·4/6·1/2·2/6 = 2/3.
#[test]
fn cover_worsens_bs_and_not_the_save() {
    let w = || weapon("6", 3, 4, 0, "1", &[]);
    let cover = |c: &mut Conditions| c.cover = true;
    close(
        eleventh(w(), target(10, 4, Some(3), 1), cover).expected_damage,
        0.5,
    );
    close(
        run(Rules::Tenth, w(), target(10, 4, Some(3), 1), cover).expected_damage,
        2.0 / 3.0,
    );
    // AP-1 vs Sv4+: 10e cover would make the save 4+ again; 11e leaves it 5+ (unsaved 4/6).
    let o = eleventh(
        weapon("6", 3, 4, -1, "1", &[]),
        target(10, 4, Some(4), 1),
        cover,
    );
    close(o.expected_damage, 6.0 * 3.0 / 6.0 * 0.5 * 4.0 / 6.0);
}

/// 02.02.01: BS cannot be 7+ or worse, so a BS 6+ attack in cover still hits on 6 (1/6).
/// Cover is a change of BS, not a hit-roll modifier, so it is not capped together with one:
/// BS3+ in cover (4+) with `--hit-modifier -1` hits on 5+ (2/6), where a capped sum would
/// give 4+.
#[test]
fn cover_is_never_worse_than_six_and_not_a_capped_modifier() {
    let cover = |c: &mut Conditions| c.cover = true;
    let o = eleventh(
        weapon("6", 6, 8, 0, "1", &[]),
        target(10, 4, None, 1),
        cover,
    );
    close(o.expected_hits, 1.0);
    let o = eleventh(
        weapon("6", 3, 8, 0, "1", &[]),
        target(10, 4, None, 1),
        |c| {
            c.cover = true;
            c.modifiers.hit_modifier = -1;
        },
    );
    close(o.expected_hits, 2.0);
}

/// 24.33 Stealth gives the benefit of cover (-1 BS), it does not stack with cover, and 24.18
/// IGNORES COVER removes both.
#[test]
fn stealth_is_cover_and_ignores_cover_removes_it() {
    let t = || target(10, 4, None, 1);
    let stealth = eleventh(weapon("6", 3, 8, 0, "1", &[]), t(), |c| c.stealth = true);
    close(stealth.expected_hits, 3.0);
    let both = eleventh(weapon("6", 3, 8, 0, "1", &[]), t(), |c| {
        c.stealth = true;
        c.cover = true;
    });
    close(both.expected_hits, 3.0);
    let ignores = eleventh(weapon("6", 3, 8, 0, "1", &["IGNORES COVER"]), t(), |c| {
        c.stealth = true;
        c.cover = true;
    });
    close(ignores.expected_hits, 4.0);
}

/// 24.06 CLEAVE X and 24.05 BLAST X, with the rules' own examples: [CLEAVE 1] A3 against 16
/// models gathers 3 more dice (6); [BLAST 2] A3 against 12 models gathers 4 more (7). CLEAVE
/// has no effect in 10th edition.
#[test]
fn cleave_and_blast_x_add_attack_dice() {
    let o = eleventh(
        weapon("3", 3, 4, 0, "1", &["[CLEAVE 1]"]),
        target(16, 4, None, 1),
        |_| {},
    );
    close(o.expected_attacks, 6.0);
    let o = eleventh(
        weapon("3", 3, 4, 0, "1", &["[BLAST 2]"]),
        target(12, 4, None, 1),
        |_| {},
    );
    close(o.expected_attacks, 7.0);
    let o = run(
        Rules::Tenth,
        weapon("3", 3, 4, 0, "1", &["CLEAVE 1"]),
        target(16, 4, None, 1),
        |_| {},
    );
    close(o.expected_attacks, 3.0);
    assert!(o.notes.iter().any(|n| n.contains("11th-edition ability")));
}

/// 10.07 indirect shooting: the target has the benefit of cover, hit rolls cannot be
/// re-rolled, an unmodified 1-5 fails (only 6s hit: 1/6), or 1-3 when the unit remained
/// stationary and the target is visible to a friendly unit: BS3+ worsened to 4+ by the cover,
/// so 4, 5 and 6 hit (3/6).
#[test]
fn indirect_shooting() {
    let w = || weapon("6", 3, 8, 0, "1", &["INDIRECT FIRE"]);
    let t = || target(10, 4, None, 1);
    let o = eleventh(w(), t(), |c| {
        c.target_visible = false;
        c.modifiers.reroll_hits = Some(Reroll::Failed);
    });
    close(o.expected_hits, 1.0);
    assert!(o
        .notes
        .iter()
        .any(|n| n.contains("not allowed with indirect")));
    let o = eleventh(w(), t(), |c| {
        c.target_visible = false;
        c.stationary = true;
        c.spotted = true;
    });
    close(o.expected_hits, 3.0);
    // Stationary but not spotted: still 1-5.
    let o = eleventh(w(), t(), |c| {
        c.target_visible = false;
        c.stationary = true;
    });
    close(o.expected_hits, 1.0);
}

/// 24.29 PSYCHIC: the attacker ignores the modifiers that worsen its BS and hit roll: in cover
/// with `--hit-modifier -1`, BS3+ still hits on 3+ (4/6); a +1 is kept (2+, 5/6).
#[test]
fn psychic_ignores_worsening_modifiers() {
    let t = || target(10, 4, None, 1);
    let o = eleventh(weapon("6", 3, 8, 0, "1", &["PSYCHIC"]), t(), |c| {
        c.cover = true;
        c.modifiers.hit_modifier = -1;
    });
    close(o.expected_hits, 4.0);
    let o = eleventh(weapon("6", 3, 8, 0, "1", &["PSYCHIC"]), t(), |c| {
        c.modifiers.hit_modifier = 1;
    });
    close(o.expected_hits, 5.0);
}

/// 24.10 DEVASTATING WOUNDS: mortal wounds equal to D, after the normal damage, at most one
/// model per critical wound. A1 BS2+ S4 T4 D3 DEVASTATING vs 3 × W2, no save: P(hit) 5/6; a
/// 6 to wound (1/6) kills one model (the third point is lost); a 4 or 5 (2/6) is normal
/// damage 3 to one model of W2: also one model, excess lost. Expected models destroyed =
/// 5/6 · 3/6 = 5/12, the same as 10th edition's.
#[test]
fn devastating_wounds_damage_one_model_per_critical() {
    let w = || weapon("1", 2, 4, 0, "3", &["DEVASTATING WOUNDS"]);
    let o = eleventh(w(), target(3, 4, None, 2), |_| {});
    close(o.expected_models_destroyed, 5.0 / 12.0);
    close(o.expected_damage, 5.0 / 12.0 * 2.0);
    let ten = run(Rules::Tenth, w(), target(3, 4, None, 2), |_| {});
    assert_eq!(o.damage_distribution, ten.damage_distribution);
}

/// Where the 11th-edition text words a rule as 10th edition did (hit and wound tables,
/// criticals, SUSTAINED/LETHAL HITS, ANTI, LANCE, MELTA, RAPID FIRE, TWIN-LINKED, the ±1 cap
/// of 02.02.01, re-rolls before modifiers of 01.05.02), the two editions give the same
/// distribution.
#[test]
fn eleventh_equals_tenth_where_the_rules_read_alike() {
    let cases = [
        (
            weapon("3", 3, 5, -1, "D3", &["SUSTAINED HITS 1", "LETHAL HITS"]),
            false,
        ),
        (
            weapon("4", 4, 4, -2, "2", &["[ANTI-INFANTRY 4+]", "LANCE"]),
            true,
        ),
        (
            weapon("2", 3, 9, -4, "D6", &["MELTA 2", "[TWIN‑LINKED]"]),
            true,
        ),
        (weapon("1", 3, 4, 0, "1", &["RAPID FIRE 1", "HEAVY"]), true),
    ];
    for (w, situation) in cases {
        let set = |c: &mut Conditions| {
            c.half_range = situation;
            c.charged = situation;
            c.stationary = situation;
            c.modifiers = Modifiers {
                reroll_hits: Some(Reroll::Ones),
                hit_modifier: -2,
                wound_modifier: 1,
                ..Modifiers::default()
            };
        };
        let a = eleventh(w.clone(), target(5, 4, Some(3), 2), set);
        let b = run(Rules::Tenth, w, target(5, 4, Some(3), 2), set);
        assert_eq!(a.damage_distribution, b.damage_distribution);
        close(a.damage_distribution.iter().sum(), 1.0);
    }
}

/// 06.03 hazard rolls: a roll of 1-2 fails, 1 mortal wound (3 for MONSTER/VEHICLE units,
/// noted): 5 attacking models → 5 · 2/6.
#[test]
fn hazardous_in_eleventh_edition() {
    let o = run(
        Rules::Eleventh,
        weapon("1", 3, 4, 0, "1", &["HAZARDOUS"]),
        target(1, 4, None, 1),
        |_| {},
    );
    close(o.expected_hazardous_mortal_wounds.unwrap(), 2.0 / 6.0);
    let five = simulate::exact(&Scenario {
        attackers: 5,
        weapon: weapon("1", 3, 4, 0, "1", &["HAZARDOUS"]),
        target: target(1, 4, None, 1),
        conditions: Conditions {
            rules: Rules::Eleventh,
            ..Conditions::default()
        },
    })
    .unwrap();
    close(
        five.expected_hazardous_mortal_wounds.unwrap(),
        5.0 * 2.0 / 6.0,
    );
    assert!(five.notes.iter().any(|n| n.contains("MONSTER or VEHICLE")));
}

/// 11th-edition spellings parse: brackets and the non-breaking hyphen of the core rules.
#[test]
fn eleventh_edition_keyword_spellings() {
    for (printed, canonical) in [
        ("[ANTI‑VEHICLE 4+]", "ANTI-VEHICLE 4+"),
        ("[BLAST 2]", "BLAST 2"),
        ("[BLAST]", "BLAST"),
        ("[CLEAVE 1]", "CLEAVE 1"),
        ("[TWIN‑LINKED]", "TWIN-LINKED"),
        ("[IGNORES COVER]", "IGNORES COVER"),
    ] {
        assert_eq!(Keyword::parse(printed).unwrap().to_string(), canonical);
    }
    assert!(Keyword::parse("[CLEAVE]").is_err());
}

/// `--edition 11e` on the command line: BS3+ in cover hits on 4+ (the scenario says 11e).
#[test]
fn cli_edition_eleventh() {
    let (code, out, err) = crate::util::cogitator(&[
        "simulate",
        "--attacks",
        "6",
        "--skill",
        "3+",
        "--strength",
        "8",
        "--ap",
        "0",
        "--damage",
        "1",
        "--toughness",
        "4",
        "--save",
        "-",
        "--wounds",
        "1",
        "--models",
        "10",
        "--cover",
        "--edition",
        "11e",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(j["scenario"]["edition"]["value"], "11e");
    close(j["expected_hits"].as_f64().unwrap(), 3.0);
}
