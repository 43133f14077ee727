//! Architecture invariants as a test (after rust-analyzer's `xtask/src/tidy.rs`): reads
//! `src/**/*.rs` as text and checks the rules `ARCHITECTURE.md` states. Each failure names the
//! file, the line and the rule broken.
//!
//! Code after a file's first `#[cfg(test)]` line is the file's tests and is not checked by the
//! rules about code (only the `//!` rule looks at it); comment lines are skipped.

use super::util;
use regex::Regex;
use std::path::{Path, PathBuf};

/// One source file: its path relative to the repository (with `/`) and its lines.
struct Source {
    path: String,
    text: String,
}

impl Source {
    /// `(line number, line)` of the non-test, non-comment code.
    fn code_lines(&self) -> impl Iterator<Item = (usize, &str)> {
        self.text
            .lines()
            .enumerate()
            .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
            .filter(|(_, l)| !l.trim_start().starts_with("//"))
            .map(|(i, l)| (i + 1, l))
    }
    fn under(&self, dir: &str) -> bool {
        self.path.starts_with(dir)
    }
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

fn sources() -> Vec<Source> {
    let root = util::repo();
    let mut files = Vec::new();
    rs_files(&root.join("src"), &mut files);
    assert!(files.len() > 20, "src/ has the crate's modules");
    files
        .into_iter()
        .map(|p| Source {
            path: p
                .strip_prefix(&root)
                .expect("under the repository")
                .to_string_lossy()
                .replace('\\', "/"),
            text: std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        })
        .collect()
}

/// Panics with every violation, one per line, when there is any.
fn report(rule: &str, violations: Vec<String>) {
    assert!(
        violations.is_empty(),
        "tidy: {rule}\n{}\n",
        violations.join("\n")
    );
}

/// Only `src/decode/` (documents → blocks) and `src/records/` (structured sources → records)
/// read formats: they alone name the parsing crates.
#[test]
fn only_decode_and_records_use_format_crates() {
    let re = Regex::new(r"\b(scraper|lopdf|quick_xml|pulldown_cmark|csv)::").expect("regex");
    let mut v = Vec::new();
    for s in sources() {
        if s.under("src/decode/") || s.under("src/records/") || s.path == "src/records.rs" {
            continue;
        }
        for (n, l) in s.code_lines() {
            // the one writer of a CSV file (`validation/expected-damage.csv`) uses csv's writer
            let writer = s.path == "src/validate.rs"
                && (l.contains("csv::WriterBuilder") || l.contains("csv::Terminator"));
            if let Some(m) = re.find(l).filter(|_| !writer) {
                v.push(format!(
                    "{}:{n}: `{}` outside src/decode/ and src/records/",
                    s.path,
                    m.as_str()
                ));
            }
        }
    }
    report(
        "only src/decode/ and src/records/ use scraper, lopdf, quick-xml, pulldown-cmark, csv",
        v,
    );
}

/// SQLite is a publishing format (issue 29): only `src/publish/` names `rusqlite`.
#[test]
fn only_publish_uses_rusqlite() {
    report(
        "only src/publish/ uses rusqlite",
        rusqlite_outside_publish(sources().iter()),
    );
}

/// The lines outside `src/publish/` that name `rusqlite`.
fn rusqlite_outside_publish<'a>(sources: impl Iterator<Item = &'a Source>) -> Vec<String> {
    let re = Regex::new(r"\brusqlite\b").expect("regex");
    let mut v = Vec::new();
    for s in sources.filter(|s| !s.under("src/publish/")) {
        for (n, l) in s.code_lines() {
            if re.is_match(l) {
                v.push(format!("{}:{n}: `rusqlite` outside src/publish/", s.path));
            }
        }
    }
    v
}

#[test]
fn rusqlite_outside_publish_is_found() {
    let file = |path: &str, text: &str| Source {
        path: path.to_string(),
        text: text.to_string(),
    };
    let files = [
        file("src/cli/search.rs", "use rusqlite::Connection;\n"),
        file("src/dataset.rs", "fn f() -> rusqlite::Result<()> {\n"),
        file(
            "src/publish/sqlite/search.rs",
            "use rusqlite::Connection;\n",
        ),
        file("src/emit.rs", "// rusqlite is not used here\n"),
    ];
    let found = rusqlite_outside_publish(files.iter());
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("src/cli/search.rs:1"), "{found:?}");
}

