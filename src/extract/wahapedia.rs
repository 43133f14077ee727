//! Wahapedia pages (10th edition) as the HTML decoder renders them: datasheets, glossary
//! tooltips, stratagem cards and faction-page sections.
//!
//! Reads blocks by the region and typed class hints ([`ClassHint`]) the decoder sets
//! (`Region::Datasheet` with `ClassHint::DsProfile`, `WProfile`, `DsHeader`…;
//! `Region::Glossary` with `TooltipHeader`, `AbName`, `Str10Name`…) and never looks at markup. Owns: the datasheet sections of a unit page, rule
//! paragraphs from tooltips (with flavor, bullet summary and examples), stratagems (the list
//! on a datasheet and the full cards), and a faction page's army rules, detachments,
//! detachment rules, enhancements and stratagems. The faction comes from the page's content
//! (its heading, else a keyword-index sentence, else the faction keywords), never from the
//! file name. Never guesses: a value the page lacks stays `None`.

use super::glossary::short;
use super::glossary::{group_line, ARMY_FACTION, WEAPON_RULE};
use super::sheet::{value, Finish, PrintedSave, SheetBuilder, ABILITY};
use super::ten::points_at;
use super::text;
use super::Extracted;
use crate::diag::{Code, Diagnostic};
use crate::ids::{self, slug};
use crate::ir::{Block, BlockKind, ClassHint, Document, Region};
use crate::model::*;
use crate::source::{Occurrence, Provenance};
use crate::text::words::{split_list, TitleStyle};
use crate::vocab::{Heading as H, StratagemPart, TENTH as V};

/// Reads one Wahapedia page.
pub fn extract(doc: &Document, out: &mut Extracted) {
    out.edition = Some(Edition::Tenth);
    out.faction = page_faction(doc);
    out.version = doc.meta.get("faction_pack").and_then(|t| pack_version(t));
    let blocks = &doc.blocks;
    let mut i = 0;
    let mut rest: Vec<&Block> = Vec::new();
    let mut glossary: Vec<&Block> = Vec::new();
    while i < blocks.len() {
        match blocks[i].region {
            Some(Region::Datasheet) => {
                let start = i;
                while i < blocks.len() && blocks[i].region == Some(Region::Datasheet) {
                    i += 1;
                    if i < blocks.len() && is_datasheet_start(&blocks[i]) {
                        break;
                    }
                }
                datasheet(doc, &blocks[start..i], out);
                continue;
            }
            Some(Region::Glossary) => glossary.push(&blocks[i]),
            _ => rest.push(&blocks[i]),
        }
        i += 1;
    }
    faction_page(doc, &rest, out);
    read_glossary(doc, &glossary, out);
    if out.faction.is_none() {
        out.diagnostics.push(
            Diagnostic::new(Code::FactionUnknown, "faction not stated in the content")
                .in_file(&doc.file),
        );
    }
}

/// `Faction Pack. Tyranids (10th edition, version 1.4)` → (1, 4).
pub fn pack_version(title: &str) -> Option<(u32, u32)> {
    let rest = &title[title.rfind("version")? + "version".len()..];
    let v: String = rest
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let mut parts = v.split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next().and_then(|m| m.parse().ok()).unwrap_or(0);
    Some((major, minor))
}

fn is_datasheet_start(b: &Block) -> bool {
    b.class == Some(ClassHint::DsH2Header)
}

/// The block's class hint (`None` when the decoder set none).
fn class(b: &Block) -> Option<ClassHint> {
    b.class
}

/// The faction the page names: the first part of its heading (`Tyranids – Carnifexes`), else
/// the faction of a keyword-index sentence (`…used in the following Tyranids datasheets`).
fn page_faction(doc: &Document) -> Option<String> {
    if let Some(f) = doc.meta.get("page_faction") {
        let f = f.split(" – ").next().unwrap_or(f).trim();
        if !f.is_empty() && f.len() < 60 {
            return Some(f.to_string());
        }
    }
    doc.blocks
        .iter()
        .filter(|b| class(b) == Some(ClassHint::KeywordIndex))
        .find_map(|b| text::keyword_index_sentence(&b.text).map(|(_, f)| f))
}

fn provenance(doc: &Document, line: u32) -> Provenance {
    Provenance::at_line(doc.file.clone(), line, doc.sha256.clone())
}

/// `(⌀105 x 70mm)` → `105 x 70mm` (the `⌀` kept off, as the text dumps print it).
fn base_size(t: &str) -> Option<String> {
    let t = t
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .trim();
    let t = t.trim_start_matches(['⌀', '∅']).trim();
    (!t.is_empty()).then(|| t.to_string())
}

