//! The PDF decoder and the Games Workshop card reader: hand-written PDFs (built here, byte by
//! byte) for the text-layer traps and malformed files, and the Space Wolves faction pack in
//! `../shared/corpus/pdf` for golden values read by hand, Wahapedia's export and the
//! `pdftotext -layout` oracle (run only where poppler-utils is installed).

use cogitator::decode;
use cogitator::ir::BlockKind;
use cogitator::source::SourceFile;

/// A PDF with one page per content stream, every page using the fonts given (name, font
/// dictionary body), with a correct cross-reference table.
fn pdf(pages: &[&str], fonts: &[(&str, &str)]) -> Vec<u8> {
    pdf_with(pages, fonts, &[], "")
}

/// [`pdf`] with extra objects (numbered from 3 + fonts) and extra resource entries.
fn pdf_with(pages: &[&str], fonts: &[(&str, &str)], extra: &[&str], resources: &str) -> Vec<u8> {
    pdf_boxes(
        pages,
        fonts,
        extra,
        resources,
        "/MediaBox [0 0 600 400]",
        "",
    )
}

/// [`pdf_with`] with the page dictionaries' box entries (`page_attrs`) and further entries of
/// the page tree's root (`tree_attrs`, inherited by every page).
fn pdf_boxes(
    pages: &[&str],
    fonts: &[(&str, &str)],
    extra: &[&str],
    resources: &str,
    page_attrs: &str,
    tree_attrs: &str,
) -> Vec<u8> {
    let mut objects: Vec<String> = Vec::new();
    // 1: catalog, 2: pages, then fonts, extra objects, then (page, content) pairs.
    let font_base = 3;
    let page_base = font_base + fonts.len() + extra.len();
    let kids: Vec<String> = (0..pages.len())
        .map(|i| format!("{} 0 R", page_base + 2 * i))
        .collect();
    objects.push("<< /Type /Catalog /Pages 2 0 R >>".into());
    objects.push(format!(
        "<< /Type /Pages /Kids [{}] /Count {} {tree_attrs} >>",
        kids.join(" "),
        pages.len()
    ));
    let font_refs: Vec<String> = fonts
        .iter()
        .enumerate()
        .map(|(i, (n, _))| format!("/{n} {} 0 R", font_base + i))
        .collect();
    for (_, body) in fonts {
        objects.push(body.to_string());
    }
    for o in extra {
        objects.push(o.to_string());
    }
    for (i, content) in pages.iter().enumerate() {
        objects.push(format!(
            "<< /Type /Page /Parent 2 0 R {page_attrs} /Resources << /Font << {} >> {resources} >> /Contents {} 0 R >>",
            font_refs.join(" "),
            page_base + 2 * i + 1
        ));
        objects.push(format!(
            "<< /Length {} >>\nstream\n{}\nendstream",
            content.len() + 1,
            content
        ));
    }
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, o) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{o}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for off in offsets {
        out.extend_from_slice(format!("{off:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

const HELVETICA: &str =
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>";

fn decoded(bytes: Vec<u8>) -> (Option<cogitator::ir::Document>, Vec<String>) {
    let d = decode::decode(&SourceFile::new("t.pdf", bytes));
    let codes = d.diagnostics.iter().map(|d| d.code.to_string()).collect();
    (d.document, codes)
}

fn texts(doc: &cogitator::ir::Document) -> Vec<String> {
    doc.blocks.iter().map(|b| b.text.clone()).collect()
}

#[test]
fn a_text_layer_becomes_blocks_with_page_and_box() {
    let page = "BT /F1 12 Tf 72 300 Td (Hello world) Tj ET";
    let (doc, codes) = decoded(pdf(&[page], &[("F1", HELVETICA)]));
    let doc = doc.expect("a document");
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(texts(&doc), ["Hello world"]);
    let span = doc.blocks[0].span;
    assert_eq!(span.page, Some(1));
    let b = span.bbox.expect("a box").0;
    assert!(
        (b[0] - 72.0).abs() < 0.5 && b[1] < 300.0 && b[3] > 300.0,
        "{b:?}"
    );
    assert!(
        b[2] > 72.0 + 50.0,
        "width from the font's widths or default: {b:?}"
    );
}

/// Every block carries its page's size: the CropBox (else MediaBox) width and height and the
/// inherited `/Rotate`; boxes are moved to the CropBox's lower-left corner.
#[test]
fn blocks_carry_the_page_size_and_boxes_from_the_crop_box_origin() {
    use cogitator::source::PageSize;
    let page = "BT /F1 12 Tf 72 300 Td (Hello) Tj ET";
    let bytes = pdf_boxes(
        &[page, page],
        &[("F1", HELVETICA)],
        &[],
        "",
        "/MediaBox [0 0 600 400] /CropBox [10 20 590 380]",
        "/Rotate -270",
    );
    let (doc, codes) = decoded(bytes);
    let doc = doc.expect("a document");
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(doc.blocks.len(), 2);
    let size = PageSize {
        width: 580.0,
        height: 360.0,
        rotate: 90,
    };
    for b in &doc.blocks {
        assert_eq!(b.span.page_size, Some(size));
        let x0 = b.span.bbox.expect("a box").0[0];
        assert!((x0 - 62.0).abs() < 0.5, "72 - 10: {x0}");
    }
    // No CropBox and no /Rotate: the MediaBox, not rotated (and `rotate` is not written).
    let (doc, _) = decoded(pdf(&[page], &[("F1", HELVETICA)]));
    let span = doc.expect("a document").blocks[0].span;
    assert_eq!(
        span.page_size,
        Some(PageSize {
            width: 600.0,
            height: 400.0,
            rotate: 0
        })
    );
    let json = serde_json::to_string(&span).unwrap_or_default();
    assert!(
        json.contains(r#""page_size":{"width":600.0,"height":400.0}"#),
        "{json}"
    );
}

/// A space drawn and then overprinted (the text moves back over it and draws the next letter
/// there, as the pack's `** This model…` note does) is no word break.
#[test]
fn an_overprinted_space_is_no_word_break() {
    // Spaces 250 units wide, every other glyph 600: the second space lies within the `T`.
    let font = format!(
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [250 {}] >>",
        "600 ".repeat(94)
    );
    let page = "BT /F1 12 Tf 72 300 Td [(**  ) 260 (This model)] TJ ET";
    let (doc, codes) = decoded(pdf(&[page], &[("F1", &font)]));
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(texts(&doc.expect("a document")), ["** This model"]);
}

#[test]
fn stream_order_is_not_reading_order_and_table_cells_stay_in_rows() {
    // Drawn bottom line first, right column before left; a three-value table row.
    let page = "BT /F1 10 Tf 1 0 0 1 72 200 Tm (second line of the left column) Tj ET \
                BT /F1 10 Tf 1 0 0 1 320 212 Tm (right column text) Tj ET \
                BT /F1 10 Tf 1 0 0 1 72 212 Tm (first line of the left column) Tj ET \
                BT /F1 10 Tf 1 0 0 1 320 200 Tm (right column again) Tj ET \
                BT /F1 10 Tf 72 100 Td (Bolt pistol) Tj 150 0 Td (12\") Tj 40 0 Td (1) Tj 40 0 Td (3+) Tj ET";
    let (doc, _) = decoded(pdf(&[page], &[("F1", HELVETICA)]));
    let doc = doc.expect("a document");
    assert_eq!(
        texts(&doc),
        [
            "first line of the left column",
            "second line of the left column",
            "right column text",
            "right column again",
            "Bolt pistol | 12\" | 1 | 3+",
        ]
    );
    assert_eq!(doc.blocks[4].kind, BlockKind::TableRow);
    assert_eq!(doc.blocks[4].cells, ["Bolt pistol", "12\"", "1", "3+"]);
}

#[test]
fn small_caps_differences_nbhyphen_controls_and_letter_spacing_are_normalized() {
    // Codes 1–4 are small-cap glyphs named `T.sc`, `W.sc`… as GW's fonts name them; 5 is the
    // non-breaking hyphen by name, 6 a control character through ToUnicode-less encoding.
    let font = "<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Conduit-Bold \
                /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [1 /T.sc /W.sc /I.sc /N.sc /uni2011 /uni0007] >> >>";
    let page = "BT /F1 10 Tf 72 300 Td (\\001\\002\\003\\004\\005LINKED) Tj ET \
                BT /F1 10 Tf 72 280 Td (KEYWORDS:\\006 Infantry) Tj ET \
                BT /F1 10 Tf 3 Tc 72 260 Td (L E G E N D S) Tj ET";
    let (doc, codes) = decoded(pdf(&[page], &[("F1", font)]));
    let doc = doc.expect("a document");
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(
        texts(&doc),
        ["TWIN-LINKED", "KEYWORDS: Infantry", "LEGENDS"]
    );
}

#[test]
fn dot_leaders_and_replacement_characters_never_reach_text() {
    // A Type0 font (two-byte codes) whose ToUnicode maps code 9 to U+FFFD, as leaders read.
    let cmap = "1 begincodespacerange <0000> <FFFF> endcodespacerange \
                3 beginbfchar <0001> <0041> <0002> <0042> <0009> <FFFD> endbfchar";
    let font = "<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H \
                /DescendantFonts [<< /Type /Font /Subtype /CIDFontType2 /DW 500 >>] /ToUnicode 5 0 R >>";
    let tounicode = format!(
        "<< /Length {} >>\nstream\n{cmap}\nendstream",
        cmap.len() + 1
    );
    let page = "BT /F2 10 Tf 72 300 Td <00010002000900090009000900090009000900090009> Tj ET \
                BT /F1 10 Tf 72 280 Td (Contents ........ 2) Tj ET";
    let (doc, codes) = decoded(pdf_with(
        &[page],
        &[("F1", HELVETICA), ("F2", font)],
        &[&tounicode],
        "",
    ));
    assert!(codes.is_empty(), "{codes:?}");
    let doc = doc.expect("a document");
    assert_eq!(doc.blocks[0].text, "AB", "leaders dropped");
    assert_eq!(doc.blocks[1].cells, ["Contents", "2"]);
    assert!(!texts(&doc).concat().contains('\u{FFFD}'));
}

#[test]
fn malformed_pdfs_are_diagnostics_never_panics() {
    let good = pdf(
        &["BT /F1 12 Tf 72 300 Td (Hello) Tj ET"],
        &[("F1", HELVETICA)],
    );
    // Truncated at every 97th byte.
    for cut in (0..good.len()).step_by(97) {
        let d = decode::decode(&SourceFile::new("cut.pdf", good[..cut].to_vec()));
        if cut >= 5 {
            assert!(
                d.document.is_some() || !d.diagnostics.is_empty(),
                "cut at {cut}: neither a document nor a diagnostic"
            );
        }
    }
    // Junk after the header.
    let (_, codes) = decoded(b"%PDF-1.7\n\x00\xff garbage (((( [[[[ << <<".to_vec());
    assert_eq!(codes, ["S015"]);
    // Nested arrays deep enough to overflow a recursive parser.
    let mut deep = b"%PDF-1.4\n1 0 obj\n".to_vec();
    deep.extend(std::iter::repeat_n(b'[', 100_000));
    let (_, codes) = decoded(deep);
    assert_eq!(codes, ["S015"]);
    // Encrypted with a password.
    let mut enc = good.clone();
    let s = String::from_utf8_lossy(&enc).replace(
        "/Root 1 0 R >>",
        "/Root 1 0 R /Encrypt << /Filter /Standard /V 2 /R 3 /Length 128 /P -4 /O <00> /U <00> >> /ID [<01> <01>] >>",
    );
    enc = s.into_bytes();
    let (_, codes) = decoded(enc);
    assert_eq!(codes, ["S015"], "an encrypted file is reported");
}

#[test]
fn pages_without_text_are_reported() {
    let image_only = "q 100 0 0 100 0 0 cm /Im1 Do Q BI /W 1 /H 1 /CS /G /BPC 8 ID \x00 EI";
    let (doc, codes) = decoded(pdf(&[image_only], &[("F1", HELVETICA)]));
    assert!(doc.is_none(), "a PDF with nothing readable is skipped");
    assert_eq!(codes, ["S016"]);
    let (doc, codes) = decoded(pdf(
        &["BT /F1 12 Tf 72 300 Td (Hello) Tj ET", image_only],
        &[("F1", HELVETICA)],
    ));
    assert_eq!(doc.map(|d| d.blocks.len()), Some(1));
    assert_eq!(codes, ["S016"]);
}

#[test]
fn form_xobjects_are_read_and_one_that_draws_itself_ends() {
    // Object 4 is a form that shows text, then draws itself.
    let form_content = "BT /F1 10 Tf 0 0 Td (inside the form) Tj ET /Fm1 Do";
    let form = format!(
        "<< /Type /XObject /Subtype /Form /BBox [0 0 600 400] /Matrix [1 0 0 1 100 200] \
         /Resources << /Font << /F1 3 0 R >> /XObject << /Fm1 4 0 R >> >> /Length {} >>\nstream\n{form_content}\nendstream",
        form_content.len() + 1
    );
    let bytes = pdf_with(
        &["q /Fm1 Do Q BT /F1 10 Tf 100 100 Td (after the form) Tj ET"],
        &[("F1", HELVETICA)],
        &[&form],
        "/XObject << /Fm1 4 0 R >>",
    );
    let (doc, codes) = decoded(bytes);
    let doc = doc.expect("a document");
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(texts(&doc), ["inside the form", "after the form"]);
    let b = doc.blocks[0].span.bbox.expect("a box").0;
    assert!(
        (b[0] - 100.0).abs() < 0.5 && b[1] < 200.0 && b[3] > 200.0,
        "form matrix applied: {b:?}"
    );
}

// --- The Space Wolves faction pack (../shared/corpus/pdf) ---------------------------------

const PACK: &str = "pdf/eng_08-10_warhammer40000_faction_pack_space_wolves.pdf";

/// The pack's bytes, or `None` with the corpus helper's printed reason.
fn pack() -> Option<Vec<u8>> {
    let corpus = crate::util::corpus()?;
    std::fs::read(corpus.join(PACK)).ok()
}

/// The pack through the pipeline (no validation stage), alone.
fn pack_dataset(bytes: &[u8]) -> cogitator::model::Dataset {
    crate::util::ingest_in_memory(&[(PACK, bytes)])
}

fn ds<'d>(d: &'d cogitator::model::Dataset, id: &str) -> &'d cogitator::model::Datasheet {
    d.datasheets
        .iter()
        .find(|x| x.id == id)
        .unwrap_or_else(|| panic!("datasheet {id} missing"))
}

fn profile_values(p: &cogitator::model::ModelProfile) -> Vec<&str> {
    ["M", "T", "Sv", "W", "Ld", "OC"]
        .iter()
        .map(|k| p.get(k).unwrap_or("-"))
        .collect()
}

fn weapon_row(w: &cogitator::model::WeaponProfile) -> String {
    let vals: Vec<&str> = ["range", "A", "skill", "S", "AP", "D"]
        .iter()
        .map(|k| w.get(k).unwrap_or("-"))
        .collect();
    format!("{} {} [{}]", w.name, vals.join(" "), w.keywords.join(", "))
}

/// Golden values read by hand off the pages (page numbers as the PDF viewer counts them).
#[test]
fn faction_pack_golden_values() {
    let Some(bytes) = pack() else { return };
    let d = pack_dataset(&bytes);
    assert_eq!(d.datasheets.len(), 19, "19 datasheet cards, two pages each");
    // Canis Wolfborn, pages 5–6.
    let canis = ds(&d, "10e:space-marines:canis-wolfborn");
    assert_eq!(canis.name.as_deref(), Some("Canis Wolfborn"));
    assert_eq!(
        profile_values(&canis.models[0]),
        ["10\"", "6", "3+", "6", "6+", "2"]
    );
    let pages: Vec<Option<u32>> = canis.sources.iter().map(|s| s.page).collect();
    assert_eq!(pages, [Some(5), Some(6)], "one datasheet, both pages");
    assert!(canis.sources.iter().all(|s| s.bbox.is_some()));
    let rows: Vec<String> = canis.weapons.iter().map(weapon_row).collect();
    assert_eq!(
        rows,
        [
            "Bolt pistol 12\" 1 5+ 4 0 1 [PISTOL]",
            "Crushing teeth and claws Melee 3 4+ 5 -1 1 [EXTRA ATTACKS]",
            "Wolf claws Melee 8 2+ 5 -2 1 [TWIN-LINKED]",
        ]
    );
    let kw: Vec<String> = canis.keywords.iter().map(|k| k.to_uppercase()).collect();
    assert_eq!(
        kw,
        [
            "MOUNTED",
            "CHARACTER",
            "EPIC HERO",
            "IMPERIUM",
            "CANIS WOLFBORN"
        ]
    );
    let fk: Vec<String> = canis
        .faction_keywords
        .iter()
        .map(|k| k.to_uppercase())
        .collect();
    assert_eq!(fk, ["ADEPTUS ASTARTES", "SPACE WOLVES"]);
    assert_eq!(canis.leads, ["FENRISIAN WOLVES", "THUNDERWOLF CAVALRY"]);
    let names: Vec<&str> = canis.abilities.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Leader",
            "Oath of Moment",
            "Born of Wolves",
            "Alpha Predator"
        ]
    );
    // Long Fangs, page 17: a weapon name wrapped over two lines with its values between
    // them, and a profile footnote drawn on the Power weapon row's baseline.
    let fangs = ds(&d, "10e:space-marines:long-fangs");
    let rows: Vec<String> = fangs.weapons.iter().map(weapon_row).collect();
    assert!(rows.contains(
        &"Plasma cannon – supercharge 36\" D3 4+ 8 -3 2 [BLAST, HAZARDOUS, HEAVY]".to_string()
    ));
    assert!(rows.contains(&"Power weapon Melee 2 3+ 5 -2 1 []".to_string()));
    assert_eq!(fangs.weapons.len(), 14);
    assert!(fangs.abilities.iter().all(|a| !a.name.contains("Designer")));
    // The designer's note below Armorium Cherub ends that ability's text.
    let cherub = fangs
        .abilities
        .iter()
        .find(|a| a.name == "Armorium Cherub")
        .expect("Armorium Cherub");
    assert_eq!(
        cherub.text.as_deref(),
        Some(
            "Once per battle, after making a Hit roll for a model in this unit, you can change \
             that roll to an unmodified 6.\n\nDesigner’s Note: Place an Armorium Cherub token \
             next to the unit, removing it once this ability has been used."
        )
    );
    // Hounds of Morkai, page 11: `INVULNERABLE SAVE*` and its condition.
    let hounds = ds(&d, "10e:space-marines:hounds-of-morkai");
    assert_eq!(hounds.invulnerable_save.as_deref(), Some("6+"));
    assert!(hounds
        .invulnerable_save_condition
        .as_deref()
        .is_some_and(|c| c.to_lowercase()
            == "this invulnerable save is improved to 4+ against psychic attacks."));
    // Logan Grimnar on Stormrider: two-digit values in the big profile boxes.
    let logan = ds(&d, "10e:space-marines:logan-grimnar-on-stormrider");
    assert_eq!(
        profile_values(&logan.models[0]),
        ["10\"", "6", "2+", "12", "6+", "4"]
    );
    assert_eq!(logan.invulnerable_save.as_deref(), Some("4+"));
    // Stormfang Gunship: DAMAGED box.
    let stormfang = ds(&d, "10e:space-marines:stormfang-gunship");
    assert_eq!(
        stormfang.damaged.as_ref().map(|n| n.name.as_str()),
        Some("DAMAGED: 1-5 WOUNDS REMAINING")
    );
    assert_eq!(
        profile_values(&stormfang.models[0]),
        ["20+\"", "10", "3+", "14", "6+", "0"]
    );
    // Pages 25–26: the DAMAGED box ends where the box ends, not with the weapon table's
    // footnote set below it (`Before selecting targets…`, smaller type) nor with the flavor
    // text at the top of the card's back.
    let stormwolf = ds(&d, "10e:space-marines:stormwolf");
    assert_eq!(
        stormwolf.damaged.as_ref().map(|x| x.text.as_str()),
        Some(
            "While this model has 1-5 wounds remaining, each time this model makes an attack, \
             subtract 1 from the Hit roll."
        )
    );
    // Pages 31–32: the front's last ability does not run on into the back's flavor text.
    let battle_leader = ds(
        &d,
        "10e:space-marines:wolf-guard-battle-leader-on-thunderwolf",
    );
    let shield = battle_leader
        .abilities
        .iter()
        .find(|a| a.name == "Storm Shield")
        .expect("Storm Shield");
    assert_eq!(
        shield.text.as_deref(),
        Some("The bearer has a 4+ invulnerable save.")
    );
    // Every card carries the `WARHAMMER LEGENDS` badge (letter-spaced) on both its pages.
    assert!(d.datasheets.iter().all(|x| x.legends));
    // Page 2: the detachment, its rule and four enhancements (no points printed).
    assert_eq!(d.detachments.len(), 1);
    let det = &d.detachments[0];
    assert_eq!(det.name, "Champions of Fenris");
    assert_eq!(
        det.rules,
        ["10e:space-marines/detachment:the-great-wolf-watches"]
    );
    // The rule's text ends with the RESTRICTIONS box below it (its drop cap `Y` joined to
    // `our`; the keywords in the small capitals the page prints), as Wahapedia prints it.
    let rule = d
        .rules
        .iter()
        .find(|r| r.id == det.rules[0])
        .expect("the detachment rule");
    assert!(
        rule.text
            .starts_with("At the end of your opponent’s Charge phase, each ")
            && rule.text.ends_with(
                "in those units.\n\nRESTRICTIONS\n\nYour army can include SPACE WOLVES units, \
                 but it cannot include any ADEPTUS ASTARTES units drawn from any other Chapter."
            ),
        "{:?}",
        rule.text
    );
    let mut enh: Vec<&str> = d
        .enhancements
        .iter()
        .filter_map(|e| e.name.as_deref())
        .collect();
    enh.sort_unstable();
    assert_eq!(
        enh,
        [
            "Fangrune Pendant",
            "Foes’ Fate",
            "Longstrider",
            "Wolves’ Wisdom"
        ]
    );
    assert!(d.enhancements.iter().all(|e| e.points.is_none()));
    // Page 3: six stratagems in two columns, the CP in the gutter.
    assert_eq!(d.stratagems.len(), 6);
    let aoc = d
        .stratagems
        .iter()
        .find(|s| s.name == "Armour of Contempt")
        .expect("Armour of Contempt");
    assert_eq!(aoc.cp, Some(1));
    assert_eq!(aoc.group.as_deref(), Some("Champions of Fenris"));
    assert_eq!(aoc.category.as_deref(), Some("Strategic Ploy"));
    assert_eq!(
        aoc.when.as_deref(),
        Some("Your opponent’s Shooting phase or the Fight phase, just after an enemy unit has selected its targets.")
    );
    assert_eq!(aoc.sources[0].page, Some(3));
    // The CP box in the gutter, level with a line inside a paragraph, does not split it.
    let strat = |name: &str| {
        d.stratagems
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("{name}"))
    };
    assert_eq!(
        strat("Chilling Howl").flavor.as_deref(),
        Some(
            "Raising their feral voices as one, the elite champions of Fenris give voice to a \
             predatory howl fit to freeze the marrow of the bravest warriors."
        )
    );
    assert_eq!(
        strat("Preytaker’s Eye").target.as_deref(),
        Some(
            "One ADEPTUS ASTARTES INFANTRY unit from your army that has not been selected to \
             shoot or fight this phase."
        )
    );
    assert!(d
        .stratagems
        .iter()
        .flat_map(|s| [&s.flavor, &s.when, &s.target, &s.effect])
        .all(|t| !t.as_deref().unwrap_or("").contains('\n')));
    assert!(d.stratagems.iter().all(|s| s.cp == Some(1)
        && s.when.is_some()
        && s.target.is_some()
        && s.effect.as_deref().is_some_and(|e| !e.ends_with('2'))));
    assert_eq!(d.manifest.inputs.len(), 1);
}

