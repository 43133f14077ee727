//! Games Workshop rules documents converted to Markdown (the Chapter Approved Tournament
//! Companion and documents built like it): headings, numbered sequence steps, upper-case labels,
//! `Q:`/`A:` FAQ entries, card amendments, designer's notes and stratagem cards → records.
//!
//! A section's kind comes from the words of its heading ([`KINDS`], first match; a heading that
//! matches none keeps the kind of the section it sits in):
//!
//! | kind | headings | records |
//! | --- | --- | --- |
//! | `mission_rule` | `… MISSION SEQUENCE`, `DEPLOYMENT CARD KEY` | each step (`1 MUSTER ARMIES` → `Muster Armies`; a step number printed under the heading, `13`, is read with it), each sub-heading and each upper-case label with text (`FIXED MISSIONS`) |
//! | `designers_note` | `DESIGNER'S NOTES` | each sub-heading; anywhere, a `Designer's Note:` paragraph and the paragraphs after it (unnamed: the label is not a name) |
//! | `action` | `ACTIONS` | the section |
//! | `errata` | `… AMENDMENTS`, `ERRATA` | each card: the type line (`SECONDARY MISSION - ATTACKER`), its name, flavor and text |
//! | `faq` | `… FAQ(S)` | each `Q:` with its `A:` and `Example:` (named by the question; the text is question and answer, so two answers `Yes.` stay two records) |
//! | `terrain` | `TERRAIN …`, `… RUINS`, `… MEASUREMENTS` | each heading and label with text |
//! | `guidance` | `PAIRING…`, `RANKING…`, `… COMMENTARY …` (checked first: `The Rules Commentary, Errata and FAQ` is guidance), `INTRODUCTION`, `… MISSION POOL`, `PRIMARY MISSIONS` | each heading (organiser guidance, not game rules) |
//!
//! A stratagem card (`CORE - STRATEGIC PLOY STRATAGEM`, `(1CP)`, `WHEN:`/`TARGET:`/`EFFECT:`)
//! is a stratagem record; the text after it goes back to the rule it interrupted (the page prints
//! it beside that rule). Chrome, counted: the converter's banner (`Extracted from: …`, `Date:`,
//! `Total Pages:`, `Note: This is raw extracted text…`), page numbers, headings with no text of
//! their own (titles, group headings), and labels with no text (diagram captions). Base-size
//! tables (`UNIT | BASE SIZE` to the end) are no record type yet: counted unassigned, one `X108`.
//! Names of upper-case headings are title-cased (`VP UP TO A LIMIT` → `VP up to a Limit`).

use super::Extracted;
use crate::diag::{Code, Diagnostic};
use crate::ir::{Block, BlockKind, Document};
use crate::model::{Edition, Rule, Stratagem};
use crate::source::{Occurrence, Provenance};
use crate::text::words::TitleStyle;
use crate::vocab::{Heading as H, TENTH as V};

/// Heading words → record kind, first match wins.
const KINDS: &[(&[&str], &str)] = &[
    (&["PAIRING", "RANKING", "COMMENTARY"], "guidance"),
    (&["FAQ"], "faq"),
    (&["DESIGNER"], "designers_note"),
    (&["AMENDMENT", "ERRATA"], "errata"),
    (&["MISSION SEQUENCE", "CARD KEY"], "mission_rule"),
    (
        &["MISSION POOL", "PRIMARY MISSIONS", "INTRODUCTION"],
        "guidance",
    ),
    (&["TERRAIN", "RUINS", "MEASUREMENTS"], "terrain"),
    (&["ACTIONS"], "action"),
];

/// The converter's banner lines (chrome).
const BANNER: &[&str] = &[
    "Extracted from:",
    "Date:",
    "Total Pages:",
    "Pages with Content:",
    "Note: This is raw extracted text",
];

/// A record being read.
struct Open {
    kind: &'static str,
    name: Option<String>,
    line: u32,
    flavor: Option<String>,
    text: String,
    examples: Vec<String>,
}

/// A stratagem card being read.
struct Card {
    name: String,
    line: u32,
    group: Option<String>,
    category: Option<String>,
    cp: Option<u32>,
    flavor: Option<String>,
    fields: [Option<String>; 4],
}

struct Reader<'a> {
    doc: &'a Document,
    out: &'a mut Extracted,
    edition: Edition,
    kind: &'static str,
    open: Option<Open>,
    /// The rule a stratagem card interrupted.
    resume: Option<Open>,
    card: Option<Card>,
    /// In an errata section, the card type line was just read: the next label is the name.
    card_type: Option<u32>,
    rules: Vec<Rule>,
}

