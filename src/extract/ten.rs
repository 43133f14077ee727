//! 10th-edition datasheet pages (stub, filled in next).
use super::Extracted;
use crate::ir::Document;

pub fn extract(_doc: &Document, _out: &mut Extracted) {}