/// Every place a record of the pack names (record sources, sub-records' `at`, rule
/// occurrences) carries its page's size, read by hand off the file (`/MediaBox` = `/CropBox`,
/// `/Rotate 0` on all 42 pages: pages 1 and 4 are A4, 595.276 × 841.89; pages 2–3, the
/// detachment and stratagems, 609.449 × 793.701; the cards 5–42 538.583 × 357.165), and its
/// box lies on the page.
#[test]
fn faction_pack_locations_carry_their_page_size() {
    let Some(bytes) = pack() else { return };
    let d = pack_dataset(&bytes);
    let size = |page: u64| match page {
        1 | 4 => (595.276, 841.89),
        2 | 3 => (609.449, 793.701),
        _ => (538.583, 357.165),
    };
    let all = serde_json::to_value((
        &d.datasheets,
        &d.stratagems,
        &d.enhancements,
        &d.detachments,
        &d.rules,
    ))
    .unwrap_or_default();
    let mut stack = vec![&all];
    let (mut places, mut pages) = (0, std::collections::BTreeSet::new());
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Array(a) => stack.extend(a),
            serde_json::Value::Object(o) => {
                if let Some(page) = o.get("page").and_then(|p| p.as_u64()) {
                    places += 1;
                    pages.insert(page);
                    let ps = &o["page_size"];
                    let (w, h) = (ps["width"].as_f64(), ps["height"].as_f64());
                    let (ew, eh) = size(page);
                    assert!(
                        w.is_some_and(|w| (w - ew).abs() < 1e-3)
                            && h.is_some_and(|h| (h - eh).abs() < 1e-3)
                            && ps.get("rotate").is_none(),
                        "page {page}: {ps}"
                    );
                    let b: Vec<f64> = o["bbox"]
                        .as_array()
                        .map(|a| a.iter().filter_map(|x| x.as_f64()).collect())
                        .unwrap_or_default();
                    assert!(
                        b.len() == 4 && b[0] >= 0.0 && b[1] >= 0.0 && b[2] <= ew && b[3] <= eh,
                        "page {page}: box {b:?} off the page {ew} × {eh}"
                    );
                }
                stack.extend(o.values());
            }
            _ => {}
        }
    }
    assert!(places > 300, "{places} places");
    // The detachment page, the stratagems and every card page are among them.
    assert!(
        [2, 3, 5, 6, 41, 42].iter().all(|p| pages.contains(p)),
        "{pages:?}"
    );
}

