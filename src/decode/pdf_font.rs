//! PDF fonts for text extraction: character codes → Unicode text and glyph widths.
//!
//! A font's codes map to text through its `ToUnicode` CMap (`bfchar`/`bfrange`, read here
//! without recursion), else through its encoding (a base encoding by name, then the
//! `/Differences` glyph names: `A.sc`, `uni2011`, `f_f_i`; a suffix after a dot is a variant of
//! the same letter). Widths come from `/FirstChar` + `/Widths` (simple fonts) or the descendant
//! font's `/W` and `/DW` (Type0). Nothing here panics on a malformed font: what cannot be read
//! is absent (an unmapped code is `None`, a missing width the font's default).

use lopdf::{Dictionary, Document, Object};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::rc::Rc;

/// One font as the text extractor needs it.
#[derive(Debug, Clone)]
pub struct Font {
    /// `BaseFont` without the subset prefix (`ABCDEF+`).
    pub name: String,
    /// Bytes per character code (1 for simple fonts, 2 for Identity-H Type0 fonts).
    pub code_len: u8,
    /// Bold by name (`Bold`, `Black`, `Heavy`, `Semibold`) or descriptor weight ≥ 600.
    pub bold: bool,
    to_unicode: Option<Rc<CMap>>,
    /// Simple fonts: the text of each code by encoding and `/Differences`.
    encoding: Option<Box<[Option<char>; 256]>>,
    /// Simple fonts: codes whose `/Differences` glyph is a small capital (`a.sc`, `A.smcp`,
    /// `Asmall`): the text layer gives the letter in lower case, the page shows a capital.
    small_caps: Option<Box<[bool; 256]>>,
    widths: Intervals<f32>,
    default_width: f32,
    /// Glyph-space units → text space (1/1000 except Type3 fonts' `FontMatrix`).
    pub scale: f32,
}

/// Resolves references (a bounded number of hops).
pub fn deref<'a>(doc: &'a Document, mut o: &'a Object) -> Option<&'a Object> {
    for _ in 0..16 {
        match o {
            Object::Reference(id) => o = doc.objects.get(id)?,
            _ => return Some(o),
        }
    }
    None
}

pub fn dict<'a>(doc: &'a Document, o: &'a Object) -> Option<&'a Dictionary> {
    match deref(doc, o)? {
        Object::Dictionary(d) => Some(d),
        Object::Stream(s) => Some(&s.dict),
        _ => None,
    }
}

pub fn get<'a>(doc: &'a Document, d: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    deref(doc, d.get(key).ok()?)
}

pub fn num(o: &Object) -> Option<f32> {
    match o {
        Object::Integer(i) => Some(*i as f32),
        Object::Real(r) => Some(*r),
        _ => None,
    }
    .filter(|v| v.is_finite())
}

fn name<'a>(doc: &'a Document, d: &'a Dictionary, key: &[u8]) -> Option<&'a [u8]> {
    match get(doc, d, key)? {
        Object::Name(n) => Some(n),
        _ => None,
    }
}

/// What reading a stream gave.
pub enum StreamRead {
    Bytes(Vec<u8>),
    /// Its decoded content would be longer than the limit (decoding stopped there).
    OverLimit,
    /// Not a stream, or a filter failed.
    Unreadable,
}

/// The decoded bytes of a stream, decoding at most `limit` bytes (lopdf's bounded decoders:
/// a FlateDecode bomb stops at the limit, never allocating beyond it).
pub fn stream_bytes(doc: &Document, o: &Object, limit: usize) -> StreamRead {
    let Some(Object::Stream(s)) = deref(doc, o) else {
        return StreamRead::Unreadable;
    };
    if s.dict.get(b"Filter").is_err() {
        return if s.content.len() > limit {
            StreamRead::OverLimit
        } else {
            StreamRead::Bytes(s.content.clone())
        };
    }
    match s.decompressed_content_with_limit(limit) {
        Ok(b) => StreamRead::Bytes(b),
        Err(lopdf::Error::Decompress(lopdf::DecompressError::MemoryLimitExceeded { .. })) => {
            StreamRead::OverLimit
        }
        Err(_) => StreamRead::Unreadable,
    }
}

