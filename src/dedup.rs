//! Dedup: one rule registry for every source. Pure.
//!
//! Owns the canonical text form (NFKC, quote/dash/whitespace folding, case) and the merging of
//! rule paragraphs, in order: (1) identical paragraphs become one rule with all their
//! occurrences, a named copy naming its unnamed twins (evidence, not a guess); (2) a copy that
//! is a truncated prefix of another merges into the complete text; (3) near-duplicates
//! ([`near`]: MinHash/LSH over character shingles, exact Jaccard to decide) become one rule
//! with `variants` (a play-reference shortening, a corrected typo, reworded errata), never
//! across names or editions (other editions are linked in the report); (4) same id with
//! materially different text stays separate (`~<hash>` suffix, see `ids::variant`) and is
//! reported (`D201`); a numbered rule (the 11th-edition core rules' `05.01`) is merged with
//! nothing and keeps its id. [`merge_rules_with_report`] also returns what `rule-clusters.json`
//! shows. Ids come from scope and name (`crate::ids`), never from file names or input order:
//! when copies disagree, the kind (first classified kind by name), the faction (the one most
//! copies name) and the flavor (least by value) are chosen by value, so the result does not
//! depend on the order or the names of the inputs. Each distinct text is folded (and its canonical
//! form hashed) once per run ([`Folded`]), in parallel; every pass looks it up.

use crate::diag::{Code, Diagnostic};
use crate::model::Rule;
use rayon::prelude::*;
use std::borrow::Cow;
use std::collections::BTreeMap;

pub mod near;

/// Canonical comparison form of a text: NFKC, quotes and dashes folded to ASCII, whitespace
/// collapsed, lower case ([`crate::text::fold::fold_for_compare`]). Idempotent.
pub fn canonical_text(s: &str) -> String {
    crate::text::fold::fold_for_compare(s)
}

/// The canonical text ([`canonical_text`]) of every distinct text a run's rules print (their
/// own and their variants'), each folded once, in parallel, with the SHA-256 of that canonical
/// text (`place_key` hashes it with a place): a page repeats its tooltips, so a run prints
/// each text many times, and every pass of the merge compares canonical texts. Only looked
/// up, never iterated: the result does not depend on its order.
pub struct Folded(std::collections::HashMap<String, (String, [u8; 32])>);

impl Folded {
    /// The canonical texts of `rules`' texts and their variants'.
    pub fn of(rules: &[Rule]) -> Folded {
        let mut texts: Vec<&str> = rules
            .iter()
            .flat_map(|r| {
                std::iter::once(r.text.as_str()).chain(r.variants.iter().map(|v| v.text.as_str()))
            })
            .collect();
        texts.par_sort_unstable();
        texts.dedup();
        Folded(
            texts
                .into_par_iter()
                .map(|t| {
                    let canonical = canonical_text(t);
                    let digest = text_digest(&canonical);
                    (t.to_string(), (canonical, digest))
                })
                .collect(),
        )
    }

    /// The canonical text of `s`, lent (folded now if `s` was not among the texts).
    pub fn text(&self, s: &str) -> Cow<'_, str> {
        match self.0.get(s) {
            Some((c, _)) => Cow::Borrowed(c),
            None => Cow::Owned(canonical_text(s)),
        }
    }

    /// The SHA-256 of the canonical text of `s`.
    fn digest(&self, s: &str) -> [u8; 32] {
        match self.0.get(s) {
            Some((_, d)) => *d,
            None => text_digest(&canonical_text(s)),
        }
    }
}

/// The SHA-256 of a canonical text.
fn text_digest(canonical: &str) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    Sha256::digest(canonical.as_bytes()).into()
}

/// Kind of a paragraph whose source does not say what it is.
pub const UNCLASSIFIED: &str = "unclassified";

/// Merges rule paragraphs (each with its occurrences) into the registry. Output sorted by id.
pub fn merge_rules(rules: Vec<Rule>, diagnostics: &mut Vec<Diagnostic>) -> Vec<Rule> {
    merge_rules_with_report(rules, diagnostics).0
}

