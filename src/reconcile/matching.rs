//! The matching rules across sources: which records of two sources are one unit, and which
//! weapons of one matched unit are one weapon, when their ids or names differ. No unit or
//! weapon name is written here: the rules read names, keywords and characteristics only.
//!
//! **Units** ([`match_units`]). A datasheet is *unmatched* when every reading of its id comes
//! from one source (see [`super::Source`]). An unmatched datasheet `U` matches an unmatched
//! datasheet `T` of another source when both have the same edition and faction, `T`'s name
//! is a run of whole words at the start or the end of `U`'s name (names compared by
//! [`name_key`]), and the words left over (the *qualifier*) are, together, one of `U`'s own
//! keywords (BattleScribe's `Khorne Soul Grinder`, keyword `Khorne`, matches the export's
//! `Soul Grinder`), and both or neither are an `EPIC HERO` (a named character's own keyword,
//! `Sicarius`, does not make `Captain Sicarius` a reading of `Captain`). A *publication twin* matches too: `T` has `U`'s name and `U`'s id followed
//! by a publication (`~space-wolves-warhammer-legends`: a source printing that name in two
//! publications tells them apart so), and both are Legends or neither is (a faction pack card
//! with the `WARHAMMER LEGENDS` badge is the export's Legends publication's datasheet). A `U` with two or more such `T` is ambiguous and matches none (reported).
//! Every match is reported. One `U` of a source for a `T` is another reading of `T` (its id is
//! `T`'s; the merge policy applies as for any reading). Two or more `U` of one source for one
//! `T` are *variants*: the dataset keeps one datasheet, `T`, with every variant's sources; the
//! variants' values do not enter the merge, and where they differ among themselves the
//! report shows it as a `naming` difference (`variant`), never as a data error.
//!
//! **Weapons** (`compare::view::pair_weapons`). Inside one datasheet, weapons are keyed by [`name_key`].
//! Two keys no reading has both of, each with the same characteristics (type and every
//! characteristic of the edition's profile) in every reading that has it, the two equal, and
//! whose names share their first word, are one weapon (`Master-crafted bolter` /
//! `Master-crafted boltgun`) when each is the other's only such candidate: a `naming`
//! difference.
//!
//! Names are keyed by the comparison core's [`name_key`]; which weapons a datasheet prints on
//! another card is the core's too (`compare::names::printed_elsewhere`).

use crate::compare::names::name_key;
use crate::model::Datasheet;
use std::collections::{BTreeMap, BTreeSet};

/// One datasheet reading as the unit rule sees it.
#[derive(Debug, Clone)]
pub struct Candidate<'a> {
    pub id: &'a str,
    pub source: &'a str,
    pub datasheet: &'a Datasheet,
}

/// A match the unit rule found: `from` (an unmatched id of `source`) is a reading of `to`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct UnitMatch {
    /// The id the datasheet is merged under (`T`).
    pub to: String,
    pub to_name: String,
    /// The unmatched datasheet's own id and name (`U`) and its source.
    pub from: String,
    pub from_name: String,
    pub source: String,
    /// The words of `U`'s name that are not `T`'s (one of `U`'s keywords); for a publication
    /// twin, `~` and `T`'s publication.
    pub qualifier: String,
    /// One of two or more `U` of one source matching the same `T`.
    pub variant: bool,
}

/// What the unit rule decided.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct UnitMatches {
    pub matches: Vec<UnitMatch>,
    /// Unmatched ids that match two or more unmatched ids of other sources: left as they are.
    pub ambiguous: Vec<Ambiguous>,
}

/// An unmatched id with several candidates.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Ambiguous {
    pub id: String,
    pub source: String,
    pub candidates: Vec<String>,
}

/// `inner` as a run of whole words at the start or the end of `outer`: the other words.
fn qualifier(outer: &str, inner: &str) -> Option<String> {
    let o: Vec<&str> = outer.split(' ').collect();
    let i: Vec<&str> = inner.split(' ').collect();
    if inner.is_empty() || i.len() >= o.len() {
        return None;
    }
    if o[o.len() - i.len()..] == i[..] {
        return Some(o[..o.len() - i.len()].join(" "));
    }
    if o[..i.len()] == i[..] {
        return Some(o[i.len()..].join(" "));
    }
    None
}

