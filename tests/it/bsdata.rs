//! BattleScribe data (`records::bsdata`): hand-written catalogues (the data model's traps, one
//! each), malformed files (diagnostics, never a panic), and golden values read by hand from the
//! real catalogues of the corpus (`../shared/corpus/bsdata/wh40k-10e`).

use crate::util;
use cogitator::extract::Extracted;
use cogitator::model::*;
use cogitator::records::{bsdata, Group};
use cogitator::source::SourceFile;

const GST: &str = include_str!("../fixtures/bsdata/game.gst");
const NECRONS: &str = include_str!("../fixtures/bsdata/necrons.cat");

fn read(files: &[(&str, &[u8])]) -> Vec<Extracted> {
    let sources: Vec<SourceFile> = files
        .iter()
        .map(|(p, b)| SourceFile::new(*p, b.to_vec()))
        .collect();
    let refs: Vec<&SourceFile> = sources.iter().collect();
    bsdata::read(&Group {
        dir: "x",
        files: &refs,
    })
}

fn sheets(ex: &[Extracted]) -> Vec<&Datasheet> {
    ex.iter().flat_map(|e| e.datasheets.iter()).collect()
}

fn sheet<'a>(ex: &'a [Extracted], name: &str) -> &'a Datasheet {
    sheets(ex)
        .into_iter()
        .find(|d| d.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no datasheet {name}"))
}

/// The codes of every file's diagnostics, sorted.
pub(crate) fn codes(ex: &[Extracted]) -> Vec<String> {
    let mut c: Vec<String> = ex
        .iter()
        .flat_map(|e| e.diagnostics.iter().map(|d| d.code.to_string()))
        .collect();
    c.sort();
    c
}

fn model(d: &Datasheet) -> Vec<(Option<&str>, Vec<Option<&str>>)> {
    d.models
        .iter()
        .map(|m| {
            (
                m.name.as_deref(),
                ["M", "T", "Sv", "W", "Ld", "OC"]
                    .iter()
                    .map(|f| m.get(f))
                    .collect(),
            )
        })
        .collect()
}

fn points(d: &Datasheet) -> Vec<(u32, u32)> {
    d.points.iter().map(|p| (p.models, p.points)).collect()
}

fn weapon<'a>(d: &'a Datasheet, name: &str) -> &'a WeaponProfile {
    d.weapons
        .iter()
        .find(|w| w.name == name)
        .unwrap_or_else(|| panic!("no weapon {name} on {:?}", d.name))
}

fn fixture() -> Vec<Extracted> {
    read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/necrons.cat", NECRONS.as_bytes()),
    ])
}

#[test]
fn a_ctan_power_is_a_weapon_and_legends_is_stripped() {
    let ex = fixture();
    let d = sheet(&ex, "C'tan Shard of the Nightbringer");
    assert_eq!(d.id, "10e:necrons:ctan-shard-of-the-nightbringer");
    assert!(d.legends);
    assert!(!sheet(&ex, "Warriors").legends);
    assert_eq!(d.faction.as_deref(), Some("Necrons"));
    assert_eq!(
        model(d),
        [(
            Some("C'tan Shard of the Nightbringer"),
            vec![
                Some("8\""),
                Some("11"),
                Some("4+"),
                Some("12"),
                Some("6+"),
                Some("4")
            ]
        )]
    );
    let w = weapon(d, "Gaze of Death");
    assert_eq!(w.kind, WeaponType::Ranged);
    let vals: Vec<Option<&str>> = ["range", "A", "skill", "S", "AP", "D"]
        .iter()
        .map(|f| w.get(f))
        .collect();
    // `2` without `+` is the source's slip, kept for normalization.
    assert_eq!(
        vals,
        [
            Some("18\""),
            Some("D3"),
            Some("2"),
            Some("12"),
            Some("-3"),
            Some("D6")
        ]
    );
    assert_eq!(w.keywords, ["Lethal Hits", "Psychic"]);
    assert_eq!(d.weapons.len(), 1);
    assert_eq!(points(d), [(1, 295)]);
    assert_eq!(d.keywords, ["Monster", "C'tan Shard of the Nightbringer"]);
    assert_eq!(d.faction_keywords, ["Necrons"]);
    assert_eq!(d.invulnerable_save.as_deref(), Some("4+"));
    assert_eq!(
        d.invulnerable_save_condition.as_deref(),
        Some("This model has a 4+ invulnerable save against ranged attacks.")
    );
    let dmg = d.damaged.as_ref().expect("damaged");
    assert_eq!(dmg.name, "DAMAGED: 1-4 WOUNDS REMAINING");
    // Abilities: the Abilities profile with its tag, Deadly Demise with its parameter; Lethal
    // Hits is a weapon keyword's glossary; the conditionally hidden Deep Strike is kept (hidden
    // only when something is chosen); enhancement and Crusade content is not the datasheet.
    let ab: Vec<(&str, &str, Option<&str>, Vec<&str>)> = d
        .abilities
        .iter()
        .map(|a| {
            (
                a.name.as_str(),
                a.group.as_str(),
                a.parameter.as_deref(),
                a.tags.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        ab,
        [
            ("Necrodermis", "datasheet", None, vec!["Aura"]),
            ("Deadly Demise", "core", Some("D3"), vec![]),
            ("Deep Strike", "core", None, vec![]),
        ]
    );
    assert_eq!(d.sources[0].file, "x/necrons.cat");
    assert_eq!(d.sources[0].line, 15, "the selectionEntry's line");
    assert_eq!(w.at.line, 35, "the profile's line");
}

#[test]
fn a_composition_choice_is_one_choice_and_bands_are_reported_at_their_largest_count() {
    let ex = fixture();
    let d = sheet(&ex, "Warriors");
    // 10 or 20 models (one of two compositions, not 30); 100 points, 200 from 11 models; the
    // Boarding Actions price is conditional on the roster and not applied.
    assert_eq!(points(d), [(10, 100), (20, 200)]);
    assert_eq!(
        d.models.len(),
        1,
        "the same profile on both compositions is one"
    );
    assert_eq!(d.keywords, ["Battleline"]);
}

#[test]
fn a_per_model_cost_gives_the_smallest_and_largest_unit() {
    let ex = fixture();
    let d = sheet(&ex, "Scarabs");
    assert_eq!(points(d), [(3, 45), (6, 90)]);
    let w = weapon(d, "Feeder mandibles");
    assert_eq!(w.kind, WeaponType::Melee);
    assert!(w.keywords.is_empty(), "`-` is no keyword");
}

#[test]
fn upgrades_crucible_and_absent_links_are_not_datasheets() {
    let ex = fixture();
    let mut names: Vec<&str> = sheets(&ex)
        .iter()
        .filter_map(|d| d.name.as_deref())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["C'tan Shard of the Nightbringer", "Scarabs", "Warriors"]
    );
    // The absent library is one B009 counting the links it leaves unresolved (the absent
    // unit's); one B006 count.
    assert_eq!(codes(&ex), ["B006", "B009"]);
    let b006 = ex
        .iter()
        .flat_map(|e| &e.diagnostics)
        .find(|d| d.code == "B006")
        .expect("B006");
    assert!(b006.message.starts_with("1 [Crucible]"), "{}", b006.message);
}

#[test]
fn without_its_game_system_a_catalogue_is_read_only_when_its_system_id_is_known() {
    // 10th edition's own game system id says the edition without the game system file.
    let tenth = NECRONS.replace(
        "gameSystemId=\"sys-1\"",
        "gameSystemId=\"sys-352e-adc2-7639-d6a9\"",
    );
    let ex = read(&[("x/necrons.cat", tenth.as_bytes())]);
    assert!(
        !codes(&ex).contains(&"S010".to_string()),
        "{:?}",
        codes(&ex)
    );
    // Links into the absent game system and the absent library: counted by the B009.
    assert_eq!(codes(&ex), ["B006", "B009"]);
    assert_eq!(sheets(&ex).len(), 3);
    assert!(ex.iter().all(|e| e.edition == Some(Edition::Tenth)));
    // An id nothing says the edition of is not read (never read as 10th edition).
    let ex = read(&[("x/necrons.cat", NECRONS.as_bytes())]);
    assert_eq!(codes(&ex), ["S010"]);
    assert!(sheets(&ex).is_empty());
    assert!(ex[0].diagnostics[0].message.ends_with("not read"));
    // Nor is a game system whose name says an edition cogitator does not read, nor its
    // catalogues.
    let eighth = GST.replace("10th Edition", "8th Edition");
    let ex = read(&[
        ("x/game.gst", eighth.as_bytes()),
        ("x/necrons.cat", NECRONS.as_bytes()),
    ]);
    assert_eq!(codes(&ex), ["S010", "S010"]);
    assert!(sheets(&ex).is_empty());
}

#[test]
fn a_truncated_catalogue_keeps_what_precedes_and_says_so() {
    let cut = &NECRONS.as_bytes()[..NECRONS
        .find("<selectionEntry type=\"unit\" import=\"true\" name=\"Scarabs\"")
        .expect("cut point")
        + 40];
    let ex = read(&[("x/game.gst", GST.as_bytes()), ("x/necrons.cat", cut)]);
    assert!(codes(&ex).contains(&"B001".to_string()), "{:?}", codes(&ex));
    assert!(sheets(&ex)
        .iter()
        .any(|d| d.name.as_deref() == Some("Warriors")));
    // Every prefix of the file: no panic.
    for n in (0..NECRONS.len()).step_by(97) {
        let _ = read(&[
            ("x/game.gst", GST.as_bytes()),
            ("x/necrons.cat", &NECRONS.as_bytes()[..n]),
        ]);
    }
}

#[test]
fn a_wrong_root_is_not_read() {
    let ex = read(&[(
        "x/roster.cat",
        b"<?xml version=\"1.0\"?>\n<roster name=\"x\"><forces/></roster>\n",
    )]);
    assert_eq!(codes(&ex), ["B002"]);
    assert!(sheets(&ex).is_empty());
    let ex = read(&[(
        "x/bad.gst",
        b"<gameSystem id=\"s\" name=\"x 10th Edition\"><a></b></gameSystem>",
    )]);
    assert_eq!(codes(&ex), ["B001"]);
}

#[test]
fn an_unknown_profile_type_and_a_cycle_of_links_are_diagnostics() {
    let cat = r#"<?xml version="1.0"?>
<catalogue id="c" name="Xenos - Test" gameSystemId="sys-1" library="false">
  <entryLinks>
    <entryLink id="l0" name="Unit" targetId="u" type="selectionEntry"/>
  </entryLinks>
  <sharedSelectionEntries>
    <selectionEntry id="u" name="Unit" type="model">
      <profiles>
        <profile id="p" name="Mind War" typeName="Psychic Power">
          <characteristics>
            <characteristic name="Warp Charge">7</characteristic>
            <characteristic name="Range">18"</characteristic>
          </characteristics>
        </profile>
      </profiles>
      <entryLinks>
        <entryLink id="l1" name="A" targetId="ga" type="selectionEntryGroup"/>
      </entryLinks>
    </selectionEntry>
  </sharedSelectionEntries>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup id="ga" name="A">
      <entryLinks><entryLink id="l2" name="B" targetId="gb" type="selectionEntryGroup"/></entryLinks>
    </selectionEntryGroup>
    <selectionEntryGroup id="gb" name="B">
      <entryLinks><entryLink id="l3" name="A again" targetId="ga" type="selectionEntryGroup"/></entryLinks>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>
  <categoryEntries><categoryEntry id="cat-char" name="Character"/><categoryEntry id="cat-fly" name="Fly"/></categoryEntries>
</catalogue>
"#;
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/test.cat", cat.as_bytes()),
    ]);
    assert_eq!(codes(&ex), ["B004", "B005"]);
    let d = sheet(&ex, "Unit");
    assert!(d.weapons.is_empty() && d.abilities.is_empty());
    let cycle = ex
        .iter()
        .flat_map(|e| &e.diagnostics)
        .find(|d| d.code == "B004")
        .expect("B004");
    assert_eq!(cycle.line, Some(26), "the link that closes the cycle");
}

