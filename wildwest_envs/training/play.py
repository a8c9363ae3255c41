"""Play a registered game in the terminal against chosen agents.

    python -m wildwest_envs.training.play --game colt_express --players 3 --opponents heuristic random --seat 0 --seed 1

You (a ``HumanAgent``) sit in ``--seat``; the other seats, in turn order after
yours, are played by the ``--opponents`` specs (``random``, ``heuristic``,
``mcts[:N]``, ``pretrained``, ``mcts+pretrained[:N]``, a checkpoint ``.zip`` or
run directory; space- or comma-separated), repeated in order when
fewer are given than there are other seats. At each of your decisions the public
board and your legal actions are printed by name; type the number or the name,
``q`` to quit. Every opponent move is announced, and the final board and scores
are printed at the end. ``--save-game FILE`` writes the finished game as a game
record (``core.records``, with the events of every step where the game reports
them), which ``Game.replay`` replays and the AEC env's
``load_record`` resumes. While numba's cache of the game is cold, the terminal game
starts at once on the rules as plain Python (``core.quickstart``; the agents other
than ``random`` still compile their own kernels).

``--web`` plays in the browser instead (``viewer.web_play``): a page on
http://127.0.0.1:PORT/ (``--port``, 0 = any free port; the URL is printed) shows
the board from your seat, your legal moves as buttons, what you may see of the
moves since your last one and the scores; the agents answer on their turns, and
the finished game is saved as a record (``--save-game``, default
``<game>_seed<seed>_<time>.json`` here) that the page offers for download.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

import numpy as np

from wildwest_envs.agents.human import HumanAgent
from wildwest_envs.agents.registry import SPECS, agents_for_command
from wildwest_envs.core import quickstart
from wildwest_envs.core.records import make_record
from wildwest_envs.core.rng import game_seeds
from wildwest_envs.registry import GAMES, canonical_name, get_game


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command-line options."""
    epilog = f"games: {', '.join(g.removesuffix('_v0') for g in GAMES)}\nagent specs: {', '.join(SPECS)}"
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=epilog,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="colt_express", help="registered game to play")
    parser.add_argument("--players", type=int, default=3, help="number of players")
    parser.add_argument("--opponents", nargs="+", default=["random"],
                        help="agent specs for the other seats (cycled if fewer than the other seats)")
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0 = player_0")
    parser.add_argument("--seed", type=int, default=1, help="seeds the deal and the opponents")
    parser.add_argument("--sample", action="store_true", help="checkpoint opponents sample instead of playing greedily")
    parser.add_argument("--save-game", default="", help="write the finished game to this file as a game record")
    parser.add_argument("--web", action="store_true", help="play in the browser: serve a page on 127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="with --web: the port (0 = any free port)")
    args = parser.parse_args(argv)
    args.opponents = [spec for item in args.opponents for spec in item.split(",") if spec]
    try:
        canonical_name(args.game)
    except ValueError as error:
        parser.error(str(error))
    if not 0 <= args.seat < args.players:
        parser.error(f"--seat must be from 0 to {args.players - 1}")
    if not args.opponents or len(args.opponents) > args.players - 1:
        parser.error(f"{len(args.opponents)} opponents given for {args.players - 1} other seats")
    if not 0 <= args.port <= 65535:
        parser.error("--port must be from 0 to 65535")
    return args


def main(argv: list[str] | None = None, input_stream: TextIO | None = None,
         output_stream: TextIO | None = None) -> np.ndarray | None:
    """Play one game; returns the final scores by seat, or ``None`` when the person quits."""
    args = parse_args(argv)
    out = output_stream or sys.stdout
    game_name = canonical_name(args.game)
    if args.web:
        return _web(args, game_name, out)
    game = quickstart.game_to_play(get_game(game_name))  # while numba's cache is cold: plain Python (quick start)
    seats: list = [None] * args.players
    seats[args.seat] = HumanAgent(game, input_stream, output_stream)
    others = [(args.seat + k) % args.players for k in range(1, args.players)]
    specs = [args.opponents[i % len(args.opponents)] for i in range(len(others))]
    for seat, agent in zip(others, agents_for_command(specs, game_name, args.players, args.seed + 1,
                                                      not args.sample, "wildwest-play")):
        seats[seat] = agent
    print(f"{game_name}, {args.players} players, seed {args.seed}: you are player_{args.seat}; "
          + ", ".join(f"player_{s} = {seats[s].name}" for s in others), file=out)

    with np.errstate(over="ignore"):  # a plain twin's generators wrap around in uint64 on purpose, as compiled
        return _play(game, seats, args, out)


def _play(game, seats: list, args: argparse.Namespace, out: TextIO) -> np.ndarray | None:
    """The game loop of ``main``: the final scores by seat, or ``None`` when the person quits."""
    states = game.init_batch(1, seed=args.seed, num_players=args.players)
    moves: list[tuple[int, int]] = []
    try:
        while not game.finished(states)[0]:
            seat = int(states["current"][0])
            mask = game.legal_mask(states)
            action = int(seats[seat].act_batch(game.observe(states, [seat]), mask, states.copy(), np.array([seat]))[0])
            if seat != args.seat:
                print(f"player_{seat} ({seats[seat].name}): {game.action_to_string(states[0], action)}", file=out)
            game.step(states, [action])
            moves.append((seat, action))
    except (KeyboardInterrupt, EOFError) as stop:
        print(f"\ngame abandoned ({stop})", file=out)
        return None
    scores = game.scores(states)[0, :args.players]
    print(game.render_ansi(states[0]), file=out)
    if game.truncated(states)[0]:
        print("the game reached its turn cap: no result", file=out)
    winners = np.flatnonzero(game.winners(states)[0, :args.players])
    print("final scores: " + " | ".join(f"player_{s}{' (you)' if s == args.seat else ''} {scores[s]}"
                                        for s in range(args.players)), file=out)
    print("winner(s): " + ", ".join(f"player_{s}" for s in winners)
          + ("  - you win!" if args.seat in winners else ""), file=out)
    if args.save_game:
        players = ["you" if s == args.seat else seats[s].name for s in range(args.players)]
        path = make_record(game, int(game_seeds(args.seed, 1)[0]), {"num_players": args.players}, moves, players,
                           states[0], events=game.event_kinds is not None).save(args.save_game)
        print(f"game record written to {path}", file=out)
    return scores


def _web(args: argparse.Namespace, game_name: str, out: TextIO) -> np.ndarray | None:
    """``--web``: serve the game on 127.0.0.1 until Ctrl-C; the final scores, or ``None`` if unfinished."""
    from wildwest_envs.viewer.web_play import PlayServer, PlaySession, run, seat_agents

    agents = seat_agents(args.opponents, game_name, args.players, args.seat, args.seed, not args.sample,
                         prog="wildwest-play")
    session = PlaySession(game_name, agents, args.seat, args.seed, args.save_game or None)
    try:
        server = PlayServer(session, args.port)
    except OSError as error:
        print(f"wildwest-play: error: cannot listen on 127.0.0.1:{args.port}: {error}", file=sys.stderr)
        raise SystemExit(2) from None
    run(server, out)
    with session.lock:
        if not session.finished:
            return None
        return session.game.scores(session.states)[0, :session.n_players]


def cli() -> None:
    """The ``wildwest-play`` console script (``main`` without its return value)."""
    main()


if __name__ == "__main__":
    main()