/// [`merge_rules`], with the near-duplicate clusters and cross-edition links it found (what
/// `rule-clusters.json` shows).
pub fn merge_rules_with_report(
    rules: Vec<Rule>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Rule>, near::Report) {
    // 1. Exact duplicates by (edition, canonical text): one rule, all occurrences. The kind
    //    is scope only where a source says so; an `unclassified` copy takes its twin's kind.
    //    Canonical texts are computed once per distinct text, in parallel ([`Folded`]; the
    //    grouping is a sorted map, so the result does not depend on the thread count).
    // Numbered rules (a section number the source prints: the 11th-edition core rules) are one
    // place each of a numbered book, with ids, parents and children their reader gave: they
    // join no copy (passes 1-3 keep them out) and keep their ids (pass 4 renames another
    // rule of the same id first).
    let folded = Folded::of(&rules);
    let (numbered, rules): (Vec<Rule>, Vec<Rule>) =
        rules.into_iter().partition(|r| r.number.is_some());
    let keyed: Vec<((&str, Cow<'_, str>), Rule)> = rules
        .into_par_iter()
        .map(|r| ((r.edition.as_str(), folded.text(&r.text)), r))
        .collect();
    // The id each paragraph had where it was read (what datasheets and detachments refer to),
    // by occurrence, to report the ids merging changed (`Report::renamed`).
    let mut read_as: ReadAs = keyed
        .par_iter()
        .flat_map_iter(|(_, r)| {
            let id = rule_id(r);
            let text = folded.digest(&r.text);
            r.occurrences
                .iter()
                .map(move |o| (place_key(o, &text), id.clone()))
        })
        .collect();
    read_as.par_sort_unstable();
    read_as.dedup();
    let mut by_text: BTreeMap<(&str, Cow<'_, str>), Vec<Rule>> = BTreeMap::new();
    for (key, r) in keyed {
        by_text.entry(key).or_default().push(r);
    }
    // Each group's canonical text is kept for the prefix pass below.
    let (texts, merged): (Vec<Cow<'_, str>>, Vec<Rule>) = by_text
        .into_iter()
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|((_, text), copies)| (text, combine(copies)))
        .unzip();

    // 2. An unnamed rule whose text is a prefix of (or extends) a named one of the same
    //    edition takes that rule's identity: it is a truncated copy.
    let slugs: Vec<Option<String>> = merged
        .iter()
        .map(|r| r.name.as_deref().map(crate::ids::rule_slug))
        .collect();
    // The groups are sorted by (edition, canonical text), so the texts that extend text i
    // are the ones right after it: the scan stops at the first that does not (near-linear).
    let mut absorbed = vec![None; merged.len()];
    for i in 0..merged.len() {
        if texts[i].len() < 80 {
            continue;
        }
        for j in i + 1..merged.len() {
            // i is a strict, substantial prefix of j and the names do not disagree.
            let (a, b) = (&texts[i], &texts[j]);
            if merged[i].edition != merged[j].edition || !b.starts_with(a.as_ref()) {
                break;
            }
            if b.len() <= a.len() {
                continue;
            }
            let names_agree = match (&slugs[i], &slugs[j]) {
                (Some(x), Some(y)) => x == y,
                _ => true,
            };
            if names_agree {
                absorbed[i] = Some(j);
                break;
            }
        }
    }
    drop((texts, slugs));
    let mut keep: Vec<Option<Rule>> = merged.into_iter().map(Some).collect();
    for i in 0..keep.len() {
        if let Some(mut j) = absorbed[i] {
            while let Some(k) = absorbed[j] {
                j = k;
            }
            if let Some(r) = keep[i].take() {
                if let Some(target) = keep[j].as_mut() {
                    target.occurrences.extend(r.occurrences);
                    target.occurrences.sort();
                    target.occurrences.dedup();
                    if target.name.is_none() {
                        target.name = r.name;
                    }
                    if target.flavor.is_none() {
                        target.flavor = r.flavor;
                    }
                    if target.kind == UNCLASSIFIED {
                        target.kind = r.kind;
                    }
                }
            }
        }
    }
    let rules: Vec<Rule> = keep.into_iter().flatten().collect();

    // 3. Near-duplicates (see `near`): copies whose wording differs a little become one rule
    //    with variants; rules of other editions with such text are only linked.
    let (mut rules, near_links) = near::cluster(rules, &folded);
    for r in &mut rules {
        r.id = rule_id(r);
    }

    // 4. Same id, different text (not near enough to be one rule): keep both and report. The variant whose canonical text
    //    sorts first keeps the id, the others get `~<hash of their canonical text>`: neither
    //    file names nor input order decide (see `ids::variant`).
    rules.extend(numbered);
    let mut keyed: Vec<(Cow<'_, str>, Rule)> = rules
        .into_iter()
        .map(|r| (folded.text(&r.text), r))
        .collect();
    keyed.sort_by(|(ta, a), (tb, b)| {
        a.id.cmp(&b.id)
            .then_with(|| b.number.is_some().cmp(&a.number.is_some()))
            .then_with(|| ta.cmp(tb))
    });
    let mut rules: Vec<Rule> = Vec::with_capacity(keyed.len());
    let mut prev: Option<String> = None;
    for (text, mut r) in keyed {
        if prev.as_deref() != Some(r.id.as_str()) {
            prev = Some(r.id.clone());
            rules.push(r);
            continue;
        }
        let variant = crate::ids::variant(&r.id, &text);
        if r.name.is_some() {
            let mut d = Diagnostic::new(
                Code::RuleConflict,
                format!(
                    "rule '{}' ({}) is printed with different texts; kept as variant {}",
                    r.name.as_deref().unwrap_or("unnamed"),
                    r.id,
                    variant
                ),
            );
            if let Some(o) = r.occurrences.first() {
                d = d.at(&o.file, o.line);
            }
            diagnostics.push(d);
        }
        r.id = variant;
        rules.push(r);
    }
    rules.sort_by(|a, b| a.id.cmp(&b.id));
    let mut report = near::report(&rules, &near_links, &folded);
    report.renamed = renamed(&rules, &read_as, &folded);
    // 5. Rules no source names: kept with `name: null`, reported once each.
    for r in rules.iter().filter(|r| r.name.is_none()) {
        let mut d = Diagnostic::new(
            Code::RuleNameUnknown,
            format!(
                "rule paragraph has no name in any source: \"{}\"",
                r.text.chars().take(60).collect::<String>()
            ),
        );
        if let Some(o) = r.occurrences.first() {
            d = d.at(&o.file, o.line);
        }
        diagnostics.push(d);
    }
    (rules, report)
}

/// Ids paragraphs were read with that no final rule has, each to the final rule that took the
/// paragraph in (the least such id when copies went to several). Datasheets and detachments
/// refer to rules by the id their page gives (`10e:space-marines/army:oath-of-moment`); when
/// one text is shared by factions, the merged rule takes the faction most copies name
/// (`10e:adeptus-astartes/army:oath-of-moment`), and the page's reference must follow it.
fn renamed(rules: &[Rule], read_as: &ReadAs, folded: &Folded) -> BTreeMap<String, String> {
    let finals: std::collections::BTreeSet<&str> = rules.iter().map(|r| r.id.as_str()).collect();
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for r in rules {
        // the rule's own text and its variants', each at its own places (a paragraph is known
        // by place and text: one line of a page may hold several)
        let own = (folded.digest(&r.text), r.occurrences.iter());
        let wordings = std::iter::once(own).chain(
            r.variants
                .iter()
                .map(|v| (folded.digest(&v.text), v.occurrences.iter())),
        );
        for (text, places) in wordings {
            for o in places {
                let key = place_key(o, &text);
                let from = read_as.partition_point(|(k, _)| *k < key);
                let olds = read_as[from..].iter().take_while(|(k, _)| *k == key);
                for (_, old) in olds {
                    if old == &r.id || finals.contains(old.as_str()) {
                        continue;
                    }
                    let to = out.entry(old.clone()).or_insert_with(|| r.id.clone());
                    if r.id < *to {
                        *to = r.id.clone();
                    }
                }
            }
        }
    }
    out
}

/// The ids paragraphs were read with, by (place, canonical text) as [`place_key`], sorted: a
/// flat list, not a map holding a copy of every text (the largest use of memory in dedup
/// when an input gives a hundred thousand rules).
type ReadAs = Vec<([u8; 16], String)>;

/// A paragraph's place and canonical text (its SHA-256, [`Folded`]: each text hashed once, not
/// once per place), hashed (SHA-256, first 128 bits: two different paragraphs collide with
/// probability about 2^-128 per pair).
fn place_key(o: &crate::source::Occurrence, text: &[u8; 32]) -> [u8; 16] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(o.file.as_bytes());
    h.update([0]);
    h.update(o.line.to_le_bytes());
    // each optional part: a presence byte, then its fixed-size value
    h.update([u8::from(o.page.is_some())]);
    h.update(o.page.unwrap_or(0).to_le_bytes());
    h.update([u8::from(o.bbox.is_some())]);
    for v in o.bbox.map_or([0.0; 4], |b| b.0) {
        h.update(v.to_bits().to_le_bytes());
    }
    h.update([u8::from(o.page_size.is_some())]);
    if let Some(p) = o.page_size {
        h.update(p.width.to_bits().to_le_bytes());
        h.update(p.height.to_bits().to_le_bytes());
        h.update(p.rotate.to_le_bytes());
    } else {
        h.update([0; 10]);
    }
    h.update(text);
    let digest = h.finalize();
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest[..16]);
    key
}

/// Rewrites a rule reference (an ability's `rule_id`, a detachment's rule) that merging renamed.
pub fn resolve(renamed: &BTreeMap<String, String>, id: &mut String) {
    if let Some(to) = renamed.get(id.as_str()) {
        *id = to.clone();
    }
}

/// Combines exact copies: union of occurrences; the best name (mixed case over all caps),
/// flavor and bullets from whichever copy has them.
fn combine(mut copies: Vec<Rule>) -> Rule {
    // a total order, so the kept text never depends on input order
    copies.sort_by(|a, b| {
        (&a.occurrences, &a.text, &a.name, &a.flavor, &a.kind).cmp(&(
            &b.occurrences,
            &b.text,
            &b.name,
            &b.flavor,
            &b.kind,
        ))
    });
    // The faction (part of the id's scope) most copies name, the least by name on a tie.
    let mut votes: BTreeMap<&str, usize> = BTreeMap::new();
    for f in copies.iter().filter_map(|r| r.faction.as_deref()) {
        *votes.entry(f).or_insert(0) += 1;
    }
    let faction = votes
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(f, _)| f.to_string());
    let mut it = copies.into_iter();
    let mut out = it.next().expect("group is never empty");
    for r in it {
        out.occurrences.extend(r.occurrences);
        out.name = better_name(out.name.take(), r.name);
        // Fields an id is built from are chosen by value, never by which copy came first
        // (file names and input order must not change an id).
        out.flavor = least(out.flavor.take(), r.flavor);
        if out.bullets.len() < r.bullets.len() {
            out.bullets = r.bullets;
        }
        if out.kind == UNCLASSIFIED || r.kind != UNCLASSIFIED && r.kind < out.kind {
            out.kind = r.kind;
        }
    }
    out.faction = faction;
    out.occurrences.sort();
    out.occurrences.dedup();
    out
}

/// The smaller of two present values, else whichever is present.
fn least(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn better_name(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => {
            let caps = |s: &str| !s.chars().any(|c| c.is_lowercase());
            if caps(&a) && !caps(&b) || (caps(&a) == caps(&b) && b < a) {
                Some(b)
            } else {
                Some(a)
            }
        }
        (a, b) => a.or(b),
    }
}

/// A rule's id ([`crate::ids::rule_id`]).
pub fn rule_id(r: &Rule) -> String {
    crate::ids::rule_id(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_text_is_idempotent_and_folds() {
        let s = "Some  CHARACTER units have ‘Leader’ listed – yes";
        let c = canonical_text(s);
        assert_eq!(c, "some character units have 'leader' listed - yes");
        assert_eq!(canonical_text(&c), c);
    }
}
