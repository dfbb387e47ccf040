"""Check a LAVA job or test definition with LAVA's own schema (lava_common,
from Debian's lava-common unpacked into vmregress's cache) and read the
results of lava-run's log.

usage: lava_check.py SITE job FILE        the job, and each inline definition
       lava_check.py SITE testdef FILE    a test definition
       lava_check.py SITE results LOG     the log's test cases, one JSON line each
       lava_check.py SITE attached LOG    the run's JSON that `vmregress lava attach`
                                          framed in the device's output (gzip, base64)
Prints "ok - ..." / "not ok - ..." lines (results, attached: JSON)."""
import base64
import gzip
import json
import sys
import zlib

sys.path.insert(0, sys.argv[1])
import yaml  # noqa: E402

mode, path = sys.argv[2], sys.argv[3]
if mode == "attached":
    # the frame: VMR-BEGIN 1 run-json-gz RC LEN CRC, VMR-D base64..., VMR-END CRC,
    # each line a `target` entry of the log; read apart from vmregress's parser
    data, inside, header = [], False, None
    for line in open(path):
        line = line.strip()
        if line.startswith("- "):
            line = line[2:]
        if not line.startswith("{"):
            continue
        try:
            entry = yaml.load(line, Loader=yaml.SafeLoader)
        except yaml.YAMLError:
            continue
        msg = entry.get("msg") if isinstance(entry, dict) and entry.get("lvl") == "target" else None
        if not isinstance(msg, str) or "VMR-" not in msg:
            continue
        msg = msg[msg.index("VMR-"):]
        if msg.startswith("VMR-BEGIN ") and msg.split()[2] == "run-json-gz":
            data, inside, header = [], True, msg.split()
        elif msg.startswith("VMR-D ") and inside:
            data.append(msg[6:])
        elif msg.startswith("VMR-END") and inside:
            inside = False
            payload = base64.b64decode("".join(data))
            assert len(payload) == int(header[4]), "length"
            assert "%08x" % zlib.crc32(payload) == header[5], "crc"
            doc = json.loads(gzip.decompress(payload))
    print(json.dumps(doc))
    sys.exit(0)
if mode == "results":
    for line in open(path):
        line = line.strip()
        if line.startswith("- "):
            line = line[2:]
        if not line.startswith("{"):
            continue
        try:
            entry = yaml.load(line, Loader=yaml.SafeLoader)
        except yaml.YAMLError:
            continue
        if isinstance(entry, dict) and entry.get("lvl") == "results":
            print(json.dumps({k: str(v) for k, v in entry["msg"].items() if not isinstance(v, dict)}))
    sys.exit(0)
from lava_common.schemas import validate as validate_job  # noqa: E402
from lava_common.schemas.test.testdef import validate as validate_testdef  # noqa: E402

try:
    doc = yaml.safe_load(open(path))
    if mode == "job":
        validate_job(doc, strict=True)
        print("ok - %s passes LAVA's job schema" % path)
        for action in doc["actions"]:
            for d in action.get("test", {}).get("definitions", []):
                validate_testdef(d["repository"])
                print("ok - its inline definition %s passes LAVA's test definition schema" % d["name"])
    else:
        validate_testdef(doc)
        print("ok - %s passes LAVA's test definition schema" % path)
except Exception as e:  # YAML's, voluptuous's errors and LAVA's own
    print("not ok - %s: %s" % (path, str(e).replace("\n", " ")[:300]))
