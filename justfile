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
    cargo bench --bench simulate

# Re-check an existing dataset
lint dir="output":
    cargo run --release -- lint {{dir}}
