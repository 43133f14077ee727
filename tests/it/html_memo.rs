//! The HTML decoder's memo of glossary subtrees (`decode/html/memo.rs`, issue 30): a page
//! decoded with a memo (filled by the pages before it, and by its own earlier repeats) gives the
//! same document as without one, block for block, line for line. On the corpus, and on traps
//! written here: each context in which the memo must not be used (and is checked not to be), and
//! the ones where it is used.

use cogitator::decode::html::{self, memo::Memo};
use cogitator::source::SourceFile;

/// The document (blocks with their lines, chrome count, metadata) and the diagnostics of `page`
/// decoded with `memo`, or without any.
fn decoded(name: &str, page: &str, memo: Option<&Memo>) -> String {
    let src = SourceFile::new(name, page.as_bytes().to_vec());
    let mut diagnostics = Vec::new();
    let doc = html::decode_with_memo(&src, memo, &mut diagnostics);
    let doc = serde_json::to_string_pretty(&doc).expect("a document serializes");
    let diagnostics = serde_json::to_string_pretty(&diagnostics).expect("diagnostics serialize");
    format!("{doc}\n{diagnostics}")
}

/// Decodes `page` with `memo` and without, asserts the two are the same, and answers how many
/// glossary containers it read from the memo.
fn same_with_memo(name: &str, page: &str, memo: &Memo) -> usize {
    let before = memo.stats().hits;
    let with = decoded(name, page, Some(memo));
    let hits = memo.stats().hits - before;
    let without = decoded(name, page, None);
    if with != without {
        let diff = similar::TextDiff::from_lines(&without, &with);
        let shown: String = diff
            .unified_diff()
            .context_radius(2)
            .to_string()
            .chars()
            .take(4000)
            .collect();
        panic!("{name}: the memo changed the document (- without, + with):\n{shown}");
    }
    hits
}

/// A glossary container as the site prints one (a rule's header, its text, a link), longer than
/// the memo's prefix. `word` makes it differ from the others.
fn tooltip(word: &str) -> String {
    format!(
        "<div class=\"tooltip_templates\"><span id=\"tooltip_content00001\">\
         <div class=\"tooltip_header\">{word} Strike</div>\
         <a href=\"/wh40k10ed/the-rules/core-rules/#{word}\"><div class=\"tooltip_link\"></div></a>\
         <div style=\"clear:both\"></div>\
         <p>Each time an attack made with this weapon targets a unit that is within\n\
         half range, that attack has the <span class=\"kwb\">{word}</span> ability.</p>\
         <ul><li>One</li><li>Two <b>bold</b></li></ul>\
         <table><tr><td>cell</td><td>{word}</td></tr></table>\
         </span></div>"
    )
}

/// A page with `body` inside `<body>`, after a doctype (standards mode).
fn page(body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html><head><title>Page</title></head>\n<body>\n<div>\n{body}\n</div>\n</body></html>\n"
    )
}

/// A memo holding `tooltip(word)`, read from a plain page.
fn primed(word: &str) -> Memo {
    let memo = Memo::new();
    let primer = page(&format!("<div>\n{}\n</div>", tooltip(word)));
    same_with_memo("primer.html", &primer, &memo);
    assert_eq!(
        memo.stats().entries,
        1,
        "the primer's glossary container qualifies"
    );
    memo
}

/// Each page of `cases` the same with a memo primed with `tooltip(word)` as without, and read
/// from it `hits` times.
fn assert_hits(word: &str, cases: &[(&str, String)], hits: usize) {
    for (name, html) in cases {
        let memo = primed(word);
        assert_eq!(
            same_with_memo(name, html, &memo),
            hits,
            "{name}: read from the memo"
        );
    }
}

#[test]
fn a_repeat_in_a_plain_context_is_read_from_the_memo_with_its_own_lines() {
    let memo = primed("Lethal");
    let t = tooltip("Lethal");
    // The same container further down another page, twice, with text between: each repeat
    // gets the lines of its own place.
    let body = format!("<p>Intro</p>\n\n\n{t}\n<p>Words before</p>\n\n{t}\n<p>After</p>");
    let hits = same_with_memo("repeat.html", &page(&body), &memo);
    assert_eq!(hits, 2);
    // Each repeat's header is on its own line: 8 and 12 (counted by hand in `page`: the
    // body starts on line 5, each container spans two lines).
    let src = SourceFile::new("repeat.html", page(&body).into_bytes());
    let doc = html::decode_with_memo(&src, Some(&memo), &mut Vec::new());
    let lines: Vec<u32> = doc
        .blocks
        .iter()
        .filter(|b| b.text == "Lethal Strike")
        .map(|b| b.span.line)
        .collect();
    assert_eq!(lines, [8, 12]);
}

