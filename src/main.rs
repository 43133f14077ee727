//! The `cogitator` binary: parse arguments, run, exit. Everything else lives in the library.
//!
//! Exit codes: 0 success (warnings allowed), 1 findings (an input failed or an error
//! diagnostic exists; output is still written; `ingest --fail-on` moves the line), 2 usage
//! error or fatal I/O. A closed stdout or stderr does not change them.

/// jemalloc, not the system allocator (see `Cargo.toml`): with glibc's malloc, the merge of the
/// HTML corpus's records (which frees, on other threads, what the decoding threads allocated)
/// took 42 ms on 2 threads against 34 ms on one; with jemalloc it takes 23 ms.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    std::process::exit(cogitator::cli::main());
}
