//! The gate of `cogitator diff --gate POLICY`: a YAML policy (`schemas/gate.schema.json`, the
//! default `schemas/gate-default.yaml`) saying which changes of a [`DatasetDiff`] fail, and an
//! allowlist of accepted changes by record id and field, each with a reason.
//!
//! ```yaml
//! fail_on:
//!   removed_records: true          # a record removed (a rename is not a removal)
//!   removed_weapon_profiles: true  # a weapon profile removed from a datasheet
//!   became_null: true              # a field that had a value and became null or empty
//!   new_error_diagnostics: true    # an error diagnostic NEW has and OLD had not
//!   expected_damage_change: 2.0    # |Δ expected damage| per volley against any reference target
//!   crosscheck_agreement_below: 99.5  # percent; needs --wahapedia-csv
//!   categories: [points]           # any change of meaning in these categories
//! allow:
//!   - record: "10e:tyranids:carnifexes"   # exact id, or a prefix ending in `*`
//!     field: points                       # a path prefix (`weapons[Heavy venom cannon]`); omitted: the whole record
//!     reason: "faction pack 1.4 points"
//! ```
//!
//! Read with serde-saphyr; errors carry the file, line and column. Pure apart from that: the
//! caller reads the file and decides the exit code.

use super::dataset::{DatasetDiff, Entry, Subject};
use super::ChangeKind;
use crate::normalize::schema::SchemaError;
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;
use strum::VariantArray;

/// The default policy, embedded.
pub const DEFAULT_POLICY: &str = include_str!("../../schemas/gate-default.yaml");

/// What fails (a rule left out is off).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FailOn {
    pub removed_records: bool,
    pub removed_weapon_profiles: bool,
    pub became_null: bool,
    pub new_error_diagnostics: bool,
    /// A finite number, at least 0 (checked by [`Policy::parse`]).
    pub expected_damage_change: Option<Spanned<f64>>,
    /// A finite percentage, 0 to 100 (checked by [`Policy::parse`]).
    pub crosscheck_agreement_below: Option<Spanned<f64>>,
    pub categories: Vec<Spanned<String>>,
}

/// One accepted change.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Allow {
    pub record: Spanned<String>,
    pub field: Option<String>,
    pub reason: Spanned<String>,
}

/// A gate policy.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Policy {
    pub fail_on: FailOn,
    pub allow: Vec<Allow>,
    #[serde(skip)]
    categories: Vec<Subject>,
}

/// A mistake in a policy file, at its place (1-based; 0 when unknown).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {message}")]
pub struct PolicyError {
    pub file: String,
    pub line: u64,
    pub column: u64,
    pub message: String,
}

/// One change (or diagnostic, or figure) that breaks a rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Violation {
    /// The policy rule: `removed_records`, `expected_damage_change`, `categories`, …
    pub rule: String,
    pub record: Option<String>,
    pub path: Option<String>,
    /// What broke it, for people.
    pub message: String,
    /// Index in [`DatasetDiff::changes`], when a change broke it.
    #[serde(skip)]
    pub change: Option<usize>,
}

impl Violation {
    /// A violation no one change made (a new error diagnostic, a figure).
    fn global(rule: &str, message: String) -> Violation {
        Violation {
            rule: rule.to_string(),
            record: None,
            path: None,
            message,
            change: None,
        }
    }
}

/// The gate's verdict.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Verdict {
    pub passed: bool,
    pub violations: Vec<Violation>,
    /// Changes that would have failed and were accepted by the allowlist: (rule, change, reason).
    pub allowed: Vec<Allowed>,
}

/// A change the allowlist accepted.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Allowed {
    pub rule: String,
    pub record: String,
    pub path: String,
    pub reason: String,
}

impl Policy {
    /// Reads a policy; `file` names it in errors. Every value is checked: a threshold must be
    /// a finite number in its range (`.nan` or `.inf` would turn a rule off), and a policy
    /// with no rule (an empty file, or every rule off) is a mistake at line 1, as it would
    /// pass every diff.
    pub fn parse(file: &str, yaml: &str) -> Result<Policy, PolicyError> {
        let err = |(line, column): (u64, u64), message: String| PolicyError {
            file: file.to_string(),
            line,
            column,
            message,
        };
        if yaml
            .lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
        {
            return Err(err(
                (1, 1),
                "the policy is empty: it would pass every diff (give `fail_on:` rules)".into(),
            ));
        }
        // The library's message and place, shaped as the schema files' errors are.
        let mut p: Policy = serde_saphyr::from_str(yaml).map_err(|e| {
            let s = SchemaError::yaml(file, &e);
            err((s.line, s.column), s.message)
        })?;
        for c in &p.fail_on.categories {
            let Ok(cat) = c.value.parse::<Subject>() else {
                let names: Vec<&str> = Subject::VARIANTS.iter().map(|c| c.as_str()).collect();
                let names = names.join(", ");
                let message = format!("unknown category `{}` (one of: {names})", c.value);
                return Err(err(place(c), message));
            };
            p.categories.push(cat);
        }
        for a in &p.allow {
            for (value, what) in [(&a.reason, "a reason"), (&a.record, "a record id")] {
                if value.value.trim().is_empty() {
                    let message = format!("an allowed change needs {what}");
                    return Err(err(place(value), message));
                }
            }
        }
        let f = &p.fail_on;
        for (threshold, range, what) in [
            (
                &f.expected_damage_change,
                0.0..=f64::MAX,
                "expected_damage_change must be a finite number, 0 or more",
            ),
            (
                &f.crosscheck_agreement_below,
                0.0..=100.0,
                "crosscheck_agreement_below must be a percentage (0 to 100)",
            ),
        ] {
            if let Some(t) = threshold.as_ref().filter(|t| !range.contains(&t.value)) {
                return Err(err(place(t), format!("{what}, not {}", t.value)));
            }
        }
        // Every rule off is `FailOn`'s default (a rule left out is off).
        if *f == FailOn::default() {
            return Err(err(
                (1, 1),
                "the policy has no rule on: it would pass every diff (turn on a `fail_on:` rule)"
                    .into(),
            ));
        }
        Ok(p)
    }

