//! Text utilities shared by every stage: [`fold`], the one Unicode folding table; [`escape`],
//! the one escaping of input text for the terminal.

pub mod escape;
pub mod fold;
