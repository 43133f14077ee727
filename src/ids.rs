//! Every record id, built here and nowhere else: from scope and content, never from a file's
//! hash, a file's name or the order of the inputs. Pure.
//!
//! The id rules (see `ARCHITECTURE.md`, "Stable ids"):
//!
//! - An id is `EDITION:SCOPE:KEY`; `EDITION` is [`Edition::as_str`] (`10e`, `9e`, `hh2`).
//! - Datasheets `10e:<faction>:<name>`, stratagems `10e:<group>:<name>`, detachments
//!   `10e:<faction>:<detachment>`, enhancements `10e:<faction>:<detachment>:<name>` (or
//!   `10e:<faction>:<name>` when the source names no detachment). A missing faction is
//!   `unknown`. Names and scopes are [`slug`]s. Points a publication prints apart from
//!   datasheets: `11e:points:<publication>:<faction>:<unit>` ([`points`]).
//! - Rules `10e:<kind>:<name>` for `core` and `weapon_ability`, `10e:<faction>/<kind>:<name>`
//!   for the faction's own kinds (`army`, `detachment`, `order`, …); the name is a
//!   [`rule_slug`] (`Rapid Fire X` → `rapid-fire`). The kind stays in the id: it comes from the
//!   source's headings, and when copies of one text disagree dedup picks it by a fixed rule
//!   (never by which file came first), so it cannot flip between runs or input orders.
//! - Unnamed records are keyed by what they contain: an unnamed datasheet by a hash of its
//!   model profiles, weapon names and keywords ([`datasheet_content_key`]), an unnamed rule or
//!   enhancement by the first six words of its flavor text (or of its text). File renames and
//!   edits elsewhere in the file leave them alone.
//! - Datasheets one faction prints under one name in different publications (a chapter's
//!   version, a Legends datasheet) are different datasheets: the one of the faction's own
//!   publication keeps the id, each other is `<id>~<publication slug>` ([`in_publication`]).
//! - Variants (one rule id, materially different texts): the variant whose canonical text
//!   sorts first keeps the id; every other one is `<id>~<first 8 hex digits of the SHA-256 of
//!   its canonical text>` ([`variant`]), so a variant's id depends on its own text only.

use crate::model::{Datasheet, Edition, Rule};
use crate::text::fold;
use sha2::{Digest, Sha256};

/// Lower-case ASCII slug: accents stripped, apostrophes dropped, other runs of
/// non-alphanumerics become one `-` ([`fold::fold_for_id`]).
pub fn slug(s: &str) -> String {
    fold::fold_for_id(s)
}

/// Slug of a rule name without parameter placeholders: `Feel No Pain x+` → `feel-no-pain`.
pub fn rule_slug(name: &str) -> String {
    let words: Vec<&str> = name
        .split_whitespace()
        .filter(|w| !matches!(w.to_ascii_lowercase().as_str(), "x" | "x+" | "(x)" | "(x+)"))
        .collect();
    slug(&words.join(" "))
}

/// A faction's scope slug; `unknown` when the source does not say.
pub fn faction_scope(faction: Option<&str>) -> String {
    faction.map(slug).unwrap_or_else(|| "unknown".into())
}

fn id(edition: Edition, scope: &str, key: &str) -> String {
    format!("{}:{}:{}", edition.as_str(), scope, key)
}

/// `EDITION:<faction>:<name>`.
pub fn datasheet(edition: Edition, faction: Option<&str>, name: &str) -> String {
    id(edition, &faction_scope(faction), &slug(name))
}

/// `EDITION:<faction>:unnamed-<content_key>`, the key from [`datasheet_content_key`].
pub fn unnamed_datasheet(edition: Edition, faction: Option<&str>, content_key: &str) -> String {
    id(
        edition,
        &faction_scope(faction),
        &format!("unnamed-{content_key}"),
    )
}

/// 12 hex digits of the SHA-256 of a datasheet's defining content: its model profiles, its
/// weapons' names and its keywords, folded ([`fold::fold_for_compare`]) and with object keys
/// sorted, so neither provenance nor field order nor typography changes it.
pub fn datasheet_content_key(ds: &Datasheet) -> String {
    let v = serde_json::to_value(ds).unwrap_or_default();
    let mut canon = String::new();
    if let Some(models) = v.get("models") {
        canon.push_str("models=");
        canonical_json(models, &mut canon);
    }
    canon.push_str(";weapons=");
    for w in v
        .get("weapons")
        .and_then(|w| w.as_array())
        .into_iter()
        .flatten()
    {
        if let Some(n) = w.get("name") {
            canonical_json(n, &mut canon);
            canon.push(',');
        }
    }
    if let Some(k) = v.get("keywords") {
        canon.push_str(";keywords=");
        canonical_json(k, &mut canon);
    }
    short_hash(&fold::fold_for_compare(&canon), 12)
}

