//! `cogitator crosscheck`: the export's CSV conventions (on small hand-written fixtures written
//! to a temporary directory), the real export read in place, the comparison categories of
//! hand-built datasheets against the datasheets the export's record source builds (with their
//! `ExportFacts`), and the command's exit codes and report file.

use crate::util;
use cogitator::crosscheck::export::{self, Export};
use cogitator::crosscheck::Exported;
use cogitator::crosscheck::{crosscheck, Category, Report};
use cogitator::model::{Datasheet, WeaponType};
use serde_json::json;
use std::path::Path;
use std::process::Command;

/// Writes one table the way the export does: UTF-8 BOM, `|` separators, a trailing `|` on
/// every line, CRLF line ends.
fn table(dir: &Path, name: &str, lines: &[&str]) {
    let mut s = String::from("\u{feff}");
    for l in lines {
        s.push_str(l);
        s.push_str("|\r\n");
    }
    std::fs::write(dir.join(name), s).expect("write fixture");
}

/// A small export, hand-written (not copied from the corpus), exercising its conventions.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    table(
        d,
        "Last_update.csv",
        &["last_update", "2025-11-14 19:35:22"],
    );
    table(
        d,
        "Factions.csv",
        &["id|name|link", "ORK|Orks|x", "SM|Space Marines|x"],
    );
    table(
        d,
        "Datasheets.csv",
        &[
            "id|name|faction_id|source_id|legend|role|loadout|transport|virtual|leader_head|leader_footer|damaged_w|damaged_description|link",
            "000000001|Warboss |ORK|1|A <b>big</b> ork.|Characters|x||false|||||x",
            "000000002|Intercessor Squad|SM|1||Battleline|x|Carries 6 <b>INFANTRY</b> models.|false|||||x",
            "000000003|Wolf Guard Terminators|SM|1||Infantry|x||false|||||x",
            "000000004|Artillery Team|ORK|1||Other|x||false|||||x",
        ],
    );
    table(
        d,
        "Datasheets_models.csv",
        &[
            "datasheet_id|line|name|M|T|Sv|inv_sv|inv_sv_descr|W|Ld|OC|base_size|base_size_descr",
            "000000001|1|Warboss|6\"|5*|4+|4*|* Against ranged attacks only|6|6+|1|40mm|",
            "000000002|1|Intercessor|6\"|4|3+|-||2|6+|2|32mm|",
            "000000002|2|Broken",
            "000000003|1|Wolf Guard Terminator|5\"|5|2+|4||3|6+|1|40mm|",
            "000000004|1|Big Gun|3\"|5|5+|-||6|7+|0|100mm|",
        ],
    );
    table(
        d,
        "Datasheets_wargear.csv",
        &[
            "datasheet_id|line|line_in_wargear|dice|name|description|range|type|A|BS_WS|S|AP|D",
            "000000001|1|1||Kombi-weapon|<a href=\"/r#Anti\">anti-infantry 4+</a>, <a href=\"/r#Rapid\">rapid&nbsp;fire 1</a>|24|Ranged|1|5|4|-0|1",
            "000000001|2|1||Power klaw |<a href=\"/r#Anti\">anti-vehicle 2+</a>|Melee|Melee|D6 |2|9|-2|2",
            "000000002|1|1||Bolt rifle|<a href=\"/r\">assault</a>, <a href=\"/r\">heavy</a>, |30|Ranged|2|3+|4|-1|1",
            "000000002|2|1||Plasma pistol - standard|<a href=\"/r\">PISTOL</a>|12|Ranged|1|3|7|-2|1",
            "000000002|3|1||Master-crafted bolter||24|Ranged|2|3|4|-1|2",
            "000000002|4|1||Close combat weapon||Melee|Melee|3|3|4|0|1",
            "000000003|1|1||Storm bolter|<a href=\"/r\">rapid fire 2</a>|24|Ranged|2|3|4|0|1",
            "000000003|2|1||Power fist||Melee|Melee|3|3|8|-2|2",
            "000000004||1|||||||0|-|-|0|-",
            "000000004|1|1||Big gun|<a href=\"/r\">blast</a>|48|Ranged|D6|N/A|8|-2|2",
            "000000099|1|1||Ghost gun||24|Ranged|1|3|4|0|1",
        ],
    );
    table(
        d,
        "Datasheets_models_cost.csv",
        &[
            "datasheet_id|line|description|cost",
            "000000001|1|1 model|75",
            "000000002|1|5 models|80",
            "000000002|2|10 models|160",
            "000000002|3|Sergeant <b>upgrade</b>|+20",
            "000000003|1|5 models|170",
            "000000004|1|1 Big Gun and 2 Gunners|60",
        ],
    );
    table(
        d,
        "Datasheets_keywords.csv",
        &[
            "datasheet_id|keyword|model|is_faction_keyword",
            "000000001|Orks||true",
            "000000001|Character||false",
            "000000001|Infantry||false",
            "000000001|Warboss||false",
            "000000002|Adeptus Astartes||true",
            "000000002|Infantry||false",
            "000000002|Grenades||false",
            "000000003|Adeptus Astartes||true",
            "000000003|Space Wolves||true",
            "000000003|Terminator||false",
            "000000004|Orks||true",
            "000000004|Artillery||false",
        ],
    );
    table(
        d,
        "Abilities.csv",
        &[
            "id|name|legend|faction_id|description",
            "000008346|Leader|x||x",
            "000003676|Waaagh!|x|ORK|x",
            "000003676|Waaagh!|x|UN|x",
            "000008350|Oath of Moment|x|SM|x",
            "000008344|Scouts|x||x",
        ],
    );
    table(
        d,
        "Datasheets_abilities.csv",
        &[
            "datasheet_id|line|ability_id|model|name|description|type|parameter",
            "000000001|1|000008346||||Core|",
            "000000001|2|000003676||||Faction|",
            "000000001|3|||Might is Right|<b>While</b> leading…|Datasheet|",
            "000000001|4|||One Shot|once per battle|Wargear profile|",
            "000000002|1|000008350||||Faction|",
            "000000002|2|||Target Elimination|x|Datasheet|",
            "000000002|3|000008344||||Core|6\"",
            "000000003|1|000008350||||Faction|",
            "000000004|1|||Grot Crew (Aura)|x|Datasheet|",
        ],
    );
    dir
}

