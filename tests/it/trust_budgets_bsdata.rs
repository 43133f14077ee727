//! Per-input work budgets in BattleScribe data and in HTML (pages and the export's HTML
//! fields): small hostile inputs, generated here, must cost work and memory linear in their
//! size, with `S020` when a budget is hit (issue 24).

use crate::util;
use cogitator::extract::Extracted;
use cogitator::records::{bsdata, Group};
use cogitator::source::SourceFile;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

const GST: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Warhammer 40,000 10th Edition" revision="1" type="gameSystem">
  <costTypes><costType id="pts-1" name="pts" defaultCostLimit="-1"/></costTypes>
</gameSystem>
"#;

fn read(files: &[(&str, &[u8])]) -> Vec<Extracted> {
    let sources: Vec<SourceFile> = files
        .iter()
        .map(|(p, b)| SourceFile::new(*p, b.to_vec()))
        .collect();
    let refs: Vec<&SourceFile> = sources.iter().collect();
    bsdata::read(&Group {
        dir: "x",
        files: &refs,
    })
}

fn codes(ex: &[Extracted]) -> Vec<(String, Option<String>)> {
    ex.iter()
        .flat_map(|e| {
            e.diagnostics
                .iter()
                .map(|d| (d.code.to_string(), d.file.clone()))
        })
        .collect()
}

/// A catalogue whose unit links entry 0, and entry `i` links entry `i + 1` twice: a diamond
/// of `levels` levels (2^levels paths) in a few kilobytes.
fn diamond(levels: usize) -> String {
    let mut s = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Xenos - Diamonds" gameSystemId="sys-1" library="false">
  <sharedSelectionEntries>
"#,
    );
    for i in 0..levels {
        let _ = writeln!(
            s,
            r#"    <selectionEntry id="e{i}" name="Level {i}" type="upgrade" hidden="false"><entryLinks><entryLink id="a{i}" name="A" targetId="e{n}" type="selectionEntry"/><entryLink id="b{i}" name="B" targetId="e{n}" type="selectionEntry"/></entryLinks></selectionEntry>"#,
            n = i + 1
        );
    }
    let _ = writeln!(
        s,
        r#"    <selectionEntry id="e{levels}" name="Bottom" type="upgrade" hidden="false"/>
  </sharedSelectionEntries>
  <selectionEntries>
    <selectionEntry id="u-1" name="Diamond Beast" type="unit" hidden="false">
      <entryLinks><entryLink id="r-1" name="Top" targetId="e0" type="selectionEntry"/></entryLinks>
    </selectionEntry>
  </selectionEntries>
</catalogue>"#
    );
    s
}

/// Issue 24: a 16 KB catalogue whose entryLinks form a diamond 40 levels deep was read path by
/// path (2^40 paths): the walks of a folder now read at most a budget of elements (a multiple
/// of the folder's elements), and the catalogue gets `S020`.
#[test]
fn bsdata_link_diamond_40_levels_deep_stops_at_the_budget() {
    let cat = diamond(40);
    assert!(cat.len() < 16 * 1024, "{} bytes", cat.len());
    let start = Instant::now();
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/diamond.cat", cat.as_bytes()),
    ]);
    let took = start.elapsed();
    let c = codes(&ex);
    assert!(
        c.contains(&("S020".to_string(), Some("x/diamond.cat".to_string()))),
        "{c:?}"
    );
    let sheets: Vec<_> = ex.iter().flat_map(|e| e.datasheets.iter()).collect();
    assert_eq!(sheets.len(), 1);
    assert_eq!(sheets[0].name.as_deref(), Some("Diamond Beast"));
    assert!(took < Duration::from_secs(60), "{took:?}");
}

/// A shallow diamond (2^6 paths) is read whole, as before: the budget is far above it.
#[test]
fn bsdata_link_diamond_within_the_budget_is_read_whole() {
    let cat = diamond(6);
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/diamond.cat", cat.as_bytes()),
    ]);
    let c = codes(&ex);
    assert!(!c.iter().any(|(code, _)| code == "S020"), "{c:?}");
}

