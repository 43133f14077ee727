//! Test only: the same renderer over `scraper`'s whole DOM (the decoder before the lean tree),
//! so a test can assert that both trees render to the same blocks on every page it has.

use super::{clean, is_blank, is_skipped, limit_depth, neutralize, Locator, MAX_DEPTH};
use crate::ir::Block;
use std::borrow::Cow;

// The same renderer compiled over `scraper`'s DOM (see `dom` below): on purpose.
#[allow(dead_code, clippy::duplicate_mod)] // `last_line` is read by the decoder only
#[path = "render.rs"]
mod render;

/// `scraper`'s DOM behind the names the renderer reads.
mod dom {
    pub use scraper::{ElementRef, Node};

    pub fn flags(el: &ElementRef) -> u64 {
        attr(el, "class")
            .map(|a| {
                a.split_ascii_whitespace()
                    .fold(0, |m, c| m | super::render::cls::bit(c))
            })
            .unwrap_or(0)
    }

    pub fn attr<'a>(el: &ElementRef<'a>, name: &str) -> Option<&'a str> {
        el.value().attrs().find(|(k, _)| *k == name).map(|(_, v)| v)
    }

    /// `scraper`'s DOM is never read from the memo.
    pub fn memo<'a>(_: &ElementRef<'a>) -> Option<&'a super::render::Recorded> {
        None
    }

    pub fn has_classes(el: &ElementRef) -> bool {
        el.value().classes().next().is_some()
    }

    pub fn text<'a>(n: &ego_tree::NodeRef<'a, Node>) -> Option<&'a str> {
        match n.value() {
            Node::Text(t) => Some(t),
            _ => None,
        }
    }

    pub fn tag<'a>(el: &ElementRef<'a>) -> &'a str {
        el.value().name()
    }

    pub fn any_earlier_sibling(el: &ElementRef, f: impl Fn(&ElementRef) -> bool) -> bool {
        el.prev_siblings()
            .filter_map(ElementRef::wrap)
            .any(|s| f(&s))
    }
}

/// The blocks, chrome count and meta of a page, rendered from `scraper`'s DOM.
pub fn render(
    text: &str,
) -> (
    Vec<Block>,
    usize,
    std::collections::BTreeMap<String, String>,
) {
    let scan = limit_depth(text, MAX_DEPTH);
    let text = if scan.neutralized.is_empty() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(neutralize(text, &scan.neutralized))
    };
    let html = scraper::Html::parse_document(&text);
    let r = render::render_page(Some(html.root_element()), &text);
    (r.blocks, r.chrome, r.meta)
}