fn read_fixture() -> (tempfile::TempDir, Exported) {
    let dir = fixture();
    let ex = Exported::read_dir(dir.path()).expect("fixture export reads");
    (dir, ex)
}

fn sheet(v: serde_json::Value) -> Datasheet {
    serde_json::from_value(v).expect("hand-built datasheet")
}

fn weapon(name: &str, kind: &str, vals: [&str; 6], kws: &[&str], line: u32) -> serde_json::Value {
    json!({"name": name, "type": kind, "range": vals[0], "A": vals[1], "skill": vals[2],
           "S": vals[3], "AP": vals[4], "D": vals[5], "keywords": kws, "line": line})
}

fn ability(name: &str, group: &str) -> serde_json::Value {
    json!({"name": name, "group": group, "tags": [], "parameter": null, "rule_id": null, "text": null})
}

fn base(id: &str, name: &str, faction: &str) -> serde_json::Value {
    json!({
        "id": id, "name": name, "edition": "10e", "faction": faction,
        "sources": [{"file": "pages/x.html", "line": 10, "sha256": "00"}],
        "base_size": null, "models": [], "invulnerable_save": null,
        "invulnerable_save_condition": null, "weapons": [], "abilities": [],
        "wargear_options": [], "unit_composition": [], "equipment": [], "points": [],
        "damaged": null, "special_rules": [], "leads": [], "keywords": [],
        "faction_keywords": [], "stratagems": []
    })
}

/// Our Warboss, agreeing with the fixture on every field.
fn warboss() -> serde_json::Value {
    let mut v = base("10e:orks:warboss", "Warboss", "Orks");
    v["models"] = json!([{"name": "Warboss", "M": "6\"", "T": "5", "Sv": "4+", "W": "6", "Ld": "6+", "OC": "1"}]);
    v["invulnerable_save"] = json!("4+");
    v["weapons"] = json!([
        weapon(
            "Kombi-weapon",
            "ranged",
            ["24\"", "1", "5+", "4", "0", "1"],
            &["ANTI-INFANTRY 4+", "RAPID FIRE 1"],
            30
        ),
        weapon(
            "Power klaw",
            "melee",
            ["Melee", "D6", "2+", "9", "-2", "2"],
            &["ANTI-VEHICLE 2+"],
            31
        ),
    ]);
    v["abilities"] = json!([
        ability("Leader", "core"),
        ability("Waaagh!", "faction"),
        ability("Might is Right", "datasheet")
    ]);
    v["points"] = json!([{"models": 1, "points": 75}]);
    v["keywords"] = json!(["INFANTRY", "CHARACTER", "WARBOSS"]);
    v["faction_keywords"] = json!(["ORKS"]);
    v
}

/// Our Intercessor Squad, agreeing with the fixture on every field.
fn intercessors() -> serde_json::Value {
    let mut v = base(
        "10e:space-marines:intercessor-squad",
        "Intercessor Squad",
        "Space Marines",
    );
    v["models"] = json!([{"name": "Intercessor", "M": "6\"", "T": "4", "Sv": "3+", "W": "2", "Ld": "6+", "OC": "2"}]);
    v["weapons"] = json!([
        weapon(
            "Bolt rifle",
            "ranged",
            ["30\"", "2", "3+", "4", "-1", "1"],
            &["ASSAULT", "HEAVY"],
            40
        ),
        weapon(
            "Plasma pistol – standard",
            "ranged",
            ["12\"", "1", "3+", "7", "-2", "1"],
            &["PISTOL"],
            41
        ),
        weapon(
            "Master-crafted bolter",
            "ranged",
            ["24\"", "2", "3+", "4", "-1", "2"],
            &[],
            42
        ),
        weapon(
            "Close combat weapon",
            "melee",
            ["Melee", "3", "3+", "4", "0", "1"],
            &[],
            43
        ),
    ]);
    v["abilities"] = json!([
        ability("Oath of Moment", "faction"),
        ability("Target Elimination", "datasheet"),
        ability("Scouts", "core")
    ]);
    v["points"] = json!([{"models": 5, "points": 80}, {"models": 10, "points": 160}]);
    v["keywords"] = json!(["Infantry", "Grenades"]);
    v["faction_keywords"] = json!(["Adeptus Astartes"]);
    v
}

/// One disagreement as the assertions read it: the report's field report flattened (the
/// export's value is the reference, ours the one difference).
#[derive(Debug)]
struct Row {
    id: String,
    field: String,
    ours: Option<String>,
    theirs: Option<String>,
    category: Category,
    reason: String,
    source: Option<String>,
    export_source: Option<String>,
}

