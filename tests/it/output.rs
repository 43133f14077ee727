//! The output directory never destroys a user's files (issue 13): one regression test per bug,
//! named after what broke. They run the real binary in temporary directories.

use crate::util;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SEED: &str = "000_7d74a1f54db65dd5.txt";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn cogitator(args: &[&Path], cwd: Option<&Path>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cogitator"));
    cmd.args(args);
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let out = cmd.output().expect("run cogitator");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `cogitator ingest INPUT --out OUT --no-validate [extra]`.
fn ingest(input: &Path, out: &Path, extra: &[&str]) -> Run {
    let mut args: Vec<&Path> = vec![
        Path::new("ingest"),
        input,
        Path::new("--out"),
        out,
        Path::new("--no-validate"),
    ];
    args.extend(extra.iter().map(Path::new));
    cogitator(&args, None)
}

fn seed() -> PathBuf {
    util::raw().join(SEED)
}

/// Every file under `dir` (relative path → bytes); `None` when `dir` does not exist.
fn tree(dir: &Path) -> Option<BTreeMap<String, Vec<u8>>> {
    if !dir.is_dir() {
        return None;
    }
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("prefix").display().to_string();
                out.insert(rel, std::fs::read(&p).expect("read"));
            }
        }
    }
    Some(out)
}

/// Names beside `out` that look like leftovers of a run into it.
fn leftovers(out: &Path) -> Vec<String> {
    let name = out
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let parent = out.parent().expect("parent");
    let mut v: Vec<String> = std::fs::read_dir(parent)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&format!(".{name}.")))
        .collect();
    v.sort();
    v
}

/// A directory of the user's own: files at two levels.
fn user_dir(dir: &Path) {
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    std::fs::write(dir.join("thesis.txt"), "three years of work").expect("write");
    std::fs::write(dir.join("sub/notes.md"), "# notes").expect("write");
}

fn assert_user_dir_intact(dir: &Path) {
    assert_eq!(
        std::fs::read_to_string(dir.join("thesis.txt"))
            .ok()
            .as_deref(),
        Some("three years of work")
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("sub/notes.md"))
            .ok()
            .as_deref(),
        Some("# notes")
    );
}

