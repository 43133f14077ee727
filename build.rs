//! Build script: tells the integration tests whether the shared development corpus
//! (`../shared/corpus`) is beside the repository, so that `cargo test` can show its absence as
//! an ignored test with the reason (`cfg(cogitator_no_corpus)`), instead of passing silently.
//! It reads nothing else and writes nothing.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(cogitator_no_corpus)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=COGITATOR_REQUIRE_CORPUS");
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let readme = Path::new(&manifest_dir).join("../shared/corpus/README.md");
    if readme.is_file() {
        // Re-run when the corpus goes away (a missing file always re-runs the script).
        println!("cargo::rerun-if-changed={}", readme.display());
    } else if std::env::var("COGITATOR_REQUIRE_CORPUS").as_deref() != Ok("1") {
        // Required but absent: no cfg, so the summary test runs and fails with the reason.
        println!("cargo::rustc-cfg=cogitator_no_corpus");
    }
}