/// Splits `Group – Category[ Stratagem]`. A datasheet's stratagem list prints the line of a
/// detachment whose cards name no category (`Grizzled Company – Stratagem` on the card) as
/// `Grizzled Company –`: the group, and no category.
fn group_and_category(t: &str) -> (Option<String>, Option<String>) {
    let t = t.trim();
    if let Some(group) = t.strip_suffix(['–', '-']).map(str::trim) {
        if !group.is_empty() && !group.ends_with(['–', '-']) {
            return (Some(group.to_string()), None);
        }
    }
    match group_line(t) {
        Some((g, c)) => (Some(g.trim().to_string()), Some(c.trim().to_string())),
        None => (None, (!t.is_empty()).then(|| t.to_string())),
    }
}

fn datasheet(doc: &Document, blocks: &[Block], out: &mut Extracted) {
    let first_line = blocks.first().map(|b| b.line()).unwrap_or(1);
    let mut r = SheetReader::new(doc);
    for b in blocks {
        r.used += 1;
        if r.hinted(b, out) || r.weapon_note(b) {
            continue;
        }
        r.section_content(b, out);
    }
    r.close_named_block();
    out.account.in_records += r.used;
    let ds = r.ds;
    if ds.name.is_none() && ds.models.is_empty() && ds.weapons.is_empty() {
        return;
    }
    finish_datasheet(doc, ds, first_line, out);
}

/// The state of reading one datasheet frame, block by block.
struct SheetReader<'a> {
    doc: &'a Document,
    ds: SheetBuilder,
    /// The current section's heading, upper case (`ABILITIES`, `RANGED WEAPONS`).
    section: String,
    /// The characteristic labels of the profile header (`M`, `T`, `SV`…).
    char_names: Vec<String>,
    /// The model name printed above the next profile row.
    model_name: Option<String>,
    weapon_type: WeaponType,
    /// The DAMAGED block or named rules block being read.
    damaged: Option<NamedText>,
    special: Option<NamedText>,
    /// The wargear option that nested list items continue.
    wargear_parent: Option<usize>,
    /// Blocks that went into the datasheet.
    used: usize,
}

impl<'a> SheetReader<'a> {
    fn new(doc: &'a Document) -> Self {
        SheetReader {
            doc,
            ds: SheetBuilder::new(Edition::Tenth),
            section: String::new(),
            char_names: Vec::new(),
            model_name: None,
            weapon_type: WeaponType::Ranged,
            damaged: None,
            special: None,
            wargear_parent: None,
            used: 0,
        }
    }

    fn diag(&self, out: &mut Extracted, code: Code, msg: String, b: &Block) {
        out.diagnostics
            .push(Diagnostic::new(code, msg).at(&self.doc.file, b.line()));
    }

    /// A block the decoder's class hint names; `false` when the hint is none of the datasheet's.
    fn hinted(&mut self, b: &Block, out: &mut Extracted) -> bool {
        match class(b) {
            Some(ClassHint::DsH2Header) => {
                if !b.text.is_empty() {
                    self.ds.set_name(b.text.clone());
                }
            }
            Some(ClassHint::DsModelBase) => {
                if self.ds.base_size.is_none() {
                    self.ds.set_base_size(base_size(&b.text));
                }
            }
            Some(ClassHint::DsModelName) => self.model_name = Some(b.text.clone()),
            Some(ClassHint::DsCharName) => {
                self.char_names = b.cells.iter().map(|c| c.to_uppercase()).collect();
            }
            Some(ClassHint::DsProfile) => self.model_profile(b, out),
            Some(ClassHint::DsInvul) => self.ds.invulnerable_value(PrintedSave::read(&b.text).save),
            Some(ClassHint::DsInvulComment) => {
                self.ds.invulnerable_condition(Some(
                    b.text.trim().trim_start_matches('*').trim().to_string(),
                ));
            }
            Some(ClassHint::WHeader) => self.weapon_header(b),
            Some(ClassHint::WProfile) | Some(ClassHint::WProfileMulti) => {
                self.weapon_profile(b, out)
            }
            Some(ClassHint::DsKeywords) => self.keywords(b),
            Some(ClassHint::DsFactionKeywords) => {
                let t = b.text.trim();
                let list = V.after_label(H::FactionKeywords, ":", t).unwrap_or(t);
                self.ds.faction_keyword_list(list);
            }
            Some(ClassHint::DsHeader) => self.section_header(b),
            _ => return false,
        }
        true
    }