/// Code → value over disjoint code intervals, the entry written last winning where entries
/// overlap (a CMap's or a `/W` array's later entries override earlier ones). Memory is per
/// entry, never per code: `<0000> <FFFF>` or `0 65535 500` is one interval, so a small
/// font cannot expand to gigabytes.
#[derive(Debug, Clone)]
pub struct Intervals<V> {
    /// First code → (last code, value); the intervals are disjoint.
    map: BTreeMap<u32, (u32, V)>,
}

impl<V> Default for Intervals<V> {
    fn default() -> Self {
        Intervals {
            map: BTreeMap::new(),
        }
    }
}

impl<V: Clone> Intervals<V> {
    /// Sets `lo..=hi` to `v` (nothing when `hi < lo`), cutting what it overlaps.
    pub fn insert(&mut self, lo: u32, hi: u32, v: V) {
        if hi < lo {
            return;
        }
        // An interval that starts before `lo` and reaches into `lo..=hi`: keep its ends.
        if let Some((&a, (b, w))) = self.map.range(..lo).next_back() {
            let (b, w) = (*b, w.clone());
            if b >= lo {
                if b > hi {
                    self.map.insert(hi + 1, (b, w.clone()));
                }
                self.map.insert(a, (lo - 1, w));
            }
        }
        let inside: Vec<u32> = self.map.range(lo..=hi).map(|(k, _)| *k).collect();
        for k in inside {
            if let Some((b, w)) = self.map.remove(&k) {
                if b > hi {
                    self.map.insert(hi + 1, (b, w));
                }
            }
        }
        self.map.insert(lo, (hi, v));
    }

    pub fn get(&self, code: u32) -> Option<&V> {
        let (_, (hi, v)) = self.map.range(..=code).next_back()?;
        (code <= *hi).then_some(v)
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

/// What a `ToUnicode` entry maps its codes to.
#[derive(Debug, Clone)]
enum Dest {
    /// One text for every code of the interval (`bfchar`, a `bfrange` array item).
    Text(Box<str>),
    /// A `bfrange` with one destination: the code `origin` maps to `units`, each code after
    /// it to the same units with the last one incremented.
    Inc { origin: u32, units: Box<[u16]> },
}

/// A parsed `ToUnicode` CMap: code → text, ranges kept as ranges.
#[derive(Debug, Clone, Default)]
pub struct CMap {
    map: Intervals<Dest>,
}

impl CMap {
    pub fn get(&self, code: u32) -> Option<Cow<'_, str>> {
        match self.map.get(code)? {
            Dest::Text(t) => Some(Cow::Borrowed(t)),
            Dest::Inc { origin, units } => {
                let mut units = units.to_vec();
                if let Some(last) = units.last_mut() {
                    *last = last.wrapping_add(code.wrapping_sub(*origin) as u16);
                }
                Some(Cow::Owned(String::from_utf16_lossy(&units)))
            }
        }
    }
}

impl Font {
    /// Reads the font dictionary `fd`; `to_unicode` is its `ToUnicode` CMap, parsed by the
    /// caller (once per stream) with its code length.
    pub fn load(
        doc: &Document,
        fd: &Dictionary,
        to_unicode: Option<(Rc<CMap>, Option<u8>)>,
    ) -> Font {
        let subtype = name(doc, fd, b"Subtype").unwrap_or(b"Type1");
        let base = name(doc, fd, b"BaseFont")
            .map(|n| String::from_utf8_lossy(n).into_owned())
            .unwrap_or_default();
        let base = match base.split_once('+') {
            Some((prefix, rest)) if prefix.len() == 6 => rest.to_string(),
            _ => base,
        };
        let type0 = subtype == b"Type0";
        let mut font = Font {
            bold: false,
            name: base,
            code_len: if type0 { 2 } else { 1 },
            to_unicode: None,
            encoding: None,
            small_caps: None,
            widths: Intervals::default(),
            default_width: if type0 { 1000.0 } else { 0.0 },
            scale: 0.001,
        };
        if subtype == b"Type3" {
            if let Some(Object::Array(m)) = get(doc, fd, b"FontMatrix") {
                if let Some(a) = m.first().and_then(num) {
                    font.scale = a.abs();
                }
            }
        }
        // Widths and descriptor.
        let mut descriptor = get(doc, fd, b"FontDescriptor").and_then(|o| dict(doc, o));
        if type0 {
            let desc = match get(doc, fd, b"DescendantFonts") {
                Some(Object::Array(a)) => a.first().and_then(|o| dict(doc, o)),
                _ => None,
            };
            if let Some(desc) = desc {
                if let Some(dw) = get(doc, desc, b"DW").and_then(num) {
                    font.default_width = dw;
                }
                if let Some(Object::Array(w)) = get(doc, desc, b"W") {
                    font.read_w(doc, w);
                }
                descriptor = get(doc, desc, b"FontDescriptor").and_then(|o| dict(doc, o));
            }
        } else {
            let first = get(doc, fd, b"FirstChar").and_then(num).unwrap_or(0.0) as i64;
            if let Some(Object::Array(w)) = get(doc, fd, b"Widths") {
                for (i, o) in w.iter().take(65536).enumerate() {
                    if let Some(v) = deref(doc, o).and_then(num) {
                        let code = (first + i as i64).clamp(0, u32::MAX as i64) as u32;
                        font.widths.insert(code, code, v);
                    }
                }
            }
        }
        let lname = font.name.to_ascii_lowercase();
        font.bold = ["bold", "black", "heavy", "semibold", "demi"]
            .iter()
            .any(|w| lname.contains(w));
        if let Some(desc) = descriptor {
            if let Some(mw) = get(doc, desc, b"MissingWidth").and_then(num) {
                if !type0 {
                    font.default_width = mw;
                }
            }
            if get(doc, desc, b"FontWeight")
                .and_then(num)
                .is_some_and(|w| w >= 600.0)
            {
                font.bold = true;
            }
        }
        // ToUnicode first; the encoding for what it lacks.
        if let Some((map, code_len)) = to_unicode {
            font.to_unicode = Some(map);
            // Simple fonts use one byte whatever the CMap's codespace says.
            if let (Some(n), true) = (code_len, type0) {
                font.code_len = n;
            }
        }
        if !type0 {
            let (encoding, small_caps) = simple_encoding(doc, fd, &lname);
            font.encoding = Some(encoding);
            font.small_caps = Some(small_caps);
            // The standard 14 fonts carry no widths: an average advance keeps glyphs apart.
            if font.widths.is_empty() && font.default_width == 0.0 {
                font.default_width = 500.0;
            }
        }
        font
    }