/// No text-layer artefact reaches a record: every string of every record (names, text, ids,
/// keywords, values) is free of control characters other than the paragraph breaks (`\n`;
/// the text layer's U+0007/U+0008 after `KEYWORDS:` and bullets), U+FFFD (dot leaders),
/// U+2011/U+2010 (non-breaking hyphens), soft hyphens, ligature code points, private-use
/// glyphs, a drop cap split from its word (`Y our`) and letter-spaced capitals
/// (`W A R H A M M E R`).
#[test]
fn faction_pack_records_carry_no_text_layer_artifacts() {
    let Some(bytes) = pack() else { return };
    let d = pack_dataset(&bytes);
    let all = serde_json::to_value((
        &d.datasheets,
        &d.stratagems,
        &d.enhancements,
        &d.detachments,
        &d.rules,
    ))
    .unwrap_or_default();
    let drop_cap = regex::Regex::new(r"(^|\s)[B-HJ-Z] [a-z]").expect("regex");
    let spaced = regex::Regex::new(r"\b[A-Z] [A-Z] [A-Z]\b").expect("regex");
    let mut stack = vec![&all];
    let mut strings = 0;
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Array(a) => stack.extend(a),
            serde_json::Value::Object(o) => stack.extend(o.values()),
            serde_json::Value::String(t) => {
                strings += 1;
                let bad = t.chars().find(|&c| {
                    (c.is_control() && c != '\n')
                        || matches!(c, '\u{FFFD}' | '\u{2010}' | '\u{2011}' | '\u{AD}')
                        || ('\u{FB00}'..='\u{FB06}').contains(&c)
                        || ('\u{E000}'..='\u{F8FF}').contains(&c)
                });
                assert!(
                    bad.is_none(),
                    "U+{:04X} in {t:?}",
                    bad.map_or(0, |c| c as u32)
                );
                assert!(
                    !drop_cap.is_match(t),
                    "a drop cap split from its word: {t:?}"
                );
                assert!(!spaced.is_match(t), "letter-spaced capitals: {t:?}");
            }
            _ => {}
        }
    }
    assert!(strings > 2000, "{strings} strings");
    assert!(d.quarantine.is_empty(), "{:?}", d.quarantine.first());
    let errors: Vec<_> = d
        .diagnostics
        .iter()
        .filter(|x| x.code != "S017")
        .map(|x| format!("{} {}", x.code, x.message))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// The 19 Space Wolves datasheets from the PDF and Wahapedia's export are one datasheet each
