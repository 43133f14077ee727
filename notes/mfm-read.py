# Independent reading of a Munitorum Field Manual PDF (pdftotext -bbox words; columns by x; lines by y).
import subprocess,re,sys,json,html
f=sys.argv[1]
x=subprocess.run(['pdftotext','-bbox',f,'-'],capture_output=True,text=True).stdout
pages=x.split('<page ')[1:]
recs={}; fac=None; sec='unit'; unit=None; det=None; pending=''; order=[]
TIER=re.compile(r'^(.*?)\s*(\+?)(\d+)\s*pts$')
for pi,pg in enumerate(pages[1:],start=2):
  words=[(float(a),float(b),float(c),float(d),html.unescape(w)) for a,b,c,d,w in re.findall(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<',pg)]
  big=[w for w in words if w[3]-w[1]>20]
  if big:
    big.sort(key=lambda w:(round(w[1]),w[0])); head=' '.join(w[4] for w in big)
  cols=[[],[],[]]
  for w in words:
    if w[3]-w[1]>20: continue
    c=0 if w[0]<230 else 1 if w[0]<380 else 2
    cols[c].append(w)
  items=[]
  if big: items.append((-1,0,'@@'+head))
  for ci,cw in enumerate(cols):
    cw.sort(key=lambda w:(round(w[3]),w[0])); lines=[]
    for w in cw:
      if lines and abs(lines[-1][0]-w[3])<2: lines[-1][1].append(w[4])
      else: lines.append([w[3],[w[4]]])
    for y,ws in lines: items.append((ci,y,' '.join(ws)))
  for ci,y,l in items:
    l=re.sub(r'[\ufffd\x08]+',' ',l); l=re.sub(r'\s+',' ',l).strip()
    if not l or re.fullmatch(r'\d+',l) or l.startswith('PRODUCED BY') or 'Copyright' in l: continue
    if l.startswith('@@'): fac=l[2:]; sec='unit'; unit=None; continue
    if l=='FORGE WORLD POINTS VALUES': sec='fw'; unit=None; continue
    if l=='DETACHMENT ENHANCEMENTS': sec='enh'; det=None; continue
    if 'LEGENDS' in l and l.isupper(): sec='legends'; continue
    m=TIER.match(l)
    if m:
      label=(pending+' '+m.group(1)).strip(); pending=''
      if sec=='enh': recs.setdefault((fac,'enh',det),[]).append((label,int(m.group(3))))
      elif unit: recs.setdefault((fac,sec,unit),[]).append((label,('+' if m.group(2) else '')+m.group(3)))
      continue
    if re.match(r'^\d+ ',l) or l.startswith('and '):
      pending=(pending+' '+l).strip(); continue
    if sec=='enh': det=l
    else:
      unit=l if not (unit and unit not in [k[2] for k in recs] and False) else unit
json.dump([[list(k),v] for k,v in recs.items()],open(sys.argv[2],'w'),ensure_ascii=False,indent=0)
units=[k for k in recs if k[1]!='enh']; print(f.split('/')[-1], 'factions',len({k[0] for k in recs}),'units',len(units),'tiers',sum(len(recs[k]) for k in units),'fw',sum(1 for k in units if k[1]=='fw'),'detachments',sum(1 for k in recs if k[1]=='enh'),'enh',sum(len(recs[k]) for k in recs if k[1]=='enh'))
