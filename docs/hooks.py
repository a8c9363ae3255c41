"""MkDocs hooks: the parts of the site that come from the code, generated at every build (``mkdocs.yml``: hooks).

A page asks for a generated part with an HTML comment, so the Markdown source stays readable as it is::

    <!-- gen:options -->                       the game's options table (``Game.options``)
    <!-- gen:include benchmarks/results/throughput.md level=2 -->

Game pages name their game in the front matter (``game: colt_express_v0``). Directives of a game page:
``summary``, ``picture``, ``replay``, ``options``, ``observation``, ``actions``, ``rewards``, ``agents``,
``versions`` and ``doc <Label>`` (the paragraph of the env module docstring that starts with ``**Label**``).
Directives of any page: ``games`` (the table of registered games), ``include <path> [level=N]`` (a file of
the repository, its headings moved to start at level N) and ``reward_modes``.

The hooks also add to the site, without copying anything into ``docs/``: the plots of ``benchmarks/results/``
(as ``benchmarks/results/<file>.png``) and, for every registered game, the replay viewer of a sample game
played by heuristic agents (``games/replays/<game>.html``, written by ``wildwest_envs.viewer``). A
registered game without its page ``docs/games/<game>.md`` fails the build.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import logging
import posixpath
import re
import time
from pathlib import Path

import numpy as np
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DIRECTIVE = re.compile(r"<!--\s*gen:(\w+)([^>]*?)-->")
REPLAY_SEED = 1  # the sample game of each game page: heuristic agents, this seed
REPLAY_PLAYERS = 3
# options that make the sample game short enough to replay in a page (the web-play tests use the same ones)
REPLAY_OPTIONS = {"wild_west_express_v0": {"victory_target": 5}, "rail_v0": {"points_target": 40},
                  "way_out_west_v0": {"num_rounds": 3}}
log = logging.getLogger("mkdocs.hooks.wildwest")
# Docstring warnings of griffe known and accepted, each with its reason; every other one fails the strict build.
KNOWN_DOCSTRING_WARNINGS = {
    # ``Game``'s Attributes list names five kernels in one entry over two lines, which Google style cannot
    # parse as a "name: description" pair; the entry still renders as text.
    "wildwest_envs/core/game.py": "Failed to get 'name: description' pair from 'legal_mask_kernel, step_kernel",
}


class _KnownDocstringWarnings(logging.Filter):
    """Log the known docstring warnings above as INFO (so that ``--strict`` counts only new ones)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.levelno == logging.WARNING and any(path in message and text in message
                                                     for path, text in KNOWN_DOCSTRING_WARNINGS.items()):
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


logging.getLogger("mkdocs.plugins.griffe").addFilter(_KnownDocstringWarnings())


# ---- the registered games ----------------------------------------------------------------------------------------
def games() -> dict[str, str]:
    from wildwest_envs.registry import GAMES
    return dict(GAMES)


def short(name: str) -> str:
    return name.removesuffix("_v0")


def title(name: str) -> str:
    """The game's human name, from the first line of its env module docstring ("Colt Express — ...")."""
    return env_doc(name).split("\n", 1)[0].split(" — ")[0].strip()


def game_of(name: str):
    from wildwest_envs.registry import get_game
    return get_game(name)


def env_module(name: str):
    return importlib.import_module(f"wildwest_envs.{short(name)}.env")


def env_doc(name: str) -> str:
    return inspect.cleandoc(env_module(name).__doc__ or "")


def doc_paragraph(name: str, label: str) -> str:
    """The paragraph of the env docstring that starts with ``**label**`` (or ``label:``), up to the next blank line."""
    for paragraph in re.split(r"\n\s*\n", env_doc(name)):
        text = paragraph.strip()
        if text.startswith(f"**{label}") or text.startswith(f"{label}:"):
            return text
    raise PluginError(f"the env docstring of {name} has no paragraph starting with **{label}** or {label}:")


def cell(value) -> str:
    """Text for a Markdown table cell (pipes escaped, one line)."""
    return " ".join(str(value).split()).replace("|", "\\|")


def code(value) -> str:
    return f"`{cell(value)}`"


