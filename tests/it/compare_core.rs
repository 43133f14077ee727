//! The comparison core's invariants (issue 25), read from `src/**/*.rs` as text: one
//! `enum Category`, one `fn name_key`, no hand-written edit distance, and the core and the
//! merge below the modules that use them (no import circle). Each failure names the file, the
//! line and the rule broken.

use super::util;
use std::path::{Path, PathBuf};

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        panic!("{} is readable", dir.display());
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// `(path relative to the repository, text)` of every source file.
fn sources() -> Vec<(String, String)> {
    let root = util::repo();
    let mut files = Vec::new();
    rs_files(&root.join("src"), &mut files);
    assert!(files.len() > 20, "src/ has the crate's modules");
    files
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&root).unwrap_or(&p).to_string_lossy();
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            (rel.replace('\\', "/"), text)
        })
        .collect()
}

/// The rules over one file's code (its lines before `#[cfg(test)]`, comments skipped):
/// `file:line: rule` for each line that breaks one.
fn violations(path: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let code = text
        .lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| !l.trim_start().starts_with("//"));
    for (i, line) in code {
        let mut broken = |rule: &str| out.push(format!("{path}:{}: {rule}", i + 1));
        let l = line.trim_start();
        if l.contains("enum Category") && path != "src/compare/mod.rs" {
            broken("the one `enum Category` is `compare::Category`");
        }
        if l.contains("fn name_key") && path != "src/compare/names.rs" {
            broken("the one `fn name_key` is `compare::names::name_key`");
        }
        if ["fn levenshtein", "fn edit_distance", "fn damerau"]
            .iter()
            .any(|f| l.contains(f))
        {
            broken("edit distances come from `strsim`");
        }
        let below = |dir: &str| path.starts_with(dir);
        if below("src/compare/")
            && [
                "crate::reconcile",
                "crate::crosscheck",
                "crate::diff",
                "crate::cli",
            ]
            .iter()
            .any(|m| l.contains(m))
        {
            broken("the comparison core imports none of the modules that use it");
        }
        if (path == "src/reconcile/merge.rs" || path == "src/reconcile/conflict.rs")
            && (l.contains("crate::reconcile") || l.contains("super::matching"))
            || (path == "src/reconcile/merge.rs" && l.contains("super::{"))
        {
            broken("merge and conflict import neither reconcile's mod.rs nor matching");
        }
    }
    out
}

#[test]
fn one_category_one_name_key_no_hand_written_edit_distance() {
    let bad: Vec<String> = sources()
        .iter()
        .flat_map(|(p, t)| violations(p, t))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_rules_catch_known_bad_code() {
    let bad = "pub enum Category { A }\npub fn name_key(s: &str) {}\nfn edit_distance() {}\n";
    assert_eq!(violations("src/diff/dataset.rs", bad).len(), 3);
    assert_eq!(
        violations("src/compare/names.rs", "use crate::reconcile::Report;\n").len(),
        1
    );
    assert_eq!(
        violations(
            "src/reconcile/merge.rs",
            "use crate::reconcile::matching::X;\n"
        )
        .len(),
        1
    );
    // Tests and comments are not code.
    let tests = "// fn edit_distance\n#[cfg(test)]\nfn levenshtein() {}\n";
    assert!(violations("src/cli/simulate.rs", tests).is_empty());
}