/// Extraction reads blocks into records; canonical values (`normalize`) and the rule registry
/// (`dedup`) come after it and extract must not lean on them.
#[test]
fn extract_uses_neither_dedup_nor_normalize() {
    let re = Regex::new(r"\b(crate|super::super)::(dedup|normalize)\b").expect("regex");
    let mut v = Vec::new();
    for s in sources().iter().filter(|s| s.under("src/extract/")) {
        for (n, l) in s.code_lines() {
            if let Some(m) = re.find(l) {
                v.push(format!("{}:{n}: `{}`", s.path, m.as_str()));
            }
        }
    }
    report(
        "src/extract/ does not use crate::dedup or crate::normalize",
        v,
    );
}

/// Ids are built in `src/ids.rs` only: no id-shaped literal (`"10e:…`), no `format!` of
/// `{}:{}:…`, no `unnamed-` key and no `~` variant suffix anywhere else.
#[test]
fn ids_are_built_only_in_ids_rs() {
    // every edition's id prefix (`10e:`, `9e:`, `hh2:`, …), from the contract
    let ids: Vec<&str> = cogitator::edition::Edition::ALL
        .iter()
        .map(|e| e.as_str())
        .collect();
    let re = Regex::new(&format!(
        r#""({}):[a-z{{]|format!\(\s*"\{{[^}}"]*\}}:\{{[^}}"]*\}}:|unnamed-\{{|"[^"]*\{{[^}}"]*\}}~\{{"#,
        ids.join("|")
    ))
    .expect("regex");
    for bad in [
        r#"let id = "10e:space-marines";"#,
        r#"let id = "hh2:{}";"#,
        r#"format!("{}:{}:{}", e, s, n)"#,
        r#"format!("unnamed-{h}")"#,
        r#"format!("{id}~{h}")"#,
    ] {
        assert!(re.is_match(bad), "{bad}");
    }
    assert!(!re.is_match(r#"let s = "10e";"#));
    // a `format!(` whose string is on the next line
    let split = Regex::new(r#"^\s*"\{[^}"]*\}:\{[^}"]*\}:"#).expect("regex");
    let mut v = Vec::new();
    for s in sources().iter().filter(|s| s.path != "src/ids.rs") {
        let lines: Vec<(usize, &str)> = s.code_lines().collect();
        for (k, &(n, l)) in lines.iter().enumerate() {
            let after_format = k > 0 && lines[k - 1].1.trim_end().ends_with("format!(");
            if re.is_match(l) || after_format && split.is_match(l) {
                v.push(format!("{}:{n}: builds an id: {}", s.path, l.trim()));
            }
        }
    }
    report(
        "ids are built in src/ids.rs only (use ids::datasheet, ids::rule, …)",
        v,
    );
}

/// Every module says what it is for in a `//!` doc on its first line.
#[test]
fn every_module_starts_with_a_doc() {
    let v: Vec<String> = sources()
        .iter()
        .filter(|s| !s.text.starts_with("//!"))
        .map(|s| format!("{}:1: no `//!` module doc", s.path))
        .collect();
    report("every src/**/*.rs starts with a `//!` module doc", v);
}

/// Decoding and extraction read untrusted input and never panic on it: no `.unwrap()` or
/// `.expect(…)` in their code, except `.expect("static regex")` on a regex literal.
/// `ALLOWED` counts the known exceptions per file; it can only shrink.
#[test]
fn no_unwrap_in_decode_and_extract() {
    const ALLOWED: &[(&str, usize)] = &[];
    let re = Regex::new(r"\.unwrap\(\)|\.expect\(").expect("regex");
    let mut v = Vec::new();
    for s in sources()
        .iter()
        .filter(|s| s.under("src/decode/") || s.under("src/extract/"))
    {
        let hits: Vec<String> = s
            .code_lines()
            .filter(|(_, l)| re.is_match(l) && !l.contains(".expect(\"static regex\")"))
            .map(|(n, l)| format!("{}:{n}: {}", s.path, l.trim()))
            .collect();
        let allowed = ALLOWED
            .iter()
            .find(|(p, _)| *p == s.path)
            .map_or(0, |(_, n)| *n);
        if hits.len() > allowed {
            v.extend(hits);
        } else if hits.len() < allowed {
            v.push(format!(
                "{}: {} allowed, {} found: lower its count in ALLOWED",
                s.path,
                allowed,
                hits.len()
            ));
        }
    }
    report(
        "no .unwrap()/.expect() on input in src/decode/ and src/extract/ (outside #[cfg(test)])",
        v,
    );
}

/// Class hints travel from decoder to extractor as `ir::ClassHint`, not as strings: no hint's
/// name (`"dsProfile"`, `"wProfile"`, `"tooltip_header"`, `"str10Name"`…, every
/// `ClassHint::as_str`) is a string literal outside `src/ir.rs` (the enum) and `src/decode/`
/// (which parses the markup's class names). In `src/extract/` every name is checked; elsewhere
/// only the names shaped like the site's classes (an upper-case letter, digit or `_`), since
/// plain words such as `"flavor"` and `"summary"` are also record fields there.
#[test]
fn class_hints_are_typed_outside_ir_and_decode() {
    use cogitator::ir::ClassHint;
    let all: Vec<&str> = ClassHint::ALL.iter().map(|h| h.as_str()).collect();
    assert!(all.contains(&"dsProfile") && all.contains(&"str10Name"));
    let site_shaped = |n: &str| {
        n.chars()
            .any(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    };
    let mut v = Vec::new();
    for s in sources() {
        if s.path == "src/ir.rs" || s.under("src/decode/") || s.path == "src/decode.rs" {
            continue;
        }
        let extract = s.under("src/extract/") || s.path == "src/extract.rs";
        for (n, l) in s.code_lines() {
            for name in &all {
                if (extract || site_shaped(name)) && l.contains(&format!("\"{name}\"")) {
                    v.push(format!(
                        "{}:{n}: class hint `\"{name}\"` as a string (use ClassHint::…): {}",
                        s.path,
                        l.trim()
                    ));
                }
            }
        }
    }
    report(
        "class hints are ir::ClassHint values; their names are string literals only in src/ir.rs and src/decode/",
        v,
    );
}

/// Functions in `src/extract/` longer than this many lines (signature to closing brace) are
/// split into named steps.
const MAX_FN_LINES: usize = 80;

/// Functions over [`MAX_FN_LINES`] still waiting to be split: `(file, fn name)`. Only shrinks.
const LONG_FN_ALLOWED: &[(&str, &str)] = &[];

/// `(name, first line, line count)` of every `fn` of `text` outside its tests: from the `fn`
/// line (attributes and docs not counted) to the line holding only the `}` at the signature's
/// indentation (rustfmt's layout).
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let re = Regex::new(r"^(\s*)(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:unsafe\s+)?fn\s+(\w+)")
        .expect("regex");
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(c) = re.captures(l) else { continue };
        let indent = &c[1];
        // A declaration without a body (a trait's required method) ends with `;`.
        let body = lines[i..]
            .iter()
            .position(|x| x.trim_end().ends_with('{') || x.trim_end().ends_with(';'));
        if body.is_some_and(|b| lines[i + b].trim_end().ends_with(';')) {
            continue;
        }
        let close = format!("{indent}}}");
        if let Some(n) = lines[i..].iter().position(|x| x.trim_end() == close) {
            out.push((c[2].to_string(), i + 1, n + 1));
        }
    }
    out
}

/// No function in `src/extract/` is over [`MAX_FN_LINES`] lines, except those listed in
/// [`LONG_FN_ALLOWED`]; a listed one that got short must leave the list.
#[test]
fn extract_functions_are_short() {
    let mut v = Vec::new();
    let mut long = Vec::new();
    for s in sources().iter().filter(|s| s.under("src/extract/")) {
        for (name, line, len) in functions(&s.text) {
            if len <= MAX_FN_LINES {
                continue;
            }
            long.push((s.path.clone(), name.clone()));
            if !LONG_FN_ALLOWED.contains(&(s.path.as_str(), name.as_str())) {
                v.push(format!(
                    "{}:{line}: fn {name} is {len} lines (over {MAX_FN_LINES}): split it into named steps",
                    s.path
                ));
            }
        }
    }
    for (file, name) in LONG_FN_ALLOWED {
        if !long.iter().any(|(f, n)| f == file && n == name) {
            v.push(format!(
                "{file}: fn {name} is allowed to be long but is not (any more): remove it from LONG_FN_ALLOWED"
            ));
        }
    }
    report("functions in src/extract/ are short", v);
}

#[test]
fn function_lengths_are_measured_from_fn_to_its_closing_brace() {
    let text = "fn a() {\n    x();\n}\n\n    pub(crate) fn b(\n        y: u8,\n    ) -> u8 {\n        y\n    }\ntrait T {\n    fn c(&self);\n}\n#[cfg(test)]\nfn d() {\n}\n";
    assert_eq!(
        functions(text),
        [("a".to_string(), 1, 3), ("b".to_string(), 5, 5)]
    );
}

/// The top-level module a file of `src/` belongs to (`src/foo.rs` and `src/foo/…` are `foo`),
/// and its module path (`src/foo/bar.rs` → `[foo, bar]`, `src/foo/mod.rs` → `[foo]`); `None`
/// for the crate root (`lib.rs`, `main.rs`), which only declares the modules.
fn module_path(path: &str) -> Option<Vec<String>> {
    let rel = path.strip_prefix("src/")?.strip_suffix(".rs")?;
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        return None;
    }
    Some(parts)
}

/// The top-level modules `code` (the code of a file at module path `module`) names, with the
/// line of each: `crate::X…`, each name of `crate::{X, Y::…}`, and `super::…` paths that climb
/// to the crate root.
fn imports(module: &[String], code: &[(usize, &str)]) -> Vec<(String, usize)> {
    let path = Regex::new(r"\bcrate::(\w+)").expect("regex");
    let group = Regex::new(r"\bcrate::\{").expect("regex");
    let sup = Regex::new(r"(?:^|[^:\w])((?:super::)+)(\w+)").expect("regex");
    let text: String = code.iter().map(|(_, l)| format!("{l}\n")).collect();
    let line_at = |offset: usize| code[text[..offset].matches('\n').count()].0;
    let mut out = Vec::new();
    for c in path.captures_iter(&text) {
        out.push((c[1].to_string(), line_at(c.get(0).expect("match").start())));
    }
    for m in group.find_iter(&text) {
        // the names at depth 0 of the braces
        let (mut depth, mut names, mut name, mut fresh) = (1, Vec::new(), String::new(), true);
        for ch in text[m.end()..].chars() {
            match ch {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 1 => {
                    names.extend((!name.is_empty()).then(|| std::mem::take(&mut name)));
                    fresh = true;
                }
                c if depth == 1 && fresh && (c.is_alphanumeric() || c == '_') => name.push(c),
                _ if depth == 1 && !name.is_empty() => {
                    names.push(std::mem::take(&mut name));
                    fresh = false;
                }
                _ => {}
            }
            if depth == 0 {
                break;
            }
        }
        names.extend((!name.is_empty()).then_some(name));
        for n in names.into_iter().filter(|n| n != "self") {
            out.push((n, line_at(m.start())));
        }
    }
    for c in sup.captures_iter(&text) {
        let climbs = c[1].matches("super::").count();
        if climbs == module.len() {
            out.push((c[2].to_string(), line_at(c.get(1).expect("match").start())));
        }
    }
    out
}

/// The import graph between top-level modules of `src/`: `from → to → the first place`.
fn import_graph(
    sources: &[Source],
) -> std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>> {
    let mut graph = std::collections::BTreeMap::<String, std::collections::BTreeMap<_, _>>::new();
    for s in sources {
        let Some(module) = module_path(&s.path) else {
            continue;
        };
        let code: Vec<(usize, &str)> = s.code_lines().collect();
        let edges = graph.entry(module[0].clone()).or_default();
        for (to, line) in imports(&module, &code) {
            if to != module[0] {
                edges
                    .entry(to)
                    .or_insert_with(|| format!("{}:{line}", s.path));
            }
        }
    }
    graph
}

/// The cycles of `graph`: one per strongly connected component of more than one module, as the
/// shortest cycle through the component's first module (`a -> b -> a`), with the component.
fn cycles(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>>,
) -> Vec<(Vec<String>, Vec<String>)> {
    use std::collections::{BTreeSet, VecDeque};
    let next = |n: &str| -> Vec<String> {
        graph
            .get(n)
            .map(|e| e.keys().cloned().collect())
            .unwrap_or_default()
    };
    // reachable sets (the graph has a few dozen nodes)
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_string()];
        while let Some(n) = todo.pop() {
            for m in next(&n) {
                if seen.insert(m.clone()) {
                    todo.push(m);
                }
            }
        }
        seen
    };
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in graph.keys() {
        if done.contains(n) || !reach(n).contains(n) {
            continue;
        }
        let component: BTreeSet<String> = reach(n)
            .into_iter()
            .filter(|m| reach(m).contains(n))
            .collect();
        done.extend(component.iter().cloned());
        // breadth-first from n back to n
        let mut prev = std::collections::BTreeMap::<String, String>::new();
        let mut queue = VecDeque::from([n.clone()]);
        'bfs: while let Some(a) = queue.pop_front() {
            for b in next(&a) {
                if b == *n {
                    prev.insert(n.clone(), a);
                    break 'bfs;
                }
                if component.contains(&b) && !prev.contains_key(&b) {
                    prev.insert(b.clone(), a.clone());
                    queue.push_back(b);
                }
            }
        }
        let mut cycle = vec![n.clone()];
        let mut at = prev[n].clone();
        while at != *n {
            cycle.push(at.clone());
            at = prev[&at].clone();
        }
        cycle.push(n.clone());
        cycle.reverse();
        out.push((cycle, component.into_iter().collect()));
    }
    out
}

