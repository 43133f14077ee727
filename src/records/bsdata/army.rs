//! A catalogue's army content → detachments, their rules, and enhancements.
//!
//! - **Detachments**: the entries of a group named `Detachment`/`Detachments` (BattleScribe's
//!   detachment choice, a root `upgrade`); each is a [`Detachment`] with its name, and the
//!   `rule`s it holds (not hidden) are its detachment rules ([`Rule`] of kind `detachment`,
//!   named, with their text).
//! - **Enhancements**: the `upgrade` entries under a group named `Enhancements` (and its
//!   subgroups), each an [`Enhancement`] with its name, its points (`pts` cost; absent when the
//!   entry has none) and its text (the first text profile's, else its first rule's). Its
//!   detachment is the one a `set hidden` modifier of the entry or of an enclosing group waits
//!   for (`lessThan 1` of a detachment entry, `notInstanceOf` it), else the name of the subgroup
//!   it sits in without ` Enhancements` (`Warpbane Task Force Enhancements`), else none.
//!   Entries with another cost than points (Crusade) are not enhancements, nor are the game
//!   system's own groups linked into every faction (Boarding Actions).
//!
//! Every record has the file and line of its element; nothing is read from names alone but the
//! subgroup fallback above. Walks use explicit stacks (never recursion on the input's depth).

use super::tree::Tree;
use super::{Kind, Store};
use crate::ids;
use crate::model::{Detachment, Enhancement, Rule};
use crate::source::{Location, Provenance};
use std::collections::{HashMap, HashSet};

use super::At;

/// The army records of a store, each with the file it was read from.
#[derive(Debug, Default)]
pub struct Army {
    pub detachments: Vec<(usize, Detachment)>,
    pub rules: Vec<(usize, Rule)>,
    pub enhancements: Vec<(usize, Enhancement)>,
}

fn name_of(t: &Tree, n: usize) -> &str {
    t.node(n).attr("name").unwrap_or("").trim()
}

fn is_group_named(t: &Tree, n: usize, names: &[&str]) -> bool {
    let node = t.node(n);
    node.tag == "selectionEntryGroup" && names.iter().any(|x| name_of(t, n).eq_ignore_ascii_case(x))
}

/// The text of an entry: its first single-text profile's, else its first rule's description.
fn entry_text(t: &Tree, e: usize) -> Option<(String, u32)> {
    for p in t.items(e, "profiles", "profile") {
        let chars: Vec<usize> = t.items(p, "characteristics", "characteristic").collect();
        if let [c] = chars.as_slice() {
            let text = super::plain_text(t.node(*c).text.trim());
            if !text.is_empty() {
                return Some((text, t.node(p).line));
            }
        }
    }
    t.items(e, "rules", "rule").find_map(|r| {
        let text = super::rule_text(t, r);
        (!text.is_empty()).then(|| (text, t.node(r).line))
    })
}

/// The ids a `set hidden true` modifier of `n` waits for: the `childId` of its conditions that
/// hold while that entry is not chosen (`lessThan 1`, `equalTo 0`, `notInstanceOf`).
fn hidden_until(t: &Tree, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    for m in t.items(n, "modifiers", "modifier") {
        let mn = t.node(m);
        if mn.attr("type") != Some("set")
            || mn.attr("field") != Some("hidden")
            || mn.attr("value") != Some("true")
        {
            continue;
        }
        let mut stack = vec![m];
        while let Some(x) = stack.pop() {
            for c in t.items(x, "conditions", "condition") {
                let c = t.node(c);
                let waits = match c.attr("type") {
                    Some("lessThan") => c.attr("value") == Some("1"),
                    Some("equalTo") => c.attr("value") == Some("0"),
                    Some("notInstanceOf") => true,
                    _ => false,
                };
                if waits {
                    out.extend(c.attr("childId").map(str::to_string));
                }
            }
            stack.extend(t.items(x, "conditionGroups", "conditionGroup"));
        }
    }
    out
}

/// Reads the detachments, detachment rules and enhancements of every catalogue of the store.
pub fn read(store: &Store) -> Army {
    let mut army = Army::default();
    let detachments = detachments(store, &mut army);
    enhancements(store, &detachments, &mut army);
    army
}

/// Every group named one of `names` in a catalogue or library (not the game system), with the
/// file's index and faction.
fn groups_named<'s>(
    store: &'s Store,
    names: &'s [&'s str],
) -> impl Iterator<Item = (usize, Option<String>, usize)> + 's {
    store
        .files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.kind != Kind::GameSystem)
        .flat_map(move |(fi, f)| {
            let faction = super::faction_of_file(store, fi);
            (0..f.tree.nodes.len())
                .filter(move |&g| is_group_named(&f.tree, g, names))
                .map(move |g| (fi, faction.clone(), g))
        })
}

