//! Every sub-record (model profile, weapon profile, ability, DAMAGED and named rules blocks)
//! carries its own location (`at`): a file among its record's `sources` and a line inside that
//! file, for the seeds, the HTML corpus and the CSV export; plus goldens read by hand from the
//! sources.

use crate::util;
use cogitator::model::{Dataset, Datasheet};
use cogitator::source::Location;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every `at` of a datasheet, named for the failure message.
fn locations(d: &Datasheet) -> Vec<(String, &Location)> {
    let mut out = Vec::new();
    for m in &d.models {
        out.push((format!("model {:?}", m.name), &m.at));
    }
    for w in &d.weapons {
        out.push((format!("weapon {}", w.name), &w.at));
    }
    for a in &d.abilities {
        out.push((format!("ability {}", a.name), &a.at));
    }
    for n in d.damaged.iter().chain(&d.special_rules) {
        out.push((format!("named text {}", n.name), &n.at));
    }
    out
}

/// Lines of each file under `root`, read once.
struct Lines<'r> {
    root: &'r Path,
    counts: BTreeMap<String, u32>,
}

impl Lines<'_> {
    fn of(&mut self, file: &str) -> u32 {
        let root = self.root;
        *self.counts.entry(file.to_string()).or_insert_with(|| {
            let bytes = std::fs::read(root.join(file))
                .unwrap_or_else(|e| panic!("{}: {e}", root.join(file).display()));
            let n = bytes.iter().filter(|b| **b == b'\n').count();
            (n + usize::from(!bytes.ends_with(b"\n"))) as u32
        })
    }
}

/// Checks every sub-record location of `ds` (inputs read from `root`); returns how many.
fn check_all(ds: &Dataset, root: &Path) -> usize {
    let mut lines = Lines {
        root,
        counts: BTreeMap::new(),
    };
    let mut n = 0;
    for d in &ds.datasheets {
        let files: BTreeSet<&str> = d.sources.iter().map(|s| s.file.as_str()).collect();
        for (what, at) in locations(d) {
            assert!(
                files.contains(at.file.as_str()),
                "{} {what}: at {} is not one of its sources {files:?}",
                d.id,
                at.file
            );
            let max = lines.of(&at.file);
            assert!(
                at.line >= 1 && at.line <= max,
                "{} {what}: line {} outside {} (1..={max})",
                d.id,
                at.line,
                at.file
            );
            n += 1;
        }
    }
    n
}

fn seeds() -> Dataset {
    let dir = util::raw();
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for e in std::fs::read_dir(&dir).expect("raw/") {
        let p = e.expect("entry").path();
        let name = p.file_name().expect("name").to_string_lossy().into_owned();
        if name.ends_with(".txt") {
            files.push((name, std::fs::read(&p).expect("seed")));
        }
    }
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    util::ingest_in_memory(&refs)
}

fn sheet<'d>(ds: &'d Dataset, id: &str) -> &'d Datasheet {
    ds.datasheets
        .iter()
        .find(|d| d.id == id)
        .unwrap_or_else(|| panic!("no datasheet {id}"))
}

#[test]
fn every_seed_sub_record_is_located_in_one_of_its_sources() {
    let ds = seeds();
    let n = check_all(&ds, &util::raw());
    // Be'lakor alone has 1 model, 4 weapons, 9 abilities, DAMAGED and 2 named blocks.
    assert!(n >= 17, "{n} locations");
}