/// Reads a Markdown rules document into `out`.
pub fn extract(doc: &Document, out: &mut Extracted) {
    let edition = out.edition.unwrap_or(Edition::Tenth);
    let mut r = Reader {
        doc,
        out,
        edition,
        kind: "guidance",
        open: None,
        resume: None,
        card: None,
        card_type: None,
        rules: Vec::new(),
    };
    let blocks = &doc.blocks;
    let mut i = 0;
    while i < blocks.len() {
        if starts_base_sizes(blocks, i) {
            r.base_sizes(i);
            break;
        }
        i = r.block(i);
    }
    r.close();
    let mut rules = std::mem::take(&mut r.rules);
    join_repeated(&mut rules);
    for rule in &mut rules {
        rule.id = crate::ids::rule_id(rule);
    }
    out.rules.extend(rules);
}

/// A heading whose next block is a `UNIT … BASE SIZE` table header, or that header itself.
fn starts_base_sizes(blocks: &[Block], i: usize) -> bool {
    let base_size = V.heading(H::BaseSize);
    let is_header = |b: &Block| b.text.starts_with(V.heading(H::Unit)) && b.text.len() < 120;
    let header_at = |j: usize| {
        blocks.get(j).is_some_and(is_header)
            && (blocks[j].text.contains(base_size)
                || blocks.get(j + 1).is_some_and(|b| b.text == base_size))
    };
    header_at(i) || blocks[i].kind == BlockKind::Heading && header_at(i + 1)
}

