//! Root `unit`/`model` entries → datasheets.
//!
//! A datasheet is read by walking its entry with an explicit stack (never recursion on the
//! input's depth): child entries, groups and `entryLink`s (a link adds its own constraints,
//! costs, profiles and child links on top of its target), `infoLink`s to profiles, rules and
//! info groups. The set of targets on the current path stops cycles (`B004`); the walks of a
//! folder read at most [`entry_budget`] elements (a diamond of links is exponential in its
//! depth), then stop with `S020`. What is read:
//!
//! - model profiles: `Unit` profiles (or any profile with M, T, SV and W); the same profile
//!   repeated on the unit and its models is one profile;
//! - weapons: every profile whose characteristics are a weapon's (Range and A, S, AP, D),
//!   whatever its type is called; melee when it has WS or its type says melee;
//! - abilities: `Abilities` profiles (a profile inside a wargear choice is `wargear`; other
//!   single-text profile types are a named group, `Shadow Form` → `shadow_form`), and rules by
//!   `infoLink` on the unit or its models (`core` when the game system defines the rule,
//!   `faction` otherwise) with the parameter an unconditional modifier appends (`Deadly Demise`
//!   + `D6`); a rule named like one of the unit's weapon keywords is glossary, not an ability;
//! - `Invulnerable Save…` → the invulnerable save (`*` = conditional, its text the condition);
//!   `Damaged: 1-8 Wounds Remaining` → the DAMAGED profile;
//! - keywords: the entry's `categoryLinks` (`Faction: X` → faction keyword X), hidden
//!   categories (the data's bookkeeping, `Khorne non-Battleline`) left out;
//! - weapon names as printed on a datasheet: `➤ Plasma gun - standard` → `Plasma gun – standard`;
//! - points: the entry's `pts` cost with its `set`/`increment` modifiers keyed on the unit's
//!   model count, plus per-model costs; BattleScribe allows every count of a band, GW prints
//!   one size per band: each band is reported at its largest count (per-model costs at the
//!   smallest and largest count). Model counts come from `selections` constraints; a group
//!   that chooses one of several compositions is one choice.
//!
//! Not the datasheet: statically hidden children and profiles, and those hidden until a roster
//! option is chosen (a `set hidden` modifier whose conditions hold in an empty roster: a
//! detachment's abilities, Crusade content), roster options (an `upgrade` with a points
//! cost: enhancements; an `upgrade` that adds categories: Warlord), Crusade content (anything
//! with a cost of another type than points). Modifiers with conditions on the roster are not
//! applied. Values are kept as printed (`20+"`, rolls without `+`): normalization respells them.

use super::{tree::Tree, Kind, Store};
use crate::diag::{Code, Diagnostic};
use crate::extract::sheet::{Finish, SheetBuilder};
use crate::model::*;
use crate::source::{Location, Provenance};
use std::collections::HashSet;

use super::At;

/// The datasheets of a store, each with the file it was read from, and diagnostics.
#[derive(Debug, Default)]
pub struct Built {
    pub datasheets: Vec<(usize, Datasheet)>,
    pub diagnostics: Vec<Diagnostic>,
    /// `[Crucible]` roots skipped.
    pub crucible: usize,
}

/// A root entry's name without a trailing `[Legends]` tag, and whether it had it.
pub fn strip_legends(name: &str) -> (String, bool) {
    let t = name.trim();
    match t.strip_suffix("[Legends]") {
        Some(rest) => (rest.trim_end().to_string(), true),
        None => (t.to_string(), false),
    }
}

/// Reads every catalogue's root `unit`/`model` entries.
pub fn datasheets(store: &Store) -> Built {
    let mut built = Built::default();
    let mut seen: HashSet<(Option<String>, At)> = HashSet::new();
    let mut unknown_types: HashSet<(usize, String)> = HashSet::new();
    let weapon_keywords = weapon_keywords(store);
    let elements: usize = store.files.iter().map(|f| f.tree.nodes.len()).sum();
    let mut budget = entry_budget(elements);
    for (fi, f) in store.files.iter().enumerate() {
        if f.kind == Kind::GameSystem {
            continue;
        }
        let Some(root) = f.tree.root() else { continue };
        let faction = super::faction_of_file(store, fi);
        let own = own_catalogues(store, &faction);
        let roots = root_entries(store, fi, root);
        let mut crucible = 0;
        let mut over_budget = false;
        for (target, link) in roots {
            let n = store.node(target);
            if n.tag != "selectionEntry" || !matches!(n.attr("type"), Some("unit" | "model")) {
                continue;
            }
            let name = n.attr("name").unwrap_or("").trim();
            if name.contains("[Crucible]") {
                crucible += 1;
                continue;
            }
            if !seen.insert((faction.clone(), target)) {
                continue;
            }
            let ds = Walk::new(
                store,
                f.edition,
                faction.clone(),
                own.clone(),
                &mut unknown_types,
                &weapon_keywords,
                &mut budget,
            )
            .datasheet(target, link, &mut built.diagnostics);
            built.datasheets.push((target.0, ds));
            if budget == 0 && !over_budget {
                over_budget = true;
                built.diagnostics.push(
                    Diagnostic::new(
                        Code::BudgetExceeded,
                        format!(
                            "reading the datasheets took more than {} element reads (links \
                             reach the same entries over and over); the datasheets from '{}' \
                             on are partial or not read",
                            entry_budget(elements),
                            name
                        ),
                    )
                    .at(&f.path, link.map_or(n.line, |l| store.node(l).line)),
                );
            }
        }
        if crucible > 0 {
            built.crucible += crucible;
            built.diagnostics.push(
                Diagnostic::new(
                    Code::CrucibleSkipped,
                    format!("{crucible} [Crucible] root entries skipped (not datasheets)"),
                )
                .at(&f.path, f.tree.node(root).line),
            );
        }
    }
    built
}

/// The ids of the catalogues of `faction` (its own entries, as opposed to another faction's).
fn own_catalogues(store: &Store, faction: &Option<String>) -> HashSet<String> {
    (0..store.files.len())
        .filter(|&g| {
            store.files[g].kind != Kind::GameSystem && super::faction_of_file(store, g) == *faction
        })
        .filter_map(|g| {
            let t = &store.files[g].tree;
            t.root()
                .and_then(|r| t.node(r).attr("id"))
                .map(str::to_string)
        })
        .collect()
}

/// The root entries of file `fi` (its `root` element's): its own entries, then the entries
/// its links reach (with the link).
fn root_entries(store: &Store, fi: usize, root: usize) -> Vec<(At, Option<At>)> {
    let f = &store.files[fi];
    let mut roots: Vec<(At, Option<At>)> = Vec::new();
    for e in f.tree.items(root, "selectionEntries", "selectionEntry") {
        roots.push(((fi, e), None));
    }
    for l in f.tree.items(root, "entryLinks", "entryLink") {
        let target = f.tree.node(l).attr("targetId").unwrap_or("");
        if let Some(t) = store.resolve(target) {
            roots.push((t, Some((fi, l))));
        }
    }
    roots
}

/// The keywords of every weapon profile of the store (its `Keywords` characteristic, when
/// the profile has a weapon's characteristics), folded for comparison.
fn weapon_keywords(store: &Store) -> HashSet<String> {
    let mut out = HashSet::new();
    for f in &store.files {
        let t = &f.tree;
        for (p, n) in t.nodes.iter().enumerate() {
            if n.tag != "profile" {
                continue;
            }
            let chars: Vec<usize> = t.items(p, "characteristics", "characteristic").collect();
            let names: Vec<String> = chars
                .iter()
                .map(|&c| {
                    t.node(c)
                        .attr("name")
                        .unwrap_or("")
                        .trim()
                        .to_ascii_lowercase()
                })
                .collect();
            if !is_weapon(&names) {
                continue;
            }
            for &c in &chars {
                let cn = t.node(c);
                if cn
                    .attr("name")
                    .is_some_and(|n| n.trim().eq_ignore_ascii_case("keywords"))
                {
                    out.extend(
                        keyword_list(&cn.text)
                            .iter()
                            .map(|k| crate::text::fold::fold_for_compare(k)),
                    );
                }
            }
        }
    }
    out
}

/// How an item of the walk counts models.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ItemKind {
    Root,
    Model,
    Entry,
    Group,
}

/// One entry or group reached from the datasheet's root, for model counts and points.
#[derive(Debug, Clone)]
struct Item {
    kind: ItemKind,
    children: Vec<usize>,
    min: Option<u32>,
    max: Option<u32>,
    /// Its own points cost (per selection).
    cost: f64,
    /// The ids of its element and of the link that reached it (conditions name them).
    ids: Vec<String>,
    /// Its element's name (a model's, for the unit composition).
    name: String,
    /// Modifiers of its `max` selections constraint (`increment` by 1 when the unit has 20
    /// Neurogaunts), each evaluated once the unit's model counts are known.
    max_mods: Vec<At>,
}

/// One container being read: the element and the link that reached it (both add children).
struct Frame {
    parts: Vec<At>,
    item: usize,
    /// Reached through an `upgrade` entry (wargear): its abilities are `wargear`, its rules
    /// glossary.
    in_option: bool,
    /// How many containers lead to this one from the root, itself included (the root's is 1):
    /// the walk's path of targets is cut back to it before the frame is read.
    depth: usize,
    /// The model entry this container belongs to, when it is inside one (wargear options name
    /// it).
    model: Option<String>,
}

