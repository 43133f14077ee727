//! 10th-edition datasheet pages: the datasheet part, then everything after it as glossary.
//!
//! Reads the sections of a Wahapedia datasheet as the dumps and the HTML decoder render them:
//! name and base size, characteristics (`M T Sv W Ld OC`, as a header row plus values row or
//! one label/value per line), INVULNERABLE SAVE, weapon tables (pipe rows or one value per
//! line; each profile is printed twice — a name-only row, then the row with values — and is
//! one profile), WARGEAR OPTIONS, abilities by group, UNIT COMPOSITION, points, DAMAGED,
//! named rules such as SUPREME COMMANDER, KEYWORDS, FACTION KEYWORDS, the STRATAGEMS list and
//! DETACHMENT ABILITY. The datasheet part ends at the first block no section claims; the rest
//! goes to [`glossary`](super::glossary). Never guesses a missing name or value.

use super::glossary::{self, Context};
use super::sheet::{Finish, PrintedSave, References, SheetBuilder};
use super::text;
use super::Extracted;
use crate::diag::{Code, Diagnostic};
use crate::ids;
use crate::ir::{Block, BlockKind, Document};
use crate::model::*;
use crate::source::{Location, Provenance};
use crate::vocab::{Heading as H, TENTH as V};
use regex::Regex;
use std::sync::LazyLock;

static POINTS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d+) models?$").expect("static regex"));
static BASE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\((?:⌀|&#8960;)?\s*(.+?mm)\)$").expect("static regex"));

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Weapons(WeaponType),
    Wargear,
    Abilities,
    Composition,
    Points,
    Damaged,
    Special,
    FactionKeywords,
    Stratagems,
    Detachment,
    Leader,
}

/// Reads one 10th-edition document.
pub fn extract(doc: &Document, out: &mut Extracted) {
    let blocks = &doc.blocks;
    let mut r = DatasheetReader::new(doc);
    let end = r.read(blocks, out);
    let ctx = Context {
        edition: Some(Edition::Tenth),
        faction: None,
        core_abilities: r.core.clone(),
        faction_abilities: r.faction_abilities.clone(),
    };
    // The glossary names the faction (`…used in the following Grey Knights datasheets:`).
    glossary::read(doc, blocks.get(end..).unwrap_or_default(), &ctx, out);
    if out.faction.is_none() {
        out.faction = r.title_faction.clone();
    }
    if let Some(ds) = r.finish(out) {
        out.datasheets.push(ds);
    }
    // Faction-scoped records read before the faction was known.
    let faction = out.faction.clone();
    for rule in &mut out.rules {
        if matches!(rule.kind.as_str(), "army" | "detachment" | "order") && rule.faction.is_none() {
            rule.faction = faction.clone();
        }
    }
    if let Some(f) = &faction {
        for e in &mut out.enhancements {
            if e.faction.is_none() {
                e.faction = Some(f.clone());
                e.id = ids::rescoped(&e.id, f);
            }
        }
        for d in &mut out.detachments {
            if d.faction.is_none() {
                d.faction = Some(f.clone());
                d.id = ids::rescoped(&d.id, f);
            }
        }
    }
}

/// Where [`DatasheetReader::read`] is: the section whose body the next block continues, and
/// whether points were read (a named rules block follows them).
struct ReadState {
    section: Section,
    after_points: bool,
}

struct DatasheetReader<'a> {
    doc: &'a Document,
    ds: SheetBuilder,
    found: bool,
    first_line: u32,
    core: Vec<String>,
    faction_abilities: Vec<String>,
    title_faction: Option<String>,
    title: Option<String>,
    detachment: Option<(String, Location)>,
    ability_group: Option<String>,
}

impl<'a> DatasheetReader<'a> {
    fn new(doc: &'a Document) -> Self {
        DatasheetReader {
            doc,
            ds: SheetBuilder::new(Edition::Tenth),
            found: false,
            first_line: 0,
            core: Vec::new(),
            faction_abilities: Vec::new(),
            title_faction: None,
            title: None,
            detachment: None,
            ability_group: None,
        }
    }

    fn diag(&self, out: &mut Extracted, code: Code, msg: String, line: u32) {
        out.diagnostics
            .push(Diagnostic::new(code, msg).at(&self.doc.file, line));
    }

    fn mark(&mut self, line: u32) {
        if !self.found {
            self.found = true;
            self.first_line = line;
        }
    }

