//! `cogitator publish DATASET --site DIR` (issue 29): Be’lakor's card from the seeds checked by
//! hand against the seed file, escaping of hostile names, the refusal to replace a directory
//! cogitator did not write, determinism, no external URL, and — where Chromium is installed
//! (required when `COGITATOR_REQUIRE_CHROMIUM=1`, which `.ci/run` exports) — the card rendered
//! by a real browser (a screenshot that is not blank, a DOM check) and the client-side search.

use crate::util;
use cogitator::dataset::{DatasetDir, LoadedDataset};
use cogitator::publish::site;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const BELAKOR: &str = "10e:chaos-daemons:belakor";
const BELAKOR_FILE: &str = "004_d1a433ab84c4ab90.txt";

/// A scratch path of this test module under cargo's target tmpdir, nothing there.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("publish_site")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    let _ = std::fs::remove_file(&d);
    std::fs::create_dir_all(d.parent().expect("parent")).expect("mkdir");
    d
}

/// The seeds ingested once (`cogitator ingest raw`), and their site published once.
fn seeds() -> &'static (PathBuf, PathBuf) {
    static S: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    S.get_or_init(|| {
        let (dataset, out) = (scratch("seeds"), scratch("seeds-site"));
        let raw = util::raw();
        let (code, _, err) = util::cogitator(&[
            "ingest",
            raw.to_str().expect("utf-8"),
            "--out",
            dataset.to_str().expect("utf-8"),
            "--no-validate",
            "--fail-on",
            "never",
        ]);
        assert_eq!(code, 0, "{err}");
        publish(&dataset, &out).expect("publish the seeds");
        (dataset, out)
    })
}

/// `cogitator publish DATASET --site OUT`: `Err(stderr)` when it does not exit 0.
fn publish(dataset: &Path, out: &Path) -> Result<(), (i32, String)> {
    let (code, _, err) = util::cogitator(&[
        "publish",
        dataset.to_str().expect("utf-8"),
        "--site",
        out.to_str().expect("utf-8"),
    ]);
    if code == 0 {
        Ok(())
    } else {
        Err((code, err))
    }
}

fn belakor_page(site_dir: &Path) -> PathBuf {
    site_dir.join(site::page_path(site::DATASHEETS, BELAKOR))
}

/// Every file of a directory tree: relative path → bytes.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(dir: &Path, rel: &str, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).expect("read_dir") {
            let e = e.expect("entry");
            let name = e.file_name().to_string_lossy().into_owned();
            let path = format!("{rel}{name}");
            if e.file_type().expect("type").is_dir() {
                walk(&e.path(), &format!("{path}/"), out);
            } else {
                out.insert(path, std::fs::read(e.path()).expect("read"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, "", &mut out);
    out
}

#[test]
fn belakor_card_shows_the_seed_files_values_and_source() {
    let (dataset, out) = seeds();
    // By hand, from raw/004_d1a433ab84c4ab90.txt: line 83 prints the points (`325`, one
    // model), line 7 Be’lakor's characteristics line (T 10), line 88 the keywords.
    let seed = std::fs::read_to_string(util::raw().join(BELAKOR_FILE)).expect("seed");
    let lines: Vec<&str> = seed.lines().collect();
    assert_eq!(lines[82].trim(), "325");
    assert!(lines[87].starts_with("KEYWORDS: MONSTER, CHARACTER, FLY"));

    let page = std::fs::read_to_string(belakor_page(out)).expect("Be’lakor's page");
    let at = |line: u32| format!("title=\"source: {BELAKOR_FILE}:{line}\"");
    assert!(
        page.contains(&format!("<td class=\"pts\" {}>325</td>", at(83))),
        "the points cell holds 325 with its own line"
    );
    assert!(page.contains(&format!("<td {}>10</td>", at(7))), "T 10");
    assert!(page.contains("<h1 class=\"name\""));
    assert!(page.contains(">Be’lakor</h1>"));
    assert!(page.contains(&format!("<li class=\"source\">{BELAKOR_FILE}:6</li>")));
    assert!(page.contains("The Blade of Shadows – strike"));
    assert!(page.contains("LETHAL HITS"));
    assert!(page.contains("MONSTER, CHARACTER, FLY, EPIC HERO"));
    assert!(page.contains(">4+</b>"), "invulnerable save");
    assert!(
        page.contains("href=\"../rules/10e-core-deep-strike-"),
        "core ability links its rule"
    );

    // More pages than datasheets; every datasheet has its page.
    let ds = DatasetDir::read(dataset).expect("dataset");
    let files = tree(out);
    let pages = files.keys().filter(|p| p.ends_with(".html")).count();
    assert!(pages > ds.datasheets.len(), "{pages} pages");
    for d in &ds.datasheets {
        assert!(
            files.contains_key(&site::page_path(site::DATASHEETS, &d.id)),
            "{}",
            d.id
        );
    }
}

/// The `src=`/`href=` values of `html` that leave the site (a scheme or `//`).
fn external_links(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    for attr in ["src=\"", "href=\"", "action=\""] {
        for (i, _) in html.match_indices(attr) {
            let v = &html[i + attr.len()..];
            let v = &v[..v.find('"').unwrap_or(v.len())];
            if v.starts_with("//") || v.split('/').next().is_some_and(|s| s.contains(':')) {
                out.push(v.to_string());
            }
        }
    }
    out
}

#[test]
fn no_page_loads_or_links_anything_outside_the_site() {
    let bad = "<a href=\"https://example.com/x\">x</a><script src=\"//cdn.example/x.js\">";
    assert_eq!(
        external_links(bad).len(),
        2,
        "the check finds external links"
    );
    let (_, out) = seeds();
    for (path, bytes) in tree(out) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            external_links(&text).is_empty(),
            "{path}: {:?}",
            external_links(&text)
        );
        assert!(
            !text.contains("fetch("),
            "{path}: fetch() is blocked from file://"
        );
        assert!(!text.contains("url("), "{path}: no CSS url()");
    }
}

