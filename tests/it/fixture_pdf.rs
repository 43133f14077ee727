//! The generator of `tests/fixtures/pdf/*.pdf`: a faction-pack-like datasheet card written with
//! `lopdf` (positioned text in Helvetica, laid out as Games Workshop's card template; names and
//! values invented). The committed PDF is this generator's output, checked byte for byte by
//! `committed_pdf_fixtures_are_the_generators_output`; `COGITATOR_WRITE_FIXTURES=1` rewrites
//! them after a reviewed change here.

use lopdf::content::{Content, Operation};
use lopdf::{dictionary, Document, Object, Stream};

/// A line of text in Helvetica of `size` at (`x`, `y`), in points from the page's lower left;
/// `t`'s characters are WinAnsi codes (`\u{95}` is the bullet).
fn text(size: f32, x: f32, y: f32, t: &str) -> Vec<Operation> {
    let bytes: Vec<u8> = t
        .chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
        .collect();
    vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), size.into()]),
        Operation::new("Td", vec![x.into(), y.into()]),
        Operation::new("Tj", vec![Object::string_literal(bytes)]),
        Operation::new("ET", vec![]),
    ]
}

/// A table row: cells at the given x positions, on one baseline.
fn row(size: f32, y: f32, cells: &[(f32, &str)]) -> Vec<Operation> {
    cells
        .iter()
        .flat_map(|(x, t)| text(size, *x, y, t))
        .collect()
}

/// A PDF of `pages` (each a list of text operations) on 760 × 400 pt (landscape) pages.
fn pdf(pages: &[Vec<Operation>]) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let resources_id = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => font_id },
    });
    let mut kids: Vec<Object> = Vec::new();
    for ops in pages {
        let content = Content {
            operations: ops.clone(),
        };
        let bytes = content.encode().expect("encode content");
        let content_id = doc.add_object(Stream::new(dictionary! {}, bytes));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content_id,
        });
        kids.push(page_id.into());
    }
    let count = kids.len() as i64;
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => kids,
            "Count" => count,
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 760.into(), 400.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! {
        "Type" => "Catalog",
        "Pages" => pages_id,
    });
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("write pdf");
    out
}

/// The profile header and values: M T SV W LD OC, 40 pt apart from x = 30.
fn profile(values: [&str; 6]) -> Vec<Operation> {
    let heads = ["M", "T", "SV", "W", "LD", "OC"];
    let mut ops = Vec::new();
    for (k, (h, v)) in heads.iter().zip(values).enumerate() {
        let x = 30.0 + 40.0 * k as f32;
        ops.extend(text(6.0, x, 340.0, h));
        ops.extend(text(14.0, x, 320.0, v));
    }
    ops
}

/// A weapon table header and its rows: name at x = 40, the values from x = 190, 40 apart.
fn weapons(y: f32, head: [&str; 7], rows: &[[&str; 7]]) -> Vec<Operation> {
    let cells = |r: &[&str; 7]| -> Vec<(f32, String)> {
        let mut c = vec![(40.0, r[0].to_string())];
        for (k, v) in r[1..].iter().enumerate() {
            c.push((190.0 + 40.0 * k as f32, v.to_string()));
        }
        c
    };
    let mut ops = Vec::new();
    let h = cells(&head);
    let h: Vec<(f32, &str)> = h.iter().map(|(x, t)| (*x, t.as_str())).collect();
    ops.extend(row(9.0, y, &h));
    for (i, r) in rows.iter().enumerate() {
        let c = cells(r);
        let c: Vec<(f32, &str)> = c.iter().map(|(x, t)| (*x, t.as_str())).collect();
        ops.extend(row(7.5, y - 12.0 * (i as f32 + 1.0), &c));
    }
    ops
}

