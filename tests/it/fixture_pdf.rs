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

// --- Index cards (landscape; the shield under the profile, the abilities column right) -------

/// An index card's foot: `KEYWORDS:` left (`keywords`: its lines), the `FACTION KEYWORDS:`
/// box right with its value on the line below.
fn card_foot(keywords: &[&str], faction: &str) -> Vec<Operation> {
    let mut ops = Vec::new();
    for (k, line) in keywords.iter().enumerate() {
        let x = if k == 0 { 30.0 } else { 40.0 };
        ops.extend(text(8.5, x, 40.0 - 9.0 * k as f32, line));
    }
    ops.extend(text(8.5, 480.0, 40.0, "FACTION KEYWORDS:"));
    ops.extend(text(8.5, 480.0, 31.0, faction));
    ops
}

/// An index card's back: name, `WARGEAR OPTIONS` (none), `UNIT COMPOSITION`, the foot.
fn card_back(name: &str, model: &str, equipped: &str, foot: Vec<Operation>) -> Vec<Operation> {
    [
        text(15.0, 20.0, 360.0, name),
        text(9.0, 30.0, 300.0, "WARGEAR OPTIONS"),
        text(7.5, 30.0, 288.0, "\u{95} None"),
        text(9.0, 480.0, 300.0, "UNIT COMPOSITION"),
        text(7.5, 480.0, 288.0, &format!("\u{95} 1 {model}")),
        text(7.5, 480.0, 276.0, equipped),
        foot,
    ]
    .concat()
}

/// `abilities-header-on-weapon-header.pdf`: an index card whose abilities column shares
/// baselines with the weapon rows: `ABILITIES` on the ranged header's baseline, an ability's
/// lines level with weapon rows, its last words (`a 6.`) short enough to read as a table
/// cell. The trap: the layout cannot cut the column off the table, so weapon rows and ability
/// lines come out as one row each (`Star gun [BLAST] | 48" | … | 1 | a 6.`).
pub fn abilities_header_on_weapon_header() -> Vec<u8> {
    let foot = || card_foot(&["KEYWORDS: Vehicle, Fly, Prism Stalker"], "Aeldari");
    let front: Vec<Operation> = [
        text(15.0, 20.0, 360.0, "PRISM STALKER"),
        profile(["14\"", "11", "2+", "24", "6+", "8"]),
        weapons(
            280.0,
            ["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"],
            &[
                ["Bright lance", "36\"", "1", "3+", "12", "-3", "D6+2"],
                ["Scatter laser", "36\"", "6", "3+", "5", "0", "1"],
                ["Star gun [BLAST]", "48\"", "D6", "3+", "4", "-1", "1"],
            ],
        ),
        text(9.0, 480.0, 280.0, "ABILITIES"),
        text(7.5, 480.0, 272.0, "CORE: Deadly Demise D6"),
        text(
            7.5,
            480.0,
            260.0,
            "Lance Strike: Each time this model's bright",
        ),
        text(
            7.5,
            480.0,
            252.0,
            "lance hits, it scores a critical wound on",
        ),
        text(7.5, 480.0, 244.0, "a 6."),
        weapons(
            220.0,
            ["MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"],
            &[["Wraithbone hull", "Melee", "6", "4+", "6", "0", "1"]],
        ),
        text(7.5, 480.0, 220.0, "DAMAGED: 1-8 WOUNDS REMAINING"),
        text(
            7.5,
            480.0,
            208.0,
            "While this model has 1-8 wounds remaining,",
        ),
        text(7.5, 480.0, 199.0, "subtract 1 from the Hit roll."),
        foot(),
    ]
    .concat();
    let back = card_back(
        "PRISM STALKER",
        "Prism Stalker",
        "This model is equipped with: bright lance; scatter laser; star gun; wraithbone hull.",
        foot(),
    );
    pdf(&[front, back])
}

