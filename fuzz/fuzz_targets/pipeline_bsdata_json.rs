//! Any bytes as a BattleScribe catalogue in JSON (New Recruit's serialization) beside a small
//! hand-written game system, through `pipeline::read_group` (the code the pipeline runs per
//! folder of structured files, without its panic catch): the sniff, the JSON loader into the
//! shared tree (explicit stack, element budget, truncation), link resolution, datasheets,
//! points with unit-count tiers, normalization; the header reader.
#![no_main]

use cogitator::pipeline;
use cogitator::records::bsdata;
use cogitator::source::SourceFile;
use libfuzzer_sys::fuzz_target;

const GST: &str = r#"{"gameSystem": {"id": "sys-352e-adc2-7639-d610", "name": "Warhammer 40,000 11th Edition",
  "costTypes": [{"id": "pts", "name": "pts"}],
  "sharedRules": [{"id": "r1", "name": "Deep Strike", "description": "Set up later."}]}}"#;

fuzz_target!(|data: &[u8]| {
    let _ = bsdata::header(data);
    let gst = SourceFile::new("x/a.json", GST.as_bytes().to_vec());
    let cat = SourceFile::new("x/b.json", data.to_vec());
    let _ = pipeline::process_one(&cat);
    let _ = pipeline::read_group("x", &[&gst, &cat]);
});
