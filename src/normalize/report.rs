//! Aggregated normalization diagnostics: one info diagnostic per (file, code, from → to) with a
//! count, so `diagnostics.json` stays readable however many values were respelled.
//!
//! Owns [`Report`]. Must not decide what is canonical (that is `grammar` and `keywords`).

use crate::diag::{Code, Diagnostic};
use std::collections::BTreeMap;

#[derive(Debug, Clone)]
struct Agg {
    what: String,
    count: usize,
    line: Option<u32>,
}

/// Counts fixes and collects error diagnostics for one run of the normalizer.
#[derive(Debug, Clone, Default)]
pub struct Report {
    fixes: BTreeMap<(String, Code, String, String), Agg>,
    /// Error diagnostics (one per quarantined record).
    pub errors: Vec<Diagnostic>,
}

impl Report {
    /// Counts one fix of `what` (a characteristic or `keyword`) in `file` at `line`.
    pub fn fix(
        &mut self,
        file: &str,
        line: Option<u32>,
        what: &str,
        code: Code,
        from: &str,
        to: &str,
    ) {
        let key = (file.to_string(), code, from.to_string(), to.to_string());
        let agg = self.fixes.entry(key).or_insert_with(|| Agg {
            what: what.to_string(),
            count: 0,
            line,
        });
        agg.count += 1;
        if agg.line.is_none() || line.is_some_and(|l| Some(l) < agg.line) {
            agg.line = line.or(agg.line);
        }
    }

    /// Number of values changed (each counted once per fix).
    pub fn fix_count(&self) -> usize {
        self.fixes.values().map(|a| a.count).sum()
    }

    /// The aggregated diagnostics, fixes first then errors.
    pub fn into_diagnostics(self) -> Vec<Diagnostic> {
        let mut out: Vec<Diagnostic> = self
            .fixes
            .into_iter()
            .map(|((file, code, from, to), a)| {
                let n = if a.count == 1 { "value" } else { "values" };
                let d = Diagnostic::new(
                    code,
                    format!("{} '{from}' -> '{to}' ({} {n})", a.what, a.count),
                );
                match a.line {
                    Some(l) => d.at(&file, l),
                    None => d.in_file(&file),
                }
            })
            .collect();
        out.extend(self.errors);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aggregates_per_file_code_and_change() {
        let mut r = Report::default();
        for l in [9, 3, 5] {
            r.fix("a.txt", Some(l), "A", Code::NormDice, "2d6", "2D6");
        }
        r.fix("b.txt", None, "A", Code::NormDice, "2d6", "2D6");
        let d = r.into_diagnostics();
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].line, Some(3));
        assert!(d[0].message.contains("(3 values)"), "{}", d[0].message);
    }
}
