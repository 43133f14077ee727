//! Golden tests on seed 003 (Horus Heresy special-rules glossary, flavor and rules text glued,
//! names omitted). Every expected value was read by hand from `raw/003_a734c6eaeaedfcf9.txt`
//! (line numbers in the comments): the name is what the rule's own words (or a surviving
//! heading) give, in general form; `None` where nothing in the text names the rule.

use crate::util;
use cogitator::model::{Dataset, Edition, Rule};
use std::sync::OnceLock;

const S003: &str = "003_a734c6eaeaedfcf9.txt";

fn dataset() -> &'static Dataset {
    static DS: OnceLock<Dataset> = OnceLock::new();
    DS.get_or_init(|| {
        cogitator::ingest(&[util::raw().join(S003)], &Default::default()).expect("seed readable")
    })
}

fn hh_rules() -> impl Iterator<Item = &'static Rule> {
    dataset()
        .rules
        .iter()
        .filter(|r| r.edition == Edition::HorusHeresy2)
}

/// The rule whose text starts with `start`.
fn by_text(start: &str) -> &'static Rule {
    let found: Vec<&Rule> = hh_rules().filter(|r| r.text.starts_with(start)).collect();
    assert_eq!(found.len(), 1, "rules starting {start:?}");
    found[0]
}

#[test]
fn twenty_special_rules_name_or_null() {
    let key: &[(Option<&str>, &str)] = &[
        // line 6
        (Some("Adamantium Will (X)"), "Models with the Adamantium Will special rule gain"),
        // line 7
        (None, "If a model or weapon has this special rule, it rolls an additional D6"),
        // line 8
        (None, "Passengers Disembarking from Access Points on a Vehicle"),
        // line 9: `All Barrage weapons use…`
        (Some("Barrage"), "All Barrage weapons use Blast markers"),
        // line 10
        (Some("Battlesmith (X)"), "If a model with the Battlesmith (X) special rule"),
        // line 11 (before the Blast heading)
        (None, "For the purposes of whether or not attacks of a Strength twice"),
        // line 11: `Large BlastLarge Blast weapons…`
        (Some("Large Blast"), "Large Blast weapons use the 5\" Blast marker"),
        (Some("Massive Blast"), "Massive Blast weapons use the 7\" Blast marker"),
        (Some("Apocalyptic Blast"), "Apocalyptic Blast weapons use the 10\" Blast marker"),
        // line 13
        (None, "Any unit hit by one or more models or weapons with this special rule"),
        // line 14: `Bulky models count … the value X in brackets after the rule’s name`
        (Some("Bulky (X)"), "Bulky models count as a number of models"),
        // line 27: `For example, a unit with the special rule Fear (2)`
        (Some("Fear (X)"), "All enemy models within 12\" of a model with this special rule"),
        // line 28
        (Some("Fearless"), "Units with one or more models with the Fearless special rule"),
        // line 29: `a special Feel No Pain roll`
        (Some("Feel No Pain"), "When a model with this special rule suffers an unsaved Wound, it can make a special Feel No Pain roll"),
        // line 30: example `Fleet (2)`, never the example's value
        (Some("Fleet (X)"), "A unit composed entirely of models with this special rule gains a bonus to all Run moves"),
        // line 37
        (None, "Any attacks made using a weapon with this special rule do not require line of sight"),
        // line 39: `This rule is presented as Hatred (X)`
        (Some("Hatred (X)"), "This rule is presented as Hatred (X)"),
        // line 46: the Shrouded rule is only mentioned; the weapons have Ignores Cover
        (Some("Ignores Cover"), "Cover Saves and Damage Mitigation rolls granted by the Shrouded special rule"),
        // line 47
        (None, "If a model suffers an unsaved Wound from an attack with this special rule, it is reduced to 0 Wounds"),
        // line 48: example `It Will Not Die (5+)`
        (Some("It Will Not Die (X)"), "At the end of each of your turns, roll a D6 for each of your models"),
        // line 49
        (Some("Lance"), "Weapons with the Lance special rule count Vehicle Armour Values"),
        // line 50: `e.g., Legiones Astartes (Sons of Horus)`
        (Some("Legiones Astartes (X)"), "Any unit with this special rule will have a number of additional special rules"),
        // line 57: `the One Use or One Shot special rule` names two: no name
        (None, "A weapon or ability with this special rule can only be used once"),
        // line 69
        (Some("Relentless"), "Relentless models can shoot with Heavy or Ordnance weapons"),
        // line 76
        (None, "A model which has this special rule, or that is firing a weapon with this special rule, fires using its normal Ballistic Skill"),
        // line 101: `a model with a Heavy weapon` (the Blast mention is a `Note that` aside)
        (Some("Heavy"), "When making a Shooting Attack, a model with a Heavy weapon"),
        // line 111: `a special Shrouded roll` (Ignores Cover is only excluded there)
        (Some("Shrouded"), "When a model with this special rule suffers an unsaved Wound, Glancing Hit or Penetrating Hit"),
    ];
    assert!(key.len() >= 20);
    for (name, start) in key {
        let r = by_text(start);
        assert_eq!(r.name.as_deref(), *name, "{start}");
        assert_eq!(r.kind, "special_rule", "{start}");
    }
}