    /// Reads the datasheet part; returns the index of the first block after it.
    fn read(&mut self, blocks: &[Block], out: &mut Extracted) -> usize {
        let mut st = ReadState {
            section: Section::None,
            after_points: false,
        };
        let mut i = 0;
        while i < blocks.len() {
            match self.step(blocks, i, &mut st, out) {
                Some(next) => i = next,
                None => break,
            }
        }
        if !self.found {
            return 0;
        }
        // A step may claim blocks past the end (a heading whose body is missing): the
        // datasheet part never ends beyond the document.
        i.min(blocks.len())
    }

    /// Reads the block at `i` (and the blocks it starts); returns the index after them, or
    /// `None` when no section claims it (the datasheet part ends there).
    fn step(
        &mut self,
        blocks: &[Block],
        i: usize,
        st: &mut ReadState,
        out: &mut Extracted,
    ) -> Option<usize> {
        if text::is_chrome(blocks[i].text.trim()) {
            out.account.chrome += 1;
            return Some(i + 1);
        }
        if let Some(n) = self.section_start(blocks, i, st, out) {
            return Some(n);
        }
        if let Some(n) = self.section_body(blocks, i, st.section, out) {
            return Some(n);
        }
        if let Some(n) = self.preamble(blocks, i, out) {
            return Some(n);
        }
        self.named_block(blocks, i, st, out)
    }

    /// A block that starts a section: a weapon table's header, characteristics, a points
    /// line, a section heading, or a labelled line (`DAMAGED: …`, `KEYWORDS: …`).
    fn section_start(
        &mut self,
        blocks: &[Block],
        i: usize,
        st: &mut ReadState,
        out: &mut Extracted,
    ) -> Option<usize> {
        let b = &blocks[i];
        let upper = b.text.trim().to_uppercase();
        let first_cell = b.cells.first().map(|c| c.trim().to_uppercase());
        let header = first_cell.as_deref().unwrap_or(upper.as_str());
        if matches!(
            V.heading_of(header),
            Some(H::RangedWeapons | H::MeleeWeapons)
        ) {
            return Some(self.weapons_header(blocks, i, header, st, out));
        }
        if let Some(n) = self.characteristics(blocks, i, out) {
            st.section = Section::None;
            return Some(n);
        }
        if let Some((models, points, n)) = points_at(blocks, i) {
            self.mark(b.line());
            // The points value's own line (`1 model` / `325` print it on the next).
            let value = n.checked_sub(1).and_then(|j| blocks.get(j)).unwrap_or(b);
            let at = super::location(self.doc, value);
            self.ds.points(models, points, at);
            out.account.in_records += n - i;
            st.section = Section::Points;
            st.after_points = true;
            return Some(n);
        }
        if let Some(n) = self.section_heading(blocks, i, &upper, st, out) {
            return Some(n);
        }
        self.labelled_line(b, i, &upper, st, out)
    }

    /// `RANGED WEAPONS` / `MELEE WEAPONS` (a header row, or one label per line after it).
    fn weapons_header(
        &mut self,
        blocks: &[Block],
        mut i: usize,
        header: &str,
        st: &mut ReadState,
        out: &mut Extracted,
    ) -> usize {
        self.mark(blocks[i].line());
        let kind = if header.starts_with(V.heading(H::Ranged)) {
            WeaponType::Ranged
        } else {
            WeaponType::Melee
        };
        st.section = Section::Weapons(kind);
        i += 1;
        out.account.in_records += 1;
        // one-label-per-line header
        while i < blocks.len() && V.weapon_table_labels.contains(&blocks[i].text.trim()) {
            i += 1;
            out.account.in_records += 1;
        }
        i
    }

