//! The tables of a published database, as data: each [`Table`] gives its `CREATE TABLE` and its
//! `INSERT`, so the two cannot drift apart. Every table of records ends with the four
//! provenance columns ([`PROVENANCE`]); sub-records name their datasheet (or points record,
//! rule, detachment) through a `FOREIGN KEY`.
//!
//! Owns the table and column names and the full-text index's definition. Must not read a
//! dataset or write rows (that is `insert`).

use crate::edition::{profile_fields, Edition, ProfileKind};

/// The provenance columns every table of records ends with: the file the row was read from,
/// its line, its page in a paged source (a PDF), the file's sha256.
pub const PROVENANCE: [&str; 4] = ["file", "line", "page", "sha256"];

/// One table: its name and its columns before the provenance (name, declaration).
pub struct Table {
    pub name: &'static str,
    pub columns: Vec<(String, String)>,
    /// Whether the table ends with the [`PROVENANCE`] columns.
    pub provenance: bool,
}

impl Table {
    fn new(name: &'static str, columns: &[(&str, &str)]) -> Self {
        Table {
            name,
            columns: columns
                .iter()
                .map(|(n, d)| (n.to_string(), d.to_string()))
                .collect(),
            provenance: true,
        }
    }

    /// Adds the characteristic columns of `kind` profiles after the fixed ones.
    fn with_characteristics(mut self, kind: ProfileKind) -> Self {
        for c in characteristic_columns(kind) {
            self.columns.push((c, "TEXT".to_string()));
        }
        self
    }

    fn without_provenance(mut self) -> Self {
        self.provenance = false;
        self
    }

    fn names(&self) -> Vec<String> {
        let mut n: Vec<String> = self.columns.iter().map(|(c, _)| quoted(c)).collect();
        if self.provenance {
            n.extend(PROVENANCE.iter().map(|c| c.to_string()));
        }
        n
    }

    /// `CREATE TABLE name (…)`.
    pub fn create_sql(&self) -> String {
        let mut cols: Vec<String> = self
            .columns
            .iter()
            .map(|(c, d)| format!("{} {d}", quoted(c)))
            .collect();
        if self.provenance {
            cols.push("file TEXT, line INTEGER, page INTEGER, sha256 TEXT".to_string());
        }
        format!("CREATE TABLE {} (\n  {}\n)", self.name, cols.join(",\n  "))
    }

    /// `INSERT INTO name (…) VALUES (?, …)`, every column in order, provenance last.
    pub fn insert_sql(&self) -> String {
        let names = self.names();
        let marks = vec!["?"; names.len()].join(", ");
        format!(
            "INSERT INTO {} ({}) VALUES ({marks})",
            self.name,
            names.join(", ")
        )
    }
}

/// `"name"`: a column name as SQL (characteristics are `M`, `Sv`, `AP`, …).
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The fixed columns a characteristic must not take (SQL names are case-insensitive).
const FIXED: [&str; 12] = [
    "datasheet_id",
    "ord",
    "name",
    "type",
    "keywords",
    "characteristics",
    "file",
    "line",
    "page",
    "sha256",
    "rowid",
    "oid",
];

/// The characteristics of `kind` profiles of every edition, each once, in the editions' order
/// (`schemas/editions.yaml`): a column each. A profile's full map, whatever its edition, is
/// also kept whole in the `characteristics` column (JSON).
pub fn characteristic_columns(kind: ProfileKind) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for e in Edition::ALL {
        for f in profile_fields(*e, kind) {
            let taken = out.iter().any(|o| o.eq_ignore_ascii_case(f))
                || FIXED.iter().any(|x| x.eq_ignore_ascii_case(f));
            if !taken {
                out.push(f.clone());
            }
        }
    }
    out
}

const DATASHEET_FK: &str = "TEXT NOT NULL REFERENCES datasheets(id)";

