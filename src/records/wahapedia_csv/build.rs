//! The export's typed rows → the dataset's records, one [`Extracted`] per table file.
//!
//! Datasheets (`Datasheets.csv` and its `Datasheets_*` tables: models, weapons, abilities,
//! keywords, points, composition, wargear options, leader, stratagem list), stratagems
//! (`Stratagems.csv`), detachments (`Detachments.csv`), detachment rules
//! (`Detachment_abilities.csv`), enhancements (`Enhancements.csv`) and army rules (the
//! faction abilities of `Abilities.csv`). Ids come from the same scope + name functions the
//! page extractors use (`10e:<faction>:<unit>` with the faction's name from `Factions.csv`), so
//! a unit read from a page and from the export is one datasheet. HTML inside fields is read by
//! `decode::html::fragment_blocks`; a datasheet's rows go to the datasheet builder as typed
//! values (a weapon's name, keywords and values, an ability's name and text apart: nothing is
//! formatted into text to be parsed again); the export's own HTML texts (stratagems, ability
//! groups) are read by the extractors' readers. A record's provenance is its row in its own table; it is filed
//! under that table. Never invents: a value the export lacks stays `None`, with a diagnostic
//! where the contract expects one.

use super::*;
use crate::decode::html::{fragment_blocks, fragment_text};
use crate::extract::sheet::{Finish, SheetBuilder};
use crate::extract::{glossary, Extracted};
use crate::ids::{self, slug};
use crate::ir::BlockKind;
use crate::model::*;
use crate::records::{file_name, Group};
use crate::source::{Location, Provenance};
use crate::vocab::{Heading as H, TENTH as V};

/// Reads a claimed export group: the typed rows, then the records.
pub fn records(group: &Group) -> Vec<Extracted> {
    let tables = Tables {
        prefix: group.dir.to_string(),
        files: group
            .files
            .iter()
            .filter(|f| {
                let name = file_name(&f.path);
                READ.contains(&name) || name == PUBLICATIONS
            })
            .map(|f| (file_name(&f.path).to_string(), *f))
            .collect(),
    };
    // Every table of the export gets its entry (a table with no records is `ok` with zeros);
    // a file of the directory that is not a table of the export is left to the pipeline.
    let mut out: BTreeMap<String, Extracted> = group
        .files
        .iter()
        .filter(|f| {
            let name = file_name(&f.path);
            READ.contains(&name) || NOT_READ.contains(&name)
        })
        .map(|f| {
            (
                f.path.clone(),
                Extracted {
                    file: f.path.clone(),
                    sha256: f.sha256.clone(),
                    edition: Some(Edition::Tenth),
                    ..Extracted::default()
                },
            )
        })
        .collect();
    let group_file = tables.path_of(DATASHEETS);
    let ex = match Export::from_tables(&tables, Mode::Records) {
        Ok(ex) => ex,
        Err(e) => {
            // `Mode::Records` reports a missing table as a diagnostic; kept total anyway.
            let d = Diagnostic::new(Code::ExportTableMissing, e.to_string()).in_file(&group_file);
            route(&mut out, &group_file, vec![d]);
            return out.into_values().collect();
        }
    };
    let mut b = Builder::new(&ex, &tables);
    b.datasheets();
    b.stratagems();
    b.detachments();
    b.enhancements();
    b.rules();
    let diags = std::mem::take(&mut b.diags);
    let Builder { recs, .. } = b;
    for (file, r) in recs {
        if let Some(e) = out.get_mut(&file) {
            e.datasheets = r.datasheets;
            e.stratagems = r.stratagems;
            e.detachments = r.detachments;
            e.enhancements = r.enhancements;
            e.rules = r.rules;
            e.faction = r.faction;
        }
    }
    let mut all = ex.diagnostics.clone();
    all.extend(diags);
    route(&mut out, &group_file, all);
    out.into_values().collect()
}

