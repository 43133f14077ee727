//! Issue 26's acceptance, measured: the 11th-edition datasets of BattleScribe's JSON
//! (`../shared/corpus/bsdata/wh40k-11e`) and of the GW app's data
//! (`../shared/corpus/game-datacards/11th`) against an **independent reading** of the same
//! files, written here from the JSON's structure with `serde_json::Value` only (no reader code
//! of cogitator: only `pipeline::run`, through `util::ingest_in_memory`, gives our dataset).
//!
//! Each source is ingested alone and its datasheets are paired with the reading by name within
//! the file that holds them; every unit, model characteristic, invulnerable save, weapon
//! characteristic, ability name, points tier and keyword is one check. The figure per file and
//! field kind and every disagreement are printed (`-- --nocapture`); ≥ 99% is asserted per
//! file. Names and values are compared folded for case and typography (`’` is `'`, `–` is
//! `-`), never otherwise. Then one ingest of both Custodes files must give one datasheet with
//! both sources for every unit both name. Skips without `../shared`, fails with
//! `COGITATOR_REQUIRE_CORPUS=1`.

use crate::util;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The share of checks that must agree, per file.
const AT_LEAST: f64 = 0.99;

/// One unit as a reading gives it, every value folded ([`fold`]).
#[derive(Default, Debug)]
struct Unit {
    /// Model profile name → `[M, T, Sv, W, Ld, OC]`.
    models: BTreeMap<String, Vec<String>>,
    invuln: Option<String>,
    /// `(name, ranged|melee)` → profiles `[range, A, skill, S, AP, D, keywords]`.
    weapons: BTreeMap<(String, String), BTreeSet<Vec<String>>>,
    abilities: BTreeSet<String>,
    /// Of the abilities, those read from rules (BattleScribe), not from ability profiles.
    rules: BTreeSet<String>,
    /// `(models, points, first unit, last unit)`; `(.., 0, None)` prices every unit.
    points: BTreeSet<(u32, u32, u32, Option<u32>)>,
    keywords: BTreeSet<String>,
    factions: BTreeSet<String>,
}

const MODEL_FIELDS: [&str; 6] = ["M", "T", "Sv", "W", "Ld", "OC"];
const WEAPON_FIELDS: [&str; 7] = ["range", "A", "skill", "S", "AP", "D", "keywords"];

/// Case and typography folded: lower case, curly quotes straight, dashes and hyphens `-`,
/// every run of white space one space.
fn fold(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{02bc}' => '\'',
            '\u{201c}' | '\u{201d}' => '"',
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
            c => c,
        })
        .collect();
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A weapon's keywords as one value: folded, sorted, `-` and empty none.
fn keyword_list<'a>(words: impl Iterator<Item = &'a str>) -> String {
    let mut w: Vec<String> = words
        .map(fold)
        .filter(|k| !k.is_empty() && k != "-")
        .collect();
    w.sort();
    w.join(", ")
}

fn arr<'a>(v: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    v.get(key).and_then(Value::as_array).into_iter().flatten()
}

fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A JSON scalar as its text (`5`, `"5"`, `true`).
fn scalar(v: &Value) -> String {
    match v {
        Value::String(t) => t.clone(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// Counts of checks and agreements, per field kind, and every disagreement.
#[derive(Default)]
struct Tally {
    kinds: BTreeMap<&'static str, (usize, usize)>,
    disagreements: Vec<String>,
}

impl Tally {
    fn check(&mut self, kind: &'static str, unit: &str, what: &str, read: &str, ours: &str) {
        let e = self.kinds.entry(kind).or_default();
        e.0 += 1;
        if read == ours {
            e.1 += 1;
        } else {
            self.disagreements.push(format!(
                "{kind} | {unit} | {what}: reading {read:?}, ours {ours:?}"
            ));
        }
    }

    /// Both sides' members of a set: one check per member of either.
    fn sets<T: Ord + std::fmt::Debug>(
        &mut self,
        kind: &'static str,
        unit: &str,
        read: &BTreeSet<T>,
        ours: &BTreeSet<T>,
    ) {
        for x in read.union(ours) {
            let (a, b) = (read.contains(x), ours.contains(x));
            let show = |p: bool| if p { "present" } else { "absent" };
            self.check(kind, unit, &format!("{x:?}"), show(a), show(b));
        }
    }

    fn totals(&self) -> (usize, usize) {
        self.kinds
            .values()
            .fold((0, 0), |(n, m), (a, b)| (n + a, m + b))
    }

    /// Prints the figure and every disagreement; whether ≥ [`AT_LEAST`] agree.
    fn report(&self, file: &str) -> bool {
        let (n, m) = self.totals();
        let pct = |n: usize, m: usize| 100.0 * m as f64 / n.max(1) as f64;
        println!("{file}: {n} checks, {m} agree ({:.2}%)", pct(n, m));
        for (k, (a, b)) in &self.kinds {
            println!("  {k}: {a} checks, {b} agree ({:.2}%)", pct(*a, *b));
        }
        for d in &self.disagreements {
            println!("  DIFFERS {d}");
        }
        n > 0 && m as f64 >= AT_LEAST * n as f64
    }
}

/// Compares one unit of the reading with ours (`None`: we have no datasheet of that name).
fn compare(t: &mut Tally, name: &str, read: &Unit, ours: Option<&Unit>) {
    t.check(
        "unit",
        name,
        "datasheet",
        "present",
        if ours.is_some() { "present" } else { "absent" },
    );
    let Some(ours) = ours else { return };
    let names: BTreeSet<&String> = read.models.keys().chain(ours.models.keys()).collect();
    for m in names {
        let (a, b) = (read.models.get(m), ours.models.get(m));
        for (i, f) in MODEL_FIELDS.iter().enumerate() {
            let v = |p: Option<&Vec<String>>| p.map_or("(no model)".into(), |p| p[i].clone());
            t.check("model", name, &format!("{m} {f}"), &v(a), &v(b));
        }
    }
    let inv = |v: &Option<String>| v.clone().unwrap_or_default();
    t.check(
        "invuln",
        name,
        "InSv",
        &inv(&read.invuln),
        &inv(&ours.invuln),
    );
    let keys: BTreeSet<&(String, String)> =
        read.weapons.keys().chain(ours.weapons.keys()).collect();
    for k in keys {
        let none = BTreeSet::new();
        let (a, b) = (
            read.weapons.get(k).unwrap_or(&none),
            ours.weapons.get(k).unwrap_or(&none),
        );
        let (a, b): (Vec<_>, Vec<_>) = (a.iter().collect(), b.iter().collect());
        for i in 0..a.len().max(b.len()) {
            for (j, f) in WEAPON_FIELDS.iter().enumerate() {
                let v =
                    |p: Option<&&Vec<String>>| p.map_or("(no profile)".into(), |p| p[j].clone());
                let what = format!("{} ({}) #{i} {f}", k.0, k.1);
                t.check("weapon", name, &what, &v(a.get(i)), &v(b.get(i)));
            }
        }
    }
    t.sets("ability", name, &read.abilities, &ours.abilities);
    t.sets("points", name, &read.points, &ours.points);
    t.sets("keyword", name, &read.keywords, &ours.keywords);
    t.sets("faction keyword", name, &read.factions, &ours.factions);
}

/// Our datasheets of the faction of those whose sources include `file` (a catalogue's units
/// may come from its library), by folded name, as [`Unit`]s.
fn ours_of(datasheets: &Value, file: &str) -> BTreeMap<String, Unit> {
    let all = || datasheets.as_array().into_iter().flatten();
    let factions: BTreeSet<&str> = all()
        .filter(|d| arr(d, "sources").any(|p| s(p, "file") == file))
        .map(|d| s(d, "faction"))
        .collect();
    all()
        .filter(|d| factions.contains(s(d, "faction")))
        .map(|d| (fold(s(d, "name")), our_unit(d)))
        .collect()
}

/// One of our datasheets (its JSON) as a [`Unit`].
fn our_unit(d: &Value) -> Unit {
    let mut u = Unit::default();
    for m in arr(d, "models") {
        let v = MODEL_FIELDS.iter().map(|f| fold(&scalar(&m[f]))).collect();
        u.models.entry(fold(s(m, "name"))).or_insert(v);
    }
    u.invuln = d["invulnerable_save"].as_str().map(fold);
    for w in arr(d, "weapons") {
        let mut v: Vec<String> = WEAPON_FIELDS[..6]
            .iter()
            .map(|f| fold(&scalar(&w[f])))
            .collect();
        v.push(keyword_list(arr(w, "keywords").filter_map(Value::as_str)));
        let key = (fold(s(w, "name")), s(w, "type").to_string());
        u.weapons.entry(key).or_default().insert(v);
    }
    // The contract keeps `(Aura, Psychic)` as the ability's tags and the damaged box apart:
    // put back as printed.
    for a in arr(d, "abilities") {
        let tags: Vec<&str> = arr(a, "tags").filter_map(Value::as_str).collect();
        let name = match tags.is_empty() {
            true => s(a, "name").to_string(),
            false => format!("{} ({})", s(a, "name"), tags.join(", ")),
        };
        u.abilities.insert(fold(&name));
    }
    if let Some(damaged) = d["damaged"].get("name").and_then(Value::as_str) {
        u.abilities.insert(fold(damaged));
    }
    for p in arr(d, "points") {
        let n = |k: &str| p[k].as_u64().unwrap_or(0) as u32;
        let (from, to) = match p.get("units") {
            Some(r) => (
                r["from"].as_u64().unwrap_or(0) as u32,
                r["to"].as_u64().map(|x| x as u32),
            ),
            None => (0, None),
        };
        u.points.insert((n("models"), n("points"), from, to));
    }
    let list = |k: &str| arr(d, k).filter_map(Value::as_str).map(fold).collect();
    u.keywords = list("keywords");
    u.factions = list("faction_keywords");
    u
}

/// The reading's units against ours, for one file.
fn tally_file(read: &BTreeMap<String, Unit>, ours: &BTreeMap<String, Unit>) -> Tally {
    let mut t = Tally::default();
    for (name, u) in read {
        compare(&mut t, name, u, ours.get(name));
    }
    for name in ours.keys().filter(|n| !read.contains_key(*n)) {
        t.check("unit", name, "datasheet", "absent", "present");
    }
    t
}

fn ingest(files: &[(String, Vec<u8>)]) -> Value {
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let ds = util::ingest_in_memory(&refs);
    serde_json::to_value(&ds.datasheets).expect("datasheets serialize")
}

/// The files of a corpus folder (`prefix/NAME`), those `keep` accepts, sorted.
fn folder(
    dir: &std::path::Path,
    prefix: &str,
    keep: &dyn Fn(&str) -> bool,
) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("read corpus folder") {
        let p = e.expect("corpus entry").path();
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        if let Some(name) = name.filter(|n| p.is_file() && keep(n)) {
            out.push((format!("{prefix}/{name}"), std::fs::read(&p).expect("read")));
        }
    }
    out.sort();
    out
}

fn parse(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).expect("corpus JSON parses")
}

// ---------------------------------------------------------------------------------------------
// BattleScribe JSON, read independently.

/// The files of one game system: every object with an `id` and no `targetId`, by id (the
/// first file in path order wins), and the game system's cost type `pts` and profile types.
struct Bs<'a> {
    index: HashMap<&'a str, &'a Value>,
    pts: String,
    profile_types: HashMap<&'a str, &'a str>,
}

