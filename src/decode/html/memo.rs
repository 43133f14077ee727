//! The memo of glossary and chrome containers: a `tooltip_templates` element (or a chrome one:
//! the site's navigation, filter warnings, ads) read once, then recognised by its bytes wherever
//! it is printed again, in the same page or another, and rendered from the memo without being
//! tokenized, built or rendered again.
//!
//! Why: a Wahapedia page prints the glossary of every rule it links to, and the pages of one
//! faction link to the same rules. In the HTML corpus 72% of the bytes are `tooltip_templates`
//! elements, and 57% of those are byte-for-byte repeats of one printed before (a datasheet's
//! page carries 300 of them, 3 MB); three quarters of the navigation's bytes are repeats too.
//!
//! How (the tokenizer, [`super::tokenize`], drives it at the element's start tag):
//! - An element qualifies when the tree builder is in a plain state around it
//!   ([`super::build::Builder::memo_for_open`]): in body, its ancestors `html`, `body` and
//!   `div`s with none of the classes the renderer reacts to, nothing in the list of active
//!   formatting elements, no form open, standards mode. The element itself is a `div` whose
//!   classes take the renderer to its chrome or glossary branch ([`qualifies`]). In that state
//!   the element's subtree is built the same whatever comes before it (the builder's rules
//!   that look below the element, at the formatting list or at the form pointer read only what
//!   this state fixes), and the renderer reaches it only through that branch, which reads
//!   nothing outside it.
//! - The first time, the subtree is read on its own ([`first_reading`]): a
//!   fresh builder (a doctype, then the element) over the page's own text, up to the end tag
//!   that closes the element. It becomes an [`Entry`] when that builder built it whole and ended
//!   as it began ([`super::build::Builder::settled`]: nothing the subtree opened is left open,
//!   nothing outside it was closed), no tag in it was past the depth limits, it is at least
//!   [`PREFIX`] bytes, and its rendering ([`super::render::record`]) set none of the page's
//!   metadata but the faction pack (the first one wins, wherever it is read).
//! - Its rendering is recorded with the searches the [`super::Locator`] was asked for in place of
//!   lines; where it is used, in the page being read or a later one, the page's locator runs
//!   those searches in order, so each block gets the line it would have had and the locator
//!   moves as it would have.
//! - In the page's tree the element stays, empty, with the entry attached ([`super::tree`]);
//!   the tokenizer moves past the element's end tag. Where the page's depth counter would take
//!   a tag of the subtree past the limits, the element is read in place.
//!
//! Tests that it changes nothing: `tests/it/html_memo.rs` decodes every corpus page with and
//! without a memo and holds a trap for each context that must refuse it; the `html_tokenizers`
//! fuzz target compares the two on any text.
//!
//! Memory: an entry keeps the element's bytes (to compare) and its blocks; the memo stops
//! taking entries at [`BUDGET`] bytes (those it has are still used). One memo per run
//! (`decode::Shared`), shared by the threads; no output depends on which page filled it. Owns
//! the memo only: what qualifies is decided by the builder's and the renderer's own state.

use super::render::{cls, Recorded};
use super::tree::ElementRef;
use rustc_hash::FxHasher;
use std::collections::HashMap;
use std::hash::Hasher;
use std::sync::{Arc, Mutex};

/// Whether a `div` of these classes (as bits: [`cls`]) is for the memo: the renderer's chrome
/// branch (its images read for the faction pack's title, nothing else), or its glossary branch
/// (not taken when the element is also a datasheet, whose branch comes first).
pub fn qualifies(flags: u64) -> bool {
    flags & cls::CHROME != 0
        || (flags & cls::TOOLTIP_TEMPLATES != 0 && flags & cls::DSOUTERFRAME == 0)
}

/// Bytes an element must have to be memoized, and the prefix it is looked up by: shorter ones
/// cost less to read than to look up.
pub const PREFIX: usize = 256;

/// The bytes of entries (their markup and their blocks' text) the memo takes in all.
pub const BUDGET: usize = 64 << 20;

