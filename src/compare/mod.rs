//! The comparison core: what every comparison of two readings of the rules shares — the
//! category of a disagreement ([`Category`]), the names rule ([`names`]: the one name key,
//! the synonyms as data, when two names are the same thing) and the one comparison of a
//! datasheet's readings ([`view`]: `keyed` then `compare`, per path each side's value).
//!
//! Used by the merge and the reconciliation (`reconcile`) and the export crosscheck
//! (`crosscheck`), which build their reports from [`view::compare`]; the merge's `X110` and
//! `cogitator diff` compare through the typed diff engine (`diff`), whose dataset diff says
//! what a change is about (`diff::dataset::Subject`), not why. It sits below
//! all of them and imports none of them; it must not read files, know unit names, or decide
//! which record of one side is which record of the other (each caller pairs its records with
//! these rules).

pub mod names;
pub mod view;

use serde::Serialize;

/// `n` of `d` in percent, rounded to `places` decimals so that the JSON does not depend on
/// float printing noise; `empty` when `d` is 0 (the reconciliation's and the crosscheck's figures).
pub fn percent(n: usize, d: usize, places: i32, empty: f64) -> f64 {
    if d == 0 {
        return empty;
    }
    let scale = 10f64.powi(places);
    (n as f64 * 100.0 * scale / d as f64).round() / scale
}

/// Why two readings of one field disagree: the one category vocabulary of the comparisons.
///
/// Ordered as the summaries list them; spelled `version`, `naming`, `data_error` in the
/// reconciliation and the crosscheck reports (against one dated export, a `version` difference
/// is a change since the export and a `data_error` an extraction error of ours).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[derive(strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum Category {
    /// A real difference between two printings: both values are well-formed and the rest
    /// agrees (points, a characteristic, the weapon list as a whole).
    Version,
    /// The same thing under another name or spelling; the values agree.
    Naming,
    /// Anything else: a value read wrongly, a value or record missed or invented.
    DataError,
}

impl Category {
    pub const ALL: &'static [Category] = <Category as strum::VariantArray>::VARIANTS;

    pub fn as_str(self) -> &'static str {
        self.into()
    }
}
