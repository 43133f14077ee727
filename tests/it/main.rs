//! The one integration-test binary (after ripgrep's `tests/`): one module per area, a
//! regression test per bug. Tests that need `../shared/corpus` skip with a printed reason when
//! it is absent, and fail instead when `COGITATOR_REQUIRE_CORPUS=1`.

mod bsdata;
mod bsdata_json;
mod compare_core;
mod compliance;
mod corpus;
mod crosscheck;
mod dedup;
mod diff;
mod diff_cli;
mod eleventh;
mod export;
mod fixture_pdf;
mod fixtures;
mod fold;
mod game_datacards;
mod golden;
mod heresy;
mod hostile;
mod html;
mod ids;
mod inputs;
mod locations;
mod markdown;
mod mfm;
mod ninth;
mod output;
mod pdf;
mod pipeline;
mod reconcile;
mod records;
mod regressions;
mod schema;
mod seeds;
mod simulate;
mod simulate_cli;
mod tidy;
mod trust_budgets_bsdata;
mod trust_budgets_pdf;
mod trust_crash;
mod trust_diff;
mod trust_explain;
mod trust_output;
mod util;
mod vocab;