impl Reader<'_> {
    /// Reads the block at `i`; returns the index of the next unread block.
    fn block(&mut self, i: usize) -> usize {
        let b = &self.doc.blocks[i];
        let text = b.text.as_str();
        if BANNER.iter().any(|p| text.starts_with(p)) || is_banner_title(self.doc, i) {
            self.out.account.chrome += 1;
            return i + 1;
        }
        if b.kind == BlockKind::Heading {
            return self.heading(i);
        }
        if is_number(text) {
            // page number (a step number right after its heading is read by `heading`)
            self.out.account.chrome += 1;
            return i + 1;
        }
        if self.card.is_some() && self.card_line(b) {
            return i + 1;
        }
        if let Some(note) = designers_note(text) {
            self.start(b.line(), "designers_note", None);
            self.push(note, true);
            return i + 1;
        }
        match self.kind {
            "faq" => self.faq_line(b),
            "errata" => self.errata_line(i),
            _ => self.label_or_text(i),
        }
        i + 1
    }

    /// A heading: sets the section kind; opens a record when text follows it.
    fn heading(&mut self, i: usize) -> usize {
        let blocks = &self.doc.blocks;
        let b = &blocks[i];
        let upper = b.text.to_uppercase();
        if let Some((_, kind)) = KINDS
            .iter()
            .find(|(words, _)| words.iter().any(|w| upper.contains(w)))
        {
            self.kind = kind;
        }
        if blocks
            .get(i + 1)
            .map_or(true, |n| n.kind == BlockKind::Heading)
        {
            self.close();
            self.out.account.chrome += 1;
            return i + 1;
        }
        if let Some(card) = blocks.get(i + 1).and_then(|n| stratagem_type(&n.text)) {
            self.resume = self.open.take();
            self.card = Some(Card {
                name: TitleStyle::DOCUMENT.apply(&b.text),
                line: b.line(),
                group: card.0,
                category: card.1,
                cp: None,
                flavor: None,
                fields: Default::default(),
            });
            self.out.account.in_records += 2;
            return i + 2;
        }
        let name = TitleStyle::DOCUMENT.apply(strip_step_number(&b.text));
        self.start(b.line(), self.kind, Some(name));
        self.out.account.in_records += 1;
        // a step number printed under the heading (`13`) belongs to it
        match blocks.get(i + 1) {
            Some(n) if is_number(&n.text) => {
                self.out.account.in_records += 1;
                i + 2
            }
            _ => i + 1,
        }
    }

    /// An upper-case label followed by text opens a record named by it; a label followed by
    /// another label or a heading is a caption (chrome); anything else is text.
    fn label_or_text(&mut self, i: usize) {
        let blocks = &self.doc.blocks;
        let b = &blocks[i];
        if is_label(b) {
            let next_is_text = blocks.get(i + 1).is_some_and(|n| {
                n.kind != BlockKind::Heading && !is_label(n) && !is_number(&n.text)
            });
            if next_is_text {
                self.start(
                    b.line(),
                    self.kind,
                    Some(TitleStyle::DOCUMENT.apply(&b.text)),
                );
                self.out.account.in_records += 1;
            } else {
                self.out.account.chrome += 1;
            }
            return;
        }
        self.text_block(b);
    }

    /// A block of running text, list item or table row, added to the open record.
    fn text_block(&mut self, b: &Block) {
        if self.open.is_none() {
            self.start(b.line(), self.kind, None);
        }
        let text = match b.kind {
            BlockKind::ListItem => format!("• {}", b.text),
            _ => b.text.clone(),
        };
        if let Some(example) = text.strip_prefix("Example:") {
            if let Some(open) = self.open.as_mut() {
                open.examples.push(example.trim().to_string());
            }
        } else {
            self.push(&text, b.blank_before);
        }
        self.out.account.in_records += 1;
    }

    /// `Q:` opens an FAQ entry named by its question; `A:`, further lines and `Example:` go
    /// with it.
    fn faq_line(&mut self, b: &Block) {
        if let Some(q) = b.text.strip_prefix("Q:") {
            self.start(b.line(), "faq", Some(q.trim().to_string()));
            self.push(&b.text, true);
            self.out.account.in_records += 1;
            return;
        }
        self.text_block(b);
    }

    /// Card amendments: a card type line (`SECONDARY MISSION - ATTACKER`), then the card's
    /// name, its flavor (the first sentence after the name) and its text.
    fn errata_line(&mut self, i: usize) {
        let b = &self.doc.blocks[i];
        if is_label(b) && b.text.contains(" MISSION") && b.text.contains(" - ") {
            self.close();
            self.card_type = Some(b.line());
            self.out.account.in_records += 1;
            return;
        }
        if let Some(line) = self.card_type.take() {
            if is_label(b) {
                self.start(line, "errata", Some(TitleStyle::DOCUMENT.apply(&b.text)));
                self.out.account.in_records += 1;
                return;
            }
        }
        let first = self
            .open
            .as_ref()
            .is_some_and(|o| o.kind == "errata" && o.flavor.is_none() && o.text.is_empty());
        if first && !is_label(b) && !b.text.contains(':') {
            if let Some(o) = self.open.as_mut() {
                o.flavor = Some(b.text.clone());
            }
            self.out.account.in_records += 1;
            return;
        }
        self.text_block(b);
    }

    /// A line of an open stratagem card; false when the card has ended (the block is not its).
    fn card_line(&mut self, b: &Block) -> bool {
        let Some(card) = self.card.as_mut() else {
            return false;
        };
        let text = b.text.trim();
        if let Some((part, rest)) = V.stratagem_part(text) {
            card.fields[part as usize] = Some(rest.to_string());
        } else if let Some(cp) = text
            .strip_prefix('(')
            .and_then(|t| t.strip_suffix("CP)"))
            .and_then(|n| n.trim().parse().ok())
        {
            card.cp = Some(cp);
        } else if card.flavor.is_none() && card.fields.iter().all(Option::is_none) {
            card.flavor = Some(text.to_string());
        } else {
            self.end_card();
            return false;
        }
        self.out.account.in_records += 1;
        true
    }

    fn end_card(&mut self) {
        let Some(c) = self.card.take() else { return };
        let group = c.group.clone().unwrap_or_default();
        let [when, target, effect, restrictions] = c.fields;
        self.out.stratagems.push(Stratagem {
            id: crate::ids::stratagem(self.edition, &group, &c.name),
            name: c.name,
            edition: self.edition,
            cp: c.cp,
            group: c.group,
            category: c.category,
            flavor: c.flavor,
            when,
            target,
            effect,
            restrictions,
            sources: vec![Provenance::at_line(
                &self.doc.file,
                c.line,
                &self.doc.sha256,
            )],
            translations: Default::default(),
        });
        self.open = self.resume.take();
    }

    /// Base-size tables from block `from` to the end: no record type reads them yet.
    fn base_sizes(&mut self, from: usize) {
        self.close();
        let n = self.doc.blocks.len() - from;
        self.out.account.unassigned += n;
        let line = self.doc.blocks[from].line();
        self.out.diagnostics.push(
            Diagnostic::new(
                Code::UnmatchedText,
                format!("{n} blocks of base-size tables not assigned: no record type reads base sizes yet"),
            )
            .at(&self.doc.file, line),
        );
    }

    fn start(&mut self, line: u32, kind: &'static str, name: Option<String>) {
        self.close();
        self.open = Some(Open {
            kind,
            name,
            line,
            flavor: None,
            text: String::new(),
            examples: Vec::new(),
        });
    }

    fn push(&mut self, text: &str, new_paragraph: bool) {
        if let Some(o) = self.open.as_mut() {
            if !o.text.is_empty() {
                o.text.push_str(if new_paragraph { "\n\n" } else { "\n" });
            }
            o.text.push_str(text.trim());
        }
    }

    /// Ends the open record (a record without text is dropped: its heading was counted).
    fn close(&mut self) {
        self.end_card();
        let Some(o) = self.open.take() else { return };
        if o.text.trim().is_empty() {
            return;
        }
        self.rules.push(Rule {
            tables: Vec::new(),
            id: String::new(),
            name: o.name,
            kind: o.kind.to_string(),
            edition: self.edition,
            faction: None,
            flavor: o.flavor,
            text: o.text,
            bullets: Vec::new(),
            examples: o.examples,
            occurrences: vec![Occurrence::at_line(&self.doc.file, o.line)],
            variants: Vec::new(),
            number: Default::default(),
            parent: Default::default(),
            children: Default::default(),
            translations: Default::default(),
        });
    }
}