/// Every table of records, in the order they are created and filled.
pub fn tables() -> Vec<Table> {
    let mut t = vec![
        Table::new("meta", &[("key", "TEXT PRIMARY KEY"), ("value", "TEXT")]).without_provenance(),
        Table::new(
            "inputs",
            &[
                ("file", "TEXT PRIMARY KEY"),
                ("sha256", "TEXT"),
                ("bytes", "INTEGER"),
                ("format", "TEXT"),
                ("edition", "TEXT"),
                ("status", "TEXT"),
                ("duplicate_of", "TEXT"),
            ],
        )
        .without_provenance(),
        Table::new(
            "sources",
            &[
                ("record_kind", "TEXT NOT NULL"),
                ("record_id", "TEXT NOT NULL"),
                ("ord", "INTEGER NOT NULL"),
            ],
        ),
    ];
    t.extend(datasheet_tables());
    t.extend(army_tables());
    t.extend(points_and_errata_tables());
    t.push(Table::new(
        "translations",
        &[
            ("record_kind", "TEXT NOT NULL"),
            ("record_id", "TEXT NOT NULL"),
            ("language", "TEXT NOT NULL"),
            ("name", "TEXT"),
            ("text", "TEXT"),
        ],
    ));
    t.push(Table::new(
        "diagnostics",
        &[("severity", "TEXT"), ("code", "TEXT"), ("message", "TEXT")],
    ));
    t.push(documents_table());
    t
}

/// Datasheets and their sub-records.
fn datasheet_tables() -> Vec<Table> {
    vec![
        Table::new(
            "datasheets",
            &[
                ("id", "TEXT PRIMARY KEY"),
                ("name", "TEXT"),
                ("edition", "TEXT NOT NULL"),
                ("faction", "TEXT"),
                ("base_size", "TEXT"),
                ("invulnerable_save", "TEXT"),
                ("invulnerable_save_condition", "TEXT"),
                ("power_rating", "INTEGER"),
                ("legends", "INTEGER NOT NULL"),
            ],
        ),
        Table::new(
            "models",
            &[
                ("datasheet_id", DATASHEET_FK),
                ("ord", "INTEGER NOT NULL"),
                ("name", "TEXT"),
            ],
        )
        .with_characteristics(ProfileKind::Model)
        .with_json("characteristics"),
        Table::new(
            "weapons",
            &[
                ("datasheet_id", DATASHEET_FK),
                ("ord", "INTEGER NOT NULL"),
                ("name", "TEXT NOT NULL"),
                ("type", "TEXT NOT NULL"),
            ],
        )
        .with_characteristics(ProfileKind::Weapon)
        .with_json("keywords")
        .with_json("characteristics"),
        Table::new(
            "abilities",
            &[
                ("datasheet_id", DATASHEET_FK),
                ("ord", "INTEGER NOT NULL"),
                ("name", "TEXT NOT NULL"),
                ("group", "TEXT"),
                ("tags", "TEXT"),
                ("parameter", "TEXT"),
                ("rule_id", "TEXT"),
                ("text", "TEXT"),
            ],
        ),
        Table::new(
            "keywords",
            &[
                ("datasheet_id", DATASHEET_FK),
                ("ord", "INTEGER NOT NULL"),
                ("keyword", "TEXT NOT NULL"),
                ("kind", "TEXT NOT NULL"),
                ("model", "TEXT"),
            ],
        ),
        tiers("datasheet_points", "datasheet_id", DATASHEET_FK),
        Table::new(
            "datasheet_texts",
            &[
                ("datasheet_id", DATASHEET_FK),
                ("section", "TEXT NOT NULL"),
                ("ord", "INTEGER NOT NULL"),
                ("name", "TEXT"),
                ("text", "TEXT NOT NULL"),
            ],
        ),
        Table::new(
            "datasheet_stratagems",
            &[
                ("datasheet_id", DATASHEET_FK),
                ("ord", "INTEGER NOT NULL"),
                ("stratagem_id", "TEXT NOT NULL"),
            ],
        ),
    ]
}

impl Table {
    /// Adds a column holding JSON text.
    fn with_json(mut self, name: &str) -> Self {
        self.columns.push((name.to_string(), "TEXT".to_string()));
        self
    }
}

/// A table of points tiers under `parent` (a datasheet or a points record).
fn tiers(name: &'static str, parent: &str, fk: &str) -> Table {
    Table::new(
        name,
        &[
            (parent, fk),
            ("ord", "INTEGER NOT NULL"),
            ("models", "INTEGER NOT NULL"),
            ("points", "INTEGER NOT NULL"),
            ("unit_from", "INTEGER"),
            ("unit_to", "INTEGER"),
        ],
    )
}