/// Import edges between top-level modules still allowed although they close a cycle:
/// `(from, to, why)`. Only shrinks: an edge no longer there must leave the list.
const CYCLE_EDGES_ALLOWED: &[(&str, &str, &str)] = &[];

/// No import circle between the top-level modules of `src/` (as rust-analyzer's tidy checks):
/// a `crate::X` path in a file of module M is an edge M → X; the layers of `ARCHITECTURE.md`
/// only point down.
#[test]
fn no_import_cycle_between_top_level_modules() {
    let mut graph = import_graph(&sources());
    assert!(graph.len() > 15, "the graph has the crate's modules");
    let mut v = Vec::new();
    // The bottom layers (the contract's editions, the one file reader) import nothing of the
    // crate.
    for bottom in ["edition", "fsread"] {
        for (to, at) in graph.get(bottom).into_iter().flatten() {
            v.push(format!("{at}: {bottom} (a bottom layer) imports {to}"));
        }
    }
    // The contract's types are read by normalize, never the other way round.
    for (from, to) in [
        ("model", "normalize"),
        ("vocab", "normalize"),
        ("vocab", "model"),
    ] {
        if let Some(at) = graph.get(from).and_then(|e| e.get(to)) {
            v.push(format!(
                "{at}: {from} imports {to} (the contract sits below it)"
            ));
        }
    }
    for (from, to, _) in CYCLE_EDGES_ALLOWED {
        let removed = graph.get_mut(*from).and_then(|e| e.remove(*to));
        if removed.is_none() {
            v.push(format!(
                "{from} -> {to} is allowed but no longer imported: remove it from CYCLE_EDGES_ALLOWED"
            ));
        }
    }
    for (c, component) in cycles(&graph) {
        let steps: Vec<String> = c
            .windows(2)
            .filter_map(|w| {
                graph
                    .get(&w[0])?
                    .get(&w[1])
                    .map(|at| format!("{} -> {} ({at})", w[0], w[1]))
            })
            .collect();
        v.push(format!(
            "cycle {} (strongly connected: {})\n    {}",
            c.join(" -> "),
            component.join(", "),
            steps.join("\n    ")
        ));
    }
    report("no import cycle between top-level modules of src/", v);
}

