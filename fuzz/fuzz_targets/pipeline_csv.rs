//! Any bytes as a small Wahapedia CSV export through `pipeline::read_group` (the code the
//! pipeline runs per folder of structured files, without its panic catch): the input is split
//! at each `0x1E` byte into the export's tables, in the order of `wahapedia_csv::READ`
//! (`Last_update.csv`, `Factions.csv`, `Datasheets.csv`, …), so the fuzzer mutates every table
//! and the claim, header, duplicate-id and orphan-row paths; then the record source, its
//! builder (HTML fields through the HTML decoder) and normalization.
#![no_main]

use cogitator::pipeline;
use cogitator::records::wahapedia_csv::READ;
use cogitator::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let files: Vec<SourceFile> = data
        .split(|&b| b == 0x1E)
        .zip(READ)
        .map(|(bytes, name)| SourceFile::new(format!("x/{name}"), bytes.to_vec()))
        .collect();
    let mut files: Vec<&SourceFile> = files.iter().collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let _ = pipeline::read_group("x", &files);
});