/// The unit rule over every reading of a run (see the module doc). Readings of one id may
/// repeat (several files of one source); the result is sorted and does not depend on order.
pub fn match_units(readings: &[Candidate<'_>]) -> UnitMatches {
    // id → its first reading (name, faction, edition), and every reading's sources, keywords
    // and Legends badge.
    struct Unit<'a> {
        first: &'a Datasheet,
        sources: BTreeSet<&'a str>,
        key: String,
        keywords: BTreeSet<String>,
        legends: bool,
    }
    let mut units: BTreeMap<&str, Unit<'_>> = BTreeMap::new();
    for r in readings {
        let d = r.datasheet;
        let u = units.entry(r.id).or_insert_with(|| Unit {
            first: d,
            sources: BTreeSet::new(),
            key: name_key(d.name.as_deref().unwrap_or("")),
            keywords: BTreeSet::new(),
            legends: false,
        });
        u.legends |= d.legends;
        u.sources.insert(r.source);
        u.keywords.extend(d.keywords.iter().map(|k| name_key(k)));
    }
    let unmatched: Vec<(&str, &Unit<'_>)> = units
        .iter()
        .filter(|(_, u)| u.sources.len() == 1 && !u.key.is_empty())
        .map(|(id, u)| (*id, u))
        .collect();
    let mut out = UnitMatches::default();
    for (uid, u) in &unmatched {
        let source = u.sources.iter().next().copied().unwrap_or("");
        let mut cands: Vec<(&str, &Unit<'_>, String)> = Vec::new();
        for (tid, t) in &unmatched {
            if tid == uid
                || t.sources.contains(source)
                || t.first.faction != u.first.faction
                || t.first.edition != u.first.edition
            {
                continue;
            }
            // A publication twin: the same name, the id with a publication (`~…`), Legends or
            // not alike.
            if t.key == u.key {
                if let Some(publication) = tid
                    .strip_prefix(*uid)
                    .and_then(|rest| rest.strip_prefix('~'))
                    .filter(|_| t.legends == u.legends)
                {
                    cands.push((tid, t, format!("~{publication}")));
                }
                continue;
            }
            if t.key.len() >= u.key.len() || !(u.key.starts_with(&t.key) || u.key.ends_with(&t.key))
            {
                continue;
            }
            // An EPIC HERO is one named character: `Captain Sicarius` (keyword `Sicarius`) is
            // not a reading of `Captain`.
            let epic = |x: &Unit<'_>| x.keywords.contains("epic hero");
            if epic(u) != epic(t) {
                continue;
            }
            if let Some(q) = qualifier(&u.key, &t.key) {
                if u.keywords.contains(&q) {
                    cands.push((tid, t, q));
                }
            }
        }
        match &cands[..] {
            [] => {}
            [(tid, t, q)] => out.matches.push(UnitMatch {
                to: tid.to_string(),
                to_name: t.first.name.clone().unwrap_or_default(),
                from: uid.to_string(),
                from_name: u.first.name.clone().unwrap_or_default(),
                source: source.to_string(),
                qualifier: q.clone(),
                variant: false,
            }),
            _ => out.ambiguous.push(Ambiguous {
                id: uid.to_string(),
                source: source.to_string(),
                candidates: cands.iter().map(|(t, _, _)| t.to_string()).collect(),
            }),
        }
    }
    // Two or more `U` of one source for one `T` are variants.
    let mut per_target: BTreeMap<(String, String), usize> = BTreeMap::new();
    for m in &out.matches {
        *per_target
            .entry((m.to.clone(), m.source.clone()))
            .or_default() += 1;
    }
    for m in &mut out.matches {
        let n = per_target.get(&(m.to.clone(), m.source.clone()));
        m.variant = n.is_some_and(|n| *n > 1);
    }
    out.matches.sort();
    out.ambiguous.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualifiers() {
        assert_eq!(
            qualifier("khorne soul grinder", "soul grinder").as_deref(),
            Some("khorne")
        );
        assert_eq!(
            qualifier("soul grinder of khorne", "soul grinder").as_deref(),
            Some("of khorne")
        );
        assert_eq!(qualifier("soul grinderx", "soul grinder"), None);
        assert_eq!(qualifier("soul grinder", "soul grinder"), None);
    }

    fn sheet(name: &str, keywords: &[&str]) -> Datasheet {
        let mut d = Datasheet::empty(crate::model::Edition::Eleventh);
        d.name = Some(name.to_string());
        d.faction = Some("Space Marines".to_string());
        d.keywords = keywords.iter().map(|k| k.to_string()).collect();
        d
    }

    #[test]
    fn a_qualifier_keyword_matches_but_a_named_character_is_not_a_reading_of_its_rank() {
        let grinder = sheet("Khorne Soul Grinder", &["Daemon", "Khorne"]);
        let generic = sheet("Soul Grinder", &["Daemon"]);
        let sicarius = sheet("Captain Sicarius", &["Epic Hero", "Captain", "Sicarius"]);
        let captain = sheet("Captain", &["Character", "Captain"]);
        let c = |id, source, datasheet| Candidate {
            id,
            source,
            datasheet,
        };
        let m = match_units(&[
            c("a:khorne-soul-grinder", "bsdata", &grinder),
            c("a:soul-grinder", "export", &generic),
            c("a:captain-sicarius", "bsdata", &sicarius),
            c("a:captain", "game-datacards", &captain),
        ]);
        let pairs: Vec<(&str, &str)> = m
            .matches
            .iter()
            .map(|x| (x.from.as_str(), x.to.as_str()))
            .collect();
        assert_eq!(pairs, [("a:khorne-soul-grinder", "a:soul-grinder")]);
    }
}
