//! Laws of the rule registry: canonical form is idempotent, merging loses nothing and does not
//! depend on input order; near-duplicates merge on one side of the threshold and not the other.

use cogitator::dedup::near::{self, UNNAMED_JACCARD};
use cogitator::dedup::{canonical_text, merge_rules, merge_rules_with_report};
use cogitator::model::{Edition, Rule};
use cogitator::source::Occurrence;
use proptest::prelude::*;

fn rule(name: Option<&str>, text: &str, file: &str, line: u32) -> Rule {
    Rule {
        id: String::new(),
        name: name.map(String::from),
        kind: "core".into(),
        edition: Edition::Tenth,
        faction: None,
        flavor: None,
        text: text.into(),
        bullets: Vec::new(),
        examples: Vec::new(),
        occurrences: vec![Occurrence::at_line(file, line)],
        tables: Vec::new(),
        variants: Vec::new(),
        number: Default::default(),
        parent: Default::default(),
        children: Default::default(),
        translations: Default::default(),
    }
}

fn arb_rules() -> impl Strategy<Value = Vec<Rule>> {
    let names = prop::sample::select(vec![
        None,
        Some("Deep Strike"),
        Some("Leader"),
        Some("Stealth"),
    ]);
    let texts = prop::sample::select(vec![
        "Some units make their way to battle via tunnelling, teleportation, high-altitude descent or other means.",
        "Some units make their way to battle via tunnelling, teleportation, high-altitude descent or other means. And more text follows here.",
        "Some CHARACTER units have ‘Leader’ listed on their datasheets.",
        "Some CHARACTER units have 'Leader'  listed on their datasheets.",
        "If every model in a unit has this ability, subtract 1 from the Hit roll.",
        FIGHT,
        FIGHT_TYPO,
        FIGHT_SHORT,
        MONSTER,
        VEHICLE,
    ]);
    proptest::collection::vec((names, texts, 0u32..5, 1u32..50), 0..12).prop_map(|v| {
        v.into_iter()
            .map(|(n, t, f, l)| rule(n, t, &format!("f{f}.txt"), l))
            .collect()
    })
}

/// A long rule, the same with one typo corrected, and a play-reference shortening of it.
const FIGHT: &str = "Starting with the player whose turn is not taking place, players alternate selecting an eligible unit from their army and fighting with it. Units that made a charge move this turn fight first; each unit piles in, makes its close combat attacks and then consolidates.";
const FIGHT_TYPO: &str = "Starting with the player whose turn is not taking place, players alternate selecting an eligible unit from their army and figthing with it. Units that made a charge move this turn fight first; each unit piles in, makes its close combat attacks and then consolidates.";
const FIGHT_SHORT: &str = "Starting with the player whose turn is not taking place, players alternate selecting an eligible unit and fighting with it.";
/// Two different rules that share their boilerplate.
const MONSTER: &str = "Each time a model with this ability makes an attack that targets a MONSTER unit, add 1 to the Wound roll.";
const VEHICLE: &str = "Each time a model with this ability makes an attack that targets a VEHICLE unit, add 1 to the Wound roll.";

fn jaccard(a: &str, b: &str) -> f64 {
    near::similarity(
        &near::shingles(&canonical_text(a)),
        &near::shingles(&canonical_text(b)),
    )
    .0
}