    /// A model's characteristics row: the edition's characteristics, found by their printed
    /// label (`SV`, `LD`), else by position.
    fn model_profile(&mut self, b: &Block, out: &mut Extracted) {
        let char_names = &self.char_names;
        let get = |key: &str, pos: usize| -> Option<String> {
            let idx = char_names.iter().position(|n| n == key).unwrap_or(pos);
            b.cells.get(idx).and_then(value)
        };
        let fields = ProfileKind::Model.fields(self.ds.edition);
        let name = self.model_name.take().or_else(|| self.ds.name.clone());
        let at = super::location(self.doc, b);
        self.ds
            .model_fields(name, at, |i, f| get(&f.to_uppercase(), i));
        let n = fields.len();
        if b.cells.len() > n && self.char_names.len() <= n {
            let msg = format!(
                "profile row has {} values for {n} characteristics",
                b.cells.len()
            );
            self.diag(out, Code::WeaponRowIncomplete, msg, b);
        }
    }

    /// `RANGED WEAPONS` / `MELEE WEAPONS`: the type of the rows below.
    fn weapon_header(&mut self, b: &Block) {
        let head = b
            .cells
            .first()
            .map(|c| c.to_uppercase())
            .unwrap_or_default();
        self.weapon_type = if head.contains(V.heading(H::Melee)) {
            WeaponType::Melee
        } else {
            WeaponType::Ranged
        };
        self.section = head;
    }

    /// A weapon row: the name cell, then the edition's characteristics in its order.
    fn weapon_profile(&mut self, b: &Block, out: &mut Extracted) {
        let (mut name, keywords) = text::weapon_name_and_keywords(&b.cells[0]);
        if class(b) == Some(ClassHint::WProfileMulti) {
            // `Plasma pistol - supercharge` beside `Plasma pistol – standard`: one
            // weapon, its profiles named with the en dash the site mostly uses.
            name = name.replacen(" - ", " – ", 1);
        }
        let get = |k: usize| b.cells.get(k).and_then(value);
        let fields = ProfileKind::Weapon.fields(self.ds.edition);
        if b.cells.len() < fields.len() + 1 {
            let msg = format!(
                "weapon '{name}' has {} of {} values",
                b.cells.len().saturating_sub(1),
                fields.len()
            );
            self.diag(out, Code::WeaponRowIncomplete, msg, b);
        }
        let at = super::location(self.doc, b);
        let kind = self.weapon_type;
        self.ds
            .weapon_fields(name, keywords, kind, at, |i, _| get(i + 1));
    }

    /// `KEYWORDS:` / `KEYWORDS – ALL MODELS:` apply to the unit; any other label names one
    /// model (its keywords are the unit's too).
    fn keywords(&mut self, b: &Block) {
        let t = b.text.trim();
        let (group, list) = match t.find(':') {
            Some(i) => (t[..i].trim(), &t[i + 1..]),
            None => ("", t),
        };
        if !group.is_empty() && !group.to_uppercase().starts_with(V.heading(H::Keywords)) {
            self.ds.model_keywords.push(ModelKeywords {
                model: group.to_string(),
                keywords: split_list(list),
            });
        }
        for k in split_list(list) {
            if !self.ds.keywords.iter().any(|x| x.eq_ignore_ascii_case(&k)) {
                self.ds.keywords.push(k);
            }
        }
    }

    /// A section heading: closes the named block being read, opens a DAMAGED or named
    /// rules block when the heading is one.
    fn section_header(&mut self, b: &Block) {
        self.close_named_block();
        self.section = b.text.trim().to_uppercase();
        self.wargear_parent = None;
        let named = || NamedText {
            name: b.text.trim().to_string(),
            text: String::new(),
            at: super::location(self.doc, b),
        };
        if self.section.starts_with(V.heading(H::Damaged)) {
            self.damaged = Some(named());
        } else if !V.page_sections.contains(&self.section.as_str()) {
            self.special = Some(named());
        }
    }

    /// The DAMAGED or named rules block being read goes to the datasheet.
    fn close_named_block(&mut self) {
        if let Some(n) = self.damaged.take() {
            self.ds.damaged_box(n);
        }
        if let Some(s) = self.special.take() {
            self.ds.named_box(s);
        }
    }

    /// A note printed under a weapon's profile (`One Shot: …`, `Ibram Gaunt only.`): a named
    /// rules block. `false` when `b` is not one.
    fn weapon_note(&mut self, b: &Block) -> bool {
        if class(b) != Some(ClassHint::WNote) && !self.section.ends_with(V.heading(H::Weapons)) {
            return false;
        }
        let named = ABILITY
            .captures(&b.text)
            .map(|c| (c[1].trim().to_string(), c[3].trim().to_string()));
        let Some((name, text)) = named.or_else(|| {
            self.ds
                .weapons
                .last()
                .map(|w| (w.name.clone(), b.text.trim().to_string()))
        }) else {
            return false;
        };
        self.ds.named_box(NamedText {
            name,
            text,
            at: super::location(self.doc, b),
        });
        true
    }

