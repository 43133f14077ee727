//! The renderer: a parsed page's tree walked into IR blocks (see the decoder's doc in
//! `html/mod.rs`). Reads the tree through `super::dom` only (the lean [`super::tree`], or in
//! tests `scraper`'s DOM, to check both give the same blocks), so it owns the site's markup
//! and nothing about parsing.

use super::dom::{
    any_earlier_sibling, attr, flags, has_classes, memo, tag, text, ElementRef, Node,
};
use super::{clean, is_blank, is_skipped, Locator};
use crate::ir::{Block, BlockKind, ClassHint, Region};
use crate::source::Span;
use std::collections::BTreeMap;

/// What a page renders to.
pub struct Rendered {
    pub blocks: Vec<Block>,
    pub chrome: usize,
    pub meta: BTreeMap<String, String>,
    /// The page's last line (for a diagnostic at its end).
    pub last_line: u32,
}

/// A glossary subtree rendered on its own, for the memo ([`super::memo`]): its blocks, whose
/// lines are the numbers of the searches in `needles`, and what it added to the page's counts.
pub struct Recorded {
    blocks: Vec<Block>,
    needles: Vec<Box<str>>,
    paths: Vec<(String, usize)>,
    chrome: usize,
    /// The first `logo3` image's title in it: the page's faction pack, unless one came before.
    faction_pack: Option<String>,
}

impl Recorded {
    /// About the bytes it holds.
    pub fn size(&self) -> usize {
        let blocks: usize = self.blocks.iter().map(|b| 2 * b.text.len() + 96).sum();
        let needles: usize = self.needles.iter().map(|n| n.len() + 16).sum();
        blocks + needles
    }
}

/// Renders the container `el` (of a subtree parsed on its own) as the page's renderer would
/// where it meets it: with the chrome or glossary branch of [`Renderer::element`], the page's
/// pending text flushed. `None` when the rendering set any of the page's metadata but the
/// faction pack (a heading's or the title's depend on what came before it in the page; the
/// faction pack's is the first one, whatever comes before).
pub fn record(el: ElementRef<'_>) -> Option<Recorded> {
    let mut r = Renderer::new(Locator::recording());
    r.render(el);
    r.flush();
    let faction_pack = r.meta.remove("faction_pack");
    if !r.meta.is_empty() {
        return None;
    }
    Some(Recorded {
        blocks: r.blocks,
        needles: r.loc.into_recorded(),
        paths: r.paths.into_iter().collect(),
        chrome: r.chrome,
        faction_pack,
    })
}

/// Renders the page whose root element is `root` and whose source is `text` (for lines).
pub fn render_page(root: Option<ElementRef<'_>>, text: &str) -> Rendered {
    let mut r = Renderer::new(Locator::new(text));
    if let Some(root) = root {
        r.render(root);
    }
    r.flush();
    if let Some((path, _)) = r
        .paths
        .iter()
        .max_by_key(|(p, n)| (**n, std::cmp::Reverse(*p)))
    {
        r.meta.insert("site_path".to_string(), path.clone());
    }
    Rendered {
        last_line: r.loc.line_count(),
        blocks: r.blocks,
        chrome: r.chrome,
        meta: r.meta,
    }
}

/// The markup of a profile's characteristic labels and values, where their rows are found.
const CHAR_NAME: &str = "dsCharName";
const CHAR_VALUE: &str = "dsCharValue";

/// The first word of `text` long enough to find in the markup (letters and digits only, so
/// entities and typography do not get in the way).
fn needle(text: &str) -> &str {
    text.split(|c: char| !c.is_alphanumeric())
        .find(|w| w.chars().count() >= 3)
        .unwrap_or("")
}

struct Renderer<'t> {
    loc: Locator<'t>,
    blocks: Vec<Block>,
    /// Inline text gathered since the last block boundary.
    para: String,
    region: Option<Region>,
    class: Option<ClassHint>,
    chrome: usize,
    meta: BTreeMap<String, String>,
    /// Counts of the site sections the page links to (`/wh40k10ed/`, `/aos4/`…).
    paths: BTreeMap<String, usize>,
    list_depth: u8,
}

impl<'t> Renderer<'t> {
    /// A renderer at the start of a page (or of a container read on its own), finding lines
    /// with `loc`.
    fn new(loc: Locator<'t>) -> Self {
        Renderer {
            loc,
            blocks: Vec::new(),
            para: String::new(),
            region: None,
            class: None,
            chrome: 0,
            meta: BTreeMap::new(),
            paths: BTreeMap::new(),
            list_depth: 0,
        }
    }
}