/// Files each diagnostic under the table it names (the group's `Datasheets.csv` otherwise).
fn route(out: &mut BTreeMap<String, Extracted>, fallback: &str, diags: Vec<Diagnostic>) {
    for d in diags {
        let key = d
            .file
            .as_ref()
            .filter(|f| out.contains_key(*f))
            .cloned()
            .unwrap_or_else(|| fallback.to_string());
        match out.get_mut(&key) {
            Some(e) => e.diagnostics.push(d),
            None => {
                if let Some(e) = out.values_mut().next() {
                    e.diagnostics.push(d);
                }
            }
        }
    }
}

/// A detachment's stratagem, enhancement and rule ids.
type Parts = (Vec<String>, Vec<String>, Vec<String>);

/// Records filed under one table.
#[derive(Default)]
struct Recs {
    faction: Option<String>,
    datasheets: Vec<Datasheet>,
    stratagems: Vec<Stratagem>,
    detachments: Vec<Detachment>,
    enhancements: Vec<Enhancement>,
    rules: Vec<Rule>,
}

struct Builder<'e> {
    ex: &'e Export,
    tables: &'e Tables<'e>,
    /// Faction id → name (`Factions.csv`).
    factions: HashMap<&'e str, &'e str>,
    /// Export stratagem id → (record id).
    stratagem_ids: HashMap<&'e str, String>,
    /// Export datasheet id → name.
    datasheet_names: HashMap<&'e str, &'e str>,
    recs: BTreeMap<String, Recs>,
    diags: Vec<Diagnostic>,
}

impl<'e> Builder<'e> {
    fn new(ex: &'e Export, tables: &'e Tables<'e>) -> Self {
        let factions = ex
            .factions
            .iter()
            .map(|f| (f.id.as_str(), f.name.as_str()))
            .collect();
        let datasheet_names = ex
            .datasheets
            .iter()
            .map(|d| (d.id.as_str(), d.name.as_str()))
            .collect();
        let stratagem_ids = ex
            .more
            .stratagems
            .iter()
            .map(|s| {
                let (group, _) = group_and_category(&s.kind);
                (
                    s.id.as_str(),
                    ids::stratagem(
                        Edition::Tenth,
                        group.as_deref().unwrap_or("unknown"),
                        &s.name,
                    ),
                )
            })
            .collect();
        Builder {
            ex,
            tables,
            factions,
            stratagem_ids,
            datasheet_names,
            recs: BTreeMap::new(),
            diags: Vec::new(),
        }
    }

    fn path(&self, table: &str) -> String {
        self.tables.path_of(table)
    }

    /// Where a sub-record was read: `table`'s file (as the export's files name it) at `line`.
    fn location(&self, table: &str, line: u32) -> Location {
        Location::at_line(self.provenance(table, line).file, line)
    }

    /// A datasheet's sub-records of `table` start at `line`: that row is one of its sources.
    fn source_row(&self, ds: &mut SheetBuilder, table: &str, line: Option<u32>) {
        if let Some(line) = line {
            ds.source(self.provenance(table, line));
        }
    }

    fn provenance(&self, table: &str, line: u32) -> Provenance {
        let (file, sha256) = self
            .ex
            .more
            .files
            .get(table)
            .cloned()
            .unwrap_or_else(|| (self.path(table), String::new()));
        Provenance::at_line(file, line, sha256)
    }

    fn recs(&mut self, table: &str) -> &mut Recs {
        let path = self.path(table);
        self.recs.entry(path).or_default()
    }

    /// The faction's name, `None` (with `X106`) when the id is not in `Factions.csv`.
    fn faction(&mut self, id: Option<&str>, table: &str, line: u32) -> Option<String> {
        let id = id?;
        match self.factions.get(id) {
            Some(n) => Some((*n).to_string()),
            None => {
                self.diags.push(
                    Diagnostic::new(
                        Code::FactionUnknown,
                        format!("faction id `{id}` is not in {FACTIONS}"),
                    )
                    .at(&self.path(table), line),
                );
                None
            }
        }
    }

