//! Wahapedia's CSV export (a directory of pipe-separated tables) → typed rows → records.
//!
//! Owns the export's conventions: UTF-8 BOM, CRLF, a trailing `|` on every line (an extra empty
//! field), no quoting (`quoting(false)`, flexible field counts), HTML inside fields (rendered by
//! [`crate::decode::html::fragment_blocks`]), trailing spaces in names and dice, BS/WS without
//! `+` (but also `N/A`, `-` and a few `3+`), ranges without `"`, `inv_sv` without `+` (`4`,
//! `-`, `4*`), `T` with a footnote star (`5*`), AP `-0`, and point costs that are add-ons
//! (`+55`). Values come out in the dataset's canonical spelling where the convention is known
//! (`3` → `3+`, `24` → `24"`, `-0` → `0`); anything else is kept as printed so normalization
//! (and the crosscheck) can call it malformed.
//!
//! Two users: the crosscheck ([`Export::from_tables`] in [`Mode::Crosscheck`], the tables it
//! compares, a missing table is an [`ExportError`]) and the pipeline's record-source seam
//! ([`SOURCE`]: every table read in [`Mode::Records`], a missing table is a `C003` diagnostic,
//! then [`records`] builds datasheets, stratagems, detachments, enhancements and rules with the
//! CSV row as provenance). Rows are keyed by the export's own ids and carry the 1-based line of
//! the CSV file they were read from. A line that cannot be read becomes a `C001` diagnostic and
//! is skipped; a row naming an unknown datasheet is `C002`. It must not do I/O, import a
//! parser other than `csv`, invent a value the export lacks, or panic on what the files contain.

use crate::diag::{Code, Diagnostic};
use crate::model::WeaponType;
use crate::source::SourceFile;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

mod build;
pub use build::records;

pub const DATASHEETS: &str = "Datasheets.csv";
pub const MODELS: &str = "Datasheets_models.csv";
pub const WARGEAR: &str = "Datasheets_wargear.csv";
pub const COSTS: &str = "Datasheets_models_cost.csv";
pub const KEYWORDS: &str = "Datasheets_keywords.csv";
pub const DATASHEET_ABILITIES: &str = "Datasheets_abilities.csv";
pub const ABILITIES: &str = "Abilities.csv";
pub const FACTIONS: &str = "Factions.csv";
pub const LAST_UPDATE: &str = "Last_update.csv";
pub const COMPOSITION: &str = "Datasheets_unit_composition.csv";
pub const OPTIONS: &str = "Datasheets_options.csv";
pub const LEADER: &str = "Datasheets_leader.csv";
pub const DATASHEET_STRATAGEMS: &str = "Datasheets_stratagems.csv";
pub const STRATAGEMS: &str = "Stratagems.csv";
pub const DETACHMENTS: &str = "Detachments.csv";
pub const DETACHMENT_ABILITIES: &str = "Detachment_abilities.csv";
pub const ENHANCEMENTS: &str = "Enhancements.csv";
/// The publications (`id|name|type|…`): read when present, to tell apart datasheets one
/// faction prints under one name (a chapter's version, a Legends datasheet).
pub const PUBLICATIONS: &str = "Source.csv";

/// The tables the record source reads (in this order).
pub const READ: &[&str] = &[
    LAST_UPDATE,
    FACTIONS,
    DATASHEETS,
    MODELS,
    WARGEAR,
    COSTS,
    KEYWORDS,
    ABILITIES,
    DATASHEET_ABILITIES,
    COMPOSITION,
    OPTIONS,
    LEADER,
    DATASHEET_STRATAGEMS,
    STRATAGEMS,
    DETACHMENTS,
    DETACHMENT_ABILITIES,
    ENHANCEMENTS,
];

/// The export's tables that hold nothing the contract has a field for (`Source.csv`: the
/// publications, used only to tell apart datasheets of one name; which enhancements and
/// detachment rules a datasheet may take). They are part of the export, so they are `ok` in
/// the manifest with no records.
pub const NOT_READ: &[&str] = &[
    PUBLICATIONS,
    "Datasheets_enhancements.csv",
    "Datasheets_detachment_abilities.csv",
];

/// The record source of the pipeline's registry (`records::SOURCES`).
pub const SOURCE: super::RecordSource = super::RecordSource {
    name: "wahapedia-csv",
    claims,
    read: records,
};

/// Claims a group that looks like the export: it has `Datasheets.csv` or `Last_update.csv`,
/// two of the export's table names, or a file with the header shape of one of its tables
/// (pipe-separated, with `datasheet_id`, or with `id`, `name` and `faction_id`). A claimed
/// group whose tables cannot be read gets `C004` errors naming them, never an empty dataset.
fn claims(group: &super::Group) -> bool {
    let known = |f: &&&SourceFile| {
        let name = super::file_name(&f.path);
        READ.contains(&name) || NOT_READ.contains(&name)
    };
    let shaped = |f: &&SourceFile| {
        let fields = header_fields(&f.bytes);
        fields.len() > 1
            && (fields.contains(&"datasheet_id".to_string())
                || ["id", "name", "faction_id"]
                    .iter()
                    .all(|c| fields.iter().any(|h| h == c)))
    };
    group.file(DATASHEETS).is_some()
        || group.file(LAST_UPDATE).is_some()
        || group.files.iter().filter(known).count() >= 2
        || group.files.iter().any(shaped)
}

/// The bytes after every leading UTF-8 byte-order mark, and how many there were.
fn strip_boms(bytes: &[u8]) -> (&[u8], usize) {
    let mut b = bytes;
    let mut n = 0;
    while let Some(rest) = b.strip_prefix(b"\xEF\xBB\xBF") {
        b = rest;
        n += 1;
    }
    (b, n)
}

/// The fields of the first line, pipe-separated and trimmed (byte-order marks skipped).
fn header_fields(bytes: &[u8]) -> Vec<String> {
    let (b, _) = strip_boms(bytes);
    let end = b.iter().position(|&c| c == b'\n').unwrap_or(b.len());
    let head = String::from_utf8_lossy(&b[..end.min(4096)]);
    head.trim_end()
        .split('|')
        .map(|f| f.trim().to_string())
        .collect()
}

/// The tables whose rows are keyed by their `id` (one record per id, `C005`).
const ID_KEYED: &[&str] = &[
    DATASHEETS,
    FACTIONS,
    STRATAGEMS,
    DETACHMENTS,
    DETACHMENT_ABILITIES,
    ENHANCEMENTS,
    PUBLICATIONS,
];

/// How [`Export::from_tables`] treats a table it cannot read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The crosscheck's tables only; a missing table or column is an [`ExportError`].
    Crosscheck,
    /// Every table of [`READ`]; a missing table or column is a `C003` diagnostic.
    Records,
}

