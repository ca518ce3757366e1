#!/usr/bin/env python3
"""Every headline figure of docs/PERFORMANCE.md next to its reference, in one
run, as a user measures them: the release binary's own commands, and the
references measured here in the same run where they can run here (LLVM,
rh_bfs.py, OpenSpiel's backgammon through a Python that imports pyspiel) or
read from ../shared where they cannot (OpenSpiel's C++ rollouts of checkers
and Morris, GGP-Base's prover).

Usage (from the repository root, after `cargo build --release`):

    python3 benches/bench.py [--quick] [--only SECTION,...] [--baseline BIN [--counts]]
        [--openspiel-python PYTHON]

Sections: batch, playouts, search, gdl, compile, rushhour, evolve, sandbox,
backgammon. Prints one Markdown table per section (figure, ours, reference,
ratio, target) and the command behind each figure; `--quick` shortens every
measurement (for a smoke run, not for figures). The search figures have no
outside reference: with `--baseline BIN` (an older build of stratagem) the
same games are timed with it, in the same run; `--counts` also counts their
instructions and mispredicted branches under valgrind, a comparison the
machine's load does not move. The backgammon section measures OpenSpiel with
`--openspiel-python PYTHON` (or $OPENSPIEL_PYTHON, or
../venv-openspiel/bin/python), a Python that imports pyspiel, and says so and
skips the ratios when none does. Note the machine and its load with the
figures: the machine's speed varies run to run.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Paths are relative to the repository root (the script works from there),
# so the commands it prints read as a user types them.
SHARED = os.path.join("..", "shared")
BIN = os.path.join("target", "release", "stratagem")


def run(args, **kw):
    """Runs a command from the repository root; its stdout, or exits with its error."""
    p = subprocess.run(args, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.exit("bench: `%s` failed:\n%s" % (" ".join(args), p.stderr))
    return p.stdout


def table(title, rows, commands, lower_is_better=False):
    """A Markdown table; the ratio is ours over the reference, or the
    reference over ours for costs (`lower_is_better`): above 1 is better."""
    print("\n## %s\n" % title)
    print("| figure | ours | reference | ratio | target |")
    print("| --- | --- | --- | --- | --- |")
    for figure, ours, ref, target in rows:
        ratio = ""
        if ref and ours:
            ratio = "%.2f×" % (ref / ours if lower_is_better else ours / ref)
        print("| %s | %s | %s | %s | %s |" % (figure, fmt(ours), fmt(ref) if ref else "—", ratio, target))
    print("\n```sh\n%s\n```" % "\n".join(commands))
    sys.stdout.flush()


def fmt(x):
    if x >= 1e6:
        return "%.3g M" % (x / 1e6)
    if x >= 1e4:
        return "%.3g K" % (x / 1e3)
    if x >= 100:
        return "%.0f" % x
    return "%.3g" % x


def batch(quick):
    repeat = "3" if quick else "9"
    trees = os.path.join(SHARED, "gpbench", "trees.sexp")
    rows_csv = os.path.join(SHARED, "gpbench", "rows.csv")
    llvm_cmd = ["python3", "benches/llvm_batch.py", "--repeat", repeat]
    jit_cmd = [BIN, "batch", "--engine", "jit", "--repeat", repeat, "--trees", trees, "--rows", rows_csv]
    llvm = {tuple(l.split()[:3]): float(l.split()[5]) for l in run(llvm_cmd).splitlines()}
    jit = {}
    for line in run(jit_cmd).splitlines():
        f = line.split()
        if len(f) == 7:
            jit[tuple(f[:3])] = float(f[6])
    groups = collections.defaultdict(list)
    for key, rate in jit.items():
        groups[(key[0], int(key[1]))].append((rate, llvm[key]))
    rows = []
    for (s, size), rates in sorted(groups.items()):
        # Node evaluations over the time of every tree's fastest pass.
        ours = len(rates) / sum(1 / a for a, _ in rates)
        ref = len(rates) / sum(1 / b for _, b in rates)
        target = "≥ 1.0×" if size >= 127 else ""
        rows.append(("%s %d: node evals/s, JIT vs LLVM" % (s, size), ours, ref, target))
    table("Program evaluation: `stratagem batch` next to LLVM", rows,
          [" ".join(llvm_cmd), " ".join(jit_cmd[:1] + ["batch"] + jit_cmd[2:])])


def openspiel_rollouts():
    rates = {}
    with open(os.path.join(SHARED, "domains", "openspiel", "cpp_rollouts.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            rates[r["game"]] = r["cpp_mcts_random_rollout_sims_per_s_median"]
    return rates


def playouts(quick):
    ref = openspiel_rollouts()
    games = "20000" if quick else "200000"
    rows, commands = [], []
    for game, ref_game, target in [("lose-checkers", "checkers", ""), ("morris", "nine_mens_morris", "≥ 10×")]:
        cmd = [BIN, "play", "--game", game, "--a", "random", "--b", "random", "--games", games, "--seed", "1",
               "--format", "json"]
        ours = json.loads(run(cmd))["games_per_s"]
        rows.append(("%s random games/s vs OpenSpiel C++ rollouts (%s)" % (game, ref_game), ours, ref[ref_game],
                     target))
        commands.append(" ".join(["stratagem"] + cmd[1:]))
    table("Random playouts: `stratagem play` next to OpenSpiel", rows, commands)


# The searching players of the two board games, as evolution and `play` use
# them: material α-β (the papers' benchmark player) and evolved programs at
# the leaves of α-β (what every fitness evaluation runs).
SEARCHES = [
    ("morris", "random playouts", ["--a", "random", "--b", "random"], 200000),
    ("lose-checkers", "random playouts", ["--a", "random", "--b", "random"], 300000),
    ("morris", "material α-β 5 vs 4", ["--a", "alphabeta:5:material", "--b", "alphabeta:4:material"], 20),
    ("lose-checkers", "material α-β 8 vs 7", ["--a", "alphabeta:8:material", "--b", "alphabeta:7:material"], 40),
    ("morris", "GP α-β 3 (morris-weights champion) both sides",
     ["--a", "gp:programs/champions/morris-weights.sg:morris-weights-champion:alphabeta:3",
      "--b", "gp:programs/champions/morris-weights.sg:morris-weights-champion:alphabeta:3"], 300),
    ("lose-checkers", "GP α-β 4 (figure 1-2 tree) vs random",
     ["--a", "gp:programs/champions/lose-checkers-figure-1-2.sg:figure-1-2:alphabeta:4", "--b", "random"], 4000),
]


def games_per_s(binaries, cmd, rounds):
    """The best of `rounds` runs' games/s of `play` (one thread: the figure
    per core) for each of `binaries`, their runs interleaved so that the
    machine's drift from minute to minute touches them alike."""
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    best = [0.0] * len(binaries)
    for _ in range(rounds):
        for i, binary in enumerate(binaries):
            out = run([binary] + cmd, env=env)
            best[i] = max(best[i], json.loads(out)["games_per_s"])
    return best


