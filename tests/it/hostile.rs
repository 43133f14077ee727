//! Hostile markup (issue 13): pages nested deeper than any real page, each run through the
//! whole pipeline on a thread with a 2 MiB stack (what rayon's workers get), so a recursion on
//! the input's depth shows up as a crash here rather than in production. Inputs are written
//! by hand and built at run time.

use cogitator::model::Dataset;
use cogitator::pipeline::{run, Options};
use cogitator::source::SourceFile;

/// A glossary rule the extractor reads, printed before the hostile part of each page.
const RULE: &str = "<div class=\"tooltip_templates\"><div><div class=\"tooltip_header\">Lone \
                    Operative</div><p>Unless part of an Attached unit, this unit can only be \
                    selected as the target of a ranged attack if the attacking model is within \
                    12\" of it.</p></div></div>";

fn page(hostile: &str) -> String {
    format!("<!DOCTYPE html><html><head><title>t</title></head><body>{RULE}{hostile}</body></html>")
}

/// The pipeline (without the simulator stage) over one page, on a thread with a 2 MiB stack.
fn ingest_on_small_stack(html: String) -> Dataset {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            let sources = [SourceFile::new("hostile.html", html.into_bytes())];
            let opts = Options {
                skip_validation: true,
                ..Options::default()
            };
            run(&sources, &[], &opts)
        })
        .expect("spawn a test thread")
        .join()
        .expect("the pipeline does not panic")
}

fn codes(ds: &Dataset) -> Vec<&str> {
    ds.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// The rule printed before the hostile part was read.
fn assert_rule_read(ds: &Dataset) {
    assert!(
        ds.rules
            .iter()
            .any(|r| r.name.as_deref() == Some("Lone Operative")
                && r.text.starts_with("Unless part of an Attached unit")),
        "rules: {:#?}",
        ds.rules
    );
}

#[test]
fn three_thousand_unclosed_b_tags_do_not_overflow_the_stack() {
    let ds = ingest_on_small_stack(page(&"<b>x".repeat(3000)));
    assert!(codes(&ds).contains(&"S013"), "{:?}", codes(&ds));
    assert_rule_read(&ds);
}

#[test]
fn deep_divs_on_a_worker_thread_do_not_overflow() {
    let deep = format!("{}deep{}", "<div>".repeat(2000), "</div>".repeat(2000));
    let ds = ingest_on_small_stack(page(&deep));
    assert!(codes(&ds).contains(&"S013"), "{:?}", codes(&ds));
    assert_rule_read(&ds);
}

#[test]
fn nesting_under_the_limit_is_read_without_s013() {
    let deep = format!("{}<p>deep</p>{}", "<div>".repeat(400), "</div>".repeat(400));
    let ds = ingest_on_small_stack(page(&deep));
    assert!(!codes(&ds).contains(&"S013"), "{:?}", codes(&ds));
    assert_rule_read(&ds);
}

#[test]
fn two_hundred_thousand_nested_divs_finish_quickly() {
    // Was 3 minutes then a crash: html5ever's scope checks walk the stack of open elements
    // (quadratic), the renderer recursed. Work must now grow linearly: doubling the input
    // must not much more than double the time (a quadratic parse would quadruple it).
    let time = |n: usize| {
        let deep = format!("{}deep{}", "<div>".repeat(n), "</div>".repeat(n));
        let t = std::time::Instant::now();
        let ds = ingest_on_small_stack(page(&deep));
        assert!(codes(&ds).contains(&"S013"), "{:?}", codes(&ds));
        assert_rule_read(&ds);
        t.elapsed()
    };
    time(1_000); // warm-up: the embedded schemas are loaded once
    let small = time(100_000);
    let large = time(200_000);
    eprintln!("100,000 divs: {small:?}, 200,000 divs: {large:?}");
    assert!(
        large.as_secs_f64() < 4.0 * small.as_secs_f64() + 1.0,
        "100,000 divs: {small:?}, 200,000 divs: {large:?}"
    );
}

#[test]
fn unclosed_formatting_elements_and_tables_stay_linear() {
    for hostile in ["<a href=\"#\">x", "<table><tr><td>", "<b><i><u>x"] {
        let ds = ingest_on_small_stack(page(&hostile.repeat(50_000)));
        assert!(codes(&ds).contains(&"S013"), "{hostile}: {:?}", codes(&ds));
        assert_rule_read(&ds);
    }
}

#[test]
fn paragraphs_with_unclosed_formatting_do_not_grow_the_tree_quadratically() {
    // Each paragraph re-opens every formatting element left open before it: 10,000 of these
    // built 50 million nodes in 95 s. Formatting elements past the limit are read as text.
    let hostile: String = (0..20_000).map(|i| format!("<p><b id={i}>x</p>")).collect();
    let ds = ingest_on_small_stack(page(&hostile));
    assert!(codes(&ds).contains(&"S013"), "{:?}", codes(&ds));
    assert_rule_read(&ds);
}

#[test]
fn non_ascii_class_names_do_not_recurse_forever() {
    // `cls::bit` re-read any non-ASCII class name with `С` replaced, forever.
    let ds = ingest_on_small_stack(page("<div class=\"é\">text</div>"));
    assert_rule_read(&ds);
}
