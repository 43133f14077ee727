//! Text utilities shared by every stage: [`fold`], the one Unicode folding table; [`escape`],
//! the one escaping of input text for the terminal; [`words`], the one title case and the one
//! list splitter of the readers.

pub mod escape;
pub mod fold;
pub mod words;