def counted_cost(binary, cmd):
    """Instructions and mispredicted branches of one run under valgrind's
    cachegrind (deterministic, unlike the wall clock of a shared machine),
    and the cost instructions + 15 × mispredictions."""
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    p = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes",
                        "--cachegrind-out-file=/dev/null", binary] + cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("bench: valgrind failed on %s:\n%s" % (" ".join(cmd), p.stderr[-2000:]))
    ir = int(re.search(r"I\s+refs:\s+([\d,]+)", p.stderr).group(1).replace(",", ""))
    mispredicted = int(re.search(r"Mispredicts:\s+([\d,]+)", p.stderr).group(1).replace(",", ""))
    return ir, mispredicted, ir + 15 * mispredicted


def openspiel_python(given):
    """A Python that imports pyspiel: `--openspiel-python`, else
    $OPENSPIEL_PYTHON, else this one, else ../venv-openspiel/bin/python; the
    reason if none does."""
    if given or os.environ.get("OPENSPIEL_PYTHON"):
        candidates = [given or os.environ["OPENSPIEL_PYTHON"]]
    else:
        candidates = [sys.executable, os.path.join("..", "venv-openspiel", "bin", "python")]
    for python in candidates:
        if shutil.which(python) or os.path.exists(python):
            p = subprocess.run([python, "-c", "import pyspiel"], capture_output=True, text=True)
            if p.returncode == 0:
                return python, None
    return None, "pyspiel is not importable from %s (pip install open_spiel in a venv; then --openspiel-python " \
        "PYTHON or OPENSPIEL_PYTHON=PYTHON)" % " or ".join(candidates)