    /// A block without a datasheet hint: content of the current section.
    fn section_content(&mut self, b: &Block, out: &mut Extracted) {
        if let Some(d) = self.damaged.as_mut().or(self.special.as_mut()) {
            push_para(&mut d.text, &b.text);
            return;
        }
        match V.heading_of(&self.section) {
            Some(H::WargearOptions) => self.wargear_option(b),
            Some(H::Abilities | H::WargearAbilities) => self.ability(b),
            Some(H::UnitComposition) => self.composition(b, out),
            Some(H::Leader) if b.kind == BlockKind::ListItem => self.ds.can_lead(b.text.clone()),
            Some(H::Stratagems) if class(b) == Some(ClassHint::S10Wrap) => {
                if let Some(id) = listed_stratagem(self.doc, b, out) {
                    if !self.ds.stratagems.contains(&id) {
                        self.ds.stratagem(id);
                    }
                }
            }
            Some(H::Leader | H::LedBy | H::DetachmentAbility | H::Enhancements | H::Stratagems) => {
                // Cross-references to other pages' records (bodyguards, detachment rules,
                // enhancements): read there, not here.
            }
            _ => {
                self.used -= 1;
                out.account.unassigned += 1;
                let msg = format!("paragraph not assigned: '{}'", short(&b.text));
                self.diag(out, Code::UnmatchedText, msg, b);
            }
        }
    }

    /// A wargear option; a nested list item continues the option above it.
    fn wargear_option(&mut self, b: &Block) {
        if b.kind != BlockKind::ListItem {
            self.ds.wargear_option(b.text.clone());
            return;
        }
        if b.level > 1 {
            if let Some(p) = self
                .wargear_parent
                .and_then(|p| self.ds.wargear_options.get_mut(p))
            {
                p.push_str(if p.ends_with(':') { " " } else { "; " });
                p.push_str(&b.text);
                return;
            }
        }
        self.wargear_parent = Some(self.ds.wargear_options.len());
        self.ds.wargear_option(b.text.clone());
    }

    /// A line of ABILITIES or WARGEAR ABILITIES.
    fn ability(&mut self, b: &Block) {
        if is_designers_note(&b.text) {
            // Commentary printed among the abilities, not an ability.
            let text = b
                .text
                .split_once(':')
                .map(|(_, t)| t.trim())
                .unwrap_or(&b.text);
            self.ds.named_box(NamedText {
                name: "Designer’s Note".to_string(),
                text: text.to_string(),
                at: super::location(self.doc, b),
            });
        } else if b.kind == BlockKind::ListItem
            && self.ds.abilities.last().is_some_and(|a| a.text.is_some())
        {
            // The options of the ability above (`Designate Target: …`, `Adjust Target: …`).
            if let Some(text) = self.ds.abilities.last_mut().and_then(|a| a.text.as_mut()) {
                text.push_str("\n\n• ");
                text.push_str(b.text.trim());
            }
        } else {
            let group = if V.heading_of(&self.section) == Some(H::Abilities) {
                "datasheet"
            } else {
                "wargear"
            };
            let at = super::location(self.doc, b);
            self.ds.ability_line(&b.text, group, at);
        }
    }

    /// A line of UNIT COMPOSITION: a points row, a model line, or the equipment sentence.
    fn composition(&mut self, b: &Block, out: &mut Extracted) {
        if b.kind == BlockKind::TableRow {
            match points_at(std::slice::from_ref(b), 0) {
                Some((models, points, _)) => {
                    self.ds.points(models, points, super::location(self.doc, b))
                }
                None => {
                    let msg = format!("points line not understood: '{}'", b.text);
                    self.diag(out, Code::PointsUnparsed, msg, b);
                }
            }
        } else if b.kind == BlockKind::ListItem {
            self.ds.composition(b.text.clone());
        } else if b.text.contains("equipped with") {
            self.ds.equipment_line(b.text.clone());
        } else {
            self.ds.composition(b.text.clone());
        }
    }
}

/// The datasheet's faction, id, ability links and source; then it joins `out`.
fn finish_datasheet(doc: &Document, ds: SheetBuilder, first_line: u32, out: &mut Extracted) {
    let f = Finish {
        faction: out.faction.clone(),
        file: &doc.file,
        line: first_line,
        link_references: true,
        // The page's publication: its faction pack logo's title.
        publication: doc.meta.get("faction_pack").map(String::as_str),
    };
    let mut ds = ds.finish(f, &mut out.diagnostics);
    ds.sources.push(provenance(doc, first_line));
    out.datasheets.push(ds);
}

fn is_designers_note(t: &str) -> bool {
    let lower = t.trim_start().to_lowercase();
    lower.starts_with("designer’s note") || lower.starts_with("designer's note")
}

