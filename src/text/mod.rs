//! Text utilities shared by every stage: [`fold`], the one Unicode folding table.

pub mod fold;