# ---- game page parts ----------------------------------------------------------------------------------------------
def summary_table(name: str) -> str:
    game = game_of(name)
    defaults = game.parse_options()
    from wildwest_envs.core.aec import GameAECEnv  # noqa: F401 (the adapter every raw_env is)
    env_class = env_module(name).raw_env
    rows = [
        ("import", f"`from wildwest_envs import {name}`"),
        ("registered name", f"`{name}` (`wildwest_envs.make(\"{short(name)}\")`, "
                            f"`pettingzoo.make(\"aec\", \"wildwest_envs/{name.replace('_v', '-v')}\")`)"),
        ("agents", f"`player_0` … `player_{{N-1}}`, N = `num_players`"),
        ("players", f"{game.min_players}–{game.max_players} (default {defaults['num_players']})"),
        ("action space", f"`Discrete({game.n_actions})`"),
        ("observation space", f"`Dict(observation=Box(float32, ({game.obs_size},)), "
                              f"action_mask=Box(int8, ({game.n_actions},)))`"),
        ("information", f"{game.information} (`Game.information`)"),
        ("chance", "drawn from each record's own generator; scriptable kinds (`Game.chance_kinds`): "
                   + (", ".join(f"`{c.name}`" for c in game.chance_kinds) or "none")),
        ("reward modes", ", ".join(f"`\"{m}\"`" for m in reward_modes())),
        ("render modes", ", ".join(f"`\"{m}\"`" for m in env_class.metadata.get("render_modes", []))),
        ("state record", f"{game.state_bytes:,} bytes (`{short(name)}.state.STATE_DTYPE`)"),
    ]
    return "| | |\n|---|---|\n" + "\n".join(f"| {k} | {v} |" for k, v in rows)


def options_table(name: str) -> str:
    """Name, type, accepted values, default (a derived default: its value with the default options), meaning, §."""
    game = game_of(name)
    defaults = game.parse_options()
    rows = [f"`{name}.env(**options)`, `GAME.init(seeds, **options)`; `GAME.parse_options(**options)` checks them "
            "and fills in the defaults. A *derived* default depends on the options before it (shown here for the "
            "default options).", "",
            "| option | type | values | default | meaning | rules § |", "|---|---|---|---|---|---|"]
    for option in game.options.options:
        value = defaults[option.name]
        accepts = option.accepts or getattr(option.parse, "accepts", "")
        default = f"`{value!r}`" + (" (derived)" if callable(option.default) else "")
        kind = _type_name(value, accepts)
        aliases = f" (old name: {', '.join(f'`{a}`' for a in option.aliases)})" if option.aliases else ""
        rows.append(f"| `{option.name}`{aliases} | {cell(kind)} | {cell(accepts.replace('``', '`'))} | {cell(default)} | "
                    f"{cell(option.doc)} | {cell(option.section)} |")
    rows += [f"| `reward_mode` | str | {', '.join(f'`{m!r}`' for m in reward_modes())} | `'win'` | "
             f"how the final result is paid ([rewards](#rewards)) | |",
             "| `render_mode` | str | `None`, `'ansi'`, `'human'`, `'rgb_array'` | `None` | what `render()` returns | |"]
    return "\n".join(rows)


def _type_name(value, accepts: str) -> str:
    """The option's type in words: its default's, or for a ``None`` default what else it accepts."""
    if value is None:
        rest = accepts.removeprefix("None or ")
        return "None or " + ("int" if rest.startswith("int") else "bool" if rest.startswith("bool") else "list")
    return "list" if isinstance(value, (tuple, list)) else type(value).__name__


def observation_table(name: str) -> str:
    game = game_of(name)
    layout = game.obs_layout
    rows = [f"{len(layout.fields)} fields, {layout.size:,} floats (`{name}.GAME.obs_layout`; "
            f"`GAME.obs_layout.get(vec, \"field\")` reads one, `GAME.obs_layout.decode(vec)` all at their scale).",
            "", "| field | floats | shape | natural scale (`Layout.decode`) |", "|---|---|---|---|"]
    for field in layout.fields.values():
        rows.append(f"| `{field.name}` | [{field.start:,}, {field.stop:,}) | {cell(field.shape)} | "
                    f"{cell(_parts_text(field))} |")
    return "\n".join(rows)


def _parts_text(field) -> str:
    parts = field.parts
    if parts is None:
        return "raw floats"
    parts = parts if isinstance(parts, tuple) else (parts,)
    out = []
    for p in parts:
        text = f"`{p.name}` {p.kind}"
        if p.kind == "onehot":
            text += f" of {p.width}" + (f" from {p.first}" if p.first else "")
        elif p.width > 1:
            text += f" ×{p.width}"
        if p.kind in ("count", "real") and p.scale != 1:
            text += f" (×{p.scale:g})"
        out.append(text)
    return ", ".join(out)


