//! Near-duplicate rule texts: MinHash over character shingles, LSH banding for candidates,
//! exact Jaccard to decide. Pure and deterministic (no random seeds, no input order).
//!
//! A text's shingles are the character 5-grams of its canonical form (`dedup::canonical_text`),
//! hashed with FNV-1a. Its signature is [`HASHES`] minima of those hashes under fixed mixers;
//! [`BANDS`] bands of [`ROWS`] rows put texts with Jaccard similarity ≳ 0.5 in a shared bucket
//! with high probability (≥ 0.999 at 0.85). Every candidate pair is then measured exactly:
//!
//! - **Same name** (equal rule slugs, same edition, kind and faction compatible): one rule when
//!   Jaccard ≥ [`SAME_NAME_JACCARD`] or the shorter text's shingles lie ≥ [`SAME_NAME_CONTAINED`]
//!   inside the longer (a play-reference shortening; the shorter at least [`MIN_CONTAINED_LEN`]
//!   bytes). Same-name pairs are always compared,
//!   whether LSH paired them or not (up to [`NAME_WINDOW`] neighbours in text order).
//! - **A copy without a name** (either or both unnamed): one rule only when Jaccard ≥
//!   [`UNNAMED_JACCARD`]. Two different rules that share boilerplate (`Each time a model with
//!   this ability…` with another keyword) stay below it; a corrected typo or a changed word in
//!   a paragraph of normal length stays above it.
//! - **Different names** never merge; **different editions** never merge: a pair at ≥
//!   [`UNNAMED_JACCARD`] is reported as a link.
//!
//! Accepted pairs are joined strongest first (ties by text), and a join that would put two
//! names, two kinds or two factions in one cluster is refused, so a chain of unnamed copies
//! cannot bridge two different rules. A cluster's rule is the member that is named, longest,
//! printed most often, then least by text; the others become its `variants` with their own
//! occurrences and similarity. Within a bucket each text is compared with its next
//! [`BUCKET_WINDOW`] neighbours in text order (within a name, [`NAME_WINDOW`]), and clusters
//! form by chaining, so the candidate pairs are O(n) even for a family of thousands of copies.

use crate::model::{Rule, RuleVariant};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// Characters per shingle.
pub const SHINGLE: usize = 5;
/// MinHash signature length.
pub const HASHES: usize = 64;
/// LSH bands × rows = [`HASHES`].
pub const BANDS: usize = 16;
pub const ROWS: usize = 4;
/// Same name: Jaccard at or above this is one rule.
pub const SAME_NAME_JACCARD: f64 = 0.5;
/// Same name: the shorter text at least this much inside the longer is one rule.
pub const SAME_NAME_CONTAINED: f64 = 0.8;
/// Same name: a text shorter than this (canonical bytes) is never taken as a shortening (a
/// stray word is contained in anything).
pub const MIN_CONTAINED_LEN: usize = 80;
/// A copy without a name: Jaccard at or above this is one rule (and the cross-edition link
/// threshold).
pub const UNNAMED_JACCARD: f64 = 0.85;
/// In an LSH bucket, each text is compared with the next this many (in text order): the
/// candidate pairs stay linear in the number of texts however large a family of copies is.
pub const BUCKET_WINDOW: usize = 8;
/// Among the texts of one name, each is compared with the next this many.
pub const NAME_WINDOW: usize = 32;

/// What `rule-clusters.json` shows.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    pub method: Method,
    pub clusters: Vec<Cluster>,
    /// Near-identical rules of different editions: never merged, listed here.
    pub links: Vec<Link>,
    /// Ids paragraphs were read with → the id of the rule they are now part of, where merging
    /// changed it (a text shared by factions takes one faction's scope; a merged variant).
    /// References to rules (abilities, detachments) are rewritten with it.
    pub renamed: BTreeMap<String, String>,
}

/// The parameters, so a reader of the report knows what the scores mean.
#[derive(Debug, Clone, Serialize)]
pub struct Method {
    pub shingles: String,
    pub minhash: usize,
    pub bands: usize,
    pub rows: usize,
    pub same_name_jaccard_permille: u32,
    pub same_name_contained_permille: u32,
    pub unnamed_jaccard_permille: u32,
}

