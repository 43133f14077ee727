//! `cogitator validate`: run a dataset's weapon profiles against reference targets.

/// Arguments of `cogitator validate`.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> anyhow::Result<i32> {
    anyhow::bail!("validate is not implemented yet")
}
