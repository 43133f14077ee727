//! Any bytes as a file of the GW app's data (game-datacards JSON: a faction file, the core
//! rules), through `pipeline::process_one` and `pipeline::read_group` (the code the pipeline
//! runs per file and per folder of structured files, without its panic catch): the claim by
//! content, the edition markers, language maps, datasheets through the builder, points with
//! unit-count costs, the army side and the core rules, the line scan, normalization.
#![no_main]

use cogitator::pipeline;
use cogitator::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let file = SourceFile::new("x/faction.json", data.to_vec());
    let _ = pipeline::process_one(&file);
    let _ = pipeline::read_group("x", &[&file]);
});