    /// `/W`: `c [w1 w2 …]` and `c_first c_last w` entries.
    fn read_w(&mut self, doc: &Document, w: &[Object]) {
        let mut i = 0;
        let mut budget = 1 << 17;
        while i < w.len() && budget > 0 {
            let Some(c) = deref(doc, &w[i]).and_then(num) else {
                return;
            };
            let c = c.max(0.0) as u32;
            match w.get(i + 1).and_then(|o| deref(doc, o)) {
                Some(Object::Array(ws)) => {
                    for (k, o) in ws.iter().enumerate() {
                        budget -= 1;
                        if let Some(v) = deref(doc, o).and_then(num) {
                            let code = c.saturating_add(k as u32);
                            self.widths.insert(code, code, v);
                        }
                    }
                    i += 2;
                }
                Some(o) => {
                    let last = num(o).unwrap_or(0.0).max(0.0) as u32;
                    let v = w.get(i + 2).and_then(|o| deref(doc, o)).and_then(num);
                    if let Some(v) = v {
                        let last = last.min(c.saturating_add(65535));
                        budget -= 1;
                        self.widths.insert(c, last, v);
                    }
                    i += 3;
                }
                None => return,
            }
        }
    }

    /// The glyph width of `code` in glyph units (1/1000 of the font size for most fonts).
    pub fn width(&self, code: u32) -> f32 {
        self.widths.get(code).copied().unwrap_or(self.default_width)
    }

    /// The text of `code`; `None` when neither the CMap nor the encoding maps it.
    pub fn text(&self, code: u32) -> Option<Cow<'_, str>> {
        self.to_unicode.as_ref()?.get(code)
    }

    /// Whether `code` draws a small capital (its text is shown upper-case).
    pub fn small_cap(&self, code: u32) -> bool {
        self.small_caps
            .as_ref()
            .and_then(|t| t.get(code as usize).copied())
            .unwrap_or(false)
    }

    /// The character the encoding gives `code` (simple fonts only).
    pub fn encoded(&self, code: u32) -> Option<char> {
        let enc = self.encoding.as_ref()?;
        enc.get(code as usize).copied().flatten()
    }