/// `keyword-cell-after-name.pdf`: weapon rows whose `[KEYWORDS]` are a text object of their
/// own, far enough from the name to be a cell (`Tusks – strike | [LANCE] | Melee | …`). The
/// trap: the keywords read as the range and every value shifts one column.
pub fn keyword_cell_after_name() -> Vec<u8> {
    let foot = || card_foot(&["KEYWORDS: Mounted, Tusk Rider"], "Orks");
    let mut front: Vec<Operation> = [
        text(15.0, 20.0, 360.0, "TUSK RIDER"),
        profile(["10\"", "6", "4+", "3", "7+", "2"]),
        weapons(
            280.0,
            ["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"],
            &[
                ["Slugga", "12\"", "1", "5+", "4", "0", "1"],
                [
                    "Kustom shoota [RAPID FIRE 2]",
                    "18\"",
                    "4",
                    "5+",
                    "4",
                    "0",
                    "1",
                ],
            ],
        ),
        weapons(
            240.0,
            ["MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"],
            &[
                ["Tusks \u{96} strike", "Melee", "3", "3+", "7", "-1", "2"],
                [
                    "Tusks \u{96} sweep [SUSTAINED HITS 1]",
                    "Melee",
                    "5",
                    "3+",
                    "5",
                    "0",
                    "1",
                ],
            ],
        ),
        text(9.0, 480.0, 280.0, "ABILITIES"),
        text(7.5, 480.0, 268.0, "CORE: Scouts 6\""),
        foot(),
    ]
    .concat();
    front.extend(text(7.5, 110.0, 268.0, "[PISTOL]"));
    front.extend(text(7.5, 110.0, 228.0, "[LANCE]"));
    let back = card_back(
        "TUSK RIDER",
        "Tusk Rider",
        "This model is equipped with: slugga; tusks.",
        foot(),
    );
    pdf(&[front, back])
}

/// An index card front with the shield `extra` (its operations) under the profile.
fn shield_card(name: &str, extra: Vec<Operation>) -> Vec<u8> {
    let foot = || {
        card_foot(
            &["KEYWORDS: Vehicle, Walker, Iron Warden"],
            "Adeptus Custodes",
        )
    };
    let front: Vec<Operation> = [
        text(15.0, 20.0, 360.0, name),
        profile(["8\"", "10", "2+", "12", "6+", "4"]),
        extra,
        weapons(
            270.0,
            ["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"],
            &[["Warden cannon", "36\"", "2", "2+", "9", "-2", "3"]],
        ),
        weapons(
            240.0,
            ["MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"],
            &[["Warden fist", "Melee", "5", "2+", "12", "-2", "3"]],
        ),
        text(9.0, 480.0, 270.0, "ABILITIES"),
        text(7.5, 480.0, 258.0, "CORE: Deadly Demise D3"),
        foot(),
    ]
    .concat();
    let back = card_back(
        name,
        "Iron Warden",
        "This model is equipped with: warden cannon; warden fist.",
        foot(),
    );
    pdf(&[front, back])
}

/// `shield-value-before-label.pdf`: the shield under the SV column, value first (`4+`), the
/// label `INVULNERABLE SAVE` right of it. The trap: the faction pack prints label then value.
pub fn shield_value_before_label() -> Vec<u8> {
    shield_card(
        "IRON WARDEN",
        [
            text(14.0, 110.0, 298.0, "4+"),
            text(7.0, 135.0, 300.0, "INVULNERABLE SAVE"),
        ]
        .concat(),
    )
}

/// `shield-condition-same-baseline.pdf`: a starred label with its condition to its right on
/// the same baseline (`INVULNERABLE SAVE* | * Against ranged attacks only.`).
pub fn shield_condition_same_baseline() -> Vec<u8> {
    shield_card(
        "IRON WARDEN",
        [
            text(14.0, 110.0, 298.0, "5+"),
            text(7.0, 135.0, 300.0, "INVULNERABLE SAVE*"),
            text(7.0, 230.0, 300.0, "* Against ranged attacks only."),
        ]
        .concat(),
    )
}

/// `shield-note-far-from-label.pdf`: a starred label whose note is printed far away, at the
/// right of the page below the abilities (`*This model has a 5+ invulnerable save …`).
pub fn shield_note_far_from_label() -> Vec<u8> {
    shield_card(
        "IRON WARDEN",
        [
            text(14.0, 110.0, 298.0, "5+"),
            text(7.0, 135.0, 300.0, "INVULNERABLE SAVE*"),
            text(
                7.0,
                480.0,
                120.0,
                "*This model has a 5+ invulnerable save against ranged attacks.",
            ),
        ]
        .concat(),
    )
}