/// The site's class names this decoder reacts to, one bit each, so an element's classes are
/// read once (the class attribute is split once per element, not once per question).
pub mod cls {
    pub const STR10WRAP: u64 = 1 << 0;
    pub const DSINVULWRAP: u64 = 1 << 1;
    pub const ABNAME: u64 = 1 << 2;
    pub const TOOLTIP_TEMPLATES: u64 = 1 << 3;
    pub const TOOLTIP_HEADER: u64 = 1 << 4;
    pub const DSPOINTY: u64 = 1 << 5;
    pub const DSOUTERFRAME: u64 = 1 << 6;
    pub const DSHEADER: u64 = 1 << 7;
    pub const WTABLE2_LONG: u64 = 1 << 8;
    pub const WTABLE: u64 = 1 << 9;
    pub const STR10TYPE: u64 = 1 << 10;
    pub const STR10TEXT: u64 = 1 << 11;
    pub const STR10NAME: u64 = 1 << 12;
    pub const STR10LEGEND: u64 = 1 << 13;
    pub const STR10CP: u64 = 1 << 14;
    pub const SNFL: u64 = 1 << 15;
    pub const S10WRAP: u64 = 1 << 16;
    pub const S10TYPE: u64 = 1 << 17;
    pub const S10NAME: u64 = 1 << 18;
    pub const S10ENHWRAP: u64 = 1 << 19;
    pub const REDSQUARE: u64 = 1 << 20;
    pub const REDEXAMPLE: u64 = 1 << 21;
    pub const LOGO3: u64 = 1 << 22;
    pub const LEGEND2: u64 = 1 << 23;
    pub const KWB2: u64 = 1 << 24;
    pub const DSVERTLINE: u64 = 1 << 25;
    pub const DSRIGHTCOLKW: u64 = 1 << 26;
    pub const DSPROFILEBASEWRAP: u64 = 1 << 27;
    pub const DSMODELNAME: u64 = 1 << 28;
    pub const DSMODELBASE2: u64 = 1 << 29;
    pub const DSMODELBASE: u64 = 1 << 30;
    pub const DSLEFTCOLKW: u64 = 1 << 31;
    pub const DSINVULCOMMENT: u64 = 1 << 32;
    pub const DSH2HEADER: u64 = 1 << 33;
    pub const DSCHARVALUE: u64 = 1 << 34;
    pub const DSCHARNAME: u64 = 1 << 35;
    pub const DSCHARINVULVALUE: u64 = 1 << 36;
    pub const DSABILITY_NOLINE: u64 = 1 << 37;
    pub const DSABILITY: u64 = 1 << 38;
    pub const DETACHNAME: u64 = 1 << 39;
    pub const ABWRAP: u64 = 1 << 40;
    pub const ABNAMEWRAP: u64 = 1 << 41;
    pub const ABFLEX: u64 = 1 << 42;
    pub const SHOWFLUFF: u64 = 1 << 43;
    pub const ENHANCEMENTSPTS: u64 = 1 << 44;
    pub const WTABLE2_SHORT: u64 = 1 << 45;
    pub const NOPRINT: u64 = 1 << 46;
    pub const PAGE_BREAKER_ADS: u64 = 1 << 47;
    pub const PAGE_ADS_WRAPPER: u64 = 1 << 48;
    pub const SELECTIONWARNING: u64 = 1 << 49;
    pub const DSICONSNARROW: u64 = 1 << 50;
    pub const DSICONSWIDE: u64 = 1 << 51;
    pub const DSPICNARROW: u64 = 1 << 52;
    pub const DSPICWIDE: u64 = 1 << 53;
    pub const DSBANNER: u64 = 1 << 54;
    pub const TOOLTIP_LINK: u64 = 1 << 55;
    pub const CONTENTS: u64 = 1 << 56;
    /// Chrome: ads, print toggles, filter warnings, icon strips.
    pub const CHROME: u64 = NOPRINT
        | PAGE_BREAKER_ADS
        | PAGE_ADS_WRAPPER
        | SELECTIONWARNING
        | DSICONSNARROW
        | DSICONSWIDE
        | DSPICNARROW
        | DSPICWIDE
        | DSBANNER
        | TOOLTIP_LINK
        | CONTENTS;

    /// The site's class names this decoder reacts to, and their bits.
    const CLASSES: &[(&str, u64)] = &[
        ("str10Wrap", STR10WRAP),
        ("dsInvulWrap", DSINVULWRAP),
        ("abName", ABNAME),
        ("tooltip_templates", TOOLTIP_TEMPLATES),
        ("tooltip_header", TOOLTIP_HEADER),
        ("dsPointy", DSPOINTY),
        ("dsOuterFrame", DSOUTERFRAME),
        ("dsHeader", DSHEADER),
        ("wTable2_long", WTABLE2_LONG),
        ("wTable", WTABLE),
        ("str10Type", STR10TYPE),
        ("str10Text", STR10TEXT),
        ("str10Name", STR10NAME),
        ("str10Legend", STR10LEGEND),
        ("str10CP", STR10CP),
        ("snFl", SNFL),
        ("s10Wrap", S10WRAP),
        ("s10Type", S10TYPE),
        ("s10Name", S10NAME),
        ("s10EnhWrap", S10ENHWRAP),
        ("redSquare", REDSQUARE),
        ("redExample", REDEXAMPLE),
        ("logo3", LOGO3),
        ("legend2", LEGEND2),
        ("kwb2", KWB2),
        ("dsVertLine", DSVERTLINE),
        ("dsRightColKW", DSRIGHTCOLKW),
        ("dsProfileBaseWrap", DSPROFILEBASEWRAP),
        ("dsModelName", DSMODELNAME),
        ("dsModelBase2", DSMODELBASE2),
        ("dsModelBase", DSMODELBASE),
        ("dsLeftColKW", DSLEFTCOLKW),
        ("dsInvulComment", DSINVULCOMMENT),
        ("dsH2Header", DSH2HEADER),
        ("dsCharValue", DSCHARVALUE),
        ("dsCharName", DSCHARNAME),
        ("dsCharInvulValue", DSCHARINVULVALUE),
        ("dsAbility_noLine", DSABILITY_NOLINE),
        ("dsAbility", DSABILITY),
        ("detachName", DETACHNAME),
        ("abWrap", ABWRAP),
        ("abNameWrap", ABNAMEWRAP),
        ("abFlex", ABFLEX),
        ("ShowFluff", SHOWFLUFF),
        ("EnhancementsPts", ENHANCEMENTSPTS),
        ("wTable2_short", WTABLE2_SHORT),
        ("noprint", NOPRINT),
        ("page_breaker_ads", PAGE_BREAKER_ADS),
        ("page_ads_wrapper", PAGE_ADS_WRAPPER),
        ("selectionWarning", SELECTIONWARNING),
        ("dsIconsNarrow", DSICONSNARROW),
        ("dsIconsWide", DSICONSWIDE),
        ("dsPicNarrow", DSPICNARROW),
        ("dsPicWide", DSPICWIDE),
        ("dsBanner", DSBANNER),
        ("tooltip_link", TOOLTIP_LINK),
        ("contents", CONTENTS),
    ];