fn rows(r: &Report) -> Vec<Row> {
    let mut out = Vec::new();
    for (id, fields) in &r.disagreements {
        for f in fields {
            assert_eq!(f.agree, ["export"], "the export is the reference: {f:?}");
            for d in &f.differ {
                assert_eq!(d.source, "dataset", "{f:?}");
                out.push(Row {
                    id: id.clone(),
                    field: f.field.clone(),
                    ours: d.value.clone(),
                    theirs: f.value.clone(),
                    category: d.category,
                    reason: d.note.clone().unwrap_or_default(),
                    source: d.at.clone(),
                    export_source: d.export_at.clone(),
                });
            }
        }
    }
    out
}

fn disagreements(r: &Report, id: &str) -> Vec<Row> {
    rows(r).into_iter().filter(|d| d.id == id).collect()
}

#[test]
fn export_conventions_on_a_hand_written_fixture() {
    let (_dir, read) = read_fixture();
    let ex: &Export = &read.export;
    assert_eq!(ex.last_update.as_deref(), Some("2025-11-14 19:35:22"));
    assert_eq!(ex.factions.len(), 2);
    // Trailing space in a name is trimmed; the BOM does not end up in the first column.
    let warboss = ex.datasheet("000000001").expect("Warboss");
    assert_eq!(warboss.name, "Warboss");
    assert_eq!(warboss.faction_id, "ORK");

    let m = ex.models_of("000000001");
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].m.as_deref(), Some("6\""));
    assert_eq!(m[0].t.as_deref(), Some("5"), "T `5*` loses its star");
    assert_eq!(m[0].starred, vec!["T".to_string()]);
    assert_eq!(m[0].inv_sv.as_deref(), Some("4+"), "inv_sv `4*` is 4+");
    assert!(m[0].inv_sv_conditional);
    assert_eq!(m[0].line, 2, "line numbers count the header");
    let inter = ex.models_of("000000002");
    assert_eq!(inter.len(), 1, "the short line is skipped");
    assert_eq!(inter[0].inv_sv, None, "inv_sv `-` is no save");
    let wgt = ex.models_of("000000003");
    assert_eq!(
        wgt[0].inv_sv.as_deref(),
        Some("4+"),
        "inv_sv `4` gains its +"
    );

    let w = ex.weapons_of("000000001");
    assert_eq!(w.len(), 2);
    assert_eq!(w[0].name, "Kombi-weapon");
    assert_eq!(
        w[0].range.as_deref(),
        Some("24\""),
        "range gains its inch mark"
    );
    assert_eq!(w[0].skill.as_deref(), Some("5+"), "BS gains its +");
    assert_eq!(w[0].ap.as_deref(), Some("0"), "AP -0 is 0");
    assert_eq!(w[0].kind, Some(WeaponType::Ranged));
    assert_eq!(
        w[0].keywords,
        vec!["anti-infantry 4+".to_string(), "rapid fire 1".to_string()],
        "HTML stripped, &nbsp; decoded, case kept"
    );
    assert_eq!(w[1].name, "Power klaw", "trailing space in a weapon name");
    assert_eq!(
        w[1].attacks.as_deref(),
        Some("D6"),
        "trailing space in dice"
    );
    assert_eq!(w[1].range.as_deref(), Some("Melee"));
    let bolt = ex.weapons_of("000000002");
    assert_eq!(
        bolt[0].skill.as_deref(),
        Some("3+"),
        "a BS printed `3+` stays"
    );
    assert_eq!(
        bolt[0].keywords,
        vec!["assault".to_string(), "heavy".to_string()],
        "the trailing `, ` adds no empty keyword"
    );
    assert_eq!(
        ex.weapons_of("000000004").len(),
        1,
        "placeholder row skipped"
    );
    assert_eq!(ex.weapons_of("000000004")[0].skill.as_deref(), Some("N/A"));

    let c = ex.costs_of("000000002");
    assert_eq!(c.len(), 3);
    assert_eq!((c[0].models, c[0].cost), (Some(5), Some(80)));
    assert!(c[2].addon, "`+20` is an add-on");
    assert_eq!(c[2].description, "Sergeant upgrade");
    assert_eq!(c[2].models, None);
    assert_eq!(
        ex.costs_of("000000004")[0].models,
        Some(3),
        "1 Big Gun and 2 Gunners"
    );

    let a = ex.abilities_of("000000001");
    let names: Vec<_> = a.iter().filter_map(|x| x.name.as_deref()).collect();
    assert_eq!(names, ["Leader", "Waaagh!", "Might is Right", "One Shot"]);
    assert_eq!(a[0].kind, "Core");

    let k = ex.keywords_of("000000003");
    assert!(k
        .iter()
        .any(|k| k.keyword == "Space Wolves" && k.is_faction));

    // The short line is C001; the wargear row of an unknown datasheet is C002.
    let codes: Vec<(&str, Option<&str>, Option<u32>)> = ex
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.file.as_deref(), d.line))
        .collect();
    assert!(
        codes.contains(&("C001", Some("Datasheets_models.csv"), Some(4))),
        "{codes:?}"
    );
    assert!(
        codes.contains(&("C002", Some("Datasheets_wargear.csv"), Some(12))),
        "{codes:?}"
    );
}

#[test]
fn missing_table_is_an_error_not_a_panic() {
    let dir = fixture();
    std::fs::remove_file(dir.path().join("Datasheets_wargear.csv")).expect("rm");
    let err = Exported::read_dir(dir.path()).expect_err("wargear table missing");
    assert!(err.to_string().contains("Datasheets_wargear.csv"), "{err}");
    let dir = fixture();
    table(
        dir.path(),
        "Datasheets_models.csv",
        &["datasheet_id|line|name|M"],
    );
    let err = Exported::read_dir(dir.path()).expect_err("columns missing");
    assert!(err.to_string().contains("column `T`"), "{err}");
}

