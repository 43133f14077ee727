# Compares a dataset's points.json (cogitator's reading of a Munitorum Field Manual PDF) with the
# independent reading of notes/mfm-read.py (pdftotext -bbox words).
# usage: python3 notes/mfm-compare.py READING.json DATASET_DIR
import json, sys, re, unicodedata
ref = json.load(open(sys.argv[1]))
pts = json.load(open(sys.argv[2] + '/points.json'))
def norm(s):
    s = unicodedata.normalize('NFKD', s).replace('\u2019', "'").lower()
    return re.sub(r'[^a-z0-9]+', ' ', s).strip()
def lab(s):
    # a tier's model count: '10 models' -> 10, '10-11 models' -> 11, a composition -> its sum
    m = re.fullmatch(r'(\d+)-(\d+) models?', s.strip())
    if m: return int(m.group(2))
    return sum(int(n) for n in re.findall(r'\d+', s))
ref_units = {}; ref_enh = {}
for (fac, sec, name), tiers in ref:
    if sec == 'enh':
        for n, p in tiers: ref_enh[(norm(name), norm(n))] = int(p)
    else:
        # the reading joins a name wrapped with 'and' to the tier's label: undo it
        t2 = []
        for l, p in tiers:
            if l.startswith('and ') and re.search(r'\d+ models?$', l):
                name = name + ' ' + re.sub(r'\s*\d+ models?$', '', l); l = re.search(r'\d+ models?$', l).group(0)
            t2.append((l, p))
        ref_units[norm(name)] = (sec, t2)
ours = {}; our_enh = {}
for p in pts:
    if p.get('kind') == 'enhancement':
        det = p['subject'].split(':')[2]
        our_enh[(det, norm(p['name']))] = p['tiers'][0]['points']
    else:
        ours.setdefault(norm(p['name']), []).append(p)
units_ok = tiers_ref = tiers_ok = fw_ok = 0
miss = []
for name, (sec, tiers) in ref_units.items():
    o = ours.get(name)
    if not o:
        miss.append(name); continue
    units_ok += 1
    fw_ok += (sec == 'fw') == any(p.get('forge_world') for p in o)
    have = [(t['models'], t['points']) for p in o for t in p['tiers']] + [('+', w['points']) for p in o for w in p['wargear']]
    for l, pv in tiers:
        tiers_ref += 1
        key = ('+', int(pv[1:])) if str(pv).startswith('+') else (lab(l), int(pv))
        if key in have: tiers_ok += 1; have.remove(key)
enh_ok = sum(1 for (d, n), v in ref_enh.items() if our_enh.get((norm(d).replace(' ', '-'), n)) == v)
fw_ref = sum(1 for s, _ in ref_units.values() if s == 'fw')
print(f"units {units_ok}/{len(ref_units)} ({100*units_ok/len(ref_units):.2f} %), tiers {tiers_ok}/{tiers_ref} ({100*tiers_ok/tiers_ref:.2f} %), "
      f"enhancements {enh_ok}/{len(ref_enh)}, FW flag agrees {fw_ok}/{units_ok} (FW units in the reading: {fw_ref}, ours: {sum(1 for v in ours.values() if any(p.get('forge_world') for p in v))}); "
      f"our records {len(pts)}")
if miss: print('missing:', miss[:20])