#[test]
fn horus_heresy_shared_rules_are_named_special_rules() {
    let gst = r#"<gameSystem id="hh" name="Horus Heresy (2022)">
  <categoryEntries>
    <categoryEntry id="c1" name="Primarch">
      <rules><rule id="r0" name="Primarch Unit-type"><description>All Primarchs are Independent Characters.</description></rule></rules>
    </categoryEntry>
  </categoryEntries>
  <sharedRules>
    <rule id="r1" name="Feel No Pain (X)"><description>When a model with this special rule suffers an unsaved Wound, roll a D6.</description></rule>
  </sharedRules>
</gameSystem>"#;
    let ex = read(&[("hh/hh.gst", gst.as_bytes())]);
    let rules: Vec<(&str, &str, Option<&str>, u32)> = ex
        .iter()
        .flat_map(|e| &e.rules)
        .map(|r| {
            (
                r.id.as_str(),
                r.kind.as_str(),
                r.name.as_deref(),
                r.occurrences[0].line,
            )
        })
        .collect();
    assert_eq!(
        rules,
        [
            (
                "hh2:unit_type:primarch-unit-type",
                "unit_type",
                Some("Primarch Unit-type"),
                4
            ),
            (
                "hh2:special_rule:feel-no-pain",
                "special_rule",
                Some("Feel No Pain (X)"),
                8
            ),
        ]
    );
    assert_eq!(ex[0].edition, Some(Edition::HorusHeresy2));
}

// ---------------------------------------------------------------------------------------------
// The real catalogues: values read by hand in the XML.

fn corpus() -> Option<Vec<Extracted>> {
    let dir = util::corpus()?.join("bsdata/wh40k-10e");
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .ok()?
        .flatten()
        .map(|e| {
            let p = e.path();
            (
                format!(
                    "wh40k-10e/{}",
                    p.file_name().unwrap_or_default().to_string_lossy()
                ),
                std::fs::read(&p).unwrap_or_default(),
            )
        })
        .collect();
    files.sort();
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    Some(read(&refs))
}

/// A `Transport` profile (or, on the Banehammer, an `Abilities` profile named `Transport`) is
/// the TRANSPORT block: a named box in `special_rules` with the element's line, its markup
/// made plain; not an ability.
#[test]
fn a_transport_profile_is_the_transport_block() {
    let Some(ex) = corpus() else { return };
    let transport = |name: &str| -> Vec<(String, String, u32)> {
        sheet(&ex, name)
            .special_rules
            .iter()
            .filter(|r| r.name == "TRANSPORT")
            .map(|r| (r.text.clone(), r.at.file.clone(), r.at.line))
            .collect()
    };
    // `Imperium - Grey Knights.cat` line 3275: `This model has a transport capacity of 12
    // ^^**Grey Knights Infantry^^** models. It cannot transport ^^**Terminator^^** models.`
    assert_eq!(
        transport("Rhino"),
        [(
            "This model has a transport capacity of 12 GREY KNIGHTS INFANTRY models. It cannot \
             transport TERMINATOR models."
                .to_string(),
            "wh40k-10e/Imperium - Grey Knights.cat".to_string(),
            3275
        )]
    );
    // `Imperium - Astra Militarum - Library.cat` line 927, an Abilities profile: the source's
    // `**^^Astra Militarum Infantry models^^**` slip (`models` inside the keyword) kept.
    let b = transport("Banehammer");
    assert_eq!(b.len(), 1, "{b:?}");
    assert!(
        b[0].0.starts_with("This model has a transport capacity of 26 ASTRA MILITARUM INFANTRY MODELS. Each OGRYN model"),
        "{b:?}"
    );
    assert_eq!(b[0].2, 927);
    assert!(sheet(&ex, "Banehammer")
        .abilities
        .iter()
        .all(|a| !a.name.eq_ignore_ascii_case("transport")));
    // The profile at line 22689, its capacity (line 22691) with non-breaking spaces beside
    // spaces (`Militarum\u{a0} Infantry`): one space.
    let a = transport("Aquila Lander");
    assert_eq!(a.len(), 1, "{a:?}");
    assert!(
        a[0].0.starts_with("This model has a transport capacity of 12 Astra Militarum Infantry models. Each Heavy Weapons Team model and Veteran"),
        "{a:?}"
    );
    assert_eq!(a[0].2, 22689);
}