    /// Splits a string operand into codes.
    pub fn codes<'b>(&self, bytes: &'b [u8]) -> impl Iterator<Item = u32> + 'b {
        let n = self.code_len.max(1) as usize;
        bytes
            .chunks(n)
            .map(|c| c.iter().fold(0u32, |a, &b| (a << 8) | b as u32))
    }
}

/// A simple font's code → character table: base encoding, then `/Differences`.
fn simple_encoding(
    doc: &Document,
    fd: &Dictionary,
    lname: &str,
) -> (Box<[Option<char>; 256]>, Box<[bool; 256]>) {
    let symbolic = lname.contains("symbol") || lname.contains("dingbat");
    let mut table: Box<[Option<char>; 256]> = Box::new([None; 256]);
    let mut small: Box<[bool; 256]> = Box::new([false; 256]);
    let (base, diffs) = match get(doc, fd, b"Encoding") {
        Some(Object::Name(n)) => (Some(n.as_slice()), None),
        Some(o) => match dict(doc, o) {
            Some(d) => (
                name(doc, d, b"BaseEncoding"),
                match get(doc, d, b"Differences") {
                    Some(Object::Array(a)) => Some(a),
                    _ => None,
                },
            ),
            None => (None, None),
        },
        None => (None, None),
    };
    if !symbolic || base.is_some() {
        for (code, slot) in table.iter_mut().enumerate() {
            *slot = base_char(base.unwrap_or(b"StandardEncoding"), code as u8);
        }
    }
    if let Some(diffs) = diffs {
        let mut code: usize = 0;
        for o in diffs.iter() {
            match deref(doc, o) {
                Some(Object::Integer(i)) => code = (*i).clamp(0, 256) as usize,
                Some(Object::Name(n)) => {
                    if code < 256 {
                        let name = String::from_utf8_lossy(n);
                        table[code] = glyph_char(&name);
                        small[code] = name.ends_with(".sc")
                            || name.ends_with(".smcp")
                            || name.ends_with(".c2sc")
                            || (name.len() > 5 && name.ends_with("small"));
                    }
                    code = code.saturating_add(1);
                }
                _ => {}
            }
        }
    }
    (table, small)
}

/// A code in one of the standard base encodings.
fn base_char(encoding: &[u8], code: u8) -> Option<char> {
    match encoding {
        b"WinAnsiEncoding" => match code {
            0x20..=0x7E | 0xA0..=0xFF => Some(code as char),
            0x80..=0x9F => WIN_ANSI_HIGH[(code - 0x80) as usize],
            _ => None,
        },
        b"MacRomanEncoding" => match code {
            0x20..=0x7E => Some(code as char),
            0xA5 => Some('•'),
            0xD0 => Some('–'),
            0xD1 => Some('—'),
            0xD2 => Some('“'),
            0xD3 => Some('”'),
            0xD4 => Some('‘'),
            0xD5 => Some('’'),
            0xC9 => Some('…'),
            0xCA => Some('\u{A0}'),
            _ => None,
        },
        // StandardEncoding and anything unknown.
        _ => match code {
            0x27 => Some('’'),
            0x60 => Some('‘'),
            0x20..=0x7E => Some(code as char),
            _ => STANDARD_HIGH
                .iter()
                .find(|(c, _)| *c == code)
                .map(|(_, ch)| *ch),
        },
    }
}

const WIN_ANSI_HIGH: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

const STANDARD_HIGH: &[(u8, char)] = &[
    (0xA1, '¡'),
    (0xA2, '¢'),
    (0xA3, '£'),
    (0xA5, '¥'),
    (0xA7, '§'),
    (0xA9, '\''),
    (0xAA, '“'),
    (0xAB, '«'),
    (0xAE, 'ﬁ'),
    (0xAF, 'ﬂ'),
    (0xB1, '–'),
    (0xB2, '†'),
    (0xB3, '‡'),
    (0xB4, '·'),
    (0xB6, '¶'),
    (0xB7, '•'),
    (0xB8, '‚'),
    (0xB9, '„'),
    (0xBA, '”'),
    (0xBB, '»'),
    (0xBC, '…'),
    (0xBF, '¿'),
    (0xD0, '—'),
    (0xE1, 'Æ'),
    (0xE9, 'Ø'),
    (0xEA, 'Œ'),
    (0xF1, 'æ'),
    (0xF5, 'ı'),
    (0xF9, 'ø'),
    (0xFA, 'œ'),
    (0xFB, 'ß'),
];

