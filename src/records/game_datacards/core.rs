//! The GW app's core rules (`cardType: coreRules`, one file): numbered rules with their
//! hierarchy and translations.
//!
//! Owns: the file's sections (`05. Attack Sequence` → a rule numbered `05` named `Attack
//! Sequence`, its text the `introduction` container's), its containers (`subTitle` `05.01` →
//! a rule numbered `05.01`), its accordions titled `NN.NN.NN - Title` (a rule of their own,
//! under their container by number), each rule's parent (the rule with the longest number
//! that prefixes its own: `09.07.01` → `09.07` → `09`) and children (sorted by number, filled
//! after the walk), names and texts in every other language the file has (`translations`).
//! Texts: the components' markup through `decode::html::fragment_lines` (plain text as the
//! other sources' rules: a line per line, a blank line between paragraphs, list items as
//! `• `), a `<table>` into `Rule::tables` (English cells; tables leave the text), a `header`
//! component a line of the text, an accordion without a number part of its container's text
//! (its title a line, then its text: a collapsed paragraph of the container, not a numbered
//! rule), a `behaviourType` container labelled lines (`Eligible if: …`, `Effect: …`; its
//! translations carry the name only, the labels being the file's English keys).
//! The FAQ (`cardType: faq`) and keywords (`keywords`) files give no records, one `G015`
//! each saying why.
//! Must not: make a rule of a `stratagem` container (its text is not in the material,
//! `G010`) or of an image (counted, `G010`), take a text from another language than the one
//! it stands for, give two rules one id (`ids::in_section`, `G013`), do I/O.
//!
//! Lines: a section's and a container's line is the line of their `"id"` value; an
//! accordion's is its container's.

use crate::decode::html::fragment_lines;
use crate::diag::{Code, Diagnostic};
use crate::edition::Edition;
use crate::extract::Extracted;
use crate::ids;
use crate::ir::BlockKind;
use crate::model::{Rule, RuleTable, Translations};
use crate::source::{Location, SourceFile};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The `cardType`s this module reads: the core rules; the FAQ and keywords files are claimed
/// to say why they give no records (`G015`).
const CARDS: [&str; 3] = ["coreRules", "faq", "keywords"];

/// Why a claimed card file other than the core rules gives no records.
fn not_read(card: &str) -> String {
    match card {
        "keywords" => "cardType 'keywords' is not read: its abilities and weapon keywords are \
            the core rules' own (Deep Strike is 24.09, [LETHAL HITS] 24.23) and the 11th-edition \
            weapon keyword vocabulary's (`schemas/keywords-11e.yaml`); a second copy of each \
            would be a second rule of one id"
            .to_string(),
        _ => format!(
            "cardType '{card}' (errata and FAQs) is not read: no record of the contract holds errata"
        ),
    }
}

/// Whether a file looks like a game-datacards card file this module reads (a cheap look at its
/// bytes; [`read`] checks the top level).
pub(super) fn is_card_file(bytes: &[u8]) -> bool {
    super::contains(bytes, b"\"cardType\"")
        && CARDS
            .iter()
            .any(|c| super::contains(bytes, format!("\"{c}\"").as_bytes()))
}

/// The file's `cardType`, when it is one [`read`] takes.
pub(super) fn card_type(top: &Map<String, Value>) -> Option<&str> {
    let c = top.get("cardType").and_then(Value::as_str)?;
    CARDS.contains(&c).then_some(c)
}

/// Reads a card file of a known edition into `ex`.
pub(super) fn read(
    file: &SourceFile,
    top: &Map<String, Value>,
    edition: Edition,
    ex: &mut Extracted,
) {
    match card_type(top) {
        Some("coreRules") => {}
        card => {
            let message = not_read(card.unwrap_or_default());
            let d = Diagnostic::new(Code::GdcFileNotRead, message).in_file(&file.path);
            ex.diagnostics.push(d);
            ex.not_read = true;
            return;
        }
    }
    let mut walk = Walk {
        file,
        entries: Vec::new(),
        diagnostics: Vec::new(),
        stratagems: Vec::new(),
        images: 0,
    };
    for s in top
        .get("sections")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(s) = s.as_object() {
            walk.section(s);
        }
    }
    walk.not_read();
    let Walk {
        entries,
        mut diagnostics,
        ..
    } = walk;
    ex.rules = rules(file, edition, entries, &mut diagnostics);
    ex.diagnostics.append(&mut diagnostics);
}

/// A rule being read: its number, its name and text by language, its tables, its line.
#[derive(Debug, Default)]
struct Entry {
    number: Option<String>,
    names: BTreeMap<String, String>,
    texts: BTreeMap<String, String>,
    tables: Vec<RuleTable>,
    line: u32,
}