#[test]
fn corpus_datasheets_read_by_hand() {
    let Some(ex) = corpus() else { return };
    let n = |f: &str| {
        sheets(&ex)
            .iter()
            .filter(|d| d.faction.as_deref() == Some(f))
            .count()
    };
    // Chaos Daemons: all 68 units come from the library (71 roots, 3 of them [Crucible]).
    assert_eq!(n("Chaos Daemons"), 68);
    // Grey Knights (Imperium - Grey Knights.cat)
    let d = sheet(&ex, "Brother-Captain");
    assert_eq!(d.id, "10e:grey-knights:brother-captain");
    assert_eq!(
        model(d),
        [(
            Some("Brother-Captain"),
            vec![
                Some("5\""),
                Some("5"),
                Some("2+"),
                Some("6"),
                Some("6+"),
                Some("1")
            ]
        )]
    );
    assert_eq!(points(d), [(1, 90)]);
    let mut k = d.keywords.clone();
    k.sort();
    assert_eq!(
        k,
        [
            "Brother-Captain",
            "Character",
            "Imperium",
            "Infantry",
            "Psyker",
            "Terminator"
        ]
    );
    assert_eq!(d.faction_keywords, ["Grey Knights"]);

    // A hidden root (shown only in some rosters) is still a datasheet.
    let d = sheet(&ex, "Land Raider Banisher");
    assert_eq!(
        model(d)[0].1,
        [
            Some("10\""),
            Some("12"),
            Some("2+"),
            Some("16"),
            Some("6+"),
            Some("5")
        ]
    );
    assert_eq!(points(d), [(1, 255)]);

    let d = sheet(&ex, "Strike Squad");
    assert_eq!(
        model(d)[0].1,
        [
            Some("6\""),
            Some("4"),
            Some("2+"),
            Some("2"),
            Some("6+"),
            Some("2")
        ]
    );
    // 120 points, `set 240` from 6 models; 1 Justicar + 4-9 Grey Knights.
    assert_eq!(points(d), [(5, 120), (10, 240)]);
    // The `4-9 Grey Knights` group (min 4, max 9) of Grey Knights and up to 1 Grey Knight with
    // Heavy Weapon (`set 2` from 10 models), and the Justicar group.
    assert_eq!(
        d.unit_composition,
        [
            "4-9 models: 0-9 Grey Knight, 0-2 Grey Knight with Heavy Weapon",
            "1 Justicar"
        ]
    );
    assert_eq!(
        d.wargear_options,
        ["Grey Knight with Heavy Weapon › Weapon Choice (1): Incinerator, Psycannon, Psilencer"]
    );
    let w = weapon(d, "Nemesis force weapon");
    assert_eq!(w.kind, WeaponType::Melee);
    let vals: Vec<Option<&str>> = ["range", "A", "skill", "S", "AP", "D"]
        .iter()
        .map(|f| w.get(f))
        .collect();
    assert_eq!(
        vals,
        [
            Some("Melee"),
            Some("3"),
            Some("3+"),
            Some("6"),
            Some("-2"),
            Some("2")
        ]
    );
    assert_eq!(w.keywords, ["Psychic"]);
    let scouts = d
        .abilities
        .iter()
        .find(|a| a.name == "Scouts")
        .expect("Scouts");
    assert_eq!(
        (scouts.group.as_str(), scouts.parameter.as_deref()),
        ("core", Some("6\""))
    );

    let d = sheet(&ex, "Grey Knights Thunderhawk Gunship");
    // `20+"` is the source's spelling, kept.
    assert_eq!(
        model(d)[0].1,
        [
            Some("20+\""),
            Some("12"),
            Some("2+"),
            Some("30"),
            Some("6+"),
            Some("0")
        ]
    );
    assert_eq!(points(d), [(1, 805)]);
    assert_eq!(
        d.damaged.as_ref().map(|x| x.name.as_str()),
        Some("DAMAGED: 1-10 WOUNDS REMAINING")
    );

    // Chaos Daemons (library): a Legends unit.
    let d = sheet(&ex, "Giant Chaos Spawn");
    assert_eq!(d.id, "10e:chaos-daemons:giant-chaos-spawn");
    assert!(d.legends);
    assert_eq!(
        model(d)[0].1,
        [
            Some("10\""),
            Some("8"),
            Some("4+"),
            Some("10"),
            Some("7+"),
            Some("3")
        ]
    );
    assert_eq!(points(d), [(1, 130)]);
    let mut k = d.keywords.clone();
    k.sort();
    assert_eq!(
        k,
        ["Chaos", "Giant Chaos Spawn", "Monster", "Shadow Legion"]
    );
    assert_eq!(d.faction_keywords, ["Legiones Daemonica"]);
    assert!(d.sources[0]
        .file
        .ends_with("Chaos - Chaos Daemons Library.cat"));

    let d = sheet(&ex, "Bloodletters");
    assert_eq!(
        model(d)[0].1,
        [
            Some("8\""),
            Some("4"),
            Some("7+"),
            Some("1"),
            Some("7+"),
            Some("2")
        ]
    );
    assert_eq!(d.points.last().map(|p| p.points), Some(110));

    // Tyranids: bands and a per-model cost.
    let d = sheet(&ex, "Termagants");
    assert_eq!(points(d), [(10, 60), (20, 120)]);
    let d = sheet(&ex, "Carnifexes");
    assert_eq!(points(d), [(1, 90), (2, 180)]);
    assert_eq!(
        model(d)[0].1,
        [
            Some("8\""),
            Some("9"),
            Some("2+"),
            Some("8"),
            Some("8+"),
            Some("3")
        ]
    );

    // Astra Militarum (library entries linked from the main catalogue).
    let d = sheet(&ex, "Cadian Shock Troops");
    assert_eq!(d.id, "10e:astra-militarum:cadian-shock-troops");
    assert_eq!(points(d), [(10, 65), (20, 120)]);
    let mut k = d.keywords.clone();
    k.sort();
    assert_eq!(
        k,
        [
            "Battleline",
            "Cadian",
            "Cadian Shock Troops",
            "Grenades",
            "Imperium",
            "Infantry",
            "Platoon",
            "Regiment"
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Reconciliation figures: BSData vs Wahapedia's export and pages, per faction, check by check.
// Printed with `cargo test --test it bsdata::reconciliation -- --nocapture`.

use cogitator::text::fold::fold_for_compare as fold;
use std::collections::{BTreeMap, BTreeSet};

/// Agreeing checks and all checks, per field.
#[derive(Default, Debug, Clone)]
struct Tally(BTreeMap<&'static str, (usize, usize)>, Vec<String>);

impl Tally {
    fn add(&mut self, field: &'static str, agree: bool) {
        let e = self.0.entry(field).or_default();
        e.0 += usize::from(agree);
        e.1 += 1;
    }
    /// A check, with what differs when it fails (listed under `COGITATOR_BS_DIFF=1`).
    fn check(&mut self, field: &'static str, agree: bool, what: impl FnOnce() -> String) {
        self.add(field, agree);
        if !agree && std::env::var_os("COGITATOR_BS_DIFF").is_some() {
            self.1.push(format!("{field}: {}", what()));
        }
    }
    fn total(&self) -> (usize, usize) {
        self.0
            .values()
            .fold((0, 0), |(a, b), (x, y)| (a + x, b + y))
    }
    /// The checks of the issue's acceptance (model profiles, weapons, keywords, points).
    fn core(&self) -> (usize, usize) {
        self.0
            .iter()
            .filter(|(f, _)| matches!(**f, "model" | "weapon" | "keyword" | "points"))
            .fold((0, 0), |(a, b), (_, (x, y))| (a + x, b + y))
    }
}

/// Checks of one datasheet against another reading: every model characteristic (profiles by
/// name, else by position), every weapon characteristic and keyword list (weapons by name; a
/// weapon the other lacks fails its checks), every keyword, every points tier, every ability
/// name.
fn compare(a: &Datasheet, b: &Datasheet, t: &mut Tally) {
    let unit = a.name.as_deref().unwrap_or("");
    for (i, m) in a.models.iter().enumerate() {
        let other = b
            .models
            .iter()
            .find(|o| o.name.as_deref().map(fold) == m.name.as_deref().map(fold))
            .or_else(|| b.models.get(i))
            // One profile for the whole unit, named after it (`Zoanthropes`), against one per
            // model (`Neurothrope`, `Zoanthrope`): the unit's profile is every model's.
            .or_else(|| b.models.first().filter(|_| b.models.len() == 1));
        for f in ["M", "T", "Sv", "W", "Ld", "OC"] {
            t.check("model", other.is_some_and(|o| o.get(f) == m.get(f)), || {
                format!(
                    "{unit} › {:?} {f}: {:?} vs {:?}",
                    m.name,
                    m.get(f),
                    other.map(|o| (o.name.clone(), o.get(f).map(str::to_string)))
                )
            });
        }
    }
    for w in &a.weapons {
        // By name and kind (Ogryns' ripper gun is a ranged and a melee weapon), else by name.
        let other = b
            .weapons
            .iter()
            .find(|o| fold(&o.name) == fold(&w.name) && o.kind == w.kind)
            .or_else(|| b.weapons.iter().find(|o| fold(&o.name) == fold(&w.name)));
        for f in ["range", "A", "skill", "S", "AP", "D"] {
            t.check(
                "weapon",
                other.is_some_and(|o| o.get(f) == w.get(f)),
                || match other {
                    None => format!("{unit} › {} (absent from the other)", w.name),
                    Some(o) => format!("{unit} › {} {f}: {:?} vs {:?}", w.name, w.get(f), o.get(f)),
                },
            );
        }
        let kw = |x: &WeaponProfile| -> BTreeSet<String> {
            x.keywords.iter().map(|k| fold(k)).collect()
        };
        t.check("weapon", other.is_some_and(|o| kw(o) == kw(w)), || {
            format!(
                "{unit} › {} keywords: {:?} vs {:?}",
                w.name,
                kw(w),
                other.map(kw)
            )
        });
    }
    let kws = |d: &Datasheet| -> BTreeSet<String> { d.keywords.iter().map(|k| fold(k)).collect() };
    let (ka, kb) = (kws(a), kws(b));
    for k in ka.union(&kb) {
        t.check("keyword", ka.contains(k) && kb.contains(k), || {
            format!(
                "{unit} › keyword {k} only in {}",
                if ka.contains(k) {
                    "BSData"
                } else {
                    "the other"
                }
            )
        });
    }
    for p in &a.points {
        // The value, not where each side read it.
        let same = b
            .points
            .iter()
            .any(|q| (q.models, q.points) == (p.models, p.points));
        t.check("points", same, || {
            format!("{unit} › points {p:?} vs {:?}", b.points)
        });
    }
    let abs =
        |d: &Datasheet| -> BTreeSet<String> { d.abilities.iter().map(|x| fold(&x.name)).collect() };
    let (aa, ab) = (abs(a), abs(b));
    for x in aa.union(&ab) {
        t.check("ability", aa.contains(x) && ab.contains(x), || {
            format!(
                "{unit} › ability {x} only in {}",
                if aa.contains(x) {
                    "BSData"
                } else {
                    "the other"
                }
            )
        });
    }
    t.check(
        "invulnerable",
        a.invulnerable_save == b.invulnerable_save,
        || {
            format!(
                "{unit} › invulnerable {:?} vs {:?}",
                a.invulnerable_save, b.invulnerable_save
            )
        },
    );
}

fn pct((a, b): (usize, usize)) -> f64 {
    if b == 0 {
        100.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

#[test]
fn reconciliation_with_the_export_and_the_pages() {
    let Some(c) = util::corpus() else { return };
    let opts = cogitator::pipeline::Options {
        skip_validation: true,
        ..Default::default()
    };
    let run = |p: &[&str]| {
        let paths: Vec<std::path::PathBuf> = p.iter().map(|x| c.join(x)).collect();
        cogitator::ingest(&paths, &opts).expect("ingest")
    };
    let bs = run(&["bsdata/wh40k-10e"]);
    let export = run(&["wahapedia-csv/2025-11-14"]);
    let pages = run(&["wahapedia-html"]);
    let by_id = |ds: &Dataset| -> BTreeMap<String, Datasheet> {
        ds.datasheets
            .iter()
            .map(|d| (d.id.clone(), d.clone()))
            .collect()
    };
    let (e, h) = (by_id(&export), by_id(&pages));
    let mut rows = Vec::new();
    for faction in [
        "Astra Militarum",
        "Chaos Daemons",
        "Grey Knights",
        "Tyranids",
    ] {
        let mine: Vec<&Datasheet> = bs
            .datasheets
            .iter()
            .filter(|d| d.faction.as_deref() == Some(faction))
            .collect();
        let mut vs_export = Tally::default();
        let mut vs_pages = Tally::default();
        let (mut in_export, mut in_pages, mut all_three, mut three_checks) =
            (0, 0, 0, Tally::default());
        for d in &mine {
            if let Some(x) = e.get(&d.id) {
                in_export += 1;
                compare(d, x, &mut vs_export);
            }
            if let Some(y) = h.get(&d.id) {
                in_pages += 1;
                compare(d, y, &mut vs_pages);
                if let Some(x) = e.get(&d.id) {
                    all_three += 1;
                    // A check all three agree on: it agrees BSData vs export and vs pages.
                    let (mut t1, mut t2) = (Tally::default(), Tally::default());
                    compare(d, x, &mut t1);
                    compare(d, y, &mut t2);
                    for (f, (a1, n1)) in &t1.0 {
                        let a2 = t2.0.get(f).map_or(0, |v| v.0);
                        let e3 = three_checks.0.entry(f).or_default();
                        e3.0 += (*a1).min(a2);
                        e3.1 += n1;
                    }
                }
            }
        }
        eprintln!(
            "{faction}: {} BSData datasheets; {in_export} merge with the export ({:.1}% of checks agree, {:.1}% of model/weapon/keyword/points checks: {}); {in_pages} with the pages ({:.1}%); {all_three} in all three ({:.1}% of checks agree in all three)",
            mine.len(),
            pct(vs_export.total()),
            pct(vs_export.core()),
            vs_export
                .0
                .iter()
                .map(|(f, v)| format!("{f} {:.1}%", pct(*v)))
                .collect::<Vec<_>>()
                .join(", "),
            pct(vs_pages.total()),
            pct(three_checks.total()),
        );
        for line in &vs_export.1 {
            eprintln!("  {faction} vs export: {line}");
        }
        rows.push((
            faction,
            mine.len(),
            in_export,
            pct(vs_export.total()),
            pct(vs_export.core()),
        ));
    }
    // The figures of docs/bsdata.md (94.2–97.5% of all checks): every remaining difference is a
    // naming, version or one-side data difference; a reading error shows here.
    for (faction, n, merged, agree, core) in rows {
        assert!(
            merged * 10 >= n * 9,
            "{faction}: {merged} of {n} merge with the export"
        );
        assert!(
            agree >= 94.0,
            "{faction}: {agree:.1}% agree with the export"
        );
        assert!(
            core >= 94.0,
            "{faction}: {core:.1}% of model/weapon/keyword/points checks agree with the export"
        );
    }
}

#[test]
fn zipped_battlescribe_data_is_named_and_skipped() {
    let ds = util::ingest_in_memory(&[(
        "x/Necrons.catz",
        b"PK\x03\x04\x14\x00\x00\x00rest".as_slice(),
    )]);
    let d: Vec<&str> = ds.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(ds.manifest.inputs[0].status, InputStatus::Skipped);
    assert!(
        d.iter().any(|m| m.contains("zipped BattleScribe data")),
        "{d:?}"
    );
}

#[test]
fn the_pipeline_reads_a_battlescribe_folder_and_merges_it_by_id() {
    let ds = util::ingest_in_memory(&[
        ("bs/game.gst", GST.as_bytes()),
        ("bs/necrons.cat", NECRONS.as_bytes()),
    ]);
    for i in &ds.manifest.inputs {
        assert_eq!(i.status, InputStatus::Ok, "{}", i.file);
        assert_eq!(i.format, "xml");
    }
    let ids: Vec<&str> = ds.datasheets.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "10e:necrons:ctan-shard-of-the-nightbringer",
            "10e:necrons:scarabs",
            "10e:necrons:warriors"
        ]
    );
    // Normalization respells the source's slips: `2` → `2+`.
    let w = &ds.datasheets[0].weapons[0];
    assert_eq!(w.get("skill"), Some("2+"));
    // The abilities link their rules like every other source's.
    let dd = ds.datasheets[0]
        .abilities
        .iter()
        .find(|a| a.name == "Deadly Demise")
        .expect("Deadly Demise");
    assert_eq!(dd.rule_id.as_deref(), Some("10e:core:deadly-demise"));
}

#[test]
fn a_points_condition_on_one_models_count() {
    // 70 points; 140 from 5 Immortals (the Sergeant is always there: 6 models).
    let cat = r#"<catalogue id="c" name="Xenos - Test" gameSystemId="sys-1" library="false">
  <selectionEntries>
    <selectionEntry id="u" name="Immortals" type="unit">
      <costs><cost name="pts" typeId="pts-1" value="70"/></costs>
      <modifiers>
        <modifier type="set" value="140" field="pts-1">
          <conditions><condition type="atLeast" value="5" field="selections" scope="u" childId="imm"/></conditions>
        </modifier>
      </modifiers>
      <selectionEntries>
        <selectionEntry id="sgt" name="Immortal Sergeant" type="model">
          <constraints>
            <constraint type="min" value="1" field="selections" scope="parent" id="k1"/>
            <constraint type="max" value="1" field="selections" scope="parent" id="k2"/>
          </constraints>
        </selectionEntry>
        <selectionEntry id="imm" name="Immortal" type="model">
          <constraints>
            <constraint type="min" value="4" field="selections" scope="parent" id="k3"/>
            <constraint type="max" value="9" field="selections" scope="parent" id="k4"/>
          </constraints>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>"#;
    let ex = read(&[("x/game.gst", GST.as_bytes()), ("x/t.cat", cat.as_bytes())]);
    assert_eq!(points(sheet(&ex, "Immortals")), [(5, 70), (10, 140)]);
}

/// Every characteristic of a weapon, in order (`range A skill S AP D`), and its keywords.
fn weapon_line(d: &Datasheet, name: &str) -> (WeaponType, Vec<Option<String>>, Vec<String>) {
    let w = weapon(d, name);
    (
        w.kind,
        ["range", "A", "skill", "S", "AP", "D"]
            .iter()
            .map(|f| w.get(f).map(str::to_string))
            .collect(),
        w.keywords.clone(),
    )
}

fn line(v: [&str; 6]) -> Vec<Option<String>> {
    v.iter().map(|s| Some(s.to_string())).collect()
}

fn sorted(v: &[String]) -> Vec<&str> {
    let mut k: Vec<&str> = v.iter().map(String::as_str).collect();
    k.sort();
    k
}

#[test]
fn corpus_units_read_by_hand_completely() {
    let Some(ex) = corpus() else { return };

    // Grey Knights, `Imperium - Grey Knights.cat` lines 10-200: a `model` root; five weapons
    // through links (the storm bolter choice group and the Nemesis force weapon), the
    // invulnerable save by an infoLink to a shared profile, the Leader's units.
    let d = sheet(&ex, "Brother-Captain");
    let names: Vec<&str> = d.weapons.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Storm bolter",
            "Incinerator",
            "Psycannon",
            "Psilencer",
            "Nemesis force weapon"
        ]
    );
    use WeaponType::{Melee, Ranged};
    assert_eq!(
        weapon_line(d, "Storm bolter"),
        (
            Ranged,
            line(["24\"", "2", "2+", "4", "0", "1"]),
            vec!["Rapid Fire 2".to_string()]
        )
    );
    assert_eq!(
        weapon_line(d, "Incinerator"),
        (
            Ranged,
            line(["12\"", "D6", "N/A", "6", "-1", "1"]),
            vec!["Ignores Cover".to_string(), "Torrent".to_string()]
        )
    );
    assert_eq!(
        weapon_line(d, "Psycannon"),
        (
            Ranged,
            line(["24\"", "3", "2+", "8", "-1", "2"]),
            vec!["Psychic".to_string()]
        )
    );
    assert_eq!(
        weapon_line(d, "Psilencer"),
        (
            Ranged,
            line(["24\"", "6", "2+", "5", "0", "1"]),
            vec![
                "Precision".to_string(),
                "Psychic".to_string(),
                "Sustained Hits 1".to_string()
            ]
        )
    );
    assert_eq!(
        weapon_line(d, "Nemesis force weapon"),
        (
            Melee,
            line(["Melee", "4", "2+", "6", "-2", "2"]),
            vec!["Psychic".to_string()]
        )
    );
    assert_eq!(d.invulnerable_save.as_deref(), Some("4+"));
    assert_eq!(d.leads, ["Brotherhood Terminator Squad", "Paladin Squad"]);
    assert_eq!(d.unit_composition, ["1 Brother-Captain"]);
    // The `Storm Bolter` group: min 1, max 1 of four weapons.
    assert_eq!(
        d.wargear_options,
        ["Storm Bolter (1): Storm bolter, Incinerator, Psycannon, Psilencer"]
    );
    // `Sustained Hits` and `Precision` are the Psilencer's keywords, not abilities; the
    // Warlord and the enhancements linked into the unit are not the datasheet.
    let ab: Vec<(&str, &str)> = d
        .abilities
        .iter()
        .map(|a| (a.name.as_str(), a.group.as_str()))
        .collect();
    assert_eq!(
        ab,
        [
            ("Leader", "datasheet"),
            ("Hammerhand", "datasheet"),
            ("Eye of Judgement", "datasheet"),
            ("Leader", "core"),
            ("Deep Strike", "core"),
            ("Gate of Infinity", "faction")
        ]
    );
    assert!(!d.keywords.iter().any(|k| k == "Warlord"));

    // Tyranids, `Tyranids.cat` lines 4266-4400: a cost per model (50 for each of 1-3
    // Biovores), Deadly Demise with the `1` its link appends.
    let d = sheet(&ex, "Biovores");
    assert_eq!(points(d), [(1, 50), (3, 150)]);
    assert_eq!(d.unit_composition, ["1-3 Biovore"]);
    // Its `Wargear` group has no `max`: both weapons are every Biovore's, no option.
    assert!(d.wargear_options.is_empty());
    assert_eq!(
        model(d),
        [(
            Some("Biovore"),
            vec![
                Some("5\""),
                Some("6"),
                Some("3+"),
                Some("5"),
                Some("8+"),
                Some("1")
            ]
        )]
    );
    assert_eq!(d.weapons.len(), 2);
    assert_eq!(
        weapon_line(d, "Spore mine launcher"),
        (
            Ranged,
            line(["48\"", "D3", "4+", "6", "-1", "2"]),
            ["Blast", "Devastating Wounds", "Heavy", "Indirect Fire"]
                .map(String::from)
                .to_vec()
        )
    );
    assert_eq!(
        weapon_line(d, "Chitin-barbed limbs"),
        (Melee, line(["Melee", "2", "4+", "5", "0", "1"]), vec![])
    );
    assert_eq!(
        sorted(&d.keywords),
        ["Biovore", "Great Devourer", "Infantry"]
    );
    assert_eq!(d.faction_keywords, ["Tyranids"]);
    let dd = d
        .abilities
        .iter()
        .find(|a| a.name == "Deadly Demise")
        .expect("Deadly Demise");
    assert_eq!(
        (dd.group.as_str(), dd.parameter.as_deref()),
        ("core", Some("1"))
    );

    // Tyranids, `Tyranids.cat` lines 9192-9240 and 9335: the spawned unit's reference
    // datasheet, hidden unless the army has Biovores; no points cost of its own.
    let d = sheet(&ex, "Spore Mines (Biovore)");
    assert_eq!(d.id, "10e:tyranids:spore-mines-biovore");
    assert!(d.points.is_empty());
    assert!(d.weapons.is_empty());
    assert_eq!(d.unit_composition, ["1-3 Spore Mine"]);
    assert_eq!(
        model(d),
        [(
            Some("Spore Mine"),
            vec![
                Some("4\""),
                Some("1"),
                Some("7+"),
                Some("1"),
                Some("8+"),
                Some("0")
            ]
        )]
    );
    assert_eq!(
        sorted(&d.keywords),
        ["Beast", "Fly", "Great Devourer", "Reference", "Spore Mines"]
    );
    let ab: Vec<&str> = d.abilities.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        ab,
        ["Floating Death", "Bio-minefield", "Deep Strike", "Synapse"]
    );

    // Chaos Daemons, `Chaos - Chaos Daemons Library.cat` lines 12794-13060: a Legends unit;
    // its conditional T/M modifiers (an allegiance chosen) and the conditional 4+ save are not
    // applied; the Warp Rifts rule it links is hidden until its detachment is chosen.
    let d = sheet(&ex, "Giant Chaos Spawn");
    assert!(d.legends);
    assert_eq!(d.weapons.len(), 1);
    assert_eq!(
        weapon_line(d, "Churning fangs and claws"),
        (
            Melee,
            line(["Melee", "D6+6", "3+", "10", "-1", "2"]),
            vec![]
        )
    );
    assert_eq!(d.invulnerable_save.as_deref(), Some("5+"));
    assert_eq!(d.unit_composition, ["1 Giant Chaos Spawn"]);
    let fnp = d
        .abilities
        .iter()
        .find(|a| a.name == "Feel No Pain")
        .expect("Feel No Pain");
    assert_eq!(fnp.parameter.as_deref(), Some("5+"));
    assert!(!d.abilities.iter().any(|a| a.name == "Warp Rifts"));

    // Tyranids, `Tyranids.cat` lines 3524-3730: 45 points, `set 90` above 11 models; 1
    // Nodebeast (2 once there are 20 Neurogaunts: a modifier of its max constraint) and 10-20
    // Neurogaunts: the bands are 11 and 22 models.
    let d = sheet(&ex, "Neurogaunts");
    assert_eq!(points(d), [(11, 45), (22, 90)]);
    assert_eq!(
        d.unit_composition,
        ["1-2 Neurogaunt Nodebeast", "10-20 Neurogaunt"]
    );

    // Astra Militarum, `Imperium - Astra Militarum - Library.cat` lines 2597-2640: a unit
    // composition group choosing one of two compositions (1 Sergeant and 9 Shock Troopers, or
    // 2 and 18) is one line, and one choice for the points.
    let d = sheet(&ex, "Cadian Shock Troops");
    assert_eq!(points(d), [(10, 65), (20, 120)]);
    assert_eq!(d.unit_composition.len(), 1);
    let alts: Vec<&str> = d.unit_composition[0].split(" or ").collect();
    assert_eq!(alts.len(), 2);
    assert!(alts[0].starts_with("1 Shock Trooper Sergeant, 6-9 Shock Trooper, 0-1 Shock Trooper w/ Vox Caster, 0-2 models:"), "{}", alts[0]);
    assert!(alts[1].starts_with("2 Shock Trooper Sergeant, 12-18 Shock Trooper, 0-2 Shock Trooper w/ Vox Caster, 0-4 models:"), "{}", alts[1]);

    // Astra Militarum, lines 2073-2260: the Cadian Commander's own categories (`Character`,
    // `Officer`) beyond the unit's; the Leader text's one unit.
    let d = sheet(&ex, "Cadian Command Squad");
    assert!(d.keywords.iter().any(|k| k == "Officer"));
    let mk: Vec<(&str, Vec<&str>)> = d
        .model_keywords
        .iter()
        .map(|m| {
            (
                m.model.as_str(),
                m.keywords.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(mk, [("Cadian Commander", vec!["Officer"])]);
    assert_eq!(d.leads, ["Cadian Shock Troops"]);
    assert_eq!(
        sheet(&ex, "Cadian Castellan").leads,
        ["Cadian Shock Troops", "Kasrkin"]
    );
}

#[test]
fn corpus_enhancements_and_detachments_read_by_hand() {
    let Some(ex) = corpus() else { return };
    let enh: Vec<&Enhancement> = ex.iter().flat_map(|e| &e.enhancements).collect();
    let find = |id: &str| {
        enh.iter()
            .find(|e| e.id == id)
            .unwrap_or_else(|| panic!("no enhancement {id}"))
    };
    // `Imperium - Grey Knights.cat` line 9538: in the `Warpbane Task Force Enhancements`
    // subgroup, 10 points.
    let e = find("10e:grey-knights:warpbane-task-force:paragon-of-sanctity");
    assert_eq!(e.name.as_deref(), Some("Paragon of Sanctity"));
    assert_eq!(e.points, Some(10));
    assert_eq!(e.detachment.as_deref(), Some("Warpbane Task Force"));
    // The XML prints `**^^Grey Knights^^** model only.`: bold small capitals, a keyword.
    assert!(e
        .text
        .starts_with("GREY KNIGHTS model only. Once per battle"));
    assert_eq!(e.sources[0].line, 9538);
    // `Chaos - Chaos Daemons Library.cat` line 15554: directly in `Enhancements`, hidden until
    // the Daemonic Incursion detachment (line 349) is chosen; 20 points.
    let e = find("10e:chaos-daemons:daemonic-incursion:argath-the-king-of-blades");
    assert_eq!(e.name.as_deref(), Some("A'rgath, the King of Blades"));
    assert_eq!(e.points, Some(20));
    assert_eq!(e.faction.as_deref(), Some("Chaos Daemons"));
    // The game system's Boarding Actions enhancements are no faction's.
    assert!(!enh
        .iter()
        .any(|e| e.name.as_deref() == Some("Expert Breacher")));

    // `Library - Tyranids.cat` line 6537: the Invasion Fleet detachment and its rule.
    let dets: Vec<&Detachment> = ex.iter().flat_map(|e| &e.detachments).collect();
    let d = dets
        .iter()
        .find(|d| d.id == "10e:tyranids:invasion-fleet")
        .expect("Invasion Fleet");
    assert_eq!(d.rules, ["10e:tyranids/detachment:hyper-adaptions"]);
    assert_eq!(d.enhancements.len(), 4);
    let r = ex
        .iter()
        .flat_map(|e| &e.rules)
        .find(|r| r.id == "10e:tyranids/detachment:hyper-adaptions")
        .expect("Hyper Adaptions");
    assert_eq!(r.kind, "detachment");
    assert_eq!(r.occurrences[0].line, 6542);
    assert!(r.text.starts_with(
        "At the start of the first battle round, select one of the following Hyper-adaptations"
    ));
}

/// A hand-written catalogue: a squad whose leader model has its own keywords and whose
/// nodebeast count grows by a modifier of its `max` constraint; a Leader; the detachment
/// choice with its rule; enhancements in a detachment's subgroup and behind a `set hidden`
/// modifier waiting for a detachment.
const ARMY: &str = r#"<?xml version="1.0"?>
<catalogue id="cat-x" name="Xenos - Test" revision="7" gameSystemId="sys-1" gameSystemRevision="1" library="false">
  <entryLinks>
    <entryLink id="l1" name="Swarm" targetId="u-swarm" type="selectionEntry"/>
    <entryLink id="l2" name="Prime" targetId="u-prime" type="selectionEntry"/>
    <entryLink id="l3" name="Detachment" targetId="det" type="selectionEntry"/>
  </entryLinks>
  <sharedSelectionEntries>
    <selectionEntry id="u-swarm" name="Swarm" type="unit">
      <costs><cost name="pts" typeId="pts-1" value="40"/></costs>
      <modifiers>
        <modifier type="set" value="80" field="pts-1">
          <conditions><condition type="greaterThan" value="11" field="selections" scope="u-swarm" childId="model"/></conditions>
        </modifier>
      </modifiers>
      <categoryLinks>
        <categoryLink id="c1" name="Infantry" targetId="cat-inf"/>
        <categoryLink id="c2" name="Faction: Test" targetId="cat-f"/>
      </categoryLinks>
      <infoGroups>
        <infoGroup id="ig" name="Frenzy">
          <profiles>
            <profile id="p-fr" name="Frenzy" typeName="Abilities">
              <characteristics><characteristic name="Description">Melee weapons of this unit have [LETHAL HITS].</characteristic></characteristics>
            </profile>
          </profiles>
          <infoLinks><infoLink id="il1" name="Lethal Hits" type="rule" targetId="r-lh"/></infoLinks>
        </infoGroup>
      </infoGroups>
      <selectionEntries>
        <selectionEntry id="m-node" name="Node" type="model">
          <constraints>
            <constraint type="min" value="1" field="selections" scope="parent" id="k1"/>
            <constraint type="max" value="1" field="selections" scope="parent" id="k2"/>
          </constraints>
          <modifiers>
            <modifier type="increment" value="1" field="k2">
              <conditions><condition type="atLeast" value="20" field="selections" scope="unit" childId="m-gaunt"/></conditions>
            </modifier>
          </modifiers>
          <categoryLinks>
            <categoryLink id="c3" name="Infantry" targetId="cat-inf"/>
            <categoryLink id="c4" name="Synapse" targetId="cat-syn"/>
          </categoryLinks>
        </selectionEntry>
        <selectionEntry id="m-gaunt" name="Gaunt" type="model">
          <constraints>
            <constraint type="min" value="10" field="selections" scope="parent" id="k3"/>
            <constraint type="max" value="20" field="selections" scope="parent" id="k4"/>
          </constraints>
          <categoryLinks><categoryLink id="c5" name="Infantry" targetId="cat-inf"/></categoryLinks>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
    <selectionEntry id="u-prime" name="Prime" type="model">
      <costs><cost name="pts" typeId="pts-1" value="65"/></costs>
      <modifiers><modifier type="add" value="cat-char" field="category"/><modifier type="add" value="cat-fly" field="category"><conditions><condition type="atLeast" value="1" field="selections" scope="force" childId="d-fleet"/></conditions></modifier></modifiers>
      <profiles>
        <profile id="p-lead" name="Leader" typeName="Abilities">
          <characteristics><characteristic name="Description">This model can be attached to the following units:
■ Swarm
- **^^Warriors^^**

You can attach it even if … (not a unit).</characteristic></characteristics>
        </profile>
      </profiles>
      <entryLinks><entryLink id="l4" name="Enhancements" targetId="g-enh" type="selectionEntryGroup"/></entryLinks>
    </selectionEntry>
    <selectionEntry id="det" name="Detachment" type="upgrade">
      <selectionEntryGroups>
        <selectionEntryGroup id="g-det" name="Detachment">
          <selectionEntries>
            <selectionEntry id="d-fleet" name="Invasion Fleet" type="upgrade">
              <rules><rule id="r-hyper" name="Hyper Adaptations"><description>Select one adaptation.</description></rule></rules>
            </selectionEntry>
            <selectionEntry id="d-crusher" name="Crusher Stampede" type="upgrade"/>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
  </sharedSelectionEntries>
  <sharedSelectionEntryGroups>
    <selectionEntryGroup id="g-enh" name="Enhancements">
      <selectionEntryGroups>
        <selectionEntryGroup id="g-fleet" name="Invasion Fleet Enhancements">
          <selectionEntries>
            <selectionEntry id="e1" name="Alien Cunning" type="upgrade">
              <profiles><profile id="pe1" name="Alien Cunning" typeName="Abilities"><characteristics><characteristic name="Description">Redeploy up to three units.</characteristic></characteristics></profile></profiles>
              <costs><cost name="pts" typeId="pts-1" value="30"/><cost name="Crusade: Experience" typeId="xp-1" value="0"/></costs>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
      <selectionEntries>
        <selectionEntry id="e2" name="Monstrous Nemesis (Aura)" type="upgrade">
          <modifiers>
            <modifier type="set" value="true" field="hidden">
              <conditions><condition type="lessThan" value="1" field="selections" scope="force" childId="d-crusher"/></conditions>
            </modifier>
          </modifiers>
          <profiles><profile id="pe2" name="Monstrous Nemesis" typeName="Abilities"><characteristics><characteristic name="Description">Re-roll Wound rolls.</characteristic></characteristics></profile></profiles>
          <costs><cost name="pts" typeId="pts-1" value="25"/></costs>
        </selectionEntry>
        <selectionEntry id="e3" name="Relic of the Crusade" type="upgrade">
          <profiles><profile id="pe3" name="Relic" typeName="Abilities"><characteristics><characteristic name="Description">Crusade only.</characteristic></characteristics></profile></profiles>
          <costs><cost name="pts" typeId="pts-1" value="0"/><cost name="Crusade: Experience" typeId="xp-1" value="2"/></costs>
        </selectionEntry>
      </selectionEntries>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>
  <categoryEntries><categoryEntry id="cat-char" name="Character"/><categoryEntry id="cat-fly" name="Fly"/></categoryEntries>
</catalogue>
"#;

#[test]
fn composition_model_keywords_leaders_and_glossary_rules() {
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/army.cat", ARMY.as_bytes()),
        ("x/necrons.cat", NECRONS.as_bytes()),
    ]);
    let d = sheet(&ex, "Swarm");
    // 1 Node (2 from 20 Gaunts) and 10-20 Gaunts: 11-22 models; 40 points, 80 above 11.
    assert_eq!(d.unit_composition, ["1-2 Node", "10-20 Gaunt"]);
    assert_eq!(points(d), [(11, 40), (22, 80)]);
    // The Node's own category joins the unit's keywords and is its model keyword.
    assert_eq!(d.keywords, ["Infantry", "Synapse"]);
    assert_eq!(d.faction_keywords, ["Test"]);
    assert_eq!(d.model_keywords.len(), 1);
    assert_eq!(d.model_keywords[0].model, "Node");
    assert_eq!(d.model_keywords[0].keywords, ["Synapse"]);
    // `Lethal Hits`, linked for the ability's text, is a weapon ability (the Necrons fixture
    // has it as a weapon keyword): glossary, not an ability of the unit.
    let ab: Vec<&str> = d.abilities.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(ab, ["Frenzy"]);
    let p = sheet(&ex, "Prime");
    assert_eq!(p.leads, ["Swarm", "Warriors"]);
    // An unconditional `add` category modifier is a keyword; a conditional one is not.
    assert_eq!(p.keywords, ["Character"]);
    assert_eq!(p.unit_composition, ["1 Prime"]);
    // The enhancement group linked into the Prime is not its datasheet.
    assert_eq!(points(p), [(1, 65)]);
    assert!(p.abilities.iter().all(|a| a.name == "Leader"));
}

#[test]
fn enhancements_detachments_and_their_rules() {
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/army.cat", ARMY.as_bytes()),
    ]);
    type Row<'a> = (&'a str, Option<&'a str>, Option<u32>, &'a str, u32);
    let enh: Vec<Row> = ex
        .iter()
        .flat_map(|e| &e.enhancements)
        .map(|e| {
            (
                e.id.as_str(),
                e.detachment.as_deref(),
                e.points,
                e.text.as_str(),
                e.sources[0].line,
            )
        })
        .collect();
    // The subgroup names the first's detachment, the hidden-until condition the second's; the
    // name is as printed, `(Aura)` included; the Crusade relic is not an enhancement.
    assert_eq!(
        enh,
        [
            (
                "10e:test:crusher-stampede:monstrous-nemesis-aura",
                Some("Crusher Stampede"),
                Some(25),
                "Re-roll Wound rolls.",
                95
            ),
            (
                "10e:test:invasion-fleet:alien-cunning",
                Some("Invasion Fleet"),
                Some(30),
                "Redeploy up to three units.",
                87
            ),
        ]
    );
    let dets: Vec<(&str, Vec<&str>, Vec<&str>)> = ex
        .iter()
        .flat_map(|e| &e.detachments)
        .map(|d| {
            (
                d.name.as_str(),
                d.rules.iter().map(String::as_str).collect(),
                d.enhancements.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        dets,
        [
            (
                "Invasion Fleet",
                vec!["10e:test/detachment:hyper-adaptations"],
                vec!["10e:test:invasion-fleet:alien-cunning"]
            ),
            (
                "Crusher Stampede",
                vec![],
                vec!["10e:test:crusher-stampede:monstrous-nemesis-aura"]
            ),
        ]
    );
    let rule = ex
        .iter()
        .flat_map(|e| &e.rules)
        .find(|r| r.kind == "detachment")
        .expect("the detachment rule");
    assert_eq!(rule.name.as_deref(), Some("Hyper Adaptations"));
    assert_eq!(rule.text, "Select one adaptation.");
    assert_eq!(rule.faction.as_deref(), Some("Test"));
    // The revision each file carries, read from its root element alone.
    let h = bsdata::header(ARMY.as_bytes()).expect("header");
    assert_eq!(
        (
            h.root.as_str(),
            h.revision,
            h.game_system_revision,
            h.library
        ),
        ("catalogue", Some(7), Some(1), false)
    );
    assert_eq!(
        bsdata::header(GST.as_bytes()).map(|h| (h.root, h.revision)),
        Some(("gameSystem".to_string(), Some(1)))
    );
    assert_eq!(bsdata::header(b"no xml here"), None);
}

#[test]
fn leader_texts_list_units_in_every_spelling() {
    use bsdata::unit::leads_in;
    assert_eq!(
        leads_in("This model can be attached to the following units: **^^Cadian Shock Troops^^**, **^^Kasrkin^^**"),
        ["Cadian Shock Troops", "Kasrkin"]
    );
    assert_eq!(
        leads_in(
            "This model can be attached to the following unit:\n- **^^Catachan Jungle Fighters**^^"
        ),
        ["Catachan Jungle Fighters"]
    );
    assert_eq!(
        leads_in("This model can be attached to the following units:\n■ BLOODLETTERS\n■ FLESH HOUNDS\nWhile this model is leading a unit, …"),
        ["BLOODLETTERS", "FLESH HOUNDS"]
    );
    assert!(leads_in("While this model is leading a unit, add 1 to Hit rolls.").is_empty());
}

/// `bytes` as the one file `name` of a zip archive (deflated), as BattleScribe writes
/// `.catz`/`.gstz`.
fn zipped(name: &str, bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    w.start_file(name, opts).expect("start_file");
    w.write_all(bytes).expect("write");
    w.finish().expect("finish").into_inner()
}

#[test]
fn zipped_battlescribe_data_is_unzipped_and_read() {
    let gstz = zipped("game.gst", GST.as_bytes());
    let catz = zipped("necrons.cat", NECRONS.as_bytes());
    assert!(bsdata::is_zipped("bs/necrons.catz", &catz));
    assert_eq!(bsdata::unzip(&catz).as_deref(), Ok(NECRONS.as_bytes()));
    let ds = util::ingest_in_memory(&[
        ("bs/game.gstz", gstz.as_slice()),
        ("bs/necrons.catz", catz.as_slice()),
    ]);
    for i in &ds.manifest.inputs {
        assert_eq!(i.status, InputStatus::Ok, "{}", i.file);
    }
    let ids: Vec<&str> = ds.datasheets.iter().map(|d| d.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "10e:necrons:ctan-shard-of-the-nightbringer",
            "10e:necrons:scarabs",
            "10e:necrons:warriors"
        ]
    );
    // Provenance: the zipped file, and the line in the XML inside it.
    let d = &ds.datasheets[0];
    assert_eq!(d.sources[0].file, "bs/necrons.catz");
    assert_eq!(d.sources[0].line, 15);
    // A damaged zip beside them is not read: it keeps its S007, and B007 says why.
    let mut cut = catz.clone();
    cut.truncate(cut.len() / 2);
    let ds = util::ingest_in_memory(&[
        ("bs/game.gstz", gstz.as_slice()),
        ("bs/necrons.catz", cut.as_slice()),
    ]);
    let status = |f: &str| {
        ds.manifest
            .inputs
            .iter()
            .find(|i| i.file == f)
            .map(|i| i.status)
    };
    assert_eq!(status("bs/necrons.catz"), Some(InputStatus::Skipped));
    assert_eq!(status("bs/game.gstz"), Some(InputStatus::Ok));
    let codes: Vec<(&str, Option<&str>)> = ds
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.file.as_deref()))
        .collect();
    assert!(
        codes.contains(&("S007", Some("bs/necrons.catz"))),
        "{codes:?}"
    );
    assert!(
        codes.contains(&("B007", Some("bs/necrons.catz"))),
        "{codes:?}"
    );
    assert!(ds.datasheets.is_empty());
}