/// The tables of one export, in memory: file name (`Datasheets.csv`) → file. `prefix` is the
/// directory diagnostics and provenance name them under (empty for the crosscheck, the
/// export's directory relative to the input root for the pipeline).
#[derive(Debug, Default)]
pub struct Tables<'a> {
    pub prefix: String,
    pub files: BTreeMap<String, &'a SourceFile>,
}

impl<'a> Tables<'a> {
    pub fn get(&self, name: &str) -> Option<&'a SourceFile> {
        self.files.get(name).copied()
    }

    /// `prefix/name`.
    pub fn path_of(&self, name: &str) -> String {
        if self.prefix.is_empty() {
            name.to_string()
        } else {
            format!("{}/{name}", self.prefix)
        }
    }
}

/// Why the export cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{}: not a directory", .0.display())]
    NotADirectory(PathBuf),
    #[error("{file}: cannot read: {source}")]
    Read {
        file: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: table missing from the export")]
    Missing { file: String },
    #[error("{file}: not a table of the export: {message}")]
    Table { file: String, message: String },
    #[error("{file}: column `{column}` missing from the header")]
    MissingColumn { file: String, column: String },
}

/// A faction of the export (`Factions.csv`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Faction {
    pub id: String,
    pub name: String,
    pub line: u32,
}

/// A datasheet of the export (`Datasheets.csv`), name trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportDatasheet {
    pub id: String,
    pub name: String,
    pub faction_id: String,
    /// The publication that prints it (`source_id`, a `Source.csv` id), if the row names one.
    pub source_id: Option<String>,
    /// The `transport` column as stored (HTML; empty when the unit is no transport): the
    /// datasheet's TRANSPORT block.
    pub transport: String,
    /// The export's `virtual` flag (a datasheet that only exists as a reference).
    pub virtual_: bool,
    /// `loadout` as stored (HTML): `<b>Every model is equipped with:</b> guardian spear.`
    pub loadout: String,
    /// `damaged_w` (`1-4`), and `damaged_description` as stored (HTML).
    pub damaged_w: Option<String>,
    pub damaged_description: String,
    pub line: u32,
}

/// One model line (`Datasheets_models.csv`) in canonical spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportModel {
    pub datasheet_id: String,
    /// The model's `line` on its datasheet (1-based).
    pub model_line: u32,
    pub name: String,
    pub m: Option<String>,
    pub t: Option<String>,
    pub sv: Option<String>,
    /// `4` → `4+`; `-` → `None`; `4*` → `4+` with `inv_sv_conditional`.
    pub inv_sv: Option<String>,
    /// The invulnerable save carries a star or a description (e.g. ranged attacks only).
    pub inv_sv_conditional: bool,
    pub inv_sv_descr: Option<String>,
    pub w: Option<String>,
    pub ld: Option<String>,
    pub oc: Option<String>,
    /// `base_size` (`40mm`, `105 x 70mm`).
    pub base_size: Option<String>,
    /// Characteristics printed with a footnote star (`T` for `5*`), star removed from the value.
    pub starred: Vec<String>,
    pub line: u32,
}

impl ExportModel {
    /// The export's column for the contract's characteristic `name` (`schemas/characteristics.yaml`
    /// names: `M`, `T`, `Sv`, `W`, `Ld`, `OC`); `None` for one the export has no column for.
    pub fn characteristic(&self, name: &str) -> Option<&Option<String>> {
        match name {
            "M" => Some(&self.m),
            "T" => Some(&self.t),
            "Sv" => Some(&self.sv),
            "W" => Some(&self.w),
            "Ld" => Some(&self.ld),
            "OC" => Some(&self.oc),
            _ => None,
        }
    }
}

/// One weapon profile (`Datasheets_wargear.csv`) in canonical spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportWeapon {
    pub datasheet_id: String,
    pub wargear_line: u32,
    pub line_in_wargear: u32,
    /// The D6 roll that selects this profile (`1-2`), for random-profile weapons.
    pub dice: Option<String>,
    pub name: String,
    pub kind: Option<WeaponType>,
    /// `24` → `24"`; `Melee`, `N/A` kept.
    pub range: Option<String>,
    pub attacks: Option<String>,
    /// `3` → `3+`; `3+` and `N/A` kept.
    pub skill: Option<String>,
    pub strength: Option<String>,
    /// `-0` → `0`.
    pub ap: Option<String>,
    pub damage: Option<String>,
    /// The `description` column split on commas, HTML stripped, as printed (case kept).
    pub keywords: Vec<String>,
    pub line: u32,
}

impl ExportWeapon {
    /// The export's column for the contract's characteristic `name` (`range`, `A`, `skill`,
    /// `S`, `AP`, `D`); `None` for one the export has no column for.
    pub fn characteristic(&self, name: &str) -> Option<&Option<String>> {
        match name {
            "range" => Some(&self.range),
            "A" => Some(&self.attacks),
            "skill" => Some(&self.skill),
            "S" => Some(&self.strength),
            "AP" => Some(&self.ap),
            "D" => Some(&self.damage),
            _ => None,
        }
    }
}

/// One points line (`Datasheets_models_cost.csv`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportCost {
    pub datasheet_id: String,
    pub cost_line: u32,
    /// HTML stripped: `5 models`, `1 Spanner and 4 Burna Boyz`, `Attack Bike`.
    pub description: String,
    /// Model count: the sum of the numbers in `description`; `None` when it has none.
    pub models: Option<u32>,
    /// Bracketed qualifier after the count: `Assigned Agent`.
    pub qualifier: Option<String>,
    pub cost: Option<u32>,
    /// The cost is printed `+55`: an add-on to the unit, not the price of a unit size.
    pub addon: bool,
    pub line: u32,
}

/// One keyword (`Datasheets_keywords.csv`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportKeyword {
    pub datasheet_id: String,
    pub keyword: String,
    /// The models the keyword is limited to (`ALL MODELS`, a model name), if any.
    pub model: Option<String>,
    pub is_faction: bool,
    pub line: u32,
}

/// One ability line of a datasheet (`Datasheets_abilities.csv`), its name resolved through
/// `Abilities.csv` for core and faction abilities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportAbility {
    pub datasheet_id: String,
    pub ability_line: u32,
    /// `None` when the line names no ability and its `ability_id` is not in `Abilities.csv`.
    pub name: Option<String>,
    pub ability_id: Option<String>,
    /// The export's `type` column: `Core`, `Faction`, `Datasheet`, `Wargear`, `Wargear profile`, …
    pub kind: String,
    pub parameter: Option<String>,
    /// The line's own `description` as stored (HTML); empty for core and faction references.
    pub description: String,
    pub line: u32,
}

