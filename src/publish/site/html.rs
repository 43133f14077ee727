//! The site's HTML building blocks: the one escaping function, a value's source as a tooltip
//! (`explain` in the browser), and the page shell every page shares.
//!
//! Owns how a dataset string and a source location become HTML. Must not know about record
//! types beyond the locations (`model::Provenance`, `source::Location`) they carry.

use crate::source::{Location, Provenance};
use std::fmt::Write;

/// `s` with the five characters HTML gives meaning to replaced by their entities, safe inside
/// element text and inside a quoted attribute value.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Where a value was read: a file, its 1-based line and, for a paged source, its page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Src {
    pub file: String,
    pub line: u32,
    pub page: Option<u32>,
}

impl Src {
    /// A record's first source (`sources`, or a rule's `occurrences`); empty when it has none.
    pub fn first(sources: &[Provenance]) -> Src {
        sources.first().map(Src::of_provenance).unwrap_or_default()
    }

    pub fn of_provenance(p: &Provenance) -> Src {
        Src {
            file: p.file.clone(),
            line: p.line,
            page: p.page,
        }
    }

    pub fn of_location(at: &Location) -> Src {
        Src {
            file: at.file.clone(),
            line: at.line,
            page: at.page,
        }
    }

    /// A sub-record's own location `at`, or `record`'s when `at` is unknown or names no file
    /// (what `explain` shows for the value: its own location when the dataset has one).
    pub fn own_or(at: &Location, record: &Src) -> Src {
        if at.file.is_empty() {
            Src {
                line: if at.line > 0 { at.line } else { record.line },
                ..record.clone()
            }
        } else {
            Src::of_location(at)
        }
    }

    /// `file:line`, with `, page N` for a paged source.
    pub fn label(&self) -> String {
        if self.file.is_empty() {
            return "source unknown".to_string();
        }
        match self.page {
            Some(p) => format!("{}:{}, page {p}", self.file, self.line),
            None => format!("{}:{}", self.file, self.line),
        }
    }

    /// The ` title="source: …"` attribute of an element showing a value read here.
    pub fn title(&self) -> String {
        format!(" title=\"source: {}\"", escape(&self.label()))
    }
}

/// `<TAG title="source: …">escaped value</TAG>`; a value the source lacks shows as `—`.
pub fn value(tag: &str, class: &str, v: Option<&str>, src: &Src) -> String {
    let class = if class.is_empty() {
        String::new()
    } else {
        format!(" class=\"{class}\"")
    };
    let text = v.map(escape).unwrap_or_else(|| "—".to_string());
    format!("<{tag}{class}{}>{text}</{tag}>", src.title())
}

/// Text as paragraphs (one per line of the dataset's text), each escaped.
pub fn paragraphs(text: &str, src: &Src) -> String {
    let mut out = String::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let _ = write!(out, "<p{}>{}</p>", src.title(), escape(line));
    }
    out
}

/// `<h2>` and a list of escaped items, each with `src` as its tooltip; nothing when empty.
pub fn list_section(heading: &str, items: &[String], src: &Src) -> String {
    if items.is_empty() {
        return String::new();
    }
    let mut out = format!("<h2>{}</h2><ul>", escape(heading));
    for i in items {
        let _ = write!(out, "<li{}>{}</li>", src.title(), escape(i));
    }
    out.push_str("</ul>");
    out
}

/// The sources block of a record page: every place it was read, and the `explain` command.
pub fn sources(id: &str, srcs: &[Src]) -> String {
    let mut out = String::from("<footer class=\"sources\"><h2>Sources</h2><ul>");
    for s in srcs {
        let _ = write!(out, "<li class=\"source\">{}</li>", escape(&s.label()));
    }
    let _ = write!(
        out,
        "</ul><p>In a terminal: <code>cogitator explain {}</code></p></footer>",
        escape(id)
    );
    out
}

/// A page: the shared head (the one stylesheet, relative to `root`, the path back to the
/// site's top from the page), the navigation with the search box, and `body`.
pub fn page(title: &str, root: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{t} — cogitator</title>\n<link rel=\"stylesheet\" href=\"{root}style.css\">\n\
         </head>\n<body>\n<nav><a href=\"{root}index.html\">Index</a>\
         <form action=\"{root}index.html\" method=\"get\"><input type=\"search\" name=\"q\" \
         placeholder=\"Search\" aria-label=\"Search\"></form></nav>\n<main>\n{body}\n</main>\n\
         </body>\n</html>\n",
        t = escape(title),
    )
}

/// `<a href="HREF">escaped text</a>`.
pub fn link(href: &str, text: &str) -> String {
    format!("<a href=\"{}\">{}</a>", escape(href), escape(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_replaces_markup_and_quotes() {
        assert_eq!(
            escape(r#"<script>alert("x" & 'y')</script>"#),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
        assert_eq!(escape("Be’lakor 12\""), "Be’lakor 12&quot;");
    }

    #[test]
    fn own_location_wins_and_falls_back_to_the_record() {
        let rec = Src {
            file: "a.txt".into(),
            line: 6,
            page: None,
        };
        assert_eq!(Src::own_or(&Location::default(), &rec), rec);
        assert_eq!(
            Src::own_or(&Location::at_line("b.pdf", 9), &rec).label(),
            "b.pdf:9"
        );
        let paged = Src {
            page: Some(3),
            ..rec
        };
        assert_eq!(paged.label(), "a.txt:6, page 3");
    }
}
