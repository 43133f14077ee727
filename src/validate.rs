//! Dataset validation by simulation: every weapon profile of every datasheet is run through
//! the exact engine against a panel of reference targets (`schemas/targets.yaml`), giving an
//! expected-damage table and a diagnostic for every profile that cannot be run.
//!
//! Owns the reference-target panel format, the mapping of simulator errors to `V3xx`
//! diagnostics and the CSV rendering. Pure functions only: no file I/O, no printing (the CLI
//! and `ingest` do that), and it never panics on dataset content.

use crate::diag::{sort_diagnostics, Code, Diagnostic};
use crate::model::Datasheet;
use crate::simulate::keyword::{parse_threshold, KeywordError};
use crate::simulate::profile::{bearer_profile, weapon_from_profile, ProfileError};
use crate::simulate::{self, Conditions, SimError, Target};
use serde::Deserialize;
use std::collections::BTreeSet;

/// The default panel, embedded so the binary works anywhere.
pub const DEFAULT_PANEL: &str = include_str!("../schemas/targets.yaml");

/// One reference target as written in `targets.yaml`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ReferenceTarget {
    pub name: String,
    pub models: u32,
    #[serde(rename = "T")]
    pub toughness: u32,
    /// `3+`, or `-` for no armour save.
    #[serde(rename = "Sv")]
    pub save: String,
    #[serde(default)]
    pub invuln: Option<String>,
    #[serde(rename = "W")]
    pub wounds: u32,
    #[serde(default)]
    pub fnp: Option<String>,
    #[serde(default)]
    pub keywords: Vec<String>,
}