#[test]
fn import_cycles_are_found() {
    let file = |path: &str, text: &str| Source {
        path: path.to_string(),
        text: text.to_string(),
    };
    let bad = [
        file("src/model.rs", "use crate::normalize::profile_fields;\n"),
        file(
            "src/normalize/schema.rs",
            "use crate::{diag, model::Edition};\n",
        ),
        file("src/diag/mod.rs", "//! crate::model in a comment\n"),
        file(
            "src/ids.rs",
            "fn f() { super::vocab::TENTH }\n#[cfg(test)]\nuse crate::ids;\n",
        ),
        file("src/vocab.rs", "pub fn g() { crate::ids::f() }\n"),
    ];
    let graph = import_graph(&bad);
    assert_eq!(graph["model"]["normalize"], "src/model.rs:1");
    assert_eq!(graph["normalize"]["diag"], "src/normalize/schema.rs:1");
    assert!(graph["diag"].is_empty());
    let found = cycles(&graph);
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].0, ["ids", "vocab", "ids"]);
    assert_eq!(found[1].0, ["model", "normalize", "model"]);
    assert!(cycles(&import_graph(&bad[1..])).len() == 1);
}

/// A `Datasheet` value is made in the model (`Datasheet::empty`) and by the datasheet builder
/// (`src/extract/sheet.rs`) only: no `Datasheet { … }` literal and no `Datasheet::empty` call
/// anywhere else in `src/` (tests excepted). Sources hand what they read to the builder.
#[test]
fn datasheets_are_built_only_by_the_model_and_the_builder() {
    let v = datasheet_constructions(
        sources()
            .iter()
            .filter(|s| s.path != "src/model.rs" && s.path != "src/extract/sheet.rs"),
    );
    report(
        "Datasheet values are built in src/model.rs and src/extract/sheet.rs only (use extract::sheet::SheetBuilder)",
        v,
    );
}

