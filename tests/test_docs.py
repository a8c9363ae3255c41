"""The documentation site (``mkdocs.yml``, ``docs/``): the strict build, a page per game with its generated tables,
and the home page and a game page in a real headless Chromium.

One module fixture runs ``mkdocs build --strict`` (broken links, missing references and docstring warnings fail
it); this is how CI checks the site. Without MkDocs the tests are skipped, unless ``WILDWEST_REQUIRE_DOCS`` is
set, where they fail. The browser test serves the built site on 127.0.0.1 and keeps screenshots in
``tests._browser.ARTIFACTS``.
"""

from __future__ import annotations

import contextlib
import functools
import html.parser
import http.server
import importlib.util
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests._browser import ARTIFACTS, chromium_page, console_errors
from wildwest_envs.registry import GAMES, get_game

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.xdist_group("docs")  # one build, on one worker
BUILD_SECONDS = 600


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built by ``mkdocs build --strict`` into a temporary folder."""
    if importlib.util.find_spec("mkdocs") is None:
        reason = "mkdocs is not installed (pip install -e '.[docs]')"
        if os.environ.get("WILDWEST_REQUIRE_DOCS"):
            pytest.fail(f"{reason}; WILDWEST_REQUIRE_DOCS is set: the docs build is required")
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("site")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=BUILD_SECONDS,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{(done.stdout + done.stderr)[-6000:]}"
    print(f"mkdocs build --strict: {time.perf_counter() - start:.1f} s")
    return out


class _Tables(html.parser.HTMLParser):
    """Every ``<table>`` of a page as rows of cell texts (header row first)."""

    def __init__(self):
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None and self.tables and self.tables[-1]:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


@functools.lru_cache(maxsize=None)
def tables_of(path: Path) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.tables


def table(path: Path, *header: str) -> list[list[str]]:
    """The body rows of the one table of ``path`` whose header starts with ``header``."""
    found = [t for t in tables_of(path) if t and tuple(t[0][:len(header)]) == header]
    assert len(found) == 1, f"{path}: expected one table headed {header}, found {len(found)}"
    return found[0][1:]


def game_page(site: Path, name: str) -> Path:
    return site / "games" / name.removesuffix("_v0") / "index.html"


def test_every_registered_game_has_its_page_with_the_tables_generated_from_its_code(site):
    for name in GAMES:
        game = get_game(name)
        page = game_page(site, name)
        assert page.is_file(), f"no page for {name} (docs/games/{name.removesuffix('_v0')}.md)"
        text = page.read_text(encoding="utf-8")
        options = table(page, "option", "type", "values", "default")
        names = [row[0].split(" (old name")[0] for row in options]
        assert names == [*game.parse_options(), "reward_mode", "render_mode"], name
        defaults = game.parse_options()
        for row in options[:len(defaults)]:
            assert row[3].startswith(repr(defaults[row[0].split(" (old name")[0]])), (name, row)
        fields = table(page, "field", "floats", "shape")
        assert [row[0] for row in fields] == list(game.obs_layout.fields), name
        assert fields[-1][1].endswith(f"{game.obs_layout.size:,})"), (name, fields[-1])
        actions = table(page, "ids", "action", "count", "example name")
        assert sum(int(row[2]) for row in actions) == game.n_actions, name
        assert actions[0][0] in ("0", f"[0, {actions[0][2]})") and sum(row[3] != "–" for row in actions) >= 2, (name, actions)
        modes = [row[0].split()[0].strip('"') for row in table(page, "reward_mode", "reward at the end of a game")]
        from wildwest_envs.core.game import REWARD_MODES
        assert modes == list(REWARD_MODES), name
        assert f"Discrete({game.n_actions})" in text and f"{game.min_players}–{game.max_players}" in text
        assert "Version history" in text and "v0" in text
        short = name.removesuffix("_v0")
        assert f'src="../../pictures/{short}.svg"' in text, f"{name}: the picture is missing"
        assert f'src="../replays/{short}.html"' in text, f"{name}: the replay is missing"
        replay = (site / "games" / "replays" / f"{short}.html").read_text(encoding="utf-8")
        assert "<script" in replay and "http://" not in replay.replace("http://www.w3.org", ""), name


@contextlib.contextmanager
def serving(folder: Path):
    """``folder`` served over HTTP on a free port of 127.0.0.1, in a thread; yields the base URL."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(folder), **kwargs)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def picture_shown(page, short: str) -> bool:
    """The page's picture of ``short`` is loaded, has a size and lies in the page."""
    return page.evaluate("""(short) => {
        const img = [...document.querySelectorAll('article img')].find((i) => i.src.endsWith(short + '.svg'));
        if (!img || !img.complete || img.naturalWidth === 0) return false;
        const box = img.getBoundingClientRect();
        return box.width > 200 && box.height > 100 && getComputedStyle(img).visibility === 'visible';
    }""", short)


def test_home_and_a_game_page_in_chromium(site):
    """No console error; the picture is shown; the embedded replay draws its board and steps."""
    with serving(site) as url, chromium_page(1280, 900) as page:
        errors = console_errors(page)
        page.goto(url)
        page.wait_for_load_state("load")
        assert picture_shown(page, "colt_express")
        assert page.locator("article table").count() >= 1  # the generated games table
        page.screenshot(path=str(ARTIFACTS / "docs_home.png"))

        page.goto(url + "games/colt_express/")
        page.wait_for_load_state("load")
        assert picture_shown(page, "colt_express")
        frame_element = page.locator("iframe.wildwest-replay")
        assert frame_element.count() == 1
        frame_element.scroll_into_view_if_needed()
        frame = frame_element.content_frame
        frame.locator("#board svg").first.wait_for(state="attached", timeout=30_000)
        label = frame.locator("#step-label").inner_text()
        frame.locator("#next").click()  # the replay steps inside the page
        frame.locator("#step-label").filter(has_not_text=label).wait_for(timeout=10_000)
        box = frame_element.bounding_box()
        assert box is not None and box["width"] > 600 and box["height"] > 600
        page.screenshot(path=str(ARTIFACTS / "docs_colt_express_replay.png"))
        page.goto(url + "games/colt_express/#options")
        page.wait_for_load_state("load")
        page.screenshot(path=str(ARTIFACTS / "docs_colt_express_options.png"))
        page.goto(url + "games/colt_express/")
        page.wait_for_load_state("load")
        page.screenshot(path=str(ARTIFACTS / "docs_colt_express.png"), full_page=True)
        assert errors == [], errors