/// One element read once: its bytes, from the `<` of its start tag to the `>` of its end tag,
/// what the depth limits need to know, and its rendering.
pub struct Entry {
    pub key: Box<[u8]>,
    /// The deepest the depth counter went in it, counting the element itself as 1.
    pub max_depth: usize,
    /// The most formatting elements open in it at once.
    pub max_formatting: usize,
    pub rendered: Recorded,
}

impl Entry {
    fn size(&self) -> usize {
        self.key.len() + self.rendered.size()
    }
}

/// The element whose start tag is at `lt` of `text` (the page as the tokenizer reads it) read on
/// its own ([`super::tokenize::read_alone`]) and rendered ([`super::render::record`]) into an
/// entry. `None` when it does not qualify (see the module doc): its reading failed, it is
/// shorter than [`PREFIX`], or its rendering set the page's metadata.
pub fn first_reading(text: &str, lt: usize) -> Option<Entry> {
    let alone = super::tokenize::read_alone(text, lt)?;
    if alone.end.saturating_sub(lt) < PREFIX {
        return None;
    }
    let key: Box<[u8]> = text.as_bytes().get(lt..alone.end)?.into();
    let body = alone
        .tree
        .root_element()?
        .child_elements()
        .find(|e| e.value().name() == "body")?;
    let mut children = body.children();
    let el = children.next().and_then(ElementRef::wrap)?;
    if children.next().is_some() {
        return None;
    }
    let rendered = super::render::record(el)?;
    Some(Entry {
        key,
        max_depth: alone.max_depth,
        max_formatting: alone.max_formatting,
        rendered,
    })
}

/// The memo of one run, shared by the threads decoding its pages.
#[derive(Default)]
pub struct Memo {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Entries by the hash of their first [`PREFIX`] bytes.
    by_prefix: HashMap<u64, Vec<Arc<Entry>>>,
    bytes: usize,
    /// How many elements were read from the memo, and how many were read to fill it.
    hits: usize,
    entries: usize,
}

/// What the memo did, for the tests and the bench.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct MemoStats {
    pub entries: usize,
    pub hits: usize,
    pub bytes: usize,
}

fn prefix_hash(rest: &[u8]) -> Option<u64> {
    let prefix = rest.get(..PREFIX)?;
    let mut h = FxHasher::default();
    h.write(prefix);
    Some(h.finish())
}

impl Memo {
    pub fn new() -> Self {
        Memo::default()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while the lock was held (caught per file) leaves entries that are whole:
        // each is pushed complete.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The entry whose bytes `rest` starts with.
    pub fn find(&self, rest: &[u8]) -> Option<Arc<Entry>> {
        let h = prefix_hash(rest)?;
        let inner = self.lock();
        inner
            .by_prefix
            .get(&h)?
            .iter()
            .find(|e| rest.starts_with(&e.key))
            .cloned()
    }

    /// Keeps `entry` (within [`BUDGET`]) and gives it back to be used.
    pub fn insert(&self, entry: Entry) -> Arc<Entry> {
        let entry = Arc::new(entry);
        let size = entry.size();
        let mut inner = self.lock();
        inner.entries += 1;
        let Some(h) = prefix_hash(&entry.key) else {
            return entry;
        };
        let fits = inner.bytes + size <= BUDGET;
        let bucket = inner.by_prefix.entry(h).or_default();
        // The other thread may have read the same element meanwhile: kept once.
        if let Some(kept) = bucket.iter().find(|e| e.key == entry.key) {
            return Arc::clone(kept);
        }
        if fits {
            bucket.push(Arc::clone(&entry));
            inner.bytes += size;
        }
        entry
    }

    /// Counts one element read from the memo.
    pub fn hit(&self) {
        self.lock().hits += 1;
    }

    pub fn stats(&self) -> MemoStats {
        let inner = self.lock();
        MemoStats {
            entries: inner.entries,
            hits: inner.hits,
            bytes: inner.bytes,
        }
    }
}