#[test]
fn a_points_increment_repeated_per_count_of_one_model() {
    // 100 points, +20 for every 5 Marines (the Sergeant is not counted): 1 + 4 Marines is 100,
    // 1 + 9 Marines is 120 (per 5 models of the unit it would be 140).
    let cat = r#"<catalogue id="c" name="Imperium - Test" gameSystemId="sys-1" library="false">
  <selectionEntries>
    <selectionEntry id="u" name="Tactical Squad" type="unit">
      <costs><cost name="pts" typeId="pts-1" value="100"/></costs>
      <modifiers>
        <modifier type="increment" value="20" field="pts-1">
          <repeats><repeat value="5" repeats="1" field="selections" scope="u" childId="mar" roundUp="false"/></repeats>
        </modifier>
      </modifiers>
      <selectionEntries>
        <selectionEntry id="sgt" name="Sergeant" type="model">
          <constraints>
            <constraint type="min" value="1" field="selections" scope="parent" id="k1"/>
            <constraint type="max" value="1" field="selections" scope="parent" id="k2"/>
          </constraints>
        </selectionEntry>
        <selectionEntry id="mar" name="Marine" type="model">
          <constraints>
            <constraint type="min" value="4" field="selections" scope="parent" id="k3"/>
            <constraint type="max" value="9" field="selections" scope="parent" id="k4"/>
          </constraints>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>"#;
    let ex = read(&[("x/game.gst", GST.as_bytes()), ("x/t.cat", cat.as_bytes())]);
    let d = sheet(&ex, "Tactical Squad");
    assert_eq!(points(d), [(5, 100), (10, 120)]);
    assert_eq!(d.unit_composition, ["1 Sergeant", "4-9 Marine"]);
}

