//! Any bytes as a PDF through decode, extract and normalize. `%PDF-` is prepended when the
//! input lacks it so every run reaches the PDF decoder (lopdf's parser, the content-stream
//! lexer and interpreter, fonts and CMaps, the layout).
#![no_main]

use cogitator::source::SourceFile;
use cogitator::{decode, extract, normalize};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    if !bytes.starts_with(b"%PDF-") {
        let mut with = b"%PDF-1.4\n".to_vec();
        with.extend_from_slice(data);
        bytes = with;
    }
    let src = SourceFile::new("fuzz.pdf", bytes);
    let decoded = decode::decode(&src);
    if let Some(doc) = decoded.document {
        let mut ex = extract::extract(&doc);
        normalize::normalize(&mut ex);
    }
});