#[test]
fn out_on_a_user_directory_is_refused_and_nothing_deleted() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let docs = tmp.path().join("docs");
    user_dir(&docs);
    let r = ingest(&util::raw(), &docs, &[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert_user_dir_intact(&docs);
    assert!(
        r.stderr.contains(&docs.display().to_string()),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("--force"), "{}", r.stderr);
    assert!(
        r.stdout.is_empty(),
        "refused before ingesting: {}",
        r.stdout
    );
    assert!(leftovers(&docs).is_empty(), "{:?}", leftovers(&docs));
}

#[test]
fn force_replaces_a_foreign_directory() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let docs = tmp.path().join("docs");
    user_dir(&docs);
    let r = ingest(&seed(), &docs, &["--force"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(!docs.join("thesis.txt").exists());
    assert!(docs.join("manifest.json").is_file());
    assert!(cogitator::emit::is_cogitator_output(&docs));
    assert!(leftovers(&docs).is_empty(), "{:?}", leftovers(&docs));
}

#[test]
fn previous_output_is_replaced() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // An output with the marker: replaced as a whole. (One with a file cogitator did not
    // write is refused: `trust_output::previous_output_with_added_files_is_refused_naming_them`.)
    let out = tmp.path().join("out");
    assert_eq!(ingest(&seed(), &out, &[]).code, 0);
    assert!(out.join(".cogitator-output").is_file());
    let r = ingest(&util::raw(), &out, &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let reference = tmp.path().join("reference");
    assert_eq!(ingest(&util::raw(), &reference, &[]).code, 0);
    assert_eq!(tree(&out), tree(&reference));
    assert!(leftovers(&out).is_empty(), "{:?}", leftovers(&out));

    // An output of a version before the marker: only manifest.json says "tool": "cogitator".
    let older = tmp.path().join("older");
    assert_eq!(ingest(&seed(), &older, &[]).code, 0);
    std::fs::remove_file(older.join(".cogitator-output")).expect("rm marker");
    assert!(cogitator::emit::is_cogitator_output(&older));
    let r = ingest(&util::raw(), &older, &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(tree(&older), tree(&reference));

    // An empty directory is fine too.
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).expect("mkdir");
    assert_eq!(ingest(&seed(), &empty, &[]).code, 0);
    assert!(empty.join("manifest.json").is_file());
}

#[test]
fn out_inside_an_input_tree_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).expect("mkdir");
    std::fs::copy(seed(), input.join(SEED)).expect("copy");
    let before = tree(&input);

    // Inside the input tree: a second run would read the first one's output.
    let inside = input.join("out");
    let r = ingest(&input, &inside, &[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("inside the input"), "{}", r.stderr);
    assert!(!inside.exists());
    // Deeper, not existing yet.
    let r = ingest(&input, &input.join("a/b/out"), &[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(!input.join("a").exists());
    // The input itself (`ingest in --out in` deleted the inputs).
    let r = ingest(&input, &input, &[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    // A directory containing an input file.
    let r = ingest(&input.join(SEED), &input, &[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("contains the input"), "{}", r.stderr);
    // Through a relative spelling of the same path.
    let r = cogitator(
        &[
            Path::new("ingest"),
            Path::new("in"),
            Path::new("--out"),
            Path::new("./in/../in/x"),
        ],
        Some(tmp.path()),
    );
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert_eq!(tree(&input), before, "the inputs are untouched");
}

#[test]
fn out_on_a_regular_file_is_refused_and_the_file_stays() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("report.txt");
    std::fs::write(&file, "keep me").expect("write");
    let r = ingest(&seed(), &file, &[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(&file.display().to_string()),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&file).ok().as_deref(),
        Some("keep me")
    );
    let names: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names.len(), 1, "nothing renamed or created: {names:?}");
}

#[test]
fn out_dot_is_refused() {
    let tmp = tempfile::tempdir().expect("tempdir");
    user_dir(tmp.path());
    for out in [".", "./", "..", "sub/.."] {
        let r = cogitator(
            &[
                Path::new("ingest"),
                &seed(),
                Path::new("--out"),
                Path::new(out),
                Path::new("--force"),
            ],
            Some(&tmp.path().join(if out == ".." { "sub" } else { "." })),
        );
        assert_eq!(r.code, 2, "--out {out}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains("--out"), "{}", r.stderr);
        assert_user_dir_intact(tmp.path());
    }
}

#[test]
fn unwritable_out_fails_before_ingest_naming_the_path() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // A parent that is a regular file: no directory can be created there, even as root.
    let blocker = tmp.path().join("blocker");
    std::fs::write(&blocker, "x").expect("write");
    let out = blocker.join("out");
    let t = Instant::now();
    let r = ingest(&util::raw(), &out, &[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(&out.display().to_string()),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout.is_empty(),
        "no summary: nothing ingested: {}",
        r.stdout
    );
    assert!(t.elapsed() < Duration::from_secs(10));

    // A read-only parent (only meaningful when not running as root).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = tmp.path().join("ro");
        std::fs::create_dir(&ro).expect("mkdir");
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).expect("chmod");
        let probe = std::fs::write(ro.join("probe"), "");
        if probe.is_err() {
            let out = ro.join("out");
            let r = ingest(&util::raw(), &out, &[]);
            assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
            assert!(r.stderr.contains(&ro.display().to_string()), "{}", r.stderr);
            assert!(r.stdout.is_empty(), "{}", r.stdout);
        } else {
            eprintln!("read-only directory case skipped: running as root");
        }
        let _ = std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755));
    }
}

#[test]
fn symlinked_out_is_written_through() {
    #[cfg(unix)]
    {
        let tmp = tempfile::tempdir().expect("tempdir");
        let real = tmp.path().join("real");
        let link = tmp.path().join("link");
        std::fs::create_dir(&real).expect("mkdir");
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        assert_eq!(ingest(&seed(), &link, &[]).code, 0);
        assert_eq!(ingest(&util::raw(), &link, &[]).code, 0);
        assert!(std::fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink());
        assert!(real.join("manifest.json").is_file());
        // A link to a user's directory is refused like the directory.
        let docs = tmp.path().join("docs");
        user_dir(&docs);
        let to_docs = tmp.path().join("to-docs");
        std::os::unix::fs::symlink(&docs, &to_docs).expect("symlink");
        assert_eq!(ingest(&seed(), &to_docs, &[]).code, 2);
        assert_user_dir_intact(&docs);
    }
}

#[test]
fn leftovers_of_an_interrupted_run_are_recovered() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    assert_eq!(ingest(&seed(), &out, &[]).code, 0);
    let old = tree(&out);
    // Killed between moving the old tree aside and the new one in (the fallback swap), with a
    // half-written staging dir, and a stranger's directory that happens to match the pattern.
    // The pids are above any pid_max, so no such process runs.
    std::fs::rename(&out, tmp.path().join(".out.old-99999999")).expect("rename");
    let partial = tmp.path().join(".out.tmp-99999998");
    std::fs::create_dir(&partial).expect("mkdir");
    std::fs::write(partial.join(".cogitator-output"), "cogitator output\n").expect("write");
    std::fs::write(partial.join("rules.json"), "[").expect("write");
    let foreign = tmp.path().join(".out.tmp-99999997");
    user_dir(&foreign);

    let target = cogitator::emit::prepare(&out, &[], false).expect("prepare");
    let notes: Vec<String> = target.notes.iter().map(|d| d.to_string()).collect();
    assert!(notes.iter().all(|n| n.contains("[S011]")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("restored")), "{notes:?}");
    assert!(
        notes.iter().any(|n| n.contains("removed leftover")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n.contains("in place")), "{notes:?}");
    target.abandon();
    assert_eq!(tree(&out), old, "the previous dataset is back");
    assert!(!partial.exists());
    assert_user_dir_intact(&foreign);

    // The next normal run: S011 on stderr for the stranger's directory, which stays.
    let r = ingest(&util::raw(), &out, &[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("S011"), "{}", r.stderr);
    assert_eq!(leftovers(&out), vec![".out.tmp-99999997".to_string()]);
    assert_user_dir_intact(&foreign);
}

/// Spawns an ingest of `raw/` into `out` that sleeps `delay_ms` between emit steps.
fn spawn_slow(out: &Path, delay_ms: u64, no_exchange: bool) -> std::process::Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_cogitator"));
    cmd.arg("ingest")
        .arg(util::raw())
        .arg("--out")
        .arg(out)
        .arg("--no-validate")
        .env("COGITATOR_TEST_EMIT_DELAY_MS", delay_ms.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if no_exchange {
        cmd.env("COGITATOR_TEST_NO_EXCHANGE", "1");
    }
    cmd.spawn().expect("spawn cogitator")
}

/// Kills a slow ingest at `kills` staggered moments across its run and calls `check` with the
/// index of the kill (true: the new dataset is in place). When it is, a normal run of the old
/// input puts the old one back; otherwise the leftovers stay for the next killed run to clean
/// up. At the end a normal run must leave no leftovers.
fn kill_at_staggered_moments(
    no_exchange: bool,
    kills: u32,
    check: impl Fn(u32, &Path, &BTreeMap<String, Vec<u8>>, &BTreeMap<String, Vec<u8>>) -> bool,
) {
    const DELAY_MS: u64 = 4;
    let tmp = tempfile::tempdir().expect("tempdir");
    let old_ref = tmp.path().join("old-ref");
    let new_ref = tmp.path().join("new-ref");
    assert_eq!(ingest(&seed(), &old_ref, &[]).code, 0);
    assert_eq!(ingest(&util::raw(), &new_ref, &[]).code, 0);
    let (old, new) = (tree(&old_ref).expect("old"), tree(&new_ref).expect("new"));
    assert_ne!(old, new);
    let out = tmp.path().join("out");
    let reset = || {
        let r = ingest(&seed(), &out, &[]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        assert_eq!(tree(&out).as_ref(), Some(&old));
        assert!(leftovers(&out).is_empty(), "{:?}", leftovers(&out));
    };
    reset();
    let t = Instant::now();
    let status = spawn_slow(&out, DELAY_MS, no_exchange)
        .wait()
        .expect("wait");
    assert!(status.success());
    let full = t.elapsed();
    assert_eq!(tree(&out).as_ref(), Some(&new));
    reset();
    let (mut saw_old, mut saw_new) = (0, 0);
    for i in 0..kills {
        // From the start to a little past the end of an unkilled run; the last one well past it
        // (a loaded machine slows runs down), so some kills find the new dataset.
        let at = if i + 1 == kills {
            full * 3
        } else {
            full.mul_f64(1.25 * f64::from(i) / f64::from(kills - 2))
        };
        let mut child = spawn_slow(&out, DELAY_MS, no_exchange);
        std::thread::sleep(at);
        let _ = child.kill();
        let _ = child.wait();
        if check(i, &out, &old, &new) {
            saw_new += 1;
            reset();
        } else {
            saw_old += 1;
        }
    }
    reset();
    eprintln!("{kills} kills: {saw_old} found the old dataset, {saw_new} the new ({full:?} a run)");
    assert!(
        saw_old > 0 && saw_new > 0,
        "kills should land on both sides of the swap: {saw_old} old, {saw_new} new ({full:?} a run)"
    );
}

#[test]
fn killed_ingest_leaves_old_or_new_output() {
    kill_at_staggered_moments(false, 50, |i, out, old, new| {
        let now = tree(out);
        assert!(
            now.as_ref() == Some(old) || now.as_ref() == Some(new),
            "kill {i}: {} is neither the complete old nor the complete new dataset: {:?}",
            out.display(),
            now.map(|t| t.keys().cloned().collect::<Vec<_>>())
        );
        now.as_ref() == Some(new)
    });
}

#[test]
fn killed_ingest_without_exchange_is_recovered_by_the_next_run() {
    // The fallback swap (rename aside, rename in) can leave DIR missing; the next run restores.
    kill_at_staggered_moments(true, 12, |i, out, old, new| {
        let mut now = tree(out);
        if now.is_none() {
            let target = cogitator::emit::prepare(out, &[], false).expect("prepare");
            target.abandon();
            now = tree(out);
        }
        assert!(
            now.as_ref() == Some(old) || now.as_ref() == Some(new),
            "kill {i}: {} is neither old nor new after recovery",
            out.display()
        );
        now.as_ref() == Some(new)
    });
}

#[test]
fn crosscheck_without_dataset_dir_writes_nothing_into_output() {
    let Some(corpus) = util::corpus() else {
        return;
    };
    let csv = corpus.join("wahapedia-csv/2025-11-14");
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("output");
    assert_eq!(ingest(&seed(), &out, &[]).code, 0);
    let before = tree(&out);
    let r = cogitator(
        &[Path::new("crosscheck"), Path::new("--wahapedia-csv"), &csv],
        Some(tmp.path()),
    );
    assert!(r.code == 0 || r.code == 1, "{}{}", r.stdout, r.stderr);
    assert_eq!(tree(&out), before, "output/ untouched");
    assert!(
        r.stdout.contains("--report"),
        "says how to get the report: {}",
        r.stdout
    );

    // --report FILE writes there; a file that is not a report is not overwritten.
    let report = tmp.path().join("report.json");
    let args = |rep: &Path| -> Run {
        cogitator(
            &[
                Path::new("crosscheck"),
                Path::new("--wahapedia-csv"),
                &csv,
                Path::new("--report"),
                rep,
            ],
            Some(tmp.path()),
        )
    };
    let r = args(&report);
    assert!(r.code == 0 || r.code == 1, "{}{}", r.stdout, r.stderr);
    assert!(report.is_file());
    let r = args(&report);
    assert!(
        r.code == 0 || r.code == 1,
        "a previous report is replaced: {}",
        r.stderr
    );
    let mine = tmp.path().join("mine.json");
    std::fs::write(&mine, "{\"my\": \"data\"}").expect("write");
    let r = args(&mine);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains(&mine.display().to_string()),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&mine).ok().as_deref(),
        Some("{\"my\": \"data\"}")
    );
    assert_eq!(tree(&out), before, "output/ untouched");
}