/// `invuln-in-shield.pdf`: a two-page card (front, back) whose invulnerable save is printed as
/// the card template does, in a shield beside the profile: the label `INVULNERABLE SAVE` and,
/// level with it in larger type, the value. The trap: the value is a separate text object on
/// the label's baseline, not the characteristic row below it.
pub fn invuln_in_shield() -> Vec<u8> {
    let front: Vec<Operation> = [
        text(15.0, 20.0, 360.0, "CINDER WALKER"),
        profile(["8\"", "9", "3+", "10", "7+", "3"]),
        text(9.0, 300.0, 340.0, "INVULNERABLE SAVE"),
        text(14.0, 420.0, 340.0, "5+"),
        weapons(
            280.0,
            ["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"],
            &[["Cinder cannon [BLAST]", "36\"", "D6", "4+", "8", "-2", "2"]],
        ),
        weapons(
            240.0,
            ["MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"],
            &[["Crushing stomp", "Melee", "4", "4+", "7", "-1", "2"]],
        ),
        text(9.0, 480.0, 280.0, "ABILITIES"),
        text(7.5, 480.0, 268.0, "CORE: Deadly Demise D3"),
        text(7.5, 480.0, 250.0, "Ash Cloud: Each time a ranged attack"),
        text(7.5, 480.0, 241.0, "targets this model, subtract 1 from"),
        text(7.5, 480.0, 232.0, "the Hit roll."),
        text(8.5, 30.0, 40.0, "KEYWORDS: Vehicle, Walker, Imperium,"),
        text(8.5, 60.0, 31.0, "Cinder Walker"),
        text(8.5, 480.0, 40.0, "FACTION KEYWORDS:"),
        text(8.5, 480.0, 31.0, "Adeptus Mechanicus"),
    ]
    .concat();
    let back: Vec<Operation> = [
        text(15.0, 20.0, 360.0, "CINDER WALKER"),
        text(
            7.5,
            30.0,
            330.0,
            "Cinder walkers stride through the ash wastes.",
        ),
        text(9.0, 30.0, 300.0, "WARGEAR OPTIONS"),
        text(7.5, 30.0, 288.0, "\u{95} None"),
        text(9.0, 480.0, 300.0, "UNIT COMPOSITION"),
        text(7.5, 480.0, 288.0, "\u{95} 1 Cinder Walker"),
        text(
            7.5,
            480.0,
            276.0,
            "This model is equipped with: cinder cannon; crushing stomp.",
        ),
        text(8.5, 30.0, 40.0, "KEYWORDS: Vehicle, Walker, Imperium,"),
        text(8.5, 60.0, 31.0, "Cinder Walker"),
        text(8.5, 480.0, 40.0, "FACTION KEYWORDS:"),
        text(8.5, 480.0, 31.0, "Adeptus Mechanicus"),
    ]
    .concat();
    pdf(&[front, back])
}

// --- issue 27, package B: the document kind ----------------------------------------------------

/// `errata-titled-index-cards.pdf`: an errata document whose title is `INDEX CARDS` (as the
/// index cards' errata print it), with a `M T SV W LD OC` mini-table in a `Profile line`
/// entry. The trap: the title and the profile header are the cards' cues; the `ERRATA`
/// heading and the `Target – Section` entries make it errata.
pub fn errata_titled_index_cards() -> Vec<u8> {
    let page: Vec<Operation> = [
        text(30.0, 250.0, 360.0, "INDEX CARDS"),
        text(12.0, 330.0, 340.0, "Version 1.0"),
        text(20.0, 30.0, 300.0, "ERRATA"),
        text(14.0, 30.0, 280.0, "ORDO CINDERIS"),
        text(8.0, 30.0, 268.0, "Cinder Walker \u{96} Keywords section"),
        text(8.0, 30.0, 258.0, "Add \u{91}FLY\u{92}."),
        text(8.0, 30.0, 240.0, "Ash Sentinels \u{96} Unit Composition"),
        text(
            8.0,
            30.0,
            230.0,
            "Change to \u{91}5-10 Ash Sentinels\u{92}.",
        ),
        text(8.0, 30.0, 212.0, "Ember Priest \u{96} Profile line"),
        text(8.0, 30.0, 202.0, "Change to read:"),
        row(
            7.0,
            190.0,
            &[
                (30.0, "M"),
                (60.0, "T"),
                (90.0, "SV"),
                (120.0, "W"),
                (150.0, "LD"),
                (180.0, "OC"),
            ],
        ),
        row(
            8.0,
            180.0,
            &[
                (30.0, "6\""),
                (60.0, "4"),
                (90.0, "3+"),
                (120.0, "4"),
                (150.0, "6+"),
                (180.0, "1"),
            ],
        ),
    ]
    .concat();
    pdf(&[page])
}