struct Walk<'s, 'u> {
    store: &'s Store,
    faction: Option<String>,
    edition: Edition,
    ds: SheetBuilder,
    items: Vec<Item>,
    /// Rules by link: (name, parameter, from the game system).
    rule_links: Vec<(String, Option<String>, bool, Location)>,
    unknown_types: &'u mut HashSet<(usize, String)>,
    pts_type: Option<String>,
    diags: Vec<Diagnostic>,
    /// Ids of the faction's catalogues (the army's primary catalogue is one of them).
    own: HashSet<String>,
    /// The keywords of the unit's own entry (a model's beyond these are its own).
    base_keywords: Vec<String>,
    /// Every weapon keyword of the store's weapon profiles, folded: a rule so named is a
    /// weapon ability, glossary wherever it is linked (an ability's text that grants it).
    all_weapon_keywords: &'u HashSet<String>,
    /// The targets on the path from the root to the container being read, and the same as a
    /// set (cycle detection in constant time per link: the walk stays linear in the depth).
    path: Vec<At>,
    on_path: HashSet<At>,
    /// Containers the walks of the whole store may still enter ([`entry_budget`]).
    budget: &'u mut u64,
    /// The first model profile's `InSv` column (11th edition's invulnerable save) and where.
    insv: Option<(String, At)>,
}

/// How many elements the datasheet walks of one store may read (each child of a container
/// entered, directly or through a link, counts once per time it is read): a fixed allowance
/// plus a multiple of the store's elements. Links make the data a graph: a diamond of links
/// 40 levels deep is 2^40 paths in a 16 KB file (each path is read, as a unit may really offer
/// one entry through two options). The real catalogues read far fewer (wh40k-10e: 22,102 reads for
/// 69,110 elements, 0.3 per element); past the budget nothing more is read and each file whose datasheets were being
/// read gets one `S020`.
pub fn entry_budget(elements: usize) -> u64 {
    ENTRY_BUDGET_BASE + ENTRY_BUDGET_PER_ELEMENT * elements as u64
}

const ENTRY_BUDGET_BASE: u64 = 100_000;
const ENTRY_BUDGET_PER_ELEMENT: u64 = 8;

/// The modifiers of element `n` and of its modifier groups at any depth (an explicit stack),
/// an element's own before its groups'.
fn modifiers_of(t: &Tree, n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut stack: Vec<usize> = vec![n];
    while let Some(x) = stack.pop() {
        out.extend(t.items(x, "modifiers", "modifier"));
        stack.extend(t.items(x, "modifierGroups", "modifierGroup"));
    }
    out
}

/// A weapon profile's `Keywords` characteristic as a list: comma-separated, `-` for none.
fn keyword_list(s: &str) -> Vec<String> {
    crate::text::words::ListStyle::BATTLESCRIBE.split(s)
}

/// A profile's characteristic: `(name, typeId, value)`.
type Chr = (String, String, String);

/// Lower-cased characteristic names a weapon has.
fn is_weapon(names: &[String]) -> bool {
    let has = |n: &str| names.iter().any(|x| x == n);
    has("range") && has("a") && has("s") && has("ap") && has("d")
}

fn is_model(names: &[String], type_name: &str) -> bool {
    let has = |n: &str| names.iter().any(|x| x == n);
    type_name == "Unit" || (has("m") && has("t") && has("w") && has("sv"))
}

/// A numeric attribute.
fn num(v: Option<&str>) -> Option<f64> {
    v.and_then(|s| s.trim().parse::<f64>().ok())
}

impl<'s, 'u> Walk<'s, 'u> {
    fn new(
        store: &'s Store,
        edition: Edition,
        faction: Option<String>,
        own: HashSet<String>,
        unknown_types: &'u mut HashSet<(usize, String)>,
        all_weapon_keywords: &'u HashSet<String>,
        budget: &'u mut u64,
    ) -> Self {
        Walk {
            store,
            faction,
            edition,
            ds: SheetBuilder::new(edition),
            items: Vec::new(),
            rule_links: Vec::new(),
            unknown_types,
            pts_type: None,
            diags: Vec::new(),
            own,
            base_keywords: Vec::new(),
            all_weapon_keywords,
            path: Vec::new(),
            on_path: HashSet::new(),
            budget,
            insv: None,
        }
    }

