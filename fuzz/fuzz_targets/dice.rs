//! The dice-expression parser, and everything the engines ask of a parsed expression.
#![no_main]

use cogitator::simulate::Dice;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(d) = Dice::parse(s) {
        assert!(d.min() <= d.max());
        let dist = d.distribution();
        assert_eq!(dist.len(), d.max() as usize + 1);
        let _ = d.mean();
    }
});
