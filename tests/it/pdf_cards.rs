//! The index-card layout family (landscape cards: the shield under the profile, the abilities
//! column right of the weapon tables, the faction keyword box at the foot), on the generated
//! fixtures of `tests/fixtures/pdf/` (`fixture_pdf.rs`): each test asserts what a reader of
//! the card would write down, and fails on the reading before the layout was known.

use cogitator::model::{Dataset, Datasheet, WeaponProfile, WeaponType};

/// The committed fixture `name` through the pipeline, alone.
fn card(name: &str) -> Dataset {
    let files = crate::fixtures::files_of("pdf", name);
    let files: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (p.as_str(), &b[..])).collect();
    crate::util::ingest_in_memory(&files)
}

fn only(d: &Dataset) -> &Datasheet {
    assert_eq!(d.datasheets.len(), 1, "{:#?}", d.datasheets);
    &d.datasheets[0]
}

/// `Name range A skill S AP D [KEYWORDS]` (`-` for a null value).
fn row(w: &WeaponProfile) -> String {
    let vals: Vec<&str> = ["range", "A", "skill", "S", "AP", "D"]
        .iter()
        .map(|k| w.get(k).unwrap_or("-"))
        .collect();
    format!("{} {} [{}]", w.name, vals.join(" "), w.keywords.join(", "))
}

fn rows(ds: &Datasheet, kind: WeaponType) -> Vec<String> {
    ds.weapons
        .iter()
        .filter(|w| w.kind == kind)
        .map(row)
        .collect()
}

fn codes(d: &Dataset) -> Vec<&str> {
    d.diagnostics.iter().map(|x| x.code.as_str()).collect()
}

#[test]
fn the_abilities_column_is_cut_off_the_weapon_rows_it_shares_baselines_with() {
    let d = card("abilities-header-on-weapon-header.pdf");
    let ds = only(&d);
    assert_eq!(ds.name.as_deref(), Some("Prism Stalker"));
    assert_eq!(
        rows(ds, WeaponType::Ranged),
        [
            "Bright lance 36\" 1 3+ 12 -3 D6+2 []",
            "Scatter laser 36\" 6 3+ 5 0 1 []",
            "Star gun 48\" D6 3+ 4 -1 1 [BLAST]",
        ]
    );
    assert_eq!(
        rows(ds, WeaponType::Melee),
        ["Wraithbone hull Melee 6 4+ 6 0 1 []"]
    );
    let abilities: Vec<(&str, &str, Option<&str>)> = ds
        .abilities
        .iter()
        .map(|a| (a.group.as_str(), a.name.as_str(), a.text.as_deref()))
        .collect();
    assert_eq!(
        abilities,
        [
            ("core", "Deadly Demise", None),
            (
                "datasheet",
                "Lance Strike",
                Some(
                    "Each time this model's bright lance hits, it scores a critical wound on a 6."
                )
            ),
        ]
    );
    let damaged = ds.damaged.as_ref().expect("the DAMAGED box");
    assert_eq!(damaged.name, "DAMAGED: 1-8 WOUNDS REMAINING");
    assert_eq!(
        damaged.text,
        "While this model has 1-8 wounds remaining, subtract 1 from the Hit roll."
    );
    assert_eq!(ds.faction_keywords, ["Aeldari"]);
    assert!(!codes(&d).iter().any(|c| c.starts_with('N') || *c == "X104"));
}

#[test]
fn a_keyword_cell_joins_the_weapon_name_and_a_name_above_its_row_is_the_rows() {
    let d = card("keyword-cell-after-name.pdf");
    let ds = only(&d);
    assert_eq!(
        rows(ds, WeaponType::Ranged),
        [
            "Slugga 12\" 1 5+ 4 0 1 [PISTOL]",
            "Kustom shoota 18\" 4 5+ 4 0 1 [RAPID FIRE 2]",
        ]
    );
    assert_eq!(
        rows(ds, WeaponType::Melee),
        [
            "Tusks – strike Melee 3 3+ 7 -1 2 [LANCE]",
            "Tusks – sweep Melee 5 3+ 5 0 1 [SUSTAINED HITS 1]",
        ]
    );
    // No value shifted into the range column: nothing quarantined.
    assert!(d.quarantine.is_empty(), "{:#?}", d.quarantine);
    assert!(!codes(&d).contains(&"N110"), "{:?}", codes(&d));
}

