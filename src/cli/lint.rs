//! `cogitator lint`: explain a diagnostic code, or re-check an existing dataset.

use crate::diag::{Code, CODES};

/// Arguments of `cogitator lint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the documentation of one diagnostic code (e.g. `X101`) and exit.
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,
    /// List every diagnostic code.
    #[arg(long)]
    pub list: bool,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.list {
        for c in CODES {
            println!("{}  {:<7}  {}", c.name, c.severity, c.title);
        }
        return Ok(super::EXIT_OK);
    }
    if let Some(code) = args.explain {
        let Some(code) = Code::parse(&code) else {
            eprintln!("unknown diagnostic code: {code} (see `cogitator lint --list`)");
            return Ok(super::EXIT_USAGE);
        };
        let info = code.info();
        println!(
            "{} ({}): {}\n\n{}",
            info.name, info.severity, info.title, info.explanation
        );
        return Ok(super::EXIT_OK);
    }
    eprintln!("nothing to do: give --explain CODE or --list");
    Ok(super::EXIT_USAGE)
}
