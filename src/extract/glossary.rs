//! Rule paragraphs, stratagem texts, detachments, Orders and enhancements: the part of a
//! source after (or without) its datasheet.
//!
//! Two source shapes are read. *Named* glossaries (a heading line, then flavor, rules text,
//! bullets, examples, separated by empty lines) and *glued* dumps, where each rule is a flavor
//! paragraph and a rules paragraph and the dump glued one rule's text to the next rule's flavor
//! (`…ability.Mighty heroes…`). In glued dumps the rules text always starts a source line and a
//! flavor is either a whole line or the tail after a seam; that structure, not the wording,
//! tells them apart. A name is taken only from evidence: a heading, the rule's own text
//! (`Weapons with [HAZARDOUS] in their profile`, `have ‘Leader’ listed`), or — later, in
//! `dedup` — an identical paragraph named in another source.

use super::heresy;
use super::text::{self, Piece};
use super::Extracted;
use crate::diag::{Code, Diagnostic};
use crate::ids::slug;
use crate::ir::{Block, BlockKind, Document};
use crate::model::{Detachment, Edition, Enhancement, Rule, Stratagem};
use crate::source::{Occurrence, Provenance};
use crate::text::words::TitleStyle;
use crate::vocab::StratagemPart;
use regex::Regex;
use std::sync::LazyLock;

/// What the datasheet part of the document tells the glossary reader.
#[derive(Debug, Clone, Default)]
pub struct Context {
    pub edition: Option<Edition>,
    pub faction: Option<String>,
    /// Names listed after `CORE:` on the datasheet.
    pub core_abilities: Vec<String>,
    /// Names listed after `FACTION:` on the datasheet.
    pub faction_abilities: Vec<String>,
}

/// Reads every block as glossary content (sources with no datasheet).
pub fn extract_rules_only(doc: &Document, out: &mut Extracted) {
    let ctx = Context {
        edition: out.edition,
        faction: out.faction.clone(),
        ..Context::default()
    };
    read(doc, &doc.blocks, &ctx, out);
}

/// Reads `blocks` (a slice of `doc.blocks`) as glossary content into `out`.
pub fn read(doc: &Document, blocks: &[Block], ctx: &Context, out: &mut Extracted) {
    let mut r = Reader {
        doc,
        ctx,
        out,
        glued: GluedState::default(),
        last_named_kind: None,
    };
    let mut i = 0;
    if ctx.edition == Some(Edition::HorusHeresy2) {
        i = r.front_matter(blocks);
    }
    while i < blocks.len() {
        i = r.step(blocks, i);
    }
    r.flush_glued();
}

#[derive(Debug, Default)]
struct GluedRule {
    flavor: Option<(String, u32)>,
    /// The flavor was a whole block (not a piece of a glued line).
    flavor_whole: bool,
    texts: Vec<(String, u32)>,
}

#[derive(Debug, Default)]
struct GluedState {
    current: Option<GluedRule>,
    expect_text: bool,
}

struct Reader<'a> {
    doc: &'a Document,
    ctx: &'a Context,
    out: &'a mut Extracted,
    glued: GluedState,
    last_named_kind: Option<String>,
}

static ORDER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^((?:[A-Z][^!.]*!\s*)+)\s*(\S.*)$").expect("static regex"));
/// A stratagem card's type line, `Group – Category[ Stratagem]`: (group, category), split at
/// the first ` – ` or ` - ` with text on both sides, the category without a trailing
/// ` Stratagem` (kept when it is the whole category); `None` for a line break or no such
/// separator. What the regex `^(.+?) [–-] (.+?)(?: Stratagem)?$` matches (the test holds it
/// to that), without running one on every card.
pub(crate) fn group_line(t: &str) -> Option<(&str, &str)> {
    if t.contains('\n') {
        return None;
    }
    t.match_indices(' ').find_map(|(i, _)| {
        let after = t[i + 1..].strip_prefix(['–', '-'])?.strip_prefix(' ')?;
        if i == 0 || after.is_empty() {
            return None;
        }
        let category = after
            .strip_suffix(" Stratagem")
            .filter(|c| !c.is_empty())
            .unwrap_or(after);
        Some((&t[..i], category))
    })
}
pub(super) static WEAPON_RULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"Weapons with \[([^\]]+)\] in their profile").expect("static regex")
});
static LISTED_RULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^Some (?:models|units|CHARACTER units|CHARACTER models) have [‘'“]([^’'”]+)[’'”] listed",
    )
    .expect("static regex")
});
pub(super) static ARMY_FACTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^If your A\w+ Faction is ([A-Z][A-Z’' -]+[A-Z])?").expect("static regex")
});