/// Glyph names of the Adobe Glyph List that fonts' `/Differences` use for Latin text.
const GLYPH_NAMES: &[(&str, char)] = &[
    ("space", ' '),
    ("exclam", '!'),
    ("quotedbl", '"'),
    ("numbersign", '#'),
    ("dollar", '$'),
    ("percent", '%'),
    ("ampersand", '&'),
    ("quoteright", '’'),
    ("quotesingle", '\''),
    ("parenleft", '('),
    ("parenright", ')'),
    ("asterisk", '*'),
    ("plus", '+'),
    ("comma", ','),
    ("hyphen", '-'),
    ("period", '.'),
    ("slash", '/'),
    ("zero", '0'),
    ("one", '1'),
    ("two", '2'),
    ("three", '3'),
    ("four", '4'),
    ("five", '5'),
    ("six", '6'),
    ("seven", '7'),
    ("eight", '8'),
    ("nine", '9'),
    ("colon", ':'),
    ("semicolon", ';'),
    ("less", '<'),
    ("equal", '='),
    ("greater", '>'),
    ("question", '?'),
    ("at", '@'),
    ("bracketleft", '['),
    ("backslash", '\\'),
    ("bracketright", ']'),
    ("asciicircum", '^'),
    ("underscore", '_'),
    ("grave", '`'),
    ("quoteleft", '‘'),
    ("braceleft", '{'),
    ("bar", '|'),
    ("braceright", '}'),
    ("asciitilde", '~'),
    ("bullet", '•'),
    ("endash", '–'),
    ("emdash", '—'),
    ("quotedblleft", '“'),
    ("quotedblright", '”'),
    ("quotesinglbase", '‚'),
    ("quotedblbase", '„'),
    ("ellipsis", '…'),
    ("degree", '°'),
    ("multiply", '×'),
    ("copyright", '©'),
    ("registered", '®'),
    ("trademark", '™'),
    ("nbspace", '\u{A0}'),
    ("nonbreakingspace", '\u{A0}'),
    ("minus", '−'),
    ("periodcentered", '·'),
    ("section", '§'),
    ("paragraph", '¶'),
    ("dagger", '†'),
    ("daggerdbl", '‡'),
    ("guillemotleft", '«'),
    ("guillemotright", '»'),
    ("dotlessi", 'ı'),
    ("germandbls", 'ß'),
    ("AE", 'Æ'),
    ("ae", 'æ'),
    ("OE", 'Œ'),
    ("oe", 'œ'),
    ("Oslash", 'Ø'),
    ("oslash", 'ø'),
    ("fi", 'ﬁ'),
    ("fl", 'ﬂ'),
    ("ff", 'ﬀ'),
    ("ffi", 'ﬃ'),
    ("ffl", 'ﬄ'),
    ("uni00A0", '\u{A0}'),
];

/// Accent suffixes of composed Latin glyph names (`eacute` = `e` + acute).
const ACCENTS: &[(&str, char)] = &[
    ("acute", '\u{301}'),
    ("grave", '\u{300}'),
    ("circumflex", '\u{302}'),
    ("dieresis", '\u{308}'),
    ("tilde", '\u{303}'),
    ("ring", '\u{30A}'),
    ("cedilla", '\u{327}'),
    ("caron", '\u{30C}'),
    ("macron", '\u{304}'),
];