    fn datasheets(&mut self) {
        let ex = self.ex;
        let mut sheets: Vec<(Datasheet, Option<&str>)> = Vec::new();
        for d in &ex.datasheets {
            if d.virtual_ {
                // A reference to a datasheet of another faction, not a datasheet of its own.
                continue;
            }
            let faction = self.faction(Some(&d.faction_id), DATASHEETS, d.line);
            let publication = d
                .source_id
                .as_ref()
                .and_then(|s| ex.more.publications.get(s))
                .map(String::as_str);
            // A datasheet of a Warhammer Legends publication (`Space Wolves (Warhammer
            // Legends)`, `Legends: Tyranids`) is a Legends datasheet (set by `finish`).
            let ds = self.datasheet(d, faction, publication);
            sheets.push((ds, publication));
        }
        tell_apart_by_publication(&mut sheets);
        let recs = self.recs(DATASHEETS);
        recs.datasheets.extend(sheets.into_iter().map(|(ds, _)| ds));
    }

    /// One datasheet of the export: its rows of every `Datasheets_*` table, through the
    /// datasheet builder.
    fn datasheet(
        &mut self,
        d: &ExportDatasheet,
        faction: Option<String>,
        publication: Option<&str>,
    ) -> Datasheet {
        let mut ds = SheetBuilder::new(Edition::Tenth);
        ds.set_name(d.name.clone());
        ds.source(self.provenance(DATASHEETS, d.line));
        self.models(&mut ds, d);
        self.weapons(&mut ds, d);
        self.abilities(&mut ds, d);
        self.wargear_and_composition(&mut ds, d);
        self.costs(&mut ds, d);
        self.named_boxes(&mut ds, d);
        self.leaders_and_keywords(&mut ds, d);
        let f = Finish {
            faction,
            file: &self.path(DATASHEETS),
            line: d.line,
            link_references: true,
            publication,
        };
        ds.finish(f, &mut self.diags)
    }

    /// `Datasheets_models.csv`: one model row each, the first base size, the invulnerable save.
    fn models(&self, ds: &mut SheetBuilder, d: &ExportDatasheet) {
        let models = rows_of(&self.ex.models, &d.id, |r| &r.datasheet_id);
        self.source_row(ds, MODELS, models.iter().map(|m| m.line).min());
        ds.set_base_size(models.iter().find_map(|m| m.base_size.clone()));
        for m in models {
            let name = Some(m.name.clone()).filter(|n| !n.is_empty());
            let at = self.location(MODELS, m.line);
            ds.model_fields(name, at, |_, f| m.characteristic(f).cloned().flatten());
        }
        if let Some(m) = models.iter().find(|m| m.inv_sv.is_some()) {
            ds.invulnerable_save(m.inv_sv.clone(), m.inv_sv_descr.clone());
        }
    }

    /// `Datasheets_wargear.csv`: one weapon row each, its keywords from `description`.
    fn weapons(&mut self, ds: &mut SheetBuilder, d: &ExportDatasheet) {
        let weapons = rows_of(&self.ex.weapons, &d.id, |r| &r.datasheet_id);
        self.source_row(ds, WARGEAR, weapons.iter().map(|w| w.line).min());
        for w in weapons {
            let Some(kind) = w.kind else {
                self.diags.push(
                    Diagnostic::new(
                        Code::WeaponRowIncomplete,
                        format!("weapon '{}' has no type (Ranged/Melee); not read", w.name),
                    )
                    .at(&self.path(WARGEAR), w.line),
                );
                continue;
            };
            let mut name = w.name.trim().to_string();
            if weapons
                .iter()
                .filter(|o| o.wargear_line == w.wargear_line)
                .count()
                > 1
            {
                // One weapon with several profiles: named with the en dash, as the page does.
                name = name.replacen(" - ", " – ", 1);
            }
            let at = self.location(WARGEAR, w.line);
            ds.weapon_fields(name, w.keywords.clone(), kind, at, |_, f| {
                w.characteristic(f).cloned().flatten()
            });
        }
    }

