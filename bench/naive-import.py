# A naive Python script: read the whole file with the csv module, post 100,000-row chunks to the same endpoint.
# Usage: python3 naive-import.py FILE BASE_URL KEY
import csv, json, sys, urllib.request

path, base_url, key = sys.argv[1:4]
with open(path, newline='', encoding='utf-8-sig') as f:
    rows = list(csv.DictReader(f))
for i in range(0, len(rows), 100_000):
    body = json.dumps({'conflictAction': 'noUpdate', 'prospectList': rows[i:i + 100_000]}).encode()
    req = urllib.request.Request(f'{base_url}/v1/prospects/import-with-field-name', data=body, method='POST',
                                 headers={'x-api-key': key, 'content-type': 'application/json'})
    with urllib.request.urlopen(req) as res:
        if res.status != 201:
            raise SystemExit(f'HTTP {res.status}')
print(f'naive python: {len(rows)} rows', file=sys.stderr)
