//! Full-text search of a published database: the user's words (never FTS5 syntax) turned into
//! a query that cannot fail to parse, ranked by relevance.
//!
//! Ranking, best first: a record whose name is the query (compared as name keys,
//! `text::fold::fold_name_key`: `belakor` names `Be’lakor`); then one that holds the words as
//! a phrase (`deep strike` together); then bm25 over `documents_fts` with the name (and its
//! key) weighted ten times the text; ties by kind (rule, stratagem, enhancement, ability,
//! datasheet) and id, so a search always gives the same order. Every word must occur (AND).
//!
//! Owns the query and the hit. Must not print (the CLI does) or write.

use crate::edition::Edition;
use rusqlite::types::Value;
use rusqlite::Connection;
use serde::Serialize;

/// bm25's weights of the indexed columns: `name`, `text`, `name_key` (the name folded).
pub const WEIGHTS: (f64, f64, f64) = (10.0, 1.0, 10.0);

/// What a searchable record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Rule,
    Stratagem,
    Enhancement,
    /// A datasheet's ability printed with its own text.
    Ability,
    /// A datasheet: its name and keywords.
    Datasheet,
}

impl Kind {
    /// Every kind, in the order ties are broken.
    pub const ALL: [Kind; 5] = [
        Kind::Rule,
        Kind::Stratagem,
        Kind::Enhancement,
        Kind::Ability,
        Kind::Datasheet,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Rule => "rule",
            Kind::Stratagem => "stratagem",
            Kind::Enhancement => "enhancement",
            Kind::Ability => "ability",
            Kind::Datasheet => "datasheet",
        }
    }

    /// The kind named `s` (`rule`, `stratagem`, `enhancement`, `ability`, `datasheet`; a
    /// plural too).
    pub fn parse(s: &str) -> Option<Kind> {
        let s = s.trim().to_ascii_lowercase();
        let s = s.strip_suffix('s').unwrap_or(&s);
        let s = if s == "abilitie" { "ability" } else { s };
        Kind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A search: the user's words and the filters.
#[derive(Debug, Clone)]
pub struct Query {
    /// The words, as typed: quotes, dashes and FTS5 operators are plain text here.
    pub text: String,
    /// Only these kinds (empty: all).
    pub kinds: Vec<Kind>,
    pub edition: Option<Edition>,
    pub limit: usize,
}

/// One result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Hit {
    /// 1 for the best.
    pub rank: usize,
    /// The record's id (an ability: `DATASHEET.abilities[NAME]`, `explain`'s path).
    pub id: String,
    pub kind: String,
    pub name: String,
    pub edition: String,
    /// The datasheet an ability is printed on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub datasheet: Option<String>,
    /// The best passage, each matched word between the marks asked for.
    pub snippet: String,
    /// `file:line`, or `file p.N` in a PDF ([`crate::publish::source_label`]).
    pub source: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub page: Option<u32>,
    pub sha256: Option<String>,
    /// bm25 (lower is better).
    pub score: f64,
}

/// The words of `text` as the index's tokenizer splits them (Unicode letters and digits; all
/// else separates), lower-cased.
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The two FTS5 match expressions of the user's words: every word (`"deep" "strike"`, an
/// implicit AND) and the phrase (`"deep strike"`). Each word is a quoted string, so no input
/// (`"`, `-`, `AND`, `NEAR(`, `*`) is read as FTS5 syntax. `None` when there is no word.
pub fn match_expressions(text: &str) -> Option<(String, String)> {
    let w = words(text);
    if w.is_empty() {
        return None;
    }
    let quoted: Vec<String> = w.iter().map(|w| format!("\"{w}\"")).collect();
    Some((quoted.join(" "), format!("\"{}\"", w.join(" "))))
}

/// The SQL of a search with `kinds` kinds and an edition filter or not; its parameters, in
/// order: the two snippet marks, the name key to match, the phrase, the words, each kind, the
/// edition, the limit.
fn sql(kinds: usize, edition: bool) -> String {
    let mut filters = String::new();
    if kinds > 0 {
        filters.push_str(&format!(" AND d.kind IN ({})", vec!["?"; kinds].join(", ")));
    }
    if edition {
        filters.push_str(" AND d.edition = ?");
    }
    let order: Vec<String> = Kind::ALL
        .iter()
        .enumerate()
        .map(|(i, k)| format!("WHEN '{}' THEN {i}", k.as_str()))
        .collect();
    format!(
        "SELECT d.kind, d.record_id, d.name, d.edition, d.datasheet_id, d.file, d.line, d.page, \
         d.sha256, snippet(documents_fts, -1, ?, ?, '…', 24), \
         bm25(documents_fts, {}, {}, {}) AS score, \
         d.name_key = ? AS named, \
         documents_fts.rowid IN (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?) \
         AS phrase \
         FROM documents_fts JOIN documents d ON d.docid = documents_fts.rowid \
         WHERE documents_fts MATCH ?{filters} \
         ORDER BY named DESC, phrase DESC, score, CASE d.kind {} ELSE 9 END, d.record_id, \
         d.docid LIMIT ?",
        WEIGHTS.0,
        WEIGHTS.1,
        WEIGHTS.2,
        order.join(" ")
    )
}

