#!/usr/bin/env python3
"""Kill -9 trials: the durability verdict against an independent replay of what was committed.

Each trial writes a random scenario in which app, share and action insert, update, delete and save
(some saves together), and ends one of four ways:
  - crash-in-save: `fault: { crash: X, during: save }`, X is SIGKILLed inside its next save;
  - crash-step:    `X: crash`, SIGKILL between steps;
  - outside-kill:  this script SIGKILLs a random agent during a workload (not a scenario step);
  - planted:       this script deletes a committed row behind the harness's back, then a process crashes:
                   a real loss, which the tool must report.
It runs the scenario with `groupsim run --keep`, then
  1. runs `PRAGMA integrity_check` on the store file left behind;
  2. replays the commits in the run's trace.jsonl on its own (each store's commits in the order of their
     `start`, taken under the write lock; each row's last operation wins) and compares the result with
     the store file: a row missing, older or holding other values, or a deleted row still there, is a loss;
  3. compares that with the tool's own `data-loss` anomalies in report.json.

    scripts/crash-trials.py [--trials 300] [--seed 1] [--groupsim PATH]

Prints one summary line; exit status 0 when there was no integrity failure, no false data-loss verdict
and no missed real loss.
"""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = """summary: A crash trial.
store:
  group: group.trial
  name: Notes
  model:
    Note:
      title: string
      rank: int = 0
processes:
  app: {{ role: host, merge-policy: {policy} }}
  share: {{ role: share, merge-policy: {policy2} }}
  action: {{ role: action }}
steps:
"""
POLICIES = ["error", "overwrite", "object-trump", "store-trump", "rollback"]
PROCESSES = ["app", "share", "action"]


def scenario(rng, kind):
    """The YAML of one trial, and the process the script acts on (for outside-kill and planted)."""
    lines = [f"  - {p}: launch" for p in PROCESSES]
    inserted = []
    counter = 0
    dirty = {p: False for p in PROCESSES}
    for _ in range(rng.randint(6, 18)):
        p = rng.choice(PROCESSES)
        roll = rng.random()
        if roll < 0.35 or not inserted:
            counter += 1
            name = f"n{counter}"
            lines.append(f"  - {p}: {{ insert: Note, id: {name}, set: {{ title: t{counter}, rank: {rng.randint(0, 9)} }} }}")
            inserted.append(name)
            dirty[p] = True
        elif roll < 0.6:
            lines.append(f"  - {p}: {{ update: {rng.choice(inserted)}, set: {{ title: u{rng.randint(0, 999)} }} }}")
            dirty[p] = True
        elif roll < 0.7:
            lines.append(f"  - {p}: {{ delete: {rng.choice(inserted)} }}")
            dirty[p] = True
        elif roll < 0.85:
            lines.append(f"  - {p}: save")
            dirty[p] = False
        else:
            a, b = rng.sample(PROCESSES, 2)
            lines.append(f"  - parallel: [ {{ {a}: save }}, {{ {b}: save }} ]")
            dirty[a] = dirty[b] = False
    victim = rng.choice(PROCESSES)
    if kind == "crash-in-save":
        lines.append(f"  - {victim}: {{ insert: Note, id: crashed, set: {{ title: never }} }}")
        lines.append(f"  - fault: {{ crash: {victim}, during: save }}")
        if rng.random() < 0.5:
            other = rng.choice([p for p in PROCESSES if p != victim])
            lines.append(f"  - parallel: [ {{ {victim}: save }}, {{ {other}: save }} ]")
        else:
            lines.append(f"  - {victim}: save")
    elif kind == "crash-step":
        lines.append(f"  - {victim}: crash")
    elif kind == "outside-kill":
        for p in PROCESSES:
            lines.append(f"  - {p}: save")
        lines.append("  - workload: { processes: [app, share, action], entity: Note, rate: 300/s, duration: 1500ms, keys: 30 }")
    elif kind == "planted":
        for p in PROCESSES:
            lines.append(f"  - {p}: save")
        lines.append(f"  - app: {{ insert: Note, id: planted, set: {{ title: gone }} }}")
        lines.append("  - app: save")
        lines.append("  - sleep: 1500ms")
        lines.append(f"  - {victim}: crash")
    policy, policy2 = rng.choice(POLICIES), rng.choice(POLICIES)
    return HEADER.format(policy=policy, policy2=policy2) + "\n".join(lines) + "\n", victim


