#!/usr/bin/env python3
"""OpenSpiel's backgammon random games, single thread, for bench.py's
`backgammon` section: run it with a Python that imports pyspiel (pip
package open_spiel, e.g. in a virtual environment outside the repository:
`python3 -m venv ../venv-openspiel && ../venv-openspiel/bin/pip install
open_spiel`).

Three figures, each the median of `--runs` timed runs, printed as one JSON
object, each per wall-clock second and (`_cpu`) per second of this process's
CPU time (what a loaded machine moves less):

- `cpp_mcts_rollouts_per_s`: pyspiel.MCTSBot with
  pyspiel.RandomRolloutEvaluator(1) (both C++), `--sims` simulations from
  the position after the opening roll in one `step` call; each simulation
  is a walk down the tree, one expansion and one random rollout to the end
  of the game. As ../shared/domains/openspiel/cpp_rollouts.jsonl measured
  checkers and Morris (the reference of bench.py's `playouts` section).
- `python_mcts_rollouts_per_s`: the same with OpenSpiel's Python API
  (open_spiel.python.algorithms.mcts.MCTSBot and its
  RandomRolloutEvaluator, which play each rollout ply by ply in Python).
- `python_loop_games_per_s`: plain random games from the initial state:
  `legal_actions()`, `random.choice`, `apply_action` per ply, chance
  outcomes drawn by their probabilities (no tree: how much of the MCTS
  figure is the rollouts themselves).

Usage: PYTHON benches/openspiel_backgammon.py [--sims S] [--python-sims S]
[--games N] [--runs R] [--seed SEED]
"""
import argparse
import json
import random
import statistics
import time

import pyspiel
from open_spiel.python.algorithms import mcts

import numpy as np


def opening(game, rng):
    """The position after a random opening roll (MCTS steps at a decision)."""
    state = game.new_initial_state()
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
    return state


def cpp_mcts(game, sims, seed):
    rng = random.Random(seed)
    state = opening(game, rng)
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, False, seed, False)
    start, cpu = time.perf_counter(), time.process_time()
    bot.step(state)
    return sims / (time.perf_counter() - start), sims / (time.process_time() - cpu)


def python_mcts(game, sims, seed):
    rng = random.Random(seed)
    state = opening(game, rng)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = mcts.MCTSBot(game, 2.0, sims, evaluator, random_state=np.random.RandomState(seed))
    start, cpu = time.perf_counter(), time.process_time()
    bot.step(state)
    return sims / (time.perf_counter() - start), sims / (time.process_time() - cpu)


def python_loop(game, games, seed):
    rng = random.Random(seed)
    plies = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                plies += 1
        # plies counts the players' actions (a double is two of them).
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu), plies / games


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sims", type=int, default=500)
    p.add_argument("--python-sims", type=int, default=50)
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    game = pyspiel.load_game("backgammon")
    cpp = [cpp_mcts(game, a.sims, a.seed + r) for r in range(a.runs)]
    py = [python_mcts(game, a.python_sims, a.seed + r) for r in range(a.runs)]
    loops = [python_loop(game, a.games, a.seed + r) for r in range(a.runs)]
    out = {"open_spiel": _version(), "game": str(game)}
    for name, runs, per_run in (("cpp_mcts_rollouts", cpp, a.sims), ("python_mcts_rollouts", py, a.python_sims),
                                ("python_loop_games", loops, a.games)):
        out[name + "_per_s"] = statistics.median(r[0] for r in runs)
        out[name + "_per_cpu_s"] = statistics.median(r[1] for r in runs)
        out[name + "_runs"] = [round(r[0], 1) for r in runs]
        out[name + "_per_run"] = per_run
    out["python_loop_player_actions_per_game"] = statistics.mean(r[2] for r in loops)
    print(json.dumps(out))


def _version():
    try:
        from importlib.metadata import version
        return version("open_spiel")
    except Exception:  # noqa: BLE001 (the version is only printed)
        return None


main()
