"""Per-game training presets: valid fields, registered games, and the order of precedence."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("sb3_contrib")

from training import presets  # noqa: E402
from training.train import Args, parse_args  # noqa: E402
from wildwest_envs.registry import GAMES  # noqa: E402


@pytest.mark.parametrize("game_name", sorted(presets.PRESETS))
def test_every_preset_names_a_registered_game_and_real_fields(game_name):
    """A typo in a preset would otherwise be silently ignored or crash at training time."""
    fields = {f.name: f for f in dataclasses.fields(Args)}
    assert game_name in GAMES
    for key, value in presets.PRESETS[game_name].items():
        assert key in fields and key != "game", key
        assert isinstance(value, type(fields[key].default)), (key, value)


def test_command_line_beats_preset_beats_args_default(monkeypatch):
    """Args defaults < PRESETS[game] < flags on the command line."""
    monkeypatch.setitem(presets.PRESETS, "colt_express_v0", {"total_timesteps": 1234, "num_envs": 7})
    args = parse_args(["--game", "colt_express", "--num-envs", "9"])
    assert (args.total_timesteps, args.num_envs, args.n_steps) == (1234, 9, Args.n_steps)


def test_colt_express_uses_the_args_defaults():
    """The README's main command trains with exactly the documented defaults."""
    assert parse_args([]) == Args()