struct Walk<'a> {
    file: &'a SourceFile,
    entries: Vec<Entry>,
    diagnostics: Vec<Diagnostic>,
    /// `15.02 Command Re-Roll` of each `stratagem` container.
    stratagems: Vec<String>,
    images: usize,
}

impl Walk<'_> {
    fn line_of_id(&self, o: &Map<String, Value>) -> u32 {
        o.get("id")
            .and_then(Value::as_str)
            .and_then(|id| super::line_of(&self.file.bytes, format!("\"{id}\"").as_bytes()))
            .unwrap_or(1)
    }

    /// A section: its rule (number and name from `05. Attack Sequence`, text from its
    /// `introduction` container), then its other containers.
    fn section(&mut self, s: &Map<String, Value>) {
        let line = self.line_of_id(s);
        let mut names = languages(s.get("name"));
        let number = names
            .get("en")
            .and_then(|n| numbered(n))
            .and_then(|(raw, _)| self.number(&raw, line));
        for n in names.values_mut() {
            if let Some((_, rest)) = numbered(n) {
                *n = rest.unwrap_or_default();
            }
        }
        names.retain(|_, n| !n.is_empty());
        let containers = sorted(s.get("containers"));
        let mut entry = Entry {
            number,
            names,
            line,
            ..Default::default()
        };
        for c in containers.iter().filter(|c| kind(c) == "introduction") {
            let (texts, tables) = self.body(c);
            entry.texts = texts;
            entry.tables = tables;
        }
        self.entries.push(entry);
        for c in containers.iter().filter(|c| kind(c) != "introduction") {
            self.container(c);
        }
    }

    /// A container: a rule numbered by its `subTitle`, then its numbered accordions.
    fn container(&mut self, c: &Map<String, Value>) {
        let line = self.line_of_id(c);
        let names = languages(c.get("title"));
        let raw = languages(c.get("subTitle")).remove("en");
        let number = raw.as_deref().and_then(|r| self.number(r, line));
        match kind(c) {
            "stratagem" => {
                let name = names.get("en").map_or("", String::as_str);
                let at = raw.unwrap_or_default();
                self.stratagems
                    .push(format!("{at} {name}").trim().to_string());
                return;
            }
            "behaviourType" => {
                let texts = behaviour(c.get("behaviour"));
                let entry = Entry {
                    number,
                    names,
                    texts,
                    line,
                    ..Default::default()
                };
                self.entries.push(entry);
                return;
            }
            _ => {}
        }
        let (texts, tables) = self.body(c);
        let entry = Entry {
            number,
            names,
            texts,
            tables,
            line,
        };
        self.entries.push(entry);
        for a in components(c).into_iter().filter(|p| kind(p) == "accordion") {
            let mut names = languages(a.get("title"));
            let Some((raw, _)) = names.get("en").and_then(|t| numbered(t)) else {
                continue;
            };
            let number = self.number(&raw, line);
            for n in names.values_mut() {
                *n = numbered(n).and_then(|(_, rest)| rest).unwrap_or_default();
            }
            names.retain(|_, n| !n.is_empty());
            if names.is_empty() {
                self.diagnostics.push(
                    Diagnostic::new(
                        Code::GdcCoreUntitled,
                        format!(
                            "accordion {raw} has a number and no title; rule kept without a name"
                        ),
                    )
                    .at(&self.file.path, line),
                );
            }
            let (texts, tables) = self.rendered(&languages(a.get("text")));
            self.entries.push(Entry {
                number,
                names,
                texts,
                tables,
                line,
            });
        }
    }

    /// A section number as the file prints it, read with its leading zeros (`5.3.2` →
    /// `05.03.02`, `G012`).
    fn number(&mut self, raw: &str, line: u32) -> Option<String> {
        let n = padded(raw)?;
        if n != raw {
            self.diagnostics.push(
                Diagnostic::new(
                    Code::GdcCoreNumberUnpadded,
                    format!("section number '{raw}' read as {n}"),
                )
                .at(&self.file.path, line),
            );
        }
        Some(n)
    }

    /// A container's text in each language its text components have, and its tables: `text`
    /// and `header` components and unnumbered accordions, in order; images counted. A
    /// language some component lacks gets no text (never a part-translation).
    fn body(&mut self, c: &Map<String, Value>) -> (BTreeMap<String, String>, Vec<RuleTable>) {
        let mut parts: Vec<BTreeMap<String, String>> = Vec::new();
        for p in components(c) {
            match kind(p) {
                "image" => self.images += 1,
                "text" | "header" => parts.push(languages(p.get("text"))),
                "accordion" => {
                    let titles = languages(p.get("title"));
                    if titles.get("en").and_then(|t| numbered(t)).is_none() {
                        parts.push(titles);
                        parts.push(languages(p.get("text")));
                    }
                }
                _ => {}
            }
        }
        let langs: BTreeSet<&String> = parts.iter().flat_map(BTreeMap::keys).collect();
        let mut joined: BTreeMap<String, String> = BTreeMap::new();
        for lang in langs {
            let texts: Option<Vec<&str>> = parts
                .iter()
                .map(|p| p.get(lang).map(String::as_str))
                .collect();
            if let Some(texts) = texts {
                joined.insert(lang.clone(), texts.join("\n\n"));
            }
        }
        self.rendered(&joined)
    }

    /// Texts (markup) rendered as plain text by language, and the English text's tables.
    fn rendered(
        &self,
        texts: &BTreeMap<String, String>,
    ) -> (BTreeMap<String, String>, Vec<RuleTable>) {
        let mut out = BTreeMap::new();
        let mut tables = Vec::new();
        for (lang, markup) in texts {
            let (text, t) = plain(markup);
            if lang == "en" {
                tables = t;
            }
            if !text.is_empty() {
                out.insert(lang.clone(), text);
            }
        }
        (out, tables)
    }

    /// One `G010` for the file's stratagem containers and images.
    fn not_read(&mut self) {
        if self.stratagems.is_empty() && self.images == 0 {
            return;
        }
        let message = format!(
            "{} stratagem containers without text in the material ({}) give no rule; {} images not read",
            self.stratagems.len(),
            self.stratagems.join(", "),
            self.images
        );
        self.diagnostics
            .push(Diagnostic::new(Code::GdcCorePartsNotRead, message).at(&self.file.path, 1));
    }
}