impl Reader<'_> {
    fn file(&self) -> &str {
        &self.doc.file
    }

    fn edition(&self) -> Edition {
        self.ctx.edition.unwrap_or(Edition::Tenth)
    }

    fn warn(&mut self, code: Code, msg: String, line: u32) {
        let d = Diagnostic::new(code, msg).at(&self.doc.file, line);
        self.out.diagnostics.push(d);
    }

    /// Handles the block at `i`; returns the index of the next unread block.
    fn step(&mut self, blocks: &[Block], i: usize) -> usize {
        let b = &blocks[i];
        if text::is_chrome(&b.text) {
            self.out.account.chrome += 1;
            return i + 1;
        }
        if let Some((_, faction)) = text::keyword_index_sentence(&b.text) {
            self.flush_glued();
            self.note_faction(&faction);
            self.out.account.in_records += 1;
            return i + 1;
        }
        if let Some(next) = self.stratagem(blocks, i) {
            self.flush_glued();
            return next;
        }
        if b.kind == BlockKind::Heading || self.starts_named_entry(blocks, i) {
            self.flush_glued();
            return self.named_entry(blocks, i);
        }
        self.glued_block(b);
        i + 1
    }

    fn note_faction(&mut self, faction: &str) {
        if self.out.faction.is_none() {
            self.out.faction = Some(faction.to_string());
        }
    }

    /// A heading-like line followed by text (not by another heading, unless that is an
    /// `X Detachment` line).
    fn starts_named_entry(&self, blocks: &[Block], i: usize) -> bool {
        let b = &blocks[i];
        if b.kind != BlockKind::Paragraph || !text::looks_like_heading(&b.text) {
            return false;
        }
        let Some(next) = blocks.get(i + 1) else {
            return false;
        };
        if next.text.ends_with(" Detachment") {
            return true;
        }
        !text::looks_like_heading(&next.text) && !text::is_chrome(&next.text)
    }

    /// Reads a stratagem header at `i` (NAME / `1CP` / `Group – Category[ Stratagem]`), with
    /// its full text when it follows. Returns the next index, or `None` if `i` is not one.
    fn stratagem(&mut self, blocks: &[Block], i: usize) -> Option<usize> {
        let (_, cp, grp, category) = stratagem_header(blocks, i)?;
        let name = &blocks[i];
        let mut s = Stratagem {
            id: crate::ids::stratagem(self.edition(), &grp, &name.text),
            name: name.text.trim().to_string(),
            edition: self.edition(),
            cp: Some(cp),
            group: Some(grp),
            category: Some(category),
            flavor: None,
            when: None,
            target: None,
            effect: None,
            restrictions: None,
            sources: vec![self.provenance(name.line())],
            translations: Default::default(),
        };
        let mut j = i + 3;
        self.out.account.in_records += 3;
        // A list entry: an abbreviation (`BA`, `C`) or straight into the next entry.
        if let Some(abbr) = blocks.get(j) {
            if abbr.text.len() <= 3
                && text::is_upper(&abbr.text)
                && text::cp_value(&abbr.text).is_none()
            {
                j += 1;
                self.out.account.in_records += 1;
            }
        }
        let mut field: Option<usize> = None;
        while let Some(b) = blocks.get(j) {
            let t = b.text.trim();
            let labelled = stratagem_label(t).map(|(k, rest)| (k, rest.to_string()));
            if let Some((k, rest)) = labelled {
                let slot = match k {
                    0 => &mut s.when,
                    1 => &mut s.target,
                    2 => &mut s.effect,
                    _ => &mut s.restrictions,
                };
                *slot = Some(rest);
                field = Some(k);
            } else if field.is_none() && s.flavor.is_none() && j == i + 3 && !text::is_upper(t) {
                // flavor comes right after the header, before WHEN:
                let is_text = blocks.get(j + 1).is_some_and(|n| {
                    crate::vocab::TENTH
                        .stratagem_part(n.text.trim_start())
                        .is_some_and(|(p, _)| p == StratagemPart::When)
                });
                if !is_text {
                    break;
                }
                s.flavor = Some(t.to_string());
            } else {
                break;
            }
            self.out.account.in_records += 1;
            j += 1;
        }
        self.out.stratagems.push(s);
        Some(j)
    }

    fn provenance(&self, line: u32) -> Provenance {
        Provenance::at_line(self.doc.file.clone(), line, self.doc.sha256.clone())
    }

    /// A named entry: heading, optional `X Detachment` line, flavor, text, bullets, examples.
    fn named_entry(&mut self, blocks: &[Block], i: usize) -> usize {
        let head = &blocks[i];
        let name = head.text.trim().to_string();
        let mut j = i + 1;
        self.out.account.in_records += 1;
        let mut detachment: Option<String> = None;
        if let Some(b) = blocks.get(j) {
            if let Some(d) = b.text.trim().strip_suffix(" Detachment") {
                detachment = Some(d.to_string());
                j += 1;
                self.out.account.in_records += 1;
            }
        }
        let first_blank = blocks.get(j).is_some_and(|b| b.blank_before);
        let (parts, next) = self.entry_parts(blocks, j);
        let Some((flavor, body, bullets)) = arrange(&parts, first_blank) else {
            // A heading with nothing under it (a table title): not a rule.
            self.out.account.in_records -= 1;
            self.out.account.unassigned += 1;
            return next;
        };
        let text_joined = body.join("\n\n");
        let kind = self.kind_of(&name, &text_joined, detachment.is_some());
        let faction = match kind.as_str() {
            "army" | "detachment" | "order" => self
                .ctx
                .faction
                .clone()
                .or_else(|| self.out.faction.clone()),
            _ => None,
        };
        let rule = Rule {
            variants: Vec::new(),
            id: String::new(),
            name: Some(name),
            kind: kind.clone(),
            edition: self.edition(),
            faction: faction.clone(),
            flavor,
            text: text_joined,
            bullets,
            examples: parts.examples,
            occurrences: vec![Occurrence::at_line(self.file(), head.line())],
            tables: Vec::new(),
            number: Default::default(),
            parent: Default::default(),
            children: Default::default(),
            translations: Default::default(),
        };
        if let Some(d) = detachment {
            self.out.detachments.push(Detachment {
                id: crate::ids::detachment(self.edition(), faction.as_deref(), &d),
                name: d,
                edition: self.edition(),
                faction,
                rules: vec![crate::ids::rule_id(&rule)],
                enhancements: Vec::new(),
                stratagems: Vec::new(),
                sources: vec![self.provenance(head.line())],
                points: Default::default(),
                force_disposition: Default::default(),
                unique_tag: Default::default(),
                translations: Default::default(),
            });
        }
        self.last_named_kind = Some(kind);
        self.out.rules.push(rule);
        next
    }

    /// The blocks of a named entry from `j` up to the next heading, stratagem or chrome:
    /// paragraphs, list items (with the paragraph count before them) and examples.
    fn entry_parts(&mut self, blocks: &[Block], mut j: usize) -> (EntryParts, usize) {
        let mut parts = EntryParts::default();
        while let Some(b) = blocks.get(j) {
            let t = b.text.trim();
            if text::is_chrome(t)
                || text::keyword_index_sentence(t).is_some()
                || self.is_stratagem_at(blocks, j)
                || b.kind == BlockKind::Heading
                || self.starts_named_entry(blocks, j)
            {
                break;
            }
            if t.chars().all(|c| c == '+' || c.is_whitespace()) {
                self.warn(
                    Code::DamagedText,
                    "table cell lost its value (only '+' remains)".to_string(),
                    b.line(),
                );
            } else if b.kind == BlockKind::ListItem {
                parts.items.push((t.to_string(), parts.paras.len()));
            } else if let Some(ex) = t.strip_prefix("Example:") {
                parts.examples.push(format!("Example: {}", ex.trim()));
            } else {
                if let Some(msg) = text::damage(t) {
                    self.warn(Code::DamagedText, msg, b.line());
                }
                parts.paras.push(t.to_string());
            }
            self.out.account.in_records += 1;
            j += 1;
        }
        (parts, j)
    }

    fn is_stratagem_at(&self, blocks: &[Block], i: usize) -> bool {
        stratagem_header(blocks, i).is_some()
    }

    fn kind_of(&self, name: &str, body: &str, detachment: bool) -> String {
        let same = |list: &[String]| list.iter().any(|n| slug(n) == slug(name));
        if detachment {
            "detachment".into()
        } else if WEAPON_RULE.is_match(body) {
            "weapon_ability".into()
        } else if same(&self.ctx.faction_abilities) || ARMY_FACTION.is_match(body) {
            "army".into()
        } else if same(&self.ctx.core_abilities) {
            "core".into()
        } else if self.last_named_kind.as_deref() == Some("army") && text::is_upper(name) {
            // an upper-case sub-rule right after an army rule belongs to it
            "army".into()
        } else {
            "core".into()
        }
    }

    // --- glued dumps ----------------------------------------------------------------------

    fn glued_block(&mut self, b: &Block) {
        if b.kind == BlockKind::TableRow && b.filled_cells().next().is_none() {
            // a lost table (`|`): the rule before it ends; its content is gone
            self.flush_glued();
            self.warn(
                Code::DamagedText,
                "a table was lost here (only its '|' separator remains)".to_string(),
                b.line(),
            );
            self.glued.expect_text = false;
            self.out.account.in_records += 1;
            return;
        }
        let mut text_of = if b.kind == BlockKind::TableRow {
            b.filled_cells().collect::<Vec<_>>().join(" ")
        } else {
            b.text.clone()
        };
        // Horus Heresy: an entry that kept its heading (`…Check.BlastBlast weapons…`) ends
        // the line; what comes before it is read as usual.
        let mut headed = Vec::new();
        if self.edition() == Edition::HorusHeresy2 {
            if let Some((at, entries)) = heresy::headed(&text_of) {
                text_of.truncate(at);
                headed = entries;
            }
        }
        // The block is counted before its pieces are read: a lone flavor un-counts the block it
        // came from, which must have been counted first (a Horus Heresy headed entry flushes
        // this block's own flavor before the block ends; un-counting it then underflowed).
        self.out.account.in_records += 1;
        let pieces = text::split_glued(&text_of);
        for p in pieces {
            self.glued_piece(p, b);
        }
        if !headed.is_empty() {
            // What came before the headed entry is a piece of this block, not the whole of it:
            // the block is in a record (the headed rule), whatever the flavor before it gives.
            if let Some(cur) = self.glued.current.as_mut() {
                if cur.flavor.as_ref().is_some_and(|(_, l)| *l == b.line()) {
                    cur.flavor_whole = false;
                }
            }
            self.flush_glued();
            self.glued.expect_text = false;
            for e in headed {
                self.headed_rule(e, b.line());
            }
        }
    }

    /// A Horus Heresy entry that kept its heading: a named special rule.
    fn headed_rule(&mut self, e: heresy::Headed, line: u32) {
        let text = e.paras.join("\n\n");
        self.check_truncated(e.name.as_str(), &text, line);
        self.out.rules.push(Rule {
            variants: Vec::new(),
            id: String::new(),
            name: Some(e.name),
            kind: "special_rule".into(),
            edition: self.edition(),
            faction: None,
            flavor: e.flavor,
            text,
            bullets: Vec::new(),
            examples: Vec::new(),
            occurrences: vec![Occurrence::at_line(self.file(), line)],
            tables: Vec::new(),
            number: Default::default(),
            parent: Default::default(),
            children: Default::default(),
            translations: Default::default(),
        });
    }

    /// Horus Heresy: a text the dump cut off (it ends on `:` where a table or list was) is
    /// kept as printed and reported (`X111`).
    fn check_truncated(&mut self, name: &str, body: &str, line: u32) {
        if self.edition() != Edition::HorusHeresy2 || !body.trim_end().ends_with(':') {
            return;
        }
        self.warn(
            Code::RequiredTextMissing,
            format!(
                "special rule '{name}': text cut off after '{}' (the table or list that followed was lost); kept as printed",
                tail(body)
            ),
            line,
        );
    }

    /// Horus Heresy: the preamble and the book-details table before the first rule are
    /// front matter, counted as chrome (`S009`). Returns the first block after them.
    fn front_matter(&mut self, blocks: &[Block]) -> usize {
        let n = heresy::front_matter(blocks);
        if n > 0 {
            self.out.account.chrome += n;
            self.warn(
                Code::ChromeDropped,
                format!("dropped {n} lines of front matter (preamble, book-details table)"),
                blocks[0].line(),
            );
        }
        n
    }

    fn glued_piece(&mut self, p: Piece, b: &Block) {
        let line = b.line();
        if let Some((_, faction)) = text::keyword_index_sentence(&p.text) {
            self.flush_glued();
            self.note_faction(&faction);
            return;
        }
        if b.kind == BlockKind::TableRow && (!p.head || !p.glued) {
            if let Some(c) = ORDER.captures(&p.text) {
                self.flush_glued();
                self.order(c[1].trim(), c[2].trim(), line);
                return;
            }
        }
        if let Some(msg) = text::damage(&p.text) {
            self.warn(Code::DamagedText, msg, line);
        }
        let is_text = (p.glued && p.head) || (!p.glued && self.glued.expect_text);
        if is_text {
            let cur = self.glued.current.get_or_insert_with(GluedRule::default);
            cur.texts.push((p.text, line));
            self.glued.expect_text = false;
        } else {
            self.flush_glued();
            self.glued.current = Some(GluedRule {
                flavor_whole: !p.glued,
                flavor: Some((p.text, line)),
                texts: Vec::new(),
            });
            self.glued.expect_text = true;
        }
    }

    fn order(&mut self, name: &str, text: &str, line: u32) {
        // Orders belong to the army rule they follow (`If your Army Faction is ASTRA MILITARUM`).
        let army = self
            .out
            .rules
            .iter()
            .rev()
            .find(|r| r.kind == "army" || r.kind == "order")
            .and_then(|r| r.faction.clone());
        let faction = army
            .or_else(|| self.ctx.faction.clone())
            .or_else(|| self.out.faction.clone());
        self.out.rules.push(Rule {
            id: String::new(),
            name: Some(name.to_string()),
            kind: "order".into(),
            edition: self.edition(),
            faction,
            flavor: None,
            text: text.to_string(),
            bullets: Vec::new(),
            examples: Vec::new(),
            occurrences: vec![Occurrence::at_line(self.file(), line)],
            tables: Vec::new(),
            variants: Vec::new(),
            number: Default::default(),
            parent: Default::default(),
            children: Default::default(),
            translations: Default::default(),
        });
    }

    /// Ends the glued rule being read: a rule (or an enhancement, when its text speaks of a
    /// bearer), or a lone flavor whose text was lost (`X108`).
    fn flush_glued(&mut self) {
        let Some(rule) = self.glued.current.take() else {
            return;
        };
        self.glued.expect_text = false;
        let GluedRule {
            flavor,
            mut texts,
            flavor_whole,
        } = rule;
        let Some(first_line) = flavor
            .as_ref()
            .map(|(_, l)| *l)
            .or(texts.first().map(|(_, l)| *l))
        else {
            return;
        };
        if texts.is_empty() {
            self.lone_flavor(flavor.unwrap_or_default(), flavor_whole);
            return;
        }
        self.unscramble(&mut texts);
        let body = texts
            .iter()
            .map(|(t, _)| t.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if body.starts_with("model only.") {
            self.warn(
                Code::DamagedText,
                "the keyword before 'model only.' is missing".to_string(),
                texts[0].1,
            );
        }
        let flavor_text = flavor.map(|(t, _)| t);
        if body.contains("bearer") && (body.contains("model only") || body.contains("Enhancement"))
        {
            self.glued_enhancement(flavor_text, body, first_line);
        } else {
            self.glued_rule(flavor_text, body, first_line);
        }
    }

    /// A flavor with no rules text: the text was lost (or it is a lone sentence).
    fn lone_flavor(&mut self, (t, l): (String, u32), whole: bool) {
        self.warn(
            Code::UnmatchedText,
            format!("paragraph not assigned: '{}'", short(&t)),
            l,
        );
        if whole {
            // the block was counted as used when read; it is not
            self.out.account.in_records -= 1;
            self.out.account.unassigned += 1;
        }
    }

    /// Scrambled order: the sentence start was printed on a later line (it ends mid-sentence,
    /// the earlier piece does not). Rejoins start + rest, and says so (`X107`).
    fn unscramble(&mut self, texts: &mut Vec<(String, u32)>) {
        if texts.len() < 2 {
            return;
        }
        let ends_open = |s: &str| {
            !s.trim_end()
                .ends_with(['.', '!', '?', ':', ')', '"', '”', '’'])
        };
        let last = texts.len() - 1;
        if ends_open(&texts[last].0) && !ends_open(&texts[last - 1].0) {
            let start = texts.remove(last);
            self.warn(
                Code::ScrambledText,
                format!(
                    "text begins on a later line (\"{}\"); rejoined",
                    short(&start.0)
                ),
                start.1,
            );
            texts.insert(0, start);
        }
    }

    fn glued_enhancement(&mut self, flavor: Option<String>, body: String, line: u32) {
        let faction = self
            .ctx
            .faction
            .clone()
            .or_else(|| self.out.faction.clone());
        self.out.enhancements.push(Enhancement {
            id: crate::ids::unnamed_enhancement(
                self.edition(),
                faction.as_deref(),
                flavor.as_deref().unwrap_or(&body),
            ),
            name: None,
            edition: self.edition(),
            faction,
            detachment: None,
            points: None,
            flavor,
            text: body,
            sources: vec![self.provenance(line)],
            translations: Default::default(),
        });
    }

    /// A glued rule, named from its own words when they name it. A rule still unnamed after
    /// dedup (no twin named elsewhere) is reported there (`X103`).
    fn glued_rule(&mut self, flavor: Option<String>, body: String, line: u32) {
        let (name, kind) = self.name_from_text(&body);
        self.check_truncated(name.as_deref().unwrap_or("(unnamed)"), &body, line);
        let faction = if kind == "army" {
            ARMY_FACTION
                .captures(&body)
                .and_then(|c| c.get(1).map(|m| TitleStyle::EVERY_WORD.apply(m.as_str())))
                .or_else(|| self.ctx.faction.clone())
                .or_else(|| self.out.faction.clone())
        } else {
            None
        };
        self.out.rules.push(Rule {
            id: String::new(),
            name,
            kind,
            edition: self.edition(),
            faction,
            flavor,
            text: body,
            bullets: Vec::new(),
            examples: Vec::new(),
            occurrences: vec![Occurrence::at_line(self.file(), line)],
            tables: Vec::new(),
            variants: Vec::new(),
            number: Default::default(),
            parent: Default::default(),
            children: Default::default(),
            translations: Default::default(),
        });
    }

    /// A name and kind read from the rule's own words, or `(None, "unclassified")`.
    fn name_from_text(&self, body: &str) -> (Option<String>, String) {
        if let Some(c) = WEAPON_RULE.captures(body) {
            return (
                Some(TitleStyle::WEAPON_ABILITY.apply(&c[1])),
                "weapon_ability".into(),
            );
        }
        if let Some(c) = LISTED_RULE.captures(body) {
            let name = c[1]
                .split_whitespace()
                .filter(|w| !matches!(*w, "x" | "x+" | "X" | "X+"))
                .collect::<Vec<_>>()
                .join(" ");
            return (Some(name), "core".into());
        }
        if ARMY_FACTION.is_match(body) {
            return (None, "army".into());
        }
        if self.edition() == Edition::HorusHeresy2 {
            // `Models with the Adamantium Will special rule…`, `…the Fleet (2) special rule…`
            return (heresy::name(body), "special_rule".into());
        }
        (None, "unclassified".into())
    }
}

