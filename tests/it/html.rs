//! Wahapedia HTML pages: each trap of the two scrapers' pages has a test on a fragment cut
//! from the real page at run time (never committed), with expected values read off the page
//! by hand. Skips when `../shared/corpus` is absent (fails under COGITATOR_REQUIRE_CORPUS=1).

use crate::util;
use cogitator::model::{Dataset, Datasheet, WeaponType};
use cogitator::pipeline::{run, Options};
use cogitator::source::SourceFile;
use std::path::PathBuf;
use std::sync::OnceLock;

fn page(rel: &str) -> Option<String> {
    let dir = util::corpus()?.join("wahapedia-html");
    let bytes = std::fs::read(dir.join(rel)).expect("corpus page");
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// The part of `page` from the first `start` to the first `end` after it, wrapped as a page.
fn cut(page: &str, start: &str, end: &str) -> String {
    let i = page.find(start).expect("start marker on the page");
    let j = page[i..].find(end).map(|j| i + j).unwrap_or(page.len());
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>{}</body></html>",
        &page[i..j]
    )
}

/// Runs the pipeline (without the simulator stage) over in-memory files.
fn ingest(files: &[(&str, String)]) -> Dataset {
    util::ingest_in_memory(files)
}

/// A unit page's datasheet fragment: from the datasheet frame to the end of its keywords,
/// plus the page's heading (the faction is read from it).
fn datasheet_fragment(rel: &str) -> Option<String> {
    let p = page(rel)?;
    let h1 = cut(&p, "<h1", "</h1>").replace("</body>", "</h1></body>");
    let ds = cut(
        &p,
        "<div class=\"dsOuterFrame",
        "<div class=\"ds2col ShowDatasheetFeatures",
    );
    Some(format!("{h1}{ds}"))
}

fn one(ds: &Dataset) -> &Datasheet {
    assert_eq!(ds.datasheets.len(), 1, "one datasheet");
    &ds.datasheets[0]
}

/// The whole HTML corpus, ingested once for the tests below.
pub(crate) fn corpus_dataset() -> Option<&'static Dataset> {
    static DS: OnceLock<Option<Dataset>> = OnceLock::new();
    DS.get_or_init(|| {
        let dir: PathBuf = util::corpus()?.join("wahapedia-html");
        Some(
            cogitator::ingest(
                &[dir],
                &Options {
                    skip_validation: true,
                    ..Options::default()
                },
            )
            .expect("ingest corpus"),
        )
    })
    .as_ref()
}

#[test]
fn raw_page_weapons_once_each_with_melee_header_inside_ranged_tbody() {
    // waaahgame pages are the site's raw HTML: BOM, literal `"`, `&#8960;`.
    let Some(html) = datasheet_fragment("waaahgame/tyranids--Carnifexes.html") else {
        return;
    };
    let ds = ingest(&[("carnifexes.html", html)]);
    let d = one(&ds);
    assert_eq!(d.name.as_deref(), Some("Carnifexes"));
    assert_eq!(d.faction.as_deref(), Some("Tyranids"));
    assert_eq!(d.base_size.as_deref(), Some("105 x 70mm"));
    // M 8" T 9 Sv 2+ W 8 Ld 8+ OC 3, read off the page.
    let m = &d.models[0];
    let got: Vec<&str> = ["M", "T", "Sv", "W", "Ld", "OC"]
        .iter()
        .map(|c| m.get(c).unwrap_or("?"))
        .collect();
    assert_eq!(got, ["8\"", "9", "2+", "8", "8+", "3"]);
    // 6 ranged + 4 melee profiles, each printed twice on the page.
    assert_eq!(d.weapons.len(), 10);
    let ranged = d
        .weapons
        .iter()
        .filter(|w| w.kind == WeaponType::Ranged)
        .count();
    assert_eq!(ranged, 6);
    let bio = d.weapons.iter().find(|w| w.name == "Bio-plasma").unwrap();
    assert_eq!(bio.keywords, ["ASSAULT", "BLAST"]);
    assert_eq!(bio.get("A"), Some("D3"));
    assert_eq!(bio.get("AP"), Some("-2"));
    // The MELEE WEAPONS header row sits inside Stranglethorn cannon's tbody.
    let claws = d
        .weapons
        .iter()
        .find(|w| w.name == "Carnifex crushing claws")
        .unwrap();
    assert_eq!(claws.kind, WeaponType::Melee);
    assert_eq!(claws.get("D"), Some("D6+1"));
    let talons = d
        .weapons
        .iter()
        .find(|w| w.name == "Carnifex extra scything talons")
        .unwrap();
    assert_eq!(talons.keywords, ["EXTRA ATTACKS"]);
    assert_eq!(
        d.points
            .iter()
            .map(|p| (p.models, p.points))
            .collect::<Vec<_>>(),
        [(1, 90), (2, 180)]
    );
    assert_eq!(d.faction_keywords, ["TYRANIDS"]);
    assert!(d.keywords.iter().any(|k| k == "GREAT DEVOURER"));
}

