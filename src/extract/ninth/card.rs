//! One 9th-edition unit card → a [`Datasheet`]: title and power rating, faction keywords (the
//! faction is the first one that is neither a grand alliance such as `IMPERIUM` nor a
//! `<PLACEHOLDER>`), keywords (per model when printed `KEYWORDS [MODEL]:`), the model table
//! (`No.` count → `unit_composition`), the weapon table (tab cells, doubled tabs dropped;
//! a row with a note and `- Standard` / `- Supercharge` lines below is a multi-profile weapon),
//! the sections ABILITIES, WARGEAR OPTIONS, OTHER WARGEAR, and rules printed on the card under
//! an upper-case heading naming one of its abilities (`REANIMATION PROTOCOLS`), which become
//! faction rules.

use super::{cells, is_title, plain, push_para, CardStart};
use crate::diag::{Code, Diagnostic};
use crate::extract::sheet::{PrintedSave, SheetBuilder};
use crate::extract::Extracted;
use crate::ir::{Block, BlockKind, Document};
use crate::model::{Ability, Edition, ModelKeywords, ProfileKind, Rule, WeaponProfile, WeaponType};
use crate::source::{Location, Occurrence, Provenance};
use crate::text::words::TitleStyle;
use regex::Regex;
use std::sync::LazyLock;

static KEYWORDS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(FACTION )?KEYWORDS(?: \[([^\]]+)\])?:\s*(.*)$").expect("static regex")
});
static CARD_LABEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([A-Z][A-Z ,'’-]*[A-Z]):\s*(.*)$").expect("static regex"));
static WEAPON_TYPE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:Melee|(?:Rapid [Ff]ire|Assault|Heavy|Pistol|Grenade|Macro) \S+)$")
        .expect("static regex")
});

/// Grand alliances: printed first among faction keywords, never the faction itself.
const ALLIANCES: &[&str] = &["IMPERIUM", "CHAOS"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    Head,
    Models,
    Weapons,
    Abilities,
    Options,
    Wargear,
    /// A rule printed on the card (`REANIMATION PROTOCOLS`): index into `printed`.
    Printed(usize),
}

/// A rule printed on the card: name, line, paragraphs, and its `LABEL:` sub-rules.
#[derive(Debug, Default)]
struct Printed {
    name: String,
    line: u32,
    paras: Vec<String>,
    labels: Vec<(String, u32, Vec<String>)>,
}

struct Card<'a> {
    doc: &'a Document,
    ds: SheetBuilder,
    section: Section,
    /// Ability being read: (ability, its paragraphs).
    ability: Option<(Ability, Vec<String>)>,
    /// The note of a multi-profile weapon: its name, while its `- profile` lines follow.
    multi: Option<String>,
    printed: Vec<Printed>,
    diagnostics: Vec<Diagnostic>,
}

/// Reads the card in `blocks` (its title first) into `out`. `last`: the card ends the file.
pub(super) fn read(
    doc: &Document,
    blocks: &[Block],
    start: &CardStart,
    last: bool,
    out: &mut Extracted,
) {
    let mut ds = SheetBuilder::new(Edition::Ninth);
    ds.set_name(TitleStyle::NINTH.apply(&start.name));
    ds.power_rating = start.power;
    let line = blocks.first().map_or(0, |b| b.line());
    ds.source(Provenance::at_line(
        doc.file.clone(),
        line,
        doc.sha256.clone(),
    ));
    let mut c = Card {
        doc,
        ds,
        section: Section::Head,
        ability: None,
        multi: None,
        printed: Vec::new(),
        diagnostics: Vec::new(),
    };
    let title = start.title_blocks.min(blocks.len());
    out.account.in_records += title;
    for b in &blocks[title..] {
        if c.block(b) {
            out.account.in_records += 1;
        } else {
            out.account.unassigned += 1;
        }
    }
    c.close_ability();
    c.finish(last, out);
}

