//! Any bytes as a `.md` file through `pipeline::process_one`: the very code the pipeline
//! runs per input (format detection, decode, the text's rules-source gate, game system, extract,
//! normalize), without the per-input panic catch, so a panic is a crash here. Merging and the
//! dataset-level checks read records, not bytes, and cost ~10 ms a run (schemas published each
//! time): the whole `pipeline::run` fuzzed at ~130 runs/s.
#![no_main]

use cogitator::pipeline;
use cogitator::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = SourceFile::new("fuzz.md", data.to_vec());
    let _ = pipeline::process_one(&src);
});
