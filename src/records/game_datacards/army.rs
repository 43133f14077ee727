//! One faction file's army side: detachments (Detachment Points, Force Disposition),
//! stratagems, enhancements, army rules and detachment rules → [`Detachment`], [`Stratagem`],
//! [`Enhancement`] and [`Rule`] records, each detachment listing the ids of the rules,
//! enhancements and stratagems that name it (by `detachment_id`, else by `detachment`).
//!
//! Owns: those records' fields, their other languages (`translations`), their lines (a walk of
//! the file's JSON events: the line of an object's own `"id"` value, else of its `{`; the same
//! walk gives the parent each datasheet object's line, [`object_lines`]; a rule
//! part's `order` places it, gaps and all, never a guess at a missing part). Must not: read
//! datasheets (`sheet.rs`) or the file's top level (the parent's), take a text from a language
//! other than English, guess a cost that is not a number.

use super::text::{join, paragraphs, plain, Para};
use super::{list, whole};
use crate::diag::{Code, Diagnostic};
use crate::edition::Edition;
use crate::extract::Extracted;
use crate::ids;
use crate::model::{Detachment, Enhancement, Rule, Stratagem, Translation, Translations};
use crate::source::{Location, Provenance, SourceFile};
use crate::vocab::StratagemPart;
use json_event_parser::{JsonEvent, LowLevelJsonParser};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};

/// What the records of one file share.
struct Cx<'a> {
    file: &'a SourceFile,
    edition: Edition,
    faction: Option<String>,
    /// Object lines by path ([`object_lines`]).
    lines: HashMap<String, u32>,
    diagnostics: Vec<Diagnostic>,
}

/// A detachment being filled, with the app's id for it (11th edition's files).
struct Det {
    rec: Detachment,
    app_id: Option<String>,
}

/// Reads the army side of the faction file `top` into `ex`.
pub(super) fn read(
    file: &SourceFile,
    top: &Map<String, Value>,
    edition: Edition,
    lines: HashMap<String, u32>,
    ex: &mut Extracted,
) {
    let mut cx = Cx {
        file,
        edition,
        faction: ex.faction.clone(),
        lines,
        diagnostics: Vec::new(),
    };
    let mut dets: Vec<Det> = list(top, "detachments")
        .iter()
        .enumerate()
        .filter_map(|(i, d)| cx.detachment(d.as_object()?, &format!("detachments/{i}")))
        .collect();
    for (i, s) in list(top, "stratagems").iter().enumerate() {
        let Some(s) = s.as_object() else { continue };
        if let Some(st) = cx.stratagem(s, &format!("stratagems/{i}"), &mut dets) {
            ex.stratagems.push(st);
        }
    }
    for (i, e) in list(top, "enhancements").iter().enumerate() {
        let Some(e) = e.as_object() else { continue };
        if let Some(en) = cx.enhancement(e, &format!("enhancements/{i}"), &mut dets) {
            ex.enhancements.push(en);
        }
    }
    let empty = Map::new();
    let rules = top
        .get("rules")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for (i, r) in list(rules, "army").iter().enumerate() {
        let Some(r) = r.as_object() else { continue };
        ex.rules
            .extend(cx.rule(r, "army", &format!("rules/army/{i}")));
    }
    for (i, g) in list(rules, "detachment").iter().enumerate() {
        let Some(g) = g.as_object() else { continue };
        cx.detachment_rules(g, &format!("rules/detachment/{i}"), &mut dets, ex);
    }
    ex.detachments.extend(dets.into_iter().map(|d| d.rec));
    ex.diagnostics.append(&mut cx.diagnostics);
}

/// A value as the source prints it, for a diagnostic.
fn printed(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => "(none)".to_string(),
    }
}