#[test]
fn reserialized_page_inch_marks_mixed_profiles_and_per_model_keywords() {
    // grimlog pages: injected scripts, `&#34;`, `⌀` as a character, Cyrillic `С` in
    // `dsLeftСolKW`, per-model keyword groups split by `dsVertLine`.
    let Some(html) = datasheet_fragment("grimlog/astra-militarum--Cadian_Command_Squad.html")
    else {
        return;
    };
    let ds = ingest(&[("ccs.html", html)]);
    let d = one(&ds);
    assert_eq!(d.faction.as_deref(), Some("Astra Militarum"));
    // Two model profiles; only the first labels its characteristics.
    assert_eq!(d.models.len(), 2);
    assert_eq!(d.models[0].name.as_deref(), Some("CADIAN COMMANDER"));
    assert_eq!(d.models[0].get("W"), Some("3"));
    assert_eq!(
        d.models[1].name.as_deref(),
        Some("CADIAN VETERAN GUARDSMAN")
    );
    assert_eq!(d.models[1].get("W"), Some("1"));
    assert_eq!(d.models[1].get("M"), Some("6\""));
    // Multi-profile weapons, one record per profile.
    let names: Vec<&str> = d.weapons.iter().map(|w| w.name.as_str()).collect();
    assert!(names.contains(&"Plasma pistol – standard"));
    assert!(names.contains(&"Plasma pistol – supercharge"));
    let sc = d
        .weapons
        .iter()
        .find(|w| w.name == "Plasma gun – supercharge")
        .unwrap();
    assert_eq!(sc.keywords, ["HAZARDOUS", "RAPID FIRE 1"]);
    assert_eq!(sc.get("range"), Some("24\""));
    // KEYWORDS – ALL MODELS: … | CADIAN COMMANDER: CHARACTER, OFFICER
    for k in ["INFANTRY", "COMMAND SQUAD", "CHARACTER", "OFFICER"] {
        assert!(d.keywords.iter().any(|x| x == k), "{k} in {:?}", d.keywords);
    }
    assert!(!d.keywords.iter().any(|x| x.contains("CADIAN COMMANDER")));
    assert_eq!(d.model_keywords.len(), 1);
    assert_eq!(d.model_keywords[0].model, "CADIAN COMMANDER");
    assert_eq!(d.model_keywords[0].keywords, ["CHARACTER", "OFFICER"]);
    assert_eq!(d.faction_keywords, ["ASTRA MILITARUM"]);
    assert_eq!(
        d.points
            .iter()
            .map(|p| (p.models, p.points))
            .collect::<Vec<_>>(),
        [(5, 65)]
    );
    assert!(d.leads.iter().any(|l| l == "Cadian Shock Troops"));
    let names: Vec<&str> = d.abilities.iter().map(|a| a.name.as_str()).collect();
    for n in ["Leader", "Voice of Command", "Cadia Stands!", "Medi-pack"] {
        assert!(names.contains(&n), "{n} in {names:?}");
    }
}

#[test]
fn malformed_pointy_tag_keeps_both_profiles() {
    // `data-tooltip-content="#tooltip_contenttooltipPointy"</div>` on the raw page, and a
    // hyphen-minus in `Plasma pistol - supercharge`.
    let Some(html) = datasheet_fragment("waaahgame/space-marines--Captain.html") else {
        return;
    };
    assert!(html.contains("tooltipPointy\"</div>"));
    let ds = ingest(&[("captain.html", html)]);
    let d = one(&ds);
    let plasma: Vec<&str> = d
        .weapons
        .iter()
        .map(|w| w.name.as_str())
        .filter(|n| n.starts_with("Plasma pistol"))
        .collect();
    assert_eq!(
        plasma,
        ["Plasma pistol – standard", "Plasma pistol – supercharge"]
    );
    let sc = d
        .weapons
        .iter()
        .find(|w| w.name == "Plasma pistol – supercharge")
        .unwrap();
    assert_eq!(sc.get("S"), Some("8"));
    assert_eq!(sc.keywords, ["HAZARDOUS", "PISTOL"]);
}

