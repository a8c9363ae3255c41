"""``benchmarks/trajectory_digest.py``: the digest of seeded random games is reproducible and detects a change of
behaviour (a different seed stands for a changed kernel: any byte of any record differing changes it)."""

from __future__ import annotations

import json

from benchmarks import trajectory_digest as td
from wildwest_envs.registry import get_game


def test_digest_is_reproducible_and_differs_with_the_games():
    game = get_game("colt_express_v0")
    first = td.variant_digest(game, {"num_players": 3}, 0, 6)
    assert td.variant_digest(game, {"num_players": 3}, 0, 6) == first
    assert td.variant_digest(game, {"num_players": 3}, 0, 6, seed=1) != first
    assert td.variant_digest(game, {"num_players": 4}, 0, 6) != first


def test_compare_passes_on_the_same_build_and_names_what_differs(tmp_path, capsys):
    before = tmp_path / "before.json"
    assert td.main(["--game", "colt_express", "--games", "2", "--output", str(before)]) == 0
    assert td.main(["--game", "colt_express", "--games", "2", "--compare", str(before)]) == 0
    digests = json.loads(before.read_text())
    variant = next(iter(digests["colt_express_v0"]))
    digests["colt_express_v0"][variant] = "0" * 64  # as if the kernels had changed this variant's games
    before.write_text(json.dumps(digests))
    capsys.readouterr()
    assert td.main(["--game", "colt_express", "--games", "2", "--compare", str(before)]) == 1
    assert f"differs: colt_express_v0: {variant}" in capsys.readouterr().out


def test_excluded_fields_leave_the_record_bytes_and_nothing_else_does():
    """``exclude_fields`` (a layout change): records that differ only in an excluded field hash alike; a
    difference anywhere else still shows."""
    states = get_game("colt_express_v0").init_batch(3, 0)
    other = states.copy()
    other["rng"] += 1
    assert td.record_bytes(states, ("rng",)) == td.record_bytes(other, ("rng",))
    assert td.record_bytes(states, ()) != td.record_bytes(other, ())
    other["current"] += 1
    assert td.record_bytes(states, ("rng",)) != td.record_bytes(other, ("rng",))