fn push_para(text: &mut String, p: &str) {
    if !text.is_empty() {
        text.push_str("\n\n");
    }
    text.push_str(p.trim());
}

/// A stratagem listed on a datasheet (`NAME | 1CP | Group – Category`): its id, and a record
/// with what the list says (the full card in the glossary fills the rest when merged).
fn listed_stratagem(doc: &Document, b: &Block, out: &mut Extracted) -> Option<String> {
    let name = b.cells.first()?.trim();
    if name.is_empty() {
        return None;
    }
    let (group, category) = group_and_category(b.cells.get(2).unwrap_or(""));
    let id = ids::stratagem(Edition::Tenth, group.as_deref().unwrap_or("unknown"), name);
    out.stratagems.push(Stratagem {
        id: id.clone(),
        name: name.to_string(),
        edition: Edition::Tenth,
        cp: b.cells.get(1).and_then(text::cp_value),
        group,
        category,
        flavor: None,
        when: None,
        target: None,
        effect: None,
        restrictions: None,
        sources: vec![provenance(doc, b.line())],
        translations: Default::default(),
    });
    Some(id)
}

/// A rule's parts gathered from consecutive blocks.
#[derive(Default)]
struct RuleParts {
    name: Option<String>,
    line: u32,
    flavor: Vec<String>,
    /// The detachment a tooltip says the rule belongs to (`detachName`).
    detachment: Option<String>,
    text: Vec<String>,
    bullets: Vec<String>,
    examples: Vec<String>,
    blocks: usize,
}

impl RuleParts {
    fn add(&mut self, b: &Block) {
        self.blocks += 1;
        match class(b) {
            Some(ClassHint::Flavor) => self.flavor.push(b.text.clone()),
            Some(ClassHint::DetachName) => self.detachment = Some(b.text.trim().to_string()),
            Some(ClassHint::Summary) => self.bullets.push(b.text.clone()),
            Some(ClassHint::Example) => self.examples.push(
                b.text
                    .trim()
                    .strip_prefix("Example:")
                    .unwrap_or(&b.text)
                    .trim()
                    .to_string(),
            ),
            _ if b.kind == BlockKind::ListItem => self.text.push(format!("• {}", b.text)),
            _ => self.text.push(b.text.clone()),
        }
    }

    fn body(&self) -> String {
        self.text.join("\n\n")
    }
}

fn rule_kind(body: &str) -> (&'static str, Option<String>) {
    if WEAPON_RULE.is_match(body) {
        ("weapon_ability", None)
    } else if let Some(c) = ARMY_FACTION.captures(body) {
        (
            "army",
            c.get(1).map(|m| TitleStyle::EVERY_WORD.apply(m.as_str())),
        )
    } else {
        ("core", None)
    }
}

fn push_rule(
    doc: &Document,
    parts: RuleParts,
    kind: &str,
    faction: Option<String>,
    out: &mut Extracted,
) {
    let body = parts.body();
    if body.is_empty() {
        // A rule is its text: a name with nothing after it (a tooltip cut off with its page)
        // is not a record.
        out.account.unassigned += parts.blocks;
        if let Some(name) = &parts.name {
            out.diagnostics.push(
                Diagnostic::new(
                    Code::RequiredTextMissing,
                    format!("rule '{name}' has no text in this source; not emitted"),
                )
                .at(&doc.file, parts.line),
            );
        }
        return;
    }
    out.account.in_records += parts.blocks;
    out.rules.push(Rule {
        id: String::new(),
        name: parts.name,
        kind: kind.to_string(),
        edition: Edition::Tenth,
        faction,
        flavor: (!parts.flavor.is_empty()).then(|| parts.flavor.join("\n\n")),
        text: body,
        bullets: parts.bullets,
        examples: parts.examples,
        occurrences: vec![Occurrence::at_line(doc.file.clone(), parts.line)],
        tables: Vec::new(),
        variants: Vec::new(),
        number: Default::default(),
        parent: Default::default(),
        children: Default::default(),
        translations: Default::default(),
    });
}