#[test]
fn the_shield_prints_its_value_before_its_label() {
    let d = card("shield-value-before-label.pdf");
    let ds = only(&d);
    assert_eq!(ds.invulnerable_save.as_deref(), Some("4+"));
    assert_eq!(ds.invulnerable_save_condition, None);
    assert_eq!(ds.weapons.len(), 2);
    assert!(ds.weapons.iter().all(|w| w.name.starts_with("Warden")));
}

#[test]
fn a_starred_shield_takes_its_condition_from_the_same_baseline() {
    let d = card("shield-condition-same-baseline.pdf");
    let ds = only(&d);
    assert_eq!(ds.invulnerable_save.as_deref(), Some("5+"));
    assert_eq!(
        ds.invulnerable_save_condition.as_deref(),
        Some("Against ranged attacks only.")
    );
    assert!(ds
        .abilities
        .iter()
        .all(|a| !a.name.contains("ranged attacks")));
}

#[test]
fn a_starred_shield_takes_its_condition_from_a_note_far_from_it() {
    let d = card("shield-note-far-from-label.pdf");
    let ds = only(&d);
    assert_eq!(ds.invulnerable_save.as_deref(), Some("5+"));
    assert_eq!(
        ds.invulnerable_save_condition.as_deref(),
        Some("This model has a 5+ invulnerable save against ranged attacks.")
    );
    // The note is the save's, not more text of an ability or a keyword.
    assert!(ds
        .abilities
        .iter()
        .all(|a| !a.text.as_deref().unwrap_or("").contains("invulnerable")));
    assert_eq!(ds.faction_keywords, ["Adeptus Custodes"]);
}

#[test]
fn the_faction_keyword_box_and_a_wrapped_keyword_line_are_read_below_their_labels() {
    let d = card("faction-keyword-box-below-keywords.pdf");
    let ds = only(&d);
    assert_eq!(ds.faction_keywords, ["ASTRA MILITARUM"]);
    assert_eq!(ds.faction.as_deref(), Some("Astra Militarum"));
    assert_eq!(
        ds.keywords,
        [
            "INFANTRY",
            "ARTILLERY",
            "IMPERIUM",
            "REGIMENT",
            "GUN CARRIAGE BATTERY"
        ]
    );
    // The back's foot lines are no boxes of rules.
    assert!(ds.special_rules.is_empty(), "{:#?}", ds.special_rules);
}

#[test]
fn a_card_without_weapon_tables_reads_its_abilities_and_no_weapon() {
    let d = card("card-without-weapon-tables.pdf");
    let ds = only(&d);
    assert!(ds.weapons.is_empty(), "{:#?}", ds.weapons);
    let names: Vec<(&str, &str)> = ds
        .abilities
        .iter()
        .map(|a| (a.group.as_str(), a.name.as_str()))
        .collect();
    assert_eq!(names, [("core", "Deadly Demise"), ("datasheet", "Charges")]);
    assert_eq!(
        ds.abilities[1].text.as_deref(),
        Some("Each time this model ends a move within 3\" of an enemy unit, that unit suffers D3 mortal wounds.")
    );
    assert_eq!(ds.faction.as_deref(), Some("Astra Militarum"));
    assert_eq!(ds.models.len(), 1);
}

#[test]
fn a_shield_without_value_is_x114_and_no_save() {
    let d = card("shield-without-value.pdf");
    let ds = only(&d);
    assert_eq!(ds.invulnerable_save, None);
    let x114: Vec<&str> = d
        .diagnostics
        .iter()
        .filter(|x| x.code == "X114")
        .map(|x| x.message.as_str())
        .collect();
    assert_eq!(x114.len(), 1, "{:#?}", d.diagnostics);
    assert!(x114[0].contains("no value (page 1)"), "{}", x114[0]);
    // Never a weapon or a model name either.
    assert_eq!(ds.weapons.len(), 2);
    assert_eq!(ds.models[0].name, None);
}

#[test]
fn a_profile_printed_in_both_tables_is_one_ranged_and_one_melee_row() {
    let d = card("same-profile-in-both-tables.pdf");
    let ds = only(&d);
    assert_eq!(
        rows(ds, WeaponType::Ranged),
        [
            "Lascutter – low intensity 36\" 2D6 3+ 7 -1 2 [LANCE]",
            "Lascutter – high intensity 24\" D6 3+ 14 -3 4 []",
        ]
    );
    assert_eq!(
        rows(ds, WeaponType::Melee),
        [
            "Lascutter – low intensity Melee 12 3+ 7 -1 2 [LANCE]",
            "Lascutter – high intensity Melee 6 3+ 14 -3 4 []",
        ]
    );
    assert!(d.quarantine.is_empty(), "{:#?}", d.quarantine);
}

