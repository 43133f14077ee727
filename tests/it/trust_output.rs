//! Issue 24, output safety: nothing cogitator did not write is touched, every file it writes is
//! created exclusively then renamed, names from inputs reach the terminal escaped, a closed pipe
//! is not a crash, `--fail-on`, non-regular inputs. One regression test per bug, named after
//! what broke; hostile inputs are made here, in temporary directories.

use crate::util;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SEED: &str = "000_7d74a1f54db65dd5.txt";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn cogitator(args: &[&std::ffi::OsStr]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_cogitator"))
        .args(args)
        .output()
        .expect("run cogitator");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `cogitator ingest INPUT --out OUT --no-validate [extra]`.
fn ingest(input: &Path, out: &Path, extra: &[&str]) -> Run {
    let mut args: Vec<&std::ffi::OsStr> = vec![
        "ingest".as_ref(),
        input.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
        "--no-validate".as_ref(),
    ];
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    cogitator(&args)
}

fn seed() -> PathBuf {
    util::raw().join(SEED)
}

/// Every entry under `dir`, `/`-separated (directories with a trailing `/`), links not followed.
fn entries(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let e = e.expect("entry");
            let rel = e
                .path()
                .strip_prefix(dir)
                .expect("prefix")
                .to_string_lossy()
                .into_owned();
            if e.file_type().expect("type").is_dir() {
                out.insert(format!("{rel}/"));
                stack.push(e.path());
            } else {
                out.insert(rel);
            }
        }
    }
    out
}

fn manifest(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("manifest.json")).expect("manifest"))
        .expect("json")
}

// ---- 1. output directory replacement ----