#[test]
fn a_points_band_in_a_condition_group() {
    // 100 points for 5; `set 180` when 6-10 models (an `and` group); `set 250` from 11; a price
    // behind a roster condition in an `or` group is not applied.
    let cat = r#"<catalogue id="c" name="Imperium - Test" gameSystemId="sys-1" library="false">
  <selectionEntries>
    <selectionEntry id="u" name="Horde" type="unit">
      <costs><cost name="pts" typeId="pts-1" value="100"/></costs>
      <modifiers>
        <modifier type="set" value="180" field="pts-1">
          <conditionGroups><conditionGroup type="and"><conditions>
            <condition type="atLeast" value="6" field="selections" scope="u" childId="model"/>
            <condition type="atMost" value="10" field="selections" scope="u" childId="model"/>
          </conditions></conditionGroup></conditionGroups>
        </modifier>
        <modifier type="set" value="250" field="pts-1">
          <conditions><condition type="atLeast" value="11" field="selections" scope="u" childId="model"/></conditions>
        </modifier>
        <modifier type="set" value="1" field="pts-1">
          <conditionGroups><conditionGroup type="or"><conditions>
            <condition type="atLeast" value="1" field="selections" scope="force" childId="boarding"/>
            <condition type="atLeast" value="1" field="selections" scope="u" childId="model"/>
          </conditions></conditionGroup></conditionGroups>
        </modifier>
      </modifiers>
      <selectionEntries>
        <selectionEntry id="m" name="Boy" type="model">
          <constraints>
            <constraint type="min" value="5" field="selections" scope="parent" id="k1"/>
            <constraint type="max" value="15" field="selections" scope="parent" id="k2"/>
          </constraints>
        </selectionEntry>
      </selectionEntries>
    </selectionEntry>
  </selectionEntries>
</catalogue>"#;
    let ex = read(&[("x/game.gst", GST.as_bytes()), ("x/t.cat", cat.as_bytes())]);
    assert_eq!(
        points(sheet(&ex, "Horde")),
        [(5, 100), (10, 180), (15, 250)]
    );
}