/// with both sources; every difference is one of the explained ones.
#[test]
fn faction_pack_against_wahapedia_export() {
    let Some(corpus) = crate::util::corpus() else {
        return;
    };
    let Ok(pdf) = std::fs::read(corpus.join(PACK)) else {
        return;
    };
    let mut files: Vec<(String, Vec<u8>)> = vec![(PACK.to_string(), pdf)];
    let dir = corpus.join("wahapedia-csv/2025-11-14");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .map(|r| r.filter_map(|e| e.ok()).map(|e| e.path()).collect())
        .unwrap_or_default();
    names.sort();
    for p in names {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        files.push((
            format!("wahapedia-csv/2025-11-14/{name}"),
            std::fs::read(&p).unwrap_or_default(),
        ));
    }
    let refs: Vec<(&str, &[u8])> = files
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .collect();
    let d = crate::util::ingest_in_memory(&refs);
    let from_pdf: Vec<&cogitator::model::Datasheet> = d
        .datasheets
        .iter()
        .filter(|x| x.sources.iter().any(|s| s.file == PACK))
        .collect();
    assert_eq!(from_pdf.len(), 19);
    // Every card merges with the export. The export prints Wolf Scouts twice under Space
    // Marines (the codex datasheet and the Legends one), both with their publication in their
    // ids; the card, with its WARHAMMER LEGENDS badge, is the Legends one (the unit rule's
    // publication twin).
    for x in &from_pdf {
        let in_export = x
            .sources
            .iter()
            .any(|s| s.file.starts_with("wahapedia-csv/"));
        assert!(in_export, "{}: export source", x.id);
        assert!(x.legends, "{}", x.id);
    }
    assert!(from_pdf
        .iter()
        .any(|x| x.id == "10e:space-marines:wolf-scouts~space-wolves-warhammer-legends"));
    // No field differs any more: the points the cards do not print are absent (not a
    // difference), and the guns Long Fangs' card sends to the Armoury card are taken from the
    // export (which prints them) instead of being a difference.
    let differences: Vec<&str> = d
        .diagnostics
        .iter()
        .filter(|x| x.code == "X110" && x.message.contains("(pdf/"))
        .map(|x| x.message.as_str())
        .collect();
    assert!(differences.is_empty(), "{differences:#?}");
    // Long Fangs, page 18: `1 heavy flamer*` and the Pack Leader's list under `… one of the
    // following:*` (flamer, grav-gun, meltagun, plasma gun, plasma pistol), footnote `* The
    // profiles for these weapons can be found on the Space Wolves Armoury card.`
    let lf = ds(&d, "10e:space-marines:long-fangs");
    assert_eq!(
        lf.weapons_printed_elsewhere,
        [
            "heavy flamer",
            "flamer",
            "grav-gun",
            "meltagun",
            "plasma gun",
            "plasma pistol"
        ]
    );
    let from = |name: &str| {
        lf.weapons
            .iter()
            .find(|w| w.name == name)
            .map(|w| (weapon_row(w), w.at.file.clone()))
    };
    // Each taken with the export's profile and location; the card's own guns stay the card's.
    let (row, file) = from("Meltagun").expect("Meltagun from the export");
    assert_eq!(row, "Meltagun 12\" 1 3+ 9 -4 D6 [MELTA 2]");
    assert!(file.starts_with("wahapedia-csv/"), "{file}");
    for w in [
        "Flamer",
        "Heavy flamer",
        "Grav-gun",
        "Plasma gun – standard",
        "Plasma pistol – supercharge",
    ] {
        assert!(
            from(w).is_some_and(|(_, f)| f.starts_with("wahapedia-csv/")),
            "{w}"
        );
    }
    let (_, file) = from("Heavy bolter").expect("the card's Heavy bolter");
    assert_eq!(file, PACK);
    assert_eq!(
        lf.weapons.len(),
        22,
        "14 from the card, 8 profiles from the export"
    );
}

