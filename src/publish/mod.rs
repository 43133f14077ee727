//! Publishing a dataset for other tools: an SQLite database with full-text search
//! ([`sqlite`]) and a static site that works offline ([`site`]).
//!
//! Owns turning a dataset that `cogitator ingest` wrote (read through [`crate::dataset`]) into
//! those artefacts, each written atomically, and the helpers both share ([`source_label`]).
//! Must not change or re-derive any record: every value published is the dataset's, with its
//! provenance; the pipeline's stages are not run.

pub mod site;
pub mod sqlite;

/// A record's source as people read it: `file:line`, or `file p.N` in a paged source (a PDF),
/// `file` alone when the line is unknown (0). The one spelling of a source in published
/// artefacts (search results, the site).
pub fn source_label(file: &str, line: u32, page: Option<u32>) -> String {
    match (page, line) {
        (Some(p), _) => format!("{file} p.{p}"),
        (None, 0) => file.to_string(),
        (None, l) => format!("{file}:{l}"),
    }
}

#[cfg(test)]
mod tests {
    use super::source_label;

    #[test]
    fn a_source_is_file_line_or_file_page() {
        assert_eq!(source_label("004.txt", 6, None), "004.txt:6");
        assert_eq!(source_label("cards.pdf", 41, Some(3)), "cards.pdf p.3");
        assert_eq!(source_label("old.json", 0, None), "old.json");
    }
}
