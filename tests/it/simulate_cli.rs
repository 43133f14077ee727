//! `cogitator simulate` as a command: the CLI must not lie by default (issue 13). Each test
//! spawns the binary; expected values are worked out by hand in the comments.

use std::process::Output;

fn cogitator(args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn close(got: &serde_json::Value, want: f64) {
    let got = got.as_f64().unwrap();
    assert!((got - want).abs() < 1e-9, "got {got}, want {want}");
}

/// The committed dataset (Be’lakor, `10e:chaos-daemons:belakor`).
fn dataset() -> String {
    format!("{}/output", env!("CARGO_MANIFEST_DIR"))
}

/// A complete flag set, minus the flags a test wants to vary.
fn flags<'a>(without: &[&str]) -> Vec<&'a str> {
    let all: [(&str, &str); 8] = [
        ("--attacks", "2"),
        ("--skill", "3+"),
        ("--strength", "4"),
        ("--ap", "-1"),
        ("--damage", "1"),
        ("--toughness", "3"),
        ("--save", "5+"),
        ("--wounds", "1"),
    ];
    let mut v = vec!["simulate"];
    for (f, x) in all {
        if !without.contains(&f) {
            v.extend([f, x]);
        }
    }
    v
}

/// Omitting `--save` used to mean "no save". It is now a usage error naming the flag.
#[test]
fn simulate_without_save_is_an_error_or_prints_its_default() {
    let out = cogitator(&flags(&["--save"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--save"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    // Every other required characteristic likewise.
    for f in [
        "--attacks",
        "--skill",
        "--strength",
        "--ap",
        "--damage",
        "--toughness",
        "--wounds",
    ] {
        let out = cogitator(&flags(&[f]));
        assert_eq!(out.status.code(), Some(2), "{f}");
        assert!(stderr(&out).contains(f), "{f}: {}", stderr(&out));
    }
}

/// 6 attacks, BS 4+ (1/2), S4 vs T4 wound on 4+ (1/2), AP 0, D1, 20 models W1:
/// no save → 6 · 1/2 · 1/2 = 1.5; Sv 3+ fails 2/6 → 1.5 · 1/3 = 0.5.
#[test]
fn save_dash_means_no_save() {
    let run = |save: &str| {
        cogitator(&[
            "simulate",
            "--attacks",
            "6",
            "--skill",
            "4+",
            "--strength",
            "4",
            "--ap",
            "0",
            "--damage",
            "1",
            "--toughness",
            "4",
            "--wounds",
            "1",
            "--models",
            "20",
            "--save",
            save,
            "--json",
        ])
    };
    for none in ["-", "none", "NONE"] {
        let j = json(&run(none));
        close(&j["expected_damage"], 1.5);
        assert_eq!(j["scenario"]["save"]["value"], "-");
        assert_eq!(j["scenario"]["save"]["source"], "from --save");
    }
    close(&json(&run("3+"))["expected_damage"], 0.5);
}

/// The scenario actually simulated is echoed, defaults included. 10 attackers × A2, BS 3+
/// (2/3), S4 vs T3 wound on 3+ (2/3), AP -1 vs Sv 5+ → save 6+ fails 5/6, D1, 20 models W1
/// (no cap: at most 20 wounds): 20 · 2/3 · 2/3 · 5/6 = 200/27 = 7.4074.
#[test]
fn scenario_echoes_every_default() {
    let mut args = flags(&[]);
    args.extend(["--attackers", "10", "--models", "20", "--json"]);
    let j = json(&cogitator(&args));
    close(&j["expected_damage"], 200.0 / 27.0);
    let s = &j["scenario"];
    assert_eq!(s["attackers"]["source"], "from --attackers");
    for (field, value) in [
        ("invuln", "-"),
        ("fnp", "-"),
        ("keywords", "none"),
        ("target_keywords", "none"),
        ("edition", "10e"),
        ("type", "ranged"),
        ("half_range", "no"),
        ("visible", "yes"),
    ] {
        assert_eq!(s[field]["value"], value, "{field}");
        assert_eq!(s[field]["source"], "default", "{field}");
    }
    // The text output shows the same, before the numbers.
    args.pop();
    let text = stdout(&cogitator(&args));
    assert!(text.starts_with("scenario:\n"), "{text}");
    assert!(
        text.contains("  invuln           -            (default)\n"),
        "{text}"
    );
    assert!(
        text.contains("expected damage:           7.4074\n"),
        "{text}"
    );
}

/// `--attacks 3` with a dataset weapon used to be ignored silently. It overrides the
/// dataset's A 9, and the output says so; `--models 20` overrides the reference target's 10.
#[test]
fn dataset_weapon_with_explicit_flags_overrides_and_says_so() {
    let d = dataset();
    let args = [
        "simulate",
        "--dataset",
        &d,
        "--datasheet",
        "10e:chaos-daemons:belakor",
        "--weapon",
        "Betraying Shades – witchfire",
        "--target",
        "infantry-horde",
        "--attacks",
        "3",
        "--models",
        "20",
    ];
    let text = stdout(&cogitator(&args));
    assert!(
        text.contains("  attacks          3            (from --attacks, dataset has 9)\n"),
        "{text}"
    );
    assert!(
        text.contains("(from --models, reference target has 10)"),
        "{text}"
    );
    let mut a = args.to_vec();
    a.push("--json");
    let j = json(&cogitator(&a));
    close(&j["expected_attacks"], 3.0);
    assert_eq!(j["scenario"]["attacks"]["replaces"], "9");
    assert_eq!(j["scenario"]["strength"]["source"], "from dataset");
    assert_eq!(j["scenario"]["models"]["value"], "20");
}

/// `Betraying Shades - witchfire` (ASCII hyphen) finds `Betraying Shades – witchfire` (en
/// dash), and `Be'lakor` finds `Be’lakor`. A9 BS 2+ (5/6), S5 vs T3 wounds on 3+ (2/3); AP -2
/// makes Sv 5+ a 7+ (no save) and a 6 to wound is DEVASTATING (no save either), D1, 10 models
/// W1 (at most 9 wounds, no cap): 9 · 5/6 · 2/3 = 5.
#[test]
fn weapon_name_with_ascii_hyphen_finds_en_dash_name() {
    let d = dataset();
    for sheet in ["10e:chaos-daemons:belakor", "Be'lakor", "be’lakor"] {
        let j = json(&cogitator(&[
            "simulate",
            "--dataset",
            &d,
            "--datasheet",
            sheet,
            "--weapon",
            "Betraying Shades - witchfire",
            "--target",
            "infantry-horde",
            "--json",
        ]));
        close(&j["expected_damage"], 5.0);
        assert_eq!(
            j["scenario"]["weapon"]["value"],
            "Betraying Shades – witchfire"
        );
    }
    // Case and spaces fold too.
    let out = cogitator(&[
        "simulate",
        "--dataset",
        &d,
        "--datasheet",
        "10e:chaos-daemons:belakor",
        "--weapon",
        "  betraying shades-WITCHFIRE ",
        "--target",
        "infantry-horde",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn unknown_weapon_lists_close_matches() {
    let d = dataset();
    let out = cogitator(&[
        "simulate",
        "--dataset",
        &d,
        "--datasheet",
        "10e:chaos-daemons:belakor",
        "--weapon",
        "Betraying Shade witchfir",
        "--target",
        "infantry-horde",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("no weapon \"Betraying Shade witchfir\" on 10e:chaos-daemons:belakor"),
        "{err}"
    );
    let first = err.lines().nth(1).unwrap_or_default();
    assert_eq!(first.trim(), "Betraying Shades – witchfire", "{err}");
    // An unknown datasheet lists ids and names, closest first.
    let out = cogitator(&[
        "simulate",
        "--dataset",
        &d,
        "--datasheet",
        "belakor",
        "--weapon",
        "x",
        "--target",
        "infantry-horde",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("closest matches"), "{err}");
    assert!(err.contains("10e:chaos-daemons:belakor"), "{err}");
    // An unknown reference target lists the panel.
    let mut args = flags(&["--toughness", "--save", "--wounds"]);
    args.extend(["--target", "elite-inf"]);
    let out = cogitator(&args);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(
        err.lines().nth(1).map(str::trim),
        Some("elite-infantry"),
        "{err}"
    );
}

#[test]
fn skill_out_of_range_names_the_range() {
    for bad in ["9+", "1+", "7+"] {
        let mut args = flags(&["--skill"]);
        args.extend(["--skill", bad]);
        let out = cogitator(&args);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = stderr(&out);
        assert!(err.contains("expected 2+ to 6+"), "{err}");
        assert!(err.contains("N/A with TORRENT"), "{err}");
    }
    // The same range for saves, with "-" / none.
    let mut args = flags(&["--save"]);
    args.extend(["--save", "7+"]);
    let err = stderr(&cogitator(&args));
    assert!(
        err.contains("expected 2+ to 6+ (or - / none for no save"),
        "{err}"
    );
    // N/A still works with TORRENT.
    let mut args = flags(&["--skill"]);
    args.extend(["--skill", "N/A", "--keywords", "TORRENT"]);
    assert!(cogitator(&args).status.success());
}

#[test]
fn models_out_of_range_names_1_to_200() {
    for (flag, bad) in [
        ("--models", "-1"),
        ("--models", "0"),
        ("--models", "201"),
        ("--attackers", "-1"),
        ("--attackers", "201"),
    ] {
        let mut args = flags(&[]);
        args.extend([flag, bad]);
        let out = cogitator(&args);
        assert_eq!(out.status.code(), Some(2), "{flag} {bad}");
        let err = stderr(&out);
        assert!(
            err.contains(
                "expected a whole number from 1 to 200 (rules: at least 1; engine limit 200)"
            ),
            "{err}"
        );
        assert!(!err.contains("4294967295"), "{err}");
    }
    let mut args = flags(&[]);
    args.extend(["--models", "200"]);
    assert!(cogitator(&args).status.success());
}

/// `--damage 0` was accepted while `--strength 0` was refused: every characteristic is now
/// checked by one function, and A, D, S, T, W all need at least 1.
#[test]
fn zero_damage_and_zero_strength_are_treated_alike() {
    for flag in [
        "--damage",
        "--attacks",
        "--strength",
        "--toughness",
        "--wounds",
    ] {
        let mut args = flags(&[flag]);
        args.extend([flag, "0"]);
        let out = cogitator(&args);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let err = stderr(&out);
        assert!(err.contains("\"0\" is not a valid"), "{flag}: {err}");
        assert!(err.contains("rules: at least 1"), "{flag}: {err}");
    }
    // Dice whose smallest value is at least 1 are fine.
    let mut args = flags(&["--damage", "--attacks"]);
    args.extend(["--damage", "D3", "--attacks", "D6+1"]);
    assert!(cogitator(&args).status.success());
}

#[test]
fn huge_monte_carlo_is_capped() {
    for bad in ["10000001", "0", "18446744073709551615"] {
        let mut args = flags(&[]);
        args.extend(["--monte-carlo", bad]);
        let out = cogitator(&args);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = stderr(&out);
        assert!(
            err.contains("expected a whole number from 1 to 10,000,000"),
            "{err}"
        );
    }
    // A seed without --monte-carlo would be ignored: refused instead.
    let mut args = flags(&[]);
    args.extend(["--seed", "3"]);
    let out = cogitator(&args);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--monte-carlo <N>"),
        "{}",
        stderr(&out)
    );
    let mut args = flags(&[]);
    args.extend(["--monte-carlo", "1000", "--seed", "3", "--json"]);
    let j = json(&cogitator(&args));
    assert_eq!(j["method"], "monte_carlo");
    assert_eq!(j["scenario"]["trials"]["value"], "1000");
    assert_eq!(j["scenario"]["seed"]["value"], "3");
}

#[test]
fn simulate_help_groups_flags_and_shows_an_example() {
    let out = cogitator(&["simulate", "--help"]);
    assert!(out.status.success());
    let help = stdout(&out);
    let mut at = 0;
    for heading in [
        "\nWeapon:\n",
        "\nTarget:\n",
        "\nConditions:\n",
        "\nDataset:\n",
        "\nOutput and method:\n",
        "\nExamples:\n",
    ] {
        let i = help[at..]
            .find(heading)
            .unwrap_or_else(|| panic!("{heading:?} in {help}"));
        at += i + heading.len();
    }
    assert!(
        help.contains("--save <SV>               Armour save (required unless --target)"),
        "{help}"
    );
    assert!(
        help.contains("--attacks <A>      Attacks characteristic (required unless --dataset)"),
        "{help}"
    );
    assert!(
        help.contains("Number of target models: 1 to 200 [default: 1]"),
        "{help}"
    );
    assert!(help.contains("`-` / `none` for no save"), "{help}");
    assert!(
        help.contains("cogitator simulate --attackers 10 --attacks 2"),
        "{help}"
    );
}

/// `--target` names a reference target without a dataset; a flag overrides its value.
#[test]
fn reference_target_without_dataset_and_target_flag_override() {
    let mut args = flags(&["--toughness", "--save", "--wounds"]);
    args.extend(["--target", "infantry-horde", "--save", "-", "--json"]);
    let j = json(&cogitator(&args));
    assert_eq!(
        j["scenario"]["save"]["source"],
        "from --save, reference target has 5+"
    );
    assert_eq!(
        j["scenario"]["toughness"]["source"],
        "from reference target"
    );
    // 1 attacker × A2 · 2/3 hit · 2/3 wound (S4 vs T3), no save: 8/9.
    close(&j["expected_damage"], 8.0 / 9.0);
}

/// A dataset value the engine cannot read (`A` = `D4`) fails only when nothing overrides it:
/// `--attacks 9` replaces it before it is read, and the output shows the dataset's own `D4`.
/// Damage as in `weapon_name_with_ascii_hyphen_finds_en_dash_name`: 9 · 5/6 · 2/3 = 5.
#[test]
fn unreadable_dataset_value_can_be_overridden() {
    let text = std::fs::read_to_string(format!("{}/datasheets.json", dataset())).unwrap();
    let mut sheets: serde_json::Value = serde_json::from_str(&text).unwrap();
    let sheet = sheets
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|d| d["id"] == "10e:chaos-daemons:belakor")
        .unwrap();
    sheet["weapons"][0]["A"] = "D4".into();
    assert_eq!(sheet["weapons"][0]["name"], "Betraying Shades – witchfire");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("datasheets.json"), sheets.to_string()).unwrap();
    let d = dir.path().to_str().unwrap();
    let base = [
        "simulate",
        "--dataset",
        d,
        "--datasheet",
        "10e:chaos-daemons:belakor",
        "--weapon",
        "Betraying Shades - witchfire",
        "--target",
        "infantry-horde",
        "--json",
    ];
    let out = cogitator(&base);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("D4"), "{}", stderr(&out));
    let mut args = base.to_vec();
    args.extend(["--attacks", "9"]);
    let j = json(&cogitator(&args));
    close(&j["expected_damage"], 5.0);
    assert_eq!(
        j["scenario"]["attacks"]["source"],
        "from --attacks, dataset has D4"
    );
    assert_eq!(j["scenario"]["attacks"]["replaces"], "D4");
}

/// The modifier flags (issue 28) are echoed in the scenario with their source, and the
/// numbers follow. `flags(&[])`: A2 BS3+ S4 AP-1 D1 vs T3 Sv5+ W1 (one model).
/// `--reroll-hits failed`: P(hit) = 4/6 + 2/6·4/6 = 8/9; S4 vs T3 wounds on 3+ (4/6) with
/// `--wound-modifier -3` capped at -1 → 4+ (1/2); save 5+ at AP-1 → 6+ (unsaved 5/6);
/// `--damage-reduction 2` keeps D1 at 1. Expected damage of 2 attacks against one model W1:
/// P(at least one unsaved) = 1 - (1 - 8/9·1/2·5/6)² = 1 - (1 - 10/27)² = 1 - (17/27)².
#[test]
fn modifier_flags_are_shown_with_their_source_and_applied() {
    let mut args = flags(&[]);
    args.extend([
        "--reroll-hits",
        "failed",
        "--wound-modifier",
        "-3",
        "--damage-reduction",
        "2",
        "--fnp-mortal",
        "5+",
        "--json",
    ]);
    let j = json(&cogitator(&args));
    let sc = &j["scenario"];
    assert_eq!(sc["reroll_hits"]["value"], "failed");
    assert_eq!(sc["reroll_hits"]["source"], "from --reroll-hits");
    assert_eq!(sc["reroll_wounds"]["value"], "none");
    assert_eq!(sc["reroll_wounds"]["source"], "default");
    assert_eq!(sc["wound_modifier"]["value"], "-3");
    assert_eq!(sc["crit_hit"]["value"], "6+");
    assert_eq!(sc["damage_reduction"]["value"], "2");
    assert_eq!(sc["halve_damage"]["value"], "no");
    assert_eq!(sc["fnp_mortal"]["value"], "5+");
    close(&j["expected_damage"], 1.0 - (17.0f64 / 27.0).powi(2));
    let notes = j["notes"].to_string();
    assert!(
        notes.contains("wound roll modifiers sum to -3: capped at -1"),
        "{notes}"
    );
    assert!(
        notes.contains("Feel No Pain against mortal wounds: no effect"),
        "{notes}"
    );
}

/// A modifier flag's value out of range is a usage error (exit 2) naming the range.
#[test]
fn modifier_flags_out_of_range_are_usage_errors() {
    for (flag, value, says) in [
        ("--reroll-hits", "sixes", "`ones`"),
        ("--crit-hit", "1+", "2+ to 6+"),
        ("--crit-wound", "none", "2+ to 6+"),
        ("--hit-modifier", "7", "-6 to 6"),
        ("--damage-reduction", "-1", "0 to 6"),
    ] {
        let mut args = flags(&[]);
        args.extend([flag, value]);
        let out = cogitator(&args);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        assert!(
            stderr(&out).contains(says),
            "{flag} {value}: {}",
            stderr(&out)
        );
    }
}

/// A datasheet's abilities grant modifiers in dataset mode (issue 28: "where a datasheet
/// grants them"), each named in the scenario, and a flag replaces what they grant. The
/// target is Be’lakor with its abilities replaced by three sentences of the shapes the
/// grammar reads (and one it must not: a condition it cannot decide).
#[test]
fn dataset_abilities_grant_modifiers_and_flags_replace_them() {
    let text = std::fs::read_to_string(format!("{}/datasheets.json", dataset())).unwrap();
    let mut sheets: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let mut target = sheets[0].clone();
    target["id"] = "10e:chaos-daemons:warded-target".into();
    target["name"] = "Warded Target".into();
    let ability = |name: &str, text: &str| {
        serde_json::json!({"name": name, "group": "datasheet", "tags": [], "parameter": null,
                           "rule_id": null, "text": text})
    };
    target["abilities"] = serde_json::json!([
        ability("Guardian Eternal", "Each time an attack is allocated to this model, subtract 1 from the Damage characteristic of that attack."),
        ability("Warded", "This model has the Feel No Pain 4+ ability against mortal wounds."),
        ability("Shrouded", "Each time a ranged attack targets this unit, subtract 1 from the Hit roll."),
        ability("Bodyguard", "While this model is leading a unit, each time an attack targets that unit, subtract 1 from the Wound roll."),
    ]);
    sheets.push(target);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("datasheets.json"),
        serde_json::to_string(&sheets).unwrap(),
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "simulate",
            "--dataset",
            dir.path().to_str().unwrap(),
            "--datasheet",
            "10e:chaos-daemons:belakor",
            "--weapon",
            "Betraying Shades - witchfire",
            "--target",
            "Warded Target",
            "--json",
        ];
        args.extend(extra);
        json(&cogitator(&args))
    };
    let j = run(&[]);
    let sc = &j["scenario"];
    assert_eq!(sc["damage_reduction"]["value"], "1");
    assert_eq!(
        sc["damage_reduction"]["source"],
        "from dataset ability Guardian Eternal"
    );
    assert_eq!(sc["fnp_mortal"]["value"], "4+");
    assert_eq!(sc["hit_modifier"]["value"], "-1");
    assert_eq!(
        sc["hit_modifier"]["source"],
        "from dataset ability Shrouded"
    );
    // The leader's condition cannot be decided: nothing granted.
    assert_eq!(sc["wound_modifier"]["value"], "+0");
    assert_eq!(sc["wound_modifier"]["source"], "default");
    let j = run(&["--damage-reduction", "0"]);
    let row = &j["scenario"]["damage_reduction"];
    assert_eq!(row["value"], "0");
    assert_eq!(row["replaces"], "1");
    assert!(row["source"]
        .as_str()
        .unwrap()
        .starts_with("from --damage-reduction"));
}