#[test]
fn tooltip_ids_are_never_keys() {
    let Some(p) = page("waaahgame/tyranids--Carnifexes.html") else {
        return;
    };
    // Renumber every tooltip id on the page: the dataset must not change.
    let renumbered = p.replace("tooltip_content000", "tooltip_content900");
    let a = ingest(&[("p.html", p)]);
    let mut b = ingest(&[("p.html", renumbered)]);
    // Only the input's hash may differ.
    for d in &mut b.datasheets {
        for s in &mut d.sources {
            s.sha256 = a.datasheets[0].sources[0].sha256.clone();
        }
    }
    for s in &mut b.stratagems {
        for p in &mut s.sources {
            p.sha256 = a.datasheets[0].sources[0].sha256.clone();
        }
    }
    assert_eq!(a.datasheets, b.datasheets);
    assert_eq!(a.rules, b.rules);
    assert_eq!(a.stratagems, b.stratagems);
}

#[test]
fn keywords_in_brackets_any_case_split_per_word() {
    let Some(ds) = corpus_dataset() else {
        return;
    };
    let mut n = 0;
    for d in &ds.datasheets {
        for w in &d.weapons {
            for k in &w.keywords {
                n += 1;
                assert!(!k.contains('[') && !k.contains(']'), "{}: {k}", w.name);
                assert!(!k.contains("  "));
                // Vocabulary keywords are canonical upper case; a datasheet-unique one
                // (`plasma warhead`) is kept verbatim and reported.
                let unique = ds.diagnostics.iter().any(|d| {
                    d.message.contains(&format!("'{k}'"))
                        && d.message.contains("not in the vocabulary")
                });
                assert!(k == &k.to_uppercase() || unique, "{}: {k}", w.name);
            }
        }
    }
    assert!(n > 100);
    // `[iGNORES COvER]`-style spans and one span per word come out canonical.
    let flamer = ds
        .datasheets
        .iter()
        .flat_map(|d| &d.weapons)
        .find(|w| w.name == "Flamer")
        .unwrap();
    assert_eq!(flamer.keywords, ["IGNORES COVER", "TORRENT"]);
}

#[test]
fn glossary_tooltips_are_the_same_rules_as_the_dumps() {
    let Some(p) = page("waaahgame/tyranids--Carnifexes.html") else {
        return;
    };
    let seed = std::fs::read_to_string(util::raw().join("004_d1a433ab84c4ab90.txt")).unwrap();
    let ds = ingest(&[("004.txt", seed), ("carnifexes.html", p)]);
    for id in [
        "10e:weapon_ability:hazardous",
        "10e:core:deep-strike",
        "10e:core:mortal-wounds",
    ] {
        let r = ds.rules.iter().find(|r| r.id == id).expect(id);
        let files: Vec<&str> = r.occurrences.iter().map(|o| o.file.as_str()).collect();
        assert!(
            files.contains(&"004.txt") && files.contains(&"carnifexes.html"),
            "{id}: {files:?}"
        );
    }
    let haz = ds
        .rules
        .iter()
        .find(|r| r.id == "10e:weapon_ability:hazardous")
        .unwrap();
    assert!(haz
        .flavor
        .as_deref()
        .unwrap()
        .starts_with("Weapons powered by unstable"));
    assert_eq!(haz.examples.len(), 1);
}

#[test]
fn stratagem_cards_have_full_text_and_same_name_other_group_is_another_record() {
    let Some(p) = page("waaahgame/tyranids--Carnifexes.html") else {
        return;
    };
    let ds = ingest(&[("carnifexes.html", p)]);
    let core = ds
        .stratagems
        .iter()
        .find(|s| s.id == "10e:core:insane-bravery")
        .unwrap();
    assert_eq!(core.cp, Some(1));
    assert_eq!(core.category.as_deref(), Some("Epic Deed"));
    assert_eq!(
        core.effect.as_deref(),
        Some("Your unit automatically passes that Battle-shock test.")
    );
    assert_eq!(
        core.restrictions.as_deref(),
        Some("You cannot use this Stratagem more than once per battle.")
    );
    assert!(ds
        .stratagems
        .iter()
        .any(|s| s.id == "10e:boarding-actions:insane-bravery"));
    let d = one(&ds);
    assert!(d
        .stratagems
        .contains(&"10e:core:insane-bravery".to_string()));
}