impl<'a> Bs<'a> {
    fn new(roots: &[&'a Value]) -> Bs<'a> {
        let mut bs = Bs {
            index: HashMap::new(),
            pts: String::new(),
            profile_types: HashMap::new(),
        };
        for r in roots {
            bs.index_all(r);
            for c in arr(r, "costTypes").filter(|c| s(c, "name") == "pts") {
                bs.pts = s(c, "id").to_string();
            }
            for p in arr(r, "profileTypes") {
                bs.profile_types.insert(s(p, "id"), s(p, "name"));
            }
        }
        bs
    }

    fn index_all(&mut self, v: &'a Value) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                Value::Object(o) => {
                    if let (Some(id), None) =
                        (o.get("id").and_then(Value::as_str), o.get("targetId"))
                    {
                        self.index.entry(id).or_insert(v);
                    }
                    stack.extend(o.values());
                }
                Value::Array(a) => stack.extend(a),
                _ => {}
            }
        }
    }

    fn target(&self, link: &'a Value) -> Option<&'a Value> {
        self.index.get(s(link, "targetId")).copied()
    }
}

/// `hidden: true`. (A category hidden until a roster option is chosen is printed all the
/// same: 10th edition's `Shadow Legion`, which Wahapedia's export lists.)
fn hidden_flag(v: &Value) -> bool {
    v.get("hidden").and_then(Value::as_bool) == Some(true)
}

/// Hidden in a roster where nothing is chosen yet: `hidden: true`, or a `set hidden true`
/// modifier whose conditions hold when every count is zero.
fn hidden(v: &Value) -> bool {
    hidden_flag(v)
        || arr(v, "modifiers").any(|m| {
            s(m, "type") == "set"
                && s(m, "field") == "hidden"
                && m["value"] == Value::Bool(true)
                && holds_when_empty(m)
        })
}

/// Whether a modifier's conditions (an `and` of its conditions and condition groups) hold
/// with nothing selected; what this reading cannot decide does not hold.
fn holds_when_empty(g: &Value) -> bool {
    let conds = arr(g, "conditions").map(|c| {
        let n = c["value"].as_f64().unwrap_or(1.0);
        match s(c, "type") {
            "lessThan" => n > 0.0,
            "atMost" | "notInstanceOf" => true,
            "equalTo" | "atLeast" => n == 0.0,
            _ => false,
        }
    });
    let groups = arr(g, "conditionGroups").map(holds_when_empty);
    let mut all: Vec<bool> = conds.chain(groups).collect();
    if g.get("localConditionGroups").is_some() {
        all.push(false);
    }
    match s(g, "type") {
        "or" => all.contains(&true),
        _ => !all.is_empty() && !all.contains(&false),
    }
}

/// The units a catalogue offers: its root entries (links resolved) of type unit or model.
fn bs_units<'a>(bs: &Bs<'a>, cat: &'a Value) -> BTreeMap<String, Unit> {
    let mut out = BTreeMap::new();
    let roots = arr(cat, "selectionEntries").map(|e| (e, e));
    let links = arr(cat, "entryLinks").filter_map(|l| Some((l, bs.target(l)?)));
    for (at, e) in roots.chain(links) {
        // `[Crucible]` roots are Crusade characters, not datasheets (the contract's rule).
        let name = s(e, "name");
        // A hidden root is a datasheet all the same (`HIDDEN UNTIL LEGENDS`): hidden says
        // whether a roster offers it today, not whether the catalogue holds it.
        if !matches!(s(e, "type"), "unit" | "model") || name.ends_with("[Crucible]") {
            continue;
        }
        let mut u = Unit::default();
        let mut seen = Vec::new();
        walk(bs, e, &mut u, &mut seen, 0);
        bs_keywords(bs, at, e, &mut u);
        u.points = bs_points(bs, e);
        // The contract keeps a trailing `[Legends]` as the datasheet's `legends` flag.
        out.insert(fold(name.trim_end_matches("[Legends]")), u);
    }
    // A rule named like a weapon keyword of the data (`Sustained Hits` for `Sustained Hits
    // 1`) is glossary wherever it is linked, as the contract reads it: not an ability.
    let words: BTreeSet<String> = out
        .values()
        .flat_map(|u| u.weapons.values().flatten())
        .flat_map(|p| p[6].split(", ").map(str::to_string).collect::<Vec<_>>())
        .collect();
    for u in out.values_mut() {
        let glossary: Vec<String> = u
            .rules
            .iter()
            .filter(|r| words.iter().any(|w| w.starts_with(r.as_str())))
            .cloned()
            .collect();
        for r in glossary {
            u.abilities.remove(&r);
        }
    }
    out
}

