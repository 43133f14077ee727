//! cogitator: turns messy Warhammer rules sources into clean, checked datasets.
//!
//! The pipeline, one module per stage (see `ARCHITECTURE.md`):
//! `discover` (I/O) → `decode` (bytes → [`ir::Document`]) → `extract` (IR → records) →
//! `normalize` (raw strings → canonical values) → `dedup` (one rule registry) → `emit` (I/O),
//! then `simulate` / `validate`. Stages return values plus diagnostics; they never abort a run.

pub mod cli;
pub mod diag;
pub mod ir;
pub mod model;
pub mod simulate;
pub mod source;
pub mod validate;
