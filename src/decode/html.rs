//! Decoder for scraped HTML pages (Wahapedia): the DOM rendered into IR blocks.
//! (Filled in by the HTML work; until then an HTML page yields no blocks.)

use crate::diag::Diagnostic;
use crate::ir::Document;
use crate::source::{Format, SourceFile};

pub fn decode(src: &SourceFile, _diagnostics: &mut Vec<Diagnostic>) -> Document {
    Document {
        file: src.path.clone(),
        sha256: src.sha256.clone(),
        format: Format::Html,
        blocks: Vec::new(),
        chrome_dropped: 0,
        meta: Default::default(),
    }
}