/// Every occurrence a merged list accounts for: the rules' and their variants'.
fn occurrences(rules: &[Rule]) -> Vec<Occurrence> {
    let mut v: Vec<Occurrence> = rules
        .iter()
        .flat_map(|r| {
            r.occurrences
                .iter()
                .chain(r.variants.iter().flat_map(|v| v.occurrences.iter()))
                .cloned()
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

proptest! {
    #![proptest_config(crate::util::proptest_config(128))]

    #[test]
    fn canonical_text_is_idempotent(s in "\\PC{0,80}") {
        let once = canonical_text(&s);
        prop_assert_eq!(canonical_text(&once), once);
    }

    #[test]
    fn merging_loses_no_occurrence(rules in arb_rules()) {
        let before = occurrences(&rules);
        let mut diags = Vec::new();
        let merged = merge_rules(rules, &mut diags);
        prop_assert_eq!(occurrences(&merged), before);
    }

    #[test]
    fn merging_ignores_input_order(rules in arb_rules(), seed in any::<u64>()) {
        let mut shuffled = rules.clone();
        // a permutation from the seed (reversal and rotation cover too little)
        let n = shuffled.len();
        for i in (1..n).rev() {
            let j = (seed.wrapping_mul(i as u64 + 7).rotate_left(i as u32) % (i as u64 + 1)) as usize;
            shuffled.swap(i, j);
        }
        let (mut d1, mut d2) = (Vec::new(), Vec::new());
        let a = merge_rules_with_report(rules, &mut d1);
        let b = merge_rules_with_report(shuffled, &mut d2);
        prop_assert_eq!(&a.0, &b.0);
        prop_assert_eq!(
            serde_json::to_string(&a.1).ok(),
            serde_json::to_string(&b.1).ok()
        );
        prop_assert_eq!(d1, d2);
    }

    /// Every rule's own occurrences hold its variants' (one list says where the rule is
    /// printed), and no occurrence belongs to two rules.
    #[test]
    fn variants_are_inside_their_rule_and_no_occurrence_is_shared(rules in arb_rules()) {
        // one paragraph per place, as extraction gives them
        let rules: Vec<Rule> = rules
            .into_iter()
            .enumerate()
            .map(|(i, mut r)| {
                r.occurrences = vec![Occurrence::at_line("f.txt", i as u32 + 1)];
                r
            })
            .collect();
        let merged = merge_rules(rules, &mut Vec::new());
        let mut seen = std::collections::BTreeSet::new();
        for r in &merged {
            for v in &r.variants {
                prop_assert!(v.occurrences.iter().all(|o| r.occurrences.contains(o)));
                prop_assert!(v.similarity_permille <= 1000);
            }
            for o in &r.occurrences {
                prop_assert!(seen.insert(o.clone()), "{:?} in two rules", o);
            }
        }
    }
}

#[test]
fn the_threshold_sits_between_a_typo_and_another_rule() {
    let typo = jaccard(FIGHT, FIGHT_TYPO);
    let boilerplate = jaccard(MONSTER, VEHICLE);
    assert!(typo >= UNNAMED_JACCARD, "typo {typo}");
    assert!(boilerplate < UNNAMED_JACCARD, "boilerplate {boilerplate}");
    assert!(
        boilerplate > 0.5,
        "the pair does share most of its words: {boilerplate}"
    );
}

#[test]
fn a_corrected_typo_is_a_variant_of_the_one_rule() {
    let (merged, report) = merge_rules_with_report(
        vec![
            rule(Some("Fight Phase"), FIGHT, "a", 1),
            rule(None, FIGHT_TYPO, "b", 2),
        ],
        &mut Vec::new(),
    );
    assert_eq!(merged.len(), 1);
    let r = &merged[0];
    assert_eq!(r.id, "10e:core:fight-phase");
    assert_eq!(r.text, FIGHT);
    assert_eq!(r.occurrences.len(), 2);
    assert_eq!(r.variants.len(), 1);
    assert_eq!(r.variants[0].text, FIGHT_TYPO);
    assert_eq!(r.variants[0].occurrences, vec![Occurrence::at_line("b", 2)]);
    assert!(r.variants[0].similarity_permille >= 850);
    assert_eq!(report.clusters.len(), 1);
    assert_eq!(report.clusters[0].members.len(), 2);
    assert_eq!(
        report.clusters[0].members[0].occurrences,
        vec![Occurrence::at_line("a", 1)]
    );
}

#[test]
fn a_play_reference_shortening_with_the_same_name_is_a_variant() {
    assert!(jaccard(FIGHT, FIGHT_SHORT) < UNNAMED_JACCARD);
    let merged = merge_rules(
        vec![
            rule(Some("FIGHT PHASE"), FIGHT_SHORT, "ref", 10),
            rule(Some("FIGHT PHASE"), FIGHT_SHORT, "ref", 40),
            rule(Some("Fight Phase"), FIGHT, "summary", 3),
        ],
        &mut Vec::new(),
    );
    assert_eq!(merged.len(), 1, "{merged:#?}");
    // the complete wording is the rule's text, whichever copy is printed more often
    assert_eq!(merged[0].text, FIGHT);
    assert_eq!(merged[0].name.as_deref(), Some("Fight Phase"));
    assert_eq!(merged[0].variants[0].occurrences.len(), 2);
    // without a shared name, the shortening stays its own (unnamed) rule
    let apart = merge_rules(
        vec![
            rule(None, FIGHT_SHORT, "ref", 10),
            rule(Some("Fight Phase"), FIGHT, "summary", 3),
        ],
        &mut Vec::new(),
    );
    assert_eq!(apart.len(), 2);
}

#[test]
fn rules_sharing_boilerplate_never_merge() {
    for (a, b) in [
        (Some("Monster Hunter"), Some("Vehicle Hunter")),
        (None, None),
        (Some("Monster Hunter"), None),
    ] {
        let merged = merge_rules(
            vec![rule(a, MONSTER, "a", 1), rule(b, VEHICLE, "b", 1)],
            &mut Vec::new(),
        );
        assert_eq!(merged.len(), 2, "{a:?} {b:?}");
        assert!(merged.iter().all(|r| r.variants.is_empty()));
    }
    // different names never merge, however close the texts
    let merged = merge_rules(
        vec![
            rule(Some("Fight Phase"), FIGHT, "a", 1),
            rule(Some("Fight Step"), FIGHT_TYPO, "b", 1),
        ],
        &mut Vec::new(),
    );
    assert_eq!(merged.len(), 2);
}

#[test]
fn an_unnamed_copy_cannot_bridge_two_named_rules() {
    // B is near both A and C, which have different names: B joins one, A and C stay apart.
    let a = FIGHT;
    let b = FIGHT_TYPO;
    let c = "Starting with the player whose turn is not taking place, players alternate selecting an eligible unit from their army and figthing with it. Units that made a charge move this turn fight first; each unit piles in, makes its close combat attacks and then consolidates!";
    let merged = merge_rules(
        vec![
            rule(Some("Fight Phase"), a, "a", 1),
            rule(None, b, "b", 1),
            rule(Some("Fight Step"), c, "c", 1),
        ],
        &mut Vec::new(),
    );
    assert_eq!(merged.len(), 2, "{merged:#?}");
    assert!(merged.iter().all(|r| r.name.is_some()));
}

#[test]
fn editions_never_merge_but_are_linked() {
    let mut ninth = rule(Some("Fight Phase"), FIGHT_TYPO, "nine", 1);
    ninth.edition = Edition::Ninth;
    let (merged, report) = merge_rules_with_report(
        vec![rule(Some("Fight Phase"), FIGHT, "ten", 1), ninth],
        &mut Vec::new(),
    );
    assert_eq!(merged.len(), 2);
    assert!(merged.iter().all(|r| r.variants.is_empty()));
    assert_eq!(report.links.len(), 1);
    assert_eq!(
        (report.links[0].a.as_str(), report.links[0].b.as_str()),
        ("10e:core:fight-phase", "9e:core:fight-phase")
    );
}

#[test]
fn typography_and_case_do_not_split_a_rule() {
    let mut d = Vec::new();
    let merged = merge_rules(
        vec![
            rule(
                Some("LEADER"),
                "Some CHARACTER units have ‘Leader’ listed – yes.",
                "a",
                1,
            ),
            rule(
                None,
                "Some CHARACTER  units have 'Leader' listed - yes.",
                "b",
                2,
            ),
        ],
        &mut d,
    );
    assert_eq!(merged.len(), 1);
    assert_eq!(merged[0].id, "10e:core:leader");
    assert_eq!(merged[0].occurrences.len(), 2);
}

#[test]
fn same_name_different_text_is_a_reported_variant() {
    let mut d = Vec::new();
    let merged = merge_rules(
        vec![
            rule(
                Some("Stealth"),
                "If every model in a unit has this ability, subtract 1 from the Hit roll.",
                "a",
                1,
            ),
            rule(
                Some("Stealth"),
                "Completely different wording of a rule that shares the name but not the text.",
                "b",
                2,
            ),
        ],
        &mut d,
    );
    assert_eq!(merged.len(), 2);
    // the text that sorts first keeps the id; the other is keyed by its own text
    let first = "Completely different wording of a rule that shares the name but not the text.";
    let second = "If every model in a unit has this ability, subtract 1 from the Hit roll.";
    assert!(merged
        .iter()
        .any(|r| r.id == "10e:core:stealth" && r.text == first));
    assert!(merged
        .iter()
        .any(|r| r.id == cogitator::ids::variant("10e:core:stealth", second) && r.text == second));
    assert!(d.iter().any(|x| x.code == "D201"));
}

/// Variant ids do not depend on file names or input order: the same two texts read from
/// swapped files, in reverse order, get the same ids.
#[test]
fn variant_ids_do_not_depend_on_files_or_order() {
    let texts = [
        "If every model in a unit has this ability, subtract 1 from the Hit roll.",
        "Completely different wording of a rule that shares the name but not the text.",
    ];
    let ids = |files: [&str; 2], reverse: bool| {
        let mut rules = vec![
            rule(Some("Stealth"), texts[0], files[0], 1),
            rule(Some("Stealth"), texts[1], files[1], 7),
        ];
        if reverse {
            rules.reverse();
        }
        let mut merged = merge_rules(rules, &mut Vec::new());
        merged.sort_by(|a, b| a.text.cmp(&b.text));
        merged.into_iter().map(|r| r.id).collect::<Vec<_>>()
    };
    let base = ids(["a", "b"], false);
    assert_eq!(ids(["b", "a"], false), base);
    assert_eq!(ids(["a", "b"], true), base);
    assert_eq!(ids(["z", "a"], true), base);
}
