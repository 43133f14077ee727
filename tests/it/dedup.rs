//! Laws of the rule registry: canonical form is idempotent, merging loses nothing and does not
//! depend on input order.

use cogitator::dedup::{canonical_text, merge_rules};
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
        occurrences: vec![Occurrence {
            file: file.into(),
            line,
        }],
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
    ]);
    proptest::collection::vec((names, texts, 0u32..5, 1u32..50), 0..12).prop_map(|v| {
        v.into_iter()
            .map(|(n, t, f, l)| rule(n, t, &format!("f{f}.txt"), l))
            .collect()
    })
}

fn occurrences(rules: &[Rule]) -> Vec<Occurrence> {
    let mut v: Vec<Occurrence> = rules.iter().flat_map(|r| r.occurrences.clone()).collect();
    v.sort();
    v.dedup();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

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
    fn merging_ignores_input_order(rules in arb_rules()) {
        let mut reversed = rules.clone();
        reversed.reverse();
        let (mut d1, mut d2) = (Vec::new(), Vec::new());
        let a = merge_rules(rules, &mut d1);
        let b = merge_rules(reversed, &mut d2);
        prop_assert_eq!(a, b);
    }
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
    assert!(merged.iter().any(|r| r.id == "10e:core:stealth~2"));
    assert!(d.iter().any(|x| x.code == "D201"));
}