/// A fixture's generator.
pub type Generator = fn() -> Vec<u8>;

/// `faction-keyword-box-below-keywords.pdf`: a card whose back sets its lines larger than its
/// body text (a long designer's note in small type), so that every line of its foot is a
/// heading of its own: `KEYWORDS: …, REGIMENT,` / `GUN CARRIAGE BATTERY` / `FACTION KEYWORDS:`
/// / `ASTRA MILITARUM`. The trap: the label alone reads as an empty faction keyword list (and
/// empties the front's), the wrapped keyword as a named box.
pub fn faction_keyword_box_below_keywords() -> Vec<u8> {
    let foot = |size: f32| -> Vec<Operation> {
        [
            text(
                size,
                30.0,
                40.0,
                "KEYWORDS: INFANTRY, ARTILLERY, IMPERIUM, REGIMENT,",
            ),
            text(size, 40.0, 31.0, "GUN CARRIAGE BATTERY"),
            text(size, 480.0, 40.0, "FACTION KEYWORDS:"),
            text(size, 480.0, 31.0, "ASTRA MILITARUM"),
        ]
        .concat()
    };
    let front: Vec<Operation> = [
        text(15.0, 20.0, 360.0, "GUN CARRIAGE BATTERY"),
        profile(["3\"", "5", "4+", "8", "7+", "2"]),
        weapons(
            280.0,
            ["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"],
            &[[
                "Siege cannon [BLAST]",
                "120\"",
                "D6+3",
                "4+",
                "9",
                "-2",
                "3",
            ]],
        ),
        weapons(
            250.0,
            ["MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"],
            &[[
                "Crew close combat weapons",
                "Melee",
                "5",
                "4+",
                "3",
                "0",
                "1",
            ]],
        ),
        text(9.0, 480.0, 280.0, "ABILITIES"),
        text(7.5, 480.0, 268.0, "CORE: Heavy"),
        foot(8.5),
    ]
    .concat();
    let note = [
        "Designer's Note: Place five crew tokens next to each carriage when this unit is",
        "first set up, removing one each time its carriage loses a wound. These tokens do not",
        "count as models for any rules purposes, and they are never removed otherwise.",
    ];
    let mut back: Vec<Operation> = [
        text(15.0, 20.0, 360.0, "GUN CARRIAGE BATTERY"),
        text(9.0, 30.0, 300.0, "WARGEAR OPTIONS"),
        text(9.0, 30.0, 288.0, "\u{95} None"),
        text(9.0, 480.0, 300.0, "UNIT COMPOSITION"),
        text(9.0, 480.0, 288.0, "\u{95} 1 Gun Carriage"),
        foot(9.0),
    ]
    .concat();
    for (k, line) in note.iter().enumerate() {
        back.extend(text(6.0, 30.0, 150.0 - 7.0 * k as f32, line));
    }
    pdf(&[front, back])
}

/// `card-without-weapon-tables.pdf`: a card that prints no weapon table at all, its
/// `ABILITIES` heading alone in the middle of the page, under the profile.
pub fn card_without_weapon_tables() -> Vec<u8> {
    let foot = || card_foot(&["KEYWORDS: Vehicle, Blast Crawler"], "Astra Militarum");
    let front: Vec<Operation> = [
        text(15.0, 20.0, 360.0, "BLAST CRAWLER"),
        profile(["8\"", "4", "3+", "4", "8+", "0"]),
        text(9.0, 300.0, 280.0, "ABILITIES"),
        text(7.5, 300.0, 268.0, "CORE: Deadly Demise 1"),
        text(
            7.5,
            300.0,
            252.0,
            "Charges: Each time this model ends a move within 3\" of",
        ),
        text(
            7.5,
            300.0,
            244.0,
            "an enemy unit, that unit suffers D3 mortal wounds.",
        ),
        foot(),
    ]
    .concat();
    let back = card_back(
        "BLAST CRAWLER",
        "Blast Crawler",
        "This model is equipped with: nothing.",
        foot(),
    );
    pdf(&[front, back])
}