def action_ranges(name: str) -> list[tuple[str, int, int]]:
    """``(name, first id, count)`` of the game's action layout, read from its ``data`` module."""
    game = game_of(name)
    data = importlib.import_module(f"wildwest_envs.{short(name)}.data")
    if hasattr(data, "ACTION_RANGES"):
        return [(n, int(s), int(k)) for n, s, k in data.ACTION_RANGES]
    if hasattr(data, "N_OTHER_ACTIONS"):  # a map's buildable steps first, then fixed offsets (Rail)
        base = game.n_actions - int(data.N_OTHER_ACTIONS)
        starts = sorted({int(v): k.removeprefix("OFF_") for k, v in vars(data).items()
                         if k.startswith("OFF_") and isinstance(v, int)}.items())
        ranges = [("BUILD_STEP", 0, base)]
        for i, (offset, label) in enumerate(starts):
            stop = starts[i + 1][0] if i + 1 < len(starts) else int(data.N_OTHER_ACTIONS)
            ranges.append((label, base + offset, stop - offset))
        return ranges
    starts = sorted({int(v): k.removeprefix("A_") for k, v in vars(data).items()
                     if k.startswith("A_") and isinstance(v, int) and 0 <= v < game.n_actions}.items())
    if not starts:
        return [("ACTION", 0, game.n_actions)]
    return [(label, start, (starts[i + 1][0] if i + 1 < len(starts) else game.n_actions) - start)
            for i, (start, label) in enumerate(starts)]


def actions_table(name: str) -> str:
    game = game_of(name)
    examples = sample_game(name)["examples"]
    rows = [f"`Discrete({game.n_actions})`, one flat id per choice; a compound decision is a sequence of steps. "
            "`GAME.action_to_string(state, a)` names an action in its context and `GAME.string_to_action` reads "
            "the name back; the examples are names of legal actions met in the sample game above (–: none met).", "",
            "| ids | action | count | example name |", "|---|---|---:|---|"]
    for label, start, count in action_ranges(name):
        ids = f"{start}" if count == 1 else f"[{start}, {start + count})"
        example = examples.get(label)
        rows.append(f"| {ids} | `{label}` | {count} | {code(example) if example else '–'} |")
    return "\n".join(rows)


def reward_modes() -> tuple[str, ...]:
    from wildwest_envs.core.game import REWARD_MODES
    return tuple(REWARD_MODES)


def reward_mode_texts() -> dict[str, str]:
    """Each mode's sentence, from the bullets of ``core.game``'s module docstring."""
    import wildwest_envs.core.game as core_game
    doc = inspect.cleandoc(core_game.__doc__ or "")
    texts = {}
    for mode in reward_modes():
        found = re.search(rf'^\* ``"{mode}"``[^:]*:\s*(.+?)(?=^\*|^\s*$)', doc, re.S | re.M)
        texts[mode] = " ".join(found.group(1).split()).replace("``", "`") if found else ""
    return texts


def reward_modes_table(name: str | None = None) -> str:
    scale = f" (here {game_of(name).score_scale:g})" if name else ""
    rows = ["| `reward_mode` | reward at the end of a game |", "|---|---|"]
    for mode, text in reward_mode_texts().items():
        text = text.replace("`score_scale`", f"`score_scale`{scale}") if scale else text
        rows.append(f"| `\"{mode}\"`{' (default)' if mode == 'win' else ''} | {cell(text)} |")
    return "\n".join(rows)