/// Word recall against `pdftotext -layout`, where poppler-utils is installed. Skipped with a
/// printed reason otherwise, unless COGITATOR_REQUIRE_PDFTOTEXT=1, which `.ci/run` sets once it
/// has installed poppler-utils.
#[test]
fn word_recall_against_pdftotext() {
    let Some(corpus) = crate::util::corpus() else {
        return;
    };
    let path = corpus.join(PACK);
    let out = match std::process::Command::new("pdftotext")
        .arg("-layout")
        .arg(&path)
        .arg("-")
        .output()
    {
        Ok(o) if o.status.success() => o.stdout,
        _ => {
            assert!(
                std::env::var("COGITATOR_REQUIRE_PDFTOTEXT").as_deref() != Ok("1"),
                "COGITATOR_REQUIRE_PDFTOTEXT=1 but pdftotext -layout did not run"
            );
            eprintln!(
                "skipped: pdftotext (poppler-utils) is not installed; the oracle test needs it"
            );
            return;
        }
    };
    let oracle = String::from_utf8_lossy(&out);
    let bytes = std::fs::read(&path).unwrap_or_default();
    let d = decode::decode(&SourceFile::new(PACK, bytes));
    let ours: String = d
        .document
        .map(|doc| doc.blocks.iter().map(|b| b.text.clone() + "\n").collect())
        .unwrap_or_default();
    let recall = word_recall(&oracle, &ours);
    eprintln!(
        "word recall against pdftotext -layout: {:.2}%",
        recall * 100.0
    );
    assert!(recall >= 0.995, "recall {recall}");
}

/// Words of `text`, lower-cased, punctuation trimmed, hyphenated line ends joined. Whitespace
/// is normalized the way a reader sees it: control characters and U+FFFD (the table of
/// contents' dot leaders) separate words, and a letter-spaced heading (`WA R HA M M E R`: three
/// or more fragments of one or two capitals, within one line and one column) is one word.
pub fn words(text: &str) -> Vec<String> {
    let joined = text
        .replace("-\n", "")
        .replace(['\u{2011}', '\u{2010}'], "-");
    let fragment = |t: &str| t.len() <= 2 && t.chars().all(|c| c.is_ascii_uppercase());
    let mut out = Vec::new();
    // A column gap (two spaces or more) or a line end ends a letter-spaced run.
    for segment in joined.split(['\n', '|']).flat_map(|l| l.split("  ")) {
        let tokens: Vec<&str> = segment
            .split(|c: char| c.is_whitespace() || c.is_control() || c == '\u{FFFD}')
            .filter(|w| !w.is_empty())
            .collect();
        let mut i = 0;
        while i < tokens.len() {
            let run = tokens[i..].iter().take_while(|t| fragment(t)).count();
            let (word, step) = if run >= 3 {
                (tokens[i..i + run].concat(), run)
            } else {
                (tokens[i].to_string(), 1)
            };
            let word = word
                .trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase();
            if !word.is_empty() {
                out.push(word);
            }
            i += step;
        }
    }
    out
}

/// Share of the oracle's words (as a multiset) that `ours` has. An oracle word that is not
/// among ours still counts when it is up to four consecutive words of ours written together
/// (`WA R HA M M E R L E G E N D S` is `WARHAMMER LEGENDS`).
pub fn word_recall(oracle: &str, ours: &str) -> f64 {
    let ours = words(ours);
    let mut have: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for w in &ours {
        *have.entry(w.as_str()).or_default() += 1;
    }
    let glued: std::collections::HashSet<String> = (2..=4)
        .flat_map(|n| ours.windows(n).map(|w| w.concat()))
        .collect();
    let want = words(oracle);
    let mut found = 0usize;
    for w in &want {
        if let Some(n) = have.get_mut(w.as_str()).filter(|n| **n > 0) {
            *n -= 1;
            found += 1;
        } else if glued.contains(w) {
            found += 1;
        }
    }
    found as f64 / want.len().max(1) as f64
}

