"""The project installs (not editable) into a fresh virtual environment and its commands run from anywhere.

The fresh environment sees this environment's dependencies (numpy, numba, torch, stable-baselines3...)
through a ``.pth`` line, so nothing is downloaded but the build backend; the project itself is built
into a wheel and installed there, so the test runs the installed copy, never this checkout. The
commands run with ``NUMBA_DISABLE_JIT=1``: they test the installation and its wiring, and compiling
the installed copy's kernels afresh would cost a minute per game.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ("wildwest-train", "wildwest-evaluate", "wildwest-play")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")  # once per process (a module fixture may be set up twice on an xdist worker)
def installed(tmp_path_factory):
    """A fresh venv holding a non-editable install of the project; returns (python, bin folder, a work dir).

    The project is built from a copy of its tracked and untracked sources (not from the checkout itself, whose
    ``build/`` folder would keep what an earlier build left there)."""
    pytest.importorskip("sb3_contrib")
    base = tmp_path_factory.mktemp("install")
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "venv", "build", "dist", "runs",
                                                                 "__pycache__", "*.egg-info", ".pytest_cache",
                                                                 ".hypothesis"))
    env_dir = base / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # this environment's packages, after the fresh one's own (the project must come from the fresh one)
    Path(site, "parent_env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    build = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(source)],
                           capture_output=True, text=True, timeout=600, cwd=base)
    assert build.returncode == 0, build.stderr[-2000:]
    work = base / "elsewhere"
    work.mkdir()
    return python, env_dir / "bin", work


def _run(args, cwd, timeout=300):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["NUMBA_DISABLE_JIT"] = "1"
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


def test_the_installed_package_is_not_this_checkout_and_ships_the_networks(installed):
    python, _, work = installed
    code = ("import sys, wildwest_envs; torch_loaded = 'torch' in sys.modules; "
            "import wildwest_envs.agents.pretrained as p; "
            "print(wildwest_envs.__file__); print(len(p.shipped_files())); print(torch_loaded)")
    result = _run([str(python), "-c", code], work)
    assert result.returncode == 0, result.stderr
    location, n_files, torch_loaded = result.stdout.split()
    assert not Path(location).is_relative_to(ROOT)
    assert int(n_files) >= 4 and torch_loaded == "False"


@pytest.mark.parametrize("script", SCRIPTS)
def test_each_command_answers_help_from_another_directory(installed, script):
    _, bin_dir, work = installed
    result = _run([str(bin_dir / script), "--help"], work, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "usage:" in result.stdout and "colt_express" in result.stdout


def test_a_tiny_evaluation_with_the_shipped_network_runs_from_another_directory(installed):
    _, bin_dir, work = installed
    result = _run([str(bin_dir / "wildwest-evaluate"), "--game", "colt_express", "--agents", "pretrained", "random",
                   "heuristic", "--games", "6", "--batch", "6"], work)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "| pretrained |" in result.stdout
    assert (work / "runs" / "tournaments" / "colt_express_3p.md").is_file()


def test_the_sb3_predict_step_loop_runs_unchanged(installed):
    """The loop a new user writes with sb3-contrib: ``model.predict`` hands back a 0-d array."""
    python, _, work = installed
    code = """
import numpy as np
from sb3_contrib import MaskablePPO
from wildwest_envs import colt_express_v0
from wildwest_envs.core.selfplay import SingleAgentEnv
from wildwest_envs.agents.base import RandomAgent
model = MaskablePPO("MlpPolicy", SingleAgentEnv("colt_express", [RandomAgent(0), RandomAgent(1)], seed=0), seed=0)
env = colt_express_v0.env(num_players=3)
env.reset(seed=1)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        env.step(None)
        continue
    mask = obs["action_mask"]
    action, _ = model.predict(obs["observation"], action_masks=mask)
    env.step(action)
print("ok", sorted(info))
"""
    result = _run([str(python), "-c", code], work)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.startswith("ok")


def test_the_library_import_stays_free_of_torch():
    result = subprocess.run([sys.executable, "-c", "import sys, wildwest_envs, wildwest_envs.core.aec; "
                             "print('torch' in sys.modules)"], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "False", result.stderr
