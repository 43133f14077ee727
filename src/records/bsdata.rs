//! BattleScribe data (BSData XML: a game system `.gst` and faction catalogues `.cat`) → records.
//!
//! The record source for the files of one folder: every `.gst`/`.cat` (by name, or by a
//! `catalogue`/`gameSystem` root) is parsed with `quick-xml` into an id-indexed store
//! ([`tree`]: each element with its 1-based line); links resolve across the folder's files
//! (a catalogue, its libraries and the game system), so a catalogue read without the files it
//! links to gives one `B003` per unresolved link, never a crash.
//!
//! **Datasheets** ([`unit`]): the root entries of each catalogue (its root `selectionEntries`
//! and root `entryLinks`, a library's included) whose resolved type is `unit` or `model` (a
//! `model` root is a one-model unit). Root `upgrade` entries (detachment choice, show/hide
//! options) are not datasheets; `… [Crucible]` roots are Crusade characters (counted, `B006`);
//! roots of the game system itself are not a faction's. The faction is read from the name of
//! the catalogue whose root list holds the entry ([`faction_of_catalogue`]: through the
//! edition's vocabulary, else the last part without its `Library` tag: `Imperium - Grey
//! Knights` → `Grey Knights`, `Imperium - Adeptus Astartes - Space Wolves` → `Space Marines`,
//! `Chaos - Chaos Daemons Library` → `Chaos Daemons`). A unit is emitted once per faction.
//!
//! **Matching rule** (so a unit merges with the same unit read from Wahapedia's pages and
//! export): the id is `ids::datasheet(edition, faction, name)` with the name as BattleScribe
//! prints it, a trailing `[Legends]` tag removed (the datasheet is then Legends: its
//! `legends` flag is set). No unit name is known to this module.
//!
//! **Rules**: for the Horus Heresy game system, its shared rules become `hh2` rules of kind
//! `special_rule` and the rules of its unit-type categories rules of kind `unit_type`, each with
//! its name, its full text and the element's line. Provenance everywhere is the file and line
//! of the element a record (or sub-record) was read from.
//!
//! Zipped data (`.catz`/`.gstz`, a zip archive holding the XML) is unzipped with the `zip`
//! crate and read like the XML; records point at the zipped file and the line in the XML
//! inside it. A zip that cannot be read (damaged, no file inside, larger than 256 MiB
//! unzipped) is not read: it keeps the `S007` the pipeline gave it, with `B007` saying why.
//! Zipped files are unzipped one at a time, and a folder's together to at most 256 MiB of XML
//! (their trees stay in memory together): a file past that is not read either, with `S020`.

use crate::diag::{Code, Diagnostic};
use crate::extract::Extracted;
use crate::model::{Edition, Rule};
use crate::records::{file_name, Group};
use crate::source::{Location, SourceFile};
use std::collections::{BTreeMap, HashMap};

pub mod army;
pub mod json;
pub mod tree;
pub mod unit;

use tree::{NodeId, Tree};

/// The record source of the pipeline's registry (`records::SOURCES`).
pub const SOURCE: super::RecordSource = super::RecordSource {
    name: "bsdata",
    claims,
    read,
};

/// Whether `f` is BattleScribe data: a `.cat`/`.gst` name, zipped data ([`is_zipped`]), or a
/// BattleScribe root element.
pub fn is_battlescribe(f: &SourceFile) -> bool {
    let name = file_name(&f.path).to_ascii_lowercase();
    if name.ends_with(".cat") || name.ends_with(".gst") || is_zipped(&f.path, &f.bytes) {
        return true;
    }
    let text = f.bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&f.bytes);
    let text = &text[text.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    if text.starts_with(b"{") {
        // JSON: by its first key only (never a full parse of another source's JSON).
        return crate::decode::battlescribe_json(text).is_some();
    }
    matches!(
        crate::decode::sniff(&f.bytes, &f.path).detail,
        Some("BattleScribe catalogue" | "BattleScribe game system")
    )
}