/// What only the export carries about one of its datasheets, beside the [`Datasheet`] the
/// record source builds from it ([`Export::facts`]): its own ids, the line of each unit size's
/// points row, the characteristics printed with a footnote star, and the points rows that
/// price no unit size. The crosscheck compares the built datasheet and reports these.
///
/// [`Datasheet`]: crate::model::Datasheet
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExportFacts {
    pub id: String,
    pub name: String,
    pub faction_id: String,
    /// Model count → the line of its first points row (`Datasheets_models_cost.csv`).
    pub cost_lines: BTreeMap<u32, u32>,
    /// (model name, characteristic) printed with a footnote star (`T` `5*`).
    pub starred: BTreeSet<(String, String)>,
    /// Points rows that price no unit size, counted by reason ([`ADDON_COSTS`],
    /// [`UNCOUNTED_COSTS`]).
    pub not_compared: BTreeMap<&'static str, usize>,
}

/// [`ExportFacts::not_compared`]: a cost printed `+55`.
pub const ADDON_COSTS: &str = "add-on point costs (`+55`)";
/// [`ExportFacts::not_compared`]: a points row without a model count or a cost.
pub const UNCOUNTED_COSTS: &str = "points lines without a model count or cost";

/// The whole export, rows sorted by (datasheet id, line), plus what could not be read.
#[derive(Debug, Clone, Default)]
pub struct Export {
    /// `Last_update.csv`, e.g. `2025-11-14 19:35:22`.
    pub last_update: Option<String>,
    pub factions: Vec<Faction>,
    pub datasheets: Vec<ExportDatasheet>,
    pub models: Vec<ExportModel>,
    pub weapons: Vec<ExportWeapon>,
    pub costs: Vec<ExportCost>,
    pub keywords: Vec<ExportKeyword>,
    pub abilities: Vec<ExportAbility>,
    /// The tables only the record source reads (empty in [`Mode::Crosscheck`]).
    pub more: MoreRows,
    /// `C001` (malformed line) and `C002` (row of an unknown datasheet), sorted.
    pub diagnostics: Vec<Diagnostic>,
}

/// A numbered text line of a datasheet (`Datasheets_unit_composition.csv`,
/// `Datasheets_options.csv`), its `description` as stored (HTML).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportText {
    pub datasheet_id: String,
    pub number: u32,
    pub html: String,
    pub line: u32,
}

/// A pair of ids (`Datasheets_leader.csv`: leader → attached unit; `Datasheets_stratagems.csv`:
/// datasheet → stratagem).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportLink {
    pub from: String,
    pub to: String,
    pub line: u32,
}

/// A stratagem (`Stratagems.csv`); `description` as stored (HTML, `<b>WHEN:</b> …`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportStratagem {
    pub id: String,
    pub faction_id: Option<String>,
    pub name: String,
    /// `Boarding Actions – Battle Tactic Stratagem`.
    pub kind: String,
    pub cp: Option<u32>,
    pub cp_raw: String,
    pub legend: Option<String>,
    pub detachment: Option<String>,
    pub detachment_id: Option<String>,
    pub description: String,
    pub line: u32,
}

/// A detachment (`Detachments.csv`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportDetachment {
    pub id: String,
    pub faction_id: Option<String>,
    pub name: String,
    pub line: u32,
}

/// A rule of the export with its text: a detachment rule (`Detachment_abilities.csv`) or an
/// ability of `Abilities.csv` (core, or a faction's army rule when `faction_id` is set).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRule {
    pub id: String,
    pub faction_id: Option<String>,
    pub name: String,
    pub legend: Option<String>,
    pub description: String,
    pub detachment: Option<String>,
    pub detachment_id: Option<String>,
    pub line: u32,
}

/// An enhancement (`Enhancements.csv`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportEnhancement {
    pub id: String,
    pub faction_id: Option<String>,
    pub name: String,
    pub cost: Option<u32>,
    pub cost_raw: String,
    pub detachment: Option<String>,
    pub detachment_id: Option<String>,
    pub legend: Option<String>,
    pub description: String,
    pub line: u32,
}

/// The rows of the tables only the record source reads, and each table's path and sha256.
#[derive(Debug, Clone, Default)]
pub struct MoreRows {
    pub composition: Vec<ExportText>,
    pub options: Vec<ExportText>,
    pub leaders: Vec<ExportLink>,
    pub datasheet_stratagems: Vec<ExportLink>,
    pub stratagems: Vec<ExportStratagem>,
    pub detachments: Vec<ExportDetachment>,
    pub detachment_rules: Vec<ExportRule>,
    pub enhancements: Vec<ExportEnhancement>,
    pub abilities: Vec<ExportRule>,
    /// Publication id → name (`Source.csv`, when the export has it).
    pub publications: BTreeMap<String, String>,
    /// Table name → (path, sha256) of every table read.
    pub files: BTreeMap<String, (String, String)>,
}