#[test]
fn a_footnote_band_across_the_foot_is_neither_damaged_text_nor_an_ability() {
    let d = card("landscape-card-footnote-band.pdf");
    let ds = only(&d);
    let damaged = ds.damaged.as_ref().expect("the DAMAGED box");
    assert_eq!(
        damaged.text,
        "While this model has 1-4 wounds remaining, subtract 1 from the Hit roll."
    );
    assert!(ds
        .abilities
        .iter()
        .all(|a| !a.name.starts_with("Before")
            && !a.text.as_deref().unwrap_or("").contains("Before")));
    assert_eq!(rows(ds, WeaponType::Ranged).len(), 2);
    assert_eq!(
        rows(ds, WeaponType::Melee),
        ["Armoured tracks Melee 3 4+ 6 0 1 []"]
    );
}

// --- The index cards of ../shared/corpus/pdf-index-cards ------------------------------------

/// The eight index-card PDFs through the pipeline, or `None` without the corpus.
fn index_cards() -> Option<Dataset> {
    let dir = crate::util::corpus()?.join("pdf-index-cards");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "pdf"))
        .map(|e| {
            let name = format!("pdf-index-cards/{}", e.file_name().to_string_lossy());
            (name, std::fs::read(e.path()).expect("read index card PDF"))
        })
        .collect();
    files.sort();
    let refs: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (p.as_str(), &b[..])).collect();
    Some(crate::util::ingest_in_memory(&refs))
}

fn by_name<'d>(d: &'d Dataset, name: &str) -> &'d Datasheet {
    d.datasheets
        .iter()
        .find(|x| x.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("{name} not read"))
}

/// Counts and values read by hand off the cards (issue 27; `notes/plan-27-pdfs.md` §1–§2).
#[test]
fn index_card_corpus_counts_and_values() {
    let Some(d) = index_cards() else { return };
    assert_eq!(d.datasheets.len(), 77);
    // Every shield read: 37 of the export's twins print one, and 2 cards without a twin.
    let saves = d
        .datasheets
        .iter()
        .filter(|x| x.invulnerable_save.is_some())
        .count();
    assert_eq!(saves, 39);
    // The Scorpion: 7 ranged weapons (the abilities column shares their baselines), 1 melee.
    let s = by_name(&d, "Scorpion");
    assert_eq!(
        rows(s, WeaponType::Ranged).len(),
        7,
        "{:#?}",
        rows(s, WeaponType::Ranged)
    );
    assert_eq!(
        rows(s, WeaponType::Melee),
        ["Wraithbone hull Melee 6 4+ 6 0 1 []"]
    );
    assert!(s.abilities.iter().all(|a| !a.name.contains('|')));
    assert_eq!(s.invulnerable_save.as_deref(), Some("5+"));
    // Shadow Spectres: the shield beside the Exarch's row is no weapon.
    let ss = by_name(&d, "Shadow Spectres");
    assert_eq!(ss.invulnerable_save.as_deref(), Some("5+"));
    assert!(ss.weapons.iter().all(|w| w.name != "5+"));
    // Astraeus: the starred shield's note printed far from it.
    let a = by_name(&d, "Astraeus");
    assert_eq!(
        a.invulnerable_save_condition.as_deref(),
        Some("This model has a 5+ invulnerable save against ranged attacks.")
    );
    // The faction keyword box below a wrapped KEYWORDS line.
    let e = by_name(&d, "Earthshaker Carriage Battery");
    assert_eq!(e.faction_keywords, ["ASTRA MILITARUM"]);
    // Keyword cells joined to the name: no range read from a keyword cell.
    let t = by_name(&d, "Cerastus Knight Atrapos");
    let melee = rows(t, WeaponType::Melee);
    assert!(
        melee.contains(
            &"Atrapos lascutter – low intensity Melee 12 3+ 7 -1 2 [SUSTAINED HITS 1]".to_string()
        ),
        "{melee:#?}"
    );
    // Misprints kept as printed and reported: Warp Hunter's AP `3` (N111) only.
    let n11x: Vec<&str> = d
        .diagnostics
        .iter()
        .filter(|x| x.code == "N110" || x.code == "N111")
        .map(|x| x.message.as_str())
        .collect();
    assert_eq!(n11x.len(), 1, "{n11x:#?}");
    assert!(n11x[0].contains("Twin shuriken catapult"), "{}", n11x[0]);
}