    /// A section heading on a line of its own (`upper` is the block's text in capitals).
    fn section_heading(
        &mut self,
        blocks: &[Block],
        i: usize,
        upper: &str,
        st: &mut ReadState,
        out: &mut Extracted,
    ) -> Option<usize> {
        match V.heading_of(upper) {
            Some(H::InvulnerableSave) => {
                // The value is the next line, unless that line starts a section of its own
                // (a heading with nothing under it: the save is absent, never a heading).
                let value = blocks
                    .get(i + 1)
                    .filter(|v| !is_section_heading(&v.text) && !starts_section(v));
                let Some(v) = value else {
                    out.account.in_records += 1;
                    return Some(i + 1);
                };
                let s = PrintedSave::read(&v.text);
                self.ds.invulnerable_save(s.save, s.condition);
                out.account.in_records += 2;
                return Some(i + 2);
            }
            Some(H::Leader)
                if blocks
                    .get(i + 1)
                    .is_some_and(|n| n.text.contains("can be attached to")) =>
            {
                st.section = Section::Leader;
                out.account.in_records += 2;
                return Some(i + 2);
            }
            _ => {}
        }
        // `FACTION KEYWORDS:` on a line of its own, its list below.
        let label = upper.strip_suffix(':').and_then(|u| V.heading_of(u));
        st.section = match (V.heading_of(upper), label) {
            (Some(H::WargearOptions), _) => Section::Wargear,
            (Some(H::UnitComposition), _) => Section::Composition,
            (Some(H::Abilities), _) => {
                self.ability_group = None;
                Section::Abilities
            }
            (Some(H::Stratagems), _) => Section::Stratagems,
            (Some(H::DetachmentAbility), _) => Section::Detachment,
            (_, Some(H::FactionKeywords)) => Section::FactionKeywords,
            _ => return None,
        };
        self.mark(blocks[i].line());
        out.account.in_records += 1;
        Some(i + 1)
    }

    /// A line that names its section: a named ability group (`SHADOW FORM ABILITIES`),
    /// `DAMAGED: …`, `FACTION KEYWORDS: …`, `KEYWORDS: …`.
    fn labelled_line(
        &mut self,
        b: &Block,
        i: usize,
        upper: &str,
        st: &mut ReadState,
        out: &mut Extracted,
    ) -> Option<usize> {
        let t = b.text.trim();
        let group_suffix = format!(" {}", V.heading(H::Abilities));
        if upper.ends_with(&group_suffix) && text::is_upper(t) && t.len() < 50 {
            self.ability_group = Some(crate::extract::sheet::ability_group(
                t.trim_end_matches(group_suffix.as_str()).trim(),
            ));
            st.section = Section::Abilities;
        } else if V.starts_with(H::Damaged, ":", upper) {
            self.ds.damaged_box(NamedText {
                name: t.to_string(),
                text: String::new(),
                at: super::location(self.doc, b),
            });
            st.section = Section::Damaged;
        } else if let Some(rest) = V.after_label(H::FactionKeywords, ":", t) {
            st.section = Section::FactionKeywords;
            self.ds.faction_keyword_list(rest);
        } else if let Some(rest) = V
            .after_label(H::Keywords, ":", t)
            .or_else(|| V.after_label(H::Keywords, " –", t))
        {
            self.ds.keyword_list(rest);
            st.section = Section::None;
        } else {
            return None;
        }
        out.account.in_records += 1;
        Some(i + 1)
    }

    /// The block at `i` as part of the current section's body; the blocks it used are
    /// counted.
    fn section_body(
        &mut self,
        blocks: &[Block],
        i: usize,
        section: Section,
        out: &mut Extracted,
    ) -> Option<usize> {
        let b = &blocks[i];
        let t = b.text.trim();
        let next = match section {
            Section::Weapons(kind) => self.weapon(blocks, i, kind, out),
            Section::Wargear
                if b.kind == BlockKind::ListItem || !self.ends_free_text(blocks, i) =>
            {
                self.ds.wargear_option(t.to_string());
                Some(i + 1)
            }
            Section::Composition if b.kind == BlockKind::ListItem => {
                self.ds.composition(t.to_string());
                Some(i + 1)
            }
            Section::Composition if !self.ends_free_text(blocks, i) => {
                self.ds.equipment_line(t.to_string());
                Some(i + 1)
            }
            Section::Abilities if !self.ends_free_text(blocks, i) => {
                self.ability(t, super::location(self.doc, b));
                Some(i + 1)
            }
            Section::Damaged | Section::Special if !self.ends_free_text(blocks, i) => {
                self.named_text_more(section, t);
                Some(i + 1)
            }
            Section::FactionKeywords if !is_section_heading(t) && text::is_upper(t) => {
                self.ds.faction_keyword_list(t);
                Some(i + 1)
            }
            Section::Leader if b.kind == BlockKind::ListItem => {
                self.ds.can_lead(t.to_string());
                Some(i + 1)
            }
            Section::Stratagems => {
                // stratagem_at counts the blocks itself
                let (id, next) = glossary::stratagem_at(self.doc, blocks, i, Edition::Tenth, out)?;
                self.ds.stratagem(id);
                return Some(next);
            }
            Section::Detachment if self.detachment.is_none() && text::looks_like_heading(t) => {
                self.detachment = Some((t.to_string(), super::location(self.doc, b)));
                Some(i + 1)
            }
            _ => None,
        }?;
        out.account.in_records += next - i;
        Some(next)
    }

