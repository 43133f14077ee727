//! Title case and printed lists: the one way a name printed in capitals becomes a name in title
//! case ([`TitleStyle::apply`], with the style of what is being named), and the one way a
//! printed list (`Infantry, Character, Grenades`) becomes its items ([`ListStyle::split`], with
//! the style of its source; [`split_list`] for the plain one).
//!
//! Owns word-level spelling only: no vocabulary (headings are `vocab`), no canonical keyword
//! spelling (that is `normalize`), no I/O.

/// How a name printed in capitals is written in title case. Each source names different
/// things, and the styles differ where their names do (each preset says why).
#[derive(Debug, Clone, Copy)]
pub struct TitleStyle {
    /// Words written in lower case after the first (`of`, `the`).
    pub small_words: &'static [&'static str],
    /// Whether the last word is capitalised even when small (`What It Is For`).
    pub capitalise_last: bool,
    /// Whether a word's capital is its first letter (`(Aura)`) rather than its first character.
    pub first_letter: bool,
    /// Whether a letter after a hyphen is a capital too (`Pre-Battle`; else `Twin-linked`).
    pub after_hyphen: bool,
    /// Abbreviations and how they are written, compared without surrounding punctuation
    /// (`VP`, `FAQS` → `FAQs`).
    pub keep: &'static [(&'static str, &'static str)],
    /// Words kept as printed, compared whole (a parameter's `X`, `X+`).
    pub placeholders: &'static [&'static str],
    /// What follows a word's first hyphen kept as printed when it is one of these (the
    /// `KEYWORD` of `ANTI-KEYWORD`).
    pub placeholders_after_hyphen: &'static [&'static str],
    /// Whether text with any lower-case letter is kept as printed (only capitals are recased).
    pub only_capitals: bool,
    /// Whether the words are split at single spaces only (a double space kept) rather than at
    /// any whitespace (joined by one space).
    pub single_spaces: bool,
}

impl TitleStyle {
    /// The names on a GW card or faction-pack page (datasheets, models, stratagem groups and
    /// categories, detachments, enhancements): `CHAMPIONS OF FENRIS` → `Champions of Fenris`,
    /// `WOLF GUARD PACK LEADER IN TERMINATOR ARMOUR` → `… in Terminator Armour`, `FIRE-SWORN`
    /// → `Fire-Sworn`.
    pub const CARD: TitleStyle = TitleStyle {
        small_words: &[
            "of", "the", "and", "in", "on", "a", "an", "to", "for", "with", "or",
        ],
        capitalise_last: false,
        first_letter: true,
        after_hyphen: true,
        keep: &[],
        placeholders: &[],
        placeholders_after_hyphen: &[],
        only_capitals: false,
        single_spaces: false,
    };

    /// Headings of a rules document (the Tournament Companion): recased only when printed in
    /// capitals, its abbreviations kept (`VP UP TO A LIMIT` → `VP up to a Limit`, `RESOLVE
    /// PRE-BATTLE RULES` → `Resolve Pre-Battle Rules`).
    pub const DOCUMENT: TitleStyle = TitleStyle {
        small_words: &[
            "a", "an", "and", "as", "at", "for", "in", "of", "on", "or", "the", "to", "up",
        ],
        capitalise_last: false,
        first_letter: true,
        after_hyphen: true,
        keep: &[("VP", "VP"), ("CP", "CP"), ("FAQ", "FAQ"), ("FAQS", "FAQs")],
        placeholders: &[],
        placeholders_after_hyphen: &[],
        only_capitals: true,
        single_spaces: false,
    };

    /// 9th-edition rule and unit names, in that edition's style: small words inside the name
    /// only, the last word capitalised, a hyphenated word one word (`PERILS OF THE WARP` →
    /// `Perils of the Warp`, `LOOK OUT, SIR` → `Look Out, Sir`).
    pub const NINTH: TitleStyle = TitleStyle {
        small_words: &["of", "the", "and", "in", "for", "to", "a", "an", "or", "vs"],
        capitalise_last: true,
        first_letter: false,
        after_hyphen: false,
        keep: &[],
        placeholders: &[],
        placeholders_after_hyphen: &[],
        only_capitals: false,
        single_spaces: false,
    };

