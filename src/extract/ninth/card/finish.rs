//! The end of a card: its printed faction rules, the datasheet's id, and what the end of the
//! file cut off (`X111`).

use super::{printed_rule, Card};
use crate::diag::{Code, Diagnostic};
use crate::extract::sheet::Finish;
use crate::extract::Extracted;
use crate::ids;

impl Card<'_> {
    /// Emits the card's rules, diagnostics and datasheet into `out`.
    pub(super) fn finish(mut self, last: bool, out: &mut Extracted) {
        let faction = self.ds.faction.clone();
        for p in std::mem::take(&mut self.printed) {
            let line = p.line;
            if !p.paras.is_empty() {
                let rule =
                    printed_rule(self.doc, p.name.clone(), line, faction.as_deref(), &p.paras);
                let id = ids::rule_id(&rule);
                for a in self.ds.abilities.iter_mut() {
                    if a.text.is_none() && a.name.eq_ignore_ascii_case(&p.name) {
                        a.rule_id = Some(id.clone());
                    }
                }
                out.rules.push(rule);
            }
            for (name, line, paras) in p.labels {
                out.rules.push(printed_rule(
                    self.doc,
                    name,
                    line,
                    faction.as_deref(),
                    &paras,
                ));
            }
        }
        if last {
            self.cut_off();
        }
        let name = self.ds.name.clone().unwrap_or_default();
        if self.ds.faction.is_none() {
            let d = Diagnostic::new(
                Code::FactionUnknown,
                format!("unit card '{name}' prints no faction keyword"),
            );
            self.diagnostics.push(match self.ds.sources.first() {
                Some(p) => d.at(&p.file, p.line),
                None => d,
            });
        }
        out.diagnostics.append(&mut self.diagnostics);
        let f = Finish {
            faction: self.ds.faction.clone(),
            file: &self.doc.file,
            line: self.ds.sources.first().map_or(0, |p| p.line),
            link_references: false,
            publication: None,
        };
        let ds = self.ds.finish(f, &mut out.diagnostics);
        out.datasheets.push(ds);
    }

    /// The last card of the file: an entry left with a name and no text was cut off.
    fn cut_off(&mut self) {
        let name = self.ds.name.clone().unwrap_or_default();
        let Some(a) = self.ds.abilities.last() else {
            return;
        };
        if a.text.is_some() || a.group != "wargear" {
            return;
        }
        let line = self.ds.sources.first().map_or(0, |p| p.line);
        let d = Diagnostic::new(
            Code::RequiredTextMissing,
            format!(
                "unit card '{name}' is cut off by the end of the file: '{}' has no text (kept null)",
                a.name
            ),
        )
        .at(&self.doc.file, line);
        self.diagnostics.push(d);
    }
}
