//! Any bytes as a BattleScribe catalogue beside a small hand-written game system, through the
//! record source and normalization: parsing, link resolution (cycles, absent targets),
//! datasheets, points, composition, enhancements and detachments; the header reader. Never
//! panics.
#![no_main]

use cogitator::records::{bsdata, Group};
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
    let files = [&gst, &cat];
    let group = Group { dir: "x", files: &files };
    for mut ex in bsdata::read(&group) {
        cogitator::normalize::normalize(&mut ex);
    }
});
