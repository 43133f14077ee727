//! PDF content streams → positioned glyphs.
//!
//! A flat lexer for content-stream syntax (operands and operators; arrays read flat, inline
//! images and dictionaries skipped by counting, never by recursion) and an interpreter for
//! the operators that place text: graphics state (`q`/`Q`/`cm`), text state (`Tf Tc Tw Tz TL
//! Ts`), text matrices (`BT Tm Td TD T*`), text showing (`Tj TJ ' "`) and Form XObjects
//! (`Do`, run on an explicit stack with a depth and a visit limit). Each glyph comes out with
//! its text, its origin and advance in page space, its size and its font.

use super::pdf_font::{self, CMap, Font, StreamRead};
use lopdf::{Dictionary, Document, Object, ObjectId};
use std::collections::HashMap;
use std::rc::Rc;

/// One glyph shown on a page, in default user space (points, origin lower-left).
#[derive(Debug, Clone)]
pub struct Glyph {
    /// The text the glyph stands for (usually one character; ligatures give more).
    pub text: String,
    /// Left of the glyph on the baseline.
    pub x0: f32,
    /// Right (origin + advance).
    pub x1: f32,
    /// Baseline.
    pub y: f32,
    /// Font size in points after the text and current matrices.
    pub size: f32,
    /// Index into [`Page::fonts`].
    pub font: u16,
    /// Upright text (not rotated).
    pub upright: bool,
}

/// What the interpreter found on one page.
#[derive(Debug, Default)]
pub struct Page {
    pub glyphs: Vec<Glyph>,
    /// Fonts by index: (name, bold).
    pub fonts: Vec<(String, bool)>,
    /// Codes no map knew (their glyphs are dropped).
    pub unmapped: usize,
    /// Image XObjects or inline images drawn.
    pub images: usize,
    /// A limit stopped the reading (operators, nesting, Form visits).
    pub limited: Option<&'static str>,
}

/// Most Form XObjects open at once.
const MAX_FORM_DEPTH: usize = 16;
/// Most Form XObject runs per page.
const MAX_FORM_VISITS: usize = 4096;
/// Most operators per page (all streams and forms together).
const MAX_OPS: usize = 4_000_000;
/// Most glyphs per page.
const MAX_GLYPHS: usize = 500_000;

/// The per-file budgets: the larger of a floor and a multiple of the file's size.
/// Bytes streams decode to (each stream once) and content bytes run (a stream re-used by
/// pages or forms counts each time): 64 MiB or 64 × the file.
const BYTES_FLOOR: usize = 64 << 20;
const BYTES_PER_BYTE: usize = 64;
/// Operators run in the whole file: 16 million or 16 per byte of the file.
const OPS_FLOOR: usize = 16_000_000;
const OPS_PER_BYTE: usize = 16;
/// Glyphs kept for the whole file: 2 million or 2 per byte of the file.
const GLYPHS_FLOOR: usize = 2_000_000;
const GLYPHS_PER_BYTE: usize = 2;

/// The work one file may cost, whatever its structure (issue 24: a 1.4 KB CMap, a Flate
/// bomb, one stream drawn thousands of times): what is left of each per-file budget. The
/// first budget spent stops the reading of the whole file (`S020`); what was read is kept.
#[derive(Debug)]
pub struct Budget {
    decoded: usize,
    run: usize,
    ops: usize,
    glyphs: usize,
    /// The page being read (for the message).
    pub page: u32,
    file_len: usize,
    /// What stopped the reading, once a budget is spent.
    pub hit: Option<String>,
}

impl Budget {
    pub fn for_file(len: usize) -> Budget {
        let of = |floor: usize, per: usize| floor.max(len.saturating_mul(per));
        Budget {
            decoded: of(BYTES_FLOOR, BYTES_PER_BYTE),
            run: of(BYTES_FLOOR, BYTES_PER_BYTE),
            ops: of(OPS_FLOOR, OPS_PER_BYTE),
            glyphs: of(GLYPHS_FLOOR, GLYPHS_PER_BYTE),
            page: 0,
            file_len: len,
            hit: None,
        }
    }