    /// `Datasheets_abilities.csv`: references to core and faction rules, the datasheet's own
    /// abilities by group, and the named boxes the export files there (no group).
    fn abilities(&mut self, ds: &mut SheetBuilder, d: &ExportDatasheet) {
        let abilities = rows_of(&self.ex.abilities, &d.id, |r| &r.datasheet_id);
        self.source_row(
            ds,
            DATASHEET_ABILITIES,
            abilities.iter().map(|a| a.line).min(),
        );
        for a in abilities {
            let at = self.location(DATASHEET_ABILITIES, a.line);
            let Some(name) = a.name.clone() else {
                self.diags.push(
                    Diagnostic::new(
                        Code::ExportLineMalformed,
                        "ability line names no ability; line skipped".to_string(),
                    )
                    .at(&self.path(DATASHEET_ABILITIES), a.line),
                );
                continue;
            };
            match a.kind.as_str() {
                g @ ("Core" | "Faction") => {
                    let group = if g == "Core" { "core" } else { "faction" };
                    ds.reference(name, group, a.parameter.clone(), at);
                }
                "Datasheet" => ds.ability(name, "datasheet", paragraphs(&a.description), at),
                "Wargear" => ds.ability(name, "wargear", paragraphs(&a.description), at),
                "Primarch" => ds.ability(name, "primarch", paragraphs(&a.description), at),
                _ => ds.named_box(NamedText {
                    name,
                    text: paragraphs(&a.description),
                    at,
                }),
            }
        }
    }

    /// Wargear options (as the page: the option, then its choices joined with `; ` after the
    /// colon), unit composition and the loadout.
    fn wargear_and_composition(&self, ds: &mut SheetBuilder, d: &ExportDatasheet) {
        for o in rows_of(&self.ex.more.options, &d.id, |r| &r.datasheet_id) {
            let mut option = String::new();
            for b in fragment_blocks(&o.html) {
                if b.kind == BlockKind::ListItem && !option.is_empty() {
                    option.push_str(if option.ends_with(':') { " " } else { "; " });
                } else if !option.is_empty() {
                    option.push(' ');
                }
                option.push_str(&b.text);
            }
            if !option.is_empty() {
                ds.wargear_option(option);
            }
        }
        for c in rows_of(&self.ex.more.composition, &d.id, |r| &r.datasheet_id) {
            let t = fragment_text(&c.html);
            if !t.is_empty() {
                ds.composition(t);
            }
        }
        let loadout = fragment_text(&d.loadout);
        if !loadout.is_empty() {
            ds.equipment_line(loadout);
        }
    }

    /// `Datasheets_models_cost.csv`: a unit size with its cost, else `X104`.
    fn costs(&mut self, ds: &mut SheetBuilder, d: &ExportDatasheet) {
        let rows = rows_of(&self.ex.costs, &d.id, |r| &r.datasheet_id);
        // the points come from the cost table: its first row is one of the datasheet's sources
        self.source_row(ds, COSTS, rows.iter().map(|c| c.line).min());
        for c in rows {
            match (c.models, c.cost, c.addon) {
                // located on the row's own line of the file (not its `line` column, the row's
                // number within the datasheet)
                (Some(models), Some(points), false) => {
                    ds.points(models, points, self.location(COSTS, c.line))
                }
                _ => self.diags.push(
                    Diagnostic::new(
                        Code::PointsUnparsed,
                        format!(
                            "points line '{}: {}{}' is not a unit size with a cost; not in points",
                            c.description,
                            if c.addon { "+" } else { "" },
                            c.cost.map(|v| v.to_string()).unwrap_or_default()
                        ),
                    )
                    .at(&self.path(COSTS), c.line),
                ),
            }
        }
    }