#[test]
fn corpus_systems_duplicates_and_newer_page_wins() {
    let Some(ds) = corpus_dataset() else {
        return;
    };
    let m = &ds.manifest;
    let aos: Vec<_> = m
        .inputs
        .iter()
        .filter(|i| i.file.contains("/aos--"))
        .collect();
    assert_eq!(aos.len(), 3);
    for i in &aos {
        assert_eq!(format!("{:?}", i.status), "Skipped");
        assert!(ds
            .diagnostics
            .iter()
            .any(|d| d.code.as_str() == "S005" && d.file.as_deref() == Some(i.file.as_str())));
    }
    // Same bytes: the first in path order is processed, the other listed as its duplicate.
    let dup = m
        .inputs
        .iter()
        .find(|i| i.file == "waaahgame/space-marines--Captain.html")
        .unwrap();
    assert_eq!(
        dup.duplicate_of.as_deref(),
        Some("waaahgame/faction--captain_test.html")
    );
    assert!(ds
        .diagnostics
        .iter()
        .any(|d| d.code == "S006" && d.file.as_deref() == Some(dup.file.as_str())));
    // One datasheet per unit, both scrapers' pages as sources.
    for name in ["Broodlord", "Carnifexes", "Genestealers", "Hive Tyrant"] {
        let d = ds
            .datasheets
            .iter()
            .find(|d| d.name.as_deref() == Some(name))
            .unwrap();
        let dirs: Vec<&str> = d.sources.iter().map(|s| &s.file[..8]).collect();
        assert!(
            dirs.contains(&"grimlog/") && dirs.contains(&"waaahgam"),
            "{name}: {dirs:?}"
        );
    }
    // Carnifexes: 115/230 on the v1.0 page, 90/180 on the v1.4 page; the newer wins and a
    // diagnostic names both values and both files.
    let carn = ds
        .datasheets
        .iter()
        .find(|d| d.name.as_deref() == Some("Carnifexes"))
        .unwrap();
    assert_eq!(
        carn.points
            .iter()
            .map(|p| (p.models, p.points))
            .collect::<Vec<_>>(),
        [(1, 90), (2, 180)]
    );
    let x110 = ds
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "X110" && d.message.starts_with("Carnifexes points"))
        .expect("X110 for Carnifexes points");
    for s in [
        "115",
        "230",
        "90",
        "180",
        "grimlog/tyranids--Carnifexes.html",
        "waaahgame/tyranids--Carnifexes.html",
    ] {
        assert!(x110.message.contains(s), "{s} in {}", x110.message);
    }
    // INSANE BRAVERY: `Boarding Action – Epic Deed`, 2CP, without WHEN/EFFECT labels on the
    // older faction pages; `Boarding Actions – Epic Deed`, 1CP on the newer ones. One record,
    // the newer values, a diagnostic for each difference.
    let ib: Vec<_> = ds
        .stratagems
        .iter()
        .filter(|s| s.name == "INSANE BRAVERY" && s.group.as_deref() != Some("Core"))
        .collect();
    assert_eq!(ib.len(), 1);
    assert_eq!(ib[0].cp, Some(1));
    assert_eq!(ib[0].group.as_deref(), Some("Boarding Actions"));
    assert!(ib[0]
        .sources
        .iter()
        .any(|s| s.file == "grimlog/tyranids--complete-scrape.html"));
    for (field, a, b) in [
        ("CP", "2CP", "1CP"),
        ("group", "Boarding Action ", "Boarding Actions "),
    ] {
        assert!(
            ds.diagnostics.iter().any(|d| d.code == "X110"
                && d.message
                    .starts_with(&format!("INSANE BRAVERY {field}: {a}"))
                && d.message.contains(&format!(" vs {b}"))),
            "X110 for INSANE BRAVERY {field}"
        );
    }
    // 58 unit pages, 4 units on both scrapers' pages, Captain twice: 54 datasheets.
    assert_eq!(ds.datasheets.len(), 54);
}

#[test]
fn faction_pages_army_rules_detachments_enhancements_stratagems() {
    let Some(ds) = corpus_dataset() else {
        return;
    };
    // Tyranids: army rule Synapse; detachment Invasion Fleet with rule Hyper-adaptations.
    assert!(ds.rules.iter().any(|r| r.kind == "army"
        && r.name.as_deref() == Some("Shadow in the Warp")
        && r.faction.as_deref() == Some("Tyranids")));
    let fleet = ds
        .detachments
        .iter()
        .find(|d| d.id == "10e:tyranids:invasion-fleet")
        .expect("Invasion Fleet");
    assert!(fleet
        .rules
        .contains(&"10e:tyranids/detachment:hyper-adaptations".to_string()));
    assert!(fleet
        .stratagems
        .contains(&"10e:invasion-fleet:rapid-regeneration".to_string()));
    // `Alien Cunning 30 pts` (read off grimlog/tyranids--complete-scrape.html).
    let cunning = ds
        .enhancements
        .iter()
        .find(|e| e.name.as_deref() == Some("Alien Cunning"))
        .expect("Alien Cunning");
    assert_eq!(cunning.points, Some(30));
    assert_eq!(cunning.faction.as_deref(), Some("Tyranids"));
    assert!(cunning.text.starts_with("TYRANIDS model only."));
}

