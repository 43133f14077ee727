//! Per-input work budgets (issue 24): small hostile inputs that used to cost unbounded work or
//! memory. Every hostile input is built here, a few KB each: a ToUnicode CMap whose ranges
//! cover every code, a FlateDecode bomb, Form XObjects re-using one stream in a DAG, one content
//! stream listed thousands of times. Each must complete, keep what it read before the limit and
//! report `S020`; the input is `partial`.

use cogitator::decode;
use cogitator::source::SourceFile;
use lopdf::{dictionary, Dictionary, Document, Object, ObjectId, Stream};

/// A PDF built with lopdf's writer: one Helvetica font (`/F1`), pages added in order.
struct Pdf {
    doc: Document,
    pages: ObjectId,
    kids: Vec<Object>,
    font: ObjectId,
}

impl Pdf {
    fn new() -> Pdf {
        let mut doc = Document::with_version("1.5");
        let pages = doc.new_object_id();
        let font = doc.add_object(dictionary! {
            "Type" => "Font",
            "Subtype" => "Type1",
            "BaseFont" => "Helvetica",
            "Encoding" => "WinAnsiEncoding",
        });
        Pdf {
            doc,
            pages,
            kids: Vec::new(),
            font,
        }
    }

    /// Resources with `/F1` and the given further entries.
    fn resources(&self, extra: Dictionary) -> Dictionary {
        let mut r = dictionary! { "Font" => dictionary! { "F1" => self.font } };
        r.extend(&extra);
        r
    }

    fn page(&mut self, contents: Object, resources: Dictionary) {
        let page = self.doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => self.pages,
            "MediaBox" => vec![0.into(), 0.into(), 600.into(), 400.into()],
            "Resources" => resources,
            "Contents" => contents,
        });
        self.kids.push(page.into());
    }

    fn text_page(&mut self, text: &str) {
        let content = format!("BT /F1 12 Tf 72 300 Td ({text}) Tj ET");
        let id = self
            .doc
            .add_object(Stream::new(dictionary! {}, content.into_bytes()));
        let res = self.resources(dictionary! {});
        self.page(id.into(), res);
    }

    fn bytes(mut self) -> Vec<u8> {
        let count = self.kids.len() as i64;
        self.doc.objects.insert(
            self.pages,
            Object::Dictionary(dictionary! {
                "Type" => "Pages",
                "Kids" => self.kids.clone(),
                "Count" => count,
            }),
        );
        let catalog = self.doc.add_object(dictionary! {
            "Type" => "Catalog",
            "Pages" => self.pages,
        });
        self.doc.trailer.set("Root", catalog);
        let mut out = Vec::new();
        self.doc.save_to(&mut out).expect("written");
        out
    }
}

/// A stream of `content` compressed with FlateDecode `layers` times (a bomb in two layers
/// stays a few KB for tens of MB).
fn flate(content: Vec<u8>, layers: usize) -> Stream {
    let mut data = content;
    for _ in 0..layers {
        let mut s = Stream::new(dictionary! {}, data);
        s.compress().expect("compressed");
        data = s.content;
    }
    let filters: Vec<Object> = (0..layers).map(|_| "FlateDecode".into()).collect();
    let mut s = Stream::new(dictionary! {}, data);
    s.dict.set("Filter", filters);
    s
}

struct Read {
    texts: Vec<String>,
    codes: Vec<String>,
    messages: Vec<String>,
}

fn read(bytes: Vec<u8>) -> Read {
    let d = decode::decode(&SourceFile::new("t.pdf", bytes));
    Read {
        texts: d
            .document
            .map(|doc| doc.blocks.iter().map(|b| b.text.clone()).collect())
            .unwrap_or_default(),
        codes: d.diagnostics.iter().map(|d| d.code.to_string()).collect(),
        messages: d.diagnostics.iter().map(|d| d.message.clone()).collect(),
    }
}

/// A page drawing `/Fm0`, a form that draws the next one twice, down to a leaf of `leaf`:
/// a DAG of `depth` levels that reaches the leaf 2^depth times.
fn form_dag(pdf: &mut Pdf, depth: usize, leaf: Stream) -> Dictionary {
    let mut below = pdf.doc.add_object(leaf);
    for _ in 0..depth {
        let mut s = Stream::new(
            dictionary! {
                "Type" => "XObject",
                "Subtype" => "Form",
                "BBox" => vec![0.into(), 0.into(), 600.into(), 400.into()],
                "Resources" => dictionary! { "XObject" => dictionary! { "Fm" => below } },
            },
            b"/Fm Do /Fm Do".to_vec(),
        );
        s.dict.set("Length", 13);
        below = pdf.doc.add_object(s);
    }
    dictionary! { "XObject" => dictionary! { "Fm0" => below } }
}