/// Tooltips: rule paragraphs and stratagem cards. Keyword indexes are navigation (chrome).
fn read_glossary(doc: &Document, blocks: &[&Block], out: &mut Extracted) {
    let mut i = 0;
    while i < blocks.len() {
        let b = blocks[i];
        match class(b) {
            Some(ClassHint::TooltipHeader) | Some(ClassHint::AbName) => {
                // A tooltip titled with the name its ability card prints again (`Feel No
                // Pain`, then `FEEL NO PAIN`): one rule, read at the card's name.
                let repeated = blocks.get(i + 1).is_some_and(|n| {
                    matches!(class(n), Some(ClassHint::TooltipHeader | ClassHint::AbName))
                        && n.text.trim().eq_ignore_ascii_case(b.text.trim())
                });
                if repeated {
                    out.account.in_records += 1;
                    i += 1;
                    continue;
                }
                let mut parts = RuleParts {
                    name: Some(display_name(&b.text)),
                    line: b.line(),
                    blocks: 1,
                    ..RuleParts::default()
                };
                i += 1;
                while i < blocks.len() && blocks[i].kind != BlockKind::Heading {
                    if class(blocks[i]) == Some(ClassHint::KeywordIndex) {
                        break;
                    }
                    parts.add(blocks[i]);
                    i += 1;
                }
                let (mut kind, faction) = rule_kind(&parts.body());
                let faction = if kind == "army" {
                    faction.or_else(|| out.faction.clone())
                } else if let Some(det) = parts.detachment.clone() {
                    // A detachment rule: the detachment is recorded with it.
                    kind = "detachment";
                    let fs = out
                        .faction
                        .as_deref()
                        .map(slug)
                        .unwrap_or_else(|| "unknown".into());
                    let det = det.trim_end_matches(" Detachment").trim().to_string();
                    let name = parts.name.clone().unwrap_or_default();
                    out.detachments.push(Detachment {
                        id: ids::detachment(Edition::Tenth, out.faction.as_deref(), &det),
                        name: det,
                        edition: Edition::Tenth,
                        faction: out.faction.clone(),
                        rules: vec![ids::detachment_rule(Edition::Tenth, &fs, &name)],
                        enhancements: Vec::new(),
                        stratagems: Vec::new(),
                        sources: vec![provenance(doc, b.line())],
                        points: Default::default(),
                        force_disposition: Default::default(),
                        unique_tag: Default::default(),
                        translations: Default::default(),
                    });
                    out.faction.clone()
                } else {
                    None
                };
                push_rule(doc, parts, kind, faction, out);
            }
            Some(ClassHint::Str10Name) => {
                i = stratagem_card(doc, blocks, i, out);
            }
            _ => {
                // Marker, keyword index, or text of a tooltip without a header.
                if class(b) == Some(ClassHint::Tooltip) || class(b) == Some(ClassHint::KeywordIndex)
                {
                    out.account.chrome += 1;
                } else {
                    out.account.unassigned += 1;
                }
                i += 1;
            }
        }
    }
}

/// Ability cards print the name in capitals (`DEADLY DEMISE`); rules are named in title case
/// everywhere else, so the card's name is title-cased for the record.
fn display_name(name: &str) -> String {
    let n = name.trim();
    if text::is_upper(n) {
        TitleStyle::EVERY_WORD.apply(n)
    } else {
        n.to_string()
    }
}

/// A stratagem card starting at `i`; returns the index after it.
fn stratagem_card(doc: &Document, blocks: &[&Block], mut i: usize, out: &mut Extracted) -> usize {
    let head = blocks[i];
    let name = head.text.trim().to_string();
    let mut s = Stratagem {
        id: String::new(),
        name: name.clone(),
        edition: Edition::Tenth,
        cp: None,
        group: None,
        category: None,
        flavor: None,
        when: None,
        target: None,
        effect: None,
        restrictions: None,
        sources: vec![provenance(doc, head.line())],
        translations: Default::default(),
    };
    let mut used = 1;
    let mut read = CardText::default();
    i += 1;
    while i < blocks.len() && blocks[i].kind != BlockKind::Heading {
        used += 1;
        if !card_block(&mut s, blocks[i], &mut read) {
            used -= 1;
            out.account.unassigned += 1;
        }
        i += 1;
    }
    out.account.in_records += used;
    s.id = ids::stratagem(
        Edition::Tenth,
        s.group.as_deref().unwrap_or("unknown"),
        &name,
    );
    // A card without its text (a page cut off) is not reported here: another page may print
    // the same card whole, so `pipeline` reports what the merged record still lacks (`X111`).
    if read.unlabeled {
        out.diagnostics.push(
            Diagnostic::new(
                Code::StratagemIncomplete,
                format!("stratagem '{name}' is printed without WHEN/TARGET/EFFECT labels; its text is kept as the effect"),
            )
            .at(&doc.file, head.line()),
        );
    }
    out.stratagems.push(s);
    i
}

/// How far a card's text has been read: the last labelled part, and whether the card prints
/// its rule without labels.
#[derive(Default)]
struct CardText {
    last: Option<StratagemPart>,
    unlabeled: bool,
}