/// Every `Datasheet { …` literal or `Datasheet::empty(` call in the code of `sources`, as
/// `file:line: …`. A type named `Datasheet` in a signature (`-> Datasheet {`), an `impl … for
/// Datasheet {` and a longer name (`ExportDatasheet {`) are not constructions.
fn datasheet_constructions<'a>(sources: impl Iterator<Item = &'a Source>) -> Vec<String> {
    let re = Regex::new(r"(^|[^\w])Datasheet(\s*\{|::empty\s*\()").expect("regex");
    let not_a_value =
        Regex::new(r"(->|\bfor|\bimpl|\bstruct|\benum)\s+Datasheet\s*\{").expect("regex");
    let mut v = Vec::new();
    for s in sources {
        for (n, l) in s.code_lines() {
            if re.is_match(l) && !not_a_value.is_match(l) {
                v.push(format!("{}:{n}: builds a Datasheet: {}", s.path, l.trim()));
            }
        }
    }
    v
}

#[test]
fn a_datasheet_literal_outside_the_builder_is_found() {
    let bad = Source {
        path: "src/extract/x.rs".to_string(),
        text: "fn a() -> Datasheet {\n    let d = Datasheet::empty(e);\n    Datasheet { id, ..d }\n}\nimpl Mergeable for Datasheet {\n}\nstruct ExportDatasheet {\n}\n".to_string(),
    };
    let found = datasheet_constructions(std::iter::once(&bad));
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("src/extract/x.rs:2:"));
    assert!(found[1].starts_with("src/extract/x.rs:3:"));
}

