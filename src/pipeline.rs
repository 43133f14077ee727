//! The pipeline in one place: sources → decode → extract → normalize → merge/dedup → dataset.
//!
//! Pure: takes the bytes `discover` read, returns the [`Dataset`] `emit` writes. Files are
//! processed in parallel (rayon, largest first) and the results re-sorted by path, so the
//! output is identical for any thread count. Owns the manifest (an input the decoder saw end
//! early, `S008`, is `partial`), handing every source's records to `reconcile::merge` (the
//! matching rules across sources, then `merge`: same id → one record with all sources, by its
//! policy tables), the merged datasheets to `errata` (the mechanical errata applied), then to
//! the reconciliation's report (`reconciliation.json`), the rules to `dedup` (beside the merge,
//! errata and report: `rayon::join`, neither side reading the other's records), and what the
//! merged records still lack (`X111`).
//!
//! Two seams feed records in: documents go through `decode` (the `DECODERS` registry) and
//! `extract`; structured files (content sniffed as CSV, XML or JSON) are kept aside, grouped by directory,
//! and handed to the first record source of `records::SOURCES` that claims the group. Both
//! kinds of [`Extracted`] then go through the same `normalize` and merge.

use crate::decode;
use crate::diag::{count_by_severity, sort_diagnostics, Code, Diagnostic};
use crate::extract::{self, Extracted};
use crate::model::*;
use crate::normalize;
use crate::source::{Format, Input};
use rayon::prelude::*;
use std::collections::BTreeMap;

/// One processed input: its manifest entry and what was extracted.
#[derive(Debug)]
pub struct Processed {
    pub entry: ManifestInput,
    pub extracted: Option<Extracted>,
    pub diagnostics: Vec<Diagnostic>,
    /// A structured file (format `csv`) kept for the record sources, with the `S007` it gets
    /// when no record source reads it.
    pub table: Option<(crate::source::SourceFile, Diagnostic)>,
}

/// Options of one ingest.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Called once per processed file (progress bars); must be cheap and thread-safe.
    pub on_file: Option<fn()>,
    /// Skip the final stage: running every weapon profile through the simulator against the
    /// reference targets (`validation/expected-damage.csv`, `V3xx` diagnostics).
    pub skip_validation: bool,
    /// Called with an input's path (a structured file's: with each file of its group) inside
    /// the per-input panic catch, just before that input's stages run: tracing, and the tests'
    /// way to make one input panic on purpose (it then gets `S018`).
    pub on_input: Option<fn(&str)>,
}