def sandbox_of(tmp):
    names = [n for n in os.listdir(tmp) if n.startswith("gs-")]
    return os.path.join(tmp, names[0]) if names else None


def agent_pids(tmp):
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                line = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if " agent " in line and tmp in line:
            pids.append(int(entry))
    return pids


def committed_pk(sandbox, process, name):
    """The primary key `process`'s trace says it committed for scenario id `name`, once it did."""
    try:
        with open(os.path.join(sandbox, "trace", f"{process}.jsonl"), encoding="utf-8") as f:
            for line in f:
                event = json.loads(line) if line.strip() else {}
                if event.get("type") == "saveCommitted":
                    for obj in event["data"]["objects"]:
                        if obj["id"] == name and obj.get("pk") is not None:
                            return obj["pk"]
    except (OSError, json.JSONDecodeError):
        pass
    return None


def act(kind, tmp, rng, done, acted):
    """The script's own part: kill an agent from outside, or delete a committed row."""
    deadline = time.time() + 20
    if kind == "outside-kill":
        # Once the workload runs (three agents alive for a while), SIGKILL one at a random moment.
        time.sleep(0.3 + rng.random() * 0.9)
        pids = agent_pids(tmp)
        if pids:
            os.kill(rng.choice(pids), signal.SIGKILL)
            acted.append("killed")
    elif kind == "planted":
        while time.time() < deadline and not done.is_set():
            sandbox = sandbox_of(tmp)
            pk = committed_pk(sandbox, "app", "planted") if sandbox else None
            if pk is not None:
                store = os.path.join(sandbox, "containers", "group.trial", "Notes.sqlite")
                db = sqlite3.connect(store, timeout=10)
                db.execute("DELETE FROM ZNOTE WHERE Z_PK = ?", (pk,))
                db.commit()
                db.close()
                acted.append(pk)
                return
            time.sleep(0.01)