/// Functions in `src/records/` over [`MAX_FN_LINES`] still waiting to be split:
/// `(file, fn name)`. Only shrinks.
const RECORDS_LONG_FN_ALLOWED: &[(&str, &str)] = &[];

/// The 80-line rule of [`extract_functions_are_short`] holds for the structured sources in
/// `src/records/` too, except those listed in [`RECORDS_LONG_FN_ALLOWED`]; a listed one that
/// got short must leave the list.
#[test]
fn records_functions_are_short() {
    let mut v = Vec::new();
    let mut long = Vec::new();
    for s in sources().iter().filter(|s| s.under("src/records/")) {
        for (name, line, len) in functions(&s.text) {
            if len <= MAX_FN_LINES {
                continue;
            }
            long.push((s.path.clone(), name.clone()));
            if !RECORDS_LONG_FN_ALLOWED.contains(&(s.path.as_str(), name.as_str())) {
                v.push(format!(
                    "{}:{line}: fn {name} is {len} lines (over {MAX_FN_LINES}): split it into named steps",
                    s.path
                ));
            }
        }
    }
    for (file, name) in RECORDS_LONG_FN_ALLOWED {
        if !long.iter().any(|(f, n)| f == file && n == name) {
            v.push(format!(
                "{file}: fn {name} is allowed to be long but is not (any more): remove it from RECORDS_LONG_FN_ALLOWED"
            ));
        }
    }
    report("functions in src/records/ are short", v);
}