    /// [`CLASSES`] by the length of the name (a class is compared with the few names of its
    /// length, not with all of them: this runs for every class of every element).
    fn by_length() -> &'static [Vec<(&'static str, u64)>] {
        static INDEX: std::sync::OnceLock<Vec<Vec<(&'static str, u64)>>> =
            std::sync::OnceLock::new();
        INDEX.get_or_init(|| {
            let longest = CLASSES.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            let mut index = vec![Vec::new(); longest + 1];
            for &(name, bit) in CLASSES {
                if let Some(bucket) = index.get_mut(name.len()) {
                    bucket.push((name, bit));
                }
            }
            index
        })
    }

    /// The bit of one class name (`С` U+0421 read as `C`), 0 for classes of no interest.
    pub fn bit(name: &str) -> u64 {
        if !name.is_ascii() {
            // Only the site's names are of interest, all ASCII once `С` is read as `C`; any
            // other non-ASCII name is of no interest (and is not looked at twice).
            let ascii = name.replace('\u{421}', "C");
            return if ascii.is_ascii() { bit(&ascii) } else { 0 };
        }
        // The last byte first: most classes of a name's length differ there or at the first,
        // and comparing two bytes is cheaper than calling `memcmp`.
        let (Some(&first), Some(&last)) = (name.as_bytes().first(), name.as_bytes().last()) else {
            return 0;
        };
        by_length()
            .get(name.len())
            .and_then(|bucket| {
                bucket.iter().find(|(n, _)| {
                    let b = n.as_bytes();
                    b.last() == Some(&last) && b.first() == Some(&first) && *n == name
                })
            })
            .map_or(0, |&(_, bit)| bit)
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn each_class_has_its_own_bit() {
            let mut seen = 0u64;
            for &(name, bit) in super::CLASSES {
                assert_eq!(bit.count_ones(), 1, "{name}");
                assert_eq!(seen & bit, 0, "{name} shares a bit");
                seen |= bit;
                assert_eq!(super::bit(name), bit, "{name}");
                let lower = name.to_lowercase();
                if lower != name {
                    assert_eq!(super::bit(&lower), 0, "{name} is case-sensitive");
                }
            }
            for other in ["", "dsOuterFrameX", "dsOuter", "kwb", "d"] {
                assert_eq!(super::bit(other), 0, "{other}");
            }
        }
    }
}

/// Elements that end the paragraph around them (a `match`: asked for every element).
fn is_block(name: &str) -> bool {
    matches!(
        name,
        "html"
            | "body"
            | "div"
            | "p"
            | "ul"
            | "ol"
            | "li"
            | "table"
            | "thead"
            | "tbody"
            | "tfoot"
            | "tr"
            | "td"
            | "th"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "section"
            | "article"
            | "main"
            | "header"
            | "footer"
            | "nav"
            | "aside"
            | "form"
            | "blockquote"
            | "dl"
            | "dt"
            | "dd"
            | "center"
            | "hr"
            | "label"
    )
}