/// The detachments in `Detachment` groups and their rules, into `army`. Returns the
/// detachment entries' names by entry id (enhancements name the detachment they wait for).
fn detachments(store: &Store, army: &mut Army) -> HashMap<String, String> {
    let mut names: HashMap<String, String> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut seen_rules: HashSet<String> = HashSet::new();
    for (fi, faction, g) in groups_named(store, &["Detachment", "Detachments"]) {
        let f = &store.files[fi];
        if f.tree.node(g).attr("hidden") == Some("true") {
            continue;
        }
        for (e, link) in store.entries_of((fi, g)) {
            let ef = &store.files[e.0];
            let et = &ef.tree;
            let en = et.node(e.1);
            let hidden = en.attr("hidden") == Some("true")
                || link.is_some_and(|l| store.node(l).attr("hidden") == Some("true"));
            if hidden || en.attr("type") != Some("upgrade") {
                continue;
            }
            let name = name_of(et, e.1).to_string();
            if name.is_empty() {
                continue;
            }
            let id = ids::detachment(f.edition, faction.as_deref(), &name);
            if let Some(eid) = en.attr("id") {
                names.insert(eid.to_string(), name.clone());
            }
            if !seen.insert(id.clone()) {
                continue;
            }
            let rules = detachment_rules(store, e, faction.as_deref(), &mut seen_rules, army);
            army.detachments.push((
                e.0,
                Detachment {
                    id,
                    name,
                    edition: ef.edition,
                    faction: faction.clone(),
                    rules,
                    enhancements: Vec::new(),
                    stratagems: Vec::new(),
                    sources: vec![Provenance::at_line(
                        ef.path.clone(),
                        en.line,
                        ef.sha256.clone(),
                    )],
                    points: Default::default(),
                    force_disposition: Default::default(),
                    unique_tag: Default::default(),
                    translations: Default::default(),
                },
            ));
        }
    }
    names
}

/// The rules of detachment entry `e` (hidden, unnamed and empty ones left out), each added to
/// `army` the first time it is seen; returns their ids.
fn detachment_rules(
    store: &Store,
    e: At,
    faction: Option<&str>,
    seen_rules: &mut HashSet<String>,
    army: &mut Army,
) -> Vec<String> {
    let ef = &store.files[e.0];
    let et = &ef.tree;
    let mut rules = Vec::new();
    for r in et.items(e.1, "rules", "rule") {
        let rn = et.node(r);
        let rname = name_of(et, r);
        let text = super::rule_text(et, r);
        if rn.attr("hidden") == Some("true") || rname.is_empty() || text.is_empty() {
            continue;
        }
        let scope = ids::rule_scope("detachment", faction);
        let rid = ids::rule(ef.edition, &scope, rname);
        rules.push(rid.clone());
        if seen_rules.insert(rid.clone()) {
            army.rules.push((
                e.0,
                Rule {
                    id: rid,
                    name: Some(rname.to_string()),
                    kind: "detachment".to_string(),
                    edition: ef.edition,
                    faction: faction.map(str::to_string),
                    flavor: None,
                    text,
                    bullets: Vec::new(),
                    examples: Vec::new(),
                    occurrences: vec![Location::at_line(ef.path.clone(), rn.line)],
                    tables: Vec::new(),
                    variants: Vec::new(),
                    number: Default::default(),
                    parent: Default::default(),
                    children: Default::default(),
                    translations: Default::default(),
                },
            ));
        }
    }
    rules
}