/// BattleScribe's markup is made plain the way the printed card shows it: `^^…^^` small
/// capitals (a keyword) in capitals, `**` bold markers dropped; an unpaired `^^` stays visible.
#[test]
fn battlescribe_markup_is_made_plain() {
    use cogitator::records::bsdata::plain_text;
    assert_eq!(
        plain_text("**^^Tyranids^^** model only."),
        "TYRANIDS model only."
    );
    // Misnested, as `Library - Tyranids.cat` has it: still one keyword.
    assert_eq!(
        plain_text("- **^^Catachan Jungle Fighters**^^"),
        "- CATACHAN JUNGLE FIGHTERS"
    );
    assert_eq!(
        plain_text("an enemy ^^Character ^^unit"),
        "an enemy CHARACTER unit"
    );
    assert_eq!(plain_text("**[LETHAL HITS]**"), "[LETHAL HITS]");
    assert_eq!(plain_text("a ^^Character unit"), "a ^^Character unit");
    assert_eq!(plain_text("4+* (see below)"), "4+* (see below)");
    // Non-breaking and thin spaces, as `Imperium - Astra Militarum - Library.cat` has them in
    // its transports' capacity, are spaces.
    assert_eq!(
        plain_text("12 Astra Militarum\u{a0}Infantry models and\u{202f}2\u{2009}more"),
        "12 Astra Militarum Infantry models and 2 more"
    );
}

