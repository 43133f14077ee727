//! Command-line interface: one file per subcommand, each a thin layer over the library.
//!
//! Owns argument parsing (clap derive), rendering to the terminal and exit codes. It must not
//! contain pipeline logic: every subcommand calls library functions and formats their result.

use clap::{Parser, Subcommand};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set once stdout is gone (a closed pipe: `cogitator lint --docs | head`).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
/// Set once stderr is gone (`cogitator validate DIR 2>&1 | head -n 2`).
static STDERR_CLOSED: AtomicBool = AtomicBool::new(false);
/// Set when the command paints its output (`diff` on a terminal): colour sequences pass.
static COLOR: AtomicBool = AtomicBool::new(false);

/// `1 file`, `0 files`, `2 changes`: `n` and the noun in the number `n` wants.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Lets colour sequences (and only those) through the terminal filter from now on.
pub(crate) fn allow_color() {
    COLOR.store(true, Ordering::Relaxed);
}

/// Writes to stdout (`raw`: JSON, escaped by serde, written as it is) or stderr. Text passes
/// through `crate::text::escape::terminal`: a name, id or message from an input cannot move
/// the cursor, retitle the terminal or hide text, whatever the subcommand. A closed pipe is not
/// an error: output stops quietly (no panic, unlike `println!`/`eprintln!`), the command
/// finishes its work and exits with its own code (after ripgrep, which exits quietly on
/// EPIPE). Every subcommand prints through [`out!`], [`outln!`] and [`errln!`].
fn write_to(stderr: bool, raw: bool, args: std::fmt::Arguments<'_>) {
    let closed = if stderr {
        &STDERR_CLOSED
    } else {
        &STDOUT_CLOSED
    };
    if closed.load(Ordering::Relaxed) {
        return;
    }
    let text = std::fmt::format(args);
    let text = if raw {
        std::borrow::Cow::Borrowed(text.as_str())
    } else {
        crate::text::escape::terminal(&text, COLOR.load(Ordering::Relaxed))
    };
    let ok = if stderr {
        let mut e = std::io::stderr().lock();
        e.write_all(text.as_bytes()).and_then(|()| e.flush())
    } else {
        let mut o = std::io::stdout().lock();
        o.write_all(text.as_bytes()).and_then(|()| o.flush())
    };
    if ok.is_err() {
        // Broken pipe or any other failure: nothing more can be shown there.
        closed.store(true, Ordering::Relaxed);
    }
}

pub(crate) fn write_stdout(args: std::fmt::Arguments<'_>) {
    write_to(false, false, args);
}

pub(crate) fn write_stdout_raw(args: std::fmt::Arguments<'_>) {
    write_to(false, true, args);
}

pub(crate) fn write_stderr(args: std::fmt::Arguments<'_>) {
    write_to(true, false, args);
}

/// `eprintln!` that survives a closed pipe, escaped.
macro_rules! errln {
    ($($t:tt)*) => {{
        $crate::cli::write_stderr(format_args!($($t)*));
        $crate::cli::write_stderr(format_args!("\n"));
    }};
}

/// `println!` of JSON (escaped by serde): survives a closed pipe, written as it is.
macro_rules! outln_raw {
    ($($t:tt)*) => {{
        $crate::cli::write_stdout_raw(format_args!($($t)*));
        $crate::cli::write_stdout_raw(format_args!("\n"));
    }};
}

/// `print!` that survives a closed pipe.
macro_rules! out {
    ($($t:tt)*) => { $crate::cli::write_stdout(format_args!($($t)*)) };
}
/// `println!` that survives a closed pipe.
macro_rules! outln {
    () => { $crate::cli::write_stdout(format_args!("\n")) };
    ($($t:tt)*) => {{
        $crate::cli::write_stdout(format_args!($($t)*));
        $crate::cli::write_stdout(format_args!("\n"));
    }};
}

pub mod crosscheck;
pub mod diff;
pub mod explain;
pub mod ingest;
pub mod lint;
pub mod publish;
pub mod search;
pub mod simulate;
pub mod validate;

/// Exit code: everything processed (warnings allowed).
pub const EXIT_OK: i32 = 0;
/// Exit code: an input failed or an error diagnostic exists (output still written).
pub const EXIT_FINDINGS: i32 = 1;
/// Exit code: usage error or fatal I/O (output not written).
pub const EXIT_USAGE: i32 = 2;

#[derive(Debug, Parser)]
#[command(
    name = "cogitator",
    version,
    about = "Turns messy Warhammer rules sources into clean, checked datasets"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read source dumps and pages, write the canonical dataset.
    Ingest(ingest::Args),
    /// Re-check an existing dataset, or explain a diagnostic code.
    Lint(lint::Args),
    /// Exact (or Monte Carlo) damage distribution of one weapon against one target.
    Simulate(simulate::Args),
    /// Run every weapon profile of a dataset against the reference targets.
    Validate(validate::Args),
    /// Compare a dataset's datasheets with Wahapedia's CSV export, field by field.
    Crosscheck(crosscheck::Args),
    /// What changed between two datasets, in the game's terms; with --gate, the CI gate.
    Diff(diff::Args),
    /// Where a record or value came from: sources, raw text, fixes, disagreements, the winner.
    Explain(explain::Args),
    /// Publish a dataset as an SQLite database with full-text search and/or a static site.
    Publish(publish::Args),
    /// Full-text search of a dataset's rules, abilities and stratagems.
    Search(search::Args),
}

/// Parses `std::env::args`, runs the subcommand, returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            // `e.print()` ignores a closed pipe; `--help | head` and the like exit quietly.
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Command::Ingest(a) => ingest::run(a),
        Command::Lint(a) => lint::run(a),
        Command::Simulate(a) => simulate::run(a),
        Command::Validate(a) => validate::run(a),
        Command::Crosscheck(a) => crosscheck::run(a),
        Command::Diff(a) => diff::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Publish(a) => publish::run(a),
        Command::Search(a) => search::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            errln!("error: {e:#}");
            EXIT_USAGE
        }
    }
}