#[test]
fn ingest_summary_pluralizes_and_lists_skipped_inputs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let one = ingest(&seed(), &tmp.path().join("one"), &[]);
    assert!(
        one.stdout.contains("inputs       1 file ("),
        "{}",
        one.stdout
    );
    assert!(one.stdout.contains("0 errors,"), "{}", one.stdout);

    let input = tmp.path().join("in");
    std::fs::create_dir(&input).expect("mkdir");
    std::fs::copy(seed(), input.join(SEED)).expect("copy");
    std::fs::write(input.join("a-blob.cat"), [0u8, 1, 2, 255, 0, 7]).expect("write");
    std::fs::write(input.join("b.pdf"), "%PDF-1.7\n").expect("write");
    // 22 binary files in one folder share a line; 25 folders with one file each get a line
    // each, capped at 20 lines.
    std::fs::create_dir(input.join("blobs")).expect("mkdir");
    for i in 0..22u8 {
        std::fs::write(
            input.join(format!("blobs/blob-{i:02}.bin")),
            [0u8, i, 255, 0],
        )
        .expect("write");
    }
    let r = ingest(&input, &tmp.path().join("out"), &[]);
    assert!(r.stdout.contains("inputs       25 files ("), "{}", r.stdout);
    let skipped: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("  skipped "))
        .collect();
    assert_eq!(
        skipped,
        [
            "  skipped      a-blob.cat (binary): S003 binary content (NUL bytes or control characters), skipped",
            "  skipped      b.pdf (pdf): S015 not a readable PDF (failed parsing cross reference table)",
            "  skipped      blobs/ (22 binary files): S003 binary content (NUL bytes or control characters), skipped",
        ],
        "{}",
        r.stdout
    );
    for i in 0..25u8 {
        let dir = input.join(format!("many-{i:02}"));
        std::fs::create_dir(&dir).expect("mkdir");
        std::fs::write(dir.join("x.bin"), [0u8, i]).expect("write");
    }
    let r = ingest(&input, &tmp.path().join("out2"), &[]);
    let listed = |out: &str| out.lines().filter(|l| l.starts_with("  skipped ")).count();
    assert_eq!(listed(&r.stdout), 20, "{}", r.stdout);
    assert!(r.stdout.contains("… and 8 more"), "{}", r.stdout);
    let r = ingest(&input, &tmp.path().join("out3"), &["-v"]);
    assert_eq!(listed(&r.stdout), 28, "-v lists them all: {}", r.stdout);
}
