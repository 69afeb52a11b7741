"""An engine that misbehaves on purpose, for the harness's robustness tests.

    python misbehave.py MODE [PIDFILE]

Modes: crash, node-crash, hang, garbage, wrong-id, id-true, slow-start, exit-at-deal, caps-list, caps-string,
bad-utf8, bad-utf8-stderr, huge-line, endless-line, endless-stderr, close-stdout, setsid-child, big-int, nan,
crash-child-holds-stdout.
setsid-child writes the pid of a child that left the engine's session to PIDFILE.
"""

import json
import os
import sys
import time

mode = sys.argv[1]
out = sys.stdout.buffer


def send(obj):
    out.write((json.dumps(obj) + "\n").encode())
    out.flush()


if mode == "slow-start":
    time.sleep(30)
if mode == "close-stdout":
    os.close(1)
    time.sleep(60)
if mode == "setsid-child":
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:  # a grandchild in a new session, orphaned once its parent exits
            with open(sys.argv[2], "w", encoding="ascii") as f:
                f.write(str(os.getpid()))
            time.sleep(120)
            os._exit(0)
        os._exit(0)
    os.waitpid(pid, 0)
    time.sleep(0.3)
if mode == "endless-stderr":
    while True:
        sys.stderr.buffer.write(b"x" * 65536)
for line in sys.stdin:
    msg = json.loads(line)
    rid = msg["id"]
    if msg["cmd"] == "hello":
        caps = {"set_state": False}
        if mode == "caps-list":
            caps = ["explicit_deal", "legal_actions"]
        elif mode == "caps-string":
            caps = "all"
        reply = {"id": True if mode == "id-true" else rid, "ok": True, "protocol": "thousand-engine/1",
                 "engine": mode, "capabilities": caps}
    elif mode == "crash":
        print("boom: the engine fell over", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "node-crash":
        # As Node dies: the error line, then the frames of its stack.
        print("/srv/engine.js:12\n        throw new TypeError('hand is undefined');\n\nTypeError: hand is undefined\n"
              + "".join(f"    at step{i} (/srv/engine.js:{i}:5)\n" for i in range(8)), file=sys.stderr, flush=True)
        sys.exit(1)
    elif mode == "bad-utf8-stderr":
        sys.stderr.buffer.write(b"\xff\xfe broken \xc3\x28 bytes\n")
        sys.stderr.flush()
        sys.exit(4)
    elif mode in ("hang", "setsid-child"):
        time.sleep(600)
        reply = {"id": rid, "ok": True}
    elif mode == "garbage":
        print("<html>not json</html>", flush=True)
        continue
    elif mode == "bad-utf8":
        out.write(b'{"id": ' + str(rid).encode() + b', "ok": true, "note": "\xff\xfe"}\n')
        out.flush()
        continue
    elif mode == "huge-line":
        out.write(b'{"id": ' + str(rid).encode() + b', "ok": true, "pad": "' + b"x" * (200 << 20) + b'"}\n')
        out.flush()
        continue
    elif mode == "endless-line":
        while True:
            out.write(b"x" * 65536)
    elif mode == "big-int":
        out.write(b'{"id": ' + str(rid).encode() + b', "ok": true, "actions": [], "n": ' + b"7" * 5000 + b"}\n")
        out.flush()
        continue
    elif mode == "nan":
        out.write(b'{"id": ' + str(rid).encode() + b', "ok": true, "actions": [], "n": NaN}\n')
        out.flush()
        continue
    elif mode == "crash-child-holds-stdout":
        if os.fork() == 0:  # a child that keeps the engine's standard output open after it dies
            time.sleep(30)
            os._exit(0)
        sys.exit(5)
    elif mode == "wrong-id":
        reply = {"id": rid + 100, "ok": True}
    elif mode == "exit-at-deal" and msg["cmd"] == "deal":
        sys.exit(0)
    else:
        reply = {"id": rid, "ok": True, "actions": [], "deals": [], "accepted": True}
    send(reply)