#[test]
fn word_recall_counts_a_multiset() {
    assert_eq!(word_recall("a b b c", "b a c"), 0.75);
    assert_eq!(
        word_recall("Twin-\nlinked weapons", "twinlinked, WEAPONS"),
        1.0
    );
    // A letter-spaced heading is one word; dot leaders and control characters separate words.
    assert_eq!(
        word_recall("WA R HA M M E R LEGENDS", "Warhammer Legends"),
        1.0
    );
    assert_eq!(word_recall("Errata\u{8}\u{FFFD}\u{FFFD}4", "Errata 4"), 1.0);
    // Two short capitals are not a letter-spaced heading: `AP D` stays two words.
    assert_eq!(word_recall("AP D", "apd"), 0.0);
    // Nor does a run cross a line end or a column gap.
    assert_eq!(word_recall("A B\nC", "a b c"), 1.0);
    assert_eq!(word_recall("A B  C", "a b c"), 1.0);
    // A glued oracle word is found as consecutive words of ours, not as scattered ones.
    assert_eq!(
        word_recall("WA R HA M M E R L E G E N D S", "Warhammer Legends"),
        1.0
    );
    assert_eq!(
        word_recall("WA R HA M M E R L E G E N D S", "Legends of Warhammer"),
        0.0
    );
    assert_eq!(word_recall("a b", "a"), 0.5);
}

/// One text line of a hand-built page: `t` at (`x`, `y`) in Helvetica (`F1`) of `size`.
fn text_line(y: u32, size: f32, x: u32, t: &str) -> String {
    format!("BT /F1 {size} Tf {x} {y} Td ({t}) Tj ET ")
}

/// A table row of a hand-built page: the first cell at `x0`, the second 150 points right of
/// it, each next one 40 further.
fn text_row(y: u32, size: f32, x0: u32, cells: &[&str]) -> String {
    let mut s = format!("BT /F1 {size} Tf {x0} {y} Td ({}) Tj", cells[0]);
    for (k, c) in cells[1..].iter().enumerate() {
        let dx = if k == 0 { 150 } else { 40 };
        s.push_str(&format!(" {dx} 0 Td ({c}) Tj"));
    }
    s + " ET "
}

/// A hand-built faction pack: a detachment page, a stratagem page and a two-page card, laid
/// out as Games Workshop's template (positions, not stream order, give the reading).
#[test]
fn card_template_on_hand_built_pages() {
    let (row, line) = (text_row, text_line);
    let detachment = [
        line(700, 30.0, 100, "WOLF PACK"),
        line(600, 12.0, 100, "DETACHMENT RULE"),
        line(580, 12.0, 100, "HUNTERS"),
        line(560, 8.0, 100, "Old wolves hunt well."),
        line(540, 8.0, 100, "Add 1 to Hit rolls."),
        line(522, 12.0, 100, "RESTRICTIONS"),
        line(510, 8.0, 100, "Your army cannot include"),
        line(501, 8.0, 100, "Grey Knights."),
        line(480, 12.0, 350, "ENHANCEMENTS"),
        row(470, 12.0, 350, &["FANG", "15 pts"]),
        line(460, 8.0, 350, "A fang of a wolf."),
        line(440, 8.0, 350, "INFANTRY model only. Add 1 to Wound rolls."),
    ]
    .concat();
    // The CP box sits in the gutter left of the card; the type line's dash is WinAnsi 0x96.
    let stratagem = [
        line(700, 10.0, 190, "HOWL"),
        line(688, 6.0, 190, "WOLF PACK \\226 BATTLE TACTIC STRATAGEM"),
        // The CP box level with the second line of the wrapped TARGET: a cell of that line.
        line(652, 10.0, 150, "1CP"),
        line(670, 7.5, 190, "WHEN: Your Command phase."),
        line(661, 7.5, 190, "TARGET: One unit"),
        line(652, 7.5, 190, "from your army that howls."),
        line(643, 7.5, 190, "EFFECT: It howls."),
        line(634, 7.5, 190, "RESTRICTIONS: Once per battle."),
    ]
    .concat();
    let front = [
        line(360, 15.0, 20, "GREY WOLF"),
        row(340, 6.0, 30, &["M", "T", "SV", "W", "LD", "OC"]).replace(" 150 0 Td", " 40 0 Td"),
        row(320, 14.0, 30, &["6\\\"", "4", "3+", "2", "6+", "1"]).replace(" 150 0 Td", " 40 0 Td"),
        row(
            300,
            14.0,
            10,
            &["Leader", "6\\\"", "4", "3+", "3", "6+", "1"],
        )
        .replace(" 150 0 Td", " 60 0 Td"),
        row(
            280,
            9.0,
            40,
            &["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"],
        ),
        row(
            268,
            7.5,
            40,
            &["Bolt rifle [HEAVY]", "24\\\"", "2", "3+", "4", "-1", "1"],
        ),
        row(
            240,
            9.0,
            40,
            &["MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"],
        ),
        row(228, 7.5, 40, &["Claws", "Melee", "3", "3+", "4", "0", "1"]),
        line(280, 9.0, 480, "ABILITIES"),
        line(268, 7.5, 480, "CORE: Scouts 6\\\""),
        line(250, 7.5, 480, "Pack Hunter: Each time this unit"),
        line(241, 7.5, 480, "fights, re-roll a Hit roll of 1."),
        line(200, 9.0, 480, "INVULNERABLE SAVE"),
        line(40, 8.5, 30, "KEYWORDS: Infantry, Imperium,"),
        line(31, 8.5, 60, "Grey Wolf"),
        line(40, 8.5, 480, "FACTION KEYWORDS:"),
        line(31, 8.5, 480, "Adeptus Astartes, Space Wolves"),
    ]
    .concat();
    let back = [
        line(360, 15.0, 20, "GREY WOLF"),
        // Flavor text before the back's boxes: no field, and not the front's last ability.
        line(330, 7.5, 30, "Grey wolves roam the ice plains."),
        line(300, 9.0, 30, "WARGEAR OPTIONS"),
        line(288, 7.5, 30, "\\225 None"),
        line(300, 9.0, 480, "UNIT COMPOSITION"),
        line(288, 7.5, 480, "\\225 5 Grey Wolves"),
        line(276, 7.5, 480, "Every model is equipped with: claws."),
        line(40, 8.5, 30, "KEYWORDS: Infantry, Imperium,"),
        line(31, 8.5, 60, "Grey Wolf"),
        line(40, 8.5, 480, "FACTION KEYWORDS:"),
        line(31, 8.5, 480, "Adeptus Astartes, Space Wolves"),
    ]
    .concat();
    let bytes = pdf(
        &[&detachment, &stratagem, &front, &back],
        &[("F1", HELVETICA)],
    );
    let d = crate::util::ingest_in_memory(&[("pack.pdf", bytes)]);
    assert!(d.quarantine.is_empty(), "{:?}", d.quarantine);
    assert_eq!(d.datasheets.len(), 1, "{:?}", d.diagnostics);
    let wolf = &d.datasheets[0];
    assert_eq!(wolf.id, "10e:space-marines:grey-wolf");
    let pages: Vec<Option<u32>> = wolf.sources.iter().map(|s| s.page).collect();
    assert_eq!(pages, [Some(3), Some(4)]);
    assert_eq!(
        profile_values(&wolf.models[0]),
        ["6\"", "4", "3+", "2", "6+", "1"]
    );
    assert_eq!(
        profile_values(&wolf.models[1]),
        ["6\"", "4", "3+", "3", "6+", "1"]
    );
    assert_eq!(
        wolf.models[1].name.as_deref(),
        Some("Leader"),
        "a second profile, named"
    );
    let rows: Vec<String> = wolf.weapons.iter().map(weapon_row).collect();
    assert_eq!(
        rows,
        [
            "Bolt rifle 24\" 2 3+ 4 -1 1 [HEAVY]",
            "Claws Melee 3 3+ 4 0 1 []"
        ]
    );
    let ab: Vec<(&str, Option<&str>)> = wolf
        .abilities
        .iter()
        .map(|a| (a.name.as_str(), a.text.as_deref()))
        .collect();
    assert_eq!(
        ab,
        [
            ("Scouts", None),
            (
                "Pack Hunter",
                Some("Each time this unit fights, re-roll a Hit roll of 1.")
            )
        ]
    );
    assert_eq!(wolf.keywords, ["Infantry", "Imperium", "Grey Wolf"]);
    assert!(!wolf.legends, "no WARHAMMER LEGENDS badge");
    assert_eq!(wolf.unit_composition, ["5 Grey Wolves"]);
    assert!(wolf.wargear_options.is_empty(), "■ None is no option");
    assert_eq!(d.stratagems.len(), 1);
    let s = &d.stratagems[0];
    assert_eq!(
        (
            s.name.as_str(),
            s.cp,
            s.category.as_deref(),
            s.effect.as_deref()
        ),
        ("Howl", Some(1), Some("Battle Tactic"), Some("It howls."))
    );
    assert_eq!(s.restrictions.as_deref(), Some("Once per battle."));
    assert_eq!(
        s.target.as_deref(),
        Some("One unit from your army that howls.")
    );
    assert_eq!(s.sources[0].page, Some(2));
    assert_eq!(d.enhancements.len(), 1);
    let e = &d.enhancements[0];
    assert_eq!((e.name.as_deref(), e.points), (Some("Fang"), Some(15)));
    assert_eq!(e.detachment.as_deref(), Some("Wolf Pack"));
    assert_eq!(d.detachments.len(), 1);
    assert_eq!(
        d.detachments[0].rules,
        ["10e:space-marines/detachment:hunters"]
    );
    assert!(d.rules.iter().any(|r| r.text
        == "Add 1 to Hit rolls.\n\nRESTRICTIONS\n\nYour army cannot include Grey Knights."
        && r.flavor.as_deref() == Some("Old wolves hunt well.")
        && r.occurrences[0].page == Some(1)));
}

