//! Any bytes as a html file through every stage that reads one input: decode, extract,
//! normalize (what the pipeline runs per file on a rayon worker). Merging and the dataset-level
//! checks read records, not bytes, and cost ~10 ms a run (schemas published each time): the
//! whole `pipeline::run` fuzzed at ~130 runs/s.
#![no_main]

use cogitator::source::SourceFile;
use cogitator::{decode, extract, normalize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = SourceFile::new("fuzz.html", data.to_vec());
    let decoded = decode::decode(&src);
    if let Some(doc) = decoded.document {
        let _ = extract::system::detect(&doc);
        let mut ex = extract::extract(&doc);
        normalize::normalize(&mut ex);
    }
});
