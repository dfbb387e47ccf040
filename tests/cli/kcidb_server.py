"""A KCIDB submission endpoint for tests/cli/test_kcidb_submit.sh, on
127.0.0.1: POST /submit answers 401 without "Authorization: Bearer TOKEN",
400 unless the body is JSON with version.major, else 200; /flaky answers
500 to its first request, then as /submit; /echo answers 400 quoting the
Authorization header back.  Each request is logged to LOG as one JSON line
(path, whether the token was right, the content type, the body's SHA-256,
the status), never the token itself.

usage: kcidb_server.py TOKEN_FILE LOG PORT_FILE"""
import hashlib
import http.server
import json
import sys

token = open(sys.argv[1]).read().strip()
log = open(sys.argv[2], "a", buffering=1)
seen = set()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        auth = self.headers.get("Authorization", "")
        good = auth == "Bearer " + token
        try:
            doc = json.loads(body)
            valid = isinstance(doc["version"]["major"], int)
        except (ValueError, KeyError, TypeError):
            valid = False
        if self.path == "/flaky" and "/flaky" not in seen:
            seen.add("/flaky")
            status, answer = 500, b"try later\n"
        elif self.path == "/echo":
            status, answer = 400, ("refused, you sent: " + auth + "\n").encode()
        elif not good:
            status, answer = 401, b"bad token\n"
        elif not valid:
            status, answer = 400, b"not a KCIDB document\n"
        else:
            status, answer = 200, b"{\"ok\": true}\n"
        log.write(json.dumps({"path": self.path, "token_ok": good, "type": self.headers.get("Content-Type"),
                              "sha256": hashlib.sha256(body).hexdigest(), "status": status}) + "\n")
        self.send_response(status)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
with open(sys.argv[3] + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
import os
os.rename(sys.argv[3] + ".tmp", sys.argv[3])
server.serve_forever()
