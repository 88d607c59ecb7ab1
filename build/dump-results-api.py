#!/usr/bin/env python3
# build/dump-results-api.py URL PROJECT > FILE.json
# Dumps a results server's read API for one project (budgets, every budget's series, changes) as one JSON document,
# upload times dropped (they differ between two servers fed the same runs), so two servers can be diffed.
import json, sys, urllib.request, urllib.parse
base, project = sys.argv[1].rstrip('/'), sys.argv[2]
def get(path):
    with urllib.request.urlopen(base + path) as r: return json.load(r)
p = '/api/projects/' + urllib.parse.quote(project)
budgets = get(p + '/budgets')
out = {'budgets': budgets, 'series': {}, 'changes': get(p + '/changes')}
for b in budgets:
    out['series'][b['budget']] = get(p + '/budgets/' + urllib.parse.quote(b['budget']) + '/series')
def strip(o):
    if isinstance(o, dict): return {k: strip(v) for k, v in o.items() if k != 'uploadedUtc'}
    if isinstance(o, list): return [strip(v) for v in o]
    return o
json.dump(strip(out), sys.stdout, indent=1, sort_keys=True)