/// `unknown-gw-pdf.pdf`: a Games Workshop-looking page with no datasheet card, no points
/// line and no errata entry (a painting guide). The trap: it must give `S022` and no records,
/// never an empty read that says nothing.
pub fn unknown_gw_pdf() -> Vec<u8> {
    let page: Vec<Operation> = [
        text(30.0, 200.0, 360.0, "PAINTING GUIDE"),
        text(14.0, 30.0, 320.0, "CINDER WALKER"),
        text(
            9.0,
            30.0,
            300.0,
            "Basecoat the armour plates with a dark metal.",
        ),
        text(
            9.0,
            30.0,
            288.0,
            "Shade the recesses, then drybrush the edges.",
        ),
        text(
            9.0,
            30.0,
            276.0,
            "Finish the base with ash-coloured texture.",
        ),
    ]
    .concat();
    pdf(&[page])
}

// --- issue 27, package C: the points document ---------------------------------------------------

/// A points page (portrait 609 × 794 pt, as the Munitorum Field Manual): three columns
/// starting at x = 85 / 235 / 385, costs right-aligned at the column's end (≈ 214 / 364 /
/// 514), a faction heading in 36 pt across the top.
fn points_pdf(pages: &[Vec<Operation>]) -> Vec<u8> {
    let mut doc = pdf(pages);
    // Same writer, portrait box: rewrite the MediaBox of the page tree.
    let from = b"/MediaBox[0 0 760 400]";
    let to = b"/MediaBox[0 0 609 794]";
    if let Some(at) = doc.windows(from.len()).position(|w| w == from) {
        doc.splice(at..at + from.len(), to.iter().copied());
    }
    doc
}

/// A cost right-aligned to end at `right` (Helvetica digits are 0.556 em, `pts` ≈ 1.5 em).
fn cost(size: f32, right: f32, y: f32, t: &str) -> Vec<Operation> {
    let width = t.chars().count() as f32 * 0.5 * size;
    text(size, right - width, y, t)
}

/// Column `c`'s left edge and its costs' right edge.
fn column(c: usize) -> (f32, f32) {
    let x = 85.0 + 150.0 * c as f32;
    (x, x + 139.0)
}

/// A unit name then its tiers (label, cost) in column `c`, from `y` down; returns the next y.
fn unit(ops: &mut Vec<Operation>, c: usize, y: f32, name: &str, tiers: &[(&str, &str)]) -> f32 {
    let (x, right) = column(c);
    ops.extend(text(8.0, x + 1.0, y, name));
    let mut y = y - 10.0;
    for (label, pts) in tiers {
        if !label.is_empty() {
            ops.extend(text(8.0, x, y, label));
        }
        ops.extend(cost(8.0, right, y, pts));
        y -= 9.0;
    }
    y - 6.0
}

/// The title page every points fixture starts with: `MUNITORUM` / `FIELD MANUAL`, `VERSION`.
fn points_title(version: &str) -> Vec<Operation> {
    [
        text(40.0, 190.0, 660.0, "MUNITORUM"),
        text(40.0, 170.0, 615.0, "FIELD MANUAL"),
        text(16.0, 257.0, 595.0, version),
        text(
            8.0,
            85.0,
            570.0,
            "Welcome to the Munitorum Field Manual: the points values of every unit.",
        ),
    ]
    .concat()
}