/// Runs every stage over `sources` (sorted by path) plus the read failures from `discover`.
pub fn run<I: Input>(sources: &[I], failed: &[(String, Diagnostic)], opts: &Options) -> Dataset {
    // Path order, whatever order the caller gives: the result must not depend on it.
    let mut sources: Vec<&I> = sources.iter().collect();
    sources.sort_by(|a, b| a.path().cmp(b.path()));
    let sources = &sources[..];
    // Byte-identical inputs: the first in path order is processed, the others listed.
    let mut first_by_hash: BTreeMap<&str, &str> = BTreeMap::new();
    let mut duplicate_of: Vec<Option<String>> = Vec::with_capacity(sources.len());
    for s in sources {
        // An input whose hash is not known yet has a size no other input has: unique.
        let Some(hash) = s.sha256() else {
            duplicate_of.push(None);
            continue;
        };
        match first_by_hash.get(hash) {
            Some(first) => duplicate_of.push(Some(first.to_string())),
            None => {
                first_by_hash.insert(hash, s.path());
                duplicate_of.push(None);
            }
        }
    }

    let mut order: Vec<usize> = (0..sources.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sources[i].len()));
    // Shared by the threads decoding; no output depends on it (see `decode::Shared`).
    let shared = decode::Shared::default();
    // Largest first, each file to whichever thread is free next (`par_bridge` pulls from the
    // one ordered iterator): the threads end together, whatever each file costs (a page whose
    // glossary the memo already has costs far less than its size says).
    let mut processed: Vec<(usize, Processed)> = order
        .iter()
        .par_bridge()
        .map(|&i| {
            let p = process(
                sources[i],
                duplicate_of[i].as_deref(),
                opts.on_input,
                &shared,
            );
            if let Some(f) = opts.on_file {
                f();
            }
            (i, p)
        })
        .collect();
    processed.sort_by_key(|(i, _)| *i);
    // Its entries are many small allocations: freed beside the rest of the run.
    rayon::spawn(move || drop(shared));
    read_record_groups(&mut processed, opts.on_input);

    let mut diagnostics: Vec<Diagnostic> = Vec::new();
    let mut inputs: Vec<ManifestInput> = Vec::new();
    let mut extracted: Vec<Extracted> = Vec::new();
    for (_, p) in processed {
        inputs.push(p.entry);
        diagnostics.extend(p.diagnostics);
        if let Some((_, skipped)) = p.table {
            diagnostics.push(skipped);
        }
        if let Some(e) = p.extracted {
            extracted.push(e);
        }
    }
    for (path, d) in failed {
        diagnostics.push(d.clone());
        // Not read: over the size limit or a path not followed is `skipped`; a read error is
        // `failed` (exit 1).
        let status = if d.severity == crate::diag::Severity::Error {
            InputStatus::Failed
        } else {
            InputStatus::Skipped
        };
        inputs.push(ManifestInput {
            file: path.clone(),
            sha256: String::new(),
            bytes: 0,
            format: Format::Unknown.as_str().to_string(),
            edition: None,
            status,
            duplicate_of: None,
            blocks: 0,
            chrome_dropped: 0,
            account: BlockAccount::default(),
            records: RecordCounts::default(),
        });
    }
    inputs.sort_by(|a, b| a.file.cmp(&b.file));
    // The record schemas' validators (compiled once per process) are built beside the merge,
    // ready for `normalize::finish`: by this thread, while another takes the merge, and
    // then its dedup half (the other way round, dedup waited for the validators).
    let ((), mut dataset) = rayon::join(normalize::prepare_validators, || {
        assemble(extracted, inputs, diagnostics)
    });
    // Schema validation of every record, unique weapon abilities, published schemas.
    normalize::finish(&mut dataset);
    if !opts.skip_validation {
        validate(&mut dataset);
    }
    dataset.manifest.stages.emitted_records = dataset.datasheets.len()
        + dataset.rules.len()
        + dataset.stratagems.len()
        + dataset.enhancements.len()
        + dataset.detachments.len();
    dataset
}

/// The last stage: every weapon profile against the reference panel. Adds the expected-damage
/// table to the dataset's files and the profiles the simulator cannot run to its diagnostics.
fn validate(ds: &mut Dataset) {
    let panel = crate::validate::default_panel();
    let (rows, diags) = crate::validate::validate_datasheets(&ds.datasheets, &panel);
    ds.extra_files.push((
        "validation/expected-damage.csv".to_string(),
        crate::validate::expected_damage_csv(&rows),
    ));
    ds.diagnostics.extend(diags);
    sort_diagnostics(&mut ds.diagnostics);
    let [info, warning, error] = count_by_severity(&ds.diagnostics);
    ds.manifest.diagnostics = DiagnosticCounts {
        info,
        warning,
        error,
    };
}

/// A manifest entry for `file` before any stage ran.
fn new_entry(file: &str, sha256: &str, bytes: u64, duplicate_of: Option<&str>) -> ManifestInput {
    ManifestInput {
        file: file.to_string(),
        sha256: sha256.to_string(),
        bytes,
        format: Format::Unknown.as_str().to_string(),
        edition: None,
        status: InputStatus::Ok,
        duplicate_of: duplicate_of.map(str::to_string),
        blocks: 0,
        chrome_dropped: 0,
        account: BlockAccount::default(),
        records: RecordCounts::default(),
    }
}

