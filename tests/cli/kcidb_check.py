"""Check KCIDB documents against KCIDB's v5.3 I/O schema (the fixture
tests/fixtures/kcidb/io-v5.3.schema.json) with Debian's python3-jsonschema,
formats checked, and that every link resolves inside the document.

usage: kcidb_check.py SCHEMA DOC.json...   prints "ok - ..." / "not ok - ..."
lines, one per document, then each error."""
import datetime
import json
import sys
import urllib.parse

import jsonschema

schema = json.load(open(sys.argv[1]))
formats = jsonschema.FormatChecker()


# jsonschema checks date-time and uri only with packages Debian 12 lacks
# (rfc3339-validator, rfc3987): RFC 3339 times and absolute URIs by hand.
@formats.checks("date-time", raises=ValueError)
def is_datetime(s):
    if not isinstance(s, str):
        return True
    if "T" not in s.upper() or not (s.endswith(("Z", "z")) or s[-6] in "+-"):
        raise ValueError("no T or no time zone")
    datetime.datetime.fromisoformat(s.replace("z", "Z"))
    return True


@formats.checks("uri", raises=ValueError)
def is_uri(s):
    if isinstance(s, str) and (not urllib.parse.urlsplit(s).scheme or " " in s):
        raise ValueError("not an absolute URI")
    return True


validator = jsonschema.Draft7Validator(schema, format_checker=formats)


def links(doc):
    """Ids an object points at that the document does not hold."""
    ids = {k: {o["id"] for o in doc.get(k, [])} for k in ("checkouts", "builds", "tests", "issues")}
    bad = []
    for b in doc.get("builds", []):
        if b["checkout_id"] not in ids["checkouts"]:
            bad.append("build " + b["id"] + " names a missing checkout")
    for t in doc.get("tests", []):
        if t["build_id"] not in ids["builds"]:
            bad.append("test " + t["id"] + " names a missing build")
    for i in doc.get("incidents", []):
        if i["issue_id"] not in ids["issues"] or i.get("test_id") not in ids["tests"]:
            bad.append("incident " + i["id"] + " names a missing issue or test")
    for k, v in ids.items():
        if len(v) != len(doc.get(k, [])):
            bad.append(k + " repeat an id")
    return bad


for path in sys.argv[2:]:
    doc = json.load(open(path))
    errors = ["%s: %s" % ("/".join(map(str, e.absolute_path)), e.message) for e in validator.iter_errors(doc)]
    if not errors:
        errors = links(doc)
    print(("not ok - " if errors else "ok - ") + path + " is a valid KCIDB v5.3 document")
    for e in errors[:10]:
        print("#   " + e)