def agents_section(name: str) -> str:
    from wildwest_envs.agents.registry import HEURISTICS
    lines = ["| agent spec | what plays |", "|---|---|", "| `random` | a uniformly random legal action |"]
    if name in HEURISTICS:
        module, cls = HEURISTICS[name]
        first = inspect.cleandoc(importlib.import_module(module).__doc__ or "").split("\n\n")[0]
        lines.append(f"| `heuristic` | `{module}.{cls}`: {cell(first)} |")
    lines.append("| `mcts`, `mcts:<simulations>` | information-set MCTS over `Game.resample_hidden` "
                 "(default 200 simulations) |")
    lines.append("| `mc`, `mc:<playouts>` | flat Monte Carlo: every legal action played out on determinizations "
                 "by random moves, a whole batch of decisions at once (default 48 playouts per action) |")
    network = shipped_network(name)
    if network:
        lines.append(f"| `pretrained` | the network shipped for {network['num_players']} players: "
                     f"{cell(network['network'])}, hidden layers {cell(network['net_arch'])}, "
                     f"`{network['file']}` |")
        lines.append("| `mcts+pretrained`, `mcts+pretrained:<simulations>` | the same search guided by the "
                     "shipped network (its policy as prior, its value at the leaves) |")
    lines.append("| `human` | you, at the terminal (`wildwest-play`), or in the browser (`wildwest-play --web`) |")
    text = "\n".join(lines)
    if network and network.get("recipe"):
        text += f"\n\nThe shipped network's recipe: `{cell(network['recipe'])}`."
    ladder = RESULTS / f"ladder_{short(name)}_3p.md"
    if ladder.is_file():
        ladder_text = include(f"benchmarks/results/ladder_{short(name)}_3p.md", level=3)
        ratings = re.split(r"^#{4,} ", ladder_text, maxsplit=1, flags=re.M)[0].strip()  # the head-to-head apart
        text += ("\n\nHow they rank, from the committed ladder "
                 f"(`benchmarks/results/ladder_{short(name)}_3p.md`; its head-to-head matrix is on "
                 f"[evaluation and ladders](../guides/evaluation.md#the-reference-ladder)):\n\n" + ratings)
    return text


def shipped_network(name: str) -> dict | None:
    """The JSON config of the shipped network (read with numpy, no torch): network, net_arch, recipe."""
    import json
    path = ROOT / "wildwest_envs" / "agents" / "weights" / f"{name}_3p.npz"
    if not path.is_file():
        return None
    with np.load(path, allow_pickle=False) as archive:
        config = json.loads(bytes(archive["config"]).decode("utf-8"))
    recipe = config.get("recipe") or config.get("command") or ""
    if isinstance(recipe, dict):
        recipe = recipe.get("command", "")
    return {"network": config.get("network"), "net_arch": config.get("net_arch"),
            "num_players": config.get("num_players"), "recipe": recipe,
            "file": f"wildwest_envs/agents/weights/{path.name}"}


def versions(name: str) -> str:
    return doc_paragraph(name, "Version history").removeprefix("Version history:").strip().replace("``", "`")


# ---- the sample game of each page, and its replay viewer ---------------------------------------------------------
@functools.lru_cache(maxsize=None)
def sample_game(name: str) -> dict:
    """The record of a seeded game of heuristic agents, its viewer page and example action names by range."""
    from wildwest_envs.agents.registry import make_agent
    from wildwest_envs.core.records import make_record, replay
    from wildwest_envs.core.rng import game_seeds
    from wildwest_envs.core.runner import play_decisions
    from wildwest_envs.viewer import viewer_html

    start = time.perf_counter()
    game = game_of(name)
    options = {"num_players": REPLAY_PLAYERS, **REPLAY_OPTIONS.get(name, {})}
    deal = int(game_seeds(REPLAY_SEED, 1)[0])
    states = game.init(np.array([deal], np.uint64), **options)
    agents = [make_agent("heuristic", name, seed=REPLAY_SEED, num_players=REPLAY_PLAYERS)]
    owners = np.zeros((1, int(game.max_players)), dtype=np.int64)
    moves = []
    while not bool(game.finished(states)[0]):
        decided = play_decisions(game, states, np.array([0]), agents, owners)
        moves.append((int(decided.seats[0]), int(decided.actions[0])))
    record = make_record(game, deal, options, moves, ("heuristic",) * REPLAY_PLAYERS, states[0], events=True)
    page = viewer_html(record)
    examples: dict[str, str] = {}
    ranges = action_ranges(name)
    history = replay(game, record, every_state=True)
    masks = game.legal_mask(history)
    for b in range(len(history)):
        for label, first, count in ranges:
            if label not in examples:
                legal = np.flatnonzero(masks[b, first:first + count])
                if legal.size:
                    examples[label] = game.action_to_string(history[b], int(first + legal[0]))
    log.info("sample game of %s: %d decisions, viewer %d kB, %.1f s", name, len(moves), len(page) // 1024,
             time.perf_counter() - start)
    return {"record": record, "html": page, "examples": examples, "options": options}