/// Leaders keep the units' names as printed (the markup is made plain after they are read).
#[test]
fn leader_links_keep_the_printed_names_and_ability_text_is_plain() {
    let Some(ex) = corpus() else { return };
    let all_text: Vec<&str> = ex
        .iter()
        .flat_map(|e| e.datasheets.iter())
        .flat_map(|d| d.abilities.iter().filter_map(|a| a.text.as_deref()))
        .chain(
            ex.iter()
                .flat_map(|e| e.enhancements.iter())
                .map(|e| e.text.as_str()),
        )
        .collect();
    assert!(all_text.len() > 500, "{}", all_text.len());
    assert!(all_text.iter().all(|t| !t.contains("**^^")), "markup left");
    let leads: Vec<&String> = ex
        .iter()
        .flat_map(|e| e.datasheets.iter())
        .flat_map(|d| d.leads.iter())
        .collect();
    // `Imperium - Astra Militarum - Library.cat` prints `**^^Cadian Shock Troops^^**` in its
    // Leader abilities (Chaos Daemons print `■ BLOODLETTERS`: capitals as printed).
    assert!(leads.iter().any(|l| l.as_str() == "Cadian Shock Troops"));
    assert!(!leads.iter().any(|l| l.as_str() == "CADIAN SHOCK TROOPS"));
}