/// `shield-without-value.pdf`: an `INVULNERABLE SAVE` label under the profile with no value
/// in or beside the shield (the value is a picture the text layer lacks): `X114`, never a
/// guessed save.
pub fn shield_without_value() -> Vec<u8> {
    shield_card("IRON WARDEN", text(7.0, 135.0, 300.0, "INVULNERABLE SAVE"))
}

/// `same-profile-in-both-tables.pdf`: a weapon whose profile names are printed in both
/// tables (`Lascutter – low intensity` ranged and melee), the melee row's `[LANCE]` a cell of
/// its own. The trap: a melee profile read as ranged, or the two merged into one.
pub fn same_profile_in_both_tables() -> Vec<u8> {
    let foot = || {
        card_foot(
            &["KEYWORDS: Vehicle, Walker, Cutter Knight"],
            "Imperial Knights",
        )
    };
    let mut front: Vec<Operation> = [
        text(15.0, 20.0, 360.0, "CUTTER KNIGHT"),
        profile(["12\"", "11", "3+", "25", "6+", "10"]),
        weapons(
            280.0,
            ["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"],
            &[
                [
                    "Lascutter \u{96} low intensity [LANCE]",
                    "36\"",
                    "2D6",
                    "3+",
                    "7",
                    "-1",
                    "2",
                ],
                [
                    "Lascutter \u{96} high intensity",
                    "24\"",
                    "D6",
                    "3+",
                    "14",
                    "-3",
                    "4",
                ],
            ],
        ),
        weapons(
            240.0,
            ["MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"],
            &[
                [
                    "Lascutter \u{96} low intensity",
                    "Melee",
                    "12",
                    "3+",
                    "7",
                    "-1",
                    "2",
                ],
                [
                    "Lascutter \u{96} high intensity",
                    "Melee",
                    "6",
                    "3+",
                    "14",
                    "-3",
                    "4",
                ],
            ],
        ),
        text(9.0, 480.0, 280.0, "ABILITIES"),
        text(7.5, 480.0, 268.0, "CORE: Deadly Demise D6"),
        foot(),
    ]
    .concat();
    front.extend(text(7.5, 145.0, 228.0, "[LANCE]"));
    let back = card_back(
        "CUTTER KNIGHT",
        "Cutter Knight",
        "This model is equipped with: lascutter.",
        foot(),
    );
    pdf(&[front, back])
}

/// `landscape-card-footnote-band.pdf`: a footnote band across the foot of the front, under both
/// the weapon tables and the abilities column's DAMAGED box (`Before selecting targets for this
/// weapon, select one of its profiles to make attacks with.`). The trap: the band read as more
/// of the DAMAGED text or as an ability.
pub fn landscape_card_footnote_band() -> Vec<u8> {
    let foot = || card_foot(&["KEYWORDS: Vehicle, Band Tank"], "Astra Militarum");
    let front: Vec<Operation> = [
        text(15.0, 20.0, 360.0, "BAND TANK"),
        profile(["10\"", "10", "3+", "13", "7+", "3"]),
        weapons(
            280.0,
            ["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D"],
            &[
                ["Band cannon \u{96} shell [BLAST]", "48\"", "D6", "4+", "9", "-2", "3"],
                ["Band cannon \u{96} shot", "48\"", "1", "4+", "12", "-3", "D6"],
            ],
        ),
        weapons(
            240.0,
            ["MELEE WEAPONS", "RANGE", "A", "WS", "S", "AP", "D"],
            &[["Armoured tracks", "Melee", "3", "4+", "6", "0", "1"]],
        ),
        text(9.0, 480.0, 280.0, "ABILITIES"),
        text(7.5, 480.0, 268.0, "CORE: Deadly Demise D3"),
        text(7.5, 480.0, 240.0, "DAMAGED: 1-4 WOUNDS REMAINING"),
        text(7.5, 480.0, 228.0, "While this model has 1-4 wounds remaining,"),
        text(7.5, 480.0, 219.0, "subtract 1 from the Hit roll."),
        text(
            6.0,
            30.0,
            80.0,
            "Before selecting targets for this weapon, select one of its profiles to make attacks with.",
        ),
        foot(),
    ]
    .concat();
    let back = card_back(
        "BAND TANK",
        "Band Tank",
        "This model is equipped with: band cannon; armoured tracks.",
        foot(),
    );
    pdf(&[front, back])
}