impl Card<'_> {
    fn warn(&mut self, code: Code, msg: String, line: u32) {
        let d = Diagnostic::new(code, msg).at(&self.doc.file, line);
        self.diagnostics.push(d);
    }

    /// Reads one block; false when it has no place on the card (`X108`).
    fn block(&mut self, b: &Block) -> bool {
        let t = plain(&b.text);
        if let Some(c) = KEYWORDS.captures(&t) {
            self.keywords(c.get(1).is_some(), c.get(2).map(|m| m.as_str()), &c[3]);
            return true;
        }
        let first = cells(b).first().cloned().unwrap_or_default();
        if b.text.contains('\t') && first.eq_ignore_ascii_case("No.") {
            self.section = Section::Models;
            return true;
        }
        if b.text.contains('\t') && first.eq_ignore_ascii_case("WEAPON") {
            self.section = Section::Weapons;
            return true;
        }
        if let Some(s) = self.section_heading(&t) {
            self.close_ability();
            self.section = s;
            return true;
        }
        match self.section {
            Section::Models if b.text.contains('\t') => self.model(b),
            Section::Weapons if b.text.contains('\t') => self.weapon(b),
            Section::Abilities | Section::Wargear => return self.ability_line(t, b.line()),
            Section::Options => self.ds.wargear_option(t),
            Section::Printed(k) => self.printed_line(k, t, b),
            _ => return self.note(&t, b.line()),
        }
        true
    }

    /// ABILITIES, WARGEAR OPTIONS, OTHER WARGEAR, or an upper-case heading naming an ability
    /// of this card printed without text (a faction rule printed here).
    fn section_heading(&mut self, t: &str) -> Option<Section> {
        match t {
            "ABILITIES" => return Some(Section::Abilities),
            "WARGEAR OPTIONS" => return Some(Section::Options),
            "OTHER WARGEAR" => return Some(Section::Wargear),
            _ => {}
        }
        let after_abilities = !matches!(
            self.section,
            Section::Head | Section::Models | Section::Weapons
        );
        if !is_title(t) || !after_abilities {
            return None;
        }
        let named = self
            .ability
            .as_ref()
            .is_some_and(|(a, p)| p.is_empty() && a.name.eq_ignore_ascii_case(t))
            || self
                .ds
                .abilities
                .iter()
                .any(|a| a.text.is_none() && a.name.eq_ignore_ascii_case(t));
        if !named {
            return None;
        }
        self.printed.push(Printed {
            name: TitleStyle::NINTH.apply(t),
            line: 0,
            ..Printed::default()
        });
        Some(Section::Printed(self.printed.len() - 1))
    }

    fn keywords(&mut self, faction: bool, model: Option<&str>, list: &str) {
        let words: Vec<String> = list
            .split(',')
            .map(|k| k.trim().to_string())
            .filter(|k| !k.is_empty())
            .collect();
        if faction {
            let own = words
                .iter()
                .find(|k| !k.starts_with('<') && !ALLIANCES.contains(&k.as_str()));
            if self.ds.faction.is_none() {
                self.ds.faction = own.map(|k| TitleStyle::NINTH.apply(k));
            }
            self.ds.faction_keywords.extend(words);
            return;
        }
        if let Some(m) = model {
            self.ds.model_keywords.push(ModelKeywords {
                model: m.trim().to_string(),
                keywords: words.clone(),
            });
        }
        for k in words {
            if !self.ds.keywords.contains(&k) {
                self.ds.keywords.push(k);
            }
        }
    }

    /// A model row: count, name, then the characteristics in the header's order.
    fn model(&mut self, b: &Block) {
        let row = cells(b);
        let fields = ProfileKind::Model.fields(Edition::Ninth);
        if row.len() != fields.len() + 2 {
            self.warn(
                Code::WeaponRowIncomplete,
                format!(
                    "model row has {} cells, expected {}: '{}'",
                    row.len(),
                    fields.len() + 2,
                    row.join(" | ")
                ),
                b.line(),
            );
        }
        let name = row.get(1).cloned();
        let at = crate::extract::location(self.doc, b);
        if let (Some(count), Some(name)) = (row.first(), &name) {
            self.ds.composition(format!("{count} {name}"));
        }
        self.ds
            .model_fields(name, at, |k, _| row.get(k + 2).cloned());
    }

    /// A weapon row, the note row of a multi-profile weapon, or one of its `- profile` lines.
    fn weapon(&mut self, b: &Block) {
        let row = cells(b);
        let Some(first) = row.first() else { return };
        if row.len() == 2 && row[1].ends_with(':') {
            self.multi = Some(first.clone());
            return;
        }
        let name = match (&self.multi, b.kind == BlockKind::ListItem) {
            (Some(parent), true) => format!("{parent} – {first}"),
            _ => {
                self.multi = None;
                first.clone()
            }
        };
        let fields = ProfileKind::Weapon.fields(Edition::Ninth);
        // `-` in the abilities column: the weapon has none
        let values: Vec<Option<String>> = (0..fields.len())
            .map(|k| row.get(k + 1).filter(|v| *v != "-").cloned())
            .collect();
        if row.len() < fields.len() + 1 {
            self.warn(
                Code::WeaponRowIncomplete,
                format!(
                    "weapon '{name}' row has {} of {} cells",
                    row.len(),
                    fields.len() + 1
                ),
                b.line(),
            );
        }
        let melee = values[0].as_deref() == Some("Melee");
        let kind = if melee {
            WeaponType::Melee
        } else {
            WeaponType::Ranged
        };
        let at = crate::extract::location(self.doc, b);
        let mut w = WeaponProfile::new(Edition::Ninth, name.clone(), kind, at);
        for (f, v) in fields.iter().zip(values) {
            w.set(f, v);
        }
        self.check_type(&mut w, b.line());
        if w.get("abilities") == Some("Blast") {
            w.keywords.push("BLAST".into());
        }
        self.ds.weapons.push(w);
    }

    /// A weapon type that is neither `Melee` nor a type with its shots is damaged: `null`.
    fn check_type(&mut self, w: &mut WeaponProfile, line: u32) {
        let Some(t) = w.get("weapon_type").map(str::to_string) else {
            return;
        };
        if WEAPON_TYPE.is_match(&t) {
            return;
        }
        w.set("weapon_type", None);
        self.warn(
            Code::DamagedText,
            format!(
                "weapon '{}': type '{t}' is damaged (not a weapon type with its shots); kept null",
                w.name
            ),
            line,
        );
    }

    /// An ability's name line or a line of its text; false for text before any name.
    fn ability_line(&mut self, t: String, line: u32) -> bool {
        if is_ability_name(&t) {
            self.close_ability();
            let (name, tags) = split_tags(&t);
            let group = if self.section == Section::Wargear {
                "wargear"
            } else {
                "datasheet"
            };
            let a = Ability {
                name,
                group: group.into(),
                tags,
                parameter: None,
                rule_id: None,
                text: None,
                at: Location::at_line(self.doc.file.clone(), line),
                translations: Default::default(),
            };
            self.ability = Some((a, Vec::new()));
            return true;
        }
        match self.ability.as_mut() {
            Some((_, paras)) => push_para(paras, t),
            None => {
                let msg = format!("ability text without a name: '{t}'");
                self.warn(Code::UnmatchedText, msg, line);
                return false;
            }
        }
        true
    }

    fn close_ability(&mut self) {
        let Some((mut a, paras)) = self.ability.take() else {
            return;
        };
        if paras.is_empty() {
            // a rule printed elsewhere (`Angels of Death`, `Reanimation Protocols`); a
            // wargear entry without text was cut off (`finish`)
            if a.group == "datasheet" {
                a.group = "faction".into();
            }
        } else {
            a.text = Some(join_ability(&paras));
            if a.group == "datasheet" && self.ds.invulnerable_save.is_none() {
                if let Some(s) = paras.first().and_then(|p| PrintedSave::sentence(p)) {
                    self.ds.invulnerable_save(s.save, s.condition);
                }
            }
        }
        self.ds.abilities.push(a);
    }

    /// A line of a rule printed on the card: paragraphs, bullets, `LABEL:` sub-rules.
    fn printed_line(&mut self, k: usize, t: String, b: &Block) {
        let Some(p) = self.printed.get_mut(k) else {
            return;
        };
        if p.line == 0 {
            p.line = b.line();
        }
        if let Some(c) = CARD_LABEL.captures(&t) {
            let first = c[2].trim().to_string();
            p.labels
                .push((TitleStyle::NINTH.apply(&c[1]), b.line(), vec![first]));
            return;
        }
        let text = if b.kind == BlockKind::ListItem {
            format!("• {t}")
        } else {
            t
        };
        match p.labels.last_mut() {
            Some((_, _, paras)) => paras.push(text),
            None => push_para(&mut p.paras, text),
        }
    }

    /// A line outside the sections: equipment, a power-rating note, else unassigned.
    fn note(&mut self, t: &str, line: u32) -> bool {
        let mut used = false;
        for s in sentences(t) {
            if s.contains("equipped with") {
                if !self.ds.equipment.contains(&s) {
                    self.ds.equipment_line(s);
                }
                used = true;
            } else if s.contains("its PR is") {
                if !self.ds.unit_composition.contains(&s) {
                    self.ds.unit_composition.push(s);
                }
                used = true;
            }
        }
        if !used {
            self.warn(
                Code::UnmatchedText,
                format!("card line not assigned: '{t}'"),
                line,
            );
        }
        used
    }
}