/// The `type` of a container or component.
fn kind(o: &Map<String, Value>) -> &str {
    o.get("type").and_then(Value::as_str).unwrap_or("")
}

/// The objects of an array, sorted by their `order` (stable: equal orders keep the file's).
fn sorted(v: Option<&Value>) -> Vec<&Map<String, Value>> {
    let mut out: Vec<&Map<String, Value>> = v
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .collect();
    out.sort_by_key(|o| o.get("order").and_then(Value::as_i64).unwrap_or(i64::MAX));
    out
}

fn components(c: &Map<String, Value>) -> Vec<&Map<String, Value>> {
    sorted(c.get("components"))
}

/// A text's languages: a language map (`{"en": …, "de": …}`), or a plain string as `en`.
/// Control characters other than line breaks, and their spreadsheet escapes (`_x0008_`) the
/// file carries, are left out.
fn languages(v: Option<&Value>) -> BTreeMap<String, String> {
    let clean = |s: &str| {
        let mut s = s.to_string();
        for code in 0..0x20u8 {
            s = s.replace(&format!("_x{code:04X}_"), "");
        }
        s.chars()
            .filter(|c| !c.is_control() || *c == '\n')
            .collect::<String>()
            .trim()
            .to_string()
    };
    match v {
        Some(Value::String(s)) => BTreeMap::from([("en".to_string(), clean(s))]),
        Some(Value::Object(m)) => m
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), clean(v.as_str()?))))
            .filter(|(_, v)| !v.is_empty())
            .collect(),
        _ => BTreeMap::new(),
    }
}

/// A title that starts with a section number: (`05.01.01`, `Critical Hits…`) of `05.01.01 -
/// Critical Hits…`, (`05`, `Attack Sequence`) of `05. Attack Sequence`, (`24.37.01`, None) of
/// a bare number.
fn numbered(title: &str) -> Option<(String, Option<String>)> {
    let title = title.trim();
    let (head, rest) = title.split_once(char::is_whitespace).unwrap_or((title, ""));
    let number = head.trim_end_matches('.');
    if !head.contains('.') {
        return None;
    }
    padded(number)?;
    let rest =
        rest.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '–' | '—' | '.'));
    Some((
        number.to_string(),
        (!rest.is_empty()).then(|| rest.to_string()),
    ))
}

/// A section number with each part two digits (`5.3.2` → `05.03.02`); `None` when a part is
/// no number of one or two digits.
fn padded(raw: &str) -> Option<String> {
    let parts: Option<Vec<String>> = raw
        .split('.')
        .map(|p| {
            let ok = (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit());
            ok.then(|| format!("{p:0>2}"))
        })
        .collect();
    parts.map(|p| p.join("."))
}