/// Every generated PDF fixture: its file name under `tests/fixtures/pdf/` and its generator.
pub const GENERATED: &[(&str, Generator)] = &[
    ("invuln-in-shield.pdf", invuln_in_shield),
    (
        "abilities-header-on-weapon-header.pdf",
        abilities_header_on_weapon_header,
    ),
    ("keyword-cell-after-name.pdf", keyword_cell_after_name),
    ("shield-value-before-label.pdf", shield_value_before_label),
    (
        "shield-condition-same-baseline.pdf",
        shield_condition_same_baseline,
    ),
    ("shield-note-far-from-label.pdf", shield_note_far_from_label),
    (
        "faction-keyword-box-below-keywords.pdf",
        faction_keyword_box_below_keywords,
    ),
    ("card-without-weapon-tables.pdf", card_without_weapon_tables),
    ("shield-without-value.pdf", shield_without_value),
    (
        "same-profile-in-both-tables.pdf",
        same_profile_in_both_tables,
    ),
    (
        "landscape-card-footnote-band.pdf",
        landscape_card_footnote_band,
    ),
];

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

// --- Errata documents (issue 27, package D) ------------------------------------------------
// An errata page as Games Workshop prints it, on the generator's landscape page: a title and
// version across the top, two columns (x = 30 and x = 400), faction headings in capitals,
// entries `Target – Section` and their instructions, a footer in the bottom margin. WinAnsi
// codes: `\u{96}` en dash, `\u{91}`/`\u{92}` quotes, `\u{95}` bullet.

/// One line of an errata column.
pub enum Er<'a> {
    /// A faction heading (12 pt capitals).
    Head(&'a str),
    /// A line of 8 pt text.
    Line(&'a str),
    /// An empty line's worth of space (between entries).
    Gap,
    /// A mini-table row: a name cell, then the values 30 pt apart from 90 pt in.
    Row(&'a [&'a str]),
}

/// The operations of one column starting at `x`, top down from `top`.
fn errata_column(x: f32, top: f32, items: &[Er]) -> Vec<Operation> {
    let mut y = top;
    let mut ops = Vec::new();
    for item in items {
        match item {
            Er::Head(t) => {
                y -= 4.0;
                ops.extend(text(12.0, x, y, t));
                y -= 12.0;
            }
            Er::Line(t) => {
                ops.extend(text(8.0, x, y, t));
                y -= 11.0;
            }
            Er::Gap => y -= 11.0,
            Er::Row(cells) => {
                let cells: Vec<(f32, &str)> = cells
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| !c.is_empty())
                    .map(|(k, c)| (x + if k == 0 { 0.0 } else { 60.0 + 30.0 * k as f32 }, *c))
                    .collect();
                ops.extend(row(7.0, y, &cells));
                y -= 11.0;
            }
        }
    }
    ops
}

/// An errata document: each page a left and a right column; the first page under the title
/// `INDEX CARDS` and `version`; a page-number footer in the bottom margin.
pub fn errata_pdf(version: &str, pages: &[(Vec<Er>, Vec<Er>)]) -> Vec<u8> {
    let pages: Vec<Vec<Operation>> = pages
        .iter()
        .enumerate()
        .map(|(i, (left, right))| {
            let mut ops = Vec::new();
            let mut top = 380.0;
            if i == 0 {
                ops.extend(text(18.0, 300.0, 375.0, "INDEX CARDS"));
                ops.extend(text(10.0, 330.0, 360.0, &format!("VERSION {version}")));
                ops.extend(text(14.0, 30.0, 335.0, "ERRATA"));
                top = 315.0;
            }
            ops.extend(errata_column(30.0, top, left));
            ops.extend(errata_column(400.0, top, right));
            ops.extend(text(7.0, 360.0, 8.0, &format!("Index Cards {}", i + 1)));
            ops
        })
        .collect();
    pdf(&pages)
}

