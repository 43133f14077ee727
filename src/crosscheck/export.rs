//! Reading Wahapedia's CSV export (a directory of pipe-separated tables) into typed rows.
//!
//! Owns the export's conventions: UTF-8 BOM, CRLF, a trailing `|` on every line (an extra empty
//! field), no quoting (`quoting(false)`, flexible field counts), HTML inside fields (tags
//! stripped, entities decoded), trailing spaces in names and dice, BS/WS without `+` (but also
//! `N/A`, `-` and a few `3+`), ranges without `"`, `inv_sv` without `+` (`4`, `-`, `4*`), `T`
//! with a footnote star (`5*`), AP `-0`, and point costs that are add-ons (`+55`). Values come
//! out in the dataset's canonical spelling where the convention is known (`3` → `3+`, `24` →
//! `24"`, `-0` → `0`); anything else is kept as printed so the comparison can call it malformed.
//!
//! Rows are keyed by the export's own `datasheet_id` and carry the 1-based line of the CSV file
//! they were read from. A line that cannot be read becomes a `C001` diagnostic and is skipped;
//! a missing table or column is an [`ExportError`]. It must not know the dataset, compare
//! anything, or panic on what the files contain.

use crate::diag::{Code, Diagnostic};
use crate::model::WeaponType;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

pub const DATASHEETS: &str = "Datasheets.csv";
pub const MODELS: &str = "Datasheets_models.csv";
pub const WARGEAR: &str = "Datasheets_wargear.csv";
pub const COSTS: &str = "Datasheets_models_cost.csv";
pub const KEYWORDS: &str = "Datasheets_keywords.csv";
pub const DATASHEET_ABILITIES: &str = "Datasheets_abilities.csv";
pub const ABILITIES: &str = "Abilities.csv";
pub const FACTIONS: &str = "Factions.csv";
pub const LAST_UPDATE: &str = "Last_update.csv";

/// Why the export directory cannot be read at all.
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
    /// The `transport` column is filled (the datasheet's TRANSPORT block).
    pub transport: bool,
    /// The export's `virtual` flag (a datasheet that only exists as a reference).
    pub virtual_: bool,
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
    /// Characteristics printed with a footnote star (`T` for `5*`), star removed from the value.
    pub starred: Vec<String>,
    pub line: u32,
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
    pub line: u32,
}

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
    /// `C001` (malformed line) and `C002` (row of an unknown datasheet), sorted.
    pub diagnostics: Vec<Diagnostic>,
}