/// What a named entry holds under its heading.
#[derive(Debug, Default)]
struct EntryParts {
    paras: Vec<String>,
    /// List items, each with the number of paragraphs before it.
    items: Vec<(String, usize)>,
    examples: Vec<String>,
}

/// Flavor, rules-text paragraphs and summary bullets of a named entry; `None` when it has
/// nothing under its heading. The first paragraph is flavor when a blank line separates it
/// from the heading, more follow and it does not read as rules. Bullets after the last
/// paragraph are the summary; bullets between paragraphs are part of the rules text.
fn arrange(
    parts: &EntryParts,
    first_blank: bool,
) -> Option<(Option<String>, Vec<String>, Vec<String>)> {
    let paras = &parts.paras;
    let mut body: Vec<String> = Vec::new();
    let mut bullets: Vec<String> = Vec::new();
    let mut flavor: Option<String> = None;
    let mut start = 0;
    if first_blank && paras.len() >= 2 && !reads_as_rules(&paras[0]) {
        flavor = Some(paras[0].clone());
        start = 1;
    }
    for (k, p) in paras.iter().enumerate().skip(start) {
        for (item, before) in &parts.items {
            if *before == k && k > start {
                body.push(format!("• {item}"));
            }
        }
        body.push(p.clone());
    }
    for (item, before) in &parts.items {
        if *before >= paras.len() || (*before <= start && paras.len() <= start) {
            bullets.push(item.clone());
        } else if *before == start && start < paras.len() && *before != 0 {
            body.insert(0, format!("• {item}"));
        }
    }
    if body.is_empty() {
        if bullets.is_empty() && flavor.is_none() {
            return None;
        }
        body = std::mem::take(&mut bullets);
    }
    Some((flavor, body, bullets))
}