/// The real catalogues never reach the budget (their walks read 0.3 elements per element of the
/// folder; the budget is 100,000 + 8 per element).
#[test]
fn bsdata_real_catalogues_stay_within_the_link_budget() {
    let Some(corpus) = util::corpus() else { return };
    let dir = corpus.join("bsdata/wh40k-10e");
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for e in std::fs::read_dir(&dir).expect("bsdata dir") {
        let p = e.expect("entry").path();
        let name = format!("x/{}", p.file_name().unwrap().to_string_lossy());
        files.push((name, std::fs::read(&p).expect("read")));
    }
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(n, b)| (n.as_str(), b.as_slice()))
        .collect();
    let ex = read(&refs);
    let c = codes(&ex);
    assert!(!c.iter().any(|(code, _)| code == "S020"), "{c:?}");
    assert!(ex.iter().map(|e| e.datasheets.len()).sum::<usize>() > 100);
}

/// Issue 24: BattleScribe nesting was quadratic in depth (each container copied the path of
/// targets above it and searched it). Entries nested 60,000 deep under a unit, and rules nested
/// as deep in a Horus Heresy game system's shared rules, are read in linear time.
#[test]
fn bsdata_deep_nesting_is_read_in_linear_time() {
    let depth = 60_000;
    let mut cat = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Xenos - Deep" gameSystemId="sys-1" library="false">
  <selectionEntries>
    <selectionEntry id="u-1" name="Deep Beast" type="unit" hidden="false">
"#,
    );
    for i in 0..depth {
        let _ = write!(
            cat,
            r#"<selectionEntries><selectionEntry id="d{i}" name="D" type="upgrade" hidden="false">"#
        );
    }
    for _ in 0..depth {
        cat.push_str("</selectionEntry></selectionEntries>");
    }
    cat.push_str("\n    </selectionEntry>\n  </selectionEntries>\n</catalogue>\n");
    let mut hh = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-2" name="Horus Heresy" revision="1"><sharedRules>"#,
    );
    for i in 0..depth {
        let _ = write!(
            hh,
            r#"<rule id="hr{i}" name="Rule {i}"><description>Text {i}.</description><rules>"#
        );
    }
    for _ in 0..depth {
        hh.push_str("</rules></rule>");
    }
    hh.push_str("</sharedRules></gameSystem>\n");
    let start = Instant::now();
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/deep.cat", cat.as_bytes()),
    ]);
    let hh_ex = read(&[("y/hh.gst", hh.as_bytes())]);
    let took = start.elapsed();
    let sheets: Vec<_> = ex.iter().flat_map(|e| e.datasheets.iter()).collect();
    assert_eq!(sheets.len(), 1);
    let rules: usize = hh_ex.iter().map(|e| e.rules.len()).sum();
    assert_eq!(rules, depth);
    assert!(took < Duration::from_secs(30), "{took:?}");
}

/// Issue 24: an `Enhancements` group that links itself (or groups that link each other) was
/// followed forever; a group reached again with the same detachment is read once.
#[test]
fn bsdata_enhancement_groups_that_link_in_a_cycle_end() {
    let cat = r#"<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Xenos - Loops" gameSystemId="sys-1" library="false">
  <sharedSelectionEntryGroups>
    <selectionEntryGroup id="g-1" name="Enhancements" hidden="false">
      <entryLinks>
        <entryLink id="l-1" name="Again" targetId="g-1" type="selectionEntryGroup"/>
        <entryLink id="l-2" name="Other" targetId="g-2" type="selectionEntryGroup"/>
      </entryLinks>
    </selectionEntryGroup>
    <selectionEntryGroup id="g-2" name="Swarm Enhancements" hidden="false">
      <entryLinks>
        <entryLink id="l-3" name="Back" targetId="g-1" type="selectionEntryGroup"/>
      </entryLinks>
    </selectionEntryGroup>
  </sharedSelectionEntryGroups>
</catalogue>
"#;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let ex = read(&[
            ("x/game.gst", GST.as_bytes()),
            ("x/loops.cat", cat.as_bytes()),
        ]);
        let _ = tx.send(ex.len());
    });
    let n = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("reading enhancement groups that link in a cycle ends");
    assert_eq!(n, 2);
}

