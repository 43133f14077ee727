# cogitator recipes (`cargo install just`); every recipe is a plain cargo command too.

# Ingest raw/ (or the given paths) into output/
ingest *paths:
    cargo run --release -- ingest {{paths}}

# Ingest the shared Wahapedia HTML corpus into a scratch directory
ingest-corpus:
    cargo run --release -- ingest ../shared/corpus/wahapedia-html --out target/corpus-output

# Ingest the HTML corpus and cross-check it against Wahapedia's CSV export
crosscheck: ingest-corpus
    cargo run --release -- crosscheck --wahapedia-csv ../shared/corpus/wahapedia-csv/2025-11-14 target/corpus-output

# Run the test suite
test:
    cargo test --locked

# Everything CI runs: fmt, clippy, tests, committed-output check
check:
    bash .ci/run

# Benchmarks (plain bench binaries, release profile)
bench:
    cargo bench --bench ingest
    cargo bench --bench export
    cargo bench --bench bsdata
    cargo bench --bench dedup
    cargo bench --bench simulate
    cargo bench --bench pdf

# Re-check an existing dataset
lint dir="output":
    cargo run --release -- lint {{dir}}

# Fuzz one target (pipeline_html, pipeline_text, pipeline_markdown, pipeline_pdf, pipeline_csv,
# pipeline_bsdata: one input through `pipeline::process_one`/`read_group`, the code the pipeline
# runs per input; dice, value_grammar) for RUNS executions, or
# every target in turn when no target is given (1,000,000 executions each, one at a time).
# Needs a nightly toolchain and `cargo install cargo-fuzz`. New inputs go to fuzz/corpus/,
# crashes to fuzz/artifacts/ (both ignored by git); fuzz/seeds/ holds hand-written seeds.
# Built without a sanitizer (the only unsafe code is two libc calls in emit, which no fuzz
# target reaches) and with debug assertions, so arithmetic overflow is a crash too.
fuzz target="" runs="1000000":
    #!/usr/bin/env bash
    set -euo pipefail
    cd fuzz
    # The fuzz crate is its own workspace with its own (ignored) lock file: start it from the
    # project's, so the fuzzed code builds with the versions CI tests (a fresh resolution may
    # pick versions the project does not build with, e.g. an older serde-saphyr).
    [ -f Cargo.lock ] || cp ../Cargo.lock Cargo.lock
    targets="{{target}}"
    [ -n "$targets" ] || targets="pipeline_html html_tokenizers pipeline_text pipeline_markdown pipeline_pdf pipeline_csv pipeline_bsdata pipeline_bsdata_json pipeline_mfm pipeline_gdc dice value_grammar"
    for t in $targets; do
        mkdir -p "corpus/$t"
        seeds=""
        case "$t" in
            pipeline_html|html_tokenizers) seeds=seeds/html ;;
            pipeline_text) seeds=seeds/text ;;
            pipeline_pdf) seeds=seeds/pdf ;;
            pipeline_csv) seeds=seeds/csv ;;
            pipeline_bsdata) seeds=seeds/bsdata ;;
            pipeline_bsdata_json) seeds=seeds/bsdata-json ;;
            pipeline_mfm) seeds=seeds/mfm ;;
            pipeline_gdc) seeds=seeds/gdc ;;
            pipeline_markdown) seeds=seeds/markdown ;;
        esac
        cargo +nightly fuzz run -s none -a "$t" "corpus/$t" $seeds -- \
            -runs={{runs}} -max_total_time=3600 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
    done