#[test]
fn seed_locations_golden() {
    let ds = seeds();
    let at = |f: &str, l: u32| Location::at_line(f, l);
    let b = "004_d1a433ab84c4ab90.txt";
    let belakor = sheet(&ds, "10e:chaos-daemons:belakor");
    // Read by hand from raw/004…: the profile's labels start at line 7 (`M`), the second
    // ranged profile's name is first printed at line 36, the sweep at 59.
    assert_eq!(belakor.models[0].at, at(b, 7));
    assert_eq!(
        belakor.weapons[1].name,
        "Betraying Shades – focused witchfire"
    );
    assert_eq!(belakor.weapons[1].at, at(b, 36));
    assert_eq!(belakor.weapons[3].at, at(b, 59));
    let ability = |name: &str| {
        belakor
            .abilities
            .iter()
            .find(|a| a.name == name)
            .unwrap_or_else(|| panic!("no ability {name}"))
    };
    // `Pall of Despair (Aura, Psychic): …` is line 72; `CORE: Deadly Demise D6, Deep Strike,
    // Stealth` line 75 (each reference at its line); `The Dark Master (Aura): …` line 77.
    assert_eq!(ability("Pall of Despair").at, at(b, 72));
    assert_eq!(ability("Deep Strike").at, at(b, 75));
    assert_eq!(ability("The Dark Master").at, at(b, 77));
    // `DAMAGED: 1-6 WOUNDS REMAINING` line 84, `SUPREME COMMANDER` 86, and the detachment
    // ability's name (`Warp Rifts`) 159.
    assert_eq!(belakor.damaged.as_ref().map(|d| &d.at), Some(&at(b, 84)));
    let special: Vec<(&str, &Location)> = belakor
        .special_rules
        .iter()
        .map(|s| (s.name.as_str(), &s.at))
        .collect();
    assert_eq!(
        special,
        [
            ("SUPREME COMMANDER", &at(b, 86)),
            ("DETACHMENT ABILITY", &at(b, 159))
        ]
    );
    // raw/000…: pipe rows; each profile's values row is the one after its name-only row:
    // the storm bolter at line 3, the second weapon (Nemesis force weapon) at line 6.
    let gk = ds
        .datasheets
        .iter()
        .find(|d| d.sources[0].file == "000_7d74a1f54db65dd5.txt")
        .expect("the Grey Knights seed's datasheet");
    let g = "000_7d74a1f54db65dd5.txt";
    assert_eq!(gk.weapons[0].at, at(g, 3));
    assert_eq!(gk.weapons[1].name, "Nemesis force weapon");
    assert_eq!(gk.weapons[1].at, at(g, 6));
}

#[test]
fn every_html_corpus_sub_record_is_located_in_one_of_its_sources() {
    let Some(ds) = crate::html::corpus_dataset() else {
        return;
    };
    let Some(corpus) = util::corpus() else { return };
    let n = check_all(ds, &corpus.join("wahapedia-html"));
    assert!(n >= 500, "{n} locations");
}

fn export_root() -> Option<std::path::PathBuf> {
    Some(util::corpus()?.join("wahapedia-csv/2025-11-14"))
}

fn export() -> Option<&'static Dataset> {
    static DS: std::sync::OnceLock<Option<Dataset>> = std::sync::OnceLock::new();
    DS.get_or_init(|| {
        let dir = export_root()?;
        let opts = cogitator::pipeline::Options {
            skip_validation: true,
            ..Default::default()
        };
        Some(cogitator::ingest(&[dir], &opts).expect("the export reads"))
    })
    .as_ref()
}

#[test]
fn every_export_sub_record_is_located_in_one_of_its_sources() {
    let (Some(ds), Some(root)) = (export(), export_root()) else {
        return;
    };
    let n = check_all(ds, &root);
    assert!(n >= 15_000, "{n} locations");
    // Each kind of sub-record points at its own table.
    for d in &ds.datasheets {
        for m in &d.models {
            assert!(m.at.file.ends_with("Datasheets_models.csv"), "{}", d.id);
        }
        for w in &d.weapons {
            assert!(w.at.file.ends_with("Datasheets_wargear.csv"), "{}", d.id);
        }
        for a in &d.abilities {
            assert!(a.at.file.ends_with("Datasheets_abilities.csv"), "{}", d.id);
        }
        if let Some(dm) = &d.damaged {
            assert!(dm.at.file.ends_with("Datasheets.csv"), "{}", d.id);
        }
    }
}

#[test]
fn export_locations_golden() {
    let Some(ds) = export() else { return };
    let carn = sheet(ds, "10e:tyranids:carnifexes");
    // Read by hand with `grep -n '^000000490|'` in the export's tables: the model row is line
    // 285 of Datasheets_models.csv; the second wargear row (Deathspitters with slimer maggots)
    // line 1408 of Datasheets_wargear.csv; Blistering Assault line 1168 of
    // Datasheets_abilities.csv; the datasheet row itself line 1571 of Datasheets.csv.
    let ends = |l: &Location, file: &str, line: u32| {
        assert!(
            l.file.ends_with(file) && l.line == line,
            "{l:?}, expected {file}:{line}"
        )
    };
    ends(&carn.models[0].at, "Datasheets_models.csv", 285);
    assert_eq!(carn.weapons[1].name, "Deathspitters with slimer maggots");
    ends(&carn.weapons[1].at, "Datasheets_wargear.csv", 1408);
    let blistering = carn
        .abilities
        .iter()
        .find(|a| a.name == "Blistering Assault")
        .expect("Blistering Assault");
    ends(&blistering.at, "Datasheets_abilities.csv", 1168);
    ends(&carn.sources[0].location(), "Datasheets.csv", 1571);
}