fn form_leaf(content: Vec<u8>) -> Stream {
    let mut s = flate(content, 1);
    s.dict.set("Type", "XObject");
    s.dict.set("Subtype", "Form");
    s.dict
        .set("BBox", vec![0.into(), 0.into(), 600.into(), 400.into()]);
    s
}

#[test]
fn tounicode_ranges_over_every_code_are_not_expanded() {
    // A Type0 font with 4-byte codes whose CMap (1.4 KB) maps every code through wide
    // `bfrange`s: expanded code by code it is gigabytes; kept as ranges it is a few entries.
    let mut cmap =
        String::from("begincmap\n1 begincodespacerange <00000000> <FFFFFFFF> endcodespacerange\n");
    for k in 0..24u32 {
        cmap.push_str(&format!(
            "1 beginbfrange <{:08X}> <FFFFFFFF> <0041> endbfrange\n",
            k
        ));
    }
    cmap.push_str("1 beginbfrange <01000000> <01FFFFFF> <0061> endbfrange\n");
    cmap.push_str("endcmap\n");
    assert!(cmap.len() < 1500, "{}", cmap.len());
    let mut pdf = Pdf::new();
    let mut fonts = Dictionary::new();
    // Sixteen fonts, each with its own copy of the CMap.
    for f in 0..16 {
        let to_unicode = pdf
            .doc
            .add_object(Stream::new(dictionary! {}, cmap.clone().into_bytes()));
        let cid = pdf.doc.add_object(dictionary! {
            "Type" => "Font",
            "Subtype" => "CIDFontType2",
            "BaseFont" => "Wide",
            "DW" => 500,
        });
        let font = pdf.doc.add_object(dictionary! {
            "Type" => "Font",
            "Subtype" => "Type0",
            "BaseFont" => "Wide",
            "Encoding" => "Identity-H",
            "DescendantFonts" => vec![cid.into()],
            "ToUnicode" => to_unicode,
        });
        fonts.set(format!("W{f}"), font);
    }
    let mut content = String::from("BT ");
    for f in 0..16 {
        // Codes 0x17, 0x01000001 and 0x00020019: far past the start of their range.
        content.push_str(&format!(
            "/W{f} 12 Tf 72 {} Td <00000017 01000001 00020019> Tj ",
            if f == 0 { 380 } else { -20 }
        ));
    }
    content.push_str("ET");
    let id = pdf
        .doc
        .add_object(Stream::new(dictionary! {}, content.into_bytes()));
    pdf.page(id.into(), dictionary! { "Font" => fonts });
    let r = read(pdf.bytes());
    assert!(!r.codes.contains(&"S017".to_string()), "{:?}", r.messages);
    // Code 0x17 starts the last of the 24 ranges: `A`; 0x01000001 is `b`; 0x20019 is in the
    // range from 0x17, its last UTF-16 unit incremented (wrapping) by 0x20002: `C`.
    assert_eq!(r.texts.len(), 16, "{:?}", r.texts);
    for t in &r.texts {
        assert_eq!(t.replace(' ', ""), "AbC", "{:?}", r.texts);
    }
}

#[test]
fn a_flatedecode_bomb_stops_at_the_budget() {
    // Two FlateDecode layers: a few KB that inflate to 80 MiB of content (the budget of a
    // small file is 64 MiB). The page before it is read; the bomb is S020, never inflated.
    let mut pdf = Pdf::new();
    pdf.text_page("before the bomb");
    let mut bomb = b"BT /F1 12 Tf 72 300 Td (inside the bomb) Tj ET\n".to_vec();
    bomb.resize(80 << 20, b' ');
    let bomb = pdf.doc.add_object(flate(bomb, 2));
    let res = pdf.resources(dictionary! {});
    pdf.page(bomb.into(), res);
    pdf.text_page("after the bomb");
    let bytes = pdf.bytes();
    assert!(bytes.len() < 8 << 10, "{} bytes", bytes.len());
    let r = read(bytes);
    assert_eq!(r.texts, ["before the bomb"], "{:?}", r.messages);
    assert!(r.codes.contains(&"S020".to_string()), "{:?}", r.codes);
    let m = r
        .messages
        .iter()
        .find(|m| m.contains("decompressed content"));
    assert!(m.is_some_and(|m| m.contains("page 2")), "{:?}", r.messages);
}