/// The unit's keywords: the categories of its root entry and of its models (a hidden category
/// is none), `Faction: X` a faction keyword; unconditional `add`/`remove` category modifiers
/// of the root applied.
fn bs_keywords<'a>(bs: &Bs<'a>, at: &'a Value, e: &'a Value, u: &mut Unit) {
    let mut links: Vec<&Value> = arr(at, "categoryLinks")
        .chain(arr(e, "categoryLinks"))
        .collect();
    let mut stack = children(bs, e);
    while let Some((_, c)) = stack.pop() {
        match s(c, "type") {
            "model" => links.extend(arr(c, "categoryLinks")),
            "" => stack.extend(children(bs, c)),
            _ => {}
        }
    }
    // A category of a catalogue the folder lacks is named by its link.
    let mut names: Vec<&str> = links
        .iter()
        .filter(|c| !hidden_flag(c) && !bs.target(c).is_some_and(hidden_flag))
        .map(|c| bs.target(c).map_or(s(c, "name"), |t| s(t, "name")))
        .collect();
    for m in arr(e, "modifiers").filter(|m| {
        s(m, "field") == "category"
            && m.get("conditions").is_none()
            && m.get("conditionGroups").is_none()
    }) {
        let Some(cat) = bs.index.get(m["value"].as_str().unwrap_or("")) else {
            continue;
        };
        match s(m, "type") {
            "add" if !hidden_flag(cat) => names.push(s(cat, "name")),
            "remove" => names.retain(|x| *x != s(cat, "name")),
            _ => {}
        }
    }
    for name in names {
        match name.strip_prefix("Faction: ") {
            Some(f) => u.factions.insert(fold(f)),
            None => u.keywords.insert(fold(name)),
        };
    }
}

/// Everything under an entry (or group, or info group): its profiles, rules, info links and
/// child entries, links followed; hidden ones left out.
fn walk<'a>(bs: &Bs<'a>, e: &'a Value, u: &mut Unit, seen: &mut Vec<&'a str>, depth: usize) {
    if depth > 0 && hidden(e) || depth > 64 {
        return;
    }
    for p in arr(e, "profiles") {
        bs_profile(bs, p, None, u);
    }
    // A weapon's entry links the rules of its keywords: they are not the unit's abilities.
    let linked = arr(e, "infoLinks").filter_map(|l| bs.target(l));
    let weapon = arr(e, "profiles")
        .chain(linked)
        .any(|p| s(p, "typeName").ends_with("Weapons"));
    for r in arr(e, "rules").filter(|r| !hidden(r) && !weapon) {
        u.abilities.insert(fold(s(r, "name")));
        u.rules.insert(fold(s(r, "name")));
    }
    for l in arr(e, "infoLinks").filter(|l| !hidden(l)) {
        let Some(t) = bs.target(l) else { continue };
        match s(l, "type") {
            "profile" => bs_profile(bs, t, Some(l), u),
            "rule" if weapon => {}
            "rule" => {
                u.abilities.insert(fold(s(t, "name")));
                u.rules.insert(fold(s(t, "name")));
            }
            _ => walk(bs, t, u, seen, depth + 1),
        }
    }
    let children = ["infoGroups", "selectionEntries", "selectionEntryGroups"];
    for c in children.iter().flat_map(|k| arr(e, k)) {
        walk(bs, c, u, seen, depth + 1);
    }
    for l in arr(e, "entryLinks").filter(|l| !hidden(l)) {
        let Some(t) = bs.target(l) else { continue };
        let id = s(t, "id");
        if !seen.contains(&id) {
            seen.push(id);
            walk(bs, t, u, seen, depth + 1);
            seen.pop();
        }
    }
}

/// One profile (through its info link, if linked): its characteristics by name, the
/// unconditional `set` modifiers of the profile and of its link applied (a link may rename the
/// profile: Zoanthropes' `Zoanthrope` profile linked as `Neurothrope`).
fn bs_profile(bs: &Bs, p: &Value, link: Option<&Value>, u: &mut Unit) {
    if hidden(p) {
        return;
    }
    let mut name = s(p, "name").to_string();
    let mut chars: Vec<(String, String, String)> = arr(p, "characteristics")
        .map(|c| {
            (
                s(c, "typeId").into(),
                s(c, "name").into(),
                s(c, "$text").into(),
            )
        })
        .collect();
    let link_mods = link.into_iter().flat_map(|l| arr(l, "modifiers"));
    for m in arr(p, "modifiers").chain(link_mods) {
        let conditional = m.get("conditions").is_some() || m.get("conditionGroups").is_some();
        if s(m, "type") == "set" && s(m, "field") == "name" && !conditional {
            name = scalar(&m["value"]);
        }
        if s(m, "type") == "set" && !conditional {
            for c in chars.iter_mut().filter(|c| c.0 == s(m, "field")) {
                c.2 = scalar(&m["value"]);
            }
        }
    }
    let get = |n: &str| {
        chars
            .iter()
            .find(|c| c.1.eq_ignore_ascii_case(n))
            .map_or(String::new(), |c| fold(&c.2))
    };
    let kind = match s(p, "typeName") {
        "" => bs.profile_types.get(s(p, "typeId")).copied().unwrap_or(""),
        k => k,
    };
    match kind {
        "Unit" => {
            let v = MODEL_FIELDS.iter().map(|f| get(f)).collect();
            u.models.entry(fold(&name)).or_insert(v);
            let inv = get("InSv");
            if u.invuln.is_none() && !inv.is_empty() && inv != "-" {
                u.invuln = Some(inv);
            }
        }
        "Ranged Weapons" | "Melee Weapons" => {
            let (ty, skill) = if kind.starts_with("Ranged") {
                ("ranged", "BS")
            } else {
                ("melee", "WS")
            };
            let mut v: Vec<String> = ["Range", "A", skill, "S", "AP", "D"]
                .iter()
                .map(|f| get(f))
                .collect();
            v.push(keyword_list(get("Keywords").split(',')));
            // `➤ ` marks a profile of a weapon with several (BSData's convention).
            let name = name.trim_start_matches('\u{27a4}').trim();
            let key = (fold(name), ty.to_string());
            u.weapons.entry(key).or_default().insert(v);
        }
        "Abilities" => {
            u.abilities.insert(fold(&name));
        }
        _ => {}
    }
}

