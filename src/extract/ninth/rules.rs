//! The rules part of a 9th-edition summary: one rule per section heading (`COMMAND PHASE`),
//! numbered sequence step (`1. MOVE UNITS` → `Move Units`) and upper-case `LABEL:` paragraph
//! (`NORMAL MOVE:`, `LOOK OUT, SIR:`), each with its own text; a short sentence-case label
//! (`Unit coherency:`) is a rule of its one paragraph. Paragraphs after an upper-case label
//! belong to it until the next heading, step or label; other paragraphs to the enclosing
//! step or section. Tab-separated lines are tables of the rule they sit in. 9th-edition rules
//! have no flavor sentence. A step printed again under the same section with a misspelt name
//! (`5. INFLECT DAMAGE` for `5. INFLICT DAMAGE`) is the same rule: read under the first name,
//! with `X102` keeping the printed spelling.

use super::{cells, is_title, plain, push_para};
use crate::diag::{Code, Diagnostic};
use crate::extract::Extracted;
use crate::ir::{Block, Document};
use crate::model::{Edition, Rule, RuleTable};
use crate::source::Occurrence;
use crate::text::words::TitleStyle;
use regex::Regex;
use std::collections::BTreeMap;
use std::sync::LazyLock;

static STEP: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(\d+)\.\s+([A-Z][A-Z ,'’-]+)$").expect("static regex"));
static LABEL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^([A-Z][A-Z ,'’-]*[A-Z]):\s*(.*)$").expect("static regex"));
static SENTENCE_LABEL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^([A-Z][a-z]+(?: [a-z]+){0,2}):\s+(\S.*)$").expect("static regex")
});

/// A rule being read: name, line, paragraphs, tables.
#[derive(Debug, Default)]
struct Open {
    name: String,
    line: u32,
    paras: Vec<String>,
    tables: Vec<RuleTable>,
}

struct Reader<'a> {
    doc: &'a Document,
    out: &'a mut Extracted,
    /// The section heading or sequence step paragraphs belong to by default.
    container: Option<Open>,
    /// The upper-case label rule open inside the container.
    label: Option<Open>,
    section: String,
    /// (section, step number) → the name the step was first printed with.
    steps: BTreeMap<(String, String), String>,
}

/// Reads the rules part (the blocks between the cover and the first unit card).
pub(super) fn read(doc: &Document, blocks: &[Block], out: &mut Extracted) {
    let mut r = Reader {
        doc,
        out,
        container: None,
        label: None,
        section: String::new(),
        steps: BTreeMap::new(),
    };
    let mut i = 0;
    while i < blocks.len() {
        i = r.block(blocks, i);
    }
    r.close_label();
    r.close_container();
}

impl Reader<'_> {
    /// Reads the block at `i`; returns the next unread index.
    fn block(&mut self, blocks: &[Block], i: usize) -> usize {
        let b = &blocks[i];
        if b.text.contains('\t') {
            return self.table(blocks, i);
        }
        self.out.account.in_records += 1;
        let t = plain(&b.text);
        if let Some(c) = STEP.captures(&t) {
            let name = self.step_name(&c[1], &c[2], b.line());
            self.open_container(name, b.line());
        } else if let Some(c) = LABEL.captures(&t) {
            self.close_label();
            let mut open = Open {
                name: TitleStyle::NINTH.apply(&c[1]),
                line: b.line(),
                ..Open::default()
            };
            if !c[2].trim().is_empty() {
                open.paras.push(c[2].trim().to_string());
            }
            self.label = Some(open);
        } else if is_title(&t) && self.label.is_some() && next_is_label(blocks, i) {
            // `REMAIN STATIONARY` between two labels: a label printed without its text
            self.close_label();
        } else if is_title(&t) {
            self.section = TitleStyle::NINTH.apply(&t);
            self.open_container(TitleStyle::NINTH.apply(&t), b.line());
        } else if let Some(c) = SENTENCE_LABEL.captures(&t) {
            self.close_label();
            let open = Open {
                name: c[1].to_string(),
                line: b.line(),
                paras: vec![c[2].to_string()],
                tables: Vec::new(),
            };
            self.emit(open);
        } else {
            self.paragraph(t, b.line());
        }
        i + 1
    }

    fn paragraph(&mut self, t: String, line: u32) {
        match self.label.as_mut().or(self.container.as_mut()) {
            Some(open) => push_para(&mut open.paras, t),
            None => {
                self.out.account.in_records -= 1;
                self.out.account.unassigned += 1;
                let d = Diagnostic::new(
                    Code::UnmatchedText,
                    format!("paragraph before any heading: '{}'", short(&t)),
                )
                .at(&self.doc.file, line);
                self.out.diagnostics.push(d);
            }
        }
    }

    /// A run of tab-separated lines: one table of the open rule. A first row with no cell
    /// that is a number or a roll (`0`, `-1`, `2+`) is the column headings.
    fn table(&mut self, blocks: &[Block], i: usize) -> usize {
        let mut j = i;
        let mut rows: Vec<Vec<String>> = Vec::new();
        while let Some(b) = blocks.get(j).filter(|b| b.text.contains('\t')) {
            rows.push(cells(b));
            j += 1;
        }
        self.out.account.in_records += j - i;
        let heading = rows.first().is_some_and(|r| !r.iter().any(|c| is_value(c)));
        let columns = if heading { rows.remove(0) } else { Vec::new() };
        let table = RuleTable {
            columns,
            rows,
            line: blocks[i].line(),
        };
        match self.label.as_mut().or(self.container.as_mut()) {
            Some(open) => open.tables.push(table),
            None => {
                let d = Diagnostic::new(Code::UnmatchedText, "table before any heading")
                    .at(&self.doc.file, blocks[i].line());
                self.out.diagnostics.push(d);
            }
        }
        j
    }

    /// The name of step `number` printed as `printed`: the name the step had when first
    /// printed in this section, when `printed` is a misspelling of it (`X102`).
    fn step_name(&mut self, number: &str, printed: &str, line: u32) -> String {
        let name = TitleStyle::NINTH.apply(printed.trim());
        let key = (self.section.clone(), number.to_string());
        match self.steps.get(&key) {
            Some(first) if *first != name && strsim::levenshtein(first, &name) <= 2 => {
                let d = Diagnostic::new(
                    Code::DamagedText,
                    format!(
                        "step {number} of {} printed as '{}': a misprint of '{first}' (the same step of the same section); read as that rule",
                        self.section,
                        printed.trim()
                    ),
                )
                .at(&self.doc.file, line);
                self.out.diagnostics.push(d);
                first.clone()
            }
            Some(_) => name,
            None => {
                self.steps.insert(key, name.clone());
                name
            }
        }
    }

    fn open_container(&mut self, name: String, line: u32) {
        self.close_label();
        self.close_container();
        self.container = Some(Open {
            name,
            line,
            ..Open::default()
        });
    }

    fn close_label(&mut self) {
        if let Some(open) = self.label.take() {
            self.emit(open);
        }
    }

    fn close_container(&mut self) {
        if let Some(open) = self.container.take() {
            self.emit(open);
        }
    }

    /// A rule from `open`; a heading with neither text nor table is structure only.
    fn emit(&mut self, open: Open) {
        if open.paras.is_empty() && open.tables.is_empty() {
            return;
        }
        self.out.rules.push(Rule {
            variants: Vec::new(),
            id: String::new(),
            name: Some(open.name),
            kind: "core".into(),
            edition: Edition::Ninth,
            faction: None,
            flavor: None,
            text: open.paras.join("\n\n"),
            bullets: Vec::new(),
            examples: Vec::new(),
            occurrences: vec![Occurrence::at_line(self.doc.file.clone(), open.line)],
            tables: open.tables,
            number: Default::default(),
            parent: Default::default(),
            children: Default::default(),
            translations: Default::default(),
        });
    }
}

/// A number or a roll as a table cell prints it: `0`, `-1`, `2+`.
fn is_value(c: &str) -> bool {
    let t = c
        .trim()
        .trim_start_matches(['-', '+'])
        .trim_end_matches('+');
    !t.is_empty() && t.chars().all(|ch| ch.is_ascii_digit())
}

fn next_is_label(blocks: &[Block], i: usize) -> bool {
    blocks
        .get(i + 1)
        .is_some_and(|n| LABEL.is_match(&plain(&n.text)))
}

fn short(s: &str) -> String {
    crate::extract::glossary::short(s)
}