/// `Factions.csv`: each faction's id and name.
fn read_factions(
    tables: &Tables,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<Faction>, ExportError> {
    let mut out = Vec::new();
    let t = Table::read(tables, mode, FACTIONS, &["id", "name"], diags)?;
    for r in t.rows() {
        let (Some(id), Some(name)) = (r.req("id", diags), r.req("name", diags)) else {
            continue;
        };
        out.push(Faction {
            id,
            name,
            line: r.line,
        });
    }
    Ok(out)
}

/// `Datasheets.csv`: one row per datasheet.
fn read_datasheets(
    tables: &Tables,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportDatasheet>, ExportError> {
    let mut out = Vec::new();
    let t = Table::read(
        tables,
        mode,
        DATASHEETS,
        &["id", "name", "faction_id"],
        diags,
    )?;
    for r in t.rows() {
        let (Some(id), Some(name)) = (r.req("id", diags), r.req("name", diags)) else {
            continue;
        };
        out.push(ExportDatasheet {
            id,
            name,
            faction_id: r.text("faction_id").unwrap_or_default(),
            source_id: r.text("source_id").filter(|s| !s.is_empty()),
            transport: r.raw("transport").unwrap_or("").trim().to_string(),
            virtual_: r.text("virtual").as_deref() == Some("true"),
            loadout: r.raw("loadout").unwrap_or("").to_string(),
            damaged_w: r.value("damaged_w"),
            damaged_description: r.raw("damaged_description").unwrap_or("").to_string(),
            line: r.line,
        });
    }
    Ok(out)
}

/// `Datasheets_models.csv`: the model rows, their values respelled and the starred columns noted.
fn read_models(
    tables: &Tables,
    mode: Mode,
    known: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportModel>, ExportError> {
    let mut out = Vec::new();
    let t = Table::read(
        tables,
        mode,
        MODELS,
        &[
            "datasheet_id",
            "line",
            "name",
            "M",
            "T",
            "Sv",
            "inv_sv",
            "W",
            "Ld",
            "OC",
        ],
        diags,
    )?;
    for r in t.rows() {
        let Some(datasheet_id) = r.datasheet(known, diags) else {
            continue;
        };
        let mut starred = Vec::new();
        let mut star = |col: &str| -> Option<String> {
            let v = r.text(col)?;
            let (v, s) = strip_star(&v);
            if s {
                starred.push(col.to_string());
            }
            Some(v)
        };
        let m = star("M").map(|v| inches(&v));
        let t = star("T").map(|v| plain(&v));
        let sv = star("Sv").map(|v| roll(&v));
        let w = star("W").map(|v| plain(&v));
        let ld = star("Ld").map(|v| roll(&v));
        let oc = star("OC").map(|v| plain(&v));
        let (inv_sv, inv_star) = invulnerable(r.text("inv_sv").as_deref());
        let inv_sv_descr = r.text("inv_sv_descr").filter(|s| !s.is_empty());
        out.push(ExportModel {
            datasheet_id,
            model_line: r.number("line").unwrap_or(0),
            name: r.text("name").unwrap_or_default(),
            m,
            t,
            sv,
            inv_sv_conditional: inv_sv.is_some() && (inv_star || inv_sv_descr.is_some()),
            inv_sv,
            inv_sv_descr,
            w,
            ld,
            oc,
            base_size: r.value("base_size"),
            starred,
            line: r.line,
        });
    }
    Ok(out)
}

/// `Datasheets_wargear.csv`: the weapon rows (placeholder rows without a name skipped).
fn read_weapons(
    tables: &Tables,
    mode: Mode,
    known: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportWeapon>, ExportError> {
    let mut out = Vec::new();
    let t = Table::read(
        tables,
        mode,
        WARGEAR,
        &[
            "datasheet_id",
            "line",
            "name",
            "description",
            "range",
            "type",
            "A",
            "BS_WS",
            "S",
            "AP",
            "D",
        ],
        diags,
    )?;
    for r in t.rows() {
        let Some(datasheet_id) = r.datasheet(known, diags) else {
            continue;
        };
        let name = r.text("name").unwrap_or_default();
        if name.is_empty() {
            // Placeholder rows of units without weapons (`|||||0|-|-|0|-|`).
            continue;
        }
        let kind = match r.text("type").as_deref() {
            Some("Ranged") => Some(WeaponType::Ranged),
            Some("Melee") => Some(WeaponType::Melee),
            _ => None,
        };
        out.push(ExportWeapon {
            datasheet_id,
            wargear_line: r.number("line").unwrap_or(0),
            line_in_wargear: r.number("line_in_wargear").unwrap_or(0),
            dice: r.text("dice").filter(|s| !s.is_empty()),
            name,
            kind,
            range: r.value("range").map(|v| inches(&v)),
            attacks: r.value("A").map(|v| plain(&v)),
            skill: r.value("BS_WS").map(|v| roll(&v)),
            strength: r.value("S").map(|v| plain(&v)),
            ap: r.value("AP").map(|v| plain(&v)),
            damage: r.value("D").map(|v| plain(&v)),
            keywords: split_keywords(r.raw("description").unwrap_or("")),
            line: r.line,
        });
    }
    Ok(out)
}

/// `Datasheets_models_cost.csv`: each cost line with its model count (`C001` for a cost that is not a number).
fn read_costs(
    tables: &Tables,
    mode: Mode,
    known: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportCost>, ExportError> {
    let mut out = Vec::new();
    let t = Table::read(
        tables,
        mode,
        COSTS,
        &["datasheet_id", "line", "description", "cost"],
        diags,
    )?;
    for r in t.rows() {
        let Some(datasheet_id) = r.datasheet(known, diags) else {
            continue;
        };
        let description = r.text("description").unwrap_or_default();
        let raw_cost = r.text("cost").unwrap_or_default();
        let addon = raw_cost.starts_with('+');
        let cost = raw_cost.trim_start_matches('+').parse::<u32>().ok();
        if cost.is_none() {
            diags.push(
                Diagnostic::new(
                    Code::ExportLineMalformed,
                    format!("cost `{raw_cost}` is not a number; line kept without a cost"),
                )
                .at(&t.file, r.line),
            );
        }
        let (models, qualifier) = model_count(&description);
        out.push(ExportCost {
            datasheet_id,
            cost_line: r.number("line").unwrap_or(0),
            description,
            models,
            qualifier,
            cost,
            addon,
            line: r.line,
        });
    }
    Ok(out)
}

/// `Datasheets_keywords.csv`: the keyword rows (empty keywords skipped).
fn read_keywords(
    tables: &Tables,
    mode: Mode,
    known: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportKeyword>, ExportError> {
    let mut out = Vec::new();
    let t = Table::read(
        tables,
        mode,
        KEYWORDS,
        &["datasheet_id", "keyword", "is_faction_keyword"],
        diags,
    )?;
    for r in t.rows() {
        let Some(datasheet_id) = r.datasheet(known, diags) else {
            continue;
        };
        let keyword = r.text("keyword").unwrap_or_default();
        if keyword.is_empty() {
            continue;
        }
        out.push(ExportKeyword {
            datasheet_id,
            keyword,
            model: r.text("model").filter(|s| !s.is_empty()),
            is_faction: r.text("is_faction_keyword").as_deref() == Some("true"),
            line: r.line,
        });
    }
    Ok(out)
}

/// `Datasheets_abilities.csv`: each ability line, named by its own `name` or else by its
/// ability's in `Abilities.csv`.
fn read_abilities(
    tables: &Tables,
    mode: Mode,
    known: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportAbility>, ExportError> {
    let mut out = Vec::new();
    let t = Table::read(tables, mode, ABILITIES, &["id", "name"], diags)?;
    let mut ability_names: HashMap<String, String> = HashMap::new();
    for r in t.rows() {
        if let (Some(id), Some(name)) = (r.text("id"), r.text("name")) {
            if !id.is_empty() && !name.is_empty() {
                ability_names.entry(id).or_insert(name);
            }
        }
    }

    let t = Table::read(
        tables,
        mode,
        DATASHEET_ABILITIES,
        &["datasheet_id", "line", "ability_id", "name", "type"],
        diags,
    )?;
    for r in t.rows() {
        let Some(datasheet_id) = r.datasheet(known, diags) else {
            continue;
        };
        let ability_id = r.text("ability_id").filter(|s| !s.is_empty());
        let own = r.text("name").filter(|s| !s.is_empty());
        let name = own.or_else(|| {
            ability_id
                .as_ref()
                .and_then(|id| ability_names.get(id).cloned())
        });
        out.push(ExportAbility {
            datasheet_id,
            ability_line: r.number("line").unwrap_or(0),
            name,
            ability_id,
            kind: r.text("type").unwrap_or_default(),
            parameter: r.text("parameter").filter(|s| !s.is_empty()),
            description: r.raw("description").unwrap_or("").to_string(),
            line: r.line,
        });
    }
    Ok(out)
}

/// Rows of one datasheet from a table sorted by datasheet id.
fn rows_of<'a, T>(rows: &'a [T], id: &str, key: impl Fn(&T) -> &str) -> &'a [T] {
    let start = rows.partition_point(|r| key(r) < id);
    let end = rows.partition_point(|r| key(r) <= id);
    &rows[start..end.max(start)]
}

impl Export {
    /// Reads the tables of an export (in memory). [`Mode::Crosscheck`] reads the tables the
    /// crosscheck compares and fails on a missing table or column; [`Mode::Records`] reads every
    /// table and makes a missing one a `C003` diagnostic (its rows are simply absent).
    pub fn from_tables(tables: &Tables, mode: Mode) -> Result<Export, ExportError> {
        let mut diags = Vec::new();
        let mut ex = Export {
            last_update: read_last_update(tables, mode, &mut diags)?,
            ..Export::default()
        };

        ex.factions = read_factions(tables, mode, &mut diags)?;
        ex.datasheets = read_datasheets(tables, mode, &mut diags)?;
        let known: BTreeSet<String> = ex.datasheets.iter().map(|d| d.id.clone()).collect();
        ex.models = read_models(tables, mode, &known, &mut diags)?;
        ex.weapons = read_weapons(tables, mode, &known, &mut diags)?;
        ex.costs = read_costs(tables, mode, &known, &mut diags)?;
        ex.keywords = read_keywords(tables, mode, &known, &mut diags)?;
        ex.abilities = read_abilities(tables, mode, &known, &mut diags)?;
        ex.datasheets.sort_by(|a, b| a.id.cmp(&b.id));
        ex.models
            .sort_by(|a, b| (&a.datasheet_id, a.line).cmp(&(&b.datasheet_id, b.line)));
        ex.weapons
            .sort_by(|a, b| (&a.datasheet_id, a.line).cmp(&(&b.datasheet_id, b.line)));
        ex.costs
            .sort_by(|a, b| (&a.datasheet_id, a.line).cmp(&(&b.datasheet_id, b.line)));
        ex.keywords
            .sort_by(|a, b| (&a.datasheet_id, a.line).cmp(&(&b.datasheet_id, b.line)));
        ex.abilities
            .sort_by(|a, b| (&a.datasheet_id, a.line).cmp(&(&b.datasheet_id, b.line)));
        if mode == Mode::Records {
            ex.more = read_more(tables, &known, &mut diags)?;
        }
        crate::diag::sort_diagnostics(&mut diags);
        ex.diagnostics = diags;
        Ok(ex)
    }

    /// The [`ExportFacts`] of every datasheet, keyed by its `Datasheets.csv` line (the line
    /// the datasheet built from it names in its provenance).
    pub fn facts(&self) -> BTreeMap<u32, ExportFacts> {
        let mut out = BTreeMap::new();
        for d in &self.datasheets {
            let mut f = ExportFacts {
                id: d.id.clone(),
                name: d.name.clone(),
                faction_id: d.faction_id.clone(),
                ..ExportFacts::default()
            };
            for c in self.costs_of(&d.id) {
                match (c.addon, c.models, c.cost) {
                    (true, _, _) => *f.not_compared.entry(ADDON_COSTS).or_default() += 1,
                    (false, Some(n), Some(_)) => {
                        f.cost_lines.entry(n).or_insert(c.line);
                    }
                    _ => *f.not_compared.entry(UNCOUNTED_COSTS).or_default() += 1,
                }
            }
            for m in self.models_of(&d.id) {
                for c in &m.starred {
                    f.starred.insert((m.name.clone(), c.clone()));
                }
            }
            out.insert(d.line, f);
        }
        out
    }

    /// The datasheet with this export id.
    pub fn datasheet(&self, id: &str) -> Option<&ExportDatasheet> {
        self.datasheets
            .binary_search_by(|d| d.id.as_str().cmp(id))
            .ok()
            .and_then(|i| self.datasheets.get(i))
    }

    /// The export's datasheet with this id and name in the given faction (first match).
    pub fn find(&self, faction_id: &str, name: &str) -> Option<&ExportDatasheet> {
        self.datasheets
            .iter()
            .find(|d| d.faction_id == faction_id && d.name == name)
    }

    /// Rows of one datasheet, in line order (`from_tables` sorts every table by datasheet id,
    /// then line).
    pub fn models_of(&self, id: &str) -> Vec<&ExportModel> {
        rows_of(&self.models, id, |r| &r.datasheet_id)
            .iter()
            .collect()
    }
    pub fn weapons_of(&self, id: &str) -> Vec<&ExportWeapon> {
        rows_of(&self.weapons, id, |r| &r.datasheet_id)
            .iter()
            .collect()
    }
    pub fn costs_of(&self, id: &str) -> Vec<&ExportCost> {
        rows_of(&self.costs, id, |r| &r.datasheet_id)
            .iter()
            .collect()
    }
    pub fn keywords_of(&self, id: &str) -> Vec<&ExportKeyword> {
        rows_of(&self.keywords, id, |r| &r.datasheet_id)
            .iter()
            .collect()
    }
    pub fn abilities_of(&self, id: &str) -> Vec<&ExportAbility> {
        rows_of(&self.abilities, id, |r| &r.datasheet_id)
            .iter()
            .collect()
    }
}

fn read_last_update(
    tables: &Tables,
    mode: Mode,
    diags: &mut Vec<Diagnostic>,
) -> Result<Option<String>, ExportError> {
    if tables.get(LAST_UPDATE).is_none() {
        if mode == Mode::Records {
            diags.push(
                Diagnostic::new(
                    Code::ExportTableMissing,
                    format!("{LAST_UPDATE}: table missing from the export; read without its date"),
                )
                .in_file(&tables.path_of(LAST_UPDATE)),
            );
        }
        return Ok(None);
    }
    let t = Table::read(tables, mode, LAST_UPDATE, &["last_update"], diags)?;
    let v = t.rows().find_map(|r| r.value("last_update"));
    Ok(v)
}

/// `Stratagems.csv`: each stratagem row (its CP cost as printed and as a number).
fn read_stratagems(
    tables: &Tables,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportStratagem>, ExportError> {
    let mode = Mode::Records;
    let mut out = Vec::new();
    let t = Table::read(
        tables,
        mode,
        STRATAGEMS,
        &["faction_id", "name", "id", "type", "cp_cost", "description"],
        diags,
    )?;
    for r in t.rows() {
        let (Some(id), Some(name)) = (r.req("id", diags), r.req("name", diags)) else {
            continue;
        };
        let cp_raw = r.text("cp_cost").unwrap_or_default();
        out.push(ExportStratagem {
            id,
            faction_id: r.value("faction_id"),
            name,
            kind: r.text("type").unwrap_or_default(),
            cp: cp_raw.parse().ok(),
            cp_raw,
            legend: r.value("legend"),
            detachment: r.value("detachment"),
            detachment_id: r.value("detachment_id"),
            description: r.raw("description").unwrap_or("").to_string(),
            line: r.line,
        });
    }
    Ok(out)
}

/// `Detachments.csv`: each detachment row.
fn read_detachments(
    tables: &Tables,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportDetachment>, ExportError> {
    let mode = Mode::Records;
    let mut out = Vec::new();
    let t = Table::read(
        tables,
        mode,
        DETACHMENTS,
        &["id", "faction_id", "name"],
        diags,
    )?;
    for r in t.rows() {
        let (Some(id), Some(name)) = (r.req("id", diags), r.req("name", diags)) else {
            continue;
        };
        out.push(ExportDetachment {
            id,
            faction_id: r.value("faction_id"),
            name,
            line: r.line,
        });
    }
    Ok(out)
}

/// A table of rules (`Detachment_abilities.csv`, `Abilities.csv`): each rule row.
fn read_rules(
    tables: &Tables,
    name: &'static str,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportRule>, ExportError> {
    let mode = Mode::Records;
    let mut out = Vec::new();
    let t = Table::read(tables, mode, name, &["id", "name", "description"], diags)?;
    for r in t.rows() {
        let (Some(id), Some(rule)) = (r.req("id", diags), r.req("name", diags)) else {
            continue;
        };
        out.push(ExportRule {
            id,
            faction_id: r.value("faction_id"),
            name: rule,
            legend: r.value("legend"),
            description: r.raw("description").unwrap_or("").to_string(),
            detachment: r.value("detachment"),
            detachment_id: r.value("detachment_id"),
            line: r.line,
        });
    }
    Ok(out)
}

/// `Enhancements.csv`: each enhancement row (its cost as printed and as a number).
fn read_enhancements(
    tables: &Tables,
    diags: &mut Vec<Diagnostic>,
) -> Result<Vec<ExportEnhancement>, ExportError> {
    let mode = Mode::Records;
    let mut out = Vec::new();
    let t = Table::read(
        tables,
        mode,
        ENHANCEMENTS,
        &["id", "name", "cost", "description"],
        diags,
    )?;
    for r in t.rows() {
        let (Some(id), Some(name)) = (r.req("id", diags), r.req("name", diags)) else {
            continue;
        };
        let cost_raw = r.text("cost").unwrap_or_default();
        out.push(ExportEnhancement {
            id,
            faction_id: r.value("faction_id"),
            name,
            cost: cost_raw.parse().ok(),
            cost_raw,
            detachment: r.value("detachment"),
            detachment_id: r.value("detachment_id"),
            legend: r.value("legend"),
            description: r.raw("description").unwrap_or("").to_string(),
            line: r.line,
        });
    }
    Ok(out)
}

/// The tables only the record source reads ([`Mode::Records`]: a missing one is `C003`).
fn read_more(
    tables: &Tables,
    known: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Result<MoreRows, ExportError> {
    let mode = Mode::Records;
    let mut m = MoreRows::default();
    for name in READ {
        if let Some(f) = tables.get(name) {
            m.files
                .insert(name.to_string(), (tables.path_of(name), f.sha256.clone()));
        }
    }
    if tables.get(PUBLICATIONS).is_some() {
        let t = Table::read(tables, mode, PUBLICATIONS, &["id", "name"], diags)?;
        for r in t.rows() {
            if let (Some(id), Some(name)) = (r.text("id"), r.text("name")) {
                m.publications.insert(id, name);
            }
        }
    }
    for (name, out) in [(COMPOSITION, &mut m.composition), (OPTIONS, &mut m.options)] {
        let t = Table::read(
            tables,
            mode,
            name,
            &["datasheet_id", "line", "description"],
            diags,
        )?;
        for r in t.rows() {
            let Some(datasheet_id) = r.datasheet(known, diags) else {
                continue;
            };
            out.push(ExportText {
                datasheet_id,
                number: r.number("line").unwrap_or(0),
                html: r.raw("description").unwrap_or("").to_string(),
                line: r.line,
            });
        }
    }
    for (name, cols, out) in [
        (LEADER, ["leader_id", "attached_id"], &mut m.leaders),
        (
            DATASHEET_STRATAGEMS,
            ["datasheet_id", "stratagem_id"],
            &mut m.datasheet_stratagems,
        ),
    ] {
        let t = Table::read(tables, mode, name, &cols, diags)?;
        for r in t.rows() {
            let (Some(from), Some(to)) = (r.req(cols[0], diags), r.req(cols[1], diags)) else {
                continue;
            };
            out.push(ExportLink {
                from,
                to,
                line: r.line,
            });
        }
    }
    m.stratagems = read_stratagems(tables, diags)?;
    m.detachments = read_detachments(tables, diags)?;
    m.detachment_rules = read_rules(tables, DETACHMENT_ABILITIES, diags)?;
    m.abilities = read_rules(tables, ABILITIES, diags)?;
    m.enhancements = read_enhancements(tables, diags)?;
    // Sorted by datasheet, then line: the builder takes one datasheet's rows as a slice.
    for v in [&mut m.composition, &mut m.options] {
        v.sort_by(|a, b| (&a.datasheet_id, a.line).cmp(&(&b.datasheet_id, b.line)));
    }
    for v in [&mut m.leaders, &mut m.datasheet_stratagems] {
        v.sort_by(|a, b| (&a.from, a.line).cmp(&(&b.from, b.line)));
    }
    Ok(m)
}

/// One table: its header (column → index) and its records with their 1-based lines.
struct Table {
    /// The table's path as diagnostics and provenance name it (the tables' prefix + name).
    file: String,
    columns: HashMap<String, usize>,
    records: Vec<(u32, csv::StringRecord)>,
}

/// The records of a table after its header, with their lines: a blank line is skipped, a
/// line shorter than `width` fields or one the reader rejects is `C001` and skipped.
fn records_of(
    mut reader: csv::Reader<&[u8]>,
    bytes: &[u8],
    width: usize,
    file: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(u32, csv::StringRecord)> {
    let mut records = Vec::new();
    let mut lines = LineCounter::default();
    for result in reader.records() {
        match result {
            Ok(rec) => {
                let line = rec.position().map_or(0, |p| lines.line(bytes, p.byte()));
                if rec.len() == 1 && rec.get(0).is_some_and(|s| s.trim().is_empty()) {
                    continue; // blank line
                }
                if rec.len() < width {
                    diags.push(
                        Diagnostic::new(
                            Code::ExportLineMalformed,
                            format!("{} fields, {} expected; line skipped", rec.len(), width),
                        )
                        .at(file, line),
                    );
                    continue;
                }
                records.push((line, rec));
            }
            Err(e) => {
                let line = e.position().map_or(0, |p| lines.line(bytes, p.byte()));
                diags.push(
                    Diagnostic::new(Code::ExportLineMalformed, format!("{e}; line skipped"))
                        .at(file, line),
                );
            }
        }
    }
    records
}

/// 1-based line numbers from byte offsets, counted incrementally (records come in order). The
/// csv crate's own line count is one short after a CRLF, so lines are counted here: a record's
/// line is one more than the newlines before its first byte (line ends skipped).
#[derive(Default)]
struct LineCounter {
    offset: usize,
    newlines: usize,
}

impl LineCounter {
    fn line(&mut self, bytes: &[u8], byte: u64) -> u32 {
        let mut start = usize::try_from(byte).unwrap_or(usize::MAX).min(bytes.len());
        while start < bytes.len() && matches!(bytes[start], b'\r' | b'\n') {
            start += 1;
        }
        if start < self.offset {
            self.offset = 0;
            self.newlines = 0;
        }
        self.newlines += bytes[self.offset..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.offset = start;
        u32::try_from(self.newlines + 1).unwrap_or(u32::MAX)
    }
}

/// The rows of an id-keyed table, one per id (`C005` for an id on several lines): the row kept
/// is the smallest by content (its fields compared in order), whatever the order of the lines.
fn one_row_per_id(
    records: Vec<(u32, csv::StringRecord)>,
    col: usize,
    file: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(u32, csv::StringRecord)> {
    let id_of = |rec: &csv::StringRecord| rec.get(col).unwrap_or("").trim().to_string();
    let mut by_id: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (k, (_, rec)) in records.iter().enumerate() {
        by_id.entry(id_of(rec)).or_default().push(k);
    }
    let mut drop = BTreeSet::new();
    for (id, rows) in by_id
        .iter()
        .filter(|(id, rows)| rows.len() > 1 && !id.is_empty())
    {
        let fields = |k: &usize| records[*k].1.iter().collect::<Vec<&str>>();
        let Some(keep) = rows.iter().min_by(|a, b| fields(a).cmp(&fields(b))) else {
            continue;
        };
        let lines: Vec<String> = rows.iter().map(|k| records[*k].0.to_string()).collect();
        diags.push(
            Diagnostic::new(
                Code::ExportDuplicateId,
                format!(
                    "id {id} is on lines {}; the row of line {} is kept (chosen by content), \
                     the others are dropped",
                    lines.join(", "),
                    records[*keep].0
                ),
            )
            .at(file, records[rows[0]].0),
        );
        drop.extend(rows.iter().filter(|k| *k != keep).copied());
    }
    records
        .into_iter()
        .enumerate()
        .filter(|(k, _)| !drop.contains(k))
        .map(|(_, r)| r)
        .collect()
}

/// One record of a [`Table`].
struct Row<'t> {
    table: &'t Table,
    line: u32,
    rec: &'t csv::StringRecord,
}

impl Table {
    /// An empty table (a missing table in [`Mode::Records`]).
    fn empty(file: String) -> Table {
        Table {
            file,
            columns: HashMap::new(),
            records: Vec::new(),
        }
    }

    /// A table that cannot be read: an error in [`Mode::Crosscheck`]; in [`Mode::Records`] a
    /// diagnostic and an empty table: a missing table a warning (`C003`; `Datasheets.csv`
    /// excepted), one that is there but cannot be read an error at its header line (`C004`).
    fn unreadable(
        err: ExportError,
        mode: Mode,
        name: &str,
        file: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Result<Table, ExportError> {
        if mode == Mode::Crosscheck {
            return Err(err);
        }
        let missing = matches!(err, ExportError::Missing { .. });
        let d = if missing && name != DATASHEETS {
            Diagnostic::new(
                Code::ExportTableMissing,
                format!("{err}; its rows are absent"),
            )
            .in_file(file)
        } else if missing {
            Diagnostic::new(
                Code::ExportTableUnreadable,
                format!("{err}; the export has no datasheets"),
            )
            .in_file(file)
        } else {
            Diagnostic::new(
                Code::ExportTableUnreadable,
                format!("{err}; its rows are absent"),
            )
            .at(file, 1)
        };
        diags.push(d);
        Ok(Table::empty(file.to_string()))
    }

    /// Table `name` of `tables`: its header (every `required` column there) and its records;
    /// a table that cannot be read is [`Table::unreadable`].
    fn read(
        tables: &Tables,
        mode: Mode,
        name: &'static str,
        required: &[&str],
        diags: &mut Vec<Diagnostic>,
    ) -> Result<Table, ExportError> {
        let file = tables.path_of(name);
        let fail = |err: ExportError, diags: &mut Vec<Diagnostic>| {
            Table::unreadable(err, mode, name, &file, diags)
        };
        let Some(src) = tables.get(name) else {
            return fail(
                ExportError::Missing {
                    file: name.to_string(),
                },
                diags,
            );
        };
        let (bytes, boms) = strip_boms(&src.bytes);
        if boms > 1 && mode == Mode::Records {
            diags.push(
                Diagnostic::new(
                    Code::ExportLineMalformed,
                    format!("{boms} byte-order marks before the header; read after them"),
                )
                .at(&file, 1),
            );
        }
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(b'|')
            .quoting(false)
            .flexible(true)
            .has_headers(true)
            .from_reader(bytes);
        let header = match reader.headers() {
            Ok(h) => h,
            Err(e) => {
                return fail(
                    ExportError::Table {
                        file: name.to_string(),
                        message: e.to_string(),
                    },
                    diags,
                )
            }
        };
        let mut columns = HashMap::new();
        for (i, h) in header.iter().enumerate() {
            let h = h.trim_start_matches('\u{feff}').trim();
            if !h.is_empty() {
                columns.entry(h.to_string()).or_insert(i);
            }
        }
        for c in required {
            if !columns.contains_key(*c) {
                return fail(
                    ExportError::MissingColumn {
                        file: name.to_string(),
                        column: (*c).to_string(),
                    },
                    diags,
                );
            }
        }
        let width = required
            .iter()
            .filter_map(|c| columns.get(*c))
            .max()
            .map_or(0, |m| m + 1);
        let mut records = records_of(reader, bytes, width, &file, diags);
        if let Some(&col) = columns.get("id").filter(|_| ID_KEYED.contains(&name)) {
            records = one_row_per_id(records, col, &file, diags);
        }
        Ok(Table {
            file,
            columns,
            records,
        })
    }

    fn rows(&self) -> impl Iterator<Item = Row<'_>> {
        self.records.iter().map(move |(line, rec)| Row {
            table: self,
            line: *line,
            rec,
        })
    }
}

impl Row<'_> {
    /// The field as stored in the file.
    fn raw(&self, col: &str) -> Option<&str> {
        let i = *self.table.columns.get(col)?;
        self.rec.get(i)
    }

    /// The field with HTML stripped, entities decoded and whitespace trimmed and collapsed.
    fn text(&self, col: &str) -> Option<String> {
        self.raw(col).map(clean_text)
    }

    /// [`Row::text`], `None` when empty.
    fn value(&self, col: &str) -> Option<String> {
        self.text(col).filter(|s| !s.is_empty())
    }

    fn number(&self, col: &str) -> Option<u32> {
        self.text(col).and_then(|s| s.parse().ok())
    }

    /// A field that must not be empty; a `C001` diagnostic when it is.
    fn req(&self, col: &str, diags: &mut Vec<Diagnostic>) -> Option<String> {
        let v = self.value(col);
        if v.is_none() {
            diags.push(
                Diagnostic::new(
                    Code::ExportLineMalformed,
                    format!("`{col}` is empty; line skipped"),
                )
                .at(&self.table.file, self.line),
            );
        }
        v
    }

    /// `datasheet_id`, checked against `Datasheets.csv` (`C002` when unknown).
    fn datasheet(&self, known: &BTreeSet<String>, diags: &mut Vec<Diagnostic>) -> Option<String> {
        let id = self.req("datasheet_id", diags)?;
        // No datasheet known: `Datasheets.csv` could not be read (`C004`), not every row is
        // an orphan.
        if !known.contains(&id) {
            if known.is_empty() {
                return None;
            }
            diags.push(
                Diagnostic::new(
                    Code::ExportDanglingRow,
                    format!("datasheet_id {id} is not in {DATASHEETS}"),
                )
                .at(&self.table.file, self.line),
            );
            return None;
        }
        Some(id)
    }
}

/// The text of a field: HTML rendered by the HTML decoder's fragment reader (tags dropped,
/// entities decoded, `<br>` and list items as spaces), whitespace trimmed and collapsed.
pub fn clean_text(s: &str) -> String {
    crate::decode::html::fragment_text(s)
}

/// `5*` → (`5`, true).
fn strip_star(s: &str) -> (String, bool) {
    let t = s.trim();
    match t.strip_suffix('*') {
        Some(v) => (v.trim().to_string(), true),
        None => (t.to_string(), false),
    }
}

/// A plain value: trimmed, `-0` → `0`.
pub fn plain(s: &str) -> String {
    let t = s.trim();
    if t == "-0" || t == "+0" {
        "0".to_string()
    } else {
        t.to_string()
    }
}

/// A roll without its `+`: `3` → `3+`; `3+`, `N/A`, `-` kept.
pub fn roll(s: &str) -> String {
    let t = s.trim();
    if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
        format!("{t}+")
    } else {
        t.to_string()
    }
}

/// A distance without its `"`: `24` → `24"`, `20+` → `20+"`; `Melee`, `N/A`, `-`, `6"` kept.
pub fn inches(s: &str) -> String {
    let t = s.trim();
    let digits = t.trim_end_matches('+');
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        format!("{t}\"")
    } else {
        t.to_string()
    }
}

/// `inv_sv`: `4` → `4+`, `4*` → (`4+`, starred), `-`/empty → `None`.
pub fn invulnerable(s: Option<&str>) -> (Option<String>, bool) {
    let p = crate::extract::sheet::PrintedSave::read(s.unwrap_or_default());
    (p.save, p.starred)
}

/// The weapon abilities of a `description` cell: HTML stripped, split on commas (and on the
/// `. ` a few lines use instead), empty pieces dropped, case kept.
pub fn split_keywords(raw: &str) -> Vec<String> {
    crate::text::words::ListStyle::EXPORT.split(&clean_text(raw))
}

/// The model count of a points description: the sum of its numbers (`1 Spanner and 4 Burna
/// Boyz` → 5), and the bracketed qualifier (`1 model (Assigned Agent)`).
pub fn model_count(description: &str) -> (Option<u32>, Option<String>) {
    let (head, qualifier) = match description.find('(') {
        Some(i) => (
            &description[..i],
            Some(
                description[i + 1..]
                    .trim_end()
                    .trim_end_matches(')')
                    .trim()
                    .to_string(),
            )
            .filter(|q| !q.is_empty()),
        ),
        None => (description, None),
    };
    let mut total: Option<u32> = None;
    for word in head.split(|c: char| !c.is_ascii_digit()) {
        if let Ok(n) = word.parse::<u32>() {
            total = Some(total.unwrap_or(0).saturating_add(n));
        }
    }
    (total, qualifier)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions() {
        assert_eq!(roll("3"), "3+");
        assert_eq!(roll("3+"), "3+");
        assert_eq!(roll("N/A"), "N/A");
        assert_eq!(inches("24"), "24\"");
        assert_eq!(inches("20+"), "20+\"");
        assert_eq!(inches("Melee"), "Melee");
        assert_eq!(plain("-0"), "0");
        assert_eq!(invulnerable(Some("4*")), (Some("4+".into()), true));
        assert_eq!(invulnerable(Some("-")), (None, false));
        assert_eq!(
            model_count("1 Sword Brother, 5 Initiates and 4 Neophytes"),
            (Some(10), None)
        );
        assert_eq!(
            model_count("1 model (Assigned Agent)"),
            (Some(1), Some("Assigned Agent".into()))
        );
        assert_eq!(model_count("Attack Bike"), (None, None));
        assert_eq!(clean_text("a &amp; b &#34;c&#x27;"), "a & b \"c'");
        assert_eq!(
            split_keywords("<a href=\"/x#Heavy\">heavy</a>, "),
            vec!["heavy".to_string()]
        );
    }
}