/// Readers of an edition without a vocabulary yet (`vocab::of` is `None`): they spell their
/// own headings until their edition gets one. `(path prefix, edition id)`; only shrinks (an
/// edition that gets a vocabulary must leave the list).
const READERS_WITHOUT_VOCABULARY: &[(&str, &str)] = &[
    ("src/extract/ninth", "9e"),
    ("src/extract/heresy.rs", "hh2"),
];

/// Every string literal of a code line, as written (escapes not undone).
fn string_literals(line: &str) -> Vec<&str> {
    static RE: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r#"(?:^|[^\w#])"((?:[^"\\]|\\.)*)""#).expect("regex")
    });
    RE.captures_iter(line)
        .filter_map(|c| c.get(1))
        .map(|m| m.as_str())
        .collect()
}

/// `file:line: …` for each string literal in the code of `sources` that is one of `words` (a
/// heading or label of a vocabulary), compared as printed (capitals: the lower-case `core`,
/// `faction` and `faq` are the contract's group and kind names, and a BattleScribe profile
/// type such as `Abilities` is that format's own field name) with a trailing `:` ignored.
fn vocabulary_literals<'a>(
    sources: impl Iterator<Item = &'a Source>,
    words: &[&str],
) -> Vec<String> {
    let key = |w: &str| w.trim().trim_end_matches(':').trim_end().to_string();
    let words: std::collections::BTreeSet<String> = words
        .iter()
        .map(|w| key(w))
        .filter(|w| !w.is_empty())
        .collect();
    let mut v = Vec::new();
    for s in sources {
        for (n, l) in s.code_lines() {
            for lit in string_literals(l) {
                if words.contains(&key(lit)) {
                    v.push(format!(
                        "{}:{n}: spells the heading \"{lit}\": take it from the edition's vocabulary (crate::vocab)",
                        s.path
                    ));
                }
            }
        }
    }
    v
}

/// The extractors and record sources of an edition with a vocabulary (`crate::vocab::of`)
/// match its headings and labels through it: none spells one as a string literal
/// (`"RANGED WEAPONS"`, `"WHEN:"`). Readers of an edition without a vocabulary are listed in
/// [`READERS_WITHOUT_VOCABULARY`].
#[test]
fn readers_take_headings_from_the_vocabulary() {
    use cogitator::edition::Edition;
    let mut v = Vec::new();
    for (prefix, id) in READERS_WITHOUT_VOCABULARY {
        let e = Edition::from_id(id).expect("an edition id");
        if cogitator::vocab::of(e).is_some() {
            v.push(format!(
                "{prefix}: edition {id} has a vocabulary now: remove it from READERS_WITHOUT_VOCABULARY"
            ));
        }
    }
    let words: Vec<&str> = Edition::ALL
        .iter()
        .filter_map(|e| cogitator::vocab::of(*e))
        .flat_map(|voc| voc.words())
        .collect();
    assert!(
        words.len() > 20,
        "the 10th edition's vocabulary has its headings"
    );
    let all = sources();
    let readers = all.iter().filter(|s| {
        (s.under("src/extract/") || s.under("src/records/"))
            && !READERS_WITHOUT_VOCABULARY
                .iter()
                .any(|(p, _)| s.path.starts_with(p))
    });
    v.extend(vocabulary_literals(readers, &words));
    report(
        "readers take headings and labels from the edition vocabulary (src/vocab.rs)",
        v,
    );
}

#[test]
fn a_heading_spelled_by_a_reader_is_found() {
    let bad = Source {
        path: "src/extract/x.rs".to_string(),
        text: concat!(
            "fn a(t: &str) {\n",
            "    if t == \"RANGED WEAPONS\" { b(r\"^KEYWORDS:\", \"core\") }\n",
            "    // \"ABILITIES\" in a comment\n",
            "    let x = strip(t, \"WHEN:\").or(strip(t, \"Keywords\"));\n",
            "}\n",
            "#[cfg(test)]\n",
            "const T: &str = \"ABILITIES\";\n",
        )
        .to_string(),
    };
    let found = vocabulary_literals(
        std::iter::once(&bad),
        &["RANGED WEAPONS", "KEYWORDS:", "WHEN:", "ABILITIES"],
    );
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("src/extract/x.rs:2:"), "{found:?}");
    assert!(found[1].starts_with("src/extract/x.rs:4:"), "{found:?}");
}