#[test]
fn flavor_and_text_are_split_at_the_seam() {
    // line 5 (flavor, a whole line) and line 6 (text)
    let aw = by_text("Models with the Adamantium Will special rule");
    assert_eq!(
        aw.flavor.as_deref(),
        Some("So strong of mind is this warrior that the powers of the Warp have little grasp upon them.")
    );
    assert!(
        aw.text
            .ends_with("consider the rule to be Adamantium Will (5+)."),
        "{}",
        aw.text
    );
    // line 29's tail is line 30's flavor
    let fleet = by_text("A unit composed entirely of models with this special rule gains a bonus");
    assert_eq!(
        fleet.flavor.as_deref(),
        Some("Preternaturally agile, these warriors can cover ground more quickly than their plodding foes.")
    );
    assert!(fleet
        .text
        .ends_with("add a +2 modifier to any Charge Moves made."));
}

#[test]
fn blast_keeps_its_heading_and_sections() {
    // line 11: `…Test or Check.BlastBlast weapons fire shells, … impact. When firing…`
    let blast: Vec<&Rule> = hh_rules()
        .filter(|r| r.name.as_deref() == Some("Blast"))
        .collect();
    assert_eq!(blast.len(), 1);
    let b = blast[0];
    assert_eq!(
        b.flavor.as_deref(),
        Some("Blast weapons fire shells, missiles or packets of energy that explode on impact.")
    );
    assert!(b
        .text
        .starts_with("When firing a Blast weapon, models do not roll To Hit."));
    assert!(b
        .text
        .contains("\n\nMultiple Blasts\n\nIf a unit is firing more than one shot"));
    assert!(b
        .text
        .ends_with("Blast weapons cannot be fired as Snap Shots."));
    // line 94-95 re-print the start of it: an occurrence of the same rule
    let lines: Vec<u32> = b.occurrences.iter().map(|o| o.line).collect();
    assert_eq!(lines, [11, 94]);
    let mega = hh_rules()
        .find(|r| r.name.as_deref() == Some("Apocalyptic Mega-blast (5\"/7\"/10\")"))
        .expect("Apocalyptic Mega-blast");
    assert!(mega.text.ends_with("against their Side Armour Value."));
}

#[test]
fn truncated_texts_front_matter_and_reprints() {
    let diags = &dataset().diagnostics;
    // line 9 `…with the following exceptions:` and line 40 `…AP has no effect on this roll:`
    for line in [8, 39] {
        assert!(
            diags
                .iter()
                .any(|d| d.code == "X111" && d.line == Some(line)),
            "no X111 at line {line}"
        );
    }
    // the preamble (line 1) and the book-details table (lines 2-4) are not rules
    assert!(hh_rules().all(|r| !r.text.contains("December 2023")
        && !r.text.starts_with("Book")
        && !r
            .flavor
            .as_deref()
            .unwrap_or("")
            .starts_with("This section presents")));
    // lines 117-118 re-print Fearless: one rule, two occurrences
    let fearless = hh_rules()
        .find(|r| r.name.as_deref() == Some("Fearless"))
        .expect("Fearless");
    let lines: Vec<u32> = fearless.occurrences.iter().map(|o| o.line).collect();
    assert_eq!(lines, [27, 117]);
    assert!(diags
        .iter()
        .all(|d| d.severity != cogitator::diag::Severity::Error));
}

#[test]
fn no_invented_names() {
    // Every name is printed in the rule's own text or flavor (the general form's `(X)` aside),
    // and never carries an example value.
    for r in hh_rules() {
        let Some(name) = r.name.as_deref() else {
            continue;
        };
        let bare = name.split(" (").next().unwrap_or(name);
        let printed = r.text.contains(bare) || r.flavor.as_deref().unwrap_or("").contains(bare);
        assert!(printed, "'{name}' is not in its own text");
        assert!(!name.contains("(2)") && !name.contains("(4+)") && !name.contains("(5+)"));
    }
}