/// A card of two profiles, each model named to the right of its values in smaller type on a
/// baseline of its own (level with the row's middle, as Games Workshop's cards print them;
/// one name wrapped onto two lines), and a profile named in a cell of its row.
#[test]
fn multi_model_cards_name_each_profile() {
    let line =
        |y: f32, size: f32, x: u32, t: &str| format!("BT /F1 {size} Tf {x} {y} Td ({t}) Tj ET ");
    let values = |y: u32, vals: &[&str]| {
        let mut s = format!("BT /F1 14 Tf 30 {y} Td ({})  Tj", vals[0]);
        for v in &vals[1..] {
            s.push_str(&format!(" 40 0 Td ({v}) Tj"));
        }
        s + " ET "
    };
    let card = [
        line(360.0, 15.0, 20, "WOLF LORD AND WOLVES"),
        values(340, &["M", "T", "SV", "W", "LD", "OC"]).replace("/F1 14 Tf", "/F1 6 Tf"),
        // The name lines come first in the stream: reading order is by position.
        line(323.5, 7.0, 300, "WOLF LORD"),
        line(307.0, 7.0, 300, "FENRISIAN"),
        line(299.0, 7.0, 300, "WOLF"),
        values(320, &["6\\\"", "4", "3+", "5", "6+", "1"]),
        values(300, &["10\\\"", "4", "6+", "1", "7+", "0"]),
        line(280.0, 9.0, 40, "ABILITIES"),
        line(
            268.0,
            7.5,
            40,
            "Pack Hunter: Each time this unit fights, re-roll a Hit roll of 1.",
        ),
        line(
            40.0,
            8.5,
            30,
            "KEYWORDS: Infantry, Character, Imperium, Wolf Lord",
        ),
        line(40.0, 8.5, 480, "FACTION KEYWORDS:"),
        line(31.0, 8.5, 480, "Adeptus Astartes, Space Wolves"),
    ]
    .concat();
    let d = crate::util::ingest_in_memory(&[("card.pdf", pdf(&[&card], &[("F1", HELVETICA)]))]);
    assert_eq!(d.datasheets.len(), 1, "{:?}", d.diagnostics);
    let models: Vec<(Option<&str>, Vec<&str>)> = d.datasheets[0]
        .models
        .iter()
        .map(|m| (m.name.as_deref(), profile_values(m)))
        .collect();
    assert_eq!(
        models,
        [
            (Some("Wolf Lord"), vec!["6\"", "4", "3+", "5", "6+", "1"]),
            (
                Some("Fenrisian Wolf"),
                vec!["10\"", "4", "6+", "1", "7+", "0"]
            ),
        ]
    );
    // The profile's box holds its values and its name.
    let b = d.datasheets[0].models[1].at.bbox.expect("a box").0;
    assert!(b[0] < 31.0 && b[2] > 300.0, "{b:?}");
    let ab: Vec<&str> = d.datasheets[0]
        .abilities
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(ab, ["Pack Hunter"]);
}

/// A page of more units than any real page (6,000 separate words on a grid) is read row by
/// row, not cut column by column (the cut is quadratic in the worst case).
#[test]
fn a_page_of_thousands_of_cells_is_read_row_by_row() {
    let mut page = String::from("BT /F1 10 Tf ");
    for row in 0..100 {
        for col in 0..60 {
            page.push_str(&format!(
                "1 0 0 1 {} {} Tm (abcdefgh) Tj ",
                col * 60,
                2000 - row * 14
            ));
        }
    }
    page.push_str("ET");
    let (doc, codes) = decoded(pdf(&[&page], &[("F1", HELVETICA)]));
    assert!(codes.is_empty(), "{codes:?}");
    let doc = doc.expect("a document");
    assert_eq!(doc.blocks.len(), 100);
    assert!(doc.blocks.iter().all(|b| b.cells.len() == 60));
}