    /// More text of the DAMAGED block or of the last named rules block.
    fn named_text_more(&mut self, section: Section, t: &str) {
        let target = if section == Section::Damaged {
            self.ds.damaged.as_mut()
        } else {
            self.ds.special_rules.last_mut()
        };
        if let Some(nt) = target {
            if !nt.text.is_empty() {
                nt.text.push_str("\n\n");
            }
            nt.text.push_str(t);
        }
    }

    /// What may stand before the first section: the title line (`Faction – Unit`), the unit's
    /// name with its base size.
    fn preamble(&mut self, blocks: &[Block], i: usize, out: &mut Extracted) -> Option<usize> {
        if self.found && (self.ds.name.is_some() || !self.ds.models.is_empty()) {
            return None;
        }
        let b = &blocks[i];
        let t = b.text.trim();
        if let Some(c) = BASE.captures(t) {
            self.ds.set_base_size(Some(c[1].trim().to_string()));
            if let Some(prev) = i.checked_sub(1).and_then(|p| blocks.get(p)) {
                if !text::is_chrome(&prev.text) && prev.text.len() < 80 {
                    self.ds.set_name(prev.text.trim().to_string());
                }
            }
            self.mark(b.line());
            out.account.in_records += 1;
            return Some(i + 1);
        }
        if self.found {
            return None;
        }
        if let Some((f, n)) = t.split_once(" – ") {
            self.title = Some(n.trim().to_string());
            self.title_faction = Some(f.trim().to_string());
        }
        out.account.in_records += 1;
        Some(i + 1)
    }

    /// A named rule block on the datasheet (SUPREME COMMANDER): upper case, then text.
    fn named_block(
        &mut self,
        blocks: &[Block],
        i: usize,
        st: &mut ReadState,
        out: &mut Extracted,
    ) -> Option<usize> {
        let b = &blocks[i];
        let t = b.text.trim();
        let starts = self.found
            && self.ds.keywords.is_empty()
            && text::is_upper(t)
            && text::looks_like_heading(t)
            && blocks
                .get(i + 1)
                .is_some_and(|n| !text::looks_like_heading(&n.text))
            && (st.after_points || self.ds.damaged.is_some());
        if !starts {
            return None;
        }
        self.ds.named_box(NamedText {
            name: t.to_string(),
            text: String::new(),
            at: super::location(self.doc, b),
        });
        st.section = Section::Special;
        out.account.in_records += 1;
        Some(i + 1)
    }

    /// A block that cannot continue a free-text section: a known heading or another section's
    /// start.
    fn ends_free_text(&self, blocks: &[Block], i: usize) -> bool {
        let t = blocks[i].text.trim();
        let u = t.to_uppercase();
        blocks[i].kind == BlockKind::Heading
            || points_at(blocks, i).is_some()
            || u.starts_with(V.heading(H::Keywords))
            || u.starts_with(V.heading(H::FactionKeywords))
            || V.starts_with(H::Damaged, ":", &u)
            || (text::is_upper(t) && text::looks_like_heading(t) && t.len() > 3)
    }

    /// Characteristics at `i`: a header row `M | T | Sv | W | Ld | OC` with a values row, or
    /// one label/value per line. Returns the next index.
    fn characteristics(
        &mut self,
        blocks: &[Block],
        i: usize,
        out: &mut Extracted,
    ) -> Option<usize> {
        let b = &blocks[i];
        // The edition's model characteristics, as the page prints their labels (`SV`, `LD`).
        let fields: Vec<String> = ProfileKind::Model
            .fields(self.ds.edition)
            .iter()
            .map(|f| f.to_uppercase())
            .collect();
        let n = fields.len();
        let labels: Vec<String> = if b.kind == BlockKind::TableRow {
            b.cells.iter().map(|c| c.trim().to_uppercase()).collect()
        } else {
            Vec::new()
        };
        if n > 0 && labels.len() >= n && labels[..n].iter().zip(&fields).all(|(a, b)| a == b) {
            return Some(self.profile_rows(blocks, i, n, out));
        }
        // 004 layout: M / 12" / T / 10 / ... (one label, then its value, per characteristic)
        if b.kind == BlockKind::Paragraph && fields.first().is_some_and(|f| b.text.trim() == f) {
            return self.label_value_profiles(blocks, i, &fields, out);
        }
        None
    }