/// `errata-multi-target.pdf`: one header names three datasheets and wraps onto a second line.
pub fn errata_multi_target() -> Vec<u8> {
    use Er::*;
    errata_pdf(
        "1.0",
        &[(
            vec![
                Head("CHAOS DAEMONS"),
                Line("Daemon Prince of Chaos, Daemon Prince of Chaos with Wings, Soul"),
                Line("Grinder \u{96} Keywords section"),
                Line("Add \u{91}DAEMON\u{92}."),
                Gap,
                Line("Bloodletters \u{96} Keywords section"),
                Line("Add \u{91}BATTLELINE\u{92} and \u{91}INFANTRY\u{92}."),
            ],
            vec![
                Head("TYRANIDS"),
                Line("Gargoyles, Hormagaunts, Termagants \u{96} Keywords section"),
                Line("Add \u{91}BATTLELINE\u{92}."),
            ],
        )],
    )
}

/// `errata-add-weapon-profile-table.pdf`: `Add close combat weapon profile:` and its
/// `RANGE A WS S AP D` mini-table, level with a line of the other column.
pub fn errata_add_weapon_profile_table() -> Vec<u8> {
    use Er::*;
    errata_pdf(
        "1.0",
        &[(
            vec![
                Head("AELDARI"),
                Line("Skyweavers \u{96} Unit Composition"),
                Line("Change to \u{91}2-4 Skyweavers\u{92}."),
                Line("Vypers \u{96} Unit Composition"),
                Line("Change to \u{91}1 Vyper\u{92}."),
            ],
            vec![
                Head("CHAOS SPACE MARINES"),
                Line("Cultist Mob \u{96} Melee Weapons"),
                Line("Add close combat weapon profile:"),
                Row(&["", "RANGE", "A", "WS", "S", "AP", "D"]),
                Row(&["Close combat weapon", "Melee", "1", "4+", "3", "0", "1"]),
                Gap,
                Line("Chaos Terminator Squad \u{96} Invulnerable Save"),
                Line("Change to \u{91}4+\u{92}."),
            ],
        )],
    )
}

/// `errata-instruction-spans-columns.pdf`: a quoted block that starts at the foot of the left
/// column of page 1, runs on at the top of its right column and on page 2.
pub fn errata_instruction_spans_columns() -> Vec<u8> {
    use Er::*;
    let mut left = vec![Head("ORKS")];
    for header in [
        "Meganobz \u{96} Keywords section",
        "Wurrboy \u{96} Keywords section",
        "Weirdboy \u{96} Keywords section",
        "Warboss \u{96} Keywords section",
        "Deffkoptas \u{96} Keywords section",
        "Stormboyz \u{96} Keywords section",
    ] {
        left.push(Line(header));
        left.push(Line("Add \u{91}BEAST SNAGGA\u{92}."));
        left.push(Gap);
    }
    left.push(Line("Gretchin \u{96} Abilities, Runtherd"));
    left.push(Line("Change to:"));
    left.push(Line("\u{91}While this unit contains one or more Runtherd"));
    errata_pdf(
        "1.0",
        &[
            (
                left,
                vec![
                    Line("models, each time a model in this unit makes an attack,"),
                    Line("add 1 to the Hit roll. Gretchin \u{96} the grots \u{96} are"),
                ],
            ),
            (
                vec![
                    Line("not impressed.\u{92}"),
                    Gap,
                    Line("Trukk \u{96} Transport section"),
                    Line("Change to \u{91}This model has a transport capacity of 12.\u{92}"),
                ],
                vec![],
            ),
        ],
    )
}