#[test]
fn copied_manifest_does_not_make_a_checkout_replaceable() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let real = tmp.path().join("real");
    assert_eq!(ingest(&seed(), &real, &[]).code, 0);
    // A git checkout with a source file and a manifest copied from an output.
    let checkout = tmp.path().join("checkout");
    std::fs::create_dir_all(checkout.join(".git/objects")).expect("mkdir");
    std::fs::write(checkout.join(".git/HEAD"), "ref: refs/heads/main\n").expect("write");
    std::fs::write(checkout.join("main.rs"), "fn main() {}\n").expect("write");
    std::fs::copy(real.join("manifest.json"), checkout.join("manifest.json")).expect("copy");
    let before = entries(&checkout);
    for extra in [&[][..], &["--force"][..]] {
        let r = ingest(&seed(), &checkout, extra);
        assert_eq!(r.code, 2, "{extra:?}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(".git"), "{}", r.stderr);
        assert_eq!(entries(&checkout), before, "{extra:?}: nothing touched");
    }
    // Without .git: the foreign source file is named and kept (the marker alone, too).
    std::fs::remove_dir_all(checkout.join(".git")).expect("rm");
    std::fs::copy(
        real.join(".cogitator-output"),
        checkout.join(".cogitator-output"),
    )
    .expect("copy");
    let r = ingest(&seed(), &checkout, &[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("main.rs"), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(checkout.join("main.rs"))
            .ok()
            .as_deref(),
        Some("fn main() {}\n")
    );
    // A hand-made manifest cannot claim a source file or a hidden one.
    let mut m = manifest(&real);
    m["files"] = serde_json::json!(["main.rs", ".cogitator-output", "manifest.json", ".env"]);
    std::fs::write(checkout.join("manifest.json"), m.to_string()).expect("write");
    std::fs::write(checkout.join(".env"), "SECRET=1").expect("write");
    let r = ingest(&seed(), &checkout, &[]);
    assert_eq!(r.code, 2, "hand-made list: {}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("main.rs") && r.stderr.contains(".env"),
        "{}",
        r.stderr
    );
    std::fs::remove_file(checkout.join("manifest.json")).expect("rm");
    let r = ingest(&seed(), &checkout, &[]);
    assert_eq!(r.code, 2, "marker alone: {}{}", r.stdout, r.stderr);
    assert!(checkout.join("main.rs").is_file() && checkout.join(".env").is_file());
}

#[test]
fn previous_output_with_added_files_is_refused_naming_them() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    assert_eq!(ingest(&seed(), &out, &[]).code, 0);
    std::fs::write(out.join("NOTES.md"), "mine").expect("write");
    std::fs::create_dir(out.join("mine")).expect("mkdir");
    std::fs::write(out.join("mine/a.txt"), "mine").expect("write");
    std::fs::write(out.join("schema/extra.txt"), "mine").expect("write");
    let r = ingest(&seed(), &out, &[]);
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    for name in ["NOTES.md", "mine/", "schema/extra.txt"] {
        assert!(r.stderr.contains(name), "{name}: {}", r.stderr);
    }
    assert!(out.join("NOTES.md").is_file() && out.join("mine/a.txt").is_file());
    // `git init` inside a previous output: refused even with --force.
    std::fs::create_dir(out.join(".git")).expect("mkdir");
    assert_eq!(ingest(&seed(), &out, &["--force"]).code, 2);
    std::fs::remove_dir(out.join(".git")).expect("rm");
    // --force names what it deletes, then replaces.
    let r = ingest(&seed(), &out, &["--force"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("NOTES.md") && r.stderr.contains("mine/"),
        "{}",
        r.stderr
    );
    assert!(!out.join("NOTES.md").exists());
    // A clean previous output is still replaced without --force.
    assert_eq!(ingest(&seed(), &out, &[]).code, 0);
}

#[test]
fn manifest_lists_every_file_written() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    // With the validation table.
    let r = cogitator(&[
        "ingest".as_ref(),
        seed().as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let listed: BTreeSet<String> = manifest(&out)["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f.as_str().expect("str").to_string())
        .collect();
    let written: BTreeSet<String> = entries(&out)
        .into_iter()
        .filter(|e| !e.ends_with('/'))
        .collect();
    assert_eq!(listed, written);
    assert!(
        listed.contains("validation/expected-damage.csv"),
        "{listed:?}"
    );
}

#[cfg(unix)]
#[test]
fn out_mode_700_survives_the_swap() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    for _ in 0..2 {
        std::fs::create_dir_all(&out).expect("mkdir");
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o700)).expect("chmod");
        let r = ingest(&seed(), &out, &[]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        let mode = std::fs::metadata(&out).expect("meta").permissions().mode() & 0o777;
        assert_eq!(mode, 0o700, "{mode:o}");
    }
}

// ---- 2. every write is exclusive, then renamed; no planted link is followed ----

#[cfg(unix)]
#[test]
fn validate_does_not_write_through_a_planted_symlink() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    assert_eq!(ingest(&seed(), &out, &[]).code, 0);
    let victim = tmp.path().join("victim.txt");
    std::fs::write(&victim, "precious").expect("write");
    let validate = || cogitator(&["validate".as_ref(), out.as_os_str()]);

    // The file itself a link (a pull request can ship one).
    std::fs::create_dir_all(out.join("validation")).expect("mkdir");
    let csv = out.join("validation/expected-damage.csv");
    let _ = std::fs::remove_file(&csv);
    std::os::unix::fs::symlink(&victim, &csv).expect("symlink");
    let r = validate();
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("symbolic link"), "{}", r.stderr);
    assert_eq!(
        std::fs::read_to_string(&victim).ok().as_deref(),
        Some("precious")
    );

    // The directory a link to somewhere else.
    let elsewhere = tmp.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).expect("mkdir");
    std::fs::remove_dir_all(out.join("validation")).expect("rm");
    std::os::unix::fs::symlink(&elsewhere, out.join("validation")).expect("symlink");
    let r = validate();
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(entries(&elsewhere).is_empty(), "{:?}", entries(&elsewhere));

    // No link: written, no temporary file left.
    std::fs::remove_file(out.join("validation")).expect("rm");
    let r = validate();
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert_eq!(
        entries(&out.join("validation")),
        BTreeSet::from(["expected-damage.csv".to_string()])
    );
}