/// One block of a stratagem card into `s`; `false` when it is not part of the card.
fn card_block(s: &mut Stratagem, b: &Block, read: &mut CardText) -> bool {
    match class(b) {
        Some(ClassHint::Str10Cp) => s.cp = text::cp_value(&b.text),
        Some(ClassHint::Str10Type) => (s.group, s.category) = group_and_category(&b.text),
        Some(ClassHint::Str10Legend) => s.flavor = Some(b.text.trim().to_string()),
        _ => return card_text(s, b, read),
    }
    true
}

/// A line of a card's rule: a labelled part (`WHEN: …`), more of the last part, or an older
/// card's unlabeled rule (kept as the effect). `false` when it is none of these.
fn card_text(s: &mut Stratagem, b: &Block, read: &mut CardText) -> bool {
    let t = b.text.trim();
    if let Some((part, rest)) = V.stratagem_part(t) {
        *field(s, part) = Some(rest.to_string());
        read.last = Some(part);
        return true;
    }
    match read.last {
        // An older card prints its rule without WHEN/TARGET/EFFECT labels.
        None if class(b) == Some(ClassHint::Str10Text) && s.effect.is_none() => {
            s.effect = Some(t.to_string());
            read.unlabeled = true;
        }
        Some(part) => {
            let f = field(s, part);
            let mut v = f.take().unwrap_or_default();
            push_para(&mut v, t);
            *f = Some(v);
        }
        None => return false,
    }
    true
}

fn field(s: &mut Stratagem, part: StratagemPart) -> &mut Option<String> {
    match part {
        StratagemPart::When => &mut s.when,
        StratagemPart::Target => &mut s.target,
        StratagemPart::Effect => &mut s.effect,
        StratagemPart::Restrictions => &mut s.restrictions,
    }
}

/// A faction page's sections: army rules; per detachment its rule, enhancements and
/// stratagems. Stratagem cards here carry `Region::Faction`; other blocks have no region.
fn faction_page(doc: &Document, blocks: &[&Block], out: &mut Extracted) {
    let mut page = FactionPage::new(doc, out.faction.clone());
    let mut i = 0;
    while i < blocks.len() {
        let b = blocks[i];
        i = if b.kind == BlockKind::Heading && class(b) != Some(ClassHint::Str10Name) {
            page.heading(blocks, i, out)
        } else if class(b) == Some(ClassHint::Str10Name) {
            page.stratagem(blocks, i, out)
        } else if page.sec == Sec::Enhancements && class(b) == Some(ClassHint::EnhancementsPts) {
            page.enhancement(blocks, i, out)
        } else {
            // Everything else on the page (introductions, navigation, Crusade rules, FAQ) is
            // not a record type of the contract.
            out.account.unassigned += 1;
            i + 1
        };
    }
    page.detachments.extend(page.detachment.take());
    out.detachments.extend(page.detachments);
}

/// The section of a faction page being read (rules sections with their heading's level).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Sec {
    None,
    ArmyRules(u8),
    DetachmentRule(u8),
    Enhancements,
    Stratagems,
}

/// The state of reading a faction page.
struct FactionPage<'a> {
    doc: &'a Document,
    faction: Option<String>,
    faction_slug: String,
    sec: Sec,
    /// The last heading at each level that is not boilerplate, with its line: a detachment's
    /// name is the one at the level of its `Detachment Rule` heading.
    last_plain: [Option<(String, u32)>; 7],
    /// The detachment being read, and those read before it.
    detachment: Option<Detachment>,
    detachments: Vec<Detachment>,
}

impl<'a> FactionPage<'a> {
    fn new(doc: &'a Document, faction: Option<String>) -> Self {
        let faction_slug = faction
            .as_deref()
            .map(slug)
            .unwrap_or_else(|| "unknown".into());
        FactionPage {
            doc,
            faction,
            faction_slug,
            sec: Sec::None,
            last_plain: Default::default(),
            detachment: None,
            detachments: Vec::new(),
        }
    }

    /// A heading at `i`: a section starts or ends, a rule starts, or a name is remembered.
    fn heading(&mut self, blocks: &[&Block], i: usize, out: &mut Extracted) -> usize {
        let b = blocks[i];
        let level = b.level.min(6);
        let lower = b.text.trim().to_lowercase();
        // Leaving a rules section at this level or above.
        match self.sec {
            Sec::ArmyRules(l) | Sec::DetachmentRule(l) if level <= l => self.sec = Sec::None,
            Sec::Enhancements | Sec::Stratagems if level <= 3 => self.sec = Sec::None,
            _ => {}
        }
        let is = |h| V.is(h, b.text.trim());
        if is(H::ArmyRules) || is(H::ArmyRule) {
            self.sec = Sec::ArmyRules(level);
        } else if is(H::DetachmentRule) || is(H::DetachmentRules) {
            self.open_detachment(level);
            self.sec = Sec::DetachmentRule(level);
        } else if is(H::Enhancements) {
            self.sec = Sec::Enhancements;
        } else if is(H::Stratagems) {
            self.sec = Sec::Stratagems;
        } else if matches!(self.sec, Sec::ArmyRules(_) | Sec::DetachmentRule(_)) {
            return self.rule(blocks, i, out);
        }
        if !V.faction_page_boilerplate.contains(&lower.as_str()) {
            self.last_plain[level as usize] = Some((b.text.trim().to_string(), b.line()));
            for slot in self.last_plain.iter_mut().skip(level as usize + 1) {
                *slot = None;
            }
        }
        out.account.in_records += 1;
        i + 1
    }