/// The character a glyph name stands for: the Adobe Glyph List names Latin text uses,
/// `uniXXXX`/`uXXXX`, single letters, composed accented letters, and variants (`A.sc`,
/// `one.tf`, `T_h` ligatures give their first component only when the rest is not a letter).
pub fn glyph_char(name: &str) -> Option<char> {
    let base = name.split('.').next().unwrap_or(name);
    let base = if base.is_empty() { name } else { base };
    // A ligature of components (`f_f_i`): the ligature character when it has one, else the
    // first component.
    let joined = base.replace('_', "");
    if base.contains('_') {
        if let Some((_, c)) = GLYPH_NAMES.iter().find(|(n, _)| *n == joined) {
            return Some(*c);
        }
    }
    let base = base.split('_').next().unwrap_or(base);
    if base.len() == 1 {
        return base.chars().next().filter(|c| c.is_ascii_graphic());
    }
    if let Some((_, c)) = GLYPH_NAMES.iter().find(|(n, _)| *n == base) {
        return Some(*c);
    }
    for prefix in ["uni", "u"] {
        if let Some(hex) = base.strip_prefix(prefix) {
            if (4..=6).contains(&hex.len()) && hex.chars().all(|c| c.is_ascii_hexdigit()) {
                let code = u32::from_str_radix(&hex[..hex.len().min(6)], 16).ok()?;
                let code = if prefix == "uni" && hex.len() > 4 {
                    u32::from_str_radix(&hex[..4], 16).ok()?
                } else {
                    code
                };
                return char::from_u32(code);
            }
        }
    }
    let mut chars = base.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    if first.is_ascii_alphabetic() {
        if let Some((_, mark)) = ACCENTS.iter().find(|(a, _)| *a == rest) {
            use unicode_normalization::UnicodeNormalization;
            let composed: String = [first, *mark].iter().collect::<String>().nfc().collect();
            let mut it = composed.chars();
            if let (Some(c), None) = (it.next(), it.next()) {
                return Some(c);
            }
        }
        // `Asmall` and similar old small-cap names.
        if rest == "small" {
            return Some(first.to_ascii_lowercase());
        }
    }
    None
}

/// Reads a `ToUnicode` CMap: code → text, and the code length its codespace declares.
/// A flat token scan (no recursion); malformed entries are skipped. A `bfrange` is kept as one
/// interval whatever its width, so the map's size follows the CMap's, never its ranges'.
pub fn parse_cmap(bytes: &[u8]) -> (CMap, Option<u8>) {
    let mut cmap = CMap::default();
    let mut code_len = None;
    let tokens = cmap_tokens(bytes);
    let mut i = 0;
    let code_of = |h: &[u8]| h.iter().take(4).fold(0u32, |a, &b| (a << 8) | b as u32);
    let mut mode = 0u8;
    while i < tokens.len() {
        match &tokens[i] {
            Tok::Word(w) => {
                mode = match w.as_slice() {
                    b"begincodespacerange" => 1,
                    b"beginbfchar" => 2,
                    b"beginbfrange" => 3,
                    _ => 0,
                };
                i += 1;
            }
            Tok::Hex(_) if mode == 1 => {
                if code_len.is_none() {
                    if let Some(h) = hex(&tokens[i]) {
                        code_len = Some(h.len().clamp(1, 4) as u8);
                    }
                }
                i += 2;
            }
            Tok::Hex(src) if mode == 2 => {
                if let Some(dst) = tokens.get(i + 1).and_then(hex) {
                    let code = code_of(src);
                    cmap.map
                        .insert(code, code, Dest::Text(utf16_text(dst).into()));
                }
                i += 2;
            }
            Tok::Hex(lo) if mode == 3 => {
                let (Some(hi), Some(dst)) = (tokens.get(i + 1).and_then(hex), tokens.get(i + 2))
                else {
                    i += 1;
                    continue;
                };
                let (lo, hi) = (code_of(lo), code_of(hi));
                match dst {
                    Tok::Hex(d) => {
                        let units: Box<[u16]> = d
                            .chunks(2)
                            .map(|c| c.iter().fold(0u16, |a, &b| (a << 8) | b as u16))
                            .collect();
                        cmap.map.insert(lo, hi, Dest::Inc { origin: lo, units });
                        i += 3;
                    }
                    Tok::Open => {
                        let mut j = i + 3;
                        let mut code = lo;
                        while let Some(Tok::Hex(d)) = tokens.get(j) {
                            if code <= hi {
                                cmap.map
                                    .insert(code, code, Dest::Text(utf16_text(d).into()));
                            }
                            code = code.saturating_add(1);
                            j += 1;
                        }
                        i = j + 1;
                    }
                    _ => i += 3,
                }
            }
            _ => i += 1,
        }
    }
    (cmap, code_len)
}

fn hex(t: &Tok) -> Option<&[u8]> {
    match t {
        Tok::Hex(h) => Some(h.as_slice()),
        _ => None,
    }
}