    fn tree(&self, fi: usize) -> &'s Tree {
        &self.store.files[fi].tree
    }

    fn path(&self, fi: usize) -> &'s str {
        &self.store.files[fi].path
    }

    /// The location of an element of file `fi` that gives this datasheet a sub-record; the file
    /// joins the datasheet's sources (at that element) when it is not one yet, so every `at`
    /// names one of them.
    fn locate(&mut self, fi: usize, line: u32) -> Location {
        let file = &self.store.files[fi];
        if !self.ds.sources.iter().any(|s| s.file == file.path) {
            self.ds.sources.push(Provenance::at_line(
                file.path.clone(),
                line,
                file.sha256.clone(),
            ));
        }
        Location::at_line(file.path.clone(), line)
    }

    fn datasheet(mut self, target: At, link: Option<At>, diags: &mut Vec<Diagnostic>) -> Datasheet {
        let file = &self.store.files[target.0];
        self.edition = file.edition;
        let node = self.store.node(target);
        let (name, legends) = strip_legends(node.attr("name").unwrap_or(""));
        let mut ds = SheetBuilder::new(self.edition);
        if !name.is_empty() {
            ds.set_name(name);
        }
        if legends {
            ds.legends_mark();
        }
        ds.source(Provenance::at_line(
            file.path.clone(),
            node.line,
            file.sha256.clone(),
        ));
        let first = (file.path.clone(), node.line);
        self.ds = ds;
        let mut parts = vec![target];
        parts.extend(link);
        self.pts_type = self.pts_type_of(&parts);
        self.keywords(&parts);
        self.base_keywords = self.ds.keywords.clone();
        let root_kind = if node.attr("type") == Some("model") {
            ItemKind::Model
        } else {
            ItemKind::Root
        };
        self.items.push(Item {
            kind: root_kind,
            children: Vec::new(),
            min: Some(1),
            max: Some(1),
            cost: 0.0,
            ids: Vec::new(),
            name: node.attr("name").unwrap_or("").trim().to_string(),
            max_mods: Vec::new(),
        });
        let mut stack = vec![Frame {
            parts: parts.clone(),
            item: 0,
            in_option: false,
            depth: 1,
            model: None,
        }];
        while let Some(frame) = stack.pop() {
            // Depth-first: the frames read since this one's parent are its elder siblings'
            // subtrees, deeper than it; cut the path back to its parent and add its target.
            for gone in self.path.drain(frame.depth.saturating_sub(1)..) {
                self.on_path.remove(&gone);
            }
            if let Some(&t) = frame.parts.first() {
                self.path.push(t);
                self.on_path.insert(t);
            }
            let mut pushed = Vec::new();
            for &part in &frame.parts {
                self.read_part(part, &frame, &mut pushed, diags);
            }
            // Children in document order (the stack pops the last first).
            stack.extend(pushed.into_iter().rev());
        }
        self.finish_abilities();
        self.invulnerable_column();
        self.shared_model_keywords();
        self.apply_max_mods();
        self.points(&parts);
        self.composition();
        diags.append(&mut self.diags);
        let f = Finish {
            faction: self.faction.clone(),
            file: &first.0,
            line: first.1,
            link_references: true,
            publication: None,
        };
        self.ds.finish(f, diags)
    }

    /// The cost type id of points (`pts`) on the root.
    fn pts_type_of(&self, parts: &[At]) -> Option<String> {
        for &(fi, n) in parts {
            let t = self.tree(fi);
            for c in t.items(n, "costs", "cost") {
                let c = t.node(c);
                let name = c.attr("name").unwrap_or("").to_ascii_lowercase();
                if name == "pts" || name == "points" {
                    return c.attr("typeId").map(str::to_string);
                }
            }
        }
        // Without a cost on the root: the game system's points type, by name.
        for f in &self.store.files {
            if f.kind != Kind::GameSystem {
                continue;
            }
            for n in &f.tree.nodes {
                if n.tag == "costType" && n.attr("name").is_some_and(|v| v == "pts") {
                    return n.attr("id").map(str::to_string);
                }
            }
        }
        None
    }

    /// The names of the categories an entry links (`Faction: X` included), hidden categories
    /// (the data's bookkeeping, `Khorne non-Battleline`) left out.
    fn categories(&self, parts: &[At]) -> Vec<String> {
        let mut out = Vec::new();
        for &(fi, n) in parts {
            let t = self.tree(fi);
            for c in t.items(n, "categoryLinks", "categoryLink") {
                let c = t.node(c);
                let target = c.attr("targetId").and_then(|id| self.store.resolve(id));
                if c.attr("hidden") == Some("true")
                    || target.is_some_and(|at| self.store.node(at).attr("hidden") == Some("true"))
                {
                    continue;
                }
                let name = match c.attr("name").map(str::trim).filter(|s| !s.is_empty()) {
                    Some(n) => n.to_string(),
                    None => match target {
                        Some(at) => self.store.node(at).attr("name").unwrap_or("").to_string(),
                        None => continue,
                    },
                };
                out.push(name);
            }
            // Unconditional `add`/`remove` category modifiers of the entry itself.
            for m in t.items(n, "modifiers", "modifier") {
                let mn = t.node(m);
                if mn.attr("field") != Some("category") || !unconditional(t, m) {
                    continue;
                }
                let Some(at) = mn.attr("value").and_then(|id| self.store.resolve(id)) else {
                    continue;
                };
                let cat = self.store.node(at);
                if cat.tag != "categoryEntry" || cat.attr("hidden") == Some("true") {
                    continue;
                }
                let name = cat.attr("name").unwrap_or("").trim().to_string();
                match mn.attr("type") {
                    Some("add") if !name.is_empty() && !out.contains(&name) => out.push(name),
                    Some("remove") => out.retain(|x| *x != name),
                    _ => {}
                }
            }
        }
        out
    }

    fn keywords(&mut self, parts: &[At]) {
        for name in self.categories(parts) {
            if let Some(f) = name.strip_prefix("Faction:") {
                let f = f.trim().to_string();
                if !f.is_empty() && !self.ds.faction_keywords.contains(&f) {
                    self.ds.faction_keywords.push(f);
                }
            } else if !self
                .ds
                .keywords
                .iter()
                .any(|k| k.eq_ignore_ascii_case(&name))
            {
                self.ds.keywords.push(name);
            }
        }
    }

    /// A keyword every model of the unit links is the unit's, not one model's.
    fn shared_model_keywords(&mut self) {
        let models: HashSet<&str> = self
            .items
            .iter()
            .skip(1)
            .filter(|i| i.kind == ItemKind::Model)
            .map(|i| i.name.as_str())
            .collect();
        if models.len() < 2 || self.ds.model_keywords.len() < models.len() {
            if models.len() == 1 {
                self.ds.model_keywords.clear();
            }
            return;
        }
        let first = self.ds.model_keywords[0].keywords.clone();
        let shared: Vec<String> = first
            .into_iter()
            .filter(|k| {
                self.ds
                    .model_keywords
                    .iter()
                    .all(|m| m.keywords.contains(k))
            })
            .collect();
        for m in &mut self.ds.model_keywords {
            m.keywords.retain(|k| !shared.contains(k));
        }
        self.ds.model_keywords.retain(|m| !m.keywords.is_empty());
    }

    /// The keywords a model entry of the unit links beyond the unit's own (`Cadian Commander`:
    /// `Officer`): they join the unit's keywords and the model's `model_keywords`. A model's
    /// `Faction: X` is the unit's faction keyword (Marneus Calgar's are on his model entry).
    fn model_keywords(&mut self, model: &str, parts: &[At]) {
        for name in self.categories(parts) {
            if let Some(f) = name.strip_prefix("Faction:") {
                let f = f.trim().to_string();
                if !f.is_empty() && !self.ds.faction_keywords.contains(&f) {
                    self.ds.faction_keywords.push(f);
                }
                continue;
            }
            if self
                .base_keywords
                .iter()
                .any(|k| k.eq_ignore_ascii_case(&name))
            {
                continue;
            }
            if !self
                .ds
                .keywords
                .iter()
                .any(|k| k.eq_ignore_ascii_case(&name))
            {
                self.ds.keywords.push(name.clone());
            }
            match self.ds.model_keywords.iter_mut().find(|m| m.model == model) {
                Some(m) => {
                    if !m.keywords.contains(&name) {
                        m.keywords.push(name)
                    }
                }
                None => self.ds.model_keywords.push(ModelKeywords {
                    model: model.to_string(),
                    keywords: vec![name],
                }),
            }
        }
    }

    /// Reads the children of one part of a frame; containers to read next go to `pushed`.
    fn read_part(
        &mut self,
        (fi, n): At,
        frame: &Frame,
        pushed: &mut Vec<Frame>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let t = self.tree(fi);
        for &list in &t.node(n).children {
            let tag = t.node(list).tag.as_ref();
            for &c in &t.node(list).children {
                if *self.budget == 0 {
                    return;
                }
                *self.budget -= 1;
                let cn = t.node(c);
                match (tag, cn.tag.as_ref()) {
                    ("profiles", "profile")
                        if cn.attr("hidden") != Some("true")
                            && !default_hidden(t, c, &self.own) =>
                    {
                        self.profile((fi, c), None, frame.in_option);
                    }
                    ("rules", "rule") if !frame.in_option && cn.attr("hidden") != Some("true") => {
                        let sys = self.store.files[fi].kind == Kind::GameSystem;
                        let name = cn.attr("name").unwrap_or("").trim().to_string();
                        let at = self.locate(fi, cn.line);
                        self.rule_links.push((name, None, sys, at));
                    }
                    ("infoLinks", "infoLink") => self.info_link((fi, c), frame, pushed, diags),
                    ("infoGroups", "infoGroup") if cn.attr("hidden") != Some("true") => {
                        if let Some(f) = self.enter((fi, c), None, frame, false, diags) {
                            pushed.push(f);
                        }
                    }
                    ("selectionEntries", "selectionEntry")
                    | ("selectionEntryGroups", "selectionEntryGroup") => {
                        if let Some(f) = self.enter((fi, c), None, frame, true, diags) {
                            pushed.push(f);
                        }
                    }
                    ("entryLinks", "entryLink") => self.entry_link((fi, c), frame, pushed, diags),
                    _ => {}
                }
            }
        }
    }

    /// An `infoLink` of a part (at `(fi, c)`): the profile, rule or info group it reaches.
    fn info_link(
        &mut self,
        (fi, c): At,
        frame: &Frame,
        pushed: &mut Vec<Frame>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let t = self.tree(fi);
        let cn = t.node(c);
        if cn.attr("hidden") == Some("true") || default_hidden(t, c, &self.own) {
            return;
        }
        let Some(target) = cn.attr("targetId").and_then(|id| self.store.resolve(id)) else {
            return;
        };
        let tn = self.store.node(target);
        if tn.attr("hidden") == Some("true")
            || default_hidden(self.tree(target.0), target.1, &self.own)
        {
            return;
        }
        match tn.tag.as_ref() {
            "profile" => self.profile(target, Some((fi, c)), frame.in_option),
            "rule" if !frame.in_option => {
                let sys = self.store.files[target.0].kind == Kind::GameSystem;
                let name = tn.attr("name").unwrap_or("").trim().to_string();
                let param = self.appended_name(t, c);
                let at = self.locate(fi, cn.line);
                self.rule_links.push((name, param, sys, at));
            }
            "infoGroup" => {
                if let Some(f) = self.enter(target, Some((fi, c)), frame, false, diags) {
                    pushed.push(f);
                }
            }
            _ => {}
        }
    }

    /// An `entryLink` of a part (at `(fi, c)`): the entry or entry group it reaches.
    fn entry_link(
        &mut self,
        (fi, c): At,
        frame: &Frame,
        pushed: &mut Vec<Frame>,
        diags: &mut Vec<Diagnostic>,
    ) {
        let cn = self.tree(fi).node(c);
        let Some(target) = cn.attr("targetId").and_then(|id| self.store.resolve(id)) else {
            return;
        };
        if !matches!(
            self.store.node(target).tag.as_ref(),
            "selectionEntry" | "selectionEntryGroup"
        ) {
            return;
        }
        if let Some(f) = self.enter(target, Some((fi, c)), frame, true, diags) {
            pushed.push(f);
        }
    }

    /// A container to read next, or `None` when it is hidden, a roster option, Crusade
    /// content, or closes a cycle. `counted`: an entry or group (an item of the model count).
    fn enter(
        &mut self,
        target: At,
        link: Option<At>,
        frame: &Frame,
        counted: bool,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Frame> {
        let tn = self.store.node(target);
        let hidden =
            |at: Option<At>| at.is_some_and(|a| self.store.node(a).attr("hidden") == Some("true"));
        if hidden(Some(target)) || hidden(link) {
            return None;
        }
        if self.on_path.contains(&target) {
            let (fi, n) = link.unwrap_or(target);
            let ln = self.tree(fi).node(n);
            diags.push(
                Diagnostic::new(
                    Code::LinkCycle,
                    format!(
                        "{} '{}' → {} closes a cycle of links; not followed",
                        ln.tag,
                        ln.attr("name").unwrap_or(""),
                        tn.attr("id").unwrap_or("")
                    ),
                )
                .at(self.path(fi), ln.line),
            );
            return None;
        }
        let mut parts = vec![target];
        parts.extend(link);
        let is_upgrade = tn.tag == "selectionEntry" && tn.attr("type") == Some("upgrade");
        let pts = self.points_cost(&parts)?;
        if is_upgrade && pts > 0.0 && !self.carries_weapon(&parts) {
            // An option with a points cost (an enhancement): not the datasheet, not its points.
            return None;
        }
        // A weapon that costs points (11th edition prices some: a Tyrannofex's rupture
        // cannon, +20) is the datasheet's wargear; its cost is the option's, not the unit's.
        let pts = if is_upgrade { 0.0 } else { pts };
        if tn.tag == "selectionEntryGroup" && !frame.in_option {
            self.wargear_option(&parts, frame.model.as_deref());
        }
        let item = if counted {
            self.count_item(target, &parts, pts, frame.item)
        } else {
            frame.item
        };
        let model = if tn.tag == "selectionEntry" && tn.attr("type") == Some("model") {
            tn.attr("name").map(|n| n.trim().to_string())
        } else {
            frame.model.clone()
        };
        Some(Frame {
            parts,
            item,
            in_option: frame.in_option || is_upgrade,
            depth: frame.depth + 1,
            model,
        })
    }

    /// Whether a container's `parts` carry a weapon profile of their own or link one.
    fn carries_weapon(&self, parts: &[At]) -> bool {
        let weapon =
            |n: &super::tree::Node| n.attr("typeName").is_some_and(|k| k.ends_with("Weapons"));
        parts.iter().any(|&(fi, n)| {
            let t = self.tree(fi);
            t.items(n, "profiles", "profile").any(|p| weapon(t.node(p)))
                || t.items(n, "infoLinks", "infoLink").any(|l| {
                    let target = t.node(l).attr("targetId");
                    target
                        .and_then(|id| self.store.resolve(id))
                        .is_some_and(|at| weapon(self.store.node(at)))
                })
        })
    }

    /// The points cost of a container's `parts` (0 without one), or `None` when it has a cost
    /// of another type or is shown only once a roster option is chosen (Crusade content).
    fn points_cost(&self, parts: &[At]) -> Option<f64> {
        let mut pts = 0.0;
        for &(fi, n) in parts {
            let t = self.tree(fi);
            for c in t.items(n, "costs", "cost") {
                let c = t.node(c);
                let v = num(c.attr("value")).unwrap_or(0.0);
                if v == 0.0 {
                    continue;
                }
                let is_pts = c.attr("typeId") == self.pts_type.as_deref()
                    || c.attr("name")
                        .is_some_and(|n| n.eq_ignore_ascii_case("pts"));
                if !is_pts {
                    // Crusade content (experience, battle honours, weapon modifications).
                    return None;
                }
                pts = v;
            }
            if default_hidden(t, n, &self.own) {
                // Shown only once a roster option is chosen (Crusade content).
                return None;
            }
        }
        Some(pts)
    }

    /// An item of the model count for the entry or group at `target` (its `parts`), a child of
    /// item `parent`; returns its index.
    fn count_item(&mut self, target: At, parts: &[At], pts: f64, parent: usize) -> usize {
        let tn = self.store.node(target);
        let kind = match (tn.tag.as_ref(), tn.attr("type")) {
            ("selectionEntryGroup", _) => ItemKind::Group,
            (_, Some("model")) => ItemKind::Model,
            _ => ItemKind::Entry,
        };
        let (min, max, max_mods) = self.constraints(parts);
        if kind == ItemKind::Model {
            self.model_keywords(tn.attr("name").unwrap_or("").trim(), parts);
        }
        let ids = parts
            .iter()
            .filter_map(|&at| self.store.node(at).attr("id").map(str::to_string))
            .collect();
        self.items.push(Item {
            kind,
            children: Vec::new(),
            min,
            max,
            cost: pts,
            ids,
            name: tn.attr("name").unwrap_or("").trim().to_string(),
            max_mods,
        });
        let id = self.items.len() - 1;
        self.items[parent].children.push(id);
        id
    }

    /// A wargear option: a group (reached from the unit or a model, not from inside another
    /// option) whose `max` constraint allows fewer than the two or more wargear entries it
    /// offers, each a weapon or piece of wargear without
    /// a points or Crusade cost: `Storm Bolter (1): Storm bolter, Incinerator, Psycannon,
    /// Psilencer` — the model it belongs to (`Cadian Commander › Chainsword (1): …`), the group's
    /// name, the number of choices its constraints allow, the choices.
    fn wargear_option(&mut self, parts: &[At], model: Option<&str>) {
        let mut choices: Vec<String> = Vec::new();
        for &part in parts {
            for (e, link) in self.store.entries_of(part) {
                let en = self.store.node(e);
                if en.attr("type") != Some("upgrade") {
                    continue;
                }
                let mut at = vec![e];
                at.extend(link);
                let shown = at.iter().all(|&(f, n)| {
                    let tt = self.tree(f);
                    tt.node(n).attr("hidden") != Some("true") && !default_hidden(tt, n, &self.own)
                });
                let costless = at.iter().all(|&(f, n)| {
                    let tt = self.tree(f);
                    tt.items(n, "costs", "cost")
                        .all(|c| num(tt.node(c).attr("value")).unwrap_or(0.0) == 0.0)
                });
                // A piece of wargear: it has a profile of its own (a weapon, an ability).
                let has_profile = at.iter().any(|&(f, n)| {
                    let tt = self.tree(f);
                    tt.items(n, "profiles", "profile").next().is_some()
                        || tt
                            .items(n, "infoLinks", "infoLink")
                            .any(|l| tt.node(l).attr("type") == Some("profile"))
                });
                let name = link
                    .and_then(|l| self.store.node(l).attr("name"))
                    .or(en.attr("name"))
                    .unwrap_or("")
                    .trim()
                    .to_string();
                if shown && costless && has_profile && !name.is_empty() && !choices.contains(&name)
                {
                    choices.push(name);
                }
            }
        }
        let (min, max, _) = self.constraints(parts);
        // A choice: fewer may be taken than are offered (a group of wargear every model has
        // is its equipment, not an option).
        if choices.len() < 2 || max.map_or(true, |m| m as usize >= choices.len()) {
            return;
        }
        let group = self.store.node(parts[0]).attr("name").unwrap_or("").trim();
        let range = match (min, max) {
            (lo, Some(hi)) => format!(" ({})", count_range(lo.unwrap_or(0).min(hi), Some(hi))),
            (Some(lo), None) => format!(" ({lo}+)"),
            (None, None) => String::new(),
        };
        let line = match model {
            Some(m) => format!("{m} › {group}{range}: {}", choices.join(", ")),
            None => format!("{group}{range}: {}", choices.join(", ")),
        };
        if !self.ds.wargear_options.contains(&line) {
            self.ds.wargear_option(line);
        }
    }

    /// `min`/`max` selections constraints on the parent scope (the link's win), and the
    /// modifiers of the `max` constraint.
    fn constraints(&self, parts: &[At]) -> (Option<u32>, Option<u32>, Vec<At>) {
        let (mut min, mut max) = (None, None);
        let mut max_ids: Vec<&str> = Vec::new();
        // Target first, then the link: the link's constraints replace the target's.
        for &(fi, n) in parts {
            let t = self.tree(fi);
            for c in t.items(n, "constraints", "constraint") {
                let c = t.node(c);
                if c.attr("field") != Some("selections") || c.attr("scope") != Some("parent") {
                    continue;
                }
                let v = num(c.attr("value")).map(|v| v.max(0.0) as u32);
                match c.attr("type") {
                    Some("min") => min = v,
                    Some("max") => {
                        max = v;
                        max_ids.extend(c.attr("id"));
                    }
                    _ => {}
                }
            }
        }
        let mut mods = Vec::new();
        for &(fi, n) in parts {
            let t = self.tree(fi);
            mods.extend(
                modifiers_of(t, n)
                    .into_iter()
                    .filter(|&m| {
                        t.node(m)
                            .attr("field")
                            .is_some_and(|f| max_ids.contains(&f))
                    })
                    .map(|m| (fi, m)),
            );
        }
        (min, max, mods)
    }

    /// Applies the modifiers of the models' `max` constraints whose conditions are on model
    /// counts and hold when every model is at its largest count (the unit at its largest size).
    fn apply_max_mods(&mut self) {
        if self.items.iter().all(|i| i.max_mods.is_empty()) {
            return;
        }
        let ranges = self.ranges();
        let models: HashSet<String> = self
            .items
            .iter()
            .filter(|i| i.kind == ItemKind::Model)
            .flat_map(|i| i.ids.iter().cloned())
            .collect();
        let model_refs: HashSet<&str> = models.iter().map(String::as_str).collect();
        let largest = |id: &Option<String>| -> Option<u32> {
            match id {
                None => ranges[0].1,
                Some(id) => self
                    .items
                    .iter()
                    .position(|i| i.kind == ItemKind::Model && i.ids.contains(id))
                    .and_then(|j| ranges[j].1),
            }
        };
        let mut changes: Vec<(usize, String, u32)> = Vec::new();
        for (i, it) in self.items.iter().enumerate() {
            for &(fi, m) in &it.max_mods {
                let t = self.tree(fi);
                let mn = t.node(m);
                let Some(value) = num(mn.attr("value")).map(|v| v.max(0.0) as u32) else {
                    continue;
                };
                let grouped = |x: usize| {
                    t.items(x, "conditionGroups", "conditionGroup")
                        .next()
                        .is_some()
                        || t.items(x, "repeats", "repeat").next().is_some()
                };
                if grouped(m) {
                    continue;
                }
                let conds: Option<Vec<_>> = t
                    .items(m, "conditions", "condition")
                    .map(|c| model_count_condition(t, c, &model_refs))
                    .collect();
                let Some(conds) = conds else { continue };
                let holds_all = conds
                    .iter()
                    .all(|(k, v, id)| largest(id).is_some_and(|n| holds(k, *v, n)));
                if holds_all {
                    changes.push((i, mn.attr("type").unwrap_or("").to_string(), value));
                }
            }
        }
        for (i, kind, value) in changes {
            let it = &mut self.items[i];
            it.max = match (kind.as_str(), it.max) {
                ("set", _) => Some(value),
                ("increment", Some(m)) => Some(m.saturating_add(value)),
                ("decrement", Some(m)) => Some(m.saturating_sub(value)),
                (_, m) => m,
            };
        }
    }

    /// The unit composition: one line per model, `1 Cadian Commander`, `2-5 Zoanthrope` (the
    /// counts its constraints allow); a group that bounds several kinds of model together is
    /// one line, `4-9 models: 0-9 Grey Knight, 0-2 Grey Knight with Heavy Weapon`; a group
    /// that chooses one of several compositions is one line, the alternatives joined by ` or `.
    fn composition(&mut self) {
        let ranges = self.ranges();
        let mut lines = Vec::new();
        if self
            .items
            .first()
            .is_some_and(|r| r.kind == ItemKind::Model)
        {
            lines.extend(self.model_line(0, ranges[0].0, ranges[0].1));
        }
        lines.extend(self.composition_of(&ranges, &self.items[0].children, true));
        self.ds.unit_composition = lines;
    }

    fn model_line(&self, i: usize, lo: u32, hi: Option<u32>) -> Option<String> {
        let name = strip_legends(&self.items[i].name).0;
        if name.is_empty() || hi == Some(0) {
            return None;
        }
        Some(format!("{} {name}", count_range(lo, hi)))
    }

    /// The composition lines of `items` (an explicit stack); `choices`: a choice group's
    /// alternatives are read with this function once more (no deeper: a choice inside an
    /// alternative lists its models).
    fn composition_of(
        &self,
        ranges: &[(u32, Option<u32>, bool)],
        items: &[usize],
        choices: bool,
    ) -> Vec<String> {
        let mut lines = Vec::new();
        let mut stack: Vec<usize> = items.iter().rev().copied().collect();
        while let Some(x) = stack.pop() {
            let it = &self.items[x];
            if !ranges[x].2 {
                continue;
            }
            let all_models = it
                .children
                .iter()
                .filter(|&&c| ranges[c].2)
                .all(|&c| self.items[c].kind == ItemKind::Model);
            match it.kind {
                ItemKind::Model => lines.extend(self.model_line(x, ranges[x].0, ranges[x].1)),
                ItemKind::Group if choices && is_choice(&self.items, ranges, x) => {
                    let alts: Vec<String> = it
                        .children
                        .iter()
                        .filter(|&&c| ranges[c].2)
                        .map(|&c| {
                            let kids = match self.items[c].kind {
                                ItemKind::Model => vec![c],
                                _ => self.items[c].children.clone(),
                            };
                            self.composition_of(ranges, &kids, false).join(", ")
                        })
                        .filter(|a| !a.is_empty())
                        .collect();
                    if !alts.is_empty() {
                        lines.push(alts.join(" or "));
                    }
                }
                ItemKind::Group if (it.min.is_some() || it.max.is_some()) && all_models => {
                    // A group that bounds the count of its models together (`4-9 Grey Knights`
                    // of two kinds): its range, then each model's, capped by the group's.
                    let (lo, hi, _) = ranges[x];
                    let kids: Vec<String> = it
                        .children
                        .iter()
                        .filter(|&&c| ranges[c].2)
                        .filter_map(|&c| {
                            let (clo, chi, _) = ranges[c];
                            let chi = match (chi, hi) {
                                (Some(a), Some(b)) => Some(a.min(b)),
                                (a, b) => a.or(b),
                            };
                            self.model_line(c, clo, chi)
                        })
                        .collect();
                    match kids.as_slice() {
                        [] => {}
                        [_] if it.children.len() == 1 => {
                            lines.extend(self.model_line(it.children[0], lo, hi));
                        }
                        _ => lines.push(format!(
                            "{} models: {}",
                            count_range(lo, hi),
                            kids.join(", ")
                        )),
                    }
                }
                _ => stack.extend(it.children.iter().rev().copied()),
            }
        }
        lines
    }

    /// The value an unconditional `append`/`set` modifier on `name` gives a link (`D6`).
    fn appended_name(&self, t: &Tree, link: usize) -> Option<String> {
        let mut out = None;
        for m in t.items(link, "modifiers", "modifier") {
            let mn = t.node(m);
            if mn.attr("field") != Some("name") || !unconditional(t, m) {
                continue;
            }
            if matches!(mn.attr("type"), Some("append" | "set")) {
                out = mn.attr("value").map(|v| v.trim().to_string());
            }
        }
        out.filter(|v| !v.is_empty())
    }

    /// A profile: model, weapon, ability, invulnerable save or DAMAGED.
    fn profile(&mut self, (fi, p): At, link: Option<At>, in_option: bool) {
        let pn = self.tree(fi).node(p);
        let type_name = pn.attr("typeName").unwrap_or("").trim().to_string();
        let (name, chars) = self.modified_characteristics((fi, p), link);
        let names: Vec<String> = chars.iter().map(|c| c.0.to_ascii_lowercase()).collect();
        let get = |n: &str| {
            chars
                .iter()
                .find(|c| c.0.eq_ignore_ascii_case(n))
                .map(|c| c.2.clone())
                .filter(|v| !v.is_empty())
        };
        let line = pn.line;
        let at = self.locate(fi, line);
        if is_model(&names, &type_name) {
            if let Some(v) = get("insv").filter(|v| v != "-") {
                self.insv.get_or_insert((v, (fi, p)));
            }
            self.model_profile(Some(name).filter(|n| !n.is_empty()), at, &get);
            return;
        }
        if is_weapon(&names) {
            let melee = names.iter().any(|n| n == "ws")
                || type_name.to_ascii_lowercase().contains("melee")
                || get("range").is_some_and(|r| r.eq_ignore_ascii_case("melee"));
            let kind = if melee {
                WeaponType::Melee
            } else {
                WeaponType::Ranged
            };
            self.weapon_profile(weapon_name(&name), kind, at, &get);
            return;
        }
        if type_name == "Transport" {
            // The TRANSPORT block, among the named boxes as the cards and Wahapedia print it.
            let text: Vec<&str> = chars
                .iter()
                .map(|c| c.2.trim())
                .filter(|t| !t.is_empty())
                .collect();
            self.transport(super::plain_text(&text.join("\n\n")), at);
            return;
        }
        if chars.len() > 1 && type_name != "Abilities" {
            if self.unknown_types.insert((fi, type_name.clone())) {
                // Reported once per type and file.
                let list: Vec<&str> = chars.iter().map(|c| c.0.as_str()).collect();
                let d = Diagnostic::new(
                    Code::ProfileTypeUnknown,
                    format!(
                        "profile type '{type_name}' (characteristics: {}) on '{}' is not read",
                        list.join(", "),
                        self.ds.name.as_deref().unwrap_or("")
                    ),
                )
                .at(self.path(fi), line);
                self.diags.push(d);
            }
            return;
        }
        let text = chars.first().map(|c| c.2.clone()).unwrap_or_default();
        self.ability(name, text, &type_name, in_option, at);
    }

    /// A profile's name and characteristics `(name, typeId, value)` after the unconditional
    /// modifiers of the profile and of the link that reached it.
    fn modified_characteristics(&self, (fi, p): At, link: Option<At>) -> (String, Vec<Chr>) {
        let t = self.tree(fi);
        let mut name = t.node(p).attr("name").unwrap_or("").trim().to_string();
        let mut chars: Vec<Chr> = t
            .items(p, "characteristics", "characteristic")
            .map(|c| {
                let c = t.node(c);
                (
                    c.attr("name").unwrap_or("").trim().to_string(),
                    c.attr("typeId").unwrap_or("").to_string(),
                    c.text.trim().to_string(),
                )
            })
            .collect();
        let mut mods = vec![(fi, p)];
        mods.extend(link);
        for (mfi, mn) in mods {
            let mt = self.tree(mfi);
            for m in mt.items(mn, "modifiers", "modifier") {
                if !unconditional(mt, m) {
                    continue;
                }
                let m = mt.node(m);
                let (Some(field), Some(value)) = (m.attr("field"), m.attr("value")) else {
                    continue;
                };
                let kind = m.attr("type").unwrap_or("");
                let target = if field == "name" {
                    Some(&mut name)
                } else {
                    chars
                        .iter_mut()
                        .find(|c| c.1 == field || c.0 == field)
                        .map(|c| &mut c.2)
                };
                if let Some(v) = target {
                    match kind {
                        "set" => *v = value.trim().to_string(),
                        "append" => *v = format!("{v} {}", value.trim()),
                        _ => {}
                    }
                }
            }
        }
        (name, chars)
    }

    /// A model profile, unless the datasheet has the same one already.
    fn model_profile(
        &mut self,
        name: Option<String>,
        at: Location,
        get: &dyn Fn(&str) -> Option<String>,
    ) {
        self.ds.model_fields(name, at, |_, f| get(f));
        let n = self.ds.models.len() - 1;
        let m = &self.ds.models[n];
        let same = |o: &ModelProfile| o.name == m.name && o.characteristics == m.characteristics;
        if self.ds.models[..n].iter().any(same) {
            self.ds.models.pop();
        }
    }

    /// A weapon profile (`BS` or `WS` its skill, its keywords from `Keywords`), unless the
    /// datasheet has the same one already.
    fn weapon_profile(
        &mut self,
        name: String,
        kind: WeaponType,
        at: Location,
        get: &dyn Fn(&str) -> Option<String>,
    ) {
        let keywords = get("keywords")
            .map(|k| keyword_list(&k))
            .unwrap_or_default();
        self.ds
            .weapon_fields(name, keywords, kind, at, |_, f| match f {
                "skill" => get("bs").or_else(|| get("ws")),
                "weapon_type" => get("type"),
                _ => get(f),
            });
        let n = self.ds.weapons.len() - 1;
        let w = &self.ds.weapons[n];
        let same = |o: &WeaponProfile| {
            o.name == w.name
                && o.kind == w.kind
                && o.characteristics == w.characteristics
                && o.keywords == w.keywords
        };
        if self.ds.weapons[..n].iter().any(same) {
            self.ds.weapons.pop();
        }
    }

    /// The TRANSPORT block (a `Transport` profile's capacity), among the named boxes as the
    /// cards and Wahapedia print it; once per text.
    fn transport(&mut self, text: String, at: Location) {
        // The edition's word; an edition without a vocabulary (hh2) prints 10th edition's.
        let vocab = crate::extract::sheet::words_of(self.edition);
        let name = vocab.heading(crate::vocab::Heading::Transport);
        let known = |r: &NamedText| r.name == name && r.text == text;
        if !text.is_empty() && !self.ds.special_rules.iter().any(known) {
            self.ds.named_box(NamedText {
                name: name.to_string(),
                text,
                at,
            });
        }
    }

    fn ability(
        &mut self,
        name: String,
        text: String,
        type_name: &str,
        in_option: bool,
        at: Location,
    ) {
        let lower = name.to_ascii_lowercase();
        if lower == "leader" && !in_option {
            // The units' names as printed, before the markup is made plain (capitals).
            for unit in leads_in(&text) {
                if !self.ds.leads.contains(&unit) {
                    self.ds.can_lead(unit);
                }
            }
        }
        let text = super::plain_text(&text);
        if lower.starts_with("invulnerable save") {
            if self.ds.invulnerable_save.is_none() {
                let value = roll_in(&name).or_else(|| roll_in(&text));
                let conditional = name.contains('*') || roll_star(&text);
                self.ds.invulnerable_value(value);
                if conditional {
                    self.ds
                        .invulnerable_condition(Some(text).filter(|t| !t.is_empty()));
                }
            }
            return;
        }
        // An `Abilities` profile named `Transport` (the Banehammer's) is the TRANSPORT block.
        if lower == "transport" && !in_option {
            self.transport(text, at);
            return;
        }
        if lower.starts_with("damaged:") {
            if self.ds.damaged.is_none() {
                self.ds.damaged_box(NamedText {
                    name: name.to_uppercase(),
                    text,
                    at,
                });
            }
            return;
        }
        let group = if in_option {
            "wargear".to_string()
        } else if type_name == "Abilities" || type_name.is_empty() {
            "datasheet".to_string()
        } else {
            crate::extract::sheet::ability_group(type_name)
        };
        let (name, tags) = name_and_tags(&name);
        if self
            .ds
            .abilities
            .iter()
            .any(|a| a.name.eq_ignore_ascii_case(&name) && a.group == group)
        {
            return;
        }
        self.ds.abilities.push(Ability {
            name,
            group,
            tags,
            parameter: None,
            rule_id: None,
            text: Some(text).filter(|t| !t.is_empty()),
            at,
            translations: Default::default(),
        });
    }

    /// The `InSv` column, when a model profile has it, is the invulnerable save; an
    /// `Invulnerable Save (X+)` ability that says another value is `B011` (its condition, `*`,
    /// is kept).
    fn invulnerable_column(&mut self) {
        let Some((column, (fi, p))) = self.insv.take() else {
            return;
        };
        let value = roll_in(&column).unwrap_or_else(|| column.clone());
        if let Some(ability) = self.ds.invulnerable_save.clone() {
            if ability != value {
                let unit = self.ds.name.clone().unwrap_or_default();
                let d = Diagnostic::new(
                    Code::InvulnerableDisagrees,
                    format!(
                        "'{unit}': InSv {value} but the Invulnerable Save ability says \
                         {ability}; the column's {value} is kept"
                    ),
                )
                .at(self.path(fi), self.tree(fi).node(p).line);
                self.diags.push(d);
            }
        }
        self.ds.invulnerable_value(Some(value));
    }

    /// Rules by link become core/faction abilities, unless they name a weapon keyword.
    fn finish_abilities(&mut self) {
        let weapon_keywords: Vec<String> = self
            .ds
            .weapons
            .iter()
            .flat_map(|w| w.keywords.iter())
            .map(|k| crate::text::fold::fold_for_compare(k))
            .chain(self.all_weapon_keywords.iter().cloned())
            .collect();
        let links = std::mem::take(&mut self.rule_links);
        for (name, param, system, at) in links {
            if name.is_empty() {
                continue;
            }
            let key = crate::text::fold::fold_for_compare(&name);
            let key = key.trim_end_matches(['x', '-', ' ']);
            if !key.is_empty() && weapon_keywords.iter().any(|k| k.starts_with(key)) {
                continue;
            }
            let group = if system { "core" } else { "faction" };
            if self
                .ds
                .abilities
                .iter()
                .any(|a| a.name.eq_ignore_ascii_case(&name) && a.group == group)
            {
                continue;
            }
            self.ds.abilities.push(Ability {
                name,
                group: group.to_string(),
                tags: Vec::new(),
                parameter: param,
                rule_id: None,
                text: None,
                at,
                translations: Default::default(),
            });
        }
    }
}