def replay(trace_path, store_path):
    """Rows the store file lacks (or holds wrongly) against the commits of the trace, by row."""
    commits = []
    with open(trace_path, encoding="utf-8") as f:
        for index, line in enumerate(f):
            if not line.strip():
                continue
            event = json.loads(line)
            if event.get("type") != "saveCommitted" or event["data"]["store"] != "group:group.trial":
                continue
            commits.append((event.get("start", event["t"]), event["t"], index, event["data"]["objects"]))
    commits.sort()
    last = {}
    for _, _, _, objects in commits:
        for obj in objects:
            if obj.get("pk") is None:
                continue
            key = (obj["entity"], obj["pk"])
            state = last.get(key, {"values": {}})
            state = {"operation": obj["operation"], "version": obj["version"], "id": obj["id"],
                     "values": {**state["values"], **obj.get("values", {})}}
            last[key] = state
    rows = {}
    db = sqlite3.connect(store_path, timeout=10)
    for pk, version, title, rank in db.execute("SELECT Z_PK, Z_OPT, ZTITLE, ZRANK FROM ZNOTE"):
        rows[("Note", pk)] = (version, {"title": title, "rank": rank})
    db.close()
    lost = []
    for key, state in last.items():
        row = rows.get(key)
        if state["operation"] == "delete":
            if row is not None:
                lost.append((state["id"], "deleted row still present"))
            continue
        if row is None:
            lost.append((state["id"], "row missing"))
        elif row[0] < state["version"]:
            lost.append((state["id"], f"at v{row[0]}, committed v{state['version']}"))
        elif row[0] == state["version"]:
            for prop, value in state["values"].items():
                if prop in row[1] and row[1][prop] != value:
                    lost.append((state["id"], f"{prop} is {row[1][prop]!r}, committed {value!r}"))
    return lost


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--groupsim", default=os.path.join(ROOT, ".build", "debug", "groupsim"))
    args = parser.parse_args()
    if not os.path.exists(args.groupsim):
        print(f"crash-trials: no {args.groupsim}; build first (swift build)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    kinds = ["crash-in-save", "crash-step", "outside-kill", "planted"]
    tally = {k: 0 for k in kinds}
    problems = {"integrity": 0, "false-loss": 0, "missed-loss": 0, "harness": 0, "left": 0}
    planted = {"planted": 0, "found": 0}
    outside = 0
    commits_checked = 0
    for trial in range(args.trials):
        kind = kinds[trial % len(kinds)]
        tally[kind] += 1
        text, victim = scenario(rng, kind)
        tmp = tempfile.mkdtemp(prefix="gs-trial-")
        try:
            path = os.path.join(tmp, f"trial{trial}.yaml")
            with open(path, "w") as f:
                f.write(f"name: trial{trial}\n" + text)
            reports = os.path.join(tmp, "reports")
            done = threading.Event()
            acted = []
            helper = threading.Thread(target=act, args=(kind, tmp, random.Random(rng.random()), done, acted))
            helper.start()
            run = subprocess.run([args.groupsim, "run", path, "--keep", "--report-dir", reports],
                                 capture_output=True, timeout=120, env={**os.environ, "TMPDIR": tmp})
            done.set()
            helper.join()
            out = run.stdout.decode("utf-8", "replace")
            sandbox = sandbox_of(tmp)
            directory = os.path.join(reports, f"trial{trial}", "default")
            if sandbox is None or not os.path.exists(os.path.join(directory, "report.json")):
                problems["harness"] += 1
                print(f"trial {trial} ({kind}): no sandbox or report\n{out}", file=sys.stderr)
                continue
            store = os.path.join(sandbox, "containers", "group.trial", "Notes.sqlite")
            check = sqlite3.connect(store, timeout=10).execute("PRAGMA integrity_check").fetchall()
            if check != [("ok",)]:
                problems["integrity"] += 1
                print(f"trial {trial} ({kind}): integrity_check {check}", file=sys.stderr)
            with open(os.path.join(directory, "report.json")) as f:
                report = json.load(f)
            tool = sorted({a.get("object") for a in report["anomalies"] if a["kind"] == "data-loss"})
            lost = replay(os.path.join(directory, "trace.jsonl"), store)
            with open(os.path.join(directory, "trace.jsonl")) as f:
                commits_checked += sum(1 for line in f if '"type":"saveCommitted"' in line)
            truth = sorted({obj for obj, _ in lost})
            if kind == "planted" and acted:
                planted["planted"] += 1
                planted["found"] += "planted" in tool
                if "planted" not in truth:
                    print(f"trial {trial}: the planted loss is not in the replay", file=sys.stderr)
            if kind == "outside-kill" and acted:
                outside += 1
            if set(tool) - set(truth):
                problems["false-loss"] += 1
                print(f"trial {trial} ({kind}): tool reports data-loss {tool}, the replay finds {lost}\n{out}", file=sys.stderr)
            if set(truth) - set(tool):
                problems["missed-loss"] += 1
                print(f"trial {trial} ({kind}): the replay finds {lost}, the tool reports {tool}\n{out}", file=sys.stderr)
            if agent_pids(tmp):
                problems["left"] += 1
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if (trial + 1) % 25 == 0:
            print(f"crash-trials: {trial + 1} of {args.trials}", file=sys.stderr)
    print(f"crash-trials: {args.trials} trials ({', '.join(f'{v} {k}' for k, v in tally.items())}), {commits_checked} commits replayed: "
          f"{problems['integrity']} integrity failures, {problems['false-loss']} false data-loss verdicts, "
          f"{problems['missed-loss']} missed real losses, {problems['harness']} runs without a report, "
          f"{problems['left']} with an agent left; {planted['found']} of {planted['planted']} planted losses reported; "
          f"{outside} agents killed from outside")
    bad = problems["integrity"] + problems["false-loss"] + problems["missed-loss"] + problems["harness"] + problems["left"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