def backgammon(quick):
    """Random backgammon games, on 1 and 2 threads, next to OpenSpiel's
    backgammon random rollouts measured in the same run (one thread): per
    wall-clock second, the best of the rounds, and on one thread also per
    CPU second (the figure a loaded machine moves least)."""
    import resource
    games = "2000" if quick else "10000"
    rounds = 1 if quick else 3
    cmd = [BIN, "play", "--game", "backgammon", "--a", "random", "--b", "random", "--games", games, "--seed", "1",
           "--format", "json"]
    ours, ours_cpu = {}, 0.0
    for threads in (1, 2):
        env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
        ours[threads] = 0.0
        for _ in range(rounds):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            ours[threads] = max(ours[threads], json.loads(run(cmd, env=env))["games_per_s"])
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if threads == 1:
                cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
                ours_cpu = max(ours_cpu, int(games) / cpu)
    commands = ["RAYON_NUM_THREADS=%d stratagem %s" % (t, " ".join(cmd[1:])) for t in (1, 2)]
    python, why = openspiel_python(OPENSPIEL_PYTHON)
    ref = {}
    if python:
        ref_cmd = [python, "benches/openspiel_backgammon.py", "--runs", str(rounds)]
        if quick:
            ref_cmd += ["--sims", "200", "--python-sims", "10", "--games", "50"]
        ref = json.loads(run(ref_cmd))
        commands.append(" ".join(ref_cmd))
    else:
        print("\nnote: %s; OpenSpiel's figures and the ratios are skipped" % why)
    cpp, cpp_cpu, py, loop = (ref.get(k, 0) for k in (
        "cpp_mcts_rollouts_per_s", "cpp_mcts_rollouts_per_cpu_s", "python_mcts_rollouts_per_s",
        "python_loop_games_per_s"))
    rows = []
    for threads in (1, 2):
        rows.append(("backgammon random games/s, %d thread%s, vs OpenSpiel C++ MCTSBot random rollouts/s (1 thread)"
                     % (threads, "s" if threads > 1 else ""), ours[threads], cpp, "≥ 30×"))
    rows.append(("the same per CPU second, 1 thread, vs OpenSpiel C++ MCTSBot per CPU second", ours_cpu, cpp_cpu,
                 "≥ 30×"))
    rows.append(("backgammon random games/s, 1 thread, vs OpenSpiel Python API MCTSBot random rollouts/s", ours[1],
                 py, ""))
    rows.append(("backgammon random games/s, 1 thread, vs pyspiel apply_action loop games/s", ours[1], loop, ""))
    table("Backgammon: random games next to OpenSpiel's", rows, commands)
    if ref:
        print("\nOpenSpiel %s, %s: %.0f player actions a game (a double is two)" % (
            ref["open_spiel"], ref["game"], ref["python_loop_player_actions_per_game"]))


