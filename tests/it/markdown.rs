//! The Markdown decoder (junk, depth, lines) and the rules-document extractor on the Chapter
//! Approved Tournament Companion (golden values read by hand from the corpus file).

use crate::util;
use cogitator::decode::markdown::blocks_of;
use cogitator::ir::BlockKind;
use cogitator::model::Rule;
use proptest::prelude::*;

const COMPANION: &str =
    "markdown/eng_17-09_warhammer40000_core_rules_chapter_approved_tournament_companion.md";

proptest! {
    #![proptest_config(crate::util::proptest_config(256))]

    /// Any text decodes; every block has text and a line inside the input, in source order.
    #[test]
    fn any_text_decodes_with_lines_in_order(s in "(\\PC|[\\n#*>|`\\- \\t\\\\_\\[\\]!]){0,300}") {
        let (blocks, _) = blocks_of(&s);
        let lines = s.split('\n').count() as u32;
        let mut last = 0;
        for b in &blocks {
            prop_assert!(!b.text.trim().is_empty() || !b.cells.is_empty());
            prop_assert!(b.line() >= 1 && b.line() <= lines, "line {} of {}", b.line(), lines);
            prop_assert!(b.line() >= last, "line {} after {}", b.line(), last);
            last = b.line();
        }
    }
}

#[test]
fn deep_nesting_does_not_exhaust_the_stack() {
    // 50,000 nested block quotes and list levels: the decoder counts depth, never recurses.
    let quotes = format!("{}deep text\n", "> ".repeat(50_000));
    let (b, _) = blocks_of(&quotes);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].text, "deep text");
    let lists: String = (0..5_000)
        .map(|i| format!("{}- item {i}\n", "  ".repeat(i)))
        .collect();
    let (b, _) = blocks_of(&lists);
    assert!(b
        .iter()
        .all(|b| b.kind == BlockKind::ListItem && b.level <= 6));
    assert_eq!(b[0].text, "item 0");
    assert_eq!(b[0].level, 1);
}

#[test]
fn junk_markdown_becomes_blocks_or_nothing() {
    for junk in [
        "",
        "\n\n\n",
        "|",
        "|---|",
        "| a |\n|---|\n",
        "**",
        "# ",
        "```\nunclosed",
        "<div>raw html</div>\n\ntext",
        "[link](",
        "- \n- \n",
        "\u{FEFF}# BOM",
    ] {
        let (b, _) = blocks_of(junk);
        assert!(b.iter().all(|b| b.line() >= 1), "{junk:?}");
    }
    let (b, chrome) = blocks_of("<div>raw html</div>\n\ntext");
    assert_eq!((b.len(), chrome), (1, 1));
    let (b, _) = blocks_of("```\nline one\nline two\n```\n");
    let texts: Vec<_> = b.iter().map(|b| (b.text.as_str(), b.line())).collect();
    assert_eq!(texts, vec![("line one", 2), ("line two", 3)]);
}

#[test]
fn a_md_file_is_read_as_markdown_and_a_txt_file_as_text() {
    let md = "# Rules\n\n## Deep Strike\nSome units **arrive** later.\n";
    let ds = util::ingest_in_memory(&[("a.md", md), ("b.txt", md)]);
    let formats: Vec<&str> = ds
        .manifest
        .inputs
        .iter()
        .map(|i| i.format.as_str())
        .collect();
    assert_eq!(formats, vec!["markdown", "text"]);
}

fn companion() -> Option<cogitator::model::Dataset> {
    let dir = util::corpus()?;
    let bytes = std::fs::read(dir.join(COMPANION)).ok()?;
    Some(util::ingest_in_memory(&[("companion.md", bytes)]))
}

fn named<'a>(rules: &'a [Rule], kind: &str, name: &str) -> &'a Rule {
    rules
        .iter()
        .find(|r| r.kind == kind && r.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no {kind} rule named {name:?}"))
}

