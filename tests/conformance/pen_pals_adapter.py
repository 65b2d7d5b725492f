"""Someone else's Pen Pals (tests/games/pen-pals.txt), written from the rulebook without zoospec,
speaking zoospec's conformance protocol (docs/conformance.md) — the implementation
tests/test_conformance.py drives. Flags plant what other implementations get wrong or read
otherwise:
  --no-otter-penalty   a lonely otter costs nothing (a bug)
  --deal-twice         a card may be dealt twice (a bug)
  --diagonal-company   an otter diagonally next to an animal has company (the other reading)
  --no-moves           it does not answer `moves`
  --refuse-invalid     it answers an error on a state where two placed cards share a pen (robust)
  --crash-on-invalid   it dies on such a state, as a careless implementation would
and flags that break the protocol on the N-th request of a process (counting hello as the first):
  --hang-at=N --crash-at=N --garbage-at=N --wrong-shape-at=N --wrong-type-at=N
  --once=FILE          ... only in the first process (it leaves FILE behind), not again after a restart
"""
import json
import os
import sys
import time

FLAGS = {a for a in sys.argv[1:] if "=" not in a}
AT = {k: v for k, v in (a.split("=", 1) for a in sys.argv[1:] if "=" in a)}
ONCE = AT.pop("--once", None)
if ONCE and os.path.exists(ONCE):
    AT = {}
elif ONCE:
    open(ONCE, "w").close()
AT = {k: int(v) for k, v in AT.items()}
CARDS = sorted({"lion1", "lion2", "zebra1", "zebra2", "panda1", "panda2", "otter1", "otter2"})
PENS = [f"{r},{c}" for r in range(2) for c in range(3)]
KIND = {c: c[:-1] for c in ("lion1", "lion2", "zebra1", "zebra2", "panda1", "panda2", "otter1", "otter2")}


def cell(text):
    r, c = text.split(",")
    return int(r), int(c)


def placed(st):
    return [(KIND[st["deck"][str(i)]], cell(st["spot"][str(i)])) for i in range(1, st["now"] + 1)]


def next_to(a, b, diagonal):
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    return dr + dc == 1 or (diagonal and dr == 1 and dc == 1)


def score(st):
    cards = placed(st)
    pairs = sum(1 for i in range(len(cards)) for j in range(i + 1, len(cards))
                if cards[i][0] == cards[j][0] and next_to(cards[i][1], cards[j][1], False))
    pandas = sum(1 for k, (r, _) in cards if k == "panda" and r == 0)
    lonely = sum(1 for i, (k, p) in enumerate(cards) if k == "otter"
                 and not any(next_to(p, q, "--diagonal-company" in FLAGS) for j, (_, q) in enumerate(cards) if j != i))
    return 2 * pairs + pandas - (0 if "--no-otter-penalty" in FLAGS else lonely)


def legal(st, action, args):
    if action == "pp.deal":
        dealt = [st["deck"][str(i)] for i in range(1, st["dealt"] + 1)]
        return st["dealt"] < 4 and ("--deal-twice" in FLAGS or args["c"] not in dealt)
    if action == "pp.place":
        taken = {st["spot"][str(i)] for i in range(1, st["now"] + 1)}
        return st["dealt"] == 4 and st["now"] < 4 and args["p"] not in taken
    return False


def apply(st, action, args):
    st = json.loads(json.dumps(st))
    if action == "pp.deal":
        st["dealt"] += 1
        st["deck"][str(st["dealt"])] = args["c"]
    else:
        st["now"] += 1
        st["spot"][str(st["now"])] = args["p"]
    return st


def moves(st):
    return ([{"action": "pp.deal", "args": {"c": c}} for c in CARDS if legal(st, "pp.deal", {"c": c})]
            + [{"action": "pp.place", "args": {"p": p}} for p in PENS if legal(st, "pp.place", {"p": p})])


for n, line in enumerate(sys.stdin, 1):
    req = json.loads(line)
    op = req["op"]
    if AT.get("--hang-at") == n:
        time.sleep(3600)
    if AT.get("--crash-at") == n:
        sys.exit(3)
    if AT.get("--garbage-at") == n:
        print("Traceback (most recent call last): oops", flush=True)
        continue
    if AT.get("--wrong-shape-at") == n and op != "hello":
        print(json.dumps({"id": req.get("id"), "answer": "yes"}), flush=True)
        continue
    if AT.get("--wrong-type-at") == n and op != "hello":  # the right field, a string in it
        field = {"legal": "legal", "moves": "moves", "apply": "state", "score": "points", "end": "over"}[op]
        print(json.dumps({"id": req.get("id"), field: "yes"}), flush=True)
        continue
    st = req.get("state") or {}
    shared = len({st["spot"][str(i)] for i in range(1, st["now"] + 1)}) < st["now"] if "spot" in st else False
    if shared and "--crash-on-invalid" in FLAGS:
        sys.exit(4)
    if shared and "--refuse-invalid" in FLAGS:
        print(json.dumps({"id": req.get("id"), "error": "two cards in one pen: not a Pen Pals position"}), flush=True)
        continue
    if op == "hello":
        ops = ["legal", "apply", "score", "end"] + ([] if "--no-moves" in FLAGS else ["moves"])
        out = {"protocol": 1, "name": " ".join(["pen-pals-adapter", *sorted(FLAGS)]), "ops": ops}
    elif op == "moves":
        out = {"moves": moves(req["state"])}
    elif op == "legal":
        out = {"legal": legal(req["state"], req["action"], req["args"])}
    elif op == "apply":
        out = {"state": apply(req["state"], req["action"], req["args"])}
    elif op == "score":
        out = {"points": score(req["state"])}
    elif op == "end":
        out = {"over": req["state"]["now"] == 4}
    else:
        out = {"error": f"unknown op {op}"}
    print(json.dumps({"id": req.get("id"), **out}), flush=True)