/// Whether BattleScribe data is JSON (New Recruit's serialization) rather than XML: its first
/// non-blank byte.
pub fn is_json(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Whether a file is zipped BattleScribe data: a `.catz`/`.gstz` name and a zip archive's
/// first bytes.
pub fn is_zipped(path: &str, bytes: &[u8]) -> bool {
    let name = file_name(path).to_ascii_lowercase();
    (name.ends_with(".catz") || name.ends_with(".gstz")) && bytes.starts_with(b"PK\x03\x04")
}

/// How the diagnostics of a zipped file that is not read begin.
const ZIP_NOT_READ: &str = "zipped BattleScribe data not read";

/// Largest XML read out of a zipped file.
const UNZIPPED_MAX: u64 = 256 * 1024 * 1024;

/// Largest XML read out of the zipped files of one folder together: each is unzipped in turn,
/// and its tree stays in memory with the others' (links resolve across the folder), so the
/// cap is the folder's, not each file's (eight files at 256 MiB each were 2 GiB of XML).
const FOLDER_UNZIPPED_MAX: u64 = UNZIPPED_MAX;

/// The XML a zipped file holds: its first `.cat`/`.gst` entry, else its first file.
pub fn unzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    unzip_at_most(bytes, UNZIPPED_MAX).map_err(|(_, why)| why)
}

/// [`unzip`], reading at most `max` bytes of XML; the error says whether the file is larger.
fn unzip_at_most(bytes: &[u8], max: u64) -> Result<Vec<u8>, (bool, String)> {
    unzip_inner(bytes, max)
        .map_err(|why| (false, why))
        .and_then(|out| {
            if out.len() as u64 > max {
                Err((
                    true,
                    format!("its file is larger than {max} bytes unzipped"),
                ))
            } else {
                Ok(out)
            }
        })
}

/// The XML of a zipped file, cut after `max + 1` bytes.
fn unzip_inner(bytes: &[u8], max: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| format!("not a readable zip archive: {e}"))?;
    let mut pick = None;
    for i in 0..zip.len() {
        let Ok(f) = zip.by_index(i) else { continue };
        if f.is_dir() {
            continue;
        }
        let name = f.name().to_ascii_lowercase();
        let xml = name.ends_with(".cat") || name.ends_with(".gst");
        if xml {
            pick = Some(i);
            break;
        }
        pick = pick.or(Some(i));
    }
    let i = pick.ok_or_else(|| "the zip archive holds no file".to_string())?;
    let f = zip
        .by_index(i)
        .map_err(|e| format!("its file cannot be read: {e}"))?;
    let mut out = Vec::new();
    f.take(max.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| format!("its file cannot be unzipped: {e}"))?;
    Ok(out)
}

/// Claims a group that holds at least one BattleScribe file.
fn claims(group: &Group) -> bool {
    group.files.iter().any(|f| is_battlescribe(f))
}

/// What kind of BattleScribe file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    GameSystem,
    Catalogue,
    /// A catalogue with `library="true"`.
    Library,
}

/// One parsed file.
#[derive(Debug)]
pub struct File {
    pub path: String,
    pub sha256: String,
    pub tree: Tree,
    pub kind: Kind,
    pub edition: Edition,
    /// The catalogue's or game system's `name` attribute.
    pub name: String,
    /// The id of its game system (a catalogue's `gameSystemId`, a game system's own `id`).
    pub system: String,
}

/// What a BattleScribe file's root element says about it: which file it is and its version.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header {
    /// `gameSystem` or `catalogue`.
    pub root: String,
    pub id: Option<String>,
    pub name: Option<String>,
    /// `revision`: the data's version number (BattleScribe data carries no date).
    pub revision: Option<u32>,
    pub library: bool,
    /// A catalogue's game system, and the system revision it was written for.
    pub game_system_id: Option<String>,
    pub game_system_revision: Option<u32>,
}

/// The header of a BattleScribe file (its root element only; the rest is not parsed), or
/// `None` when the file has no root element. The version of the source a record came from, for
/// reports that set sources side by side (the Wahapedia export has its `Last_update.csv` date).
pub fn header(bytes: &[u8]) -> Option<Header> {
    if is_json(bytes) {
        // Only a BattleScribe JSON root (another JSON file, the GW app's data, is not read
        // through to its end for a `revision` that is not a BattleScribe header's).
        let t = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let t = &t[t
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(t.len())..];
        return crate::decode::battlescribe_json(t).and_then(|_| json_header(bytes));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = quick_xml::Reader::from_reader(bytes);
    loop {
        match reader.read_event().ok()? {
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e) => {
                let mut h = Header {
                    root: String::from_utf8_lossy(e.local_name().as_ref()).into_owned(),
                    ..Header::default()
                };
                for a in e.attributes().with_checks(false).flatten() {
                    let v = a
                        .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                        .map(|v| v.into_owned())
                        .unwrap_or_else(|_| String::from_utf8_lossy(&a.value).into_owned());
                    match a.key.local_name().as_ref() {
                        b"id" => h.id = Some(v),
                        b"name" => h.name = Some(v),
                        b"revision" => h.revision = v.trim().parse().ok(),
                        b"library" => h.library = v == "true",
                        b"gameSystemId" => h.game_system_id = Some(v),
                        b"gameSystemRevision" => h.game_system_revision = v.trim().parse().ok(),
                        _ => {}
                    }
                }
                return Some(h);
            }
            quick_xml::events::Event::Eof => return None,
            _ => {}
        }
    }
}