mod finish;

/// A name line of an ability: short, no sentence punctuation, capitalised words.
fn is_ability_name(t: &str) -> bool {
    let (name, _) = split_tags(t);
    let words: Vec<&str> = name.split_whitespace().collect();
    let small = ["of", "the", "is", "for", "in", "and", "a", "to", "be"];
    let capitalised = words
        .iter()
        .all(|w| small.contains(w) || w.chars().next().is_some_and(|c| c.is_uppercase()));
    !words.is_empty()
        && words.len() <= 6
        && !t.ends_with(['.', ':', ',', ';'])
        && !t.contains(',')
        && words[0].chars().next().is_some_and(|c| c.is_uppercase())
        && (capitalised || words.len() <= 3)
}

/// `Living Lightning (Aura)` → (`Living Lightning`, [`Aura`]).
fn split_tags(t: &str) -> (String, Vec<String>) {
    match t.trim().strip_suffix(')').and_then(|s| s.rsplit_once(" (")) {
        Some((name, tag)) => (name.trim().to_string(), vec![tag.trim().to_string()]),
        None => (t.trim().to_string(), Vec::new()),
    }
}

/// Paragraphs of an ability: a timing line ending in `:` runs into the next paragraph.
fn join_ability(paras: &[String]) -> String {
    let mut out = String::new();
    for p in paras {
        if !out.is_empty() {
            out.push_str(if out.ends_with(':') { " " } else { "\n\n" });
        }
        out.push_str(p);
    }
    out
}