/// The units a `Leader` ability's text names: the list after `can be attached to the following
/// unit(s):`, one per bullet line (`■`, `-`, `•`) or separated by commas, the markup
/// (`**^^Kasrkin^^**`) removed; the list ends at the first line that is neither.
pub fn leads_in(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let Some(at) = lower.find("attached to") else {
        return Vec::new();
    };
    let Some(colon) = text[at..].find(':').map(|c| at + c + 1) else {
        return Vec::new();
    };
    let clean = |s: &str| -> String {
        s.replace(['*', '^'], "")
            .trim()
            .trim_end_matches(['.', ';'])
            .trim()
            .to_string()
    };
    let mut out: Vec<String> = Vec::new();
    for (i, line) in text[colon..].lines().enumerate() {
        let l = line.trim();
        let bullet = l
            .strip_prefix(['■', '-', '•', '*'])
            .filter(|_| !l.starts_with("**"));
        let items: Vec<&str> = match bullet {
            Some(rest) => vec![rest],
            None if l.is_empty() && out.is_empty() => continue,
            None if i == 0 || out.is_empty() => l.split(',').collect(),
            None => break,
        };
        out.extend(items.into_iter().map(clean).filter(|s| !s.is_empty()));
    }
    out
}

/// A weapon's name as the datasheet prints it: BattleScribe marks each profile of a weapon with
/// several profiles `➤ Plasma gun - standard`; the datasheet prints `Plasma gun – standard`.
pub fn weapon_name(name: &str) -> String {
    match name.trim().strip_prefix('➤') {
        Some(rest) => rest.trim().replacen(" - ", " – ", 1),
        None => name.trim().to_string(),
    }
}