/// [`header`] of a BattleScribe JSON file: the root object's own scalars (they come after its
/// lists in these files: the events are read to them, nothing is built).
fn json_header(bytes: &[u8]) -> Option<Header> {
    use json_event_parser::{JsonEvent, SliceJsonParser};
    let mut parser = SliceJsonParser::new(bytes);
    let mut h: Option<Header> = None;
    let mut depth = 0usize;
    let mut key: Option<String> = None;
    loop {
        let event = match parser.parse_next() {
            Ok(JsonEvent::Eof) | Err(_) => break,
            Ok(e) => e,
        };
        match event {
            JsonEvent::StartObject | JsonEvent::StartArray => {
                if depth == 1 && h.is_none() {
                    h = Some(Header {
                        root: key.take().unwrap_or_default(),
                        ..Header::default()
                    });
                }
                depth += 1;
            }
            JsonEvent::EndObject | JsonEvent::EndArray => {
                depth = depth.saturating_sub(1);
                if depth == 1 {
                    break;
                }
            }
            JsonEvent::ObjectKey(k) if depth <= 2 => key = Some(k.into_owned()),
            JsonEvent::String(v) | JsonEvent::Number(v) if depth == 2 => {
                let Some(h) = h.as_mut() else { continue };
                match key.as_deref() {
                    Some("id") => h.id = Some(v.into_owned()),
                    Some("name") => h.name = Some(v.into_owned()),
                    Some("revision") => h.revision = v.trim().parse().ok(),
                    Some("library") => h.library = v == "true",
                    Some("gameSystemId") => h.game_system_id = Some(v.into_owned()),
                    Some("gameSystemRevision") => h.game_system_revision = v.trim().parse().ok(),
                    _ => {}
                }
            }
            JsonEvent::Boolean(b) if depth == 2 && key.as_deref() == Some("library") => {
                if let Some(h) = h.as_mut() {
                    h.library = b;
                }
            }
            _ => {}
        }
    }
    h
}

/// The parsed files of a group and the index of their ids.
#[derive(Debug, Default)]
pub struct Store {
    pub files: Vec<File>,
    /// Element id → (file, element), the first definition in path order.
    pub index: HashMap<String, (usize, NodeId)>,
}

/// Elements a link may target.
const TARGETS: &[&str] = &[
    "selectionEntry",
    "selectionEntryGroup",
    "profile",
    "rule",
    "infoGroup",
    "catalogue",
    "gameSystem",
    "categoryEntry",
];

/// An element of a file of a [`Store`]: (file index, node).
pub type At = (usize, NodeId);

impl Store {
    pub fn node(&self, at: At) -> &tree::Node {
        self.files[at.0].tree.node(at.1)
    }

    pub fn resolve(&self, id: &str) -> Option<At> {
        self.index.get(id).copied()
    }

    /// The entries an element offers: its `selectionEntries` and the `selectionEntry`s its
    /// `entryLinks` reach, each with the link that reached it.
    pub fn entries_of(&self, (fi, g): At) -> Vec<(At, Option<At>)> {
        let t = &self.files[fi].tree;
        let mut out: Vec<_> = t
            .items(g, "selectionEntries", "selectionEntry")
            .map(|e| ((fi, e), None))
            .collect();
        for l in t.items(g, "entryLinks", "entryLink") {
            if let Some(target) = t.node(l).attr("targetId").and_then(|id| self.resolve(id)) {
                if self.node(target).tag == "selectionEntry" {
                    out.push((target, Some((fi, l))));
                }
            }
        }
        out
    }
}