/// Rules, stratagems, enhancements and detachments.
fn army_tables() -> Vec<Table> {
    vec![
        Table::new(
            "rules",
            &[
                ("id", "TEXT PRIMARY KEY"),
                ("name", "TEXT"),
                ("kind", "TEXT NOT NULL"),
                ("edition", "TEXT NOT NULL"),
                ("faction", "TEXT"),
                ("number", "TEXT"),
                ("parent", "TEXT"),
                ("flavor", "TEXT"),
                ("text", "TEXT NOT NULL"),
                ("bullets", "TEXT"),
                ("examples", "TEXT"),
                ("tables", "TEXT"),
            ],
        ),
        Table::new(
            "rule_variants",
            &[
                ("rule_id", "TEXT NOT NULL REFERENCES rules(id)"),
                ("ord", "INTEGER NOT NULL"),
                ("text", "TEXT NOT NULL"),
                ("similarity_permille", "INTEGER NOT NULL"),
            ],
        ),
        Table::new(
            "stratagems",
            &[
                ("id", "TEXT PRIMARY KEY"),
                ("name", "TEXT NOT NULL"),
                ("edition", "TEXT NOT NULL"),
                ("cp", "INTEGER"),
                ("group", "TEXT"),
                ("category", "TEXT"),
                ("flavor", "TEXT"),
                ("when", "TEXT"),
                ("target", "TEXT"),
                ("effect", "TEXT"),
                ("restrictions", "TEXT"),
            ],
        ),
        Table::new(
            "enhancements",
            &[
                ("id", "TEXT PRIMARY KEY"),
                ("name", "TEXT"),
                ("edition", "TEXT NOT NULL"),
                ("faction", "TEXT"),
                ("detachment", "TEXT"),
                ("points", "INTEGER"),
                ("flavor", "TEXT"),
                ("text", "TEXT NOT NULL"),
            ],
        ),
        Table::new(
            "detachments",
            &[
                ("id", "TEXT PRIMARY KEY"),
                ("name", "TEXT NOT NULL"),
                ("edition", "TEXT NOT NULL"),
                ("faction", "TEXT"),
                ("points", "INTEGER"),
                ("force_disposition", "TEXT"),
                ("unique_tag", "TEXT"),
            ],
        ),
        Table::new(
            "detachment_parts",
            &[
                ("detachment_id", "TEXT NOT NULL REFERENCES detachments(id)"),
                ("kind", "TEXT NOT NULL"),
                ("ord", "INTEGER NOT NULL"),
                ("part_id", "TEXT NOT NULL"),
            ],
        ),
    ]
}

/// Points records (`points.json`) and errata (`errata.json`).
fn points_and_errata_tables() -> Vec<Table> {
    const POINTS_FK: &str = "TEXT NOT NULL REFERENCES points(id)";
    vec![
        Table::new(
            "points",
            &[
                ("id", "TEXT PRIMARY KEY"),
                ("edition", "TEXT NOT NULL"),
                ("subject", "TEXT NOT NULL"),
                ("name", "TEXT NOT NULL"),
                ("kind", "TEXT NOT NULL"),
                ("forge_world", "INTEGER NOT NULL"),
                ("legends", "INTEGER NOT NULL"),
                ("publication_title", "TEXT"),
                ("publication_version", "TEXT"),
                ("publication_date", "TEXT"),
            ],
        ),
        tiers("points_tiers", "points_id", POINTS_FK),
        Table::new(
            "points_wargear",
            &[
                ("points_id", POINTS_FK),
                ("ord", "INTEGER NOT NULL"),
                ("item", "TEXT NOT NULL"),
                ("points", "INTEGER NOT NULL"),
            ],
        ),
        Table::new(
            "errata",
            &[
                ("id", "TEXT PRIMARY KEY"),
                ("edition", "TEXT NOT NULL"),
                ("target_printed", "TEXT NOT NULL"),
                ("targets", "TEXT"),
                ("target_kind", "TEXT NOT NULL"),
                ("faction", "TEXT"),
                ("section", "TEXT NOT NULL"),
                ("qualifier", "TEXT"),
                ("instruction", "TEXT"),
                ("op_kind", "TEXT"),
                ("op", "TEXT"),
                ("publication_title", "TEXT"),
                ("publication_version", "TEXT"),
                ("publication_date", "TEXT"),
                ("applied_to", "TEXT"),
            ],
        ),
    ]
}