impl ReferenceTarget {
    /// The simulator's view of this target.
    pub fn to_target(&self) -> Result<Target, String> {
        let threshold = |what: &str, s: &str| {
            parse_threshold(s).ok_or_else(|| format!("{what} not understood: {s:?}"))
        };
        let save = match self.save.trim() {
            "-" => None,
            s => Some(threshold("Sv", s)?),
        };
        let invuln = self
            .invuln
            .as_deref()
            .map(|s| threshold("invuln", s))
            .transpose()?;
        let fnp = self
            .fnp
            .as_deref()
            .map(|s| threshold("fnp", s))
            .transpose()?;
        if !(1..=200).contains(&self.models) {
            return Err(format!("models {} out of range (1 to 200)", self.models));
        }
        if !(1..=100).contains(&self.toughness) {
            return Err(format!("T {} out of range (1 to 100)", self.toughness));
        }
        if !(1..=100).contains(&self.wounds) {
            return Err(format!("W {} out of range (1 to 100)", self.wounds));
        }
        Ok(Target {
            models: self.models,
            toughness: self.toughness,
            save,
            invuln,
            wounds: self.wounds,
            fnp,
            keywords: self.keywords.clone(),
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PanelFile {
    targets: Vec<ReferenceTarget>,
}

/// A panel that cannot be used, with the place in the YAML (1-based; 0 when unknown).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {message}")]
pub struct PanelError {
    pub line: u64,
    pub column: u64,
    pub message: String,
}

/// Reads a panel of reference targets. Every target must convert ([`ReferenceTarget::to_target`])
/// and names must be unique.
pub fn load_panel(yaml: &str) -> Result<Vec<ReferenceTarget>, PanelError> {
    let file: PanelFile = serde_saphyr::from_str(yaml).map_err(|e| {
        let (line, column) = e
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((0, 0));
        PanelError {
            line,
            column,
            message: e.to_string(),
        }
    })?;
    // Semantic errors point at the line that names the target.
    let line_of = |name: &str| -> u64 {
        yaml.lines()
            .position(|l| l.contains("name:") && l.contains(name))
            .map(|i| i as u64 + 1)
            .unwrap_or(0)
    };
    let mut seen = BTreeSet::new();
    for t in &file.targets {
        if !seen.insert(t.name.as_str()) {
            return Err(PanelError {
                line: line_of(&t.name),
                column: 1,
                message: format!("duplicate target name {:?}", t.name),
            });
        }
        if let Err(m) = t.to_target() {
            return Err(PanelError {
                line: line_of(&t.name),
                column: 1,
                message: format!("target {:?}: {m}", t.name),
            });
        }
    }
    if file.targets.is_empty() {
        return Err(PanelError {
            line: 1,
            column: 1,
            message: "no targets".into(),
        });
    }
    Ok(file.targets)
}

/// The default embedded panel.
pub fn default_panel() -> Vec<ReferenceTarget> {
    load_panel(DEFAULT_PANEL).unwrap_or_default()
}

/// Expected damage of one weapon profile (one attacking model) against one reference target.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedDamageRow {
    pub datasheet: String,
    pub weapon: String,
    pub target: String,
    pub expected_damage: f64,
    pub expected_models_destroyed: f64,
}

fn profile_code(e: &ProfileError) -> Code {
    match e {
        ProfileError::Dice { .. } | ProfileError::Keyword(KeywordError::Dice { .. }) => {
            Code::DiceUnparsed
        }
        ProfileError::Keyword(KeywordError::Unknown(_)) => Code::UnknownWeaponKeyword,
        ProfileError::Missing { .. }
        | ProfileError::Characteristic { .. }
        | ProfileError::Keyword(_) => Code::CharacteristicUnusable,
    }
}

fn sim_code(e: &SimError) -> Code {
    match e {
        SimError::SkillNotApplicable => Code::SkillNotApplicable,
        SimError::IndirectTorrent | SimError::Invalid { .. } | SimError::TooMuchWork { .. } => {
            Code::ScenarioRefused
        }
    }
}

/// Runs every weapon profile (fired by one model, 10th edition rules, no conditions) against
/// every target of the panel. Rows are sorted by datasheet, weapon, target; diagnostics are
/// sorted and deduplicated. Never panics.
pub fn validate_datasheets(
    datasheets: &[Datasheet],
    panel: &[ReferenceTarget],
) -> (Vec<ExpectedDamageRow>, Vec<Diagnostic>) {
    let mut rows = Vec::new();
    let mut diags = Vec::new();
    let mut targets = Vec::new();
    for rt in panel {
        match rt.to_target() {
            Ok(t) => targets.push((rt.name.as_str(), t)),
            Err(m) => diags.push(Diagnostic::new(
                Code::ReferenceTargetUnusable,
                format!("reference target '{}': {m}", rt.name),
            )),
        }
    }
    for ds in datasheets {
        let mut reported_keywords = BTreeSet::new();
        let file = ds.sources.first().map(|p| p.file.as_str());
        for wp in &ds.weapons {
            let diag = |code: Code, msg: String| {
                let d = Diagnostic::new(
                    code,
                    format!("datasheet {}, weapon '{}': {msg}", ds.id, wp.name),
                );
                match file {
                    _ if !wp.at.file.is_empty() => d.at(&wp.at.file, wp.at.line),
                    // A contract-v1 profile: its line in the datasheet's first source.
                    Some(f) => d.at(f, wp.at.line),
                    None => d,
                }
            };
            // 9th edition: skill, melee attacks and `User`/`+N` strength from the bearer
            let (weapon, unknown) =
                match bearer_profile(ds, wp).and_then(|w| weapon_from_profile(&w)) {
                    Ok(x) => x,
                    Err(e) => {
                        diags.push(diag(profile_code(&e), e.to_string()));
                        continue;
                    }
                };
            for k in unknown {
                if reported_keywords.insert(k.to_ascii_uppercase()) {
                    diags.push(diag(
                        Code::UnknownWeaponKeyword,
                        format!("unknown weapon keyword {k:?} ignored"),
                    ));
                }
            }
            let volleys = simulate::volleys(
                &weapon,
                targets.iter().map(|(_, t)| t),
                conditions(ds),
                Some(ds),
            );
            for ((name, _), volley) in targets.iter().zip(volleys) {
                match volley {
                    Ok(o) => rows.push(ExpectedDamageRow {
                        datasheet: ds.id.clone(),
                        weapon: wp.name.clone(),
                        target: name.to_string(),
                        expected_damage: o.expected_damage,
                        expected_models_destroyed: o.expected_models_destroyed,
                    }),
                    Err(e) => {
                        diags.push(diag(sim_code(&e), e.to_string()));
                        break;
                    }
                }
            }
        }
    }
    rows.sort_by(|a, b| {
        (a.datasheet.as_str(), a.weapon.as_str(), a.target.as_str()).cmp(&(
            b.datasheet.as_str(),
            b.weapon.as_str(),
            b.target.as_str(),
        ))
    });
    sort_diagnostics(&mut diags);
    (rows, diags)
}

/// The default conditions, under the rules of the datasheet's edition.
fn conditions(ds: &Datasheet) -> Conditions {
    let rules = match ds.edition {
        crate::model::Edition::Ninth => simulate::Rules::Ninth,
        crate::model::Edition::Eleventh => simulate::Rules::Eleventh,
        _ => simulate::Rules::Tenth,
    };
    Conditions {
        rules,
        ..Conditions::default()
    }
}

/// `datasheet,weapon,target,expected_damage,expected_models_destroyed`, one line per row in
/// the given order, numbers with 4 decimals (deterministic output), written by the `csv`
/// crate's writer (a field is quoted when it needs to be).
pub fn expected_damage_csv(rows: &[ExpectedDamageRow]) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    let header = [
        "datasheet",
        "weapon",
        "target",
        "expected_damage",
        "expected_models_destroyed",
    ];
    // Writing to memory cannot fail; a failed record would only be missing from the table.
    let _ = w.write_record(header);
    for r in rows {
        let _ = w.write_record([
            r.datasheet.as_str(),
            r.weapon.as_str(),
            r.target.as_str(),
            &format!("{:.4}", r.expected_damage),
            &format!("{:.4}", r.expected_models_destroyed),
        ]);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_panel_loads() {
        let p = load_panel(DEFAULT_PANEL).unwrap();
        assert!(p.len() >= 5);
        assert!(p
            .iter()
            .any(|t| t.toughness == 12 && t.wounds == 16 && t.fnp.as_deref() == Some("5+")));
    }

    #[test]
    fn panel_errors_carry_a_location() {
        let e = load_panel("targets:\n  - name: x\n    models: ten\n").unwrap_err();
        assert!(e.line >= 2, "{e}");
        let e =
            load_panel("targets:\n  - name: bad\n    models: 1\n    T: 0\n    Sv: 3+\n    W: 1\n")
                .unwrap_err();
        assert_eq!(e.line, 2, "{e}");
    }

    #[test]
    fn csv_quotes_fields() {
        let rows = vec![ExpectedDamageRow {
            datasheet: "a".into(),
            weapon: "Gun, \"big\"".into(),
            target: "t".into(),
            expected_damage: 1.0 / 3.0,
            expected_models_destroyed: 0.0,
        }];
        assert_eq!(
            expected_damage_csv(&rows),
            "datasheet,weapon,target,expected_damage,expected_models_destroyed\na,\"Gun, \"\"big\"\"\",t,0.3333,0.0000\n"
        );
    }
}