/// A catalogue's faction name. Its ` - ` parts, each with `Library` removed, are read from
/// the last: the first that the edition's vocabulary knows as a faction keyword or a faction
/// gives that faction, as the other sources scope ids by it (`Imperium - Adeptus Astartes -
/// Space Wolves` → `Space Marines`, as Wahapedia files Space Wolves; `Aeldari - Drukhari` →
/// `Drukhari`; `Aeldari - Craftworlds` → `Aeldari`); when none is known, the last part
/// (`Imperium - Astra Militarum - Library` → `Astra Militarum`, `Library - Tyranids` →
/// `Tyranids`, `Chaos - Chaos Daemons Library` → `Chaos Daemons`).
pub fn faction_of_catalogue(name: &str, edition: Edition) -> Option<String> {
    let parts: Vec<&str> = name
        .split(" - ")
        .map(|p| {
            let p = p.trim();
            p.strip_suffix(" Library")
                .or_else(|| p.strip_prefix("Library "))
                .unwrap_or(p)
                .trim()
        })
        .filter(|p| !p.eq_ignore_ascii_case("library") && !p.is_empty())
        .collect();
    let known = crate::vocab::of(edition)
        .and_then(|v| parts.iter().rev().find_map(|part| v.faction_named(part)));
    known.or(parts.last().copied()).map(str::to_string)
}

/// The faction of a catalogue's records. A library's is that of a catalogue of the folder that
/// links it and shares a word of its name (`Chaos - Daemons Library`, linked from `Chaos - Chaos
/// Daemons` → `Chaos Daemons`); otherwise, and for a catalogue, its own name's
/// ([`faction_of_catalogue`]).
pub fn faction_of_file(store: &Store, fi: usize) -> Option<String> {
    let f = &store.files[fi];
    let own = faction_of_catalogue(&f.name, f.edition);
    if f.kind != Kind::Library {
        return own;
    }
    let id = f.tree.root().and_then(|r| f.tree.node(r).attr("id"))?;
    let words =
        |s: &str| -> Vec<String> { s.split_whitespace().map(|w| w.to_lowercase()).collect() };
    let own_words = own.as_deref().map(words).unwrap_or_default();
    for g in &store.files {
        if g.kind != Kind::Catalogue {
            continue;
        }
        let Some(root) = g.tree.root() else { continue };
        let links = g
            .tree
            .items(root, "catalogueLinks", "catalogueLink")
            .any(|l| g.tree.node(l).attr("targetId") == Some(id));
        if !links {
            continue;
        }
        if let Some(theirs) = faction_of_catalogue(&g.name, g.edition) {
            if words(&theirs).iter().any(|w| own_words.contains(w)) {
                return Some(theirs);
            }
        }
    }
    own
}

/// Parses every BattleScribe file of the group into [`Store`]s, one per game system (files of
/// two game systems share ids: a link never resolves into another system's file, `B012`);
/// diagnostics per file. Zipped files that cannot be unzipped are in no store (nor are their
/// diagnostics' files read), nor are the files of a game system whose edition is not known
/// ([`edition_of_battlescribe_system`], `S010`).
pub fn load(group: &Group) -> (Vec<Store>, BTreeMap<String, Vec<Diagnostic>>) {
    let mut diags: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    let mut files: Vec<&SourceFile> = group
        .files
        .iter()
        .copied()
        .filter(|f| is_battlescribe(f))
        .collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut pending: Vec<(File, Option<String>)> = Vec::new();
    // Bytes of XML the folder's zipped files may still unzip to (`FOLDER_UNZIPPED_MAX`).
    let mut unzip_left = FOLDER_UNZIPPED_MAX;
    for f in files {
        let d = diags.entry(f.path.clone()).or_default();
        pending.extend(parse_file(f, d, &mut unzip_left));
    }
    systems_apart(&pending, &mut diags);
    let mut stores = Vec::new();
    for files in by_system(with_system_editions(pending, &mut diags)) {
        let mut store = Store {
            files,
            ..Store::default()
        };
        index_targets(&mut store);
        unresolved_links(&store, &mut diags);
        stores.push(store);
    }
    (stores, diags)
}

/// The files of each game system apart (by the system's id: a catalogue's `gameSystemId`, a
/// game system's own `id`), in path order of their first file.
fn by_system(files: Vec<File>) -> Vec<Vec<File>> {
    let mut systems: BTreeMap<String, Vec<File>> = BTreeMap::new();
    for f in files {
        systems.entry(f.system.clone()).or_default().push(f);
    }
    let mut out: Vec<Vec<File>> = systems.into_values().collect();
    out.sort_by(|a, b| a[0].path.cmp(&b[0].path));
    out
}