/// The labels of a `behaviour`'s fields, in the game's words; a field not named here is
/// labelled from its key (`setupDistance` → `Setup distance`).
const LABELS: &[(&str, &str)] = &[
    ("eligibleIf", "Eligible if"),
    ("setupDistance", "Setup distance"),
    ("maximumDistance", "Maximum distance"),
    ("beforeMoving", "Before moving"),
    ("whileMoving", "While moving"),
    ("afterMoving", "After moving"),
    ("whileShooting", "While shooting"),
    ("afterShooting", "After shooting"),
    ("effect", "Effect"),
];

/// A `behaviourType` container's text: `Label: value` lines in the order of [`LABELS`] (the
/// conditions, the distance, then the effect), other fields after them in the file's order
/// (its English values only); `id`, `name` and `ruleReference` (the container's own number)
/// are no text.
fn behaviour(v: Option<&Value>) -> BTreeMap<String, String> {
    let Some(b) = v.and_then(Value::as_object) else {
        return BTreeMap::new();
    };
    let rank = |k: &str| {
        LABELS
            .iter()
            .position(|(l, _)| *l == k)
            .unwrap_or(LABELS.len())
    };
    let mut fields: Vec<(&String, &Value)> = b.iter().collect();
    fields.sort_by_key(|(k, _)| rank(k));
    let mut lines = Vec::new();
    for (key, value) in fields {
        if matches!(key.as_str(), "id" | "name" | "ruleReference") {
            continue;
        }
        let Some(en) = languages(Some(value)).remove("en") else {
            continue;
        };
        let label = LABELS
            .iter()
            .find(|(k, _)| k == key)
            .map_or_else(|| label_of(key), |(_, l)| (*l).to_string());
        lines.push(format!("{label}: {}", plain(&en).0));
    }
    let text = lines.join("\n\n");
    if text.is_empty() {
        return BTreeMap::new();
    }
    BTreeMap::from([("en".to_string(), text)])
}