#[test]
fn forms_reusing_one_stream_in_a_dag_stop_at_the_budget() {
    // A 1 MiB form drawn through a DAG of forms 12 levels deep (4,096 times a page, 4 GiB of
    // content on each of four pages); each form is one object, so decoded once.
    let mut leaf = b"BT /F1 12 Tf 72 300 Td (leaf) Tj ET\n".to_vec();
    leaf.resize(1 << 20, b' ');
    let mut pdf = Pdf::new();
    pdf.text_page("first page");
    let xobjects = form_dag(&mut pdf, 12, form_leaf(leaf));
    for _ in 0..4 {
        let content = pdf
            .doc
            .add_object(Stream::new(dictionary! {}, b"q /Fm0 Do Q".to_vec()));
        let res = pdf.resources(xobjects.clone());
        pdf.page(content.into(), res);
    }
    let bytes = pdf.bytes();
    assert!(bytes.len() < 16 << 10, "{} bytes", bytes.len());
    let r = read(bytes);
    assert!(r.codes.contains(&"S020".to_string()), "{:?}", r.messages);
    assert_eq!(r.texts.first().map(String::as_str), Some("first page"));
    let m = r
        .messages
        .iter()
        .find(|m| m.contains("content streams run"));
    assert!(m.is_some_and(|m| m.contains("page 2")), "{:?}", r.messages);
}

#[test]
fn one_content_stream_listed_thousands_of_times_stops_at_the_budget() {
    // One 1 MiB content stream (compressed to a few KB) listed 3,000 times in one page's
    // `/Contents`: 3 GB to run (and, concatenated, to hold).
    let mut content = b"BT /F1 12 Tf 72 300 Td (again) Tj ET\n".to_vec();
    content.resize(1 << 20, b' ');
    let mut pdf = Pdf::new();
    let id = pdf.doc.add_object(flate(content, 1));
    let contents: Vec<Object> = (0..3000).map(|_| id.into()).collect();
    let res = pdf.resources(dictionary! {});
    pdf.page(contents.into(), res);
    let bytes = pdf.bytes();
    assert!(bytes.len() < 64 << 10, "{} bytes", bytes.len());
    let r = read(bytes);
    assert!(r.codes.contains(&"S020".to_string()), "{:?}", r.messages);
    // What ran before the budget was spent is kept: 64 runs of the stream.
    assert!(!r.texts.is_empty());
}

#[test]
fn a_pdf_over_a_budget_is_a_partial_input() {
    let mut pdf = Pdf::new();
    pdf.text_page("kept");
    let mut bomb = b"BT /F1 12 Tf 72 300 Td (lost) Tj ET\n".to_vec();
    bomb.resize(80 << 20, b' ');
    let bomb = pdf.doc.add_object(flate(bomb, 2));
    let res = pdf.resources(dictionary! {});
    pdf.page(bomb.into(), res);
    let ds = crate::util::ingest_in_memory(&[("bomb.pdf", pdf.bytes())]);
    let input = &ds.manifest.inputs[0];
    assert_eq!(
        serde_json::to_value(input.status).ok(),
        Some(serde_json::json!("partial")),
        "{:?}",
        input.status
    );
    assert!(ds.diagnostics.iter().any(|d| d.code == "S020"));
}

#[test]
fn a_long_markdown_table_is_read_in_pieces_with_its_rows_and_lines() {
    // pulldown-cmark holds the block tree of all the text it is given (25 bytes a byte for a
    // table: a 50 MB table took 1.6 GB); the decoder gives it pieces of about 1 MiB, a long
    // table cut between rows with its header repeated. Every row must come out once, with
    // its own line and cells, the header once.
    let rows = 100_000;
    let mut md = String::from("# Weapons\n\n| Weapon | Range | A |\n|:---|---:|---|\n");
    for i in 0..rows {
        md.push_str(&format!("| Bolt rifle {i} | 24\" | **{}** |\n", i % 7));
    }
    md.push_str("\nAfter the table.\n");
    assert!(md.len() > 2 << 20);
    let (blocks, _) = cogitator::decode::markdown::blocks_of(&md);
    assert_eq!(blocks.len(), rows + 3);
    assert_eq!(blocks[1].cells, ["Weapon", "Range", "A"]);
    for (i, b) in blocks[2..rows + 2].iter().enumerate() {
        let want = [
            format!("Bolt rifle {i}"),
            "24\"".to_string(),
            (i % 7).to_string(),
        ];
        assert_eq!(b.cells, want, "row {i}");
        assert_eq!(b.line() as usize, i + 5, "row {i}");
    }
    assert_eq!(blocks[rows + 2].text, "After the table.");
    assert_eq!(blocks[rows + 2].line() as usize, rows + 6);
}