impl Default for Method {
    fn default() -> Self {
        Method {
            shingles: format!("character {SHINGLE}-grams of the canonical text"),
            minhash: HASHES,
            bands: BANDS,
            rows: ROWS,
            same_name_jaccard_permille: permille(SAME_NAME_JACCARD),
            same_name_contained_permille: permille(SAME_NAME_CONTAINED),
            unnamed_jaccard_permille: permille(UNNAMED_JACCARD),
        }
    }
}

/// One rule with variants.
#[derive(Debug, Clone, Serialize)]
pub struct Cluster {
    pub rule: String,
    pub name: Option<String>,
    pub members: Vec<Member>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Member {
    /// `rule` (the kept text) or `variant`.
    pub role: &'static str,
    pub text: String,
    pub occurrences: Vec<crate::source::Occurrence>,
    pub similarity_permille: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct Link {
    pub a: String,
    pub b: String,
    pub similarity_permille: u32,
}

/// A cross-edition link before ids are final: the two texts (edition, canonical text).
#[derive(Debug, Clone)]
pub struct PendingLink {
    a: (String, String),
    b: (String, String),
    score: f64,
}

fn permille(x: f64) -> u32 {
    (x * 1000.0).round().clamp(0.0, 1000.0) as u32
}

/// FNV-1a, 64 bits.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// splitmix64's finaliser: the `i`-th MinHash function is `mix(h ^ seed_i)`.
#[inline(always)]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The sorted, distinct shingle hashes of a canonical text (a text shorter than a shingle is
/// one shingle).
pub fn shingles(canonical: &str) -> Vec<u64> {
    if canonical.chars().nth(SHINGLE).is_none() {
        return vec![fnv(canonical.as_bytes())];
    }
    // A window over the last SHINGLE + 1 character starts (the text's end as the last), never
    // a vector of every character; duplicates are dropped as the hashes grow, so a long
    // repetitive text (a 50 MB table read as one rule) costs its distinct shingles only.
    let mut out: Vec<u64> = Vec::new();
    let mut compact_at = 1 << 16;
    let mut starts: std::collections::VecDeque<usize> =
        std::collections::VecDeque::with_capacity(SHINGLE + 1);
    let ends = canonical.char_indices().map(|(i, _)| i);
    for i in ends.chain(std::iter::once(canonical.len())) {
        starts.push_back(i);
        if starts.len() > SHINGLE {
            let start = starts.pop_front().unwrap_or(0);
            out.push(fnv(&canonical.as_bytes()[start..i]));
            if out.len() >= compact_at {
                out.sort_unstable();
                out.dedup();
                compact_at = (out.len() * 2).max(1 << 16);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// |A ∩ B| of two sorted sets.
fn common(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// (Jaccard, containment of the smaller set in the larger) of two shingle sets.
pub fn similarity(a: &[u64], b: &[u64]) -> (f64, f64) {
    let n = common(a, b) as f64;
    let union = (a.len() + b.len()) as f64 - n;
    let smaller = a.len().min(b.len()).max(1) as f64;
    (if union > 0.0 { n / union } else { 1.0 }, n / smaller)
}

/// The MinHash signature of a shingle set: for each of the [`HASHES`] functions, the least
/// value over the set. The same arithmetic everywhere; on a CPU with AVX-512 (checked at run
/// time) the 64 functions are computed 8 at a time (a set of 500 shingles is 32,000 mixes).
fn signature(sh: &[u64]) -> [u64; HASHES] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512dq") {
        // SAFETY: the CPU has the features `signature_avx512` is compiled for (just checked).
        return unsafe { signature_avx512(sh) };
    }
    signature_of(sh)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq")]
fn signature_avx512(sh: &[u64]) -> [u64; HASHES] {
    signature_of(sh)
}

#[inline(always)]
fn signature_of(sh: &[u64]) -> [u64; HASHES] {
    let seeds: [u64; HASHES] = std::array::from_fn(|i| mix(i as u64 + 1));
    let mut sig = [u64::MAX; HASHES];
    for &h in sh {
        for (s, seed) in sig.iter_mut().zip(seeds) {
            *s = (*s).min(mix(h ^ seed));
        }
    }
    sig
}

/// One text's facts for comparison. Its shingle set is not kept here: most texts pair with no
/// other, and a set costs 8 bytes per character (see [`cluster`]).
struct Item {
    edition: &'static str,
    canonical: String,
    slug: Option<String>,
    kind: Option<String>,
    faction: Option<String>,
}

fn item(r: &Rule, folded: &super::Folded) -> Item {
    Item {
        edition: r.edition.as_str(),
        canonical: folded.text(&r.text).into_owned(),
        slug: r.name.as_deref().map(crate::ids::rule_slug),
        kind: (r.kind != super::UNCLASSIFIED).then(|| r.kind.clone()),
        faction: r.faction.clone(),
    }
}

/// The LSH key of each band of a text's MinHash signature.
fn band_keys(canonical: &str) -> [u64; BANDS] {
    let sig = signature(&shingles(canonical));
    std::array::from_fn(|b| {
        sig[b * ROWS..(b + 1) * ROWS]
            .iter()
            .fold(0u64, |h, &v| mix(h ^ v))
    })
}

/// Each text of `list` (in text order) paired with the next `window` of it.
fn pair_neighbours(list: &[u32], window: usize, pairs: &mut Vec<(u32, u32)>) {
    // items are in (edition, canonical text) order: each is paired with the next few of its
    // list (textual neighbours), and union-find joins the chain
    for (x, &i) in list.iter().enumerate() {
        for &j in list.iter().skip(x + 1).take(window) {
            pairs.push((i.min(j), i.max(j)));
        }
    }
}

/// Candidate pairs (i < j), sorted and distinct: LSH buckets, plus every pair of one edition
/// and name. Memory: one band's (key, index) list at a time, indexes as `u32` (8 bytes a
/// pair), and pairs de-duplicated after each band (a family of copies shares its neighbours in
/// every band).
fn candidates(items: &[Item], keys: &[[u64; BANDS]]) -> Vec<(u32, u32)> {
    debug_assert!(u32::try_from(items.len()).is_ok());
    let mut pairs = Vec::new();
    let mut list = Vec::new();
    for b in 0..BANDS {
        let mut band: Vec<(u64, u32)> = keys
            .iter()
            .enumerate()
            .map(|(i, k)| (k[b], i as u32))
            .collect();
        band.sort_unstable();
        for run in band.chunk_by(|x, y| x.0 == y.0) {
            if run.len() > 1 {
                list.clear();
                list.extend(run.iter().map(|&(_, i)| i));
                pair_neighbours(&list, BUCKET_WINDOW, &mut pairs);
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs.shrink_to_fit();
    }
    let mut by_name: BTreeMap<(&str, &str), Vec<u32>> = BTreeMap::new();
    for (i, it) in items.iter().enumerate() {
        if let Some(s) = &it.slug {
            by_name.entry((it.edition, s)).or_default().push(i as u32);
        }
    }
    for list in by_name.values() {
        pair_neighbours(list, NAME_WINDOW, &mut pairs);
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Whether two optional attributes can belong to one rule.
fn agree(a: &Option<String>, b: &Option<String>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => x == y,
        _ => true,
    }
}

/// The score at which `a` and `b` are one rule, `None` when they are not.
fn accept(a: &Item, b: &Item, sa: &[u64], sb: &[u64]) -> Option<f64> {
    if a.edition != b.edition || !agree(&a.kind, &b.kind) || !agree(&a.faction, &b.faction) {
        return None;
    }
    let (jaccard, contained) = similarity(sa, sb);
    match (&a.slug, &b.slug) {
        (Some(x), Some(y)) if x != y => None,
        (Some(_), Some(_)) => {
            let shorter = a.canonical.len().min(b.canonical.len());
            let shortened = shorter >= MIN_CONTAINED_LEN && contained >= SAME_NAME_CONTAINED;
            (jaccard >= SAME_NAME_JACCARD || shortened).then_some(jaccard)
        }
        _ => (jaccard >= UNNAMED_JACCARD).then_some(jaccard),
    }
}

/// Measures every candidate pair exactly: the accepted same-edition edges (score, i, j) and the
/// cross-edition links.
///
/// Memory: a text's shingle set costs 8 bytes per character, so the sets are a cache, not a
/// table: a set is made at its first pair and dropped after its last, and when the live sets
/// pass [`set_budget`] the ones needed last are dropped (made again if needed again). The
/// result does not depend on the cache: a set is a function of its text.
fn measure(
    items: &[Item],
    pairs: &[(u32, u32)],
    budget: usize,
) -> (Vec<(f64, usize, usize)>, Vec<PendingLink>) {
    let mut last = vec![0usize; items.len()];
    for (p, &(i, j)) in pairs.iter().enumerate() {
        last[i as usize] = p;
        last[j as usize] = p;
    }
    let mut sets: Vec<Vec<u64>> = vec![Vec::new(); items.len()];
    let mut live: Vec<usize> = Vec::new();
    let mut live_bytes = 0usize;
    let mut edges = Vec::new();
    let mut links = Vec::new();
    for (p, &(i, j)) in pairs.iter().enumerate() {
        let (i, j) = (i as usize, j as usize);
        for k in [i, j] {
            if sets[k].is_empty() {
                let mut set = shingles(&items[k].canonical);
                set.shrink_to_fit();
                live_bytes += set.len() * 8;
                sets[k] = set;
                live.push(k);
            }
        }
        let (a, b) = (&items[i], &items[j]);
        if a.edition != b.edition {
            let (jaccard, _) = similarity(&sets[i], &sets[j]);
            if jaccard >= UNNAMED_JACCARD {
                links.push(PendingLink {
                    a: (a.edition.to_string(), a.canonical.clone()),
                    b: (b.edition.to_string(), b.canonical.clone()),
                    score: jaccard,
                });
            }
        } else if let Some(score) = accept(a, b, &sets[i], &sets[j]) {
            edges.push((score, i, j));
        }
        for k in [i, j] {
            if last[k] == p {
                live_bytes -= sets[k].len() * 8;
                sets[k] = Vec::new();
            }
        }
        if live_bytes > budget {
            // keep the half needed soonest
            live.retain(|&k| !sets[k].is_empty());
            live.sort_unstable_by_key(|&k| (last[k], k));
            while live_bytes > budget / 2 {
                let Some(k) = live.pop() else { break };
                live_bytes -= sets[k].len() * 8;
                sets[k] = Vec::new();
            }
        }
    }
    (edges, links)
}

/// Bytes of shingle sets kept at once: twice the texts' own size, at least 32 MiB (so a
/// corpus of normal size never evicts).
fn set_budget(items: &[Item]) -> usize {
    let text: usize = items.iter().map(|it| it.canonical.len()).sum();
    (2 * text).max(32 << 20)
}

/// Union-find whose roots carry the cluster's name, kind and faction.
struct Clusters {
    parent: Vec<usize>,
    attrs: Vec<[Option<String>; 3]>,
}

impl Clusters {
    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// Joins the clusters of `i` and `j` unless their names, kinds or factions disagree.
    fn join(&mut self, i: usize, j: usize) {
        let (a, b) = (self.root(i), self.root(j));
        if a == b || !(0..3).all(|k| agree(&self.attrs[a][k], &self.attrs[b][k])) {
            return;
        }
        let (keep, gone) = (a.min(b), a.max(b));
        for k in 0..3 {
            if self.attrs[keep][k].is_none() {
                self.attrs[keep][k] = self.attrs[gone][k].take();
            }
        }
        self.parent[gone] = keep;
    }
}

/// Groups near-duplicate rules (already exact-merged) into one rule each with variants.
/// Returns the rules and the cross-edition links found on the way.
/// `folded`: the canonical texts of the rules' texts.
pub fn cluster(rules: Vec<Rule>, folded: &super::Folded) -> (Vec<Rule>, Vec<PendingLink>) {
    // a fixed order: by edition and canonical text (exact copies are already one)
    let mut rules = rules;
    rules.sort_by_cached_key(|r| (r.edition.as_str(), folded.text(&r.text)));
    let items: Vec<Item> = rules.iter().map(|r| item(r, folded)).collect();
    let pairs = {
        use rayon::prelude::*;
        let keys: Vec<[u64; BANDS]> = items
            .par_iter()
            .map(|it| band_keys(&it.canonical))
            .collect();
        candidates(&items, &keys)
    };
    let (mut edges, links) = measure(&items, &pairs, set_budget(&items));
    drop(pairs);
    // strongest first; ties by position (text order)
    edges.sort_by(|x, y| y.0.total_cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
    let mut uf = Clusters {
        parent: (0..items.len()).collect(),
        attrs: items
            .iter()
            .map(|it| [it.slug.clone(), it.kind.clone(), it.faction.clone()])
            .collect(),
    };
    for &(_, i, j) in &edges {
        uf.join(i, j);
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..items.len() {
        let r = uf.root(i);
        groups.entry(r).or_default().push(i);
    }
    let mut slots: Vec<Option<Rule>> = rules.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(slots.len());
    for members in groups.into_values() {
        // a cluster of one needs no shingles; a larger one's are made again, once each
        let many = members.len() > 1;
        let taken: Vec<(Rule, &Item, Vec<u64>)> = members
            .iter()
            .filter_map(|&i| {
                let set = if many {
                    shingles(&items[i].canonical)
                } else {
                    Vec::new()
                };
                slots[i].take().map(|r| (r, &items[i], set))
            })
            .collect();
        out.extend(combine(taken));
    }
    (out, links)
}

/// One rule from a cluster: the named, longest (the complete wording, not a play-reference
/// shortening), most printed, least-by-text member keeps its text; the others are its variants.
fn combine(mut members: Vec<(Rule, &Item, Vec<u64>)>) -> Option<Rule> {
    members.sort_by(|(a, ia, _), (b, ib, _)| {
        (b.name.is_some(), ib.canonical.len(), b.occurrences.len())
            .cmp(&(a.name.is_some(), ia.canonical.len(), a.occurrences.len()))
            .then_with(|| ia.canonical.cmp(&ib.canonical))
    });
    let mut it = members.into_iter();
    let (mut rule, _, head) = it.next()?;
    for (r, _, set) in it {
        let (jaccard, _) = similarity(&head, &set);
        rule.name = super::better_name(rule.name.take(), r.name);
        if rule.kind == super::UNCLASSIFIED {
            rule.kind = r.kind;
        }
        if rule.faction.is_none() {
            rule.faction = r.faction;
        }
        if rule.flavor.is_none() {
            rule.flavor = r.flavor;
        }
        rule.occurrences.extend(r.occurrences.iter().cloned());
        rule.variants.push(RuleVariant {
            text: r.text,
            occurrences: r.occurrences,
            similarity_permille: permille(jaccard),
        });
        rule.variants.extend(r.variants);
    }
    rule.occurrences.sort();
    rule.occurrences.dedup();
    rule.variants
        .sort_by(|a, b| (&a.text, &a.occurrences).cmp(&(&b.text, &b.occurrences)));
    Some(rule)
}

/// The report over the final rules (ids settled): every rule with variants, and the links by
/// final id. `folded`: the canonical texts of the rules' texts and their variants'.
pub fn report(rules: &[Rule], links: &[PendingLink], folded: &super::Folded) -> Report {
    let mut clusters = Vec::new();
    let mut by_text: BTreeMap<(&str, Cow<'_, str>), &str> = BTreeMap::new();
    for r in rules {
        by_text.insert((r.edition.as_str(), folded.text(&r.text)), &r.id);
        for v in &r.variants {
            by_text.insert((r.edition.as_str(), folded.text(&v.text)), &r.id);
        }
        if r.variants.is_empty() {
            continue;
        }
        let elsewhere: BTreeSet<&crate::source::Occurrence> = r
            .variants
            .iter()
            .flat_map(|v| v.occurrences.iter())
            .collect();
        let own: Vec<_> = r
            .occurrences
            .iter()
            .filter(|o| !elsewhere.contains(o))
            .cloned()
            .collect();
        let mut members = vec![Member {
            role: "rule",
            text: r.text.clone(),
            occurrences: own,
            similarity_permille: 1000,
        }];
        members.extend(r.variants.iter().map(|v| Member {
            role: "variant",
            text: v.text.clone(),
            occurrences: v.occurrences.clone(),
            similarity_permille: v.similarity_permille,
        }));
        clusters.push(Cluster {
            rule: r.id.clone(),
            name: r.name.clone(),
            members,
        });
    }
    let mut out: Vec<Link> = links
        .iter()
        .filter_map(|l| {
            let a = by_text.get(&(l.a.0.as_str(), Cow::Borrowed(l.a.1.as_str())))?;
            let b = by_text.get(&(l.b.0.as_str(), Cow::Borrowed(l.b.1.as_str())))?;
            let (a, b) = if a <= b { (a, b) } else { (b, a) };
            Some(Link {
                a: a.to_string(),
                b: b.to_string(),
                similarity_permille: permille(l.score),
            })
        })
        .collect();
    out.sort_by(|x, y| (&x.a, &x.b).cmp(&(&y.a, &y.b)));
    out.dedup_by(|x, y| x.a == y.a && x.b == y.b);
    Report {
        method: Method::default(),
        clusters,
        links: out,
        renamed: BTreeMap::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The AVX-512 signature is the portable one (when the CPU has AVX-512; CI's may not).
    #[test]
    fn signatures_are_the_same_on_every_path() {
        let sets: Vec<Vec<u64>> = (0..50u64)
            .map(|n| (0..n * 7).map(|i| mix(i ^ (n << 32))).collect())
            .collect();
        for sh in &sets {
            assert_eq!(signature(sh), signature_of(sh));
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx512dq") {
                // SAFETY: the CPU has the features (just checked).
                assert_eq!(unsafe { signature_avx512(sh) }, signature_of(sh));
            }
        }
        // One shingle, 0: the first function's value is splitmix64's finaliser applied twice
        // to 1 (its seed is the finaliser of 1), worked out apart from this code.
        assert_eq!(signature(&[0])[0], 0x7ab4_0e09_0f36_3a7d);
    }

    fn item(text: &str, slug: Option<&str>, edition: &'static str) -> Item {
        Item {
            edition,
            canonical: crate::dedup::canonical_text(text),
            slug: slug.map(str::to_string),
            kind: None,
            faction: None,
        }
    }

    /// The shingle sets are a cache: evicting all of them after every pair (budget 0) gives
    /// the same edges and links as keeping every one.
    #[test]
    fn measuring_does_not_depend_on_the_shingle_budget() {
        let base = "Each time a model in this unit makes an attack, re-roll a hit roll of 1";
        let mut items: Vec<Item> = (0..40)
            .map(|i| {
                let text = format!("{base} and add {} to the wound roll number {i}.", i % 3);
                let edition = if i % 7 == 0 { "9e" } else { "10e" };
                item(&text, (i % 5 == 0).then_some("reroll"), edition)
            })
            .collect();
        items.sort_by(|a, b| (a.edition, &a.canonical).cmp(&(b.edition, &b.canonical)));
        let keys: Vec<[u64; BANDS]> = items.iter().map(|it| band_keys(&it.canonical)).collect();
        let pairs = candidates(&items, &keys);
        assert!(
            pairs.len() > 40,
            "a family of near copies pairs up: {}",
            pairs.len()
        );
        let (all, all_links) = measure(&items, &pairs, usize::MAX);
        let (none, none_links) = measure(&items, &pairs, 0);
        assert!(!all.is_empty() && !all_links.is_empty());
        assert_eq!(all, none);
        let key = |l: &PendingLink| (l.a.clone(), l.b.clone(), l.score.to_bits());
        assert_eq!(
            all_links.iter().map(key).collect::<Vec<_>>(),
            none_links.iter().map(key).collect::<Vec<_>>()
        );
    }
}
