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
    let mut objects: Vec<String> = Vec::new();
    // 1: catalog, 2: pages, then fonts, extra objects, then (page, content) pairs.
    let font_base = 3;
    let page_base = font_base + fonts.len() + extra.len();
    let kids: Vec<String> = (0..pages.len())
        .map(|i| format!("{} 0 R", page_base + 2 * i))
        .collect();
    objects.push("<< /Type /Catalog /Pages 2 0 R >>".into());
    objects.push(format!(
        "<< /Type /Pages /Kids [{}] /Count {} >>",
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
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 400] /Resources << /Font << {} >> {resources} >> /Contents {} 0 R >>",
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
    out.extend_from_slice(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes());
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
    assert!((b[0] - 72.0).abs() < 0.5 && b[1] < 300.0 && b[3] > 300.0, "{b:?}");
    assert!(b[2] > 72.0 + 50.0, "width from the font's widths or default: {b:?}");
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
    let tounicode = format!("<< /Length {} >>\nstream\n{cmap}\nendstream", cmap.len() + 1);
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
    assert!(doc.is_some_and(|d| d.blocks.is_empty()));
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
    assert!((b[0] - 100.0).abs() < 0.5 && b[1] < 200.0 && b[3] > 200.0, "form matrix applied: {b:?}");
}