/// Words that mark rules text rather than a flavor sentence.
fn reads_as_rules(p: &str) -> bool {
    const MARKERS: &[&str] = &[
        "your army",
        "each time",
        "Each time",
        " roll",
        " test",
        "D3",
        "D6",
        "mortal wound",
        "characteristic",
        "Stratagem",
        " phase",
        "you can",
        "select",
    ];
    MARKERS.iter().any(|m| p.contains(m))
}

/// Reads one stratagem (list entry or full text) at `i` into `out`; returns its id and the
/// next index.
pub fn stratagem_at(
    doc: &Document,
    blocks: &[Block],
    i: usize,
    edition: Edition,
    out: &mut Extracted,
) -> Option<(String, usize)> {
    let ctx = Context {
        edition: Some(edition),
        ..Context::default()
    };
    let mut r = Reader {
        doc,
        ctx: &ctx,
        out,
        glued: GluedState::default(),
        last_named_kind: None,
    };
    let next = r.stratagem(blocks, i)?;
    let id = r.out.stratagems.last().map(|s| s.id.clone())?;
    Some((id, next))
}

/// A stratagem header at `i`: NAME / `1CP` / `Group – Category[ Stratagem]` →
/// (name, cp, group, category).
pub fn stratagem_header(blocks: &[Block], i: usize) -> Option<(String, u32, String, String)> {
    let name = blocks.get(i)?;
    let cp = text::cp_value(&blocks.get(i + 1)?.text)?;
    let group = blocks.get(i + 2)?;
    if !text::is_upper(&name.text) || text::cp_value(&name.text).is_some() {
        return None;
    }
    let (group, category) = group_line(group.text.trim())?;
    Some((
        name.text.trim().to_string(),
        cp,
        group.trim().to_string(),
        category.trim().to_string(),
    ))
}

