//! `cogitator ingest`: discover inputs, run the pipeline, write the dataset, print a summary.

/// Arguments of `cogitator ingest`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("ingest is not implemented yet")
}