/// The seeds' dataset with hostile names and text in one datasheet and one stratagem.
fn hostile() -> LoadedDataset {
    let mut ds = DatasetDir::read(&seeds().0).expect("dataset");
    let d = ds
        .datasheets
        .iter_mut()
        .find(|d| d.id == BELAKOR)
        .expect("Be’lakor");
    d.name = Some("<script>alert(\"x\")</script> & Sons".to_string());
    d.keywords.push("<img src=x onerror=alert(1)>".to_string());
    let s = ds.stratagems.first_mut().expect("a stratagem");
    s.effect = Some("Roll \"one\" <b>D6</b> & see https://example.com/x".to_string());
    ds
}

#[test]
fn every_dataset_string_is_escaped() {
    let ds = hostile();
    let files: BTreeMap<String, Vec<u8>> = site::build(&ds).into_iter().collect();
    let card = String::from_utf8_lossy(&files[&site::page_path(site::DATASHEETS, BELAKOR)]);
    assert!(card.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Sons"));
    assert!(card.contains("&lt;img src=x onerror=alert(1)&gt;"));
    let strat = &ds.stratagems[0];
    let page = String::from_utf8_lossy(&files[&site::page_path(site::STRATAGEMS, &strat.id)]);
    assert!(
        page.contains("Roll &quot;one&quot; &lt;b&gt;D6&lt;/b&gt; &amp; see https://example.com/x")
    );
    for (path, bytes) in &files {
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains("<script>alert"), "{path}");
        assert!(!text.contains("<img"), "{path}");
        assert!(!text.contains("<b>D6"), "{path}");
        assert!(
            external_links(&text).is_empty(),
            "{path}: a URL in text stays text"
        );
    }
    assert_eq!(
        site::escape("a<b>\"c\"&'d'"),
        "a&lt;b&gt;&quot;c&quot;&amp;&#39;d&#39;"
    );
}

#[test]
fn a_directory_cogitator_did_not_write_is_refused_and_left_alone() {
    let (dataset, _) = seeds();
    let dir = scratch("foreign");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("notes.txt"), "mine").expect("write");
    let (code, err) = publish(dataset, &dir).expect_err("refused");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a site cogitator wrote"), "{err}");
    assert_eq!(tree(&dir).len(), 1, "nothing written, nothing removed");

    // A site of ours with a file someone added: refused too, the file kept.
    let ours = scratch("ours");
    publish(dataset, &ours).expect("a new directory");
    publish(dataset, &ours).expect("our own site is replaced");
    std::fs::write(ours.join("datasheets/mine.html"), "mine").expect("write");
    let (code, err) = publish(dataset, &ours).expect_err("refused");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("datasheets/mine.html"), "{err}");
    assert!(ours.join("datasheets/mine.html").exists());
    assert!(ours.join(site::MARKER_FILE).exists());
    // No staging or old directory is left beside it.
    let parent = ours.parent().expect("parent");
    let left: Vec<String> = std::fs::read_dir(parent)
        .expect("read_dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".ours."))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn two_publishes_write_the_same_bytes() {
    let (dataset, first) = seeds();
    let again = scratch("again");
    publish(dataset, &again).expect("publish");
    let (a, b) = (tree(first), tree(&again));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
    for (path, bytes) in &a {
        assert!(b[path] == *bytes, "{path} differs");
    }
    assert!(a.contains_key(site::MARKER_FILE));
    for path in a.keys() {
        assert!(!path.contains(".."), "{path}");
        assert!(
            !path.contains(&*std::env::temp_dir().to_string_lossy()),
            "{path}"
        );
    }
    // No two file names clash on a case-insensitive file system.
    let mut folded: Vec<String> = a.keys().map(|p| p.to_lowercase()).collect();
    folded.sort();
    folded.dedup();
    assert_eq!(folded.len(), a.len());
}