/// The searchable texts: one row per rule, stratagem, enhancement, datasheet ability with text
/// and datasheet (its name and keywords); `documents_fts` indexes its `name` and `text` (external content: the text is stored
/// once).
fn documents_table() -> Table {
    Table::new(
        "documents",
        &[
            ("docid", "INTEGER PRIMARY KEY"),
            ("kind", "TEXT NOT NULL"),
            ("record_id", "TEXT NOT NULL"),
            ("name", "TEXT NOT NULL"),
            ("text", "TEXT NOT NULL"),
            // the name as a key (`text::fold::fold_name_key`: `Be’lakor` → `belakor`)
            ("name_key", "TEXT NOT NULL"),
            ("edition", "TEXT NOT NULL"),
            ("datasheet_id", "TEXT REFERENCES datasheets(id)"),
        ],
    )
}

/// The full-text index over `documents`: names, texts and name keys (so `belakor` finds
/// `Be’lakor`), Unicode words with diacritics folded, each word by its English stem (Porter:
/// `rolls` finds `roll`, `striking` `strike`).
pub const FTS_SQL: &str = "CREATE VIRTUAL TABLE documents_fts USING fts5(\
     name, text, name_key, content='documents', content_rowid='docid', \
     tokenize='porter unicode61 remove_diacritics 2')";

/// Fills the index from `documents` in one pass, once every row is in.
pub const FTS_REBUILD_SQL: &str = "INSERT INTO documents_fts(documents_fts) VALUES('rebuild')";

/// Indexes on the foreign keys (joins from a datasheet to its rows) and on `sources`.
pub const INDEX_SQL: &[&str] = &[
    "CREATE INDEX models_datasheet ON models(datasheet_id)",
    "CREATE INDEX weapons_datasheet ON weapons(datasheet_id)",
    "CREATE INDEX abilities_datasheet ON abilities(datasheet_id)",
    "CREATE INDEX keywords_datasheet ON keywords(datasheet_id)",
    "CREATE INDEX keywords_keyword ON keywords(keyword)",
    "CREATE INDEX datasheet_points_datasheet ON datasheet_points(datasheet_id)",
    "CREATE INDEX datasheet_texts_datasheet ON datasheet_texts(datasheet_id)",
    "CREATE INDEX datasheet_stratagems_datasheet ON datasheet_stratagems(datasheet_id)",
    "CREATE INDEX rule_variants_rule ON rule_variants(rule_id)",
    "CREATE INDEX detachment_parts_detachment ON detachment_parts(detachment_id)",
    "CREATE INDEX points_tiers_points ON points_tiers(points_id)",
    "CREATE INDEX points_wargear_points ON points_wargear(points_id)",
    "CREATE INDEX sources_record ON sources(record_id)",
    "CREATE INDEX documents_datasheet ON documents(datasheet_id)",
    "CREATE INDEX translations_record ON translations(record_id)",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characteristics_are_each_edition_s_once() {
        let m = characteristic_columns(ProfileKind::Model);
        for c in ["M", "T", "Sv", "W", "Ld", "OC", "WS", "BS", "I"] {
            assert!(m.iter().any(|x| x == c), "{c} in {m:?}");
        }
        let w = characteristic_columns(ProfileKind::Weapon);
        assert!(w.iter().any(|x| x == "AP"), "{w:?}");
        assert_eq!(w.iter().filter(|x| x.as_str() == "S").count(), 1);
    }

    #[test]
    fn insert_names_every_column_of_create() {
        for t in tables() {
            let create = t.create_sql();
            let insert = t.insert_sql();
            let marks = insert.matches('?').count();
            let cols = t.columns.len() + if t.provenance { 4 } else { 0 };
            assert_eq!(marks, cols, "{}", t.name);
            assert!(create.starts_with(&format!("CREATE TABLE {} (", t.name)));
        }
    }
}
