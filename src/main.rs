//! The `cogitator` binary: parse arguments, run, exit. Everything else lives in the library.
//!
//! Exit codes: 0 success (warnings allowed), 1 findings (an input failed or an error
//! diagnostic exists; output is still written; `ingest --fail-on` moves the line), 2 usage
//! error or fatal I/O. A closed stdout or stderr does not change them.

fn main() {
    std::process::exit(cogitator::cli::main());
}
