"""Policy checkpoints load as data, never as code (``agents.policy.load_policy``).

A MaskablePPO ``.zip`` written by SB3's ``model.save`` (what ``training.train``
writes) loads back with the same weights and actions; a tampered, truncated or
foreign file, or one whose pickles would run code, is refused with an
``UnsafeCheckpointError`` (a ``ValueError``) naming the problem, and the code in
it never runs.
"""

from __future__ import annotations

import base64
import json
import pickle
import zipfile
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
sb3_contrib = pytest.importorskip("sb3_contrib")

from wildwest_envs.agents.base import RandomAgent  # noqa: E402
from wildwest_envs.agents.policy import PolicyAgent, UnsafeCheckpointError, load_policy  # noqa: E402
from wildwest_envs.agents.registry import make_agent  # noqa: E402
from tests.conftest import GAME_NAMES  # noqa: E402
from wildwest_envs.registry import get_game  # noqa: E402

GAME_NAME = GAME_NAMES[0]
ROOT = Path(__file__).resolve().parent.parent


class Payload:
    """What a hostile pickle carries: unpickling it creates the file ``path`` (standing for any code)."""

    def __init__(self, path: str):
        self.path = path

    def __reduce__(self):
        return (Path.touch, (Path(self.path),))


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """``(path, model, observations, masks)``: a tiny MaskablePPO trained a few steps and saved with ``model.save``."""
    from sb3_contrib import MaskablePPO

    from wildwest_envs.training.opponents import OpponentPool
    from wildwest_envs.training.selfplay_env import SelfPlayVecEnv

    game = get_game(GAME_NAME)
    torch.set_num_threads(1)
    env = SelfPlayVecEnv(game, 4, OpponentPool([RandomAgent(0)]), seed=0, num_players=game.min_players)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=32, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs={"net_arch": {"pi": [24, 16], "vf": [8]}})
    model.learn(32)
    path = tmp_path_factory.mktemp("ckpt") / "model.zip"
    model.save(path)
    states = game.init_batch(12, seed=5, num_players=game.min_players)
    for _ in range(4):
        game.step(states, RandomAgent(1).act_batch(None, game.legal_mask(states)), check=False)
    return path, model, game.observe(states), game.legal_mask(states)


def _rezip(source: Path, target: Path, replace: dict[str, bytes] | None = None, drop: tuple = ()) -> Path:
    """A copy of the zip ``source`` with some members replaced or dropped (valid CRCs: a deliberate edit)."""
    replace = replace or {}
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(target, "w") as dst:
        for info in src.infolist():
            if info.filename not in drop:
                dst.writestr(info.filename, replace.get(info.filename, src.read(info.filename)))
    return target


def _data(path: Path) -> dict:
    with zipfile.ZipFile(path) as z:
        return json.loads(z.read("data"))


def _refused(path, *words: str) -> UnsafeCheckpointError:
    with pytest.raises(UnsafeCheckpointError) as error:
        PolicyAgent.load(path)
    for word in words:
        assert word.lower() in str(error.value).lower(), str(error.value)
    return error.value


# ---- round trip ----------------------------------------------------------------------------------
def test_round_trip_gives_the_same_weights_and_actions(checkpoint):
    """``model.save`` then ``PolicyAgent.load``: every tensor equal, the same greedy actions as the live model."""
    path, model, observations, masks = checkpoint
    agent = PolicyAgent.load(path)
    live = model.policy.state_dict()
    loaded = agent.policy.state_dict()
    assert live.keys() == loaded.keys()
    for key in live:
        assert torch.equal(live[key].cpu(), loaded[key]), key
    expected, _ = model.predict(observations, action_masks=masks.astype(bool), deterministic=True)
    np.testing.assert_array_equal(agent.act_batch(observations, masks), expected)
    assert agent.policy.observation_space.shape == (get_game(GAME_NAME).obs_size,)
    assert agent.policy.action_space.n == get_game(GAME_NAME).n_actions


def test_load_never_unpickles_the_zip(checkpoint, monkeypatch):
    """The safe loader reads the zip without ``pickle.loads`` / ``cloudpickle.loads`` (only weights_only torch.load)."""
    path, *_ = checkpoint
    import cloudpickle

    def forbidden(*args, **kwargs):
        raise AssertionError("a checkpoint was unpickled")

    monkeypatch.setattr(pickle, "loads", forbidden)
    monkeypatch.setattr(cloudpickle, "loads", forbidden)
    PolicyAgent.load(path)


def test_existing_training_checkpoints_still_load():
    """Checkpoints written by ``training.train`` under ``runs/`` (when this checkout has any) load safely."""
    found = sorted(ROOT.glob("runs/**/model*.zip"))[:3]
    if not found:
        pytest.skip("no training checkpoints under runs/ in this checkout")
    for path in found:
        policy = load_policy(path)
        assert policy.observation_space.shape[0] > 0