#[test]
fn agreeing_datasheets_agree_on_every_field() {
    let (_dir, ex) = read_fixture();
    let r = crosscheck(&ex, &[sheet(warboss()), sheet(intercessors())]);
    assert!(r.disagreements.is_empty(), "{:#?}", r.disagreements);
    assert_eq!(r.summary.matched, 2);
    assert_eq!(r.summary.fields_compared, r.summary.fields_agreed);
    assert!(
        r.summary.fields_compared > 40,
        "{}",
        r.summary.fields_compared
    );
    assert_eq!(r.summary.agreement_pct, 100.0);
    // Not compared, and counted: the add-on cost, and the export's special rules we do not
    // have (the Warboss's weapon-profile footnote, the TRANSPORT box the record source builds
    // from the Intercessors' transport column).
    assert_eq!(
        r.summary.not_compared.values().sum::<usize>(),
        3,
        "{:?}",
        r.summary.not_compared
    );
    assert_eq!(r.matches[0].method, "id");
}

#[test]
fn a_changed_point_cost_is_changed_since_export() {
    let (_dir, ex) = read_fixture();
    let mut v = intercessors();
    v["points"] = json!([{"models": 5, "points": 90}, {"models": 10, "points": 160}]);
    let r = crosscheck(&ex, &[sheet(v)]);
    let d = disagreements(&r, "10e:space-marines:intercessor-squad");
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].field, "points[5 models]");
    assert_eq!(d[0].category, Category::Version);
    assert_eq!(
        (d[0].ours.as_deref(), d[0].theirs.as_deref()),
        (Some("90"), Some("80"))
    );
    assert_eq!(
        d[0].export_source.as_deref(),
        Some("Datasheets_models_cost.csv:3")
    );
    assert_eq!(d[0].source.as_deref(), Some("pages/x.html:10"));
    assert_eq!(r.summary.by_category[&Category::Version], 1);
    assert!(r.summary.agreement_pct < 100.0);
    assert_eq!(r.summary.agreement_pct_excluding_changes, 100.0);
}

#[test]
fn a_changed_characteristic_and_a_replaced_unit_size_are_changes() {
    let (_dir, ex) = read_fixture();
    let mut v = intercessors();
    v["weapons"][0]["A"] = json!("3");
    v["points"] = json!([{"models": 5, "points": 80}, {"models": 6, "points": 95}]);
    let r = crosscheck(&ex, &[sheet(v)]);
    let d = disagreements(&r, "10e:space-marines:intercessor-squad");
    let cats: Vec<(&str, Category)> = d.iter().map(|d| (d.field.as_str(), d.category)).collect();
    assert!(
        cats.contains(&("weapons[Bolt rifle].A", Category::Version)),
        "{cats:?}"
    );
    assert!(
        cats.contains(&("points[6 models]", Category::Version)),
        "{cats:?}"
    );
    assert!(
        cats.contains(&("points[10 models]", Category::Version)),
        "{cats:?}"
    );
    assert_eq!(d.len(), 3);
}

#[test]
fn a_synonym_weapon_name_is_naming_by_the_weapon_rule() {
    let (_dir, ex) = read_fixture();
    let mut v = intercessors();
    v["weapons"][2]["name"] = json!("Master-crafted boltgun");
    let r = crosscheck(&ex, &[sheet(v)]);
    let d = disagreements(&r, "10e:space-marines:intercessor-squad");
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].category, Category::Naming);
    assert_eq!(d[0].field, "weapons[Master-crafted bolter]");
    assert_eq!(d[0].ours.as_deref(), Some("Master-crafted boltgun"));
    assert_eq!(d[0].theirs.as_deref(), Some("Master-crafted bolter"));
    // The weapon rule pairs identical profiles only: renamed with another D, it is a weapon
    // list that differs as a whole (each side lacks the other's), not a naming difference.
    let mut v = intercessors();
    v["weapons"][2]["name"] = json!("Master-crafted boltgun");
    v["weapons"][2]["D"] = json!("1");
    let r = crosscheck(&ex, &[sheet(v)]);
    let all = rows(&r);
    let got: Vec<(&str, Category)> = (all.iter())
        .map(|d| (d.field.as_str(), d.category))
        .collect();
    assert_eq!(
        got,
        [
            ("weapons[Master-crafted bolter]", Category::Version),
            ("weapons[Master-crafted boltgun]", Category::Version)
        ]
    );
}

#[test]
fn dash_apostrophe_and_case_differences_are_not_disagreements() {
    let (_dir, ex) = read_fixture();
    let mut v = intercessors();
    v["name"] = json!("INTERCESSOR-SQUAD");
    v["weapons"][1]["name"] = json!("Plasma Pistol — Standard");
    v["keywords"] = json!(["INFANTRY", "GRENADES"]);
    let r = crosscheck(&ex, &[sheet(v)]);
    assert_eq!(r.summary.matched, 1);
    assert!(r.disagreements.is_empty(), "{:#?}", r.disagreements);
}

#[test]
fn a_cards_single_unnamed_profile_is_the_exports_only_model() {
    let (_dir, ex) = read_fixture();
    // An index card prints one profile row and no model name: its model is the unit.
    let mut v = warboss();
    v["models"][0]["name"] = json!(null);
    let r = crosscheck(&ex, &[sheet(v.clone())]);
    assert!(r.disagreements.is_empty(), "{:#?}", r.disagreements);
    assert_eq!(r.summary.fields_compared, r.summary.fields_agreed);
    // A value of that row that differs is still a disagreement, under the export's name.
    v["models"][0]["T"] = json!("6");
    let r = crosscheck(&ex, &[sheet(v.clone())]);
    let all = rows(&r);
    assert_eq!(all.len(), 1, "{all:#?}");
    assert_eq!(all[0].field, "models[Warboss].T");
    // Two unnamed rows are not paired by this rule: which is which is not known.
    v["models"] = json!([v["models"][0].clone(), v["models"][0].clone()]);
    let r = crosscheck(&ex, &[sheet(v)]);
    assert!(
        rows(&r).iter().any(|d| d.field.starts_with("models")),
        "{:#?}",
        rows(&r)
    );
}