def replay_frame(name: str, page) -> str:
    sample = sample_game(name)
    options = ", ".join(f"{k}={v!r}" for k, v in sample["options"].items())
    result = sample["record"].result
    src = relative(page, f"games/replays/{short(name)}.html")
    return (f'<iframe class="wildwest-replay" src="{src}" title="{title(name)}: replay of a sample game" '
            f'loading="eager"></iframe>\n\n'
            f"A game of {REPLAY_PLAYERS} `heuristic` agents (`{name}.env({options})`, seed {REPLAY_SEED}, "
            f"{result['decisions']} decisions; scores {result['scores']}), replayed by `wildwest_envs.viewer`: "
            f"step with the buttons, the slider or the arrow keys, and pick a seat's point of view. "
            f"[Open it on its own page]({'replays/' + short(name) + '.html'}).")


def relative(page, target: str) -> str:
    """``target`` (a site path) as a link from ``page``'s URL (directory URLs included)."""
    base = page.url if page.url.endswith("/") or not page.url else posixpath.dirname(page.url)
    return posixpath.relpath(target, base.rstrip("/") or ".")


# ---- any page -----------------------------------------------------------------------------------------------------
def games_table(page) -> str:
    rows = ["| game | module | players | actions | observation | information | page |",
            "|---|---|---|---:|---:|---|---|"]
    here = posixpath.dirname(page.file.src_uri)
    for name in games():
        game = game_of(name)
        link = posixpath.relpath(f"games/{short(name)}.md", here or ".")
        rows.append(f"| {title(name)} | `{name}` | {game.min_players}–{game.max_players} | {game.n_actions:,} | "
                    f"{game.obs_size:,} | {game.information} | [{title(name)}]({link}) |")
    return "\n".join(rows)


def include(path: str, level: int | None = None) -> str:
    """The text of a repository file; with ``level``, its headings moved so that the highest is at ``level``."""
    file = ROOT / path
    if not file.is_file():
        raise PluginError(f"gen:include: {path} does not exist")
    text = file.read_text(encoding="utf-8").strip()
    if level is not None:
        depths = [len(m.group(1)) for m in re.finditer(r"^(#+) ", text, re.M)]
        if depths:
            shift = level - min(depths)
            text = re.sub(r"^(#+) ", lambda m: "#" * max(1, min(6, len(m.group(1)) + shift)) + " ", text, flags=re.M)
    return text


def expand(markdown: str, page) -> str:
    name = page.meta.get("game")

    def one(match: re.Match) -> str:
        kind, args = match.group(1), match.group(2).split()
        if kind == "games":
            return games_table(page)
        if kind == "include":
            level = next((int(a.split("=")[1]) for a in args if a.startswith("level=")), None)
            return include(args[0], level)
        if kind == "reward_modes":
            return reward_modes_table()
        if name is None:
            raise PluginError(f"{page.file.src_uri}: gen:{kind} needs a game (front matter `game:`)")
        parts = {"summary": summary_table, "options": options_table, "observation": observation_table,
                 "actions": actions_table, "rewards": reward_modes_table, "agents": agents_section,
                 "versions": versions}
        if kind in parts:
            return parts[kind](name)
        if kind == "picture":
            return f"![{title(name)}, halfway through a game of three heuristic players](../pictures/{short(name)}.svg)"
        if kind == "replay":
            return replay_frame(name, page)
        if kind == "doc":
            return doc_paragraph(name, " ".join(args)).replace("``", "`")
        raise PluginError(f"{page.file.src_uri}: unknown directive gen:{kind}")

    return DIRECTIVE.sub(one, markdown)


# ---- the hooks ------------------------------------------------------------------------------------------------------
def on_files(files, config):
    """Check every game has its page; add the sample replays and the result plots to the site."""
    missing = [short(n) for n in games() if files.get_file_from_path(f"games/{short(n)}.md") is None]
    if missing:
        raise PluginError(f"registered games without a page docs/games/<game>.md: {missing}")
    for name in games():
        files.append(File.generated(config, f"games/replays/{short(name)}.html", content=sample_game(name)["html"]))
    for png in sorted(RESULTS.glob("*.png")):
        files.append(File(str(png.relative_to(ROOT)), str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files


def on_page_markdown(markdown, page, config, files):
    try:
        return expand(markdown, page)
    except PluginError:
        raise
    except Exception as error:  # a clear build failure naming the page, not a traceback deep in MkDocs
        raise PluginError(f"{page.file.src_uri}: generating a part failed: {type(error).__name__}: {error}") from error