    /// A faction's or army rule's name as a keyword spells it (`ASTRA MILITARUM` → `Astra
    /// Militarum`): every word capitalised, as the faction's own name is.
    pub const EVERY_WORD: TitleStyle = TitleStyle {
        small_words: &[],
        capitalise_last: false,
        first_letter: false,
        after_hyphen: false,
        keep: &[],
        placeholders: &[],
        placeholders_after_hyphen: &[],
        only_capitals: false,
        single_spaces: false,
    };

    /// A weapon ability as the rules glossary spells its heading (`RAPID FIRE X` → `Rapid Fire
    /// X`, `TWIN-LINKED` → `Twin-linked`, `ANTI-KEYWORD X+` → `Anti-KEYWORD X+`): the `X` of a
    /// parameter and the `KEYWORD` placeholder stay capitals, the rest of a hyphenated word is
    /// lower case (the keyword vocabulary's spelling).
    pub const WEAPON_ABILITY: TitleStyle = TitleStyle {
        small_words: &[],
        capitalise_last: false,
        first_letter: false,
        after_hyphen: false,
        keep: &[],
        placeholders: &["X", "X+", "x", "x+"],
        placeholders_after_hyphen: &["KEYWORD"],
        only_capitals: false,
        single_spaces: true,
    };
}

impl TitleStyle {
    /// `s` in title case in this style.
    pub fn apply(&self, s: &str) -> String {
        title_case(s, self)
    }
}

/// `s` in title case by `style` (see [`TitleStyle`]).
fn title_case(s: &str, style: &TitleStyle) -> String {
    if style.only_capitals && s.chars().any(char::is_lowercase) {
        return s.to_string();
    }
    let words: Vec<&str> = if style.single_spaces {
        s.split(' ').collect()
    } else {
        s.split_whitespace().collect()
    };
    let last = words.len().saturating_sub(1);
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for (n, word) in words.iter().enumerate() {
        out.push(title_word(word, n == 0, n == last, style));
    }
    out.join(" ")
}

/// One word of [`title_case`].
fn title_word(word: &str, first: bool, last: bool, style: &TitleStyle) -> String {
    if style.placeholders.contains(&word) {
        return word.to_string();
    }
    let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
    if let Some((_, keep)) = style.keep.iter().find(|(k, _)| *k == bare) {
        return word.replacen(bare, keep, 1);
    }
    if let Some((head, rest)) = word.split_once('-') {
        if style.placeholders_after_hyphen.contains(&rest) {
            return format!("{}-{rest}", title_word(head, first, last, style));
        }
    }
    let lower = word.to_lowercase();
    let capitalised = first || (last && style.capitalise_last);
    if !capitalised && style.small_words.contains(&lower.as_str()) {
        return lower;
    }
    let mut out = String::with_capacity(lower.len());
    let mut up = true;
    for c in lower.chars() {
        if up && (c.is_alphabetic() || !style.first_letter) {
            out.extend(c.to_uppercase());
            up = false;
        } else {
            out.push(c);
        }
        if c == '-' && style.after_hyphen {
            up = true;
        }
    }
    out
}

/// How a printed list is split into its items, beyond the commas every source uses (each
/// option names the sources whose lists carry it).
#[derive(Debug, Clone, Copy)]
pub struct ListStyle {
    /// A full stop ending an item is not part of it (a card's keyword line ends with one; the
    /// export's weapon abilities sometimes do).
    pub full_stops: bool,
    /// `. ` also separates items (a few export rows use it instead of a comma).
    pub sentence_breaks: bool,
    /// An item `-` means none (BattleScribe's empty `Keywords` characteristic).
    pub dash_is_none: bool,
}

impl ListStyle {
    /// A page's or dump's list (`Infantry, Battleline , ,Grenades`): commas only.
    pub const PLAIN: ListStyle = ListStyle {
        full_stops: false,
        sentence_breaks: false,
        dash_is_none: false,
    };
    /// A GW card's keyword line (`KEYWORDS: Infantry, Grenades.`).
    pub const CARD: ListStyle = ListStyle {
        full_stops: true,
        sentence_breaks: false,
        dash_is_none: false,
    };
    /// The weapon abilities of Wahapedia's export (`Heavy, Blast. Indirect fire`).
    pub const EXPORT: ListStyle = ListStyle {
        full_stops: true,
        sentence_breaks: true,
        dash_is_none: false,
    };
    /// A BattleScribe `Keywords` characteristic (`Assault, Heavy` or `-`).
    pub const BATTLESCRIBE: ListStyle = ListStyle {
        full_stops: false,
        sentence_breaks: false,
        dash_is_none: true,
    };
}