/// `B012` on the folder's first file when its files name several game systems (whether or
/// not each is an edition cogitator reads).
fn systems_apart(files: &[(File, Option<String>)], diags: &mut BTreeMap<String, Vec<Diagnostic>>) {
    let ids: std::collections::BTreeSet<&str> =
        files.iter().map(|(f, _)| f.system.as_str()).collect();
    let Some((first, _)) = files.first() else {
        return;
    };
    if ids.len() < 2 {
        return;
    }
    let ids: Vec<&str> = ids.into_iter().collect();
    diags.entry(first.path.clone()).or_default().push(
        Diagnostic::new(
            Code::GameSystemsApart,
            format!(
                "this folder holds the files of {} game systems ({}); each is read apart",
                ids.len(),
                ids.join(", ")
            ),
        )
        .in_file(&first.path),
    );
}

/// The bytes of a BattleScribe file: a zipped one's XML (within the folder's `unzip_left`),
/// or `None` with its diagnostic.
fn unzipped<'a>(
    f: &'a SourceFile,
    d: &mut Vec<Diagnostic>,
    unzip_left: &mut u64,
) -> Option<std::borrow::Cow<'a, [u8]>> {
    if !is_zipped(&f.path, &f.bytes) {
        return Some(std::borrow::Cow::Borrowed(&f.bytes));
    }
    let max = UNZIPPED_MAX.min(*unzip_left);
    match unzip_at_most(&f.bytes, max) {
        Ok(b) => {
            *unzip_left -= b.len() as u64;
            Some(std::borrow::Cow::Owned(b))
        }
        Err((true, _)) if max < UNZIPPED_MAX => {
            d.push(
                Diagnostic::new(
                    Code::BudgetExceeded,
                    format!(
                        "{ZIP_NOT_READ}: the folder's zipped files unzip to more than \
                         {FOLDER_UNZIPPED_MAX} bytes together ({} left for this one)",
                        max
                    ),
                )
                .in_file(&f.path),
            );
            None
        }
        Err((_, why)) => {
            d.push(
                Diagnostic::new(Code::ZipUnreadable, format!("{ZIP_NOT_READ}: {why}"))
                    .in_file(&f.path),
            );
            None
        }
    }
}

/// One BattleScribe file parsed (XML, or JSON: [`is_json`]), with the name of its game system
/// when it is one; `None` (with its diagnostics in `d`) when it cannot be unzipped or is not
/// BattleScribe data. `unzip_left`: bytes of XML the folder's zipped files may still unzip to.
fn parse_file(
    f: &SourceFile,
    d: &mut Vec<Diagnostic>,
    unzip_left: &mut u64,
) -> Option<(File, Option<String>)> {
    let bytes = unzipped(f, d, unzip_left)?;
    let tree = if is_json(&bytes) {
        json::parse(&bytes, &f.path, d)
    } else {
        tree::parse(&bytes, &f.path, d)
    };
    let Some(root) = tree.root() else {
        d.push(
            Diagnostic::new(Code::NotBattleScribe, "no root element; not read").in_file(&f.path),
        );
        return None;
    };
    let r = tree.node(root);
    let kind = match r.tag.as_ref() {
        "gameSystem" => Kind::GameSystem,
        "catalogue" if r.attr("library") == Some("true") => Kind::Library,
        "catalogue" => Kind::Catalogue,
        other => {
            d.push(
                Diagnostic::new(
                    Code::NotBattleScribe,
                    format!("root element <{other}>, not <catalogue> or <gameSystem>; not read"),
                )
                .at(&f.path, r.line),
            );
            return None;
        }
    };
    let name = r.attr("name").unwrap_or("").to_string();
    let system = if kind == Kind::GameSystem {
        r.attr("id")
    } else {
        r.attr("gameSystemId")
    };
    let system = system.unwrap_or("").to_string();
    let system_name = (kind == Kind::GameSystem).then(|| name.clone());
    Some((
        File {
            path: f.path.clone(),
            sha256: f.sha256.clone(),
            edition: Edition::Tenth,
            tree,
            kind,
            name,
            system,
        },
        system_name,
    ))
}