/// Issue 24 (memory per input a small multiple of its size): a catalogue of nothing but
/// dangling links held one `B003` per 26 bytes (1.1 GB of memory for 60 MB): the first 1,000
/// of a file are listed, then one diagnostic counts the rest.
#[test]
fn bsdata_dangling_links_past_a_thousand_are_counted_in_one_diagnostic() {
    let mut cat = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Xenos - Dangling" gameSystemId="sys-1" library="false"><entryLinks>"#,
    );
    for i in 0..1500 {
        let _ = writeln!(cat, r#"<entryLink id="l{i}" targetId="nowhere-{i}"/>"#);
    }
    cat.push_str("</entryLinks></catalogue>\n");
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/dangling.cat", cat.as_bytes()),
    ]);
    let b003: Vec<&cogitator::diag::Diagnostic> = ex
        .iter()
        .flat_map(|e| e.diagnostics.iter())
        .filter(|d| d.code == "B003")
        .collect();
    assert_eq!(b003.len(), 1001);
    let last = b003.last().expect("a count");
    assert!(
        last.message.starts_with("500 more links"),
        "{}",
        last.message
    );
    assert_eq!(last.line, Some(1002));
}

/// A zip archive holding one file `name` with `content`.
fn zipped(name: &str, content: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    w.start_file(
        name,
        zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated),
    )
    .expect("start");
    w.write_all(content).expect("write");
    w.finish().expect("finish").into_inner()
}

/// Issue 24: eight `.catz` in one folder were each allowed 256 MiB unzipped (the cap was per
/// file): now the folder's zipped files together unzip to at most 256 MiB; a file past that is
/// not read, with `S020`.
#[test]
fn bsdata_zipped_files_of_one_folder_share_one_unzip_budget() {
    // 40 MiB of XML (a comment: cheap to parse) in a few KB of zip, eight times.
    let mut xml = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?><catalogue id="c" name="Xenos - Zips" gameSystemId="sys-1" library="false"><!--"#,
    );
    xml.push_str(&" ".repeat(40 << 20));
    xml.push_str("--></catalogue>");
    let catz = zipped("c.cat", xml.as_bytes());
    drop(xml);
    assert!(catz.len() < 1 << 20);
    let names: Vec<String> = (0..8).map(|i| format!("x/z{i}.catz")).collect();
    let mut files: Vec<(&str, &[u8])> = vec![("x/game.gst", GST.as_bytes())];
    files.extend(names.iter().map(|n| (n.as_str(), catz.as_slice())));
    let ex = read(&files);
    let c = codes(&ex);
    // 6 × 40 MiB fit in 256 MiB; the seventh and eighth do not.
    let over: Vec<_> = c.iter().filter(|(code, _)| code == "S020").collect();
    assert_eq!(
        over,
        [
            &("S020".to_string(), Some("x/z6.catz".to_string())),
            &("S020".to_string(), Some("x/z7.catz".to_string()))
        ],
        "{c:?}"
    );
}

// --- HTML: pages and the export's fields -------------------------------------------------------

/// Issue 24: a page of a million nested `<div>`s was quadratic. Here 200,000 (fast in debug):
/// the page is read, with `S013`, its text kept.
#[test]
fn html_page_with_200k_nested_divs_completes() {
    let n = 200_000;
    let mut page = String::from("<html><body><h1>Deep</h1>");
    page.push_str(&"<div>".repeat(n));
    page.push_str("innermost words");
    page.push_str(&"</div>".repeat(n));
    page.push_str("</body></html>\n");
    let start = Instant::now();
    let ds = util::ingest_in_memory(&[("p/deep.html", page.as_bytes())]);
    let took = start.elapsed();
    let codes: Vec<&str> = ds.diagnostics.iter().map(|d| d.code.as_str()).collect();
    assert!(codes.contains(&"S013"), "{codes:?}");
    assert!(took < Duration::from_secs(60), "{took:?}");
}