    /// `DAMAGED:` and the `transport` column (the TRANSPORT block the pages print among the
    /// named boxes).
    fn named_boxes(&self, ds: &mut SheetBuilder, d: &ExportDatasheet) {
        if let Some(w) = &d.damaged_w {
            ds.damaged_box(NamedText {
                name: format!("{}: {w} WOUNDS REMAINING", V.heading(H::Damaged)),
                text: paragraphs(&d.damaged_description),
                at: self.location(DATASHEETS, d.line),
            });
        }
        let transport = paragraphs(&d.transport);
        if !transport.is_empty() {
            ds.named_box(NamedText {
                name: V.heading(H::Transport).to_string(),
                text: transport,
                at: self.location(DATASHEETS, d.line),
            });
        }
    }

    /// The units it leads, its keywords (per model where the export says so, faction keywords
    /// apart) and the stratagems listed on it.
    fn leaders_and_keywords(&self, ds: &mut SheetBuilder, d: &ExportDatasheet) {
        let ex = self.ex;
        for l in ex.more.leaders.iter().filter(|l| l.from == d.id) {
            if let Some(n) = self.datasheet_names.get(l.to.as_str()) {
                ds.can_lead((*n).to_string());
            }
        }
        for k in rows_of(&ex.keywords, &d.id, |r| &r.datasheet_id) {
            if k.is_faction {
                if !ds.faction_keywords.contains(&k.keyword) {
                    ds.faction_keywords.push(k.keyword.clone());
                }
                continue;
            }
            if let Some(model) = k
                .model
                .as_ref()
                .filter(|m| !matches!(V.heading_of(&m.to_uppercase()), Some(H::AllModels | H::All)))
            {
                match ds.model_keywords.iter_mut().find(|mk| &mk.model == model) {
                    Some(mk) => mk.keywords.push(k.keyword.clone()),
                    None => ds.model_keywords.push(ModelKeywords {
                        model: model.clone(),
                        keywords: vec![k.keyword.clone()],
                    }),
                }
            }
            if !ds
                .keywords
                .iter()
                .any(|x| x.eq_ignore_ascii_case(&k.keyword))
            {
                ds.keywords.push(k.keyword.clone());
            }
        }
        for l in rows_of(&ex.more.datasheet_stratagems, &d.id, |r| &r.from) {
            if let Some(id) = self.stratagem_ids.get(l.to.as_str()) {
                if !ds.stratagems.contains(id) {
                    ds.stratagem(id.clone());
                }
            }
        }
    }

    fn stratagems(&mut self) {
        let ex = self.ex;
        for s in &ex.more.stratagems {
            let (group, category) = group_and_category(&s.kind);
            let id = self
                .stratagem_ids
                .get(s.id.as_str())
                .cloned()
                .unwrap_or_default();
            if group.is_none() {
                self.diags.push(
                    Diagnostic::new(
                        Code::ScopeUnknown,
                        format!(
                            "stratagem '{}' has no group in its type `{}`; kept under `unknown`",
                            s.name, s.kind
                        ),
                    )
                    .at(&self.path(STRATAGEMS), s.line),
                );
            }
            let mut st = Stratagem {
                id,
                name: s.name.clone(),
                edition: Edition::Tenth,
                cp: s.cp,
                group,
                category,
                flavor: s
                    .legend
                    .as_deref()
                    .map(fragment_text)
                    .filter(|t| !t.is_empty()),
                when: None,
                target: None,
                effect: None,
                restrictions: None,
                sources: vec![self.provenance(STRATAGEMS, s.line)],
                translations: Default::default(),
            };
            if s.cp.is_none() {
                self.diags.push(
                    Diagnostic::new(
                        Code::StratagemIncomplete,
                        format!("stratagem '{}' has CP `{}`, not a number", s.name, s.cp_raw),
                    )
                    .at(&self.path(STRATAGEMS), s.line),
                );
            }
            let lines: Vec<String> = fragment_blocks(&s.description)
                .into_iter()
                .map(|b| b.text)
                .collect();
            let labelled = glossary::stratagem_text(&mut st, lines.iter().map(String::as_str));
            if !labelled || st.when.is_none() || st.effect.is_none() {
                self.diags.push(
                    Diagnostic::new(
                        Code::StratagemIncomplete,
                        format!("stratagem '{}' has no WHEN/EFFECT text", s.name),
                    )
                    .at(&self.path(STRATAGEMS), s.line),
                );
            }
            self.recs(STRATAGEMS).stratagems.push(st);
        }
    }

