//! Any bytes as a BattleScribe catalogue beside a small hand-written game system, through
//! `pipeline::read_group` (the code the pipeline runs per folder of structured files, without
//! its panic catch): the claim, parsing, link resolution (cycles, absent targets), datasheets,
//! points, composition, enhancements and detachments, normalization; the header reader.
#![no_main]

use cogitator::pipeline;
use cogitator::records::bsdata;
use cogitator::source::SourceFile;
use libfuzzer_sys::fuzz_target;

const GST: &str = r#"<?xml version="1.0"?>
<gameSystem id="sys" name="Warhammer 40,000 10th Edition">
  <costTypes><costType id="pts" name="pts"/></costTypes>
  <sharedRules><rule id="r1" name="Deep Strike"><description>Set up later.</description></rule></sharedRules>
</gameSystem>"#;

fuzz_target!(|data: &[u8]| {
    let _ = bsdata::header(data);
    let gst = SourceFile::new("x/a.gst", GST.as_bytes().to_vec());
    let cat = SourceFile::new("x/b.cat", data.to_vec());
    let _ = pipeline::read_group("x", &[&gst, &cat]);
});