#[test]
fn a_model_named_after_its_unit_is_naming() {
    let (_dir, ex) = read_fixture();
    let mut v = base("10e:orks:artillery-team", "Artillery Team", "Orks");
    v["models"] = json!([{"name": "Artillery Team", "M": "3\"", "T": "5", "Sv": "5+", "W": "6", "Ld": "7+", "OC": "0"}]);
    v["weapons"] = json!([weapon(
        "Big gun",
        "ranged",
        ["48\"", "D6", "N/A", "8", "-2", "2"],
        &["BLAST"],
        5
    )]);
    v["points"] = json!([{"models": 3, "points": 60}]);
    v["keywords"] = json!(["Artillery"]);
    v["faction_keywords"] = json!(["Orks"]);
    v["abilities"] = json!([{"name": "Grot Crew", "group": "datasheet", "tags": ["Aura"], "parameter": null, "rule_id": null, "text": "x"}]);
    let r = crosscheck(&ex, &[sheet(v)]);
    let all = rows(&r);
    assert_eq!(all.len(), 1, "{all:#?}");
    let d = &all[0];
    assert_eq!(d.field, "models[Big Gun]");
    assert_eq!(d.category, Category::Naming);
    assert!(d.reason.contains("after its unit"), "{}", d.reason);
}

#[test]
fn missing_and_malformed_values_are_extraction_errors() {
    let (_dir, ex) = read_fixture();
    let mut v = warboss();
    v["models"][0]["Sv"] = json!(null);
    v["weapons"][0]["AP"] = json!("-9");
    v["keywords"] = json!(["INFANTRY", "CHARACTER"]);
    v["abilities"] = json!([
        ability("Leader", "core"),
        ability("Waaagh!", "faction"),
        ability("Might is Right", "datasheet"),
        ability("Made Up", "datasheet")
    ]);
    let r = crosscheck(&ex, &[sheet(v)]);
    let d = disagreements(&r, "10e:orks:warboss");
    let got: Vec<(&str, Category, Option<&str>, Option<&str>)> = d
        .iter()
        .map(|d| {
            (
                d.field.as_str(),
                d.category,
                d.ours.as_deref(),
                d.theirs.as_deref(),
            )
        })
        .collect();
    assert!(
        got.contains(&("models[Warboss].Sv", Category::DataError, None, Some("4+"))),
        "{got:?}"
    );
    assert!(
        got.contains(&(
            "weapons[Kombi-weapon].AP",
            Category::DataError,
            Some("-9"),
            Some("0")
        )),
        "{got:?}"
    );
    assert!(
        got.contains(&(
            "keywords[Warboss]",
            Category::DataError,
            None,
            Some("Warboss")
        )),
        "{got:?}"
    );
    assert!(
        got.contains(&(
            "abilities[Made Up]",
            Category::DataError,
            Some("Made Up"),
            None
        )),
        "{got:?}"
    );
    assert_eq!(got.len(), 4);
    let ap = d
        .iter()
        .find(|d| d.field == "weapons[Kombi-weapon].AP")
        .expect("AP");
    assert!(ap.reason.contains("not a well-formed AP"), "{}", ap.reason);
    assert_eq!(
        ap.source.as_deref(),
        Some("pages/x.html:30"),
        "weapon line of our source"
    );
    assert_eq!(
        ap.export_source.as_deref(),
        Some("Datasheets_wargear.csv:2")
    );
}

#[test]
fn a_weapon_list_that_differs_as_a_whole_is_a_change() {
    let (_dir, ex) = read_fixture();
    let mut v = intercessors();
    // The close combat weapon became another melee weapon with another profile.
    v["weapons"][3] = weapon(
        "Astartes chainsword",
        "melee",
        ["Melee", "4", "3+", "4", "-1", "1"],
        &[],
        43,
    );
    let r = crosscheck(&ex, &[sheet(v)]);
    let d = disagreements(&r, "10e:space-marines:intercessor-squad");
    assert_eq!(d.len(), 2, "{d:#?}");
    assert!(d.iter().all(|d| d.category == Category::Version), "{d:#?}");
    // A weapon we lack with nothing in its place is an extraction error.
    let mut v = intercessors();
    v["weapons"].as_array_mut().expect("array").pop();
    let r = crosscheck(&ex, &[sheet(v)]);
    let d = disagreements(&r, "10e:space-marines:intercessor-squad");
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].field, "weapons[Close combat weapon]");
    assert_eq!(d[0].category, Category::DataError);
}

#[test]
fn well_formed_differences_on_a_poorly_matching_datasheet_are_extraction_errors() {
    let (_dir, ex) = read_fixture();
    let mut v = warboss();
    v["models"] = json!([{"name": "Warboss", "M": "8\"", "T": "9", "Sv": "2+", "W": "12", "Ld": "7+", "OC": "3"}]);
    v["points"] = json!([{"models": 1, "points": 200}]);
    v["keywords"] = json!(["VEHICLE"]);
    let r = crosscheck(&ex, &[sheet(v)]);
    let d = disagreements(&r, "10e:orks:warboss");
    assert!(d.len() >= 7);
    assert!(
        d.iter().all(|d| d.category == Category::DataError),
        "{d:#?}"
    );
    assert!(d.iter().any(|d| d.reason.contains("below 75%")));
}