/// A stratagem's text lines (`WHEN: …`, `TARGET: …`, `EFFECT: …`, `RESTRICTIONS: …`, and
/// unlabelled lines continuing the field above, joined as paragraphs) into `s`, as a Wahapedia
/// stratagem card prints them. Text before any label is the effect of an older, unlabelled
/// card. Returns whether any label was found.
pub(crate) fn stratagem_text<'t>(
    s: &mut Stratagem,
    lines: impl IntoIterator<Item = &'t str>,
) -> bool {
    let mut last: Option<usize> = None;
    for line in lines {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let labelled = stratagem_label(t);
        let (k, text) = match labelled {
            Some((k, rest)) => {
                last = Some(k);
                (k, rest)
            }
            None => (last.unwrap_or(2), t),
        };
        let slot = match k {
            0 => &mut s.when,
            1 => &mut s.target,
            2 => &mut s.effect,
            _ => &mut s.restrictions,
        };
        match slot {
            Some(v) if labelled.is_none() => {
                v.push_str("\n\n");
                v.push_str(text);
            }
            _ => *slot = Some(text.to_string()),
        }
    }
    last.is_some()
}

/// The last 40 characters of `s`, `…` before when cut (for diagnostics).
fn tail(s: &str) -> String {
    let n = s.chars().count();
    let t: String = s.chars().skip(n.saturating_sub(40)).collect();
    if n > 40 {
        format!("…{t}")
    } else {
        t
    }
}