fn process<I: Input>(
    input: &I,
    duplicate_of: Option<&str>,
    on_input: Option<fn(&str)>,
    shared: &decode::Shared,
) -> Processed {
    let mut entry = new_entry(
        input.path(),
        input.sha256().unwrap_or_default(),
        input.len(),
        duplicate_of,
    );
    // Read now; dropped when this function returns.
    let src = match input.load() {
        Ok(s) => s,
        Err(d) => {
            // Over the size limit (a warning) is `skipped`; a read error is `failed`.
            entry.status = if d.severity == crate::diag::Severity::Error {
                InputStatus::Failed
            } else {
                InputStatus::Skipped
            };
            return Processed {
                entry,
                extracted: None,
                diagnostics: vec![d],
                table: None,
            };
        }
    };
    let src: &crate::source::SourceFile = &src;
    entry.sha256 = src.sha256.clone();
    entry.format = decode::detect_format(src).as_str().to_string();
    if let Some(first) = duplicate_of {
        entry.status = InputStatus::Duplicate;
        let d = Diagnostic::new(
            Code::DuplicateSource,
            format!("same bytes as {first}; processed once"),
        )
        .in_file(&src.path);
        // A table means something only with the tables beside it (two exports share most of
        // their bytes): it goes to its group all the same, and stays `duplicate` (with this
        // `S006`) only if no record source reads it there.
        if [Format::Csv, Format::Xml, Format::Json, Format::Yaml]
            .iter()
            .any(|f| entry.format == f.as_str())
        {
            return Processed {
                entry,
                extracted: None,
                diagnostics: Vec::new(),
                table: Some((src.clone(), d)),
            };
        }
        return Processed {
            entry,
            extracted: None,
            diagnostics: vec![d],
            table: None,
        };
    }
    // A panic in any stage of this input is this input's failure, not the run's.
    let run_stages = || {
        if let Some(f) = on_input {
            f(&src.path);
        }
        process_one_shared(src, shared)
    };
    match catch_panic(run_stages) {
        Ok(mut p) => {
            p.entry.bytes = entry.bytes;
            p
        }
        Err(message) => {
            entry.status = InputStatus::Failed;
            Processed {
                entry,
                extracted: None,
                diagnostics: vec![panicked(&src.path, &message)],
                table: None,
            }
        }
    }
}

/// Runs one loaded input through every per-input stage, as the pipeline does: format
/// detection, decode, game system, extract, normalize. A structured file (CSV, XML, zipped
/// BattleScribe data) comes back as its `table`, for [`read_group`]. Panics are not caught
/// here (the pipeline catches them per input; the fuzz targets call this to see them).
pub fn process_one(src: &crate::source::SourceFile) -> Processed {
    process_one_shared(src, &decode::Shared::default())
}

/// [`process_one`], with what the decoders of this run share.
pub fn process_one_shared(src: &crate::source::SourceFile, shared: &decode::Shared) -> Processed {
    let mut entry = new_entry(&src.path, &src.sha256, src.bytes.len() as u64, None);
    let decoded = decode::decode_shared(src, shared);
    let mut diagnostics = decoded.diagnostics;
    entry.format = decoded.format.as_str().to_string();
    let Some(doc) = decoded.document else {
        entry.status = InputStatus::Skipped;
        // Structured data: kept (read once) for the record sources; its `S007` is held back
        // until it is known that no source reads it.
        let table = match (decoded.format, diagnostics.pop()) {
            (Format::Csv | Format::Xml | Format::Json | Format::Yaml, Some(d))
                if d.code == Code::UnknownFormat.as_str() =>
            {
                Some((src.clone(), d))
            }
            // Zipped BattleScribe data: the BattleScribe record source unzips it.
            (Format::Media, Some(d))
                if d.code == Code::UnknownFormat.as_str()
                    && crate::records::bsdata::is_zipped(&src.path, &src.bytes) =>
            {
                Some((src.clone(), d))
            }
            (_, d) => {
                diagnostics.extend(d);
                None
            }
        };
        return Processed {
            entry,
            extracted: None,
            diagnostics,
            table,
        };
    };
    entry.blocks = doc.blocks.len();
    // Plain text is read only when it has a rules source's structure, Markdown when it has
    // that or names its game system: a LICENSE, a README, a config file, notes or code give no
    // records (`S021`).
    let system = extract::system::detect(&doc);
    let plain = match doc.format {
        Format::Text => true,
        Format::Markdown => system == extract::system::System::Unknown,
        _ => false,
    };
    if plain && !extract::system::has_rules_structure(&doc) {
        entry.status = InputStatus::Skipped;
        diagnostics.push(
            Diagnostic::new(
                Code::NotARulesSource,
                "no rules-source structure found (no weapon table, datasheet section, \
                 stratagem or rule glossary); skipped",
            )
            .in_file(&src.path),
        );
        return Processed {
            entry,
            extracted: None,
            diagnostics,
            table: None,
        };
    }
    if let extract::system::System::Unsupported(name) = system {
        entry.status = InputStatus::Skipped;
        entry.chrome_dropped = doc.chrome_dropped;
        diagnostics.push(
            Diagnostic::new(
                Code::UnsupportedSystem,
                format!("unsupported game system: {name}"),
            )
            .in_file(&src.path),
        );
        return Processed {
            entry,
            extracted: None,
            diagnostics,
            table: None,
        };
    }
    if system == extract::system::System::Unknown {
        diagnostics.push(
            Diagnostic::new(
                Code::UnknownSystem,
                "no game-system or edition markers found; read as 10th edition",
            )
            .in_file(&src.path),
        );
    }
    let mut ex = extract::extract(&doc);
    normalize::normalize(&mut ex);
    // The decoder saw the document end early (`S008`) or spent a work budget (`S020`): what
    // was read is kept, and the manifest says the input was read only in part.
    if read_in_part(&diagnostics) {
        entry.status = InputStatus::Partial;
    }
    // Claimed by content but of a kind no reader turns into records (a GW PDF of no known
    // kind, `S022`): `skipped`, as a record source's (`file_group`); a document cut short by a
    // budget stays `partial` (what was cut may have shown its kind).
    if ex.not_read && entry.status != InputStatus::Partial {
        entry.status = InputStatus::Skipped;
    }
    entry.edition = ex.edition;
    entry.chrome_dropped = doc.chrome_dropped + ex.account.chrome;
    entry.account = ex.account;
    entry.account.chrome += doc.chrome_dropped;
    entry.records = record_counts(&ex);
    diagnostics.append(&mut ex.diagnostics);
    Processed {
        entry,
        extracted: Some(ex),
        diagnostics,
        table: None,
    }
}