/// JSON with object keys sorted (the output's own key order is the struct's field order).
fn canonical_json(v: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for k in keys {
                out.push_str(k);
                out.push(':');
                if let Some(x) = m.get(k) {
                    canonical_json(x, out);
                }
                out.push(',');
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for x in a {
                canonical_json(x, out);
                out.push(',');
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn short_hash(s: &str, hex_digits: usize) -> String {
    let digest = Sha256::digest(s.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    hex[..hex_digits.min(hex.len())].to_string()
}

/// `EDITION:<group>:<name>`: same name in another group is another stratagem.
pub fn stratagem(edition: Edition, group: &str, name: &str) -> String {
    id(edition, &slug(group), &slug(name))
}

/// `EDITION:points:<publication>:<subject key>`: the points one publication prints for one
/// datasheet, the subject key its id without the edition (`11e:points:mfm-1-1:adeptus-custodes:
/// custodian-guard`). `publication` is what the publication prints of itself (its version, its
/// title), slugged.
pub fn points(edition: Edition, publication: &str, subject: &str) -> String {
    let key = subject.split_once(':').map_or(subject, |(_, k)| k);
    id(edition, "points", &format!("{}:{key}", slug(publication)))
}

/// `EDITION:erratum:<publication>:<n>`: the `n`-th entry (1-based, print order) of an errata
/// document, `publication` what it prints of itself (its title and version), slugged
/// (`10e:erratum:index-cards-1-2:17`).
pub fn erratum(edition: Edition, publication: &str, n: usize) -> String {
    id(edition, "erratum", &format!("{}:{n}", slug(publication)))
}

/// A numbered rule's id when another rule of its scope has its name (11th-edition core rules
/// print `Abilities` as 02.03 and 24.01): `<id>~<number slug>` (`11e:core:abilities~24-01`).
pub fn in_section(id: &str, number: &str) -> String {
    format!("{id}~{}", slug(number))
}

/// `EDITION:<faction>:<detachment>`.
pub fn detachment(edition: Edition, faction: Option<&str>, name: &str) -> String {
    id(edition, &faction_scope(faction), &slug(name))
}

/// `EDITION:<faction>:<detachment>:<name>`, or `EDITION:<faction>:<name>` without a detachment.
pub fn enhancement(
    edition: Edition,
    faction: Option<&str>,
    detachment: Option<&str>,
    name: &str,
) -> String {
    let key = match detachment {
        Some(d) => format!("{}:{}", slug(d), slug(name)),
        None => slug(name),
    };
    id(edition, &faction_scope(faction), &key)
}

/// `EDITION:<faction>:unnamed-<first six words>` of an enhancement printed without its name;
/// `basis` is its flavor text, or its text when it has none.
pub fn unnamed_enhancement(edition: Edition, faction: Option<&str>, basis: &str) -> String {
    id(edition, &faction_scope(faction), &unnamed_key(basis))
}

fn unnamed_key(basis: &str) -> String {
    let words: Vec<&str> = basis.split_whitespace().take(6).collect();
    format!("unnamed-{}", slug(&words.join(" ")))
}

/// Where a rule belongs: its kind, and for the faction's own kinds the faction.
pub fn rule_scope(kind: &str, faction: Option<&str>) -> String {
    match faction {
        Some(f) if kind != "core" && kind != "weapon_ability" => format!("{}/{}", slug(f), kind),
        _ => kind.to_string(),
    }
}

/// `EDITION:<scope>:<rule name>` ([`rule_scope`], [`rule_slug`]).
pub fn rule(edition: Edition, scope: &str, name: &str) -> String {
    id(edition, scope, &rule_slug(name))
}

/// A rule paragraph's id: [`rule`] in its [`rule_scope`], or [`unnamed_rule`] keyed by its
/// flavor text (which tells unnamed rules apart better than the formulaic start of rules
/// text, `Each time a unit from your army…`) or, without one, its text.
pub fn rule_id(r: &Rule) -> String {
    let scope = rule_scope(&r.kind, r.faction.as_deref());
    match &r.name {
        Some(n) => rule(r.edition, &scope, n),
        None => unnamed_rule(r.edition, &scope, r.flavor.as_deref().unwrap_or(&r.text)),
    }
}

/// `EDITION:core:<name>`.
pub fn core_rule(edition: Edition, name: &str) -> String {
    rule(edition, &rule_scope("core", None), name)
}

/// `EDITION:<faction>/army:<name>`.
pub fn army_rule(edition: Edition, faction_scope: &str, name: &str) -> String {
    rule(edition, &format!("{faction_scope}/army"), name)
}

/// `EDITION:<faction>/detachment:<name>`.
pub fn detachment_rule(edition: Edition, faction_scope: &str, name: &str) -> String {
    rule(edition, &format!("{faction_scope}/detachment"), name)
}

/// `EDITION:<scope>:unnamed-<first six words>` of a rule no source names; `basis` is its
/// flavor text, or its text when it has none.
pub fn unnamed_rule(edition: Edition, scope: &str, basis: &str) -> String {
    id(edition, scope, &unnamed_key(basis))
}

/// The id of a record read before its faction was known, once it is: the `unknown` faction
/// scope replaced by the faction's (`10e:unknown:x` → `10e:grey-knights:x`).
pub fn rescoped(id: &str, faction: &str) -> String {
    id.replacen(":unknown:", &format!(":{}:", slug(faction)), 1)
}

/// `<id>~<publication>`: one of several datasheets a faction prints under one name, told apart
/// by the publication that prints it when that is not the faction's own (a chapter's faction
/// pack, `Warhammer Legends`): `10e:space-marines:gladiator-lancer~black-templars`.
pub fn in_publication(id: &str, publication: &str) -> String {
    format!("{id}~{}", slug(publication))
}

/// `<id>~<8 hex digits>`: a variant of `id` (same scope and name, other text), keyed by the
/// SHA-256 of its canonical text ([`fold::fold_for_compare`]).
pub fn variant(id: &str, text: &str) -> String {
    format!("{id}~{}", short_hash(&fold::fold_for_compare(text), 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slug("Be’lakor"), "belakor");
        assert_eq!(slug("COMMAND RE-ROLL"), "command-re-roll");
        assert_eq!(
            slug("Betraying Shades – witchfire"),
            "betraying-shades-witchfire"
        );
        assert_eq!(slug("Gaunt's Ghosts"), "gaunts-ghosts");
        assert_eq!(slug("  Grey Knights "), "grey-knights");
        assert_eq!(rule_slug("Feel No Pain x+"), "feel-no-pain");
        assert_eq!(rule_slug("RAPID FIRE X"), "rapid-fire");
    }

    #[test]
    fn eleventh_edition_points_and_numbered_rules() {
        let subject = datasheet(
            Edition::Eleventh,
            Some("Adeptus Custodes"),
            "Custodian Guard",
        );
        assert_eq!(subject, "11e:adeptus-custodes:custodian-guard");
        assert_eq!(
            points(Edition::Eleventh, "1.1", &subject),
            "11e:points:1-1:adeptus-custodes:custodian-guard"
        );
        assert_eq!(
            in_section("11e:core:abilities", "24.01"),
            "11e:core:abilities~24-01"
        );
    }

    #[test]
    fn shapes() {
        let e = Edition::Tenth;
        assert_eq!(
            datasheet(e, Some("Grey Knights"), "Brother-Captain"),
            "10e:grey-knights:brother-captain"
        );
        assert_eq!(datasheet(e, None, "X"), "10e:unknown:x");
        assert_eq!(
            stratagem(e, "Core", "Command Re-roll"),
            "10e:core:command-re-roll"
        );
        assert_eq!(
            enhancement(
                e,
                Some("Grey Knights"),
                Some("Warpbane Task Force"),
                "Sigil"
            ),
            "10e:grey-knights:warpbane-task-force:sigil"
        );
        assert_eq!(
            rule(e, &rule_scope("army", Some("Aeldari")), "Battle Focus"),
            "10e:aeldari/army:battle-focus"
        );
        assert_eq!(
            rule(e, &rule_scope("core", Some("Aeldari")), "Deep Strike"),
            "10e:core:deep-strike"
        );
        assert_eq!(
            unnamed_rule(
                e,
                "unclassified",
                "None can be allowed to reach the objective now"
            ),
            "10e:unclassified:unnamed-none-can-be-allowed-to-reach"
        );
        let v = variant("10e:core:x", "Some text");
        assert_eq!(v, variant("10e:core:x", "some  TEXT"));
        assert_eq!(v.len(), "10e:core:x~".len() + 8);
    }
}