    /// The allowlist entry accepting a change at `record`/`path`, if any.
    fn allows(&self, record: &str, path: &str) -> Option<&Allow> {
        self.allow.iter().find(|a| {
            let r = &a.record.value;
            let rec_ok = r
                .strip_suffix('*')
                .map_or(record == r, |p| record.starts_with(p));
            let under = |f: &String| {
                let rest = path.strip_prefix(f.as_str());
                path == f || rest.is_some_and(|r| r.starts_with('.') || r.starts_with('['))
            };
            rec_ok && a.field.as_ref().map_or(true, under)
        })
    }

    /// The rules a change breaks, with a message each.
    fn broken(&self, e: &Entry) -> Vec<(&'static str, String)> {
        let f = &self.fail_on;
        let mut out = Vec::new();
        if !e.meaning {
            return out;
        }
        let whole = e.path.is_empty();
        if f.removed_records && whole && e.kind == ChangeKind::Removed {
            out.push((
                "removed_records",
                format!("{} {} removed", e.record_type, e.record),
            ));
        }
        if f.removed_weapon_profiles
            && e.kind == ChangeKind::Removed
            && e.category == Subject::WeaponProfile
            && e.field_path.0.len() == 2
        {
            out.push(("removed_weapon_profiles", e.human.clone()));
        }
        if f.became_null && e.became_null {
            out.push(("became_null", e.human.clone()));
        }
        let limit = f.expected_damage_change.as_ref().map(|s| s.value);
        if let (Some(limit), Some(d)) = (limit, e.headline_damage()) {
            if d.delta.abs() > limit {
                out.push((
                    "expected_damage_change",
                    format!(
                        "{}: {:+.2} expected damage per volley against {} (limit {limit})",
                        e.human, d.delta, d.target
                    ),
                ));
            }
        }
        if self.categories.contains(&e.category) {
            out.push((
                "categories",
                format!("{} ({})", e.human, e.category.as_str()),
            ));
        }
        out
    }

    /// Applies the policy to a diff; `agreement` is the crosscheck agreement of NEW (percent,
    /// changes since the export set aside) when it was computed.
    pub fn check(&self, diff: &DatasetDiff, agreement: Option<f64>) -> Verdict {
        let mut v = Verdict::default();
        let mut damage_seen = std::collections::BTreeSet::new();
        for (i, e) in diff.changes.iter().enumerate() {
            for (rule, message) in self.broken(e) {
                // One expected-damage violation per weapon, not per changed field.
                if rule == "expected_damage_change"
                    && !damage_seen.insert((e.record.clone(), e.weapon().map(str::to_string)))
                {
                    continue;
                }
                match self.allows(&e.record, &e.path) {
                    Some(a) => v.allowed.push(Allowed {
                        rule: rule.to_string(),
                        record: e.record.clone(),
                        path: e.path.clone(),
                        reason: a.reason.value.clone(),
                    }),
                    None => v.violations.push(Violation {
                        rule: rule.to_string(),
                        record: Some(e.record.clone()),
                        path: Some(e.path.clone()),
                        message,
                        change: Some(i),
                    }),
                }
            }
        }
        if self.fail_on.new_error_diagnostics {
            for d in &diff.new_errors {
                let file = d.file.as_deref().map(|f| format!("{f}: "));
                let message = format!("{} {}{}", d.code, file.unwrap_or_default(), d.message);
                v.violations
                    .push(Violation::global("new_error_diagnostics", message));
            }
        }
        let limit = self.fail_on.crosscheck_agreement_below.as_ref();
        if let (Some(limit), Some(a)) = (limit.map(|s| s.value), agreement) {
            if a < limit {
                let message = format!("crosscheck agreement {a:.2}% is below {limit}%");
                v.violations
                    .push(Violation::global("crosscheck_agreement_below", message));
            }
        }
        v.passed = v.violations.is_empty();
        v
    }
}

/// Where a value of the policy file is (line, column; 1-based).
fn place<T>(s: &Spanned<T>) -> (u64, u64) {
    (s.referenced.line(), s.referenced.column())
}