/// Work left to do while rendering, on an explicit stack (never the call stack: a page can nest
/// elements as deep as it likes). A task pushed later runs earlier, so an element's tasks are
/// pushed closing work first (`EndScope`, `Flush`…), then its children.
enum Task<'a> {
    /// Render this node (element or text), then its following siblings.
    Siblings(Nd<'a>),
    /// Same, inside a list item: a nested list first ends the item's own text.
    ListSiblings(Nd<'a>),
    /// Same, inside a glossary entry (headers, ability wrappers, keyword indexes).
    GlossarySiblings(Nd<'a>),
    /// A glossary entry of a `tooltip_templates` container, then the entries after it.
    TooltipEntry(ElementRef<'a>),
    /// A stratagem card's descendants from `next` on, in document order.
    Stratagem {
        root: Nd<'a>,
        next: Option<Nd<'a>>,
    },
    Flush,
    FlushItem,
    /// The end of a scope: flush, then restore the region and class hint of the parent.
    EndScope(Option<Region>, Option<ClassHint>),
    EndList,
}

/// A node of the parsed page (ego_tree's `NodeRef`, named through `ElementRef`).
type Nd<'a> = <ElementRef<'a> as std::ops::Deref>::Target;

/// The node after `n` in document order within `root`'s subtree: `n`'s first child when
/// `descend`, else the next sibling of `n` or of its nearest ancestor below `root`. Constant
/// memory, no recursion.
fn preorder_next<'a>(n: Nd<'a>, root: Nd<'a>, descend: bool) -> Option<Nd<'a>> {
    if descend {
        if let Some(c) = n.first_child() {
            return Some(c);
        }
    }
    let mut n = n;
    loop {
        if n == root {
            return None;
        }
        if let Some(s) = n.next_sibling() {
            return Some(s);
        }
        n = n.parent()?;
    }
}

/// Visits the nodes below `root` in document order; `visit` says whether to go into a node's
/// children. Iterative: the depth of the tree costs no stack.
fn walk<'a>(root: Nd<'a>, mut visit: impl FnMut(Nd<'a>) -> bool) {
    let mut next = root.first_child();
    while let Some(n) = next {
        let descend = visit(n);
        next = preorder_next(n, root, descend);
    }
}

fn push_children<'a>(st: &mut Vec<Task<'a>>, el: ElementRef<'a>) {
    if let Some(c) = el.first_child() {
        st.push(Task::Siblings(c));
    }
}

impl<'t> Renderer<'t> {
    /// Renders the page from its root element, with an explicit stack of [`Task`]s.
    fn render<'a>(&mut self, root: ElementRef<'a>) {
        let mut st: Vec<Task<'a>> = Vec::new();
        self.element(root, &mut st);
        while let Some(task) = st.pop() {
            match task {
                Task::Siblings(n) => {
                    if let Some(s) = n.next_sibling() {
                        st.push(Task::Siblings(s));
                    }
                    match ElementRef::wrap(n) {
                        Some(c) => self.element(c, &mut st),
                        None => self.node_text(text(&n)),
                    }
                }
                Task::ListSiblings(n) => {
                    if let Some(s) = n.next_sibling() {
                        st.push(Task::ListSiblings(s));
                    }
                    match ElementRef::wrap(n) {
                        Some(c) if matches!(tag(&c), "ul" | "ol") => {
                            self.flush_as(BlockKind::ListItem);
                            self.element(c, &mut st);
                        }
                        Some(c) => self.element(c, &mut st),
                        None => self.node_text(text(&n)),
                    }
                }
                Task::GlossarySiblings(n) => {
                    if let Some(s) = n.next_sibling() {
                        st.push(Task::GlossarySiblings(s));
                    }
                    self.glossary_node(n, &mut st);
                }
                Task::TooltipEntry(entry) => {
                    if let Some(next) = entry.next_siblings().find_map(ElementRef::wrap) {
                        st.push(Task::TooltipEntry(next));
                    }
                    st.push(Task::Flush);
                    self.tooltip_entry(entry, &mut st);
                }
                Task::Stratagem { root, next } => self.stratagem_card(root, next, &mut st),
                Task::Flush => self.flush(),
                Task::FlushItem => self.flush_as(BlockKind::ListItem),
                Task::EndScope(region, class) => {
                    self.flush();
                    self.region = region;
                    self.class = class;
                }
                Task::EndList => self.list_depth = self.list_depth.saturating_sub(1),
            }
        }
    }

    /// Opens a scope with `region` and `class`: what is pushed after runs inside it; the
    /// `EndScope` pushed here closes it.
    fn scope<'a>(
        &mut self,
        st: &mut Vec<Task<'a>>,
        region: Option<Region>,
        class: Option<ClassHint>,
    ) {
        st.push(Task::EndScope(self.region, self.class));
        self.region = region;
        self.class = class;
    }

    /// A chrome or glossary container read from the memo: its recorded blocks, each given the
    /// line the page's locator finds for the search it was recorded with (the searches run in
    /// their order, so the locator moves as it would have), and its counts. The recording
    /// started outside any list, and so is the page here: the memo takes only containers whose
    /// ancestors are `html`, `body` and `div`s (`build::Builder::memo_for_open`), and the list
    /// depth is above 0 only below an `li`.
    fn replay(&mut self, recorded: &Recorded) {
        let lines: Vec<u32> = recorded.needles.iter().map(|n| self.loc.find(n)).collect();
        self.blocks.reserve(recorded.blocks.len());
        for b in &recorded.blocks {
            let mut b = b.clone();
            let search = (b.span.line as usize).wrapping_sub(1);
            b.span.line = lines.get(search).copied().unwrap_or(self.loc.line);
            self.blocks.push(b);
        }
        for (path, n) in &recorded.paths {
            *self.paths.entry(path.clone()).or_insert(0) += n;
        }
        self.chrome += recorded.chrome;
        if let Some(title) = &recorded.faction_pack {
            self.meta
                .entry("faction_pack".to_string())
                .or_insert_with(|| title.clone());
        }
    }

    fn img(&mut self, el: ElementRef, f: u64) {
        if f & cls::LOGO3 != 0 {
            if let Some(t) = attr(&el, "title") {
                self.meta
                    .entry("faction_pack".to_string())
                    .or_insert_with(|| t.trim().to_string());
            }
        }
    }

    /// Renders `el` itself; its contents are pushed as tasks (see [`Task`]).
    fn element<'a>(&mut self, el: ElementRef<'a>, st: &mut Vec<Task<'a>>) {
        let f = flags(&el);
        let name = tag(&el);
        if name == "head" {
            self.head(el);
            return;
        }
        if name == "img" {
            self.img(el, f);
            return;
        }
        if name == "a" {
            if let Some(href) = attr(&el, "href") {
                if let Some(section) = href
                    .strip_prefix('/')
                    .and_then(|h| h.split('/').next())
                    .filter(|s| !s.is_empty() && s.len() < 24)
                {
                    *self.paths.entry(format!("/{section}/")).or_insert(0) += 1;
                }
            }
        }
        if is_skipped(name) || is_repeated_variant(&el, f) {
            return;
        }
        if let Some(recorded) = memo(&el) {
            // A chrome or glossary container read from the memo (`super::memo::qualifies`):
            // both branches below start by flushing the pending text (the chrome branch after
            // reading its images, which only sets the faction pack's title).
            self.flush();
            self.replay(recorded);
            return;
        }
        if f & cls::CHROME != 0 {
            // The publication the page cites sits among the datasheet's icons.
            for img in el.descendants().filter_map(ElementRef::wrap) {
                if tag(&img) == "img" {
                    self.img(img, flags(&img));
                }
            }
            self.flush();
            self.chrome += 1;
            return;
        }
        if f & cls::DSOUTERFRAME != 0 {
            self.flush();
            self.scope(st, Some(Region::Datasheet), None);
            push_children(st, el);
            return;
        }
        if f & cls::TOOLTIP_TEMPLATES != 0 {
            self.flush();
            self.scope(st, Some(Region::Glossary), None);
            if let Some(entry) = el.child_elements().next() {
                st.push(Task::TooltipEntry(entry));
            }
            return;
        }
        if f & cls::STR10WRAP != 0 {
            self.flush();
            let region = self.region.or(Some(Region::Faction));
            self.scope(st, region, None);
            st.push(Task::Stratagem {
                root: *el,
                next: Some(*el),
            });
            return;
        }
        if self.region == Some(Region::Datasheet) && self.datasheet_part(el, f) {
            return;
        }
        if name == "ul" && (f & cls::ENHANCEMENTSPTS != 0) {
            self.flush();
            for li in el.child_elements() {
                let cells: Vec<String> = li
                    .child_elements()
                    .map(|s| clean(&inline_text(s)))
                    .filter(|s| !s.is_empty())
                    .collect();
                if !cells.is_empty() {
                    self.row(cells, Some(ClassHint::EnhancementsPts));
                }
            }
            return;
        }
        let class_hint = if (f & cls::SHOWFLUFF != 0) || (f & cls::LEGEND2 != 0) {
            Some(ClassHint::Flavor)
        } else if f & cls::DETACHNAME != 0 {
            Some(ClassHint::DetachName)
        } else if f & cls::REDEXAMPLE != 0 {
            Some(ClassHint::Example)
        } else if f & cls::REDSQUARE != 0 {
            Some(ClassHint::Summary)
        } else if (f & cls::DSABILITY != 0) || (f & cls::DSABILITY_NOLINE != 0) {
            Some(ClassHint::DsAbility)
        } else {
            None
        };
        if !is_block(name) {
            // Inline: its text joins the current paragraph.
            // (Block-level descendants, which broken markup can put inside a `span`, still
            // end it.)
            if name == "br" {
                self.flush();
            } else {
                push_children(st, el);
            }
            return;
        }
        self.flush();
        match name {
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" if holds_structure(el) => {
                // Broken markup (an unclosed heading) can swallow a datasheet: read it as a
                // container rather than as one heading.
                push_children(st, el);
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let level = name[1..].parse().unwrap_or(1);
                let t = clean(&inline_text(el));
                if name == "h1" && !self.meta.contains_key("h1") {
                    self.meta.insert("h1".to_string(), t.clone());
                    if let Some(first) = el.child_elements().next() {
                        let f = clean(&inline_text(first));
                        if !f.is_empty() {
                            self.meta.insert("page_faction".to_string(), f);
                        }
                    }
                }
                if !t.is_empty() {
                    let mut b = self.block(BlockKind::Heading, t, None);
                    b.level = level;
                    self.blocks.push(b);
                }
            }
            "tr" if has_block_content(el) => {
                // A layout table (faction pages put each enhancement in one): its cells
                // are containers, not values.
                let class = class_hint.or(self.class);
                self.scope(st, self.region, class);
                push_children(st, el);
            }
            "tr" => {
                let cells: Vec<String> = el
                    .child_elements()
                    .filter(|c| matches!(tag(c), "td" | "th"))
                    .map(|c| clean(&inline_text(c)))
                    .collect();
                if cells.iter().any(|c| !c.is_empty()) {
                    let class = class_hint.or(self.class);
                    self.row(cells, class);
                }
            }
            "li" => {
                self.list_depth = self.list_depth.saturating_add(1);
                st.push(Task::EndList);
                let class = class_hint.or(self.class);
                self.scope(st, self.region, class);
                st.push(Task::FlushItem);
                if let Some(c) = el.first_child() {
                    st.push(Task::ListSiblings(c));
                }
            }
            _ => {
                st.push(Task::Flush);
                let class = class_hint.or(self.class);
                self.scope(st, self.region, class);
                push_children(st, el);
            }
        }
    }

    fn head(&mut self, el: ElementRef) {
        for d in el.descendants().filter_map(ElementRef::wrap) {
            if tag(&d) == "title" {
                let t = clean(&inline_text(d));
                if !t.is_empty() {
                    self.meta.insert("title".to_string(), t);
                }
            }
        }
    }

    fn node_text(&mut self, t: Option<&str>) {
        if let Some(t) = t {
            self.para.push_str(t);
        }
    }

    fn block(&mut self, kind: BlockKind, text: String, class: Option<ClassHint>) -> Block {
        let line = self.loc.find(needle(&text));
        let mut b = Block::new(kind, text, line);
        b.span = Span::line(line);
        b.region = self.region;
        b.class = class.or(self.class);
        b.blank_before = true;
        b
    }

    /// A heading block of `level` (when the text is not empty).
    fn push_heading(&mut self, text: String, level: u8, class: ClassHint) {
        let before = self.blocks.len();
        self.push(BlockKind::Heading, text, Some(class));
        if self.blocks.len() > before {
            if let Some(b) = self.blocks.last_mut() {
                b.level = level;
            }
        }
    }

    fn push(&mut self, kind: BlockKind, text: String, class: Option<ClassHint>) {
        self.push_clean(kind, clean(&text), class);
    }

    /// Like `push`, for text already cleaned.
    fn push_clean(&mut self, kind: BlockKind, text: String, class: Option<ClassHint>) {
        if text.is_empty() {
            return;
        }
        let mut b = self.block(kind, text, class);
        if kind == BlockKind::ListItem {
            b.level = self.list_depth.max(1);
        }
        self.blocks.push(b);
    }

    fn row(&mut self, cells: Vec<String>, class: Option<ClassHint>) {
        let first = cells
            .iter()
            .find(|c| !c.is_empty())
            .cloned()
            .unwrap_or_default();
        let line = self.loc.find(needle(&first));
        self.row_at(cells, class, line);
    }

    /// A row whose line is known.
    fn row_at(&mut self, cells: Vec<String>, class: Option<ClassHint>, line: u32) {
        let mut b = Block::row(cells, line);
        b.region = self.region;
        b.class = class.or(self.class);
        b.blank_before = true;
        self.blocks.push(b);
    }

    fn flush(&mut self) {
        self.flush_as(BlockKind::Paragraph);
    }

    fn flush_as(&mut self, kind: BlockKind) {
        if is_blank(&self.para) {
            self.para.clear();
            return;
        }
        // Cleaning copies the text; the buffer keeps its capacity for the next paragraph.
        let text = clean(&self.para);
        self.para.clear();
        self.push_clean(kind, text, None);
    }

    /// Parts of a datasheet with their own markup. Returns false for anything else.
    fn datasheet_part(&mut self, el: ElementRef, f: u64) -> bool {
        if f & cls::DSH2HEADER != 0 {
            self.flush();
            let name = el
                .child_elements()
                .find(|c| tag(c) == "div" && !has_classes(c))
                .map(|c| clean(&inline_text(c)))
                .unwrap_or_default();
            self.push_heading(name, 2, ClassHint::DsH2Header);
            for d in el.descendants().filter_map(ElementRef::wrap) {
                if flags(&d) & cls::DSMODELBASE2 != 0 {
                    self.push(
                        BlockKind::Paragraph,
                        inline_text(d),
                        Some(ClassHint::DsModelBase),
                    );
                }
            }
            return true;
        }
        if f & cls::DSPROFILEBASEWRAP != 0 {
            self.flush();
            let mut names = Vec::new();
            let mut values = Vec::new();
            let mut model = None;
            let mut base = None;
            // An invulnerable save inside the profile block is rendered after the profile.
            let mut invuln = Vec::new();
            // Whether the characteristics come before the model's name in the markup.
            let mut chars_first = None;
            for d in el.descendants().filter_map(ElementRef::wrap) {
                let fd = flags(&d);
                if fd & (cls::DSCHARNAME | cls::DSCHARVALUE | cls::DSMODELNAME) != 0 {
                    chars_first.get_or_insert(fd & cls::DSMODELNAME == 0);
                }
                if fd & cls::DSCHARNAME != 0 {
                    names.push(clean(&inline_text(d)));
                } else if fd & cls::DSCHARVALUE != 0 {
                    values.push(clean(&inline_text(d)));
                } else if fd & cls::DSMODELNAME != 0 {
                    model = Some(clean(&inline_text(d)));
                } else if fd & cls::DSMODELBASE != 0 {
                    base = Some(clean(&inline_text(d)));
                } else if fd & cls::DSINVULWRAP != 0 {
                    invuln.push(d);
                }
            }
            // The rows are found at their own markup (their values are too short to search
            // for), in the order of the page: some print the model's name after them.
            let rows = |r: &mut Self| {
                let n = (!names.is_empty()).then(|| r.loc.find(CHAR_NAME));
                let v = (!values.is_empty()).then(|| r.loc.find(CHAR_VALUE));
                (n, v)
            };
            let early = if chars_first == Some(true) {
                Some(rows(self))
            } else {
                None
            };
            if let Some(m) = model {
                self.push(BlockKind::Paragraph, m, Some(ClassHint::DsModelName));
            }
            if let Some(b) = base {
                self.push(BlockKind::Paragraph, b, Some(ClassHint::DsModelBase));
            }
            let (names_line, values_line) = early.unwrap_or_else(|| rows(self));
            if let Some(line) = names_line {
                self.row_at(names, Some(ClassHint::DsCharName), line);
            }
            if let Some(line) = values_line {
                self.row_at(values, Some(ClassHint::DsProfile), line);
            }
            for d in invuln {
                self.invuln(d);
            }
            return true;
        }
        if f & cls::DSINVULWRAP != 0 {
            self.flush();
            self.invuln(el);
            return true;
        }
        if f & cls::DSINVULCOMMENT != 0 {
            // The condition of the save above (`Ibram Gaunt only.`), printed after its frame.
            self.flush();
            self.push(
                BlockKind::Paragraph,
                inline_text(el),
                Some(ClassHint::DsInvulComment),
            );
            return true;
        }
        if tag(&el) == "table" && (f & cls::WTABLE != 0) {
            self.flush();
            self.weapon_table(el);
            return true;
        }
        if f & cls::DSLEFTCOLKW != 0 {
            self.flush();
            // Per-model groups are separated by `dsVertLine` spans.
            let mut group = String::new();
            for child in el.children() {
                match ElementRef::wrap(child) {
                    Some(c) if (flags(&c) & cls::DSVERTLINE != 0) => {
                        let g = std::mem::take(&mut group);
                        self.push(BlockKind::Paragraph, g, Some(ClassHint::DsKeywords));
                    }
                    Some(c) => group.push_str(&inline_text(c)),
                    None => {
                        if let Some(t) = text(&child) {
                            group.push_str(t);
                        }
                    }
                }
            }
            self.push(BlockKind::Paragraph, group, Some(ClassHint::DsKeywords));
            return true;
        }
        if f & cls::DSRIGHTCOLKW != 0 {
            self.flush();
            self.push(
                BlockKind::Paragraph,
                inline_text(el),
                Some(ClassHint::DsFactionKeywords),
            );
            return true;
        }
        if f & cls::DSHEADER != 0 {
            self.flush();
            self.push_heading(inline_text(el), 3, ClassHint::DsHeader);
            return true;
        }
        if f & cls::S10WRAP != 0 {
            self.flush();
            let mut name = String::new();
            let mut cp = String::new();
            let mut kind = String::new();
            for d in el.descendants().filter_map(ElementRef::wrap) {
                let fd = flags(&d);
                if fd & cls::S10NAME != 0 {
                    name = clean(&inline_text(d));
                    if let Some(next) = d
                        .next_siblings()
                        .filter_map(ElementRef::wrap)
                        .find(|n| inline_text(*n).contains("CP"))
                    {
                        cp = clean(&inline_text(next));
                    }
                } else if fd & cls::S10TYPE != 0 {
                    kind = clean(&inline_text(d));
                }
            }
            self.row(vec![name, cp, kind], Some(ClassHint::S10Wrap));
            return true;
        }
        if f & cls::S10ENHWRAP != 0 {
            self.flush();
            let mut cells: Vec<String> = el
                .child_elements()
                .map(|c| clean(&inline_text(c)))
                .filter(|c| !c.is_empty())
                .collect();
            cells.truncate(2);
            if !cells.is_empty() {
                self.row(cells, Some(ClassHint::S10EnhWrap));
            }
            return true;
        }
        false
    }

    fn invuln(&mut self, el: ElementRef) {
        for d in el.descendants().filter_map(ElementRef::wrap) {
            let fd = flags(&d);
            if fd & cls::DSCHARINVULVALUE != 0 {
                self.push(
                    BlockKind::Paragraph,
                    inline_text(d),
                    Some(ClassHint::DsInvul),
                );
            } else if fd & cls::DSINVULCOMMENT != 0 {
                self.push(
                    BlockKind::Paragraph,
                    inline_text(d),
                    Some(ClassHint::DsInvulComment),
                );
            }
        }
    }

    /// Weapon tables: header rows (`RANGED WEAPONS | RANGE | A | BS …`, wherever they sit,
    /// even inside the previous weapon's `tbody`) and one row per profile; the `wTable2_long`
    /// row that repeats each profile's name for narrow screens is the same profile and skipped.
    fn weapon_table(&mut self, table: ElementRef) {
        for tr in table.descendants().filter_map(ElementRef::wrap) {
            if tag(&tr) != "tr" || (flags(&tr) & cls::WTABLE2_LONG != 0) {
                continue;
            }
            let tds: Vec<ElementRef> = tr.child_elements().filter(|c| tag(c) == "td").collect();
            let is_header = tr
                .descendants()
                .filter_map(ElementRef::wrap)
                .any(|d| flags(&d) & cls::DSHEADER != 0);
            if is_header {
                let cells: Vec<String> = tds
                    .iter()
                    .map(|c| clean(&inline_text(*c)))
                    .filter(|c| !c.is_empty())
                    .collect();
                self.row(cells, Some(ClassHint::WHeader));
                continue;
            }
            let Some(pos) = tds.iter().position(|c| flags(c) & cls::WTABLE2_SHORT != 0) else {
                // Notes under a weapon (`dsOptionsComment`) and the like.
                let cells: Vec<String> = tds.iter().map(|c| clean(&inline_text(*c))).collect();
                if cells.iter().any(|c| !c.is_empty()) {
                    self.row(cells, Some(ClassHint::WNote));
                }
                continue;
            };
            let (name, keywords) = weapon_cell(tds[pos]);
            let mut first = name;
            if !keywords.is_empty() {
                first = format!("{first} [{}]", keywords.join(", "));
            }
            let mut cells = vec![first];
            cells.extend(tds[pos + 1..].iter().map(|c| clean(&inline_text(*c))));
            let pointy = tr
                .descendants()
                .filter_map(ElementRef::wrap)
                .any(|d| flags(&d) & cls::DSPOINTY != 0);
            self.row(
                cells,
                Some(if pointy {
                    ClassHint::WProfileMulti
                } else {
                    ClassHint::WProfile
                }),
            );
        }
    }

    /// One entry of a glossary tooltip container: a rule (`tooltip_header`), an ability card
    /// (`abName`), a stratagem card, or a keyword index (`The X keyword is used in the
    /// following …`).
    fn tooltip_entry<'a>(&mut self, entry: ElementRef<'a>, st: &mut Vec<Task<'a>>) {
        let started = entry
            .descendants()
            .filter_map(ElementRef::wrap)
            .take(8)
            .any(|d| flags(&d) & (cls::TOOLTIP_HEADER | cls::ABNAME | cls::STR10WRAP) != 0);
        if !started {
            // Keep entries apart: a marker heading with no text.
            let line = self.loc.find("");
            let mut b = Block::new(BlockKind::Heading, String::new(), line);
            b.region = self.region;
            b.class = Some(ClassHint::Tooltip);
            b.level = 6;
            self.blocks.push(b);
        }
        if let Some(c) = entry.first_child() {
            st.push(Task::GlossarySiblings(c));
        }
    }

    /// One child node of a glossary entry.
    fn glossary_node<'a>(&mut self, child: Nd<'a>, st: &mut Vec<Task<'a>>) {
        let Some(c) = ElementRef::wrap(child) else {
            self.node_text(text(&child));
            return;
        };
        let fc = flags(&c);
        if fc & (cls::TOOLTIP_HEADER | cls::ABNAME) != 0 {
            self.flush();
            let class = if fc & cls::ABNAME != 0 {
                ClassHint::AbName
            } else {
                ClassHint::TooltipHeader
            };
            self.push_heading(inline_text(c), 4, class);
        } else if fc & (cls::ABWRAP | cls::ABFLEX | cls::ABNAMEWRAP) != 0 {
            if let Some(first) = c.first_child() {
                st.push(Task::GlossarySiblings(first));
            }
        } else if tag(&c) == "p" && starts_keyword_index(c) {
            self.flush();
            self.push(
                BlockKind::Paragraph,
                inline_text(c),
                Some(ClassHint::KeywordIndex),
            );
        } else {
            self.element(c, st);
        }
    }

    /// A stratagem card (`root`), read from its descendant `next` on: name, CP,
    /// `Group – Category Stratagem`, flavor, then the WHEN / TARGET / EFFECT / RESTRICTIONS
    /// paragraphs. A `str10Text` paragraph is rendered as a container (pushed as tasks); the
    /// card's reading resumes after it.
    fn stratagem_card<'a>(
        &mut self,
        root: Nd<'a>,
        mut next: Option<Nd<'a>>,
        st: &mut Vec<Task<'a>>,
    ) {
        while let Some(n) = next {
            next = preorder_next(n, root, true);
            let Some(d) = ElementRef::wrap(n) else {
                continue;
            };
            let fd = flags(&d);
            let class = if fd & cls::STR10NAME != 0 {
                ClassHint::Str10Name
            } else if fd & cls::STR10CP != 0 {
                ClassHint::Str10Cp
            } else if fd & cls::STR10TYPE != 0 {
                ClassHint::Str10Type
            } else if fd & cls::STR10LEGEND != 0 {
                ClassHint::Str10Legend
            } else if fd & cls::STR10TEXT != 0 {
                self.flush();
                st.push(Task::Stratagem { root, next });
                self.scope(st, self.region, Some(ClassHint::Str10Text));
                push_children(st, d);
                return;
            } else {
                continue;
            };
            if class == ClassHint::Str10Name {
                self.push_heading(inline_text(d), 4, class);
            } else {
                self.push(BlockKind::Paragraph, inline_text(d), Some(class));
            }
        }
    }
}