/// The sentences of a line (split after `. `).
fn sentences(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = t.trim();
    while let Some(k) = rest.find(". ") {
        out.push(rest[..=k].trim().to_string());
        rest = rest[k + 2..].trim_start();
    }
    if !rest.is_empty() {
        out.push(rest.to_string());
    }
    out
}

/// A faction rule printed on a card.
fn printed_rule(
    doc: &Document,
    name: String,
    line: u32,
    faction: Option<&str>,
    paras: &[String],
) -> Rule {
    Rule {
        variants: Vec::new(),
        id: String::new(),
        name: Some(name),
        kind: "army".into(),
        edition: Edition::Ninth,
        faction: faction.map(str::to_string),
        flavor: None,
        text: paras.join("\n\n"),
        bullets: Vec::new(),
        examples: Vec::new(),
        occurrences: vec![Occurrence::at_line(doc.file.clone(), line)],
        tables: Vec::new(),
        number: Default::default(),
        parent: Default::default(),
        children: Default::default(),
        translations: Default::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ability_names() {
        assert!(is_ability_name("Living Metal"));
        assert!(is_ability_name("Their Number is Legion"));
        assert!(is_ability_name("United in Destruction (Aura)"));
        assert!(is_ability_name("Storm shield"));
        assert!(!is_ability_name("Re-roll hit rolls of 1."));
        assert!(!is_ability_name(
            "In a battle-forged army, you can include 1"
        ));
        assert!(!is_ability_name("Beginning of your turn:"));
    }
}
