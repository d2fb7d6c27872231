#!/usr/bin/env python3
"""Mutation fuzzing of the scenario language: no input the validator accepts may crash anything.

Mutates the bundled scenarios (hostile numbers and durations, control characters, names like '..',
deleted and duplicated lines, broken indentation, aliases, huge values), validates them in batches
with `groupsim validate`, and runs a sample of the valid ones with `groupsim run`, in real time and in the
deterministic mode. Some mutations move a step across a lifecycle step (`exit`, `crash`, `suspend`, ...):
the validator must refuse what the runner could not carry out. It keeps every input that
  - crashes the validator or the runner (a signal, or an exit status other than 0, 1 or 2),
  - hangs (no answer within 10 s),
  - gets an error line without `file:line:column`,
  - or validates and then ends a run as a harness error (exit 2: the file was valid but the run undecided),
under .fuzz/ (crashes/, hangs/, unpositioned/, run-crashes/, run-harness-errors/), and prints one summary line.

    scripts/fuzz-scenarios.py [--inputs 10000] [--seed 1] [--runs 50] [--groupsim PATH]

Exit status: 0 when nothing was kept, 1 otherwise.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

HOSTILE = [
    "9223372036854775807", "-9223372036854775808", "99999999999999999999999", "1e309", "-1e309", "1e300",
    "nan", ".nan", ".inf", "-.inf", "0", "-0", "-1", "1.5", "1e-05", "0.00001", "0x10", "1_000_000",
    "106752d", "999999999d", "36501d", "2h", "1us", "0.5us", "-5ms", "0ms", "1e300/s", "0/s", "5/0s", "100001/s",
    "..", ".", "/", "a/b", "../..", "", "''", '""', "~", "null", "true", "yes", "[]", "{}", "[a, b]",
    "{ a: 1 }", "*x", "&x y", "!!binary aGk=", "\u0085", "\u2028", "\x1b[31mred\x1b[0m", "\u202e", "\t",
    "💥", "é" * 3, "a\u0000b", "'it''s'", '"a\\"b"', '"\\u0085"', "'%s%n'", "<script>x</script>",
    "n1", "k1", "app", "share", "Note", "title", "rank > 1e309", "\"title == 'a\\\"b'\"", "score < 0.00001",
    "\"title IN ['a', 'b']\"", "-1", "pass", "[stale-read]", "[nope]",
]
PLAUSIBLE = [
    "0", "1", "2", "3", "-1", "0.5", "2.5", "10ms", "100ms", "1s", "2s", "1us", "8d", "A", "B", "n1", "n2", "k1", "true",
    "false", "none", "history", "refetch", "staleness", "darwin", "activation", "poll", "manual", "drop", "queue",
    "coalesce", "overwrite", "object-trump", "store-trump", "rollback", "error", "pinned", "own", "group", "reset",
    "keep-registered", "consumed-by-all", "own-token", "{ older-than: 7d }", "lazy", "launch", "host", "share",
    "action", "watch", "pass", "[stale-read]", "[missed-insert]", "50/s", "500/s", "\"rank > 2\"", "-rank",
    "view", "store", "editor", "{ editor: { parent: view } }", "{ a: { parent: b }, b: { parent: view } }",
    "\"ANY tags.notes.title == 'x'\"", "\"folder.owner.name == nil\"", "\"" + "(" * 70 + "rank > 1" + ")" * 70 + "\"",
    "Item", "Book", "GraphicNovel", "Shelf", "{ parent-entity: Book }", "{ abstract-entity: true }",
]
KEYS = [
    "name", "summary", "seed", "tags", "store", "group", "model", "processes", "role", "refresh", "staleness",
    "trigger", "poll-interval", "observe", "merge-policy", "history-tracking", "author", "history-authors",
    "purge", "refetch", "notify", "delivery", "query-generation", "busy-timeout", "storage", "sync",
    "steps", "variants", "expect", "latency", "stale-tolerance", "within", "now", "where", "sort", "set",
    "insert", "update", "delete", "read", "count", "fetch", "workload", "mix", "rate", "duration", "keys",
    "fault", "crash", "during", "sleep", "clock", "advance", "parallel", "only-in", "expect-error",
    "copy-store", "with-wal", "open-copy", "batch-insert", "batch-update", "batch-delete", "id", "via",
    "models", "migrate", "on-load-failure", "write-transactions", "state", "fault", "deleted", "registered",
    "begin-write", "end-write", "purge-history", "reload-timelines", "push", "context", "limits",
    "contexts", "parent", "automatically-merges", "parent-entity", "abstract-entity",
]


LIFECYCLE = re.compile(r"^\s*- [A-Za-z0-9_-]+: \{?\s*(launch|exit|crash|suspend|resume|terminate|background|foreground)\b")
STEP = re.compile(r"^\s*- [A-Za-z0-9_-]+: ")


def move_across_lifecycle(lines, rng):
    """Moves one step line to just after a lifecycle step (of any process), or before one."""
    steps = [i for i, line in enumerate(lines) if STEP.match(line)]
    lifecycle = [i for i in steps if LIFECYCLE.match(lines[i])]
    if not steps or not lifecycle:
        return lines
    moved = lines.pop(rng.choice(steps))
    anchor = min(rng.choice(lifecycle), len(lines) - 1)
    lines.insert(anchor + (1 if rng.random() < 0.5 else 0), moved)
    return lines


def mutate(text, rng):
    lines = text.split("\n")
    if rng.random() < 0.15:
        return "\n".join(move_across_lifecycle(lines, rng))
    if rng.random() < 0.5:
        # One mild change: a plausible value in place of one word, so that many inputs stay valid and
        # reach the runner with settings and steps nobody combined before.
        candidates = [i for i, line in enumerate(lines) if ": " in line and not line.lstrip().startswith("#")]
        if candidates:
            i = rng.choice(candidates)
            cut = lines[i].index(": ") + 2
            words = list(re.finditer(r"[A-Za-z0-9_.\-/]+", lines[i][cut:]))
            if words:
                w = rng.choice(words)
                lines[i] = lines[i][: cut + w.start()] + rng.choice(PLAUSIBLE + HOSTILE[:20]) + lines[i][cut + w.end():]
        return "\n".join(lines)
    for _ in range(rng.randint(1, 4)):
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        op = rng.randrange(11)
        line = lines[i]
        if op == 0 and ":" in line:
            # Replace a value after a colon.
            key, _, _ = line.partition(":")
            lines[i] = key + ": " + rng.choice(HOSTILE)
        elif op == 1:
            del lines[i]
        elif op == 2:
            lines.insert(i, line)
        elif op == 3:
            indent = len(line) - len(line.lstrip(" "))
            lines.insert(i, " " * indent + rng.choice(KEYS) + ": " + rng.choice(HOSTILE))
        elif op == 4:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 5:
            lines[i] = (" " * rng.choice([1, 2, 4])) + line if rng.random() < 0.5 else line[rng.choice([1, 2]):]
        elif op == 6:
            # Replace one word (a number, a name, a duration) inside the line.
            words = list(re.finditer(r"[A-Za-z0-9_.\-/]+", line))
            if words:
                w = rng.choice(words)
                lines[i] = line[:w.start()] + rng.choice(HOSTILE) + line[w.end():]
        elif op == 7:
            pos = rng.randrange(len(line) + 1)
            lines[i] = line[:pos] + rng.choice(["\u0085", "\x1b", "\u2028", "\x00", "\t", "\\", "'", '"', "{", "[", "*", "&", "#", "%"]) + line[pos:]
        elif op == 8:
            lines = lines[:i]
        elif op == 9:
            # A small alias chain, sometimes a bomb.
            width = rng.choice([2, 3, 10])
            depth = rng.choice([2, 4, 9])
            chain = ["x0: &x0 [" + ", ".join(["v"] * width) + "]"]
            for d in range(1, depth):
                chain.append(f"x{d}: &x{d} [" + ", ".join([f"*x{d-1}"] * width) + "]")
            lines[0:0] = chain
        else:
            # A very long value.
            if ":" in line:
                key, _, _ = line.partition(":")
                lines[i] = key + ": " + "y" * rng.choice([1000, 70000])
    return "\n".join(lines)


def validate(groupsim, paths, timeout):
    """(status, stdout+stderr lines, timed out?) of `groupsim validate paths...`."""
    try:
        done = subprocess.run([groupsim, "validate", *paths], capture_output=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None, [], True
    text = (done.stdout + done.stderr).decode("utf-8", "replace")
    return done.returncode, text.split("\n"), False


def unpositioned(lines, files):
    """Lines of `validate` output that are neither ok, nor a positioned error, nor the summary."""
    bad = []
    for line in lines:
        if not line.strip():
            continue
        if re.match(r"^.+\.yaml: ok \(", line):
            continue
        if re.match(r"^.+\.yaml:\d+:\d+: error: ", line):
            continue
        if re.match(r"^\d+ error\(s\)", line) or re.match(r"^\d+ errors? in \d+ files?; \d+ files? valid\.$", line):
            continue
        bad.append(line)
    return bad


def keep(out, kind, name, text):
    os.makedirs(os.path.join(out, kind), exist_ok=True)
    with open(os.path.join(out, kind, name), "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=50, help="how many valid inputs to run, spread evenly (0: none)")
    parser.add_argument("--groupsim", default=os.path.join(ROOT, ".build", "debug", "groupsim"))
    parser.add_argument("--out", default=os.path.join(ROOT, ".fuzz"))
    args = parser.parse_args()
    if not os.path.exists(args.groupsim):
        print(f"fuzz: no {args.groupsim}; build first (swift build)", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    seeds = []
    # The library, and seeds for syntax the library does not use.
    for scen in (os.path.join(ROOT, "Scenarios"), os.path.join(ROOT, "scripts", "fuzz-seeds")):
        for name in sorted(os.listdir(scen)):
            if name.endswith(".yaml"):
                with open(os.path.join(scen, name), encoding="utf-8") as f:
                    seeds.append(f.read())
    shutil.rmtree(args.out, ignore_errors=True)
    work = tempfile.mkdtemp(prefix="gs-fuzz-")
    counts = {"valid": 0, "invalid": 0, "crashes": 0, "hangs": 0, "unpositioned": 0, "runs": 0, "run-crashes": 0, "run-hangs": 0,
              "run-harness-errors": 0}
    shm = "/dev/shm"
    before = set(os.listdir(shm)) if os.path.isdir(shm) else set()
    valid_paths = []
    batch = 500
    try:
        for start in range(0, args.inputs, batch):
            directory = os.path.join(work, f"b{start}")
            os.makedirs(directory)
            names = []
            for n in range(start, min(args.inputs, start + batch)):
                text = mutate(rng.choice(seeds), rng)
                name = f"in{n:06d}.yaml"
                with open(os.path.join(directory, name), "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(text)
                names.append(name)
            status, lines, hung = validate(args.groupsim, [directory], timeout=10 * 60)
            suspicious = hung or status not in (0, 2)
            if suspicious:
                # Bisect to single files: each must answer within 10 s with 0 or 2.
                for name in names:
                    path = os.path.join(directory, name)
                    s, l, h = validate(args.groupsim, [path], timeout=10)
                    text = open(path, encoding="utf-8", errors="surrogateescape").read()
                    if h:
                        counts["hangs"] += 1
                        keep(args.out, "hangs", name, text)
                    elif s not in (0, 2):
                        counts["crashes"] += 1
                        keep(args.out, "crashes", name, text)
                status, lines, hung = validate(args.groupsim, [directory], timeout=10 * 60)
            for line in unpositioned(lines, names):
                counts["unpositioned"] += 1
                match = re.search(r"in\d{6}\.yaml", line)
                source = match.group(0) if match else "unknown"
                keep(args.out, "unpositioned", f"{source}.txt", line + "\n")
            ok = [m.group(1) for m in (re.match(r"^(.+\.yaml): ok \(", l) for l in lines) if m]
            counts["valid"] += len(ok)
            counts["invalid"] += len(names) - len(ok)
            valid_paths += [p if os.path.isabs(p) else os.path.join(ROOT, p) for p in ok]
            print(f"fuzz: {min(args.inputs, start + batch)} of {args.inputs} inputs, {counts['valid']} valid", file=sys.stderr)
        if args.runs > 0 and valid_paths:
            step = max(1, len(valid_paths) // args.runs)
            for path in valid_paths[::step][: args.runs]:
                for mode in ([], ["--deterministic"]):
                    counts["runs"] += 1
                    reports = os.path.join(work, "reports")
                    text = open(path, encoding="utf-8", errors="surrogateescape").read()
                    try:
                        done = subprocess.run([args.groupsim, "run", path, "--report-dir", reports] + mode, capture_output=True,
                                              timeout=300, cwd=ROOT, env={**os.environ, "TMPDIR": work})
                        if done.returncode not in (0, 1, 2):
                            counts["run-crashes"] += 1
                            keep(args.out, "run-crashes", os.path.basename(path), text)
                        elif done.returncode == 2:
                            counts["run-harness-errors"] += 1
                            keep(args.out, "run-harness-errors", os.path.basename(path), text + "\n# " + done.stdout.decode(errors="replace").replace("\n", "\n# "))
                    except subprocess.TimeoutExpired:
                        counts["run-hangs"] += 1
                        keep(args.out, "run-hangs", os.path.basename(path), text)
        left = [d for d in os.listdir(work) if d.startswith("gs-")]
        if os.path.isdir(shm):
            left += [d for d in set(os.listdir(shm)) - before if d.startswith("gs-")]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"fuzz: {args.inputs} inputs (seed {args.seed}): {counts['valid']} valid, {counts['invalid']} refused; "
          f"{counts['crashes']} crashes, {counts['hangs']} hangs over 10 s, {counts['unpositioned']} errors without a position; "
          f"run sample: {counts['runs']} runs (both modes), {counts['run-crashes']} crashes, {counts['run-hangs']} hangs, "
          f"{counts['run-harness-errors']} harness errors; "
          f"{len(left)} sandboxes left")
    bad = (counts["crashes"] + counts["hangs"] + counts["unpositioned"] + counts["run-crashes"] + counts["run-hangs"]
           + counts["run-harness-errors"] + len(left))
    if bad:
        print(f"fuzz: kept in {args.out}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