impl ListStyle {
    /// The items of printed list `s` in this style.
    pub fn split(self, s: &str) -> Vec<String> {
        split_list_as(s, self)
    }
}

/// The items of a printed list, each trimmed, empty items dropped, case kept (`style` says
/// what else separates or ends an item).
fn split_list_as(s: &str, style: ListStyle) -> Vec<String> {
    s.split(',')
        .flat_map(|p| {
            if style.sentence_breaks {
                p.split(". ").collect::<Vec<_>>()
            } else {
                vec![p]
            }
        })
        .map(|p| {
            let p = p.trim();
            match style.full_stops {
                true => p.trim_end_matches('.').trim(),
                false => p,
            }
        })
        .filter(|p| !p.is_empty())
        .filter(|p| !style.dash_is_none || *p != "-")
        .map(str::to_string)
        .collect()
}

/// The items of a page's list (`a, b , c`): [`ListStyle::PLAIN`].
pub fn split_list(s: &str) -> Vec<String> {
    split_list_as(s, ListStyle::PLAIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_style_cases_its_names() {
        let t = |s, st| title_case(s, st);
        assert_eq!(
            t("CHAMPIONS OF FENRIS", &TitleStyle::CARD),
            "Champions of Fenris"
        );
        assert_eq!(
            t("FIRE-SWORN WITH BLADES", &TitleStyle::CARD),
            "Fire-Sworn with Blades"
        );
        assert_eq!(t("(AURA) OF", &TitleStyle::CARD), "(Aura) of");
        assert_eq!(
            t("VP UP TO A LIMIT", &TitleStyle::DOCUMENT),
            "VP up to a Limit"
        );
        assert_eq!(
            t("CHAPTER APPROVED MISSION DECK: FAQS", &TitleStyle::DOCUMENT),
            "Chapter Approved Mission Deck: FAQs"
        );
        assert_eq!(t("Win Path", &TitleStyle::DOCUMENT), "Win Path");
        assert_eq!(
            t("PERILS OF THE WARP", &TitleStyle::NINTH),
            "Perils of the Warp"
        );
        assert_eq!(t("WHAT IT IS FOR", &TitleStyle::NINTH), "What It Is For");
        assert_eq!(t("PRE-BATTLE", &TitleStyle::NINTH), "Pre-battle");
        assert_eq!(t("(AURA)", &TitleStyle::NINTH), "(aura)");
        assert_eq!(
            t("ASTRA  MILITARUM OF", &TitleStyle::EVERY_WORD),
            "Astra Militarum Of"
        );
        assert_eq!(
            t("RAPID FIRE X", &TitleStyle::WEAPON_ABILITY),
            "Rapid Fire X"
        );
        assert_eq!(t("TWIN-LINKED", &TitleStyle::WEAPON_ABILITY), "Twin-linked");
        assert_eq!(
            t("ANTI-KEYWORD X+", &TitleStyle::WEAPON_ABILITY),
            "Anti-KEYWORD X+"
        );
        assert_eq!(t("A  B", &TitleStyle::WEAPON_ABILITY), "A  B");
    }

    #[test]
    fn each_style_splits_its_lists() {
        assert_eq!(
            split_list("Infantry, Battleline , ,Grenades."),
            ["Infantry", "Battleline", "Grenades."]
        );
        assert_eq!(
            split_list_as("Infantry, Grenades.", ListStyle::CARD),
            ["Infantry", "Grenades"]
        );
        assert_eq!(
            split_list_as("Heavy, Blast. Indirect fire.", ListStyle::EXPORT),
            ["Heavy", "Blast", "Indirect fire"]
        );
        assert_eq!(
            split_list_as(" - ", ListStyle::BATTLESCRIBE),
            Vec::<String>::new()
        );
        assert_eq!(
            split_list_as("Assault, -", ListStyle::PLAIN),
            ["Assault", "-"]
        );
    }
}
