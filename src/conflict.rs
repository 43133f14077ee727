//! Two sources, one record, different values: what differs, and the diagnostic that says so.
//!
//! Pure. Used by `pipeline` when it merges records with the same id from several sources
//! (the same unit scraped on two dates). Owns the list of compared fields and the wording of
//! `X110`; the rule for which source wins (the higher publication version the page cites; on
//! a tie or when unknown, the first in path order) is applied by the caller. Profiles are
//! compared characteristic by characteristic in their edition's order.

use crate::diag::{Code, Diagnostic};
use crate::model::{Datasheet, Stratagem};

/// (field, first value, second value) for every compared field that differs.
pub fn datasheet_differences(a: &Datasheet, b: &Datasheet) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut cmp = |field: &str, x: String, y: String| {
        if x != y {
            out.push((field.to_string(), x, y));
        }
    };
    let points = |d: &Datasheet| {
        d.points
            .iter()
            .map(|p| format!("{}×{}", p.models, p.points))
            .collect::<Vec<_>>()
            .join(", ")
    };
    cmp("points", points(a), points(b));
    let models = |d: &Datasheet| {
        d.models
            .iter()
            .map(|m| {
                m.characteristics
                    .iter()
                    .map(|(_, v)| v.unwrap_or("-"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    cmp("profiles", models(a), models(b));
    cmp(
        "invulnerable save",
        a.invulnerable_save.clone().unwrap_or_default(),
        b.invulnerable_save.clone().unwrap_or_default(),
    );
    let weapons = |d: &Datasheet| {
        let mut w: Vec<String> = d
            .weapons
            .iter()
            .map(|w| {
                let values: Vec<&str> = w
                    .characteristics
                    .iter()
                    .map(|(_, v)| v.unwrap_or("-"))
                    .collect();
                format!(
                    "{} {} [{}]",
                    w.name,
                    values.join(" "),
                    w.keywords.join(", ")
                )
            })
            .collect();
        w.sort();
        w
    };
    let (wa, wb) = (weapons(a), weapons(b));
    let only_a: Vec<&String> = wa.iter().filter(|w| !wb.contains(w)).collect();
    let only_b: Vec<&String> = wb.iter().filter(|w| !wa.contains(w)).collect();
    if !only_a.is_empty() || !only_b.is_empty() {
        let j = |v: Vec<&String>| v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("; ");
        cmp("weapons", j(only_a), j(only_b));
    }
    let names = |v: &[String]| {
        let mut v: Vec<String> = v.iter().map(|k| k.to_uppercase()).collect();
        v.sort();
        v.join(", ")
    };
    cmp("keywords", names(&a.keywords), names(&b.keywords));
    let abilities = |d: &Datasheet| {
        names(
            &d.abilities
                .iter()
                .map(|x| x.name.clone())
                .collect::<Vec<_>>(),
        )
    };
    cmp("abilities", abilities(a), abilities(b));
    out
}

/// Differences between two readings of one stratagem (CP and category).
pub fn stratagem_differences(a: &Stratagem, b: &Stratagem) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    if let (Some(x), Some(y)) = (a.cp, b.cp) {
        if x != y {
            out.push(("CP".to_string(), format!("{x}CP"), format!("{y}CP")));
        }
    }
    if let (Some(x), Some(y)) = (&a.category, &b.category) {
        if x != y {
            out.push(("category".to_string(), x.clone(), y.clone()));
        }
    }
    out
}

fn version(v: Option<(u32, u32)>) -> String {
    match v {
        Some((a, b)) => format!("v{a}.{b}"),
        None => "no version".to_string(),
    }
}

/// `X110`: both values, both files, and which was kept and why.
pub fn diagnostic(
    record: &str,
    field: String,
    (old, old_file, old_v): (&str, &str, Option<(u32, u32)>),
    (new, new_file, new_v): (&str, &str, Option<(u32, u32)>),
    newer: bool,
) -> Diagnostic {
    let (kept, why) = if newer {
        (new, format!("{} > {}", version(new_v), version(old_v)))
    } else if old_v == new_v {
        (
            old,
            format!("same version ({}); first in path order", version(old_v)),
        )
    } else {
        (old, format!("{} > {}", version(old_v), version(new_v)))
    };
    let show = |s: &str| {
        if s.is_empty() {
            "(none)".to_string()
        } else {
            s.to_string()
        }
    };
    Diagnostic::new(
        Code::ConflictingValues,
        format!(
            "{record} {field}: {} ({old_file}) vs {} ({new_file}); kept {} (faction pack {why})",
            show(old),
            show(new),
            show(kept)
        ),
    )
    .in_file(new_file)
}