/// The record-source seam: structured files grouped by directory, each group read by the
/// first record source that claims it (groups in parallel, a panic caught per group). A file
/// the source read becomes `ok` with its records; the others keep `skipped` and their `S007`.
fn read_record_groups(processed: &mut [(usize, Processed)], on_input: Option<fn(&str)>) {
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (k, (_, p)) in processed.iter().enumerate() {
        if let Some((src, _)) = &p.table {
            groups
                .entry(crate::records::dir_of(&src.path))
                .or_default()
                .push(k);
        }
    }
    if groups.is_empty() {
        return;
    }
    let groups: Vec<(&str, Vec<usize>)> = groups.into_iter().collect();
    let results: Vec<Result<Vec<Extracted>, String>> = {
        let view: &[(usize, Processed)] = processed;
        groups
            .par_iter()
            .map(|(dir, members)| {
                let files: Vec<&crate::source::SourceFile> = members
                    .iter()
                    .filter_map(|&k| view[k].1.table.as_ref().map(|(s, _)| s))
                    .collect();
                catch_panic(|| {
                    if let Some(f) = on_input {
                        files.iter().for_each(|s| f(&s.path));
                    }
                    read_group(dir, &files)
                })
            })
            .collect()
    };
    let members: Vec<Vec<usize>> = groups.into_iter().map(|(_, m)| m).collect();
    for (read, members) in results.into_iter().zip(members) {
        match read {
            Ok(read) => file_group(processed, &members, read),
            Err(message) => {
                // One panic fails every file of the group: they were read together.
                for k in members {
                    let p = &mut processed[k].1;
                    p.table = None;
                    p.entry.status = InputStatus::Failed;
                    p.diagnostics.push(panicked(&p.entry.file, &message));
                }
            }
        }
    }
}

/// The records a group gave, each `Extracted` to the file it came from.
fn file_group(processed: &mut [(usize, Processed)], members: &[usize], read: Vec<Extracted>) {
    let by_path: BTreeMap<String, usize> = members
        .iter()
        .map(|&k| (processed[k].1.entry.file.clone(), k))
        .collect();
    for mut ex in read {
        let Some(&k) = by_path.get(&ex.file) else {
            continue;
        };
        let p = &mut processed[k].1;
        p.table = None;
        p.entry.status = if ex.not_read {
            InputStatus::Skipped
        } else if read_in_part(&ex.diagnostics) {
            InputStatus::Partial
        } else {
            InputStatus::Ok
        };
        p.entry.edition = ex.edition;
        p.entry.records = record_counts(&ex);
        p.diagnostics.append(&mut ex.diagnostics);
        p.extracted = Some(ex);
    }
}

