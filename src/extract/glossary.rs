//! Rule paragraphs: the glossary part of a source (stub, filled in next).
use super::Extracted;
use crate::ir::Document;

pub fn extract_rules_only(_doc: &Document, _out: &mut Extracted) {}
