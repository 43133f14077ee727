//! The points a datasheet takes from the points records of the run (issue 26): of the records
//! pricing it in its own faction's list (id exactly `ids::points(edition, publication,
//! subject)`; the others are another faction's list), the newest publication's (its version,
//! then its date; a tie keeps the first in path order) tiers, with that record's sources.
//! The datasheet's own printed points stay in the reconciliation as its sources' readings.
//! Records pricing no datasheet of the run: one `X113` per publication. An enhancement's
//! record (`kind: enhancement`, a points document's `DETACHMENT ENHANCEMENTS`) prices the
//! run's enhancement of its id the same way (newest publication); one without it is counted
//! in an `X113` of its own (never an enhancement record made up without its text).
//!
//! Pure: must not do I/O, and must not compare values (that is the reconciliation's).

use super::merge::Mergeable;
use crate::diag::{Code, Diagnostic};
use crate::ids;
use crate::model::{Datasheet, Enhancement, Points, PointsKind};
use std::collections::BTreeMap;

/// Names an `X113` shows.
const NAMES_SHOWN: usize = 3;

/// Newer sorts higher: the version's numbers, then the date, then earlier in path order.
fn newness(p: &Points) -> (Vec<u32>, Option<&str>, std::cmp::Reverse<Option<&str>>) {
    let file = p.sources.first().map(|s| s.file.as_str());
    (
        p.publication.version_numbers(),
        p.publication.date.as_deref(),
        std::cmp::Reverse(file),
    )
}

/// Gives each datasheet (`datasheets` sorted by id) its newest publication's points; `X113`s
/// into `diagnostics`.
pub fn apply(datasheets: &mut [Datasheet], points: &[Points], diagnostics: &mut Vec<Diagnostic>) {
    let mut newest: BTreeMap<usize, &Points> = BTreeMap::new();
    // Per publication: the names of the records pricing no datasheet, and the first file.
    let mut unpriced: BTreeMap<&str, (Vec<&str>, &str)> = BTreeMap::new();
    for p in points.iter().filter(|p| p.kind == PointsKind::Datasheet) {
        let Ok(i) = datasheets.binary_search_by(|d| d.id.cmp(&p.subject)) else {
            let file = p.sources.first().map_or("", |s| s.file.as_str());
            let entry = unpriced.entry(p.publication.key());
            entry.or_insert((Vec::new(), file)).0.push(&p.name);
            continue;
        };
        let key = p.publication.key();
        if p.id != ids::points(p.edition, key, &p.subject) {
            continue;
        }
        let kept = newest.entry(i).or_insert(p);
        if newness(p) > newness(kept) {
            *kept = p;
        }
    }
    for (i, p) in newest {
        let d = &mut datasheets[i];
        d.points = p.tiers.clone();
        d.sources.extend(p.sources.iter().cloned());
        d.sort_lists();
    }
    report_unpriced(unpriced, "datasheet", diagnostics);
}

/// One `X113` per publication for its records of `what` no record of the run takes.
fn report_unpriced(
    unpriced: BTreeMap<&str, (Vec<&str>, &str)>,
    what: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (publication, (mut names, file)) in unpriced {
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        let more = if names.len() > NAMES_SHOWN {
            ", …"
        } else {
            ""
        };
        let text = format!(
            "{} points records of publication {publication} price no {what} of this run: {}{more}",
            count,
            names[..names.len().min(NAMES_SHOWN)].join(", "),
        );
        diagnostics.push(Diagnostic::new(Code::PointsWithoutDatasheet, text).in_file(file));
    }
}

/// Gives each enhancement of the run (`enhancements` sorted by id) the points of the newest
/// publication's enhancement record of its id; `X113`s (enhancements) into `diagnostics`.
pub fn apply_enhancements(
    enhancements: &mut [Enhancement],
    points: &[Points],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut newest: BTreeMap<usize, &Points> = BTreeMap::new();
    let mut unpriced: BTreeMap<&str, (Vec<&str>, &str)> = BTreeMap::new();
    for p in points.iter().filter(|p| p.kind == PointsKind::Enhancement) {
        let Ok(i) = enhancements.binary_search_by(|e| e.id.cmp(&p.subject)) else {
            let file = p.sources.first().map_or("", |s| s.file.as_str());
            let entry = unpriced.entry(p.publication.key());
            entry.or_insert((Vec::new(), file)).0.push(&p.name);
            continue;
        };
        let kept = newest.entry(i).or_insert(p);
        if newness(p) > newness(kept) {
            *kept = p;
        }
    }
    for (i, p) in newest {
        let Some(cost) = p.tiers.first().map(|t| t.points) else {
            continue;
        };
        let e = &mut enhancements[i];
        e.points = Some(cost);
        e.sources.extend(p.sources.iter().cloned());
    }
    report_unpriced(unpriced, "enhancement", diagnostics);
}
