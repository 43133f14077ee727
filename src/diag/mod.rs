//! Diagnostics: the one type every stage reports problems with, and its renderers.
//!
//! Owns [`Diagnostic`], [`Severity`] and the registry of stable codes (`codes`). Stages never
//! print and never abort on bad input: they push diagnostics and carry on ("parsing never
//! fails"). This module must not know about any particular stage's data types.

pub mod codes;

use serde::{Deserialize, Serialize};
use std::fmt;

pub use codes::{Code, CodeInfo, CODES};

/// How bad a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// One finding, with a stable code and the place in the input it is about.
///
/// `file` is relative to the input root (never absolute); `line` is 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: String,
    pub message: String,
    pub file: Option<String>,
    pub line: Option<u32>,
}

impl Diagnostic {
    /// A diagnostic with the severity its code is registered with.
    pub fn new(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: code.info().severity,
            code: code.as_str().to_string(),
            message: message.into(),
            file: None,
            line: None,
        }
    }

    pub fn at(mut self, file: &str, line: u32) -> Self {
        self.file = Some(file.to_string());
        self.line = if line == 0 { None } else { Some(line) };
        self
    }

    pub fn in_file(mut self, file: &str) -> Self {
        self.file = Some(file.to_string());
        self
    }

    /// Sort key used by every renderer and by `emit`: file, line, code, message.
    pub fn sort_key(&self) -> (Option<&str>, Option<u32>, &str, &str) {
        (
            self.file.as_deref(),
            self.line,
            self.code.as_str(),
            self.message.as_str(),
        )
    }
}

/// The human-readable form (`file:line: severity[code]: message`), for the terminal: the file
/// and the message, which come from inputs, are escaped (`crate::text::escape::display`).
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::text::escape::display;
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{}:{line}: ", display(file))?,
            (Some(file), None) => write!(f, "{}: ", display(file))?,
            _ => {}
        }
        write!(
            f,
            "{}[{}]: {}",
            self.severity,
            self.code,
            display(&self.message)
        )
    }
}

/// A bag that stages push into; sorted and deduplicated on the way out.
#[derive(Debug, Default, Clone)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.0.push(d);
    }
    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.0.extend(other);
    }
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        sort_diagnostics(&mut self.0);
        self.0
    }
}

/// Sorts by (file, line, code, message) and drops exact repeats.
pub fn sort_diagnostics(v: &mut Vec<Diagnostic>) {
    v.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    v.dedup();
}

/// Counts per severity, in the order info, warning, error.
pub fn count_by_severity(v: &[Diagnostic]) -> [usize; 3] {
    let mut c = [0usize; 3];
    for d in v {
        c[d.severity as usize] += 1;
    }
    c
}