/// The enhancements of the outermost `Enhancements` groups (their subgroups and the groups
/// their links reach, with an explicit stack), into `army`, each listed on its detachment.
fn enhancements(store: &Store, detachments: &HashMap<String, String>, army: &mut Army) {
    let mut seen: HashSet<String> = HashSet::new();
    // Per file: whether an element has an `Enhancements` group among its ancestors, in one
    // pass, parents first (an element's index is after its parent's): no ancestor walks.
    let mut nested_in: HashMap<usize, Vec<bool>> = HashMap::new();
    for (fi, faction, g) in groups_named(store, &["Enhancements"]) {
        let t = &store.files[fi].tree;
        let nested = nested_in.entry(fi).or_insert_with(|| {
            let mut v: Vec<bool> = Vec::with_capacity(t.nodes.len());
            for n in &t.nodes {
                let inside = n.parent.is_some_and(|p| {
                    v.get(p).copied().unwrap_or(false) || is_group_named(t, p, &["Enhancements"])
                });
                v.push(inside);
            }
            v
        });
        // Only the outermost `Enhancements` group (a nested one is read with it).
        if nested.get(g).copied().unwrap_or(false) {
            continue;
        }
        // (group, detachment from an enclosing group) with an explicit stack. A group reached
        // again with the same inherited detachment gives nothing new (its enhancements are
        // seen): links that cycle or form a diamond are read once.
        let mut stack: Vec<(At, Option<String>)> = vec![((fi, g), None)];
        let mut visited: HashSet<(At, Option<String>)> = HashSet::new();
        while let Some((grp, inherited)) = stack.pop() {
            if !visited.insert((grp, inherited.clone())) {
                continue;
            }
            let gt = &store.files[grp.0].tree;
            let own = detachment_waited(gt, grp.1, detachments)
                .or_else(|| {
                    name_of(gt, grp.1)
                        .strip_suffix(" Enhancements")
                        .map(|d| d.trim().to_string())
                        .filter(|d| !d.is_empty())
                })
                .or(inherited);
            for sub in gt.items(grp.1, "selectionEntryGroups", "selectionEntryGroup") {
                stack.push(((grp.0, sub), own.clone()));
            }
            for l in gt.items(grp.1, "entryLinks", "entryLink") {
                if let Some(target) = gt.node(l).attr("targetId").and_then(|i| store.resolve(i)) {
                    // The game system's groups (Boarding Actions) are no faction's.
                    if store.node(target).tag == "selectionEntryGroup"
                        && store.files[target.0].kind != Kind::GameSystem
                    {
                        stack.push((target, own.clone()));
                    }
                }
            }
            for (e, link) in store.entries_of(grp) {
                let hidden_link =
                    link.is_some_and(|l| store.node(l).attr("hidden") == Some("true"));
                let Some(en) =
                    enhancement(store, e, faction.as_deref(), detachments, own.as_deref())
                        .filter(|_| !hidden_link)
                else {
                    continue;
                };
                if !seen.insert(en.id.clone()) {
                    continue;
                }
                if let Some(d) = &en.detachment {
                    let did = ids::detachment(en.edition, faction.as_deref(), d);
                    if let Some((_, det)) = army.detachments.iter_mut().find(|(_, x)| x.id == did) {
                        det.enhancements.push(en.id.clone());
                    }
                }
                army.enhancements.push((e.0, en));
            }
        }
    }
}

/// The enhancement an entry is: a shown `upgrade` of a catalogue with a text and no cost but
/// points; its detachment the one it waits for, else `group_detachment`.
fn enhancement(
    store: &Store,
    e: At,
    faction: Option<&str>,
    detachments: &HashMap<String, String>,
    group_detachment: Option<&str>,
) -> Option<Enhancement> {
    let ef = &store.files[e.0];
    let et = &ef.tree;
    let en = et.node(e.1);
    if ef.kind == Kind::GameSystem
        || en.attr("type") != Some("upgrade")
        || en.attr("hidden") == Some("true")
    {
        return None;
    }
    // As printed, tags included (`Omnissian Unguents (Aura)`, as the export).
    let name = name_of(et, e.1).to_string();
    let (text, _) = entry_text(et, e.1)?;
    let mut points = None;
    for c in et.items(e.1, "costs", "cost") {
        let c = et.node(c);
        let v = c.attr("value").and_then(|v| v.trim().parse::<f64>().ok());
        if c.attr("name")
            .is_some_and(|n| n.eq_ignore_ascii_case("pts"))
        {
            points = v.map(|v| v.max(0.0).round() as u32);
        } else if v.is_some_and(|v| v != 0.0) {
            // A Crusade cost: not an enhancement.
            return None;
        }
    }
    if name.is_empty() {
        return None;
    }
    let detachment =
        detachment_waited(et, e.1, detachments).or_else(|| group_detachment.map(str::to_string));
    Some(Enhancement {
        id: ids::enhancement(ef.edition, faction, detachment.as_deref(), &name),
        name: Some(name),
        edition: ef.edition,
        faction: faction.map(str::to_string),
        detachment,
        points,
        flavor: None,
        text,
        sources: vec![Provenance::at_line(
            ef.path.clone(),
            en.line,
            ef.sha256.clone(),
        )],
        translations: Default::default(),
    })
}

/// The detachment a `set hidden` modifier of `n` waits for, when it names one.
fn detachment_waited(t: &Tree, n: usize, detachments: &HashMap<String, String>) -> Option<String> {
    hidden_until(t, n)
        .iter()
        .find_map(|id| detachments.get(id).cloned())
}