/// Issue 24: markup in the export's HTML fields bypassed the page's depth limits (a 210 KB
/// field aborted at 6 GB: every open `<b>` re-opened in every paragraph; nested `<div>`s
/// quadratic). A generated export whose stratagem description is 210 KB of nested markup is
/// read, its text kept.
#[test]
fn export_field_of_210_kb_nested_markup_completes() {
    // Formatting elements told apart by an attribute (the parser keeps at most three alike
    // open), each followed by a paragraph, then nested `<div>`s (before the fix: each half
    // alone aborted at 3 GB in a release build, 13,302 `<b id>`s in 21 s, 100,000 `<div>`s in
    // 24 s).
    let mut field = String::from("<b>WHEN:</b> Fight phase.");
    let mut i = 0;
    while field.len() < 105 * 1024 {
        let _ = write!(field, r#"<b id="{i}"><p>"#);
        i += 1;
    }
    while field.len() < 210 * 1024 {
        field.push_str("<div>");
    }
    field.push_str("EFFECT: add 1.");
    let files: Vec<(String, String)> = vec![
        (
            "Last_update.csv".into(),
            "\u{feff}last_update|\r\n2025-01-02 03:04:05|\r\n".into(),
        ),
        ("Factions.csv".into(), "id|name|link|\r\nTYR|Tyranids|x|\r\n".into()),
        (
            "Datasheets.csv".into(),
            "id|name|faction_id|source_id|legend|role|loadout|transport|virtual|leader_head|leader_footer|damaged_w|damaged_description|link|\r\n\
             000000001|Grub Beast|TYR|1||Monster|jaws.||false|||||x|\r\n"
                .into(),
        ),
        (
            "Datasheets_models.csv".into(),
            "datasheet_id|line|name|M|T|Sv|inv_sv|inv_sv_descr|W|Ld|OC|base_size|base_size_descr|\r\n\
             000000001|1|Grub Beast|8|9|2+|||8|8+|3|60mm||\r\n"
                .into(),
        ),
        (
            "Stratagems.csv".into(),
            format!(
                "faction_id|name|id|type|cp_cost|legend|turn|phase|detachment|detachment_id|description|\r\n\
                 TYR|DEEP FRENZY|000000100|Swarm – Battle Tactic Stratagem|2|Hungry.|Your turn|Fight phase|Swarm|000000050|{field}|\r\n"
            ),
        ),
    ];
    let refs: Vec<(String, &[u8])> = files
        .iter()
        .map(|(n, t)| (format!("exp/{n}"), t.as_bytes()))
        .collect();
    let refs: Vec<(&str, &[u8])> = refs.iter().map(|(n, b)| (n.as_str(), *b)).collect();
    let start = Instant::now();
    let ds = util::ingest_in_memory(&refs);
    let took = start.elapsed();
    assert!(
        ds.stratagems
            .iter()
            .any(|s| s.name.eq_ignore_ascii_case("deep frenzy")),
        "{:?}",
        ds.stratagems
    );
    assert!(took < Duration::from_secs(60), "{took:?}");
}

/// The fragment reader keeps the page's limits: the text of tags past them is kept as text.
#[test]
fn html_fragment_past_the_depth_limit_keeps_its_text() {
    let html = format!(
        "{}deep words{}",
        "<div>".repeat(2_000),
        "</div>".repeat(2_000)
    );
    let (blocks, past) = cogitator::decode::html::fragment_blocks_counted(&html);
    assert!(past > 0);
    assert!(
        blocks.iter().any(|b| b.text.contains("deep words")),
        "{blocks:?}"
    );
}

/// Issue 24 (memory per input a small multiple of its size): 5 million `<rule id=""/>` (13
/// bytes each) took 11 times the file in memory (a node is about 100 bytes). A file's
/// elements are read up to one per 24 bytes (plus 10,000): past it, `S020` on the file and the
/// rest is not read. Real catalogues have one element per 100 bytes or more.
#[test]
fn bsdata_elements_denser_than_the_budget_stop_with_s020() {
    let head = r#"<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Xenos - Dense" gameSystemId="sys-1" library="false"><rules>"#;
    let mut cat = String::from(head);
    for _ in 0..40_000 {
        cat.push_str(r#"<rule id=""/>"#);
    }
    cat.push_str("</rules></catalogue>\n");
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/dense.cat", cat.as_bytes()),
    ]);
    let found = codes(&ex);
    assert!(
        found.contains(&("S020".to_string(), Some("x/dense.cat".to_string()))),
        "{found:?}"
    );
    // The same number of elements spread over a real catalogue's density is read whole.
    let mut sparse = String::from(head);
    for i in 0..40_000 {
        let _ = write!(
            sparse,
            r#"<rule id="r{i}" name="Rule number {i}" hidden="false"><description>Text {i}.</description></rule>"#
        );
    }
    sparse.push_str("</rules></catalogue>\n");
    let ex = read(&[
        ("x/game.gst", GST.as_bytes()),
        ("x/sparse.cat", sparse.as_bytes()),
    ]);
    assert!(
        !codes(&ex).iter().any(|(c, _)| c == "S020"),
        "{:?}",
        codes(&ex)
    );
}