/// `setupDistance` → `Setup distance`.
fn label_of(key: &str) -> String {
    let mut out = String::new();
    for (i, c) in key.chars().enumerate() {
        if i == 0 {
            out.extend(c.to_uppercase());
        } else if c.is_uppercase() {
            out.push(' ');
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A text's markup as plain text (a line per line, a blank line between paragraphs, list
/// items as `• `) and its tables (`<th>` rows their columns).
fn plain(markup: &str) -> (String, Vec<RuleTable>) {
    let mut text = String::new();
    let mut tables: Vec<RuleTable> = Vec::new();
    let mut in_table = false;
    for b in fragment_lines(markup) {
        if b.kind == BlockKind::TableRow {
            let cells: Vec<String> = b.cells.iter().map(str::to_string).collect();
            if !in_table {
                tables.push(RuleTable {
                    columns: Vec::new(),
                    rows: Vec::new(),
                    line: 0,
                });
            }
            in_table = true;
            if let Some(t) = tables.last_mut() {
                if b.level == 1 && t.rows.is_empty() && t.columns.is_empty() {
                    t.columns = cells;
                } else {
                    t.rows.push(cells);
                }
            }
            continue;
        }
        in_table = false;
        if !text.is_empty() {
            text.push_str(if b.blank_before { "\n\n" } else { "\n" });
        }
        if b.kind == BlockKind::ListItem {
            text.push_str("• ");
        }
        text.push_str(&b.text);
    }
    (text, tables)
}

/// The rules of the walked entries: ids (two rules of one name take their numbers,
/// `G013`), parents by the longest number prefix, children sorted by number, translations.
fn rules(
    file: &SourceFile,
    edition: Edition,
    entries: Vec<Entry>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Rule> {
    twice(file, &entries, diags);
    let ids = ids_of(file, edition, &entries, diags);
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, e) in entries.iter().enumerate() {
        if let Some(n) = e.number.as_deref() {
            first.entry(n).or_insert(i);
        }
    }
    let parents: Vec<Option<usize>> = entries
        .iter()
        .map(|e| {
            let n = e.number.as_deref()?;
            let parts: Vec<&str> = n.split('.').collect();
            (1..parts.len())
                .rev()
                .find_map(|k| first.get(parts[..k].join(".").as_str()).copied())
        })
        .collect();
    let mut children: Vec<Vec<(String, String)>> = vec![Vec::new(); entries.len()];
    for (i, p) in parents.iter().enumerate() {
        if let (Some(p), Some(id)) = (p, &ids[i]) {
            let number = entries[i].number.clone().unwrap_or_default();
            children[*p].push((number, id.clone()));
        }
    }
    let mut out = Vec::new();
    for (i, e) in entries.into_iter().enumerate() {
        let Some(id) = ids[i].clone() else { continue };
        let mut kids = std::mem::take(&mut children[i]);
        kids.sort();
        let parent = parents[i].and_then(|p| ids[p].clone());
        out.push(rule(
            file,
            edition,
            e,
            id,
            parent,
            kids.into_iter().map(|(_, c)| c).collect(),
        ));
    }
    out
}

fn rule(
    file: &SourceFile,
    edition: Edition,
    mut e: Entry,
    id: String,
    parent: Option<String>,
    children: Vec<String>,
) -> Rule {
    let name = e.names.remove("en");
    let text = e.texts.remove("en").unwrap_or_default();
    let mut translations = Translations::new();
    for (lang, n) in e.names {
        translations.entry(lang).or_default().name = Some(n);
    }
    for (lang, t) in e.texts {
        translations.entry(lang).or_default().text = Some(t);
    }
    Rule {
        id,
        name,
        kind: "core".to_string(),
        edition,
        faction: None,
        flavor: None,
        text,
        bullets: Vec::new(),
        examples: Vec::new(),
        occurrences: vec![Location::at_line(file.path.clone(), e.line)],
        tables: e
            .tables
            .into_iter()
            .map(|t| RuleTable { line: e.line, ..t })
            .collect(),
        variants: Vec::new(),
        number: e.number,
        parent,
        children,
        translations,
    }
}

/// One `G011` per section number printed on more than one rule.
fn twice(file: &SourceFile, entries: &[Entry], diags: &mut Vec<Diagnostic>) {
    let mut by_number: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in entries {
        if let Some(n) = e.number.as_deref() {
            by_number.entry(n).or_default().push(e);
        }
    }
    for (n, es) in by_number.into_iter().filter(|(_, es)| es.len() > 1) {
        let names: Vec<String> = es
            .iter()
            .map(|e| format!("'{}'", e.names.get("en").map_or("", String::as_str)))
            .collect();
        diags.push(
            Diagnostic::new(
                Code::GdcCoreNumberTwice,
                format!(
                    "section number {n} is printed on {}; all kept",
                    names.join(" and ")
                ),
            )
            .at(&file.path, es[0].line),
        );
    }
}

/// Each entry's id: `EDITION:core:<name>` (unnamed: by its text); a name two rules share
/// gives both their section numbers (`ids::in_section`, one `G013`); an entry whose id is
/// still taken (same name and number) is left out with its text as a variant id's basis.
fn ids_of(
    file: &SourceFile,
    edition: Edition,
    entries: &[Entry],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Option<String>> {
    let scope = ids::rule_scope("core", None);
    let base: Vec<String> = entries
        .iter()
        .map(|e| match e.names.get("en") {
            Some(n) => ids::core_rule(edition, n),
            None => ids::unnamed_rule(
                edition,
                &scope,
                e.texts.get("en").map_or("", String::as_str),
            ),
        })
        .collect();
    let mut uses: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, b) in base.iter().enumerate() {
        uses.entry(b.as_str()).or_default().push(i);
    }
    let mut out: Vec<Option<String>> = base.iter().cloned().map(Some).collect();
    for (b, is) in uses.iter().filter(|(_, is)| is.len() > 1) {
        let numbers: Vec<&str> = is
            .iter()
            .filter_map(|&i| entries[i].number.as_deref())
            .collect();
        let name = entries[is[0]]
            .names
            .get("en")
            .map_or("(no name)", String::as_str);
        diags.push(
            Diagnostic::new(
                Code::GdcCoreNameShared,
                format!(
                    "'{name}' names {}; ids carry their section numbers",
                    numbers.join(" and ")
                ),
            )
            .at(&file.path, entries[is[0]].line),
        );
        for &i in is {
            let id = match entries[i].number.as_deref() {
                Some(n) => ids::in_section(b, n),
                None => ids::variant(b, entries[i].texts.get("en").map_or("", String::as_str)),
            };
            out[i] = Some(id);
        }
    }
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for (i, id) in out.iter_mut().enumerate() {
        if id.as_ref().is_some_and(|x| !seen.insert(x.clone())) {
            let name = entries[i]
                .names
                .get("en")
                .map_or("(no name)", String::as_str);
            let message = format!(
                "'{name}' is printed again with the same number and id; the later copy left out"
            );
            diags.push(
                Diagnostic::new(Code::GdcCoreNameShared, message).at(&file.path, entries[i].line),
            );
            *id = None;
        }
    }
    out
}