/// Whether an input was read only in part: the document ended early (`S008`), a work budget
/// was spent (`S020`), or a BattleScribe file's XML or JSON broke off (`B001`, `B008`: the rest
/// is not read).
fn read_in_part(diagnostics: &[Diagnostic]) -> bool {
    let codes = [
        Code::TruncatedInput,
        Code::BudgetExceeded,
        Code::XmlMalformed,
        Code::JsonMalformed,
    ];
    diagnostics
        .iter()
        .any(|d| codes.iter().any(|c| d.code == c.as_str()))
}

/// Reads the structured files of one folder (`dir`, files sorted by path) through the record
/// source that claims them, as the pipeline does: one normalized `Extracted` per file read
/// (none when no source claims the group). Panics are not caught here (the pipeline catches
/// them per group; the fuzz targets call this to see them).
pub fn read_group(dir: &str, files: &[&crate::source::SourceFile]) -> Vec<Extracted> {
    let group = crate::records::Group { dir, files };
    let Some(source) = crate::records::source_for(&group) else {
        return Vec::new();
    };
    let dates = crate::records::dates::of_group(&group);
    let mut read = (source.read)(&group);
    for ex in read.iter_mut() {
        ex.record_source = Some(source.name);
        if ex.dated.is_none() {
            ex.dated = dates.get(&ex.file).cloned();
        }
        normalize::normalize(ex);
    }
    read
}

/// `S018` for `file`: processing it panicked with `message`.
fn panicked(file: &str, message: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InputPanicked,
        format!("internal error while processing this input ({message}); it was skipped"),
    )
    .in_file(file)
}