    /// A `Detachment Rule` heading at `level`: the detachment named by the last heading at
    /// that level starts.
    fn open_detachment(&mut self, level: u8) {
        let Some((name, line)) = self.last_plain[level as usize].clone() else {
            return;
        };
        self.detachments.extend(self.detachment.take());
        self.detachment = Some(Detachment {
            id: ids::detachment(Edition::Tenth, self.faction.as_deref(), &name),
            name,
            edition: Edition::Tenth,
            faction: self.faction.clone(),
            rules: Vec::new(),
            enhancements: Vec::new(),
            stratagems: Vec::new(),
            sources: vec![provenance(self.doc, line)],
            points: Default::default(),
            force_disposition: Default::default(),
            unique_tag: Default::default(),
            translations: Default::default(),
        });
    }

    /// A rule in an army or detachment rules section: its heading at `i`, then its
    /// paragraphs. Returns the index after it.
    fn rule(&mut self, blocks: &[&Block], mut i: usize, out: &mut Extracted) -> usize {
        let b = blocks[i];
        let mut parts = RuleParts {
            name: Some(b.text.trim().to_string()),
            line: b.line(),
            blocks: 1,
            ..RuleParts::default()
        };
        i += 1;
        while i < blocks.len() && blocks[i].kind != BlockKind::Heading {
            parts.add(blocks[i]);
            i += 1;
        }
        let kind = if let Sec::DetachmentRule(_) = self.sec {
            "detachment"
        } else {
            "army"
        };
        if let (Some(d), "detachment") = (self.detachment.as_mut(), kind) {
            if let Some(n) = &parts.name {
                d.rules
                    .push(ids::detachment_rule(Edition::Tenth, &self.faction_slug, n));
            }
        }
        push_rule(self.doc, parts, kind, self.faction.clone(), out);
        i
    }

    /// A stratagem card at `i`; in a detachment's stratagems section it is listed with the
    /// detachment when its group names it.
    fn stratagem(&mut self, blocks: &[&Block], i: usize, out: &mut Extracted) -> usize {
        let n = out.stratagems.len();
        let next = stratagem_card(self.doc, blocks, i, out);
        if let (Some(d), Some(s)) = (self.detachment.as_mut(), out.stratagems.get(n)) {
            if self.sec == Sec::Stratagems && s.group.as_deref().map(slug) == Some(slug(&d.name)) {
                d.stratagems.push(s.id.clone());
            }
        }
        next
    }

    /// An enhancement: its name and points row at `i`, then its text. Returns the index
    /// after it.
    fn enhancement(&mut self, blocks: &[&Block], mut i: usize, out: &mut Extracted) -> usize {
        let b = blocks[i];
        let name = b.cells.first().unwrap_or_default().to_string();
        let pts = b
            .cells
            .get(1)
            .and_then(|p| p.trim().trim_end_matches("pts").trim().parse::<u32>().ok());
        let mut parts = RuleParts {
            line: b.line(),
            blocks: 1,
            ..RuleParts::default()
        };
        i += 1;
        while i < blocks.len()
            && blocks[i].kind != BlockKind::Heading
            && class(blocks[i]) != Some(ClassHint::EnhancementsPts)
            && class(blocks[i]) != Some(ClassHint::Str10Name)
        {
            parts.add(blocks[i]);
            i += 1;
        }
        out.account.in_records += parts.blocks;
        let det = self.detachment.as_ref().map(|d| d.name.clone());
        let id = ids::enhancement(
            Edition::Tenth,
            self.faction.as_deref(),
            det.as_deref(),
            &name,
        );
        if let Some(d) = self.detachment.as_mut() {
            d.enhancements.push(id.clone());
        }
        out.enhancements.push(Enhancement {
            id,
            name: Some(name),
            edition: Edition::Tenth,
            faction: self.faction.clone(),
            detachment: det,
            points: pts,
            flavor: (!parts.flavor.is_empty()).then(|| parts.flavor.join("\n\n")),
            text: parts.body(),
            sources: vec![provenance(self.doc, parts.line)],
            translations: Default::default(),
        });
        i
    }
}
