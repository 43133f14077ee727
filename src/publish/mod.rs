//! Publishing a dataset for other tools: an SQLite database with full-text search
//! ([`sqlite`]) and a static site that works offline ([`site`]).
//!
//! Owns turning a dataset that `cogitator ingest` wrote (read through [`crate::dataset`]) into
//! those artefacts, each written atomically. Must not change or re-derive any record: every
//! value published is the dataset's, with its provenance; the pipeline's stages are not run.

pub mod site;
pub mod sqlite;