    /// `10e:<faction>:<detachment>`, the detachment id the faction pages use.
    fn detachment_id(
        &mut self,
        faction_id: Option<&str>,
        name: &str,
        table: &str,
        line: u32,
    ) -> (String, Option<String>) {
        let faction = self.faction(faction_id, table, line);
        (
            ids::detachment(Edition::Tenth, faction.as_deref(), name),
            faction,
        )
    }

    fn detachments(&mut self) {
        let ex = self.ex;
        // Export detachment id → (record id, stratagems, enhancements, rules).
        let mut parts: HashMap<&str, Parts> = HashMap::new();
        for s in &ex.more.stratagems {
            if let (Some(did), Some(id)) = (&s.detachment_id, self.stratagem_ids.get(s.id.as_str()))
            {
                parts.entry(did.as_str()).or_default().0.push(id.clone());
            }
        }
        for e in &ex.more.enhancements {
            if let (Some(did), Some(det)) = (&e.detachment_id, &e.detachment) {
                let (id, _) =
                    self.enhancement_id(e.faction_id.as_deref(), Some(det), &e.name, e.line);
                parts.entry(did.as_str()).or_default().1.push(id);
            }
        }
        for r in &ex.more.detachment_rules {
            if let Some(did) = &r.detachment_id {
                let fs = r
                    .faction_id
                    .as_deref()
                    .and_then(|f| self.factions.get(f))
                    .map(|n| slug(n))
                    .unwrap_or_else(|| "unknown".into());
                parts
                    .entry(did.as_str())
                    .or_default()
                    .2
                    .push(ids::detachment_rule(Edition::Tenth, &fs, &r.name));
            }
        }
        for d in &ex.more.detachments {
            let (id, faction) =
                self.detachment_id(d.faction_id.as_deref(), &d.name, DETACHMENTS, d.line);
            let (stratagems, enhancements, rules) = parts.remove(d.id.as_str()).unwrap_or_default();
            let det = Detachment {
                id,
                name: d.name.clone(),
                edition: Edition::Tenth,
                faction,
                rules,
                enhancements,
                stratagems,
                sources: vec![self.provenance(DETACHMENTS, d.line)],
                points: Default::default(),
                force_disposition: Default::default(),
                unique_tag: Default::default(),
                translations: Default::default(),
            };
            self.recs(DETACHMENTS).detachments.push(det);
        }
    }

    fn enhancement_id(
        &mut self,
        faction_id: Option<&str>,
        detachment: Option<&str>,
        name: &str,
        line: u32,
    ) -> (String, Option<String>) {
        let faction = self.faction(faction_id, ENHANCEMENTS, line);
        (
            ids::enhancement(Edition::Tenth, faction.as_deref(), detachment, name),
            faction,
        )
    }

    fn enhancements(&mut self) {
        let ex = self.ex;
        for e in &ex.more.enhancements {
            let (id, faction) = self.enhancement_id(
                e.faction_id.as_deref(),
                e.detachment.as_deref(),
                &e.name,
                e.line,
            );
            if e.cost.is_none() {
                self.diags.push(
                    Diagnostic::new(
                        Code::PointsUnparsed,
                        format!(
                            "enhancement '{}' costs `{}`, not a number; points null",
                            e.name, e.cost_raw
                        ),
                    )
                    .at(&self.path(ENHANCEMENTS), e.line),
                );
            }
            let enh = Enhancement {
                id,
                name: Some(e.name.clone()),
                edition: Edition::Tenth,
                faction,
                detachment: e.detachment.clone(),
                points: e.cost,
                flavor: e
                    .legend
                    .as_deref()
                    .map(fragment_text)
                    .filter(|t| !t.is_empty()),
                text: paragraphs(&e.description),
                sources: vec![self.provenance(ENHANCEMENTS, e.line)],
                translations: Default::default(),
            };
            self.recs(ENHANCEMENTS).enhancements.push(enh);
        }
    }