/// `<p>The <span>X</span> keyword is used in the following … datasheets:</p>`, checked on
/// the paragraph's first text without rendering it.
fn starts_keyword_index(p: ElementRef) -> bool {
    let first = p
        .children()
        .find_map(|c| text(&c).map(|t| t.trim_start().starts_with("The")));
    first == Some(true) && inline_text(p).contains("keyword is used in the following")
}

/// The site prints a keyword once per detachment filter (`snFl` spans, all but one hidden by
/// script): the first variant is the text, the repeats are not.
fn is_repeated_variant(el: &ElementRef, f: u64) -> bool {
    f & cls::SNFL != 0
        && tag(el) == "span"
        && attr(el, "style").is_some()
        && any_earlier_sibling(el, |p| flags(p) & cls::SNFL != 0)
}

/// An element that contains a datasheet, tooltip or stratagem card.
fn holds_structure(el: ElementRef) -> bool {
    el.descendent_elements()
        .any(|d| flags(&d) & (cls::DSOUTERFRAME | cls::TOOLTIP_TEMPLATES | cls::STR10WRAP) != 0)
}

/// A table row whose cells hold paragraphs or lists.
fn has_block_content(tr: ElementRef) -> bool {
    tr.child_elements().any(|td| {
        td.child_elements()
            .any(|c| matches!(tag(&c), "p" | "ul" | "ol" | "table"))
    })
}

