//! `cogitator search QUERY [--db FILE | --dataset DIR] [--kind …] [--edition …] [--limit N]
//! [--json]`: full-text search of a published dataset, ranked by relevance.
//!
//! Owns the arguments and printing; the query is `crate::publish::sqlite`'s. The query is
//! words, not FTS5 syntax: quotes, dashes and `AND` are plain text. Snippets mark each matched
//! word `«like this»` (`[like this]` on a terminal).
//!
//! Exit codes: 0 found, 1 nothing found, 2 usage or I/O error.

use crate::publish::sqlite::{self, Hit, Kind, Query};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `cogitator search`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit codes: 0 found; 1 nothing found; 2 usage or I/O error (no word in \
                        QUERY, a FILE that is not a cogitator database, an unknown kind or \
                        edition)."
)]
pub struct Args {
    /// Words to look for (all of them must occur; together as a phrase ranks first).
    pub query: String,
    /// A database written by `cogitator publish --sqlite`.
    #[arg(long, value_name = "FILE", conflicts_with = "dataset")]
    pub db: Option<PathBuf>,
    /// A dataset directory (published to a database in memory first).
    #[arg(long, value_name = "DIR")]
    pub dataset: Option<PathBuf>,
    /// Only records of this kind: rule, stratagem, enhancement, ability, datasheet (repeatable).
    #[arg(long)]
    pub kind: Vec<String>,
    /// Only records of this edition (10e, 9e, hh2, 11e).
    #[arg(long)]
    pub edition: Option<String>,
    /// At most N results.
    #[arg(long, value_name = "N", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub limit: u32,
    /// Print the results as JSON (snippets marked with « and »).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let query = match query(&args) {
        Ok(q) => q,
        Err(m) => {
            errln!("error: {m}");
            return Ok(super::EXIT_USAGE);
        }
    };
    let conn = match (&args.db, &args.dataset) {
        (Some(db), _) => sqlite::open(db)?,
        (None, Some(dir)) => sqlite::build(&crate::dataset::DatasetDir::read(dir)?, &mut || {})?,
        (None, None) => {
            errln!("error: give --db FILE (from `cogitator publish --sqlite`) or --dataset DIR");
            return Ok(super::EXIT_USAGE);
        }
    };
    let terminal = !args.json && std::io::stdout().is_terminal();
    let marks = if terminal { ("[", "]") } else { ("«", "»") };
    let hits = sqlite::search(&conn, &query, marks)?;
    if args.json {
        outln_raw!("{}", serde_json::to_string_pretty(&hits)?);
    } else {
        print_hits(&hits);
    }
    Ok(if hits.is_empty() {
        super::EXIT_FINDINGS
    } else {
        super::EXIT_OK
    })
}

/// The search the arguments ask for, or why they are wrong.
fn query(args: &Args) -> Result<Query, String> {
    if sqlite::search::match_expressions(&args.query).is_none() {
        return Err(format!(
            "the query {:?} has no word to look for",
            args.query
        ));
    }
    let mut kinds = Vec::new();
    for k in &args.kind {
        match Kind::parse(k) {
            Some(k) if !kinds.contains(&k) => kinds.push(k),
            Some(_) => {}
            None => {
                let known: Vec<&str> = Kind::ALL.iter().map(|k| k.as_str()).collect();
                return Err(format!("unknown kind {k:?}: one of {}", known.join(", ")));
            }
        }
    }
    let edition = match &args.edition {
        None => None,
        Some(e) => Some(crate::edition::Edition::from_id(e).ok_or_else(|| {
            let known: Vec<&str> = crate::edition::Edition::ALL
                .iter()
                .map(|e| e.as_str())
                .collect();
            format!("unknown edition {e:?}: one of {}", known.join(", "))
        })?),
    };
    Ok(Query {
        text: args.query.clone(),
        kinds,
        edition,
        limit: args.limit as usize,
    })
}

/// One block per hit: rank, name, kind, id; the snippet; the source.
fn print_hits(hits: &[Hit]) {
    if hits.is_empty() {
        outln!("no match");
        return;
    }
    for h in hits {
        let name = if h.name.trim().is_empty() {
            "(unnamed)"
        } else {
            h.name.as_str()
        };
        outln!("{}. {name} ({} {}, {})", h.rank, h.kind, h.id, h.edition);
        outln!("   {}", h.snippet.replace('\n', " "));
        if let Some(s) = &h.source {
            outln!("   source: {s}");
        }
    }
}