/// The other languages of a text (language → plain text), never `en`.
fn languages(v: Option<&Value>) -> BTreeMap<String, String> {
    let Some(Value::Object(m)) = v else {
        return BTreeMap::new();
    };
    m.iter()
        .filter(|(lang, _)| lang.as_str() != "en")
        .filter_map(|(lang, t)| Some((lang.clone(), plain(t.as_str()?))))
        .filter(|(_, t)| !t.is_empty())
        .collect()
}

/// The name's other languages as translations.
fn named(name: Option<&Value>) -> Translations {
    let mut out = Translations::new();
    for (lang, n) in languages(name) {
        out.entry(lang).or_default().name = Some(n);
    }
    out
}

/// Each language that prints every one of `parts` (each with its label, if any), its text the
/// parts joined as the English (a blank line between): a language missing a part has none.
fn part_languages(parts: &[(Option<&str>, &Value)]) -> BTreeMap<String, String> {
    let per_part: Vec<BTreeMap<String, String>> =
        parts.iter().map(|(_, v)| languages(Some(v))).collect();
    let Some(first) = per_part.first() else {
        return BTreeMap::new();
    };
    let mut out = BTreeMap::new();
    for lang in first.keys() {
        let texts: Option<Vec<String>> = per_part
            .iter()
            .zip(parts)
            .map(|(m, (label, _))| {
                let t = m.get(lang)?;
                Some(label.map_or_else(|| t.clone(), |l| format!("{l} {t}")))
            })
            .collect();
        if let Some(texts) = texts {
            out.insert(lang.clone(), texts.join("\n\n"));
        }
    }
    out
}

/// `texts` as the translations' texts of `out`.
fn add_texts(out: &mut Translations, texts: BTreeMap<String, String>) {
    for (lang, t) in texts {
        let e: &mut Translation = out.entry(lang).or_default();
        e.text = Some(t);
    }
}

/// The index of the detachment a record names: by the app's `detachment_id`, else by name.
fn detachment_named(dets: &[Det], obj: &Map<String, Value>) -> Option<usize> {
    let by_id = obj
        .get("detachment_id")
        .and_then(Value::as_str)
        .and_then(|id| dets.iter().position(|d| d.app_id.as_deref() == Some(id)));
    by_id.or_else(|| {
        let name = obj.get("detachment").and_then(Value::as_str)?.trim();
        dets.iter().position(|d| d.rec.name == name)
    })
}

