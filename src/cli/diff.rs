//! `cogitator diff OLD NEW [--format human|json|markdown|github] [--gate POLICY]`: what changed
//! between two datasets, in the game's terms (`cogitator::diff::dataset`), and the CI gate
//! (`cogitator::diff::policy`).
//!
//! Owns reading the two datasets (a directory, or with `--old-rev REV` the OLD directory as
//! committed at a git revision, extracted with `git show` into a temporary directory that is
//! removed afterwards), rendering the four formats and the exit code: 0 when no policy is given
//! or the policy holds, 1 when a change breaks the policy, 2 on a usage or I/O error (a
//! dataset that cannot be read, a policy with a mistake, at its line and column).
//!
//! Formats: `human` (grouped by record type and faction; colour only on a terminal and
//! without `NO_COLOR`), `json` (schema `cogitator-diff/1`, documented in docs/diff.md, "Output formats"),
//! `markdown` (a PR comment: summary tables, the changes folded in `<details>`), `github`
//! (GitHub Actions annotations `::warning file=…,line=…::…` at the NEW value's source;
//! `::error` for a change that breaks the policy).

use super::plural;
use crate::dataset::{self, DatasetDir, LoadedDataset};
use crate::diff::dataset::{diff_datasets, DatasetDiff, Entry};
use crate::diff::policy::{Policy, Verdict};
use crate::diff::ChangeKind;
use anyhow::Context;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    Markdown,
    Github,
}

/// Arguments of `cogitator diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The old dataset directory (with --old-rev: its path in the repository at REV).
    pub old: PathBuf,
    /// The new dataset directory [default with --old-rev: OLD as it is now].
    pub new: Option<PathBuf>,
    /// Read OLD as committed at this git revision (`HEAD~1`, a branch, a tag).
    #[arg(long, value_name = "REV")]
    pub old_rev: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Gate policy (YAML, schemas/gate.schema.json): exit 1 when a change breaks it.
    /// `default` is the embedded schemas/gate-default.yaml.
    #[arg(long, value_name = "POLICY")]
    pub gate: Option<String>,
    /// Wahapedia's CSV export, for the policy's `crosscheck_agreement_below`.
    #[arg(long, value_name = "DIR")]
    pub wahapedia_csv: Option<PathBuf>,
    /// Prefix for the source files named in `github` annotations (the input root relative to
    /// the repository, e.g. `raw`).
    #[arg(long, value_name = "DIR")]
    pub source_root: Option<String>,
    /// List provenance-only and typography-only changes too (human, markdown).
    #[arg(long)]
    pub all: bool,
}

pub fn run(args: Args) -> anyhow::Result<i32> {
    let (policy, (old, new, old_name, new_name)) = match policy_and_datasets(&args) {
        Ok(x) => x,
        Err(e) => {
            errln!("error: {e}");
            return Ok(super::EXIT_USAGE);
        }
    };
    let panel = crate::validate::default_panel();
    let diff = diff_datasets(&old, &new, &panel);
    let agreement = match (
        &args.wahapedia_csv,
        policy.as_ref().is_some_and(needs_export),
    ) {
        (Some(dir), true) => {
            let export = crate::crosscheck::Exported::read_dir(dir)?;
            let r = crate::crosscheck::crosscheck(&export, &new.datasheets);
            Some(r.summary.agreement_pct_excluding_changes)
        }
        _ => None,
    };
    let verdict = policy.as_ref().map(|p| p.check(&diff, agreement));
    let (v, names) = (verdict.as_ref(), (old_name.as_str(), new_name.as_str()));
    match args.format {
        Format::Human => out!("{}", human(&diff, v, names, args.all, color())),
        Format::Json => outln_raw!("{}", json(&diff, v, names)?),
        Format::Markdown => out!("{}", markdown(&diff, v, args.all)),
        Format::Github => out!("{}", github(&diff, v, args.source_root.as_deref())),
    }
    Ok(match verdict {
        Some(v) if !v.passed => super::EXIT_FINDINGS,
        _ => super::EXIT_OK,
    })
}

fn color() -> bool {
    let on = std::env::var_os("NO_COLOR").is_none() && std::io::stdout().is_terminal();
    if on {
        super::allow_color(); // the terminal filter lets colour sequences (only) through
    }
    on
}

type Both = (LoadedDataset, LoadedDataset, String, String);

/// Whether the policy needs the crosscheck's agreement (and so `--wahapedia-csv`).
fn needs_export(p: &Policy) -> bool {
    p.fail_on.crosscheck_agreement_below.is_some()
}