/// A condition of a points modifier, as far as this reading takes it.
#[derive(Debug, PartialEq)]
enum Cond {
    /// The unit has at least this many models.
    Models(u32),
    /// At least this many units of this datasheet were selected before this one.
    EarlierUnits(u32),
    Other,
}

fn cond_of(c: &Value) -> Cond {
    let n = c["value"].as_f64().unwrap_or(-1.0) as u32;
    if s(c, "field") != "selections" || s(c, "childId") != "model" {
        return Cond::Other;
    }
    match s(c, "type") {
        "atLeast" | "equalTo" => Cond::Models(n),
        "greaterThan" => Cond::Models(n + 1),
        _ => Cond::Other,
    }
}

/// A condition group's conditions: `localConditionGroups` of "at least K earlier selections
/// of this entry" are [`Cond::EarlierUnits`].
fn group_conds(g: &Value, out: &mut Vec<Cond>) {
    let plain: Vec<&Value> = arr(g, "conditions").collect();
    if s(g, "type") == "or" && plain.len() > 1 || g.get("conditionGroups").is_some() {
        out.push(Cond::Other);
    }
    out.extend(plain.into_iter().map(cond_of));
    for l in arr(g, "localConditionGroups") {
        let earlier = arr(l, "conditions").any(|c| s(c, "type") == "before")
            && arr(l, "conditions").any(|c| s(c, "type") == "instanceOf");
        out.push(match (s(l, "type"), earlier) {
            ("atLeast", true) => Cond::EarlierUnits(l["value"].as_f64().unwrap_or(0.0) as u32),
            _ => Cond::Other,
        });
    }
}

/// The points modifiers of an entry with their conditions, those of enclosing modifier
/// groups included.
fn pts_modifiers<'a>(
    bs: &Bs,
    e: &'a Value,
    inherited: &[&'a Value],
    out: &mut Vec<(&'a Value, Vec<Cond>)>,
) {
    for m in arr(e, "modifiers").filter(|m| s(m, "field") == bs.pts) {
        let mut conds: Vec<Cond> = arr(m, "conditions").map(cond_of).collect();
        for g in arr(m, "conditionGroups").chain(inherited.iter().copied()) {
            group_conds(g, &mut conds);
        }
        out.push((m, conds));
    }
    for g in arr(e, "modifierGroups") {
        let mut inner = inherited.to_vec();
        if g.get("conditions").is_some() {
            inner.push(g); // its plain conditions, read as an `and` group
        }
        inner.extend(arr(g, "conditionGroups"));
        pts_modifiers(bs, g, &inner, out);
    }
}

fn pts_of(bs: &Bs, e: &Value) -> f64 {
    arr(e, "costs")
        .filter(|c| s(c, "typeId") == bs.pts)
        .map(|c| c["value"].as_f64().unwrap_or(0.0))
        .sum()
}

/// An entry's `min` selections constraint (on its link or itself), 0 without one.
fn min_of(link: &Value, e: &Value) -> u32 {
    arr(link, "constraints")
        .chain(arr(e, "constraints"))
        .filter(|c| {
            s(c, "type") == "min" && s(c, "field") == "selections" && s(c, "scope") == "parent"
        })
        .map(|c| c["value"].as_f64().unwrap_or(0.0) as u32)
        .max()
        .unwrap_or(0)
}

/// `(link or entry, entry)` of every child entry and group, links resolved, hidden left out.
fn children<'a>(bs: &Bs<'a>, e: &'a Value) -> Vec<(&'a Value, &'a Value)> {
    let own = ["selectionEntries", "selectionEntryGroups"]
        .into_iter()
        .flat_map(|k| arr(e, k))
        .map(|c| (c, c));
    let links = arr(e, "entryLinks").filter_map(|l| Some((l, bs.target(l)?)));
    own.chain(links)
        .filter(|(l, c)| !hidden(l) && !hidden(c))
        .collect()
}

/// An entry's `max` selections constraint (on its link or itself), none without one.
fn max_of(link: &Value, e: &Value) -> Option<u32> {
    arr(link, "constraints")
        .chain(arr(e, "constraints"))
        .filter(|c| {
            s(c, "type") == "max" && s(c, "field") == "selections" && s(c, "scope") == "parent"
        })
        .map(|c| c["value"].as_f64().unwrap_or(0.0) as u32)
        .min()
}