/// Two records of one kind and name in one document (a section continued after a page break
/// under its heading again) are one: the later text is appended to the first.
fn join_repeated(rules: &mut Vec<Rule>) {
    let mut kept: Vec<Rule> = Vec::with_capacity(rules.len());
    for r in rules.drain(..) {
        let same = kept
            .iter_mut()
            .find(|k| r.name.is_some() && k.name == r.name && k.kind == r.kind);
        match same {
            Some(k) => {
                k.text.push_str("\n\n");
                k.text.push_str(&r.text);
                k.examples.extend(r.examples);
            }
            None => kept.push(r),
        }
    }
    *rules = kept;
}

/// The converter's level-1 title (`# Game Rules`) right before its `Extracted from:` line.
fn is_banner_title(doc: &Document, i: usize) -> bool {
    doc.blocks[i].kind == BlockKind::Heading
        && doc
            .blocks
            .get(i + 1)
            .is_some_and(|n| n.text.starts_with(BANNER[0]))
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.len() <= 3 && text.bytes().all(|c| c.is_ascii_digit())
}

/// An upper-case label: letters, no lower case, short, not a flattened table row (no runs of
/// spaces), not a sentence, not a bullet.
fn is_label(b: &Block) -> bool {
    let t = b.text.as_str();
    b.kind == BlockKind::Paragraph
        && t.len() <= 60
        && t.chars().any(|c| c.is_alphabetic())
        && !t.chars().any(|c| c.is_lowercase())
        && !t.contains("  ")
        && !t.contains('\t')
        && !t.ends_with('.')
        && !t.starts_with('■')
}

/// The text of a `Designer's Note:` paragraph.
fn designers_note(text: &str) -> Option<&str> {
    ["Designer’s Note:", "Designer's Note:"]
        .iter()
        .find_map(|p| text.strip_prefix(p))
        .map(str::trim)
}

/// `CORE - STRATEGIC PLOY STRATAGEM` → (group `Core`, category `Strategic Ploy`).
fn stratagem_type(text: &str) -> Option<(Option<String>, Option<String>)> {
    let body = text
        .trim()
        .strip_suffix(V.heading(H::StratagemType))?
        .trim_end();
    let (group, category) = match body.split_once(" - ") {
        Some((g, c)) => (
            Some(TitleStyle::DOCUMENT.apply(g.trim())),
            Some(TitleStyle::DOCUMENT.apply(c.trim())),
        ),
        None => (None, Some(TitleStyle::DOCUMENT.apply(body))),
    };
    Some((group, category.filter(|c| !c.is_empty())))
}

/// `12 RESOLVE PRE-BATTLE RULES` → `RESOLVE PRE-BATTLE RULES`.
fn strip_step_number(text: &str) -> &str {
    let rest = text.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() < text.len() && rest.starts_with([' ', '.']) {
        rest.trim_start_matches(['.', ' '])
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_labels() {
        assert_eq!(
            TitleStyle::DOCUMENT.apply("RESOLVE PRE-BATTLE RULES"),
            "Resolve Pre-Battle Rules"
        );
        assert_eq!(
            strip_step_number("12 RESOLVE PRE-BATTLE RULES"),
            "RESOLVE PRE-BATTLE RULES"
        );
        assert_eq!(strip_step_number("40K RULES"), "40K RULES");
        assert_eq!(
            stratagem_type("CORE - STRATEGIC PLOY STRATAGEM"),
            Some((Some("Core".into()), Some("Strategic Ploy".into())))
        );
        assert!(is_number("13") && !is_number("1CP"));
    }
}
