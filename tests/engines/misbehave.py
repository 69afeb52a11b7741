"""An engine that misbehaves on purpose, for the harness's robustness tests.

    python misbehave.py crash|hang|garbage|wrong-id|slow-start|exit-at-deal
"""

import json
import sys
import time

mode = sys.argv[1]
if mode == "slow-start":
    time.sleep(30)
for line in sys.stdin:
    msg = json.loads(line)
    if msg["cmd"] == "hello":
        reply = {"id": msg["id"], "ok": True, "protocol": "thousand-engine/1", "engine": mode,
                 "capabilities": {"set_state": False}}
    elif mode == "crash":
        print("boom: the engine fell over", file=sys.stderr, flush=True)
        sys.exit(3)
    elif mode == "hang":
        time.sleep(600)
        reply = {"id": msg["id"], "ok": True}
    elif mode == "garbage":
        print("<html>not json</html>", flush=True)
        continue
    elif mode == "wrong-id":
        reply = {"id": msg["id"] + 100, "ok": True}
    elif mode == "exit-at-deal" and msg["cmd"] == "deal":
        sys.exit(0)
    else:
        reply = {"id": msg["id"], "ok": True, "actions": [], "deals": [], "accepted": True}
    print(json.dumps(reply), flush=True)
