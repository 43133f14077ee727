//! The one folding table (`text::fold`): each folding is idempotent, id slugs are ASCII slug
//! characters only, and the foldings agree with the spellings the sources use.

use cogitator::text::fold::{fold_for_compare, fold_for_id, fold_name_key, fold_value};
use proptest::prelude::*;

/// Text with the characters the table folds mixed into ordinary ones.
fn typographic() -> impl Strategy<Value = String> {
    let chars = prop::sample::select(vec![
        'a', 'B', 'é', 'ﬁ', '1', ' ', '-', '\'', '"', '’', '‘', '‛', '′', '″', '“', '”', '„', '`',
        '\u{2010}', '\u{2011}', '\u{2012}', '–', '—', '―', '−', '\u{00A0}', '\u{2009}', '\u{202F}',
        '×', '＋', '＂', '－', '+', 'İ', 'ß', '\t', '\n',
    ]);
    prop::collection::vec(prop_oneof![chars, any::<char>()], 0..40)
        .prop_map(|v| v.into_iter().collect())
}

proptest! {
    #![proptest_config(crate::util::proptest_config(256))]

    #[test]
    fn fold_for_id_is_idempotent_and_a_slug(s in typographic()) {
        let once = fold_for_id(&s);
        prop_assert_eq!(fold_for_id(&once), once.clone());
        prop_assert!(once.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'));
        prop_assert!(!once.starts_with('-') && !once.ends_with('-') && !once.contains("--"));
    }

    #[test]
    fn fold_for_compare_is_idempotent(s in typographic()) {
        let once = fold_for_compare(&s);
        prop_assert_eq!(fold_for_compare(&once), once);
    }

    #[test]
    fn fold_name_key_is_idempotent(s in typographic()) {
        let once = fold_name_key(&s);
        prop_assert_eq!(fold_name_key(&once), once);
    }

    /// Entity decoding is one level by design (`&amp;quot;` → `&quot;`), so `&` is left out.
    #[test]
    fn fold_value_is_idempotent(s in typographic().prop_map(|s| s.replace('&', ""))) {
        let once = fold_value(&s);
        prop_assert_eq!(fold_value(&once), once);
    }
}

#[test]
fn foldings_of_the_sources_spellings() {
    assert_eq!(fold_for_id("Be’lakor"), "belakor");
    assert_eq!(
        fold_for_id("Lord Solar Leontus – Praetor"),
        "lord-solar-leontus-praetor"
    );
    assert_eq!(fold_for_id("T’au Empire"), "tau-empire");
    assert_eq!(
        fold_for_compare("‘Leader’  listed\u{00A0}– YES"),
        "'leader' listed - yes"
    );
    assert_eq!(fold_name_key("Gaunt’s Ghosts"), "gaunts ghosts");
    assert_eq!(fold_name_key("Ork Boyz – Nob"), "ork boyz nob");
    assert_eq!(fold_value("\u{2212}1"), "-1");
    assert_eq!(fold_value("D6\u{00A0}+\u{2009}1"), "D6 + 1");
    assert_eq!(fold_value("2 × D3"), "2 x D3");
    assert_eq!(fold_value("&quot;"), "\"");
}