#[cfg(unix)]
#[test]
fn write_atomic_refuses_links_and_replaces_by_rename() {
    use cogitator::emit::write_atomic;
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = tmp.path().join("root");
    std::fs::create_dir(&root).expect("mkdir");
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, "precious").expect("write");
    // A link at the name, and a link on the way, are refused.
    std::os::unix::fs::symlink(&victim, root.join("report.json")).expect("symlink");
    assert!(write_atomic(&root, "report.json", b"x").is_err());
    std::os::unix::fs::symlink(tmp.path(), root.join("sub")).expect("symlink");
    assert!(write_atomic(&root, "sub/victim", b"x").is_err());
    assert!(write_atomic(&root, "../victim", b"x").is_err());
    assert_eq!(
        std::fs::read_to_string(&victim).ok().as_deref(),
        Some("precious")
    );
    // A hard link to the target is not written through either: the name is replaced.
    std::fs::hard_link(&victim, root.join("hard")).expect("link");
    write_atomic(&root, "hard", b"new").expect("write");
    assert_eq!(
        std::fs::read_to_string(&victim).ok().as_deref(),
        Some("precious")
    );
    assert_eq!(
        std::fs::read_to_string(root.join("hard")).ok().as_deref(),
        Some("new")
    );
    assert_ne!(
        std::fs::metadata(root.join("hard")).expect("meta").ino(),
        std::fs::metadata(&victim).expect("meta").ino()
    );
    // Directories are made; nothing but the file is left; its mode is `File::create`'s.
    write_atomic(&root, "a/b.csv", b"1").expect("write");
    std::fs::File::create(tmp.path().join("reference")).expect("create");
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    assert_eq!(
        mode(&root.join("a/b.csv")),
        mode(&tmp.path().join("reference"))
    );
    assert_eq!(
        entries(&root.join("a")),
        BTreeSet::from(["b.csv".to_string()])
    );
}

// ---- 3. names from inputs reach the terminal escaped ----

#[cfg(unix)]
#[test]
fn escape_codes_in_file_names_do_not_reach_the_terminal() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).expect("mkdir");
    // Not a rules source: skipped with a diagnostic naming it.
    std::fs::write(
        input.join("evil\x1b[2J\x1b]0;pwned\x07\nname.bin"),
        [0u8, 1, 2, 255],
    )
    .expect("write");
    std::fs::write(input.join("\u{202e}txt.exe"), [0u8, 1, 2, 254]).expect("write");
    let out = tmp.path().join("out");
    let r = ingest(&input, &out, &["-v"]);
    assert!(r.code == 0 || r.code == 1, "{}{}", r.stdout, r.stderr);
    for (what, text) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
        assert!(
            !text.contains(['\x1b', '\x07', '\u{202e}']),
            "{what} carries raw control characters: {text:?}"
        );
    }
    assert!(r.stdout.contains("evil\\x1b[2J"), "{}", r.stdout);
    assert!(r.stdout.contains("\\u{202e}txt.exe"), "{}", r.stdout);
    // The manifest keeps the real name (JSON escapes it).
    let files: Vec<String> = manifest(&out)["inputs"]
        .as_array()
        .expect("inputs")
        .iter()
        .map(|i| i["file"].as_str().expect("file").to_string())
        .collect();
    assert!(
        files.iter().any(|f| f.starts_with("evil\x1b[2J")),
        "{files:?}"
    );
}