/// Chromium's path, or `None` with a printed reason (a panic when it is required).
fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"].iter().find_map(|n| {
        std::env::var_os("PATH").and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(n))
                .find(|f| f.is_file())
        })
    });
    if found.is_none() {
        if std::env::var("COGITATOR_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("COGITATOR_REQUIRE_CHROMIUM=1 but chromium is not on PATH");
        }
        eprintln!("skipped: chromium not found on PATH (the browser check needs it)");
    }
    found
}

/// Runs headless Chromium on `url` with `args`, killed after two minutes; its stdout.
fn headless(chrome: &Path, profile: &Path, args: &[&str], url: &str) -> Vec<u8> {
    let mut child = std::process::Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
            "--window-size=1200,900",
        ])
        .args(args)
        .arg(url)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run chromium");
    let mut stdout = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut buf);
        buf
    });
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            panic!("chromium did not finish within 2 minutes on {url}");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    reader.join().expect("stdout")
}

/// How many distinct RGBA values a PNG holds (a blank page: one).
fn distinct_colors(png_bytes: &[u8]) -> usize {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let step = info.color_type.samples() * usize::from(info.bit_depth as u8).div_ceil(8);
    let mut seen = std::collections::HashSet::new();
    for px in buf[..info.buffer_size()].chunks(step.max(1)) {
        seen.insert(px.to_vec());
    }
    seen.len()
}

#[test]
fn a_blank_png_has_one_color() {
    let mut bytes = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut bytes, 8, 8);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header().expect("header");
        w.write_image_data(&[255; 8 * 8 * 3]).expect("data");
    }
    assert_eq!(distinct_colors(&bytes), 1);
}

/// `file://` URL of a path (percent-encoding what a URL cannot hold as is).
fn file_url(path: &Path, query: &str) -> String {
    let mut url = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' => {
                url.push(b as char)
            }
            _ => url.push_str(&format!("%{b:02X}")),
        }
    }
    url + query
}

#[test]
fn chromium_renders_the_card_and_the_search() {
    let Some(chrome) = chromium() else { return };
    let (_, out) = seeds();
    let profile = scratch("chromium-profile");
    let shot = scratch("belakor.png");
    let url = file_url(&belakor_page(out), "");
    headless(
        &chrome,
        &profile,
        &[&format!("--screenshot={}", shot.display())],
        &url,
    );
    let png = std::fs::read(&shot).expect("the screenshot");
    let colors = distinct_colors(&png);
    assert!(colors > 16, "the screenshot is blank ({colors} colours)");

    let dom =
        String::from_utf8_lossy(&headless(&chrome, &profile, &["--dump-dom"], &url)).into_owned();
    assert!(dom.contains("id=\"card\""), "{dom}");
    assert!(
        dom.contains(&format!("title=\"source: {BELAKOR_FILE}:83\">325</td>")),
        "the points cell holds 325 with its source: {dom}"
    );
    assert!(dom.contains(&format!("<li class=\"source\">{BELAKOR_FILE}:6</li>")));

    // The search runs on load from `?q=` and lists Be’lakor's page.
    let index = file_url(&out.join("index.html"), "?q=be%E2%80%99lakor");
    let dom =
        String::from_utf8_lossy(&headless(&chrome, &profile, &["--dump-dom"], &index)).into_owned();
    let href = site::page_path(site::DATASHEETS, BELAKOR);
    assert!(
        dom.contains(&format!("<a href=\"{href}\" class=\"result\">Be’lakor</a>")),
        "the search lists Be’lakor: {dom}"
    );
    let _ = std::fs::remove_dir_all(&profile);
}