/// The one decision of which edition a BattleScribe game system is: by its id (`id` = a
/// catalogue's `gameSystemId`, a game system's own id) in the edition table
/// (`editions.yaml` `battlescribe_systems`, [`crate::edition::edition_of_battlescribe_system`]),
/// else by the name of its game system file when the folder has it (`Horus Heresy` → hh2,
/// `10th Edition`, `11th Edition`); `None` when neither says an edition cogitator reads: such
/// files are not read (`S010`), never read as another edition.
pub fn edition_of_battlescribe_system(id: &str, system_name: Option<&str>) -> Option<Edition> {
    if let Some(edition) = crate::edition::edition_of_battlescribe_system(id) {
        return Some(edition);
    }
    let name = system_name?.to_ascii_lowercase();
    if name.contains("horus heresy") {
        Some(Edition::HorusHeresy2)
    } else if name.contains("10th edition") {
        Some(Edition::Tenth)
    } else if name.contains("11th edition") {
        Some(Edition::Eleventh)
    } else {
        None
    }
}

/// The files whose game system's edition is known, each with it
/// ([`edition_of_battlescribe_system`]); the others get `S010` and are not read.
fn with_system_editions(
    pending: Vec<(File, Option<String>)>,
    diags: &mut BTreeMap<String, Vec<Diagnostic>>,
) -> Vec<File> {
    // The game systems of the folder: id → name.
    let systems: HashMap<String, String> = pending
        .iter()
        .filter_map(|(f, name)| Some((f.system.clone(), name.clone()?)))
        .collect();
    let mut files = Vec::new();
    for (mut f, _) in pending {
        let name = systems.get(&f.system).map(String::as_str);
        match edition_of_battlescribe_system(&f.system, name) {
            Some(e) => {
                f.edition = e;
                files.push(f);
            }
            None => {
                let what = match (f.kind, name) {
                    (_, Some(n)) => format!("game system '{n}' ({})", f.system),
                    (Kind::GameSystem, None) => format!("game system {}", f.system),
                    (_, None) if f.system.is_empty() => {
                        "the catalogue names no game system".to_string()
                    }
                    (_, None) => format!(
                        "the catalogue's game system ({}) is not in this folder and",
                        f.system
                    ),
                };
                diags.entry(f.path.clone()).or_default().push(
                    Diagnostic::new(
                        Code::UnknownSystem,
                        format!("{what} is not an edition cogitator reads; not read"),
                    )
                    .in_file(&f.path),
                );
            }
        }
    }
    files
}

/// The store's index of link targets by id (the first element with an id wins).
fn index_targets(store: &mut Store) {
    for (fi, f) in store.files.iter().enumerate() {
        for (ni, n) in f.tree.nodes.iter().enumerate() {
            if !TARGETS.contains(&n.tag.as_ref()) {
                continue;
            }
            if let Some(id) = n.attr("id") {
                store.index.entry(id.to_string()).or_insert((fi, ni));
            }
        }
    }
}

/// One diagnostic per link whose target no file of the folder defines, the first
/// `UNRESOLVED_SHOWN` of a file (then one that counts the rest: a file of nothing but
/// dangling links would otherwise hold a diagnostic per 30 bytes, 20 times its size).
///
/// A file that links a catalogue the folder lacks (`B009`, once per such catalogue) has its
/// other unresolved links counted there instead: they point into it (or another absent one).
fn unresolved_links(store: &Store, diags: &mut BTreeMap<String, Vec<Diagnostic>>) {
    for f in &store.files {
        let d = diags.entry(f.path.clone()).or_default();
        if absent_catalogues(store, f, d) {
            continue;
        }
        let mut unresolved = 0usize;
        let mut first_unshown = None;
        for n in &f.tree.nodes {
            if !matches!(n.tag.as_ref(), "entryLink" | "infoLink" | "catalogueLink") {
                continue;
            }
            let target = n.attr("targetId").unwrap_or("");
            if store.index.contains_key(target) {
                continue;
            }
            unresolved += 1;
            if unresolved > UNRESOLVED_SHOWN {
                first_unshown.get_or_insert(n.line);
                continue;
            }
            d.push(
                Diagnostic::new(
                    Code::LinkUnresolved,
                    format!(
                        "{} '{}' → {} not found in this folder's files",
                        n.tag,
                        n.attr("name").unwrap_or(""),
                        if target.is_empty() {
                            "(no target)"
                        } else {
                            target
                        }
                    ),
                )
                .at(&f.path, n.line),
            );
        }
        if let Some(line) = first_unshown {
            d.push(
                Diagnostic::new(
                    Code::LinkUnresolved,
                    format!(
                        "{} more links whose targets are not in this folder's files (the first \
                         {UNRESOLVED_SHOWN} are listed)",
                        unresolved - UNRESOLVED_SHOWN
                    ),
                )
                .at(&f.path, line),
            );
        }
    }
}