/// A dataset datasheet is the export datasheet built under its id (as ingest pairs sources);
/// else the one of its name in its faction; else the first of its name; else unmatched.
#[test]
fn matching_by_id_faction_and_name_name_only_and_unmatched() {
    let (_dir, ex) = read_fixture();
    let mut wolves = base(
        "10e:space-wolves:wolf-guard-terminators",
        "Wolf Guard Terminators",
        "Space Wolves",
    );
    wolves["faction_keywords"] = json!(["Adeptus Astartes", "Space Wolves"]);
    let renamed = base("10e:orks:big-boss", "Warboss", "Orks");
    let mut nameless = base("10e:x:warboss", "Warboss", "Orks");
    nameless["faction"] = json!(null);
    let ghost = base("10e:orks:ghost", "Ghazghkull's Ghost", "Orks");
    let sheets = [warboss(), wolves, renamed, nameless, ghost].map(sheet);
    let r = crosscheck(&ex, &sheets);
    let methods: Vec<(&str, &str, &str)> = (r.matches.iter())
        .map(|m| {
            let (id, export_id) = (m.datasheet_id.as_str(), m.export_datasheet_id.as_str());
            (id, export_id, m.method.as_str())
        })
        .collect();
    assert_eq!(
        methods,
        [
            ("10e:orks:big-boss", "000000001", "faction_and_name"),
            ("10e:orks:warboss", "000000001", "id"),
            (
                "10e:space-wolves:wolf-guard-terminators",
                "000000003",
                "name_only"
            ),
            ("10e:x:warboss", "000000001", "name_only"),
        ]
    );
    assert_eq!(r.unmatched.len(), 1);
    assert_eq!(r.unmatched[0].datasheet_id, "10e:orks:ghost");
    let d = disagreements(&r, "10e:orks:ghost");
    assert_eq!(d.len(), 1);
    assert_eq!(
        (d[0].field.as_str(), d[0].category),
        ("datasheet", Category::DataError)
    );
    // Our empty sections are one disagreement each, not one per export value.
    let d = disagreements(&r, "10e:space-wolves:wolf-guard-terminators");
    assert!(d.iter().any(|d| d.field == "weapons" && d.ours.is_none()));
    assert!(d
        .iter()
        .any(|d| d.field == "points" && d.reason.contains("may not print them")));
}

#[test]
fn report_is_deterministic() {
    let (_dir, ex) = read_fixture();
    let a = crosscheck(&ex, &[sheet(intercessors()), sheet(warboss())]);
    let b = crosscheck(&ex, &[sheet(warboss()), sheet(intercessors())]);
    assert_eq!(
        serde_json::to_string(&a).expect("json"),
        serde_json::to_string(&b).expect("json")
    );
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .args(args)
        .output()
        .expect("run cogitator");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn command_exit_codes_json_and_report_file() {
    let export_dir = fixture();
    let data = tempfile::tempdir().expect("tempdir");
    let sheets = json!([warboss(), intercessors()]);
    std::fs::write(data.path().join("datasheets.json"), sheets.to_string()).expect("write");
    let csv = export_dir.path().to_str().expect("utf-8 path");
    let ds = data.path().to_str().expect("utf-8 path");

    let (code, out, err) = run(&["crosscheck", "--wahapedia-csv", csv, ds]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("100.00%"), "{out}");
    let report: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(data.path().join("crosscheck-report.json")).expect("report"),
    )
    .expect("report json");
    assert_eq!(report["summary"]["matched"], 2);
    assert!(
        !report.to_string().contains(ds),
        "no absolute paths in the report"
    );

    let mut v = intercessors();
    v["points"] = json!([{"models": 5, "points": 90}, {"models": 10, "points": 160}]);
    v["models"][0]["Sv"] = json!(null);
    std::fs::write(data.path().join("datasheets.json"), json!([v]).to_string()).expect("write");
    let rep = data.path().join("elsewhere.json");
    let rep_s = rep.to_str().expect("utf-8 path");
    let (code, out, err) = run(&[
        "crosscheck",
        "--wahapedia-csv",
        csv,
        ds,
        "--json",
        "--report",
        rep_s,
    ]);
    assert_eq!(code, 1, "an extraction error is below 99.5%: {out}{err}");
    let s: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(s["by_category"]["version"], 1);
    assert_eq!(s["by_category"]["data_error"], 1);
    assert_eq!(s["pass"], false);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rep).expect("report")).expect("json");
    let fields = &report["disagreements"]["10e:space-marines:intercessor-squad"];
    assert_eq!(fields.as_array().map(Vec::len), Some(2), "{report}");

    let (code, _, _) = run(&[
        "crosscheck",
        "--wahapedia-csv",
        csv,
        ds,
        "--min-agreement",
        "50",
    ]);
    assert_eq!(code, 0);
    let (code, _, _) = run(&["crosscheck", ds]);
    assert_eq!(code, 2, "--wahapedia-csv is required");
    let (code, _, err) = run(&["crosscheck", "--wahapedia-csv", ds, ds]);
    assert_eq!(code, 2, "not an export: {err}");

    // A report of the earlier shape (a list of disagreements, `by_kind`) is still a previous
    // report: replaced, not refused.
    let old = json!({"summary": {"by_kind": {}}, "matches": [], "unmatched": [],
                     "disagreements": [{"kind": "points", "category": "changed_since_export"}]});
    std::fs::write(&rep, old.to_string()).expect("write");
    let (code, out, err) = run(&["crosscheck", "--wahapedia-csv", csv, ds, "--report", rep_s]);
    assert_eq!(code, 1, "{out}{err}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&rep).expect("report")).expect("json");
    assert!(report["disagreements"].is_object(), "{report}");
}

