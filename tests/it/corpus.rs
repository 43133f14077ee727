//! Whether the shared development corpus is here. Without it, the tests that read it return
//! early; this test makes that visible in `cargo test`'s own report (`ignored, …` with the
//! reason) and fails under `COGITATOR_REQUIRE_CORPUS=1` (`.ci/run`).

use crate::util;

#[test]
#[cfg_attr(
    cogitator_no_corpus,
    ignore = "../shared/corpus is absent: the corpus tests (html, crosscheck against the export, \
              inputs::the_whole_corpus_gives_no_junk_records, the corpus parts of schema) were \
              skipped; set COGITATOR_REQUIRE_CORPUS=1 to make them fail instead"
)]
fn shared_corpus_is_present_for_the_corpus_tests() {
    // Panics with the reason under COGITATOR_REQUIRE_CORPUS=1 when the corpus is missing.
    let Some(corpus) = util::corpus() else {
        // Hidden on purpose at run time (`COGITATOR_CORPUS=/nonexistent`): the other corpus
        // tests print their own `skipped:` line.
        assert!(
            std::env::var_os("COGITATOR_CORPUS").is_some(),
            "../shared/corpus (it was there when the tests were built)"
        );
        return;
    };
    for dir in [
        "wahapedia-html",
        "wahapedia-csv/2025-11-14",
        "bsdata",
        "pdf",
        "markdown",
    ] {
        assert!(corpus.join(dir).is_dir(), "corpus folder {dir} missing");
    }
}
