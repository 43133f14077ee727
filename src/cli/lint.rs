//! `cogitator lint`: explain a diagnostic code, list the codes, print `docs/diagnostics.md`, or
//! re-check an existing dataset (`cogitator lint DATASET_DIR`) without re-ingesting.
//!
//! Owns rendering findings (the dataset directory is read by `crate::dataset`); the checks themselves are
//! `normalize::lint`. Must not change the dataset.

use crate::diag::{count_by_severity, Code, Severity, CODES};
use crate::normalize::lint::{lint, DATASET_FILES};
use std::path::PathBuf;

/// Arguments of `cogitator lint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A dataset directory written by `cogitator ingest` (e.g. `output/`) to re-check against
    /// the schemas: JSON Schema validation of every record, value grammar per edition, weapon
    /// abilities. Exit status 1 when an error is found.
    #[arg(value_name = "DATASET_DIR")]
    pub dataset: Option<PathBuf>,
    /// Print the documentation of one diagnostic code (e.g. `X101`) and exit.
    #[arg(long, value_name = "CODE")]
    pub explain: Option<String>,
    /// List every diagnostic code.
    #[arg(long)]
    pub list: bool,
    /// Print `docs/diagnostics.md` (every code with its explanation) to stdout.
    #[arg(long)]
    pub docs: bool,
}

/// `docs/diagnostics.md`, generated from the registry in `diag::codes`.
pub fn docs_markdown() -> String {
    let mut s = String::new();
    s.push_str("# Diagnostic codes\n\n");
    s.push_str(
        "Generated from `src/diag/codes.rs` by `cargo run -- lint --docs > docs/diagnostics.md`; \
         do not edit by hand (a test fails when this file is out of date).\n\n",
    );
    s.push_str("Prefixes name the stage: `S` source (discover/decode), `X` extract, `N` normalize (schemas, values, keywords), `D` dedup, `V` validate/simulate, `C` crosscheck.\n\n");
    s.push_str("| code | severity | title |\n| --- | --- | --- |\n");
    for c in CODES {
        s.push_str(&format!(
            "| [{}](#{}) | {} | {} |\n",
            c.name,
            c.name.to_ascii_lowercase(),
            c.severity,
            c.title.replace('|', "\\|")
        ));
    }
    for c in CODES {
        s.push_str(&format!(
            "\n## {}\n\n**{}** ({})\n\n{}\n",
            c.name, c.title, c.severity, c.explanation
        ));
    }
    s
}

fn lint_dir(dir: &std::path::Path) -> i32 {
    let dataset = match crate::dataset::DatasetDir::open(dir) {
        Ok(d) => d,
        Err(e) => {
            errln!("{e}");
            return super::EXIT_USAGE;
        }
    };
    let names: Vec<&str> = DATASET_FILES.iter().map(|(name, _, _)| *name).collect();
    let files: Vec<_> = dataset
        .raw(&names)
        .into_iter()
        .map(|(name, parsed)| (name, parsed.map_err(|e| e.detail())))
        .collect();
    let findings = lint(&files);
    for d in &findings {
        outln!("{d}");
    }
    let [info, warning, error] = count_by_severity(&findings);
    errln!(
        "{}: {error} error(s), {warning} warning(s), {info} info",
        dir.display()
    );
    if findings.iter().any(|d| d.severity == Severity::Error) {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    }
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    if args.list {
        for c in CODES {
            outln!("{}  {:<7}  {}", c.name, c.severity, c.title);
        }
        return Ok(super::EXIT_OK);
    }
    if args.docs {
        out!("{}", docs_markdown());
        return Ok(super::EXIT_OK);
    }
    if let Some(code) = args.explain {
        let Some(code) = Code::parse(&code) else {
            errln!("unknown diagnostic code: {code} (see `cogitator lint --list`)");
            return Ok(super::EXIT_USAGE);
        };
        let info = code.info();
        outln!(
            "{} ({}): {}\n\n{}",
            info.name,
            info.severity,
            info.title,
            info.explanation
        );
        return Ok(super::EXIT_OK);
    }
    if let Some(dir) = args.dataset {
        return Ok(lint_dir(&dir));
    }
    errln!("nothing to do: give DATASET_DIR, --explain CODE, --list or --docs");
    Ok(super::EXIT_USAGE)
}