impl Cx<'_> {
    fn line(&self, path: &str) -> u32 {
        self.lines.get(path).copied().unwrap_or(1)
    }

    fn from(&self, line: u32) -> Provenance {
        Provenance::at_line(self.file.path.clone(), line, self.file.sha256.clone())
    }

    fn say(&mut self, code: Code, message: String, line: u32) {
        self.diagnostics
            .push(Diagnostic::new(code, message).at(&self.file.path, line));
    }

    /// The English of a text as plain text; a language map without `en` → `G002` (`what`
    /// names the record), `None`. An empty text is `None`.
    fn english(&mut self, v: Option<&Value>, what: &str, line: u32) -> Option<String> {
        let mut missing = Vec::new();
        let t = v.and_then(|v| super::text(v, &mut missing));
        for langs in missing {
            self.say(
                Code::GdcNoEnglish,
                format!("{what}: a text without `en` (languages: {langs}); left out"),
                line,
            );
        }
        t.map(|t| plain(&t)).filter(|t| !t.is_empty())
    }

    /// The group a record names (its detachment's name, as the detachment prints it) and the
    /// detachment's index; `G007` when the file lists no such detachment.
    fn group_of(
        &mut self,
        obj: &Map<String, Value>,
        dets: &[Det],
        what: &str,
        line: u32,
    ) -> (Option<String>, Option<usize>) {
        if let Some(i) = detachment_named(dets, obj) {
            return (Some(dets[i].rec.name.clone()), Some(i));
        }
        let printed = obj
            .get("detachment")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string);
        self.say(
            Code::GdcDetachmentUnknown,
            format!(
                "{what} names detachment '{}', which the file's detachments do not list; no detachment lists it",
                printed.as_deref().unwrap_or("")
            ),
            line,
        );
        (printed, None)
    }

    /// One `detachments[]` object: name, Detachment Points, Force Disposition.
    fn detachment(&mut self, d: &Map<String, Value>, path: &str) -> Option<Det> {
        let line = self.line(path);
        let name = self.english(d.get("name"), "detachment", line)?;
        let points = whole(d.get("detachmentPoints"));
        let disposition = d
            .get("forceDisposition")
            .and_then(Value::as_object)
            .and_then(|f| f.get("name"));
        let disposition = self
            .english(disposition, &format!("detachment '{name}'"), line)
            .map(|fd| {
                crate::vocab::of(self.edition)
                    .and_then(|v| v.force_disposition(&fd))
                    .map_or(fd, str::to_string)
            });
        self.overrides(d, &name, points, line);
        let rec = Detachment {
            id: ids::detachment(self.edition, self.faction.as_deref(), &name),
            name,
            edition: self.edition,
            faction: self.faction.clone(),
            rules: Vec::new(),
            enhancements: Vec::new(),
            stratagems: Vec::new(),
            sources: vec![self.from(line)],
            points,
            force_disposition: disposition,
            unique_tag: None,
            translations: named(d.get("name")),
        };
        let app_id = d.get("id").and_then(Value::as_str).map(str::to_string);
        Some(Det { rec, app_id })
    }

    /// `G009` for Detachment Points other factions' armies pay (`detachmentPointsOverrides`).
    fn overrides(&mut self, d: &Map<String, Value>, name: &str, points: Option<u32>, line: u32) {
        let other: Vec<String> = list(d, "detachmentPointsOverrides")
            .iter()
            .filter_map(Value::as_object)
            .map(|o| {
                let f = o.get("faction").and_then(Value::as_str).unwrap_or("?");
                format!("{f} {}", printed(o.get("detachmentPoints")))
            })
            .collect();
        if other.is_empty() {
            return;
        }
        let own = points.map_or_else(|| "no".to_string(), |p| p.to_string());
        self.say(
            Code::GdcDetachmentPointsPerFaction,
            format!(
                "detachment '{name}' costs {own} DP, and for {}; points {own}",
                other.join(", ")
            ),
            line,
        );
    }

    /// One `stratagems[]` object, listed on its detachment.
    fn stratagem(
        &mut self,
        s: &Map<String, Value>,
        path: &str,
        dets: &mut [Det],
    ) -> Option<Stratagem> {
        let line = self.line(path);
        let name = self.english(s.get("name"), "stratagem", line)?;
        let what = format!("stratagem '{name}'");
        let (group, det) = self.group_of(s, dets, &what, line);
        let cp = whole(s.get("cost"));
        if cp.is_none() {
            let cost = printed(s.get("cost"));
            self.say(
                Code::StratagemIncomplete,
                format!("{what} has CP `{cost}`, not a number"),
                line,
            );
        }
        let category = s
            .get("type")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_string);
        let mut st = Stratagem {
            id: ids::stratagem(self.edition, group.as_deref().unwrap_or("unknown"), &name),
            name,
            edition: self.edition,
            cp,
            group,
            category,
            flavor: self.english(s.get("fluff"), &what, line),
            when: self.english(s.get("when"), &what, line),
            target: self.english(s.get("target"), &what, line),
            effect: self.english(s.get("effect"), &what, line),
            restrictions: self.english(s.get("restrictions"), &what, line),
            sources: vec![self.from(line)],
            translations: named(s.get("name")),
        };
        let texts = self.stratagem_languages(s, &st);
        add_texts(&mut st.translations, texts);
        if let Some(i) = det {
            dets[i].rec.stratagems.push(st.id.clone());
        }
        Some(st)
    }

    /// A stratagem's other languages: its parts labelled as the edition prints them
    /// (`WHEN: …`), for a language that prints every part the English does.
    fn stratagem_languages(
        &self,
        s: &Map<String, Value>,
        st: &Stratagem,
    ) -> BTreeMap<String, String> {
        let Some(vocab) = crate::vocab::of(self.edition) else {
            return BTreeMap::new();
        };
        let mut parts: Vec<(Option<&str>, &Value)> = Vec::new();
        for (label, part) in vocab.stratagem_labels {
            let (key, english) = match part {
                StratagemPart::When => ("when", &st.when),
                StratagemPart::Target => ("target", &st.target),
                StratagemPart::Effect => ("effect", &st.effect),
                StratagemPart::Restrictions => ("restrictions", &st.restrictions),
            };
            if let (Some(_), Some(v)) = (english, s.get(key)) {
                parts.push((Some(label), v));
            }
        }
        part_languages(&parts)
    }

    /// One `enhancements[]` object, listed on its detachment; a cost that is not a number is
    /// `G006` and no points.
    fn enhancement(
        &mut self,
        e: &Map<String, Value>,
        path: &str,
        dets: &mut [Det],
    ) -> Option<Enhancement> {
        let line = self.line(path);
        let name = self.english(e.get("name"), "enhancement", line)?;
        let what = format!("enhancement '{name}'");
        let (detachment, det) = self.group_of(e, dets, &what, line);
        let points = whole(e.get("cost"));
        if points.is_none() {
            let cost = printed(e.get("cost"));
            self.say(
                Code::GdcEnhancementCostUnread,
                format!("{what} costs `{cost}`, not a number; points null"),
                line,
            );
        }
        let text = self
            .english(e.get("description"), &what, line)
            .unwrap_or_default();
        let mut translations = named(e.get("name"));
        if let (false, Some(d)) = (text.is_empty(), e.get("description")) {
            add_texts(&mut translations, part_languages(&[(None, d)]));
        }
        let id = ids::enhancement(
            self.edition,
            self.faction.as_deref(),
            detachment.as_deref(),
            &name,
        );
        if let Some(i) = det {
            dets[i].rec.enhancements.push(id.clone());
        }
        Some(Enhancement {
            id,
            name: Some(name),
            edition: self.edition,
            faction: self.faction.clone(),
            detachment,
            points,
            flavor: None,
            text,
            sources: vec![self.from(line)],
            translations,
        })
    }

    /// One `rules.detachment[]` group: its rules, each listed on the detachment it names.
    fn detachment_rules(
        &mut self,
        g: &Map<String, Value>,
        path: &str,
        dets: &mut [Det],
        ex: &mut Extracted,
    ) {
        let line = self.line(path);
        let (_, det) = self.group_of(g, dets, "detachment rules", line);
        for (j, r) in list(g, "rules").iter().enumerate() {
            let Some(r) = r.as_object() else { continue };
            let Some(rule) = self.rule(r, "detachment", &format!("{path}/rules/{j}")) else {
                continue;
            };
            if let Some(i) = det {
                let listed = &mut dets[i].rec.rules;
                if !listed.contains(&rule.id) {
                    listed.push(rule.id.clone());
                }
            }
            ex.rules.push(rule);
        }
    }

    /// One army or detachment rule: its parts in `order`; a rule without text is `X111`.
    fn rule(&mut self, r: &Map<String, Value>, kind: &str, path: &str) -> Option<Rule> {
        let line = self.line(path);
        let name = self.english(r.get("name"), &format!("{kind} rule"), line);
        let what = format!("rule '{}'", name.as_deref().unwrap_or(""));
        let (paras, examples, read) = self.parts(r, &what, line);
        let text = join(&paras);
        if text.is_empty() {
            self.say(
                Code::RequiredTextMissing,
                format!("{what} has no text in the app's data; not read"),
                line,
            );
            return None;
        }
        let mut rule = Rule {
            id: String::new(),
            name,
            kind: kind.to_string(),
            edition: self.edition,
            faction: self.faction.clone(),
            flavor: None,
            text,
            bullets: Vec::new(),
            examples,
            occurrences: vec![Location::at_line(self.file.path.clone(), line)],
            tables: Vec::new(),
            variants: Vec::new(),
            number: None,
            parent: None,
            children: Vec::new(),
            translations: named(r.get("name")),
        };
        let parts: Vec<(Option<&str>, &Value)> = read.iter().map(|v| (None, *v)).collect();
        add_texts(&mut rule.translations, part_languages(&parts));
        rule.id = ids::rule_id(&rule);
        Some(rule)
    }

    /// A rule's parts sorted by `order` (gaps kept): the text's paragraphs, its worked
    /// examples (a `quote` part that starts `Example`), and the texts read (for their other
    /// languages). An image, an unknown type or a part without `order` is `G008`.
    fn parts<'v>(
        &mut self,
        r: &'v Map<String, Value>,
        what: &str,
        line: u32,
    ) -> (Vec<Para>, Vec<String>, Vec<&'v Value>) {
        let mut ordered: Vec<(u64, &Map<String, Value>)> = Vec::new();
        for p in list(r, "rules").iter().filter_map(Value::as_object) {
            match p.get("order").and_then(Value::as_u64) {
                Some(o) => ordered.push((o, p)),
                None => self.say(
                    Code::GdcRulePartUnread,
                    format!("{what}: a part without `order` (its place is unknown); left out"),
                    line,
                ),
            }
        }
        ordered.sort_by_key(|(o, _)| *o);
        let (mut paras, mut examples, mut read) = (Vec::new(), Vec::new(), Vec::new());
        for (order, p) in ordered {
            let kind = p.get("type").and_then(Value::as_str).unwrap_or("");
            let Some(body) = p.get("text") else { continue };
            let english = self.english(Some(body), what, line).unwrap_or_default();
            match kind {
                "text" | "header" => {}
                "accordion" => {
                    let title = self.english(p.get("title"), what, line);
                    if let Some(t) = title {
                        paras.push(Para {
                            text: t,
                            item: false,
                        });
                    }
                    if let Some(t) = p.get("title").filter(|t| t.is_object()) {
                        read.push(t);
                    }
                }
                "quote" if english.starts_with("Example") => {
                    examples.push(english);
                    continue;
                }
                "quote" => {}
                other => {
                    let kind = if other == "image" {
                        "an image (not in the data)".to_string()
                    } else {
                        format!("of type `{other}`")
                    };
                    self.say(
                        Code::GdcRulePartUnread,
                        format!("{what}: part {order} is {kind}; left out"),
                        line,
                    );
                    continue;
                }
            }
            if !english.is_empty() {
                paras.extend(paragraphs(&english));
                read.push(body);
            }
        }
        (paras, examples, read)
    }
}