/// Whether a modifier has no conditions, condition groups or repeats (its group's included).
fn unconditional(t: &Tree, m: usize) -> bool {
    let own = |n: usize| {
        t.node(n).children.iter().all(|&c| {
            !matches!(
                t.node(c).tag.as_ref(),
                "conditions" | "conditionGroups" | "repeats"
            ) || t.node(c).children.is_empty()
        })
    };
    let mut at = Some(m);
    while let Some(n) = at {
        let node = t.node(n);
        if matches!(node.tag.as_ref(), "modifier" | "modifierGroup") && !own(n) {
            return false;
        }
        at = node.parent.filter(|&p| {
            matches!(
                t.node(p).tag.as_ref(),
                "modifiers" | "modifierGroup" | "modifierGroups"
            )
        });
    }
    true
}

/// Whether an element is hidden in a roster where nothing is chosen yet: a `set hidden true`
/// modifier whose conditions hold when every count is zero (`lessThan 1`, `notInstanceOf`).
/// Conditions on the unit's own model count are not decided here (the modifier is ignored).
fn default_hidden(t: &Tree, n: usize, own: &HashSet<String>) -> bool {
    t.items(n, "modifiers", "modifier").any(|m| {
        let mn = t.node(m);
        if mn.attr("type") != Some("set")
            || mn.attr("field") != Some("hidden")
            || mn.attr("value") != Some("true")
        {
            return false;
        }
        let conds: Vec<usize> = t.items(m, "conditions", "condition").collect();
        let groups: Vec<usize> = t.items(m, "conditionGroups", "conditionGroup").collect();
        if conds.is_empty() && groups.is_empty() {
            return true;
        }
        // Groups: evaluated with an explicit stack, innermost first.
        let mut order: Vec<usize> = Vec::new();
        let mut stack = groups.clone();
        while let Some(g) = stack.pop() {
            order.push(g);
            stack.extend(t.items(g, "conditionGroups", "conditionGroup"));
        }
        let mut value: std::collections::HashMap<usize, Option<bool>> = Default::default();
        for &g in order.iter().rev() {
            let mut vals: Vec<Option<bool>> = t
                .items(g, "conditions", "condition")
                .map(|c| empty_roster(t, c, own))
                .collect();
            vals.extend(
                t.items(g, "conditionGroups", "conditionGroup")
                    .map(|x| value.get(&x).copied().flatten()),
            );
            // A child of another kind (a `localConditionGroup`: a count of units in the army)
            // is not decided here: never an empty `and` that holds.
            let known = |c: &usize| {
                matches!(
                    t.node(*c).tag.as_ref(),
                    "conditions" | "conditionGroups" | "comment"
                )
            };
            if !t.node(g).children.iter().all(known) {
                vals.push(None);
            }
            let v = if t.node(g).attr("type") == Some("or") {
                if vals.contains(&Some(true)) {
                    Some(true)
                } else if vals.contains(&None) {
                    None
                } else {
                    Some(false)
                }
            } else if vals.contains(&Some(false)) {
                Some(false)
            } else if vals.contains(&None) {
                None
            } else {
                Some(true)
            };
            value.insert(g, v);
        }
        let mut all: Vec<Option<bool>> = conds.iter().map(|&c| empty_roster(t, c, own)).collect();
        all.extend(groups.iter().map(|g| value.get(g).copied().flatten()));
        all.iter().all(|v| *v == Some(true))
    })
}