/// The first 60 characters of `s`, `…` when cut (for diagnostics).
pub(super) fn short(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if s.chars().count() > 60 {
        out.push('…');
    }
    out
}

/// A stratagem text line that starts with its label: the part (0 WHEN, 1 TARGET, 2 EFFECT,
/// 3 RESTRICTIONS) and the text after the label.
fn stratagem_label(line: &str) -> Option<(usize, &str)> {
    crate::vocab::TENTH
        .stratagem_part(line)
        .map(|(part, rest)| (part as usize, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `group_line` against the regex it replaced, on every string of up to five pieces
    /// around the separators, the suffix and a line break (37,449 strings).
    #[test]
    fn group_line_splits_as_the_regex_did() {
        let regex = Regex::new(r"^(.+?) [–-] (.+?)(?: Stratagem)?$").expect("static regex");
        let pieces = ["a", " ", "–", "-", " Stratagem", "Stratagem", "\n", "é"];
        let mut strings = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..5 {
            last = last
                .iter()
                .flat_map(|s| pieces.iter().map(move |p| format!("{s}{p}")))
                .collect();
            strings.extend(last.iter().cloned());
        }
        assert_eq!(strings.len(), 37_449);
        let mut matched = 0;
        for t in &strings {
            let expected = regex.captures(t).map(|c| {
                let (g, c) = (c.get(1).map_or("", |m| m.as_str()), &c[2]);
                (g.to_string(), c.to_string())
            });
            let got = group_line(t).map(|(g, c)| (g.to_string(), c.to_string()));
            assert_eq!(got, expected, "{t:?}");
            matched += usize::from(expected.is_some());
        }
        // Both kinds of line are among them.
        assert!(matched > 100 && matched < strings.len(), "{matched}");
        assert_eq!(
            group_line("Core – Battle Tactic Stratagem"),
            Some(("Core", "Battle Tactic"))
        );
        assert_eq!(
            group_line("Boarding Actions - Epic Deed"),
            Some(("Boarding Actions", "Epic Deed"))
        );
        assert_eq!(
            group_line("Grizzled Company – Stratagem"),
            Some(("Grizzled Company", "Stratagem"))
        );
        assert_eq!(group_line("Strategic Ploy"), None);
    }
}