/// The largest unit's model count: each model its maximum, a group at most its own maximum.
fn largest<'a>(bs: &Bs<'a>, e: &'a Value, depth: usize) -> u32 {
    let mut models: u32 = 0;
    for (l, c) in children(bs, e).into_iter().filter(|_| depth < 16) {
        let is_group = c.get("type").is_none();
        let m = match s(c, "type") {
            // No `max` of its own: as many as its group allows.
            "model" => max_of(l, c).unwrap_or(UNBOUNDED),
            _ if is_group => {
                let inner = largest(bs, c, depth + 1);
                max_of(l, c).map_or(inner, |x| x.min(inner))
            }
            _ => largest(bs, c, depth + 1).saturating_mul(max_of(l, c).unwrap_or(1)),
        };
        models = models.saturating_add(m);
    }
    models
}

/// A count no constraint bounds.
const UNBOUNDED: u32 = 1_000;

/// The smallest unit: `(models, points)`, each child taken its minimum number of times.
fn smallest<'a>(bs: &Bs<'a>, e: &'a Value, depth: usize) -> (u32, f64) {
    let (mut models, mut cost) = (0, pts_of(bs, e));
    if depth > 16 {
        return (models, cost);
    }
    for (l, c) in children(bs, e) {
        let is_group = c.get("type").is_none();
        let n = if is_group { 1 } else { min_of(l, c) };
        let (m, p) = smallest(bs, c, depth + 1);
        let m = if s(c, "type") == "model" { 1 } else { m };
        let m = if is_group { m.max(min_of(l, c)) } else { m * n };
        models += m;
        cost += p * n as f64;
    }
    (models, cost)
}

/// The largest unit's points, counting models only (a paid weapon is an option's cost).
fn priciest<'a>(bs: &Bs<'a>, e: &'a Value, depth: usize) -> f64 {
    let mut cost = pts_of(bs, e);
    for (l, c) in children(bs, e).into_iter().filter(|_| depth < 16) {
        cost += match s(c, "type") {
            "model" => pts_of(bs, c) * f64::from(max_of(l, c).unwrap_or(1)),
            "" => priciest(bs, c, depth + 1) - pts_of(bs, c),
            _ => 0.0,
        };
    }
    cost
}