/// A hand-built pack of two detachments (each with its rule, the second with an enhancement),
/// a stratagem page listing one stratagem of each, and a vehicle's two-page card: DAMAGED box,
/// invulnerable save, a TRANSPORT box on the back, a core ability with its parameter. Laid
/// out as Games Workshop's template, the card's parts in the stream in another order.
#[test]
fn two_detachments_and_a_vehicle_card() {
    let (row, line) = (text_row, text_line);
    let first = [
        line(700, 30.0, 100, "WOLF PACK"),
        line(600, 12.0, 100, "DETACHMENT RULE"),
        line(580, 12.0, 100, "HUNTERS"),
        line(560, 8.0, 100, "Add 1 to Hit rolls."),
    ]
    .concat();
    let second = [
        line(700, 30.0, 100, "ICE HUNTERS"),
        line(600, 12.0, 100, "DETACHMENT RULE"),
        line(580, 12.0, 100, "COLD BLOOD"),
        line(560, 8.0, 100, "Add 1 to Wound rolls."),
        line(480, 12.0, 350, "ENHANCEMENTS"),
        row(470, 12.0, 350, &["FROST FANG", "20 pts"]),
        line(
            460,
            8.0,
            350,
            "CHARACTER model only. Add 1 to the bearer's Attacks.",
        ),
    ]
    .concat();
    let stratagems = [
        line(700, 10.0, 190, "HOWL"),
        line(688, 6.0, 190, "WOLF PACK \\226 BATTLE TACTIC STRATAGEM"),
        line(700, 10.0, 150, "1CP"),
        line(670, 7.5, 190, "WHEN: Your Command phase."),
        line(661, 7.5, 190, "TARGET: One unit from your army."),
        line(652, 7.5, 190, "EFFECT: It howls."),
        line(500, 10.0, 190, "CHILL"),
        line(488, 6.0, 190, "ICE HUNTERS \\226 STRATEGIC PLOY STRATAGEM"),
        line(500, 10.0, 150, "2CP"),
        line(470, 7.5, 190, "WHEN: Any phase."),
        line(461, 7.5, 190, "TARGET: One VEHICLE unit from your army."),
        line(452, 7.5, 190, "EFFECT: It is cold."),
    ]
    .concat();
    let front = [
        // The abilities column first in the stream.
        line(280, 9.0, 480, "ABILITIES"),
        line(268, 7.5, 480, "CORE: Deadly Demise D3"),
        line(250, 7.5, 480, "Frost Engine: Each time this model"),
        line(241, 7.5, 480, "shoots, re-roll a Wound roll of 1."),
        line(200, 9.0, 480, "DAMAGED: 1-5 WOUNDS REMAINING"),
        line(188, 7.5, 480, "While this model has 1-5 wounds"),
        line(179, 7.5, 480, "remaining, subtract 1 from Hit rolls."),
        line(360, 15.0, 20, "WOLF TANK"),
        row(340, 6.0, 30, &["M", "T", "SV", "W", "LD", "OC"]).replace(" 150 0 Td", " 40 0 Td"),
        row(320, 14.0, 30, &["10\\\"", "10", "3+", "12", "6+", "3"])
            .replace(" 150 0 Td", " 40 0 Td"),
        row(340, 9.0, 300, &["INVULNERABLE SAVE"]),
        row(340, 14.0, 420, &["5+"]),
        row(
            280,
            9.0,
            40,
            &["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"],
        ),
        row(
            268,
            7.5,
            40,
            &[
                "Twin lascannon [TWIN-LINKED]",
                "48\\\"",
                "1",
                "3+",
                "12",
                "-3",
                "D6+1",
            ],
        ),
        row(
            240,
            9.0,
            40,
            &["MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"],
        ),
        row(
            228,
            7.5,
            40,
            &["Armoured tracks", "Melee", "6", "4+", "7", "0", "1"],
        ),
        line(
            40,
            8.5,
            30,
            "KEYWORDS: Vehicle, Transport, Imperium, Wolf Tank",
        ),
        line(40, 8.5, 480, "FACTION KEYWORDS:"),
        line(31, 8.5, 480, "Adeptus Astartes, Space Wolves"),
    ]
    .concat();
    let back = [
        line(360, 15.0, 20, "WOLF TANK"),
        line(300, 9.0, 30, "WARGEAR OPTIONS"),
        line(288, 7.5, 30, "\\225 None"),
        line(300, 9.0, 480, "UNIT COMPOSITION"),
        line(288, 7.5, 480, "\\225 1 Wolf Tank"),
        line(
            276,
            7.5,
            480,
            "This model is equipped with: twin lascannon; armoured tracks.",
        ),
        line(240, 9.0, 480, "TRANSPORT"),
        line(228, 7.5, 480, "This model has a transport capacity of 10"),
        line(219, 7.5, 480, "ADEPTUS ASTARTES INFANTRY models."),
        line(
            40,
            8.5,
            30,
            "KEYWORDS: Vehicle, Transport, Imperium, Wolf Tank",
        ),
        line(40, 8.5, 480, "FACTION KEYWORDS:"),
        line(31, 8.5, 480, "Adeptus Astartes, Space Wolves"),
    ]
    .concat();
    let bytes = pdf(
        &[&first, &second, &stratagems, &front, &back],
        &[("F1", HELVETICA)],
    );
    let d = crate::util::ingest_in_memory(&[("pack.pdf", bytes)]);
    assert!(d.quarantine.is_empty(), "{:?}", d.quarantine);
    let dets: Vec<(&str, &[String], &[String])> = d
        .detachments
        .iter()
        .map(|x| {
            (
                x.name.as_str(),
                x.rules.as_slice(),
                x.enhancements.as_slice(),
            )
        })
        .collect();
    assert_eq!(
        dets,
        [
            (
                "Ice Hunters",
                &["10e:space-marines/detachment:cold-blood".to_string()][..],
                &["10e:space-marines:ice-hunters:frost-fang".to_string()][..]
            ),
            (
                "Wolf Pack",
                &["10e:space-marines/detachment:hunters".to_string()][..],
                &[][..]
            ),
        ]
    );
    // Each CP box is level with its own stratagem's name, left of it: it is read first, and
    // is neither the previous stratagem's cost nor an enhancement of the page before.
    type Row<'a> = (
        &'a str,
        Option<u32>,
        Option<&'a str>,
        Option<&'a str>,
        Option<&'a str>,
    );
    let strats: Vec<Row> = d
        .stratagems
        .iter()
        .map(|s| {
            (
                s.name.as_str(),
                s.cp,
                s.group.as_deref(),
                s.target.as_deref(),
                s.effect.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        strats,
        [
            (
                "Chill",
                Some(2),
                Some("Ice Hunters"),
                Some("One VEHICLE unit from your army."),
                Some("It is cold.")
            ),
            (
                "Howl",
                Some(1),
                Some("Wolf Pack"),
                Some("One unit from your army."),
                Some("It howls.")
            ),
        ]
    );
    assert_eq!(d.enhancements.len(), 1, "{:?}", d.enhancements);
    assert_eq!(d.datasheets.len(), 1, "{:?}", d.diagnostics);
    let t = &d.datasheets[0];
    assert_eq!(t.id, "10e:space-marines:wolf-tank");
    assert_eq!(
        profile_values(&t.models[0]),
        ["10\"", "10", "3+", "12", "6+", "3"]
    );
    assert_eq!(t.invulnerable_save.as_deref(), Some("5+"));
    let rows: Vec<String> = t.weapons.iter().map(weapon_row).collect();
    assert_eq!(
        rows,
        [
            "Twin lascannon 48\" 1 3+ 12 -3 D6+1 [TWIN-LINKED]",
            "Armoured tracks Melee 6 4+ 7 0 1 []"
        ]
    );
    let ab: Vec<(&str, Option<&str>, Option<&str>)> = t
        .abilities
        .iter()
        .map(|a| (a.name.as_str(), a.parameter.as_deref(), a.text.as_deref()))
        .collect();
    assert_eq!(
        ab,
        [
            ("Deadly Demise", Some("D3"), None),
            (
                "Frost Engine",
                None,
                Some("Each time this model shoots, re-roll a Wound roll of 1.")
            )
        ]
    );
    let damaged = t.damaged.as_ref().expect("the DAMAGED box");
    assert_eq!(
        (damaged.name.as_str(), damaged.text.as_str()),
        (
            "DAMAGED: 1-5 WOUNDS REMAINING",
            "While this model has 1-5 wounds remaining, subtract 1 from Hit rolls."
        )
    );
    assert_eq!(damaged.at.page, Some(4));
    let named: Vec<(&str, &str, Option<u32>)> = t
        .special_rules
        .iter()
        .map(|r| (r.name.as_str(), r.text.as_str(), r.at.page))
        .collect();
    assert_eq!(
        named,
        [(
            "TRANSPORT",
            "This model has a transport capacity of 10 ADEPTUS ASTARTES INFANTRY models.",
            Some(5)
        )]
    );
    assert_eq!(t.unit_composition, ["1 Wolf Tank"]);
    assert_eq!(
        t.equipment,
        ["This model is equipped with: twin lascannon; armoured tracks."]
    );
    assert_eq!(
        t.keywords,
        ["Vehicle", "Transport", "Imperium", "Wolf Tank"]
    );
}