    /// Detachment rules, and the faction abilities of `Abilities.csv` as army rules. The core
    /// abilities there (no faction) are the core rules the datasheets link to.
    fn rules(&mut self) {
        let ex = self.ex;
        for r in &ex.more.detachment_rules {
            let faction = self.faction(r.faction_id.as_deref(), DETACHMENT_ABILITIES, r.line);
            let rule = self.rule(r, "detachment", faction, DETACHMENT_ABILITIES);
            self.recs(DETACHMENT_ABILITIES).rules.extend(rule);
        }
        for r in &ex.more.abilities {
            let (kind, faction) = match r.faction_id.as_deref() {
                Some(f) => ("army", self.faction(Some(f), ABILITIES, r.line)),
                None => ("core", None),
            };
            let rule = self.rule(r, kind, faction, ABILITIES);
            self.recs(ABILITIES).rules.extend(rule);
        }
    }

    fn rule(
        &mut self,
        r: &ExportRule,
        kind: &str,
        faction: Option<String>,
        table: &str,
    ) -> Option<Rule> {
        let text = paragraphs(&r.description);
        if text.is_empty() {
            self.diags.push(
                Diagnostic::new(
                    Code::RequiredTextMissing,
                    format!("rule '{}' has no text in the export; not read", r.name),
                )
                .at(&self.path(table), r.line),
            );
            return None;
        }
        let prov = self.provenance(table, r.line);
        Some(Rule {
            id: String::new(),
            name: Some(r.name.clone()),
            kind: kind.to_string(),
            edition: Edition::Tenth,
            faction,
            flavor: r
                .legend
                .as_deref()
                .map(fragment_text)
                .filter(|t| !t.is_empty()),
            text,
            bullets: Vec::new(),
            examples: Vec::new(),
            occurrences: vec![prov.location()],
            tables: Vec::new(),
            variants: Vec::new(),
            number: Default::default(),
            parent: Default::default(),
            children: Default::default(),
            translations: Default::default(),
        })
    }
}

/// A field's paragraphs (HTML), joined as the pages' texts are: blank line between paragraphs,
/// list items as `• ` paragraphs.
fn paragraphs(html: &str) -> String {
    let mut text = String::new();
    for b in fragment_blocks(html) {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        if b.kind == BlockKind::ListItem {
            text.push_str("• ");
        }
        text.push_str(&b.text);
    }
    text
}

/// Splits `Group – Category[ Stratagem]` as the page cards' type line.
fn group_and_category(t: &str) -> (Option<String>, Option<String>) {
    match glossary::group_line(t.trim()) {
        Some((g, c)) => (Some(g.trim().to_string()), Some(c.trim().to_string())),
        None => (None, (!t.trim().is_empty()).then(|| t.trim().to_string())),
    }
}

/// Datasheets of one faction the export prints under one name are different datasheets: a
/// chapter's version of a Space Marines datasheet (`Gladiator Lancer` in the Black Templars
/// faction pack, with Templar Vows), a Legends datasheet beside the current one (`Karanak` in
/// `Chaos Daemons (Warhammer Legends)`). Each of them whose publication is not the faction's
/// own gets the publication in its id ([`ids::in_publication`]); the faction's own keeps the
/// plain id, the one the faction's pages give it.
fn tell_apart_by_publication(sheets: &mut [(Datasheet, Option<&str>)]) {
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for (ds, _) in sheets.iter() {
        *count.entry(ds.id.clone()).or_default() += 1;
    }
    for (ds, publication) in sheets.iter_mut() {
        if count.get(&ds.id).copied().unwrap_or(0) < 2 {
            continue;
        }
        let own = ds.faction.as_deref().map(slug);
        if let Some(p) = publication {
            if Some(slug(p)) != own {
                ds.id = ids::in_publication(&ds.id, p);
            }
        }
    }
}
