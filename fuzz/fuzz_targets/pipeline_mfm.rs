//! Any bytes as a Munitorum Field Manual faction YAML beside a small hand-written `meta.yaml`,
//! and as the `meta.yaml` itself, through `pipeline::read_group` (the code the pipeline runs
//! per folder of structured files, without its panic catch): the claim by content, serde-saphyr
//! with its budget, unit-count ranges, tiers, detachments and enhancements, normalization.
#![no_main]

use cogitator::pipeline;
use cogitator::source::SourceFile;
use libfuzzer_sys::fuzz_target;

const META: &str = "version: \"1.1\"\nlastUpdated: 2026-07-22\nnotes: Detachment Points (DP) and Force Disposition.\nfactions:\n  - adeptus-custodes\n";

fuzz_target!(|data: &[u8]| {
    let meta = SourceFile::new("x/meta.yaml", META.as_bytes().to_vec());
    let faction = SourceFile::new("x/adeptus-custodes.yaml", data.to_vec());
    let _ = pipeline::process_one(&faction);
    let _ = pipeline::read_group("x", &[&meta, &faction]);
    let meta = SourceFile::new("x/meta.yaml", data.to_vec());
    let _ = pipeline::read_group("x", &[&meta]);
});
