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
use std::collections::{BTreeMap, HashMap, HashSet};

/// An element of a file: (file index, node).
type At = (usize, usize);

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

/// The entries a group offers: its `selectionEntries` and the entries its `entryLinks` reach.
fn entries_of(store: &Store, (fi, g): At) -> Vec<(At, Option<At>)> {
    let t = &store.files[fi].tree;
    let mut out: Vec<(At, Option<At>)> = t
        .items(g, "selectionEntries", "selectionEntry")
        .map(|e| ((fi, e), None))
        .collect();
    for l in t.items(g, "entryLinks", "entryLink") {
        if let Some(target) = t.node(l).attr("targetId").and_then(|id| store.resolve(id)) {
            if store.node(target).tag == "selectionEntry" {
                out.push((target, Some((fi, l))));
            }
        }
    }
    out
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
    // Detachment entries by id → (name, faction), read first: enhancements name them.
    let mut detachments: HashMap<String, (String, Option<String>)> = HashMap::new();
    let mut det_index: BTreeMap<String, usize> = BTreeMap::new();
    let mut seen_rules: HashSet<String> = HashSet::new();
    for (fi, f) in store.files.iter().enumerate() {
        if f.kind == Kind::GameSystem {
            continue;
        }
        let faction = super::faction_of_file(store, fi);
        let t = &f.tree;
        for g in 0..t.nodes.len() {
            if !is_group_named(t, g, &["Detachment", "Detachments"])
                || t.node(g).attr("hidden") == Some("true")
            {
                continue;
            }
            for (e, link) in entries_of(store, (fi, g)) {
                let et = &store.files[e.0].tree;
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
                    detachments.insert(eid.to_string(), (name.clone(), faction.clone()));
                }
                if det_index.contains_key(&id) {
                    continue;
                }
                let ef = &store.files[e.0];
                let mut rules = Vec::new();
                for r in et.items(e.1, "rules", "rule") {
                    let rn = et.node(r);
                    let rname = name_of(et, r);
                    let text = super::rule_text(et, r);
                    if rn.attr("hidden") == Some("true") || rname.is_empty() || text.is_empty() {
                        continue;
                    }
                    let scope = ids::rule_scope("detachment", faction.as_deref());
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
                                faction: faction.clone(),
                                flavor: None,
                                text,
                                bullets: Vec::new(),
                                examples: Vec::new(),
                                occurrences: vec![Location::at_line(ef.path.clone(), rn.line)],
                                tables: Vec::new(),
                                variants: Vec::new(),
                            },
                        ));
                    }
                }
                det_index.insert(id.clone(), army.detachments.len());
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
                    },
                ));
            }
        }
    }
    let mut seen: HashSet<String> = HashSet::new();
    for (fi, f) in store.files.iter().enumerate() {
        if f.kind == Kind::GameSystem {
            continue;
        }
        let faction = super::faction_of_file(store, fi);
        let t = &f.tree;
        for g in 0..t.nodes.len() {
            if !is_group_named(t, g, &["Enhancements"]) {
                continue;
            }
            // Only the outermost `Enhancements` group (a nested one is read with it).
            let mut up = t.node(g).parent;
            let mut nested = false;
            while let Some(p) = up {
                nested |= is_group_named(t, p, &["Enhancements"]);
                up = t.node(p).parent;
            }
            if nested {
                continue;
            }
            // (group, detachment from an enclosing group) with an explicit stack.
            let mut stack: Vec<(At, Option<String>)> = vec![((fi, g), None)];
            while let Some((grp, inherited)) = stack.pop() {
                let gt = &store.files[grp.0].tree;
                let own = detachment_waited(gt, grp.1, &detachments)
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
                    if let Some(target) = gt.node(l).attr("targetId").and_then(|i| store.resolve(i))
                    {
                        // The game system's groups (Boarding Actions) are no faction's.
                        if store.node(target).tag == "selectionEntryGroup"
                            && store.files[target.0].kind != Kind::GameSystem
                        {
                            stack.push((target, own.clone()));
                        }
                    }
                }
                for (e, link) in entries_of(store, grp) {
                    let ef = &store.files[e.0];
                    let et = &ef.tree;
                    let en = et.node(e.1);
                    if ef.kind == Kind::GameSystem
                        || en.attr("type") != Some("upgrade")
                        || en.attr("hidden") == Some("true")
                        || link.is_some_and(|l| store.node(l).attr("hidden") == Some("true"))
                    {
                        continue;
                    }
                    // As printed, tags included (`Omnissian Unguents (Aura)`, as the export).
                    let name = name_of(et, e.1).to_string();
                    let Some((text, _)) = entry_text(et, e.1) else {
                        continue;
                    };
                    let mut points = None;
                    let mut crusade = false;
                    for c in et.items(e.1, "costs", "cost") {
                        let c = et.node(c);
                        let v = c.attr("value").and_then(|v| v.trim().parse::<f64>().ok());
                        if c.attr("name")
                            .is_some_and(|n| n.eq_ignore_ascii_case("pts"))
                        {
                            points = v.map(|v| v.max(0.0).round() as u32);
                        } else if v.is_some_and(|v| v != 0.0) {
                            crusade = true;
                        }
                    }
                    if crusade || name.is_empty() {
                        continue;
                    }
                    let detachment = detachment_waited(et, e.1, &detachments).or(own.clone());
                    let id = ids::enhancement(
                        ef.edition,
                        faction.as_deref(),
                        detachment.as_deref(),
                        &name,
                    );
                    if !seen.insert(id.clone()) {
                        continue;
                    }
                    if let Some(d) = &detachment {
                        let did = ids::detachment(ef.edition, faction.as_deref(), d);
                        if let Some(&k) = det_index.get(&did) {
                            army.detachments[k].1.enhancements.push(id.clone());
                        }
                    }
                    army.enhancements.push((
                        e.0,
                        Enhancement {
                            id,
                            name: Some(name),
                            edition: ef.edition,
                            faction: faction.clone(),
                            detachment,
                            points,
                            flavor: None,
                            text,
                            sources: vec![Provenance::at_line(
                                ef.path.clone(),
                                en.line,
                                ef.sha256.clone(),
                            )],
                        },
                    ));
                }
            }
        }
    }
    army
}

/// The detachment a `set hidden` modifier of `n` waits for, when it names one.
fn detachment_waited(
    t: &Tree,
    n: usize,
    detachments: &HashMap<String, (String, Option<String>)>,
) -> Option<String> {
    hidden_until(t, n)
        .iter()
        .find_map(|id| detachments.get(id).map(|(name, _)| name.clone()))
}