/// A weapon's name cell: the name, and its abilities — one `kwb2` span each, possibly split
/// into one span per word, in any case, sometimes wrapped in literal brackets.
fn weapon_cell(td: ElementRef) -> (String, Vec<String>) {
    let mut name = String::new();
    let mut keywords = Vec::new();
    collect_weapon(td, &mut name, &mut keywords);
    (clean(&name), keywords)
}

fn collect_weapon(el: ElementRef, name: &mut String, keywords: &mut Vec<String>) {
    walk(*el, |child| match ElementRef::wrap(child) {
        Some(c) if (flags(&c) & cls::KWB2 != 0) => {
            let k = clean(&inline_text(c));
            let k = k
                .trim_matches(|ch: char| ch == '[' || ch == ']' || ch == ',')
                .trim();
            if !k.is_empty() {
                keywords.push(k.to_string());
            }
            false
        }
        Some(c) if (flags(&c) & cls::DSPOINTY != 0) || is_skipped(tag(&c)) => false,
        Some(_) => true,
        None => {
            if let Some(t) = text(&child) {
                name.push_str(t);
            }
            false
        }
    });
}

/// All text under `el`, `<br>` as a space; scripts, styles and form controls left out.
fn inline_text(el: ElementRef) -> String {
    let mut s = String::new();
    push_text(el, &mut s);
    s
}

fn push_text(el: ElementRef, s: &mut String) {
    walk(*el, |child| match child.value() {
        Node::Text(_) => {
            s.push_str(text(&child).unwrap_or_default());
            false
        }
        Node::Element(e) if e.name() == "br" => {
            s.push(' ');
            false
        }
        Node::Element(e) if is_skipped(e.name()) => false,
        Node::Element(_) => ElementRef::wrap(child)
            .is_some_and(|c| tag(&c) != "span" || !is_repeated_variant(&c, flags(&c))),
        _ => false,
    });
}