/// `points-three-columns-heading-level-with-tier.pdf`: a faction's units over three columns;
/// the `FORGE WORLD POINTS VALUES` heading in the middle column and `DETACHMENT ENHANCEMENTS`
/// in the right one, level with tier lines of the columns beside them; a unit name that
/// wraps with `and`; an add-on `+20 pts`, and one whose `+` is a glyph run of its own; a
/// range `10-11 models`; a composition that wraps over two lines; two compositions of the
/// same size at the same cost. The traps: a reading by rows mixes the columns; a heading
/// level with a tier must not cut it.
pub fn points_three_columns() -> Vec<u8> {
    let mut p = text(36.0, 85.0, 690.0, "ORDO CINDERIS");
    let mut y = 670.0;
    y = unit(
        &mut p,
        0,
        y,
        "Ash Sentinels",
        &[("5 models", "90 pts"), ("10 models", "180 pts")],
    );
    y = unit(&mut p, 0, y, "Cinder Walker", &[("1 model", "115 pts")]);
    y = unit(&mut p, 0, y, "Ember Squad", &[("10-11 models", "110 pts")]);
    let (x, right) = column(0);
    p.extend(text(8.0, x + 1.0, y, "Furnace Brethren"));
    p.extend(text(8.0, x, y - 10.0, "1 Brother, 9 Novices"));
    p.extend(cost(8.0, right, y - 10.0, "145 pts"));
    p.extend(text(8.0, x, y - 19.0, "1 Brother, 4 Novices"));
    p.extend(text(8.0, x, y - 28.0, "and 5 Neophytes"));
    p.extend(cost(8.0, right, y - 28.0, "145 pts"));
    let mut y = 670.0;
    y = unit(
        &mut p,
        1,
        y,
        "Pyre Engine",
        &[("1 model", "140 pts"), ("Pyre Drone", "+20 pts")],
    );
    let (x, right) = column(1);
    p.extend(text(8.0, x + 1.0, y, "Soot Riders"));
    p.extend(text(8.0, x, y - 10.0, "3 models"));
    p.extend(cost(8.0, right, y - 10.0, "75 pts"));
    p.extend(text(8.0, x, y - 19.0, "Ash Bike"));
    p.extend(text(8.0, right - 30.0, y - 19.0, "+"));
    p.extend(cost(8.0, right, y - 19.0, "25 pts"));
    let y = y - 40.0;
    p.extend(text(12.0, x, y, "FORGE WORLD POINTS VALUES"));
    let y = y - 18.0;
    p.extend(text(8.0, x + 1.0, y, "Cinder Guard with Ash"));
    p.extend(text(8.0, x + 1.0, y - 9.0, "and Ember Spears"));
    p.extend(text(8.0, x, y - 19.0, "5 models"));
    p.extend(cost(8.0, right, y - 19.0, "325 pts"));
    let mut y = 670.0;
    y = unit(&mut p, 2, y, "Slag Lord", &[("1 model", "95 pts")]);
    let (x, right) = column(2);
    p.extend(text(12.0, x, y, "DETACHMENT ENHANCEMENTS"));
    p.extend(text(8.0, x + 1.0, y - 16.0, "Ash Host"));
    p.extend(text(8.0, x, y - 26.0, "Blade of Embers"));
    p.extend(cost(8.0, right, y - 26.0, "15 pts"));
    p.extend(text(8.0, x, y - 35.0, "Mantle of Soot"));
    p.extend(cost(8.0, right, y - 35.0, "25 pts"));
    points_pdf(&[points_title("VERSION 1.1"), p])
}

/// `points-faction-continues-next-page.pdf`: a faction's list goes on over a page that
/// repeats no heading, then a new faction starts mid-page in the middle column... printed as
/// the manual prints it, at the top of the next page. The traps: the second page's units are
/// still the first faction's; a heading naming no faction of the vocabulary keeps its own
/// scope (`P003`), never a guessed one.
pub fn points_faction_continues_next_page() -> Vec<u8> {
    let mut p1 = text(36.0, 85.0, 690.0, "ORKS");
    unit(
        &mut p1,
        0,
        670.0,
        "Boyz",
        &[("10 models", "85 pts"), ("20 models", "170 pts")],
    );
    let mut p2 = Vec::new();
    unit(&mut p2, 0, 690.0, "Deff Dread", &[("1 model", "135 pts")]);
    let mut p3 = text(36.0, 85.0, 690.0, "ORDO CINDERIS");
    unit(
        &mut p3,
        0,
        670.0,
        "Cinder Walker",
        &[("1 model", "115 pts")],
    );
    points_pdf(&[points_title("VERSION 1.0"), p1, p2, p3])
}

/// `points-legends-section.pdf`: a faction's list with a `WARHAMMER LEGENDS` section (none in
/// MFM 1.0/1.1: built so), then a `FORGE WORLD POINTS VALUES` one. The trap: the Legends units
/// are flagged `legends`, the ones before it not, and the next section ends it.
pub fn points_legends_section() -> Vec<u8> {
    let mut p = text(36.0, 85.0, 690.0, "ORKS");
    let mut y = unit(&mut p, 0, 670.0, "Boyz", &[("10 models", "85 pts")]);
    let (x, _) = column(0);
    p.extend(text(12.0, x, y, "WARHAMMER LEGENDS"));
    y = unit(&mut p, 0, y - 18.0, "Big Trakk", &[("1 model", "90 pts")]);
    p.extend(text(12.0, x, y, "FORGE WORLD POINTS VALUES"));
    unit(
        &mut p,
        0,
        y - 18.0,
        "Kustom Stompa",
        &[("1 model", "800 pts")],
    );
    points_pdf(&[points_title("VERSION 1.0"), p])
}