/// A condition's value when nothing is selected in an army of the faction being read (`own`:
/// its catalogues' ids); `None` when it is about the unit's models.
fn empty_roster(t: &Tree, c: usize, own: &HashSet<String>) -> Option<bool> {
    let n = t.node(c);
    if matches!(n.attr("childId"), Some("model" | "unit")) {
        return None;
    }
    if n.attr("scope") == Some("primary-catalogue") {
        // The army is the faction being read.
        let is_own = n.attr("childId").is_some_and(|id| own.contains(id));
        return match n.attr("type")? {
            "instanceOf" => Some(is_own),
            "notInstanceOf" => Some(!is_own),
            _ => None,
        };
    }
    let v = num(n.attr("value")).unwrap_or(0.0);
    Some(match n.attr("type")? {
        "lessThan" => 0.0 < v,
        "atMost" => 0.0 <= v,
        "equalTo" => v == 0.0,
        "notEqualTo" => v != 0.0,
        "atLeast" => v <= 0.0,
        "greaterThan" => false,
        "notInstanceOf" => true,
        "instanceOf" => false,
        _ => return None,
    })
}

/// The first roll (`4+`) in `s`.
fn roll_in(s: &str) -> Option<String> {
    let b = s.as_bytes();
    (0..b.len()).find_map(|start| {
        // Only a run's first digit starts one: checked before the run is walked, so a long
        // digit string is walked once, not once per digit.
        if start > 0 && b[start - 1].is_ascii_digit() {
            return None;
        }
        let mut j = start;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        (j > start && b.get(j) == Some(&b'+')).then(|| s[start..=j].to_string())
    })
}

/// Whether the first roll in `s` is starred (`5+*`).
fn roll_star(s: &str) -> bool {
    roll_in(s).is_some_and(|r| s.contains(&format!("{r}*")))
}

/// `Sanctifying Ritual (Psychic)` → (`Sanctifying Ritual`, [`Psychic`]); tags are short
/// capitalised words (`Aura`, `Psychic`), anything else stays in the name.
fn name_and_tags(name: &str) -> (String, Vec<String>) {
    let t = name.trim();
    if let Some(open) = t.rfind(" (") {
        if let Some(inner) = t[open + 2..].strip_suffix(')') {
            let tags: Vec<String> = inner.split(',').map(|s| s.trim().to_string()).collect();
            if tags
                .iter()
                .all(|g| matches!(g.as_str(), "Aura" | "Psychic"))
            {
                return (t[..open].trim().to_string(), tags);
            }
        }
    }
    (t.to_string(), Vec::new())
}

/// `4`, `2-5`, `1+`: a count or a range of counts.
fn count_range(lo: u32, hi: Option<u32>) -> String {
    match hi {
        Some(h) if h == lo => format!("{lo}"),
        Some(h) => format!("{lo}-{h}"),
        None => format!("{lo}+"),
    }
}

/// Whether group item `i` chooses one of several compositions: at most one selection, none of
/// its counted children a model itself.
fn is_choice(items: &[Item], ranges: &[(u32, Option<u32>, bool)], i: usize) -> bool {
    let it = &items[i];
    it.kind == ItemKind::Group
        && it.max == Some(1)
        && it
            .children
            .iter()
            .filter(|&&c| ranges[c].2)
            .all(|&c| items[c].kind != ItemKind::Model)
}