    /// A header row at `i`, then one values row per model (the first cell may be the model
    /// name) of `n` characteristics.
    fn profile_rows(&mut self, blocks: &[Block], i: usize, n: usize, out: &mut Extracted) -> usize {
        let mut j = i + 1;
        while let Some(v) = blocks.get(j) {
            if v.kind != BlockKind::TableRow {
                break;
            }
            let cells: Vec<&str> = v.cells.iter().map(|c| c.trim()).collect();
            let (name, vals) = if cells.len() == n + 1 {
                (Some(cells[0].to_string()), &cells[1..])
            } else if cells.len() == n {
                (None, &cells[..])
            } else {
                break;
            };
            let at = super::location(self.doc, v);
            self.ds.model_row(name, vals, at);
            j += 1;
        }
        self.mark(blocks[i].line());
        out.account.in_records += j - i;
        j
    }

    /// One label, then its value, per characteristic (`fields`, upper case) from `i`; later
    /// profiles of a mixed unit follow by position.
    fn label_value_profiles(
        &mut self,
        blocks: &[Block],
        i: usize,
        fields: &[String],
        out: &mut Extracted,
    ) -> Option<usize> {
        let b = &blocks[i];
        let mut vals: Vec<&str> = Vec::new();
        for (k, label) in fields.iter().enumerate() {
            let l = blocks.get(i + 2 * k)?;
            if l.text.trim().to_uppercase() != *label {
                return None;
            }
            vals.push(blocks.get(i + 2 * k + 1)?.text.trim());
        }
        let name = self.first_model_name(blocks, i);
        let at = super::location(self.doc, b);
        self.ds.model_row(name, &vals, at);
        self.mark(b.line());
        let j = self.positional_profiles(blocks, i + 2 * fields.len(), fields.len());
        out.account.in_records += j - i;
        Some(j)
    }

    /// The first profile's model name is the line before `M` (at `i`) when that line is not
    /// the unit's name/base size; otherwise the unit name.
    fn first_model_name(&self, blocks: &[Block], i: usize) -> Option<String> {
        let before = i.checked_sub(1).and_then(|p| blocks.get(p));
        match before {
            Some(p)
                if !BASE.is_match(p.text.trim())
                    && self.ds.name.is_some()
                    && text::looks_like_heading(&p.text)
                    && !text::is_chrome(&p.text)
                    && Some(p.text.trim()) != self.ds.name.as_deref() =>
            {
                Some(p.text.trim().to_string())
            }
            _ => self.ds.name.clone(),
        }
    }

    /// Later profiles of a mixed unit from `j`, positional: a model name, then its `n`
    /// values. Returns the index after them.
    fn positional_profiles(&mut self, blocks: &[Block], mut j: usize, n: usize) -> usize {
        while let Some(head) = blocks.get(j) {
            let vals: Vec<&str> = (1..=n)
                .filter_map(|k| blocks.get(j + k))
                .map(|v| v.text.trim())
                .filter(|v| is_value(v))
                .collect();
            if vals.len() < n
                || is_value(&head.text)
                || !text::looks_like_heading(&head.text)
                || is_section_heading(&head.text)
            {
                break;
            }
            let at = super::location(self.doc, head);
            let name = Some(head.text.trim().to_string());
            self.ds.model_row(name, &vals, at);
            j += n + 1;
        }
        j
    }

    /// A weapon profile at `i` in either layout. Returns the next index, or `None` when the
    /// block is not a weapon row (the table ended).
    fn weapon(
        &mut self,
        blocks: &[Block],
        i: usize,
        kind: WeaponType,
        out: &mut Extracted,
    ) -> Option<usize> {
        let b = &blocks[i];
        if b.kind == BlockKind::TableRow {
            let cells: Vec<&str> = b.cells.iter().map(|c| c.trim()).collect();
            let filled = cells.iter().filter(|c| !c.is_empty()).count();
            if filled == 0 || cells[0].is_empty() {
                return None;
            }
            if filled == 1 {
                // the name-only row printed before each profile
                return Some(i + 1);
            }
            let values: Vec<&str> = cells[1..].iter().copied().take(6).collect();
            self.push_weapon(cells[0], &values, kind, super::location(self.doc, b), out);
            return Some(i + 1);
        }
        if b.kind != BlockKind::Paragraph
            || text::looks_like_heading(&b.text) && text::is_upper(&b.text)
        {
            return None;
        }
        // one value per line: name (printed twice), then six values
        let mut j = i + 1;
        if blocks.get(j).is_some_and(|n| n.text == b.text) {
            j += 1;
        }
        let mut values = Vec::new();
        while values.len() < 6 {
            match blocks.get(j) {
                Some(v) if is_value(&v.text) => {
                    values.push(v.text.trim());
                    j += 1;
                }
                _ => break,
            }
        }
        if values.is_empty() {
            return None;
        }
        self.push_weapon(&b.text, &values, kind, super::location(self.doc, b), out);
        Some(j)
    }

