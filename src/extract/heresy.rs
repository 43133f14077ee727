//! Horus Heresy special-rules glossary: the evidence a rule's name comes from, headed entries
//! that survived in the dump (`BlastBlast weapons…`), and the front matter.
//!
//! The glossary prints each rule as a flavor sentence and rules text, without names, glued to
//! the next rule (`glossary.rs` reads that structure). A name is taken only from the rule's own
//! words, in this order: `This rule is presented as Hatred (X)`; a text that opens on the name
//! (`Bulky models count…`, `All Barrage weapons…`, `…a model with a Heavy weapon…`); the first
//! sentence's `with/has the NAME special rule`; a worked example (`a model with the Fleet (2)
//! special rule`, `the special rule Fear (2)`, `e.g., Legiones Astartes (Sons of Horus)`);
//! `a special Feel No Pain roll`; `a weapon that Gets Hot`; `receives no benefit from Rage`; a
//! later sentence's `with/using the NAME special rule` unless that sentence excludes it
//! (`against`, `excluding`, `Note that`). A rule whose
//! text gives a value in brackets is named in its general form, `Fleet (X)`, never with the
//! example's value. No evidence: no name (`X103` after dedup).

use crate::ir::{Block, BlockKind};
use regex::Regex;
use std::sync::LazyLock;

/// A capitalised name: words starting upper case, with `-` and `’` inside.
const NAME: &str = r"[A-Z][\w’'-]*(?: [A-Z][\w’'-]*)*";

static PRESENTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"^This rule is presented as ({NAME}) \(X\)")).expect("static regex")
});
static OPENS_ON_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^(?:All )?({NAME}) (?:models|weapons) (?:count|can|use|are)\b"
    ))
    .expect("static regex")
});
static WEAPON_OF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"^(?:When [^,.]+, )?[Aa]n? model (?:with|equipped with|armed with) an? ({NAME}) weapon\b"
    ))
    .expect("static regex")
});
static POSSESSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"\b(?:with|has|using) the ({NAME}) (?:special )?rules?\b"
    ))
    .expect("static regex")
});
static EXAMPLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(
        r"(?:\b(?:with|has) (?:the )?({NAME}) \([^)]+\)|\bthe special rule ({NAME}) \([^)]+\)|\be\.g\., ({NAME}) \()"
    ))
    .expect("static regex")
});
static NO_BENEFIT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"\breceives no benefit from ({NAME})\.")).expect("static regex")
});
static SPECIAL_ROLL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(&format!(r"\bmake a special ({NAME}) roll\b")).expect("static regex")
});
static WEAPON_THAT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\ba weapon that ([A-Z]\w+(?: [A-Z]\w+)*)\b").expect("static regex")
});
/// Words by which a text says the rule carries a value in brackets.
static BRACKETED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\bin brackets\b|\bvalue of (?:X|this special rule)\b|\bvalue X\b|\bvalue indicated as part of\b|\blisted as part of this special rule\b")
        .expect("static regex")
});
/// Pronouns and sentence openers that are not names.
const NOT_NAMES: &[&str] = &["This", "The", "A", "An", "Any", "All", "Each", "That"];

/// The rule's name from its own words, in general form, or `None`.
pub fn name(body: &str) -> Option<String> {
    let found = evidence(body)?;
    if NOT_NAMES.contains(&found.as_str()) {
        return None;
    }
    let example = Regex::new(&format!(r"\b{} \([^)]+\)", regex::escape(&found)));
    let has_value = example.is_ok_and(|r| r.is_match(body)) || BRACKETED.is_match(body);
    if has_value && !found.ends_with(')') {
        return Some(format!("{found} (X)"));
    }
    Some(found)
}

/// The first evidence found, in the order of the module doc.
fn evidence(body: &str) -> Option<String> {
    let first = |r: &Regex, s: &str| {
        r.captures(s).and_then(|c| {
            c.iter()
                .skip(1)
                .flatten()
                .next()
                .map(|m| m.as_str().to_string())
        })
    };
    if let Some(c) = PRESENTED.captures(body) {
        return Some(format!("{} (X)", &c[1]));
    }
    let sentences = sentences(body);
    let opening = sentences.first().copied().unwrap_or(body);
    first(&OPENS_ON_NAME, body)
        .or_else(|| first(&WEAPON_OF, opening))
        .or_else(|| {
            (!opening.starts_with("Note that"))
                .then(|| first(&POSSESSION, opening))
                .flatten()
        })
        .or_else(|| first(&EXAMPLE, body))
        .or_else(|| first(&SPECIAL_ROLL, body))
        .or_else(|| first(&WEAPON_THAT, body))
        .or_else(|| first(&NO_BENEFIT, body))
        .or_else(|| sentences.iter().skip(1).find_map(|s| later_possession(s)))
}

/// `with the NAME special rule` in a later sentence, unless the sentence excludes it.
fn later_possession(s: &str) -> Option<String> {
    if s.starts_with("Note that") {
        return None;
    }
    let c = POSSESSION.captures(s)?;
    let m = c.get(1)?;
    let before = &s[..m.start()];
    let excluded = [" against ", "excluding"]
        .iter()
        .any(|w| before.contains(w));
    (!excluded).then(|| m.as_str().to_string())
}

/// The sentences of a text (split after `. `, `: `, `! `, `? `).
fn sentences(body: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = body.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if matches!(b, b'.' | b'!' | b'?') && bytes.get(i + 1) == Some(&b' ') {
            out.push(body[start..=i].trim());
            start = i + 1;
        }
    }
    if start < body.len() && !body[start..].trim().is_empty() {
        out.push(body[start..].trim());
    }
    out
}

