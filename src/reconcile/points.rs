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

/// Per record of `records` (sorted by id; its index, found by the id a points record prices),
/// the newest publication's points record of `kind` pricing it; a datasheet's only in its own
/// faction's list. The records pricing none: one `X113` per publication into `diagnostics`.
fn newest<'p, T: Mergeable>(
    points: &'p [Points],
    kind: PointsKind,
    records: &[T],
    diagnostics: &mut Vec<Diagnostic>,
) -> BTreeMap<usize, &'p Points> {
    let find = |id: &str| records.binary_search_by(|r| r.id().cmp(id)).ok();
    let mut newest: BTreeMap<usize, &Points> = BTreeMap::new();
    // Per publication: the names of the records pricing no record, and the first file.
    let mut unpriced: BTreeMap<&str, (Vec<&str>, &str)> = BTreeMap::new();
    for p in points.iter().filter(|p| p.kind == kind) {
        let key = p.publication.key();
        let Some(i) = find(&p.subject) else {
            let file = p.sources.first().map_or("", |s| s.file.as_str());
            unpriced
                .entry(key)
                .or_insert((Vec::new(), file))
                .0
                .push(&p.name);
            continue;
        };
        if kind == PointsKind::Datasheet && p.id != ids::points(p.edition, key, &p.subject) {
            continue;
        }
        let kept = newest.entry(i).or_insert(p);
        if newness(p) > newness(kept) {
            *kept = p;
        }
    }
    let what = match kind {
        PointsKind::Datasheet => "datasheet",
        PointsKind::Enhancement => "enhancement",
    };
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
    newest
}

/// Gives each datasheet (`datasheets` sorted by id) its newest publication's points; `X113`s
/// into `diagnostics`.
pub fn apply(datasheets: &mut [Datasheet], points: &[Points], diagnostics: &mut Vec<Diagnostic>) {
    for (i, p) in newest(points, PointsKind::Datasheet, datasheets, diagnostics) {
        let d = &mut datasheets[i];
        d.points = p.tiers.clone();
        d.sources.extend(p.sources.iter().cloned());
        d.sort_lists();
    }
}

/// Gives each enhancement (`enhancements` sorted by id) the cost of its newest publication's
/// points record; `X113`s into `diagnostics`.
pub fn apply_enhancements(
    enhancements: &mut [Enhancement],
    points: &[Points],
    diagnostics: &mut Vec<Diagnostic>,
) {
    for (i, p) in newest(points, PointsKind::Enhancement, enhancements, diagnostics) {
        let Some(cost) = p.tiers.first().map(|t| t.points) else {
            continue;
        };
        let e = &mut enhancements[i];
        e.points = Some(cost);
        e.sources.extend(p.sources.iter().cloned());
    }
}