    fn push_weapon(
        &mut self,
        name_cell: &str,
        values: &[&str],
        kind: WeaponType,
        at: Location,
        out: &mut Extracted,
    ) {
        let (name, keywords) = text::weapon_name_and_keywords(name_cell);
        let line = at.line;
        let msg = format!("weapon '{name}' has");
        if let Some((given, expected)) = self.ds.weapon_row(name, keywords, kind, values, at) {
            let msg = format!("{msg} {given} of {expected} values");
            self.diag(out, Code::WeaponRowIncomplete, msg, line);
        }
    }

    fn ability(&mut self, t: &str, at: Location) {
        let group = self.ability_group.as_deref().unwrap_or("datasheet");
        match self.ds.ability_line(t, group, at) {
            Some(References::Core(names)) => self.core.extend(names),
            Some(References::Faction(names)) => self.faction_abilities.extend(names),
            None => {}
        }
    }

    /// The finished datasheet, if the document had one.
    fn finish(&mut self, out: &mut Extracted) -> Option<Datasheet> {
        if !self.found
            || (self.ds.models.is_empty()
                && self.ds.weapons.is_empty()
                && self.ds.points.is_empty())
        {
            return None;
        }
        let mut ds = self.ds.clone();
        if ds.name.is_none() {
            if let Some(t) = &self.title {
                ds.set_name(t.clone());
            }
        }
        let name = ds.name.clone();
        if let Some(first) = ds.models.first_mut() {
            if first.name.is_none() {
                first.name = name;
            }
        }
        let f = Finish {
            faction: out.faction.clone(),
            file: &self.doc.file,
            line: self.first_line,
            link_references: true,
            publication: None,
        };
        let mut ds = ds.finish(f, &mut out.diagnostics);
        if ds.faction.is_none() {
            out.diagnostics.push(
                Diagnostic::new(Code::FactionUnknown, "faction not stated in the content")
                    .at(&self.doc.file, self.first_line),
            );
        }
        if let Some((d, at)) = &self.detachment {
            ds.special_rules.push(NamedText {
                name: V.heading(H::DetachmentAbility).to_string(),
                text: d.clone(),
                at: at.clone(),
            });
        }
        ds.sources.push(Provenance::at_line(
            self.doc.file.clone(),
            self.first_line,
            self.doc.sha256.clone(),
        ));
        Some(ds)
    }
}

/// `1 model | 70` as a row, or `1 model` / `325` on two lines → (models, points, next index).
pub(super) fn points_at(blocks: &[Block], i: usize) -> Option<(u32, u32, usize)> {
    let b = blocks.get(i)?;
    if b.kind == BlockKind::TableRow {
        let cells: Vec<&str> = b.filled_cells().collect();
        if cells.len() == 2 {
            let m = POINTS.captures(cells[0].trim())?;
            let models = m[1].parse().ok()?;
            let points = cells[1].trim().parse().ok()?;
            return Some((models, points, i + 1));
        }
        return None;
    }
    let m = POINTS.captures(b.text.trim())?;
    let next = blocks.get(i + 1)?;
    let points = next.text.trim().parse().ok()?;
    Some((m[1].parse().ok()?, points, i + 2))
}

/// A characteristic value: short, no spaces beyond dice (`12"`, `D6+1`, `-2`, `Melee`, `N/A`).
fn is_value(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty() && t.len() <= 8 && !t.contains(' ') || t.eq_ignore_ascii_case("melee")
}

/// The datasheet's own section headings (`vocab::TENTH`).
fn is_section_heading(t: &str) -> bool {
    V.is_datasheet_section(t)
}

/// Whether block `b` opens a section by its first cell (a weapon table's header row) or is a
/// page section heading or labelled line, so it is never the value of the heading before it.
fn starts_section(b: &Block) -> bool {
    let first = b.cells.first().unwrap_or(b.text.as_str());
    let upper = first.trim().to_uppercase();
    is_section_heading(&upper)
        || V.page_sections.contains(&upper.as_str())
        || V.starts_with(H::Keywords, ":", &upper)
        || V.starts_with(H::FactionKeywords, ":", &upper)
        || V.starts_with(H::Damaged, ":", &upper)
}
