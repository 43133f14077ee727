//! `cogitator search QUERY [--db FILE | --dataset DIR] [--kind …] [--edition …] [--limit N]
//! [--json]`: full-text search of a published dataset, ranked by relevance.
//!
//! Owns the arguments and printing; the query is `crate::publish::sqlite`'s.

use std::path::PathBuf;

/// Arguments of `cogitator search`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Words to look for.
    pub query: String,
    /// A database written by `cogitator publish --sqlite`.
    #[arg(long, value_name = "FILE", conflicts_with = "dataset")]
    pub db: Option<PathBuf>,
    /// A dataset directory (published to a temporary database first).
    #[arg(long, value_name = "DIR")]
    pub dataset: Option<PathBuf>,
    /// Only records of this kind (rule, ability, stratagem, …).
    #[arg(long)]
    pub kind: Vec<String>,
    /// Only records of this edition (10e, 11e, …).
    #[arg(long)]
    pub edition: Option<String>,
    /// At most N results.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub limit: usize,
    /// Print the results as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    errln!("error: search is not built yet");
    Ok(super::EXIT_USAGE)
}