#[cfg(unix)]
#[test]
fn names_differing_only_in_invalid_utf8_stay_two_inputs() {
    use std::os::unix::ffi::OsStrExt;
    let tmp = tempfile::tempdir().expect("tempdir");
    let a = std::ffi::OsStr::from_bytes(b"dump\xff.txt");
    let b = std::ffi::OsStr::from_bytes(b"dump\xfe.txt");
    std::fs::write(tmp.path().join(a), "one").expect("write");
    std::fs::write(tmp.path().join(b), "two").expect("write");
    let found = cogitator::discover::discover(&[tmp.path().to_path_buf()]).expect("discover");
    let paths: BTreeSet<String> = found.sources.iter().map(|s| s.path.clone()).collect();
    assert_eq!(
        paths,
        BTreeSet::from(["dump\\xfe.txt".to_string(), "dump\\xff.txt".to_string()])
    );
}

// ---- 4. a closed pipe ----

/// A pipe whose reading end is already closed: every write to it fails with EPIPE.
#[cfg(unix)]
fn closed_pipe() -> Stdio {
    use std::os::fd::FromRawFd;
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe(2) returns.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: fds[0] is ours and closed once; fds[1] is handed to the child's Stdio once.
    unsafe {
        libc::close(fds[0]);
        Stdio::from(std::os::fd::OwnedFd::from_raw_fd(fds[1]))
    }
}

#[cfg(unix)]
#[test]
fn closed_stdout_and_stderr_pipes_do_not_panic() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let out = tmp.path().join("out");
    let seed = seed();
    let missing = tmp.path().join("missing");
    let cases: Vec<(Vec<&std::ffi::OsStr>, i32)> = vec![
        // Prints a summary on stdout and diagnostics on stderr.
        (
            vec![
                "ingest".as_ref(),
                seed.as_os_str(),
                "--out".as_ref(),
                out.as_os_str(),
                "-v".as_ref(),
            ],
            0,
        ),
        (vec!["validate".as_ref(), out.as_os_str()], 0),
        // An error on stderr.
        (vec!["validate".as_ref(), missing.as_os_str()], 2),
        (vec!["lint".as_ref(), "--docs".as_ref()], 0),
    ];
    for (args, code) in cases {
        let status = Command::new(env!("CARGO_BIN_EXE_cogitator"))
            .args(&args)
            .stdout(closed_pipe())
            .stderr(closed_pipe())
            .status()
            .expect("run");
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
}

// ---- 5. --fail-on ----