#[test]
fn real_export_read_in_place() {
    let Some(corpus) = util::corpus() else {
        return;
    };
    let dir = corpus.join("wahapedia-csv/2025-11-14");
    let read = Exported::read_dir(&dir).expect("the real export reads");
    let ex = &read.export;
    assert_eq!(ex.last_update.as_deref(), Some("2025-11-14 19:35:22"));
    assert_eq!(ex.factions.len(), 26);
    assert_eq!(ex.datasheets.len(), 1676);
    // Hand-checked in Datasheets_models.csv: Ork Warboss, line 2 of the file.
    let boss = ex.find("ORK", "Warboss").expect("Ork Warboss");
    assert_eq!(boss.id, "000000001");
    let m = ex.models_of(&boss.id);
    assert_eq!(m.len(), 1);
    let w = m[0];
    assert_eq!(
        (
            w.m.as_deref(),
            w.t.as_deref(),
            w.sv.as_deref(),
            w.inv_sv.as_deref()
        ),
        (Some("6\""), Some("5"), Some("4+"), Some("5+"))
    );
    assert_eq!(
        (w.w.as_deref(), w.ld.as_deref(), w.oc.as_deref()),
        (Some("6"), Some("6+"), Some("1"))
    );
    assert_eq!(w.line, 2);
    // Its Kombi-weapon (wargear line 2 of the file): 24" A1 BS5+ S4 AP0 D1, three abilities.
    let kombi = ex
        .weapons_of(&boss.id)
        .into_iter()
        .find(|w| w.name == "Kombi-weapon")
        .expect("Kombi-weapon");
    assert_eq!(
        [
            &kombi.range,
            &kombi.attacks,
            &kombi.skill,
            &kombi.strength,
            &kombi.ap,
            &kombi.damage
        ]
        .map(|v| v.as_deref()),
        [
            Some("24\""),
            Some("1"),
            Some("5+"),
            Some("4"),
            Some("0"),
            Some("1")
        ]
    );
    assert_eq!(
        kombi.keywords,
        ["anti-infantry 4+", "devastating wounds", "rapid fire 1"]
    );
    let cost = ex.costs_of(&boss.id);
    assert_eq!((cost[0].models, cost[0].cost), (Some(1), Some(75)));
    // Its core and faction abilities resolve through Abilities.csv.
    let names: Vec<_> = ex
        .abilities_of(&boss.id)
        .iter()
        .filter_map(|a| a.name.clone())
        .collect();
    assert!(
        names.contains(&"Leader".to_string()) && names.contains(&"Waaagh!".to_string()),
        "{names:?}"
    );
    // The one `-0` AP in the export (a flamer) reads as 0; the `4*` saves read as 4+.
    assert!(!ex.weapons.iter().any(|w| w.ap.as_deref() == Some("-0")));
    assert!(
        ex.models
            .iter()
            .filter(|m| m.inv_sv_conditional && m.inv_sv.as_deref() == Some("4+"))
            .count()
            >= 2
    );
    assert!(
        ex.models
            .iter()
            .any(|m| m.starred.contains(&"T".to_string())),
        "the `5*` toughness"
    );
    // Rows of datasheets missing from Datasheets.csv are C002, not a failure.
    assert!(ex
        .diagnostics
        .iter()
        .all(|d| d.code == "C002" || d.code == "C001"));
    assert!(ex.diagnostics.iter().any(|d| d.code == "C002"));
    // Every weapon keyword of the export is read without markup.
    assert!(ex
        .weapons
        .iter()
        .flat_map(|w| &w.keywords)
        .all(|k| !k.contains('<') && !k.contains('&')));
    let _ = export::WARGEAR;
}

#[test]
fn real_export_against_itself_agrees() {
    // The datasheets the record source builds from the export, crosschecked against the same
    // export, agree completely: the comparison is symmetric and the matching finds each one.
    let Some(corpus) = util::corpus() else {
        return;
    };
    let ex = Exported::read_dir(&corpus.join("wahapedia-csv/2025-11-14")).expect("export");
    let sheets: Vec<Datasheet> = ex
        .datasheets
        .iter()
        .filter(|(_, f)| ["ORK", "AM", "TYR"].contains(&f.faction_id.as_str()))
        .map(|(d, _)| d.clone())
        .collect();
    assert!(sheets.len() > 250, "{}", sheets.len());
    let r = crosscheck(&ex, &sheets);
    assert_eq!(r.summary.unmatched, 0);
    assert_eq!(
        r.summary.fields_compared,
        r.summary.fields_agreed,
        "{:#?}",
        rows(&r).iter().take(10).collect::<Vec<_>>()
    );
    assert!(
        r.summary.fields_compared > 10_000,
        "{}",
        r.summary.fields_compared
    );
    // Known-bad input fails it: one changed characteristic is one disagreement.
    let mut bad = sheets.clone();
    let m = bad
        .iter_mut()
        .find(|d| !d.models.is_empty())
        .and_then(|d| d.models.first_mut())
        .expect("a model");
    m.set("T", Some("99".into()));
    let r = crosscheck(&ex, &bad);
    assert_eq!(r.summary.disagreements, 1, "{:#?}", rows(&r));
}