/// Runs `q` against a published database; each matched word of a snippet between
/// `marks.0` and `marks.1`. No word in the query is an error.
pub fn search(conn: &Connection, q: &Query, marks: (&str, &str)) -> anyhow::Result<Vec<Hit>> {
    let Some((all, phrase)) = match_expressions(&q.text) else {
        anyhow::bail!("the query has no word to look for");
    };
    let mut params: Vec<Value> = vec![
        Value::Text(marks.0.to_string()),
        Value::Text(marks.1.to_string()),
        Value::Text(crate::text::fold::fold_name_key(&q.text)),
        Value::Text(phrase),
        Value::Text(all),
    ];
    params.extend(q.kinds.iter().map(|k| Value::Text(k.as_str().to_string())));
    if let Some(e) = q.edition {
        params.push(Value::Text(e.as_str().to_string()));
    }
    params.push(Value::Integer(i64::try_from(q.limit).unwrap_or(i64::MAX)));
    let mut st = conn.prepare(&sql(q.kinds.len(), q.edition.is_some()))?;
    let rows = st.query_map(rusqlite::params_from_iter(params), |r| {
        let file: Option<String> = r.get(5)?;
        let line: Option<u32> = r.get(6)?;
        let page: Option<u32> = r.get(7)?;
        Ok(Hit {
            rank: 0,
            kind: r.get(0)?,
            id: r.get(1)?,
            name: r.get(2)?,
            edition: r.get(3)?,
            datasheet: r.get(4)?,
            source: file
                .as_deref()
                .map(|f| crate::publish::source_label(f, line.unwrap_or(0), page)),
            file,
            line,
            page,
            sha256: r.get(8)?,
            snippet: r.get(9)?,
            score: r.get(10)?,
        })
    })?;
    let mut hits = rows.collect::<rusqlite::Result<Vec<Hit>>>()?;
    for (i, h) in hits.iter_mut().enumerate() {
        h.rank = i + 1;
        h.snippet = join_marks(&h.snippet, marks);
    }
    Ok(hits)
}

/// Adjacent marked words as one mark: `«deep» «strike»` → `«deep strike»`, `«Be»’«lakor»` →
/// `«Be’lakor»` (SQLite marks each word of a phrase apart). Marks around one space, apostrophe
/// or hyphen are joined; any other separator is kept between two marks.
fn join_marks(snippet: &str, marks: (&str, &str)) -> String {
    let mut out = snippet.to_string();
    for sep in [" ", "’", "'", "-", "‑"] {
        out = out.replace(&format!("{}{sep}{}", marks.1, marks.0), sep);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_words_are_never_fts_syntax() {
        assert_eq!(
            match_expressions("Deep Strike"),
            Some(("\"deep\" \"strike\"".into(), "\"deep strike\"".into()))
        );
        let (all, phrase) = match_expressions("\"a -b AND NEAR(c*").unwrap();
        assert_eq!(all, "\"a\" \"b\" \"and\" \"near\" \"c\"");
        assert_eq!(phrase, "\"a b and near c\"");
        assert_eq!(match_expressions(" - \" * "), None);
    }

    #[test]
    fn a_phrase_is_marked_once() {
        let m = ("«", "»");
        assert_eq!(
            join_marks("the «Deep» «Strike» ability", m),
            "the «Deep Strike» ability"
        );
        assert_eq!(join_marks("«Deep», «Strike»", m), "«Deep», «Strike»");
        assert_eq!(join_marks("«Be»’«lakor»", m), "«Be’lakor»");
        assert_eq!(join_marks("[re]-[roll]", ("[", "]")), "[re-roll]");
    }

    #[test]
    fn kinds_parse_singular_and_plural() {
        assert_eq!(Kind::parse("Abilities"), Some(Kind::Ability));
        assert_eq!(Kind::parse("rule"), Some(Kind::Rule));
        assert_eq!(Kind::parse("stratagems"), Some(Kind::Stratagem));
        assert_eq!(Kind::parse("datasheets"), Some(Kind::Datasheet));
        assert_eq!(Kind::parse("weapon"), None);
    }
}