    /// The decompression limit for the whole file (also lopdf's per-stream load limit).
    pub fn bytes_limit(len: usize) -> usize {
        BYTES_FLOOR.max(len.saturating_mul(BYTES_PER_BYTE))
    }

    fn spend(left: &mut usize, n: usize) -> bool {
        match left.checked_sub(n) {
            Some(rest) => {
                *left = rest;
                true
            }
            None => {
                *left = 0;
                false
            }
        }
    }

    fn stop(&mut self, what: &str, limit: String) {
        if self.hit.is_none() {
            self.hit = Some(format!(
                "{what} over the budget ({limit} for a {} file); reading stopped on page {}, the rest of the file is not read",
                size(self.file_len),
                self.page
            ));
        }
    }

    fn bytes_limit_text(&self) -> String {
        size(Budget::bytes_limit(self.file_len))
    }
}

/// A byte count as people read it: `812 B`, `3.4 KiB`, `64.0 MiB`.
fn size(n: usize) -> String {
    let n = n as f64;
    if n >= (1u64 << 20) as f64 {
        format!("{:.1} MiB", n / (1u64 << 20) as f64)
    } else if n >= 1024.0 {
        format!("{:.1} KiB", n / 1024.0)
    } else {
        format!("{n} B")
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Operand {
    Num(f32),
    Name(Vec<u8>),
    Str(Vec<u8>),
    /// An array, read flat: numbers and strings in order.
    Array(Vec<Operand>),
    Other,
}

type Matrix = [f32; 6];
const IDENTITY: Matrix = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

/// `a × b` (apply `a`, then `b`).
fn mul(a: &Matrix, b: &Matrix) -> Matrix {
    [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]
}

fn apply(m: &Matrix, x: f32, y: f32) -> (f32, f32) {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

#[derive(Debug, Clone)]
struct GState {
    ctm: Matrix,
    font: Option<usize>,
    size: f32,
    char_spacing: f32,
    word_spacing: f32,
    hscale: f32,
    leading: f32,
    rise: f32,
}

impl GState {
    fn new(ctm: Matrix) -> Self {
        GState {
            ctm,
            font: None,
            size: 0.0,
            char_spacing: 0.0,
            word_spacing: 0.0,
            hscale: 1.0,
            leading: 0.0,
            rise: 0.0,
        }
    }
}

/// One content stream being run: its bytes, the lexer position, its resources, and how deep
/// the graphics-state stack was when it started, the state saved for it included (its `Q`s
/// never pop below that; a form restores the saved state when it ends).
struct Frame<'d> {
    bytes: Rc<[u8]>,
    pos: usize,
    resources: Option<&'d Dictionary>,
    stack_base: usize,
    /// A Form XObject (its end restores the state saved for it), not one of the page's streams.
    form: bool,
}

/// What one document's pages share: fonts (keyed by the font dictionary's object), parsed
/// `ToUnicode` CMaps and decoded streams (keyed by the stream's object: a stream drawn by many
/// pages or forms is decoded once), and the file's work [`Budget`].
pub struct DocCache {
    by_id: HashMap<ObjectId, usize>,
    /// Fonts given as direct dictionaries, by the dictionary's address in the document.
    by_dict: HashMap<*const Dictionary, usize>,
    fonts: Vec<Font>,
    cmaps: HashMap<ObjectId, (Rc<CMap>, Option<u8>)>,
    streams: HashMap<ObjectId, Option<Rc<[u8]>>>,
    pub budget: Budget,
}

impl DocCache {
    /// The cache of a file of `len` bytes (its budgets follow from its size).
    pub fn for_file(len: usize) -> DocCache {
        DocCache {
            by_id: HashMap::new(),
            by_dict: HashMap::new(),
            fonts: Vec::new(),
            cmaps: HashMap::new(),
            streams: HashMap::new(),
            budget: Budget::for_file(len),
        }
    }

    /// The decoded bytes of the stream `o` (a reference is decoded once and cached), within
    /// what is left of the file's decompression budget; `None` when it is not a readable
    /// stream or the budget is spent.
    pub fn stream(&mut self, doc: &Document, o: &Object) -> Option<Rc<[u8]>> {
        if self.budget.hit.is_some() {
            return None;
        }
        let id = match o {
            Object::Reference(id) => Some(*id),
            _ => None,
        };
        if let Some(cached) = id.and_then(|id| self.streams.get(&id)) {
            return cached.clone();
        }
        let read = match pdf_font::stream_bytes(doc, o, self.budget.decoded) {
            StreamRead::Bytes(b) => {
                Budget::spend(&mut self.budget.decoded, b.len());
                Some(Rc::<[u8]>::from(b))
            }
            StreamRead::OverLimit => {
                self.budget.decoded = 0;
                let limit = self.budget.bytes_limit_text();
                self.budget.stop("decompressed content", limit);
                None
            }
            StreamRead::Unreadable => None,
        };
        if let Some(id) = id {
            self.streams.insert(id, read.clone());
        }
        read
    }

    /// Spends `n` content bytes about to be run; `false` (and the budget stops) when they
    /// are over what is left.
    fn run(&mut self, n: usize) -> bool {
        if self.budget.hit.is_some() {
            return false;
        }
        if Budget::spend(&mut self.budget.run, n) {
            return true;
        }
        let limit = self.budget.bytes_limit_text();
        self.budget.stop("content streams run", limit);
        false
    }

    /// The `ToUnicode` CMap of the font dictionary `fd`, parsed once per stream.
    fn cmap_of(&mut self, doc: &Document, fd: &Dictionary) -> Option<(Rc<CMap>, Option<u8>)> {
        let o = fd.get(b"ToUnicode").ok()?;
        let id = match o {
            Object::Reference(id) => Some(*id),
            _ => None,
        };
        if let Some(c) = id.and_then(|id| self.cmaps.get(&id)) {
            return Some(c.clone());
        }
        let bytes = self.stream(doc, o)?;
        let (map, len) = pdf_font::parse_cmap(&bytes);
        let parsed = (Rc::new(map), len);
        if let Some(id) = id {
            self.cmaps.insert(id, parsed.clone());
        }
        Some(parsed)
    }
}

/// Runs the page's content streams (`contents`, in order, as one content) with `resources`.
pub fn run_page<'d>(
    doc: &'d Document,
    contents: Vec<Rc<[u8]>>,
    resources: Option<&'d Dictionary>,
    ctm: Matrix,
    cache: &mut DocCache,
) -> Page {
    let mut page = Page::default();
    // Page-local font index → cache index.
    let mut local: HashMap<usize, u16> = HashMap::new();
    let mut frames: Vec<Frame<'d>> = Vec::new();
    // The page's streams run one after the other: the first on top of the stack.
    for bytes in contents.into_iter().rev() {
        frames.push(Frame {
            bytes,
            pos: 0,
            resources,
            stack_base: 0,
            form: false,
        });
    }
    let mut gs = GState::new(ctm);
    let mut stack: Vec<GState> = Vec::new();
    let mut tm = IDENTITY;
    let mut tlm = IDENTITY;
    let mut operands: Vec<Operand> = Vec::new();
    let mut ops = 0usize;
    let mut visits = 0usize;
    let mut open_forms: Vec<ObjectId> = Vec::new();
    while let Some(frame) = frames.last_mut() {
        if frame.pos == 0 && !cache.run(frame.bytes.len()) {
            break;
        }
        let Some(op) = next_op(&frame.bytes, &mut frame.pos, &mut operands) else {
            // The stream ended: a form restores the state it started with.
            let (floor, form) = (frame.stack_base, frame.form);
            frames.pop();
            if form {
                open_forms.pop();
                stack.truncate(floor);
                if let Some(saved) = stack.pop() {
                    gs = saved;
                }
            }
            continue;
        };
        ops += 1;
        if ops > MAX_OPS {
            page.limited = Some("operators");
            break;
        }
        if !Budget::spend(&mut cache.budget.ops, 1) {
            let limit = format!("{} operators", Budget::for_file(cache.budget.file_len).ops);
            cache.budget.stop("operators", limit);
            break;
        }
        let resources = frame.resources;
        let n = |i: usize| match operands.get(i) {
            Some(Operand::Num(v)) => *v,
            _ => 0.0,
        };
        let last = |k: usize| -> f32 {
            match operands.len().checked_sub(k).and_then(|i| operands.get(i)) {
                Some(Operand::Num(v)) => *v,
                _ => 0.0,
            }
        };
        match op.as_slice() {
            b"q" if stack.len() < 4096 => stack.push(gs.clone()),
            b"Q" => {
                let base = frames.last().map_or(0, |f| f.stack_base);
                if stack.len() > base {
                    if let Some(saved) = stack.pop() {
                        gs = saved;
                    }
                }
            }
            b"cm" if operands.len() >= 6 => {
                let m = [last(6), last(5), last(4), last(3), last(2), last(1)];
                gs.ctm = mul(&m, &gs.ctm);
            }
            b"BT" => {
                tm = IDENTITY;
                tlm = IDENTITY;
            }
            b"Tf" if operands.len() >= 2 => {
                gs.size = last(1);
                if let Some(Operand::Name(name)) = operands.get(operands.len() - 2) {
                    gs.font = font_index(doc, resources, name, cache);
                }
            }
            b"Tc" => gs.char_spacing = last(1),
            b"Tw" => gs.word_spacing = last(1),
            b"Tz" => gs.hscale = last(1) / 100.0,
            b"TL" => gs.leading = last(1),
            b"Ts" => gs.rise = last(1),
            b"Td" if operands.len() >= 2 => {
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, last(2), last(1)], &tlm);
                tm = tlm;
            }
            b"TD" if operands.len() >= 2 => {
                gs.leading = -last(1);
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, last(2), last(1)], &tlm);
                tm = tlm;
            }
            b"Tm" if operands.len() >= 6 => {
                tlm = [last(6), last(5), last(4), last(3), last(2), last(1)];
                tm = tlm;
            }
            b"T*" => {
                tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -gs.leading], &tlm);
                tm = tlm;
            }
            b"Tj" | b"'" | b"\"" | b"TJ" => {
                if op.as_slice() == b"'" || op.as_slice() == b"\"" {
                    if op.as_slice() == b"\"" && operands.len() >= 3 {
                        gs.word_spacing = n(operands.len() - 3);
                        gs.char_spacing = n(operands.len() - 2);
                    }
                    tlm = mul(&[1.0, 0.0, 0.0, 1.0, 0.0, -gs.leading], &tlm);
                    tm = tlm;
                }
                let shown = operands.pop();
                let items: Vec<Operand> = match shown {
                    Some(Operand::Array(a)) => a,
                    Some(s @ Operand::Str(_)) => vec![s],
                    _ => Vec::new(),
                };
                let Some(fi) = gs.font else { continue };
                let Some(font) = cache.fonts.get(fi) else {
                    continue;
                };
                let id = *local.entry(fi).or_insert_with(|| {
                    page.fonts.push((font.name.clone(), font.bold));
                    (page.fonts.len() - 1) as u16
                });
                let before = page.glyphs.len();
                for item in items {
                    match item {
                        Operand::Num(adj) => {
                            let tx = -adj / 1000.0 * gs.size * gs.hscale;
                            tm = mul(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], &tm);
                        }
                        Operand::Str(bytes) => {
                            show(&bytes, font, &gs, &mut tm, id, &mut page);
                        }
                        _ => {}
                    }
                }
                if page.glyphs.len() > MAX_GLYPHS {
                    page.limited = Some("glyphs");
                    break;
                }
                if !Budget::spend(&mut cache.budget.glyphs, page.glyphs.len() - before) {
                    let limit =
                        format!("{} glyphs", Budget::for_file(cache.budget.file_len).glyphs);
                    cache.budget.stop("glyphs", limit);
                    break;
                }
            }
            b"BI" => page.images += 1,
            b"Do" => {
                let Some(Operand::Name(name)) = operands.last() else {
                    continue;
                };
                let xobj = resources
                    .and_then(|r| pdf_font::get(doc, r, b"XObject"))
                    .and_then(|o| pdf_font::dict(doc, o))
                    .and_then(|d| d.get(name).ok());
                let Some(Object::Reference(id)) = xobj else {
                    continue;
                };
                let id = *id;
                let Some(Object::Stream(s)) = doc.objects.get(&id) else {
                    continue;
                };
                match s.dict.get(b"Subtype").and_then(Object::as_name) {
                    Ok(b"Image") => page.images += 1,
                    Ok(b"Form") => {
                        if open_forms.contains(&id) {
                            continue; // a form that draws itself
                        }
                        if open_forms.len() >= MAX_FORM_DEPTH {
                            page.limited = Some("Form XObject nesting");
                            continue;
                        }
                        visits += 1;
                        if visits > MAX_FORM_VISITS {
                            page.limited = Some("Form XObject visits");
                            continue;
                        }
                        let Some(bytes) = cache.stream(doc, &Object::Reference(id)) else {
                            if cache.budget.hit.is_some() {
                                break;
                            }
                            continue;
                        };
                        let form_res = pdf_font::get(doc, &s.dict, b"Resources")
                            .and_then(|o| pdf_font::dict(doc, o))
                            .or(resources);
                        let matrix = match pdf_font::get(doc, &s.dict, b"Matrix") {
                            Some(Object::Array(a)) if a.len() == 6 => {
                                let v: Vec<f32> =
                                    a.iter().map(|o| pdf_font::num(o).unwrap_or(0.0)).collect();
                                [v[0], v[1], v[2], v[3], v[4], v[5]]
                            }
                            _ => IDENTITY,
                        };
                        stack.push(gs.clone());
                        gs.ctm = mul(&matrix, &gs.ctm);
                        open_forms.push(id);
                        frames.push(Frame {
                            bytes,
                            pos: 0,
                            resources: form_res,
                            stack_base: stack.len(),
                            form: true,
                        });
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        operands.clear();
    }
    page
}

/// Shows one string: each code → a glyph, the text matrix advanced by its width.
fn show(bytes: &[u8], font: &Font, gs: &GState, tm: &mut Matrix, id: u16, page: &mut Page) {
    let render = [gs.size * gs.hscale, 0.0, 0.0, gs.size, 0.0, gs.rise];
    for code in font.codes(bytes) {
        let w0 = font.width(code) * font.scale;
        let single_space = font.code_len == 1 && code == 32;
        let tx =
            (w0 * gs.size + gs.char_spacing + if single_space { gs.word_spacing } else { 0.0 })
                * gs.hscale;
        let trm = mul(&mul(&render, tm), &gs.ctm);
        let mut text: Option<std::borrow::Cow<str>> = match font.text(code) {
            Some(s) => Some(s),
            None => font.encoded(code).map(|c| c.to_string().into()),
        };
        if font.small_cap(code) {
            text = text.map(|t| t.to_uppercase().into());
        }
        match text {
            Some(text) => {
                let (x0, y0) = apply(&trm, 0.0, 0.0);
                let (x1, _) = apply(&trm, w0, 0.0);
                let size = (trm[2] * trm[2] + trm[3] * trm[3]).sqrt();
                let upright = trm[0] > 0.0 && trm[1].abs() < 0.01 * trm[0].abs().max(1e-6);
                if x0.is_finite() && y0.is_finite() && x1.is_finite() && size.is_finite() {
                    page.glyphs.push(Glyph {
                        text: text.into_owned(),
                        x0,
                        x1: x1.max(x0),
                        y: y0,
                        size,
                        font: id,
                        upright,
                    });
                }
            }
            None => page.unmapped += 1,
        }
        *tm = mul(&[1.0, 0.0, 0.0, 1.0, tx, 0.0], tm);
    }
}

/// The cache index of the font `name` in `resources` (loaded on first use).
fn font_index(
    doc: &Document,
    resources: Option<&Dictionary>,
    name: &[u8],
    cache: &mut DocCache,
) -> Option<usize> {
    let fonts = resources
        .and_then(|r| pdf_font::get(doc, r, b"Font"))
        .and_then(|o| pdf_font::dict(doc, o))?;
    let entry = fonts.get(name).ok()?;
    if let Object::Reference(id) = entry {
        if let Some(&i) = cache.by_id.get(id) {
            return Some(i);
        }
        let fd = pdf_font::dict(doc, entry)?;
        let to_unicode = cache.cmap_of(doc, fd);
        cache.fonts.push(Font::load(doc, fd, to_unicode));
        cache.by_id.insert(*id, cache.fonts.len() - 1);
        return Some(cache.fonts.len() - 1);
    }
    let fd = pdf_font::dict(doc, entry)?;
    if let Some(&i) = cache.by_dict.get(&(fd as *const Dictionary)) {
        return Some(i);
    }
    let to_unicode = cache.cmap_of(doc, fd);
    cache.fonts.push(Font::load(doc, fd, to_unicode));
    cache.by_dict.insert(fd, cache.fonts.len() - 1);
    Some(cache.fonts.len() - 1)
}

fn is_white(c: u8) -> bool {
    matches!(c, b' ' | b'\n' | b'\r' | b'\t' | b'\x0c' | 0)
}

fn is_delim(c: u8) -> bool {
    matches!(
        c,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

/// Reads operands into `operands` up to the next operator, which it returns (`None` at the
/// end). Arrays are read flat (a nested array's items join the outer one).
fn next_op(b: &[u8], pos: &mut usize, operands: &mut Vec<Operand>) -> Option<Vec<u8>> {
    let mut i = *pos;
    // Items of the array being read (arrays are flat; `depth` counts brackets).
    let mut array: Option<Vec<Operand>> = None;
    let mut depth = 0usize;
    let result = loop {
        let Some(&c) = b.get(i) else {
            break None;
        };
        let item = match c {
            _ if is_white(c) => {
                i += 1;
                continue;
            }
            b'%' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            b'[' => {
                depth += 1;
                array.get_or_insert_with(Vec::new);
                i += 1;
                continue;
            }
            b']' => {
                i += 1;
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if let Some(a) = array.take() {
                        operands.push(Operand::Array(a));
                    }
                }
                continue;
            }
            b'(' => {
                let (s, end) = literal_string(b, i);
                i = end;
                Operand::Str(s)
            }
            b'<' if b.get(i + 1) == Some(&b'<') => {
                i = skip_dict(b, i);
                Operand::Other
            }
            b'<' => {
                let start = i + 1;
                let end = b[start..]
                    .iter()
                    .position(|&x| x == b'>')
                    .map_or(b.len(), |p| start + p);
                i = (end + 1).min(b.len());
                Operand::Str(pdf_font::hex_bytes(&b[start..end]))
            }
            b'/' => {
                let start = i + 1;
                i = start;
                while i < b.len() && !is_white(b[i]) && !is_delim(b[i]) {
                    i += 1;
                }
                Operand::Name(name_bytes(&b[start..i]))
            }
            b'>' | b')' | b'{' | b'}' => {
                i += 1;
                continue;
            }
            _ => {
                let start = i;
                while i < b.len() && !is_white(b[i]) && !is_delim(b[i]) {
                    i += 1;
                }
                let word = &b[start..i];
                if matches!(word[0], b'0'..=b'9' | b'+' | b'-' | b'.') {
                    Operand::Num(parse_num(word))
                } else if matches!(word, b"true" | b"false" | b"null") {
                    Operand::Other
                } else if array.is_some() {
                    // An operator inside an array: the array was never closed.
                    array = None;
                    depth = 0;
                    operands.clear();
                    continue;
                } else {
                    if word == b"BI" {
                        i = skip_inline_image(b, i);
                    }
                    break Some(word.to_vec());
                }
            }
        };
        match array.as_mut() {
            Some(a) => {
                if a.len() < 1 << 16 {
                    a.push(item)
                }
            }
            None => {
                if operands.len() >= 64 {
                    operands.remove(0);
                }
                operands.push(item)
            }
        }
    };
    *pos = i;
    result
}

fn parse_num(w: &[u8]) -> f32 {
    let s = std::str::from_utf8(w).unwrap_or("0");
    // Tolerate `--5` and `5.-` style garbage by reading the longest valid prefix.
    s.parse::<f32>()
        .ok()
        .or_else(|| {
            let t: String = s
                .chars()
                .enumerate()
                .filter(|(k, c)| c.is_ascii_digit() || *c == '.' || (*k == 0 && *c == '-'))
                .map(|(_, c)| c)
                .collect();
            t.parse::<f32>().ok()
        })
        .filter(|v| v.is_finite())
        .unwrap_or(0.0)
}

fn name_bytes(n: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(n.len());
    let mut i = 0;
    while i < n.len() {
        if n[i] == b'#' && i + 2 < n.len() {
            let h = pdf_font::hex_bytes(&n[i + 1..i + 3]);
            if let Some(&v) = h.first() {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(n[i]);
        i += 1;
    }
    out
}

/// A literal string starting at `b[start] == '('`: its bytes and the index after it (the end
/// of `b` when it is not closed). The one reader of PDF literal strings: content streams, the
/// file-structure depth scan and CMaps skip theirs with it.
pub(super) fn literal_string(b: &[u8], start: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::new();
    let mut i = start + 1;
    let mut depth = 1usize;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\\' => {
                i += 1;
                let Some(&e) = b.get(i) else { break };
                match e {
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'\r' => {
                        if b.get(i + 1) == Some(&b'\n') {
                            i += 1;
                        }
                    }
                    b'\n' => {}
                    b'0'..=b'7' => {
                        let mut v: u32 = 0;
                        let mut k = 0;
                        while k < 3 && matches!(b.get(i), Some(b'0'..=b'7')) {
                            v = v * 8 + (b[i] - b'0') as u32;
                            i += 1;
                            k += 1;
                        }
                        out.push(v as u8);
                        continue;
                    }
                    other => out.push(other),
                }
                i += 1;
            }
            b'(' => {
                depth += 1;
                out.push(c);
                i += 1;
            }
            b')' => {
                depth -= 1;
                i += 1;
                if depth == 0 {
                    return (out, i);
                }
                out.push(c);
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    (out, b.len())
}

/// Skips a `<< … >>` dictionary (nested ones counted, strings skipped); the index after it.
fn skip_dict(b: &[u8], start: usize) -> usize {
    let mut i = start;
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'<' if b.get(i + 1) == Some(&b'<') => {
                depth += 1;
                i += 2;
            }
            b'>' if b.get(i + 1) == Some(&b'>') => {
                depth = depth.saturating_sub(1);
                i += 2;
                if depth == 0 {
                    return i;
                }
            }
            b'(' => i = literal_string(b, i).1,
            _ => i += 1,
        }
    }
    b.len()
}

/// Skips an inline image's data after `BI`: to the `EI` that stands alone after `ID`.
fn skip_inline_image(b: &[u8], from: usize) -> usize {
    let Some(id) = b[from..]
        .windows(2)
        .position(|w| w == b"ID")
        .map(|p| from + p + 2)
    else {
        return b.len();
    };
    let mut i = id;
    while i + 1 < b.len() {
        if &b[i..i + 2] == b"EI"
            && i > 0
            && is_white(b[i - 1])
            && b.get(i + 2).map_or(true, |&c| is_white(c))
        {
            return i + 2;
        }
        i += 1;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(content: &[u8]) -> Vec<(Vec<u8>, Vec<Operand>)> {
        let mut pos = 0;
        let mut operands = Vec::new();
        let mut out = Vec::new();
        while let Some(op) = next_op(content, &mut pos, &mut operands) {
            out.push((op, std::mem::take(&mut operands)));
        }
        out
    }

    #[test]
    fn lexer_reads_strings_arrays_and_skips_inline_images() {
        let got =
            ops(b"BT /F1 12 Tf [(A\\)b) -250 <0041>] TJ (x\\101) Tj ET BI /W 1 ID \x00EI\xff EI Q");
        let names: Vec<&[u8]> = got.iter().map(|(o, _)| o.as_slice()).collect();
        assert_eq!(names, [&b"BT"[..], b"Tf", b"TJ", b"Tj", b"ET", b"BI", b"Q"]);
        assert_eq!(
            got[2].1,
            vec![Operand::Array(vec![
                Operand::Str(b"A)b".to_vec()),
                Operand::Num(-250.0),
                Operand::Str(b"\0A".to_vec())
            ])]
        );
        assert_eq!(got[3].1, vec![Operand::Str(b"xA".to_vec())]);
    }

    #[test]
    fn deep_arrays_and_garbage_do_not_recurse() {
        let mut deep = vec![b'['; 200_000];
        deep.extend_from_slice(b"(a) TJ");
        let got = ops(&deep);
        assert!(got.len() <= 1);
        let _ = ops(b"<<<<<<(((( \\");
        let _ = ops(b")>>]]]}}{{ 1 2 3 cm");
    }
}