impl Export {
    /// Reads the tables of an export directory.
    pub fn read_dir(dir: &Path) -> Result<Export, ExportError> {
        if !dir.is_dir() {
            return Err(ExportError::NotADirectory(dir.to_path_buf()));
        }
        let mut diags = Vec::new();
        let mut ex = Export {
            last_update: read_last_update(dir, &mut diags)?,
            ..Export::default()
        };

        let t = Table::read(dir, FACTIONS, &["id", "name"], &mut diags)?;
        for r in t.rows() {
            let (Some(id), Some(name)) = (r.req("id", &mut diags), r.req("name", &mut diags))
            else {
                continue;
            };
            ex.factions.push(Faction {
                id,
                name,
                line: r.line,
            });
        }

        let t = Table::read(dir, DATASHEETS, &["id", "name", "faction_id"], &mut diags)?;
        for r in t.rows() {
            let (Some(id), Some(name)) = (r.req("id", &mut diags), r.req("name", &mut diags))
            else {
                continue;
            };
            ex.datasheets.push(ExportDatasheet {
                id,
                name,
                faction_id: r.text("faction_id").unwrap_or_default(),
                transport: r.text("transport").is_some_and(|s| !s.is_empty()),
                virtual_: r.text("virtual").as_deref() == Some("true"),
                line: r.line,
            });
        }
        let known: BTreeSet<String> = ex.datasheets.iter().map(|d| d.id.clone()).collect();

        let t = Table::read(
            dir,
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
            &mut diags,
        )?;
        for r in t.rows() {
            let Some(datasheet_id) = r.datasheet(&known, &mut diags) else {
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
            ex.models.push(ExportModel {
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
                starred,
                line: r.line,
            });
        }

        let t = Table::read(
            dir,
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
            &mut diags,
        )?;
        for r in t.rows() {
            let Some(datasheet_id) = r.datasheet(&known, &mut diags) else {
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
            ex.weapons.push(ExportWeapon {
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

        let t = Table::read(
            dir,
            COSTS,
            &["datasheet_id", "line", "description", "cost"],
            &mut diags,
        )?;
        for r in t.rows() {
            let Some(datasheet_id) = r.datasheet(&known, &mut diags) else {
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
                    .at(COSTS, r.line),
                );
            }
            let (models, qualifier) = model_count(&description);
            ex.costs.push(ExportCost {
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

        let t = Table::read(
            dir,
            KEYWORDS,
            &["datasheet_id", "keyword", "is_faction_keyword"],
            &mut diags,
        )?;
        for r in t.rows() {
            let Some(datasheet_id) = r.datasheet(&known, &mut diags) else {
                continue;
            };
            let keyword = r.text("keyword").unwrap_or_default();
            if keyword.is_empty() {
                continue;
            }
            ex.keywords.push(ExportKeyword {
                datasheet_id,
                keyword,
                model: r.text("model").filter(|s| !s.is_empty()),
                is_faction: r.text("is_faction_keyword").as_deref() == Some("true"),
                line: r.line,
            });
        }

        let t = Table::read(dir, ABILITIES, &["id", "name"], &mut diags)?;
        let mut ability_names: HashMap<String, String> = HashMap::new();
        for r in t.rows() {
            if let (Some(id), Some(name)) = (r.text("id"), r.text("name")) {
                if !id.is_empty() && !name.is_empty() {
                    ability_names.entry(id).or_insert(name);
                }
            }
        }

        let t = Table::read(
            dir,
            DATASHEET_ABILITIES,
            &["datasheet_id", "line", "ability_id", "name", "type"],
            &mut diags,
        )?;
        for r in t.rows() {
            let Some(datasheet_id) = r.datasheet(&known, &mut diags) else {
                continue;
            };
            let ability_id = r.text("ability_id").filter(|s| !s.is_empty());
            let own = r.text("name").filter(|s| !s.is_empty());
            let name = own.or_else(|| {
                ability_id
                    .as_ref()
                    .and_then(|id| ability_names.get(id).cloned())
            });
            ex.abilities.push(ExportAbility {
                datasheet_id,
                ability_line: r.number("line").unwrap_or(0),
                name,
                ability_id,
                kind: r.text("type").unwrap_or_default(),
                parameter: r.text("parameter").filter(|s| !s.is_empty()),
                line: r.line,
            });
        }

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
        crate::diag::sort_diagnostics(&mut diags);
        ex.diagnostics = diags;
        Ok(ex)
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

    /// Rows of one datasheet, in line order.
    pub fn models_of(&self, id: &str) -> Vec<&ExportModel> {
        self.models
            .iter()
            .filter(|r| r.datasheet_id == id)
            .collect()
    }
    pub fn weapons_of(&self, id: &str) -> Vec<&ExportWeapon> {
        self.weapons
            .iter()
            .filter(|r| r.datasheet_id == id)
            .collect()
    }
    pub fn costs_of(&self, id: &str) -> Vec<&ExportCost> {
        self.costs.iter().filter(|r| r.datasheet_id == id).collect()
    }
    pub fn keywords_of(&self, id: &str) -> Vec<&ExportKeyword> {
        self.keywords
            .iter()
            .filter(|r| r.datasheet_id == id)
            .collect()
    }
    pub fn abilities_of(&self, id: &str) -> Vec<&ExportAbility> {
        self.abilities
            .iter()
            .filter(|r| r.datasheet_id == id)
            .collect()
    }
}

fn read_last_update(
    dir: &Path,
    diags: &mut Vec<Diagnostic>,
) -> Result<Option<String>, ExportError> {
    if !dir.join(LAST_UPDATE).is_file() {
        return Ok(None);
    }
    let t = Table::read(dir, LAST_UPDATE, &["last_update"], diags)?;
    let v = t.rows().find_map(|r| r.value("last_update"));
    Ok(v)
}

/// One table: its header (column → index) and its records with their 1-based lines.
struct Table {
    file: &'static str,
    columns: HashMap<String, usize>,
    records: Vec<(u32, csv::StringRecord)>,
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

/// One record of a [`Table`].
struct Row<'t> {
    table: &'t Table,
    line: u32,
    rec: &'t csv::StringRecord,
}

impl Table {
    fn read(
        dir: &Path,
        file: &'static str,
        required: &[&str],
        diags: &mut Vec<Diagnostic>,
    ) -> Result<Table, ExportError> {
        let bytes = std::fs::read(dir.join(file)).map_err(|source| ExportError::Read {
            file: file.to_string(),
            source,
        })?;
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&bytes);
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(b'|')
            .quoting(false)
            .flexible(true)
            .has_headers(true)
            .from_reader(bytes);
        let header = reader.headers().map_err(|e| ExportError::Table {
            file: file.to_string(),
            message: e.to_string(),
        })?;
        let mut columns = HashMap::new();
        for (i, h) in header.iter().enumerate() {
            let h = h.trim_start_matches('\u{feff}').trim();
            if !h.is_empty() {
                columns.entry(h.to_string()).or_insert(i);
            }
        }
        for c in required {
            if !columns.contains_key(*c) {
                return Err(ExportError::MissingColumn {
                    file: file.to_string(),
                    column: (*c).to_string(),
                });
            }
        }
        let width = required
            .iter()
            .filter_map(|c| columns.get(*c))
            .max()
            .map_or(0, |m| m + 1);
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
                .at(self.table.file, self.line),
            );
        }
        v
    }

    /// `datasheet_id`, checked against `Datasheets.csv` (`C002` when unknown).
    fn datasheet(&self, known: &BTreeSet<String>, diags: &mut Vec<Diagnostic>) -> Option<String> {
        let id = self.req("datasheet_id", diags)?;
        if !known.contains(&id) {
            diags.push(
                Diagnostic::new(
                    Code::ExportDanglingRow,
                    format!("datasheet_id {id} is not in {DATASHEETS}"),
                )
                .at(self.table.file, self.line),
            );
            return None;
        }
        Some(id)
    }
}

/// HTML tags stripped, character entities decoded, whitespace trimmed and collapsed.
pub fn clean_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' if !in_tag => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let decoded = decode_entities(&out);
    // Tags become a space so `a<br>b` keeps its words apart; glue back `x </a>,` → `x,`.
    let collapsed = decoded.split_whitespace().collect::<Vec<_>>().join(" ");
    collapsed
        .replace(" ,", ",")
        .replace(" .", ".")
        .replace("( ", "(")
        .replace(" )", ")")
}

/// Decodes the entities the export uses (`&amp;`, `&quot;`, `&#34;`, `&#x2019;`, `&nbsp;`, …).
pub fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let named: BTreeMap<&str, &str> = [
        ("amp", "&"),
        ("lt", "<"),
        ("gt", ">"),
        ("quot", "\""),
        ("apos", "'"),
        ("nbsp", " "),
        ("rsquo", "\u{2019}"),
        ("lsquo", "\u{2018}"),
        ("rdquo", "\u{201D}"),
        ("ldquo", "\u{201C}"),
        ("ndash", "\u{2013}"),
        ("mdash", "\u{2014}"),
        ("hellip", "\u{2026}"),
        ("times", "\u{00D7}"),
        ("bull", "\u{2022}"),
    ]
    .into_iter()
    .collect();
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let decoded = tail.find(';').filter(|&e| e <= 10).and_then(|e| {
            let ent = &tail[1..e];
            let ch = if let Some(hex) = ent.strip_prefix("#x").or_else(|| ent.strip_prefix("#X")) {
                u32::from_str_radix(hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .map(String::from)
            } else if let Some(dec) = ent.strip_prefix('#') {
                dec.parse::<u32>()
                    .ok()
                    .and_then(char::from_u32)
                    .map(String::from)
            } else {
                named.get(ent).map(|s| (*s).to_string())
            };
            ch.map(|c| (c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push_str(&c);
                rest = &tail[len..];
            }
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
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
    let Some(s) = s else {
        return (None, false);
    };
    let (v, star) = strip_star(s);
    if v.is_empty() || v == "-" {
        return (None, star);
    }
    (Some(roll(&v)), star)
}

/// The weapon abilities of a `description` cell: HTML stripped, split on commas (and on the
/// `. ` a few lines use instead), empty pieces dropped, case kept.
pub fn split_keywords(raw: &str) -> Vec<String> {
    let text = clean_text(raw);
    text.split(',')
        .flat_map(|p| p.split(". "))
        .map(|p| p.trim().trim_end_matches('.').trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
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
        assert_eq!(decode_entities("a &amp; b &#34;c&#x27;"), "a & b \"c'");
        assert_eq!(
            split_keywords("<a href=\"/x#Heavy\">heavy</a>, "),
            vec!["heavy".to_string()]
        );
    }
}
