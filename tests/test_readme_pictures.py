"""The README's pictures (docs/pictures/<game>.svg) are what ``examples/readme_pictures.py`` draws today."""

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from wildwest_envs.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
PICTURES = ROOT / "docs" / "pictures"


def _script():
    spec = importlib.util.spec_from_file_location("readme_pictures", ROOT / "examples" / "readme_pictures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_game_has_a_drawing_and_a_committed_picture_shown_in_the_readme():
    script = _script()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for game_name in GAMES:
        assert script.drawing_module(game_name) is not None, f"{game_name} has no svg module"
        short = game_name.removesuffix("_v0")
        assert (PICTURES / f"{short}.svg").is_file(), f"docs/pictures/{short}.svg is missing"
        assert f"docs/pictures/{short}.svg" in readme, f"the README does not show {short}.svg"


@pytest.mark.parametrize("game_name", list(GAMES))
def test_the_committed_picture_is_what_the_script_draws_now(game_name, tmp_path):
    """Same seed, same agents, same drawing code: the same bytes (rerun the script after changing a drawing)."""
    script = _script()
    drawn = script.drawing_module(game_name).draw(script.halfway_state(game_name))
    committed = (PICTURES / f"{game_name.removesuffix('_v0')}.svg").read_text(encoding="utf-8")
    assert drawn == committed, "docs/pictures is stale: run python examples/readme_pictures.py"
    root = ET.fromstring(committed)
    assert root.tag.endswith("svg") and float(root.get("width")) > 0