/// A catalogue's faction is the one the other sources scope ids by: read through the edition's
/// vocabulary from the last part of its name, else that last part (BSData's own catalogue
/// names; no file of the corpus has the first four).
#[test]
fn a_catalogue_is_filed_under_the_faction_the_other_sources_use() {
    use cogitator::model::Edition::{HorusHeresy2, Tenth};
    let f = |n: &str| bsdata::faction_of_catalogue(n, Tenth);
    assert_eq!(
        f("Imperium - Adeptus Astartes - Space Wolves").as_deref(),
        Some("Space Marines")
    );
    assert_eq!(f("Aeldari - Drukhari").as_deref(), Some("Drukhari"));
    assert_eq!(f("Aeldari - Craftworlds").as_deref(), Some("Aeldari"));
    assert_eq!(
        f("Chaos - Chaos Knights Library").as_deref(),
        Some("Chaos Knights")
    );
    assert_eq!(
        f("Imperium - Astra Militarum - Library").as_deref(),
        Some("Astra Militarum")
    );
    assert_eq!(f("Library - Tyranids").as_deref(), Some("Tyranids"));
    assert_eq!(
        f("Chaos - Chaos Daemons Library").as_deref(),
        Some("Chaos Daemons")
    );
    // A name the vocabulary does not know stays as printed; an edition without one too.
    assert_eq!(f("Xenos - Hrud").as_deref(), Some("Hrud"));
    assert_eq!(
        bsdata::faction_of_catalogue("Legiones Astartes - Space Wolves", HorusHeresy2).as_deref(),
        Some("Space Wolves")
    );
    assert_eq!(f("Library"), None);

    // Through the reader: the hand-written Necrons catalogue renamed as a chapter's gives its
    // units the Space Marines scope, as Wahapedia's pages and the faction pack cards do.
    let renamed = NECRONS.replace(
        "name=\"Xenos - Necrons\"",
        "name=\"Imperium - Adeptus Astartes - Space Wolves\"",
    );
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/wolves.cat", renamed.as_bytes()),
    ]);
    let ids: Vec<&str> = sheets(&ex).iter().map(|d| d.id.as_str()).collect();
    assert!(!ids.is_empty());
    assert!(
        ids.iter().all(|i| i.starts_with("10e:space-marines:")),
        "{ids:?}"
    );
    assert!(sheets(&ex)
        .iter()
        .all(|d| d.faction.as_deref() == Some("Space Marines")));
}