/// An open object (its path, the key being read) or array (its path, its next index).
enum Frame {
    Object { path: String, key: Option<String> },
    Array { path: String, next: usize },
}

/// Whether a path is under one of the army keys, or a datasheet object itself
/// (`datasheets/3`, not its parts): the only lines kept.
fn wanted(path: &str) -> bool {
    let mut parts = path.split('/');
    let head = parts.next().unwrap_or("");
    match head {
        "detachments" | "stratagems" | "enhancements" | "rules" => true,
        "datasheets" => parts.next().is_some() && parts.next().is_none(),
        _ => false,
    }
}

/// The path of the value starting now under the top of `stack` (`stratagems/3`).
fn child_path(stack: &mut [Frame]) -> String {
    match stack.last_mut() {
        None => String::new(),
        Some(Frame::Object { path, key }) => {
            let k = key.take().unwrap_or_default();
            if path.is_empty() {
                k
            } else {
                format!("{path}/{k}")
            }
        }
        Some(Frame::Array { path, next }) => {
            *next += 1;
            format!("{path}/{}", *next - 1)
        }
    }
}

/// The 1-based line of each object under the army keys and of each datasheet object, by path
/// (`rules/detachment/0/rules/1`, `datasheets/3`): the line of its own `"id"` value when it
/// has one, else of its `{`.
/// A walk of the JSON events on the parser's own stack (no recursion); the file parsed
/// already, so a syntax error only ends the walk.
pub(super) fn object_lines(bytes: &[u8]) -> HashMap<String, u32> {
    let mut lines = HashMap::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut parser = LowLevelJsonParser::new();
    let mut lines_of = crate::records::bsdata::tree::Lines::new(bytes);
    let mut offset = 0usize;
    loop {
        let res = parser.parse_next(bytes.get(offset..).unwrap_or(&[]), true);
        offset += res.consumed_bytes;
        let event = match res.event {
            Some(Ok(e)) => e,
            Some(Err(_)) => break,
            None if res.consumed_bytes == 0 => break,
            None => continue,
        };
        let line = lines_of.at(offset);
        match event {
            JsonEvent::Eof => break,
            JsonEvent::ObjectKey(k) => {
                if let Some(Frame::Object { key, .. }) = stack.last_mut() {
                    *key = Some(k.into_owned());
                }
            }
            JsonEvent::StartObject => {
                let path = child_path(&mut stack);
                if wanted(&path) {
                    lines.insert(path.clone(), line);
                }
                stack.push(Frame::Object { path, key: None });
            }
            JsonEvent::StartArray => {
                let path = child_path(&mut stack);
                stack.push(Frame::Array { path, next: 0 });
            }
            JsonEvent::EndObject | JsonEvent::EndArray => {
                stack.pop();
            }
            JsonEvent::String(_)
            | JsonEvent::Number(_)
            | JsonEvent::Boolean(_)
            | JsonEvent::Null => {
                let is_id =
                    matches!(stack.last(), Some(Frame::Object { key: Some(k), .. }) if k == "id");
                let path = child_path(&mut stack);
                if is_id && matches!(event, JsonEvent::String(_)) {
                    if let Some((owner, _)) = path.rsplit_once('/').filter(|(o, _)| wanted(o)) {
                        lines.insert(owner.to_string(), line);
                    }
                }
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_the_id_values_else_the_braces() {
        let json = b"{\"rules\": {\"army\": [\n {\"name\": \"a\"},\n {\n \"name\": \"b\"}]},\n \"stratagems\": [{\n\"x\": [1, {}],\n\"id\": \"s1\"}]}";
        let lines = object_lines(json);
        assert_eq!(lines.get("rules/army/0"), Some(&2));
        assert_eq!(lines.get("rules/army/1"), Some(&3));
        assert_eq!(lines.get("stratagems/0"), Some(&7));
        assert_eq!(lines.get("stratagems/0/x/1"), Some(&6));
    }

    #[test]
    fn a_datasheet_is_at_its_id_value_and_its_parts_are_not_kept() {
        let json = b"{\"datasheets\": [\n {\"stats\": [{\"id\": \"m\"}],\n \"id\": \"d1\"},\n {\"name\": \"x\"}]}";
        let lines = object_lines(json);
        assert_eq!(lines.get("datasheets/0"), Some(&3));
        assert_eq!(lines.get("datasheets/1"), Some(&4));
        assert_eq!(lines.get("datasheets/0/stats/0"), None);
    }

    #[test]
    fn a_language_missing_a_part_has_no_text() {
        let a = serde_json::json!({"en": "A", "de": "Ad", "fr": "Af"});
        let b = serde_json::json!({"en": "B", "de": "Bd"});
        let got = part_languages(&[(Some("W:"), &a), (Some("E:"), &b)]);
        assert_eq!(got.len(), 1);
        assert_eq!(got.get("de").map(String::as_str), Some("W: Ad\n\nE: Bd"));
    }
}
