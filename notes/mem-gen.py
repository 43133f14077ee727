#!/usr/bin/env python3
"""Write the large inputs behind the README's memory figures (issue 24).

    python3 notes/mem-gen.py DIR

writes into DIR:
  text-dump.txt       ~40 MB text dump: 100,000 datasheet-like units of 10 lines each
  markdown-table.md   ~50 MB Markdown: one weapon table of 1.1 million rows
  tiny-elements/      ~64 MB BattleScribe catalogue of 5 million `<rule id=""/>` beside a game system
  big-catalogue/      ~60 MB BattleScribe catalogue: many real-shaped units beside a game system

Then measure each with
    /usr/bin/time -v target/release/cogitator ingest DIR/INPUT --out /tmp/o --no-validate
and read "Maximum resident set size".
"""
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/mem"
os.makedirs(out, exist_ok=True)

with open(os.path.join(out, "text-dump.txt"), "w") as f:
    for i in range(100_000):
        f.write(
            f"RANGED WEAPONS | RANGE | A | BS | S | AP | D | |\n"
            f"Bolt rifle {i} [assault, heavy] | 24\" | 2 | 3+ | 4 | -1 | 1 |\n"
            f"MELEE WEAPONS | RANGE | A | WS | S | AP | D | |\n"
            f"Close combat weapon {i} | Melee | 3 | 3+ | 4 | 0 | 1 |\n"
            f"1 model | {i % 300} |\n"
            f"Unit {i} ability: each time this unit {i} shoots, re-roll 1s.\n"
            f"KEYWORDS: Infantry, Unit {i}\n"
            f"FACTION KEYWORDS: Adeptus Astartes\n"
            f"INVULNERABLE SAVE 4+\n"
            f"Leader unit {i}\n"
        )

with open(os.path.join(out, "markdown-table.md"), "w") as f:
    f.write("# Weapons\n\n| Weapon | Range | A | BS | S | AP | D |\n|---|---|---|---|---|---|---|\n")
    for i in range(1_100_000):
        f.write(f"| Bolt rifle {i} | 24\" | 2 | 3+ | 4 | -1 | 1 |\n")

GST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gameSystem id="sys-352e-adc2-7639-d6a9" name="Warhammer 40,000 10th Edition" revision="1" '
    'battleScribeVersion="2.03" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">\n'
    '<profileTypes><profileType id="c547-1836-d8a-ff4f" name="Unit"/></profileTypes>\n'
    "</gameSystem>\n"
)

d = os.path.join(out, "tiny-elements")
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "wh40k.gst"), "w") as f:
    f.write(GST)
with open(os.path.join(d, "tiny.cat"), "w") as f:
    f.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<catalogue id="c1" name="Tiny" revision="1" gameSystemId="sys-352e-adc2-7639-d6a9" '
        'xmlns="http://www.battlescribe.net/schema/catalogueSchema"><rules>\n'
    )
    for _ in range(5_000_000):
        f.write('<rule id=""/>')
    f.write("\n</rules></catalogue>\n")

d = os.path.join(out, "big-catalogue")
os.makedirs(d, exist_ok=True)
with open(os.path.join(d, "wh40k.gst"), "w") as f:
    f.write(GST)
with open(os.path.join(d, "big.cat"), "w") as f:
    f.write(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<catalogue id="c2" name="Big" revision="1" gameSystemId="sys-352e-adc2-7639-d6a9" '
        'xmlns="http://www.battlescribe.net/schema/catalogueSchema"><sharedSelectionEntries>\n'
    )
    for i in range(45_000):
        f.write(
            f'<selectionEntry id="u{i}" name="Unit {i}" type="unit" hidden="false">'
            f'<profiles><profile id="p{i}" name="Unit {i}" typeId="c547-1836-d8a-ff4f" typeName="Unit">'
            f'<characteristics><characteristic name="M" typeId="m">6"</characteristic>'
            f'<characteristic name="T" typeId="t">4</characteristic>'
            f'<characteristic name="SV" typeId="sv">3+</characteristic>'
            f'<characteristic name="W" typeId="w">2</characteristic>'
            f'<characteristic name="LD" typeId="ld">6+</characteristic>'
            f'<characteristic name="OC" typeId="oc">1</characteristic></characteristics></profile>'
            f'<profile id="w{i}" name="Bolt rifle {i}" typeId="f77d-b953-8fa4-b762" typeName="Ranged Weapons">'
            f'<characteristics><characteristic name="Range" typeId="r">24"</characteristic>'
            f'<characteristic name="A" typeId="a">2</characteristic>'
            f'<characteristic name="BS" typeId="bs">3+</characteristic>'
            f'<characteristic name="S" typeId="s">4</characteristic>'
            f'<characteristic name="AP" typeId="ap">-1</characteristic>'
            f'<characteristic name="D" typeId="d">1</characteristic>'
            f'<characteristic name="Keywords" typeId="k">Assault, Heavy</characteristic></characteristics></profile>'
            f'</profiles><categoryLinks><categoryLink id="cl{i}" name="Infantry" targetId="inf" primary="false"/>'
            f'</categoryLinks><costs><cost name="pts" typeId="51b2-306e-1021-d207" value="{90 + i % 50}"/></costs>'
            f'</selectionEntry>\n'
        )
    f.write("</sharedSelectionEntries></catalogue>\n")