/// The policy (`--gate`) and the two datasets; a usage error as its message.
fn policy_and_datasets(args: &Args) -> Result<(Option<Policy>, Both), String> {
    let policy = match args.gate.as_deref() {
        None => None,
        Some("default") => Some(Policy::parse(
            "schemas/gate-default.yaml",
            crate::diff::policy::DEFAULT_POLICY,
        )),
        Some(g) => {
            let text = std::fs::read_to_string(g).map_err(|e| format!("{g}: cannot read: {e}"))?;
            Some(Policy::parse(g, &text))
        }
    };
    let policy = policy.transpose().map_err(|e| e.to_string())?;
    if policy.as_ref().is_some_and(needs_export) && args.wahapedia_csv.is_none() {
        return Err(
            "the policy's crosscheck_agreement_below needs --wahapedia-csv DIR \
                    (Wahapedia's CSV export)"
                .into(),
        );
    }
    let both = read_both(args).map_err(|e| format!("{e:#}"))?;
    Ok((policy, both))
}

fn read_both(args: &Args) -> anyhow::Result<Both> {
    let read = |p: &Path| DatasetDir::read(p).map_err(anyhow::Error::from);
    let name = |p: &Path| p.display().to_string();
    let Some(rev) = &args.old_rev else {
        let Some(new) = &args.new else {
            anyhow::bail!("diff needs OLD and NEW (or --old-rev REV OLD)");
        };
        return Ok((read(&args.old)?, read(new)?, name(&args.old), name(new)));
    };
    let new = args.new.as_ref().unwrap_or(&args.old);
    // Created exclusively (mode 700, a fresh name), removed when dropped.
    let tmp = tempfile::Builder::new()
        .prefix("cogitator-diff-")
        .tempdir()
        .context("cannot create a temporary directory")?;
    git_extract(rev, &args.old, tmp.path())?;
    let old_name = format!("{rev}:{}", name(&args.old));
    Ok((read(tmp.path())?, read(new)?, old_name, name(new)))
}