/// A condition on the unit's model count (`childId="model"`) or on the count of one of its
/// models (`childId` = that model entry's id), or `None` when it depends on anything else.
fn model_count_condition(
    t: &Tree,
    c: usize,
    models: &HashSet<&str>,
) -> Option<(String, u32, Option<String>)> {
    let n = t.node(c);
    let child = n.attr("childId")?;
    if n.attr("field") != Some("selections") || (child != "model" && !models.contains(child)) {
        return None;
    }
    let v = num(n.attr("value"))?.max(0.0) as u32;
    let which = (child != "model").then(|| child.to_string());
    Some((n.attr("type")?.to_string(), v, which))
}

fn holds(kind: &str, v: u32, count: u32) -> bool {
    match kind {
        "atLeast" => count >= v,
        "greaterThan" => count > v,
        "atMost" => count <= v,
        "lessThan" => count < v,
        "equalTo" => count == v,
        "notEqualTo" => count != v,
        _ => false,
    }
}

/// How many modifier groups may enclose a points modifier that is applied.
const MAX_MODIFIER_GROUPS: usize = 32;

/// A condition on a model count: (`atLeast`…, value, the model entry's id or the unit's).
type CountCondition = (String, u32, Option<String>);

/// The cost `v` of a unit of `count` models, the `unit`-th of its datasheet in the army, after
/// the points `rules` whose conditions hold (a condition on one model's count: the unit's count
/// less the other models at their minimum; a unit-count rule from its first unit on).
fn apply_points_rules(
    mut v: f64,
    count: u32,
    unit: u32,
    rules: &[PointsRule],
    items: &[Item],
    ranges: &[(u32, Option<u32>, bool)],
) -> f64 {
    let of = |id: &Option<String>| match id {
        None => count,
        Some(id) => count.saturating_sub(
            (1..items.len())
                .filter(|&j| items[j].kind == ItemKind::Model && !items[j].ids.contains(id))
                .map(|j| ranges[j].0)
                .sum(),
        ),
    };
    let ok = |(k, n, id): &CountCondition| holds(k, *n, of(id));
    for r in rules
        .iter()
        .filter(|r| !r.from_unit.is_some_and(|f| f > unit))
    {
        let groups_hold = r.groups.iter().all(|(or, cs)| {
            if *or {
                cs.iter().any(ok)
            } else {
                cs.iter().all(ok)
            }
        });
        if !r.conditions.iter().all(ok) || !groups_hold {
            continue;
        }
        let times = match &r.repeat {
            Some((per, reps, id)) => f64::from(of(id) / per) * f64::from(*reps),
            None => 1.0,
        };
        match r.kind.as_str() {
            "set" => v = r.value,
            "increment" => v += r.value * times,
            "decrement" => v -= r.value * times,
            _ => {}
        }
    }
    v
}

/// The points tiers from `lo` to `hi` models: at both ends when the cost is per model (or
/// repeats), else each band of equal cost at its largest count.
fn points_tiers(
    lo: u32,
    hi: u32,
    at_ends: bool,
    at: &Location,
    cost: impl Fn(u32) -> f64,
) -> Vec<PointsOption> {
    let mut tiers: Vec<PointsOption> = Vec::new();
    if at_ends {
        for n in [lo, hi] {
            if tiers.iter().all(|t| t.models != n) {
                tiers.push(PointsOption {
                    models: n,
                    points: cost(n).round().max(0.0) as u32,
                    at: at.clone(),
                    units: Default::default(),
                });
            }
        }
    } else {
        let mut n = lo;
        while n <= hi {
            let v = cost(n);
            let mut end = n;
            while end < hi && cost(end + 1) == v {
                end += 1;
            }
            tiers.push(PointsOption {
                models: end,
                points: v.round().max(0.0) as u32,
                at: at.clone(),
                units: Default::default(),
            });
            n = end + 1;
        }
    }
    tiers
}

/// The shape of a points modifier: `Ok(None)` a plain one, `Ok(Some(n))` a unit-count tier
/// (a condition group, of the modifier or of its enclosing modifier groups, holding a
/// `localConditionGroup` "at least N earlier instances of this unit in the army": it prices the
/// datasheet's `n` = N+1-th unit on), `Err(why)` a shape not applied: a local group of another
/// form, two of them, or a condition-group child of another kind. Such a group has no
/// `conditions` of its own: read as an empty `and` it would always hold.
fn modifier_shape(t: &Tree, m: usize, unit_ids: &[String]) -> Result<Option<u32>, String> {
    let mn = t.node(m);
    let what = format!(
        "points {} {}",
        mn.attr("type").unwrap_or("?"),
        mn.attr("value").unwrap_or("?")
    );
    let mut stack: Vec<usize> = Vec::new();
    let mut at = Some(m);
    let mut steps = 0;
    while let Some(x) = at {
        steps += 1;
        if steps > MAX_MODIFIER_GROUPS
            || !matches!(t.node(x).tag.as_ref(), "modifier" | "modifierGroup")
        {
            break;
        }
        stack.extend(t.items(x, "conditionGroups", "conditionGroup"));
        at = t
            .node(x)
            .parent
            .and_then(|p| t.node(p).parent)
            .filter(|&g| t.node(g).tag == "modifierGroup");
    }
    let mut from_unit = None;
    let mut seen = 0usize;
    while let Some(g) = stack.pop() {
        seen += 1;
        if seen > 10_000 {
            break;
        }
        for &c in t.node(g).children.iter() {
            match t.node(c).tag.as_ref() {
                "conditions" | "comment" => {}
                "conditionGroups" => stack.extend(t.children(c, "conditionGroup")),
                "localConditionGroups" => {
                    let locals: Vec<usize> = t.children(c, "localConditionGroup").collect();
                    match (locals.as_slice(), from_unit) {
                        ([l], None) => from_unit = Some(unit_count_from(t, *l, unit_ids, &what)?),
                        _ => {
                            return Err(format!(
                                "{what} under more than one unit-count condition \
                                 (localConditionGroup) not applied"
                            ))
                        }
                    }
                }
                other => {
                    return Err(format!(
                        "{what} under a condition group holding <{other}> (not a condition \
                         cogitator reads) not applied"
                    ))
                }
            }
        }
    }
    Ok(from_unit)
}

/// The first unit a `localConditionGroup` prices: `atLeast N` (or `greaterThan N`) earlier
/// selections in the army (`scope="parent"`) that are instances of this unit (`before` +
/// `instanceOf` its own id) → unit N+1 (N+2) on; any other form is not read.
fn unit_count_from(t: &Tree, l: usize, unit_ids: &[String], what: &str) -> Result<u32, String> {
    let ln = t.node(l);
    let (kind, value) = (
        ln.attr("type").unwrap_or("?"),
        ln.attr("value").unwrap_or("?"),
    );
    let refuse = || {
        format!(
            "{what} under a unit-count condition (localConditionGroup {kind} {value}) \
             that does not count this unit's earlier selections: not applied"
        )
    };
    let conds: Vec<usize> = t.items(l, "conditions", "condition").collect();
    let of_this_unit = conds.iter().any(|&c| {
        let cn = t.node(c);
        cn.attr("type") == Some("instanceOf")
            && cn
                .attr("childId")
                .is_some_and(|id| unit_ids.iter().any(|u| u == id))
    });
    let only_known = conds
        .iter()
        .all(|&c| matches!(t.node(c).attr("type"), Some("instanceOf" | "before")));
    let n = num(ln.attr("value")).filter(|n| n.fract() == 0.0 && (0.0..1e6).contains(n));
    match (kind, n, ln.attr("scope"), of_this_unit && only_known) {
        ("atLeast", Some(n), Some("parent"), true) => Ok(n as u32 + 1),
        ("greaterThan", Some(n), Some("parent"), true) => Ok(n as u32 + 2),
        _ => Err(refuse()),
    }
}

/// A points modifier keyed on the model count.
struct PointsRule {
    kind: String,
    value: f64,
    /// Every condition must hold (model-count conditions only).
    conditions: Vec<CountCondition>,
    /// Condition groups (one level: `or` when the flag is set, else `and`) of model-count
    /// conditions; every group must hold.
    groups: Vec<(bool, Vec<CountCondition>)>,
    /// `increment` per `per` models (of the unit, or of one of its models), `repeats` times
    /// each.
    repeat: Option<(u32, u32, Option<String>)>,
    /// A unit-count tier: the rule prices the datasheet's units from this one on.
    from_unit: Option<u32>,
}

impl Walk<'_, '_> {
    /// The points modifiers of the root, those on anything but the model count dropped; one of
    /// a shape not applied (a unit-count tier, an unknown condition-group child) is `B010`.
    fn points_rules(&mut self, parts: &[At]) -> Vec<PointsRule> {
        let Some(pts) = self.pts_type.clone() else {
            return Vec::new();
        };
        // The unit's own ids (its entry and the links that reach it), which a unit-count
        // condition names.
        let unit_ids: Vec<String> = parts
            .iter()
            .filter_map(|&(fi, n)| self.tree(fi).node(n).attr("id").map(str::to_string))
            .collect();
        let mut out = Vec::new();
        for &(fi, n) in parts {
            let t = self.tree(fi);
            // Modifiers directly on the root and in its modifier groups.
            for m in modifiers_of(t, n) {
                if t.node(m).attr("field") != Some(pts.as_str()) {
                    continue;
                }
                let from_unit = match modifier_shape(t, m, &unit_ids) {
                    Ok(from_unit) => from_unit,
                    Err(why) => {
                        let unit = self.ds.name.clone().unwrap_or_default();
                        let d = Diagnostic::new(
                            Code::ModifierNotApplied,
                            format!("'{unit}': {why}; the base tiers are given"),
                        )
                        .at(self.path(fi), t.node(m).line);
                        self.diags.push(d);
                        continue;
                    }
                };
                out.extend(
                    self.points_rule(t, m, &pts)
                        .map(|r| PointsRule { from_unit, ..r }),
                );
            }
        }
        out
    }