def search_counts(baseline):
    """The search figures as valgrind counts them, a tenth of the games,
    ours next to the baseline's: the comparison without the machine's noise."""
    rows, commands = [], []
    for game, what, players, games in SEARCHES:
        cmd = ["play", "--game", game] + players + ["--games", str(max(4, games // 10)), "--seed", "1"]
        ours = counted_cost(BIN, cmd)
        ref = counted_cost(baseline, cmd)
        rows.append(("%s %s: instructions + 15 × mispredictions, one thread vs the baseline" % (game, what),
                     ours[2], ref[2], "≥ 1.5×"))
        commands.append("RAYON_NUM_THREADS=1 valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes "
                        "stratagem " + " ".join(cmd))
    table("Search, counted by valgrind next to %s" % baseline, rows, commands, lower_is_better=True)


def search(quick, baseline=None):
    rows, commands = [], []
    rounds = 1 if quick else 3
    for game, what, players, games in SEARCHES:
        if quick:
            games = max(2, games // 10)
        cmd = ["play", "--game", game] + players + ["--games", str(games), "--seed", "1", "--format", "json"]
        ours, ref = games_per_s([BIN, baseline], cmd, rounds) if baseline else (games_per_s([BIN], cmd, rounds)[0], 0)
        rows.append(("%s %s: games/s, one thread%s" % (game, what, " vs the baseline" if baseline else ""), ours, ref,
                     "≥ 1.5×" if baseline else ""))
        commands.append("RAYON_NUM_THREADS=1 stratagem " + " ".join(cmd))
    table("Search: random playouts and α-β players on the board games" + (" next to %s" % baseline if baseline else ""), rows,
          commands)


def evolve(quick):
    out = os.path.join("target", "bench-morris-20co")
    shutil.rmtree(out, ignore_errors=True)
    cmd = [BIN, "evolve", "programs/experiments/morris-20co.sg", "--threads", "2", "--out", out]
    if quick:
        cmd += ["--stop-after", "2"]
    start = time.perf_counter()
    run(cmd)
    secs = time.perf_counter() - start
    figure = "morris-20co: wall seconds on 2 threads" + (" (2 generations)" if quick else "")
    table("Evolution: the Morris 20Co run", [(figure, secs, 0, "" if quick else "≤ 600 s")],
          [" ".join(["stratagem"] + cmd[1:])])


PLAYOUTS = re.compile(r"([0-9.]+) playouts/s, ([0-9.]+) expansions/s")


def gdl_playouts(game, seconds, *engine):
    cmd = [BIN, "gdl", "playouts", os.path.join(SHARED, "gdl", "games", game + ".kif"), "--seconds", seconds]
    out = run(cmd + list(engine))
    m = PLAYOUTS.search(out.splitlines()[-1])
    if not m:
        sys.exit("bench: unexpected output of gdl playouts: %s" % out)
    return float(m.group(1)), float(m.group(2)), " ".join(["stratagem"] + cmd[1:] + list(engine))


def gdl(quick):
    seconds = "1" if quick else "5"
    targets = {"connectFour": "≥ 300 K", "breakthrough": "≥ 17 K", "othello-comp2007": "≥ 6.6 K"}
    rows, commands = [], []
    for game, target in targets.items():
        with open(os.path.join(SHARED, "gdl", "speed", game + ".json")) as f:
            ggp = json.load(f)
        batch_rate, batch_exp, c1 = gdl_playouts(game, seconds, "--engine", "compiled")
        one_rate, one_exp, c2 = gdl_playouts(game, seconds, "--engine", "compiled", "--one-at-a-time")
        _, prover_exp, c3 = gdl_playouts(game, seconds, "--engine", "prover")
        rows.append(("%s: compiled playouts/s (64 at a time) vs GGP-Base" % game, batch_rate,
                     ggp["playouts_per_s"], target))
        rows.append(("%s: compiled expansions/s, one at a time, vs our prover" % game, one_exp, prover_exp,
                     "≥ 100×"))
        rows.append(("%s: compiled expansions/s, 64 at a time, vs our prover" % game, batch_exp, prover_exp,
                     "≥ 100×"))
        commands += [c1, c2, c3]
    table("GDL: the compiled engine next to the prover and GGP-Base", rows, commands)


PHASES = re.compile(r"grounding ([0-9.]+) s, optimisation ([0-9.]+) s, compilation ([0-9.]+) s")


def compile_times(quick):
    rows, commands = [], []
    names = sorted(f[:-5] for f in os.listdir(os.path.join(SHARED, "gdl", "perft")) if f.endswith(".json"))
    games_dir = os.path.join(SHARED, "gdl", "games")
    names = [n for n in names if os.path.exists(os.path.join(games_dir, n + ".kif"))]
    if quick:
        names = [n for n in names if n in ("amazons", "chess_200", "checkers")]
    for name in names:
        cmd = [BIN, "gdl", "check", os.path.join(games_dir, name + ".kif"), "--engine", "compiled"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        m = PHASES.search(p.stdout + p.stderr)
        if m:
            total = sum(float(x) for x in m.groups())
            rows.append(("%s: grounding + optimisation + compilation, s" % name, total, 0, "≤ 2 s"))
        else:
            print("note: %s is not compiled: %s" % (name, (p.stdout + p.stderr).strip().splitlines()[-1:]))
    commands.append("stratagem gdl check ../shared/gdl/games/GAME.kif --engine compiled   # each game with perft")
    table("GDL: compiling each game with reference perft", rows, commands)


def rushhour(quick):
    step = 400 if quick else 40
    boards_path = os.path.join("target", "bench-rush-hour.txt")
    with open(os.path.join(SHARED, "domains", "rushhour", "rush_12k.txt")) as f:
        lines = [l for i, l in enumerate(f) if i % step == 0]
    with open(boards_path, "w") as f:
        f.writelines(lines)
    cmd = [BIN, "solve", "rush-hour", "--puzzles", boards_path, "--threads", "1", "--format", "json"]
    start = time.perf_counter()
    out = run(cmd)
    ours_secs = time.perf_counter() - start
    nodes = sum(json.loads(l)["nodes"] for l in out.splitlines() if l.startswith("{") and '"nodes"' in l)
    sys.path.insert(0, os.path.join(SHARED, "domains", "rushhour"))
    import rh_bfs  # noqa: E402
    start = time.perf_counter()
    ref_nodes = 0
    for line in lines:
        ref_nodes += rh_bfs.solve(line.split()[1])[1]
    ref_secs = time.perf_counter() - start
    rows = [("BFS puzzles/s, %d puzzles of rush_12k.txt (one thread) vs rh_bfs.py" % len(lines),
             len(lines) / ours_secs, len(lines) / ref_secs, ""),
            ("BFS nodes expanded (must be equal)", nodes, ref_nodes, "1.00×")]
    table("Rush Hour: BFS next to rh_bfs.py", rows,
          ["awk 'NR%%%d==1' ../shared/domains/rushhour/rush_12k.txt > boards.txt" % step,
           "stratagem solve rush-hour --puzzles boards.txt --threads 1 --format json",
           "python3 -c 'import rh_bfs; ...'   # rh_bfs.solve(board) over the same boards"])


def sandbox(quick):
    """Sandboxed C players (a child process each, the default) next to the
    same player loaded into the process (`--trust-c-players`), 2 threads."""
    games = "2000" if quick else "100000"
    base = [BIN, "tournament", "--game", "antwars", "--players", "c:tests/data/antwars/greedy.c,greedy",
            "--games", games, "--threads", "2", "--format", "json"]
    rate = {}
    for mode, extra in (("sandboxed", []), ("trusted", ["--trust-c-players"])):
        best = 0.0
        for _ in range(1 if quick else 3):
            start = time.perf_counter()
            run(base + extra)
            best = max(best, int(games) / (time.perf_counter() - start))
        rate[mode] = best
    rows = [("Ant Wars greedy.c vs greedy: double-games/s on 2 threads, sandboxed vs trusted",
             rate["sandboxed"], rate["trusted"], "≥ 0.25×")]
    table("Foreign programs: sandboxed C players", rows,
          [" ".join(base[1:]).replace("tournament", "stratagem tournament", 1),
           " ".join(base[1:] + ["--trust-c-players"]).replace("tournament", "stratagem tournament", 1)])


SECTIONS = {"batch": batch, "playouts": playouts, "search": search, "gdl": gdl, "compile": compile_times,
            "rushhour": rushhour, "evolve": evolve, "sandbox": sandbox, "backgammon": backgammon}
# A Python that imports pyspiel (`--openspiel-python`), for `backgammon`.
OPENSPIEL_PYTHON = None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--only", default=",".join(SECTIONS))
    p.add_argument("--baseline", metavar="BIN",
                   help="another stratagem binary (an older build) whose search figures are measured beside ours")
    p.add_argument("--counts", action="store_true",
                   help="with --baseline, also count the search figures' instructions and mispredicted branches "
                        "under valgrind (deterministic; needs valgrind)")
    p.add_argument("--openspiel-python", metavar="PYTHON",
                   help="a Python that imports pyspiel, for the backgammon section (default: $OPENSPIEL_PYTHON, "
                        "this Python, or ../venv-openspiel/bin/python)")
    a = p.parse_args()
    global OPENSPIEL_PYTHON
    OPENSPIEL_PYTHON = a.openspiel_python
    os.chdir(ROOT)
    if not os.path.exists(BIN):
        sys.exit("bench: build first: cargo build --release")
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print("# Stratagem benchmarks, %s, %d cores, load average %s" % (
        time.strftime("%Y-%m-%d %H:%M"), os.cpu_count() or 0, " ".join(load)))
    for name in a.only.split(","):
        if name not in SECTIONS:
            sys.exit("bench: unknown section `%s` (sections: %s)" % (name, ", ".join(SECTIONS)))
        if name == "search":
            search(a.quick, a.baseline and os.path.abspath(a.baseline))
            if a.counts and a.baseline:
                search_counts(os.path.abspath(a.baseline))
        else:
            SECTIONS[name](a.quick)


main()