/// The front matter: the preamble and the book-details table before the first rule (the last
/// table row of three or more filled cells among the first blocks, and everything before it).
pub fn front_matter(blocks: &[Block]) -> usize {
    blocks
        .iter()
        .take(10)
        .rposition(|b| b.kind == BlockKind::TableRow && b.filled_cells().count() >= 3)
        .map_or(0, |k| k + 1)
}

/// One entry that kept its heading: `BlastBlast weapons fire…` → `Blast`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headed {
    pub name: String,
    pub flavor: Option<String>,
    pub paras: Vec<String>,
}

/// A heading glued on after a sentence end: `…Check.BlastBlast weapons`, `…to do so.Blast
/// Weapons and Snap ShotsBlast weapons cannot…`, `…lost.Apocalyptic Mega-blast (5"/7"/10")Apo…`.
static GLUED_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"[.:] ?([A-Z][\w-]*(?: (?:[A-Z][\w-]*|and|of|the|or))*?(?:[a-z]| \([^)]*\)))([A-Z][a-z-]*)"#,
    )
    .expect("static regex")
});

/// The headed entries of a line, if it holds a heading printed twice (the rule's heading glued
/// to its text, which opens on the same words: `BlastBlast weapons…`), with the byte offset
/// where they begin. Headings whose text does not repeat them (`Multiple BlastsIf…`) are
/// sections of the entry before them. Each entry's first sentence is its flavor when the
/// entry has more and that sentence reads as description (no rules verbs).
pub fn headed(text: &str) -> Option<(usize, Vec<Headed>)> {
    let mut cuts: Vec<(usize, usize, String, bool)> = Vec::new(); // (cut, text start, heading, new rule)
    for c in GLUED_HEADING.captures_iter(text) {
        let (Some(h), Some(next)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let heading = h.as_str().to_string();
        let bare = heading.split(" (").next().unwrap_or(&heading).to_string();
        let new_rule = text[next.start()..].starts_with(&bare);
        cuts.push((h.start(), h.end(), heading, new_rule));
    }
    let first = cuts.iter().position(|c| c.3)?;
    let start = cuts[first].0;
    let mut out: Vec<Headed> = Vec::new();
    for (k, (_, body_start, heading, new_rule)) in cuts.iter().enumerate().skip(first) {
        let end = cuts.get(k + 1).map_or(text.len(), |n| n.0);
        let body = text[*body_start..end].trim();
        let paras = split_paragraphs(body);
        match out.last_mut() {
            Some(e) if !new_rule => {
                e.paras.push(heading.clone());
                e.paras.extend(paras);
            }
            _ => out.push(entry(heading.clone(), paras)),
        }
    }
    Some((start, out))
}

/// An entry from its heading and paragraphs: a leading descriptive sentence is the flavor.
fn entry(name: String, mut paras: Vec<String>) -> Headed {
    let mut flavor = None;
    if let Some(p) = paras.first().cloned() {
        let s = sentences(&p);
        let rules_verbs = [
            " use ", " roll", " must ", " may ", " can ", " Hit", " Wound",
        ];
        let rest = s.first().and_then(|f| p.strip_prefix(f));
        if let (true, Some(rest)) = (s.len() >= 2, rest) {
            if !rules_verbs.iter().any(|v| s[0].contains(v)) {
                flavor = Some(s[0].to_string());
                paras[0] = rest.trim().to_string();
            }
        }
    }
    Headed {
        name,
        flavor,
        paras,
    }
}

/// Paragraphs of a glued text: split where a sentence end runs into the next capital.
fn split_paragraphs(body: &str) -> Vec<String> {
    crate::extract::text::split_glued(body)
        .into_iter()
        .map(|p| p.text)
        .filter(|p| !p.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_own_words() {
        assert_eq!(
            name("Models with the Adamantium Will special rule gain an Invulnerable Save – the value of this Save is indicated in brackets after the rule."),
            Some("Adamantium Will (X)".into())
        );
        assert_eq!(
            name("A unit composed entirely of models with this special rule gains a bonus. For example, a unit composed entirely of models with the Fleet (2) special rule would add +2."),
            Some("Fleet (X)".into())
        );
        assert_eq!(
            name("When making a Shooting Attack, a model with a Heavy weapon attacks the number of times indicated. Note that weapons with the Blast special rule cannot fire Snap Shots."),
            Some("Heavy".into())
        );
        assert_eq!(
            name("When a model with this special rule suffers an unsaved Wound, it can make a special Shrouded roll to ignore it. Shrouded rolls may not be taken against attacks with the Ignores Cover special rule."),
            Some("Shrouded".into())
        );
        assert_eq!(
            name("If a model or weapon has this special rule, it rolls an additional D6."),
            None
        );
    }

    #[test]
    fn headed_entries() {
        let t = "Test or Check.BlastBlast weapons fire shells. When firing a Blast weapon, roll.Multiple BlastsIf a unit fires.Large BlastLarge Blast weapons use the 5\" Blast marker.";
        let (at, e) = headed(t).expect("headed");
        assert_eq!(&t[..at], "Test or Check.");
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].name, "Blast");
        assert_eq!(e[0].flavor.as_deref(), Some("Blast weapons fire shells."));
        assert_eq!(
            e[0].paras,
            [
                "When firing a Blast weapon, roll.",
                "Multiple Blasts",
                "If a unit fires."
            ]
        );
        assert_eq!(e[1].name, "Large Blast");
    }
}