#[test]
fn a_repeat_within_one_page_is_read_from_the_memo() {
    let memo = Memo::new();
    let t = tooltip("Sustained");
    let body = format!("{t}\n{t}\n{t}");
    assert_eq!(same_with_memo("thrice.html", &page(&body), &memo), 2);
    assert_eq!(memo.stats().entries, 1);
}

#[test]
fn windows_line_ends_are_read_as_the_tokenizer_reads_them() {
    let memo = Memo::new();
    let t = tooltip("Heavy").replace('\n', "\r\n");
    let body = format!("{t}\r\n<p>x</p>\r\n{t}").replace('\n', "\r\n");
    assert_eq!(same_with_memo("crlf.html", &page(&body), &memo), 1);
}

/// Contexts in which the memo must not be used: the subtree would be built or rendered
/// otherwise there. Each page holds a container the memo has; none is read from it.
#[test]
fn contexts_that_would_build_or_render_the_subtree_otherwise_refuse_the_memo() {
    let t = tooltip("Precision");
    let traps: Vec<(&str, String)> = vec![
        // Inside a formatting element: the builder's rules for `<a>` and same-named
        // formatting elements look at the list of active formatting elements.
        ("inside_bold", page(&format!("<b>{t}</b>"))),
        // A formatting element left open before it, closed by its parent: reconstructed
        // into the container's first text.
        ("stale_formatting", page(&format!("<div><i>x</div>{t}"))),
        // In a table cell: `</table>` and cell tags inside look past the container.
        (
            "in_a_cell",
            page(&format!("<table><tr><td>{t}</td></tr></table>")),
        ),
        // Directly in a table: fostered out of it.
        (
            "in_a_table",
            page(&format!("<table>{t}<tr><td>x</td></tr></table>")),
        ),
        // In a list item: the renderer counts the list's depth into its items.
        ("in_a_list", page(&format!("<ul><li>{t}</li></ul>"))),
        // Under an element the renderer reads whole (a datasheet, chrome, a card).
        (
            "in_a_datasheet",
            page(&format!("<div class=\"dsOuterFrame\">{t}</div>")),
        ),
        (
            "in_chrome",
            page(&format!("<div class=\"noprint\">{t}</div>")),
        ),
        (
            "in_a_card",
            page(&format!("<div class=\"str10Wrap\">{t}</div>")),
        ),
        // A form left open: a `<form>` inside would be ignored.
        ("open_form", page(&format!("<form>{t}"))),
        // Quirks mode (no doctype): a table does not close a paragraph.
        (
            "quirks",
            format!("<html><body><div>{t}</div></body></html>"),
        ),
        // Its own classes take the renderer elsewhere first.
        (
            "chrome_classes_too",
            page(&t.replacen("tooltip_templates", "tooltip_templates noprint", 1)),
        ),
    ];
    assert_hits("Precision", &traps, 0);
}

/// A container within the depth limits on its own and past them in a page (its start tag
/// within them, a tag inside past them: read as text there, `S013`) is read in place.
#[test]
fn a_container_that_would_reach_the_depth_limits_refuses_the_memo() {
    let t = tooltip("Precision");
    let mut seen = 0;
    for n in 500..515 {
        let memo = primed("Precision");
        let html = page(&format!("{}{t}{}", "<div>".repeat(n), "</div>".repeat(n)));
        let hits = same_with_memo("deep", &html, &memo);
        let out = decoded("deep", &html, None);
        let opened = out.contains("\"text\": \"Precision Strike\"");
        let past = out.contains("S013");
        if opened && past {
            assert_eq!(hits, 0, "{n} divs: read from the memo past the limits");
            seen += 1;
        } else if opened {
            assert_eq!(
                hits, 1,
                "{n} divs: within the limits, not read from the memo"
            );
        }
    }
    // The container nests 4 deep (`div`, `span`, then its header's `div` or the `ul`, then the
    // `b`; the elements closed implicitly are not counted): at one depth the header is within
    // the limits and the `b` past them.
    assert_eq!(seen, 1);
}

/// Contexts the builder reaches in its plain state after all: read from the memo, the same.
#[test]
fn contexts_that_end_in_the_plain_state_use_the_memo() {
    let t = tooltip("Blast");
    let cases: Vec<(&str, String)> = vec![
        // The container's start tag closes the open paragraph.
        ("after_an_open_paragraph", page(&format!("<p>para {t}"))),
        // Closed formatting before it, nested `div`s of no class around it.
        (
            "after_closed_formatting",
            page(&format!("<b>x</b><i>y</i><div><div>{t}</div></div>")),
        ),
        // After `</body>`: the builder goes back in body.
        (
            "after_the_body",
            format!("<!DOCTYPE html><html><body><div>x</div></body>{t}</html>"),
        ),
    ];
    assert_hits("Blast", &cases, 1);
}

