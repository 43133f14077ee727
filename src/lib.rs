//! cogitator: turns messy Warhammer rules sources into clean, checked datasets.
//!
//! The pipeline, one module per stage (see `ARCHITECTURE.md`): [`discover`] (I/O) →
//! [`decode`] (bytes → [`ir::Document`]) → [`extract`] (IR → records, the extractor chosen by
//! (game system, format)) or [`records`] (structured sources → records) → [`normalize`] (raw
//! strings → canonical values) → [`reconcile`] (its `merge`: one record per id) and [`dedup`]
//! (one rule registry) → [`validate`] → [`emit`] (I/O); [`crosscheck`] against Wahapedia's CSV
//! export, [`diff`] between datasets, both over the one comparison core ([`compare`]),
//! [`simulate`] the dice. [`pipeline`] strings the pure
//! stages together. Stages return values plus diagnostics; they never abort a run.
//!
//! The contract sits at the bottom: [`edition`] (the editions as data: ids, profiles, weapon
//! abilities), then [`vocab`] and [`model`]; no top-level module imports one above it (the
//! layers of `ARCHITECTURE.md`, checked by `tests/it/tidy.rs`).

pub mod cli;
pub mod compare;
pub mod crosscheck;
pub mod dataset;
pub mod decode;
pub mod dedup;
pub mod diag;
pub mod diff;
pub mod discover;
pub mod edition;
pub mod emit;
pub mod errata;
pub mod extract;
pub mod fsread;
pub mod ids;
pub mod ir;
pub mod model;
pub mod normalize;
pub mod pipeline;
pub mod publish;
pub mod reconcile;
pub mod records;
pub mod simulate;
pub mod source;
pub mod text;
pub mod validate;
pub mod vocab;

use std::path::PathBuf;

/// Discovers `inputs` and runs the pipeline over them: the whole ingest except writing.
pub fn ingest(inputs: &[PathBuf], opts: &pipeline::Options) -> std::io::Result<model::Dataset> {
    let found = discover::discover(inputs)?;
    Ok(pipeline::run(&found.sources, &found.failed, opts))
}
