# Writes a pair of datasets oldN/ newN/ (one datasheet of N weapons; every third changed, 10 removed, 10 added)
# for timing `cogitator diff oldN newN --format json` (issue 24). Usage: python3 notes/diff-gen.py N
import json, sys, os
n=int(sys.argv[1])
def weapon(i,a):
    return {"name":f"Gun {i}","type":"ranged","range":"24\"","A":str(a),"skill":"3+","S":"4","AP":"0","D":"1","keywords":[],"at":{"file":"big.html","line":100+i}}
def ds(ws):
    return {"id":"10e:tyranids:big","name":"Big","edition":"10e","faction":"Tyranids","sources":[{"file":"big.html","line":1,"sha256":"00"}],
     "models":[{"name":"Big","M":"6\"","T":"4","Sv":"3+","W":"2","Ld":"6+","OC":"1"}],"invulnerable_save":None,"invulnerable_save_condition":None,
     "weapons":ws,"abilities":[],"wargear_options":[],"unit_composition":[],"equipment":[],"points":[{"models":5,"points":100}],"damaged":None,
     "special_rules":[],"leads":[],"keywords":["INFANTRY"],"model_keywords":[],"faction_keywords":["TYRANIDS"],"stratagems":[]}
old=[weapon(i,2) for i in range(n)]
new=[weapon(i,3 if i%3==0 else 2) for i in range(n-10)]+[weapon(i,2) for i in range(n,n+10)]
for d,w in (("old%d"%n,old),("new%d"%n,new)):
    os.makedirs(d,exist_ok=True)
    json.dump([ds(w)],open(f"{d}/datasheets.json","w"))
    for f in ["stratagems","rules","enhancements","detachments","diagnostics"]:
        json.dump([],open(f"{d}/{f}.json","w"))
