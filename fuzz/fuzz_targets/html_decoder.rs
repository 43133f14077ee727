//! Any bytes as an HTML page, through the whole pipeline (decode, extract, normalize, merge,
//! finish; the simulator stage skipped for speed): must not panic, overflow or hang.
#![no_main]

use cogitator::pipeline::{run, Options};
use cogitator::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let sources = [SourceFile::new("fuzz.html", data.to_vec())];
    let opts = Options {
        skip_validation: true,
        ..Options::default()
    };
    let _ = run(&sources, &[], &opts);
});