#[test]
fn malformed_pages_give_diagnostics_and_the_rest_is_processed() {
    let Some(p) = page("waaahgame/tyranids--Carnifexes.html") else {
        return;
    };
    let half = p[..p.len() / 2].to_string();
    let mut huge = String::from("<html><body>");
    while huge.len() < 50 << 20 {
        huge.push_str("<div class=\"dsAbility\"><b>Junk:</b> text <span>x</span></div>\n");
    }
    let files = [
        ("a-truncated.html", half),
        ("b-empty.html", String::new()),
        (
            "c-no-datasheet.html",
            "<html><body><p>Nothing here.</p></body></html>".to_string(),
        ),
        ("d-huge.html", huge),
        ("e-ok.html", p),
    ];
    let mut sources: Vec<SourceFile> = files
        .iter()
        .map(|(n, s)| SourceFile::new(*n, s.as_bytes().to_vec()))
        .collect();
    sources.push(SourceFile::new(
        "f-binary.html",
        vec![0u8, 159, 146, 150, 0, 1, 2],
    ));
    let ds = run(
        &sources,
        &[],
        &Options {
            skip_validation: true,
            ..Options::default()
        },
    );
    let codes = |file: &str| -> Vec<&str> {
        ds.diagnostics
            .iter()
            .filter(|d| d.file.as_deref() == Some(file))
            .map(|d| d.code.as_str())
            .collect()
    };
    assert!(codes("a-truncated.html").contains(&"S008"));
    assert!(codes("b-empty.html").contains(&"S002"));
    assert!(codes("f-binary.html").contains(&"S003"));
    assert!(!codes("c-no-datasheet.html").is_empty());
    assert!(ds
        .datasheets
        .iter()
        .any(|d| d.name.as_deref() == Some("Carnifexes")
            && d.sources.iter().any(|s| s.file == "e-ok.html")));
}

#[test]
fn invulnerable_save_condition_printed_after_its_frame() {
    // grimlog/astra-militarum--Gaunt_s_Ghosts.html: `INVULNERABLE SAVE* 5+`, then
    // `Ibram Gaunt only.` in a sibling element.
    let Some(ds) = corpus_dataset() else {
        return;
    };
    let d = ds
        .datasheets
        .iter()
        .find(|d| d.name.as_deref() == Some("Gaunt’s Ghosts"))
        .expect("Gaunt’s Ghosts");
    assert_eq!(d.invulnerable_save.as_deref(), Some("5+"));
    assert_eq!(
        d.invulnerable_save_condition.as_deref(),
        Some("Ibram Gaunt only.")
    );
}

/// A page whose faction pack logo names a Warhammer Legends publication gives Legends
/// datasheets; the same page citing the codex faction pack does not. (No page of the corpus
/// cites a Legends pack: the Banehammer page, cut from the corpus at run time, with its logo's
/// title changed.)
#[test]
fn a_page_of_a_legends_publication_gives_legends_datasheets() {
    let Some(corpus) = crate::util::corpus() else {
        return;
    };
    let path = corpus.join("wahapedia-html/grimlog/astra-militarum--Banehammer.html");
    let Ok(page) = std::fs::read_to_string(&path) else {
        panic!("{} is missing", path.display());
    };
    let codex = "Faction Pack. Astra Militarum (10th edition, version 1.1)";
    assert!(page.contains(codex), "the page's logo title changed");
    let legends = page.replace(
        codex,
        "Faction Pack. Astra Militarum (Warhammer Legends) (10th edition, version 1.0)",
    );
    for (text, expected) in [(page.as_str(), false), (legends.as_str(), true)] {
        let d = crate::util::ingest_in_memory(&[("banehammer.html", text)]);
        let b = d
            .datasheets
            .iter()
            .find(|x| x.name.as_deref() == Some("Banehammer"))
            .expect("the Banehammer datasheet");
        assert_eq!(b.legends, expected);
    }
}