/// The unit's points tiers: the smallest unit's cost, `set` modifiers on model counts (a band
/// from its count to the next band's, printed at its top: the largest unit of the band), and
/// a cost added from the (K+1)-th unit on.
fn bs_points(bs: &Bs, e: &Value) -> BTreeSet<(u32, u32, u32, Option<u32>)> {
    let (mut models, base) = smallest(bs, e, 0);
    if s(e, "type") == "model" {
        models = 1;
    }
    let mut bands = BTreeMap::new();
    let mut later: Option<(u32, f64)> = None;
    let mut mods = Vec::new();
    pts_modifiers(bs, e, &[], &mut mods);
    for (m, conds) in mods {
        let v = m["value"].as_f64().unwrap_or(0.0);
        match (s(m, "type"), conds.as_slice()) {
            ("set", [Cond::Models(n)]) => {
                bands.insert(*n, v);
            }
            ("increment", [Cond::EarlierUnits(k)]) => later = Some((*k, v)),
            ("decrement", [Cond::EarlierUnits(k)]) => later = Some((*k, -v)),
            _ => {}
        }
    }
    let top = Some(largest(bs, e, 0))
        .filter(|n| *n < UNBOUNDED)
        .unwrap_or(models)
        .max(models);
    let mut tiers = BTreeMap::from([(models, base)]);
    // Models that cost points each: the largest unit is priced too.
    let most = priciest(bs, e, 0);
    if bands.is_empty() && most > base {
        tiers.insert(top, most);
    }
    let starts: Vec<u32> = bands.keys().copied().collect();
    for (i, (n, v)) in bands.iter().enumerate() {
        let end = starts.get(i + 1).map_or(top, |next| next - 1);
        tiers.insert(end.max(*n), *v);
    }
    let mut out = BTreeSet::new();
    // A unit that costs nothing (a reference unit, a spawned one) prints no points.
    for (n, p) in tiers.into_iter().filter(|t| t.1 > 0.0) {
        match later {
            None => out.insert((n, p as u32, 0, None)),
            Some((k, d)) => {
                out.insert((n, p as u32, 1, Some(k)));
                out.insert((n, (p + d) as u32, k + 1, None))
            }
        };
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The GW app's data (game-datacards JSON), read independently.

/// A text: a string (10th edition) or a language map (11th): its English.
fn text(v: &Value) -> String {
    match v {
        Value::String(t) => t.clone(),
        Value::Object(o) => o
            .get("en")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    }
}

fn gdc_units(file: &Value) -> BTreeMap<String, Unit> {
    let mut out = BTreeMap::new();
    for d in arr(file, "datasheets") {
        let mut u = Unit::default();
        for m in arr(d, "stats") {
            let v = ["m", "t", "sv", "w", "ld", "oc"]
                .iter()
                .map(|f| fold(&text(&m[f])))
                .collect();
            u.models.entry(fold(&text(&m["name"]))).or_insert(v);
        }
        for (key, ty) in [("rangedWeapons", "ranged"), ("meleeWeapons", "melee")] {
            for p in arr(d, key).flat_map(|w| arr(w, "profiles")) {
                let mut v: Vec<String> = ["range", "attacks", "skill", "strength", "ap", "damage"]
                    .iter()
                    .map(|f| fold(&text(&p[f])))
                    .collect();
                let words: Vec<String> = arr(p, "keywords").map(text).collect();
                v.push(keyword_list(words.iter().map(String::as_str)));
                let name = (fold(&text(&p["name"])), ty.to_string());
                u.weapons.entry(name).or_default().insert(v);
            }
        }
        let abilities = &d["abilities"];
        for group in ["core", "faction", "other", "wargear", "special"] {
            for a in arr(abilities, group) {
                u.abilities.insert(fold(&text(&a["name"])));
            }
        }
        let damaged = text(&abilities["damaged"]["range"]);
        if !damaged.is_empty() && d["showDamagedAbility"] != Value::Bool(false) {
            u.abilities.insert(fold(&format!("damaged: {damaged}")));
        }
        u.invuln = abilities["invul"]
            .get("value")
            .map(|v| fold(&text(v)))
            .filter(|v| !v.is_empty());
        u.keywords = arr(d, "keywords").map(|k| fold(&text(k))).collect();
        u.factions = arr(d, "factions").map(|k| fold(&text(k))).collect();
        u.points = gdc_points(d);
        out.insert(fold(&text(&d["name"])), u);
    }
    out
}

/// `points[]` that price the unit itself (active, no keyword or detachment), with
/// `additionalCost {cost, afterSelections: K}` pricing units K+1 on.
fn gdc_points(d: &Value) -> BTreeSet<(u32, u32, u32, Option<u32>)> {
    let num = |v: &Value| {
        text(v)
            .trim()
            .parse::<u32>()
            .ok()
            .or(v.as_u64().map(|x| x as u32))
    };
    let extra = d.get("additionalCost").and_then(|a| {
        let k = a["afterSelections"].as_u64()? as u32;
        Some((k, num(&a["cost"])?)).filter(|(k, _)| *k > 0)
    });
    let mut out = BTreeSet::new();
    for p in arr(d, "points") {
        let scoped = !p["keyword"].is_null() || !p["detachment"].is_null();
        if scoped || p["active"] == Value::Bool(false) {
            continue;
        }
        let (Some(models), Some(cost)) = (num(&p["models"]), num(&p["cost"])) else {
            continue;
        };
        match extra {
            None => out.insert((models, cost, 0, None)),
            Some((k, add)) => {
                out.insert((models, cost, 1, Some(k)));
                out.insert((models, cost + add, k + 1, None))
            }
        };
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The checks.

#[test]
fn battlescribe_eleventh_edition_agrees_with_an_independent_reading() {
    let Some(corpus) = util::corpus() else { return };
    let files = folder(&corpus.join("bsdata/wh40k-11e"), "wh40k-11e", &|n| {
        n.ends_with(".json")
    });
    assert!(files.len() >= 6, "{} BattleScribe JSON files", files.len());
    let ours = ingest(&files);
    let values: Vec<Value> = files.iter().map(|(_, b)| parse(b)).collect();
    let roots: Vec<&Value> = values
        .iter()
        .filter_map(|v| v.get("gameSystem").or(v.get("catalogue")))
        .collect();
    let bs = Bs::new(&roots);
    let (mut below, mut compared) = (Vec::new(), 0);
    for ((path, _), v) in files.iter().zip(&values) {
        let Some(cat) = v.get("catalogue") else {
            continue;
        };
        let read = bs_units(&bs, cat);
        if read.is_empty() {
            println!("{path}: offers no unit of its own (a library read through its catalogue)");
            continue;
        }
        compared += 1;
        if !tally_file(&read, &ours_of(&ours, path)).report(path) {
            below.push(path.as_str());
        }
    }
    // Custodes, Ultramarines, Tyranids, Unaligned Forces (the library is read through Tyranids).
    assert_eq!(compared, 4, "catalogues compared");
    assert!(below.is_empty(), "below {AT_LEAST}: {below:?}");
}

#[test]
fn the_gw_app_eleventh_edition_agrees_with_an_independent_reading() {
    let Some(corpus) = util::corpus() else { return };
    let dir = corpus.join("game-datacards/11th");
    let mut below = Vec::new();
    for name in ["adeptuscustodes.json", "space_marines.json"] {
        let files = folder(&dir, "game-datacards/11th", &|n| n == name);
        assert_eq!(files.len(), 1, "{name}");
        let ours = ingest(&files);
        let read = gdc_units(&parse(&files[0].1));
        if !tally_file(&read, &ours_of(&ours, &files[0].0)).report(&files[0].0) {
            below.push(name);
        }
    }
    assert!(below.is_empty(), "below {AT_LEAST}: {below:?}");
}

#[test]
fn both_custodes_sources_meet_in_one_datasheet_for_every_unit_both_name() {
    let Some(corpus) = util::corpus() else { return };
    let cat = "Imperium - Adeptus Custodes.json";
    let mut files = folder(&corpus.join("bsdata/wh40k-11e"), "wh40k-11e", &|n| {
        n.ends_with(".json")
    });
    files.extend(folder(
        &corpus.join("game-datacards/11th"),
        "game-datacards/11th",
        &|n| n == "adeptuscustodes.json",
    ));
    let ours = ingest(&files);
    let bs_path = format!("wh40k-11e/{cat}");
    let bs_file = files
        .iter()
        .find(|f| f.0 == bs_path)
        .expect("Custodes catalogue");
    let gdc_file = files
        .iter()
        .find(|f| f.0.starts_with("game-datacards"))
        .expect("Custodes app data");
    let values: Vec<Value> = files
        .iter()
        .filter(|f| f.0.ends_with(".json") && f.0.starts_with("wh40k"))
        .map(|f| parse(&f.1))
        .collect();
    let roots: Vec<&Value> = values
        .iter()
        .filter_map(|v| v.get("gameSystem").or(v.get("catalogue")))
        .collect();
    let bs = Bs::new(&roots);
    let bs_names: BTreeSet<String> = bs_units(&bs, &parse(&bs_file.1)["catalogue"])
        .into_keys()
        .collect();
    let gdc_names: BTreeSet<String> = gdc_units(&parse(&gdc_file.1)).into_keys().collect();
    let both: Vec<&String> = bs_names.intersection(&gdc_names).collect();
    let mut unmet = Vec::new();
    for name in &both {
        let with_both = ours.as_array().into_iter().flatten().filter(|d| {
            fold(s(d, "name")) == **name
                && arr(d, "sources").any(|p| s(p, "file") == bs_path)
                && arr(d, "sources").any(|p| s(p, "file") == gdc_file.0)
        });
        if with_both.count() != 1 {
            unmet.push(name.as_str());
        }
    }
    println!(
        "Custodes: {} units in both sources, {} in one datasheet with both; not met: {unmet:?}",
        both.len(),
        both.len() - unmet.len()
    );
    println!(
        "only BattleScribe: {:?}",
        bs_names.difference(&gdc_names).collect::<Vec<_>>()
    );
    println!(
        "only the app: {:?}",
        gdc_names.difference(&bs_names).collect::<Vec<_>>()
    );
    assert!(both.len() >= 20, "{} units in both", both.len());
    assert!(unmet.is_empty(), "{unmet:?}");
}

// ---------------------------------------------------------------------------------------------
// The fixes this reading found, each on a hand-written file named after its trap.

/// `tests/fixtures/{dir}/{name}` through the pipeline: our datasheets' JSON.
fn fixture(dir: &str, name: &str) -> Value {
    let path = util::repo().join("tests/fixtures").join(dir).join(name);
    let bytes = std::fs::read(&path).expect("read fixture");
    ingest(&[(format!("{dir}/{name}"), bytes)])
}

fn named<'a>(datasheets: &'a Value, name: &str) -> &'a Value {
    let found = datasheets
        .as_array()
        .into_iter()
        .flatten()
        .find(|d| s(d, "name") == name);
    found.unwrap_or_else(|| panic!("no datasheet {name}: {datasheets:#}"))
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// Marneus Calgar's `Faction:` categories are on his model entry, not the unit's.
#[test]
fn faction_keywords_on_a_model_entry_are_the_units() {
    let ds = fixture("bsdata-json", "faction-keywords-on-the-model-entry.json");
    let lord = named(&ds, "Lord Protector");
    assert_eq!(strings(&lord["faction_keywords"]), ["Order of the Gate"]);
    assert_eq!(strings(&lord["keywords"]), ["Infantry", "Character"]);
}

/// 11th edition prices some wargear (a Tyrannofex's rupture cannon, +20): a weapon that costs
/// points is the datasheet's, and its cost is not the unit's; a paid option without a weapon
/// (an enhancement) stays out.
#[test]
fn a_weapon_that_costs_points_is_wargear() {
    let ds = fixture("bsdata-json", "weapon-that-costs-points.json");
    let beast = named(&ds, "Siege Beast");
    let weapons: Vec<&str> = arr(beast, "weapons").map(|w| s(w, "name")).collect();
    assert_eq!(weapons, ["Bile spitter", "Breach cannon"]);
    let abilities: Vec<&str> = arr(beast, "abilities").map(|a| s(a, "name")).collect();
    assert!(!abilities.contains(&"Crown of Spite"), "{abilities:?}");
    let points: Vec<(u64, u64)> = arr(beast, "points")
        .map(|p| {
            (
                p["models"].as_u64().unwrap_or(0),
                p["points"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(points, [(1, 190)]);
}

/// An 11th-edition aircraft's OC is printed `-` (Ares Gunship in the GW app's data, Harpy in
/// BattleScribe's): a value of the edition, not a profile to quarantine.
#[test]
fn an_aircraft_objective_control_dash_is_kept() {
    let ds = fixture("bsdata-json", "aircraft-objective-control-dash.json");
    let ship = named(&ds, "Gunship");
    let models: Vec<(&str, &str)> = arr(ship, "models")
        .map(|m| (s(m, "M"), s(m, "OC")))
        .collect();
    assert_eq!(models, [("-", "-")]);
}

/// Victrix Honour Guard's trap: the unit costs 110 and its Chapter Champion and Chapter
/// Ancient (models with no `min`, 10 points each) are optional: the costless bodyguard models
/// make up every size of the unit, so the smallest unit is 110, not 120.
#[test]
fn an_optional_model_with_a_cost_and_no_min_is_not_charged() {
    let ds = fixture("bsdata-json", "optional-model-with-a-cost-and-no-min.json");
    let wall = named(&ds, "Shieldwall");
    let points: Vec<(u64, u64)> = arr(wall, "points")
        .map(|p| {
            (
                p["models"].as_u64().unwrap_or(0),
                p["points"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(points, [(1, 110), (3, 200)]);
}