fn utf16_text(bytes: &[u8]) -> String {
    let units: Vec<u16> = bytes
        .chunks(2)
        .map(|c| c.iter().fold(0u16, |a, &b| (a << 8) | b as u16))
        .collect();
    String::from_utf16_lossy(&units)
}

#[derive(Debug)]
enum Tok {
    Hex(Vec<u8>),
    Word(Vec<u8>),
    Open,
    Close,
}

fn cmap_tokens(b: &[u8]) -> Vec<Tok> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'%' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            b'<' if b.get(i + 1) == Some(&b'<') => i += 2,
            b'>' if b.get(i + 1) == Some(&b'>') => i += 2,
            b'<' => {
                let start = i + 1;
                let end = b[start..]
                    .iter()
                    .position(|&x| x == b'>')
                    .map_or(b.len(), |p| start + p);
                out.push(Tok::Hex(hex_bytes(&b[start..end])));
                i = end + 1;
            }
            b'[' => {
                out.push(Tok::Open);
                i += 1;
            }
            b']' => {
                out.push(Tok::Close);
                i += 1;
            }
            // Literal strings (CMap names) carry nothing we read.
            b'(' => i = super::pdf_content::literal_string(b, i).1,
            _ if c.is_ascii_whitespace() || c == 0 => i += 1,
            _ => {
                let start = i;
                while i < b.len()
                    && !b[i].is_ascii_whitespace()
                    && !matches!(b[i], b'<' | b'>' | b'[' | b']' | b'(' | b'/' | b'%')
                {
                    i += 1;
                }
                if i == start {
                    i += 1;
                    continue;
                }
                out.push(Tok::Word(b[start..i].to_vec()));
            }
        }
    }
    out
}

/// Hex digits → bytes (whitespace ignored, an odd last digit padded with 0).
pub fn hex_bytes(h: &[u8]) -> Vec<u8> {
    let digits: Vec<u8> = h
        .iter()
        .filter_map(|&c| (c as char).to_digit(16).map(|d| d as u8))
        .collect();
    digits
        .chunks(2)
        .map(|p| (p[0] << 4) | p.get(1).copied().unwrap_or(0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyph_names_of_small_caps_and_variants_are_letters() {
        assert_eq!(glyph_char("A.sc"), Some('A'));
        assert_eq!(glyph_char("a.sc"), Some('a'));
        assert_eq!(glyph_char("one.tf"), Some('1'));
        assert_eq!(glyph_char("uni2011"), Some('\u{2011}'));
        assert_eq!(glyph_char("eacute"), Some('é'));
        assert_eq!(glyph_char("hyphen"), Some('-'));
        assert_eq!(glyph_char("g123"), None);
    }

    #[test]
    fn cmap_chars_and_ranges() {
        let cmap = b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
            2 beginbfchar <0003> <0020> <0011> <2011> endbfchar\n\
            1 beginbfrange <0024> <0026> <0041> endbfrange\n\
            1 beginbfrange <0030> <0031> [<0066006C> <0078>] endbfrange";
        let (m, n) = parse_cmap(cmap);
        assert_eq!(n, Some(2));
        assert_eq!(m.get(3).as_deref(), Some(" "));
        assert_eq!(m.get(0x11).as_deref(), Some("\u{2011}"));
        assert_eq!(m.get(0x26).as_deref(), Some("C"));
        assert_eq!(m.get(0x30).as_deref(), Some("fl"));
        assert_eq!(m.get(0x31).as_deref(), Some("x"));
    }

    #[test]
    fn later_cmap_entries_override_earlier_ones_inside_ranges() {
        let cmap = b"1 beginbfrange <0000> <FFFF> <0041> endbfrange\n\
            1 beginbfchar <0005> <0078> endbfchar\n\
            1 beginbfrange <0010> <0012> <0061> endbfrange";
        let (m, _) = parse_cmap(cmap);
        assert_eq!(m.get(4).as_deref(), Some("E"));
        assert_eq!(m.get(5).as_deref(), Some("x"));
        assert_eq!(m.get(6).as_deref(), Some("G"));
        assert_eq!(m.get(0x11).as_deref(), Some("b"));
        // The first range goes on past the later ones, counted from its own start.
        assert_eq!(m.get(0x13).as_deref(), Some("T"));
        assert_eq!(m.map.map.len(), 5);
    }
}