/// `errata-not-mechanical.pdf`: instructions that are not mechanical (reported, never applied)
/// beside ones that are.
pub fn errata_not_mechanical() -> Vec<u8> {
    use Er::*;
    errata_pdf(
        "1.0",
        &[(
            vec![
                Head("BLACK TEMPLARS"),
                Line("Primaris Sword Brethren \u{96} reverse of card"),
                Line("Add Attached Unit section, to read:"),
                Line("\u{91}If a CHARACTER from your army with the Leader ability can be"),
                Line("attached to an INTERCESSOR SQUAD, it can be attached to this unit.\u{92}"),
                Gap,
                Line("Raptors \u{96} Wargear Options, 3rd bullet, all sub-bullets"),
                Line("Add \u{91}and 1 close combat weapon\u{92} to the end of each of"),
                Line("these sub-bullets."),
            ],
            vec![
                Head("NECRONS"),
                Line("Overlord \u{96} Profile line"),
                Line("Change Leadership characteristic to \u{91}6+\u{92}."),
                Gap,
                Line("Burna Boyz \u{96} Ranged Weapons, kustom mega-blasta"),
                Line("Remove the [BLAST] ability."),
            ],
        )],
    )
}

/// `errata-bullet-kerning.pdf`: a bulleted quoted block whose bullet is a glyph of its own
/// (`\u{95}1  fusion pistol`), and an apostrophe inside the quote.
pub fn errata_bullet_kerning() -> Vec<u8> {
    use Er::*;
    errata_pdf(
        "1.0",
        &[(
            vec![
                Head("AELDARI"),
                Line("Autarch \u{96} Wargear Options"),
                Line("Change to:"),
                Line("\u{91}This model\u{92}s shuriken pistol can be replaced with one of:"),
                Line("\u{95}1  death spinner"),
                Line("\u{95}1  fusion pistol\u{92}"),
                Gap,
                Line("Wave Serpent \u{96} Ranged Weapons, twin starcannon"),
                Line("Change Attacks to \u{91}2\u{92}."),
            ],
            vec![
                Line("Wraithguard \u{96} Abilities, War Construct"),
                Line("Delete the final sentence of this ability."),
            ],
        )],
    )
}

/// `errata-profile-line-table.pdf`: `Profile line – Change to read:` and a whole `M T SV W LD
/// OC` table, the faction heading joined to the header.
pub fn errata_profile_line_table() -> Vec<u8> {
    use Er::*;
    errata_pdf(
        "1.0",
        &[(
            vec![
                Head("SPACE WOLVES"),
                Line("Space Wolves Venerable Dreadnought \u{96} Profile line"),
                Line("Change to read:"),
                Row(&["", "M", "T", "SV", "W", "LD", "OC"]),
                Row(&["", "6\"", "9", "2+", "8", "6+", "3"]),
            ],
            vec![
                Head("WORLD EATERS"),
                Line("World Eaters Terminator Squad \u{96} Melee Weapons, power fist"),
                Line("Change WS to \u{91}3+\u{92}."),
                Gap,
                Line("World Eaters Rhino \u{96} Core Abilities"),
                Line("Add \u{91}Firing Deck 2\u{92}."),
            ],
        )],
    )
}

/// `errata-newer-supersedes-1.0.pdf` and `-1.2.pdf`: the same target and section in two
/// versions of the document, with different values.
pub fn errata_newer_supersedes(version: &str) -> Vec<u8> {
    use Er::*;
    let ap = if version == "1.0" {
        "Change AP to \u{91}-1\u{92}."
    } else {
        "Change AP to \u{91}-2\u{92}."
    };
    errata_pdf(
        version,
        &[(
            vec![
                Head("DARK ANGELS"),
                Line("Ravenwing Black Knights \u{96} Ranged Weapons, Astartes grenade"),
                Line("launcher (krak)"),
                Line(ap),
                Gap,
                Line("Kasrkin \u{96} Keywords section"),
                Line("Add \u{91}REGIMENT\u{92}."),
            ],
            vec![
                Head("ORKS"),
                Line("Meganobz \u{96} Keywords section"),
                Line("Add \u{91}MEGA ARMOUR\u{92}."),
            ],
        )],
    )
}