#[test]
fn an_ability_name_carrying_its_parameter_is_an_extraction_error() {
    let (_dir, ex) = read_fixture();
    let p = &ex.export.abilities_of("000000002")[2];
    assert_eq!(
        (p.name.as_deref(), p.parameter.as_deref()),
        (Some("Scouts"), Some("6\""))
    );
    let mut v = intercessors();
    v["abilities"][2]["name"] = json!("Scouts 6\"");
    let r = crosscheck(&ex, &[sheet(v)]);
    let all = rows(&r);
    let got: Vec<(&str, Category)> = (all.iter())
        .map(|d| (d.field.as_str(), d.category))
        .collect();
    assert_eq!(
        got,
        [
            ("abilities[Scouts 6\"]", Category::DataError),
            // Every word of `Scouts` is a word of ours: the view's covered rule.
            ("abilities[Scouts]", Category::Naming)
        ],
        "{:#?}",
        r.disagreements
    );
}

#[test]
fn special_rules_are_not_compared_and_the_exports_are_counted() {
    // Named boxes (TRANSPORT, ORDERS) and the export's weapon-profile footnotes are special
    // rules, outside the compared view: ours do not count, the export's we lack are counted
    // as not compared.
    let (_dir, ex) = read_fixture();
    let mut v = warboss();
    v["special_rules"] = json!([{"name": "TRANSPORT", "text": "Capacity 6."}]);
    let r = crosscheck(&ex, &[sheet(v)]);
    assert!(r.disagreements.is_empty(), "{:#?}", r.disagreements);
    let footnotes = "weapon-profile footnotes and untitled notes among the export's abilities";
    assert_eq!(r.summary.not_compared.get(footnotes), Some(&1));
    let mut v = warboss();
    v["special_rules"] = json!([{"name": "One Shot", "text": "once per battle"}]);
    let r = crosscheck(&ex, &[sheet(v)]);
    assert_eq!(r.summary.not_compared.get(footnotes), None);
}

/// A weapon's keywords compare as a set (order does not matter); a unit size compares its
/// first price, as the reconciliation does.
#[test]
fn keyword_order_agrees_and_a_unit_size_compares_its_first_price() {
    let (_dir, ex) = read_fixture();
    let mut v = intercessors();
    v["weapons"][0]["keywords"] = json!(["HEAVY", "ASSAULT"]);
    v["points"] = json!([
        {"models": 5, "points": 80},
        {"models": 10, "points": 160},
        {"models": 10, "points": 170}
    ]);
    let r = crosscheck(&ex, &[sheet(v.clone())]);
    assert!(r.disagreements.is_empty(), "{:#?}", r.disagreements);

    v["points"] = json!([
        {"models": 5, "points": 80},
        {"models": 10, "points": 150},
        {"models": 10, "points": 160}
    ]);
    let r = crosscheck(&ex, &[sheet(v)]);
    let d = disagreements(&r, "10e:space-marines:intercessor-squad");
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].field, "points[10 models]");
    assert_eq!(
        (d[0].ours.as_deref(), d[0].theirs.as_deref()),
        (Some("150"), Some("160"))
    );
    assert_eq!(d[0].category, Category::Version);
}

/// What only the export carries comes with each built datasheet as `ExportFacts`, and the
/// reasons use it: a footnote star on a characteristic, a conditional invulnerable save.
#[test]
fn export_facts_footnote_star_and_conditional_save_reach_the_reason() {
    let (_dir, ex) = read_fixture();
    let (built, facts) = ex
        .datasheets
        .iter()
        .find(|(_, f)| f.id == "000000001")
        .expect("the Warboss is built");
    assert!(facts
        .starred
        .contains(&("Warboss".to_string(), "T".to_string())));
    assert_eq!(facts.cost_lines.get(&1), Some(&2));
    assert!(built.invulnerable_save_condition.is_some());
    let mut v = warboss();
    v["models"][0]["T"] = json!("6");
    v["invulnerable_save"] = json!("5+");
    let r = crosscheck(&ex, &[sheet(v)]);
    let all = rows(&r);
    let reason = |f: &str| {
        (all.iter())
            .find(|d| d.field == f)
            .map(|d| d.reason.clone())
            .unwrap_or_default()
    };
    assert!(
        reason("models[Warboss].T").contains("footnote star"),
        "{r:#?}"
    );
    assert!(
        reason("invulnerable_save").contains("conditional"),
        "{r:#?}"
    );
    assert_eq!(rows(&r).len(), 2);
}

/// A weapon's keywords that differ follow its characteristics: changed together they are one
/// change since the export; changed alone they are an extraction error.
#[test]
fn weapon_keywords_follow_a_changed_characteristic() {
    let (_dir, ex) = read_fixture();
    let mut v = intercessors();
    v["weapons"][0]["keywords"] = json!(["ASSAULT"]);
    let r = crosscheck(&ex, &[sheet(v.clone())]);
    let all = rows(&r);
    let got: Vec<(&str, Category, &str)> = (all.iter())
        .map(|d| (d.field.as_str(), d.category, d.reason.as_str()))
        .collect();
    assert_eq!(
        got,
        [(
            "weapons[Bolt rifle].keywords",
            Category::DataError,
            "the keywords differ while the weapon's characteristics agree"
        )]
    );
    v["weapons"][0]["S"] = json!("5");
    let r = crosscheck(&ex, &[sheet(v)]);
    let all = rows(&r);
    let got: Vec<(&str, Category)> = (all.iter())
        .map(|d| (d.field.as_str(), d.category))
        .collect();
    assert_eq!(
        got,
        [
            ("weapons[Bolt rifle].S", Category::Version),
            ("weapons[Bolt rifle].keywords", Category::Version)
        ]
    );
    assert!(rows(&r)[1].reason.contains("characteristics changed too"));
}