thread_local! {
    /// Whether this thread is inside [`catch_panic`] (its panics are reported, not printed).
    static CATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Where the last caught panic on this thread happened (`src/extract/ten.rs:63`).
    static CAUGHT_AT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f`, turning a panic into its message (with where it happened). The panic hook is
/// chained once: a panic inside a catch is recorded, not printed; any other goes to the
/// previous hook as before.
fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CATCHING.with(|c| c.get()) {
                let at = info.location().map(|l| {
                    // A dependency's path is absolute: keep its last two components.
                    let parts: Vec<&str> = l.file().rsplit(['/', '\\']).take(2).collect();
                    let file = if l.file().starts_with(['/', '\\']) {
                        format!("{}/{}", parts.get(1).unwrap_or(&""), parts[0])
                    } else {
                        l.file().replace('\\', "/")
                    };
                    format!("{file}:{}", l.line())
                });
                CAUGHT_AT.with(|c| *c.borrow_mut() = at);
            } else {
                previous(info);
            }
        }));
    });
    // A place left by a panic another thread's catch received (a stolen rayon job) is stale.
    CAUGHT_AT.with(|c| c.borrow_mut().take());
    let outer = CATCHING.with(|c| c.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(outer));
    result.map_err(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic with a non-text payload".to_string());
        // The message may quote the input: one line, bounded.
        let mut what: String = what.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some((cut, _)) = what.char_indices().nth(200) {
            what.truncate(cut);
            what.push('…');
        }
        match CAUGHT_AT.with(|c| c.borrow_mut().take()) {
            Some(at) => format!("{what} at {at}"),
            None => what,
        }
    })
}

/// Merges per-document records into one dataset.
fn assemble(
    mut extracted: Vec<Extracted>,
    inputs: Vec<ManifestInput>,
    mut diagnostics: Vec<Diagnostic>,
) -> Dataset {
    let extracted_records: usize = extracted
        .iter()
        .map(|e| {
            e.datasheets.len()
                + e.rules.len()
                + e.stratagems.len()
                + e.enhancements.len()
                + e.detachments.len()
                + e.points.len()
                + e.errata.len()
        })
        .sum();
    let points = points_by_id(&mut extracted);

    // Records with the same id from several sources: one record, by `merge`'s policy tables,
    // after the matching rules across sources (`reconcile`), which also give the report.
    let formats: BTreeMap<String, String> = inputs
        .iter()
        .map(|i| (i.file.clone(), i.format.clone()))
        .collect();
    // The rules go to dedup, which runs beside the merge and the errata (neither reads a
    // rule); its diagnostics join the others after, and every list is sorted at the end.
    let rules: Vec<Rule> = extracted
        .iter_mut()
        .flat_map(|e| std::mem::take(&mut e.rules))
        .collect();
    let rule_occurrences = rules.len();
    let mut dedup_diagnostics = Vec::new();
    let ((merged, reconciliation, errata, quarantine), (rules, clusters)) = rayon::join(
        || {
            let (mut merged, prepared) = crate::reconcile::merge(&mut extracted, &formats, &points);
            // After the merge: the mechanical errata change the merged datasheets and are
            // marked (`applied_to`); then the reconciliation reports on the datasheets as
            // emitted.
            crate::errata::apply(
                &mut merged.datasheets,
                &mut extracted,
                &mut merged.diagnostics,
            );
            let reconciliation = prepared.report(&mut merged.datasheets);
            let mut errata: Vec<crate::model::Erratum> = extracted
                .iter_mut()
                .flat_map(|e| std::mem::take(&mut e.errata))
                .collect();
            distinct_errata_ids(&mut errata);
            let quarantine: Vec<serde_json::Value> = extracted
                .iter_mut()
                .flat_map(|e| std::mem::take(&mut e.quarantine))
                .collect();
            (merged, reconciliation, errata, quarantine)
        },
        || crate::dedup::merge_rules_with_report(rules, &mut dedup_diagnostics),
    );
    diagnostics.append(&mut dedup_diagnostics);
    let crate::reconcile::merge::Merged {
        mut datasheets,
        stratagems,
        enhancements,
        mut detachments,
        diagnostics: conflicts,
    } = merged;
    // References to rules follow the ids dedup gave them (no dangling `rule_id`).
    let abilities = datasheets.iter_mut().flat_map(|d| d.abilities.iter_mut());
    for id in abilities.filter_map(|a| a.rule_id.as_mut()) {
        crate::dedup::resolve(&clusters.renamed, id);
    }
    for id in detachments.iter_mut().flat_map(|d| d.rules.iter_mut()) {
        crate::dedup::resolve(&clusters.renamed, id);
    }
    diagnostics.extend(conflicts);

    report_missing_text(&stratagems, &enhancements, &mut diagnostics);

    sort_diagnostics(&mut diagnostics);
    let [info, warning, error] = count_by_severity(&diagnostics);
    let totals = RecordCounts {
        datasheets: datasheets.len(),
        weapons: datasheets.iter().map(|d| d.weapons.len()).sum(),
        rules: rules.len(),
        stratagems: stratagems.len(),
        enhancements: enhancements.len(),
        detachments: detachments.len(),
        points: points.len(),
        errata: errata.len(),
    };
    let stages = StageCounts {
        discovered: inputs.len(),
        decoded: inputs
            .iter()
            .filter(|i| matches!(i.status, InputStatus::Ok | InputStatus::Partial))
            .count(),
        blocks: inputs.iter().map(|i| i.blocks).sum(),
        extracted_records,
        emitted_records: totals.datasheets
            + totals.rules
            + totals.stratagems
            + totals.enhancements
            + totals.detachments
            + totals.points
            + totals.errata,
    };
    let manifest = Manifest {
        tool: "cogitator".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
        contract_version: CONTRACT_VERSION,
        inputs,
        totals,
        rule_occurrences,
        stages,
        diagnostics: DiagnosticCounts {
            info,
            warning,
            error,
        },
        files: Vec::new(),
    };
    Dataset {
        datasheets,
        rules,
        stratagems,
        enhancements,
        detachments,
        points,
        errata,
        diagnostics,
        quarantine,
        manifest,
        extra_files: std::iter::once((
            "rule-clusters.json".to_string(),
            crate::emit::to_json(&clusters),
        ))
        .chain(
            reconciliation.map(|r| ("reconciliation.json".to_string(), crate::emit::to_json(&r))),
        )
        .collect(),
    }
}

/// One `X111` per merged record that still lacks the text its kind requires once every source
/// has been read (a record's text may be printed in another file than its header, so this is
/// decided here, not by the extractor): a stratagem without WHEN, TARGET or EFFECT, an
/// enhancement without text. Located at the record's first source. A stratagem an older page
/// prints without labels (its whole text kept as the effect, `X109` at that card) is not
/// reported again for its missing WHEN/TARGET.
fn report_missing_text(
    stratagems: &[Stratagem],
    enhancements: &[Enhancement],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let unlabeled: std::collections::BTreeSet<(&str, u32)> = diagnostics
        .iter()
        .filter(|d| d.code == Code::StratagemIncomplete.as_str())
        .filter_map(|d| Some((d.file.as_deref()?, d.line?)))
        .collect();
    let mut out = Vec::new();
    for s in stratagems {
        let missing: Vec<&str> = [
            ("WHEN", s.when.is_none()),
            ("TARGET", s.target.is_none()),
            ("EFFECT", s.effect.is_none()),
        ]
        .into_iter()
        .filter_map(|(part, absent)| absent.then_some(part))
        .collect();
        if missing.is_empty() {
            continue;
        }
        let explained = s.effect.is_some()
            && s.sources
                .iter()
                .any(|p| unlabeled.contains(&(p.file.as_str(), p.line)));
        if explained {
            continue;
        }
        let d = Diagnostic::new(
            Code::RequiredTextMissing,
            format!(
                "stratagem '{}' ({}) has no {} text in any source",
                s.name,
                s.id,
                missing.join("/")
            ),
        );
        out.push(located(d, &s.sources));
    }
    for e in enhancements.iter().filter(|e| e.text.trim().is_empty()) {
        let d = Diagnostic::new(
            Code::RequiredTextMissing,
            format!(
                "enhancement '{}' ({}) has no text in any source",
                e.name.as_deref().unwrap_or("(unnamed)"),
                e.id
            ),
        );
        out.push(located(d, &e.sources));
    }
    diagnostics.extend(out);
}

/// `d` at the first of `sources` (sorted), or file-less when there is none.
fn located(d: Diagnostic, sources: &[crate::source::Provenance]) -> Diagnostic {
    match sources.first() {
        Some(p) => d.at(&p.file, p.line),
        None => d,
    }
}

/// Sorts the errata by id and makes the ids unique: two errata documents that print the same
/// title and version (one per faction) number their entries alike, so each entry of such an id
/// becomes `<id>~<8 hex digits of its document's sha256>` (`ids::variant`): unchanged when the
/// inputs are renamed or reordered, and an id alone in the run keeps its plain form.
fn distinct_errata_ids(errata: &mut [crate::model::Erratum]) {
    errata.sort_by(|a, b| a.id.cmp(&b.id));
    let ids: Vec<String> = errata.iter().map(|e| e.id.clone()).collect();
    for (i, e) in errata.iter_mut().enumerate() {
        let shared = (i > 0 && ids[i - 1] == ids[i]) || ids.get(i + 1) == Some(&ids[i]);
        if let (true, Some(source)) = (shared, e.sources.first()) {
            e.id = crate::ids::variant(&e.id, &source.sha256);
        }
    }
    errata.sort_by(|a, b| a.id.cmp(&b.id));
}

/// The points records of every reading (`points.json`), sorted by id: one per id, the first
/// reading's in path order, the sources of the others added. (Which publication's points a
/// datasheet takes is the merge's, issue 26.)
fn points_by_id(extracted: &mut [Extracted]) -> Vec<crate::model::Points> {
    let mut points: Vec<crate::model::Points> = extracted
        .iter_mut()
        .flat_map(|e| std::mem::take(&mut e.points))
        .collect();
    points.sort_by(|a, b| a.id.cmp(&b.id));
    points.dedup_by(|later, first| {
        let same = later.id == first.id;
        if same {
            first.sources.append(&mut later.sources);
        }
        same
    });
    for p in &mut points {
        p.sources.sort();
        p.sources.dedup();
    }
    points
}

/// What one input gave, for its manifest entry.
fn record_counts(ex: &Extracted) -> RecordCounts {
    RecordCounts {
        datasheets: ex.datasheets.len(),
        weapons: ex.datasheets.iter().map(|d| d.weapons.len()).sum(),
        rules: ex.rules.len(),
        stratagems: ex.stratagems.len(),
        enhancements: ex.enhancements.len(),
        detachments: ex.detachments.len(),
        points: ex.points.len(),
        errata: ex.errata.len(),
    }
}