/// `B009` for each catalogue file `f` links that no file of the store defines, counting the
/// file's links whose targets are absent; whether there was one.
fn absent_catalogues(store: &Store, f: &File, d: &mut Vec<Diagnostic>) -> bool {
    let Some(root) = f.tree.root() else {
        return false;
    };
    let absent: Vec<usize> = f
        .tree
        .items(root, "catalogueLinks", "catalogueLink")
        .filter(|&l| {
            !store
                .index
                .contains_key(f.tree.node(l).attr("targetId").unwrap_or(""))
        })
        .collect();
    if absent.is_empty() {
        return false;
    }
    let dangling = f
        .tree
        .nodes
        .iter()
        .filter(|n| matches!(n.tag.as_ref(), "entryLink" | "infoLink"))
        .filter(|n| !store.index.contains_key(n.attr("targetId").unwrap_or("")))
        .count();
    let others = match absent.len() {
        1 => String::new(),
        n => format!(" or the {} other absent ones", n - 1),
    };
    let left = match dangling {
        0 => "no other link of this file is left without its target".to_string(),
        1 => format!("1 link of this file reaches no file of the folder (into it{others}) and is not followed"),
        n => format!("{n} links of this file reach no file of the folder (into it{others}) and are not followed"),
    };
    for l in absent {
        let n = f.tree.node(l);
        d.push(
            Diagnostic::new(
                Code::CatalogueAbsent,
                format!(
                    "catalogueLink '{}' → {}: that catalogue is not in this folder; {left}",
                    n.attr("name").unwrap_or(""),
                    n.attr("targetId").unwrap_or("(no target)"),
                ),
            )
            .at(&f.path, n.line),
        );
    }
    true
}

/// How many unresolved links of one file get a diagnostic of their own (real catalogues: 56 in
/// a folder).
const UNRESOLVED_SHOWN: usize = 1000;

/// Reads a claimed group: one [`Extracted`] per BattleScribe file.
pub fn read(group: &Group) -> Vec<Extracted> {
    let (stores, mut diags) = load(group);
    let mut out: BTreeMap<String, Extracted> = BTreeMap::new();
    // A zipped file that could not be unzipped is not read (it keeps its `S007`).
    let unread = |f: &SourceFile| {
        is_zipped(&f.path, &f.bytes)
            && diags.get(&f.path).is_some_and(|d| {
                d.iter()
                    .any(|d| d.message.starts_with(ZIP_NOT_READ) && d.line.is_none())
            })
    };
    for f in group
        .files
        .iter()
        .filter(|f| is_battlescribe(f) && !unread(f))
    {
        out.insert(
            f.path.clone(),
            Extracted {
                file: f.path.clone(),
                sha256: f.sha256.clone(),
                ..Extracted::default()
            },
        );
    }
    for store in &stores {
        read_store(store, &mut out, &mut diags);
    }
    for (file, ds) in diags {
        match out.get_mut(&file) {
            Some(e) => e.diagnostics.extend(ds),
            None => {
                if let Some(e) = out.values_mut().next() {
                    e.diagnostics.extend(ds);
                }
            }
        }
    }
    out.into_values().collect()
}