#[test]
fn fail_on_never_lets_ci_reach_the_next_step() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).expect("mkdir");
    // A value error in the source itself (Strength `8+`): an error diagnostic.
    let text = std::fs::read_to_string(seed()).expect("seed");
    let broken = text.replacen(
        "| 24\" | 2 | 2+ | 4 | 0 | 1 |",
        "| 24\" | 2 | 2+ | 8+ | 0 | 1 |",
        1,
    );
    assert_ne!(broken, text);
    std::fs::write(input.join("dump.txt"), broken).expect("write");
    let out = tmp.path().join("out");
    assert_eq!(
        ingest(&input, &out, &[]).code,
        1,
        "default: --fail-on error"
    );
    assert_eq!(ingest(&input, &out, &["--fail-on", "error"]).code, 1);
    assert_eq!(ingest(&input, &out, &["--fail-on", "never"]).code, 0);
    assert_eq!(ingest(&input, &out, &["--fail-on", "bogus"]).code, 2);
    // Warnings only: exit 1 with --fail-on warning alone.
    let clean = tmp.path().join("clean");
    std::fs::create_dir(&clean).expect("mkdir");
    std::fs::copy(seed(), clean.join(SEED)).expect("copy");
    std::fs::write(clean.join("big.txt"), "x".repeat(2048)).expect("write");
    let r = ingest(&clean, &out, &["--max-file-size", "1K"]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    let r = ingest(
        &clean,
        &out,
        &["--max-file-size", "1K", "--fail-on", "warning"],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
}

// ---- 6. non-regular files ----

#[cfg(unix)]
#[test]
fn fifo_and_device_inputs_are_skipped_not_read() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let input = tmp.path().join("in");
    std::fs::create_dir(&input).expect("mkdir");
    std::fs::copy(seed(), input.join(SEED)).expect("copy");
    let fifo = input.join("pipe.txt");
    let c = std::ffi::CString::new(fifo.as_os_str().to_str().expect("utf8")).expect("cstring");
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let out = tmp.path().join("out");
    // In a directory, and as a direct argument; a hang is the bug (a FIFO never ends).
    for (arg, name) in [(&input, "pipe.txt"), (&fifo, "pipe.txt")] {
        let start = Instant::now();
        let mut child = Command::new(env!("CARGO_BIN_EXE_cogitator"))
            .args([
                "ingest".as_ref(),
                arg.as_os_str(),
                "--out".as_ref(),
                out.as_os_str(),
                "--no-validate".as_ref(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait") {
                break s;
            }
            if start.elapsed() > Duration::from_secs(60) {
                let _ = child.kill();
                panic!("ingest {} hangs on a FIFO", arg.display());
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        assert_eq!(status.code(), Some(0));
        let m = manifest(&out);
        let entry = m["inputs"]
            .as_array()
            .expect("inputs")
            .iter()
            .find(|i| i["file"] == name)
            .cloned()
            .expect("the FIFO is in the manifest");
        assert_eq!(entry["status"], "skipped");
        let diags: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("diagnostics.json")).expect("read"))
                .expect("json");
        assert!(
            diags
                .as_array()
                .expect("array")
                .iter()
                .any(|d| d["code"] == "S019" && d["file"] == name),
            "{diags}"
        );
    }
    // /dev/zero has no end and no size: skipped, not read past --max-file-size.
    let dev = Path::new("/dev/zero");
    if dev.exists() {
        let r = ingest(dev, &out, &["--max-file-size", "1K"]);
        assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("S019"), "{}", r.stdout);
    }
}

#[test]
fn escape_codes_in_dataset_names_do_not_reach_the_terminal() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let old = tmp.path().join("old");
    assert_eq!(ingest(&seed(), &old, &[]).code, 0);
    let new = tmp.path().join("new");
    assert_eq!(ingest(&seed(), &new, &[]).code, 0);
    // A dataset (a pull request) whose datasheet is renamed with a terminal escape: a title
    // change, a screen clear, an OSC hyperlink, a bell, a C1 CSI.
    let path = new.join("datasheets.json");
    let mut sheets: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    sheets[0]["name"] = "Evil\x1b]0;pwned\x07\x1b[2J\u{9b}31m".into();
    sheets[0]["weapons"][0]["name"] = "gun\x1b[8mhidden".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&sheets).expect("json")).expect("write");
    for format in ["human", "markdown", "github"] {
        let r = cogitator(&[
            "diff".as_ref(),
            old.as_os_str(),
            new.as_os_str(),
            "--format".as_ref(),
            format.as_ref(),
        ]);
        for (what, text) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
            assert!(
                !text.contains(['\x1b', '\x07', '\u{9b}']),
                "{format} {what}: {text:?}"
            );
        }
        assert!(r.stdout.contains("\\x1b"), "{format}: {}", r.stdout);
    }
    // JSON stays JSON (serde's escapes, not the terminal's).
    let r = cogitator(&[
        "diff".as_ref(),
        old.as_os_str(),
        new.as_os_str(),
        "--format".as_ref(),
        "json".as_ref(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("diff --format json");
    assert!(v.to_string().contains("Evil\\u001b]0;pwned"), "{v}");
    for cmd in ["lint", "validate"] {
        let r = cogitator(&[cmd.as_ref(), new.as_os_str()]);
        for text in [&r.stdout, &r.stderr] {
            assert!(
                !text.contains(['\x1b', '\x07', '\u{9b}']),
                "{cmd}: {text:?}"
            );
        }
    }
}
