//! Every value grammar of the embedded schemas, and the value normalizers, on any string.
#![no_main]

use cogitator::normalize::grammar::{canonicalize, dice_canonical, fold_typography, Outcome};
use cogitator::normalize::schema::contract;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let _ = fold_typography(s);
    let _ = dice_canonical(s);
    for g in contract().grammars.values() {
        if let Outcome::Fixed { value, .. } = canonicalize(g, s) {
            let _ = g.is_canonical(&value);
        }
    }
});