    fn points_rule(&self, t: &Tree, m: usize, pts: &str) -> Option<PointsRule> {
        let mn = t.node(m);
        if mn.attr("field") != Some(pts) {
            return None;
        }
        let models: HashSet<&str> = self
            .items
            .iter()
            .filter(|i| i.kind == ItemKind::Model)
            .flat_map(|i| i.ids.iter().map(String::as_str))
            .collect();
        let mut conditions = Vec::new();
        let mut groups = Vec::new();
        let mut repeat = None;
        // The modifier's and its enclosing groups' conditions. Groups nested deeper than
        // `MAX_MODIFIER_GROUPS` (real data: 2) are not a count band either: not applied, so
        // the walk from every modifier of a deep nest stays short.
        let mut at = Some(m);
        let mut steps = 0;
        while let Some(x) = at {
            let node = t.node(x);
            if !matches!(node.tag.as_ref(), "modifier" | "modifierGroup") {
                break;
            }
            steps += 1;
            if steps > MAX_MODIFIER_GROUPS {
                return None;
            }
            for g in t.items(x, "conditionGroups", "conditionGroup") {
                if t.items(g, "conditionGroups", "conditionGroup")
                    .next()
                    .is_some()
                {
                    // Nested groups: not a plain count band; not applied.
                    return None;
                }
                let conds: Option<Vec<_>> = t
                    .items(g, "conditions", "condition")
                    .map(|c| model_count_condition(t, c, &models))
                    .collect();
                groups.push((t.node(g).attr("type") == Some("or"), conds?));
            }
            for c in t.items(x, "conditions", "condition") {
                conditions.push(model_count_condition(t, c, &models)?);
            }
            for r in t.items(x, "repeats", "repeat") {
                let rn = t.node(r);
                let child = rn.attr("childId")?;
                if rn.attr("field") != Some("selections")
                    || (child != "model" && !models.contains(child))
                {
                    return None;
                }
                let per = num(rn.attr("value"))?.max(1.0) as u32;
                let times = num(rn.attr("repeats")).unwrap_or(1.0).max(0.0) as u32;
                repeat = Some((per, times, (child != "model").then(|| child.to_string())));
            }
            at = node
                .parent
                .and_then(|p| t.node(p).parent)
                .filter(|&g| t.node(g).tag == "modifierGroup");
        }
        Some(PointsRule {
            kind: mn.attr("type")?.to_string(),
            value: num(mn.attr("value"))?,
            conditions,
            groups,
            repeat,
            from_unit: None,
        })
    }

    /// Model count range of every item, children before parents.
    fn ranges(&self) -> Vec<(u32, Option<u32>, bool)> {
        let mut r: Vec<(u32, Option<u32>, bool)> = vec![(0, Some(0), false); self.items.len()];
        for i in (0..self.items.len()).rev() {
            let it = &self.items[i];
            let kids: Vec<(u32, Option<u32>, bool)> =
                it.children.iter().map(|&c| r[c]).filter(|k| k.2).collect();
            let sum_lo: u32 = kids.iter().fold(0u32, |a, k| a.saturating_add(k.0));
            let sum_hi: Option<u32> = kids
                .iter()
                .try_fold(0u32, |a, k| k.1.map(|h| a.saturating_add(h)));
            r[i] = match it.kind {
                ItemKind::Model if i == 0 => (1, Some(1), true),
                ItemKind::Model => (it.min.unwrap_or(0), it.max, true),
                ItemKind::Root => (sum_lo, sum_hi, !kids.is_empty()),
                _ if kids.is_empty() => (0, Some(0), false),
                ItemKind::Entry => {
                    // Selected `min..max` times, each selection its models.
                    let lo = if it.min.unwrap_or(0) >= 1 { sum_lo } else { 0 };
                    let hi = sum_hi.map(|h| h.saturating_mul(it.max.unwrap_or(1).max(1)));
                    (lo, hi, true)
                }
                ItemKind::Group => {
                    if is_choice(&self.items, &r, i) {
                        // One of several compositions.
                        let lo = if it.min.unwrap_or(0) >= 1 {
                            kids.iter().map(|k| k.0).min().unwrap_or(0)
                        } else {
                            0
                        };
                        let hi = kids.iter().try_fold(0u32, |a, k| k.1.map(|h| a.max(h)));
                        (lo, hi, true)
                    } else {
                        let lo = sum_lo.max(it.min.unwrap_or(0));
                        let hi = match (sum_hi, it.max) {
                            (Some(a), Some(b)) => Some(a.min(b)),
                            (None, b) => b,
                            (a, None) => a,
                        };
                        (lo, hi, true)
                    }
                }
            };
        }
        r
    }

    /// The cost of points type `pts` on the unit's `parts` (the last one given), and where it
    /// is printed (else the unit's own element).
    fn base_cost(&self, parts: &[At], pts: &str) -> (Option<f64>, Option<(usize, u32)>) {
        let mut base: Option<f64> = None;
        let mut cost_at: Option<(usize, u32)> = parts
            .first()
            .map(|&(fi, n)| (fi, self.tree(fi).node(n).line));
        for &(fi, n) in parts {
            let t = self.tree(fi);
            for c in t.items(n, "costs", "cost") {
                let c = t.node(c);
                if c.attr("typeId") == Some(pts) {
                    if let Some(v) = num(c.attr("value")) {
                        base = Some(v);
                        cost_at = Some((fi, c.line));
                    }
                }
            }
        }
        (base, cost_at)
    }

    /// The count a costed model with no minimum (a champion, a banner: an optional upgrade) is
    /// not charged for: when the unit's costless models alone make up its smallest size (`lo`)
    /// they hold the count first, and the varying model is charged only beyond them; else 0.
    fn held_by_costless(
        &self,
        varying: Option<usize>,
        ranges: &[(u32, Option<u32>, bool)],
        lo: u32,
    ) -> u32 {
        let free: Vec<usize> = (1..self.items.len())
            .filter(|&i| self.items[i].kind == ItemKind::Model && self.items[i].cost <= 0.0)
            .collect();
        let free_hi: Option<u32> = free
            .iter()
            .try_fold(0u32, |a, &j| ranges[j].1.map(|h| a.saturating_add(h)));
        match varying {
            Some(i) if ranges[i].0 == 0 && !free.is_empty() => match free_hi {
                Some(h) if h >= lo => h,
                Some(_) => 0,
                None => u32::MAX,
            },
            _ => 0,
        }
    }

    /// Points tiers: each band of equal cost at its largest count; per-model costs at the
    /// smallest and the largest count.
    fn points(&mut self, parts: &[At]) {
        let Some(pts) = self.pts_type.clone() else {
            return;
        };
        let (base, cost_at) = self.base_cost(parts, &pts);
        let ranges = self.ranges();
        let (lo, hi, _) = ranges[0];
        let lo = lo.max(1);
        let hi = hi.unwrap_or(lo).max(lo).min(lo.saturating_add(500));
        // Per-model costs: the model item with the widest range varies, the others are fixed.
        let models: Vec<usize> = (1..self.items.len())
            .filter(|&i| self.items[i].kind == ItemKind::Model && self.items[i].cost > 0.0)
            .collect();
        let varying = models.iter().copied().max_by_key(|&i| {
            ranges[i]
                .1
                .unwrap_or(ranges[i].0)
                .saturating_sub(ranges[i].0)
        });
        let fixed: f64 = models
            .iter()
            .filter(|&&i| Some(i) != varying)
            .map(|&i| self.items[i].cost * f64::from(ranges[i].0))
            .sum();
        let per_model = varying.map(|i| self.items[i].cost);
        let held = self.held_by_costless(varying, &ranges, lo);
        if base.is_none() && per_model.is_none() {
            return;
        }
        let rules = self.points_rules(parts);
        // Only in a file the datasheet already names as a source (a location adds none).
        let at = cost_at
            .map(|(fi, line)| Location::at_line(self.store.files[fi].path.clone(), line))
            .filter(|at| self.ds.sources.iter().any(|s| s.file == at.file))
            .unwrap_or_default();
        let cost = |count: u32, unit: u32| -> f64 {
            let mut v = base.unwrap_or(0.0);
            if let (Some(c), Some(i)) = (per_model, varying) {
                let others: u32 = models
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| ranges[j].0)
                    .sum();
                v += fixed + c * f64::from(count.saturating_sub(others).saturating_sub(held));
            }
            apply_points_rules(v, count, unit, &rules, &self.items, &ranges)
        };
        let per_model_or_repeat = per_model.is_some() || rules.iter().any(|r| r.repeat.is_some());
        // Without a unit-count rule, one set of tiers for every unit (no `units`); with them,
        // one set per range of units between the rules' first units.
        let mut firsts: Vec<u32> = rules.iter().filter_map(|r| r.from_unit).collect();
        firsts.sort_unstable();
        firsts.dedup();
        if firsts.is_empty() {
            self.ds.points = points_tiers(lo, hi, per_model_or_repeat, &at, |n| cost(n, 1));
            return;
        }
        let starts = std::iter::once(1).chain(firsts.iter().copied().filter(|&f| f > 1));
        let mut tiers = Vec::new();
        for from in starts {
            let to = firsts.iter().copied().find(|&f| f > from).map(|f| f - 1);
            let units = Some(UnitRange { from, to });
            let priced = points_tiers(lo, hi, per_model_or_repeat, &at, |n| cost(n, from));
            tiers.extend(priced.into_iter().map(|t| PointsOption { units, ..t }));
        }
        self.ds.points = tiers;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roll_starts_at_a_runs_first_digit() {
        assert_eq!(roll_in("4+").as_deref(), Some("4+"));
        assert_eq!(roll_in("Save 12 or 5+*").as_deref(), Some("5+"));
        assert_eq!(roll_in("1234+").as_deref(), Some("1234+"));
        assert_eq!(roll_in("+5 12"), None);
        // A long digit string without a `+`: none, in one pass.
        assert_eq!(roll_in(&"9".repeat(200_000)), None);
    }
}
