# Measures how many sampled profile values `cogitator explain` shows on their own line (issue 24).
# Usage: python3 notes/explain-sample.py BINARY DATASET_DIR [N [INPUTS_DIR]]
# (the figure: ingest ../shared/corpus/wahapedia-html ../shared/corpus/bsdata/wh40k-10e into DATASET_DIR, N=1000).
import json, random, subprocess, sys
binary, ds = sys.argv[1], sys.argv[2]
N = int(sys.argv[3]) if len(sys.argv) > 3 else 60
d = json.load(open(ds + '/datasheets.json'))
cands = []
for x in d:
    for kind, chars in (('models', ['M','T','Sv','W','Ld','OC']), ('weapons', ['range','A','skill','S','AP','D'])):
        lst = x.get(kind) or []
        names = [m.get('name') for m in lst]
        for m in lst:
            key = m.get('name')
            if names.count(key) > 1:
                if kind == 'weapons' and sum(1 for o in lst if o.get('name') == key and o.get('type') == m.get('type')) == 1:
                    key = f"{key} ({m.get('type')})"
                else:
                    continue
            at = m.get('at') or {}
            f = at.get('file', '')
            if not (f.endswith('.html') or f.endswith('.cat') or f.endswith('.gst')):
                continue
            for c in chars:
                if m.get(c):
                    cands.append((x['id'], kind, key, c, str(m[c]), f))
random.seed(24)
sample = random.sample(cands, min(N, len(cands)))
ok = 0
bad = []
for (id_, kind, name, c, v, f) in sample:
    t = f"{id_}.{kind}[{name}].{c}"
    r = subprocess.run([binary, 'explain', t, '--dataset', ds, '--inputs', (sys.argv[4] if len(sys.argv) > 4 else '../shared/corpus')], capture_output=True, text=True)
    out = r.stdout
    own = out.split("the value's own location:")
    first = ''
    if len(own) > 1:
        lines = [l for l in own[1].split('\n')[1:] if l.startswith('      |')]
        first = lines[0][8:] if lines else ''
    toks = first.replace(',', ' ').split()
    if v in toks:
        ok += 1
    else:
        bad.append((t, v, first[:120], r.returncode, r.stderr[:100], f.rsplit('.',1)[1]))
print(f"{ok} of {len(sample)} sampled values show their own line")
import collections
tot=collections.Counter(s[5].rsplit('.',1)[1] for s in sample); badc=collections.Counter(b[0] and b[-1] for b in bad)
print('by format:', dict(tot), 'bad by format:', dict(badc))
for b in bad[:int(sys.argv[4]) if len(sys.argv) > 4 else 15]:
    print('  BAD', b)
