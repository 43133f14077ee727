//! Any text through both HTML tokenizers — the byte-level one (`decode/html/tokenize.rs`) and
//! html5ever's own — into html5ever's tree builder: the two trees must be the same node for
//! node (what the tree keeps: structure, names, class bits, kept attributes, text). The tests
//! check this on the corpus, the fixtures and a list of traps; this target on any text. Then
//! the page decoded with the memo of glossary and chrome containers (`decode/html/memo.rs`)
//! must be the same document as without it.
#![no_main]

use cogitator::decode::html::{memo_differs, tokenizers_differ};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Some(difference) = tokenizers_differ(text) {
            panic!("{difference}");
        }
        if let Some(difference) = memo_differs(text) {
            panic!("{difference}");
        }
    }
});