/// `errata-stratagem-and-army-rule-targets.pdf`: targets that are no datasheet: a stratagem
/// named with its kind, a card of stratagems, an army rule.
pub fn errata_stratagem_and_army_rule_targets() -> Vec<u8> {
    use Er::*;
    errata_pdf(
        "1.0",
        &[(
            vec![
                Head("CHAOS DAEMONS"),
                Line("Draught of Terror Stratagem \u{96} When and Target sections"),
                Line("Change to:"),
                Line("\u{91}WHEN: Your Shooting phase or the Fight phase.\u{92}"),
                Gap,
                Line("Stratagems Card \u{96} Phantasm Stratagem, Target section"),
                Line("Change to:"),
                Line("\u{91}TARGET: One AELDARI unit from your army.\u{92}"),
            ],
            vec![
                Head("THOUSAND SONS"),
                Line("Cabal of Sorcerers Army Rule \u{96} Temporal Surge"),
                Line("Add additional sentence to read:"),
                Line("\u{91}If it does, that unit is not eligible to declare a charge.\u{92}"),
            ],
        )],
    )
}

/// Every errata fixture: file name under `tests/fixtures/pdf/` and its bytes.
pub fn errata_fixtures() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("errata-multi-target.pdf", errata_multi_target()),
        (
            "errata-add-weapon-profile-table.pdf",
            errata_add_weapon_profile_table(),
        ),
        (
            "errata-instruction-spans-columns.pdf",
            errata_instruction_spans_columns(),
        ),
        ("errata-not-mechanical.pdf", errata_not_mechanical()),
        ("errata-bullet-kerning.pdf", errata_bullet_kerning()),
        ("errata-profile-line-table.pdf", errata_profile_line_table()),
        (
            "errata-newer-supersedes-1.0.pdf",
            errata_newer_supersedes("1.0"),
        ),
        (
            "errata-newer-supersedes-1.2.pdf",
            errata_newer_supersedes("1.2"),
        ),
        (
            "errata-stratagem-and-army-rule-targets.pdf",
            errata_stratagem_and_army_rule_targets(),
        ),
        (
            "errata-applies-to-cards-1.0.pdf",
            errata_applies_to_cards("1.0"),
        ),
        (
            "errata-applies-to-cards-1.2.pdf",
            errata_applies_to_cards("1.2"),
        ),
    ]
}

/// `errata-applies-to-cards-1.0.pdf` and `-1.2.pdf`: errata of the Cinder Walker card of
/// `invuln-in-shield.pdf` (a keyword, a weapon's AP, a weapon ability, the invulnerable save,
/// an ability's text; a change already made; a misprinted Move (`9+`); a
/// target not in the run), the AP differing
/// between the versions.
pub fn errata_applies_to_cards(version: &str) -> Vec<u8> {
    use Er::*;
    let ap = if version == "1.0" {
        "Change AP to \u{91}-1\u{92}."
    } else {
        "Change AP to \u{91}-3\u{92}."
    };
    errata_pdf(
        version,
        &[(
            vec![
                Head("ADEPTUS MECHANICUS"),
                Line("Cinder Walker \u{96} Keywords section"),
                Line("Add \u{91}SMOKE\u{92}."),
                Gap,
                Line("Cinder Walker \u{96} Ranged Weapons, cinder cannon"),
                Line(ap),
                Gap,
                Line("Cinder Walker \u{96} Invulnerable Save"),
                Line("Change to \u{91}4+\u{92}."),
                Gap,
                Line("Cinder Walker \u{96} Melee Weapons, crushing stomp"),
                Line("Add the [DEVASTATING WOUNDS] ability."),
            ],
            vec![
                Line("Cinder Walker \u{96} Abilities, Ash Cloud"),
                Line("Change to \u{91}Ash Cloud: Each time a ranged attack targets this"),
                Line("model, subtract 1 from the Wound roll.\u{92}"),
                Gap,
                Line("Cinder Walker \u{96} Profile line"),
                Line("Change Toughness characteristic to \u{91}9\u{92}."),
                Gap,
                Line("Cinder Walker \u{96} Profile"),
                Line("Change Move characteristic to \u{91}9+\u{92}."),
                Gap,
                Head("AELDARI"),
                Line("Warp Hunter \u{96} Keywords section"),
                Line("Add \u{91}FLY\u{92}."),
            ],
        )],
    )
}
