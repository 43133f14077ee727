//! Any bytes as a PDF through `pipeline::process_one` (the code the pipeline runs per input,
//! without its panic catch): decode (lopdf's parser, the content-stream lexer and interpreter,
//! fonts and CMaps, the layout), extract, normalize. `%PDF-` is prepended when the input lacks
//! it so every run reaches the PDF decoder.
#![no_main]

use cogitator::pipeline;
use cogitator::source::SourceFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    if !bytes.starts_with(b"%PDF-") {
        let mut with = b"%PDF-1.4\n".to_vec();
        with.extend_from_slice(data);
        bytes = with;
    }
    let src = SourceFile::new("fuzz.pdf", bytes);
    let _ = pipeline::process_one(&src);
});