#[test]
fn the_tournament_companion_has_its_structure() {
    let Some(ds) = companion() else { return };
    let count = |kind: &str| ds.rules.iter().filter(|r| r.kind == kind).count();
    // 13 questions (Q:/A:) plus the section's own introduction.
    let questions = ds
        .rules
        .iter()
        .filter(|r| r.kind == "faq" && r.text.starts_with("Q:"));
    assert_eq!(questions.count(), 13);
    assert_eq!(count("faq"), 14);
    // Four headed notes under DESIGNER'S NOTES, four `Designer's Note:` paragraphs elsewhere.
    assert_eq!(count("designers_note"), 8);
    assert_eq!(
        ds.rules
            .iter()
            .filter(|r| r.kind == "designers_note" && r.name.is_none())
            .count(),
        4
    );
    assert_eq!(count("action"), 1);
    assert_eq!(count("errata"), 1);
    // The 15 steps of the mission sequence (1 MUSTER ARMIES … 15 DETERMINE VICTOR).
    for step in [
        "Muster Armies",
        "Determine Mission",
        "Read Mission",
        "Place Objective Markers",
        "Create the Battlefield",
        "Determine Attacker and Defender",
        "Select Secondary Missions",
        "Declare Battle Formations",
        "Deploy Armies",
        "Redeploy Units",
        "Determine First Turn",
        "Resolve Pre-Battle Rules",
        "Begin the Battle",
        "End the Battle",
        "Determine Victor",
    ] {
        named(&ds.rules, "mission_rule", step);
    }
    // The converter's banner and page numbers are chrome, in no record.
    assert!(ds.rules.iter().all(|r| !r.text.contains("Extracted from")
        && !r.text.contains("raw extracted text")
        && !r.text.lines().any(|l| l.trim() == "1")));
    assert!(ds.manifest.inputs[0].account.chrome >= 7);
    assert_eq!(ds.manifest.inputs[0].format, "markdown");
}

#[test]
fn the_tournament_companion_records_read_by_hand() {
    let Some(ds) = companion() else { return };
    let starts = |r: &Rule, words: &str| {
        assert!(r.text.starts_with(words), "{:?}: {:?}", r.name, r.text);
    };
    starts(
        named(&ds.rules, "mission_rule", "Muster Armies"),
        "Muster armies as described in the Core Rules.",
    );
    starts(
        named(&ds.rules, "mission_rule", "Begin the Battle"),
        "The first battle round begins.",
    );
    starts(
        named(&ds.rules, "mission_rule", "Fixed Missions"),
        "Fixed Missions are goals that remain",
    );
    let reserves = named(&ds.rules, "mission_rule", "Reserves Restrictions");
    starts(reserves, "■ No more than half of the units");
    // The text after the New Orders card goes back to Tactical Missions.
    let tactical = named(&ds.rules, "mission_rule", "Tactical Missions");
    assert!(tactical
        .text
        .contains("At the end of each player’s turn, each player using Tactical Missions"));
    starts(
        named(&ds.rules, "designers_note", "VP up to a Limit"),
        "Some cards award VP up to a stated limit",
    );
    let actions = named(&ds.rules, "action", "Actions");
    assert!(actions.text.contains("• It is an AIRCRAFT unit."));
    let card = named(&ds.rules, "errata", "No Prisoners");
    assert_eq!(
        card.flavor.as_deref(),
        Some("Show no mercy. Exterminate your enemies.")
    );
    assert!(card.text.contains(
        "This Secondary Mission cannot be selected as a Fixed Mission in tournament play."
    ));
    let q = named(
        &ds.rules,
        "faq",
        "When selecting units for the Marked for Death Secondary Mission, can I select a Leader within an Attached unit?",
    );
    assert!(q.text.ends_with("\nA: No."), "{:?}", q.text);
    let cull = ds
        .rules
        .iter()
        .find(|r| {
            r.text
                .starts_with("Q: If I destroy the Bodyguard unit of an Attached unit")
        })
        .expect("the Cull the Horde question");
    assert!(cull.examples[0].starts_with("If you destroy a unit of 16 Accursed Cultists"));
    starts(
        named(&ds.rules, "terrain", "Use of Ruins"),
        "The following layouts primarily use the Ruins terrain feature.",
    );
    starts(
        named(&ds.rules, "guidance", "Win Path"),
        "A player's ‘win path’ refers",
    );
    let s = ds
        .stratagems
        .iter()
        .find(|s| s.name == "New Orders")
        .expect("New Orders");
    assert_eq!(
        (s.cp, s.group.as_deref(), s.category.as_deref()),
        (Some(1), Some("Core"), Some("Strategic Ploy"))
    );
    assert_eq!(s.when.as_deref(), Some("End of your Command phase."));
    assert_eq!(
        s.effect.as_deref(),
        Some("Discard it and draw one new Secondary Mission card.")
    );
}
