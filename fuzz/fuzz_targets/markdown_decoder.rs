//! Any bytes as a Markdown file through every stage that reads one input: decode (the
//! pulldown-cmark event walk), extract (the rules-document reader), normalize.
#![no_main]

use cogitator::source::SourceFile;
use cogitator::{decode, extract, normalize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let src = SourceFile::new("fuzz.md", data.to_vec());
    let decoded = decode::decode(&src);
    if let Some(doc) = decoded.document {
        let mut ex = extract::extract(&doc);
        normalize::normalize(&mut ex);
    }
});
