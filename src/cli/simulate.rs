//! `cogitator simulate`: one weapon against one target (filled in by the simulator work).

/// Arguments of `cogitator simulate`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("simulate is not implemented yet")
}