# ---- tampered files --------------------------------------------------------------------------------
def test_a_changed_byte_in_the_weights_is_refused(checkpoint, tmp_path):
    """One byte of ``policy.pth`` changed in place: the CRC does not match, the file is refused."""
    path, *_ = checkpoint
    blob = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("policy.pth")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)  # the member's data
    blob[start + info.compress_size // 2] ^= 0x40
    tampered = tmp_path / "tampered.zip"
    tampered.write_bytes(bytes(blob))
    _refused(tampered, "policy.pth", "corrupt")


def test_random_byte_changes_are_refused_or_harmless(checkpoint, tmp_path):
    """Bytes changed anywhere: refused with a clear error, or (a header field nobody reads) the same weights."""
    path, *_ = checkpoint
    original = path.read_bytes()
    reference = PolicyAgent.load(path).policy.state_dict()
    rng = np.random.default_rng(0)
    refused = 0
    for k in range(40):
        blob = bytearray(original)
        for offset in rng.integers(0, len(blob), size=3):
            blob[offset] = (blob[offset] + 1 + rng.integers(255)) % 256
        target = tmp_path / f"t{k}.zip"
        target.write_bytes(bytes(blob))
        try:
            state = load_policy(target).state_dict()
        except UnsafeCheckpointError as error:
            assert str(error).strip()
            refused += 1
            continue
        assert all(torch.equal(state[key], reference[key]) for key in reference)
    assert refused > 0


def test_truncated_and_non_zip_files_are_refused(checkpoint, tmp_path):
    """A cut-off download, an empty file, a text file: refused, naming the file."""
    path, *_ = checkpoint
    data = path.read_bytes()
    for name, content in [("cut.zip", data[: len(data) // 2]), ("empty.zip", b""), ("text.zip", b"hello")]:
        target = tmp_path / name
        target.write_bytes(content)
        _refused(target, name)


# ---- foreign files -----------------------------------------------------------------------------------------
def test_foreign_zips_are_refused(checkpoint, tmp_path):
    """A zip of other files, a non-maskable PPO policy, exotic policy kwargs, mismatched spaces: refused."""
    from stable_baselines3.common.policies import ActorCriticPolicy

    path, *_ = checkpoint
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("readme.txt", "not a model")
    _refused(other, "not a stable-baselines3 checkpoint")
    _refused(_rezip(path, tmp_path / "no_weights.zip", drop=("policy.pth",)), "policy.pth")

    data = _data(path)
    ppo = dict(data, policy_class={":type:": "<class 'abc.ABCMeta'>",
                                   ":serialized:": base64.b64encode(pickle.dumps(ActorCriticPolicy)).decode()})
    _refused(_rezip(path, tmp_path / "ppo.zip", {"data": json.dumps(ppo).encode()}), "ActorCriticPolicy", "foreign")

    relu = dict(data, policy_kwargs={":type:": "<class 'dict'>", ":serialized:": "gAR9lC4="})
    _refused(_rezip(path, tmp_path / "relu.zip", {"data": json.dumps(relu).encode()}), "policy_kwargs")

    wider = json.loads(json.dumps(data))
    wider["observation_space"]["_shape"] = [wider["observation_space"]["_shape"][0] + 1]
    _refused(_rezip(path, tmp_path / "wider.zip", {"data": json.dumps(wider).encode()}), "do not fit")

    with pytest.raises(ValueError):  # through the agent registry too
        make_agent(str(tmp_path / "ppo.zip"), GAME_NAME)


def test_weights_that_are_not_plain_finite_tensors_are_refused(checkpoint, tmp_path):
    """NaN weights and a ``policy.pth`` holding other objects are refused."""
    import io

    path, model, *_ = checkpoint
    state = {k: v.clone() for k, v in model.policy.state_dict().items()}
    next(iter(state.values()))[0] = float("nan")
    buffer = io.BytesIO()
    torch.save(state, buffer)
    _refused(_rezip(path, tmp_path / "nan.zip", {"policy.pth": buffer.getvalue()}), "nan")
    buffer = io.BytesIO()
    torch.save([1, 2, 3], buffer)
    _refused(_rezip(path, tmp_path / "list.zip", {"policy.pth": buffer.getvalue()}), "state dict")


# ---- pickle bombs -------------------------------------------------------------------------------------------
def test_a_pickle_bomb_in_the_weights_is_refused_and_never_runs(checkpoint, tmp_path):
    """``policy.pth`` whose unpickling would run code: refused by ``weights_only=True``; the code does not run."""
    import io

    path, *_ = checkpoint
    marker = tmp_path / "pwned_weights"
    buffer = io.BytesIO()
    torch.save({"mlp_extractor.policy_net.0.weight": Payload(str(marker))}, buffer)
    bomb = _rezip(path, tmp_path / "bomb.zip", {"policy.pth": buffer.getvalue()})
    _refused(bomb, "weights_only")
    assert not marker.exists()
    torch.load(io.BytesIO(buffer.getvalue()), weights_only=False)  # control: plain unpickling runs the payload
    assert marker.exists()


def test_a_pickle_bomb_in_the_settings_is_refused_and_never_runs(checkpoint, tmp_path):
    """A ``data`` entry whose pickle would run code (as ``MaskablePPO.load`` would unpickle it): refused, not run."""
    path, *_ = checkpoint
    marker = tmp_path / "pwned_data"
    payload = base64.b64encode(pickle.dumps(Payload(str(marker)))).decode()
    data = _data(path)
    for key in ("policy_class", "observation_space"):
        hostile = dict(data, **{key: dict(data[key], **{":serialized:": payload})})
        if key == "observation_space":  # keep the readable fields: only the pickle is hostile
            hostile[key]["_shape"] = data[key]["_shape"]
        bomb = _rezip(path, tmp_path / f"bomb_{key}.zip", {"data": json.dumps(hostile).encode()})
        if key == "policy_class":
            _refused(bomb, "policy class")
        else:
            PolicyAgent.load(bomb)  # the space's pickle is never read: the readable fields suffice
        assert not marker.exists()
    pickle.loads(base64.b64decode(payload))  # control: plain unpickling runs the payload
    assert marker.exists()