/// Writes the dataset files of `dir` (`normalize::lint::DATASET_FILES`) as committed at `rev`
/// into `to` (`git show REV:./dir/f`).
fn git_extract(rev: &str, dir: &Path, to: &Path) -> anyhow::Result<()> {
    if rev.starts_with('-') {
        anyhow::bail!("--old-rev {rev:?} is not a revision");
    }
    let optional = [
        dataset::QUARANTINE,
        dataset::DIAGNOSTICS,
        dataset::MANIFEST,
        dataset::POINTS,
        dataset::ERRATA,
    ];
    for &(name, _, _) in crate::normalize::lint::DATASET_FILES {
        let spec = format!("{rev}:./{}/{name}", dir.display());
        let o = std::process::Command::new("git")
            .args(["show", &spec])
            .output()
            .context("running git")?;
        if !o.status.success() {
            if optional.contains(&name) {
                continue;
            }
            anyhow::bail!(
                "git show {spec}: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            );
        }
        crate::emit::write_atomic(to, name, &o.stdout)?;
    }
    Ok(())
}

/// `+2.10 expected damage per volley against elite-infantry`; for a weapon keyword the
/// simulator does not model, that (not a zero weight).
fn damage_note(e: &Entry) -> Option<String> {
    if !e.not_modelled.is_empty() {
        return Some(format!(
            "{} not modelled by the simulator (no expected damage)",
            crate::text::escape::display(&e.not_modelled.join(", "))
        ));
    }
    let d = e.headline_damage()?;
    Some(format!(
        "{:+.2} expected damage per volley against {}",
        d.delta, d.target
    ))
}

/// Changes grouped by record type, then faction, in the diff's order.
fn groups(diff: &DatasetDiff, all: bool) -> Vec<((&'static str, String), Vec<&Entry>)> {
    let shown: Vec<&Entry> = diff.changes.iter().filter(|e| all || e.meaning).collect();
    let same = |a: &&Entry, b: &&Entry| (a.record_type, &a.faction) == (b.record_type, &b.faction);
    let faction = |e: &Entry| e.faction.clone().unwrap_or_else(|| "-".into());
    (shown.chunk_by(same))
        .map(|run| ((run[0].record_type, faction(run[0])), run.to_vec()))
        .collect()
}

fn summary_line(diff: &DatasetDiff) -> String {
    let s = &diff.summary;
    format!(
        "{} ({} added, {} removed, {}; {} became null), {} provenance only, {} typography only, {}",
        plural(s.meaning, "change of meaning", "changes of meaning"),
        s.added,
        s.removed,
        plural(s.renamed, "renamed record", "renamed records"),
        s.became_null,
        s.provenance,
        s.typography,
        plural(
            s.new_errors,
            "new error diagnostic",
            "new error diagnostics"
        )
    )
}

/// The human format.
pub fn human(
    diff: &DatasetDiff,
    verdict: Option<&Verdict>,
    (old, new): (&str, &str),
    all: bool,
    color: bool,
) -> String {
    use std::fmt::Write;
    // Every piece that comes from the data is escaped on its own (`text::escape::display`): a
    // newline in a name must not start a line of the report.
    let esc = |s: &str| crate::text::escape::display(s).into_owned();
    let paint = |code: &str, s: &str| match color {
        true => format!("\x1b[{code}m{s}\x1b[0m"),
        false => s.to_string(),
    };
    let mut o = String::new();
    if diff.is_empty() {
        let _ = writeln!(o, "no changes between {old} and {new}");
    } else {
        let _ = writeln!(o, "{old} → {new}: {}", summary_line(diff));
        for ((t, faction), entries) in groups(diff, all) {
            let _ = writeln!(
                o,
                "\n{} ({})",
                paint("1", &format!("{t} · {}", esc(&faction))),
                entries.len()
            );
            let mut last_weapon = None;
            for e in entries {
                let colour = match (e.kind, e.became_null) {
                    (_, true) | (ChangeKind::Removed, _) => "31",
                    (ChangeKind::Added, _) => "32",
                    _ => "33",
                };
                let _ = write!(
                    o,
                    "  {}  [{}]",
                    paint(colour, &esc(&e.human)),
                    e.category.as_str()
                );
                let w = (e.record.as_str(), e.weapon());
                // A weapon's weight once, at its first weighed change.
                if last_weapon != Some(w) || !e.not_modelled.is_empty() {
                    if let Some(n) = damage_note(e) {
                        let _ = write!(o, "  {n}");
                    }
                }
                if e.weapon().is_some() && !e.damage.is_empty() {
                    last_weapon = Some(w);
                }
                let _ = writeln!(o);
            }
        }
        let hidden = diff.summary.provenance + diff.summary.typography;
        if !all && hidden > 0 {
            let what = plural(
                hidden,
                "provenance-only or typography-only change",
                "provenance-only and typography-only changes",
            );
            let _ = writeln!(o, "\n({what} not listed: --all)");
        }
        if !diff.new_errors.is_empty() {
            let _ = writeln!(o, "\nnew error diagnostics ({})", diff.new_errors.len());
            for d in &diff.new_errors {
                let file = d.file.as_deref().map(|f| format!("{}: ", esc(f)));
                let message = esc(&d.message);
                let _ = writeln!(o, "  {} {}{message}", d.code, file.unwrap_or_default());
            }
        }
    }
    if let Some(v) = verdict {
        let allowed = v.allowed.len();
        if v.passed {
            let _ = writeln!(o, "\ngate: passed ({allowed} accepted by the allowlist)");
        } else {
            let failed = paint("1;31", "gate: FAILED");
            let n = plural(v.violations.len(), "violation", "violations");
            let _ = writeln!(o, "\n{failed} ({n}, {allowed} accepted by the allowlist)");
            for x in &v.violations {
                let _ = writeln!(o, "  [{}] {}", x.rule, esc(&x.message));
            }
        }
    }
    o
}

/// The JSON format (`cogitator-diff/1`).
pub fn json(
    diff: &DatasetDiff,
    verdict: Option<&Verdict>,
    (old, new): (&str, &str),
) -> anyhow::Result<String> {
    let v = serde_json::json!({
        "schema": "cogitator-diff/1",
        "old": old,
        "new": new,
        "summary": diff.summary,
        "changes": diff.changes,
        "new_errors": diff.new_errors,
        "gate": verdict,
    });
    Ok(serde_json::to_string_pretty(&v)?)
}

fn md_escape(s: &str) -> String {
    crate::text::escape::display(s).replace('|', "\\|")
}

/// The markdown format: a PR comment.
pub fn markdown(diff: &DatasetDiff, verdict: Option<&Verdict>, all: bool) -> String {
    use std::fmt::Write;
    let s = &diff.summary;
    let mut o = String::from("### cogitator diff\n\n");
    if let Some(v) = verdict {
        let passed = if v.passed { "passed ✅" } else { "FAILED ❌" };
        let n = plural(v.violations.len(), "violation", "violations");
        let allowed = v.allowed.len();
        let _ = writeln!(
            o,
            "**Gate: {passed}** ({n}, {allowed} accepted by the allowlist)\n"
        );
        for x in &v.violations {
            let _ = writeln!(o, "- `{}`: {}", x.rule, md_escape(&x.message));
        }
        if !v.violations.is_empty() {
            o.push('\n');
        }
    }
    if diff.is_empty() {
        o.push_str("No changes.\n");
        return o;
    }
    let _ = writeln!(o, "{}\n", summary_line(diff));
    o.push_str("| category | changes |\n| --- | ---: |\n");
    for (c, n) in &s.by_category {
        let _ = writeln!(o, "| {c} | {n} |");
    }
    o.push_str("\n| record type | faction | changes of meaning |\n| --- | --- | ---: |\n");
    for (t, fs) in &s.by_record_type {
        for (f, n) in fs {
            let _ = writeln!(o, "| {t} | {} | {n} |", md_escape(f));
        }
    }
    // A folded list: `<details><summary>SUMMARY</summary>`, then `- ITEM` each.
    let details = |o: &mut String, summary: String, items: Vec<String>| {
        let _ = writeln!(o, "\n<details><summary>{summary}</summary>\n");
        for i in items {
            let _ = writeln!(o, "- {i}");
        }
        o.push_str("\n</details>\n");
    };
    for ((t, faction), entries) in groups(diff, all) {
        let summary = format!("{t} · {} ({})", md_escape(&faction), entries.len());
        let items = entries.iter().map(|e| {
            let note = damage_note(e).map(|n| format!(" — {n}"));
            let human = crate::text::escape::display(&e.human).replace('`', "'");
            format!(
                "`{human}` ({}){}",
                e.category.as_str(),
                note.unwrap_or_default()
            )
        });
        details(&mut o, summary, items.collect());
    }
    if !diff.new_errors.is_empty() {
        let summary = format!("new error diagnostics ({})", diff.new_errors.len());
        let items = diff
            .new_errors
            .iter()
            .map(|d| format!("{} {}", d.code, md_escape(&d.message)));
        details(&mut o, summary, items.collect());
    }
    o
}

/// `%`, CR and LF escaped as GitHub's workflow commands want; in properties `:` and `,` too.
fn gh_escape(s: &str, property: bool) -> String {
    let s = s
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A");
    match property {
        true => s.replace(':', "%3A").replace(',', "%2C"),
        false => s,
    }
}

/// The github format: one annotation per change of meaning and per new error diagnostic.
pub fn github(diff: &DatasetDiff, verdict: Option<&Verdict>, root: Option<&str>) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    // `::LEVEL file=…,line=…,title=…::MESSAGE`; the file under `root`.
    let mut annotate = |level: &str, at: Option<(&str, Option<u32>)>, title: &str, msg: &str| {
        let mut props = Vec::new();
        if let Some((file, line)) = at {
            let file = match root {
                Some(r) => format!("{}/{file}", r.trim_end_matches('/')),
                None => file.to_string(),
            };
            props.push(format!("file={}", gh_escape(&file, true)));
            props.extend(line.map(|l| format!("line={l}")));
        }
        props.push(format!("title={}", gh_escape(title, true)));
        let _ = writeln!(
            o,
            "::{level} {}::{}",
            props.join(","),
            gh_escape(msg, false)
        );
    };
    let mut failing: BTreeMap<usize, Vec<&str>> = BTreeMap::new();
    for x in verdict.iter().flat_map(|v| &v.violations) {
        match x.change {
            Some(i) => failing.entry(i).or_default().push(&x.rule),
            None => {
                let title = format!("cogitator gate ({})", x.rule);
                annotate("error", None, &title, &x.message);
            }
        }
    }
    for (i, e) in diff.changes.iter().enumerate().filter(|(_, e)| e.meaning) {
        let category = e.category.as_str();
        let (level, title) = match failing.get(&i) {
            Some(r) => (
                "error",
                format!("cogitator gate ({}): {category}", r.join(", ")),
            ),
            None => ("warning", format!("cogitator diff: {category}")),
        };
        let mut msg = e.human.clone();
        if let Some(a) = e.at.as_ref().and_then(|a| a.page) {
            msg.push_str(&format!(" (page {a})"));
        }
        if let Some(n) = damage_note(e) {
            msg.push_str(&format!("; {n}"));
        }
        let at =
            e.at.as_ref()
                .map(|a| (a.file.as_str(), Some(a.line.max(1))));
        annotate(level, at, &title, &msg);
    }
    for d in &diff.new_errors {
        let at = d.file.as_deref().map(|f| (f, d.line));
        annotate("warning", at, &format!("new {}", d.code), &d.message);
    }
    o
}