/// The records of one game system's files, each to the reading of the file it was read from.
fn read_store(
    store: &Store,
    out: &mut BTreeMap<String, Extracted>,
    diags: &mut BTreeMap<String, Vec<Diagnostic>>,
) {
    for (fi, f) in store.files.iter().enumerate() {
        if let Some(e) = out.get_mut(&f.path) {
            e.edition = Some(f.edition);
            if matches!(f.kind, Kind::Catalogue | Kind::Library) {
                e.faction = faction_of_file(store, fi);
            }
        }
    }
    fn file_them<T>(
        out: &mut BTreeMap<String, Extracted>,
        store: &Store,
        records: Vec<(usize, T)>,
        list: fn(&mut Extracted) -> &mut Vec<T>,
    ) {
        for (fi, r) in records {
            if let Some(e) = out.get_mut(&store.files[fi].path) {
                list(e).push(r);
            }
        }
    }
    let built = unit::datasheets(store);
    file_them(out, store, built.datasheets, |e| &mut e.datasheets);
    let army = army::read(store);
    file_them(out, store, army.detachments, |e| &mut e.detachments);
    file_them(out, store, army.rules, |e| &mut e.rules);
    file_them(out, store, army.enhancements, |e| &mut e.enhancements);
    for d in built.diagnostics {
        let key = d.file.clone().unwrap_or_default();
        diags.entry(key).or_default().push(d);
    }
    for (fi, f) in store.files.iter().enumerate() {
        if f.edition == Edition::HorusHeresy2 && f.kind == Kind::GameSystem {
            if let Some(e) = out.get_mut(&f.path) {
                e.rules.extend(system_rules(store, fi));
            }
        }
    }
}

/// The text of a rule element: its `description`, trimmed (BattleScribe's line breaks kept),
/// its markup made plain ([`plain_text`]).
pub fn rule_text(t: &Tree, rule: NodeId) -> String {
    t.child(rule, "description")
        .map(|d| plain_text(t.node(d).text.trim()))
        .unwrap_or_default()
}

/// BattleScribe's text markup made plain, as the printed card and Wahapedia show the text:
/// `^^Tyranids^^` (small capitals: a keyword) in capitals, `TYRANIDS`; `**` (bold) markers
/// dropped; a non-breaking, narrow or thin space (`Astra Militarum\u{a0}Infantry`) is a space,
/// as the document decoders read it. Nothing else changes: a lone `*` (a footnote star) stays,
/// and when the `^^` do not pair up, the small-capitals markers stay visible as the source
/// slip they are.
pub fn plain_text(text: &str) -> String {
    let text: String = text
        .replace("**", "")
        .chars()
        .map(|c| match c {
            '\u{a0}' | '\u{2007}' | '\u{2009}' | '\u{202f}' => ' ',
            c => c,
        })
        .collect();
    if !text.contains("^^") || text.matches("^^").count() % 2 == 1 {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split("^^").enumerate() {
        if i % 2 == 1 {
            out.push_str(&part.to_uppercase());
        } else {
            out.push_str(part);
        }
    }
    out
}

/// A game system's rules: shared rules as `special_rule`, unit-type category rules as
/// `unit_type`; each named, with its full text and line.
pub fn system_rules(store: &Store, fi: usize) -> Vec<Rule> {
    let f = &store.files[fi];
    let t = &f.tree;
    let mut rules = Vec::new();
    // Where an element's content sits: under `sharedRules` (shared), inside a category (a unit
    // type), or neither (the nearest of these or an entry decides). One pass, parents first
    // (an element's index is after its parent's), so the file's depth costs no ancestor walks.
    let mut within: Vec<Option<&str>> = Vec::with_capacity(t.nodes.len());
    for n in &t.nodes {
        let here = match n.tag.as_ref() {
            "sharedRules" => Some("special_rule"),
            "categoryEntry" => Some("unit_type"),
            "selectionEntry" | "selectionEntryGroup" | "forceEntry" => None,
            _ => n.parent.and_then(|p| within.get(p).copied().flatten()),
        };
        within.push(here);
    }
    for (ni, n) in t.nodes.iter().enumerate() {
        if n.tag != "rule" {
            continue;
        }
        let Some(kind) = n.parent.and_then(|p| within.get(p).copied().flatten()) else {
            continue;
        };
        let Some(name) = n.attr("name").map(str::trim).filter(|s| !s.is_empty()) else {
            continue;
        };
        let text = rule_text(t, ni);
        if text.is_empty() {
            continue;
        }
        let scope = crate::ids::rule_scope(kind, None);
        rules.push(Rule {
            variants: Vec::new(),
            id: crate::ids::rule(f.edition, &scope, name),
            name: Some(name.to_string()),
            kind: kind.to_string(),
            edition: f.edition,
            faction: None,
            flavor: None,
            text,
            bullets: Vec::new(),
            examples: Vec::new(),
            tables: Vec::new(),
            occurrences: vec![Location::at_line(f.path.clone(), n.line)],
            number: Default::default(),
            parent: Default::default(),
            children: Default::default(),
            translations: Default::default(),
        });
    }
    rules
}
