//! A datasheet's wargear options read for the weapons whose profiles the datasheet says are
//! printed on another card: `1 heavy flamer*`, or every item under `… replaced with one of the
//! following:*`, with the footnote `* The profiles for these weapons can be found on the
//! Space Wolves Armoury card.` (the footnote's words are the edition's
//! [`Vocabulary::profiles_printed_elsewhere`]).
//!
//! Owns the footnote-marker structure of option lines: a footnote is a line that starts with
//! a marker (`*`, `**`, `†`, …); an option line ending with the same marker (exactly: `**`
//! is another footnote) is marked; a marked line ending with `:` marks the items listed under
//! it, up to the next line that is not an item; an item is a line starting with a count
//! (`1 heavy flamer`), one weapon per `and`/`,` part. Must not know a weapon or card name, or
//! do I/O.

use crate::vocab::Vocabulary;

const MARKS: &[char] = &['*', '†', '‡'];

/// The weapons (names as printed, without count or marker) the options say are printed on
/// another card, in the order printed, each once.
pub fn weapons_printed_elsewhere(options: &[String], vocab: &Vocabulary) -> Vec<String> {
    let marks: Vec<&str> = options
        .iter()
        .filter_map(|o| {
            let o = o.trim();
            let text = o.trim_start_matches(MARKS);
            let mark = &o[..o.len() - text.len()];
            let lower = text.to_lowercase();
            (!mark.is_empty()
                && vocab
                    .profiles_printed_elsewhere
                    .iter()
                    .any(|p| lower.contains(p)))
            .then_some(mark)
        })
        .collect();
    let mut names: Vec<String> = Vec::new();
    if marks.is_empty() {
        return names;
    }
    let mut under_marked_header = false;
    for o in options {
        let o = o.trim();
        if o.starts_with(MARKS) {
            continue;
        }
        let body = o.trim_end_matches(MARKS);
        let marked = marks.contains(&&o[body.len()..]);
        let body = body.trim_end();
        let item = body.split_whitespace().next().is_some_and(is_count);
        if !item {
            under_marked_header = marked && body.ends_with(':');
            // A single choice printed in the header itself: `… can be replaced with 1 X*`.
            if marked && !body.ends_with(':') {
                if let Some((_, choice)) = body.rsplit_once(" with ") {
                    push_parts(choice, &mut names);
                }
            }
            continue;
        }
        if marked || under_marked_header {
            push_parts(body, &mut names);
        }
    }
    names
}

/// `1`, `2`, `D3`: the count an option item starts with.
fn is_count(w: &str) -> bool {
    !w.is_empty() && w.chars().all(|c| c.is_ascii_digit())
}

/// The weapons of `1 bolt pistol and 1 power weapon` (counts dropped), each once.
fn push_parts(s: &str, names: &mut Vec<String>) {
    for part in s.split(" and ").flat_map(|p| p.split(", ")) {
        let mut words = part.split_whitespace().peekable();
        if words.peek().is_some_and(|w| is_count(w)) {
            words.next();
        }
        let name = words.collect::<Vec<_>>().join(" ");
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::TENTH;

    fn read(lines: &[&str]) -> Vec<String> {
        let v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
        weapons_printed_elsewhere(&v, &TENTH)
    }

    #[test]
    fn marked_items_and_marked_headers() {
        // Written for this test in the shape of a faction pack card's options.
        let got = read(&[
            "Any number of models can each have their boltgun replaced with one of the following:",
            "1 grav-cannon",
            "1 heavy flamer*",
            "The Sergeant's boltgun can be replaced with one of the following:*",
            "1 flamer",
            "2 plasma pistols",
            "1 bolt pistol and 1 power weapon",
            "The Sergeant's chainsword can be replaced with one of the following:",
            "1 power fist",
            "1 combi-weapon**",
            "* The profiles for these weapons can be found on the Armoury card.",
            "** This model can only be equipped with two ranged weapons if one is a Pistol.",
        ]);
        assert_eq!(
            got,
            [
                "heavy flamer",
                "flamer",
                "plasma pistols",
                "bolt pistol",
                "power weapon"
            ]
        );
    }

    #[test]
    fn a_choice_in_the_header_and_another_marker() {
        let got = read(&[
            "This model's bolt pistol can be replaced with 1 hand flamer†",
            "1 grav-pistol*",
            "† The profile for this weapon can be found on the Armoury card.",
            "* This model cannot be your Warlord.",
        ]);
        assert_eq!(got, ["hand flamer"]);
    }

    #[test]
    fn no_footnote_of_that_kind_marks_nothing() {
        assert!(read(&["1 flamer*", "* One per unit."]).is_empty());
        assert!(read(&[]).is_empty());
        // A footnote marker alone, or the words without a marker, mark nothing.
        assert!(read(&[
            "1 flamer*",
            "*",
            "The profiles for these weapons are elsewhere."
        ])
        .is_empty());
    }
}