/// Chrome (the site's navigation, filter warnings, ads) is read for one thing: the first
/// `logo3` image's title, the page's faction pack. Read from the memo, the first still wins.
#[test]
fn chrome_from_the_memo_keeps_the_first_faction_pack() {
    let nav = |pack: &str| {
        format!(
            "<div class=\"noprint\"><div class=\"SiteHeader\"><a href=\"/\">Home</a></div>\
             <div class=\"NavColumns3\">{}</div><img class=\"logo3\" title=\"{pack}\"></div>",
            "<a href=\"/wh40k10ed/factions/space-marines/x\">Unit</a><br>".repeat(8)
        )
    };
    let memo = Memo::new();
    let first = page(&format!("{}\n<p>Body</p>", nav("Codex: Space Marines")));
    assert_eq!(same_with_memo("first.html", &first, &memo), 0);
    // The same chrome after another pack's image: that one stays the page's.
    let second = page(&format!(
        "<div class=\"noprint\"><img class=\"logo3\" title=\"Index: Imperial Armour\"></div>\n{}\n{}",
        nav("Codex: Space Marines"),
        nav("Codex: Space Marines")
    ));
    assert_eq!(same_with_memo("second.html", &second, &memo), 2);
    let src = SourceFile::new("second.html", second.into_bytes());
    let doc = html::decode_with_memo(&src, Some(&memo), &mut Vec::new());
    assert_eq!(
        doc.meta.get("faction_pack").map(String::as_str),
        Some("Index: Imperial Armour")
    );
}

/// Subtrees that do not qualify for the memo: read in place, the same.
#[test]
fn subtrees_that_do_not_end_as_they_began_are_not_memoized() {
    let base = tooltip("Torrent");
    let twice = |t: &str| page(&format!("{t}\n<p>between</p>\n{t}"));
    let cases: Vec<(&str, String)> = vec![
        // A heading sets the page's metadata (its first `h1`): depends on the page.
        (
            "sets_metadata",
            twice(&base.replacen("<p>", "<h1>Title</h1><p>", 1)),
        ),
        // Leaves a formatting element open past its end.
        (
            "leaves_formatting_open",
            twice(&base.replacen("<p>", "<p><b>", 1)),
        ),
        // Too short to be worth it.
        (
            "short",
            twice("<div class=\"tooltip_templates\"><span>x</span></div>"),
        ),
        // The page ends inside the second.
        (
            "truncated",
            format!(
                "<!DOCTYPE html>\n<html><body>\n<div>\n{base}\n<p>x</p>\n{}",
                &base[..base.len() - 20]
            ),
        ),
    ];
    for (name, html) in &cases {
        let memo = Memo::new();
        let hits = same_with_memo(name, html, &memo);
        assert_eq!(hits, 0, "{name}: read from the memo");
    }
    // One that closes its parent too (`</div>` once more): memoized as what it is, up to its own
    // end tag; the stray `</div>` after it is read in place.
    let memo = Memo::new();
    let t = base.replacen("</span></div>", "</span></div></div>", 1);
    let html = page(&format!("<div>{t}</div>\n<div>{t}</div>"));
    assert_eq!(same_with_memo("closes_its_parent", &html, &memo), 1);
}

/// Every corpus page, in order, with one memo (then all again, when every qualifying container
/// is in it): the same documents as without it. The memo is used (most of the corpus's
/// glossary containers repeat).
#[test]
fn corpus_pages_decode_the_same_with_the_memo() {
    let Some(dir) = crate::util::corpus() else {
        return;
    };
    let mut pages: Vec<_> = walkdir::WalkDir::new(dir.join("wahapedia-html"))
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| e.into_path())
        .collect();
    pages.sort();
    assert!(pages.len() >= 70, "{} pages", pages.len());
    let memo = Memo::new();
    let mut hits = [0, 0];
    for (round, hits) in hits.iter_mut().enumerate() {
        for p in &pages {
            let text = std::fs::read_to_string(p).expect("corpus page");
            *hits += same_with_memo(&p.display().to_string(), &text, &memo);
        }
        eprintln!(
            "round {round}: {hits} containers read from the memo; {:?}",
            memo.stats()
        );
    }
    let stats = memo.stats();
    // 9,499 containers in all (counted with a script over the pages' markup), 5,928 of them
    // repeats of one printed before.
    assert!(hits[0] >= 5_000, "{hits:?} {stats:?}");
    assert!(hits[1] > hits[0], "{hits:?} {stats:?}");
}
