"""One drawing of a Colt Express game, as a standalone SVG document (read-only).

``draw(state, seat=None)`` draws a record as every game's drawing does (``core.svg``: the arguments, the
errors, a usage example) on ``WIDTH`` x ``HEIGHT`` pixels, the same for every record. The omniscient view
shows every card and purse value, ``seat=k`` only what seat k may know (§10).

What the picture shows:

* the header: player count, rules, round (of 5), phase (Schemin', end of
  Schemin', Stealin', the event, game over), the current round card with its
  turn icons (the current Schemin' turn ringed), its event, the earlier round
  cards, the first player and what the pending decision asks (with its
  options where the viewer may know them, below);
* the train, locomotive at the RIGHT as in ``render``: every car with its
  roof (sky band) and its interior (wooden box), its index and carriage type;
  bandits are pawns in their character colours (§2.3) with their initials,
  standing on the roof or inside; the marshal is a gold star, always inside;
  the loot lying at each location: purses (bags, their id above, their value
  below where the viewer knows it, ``?`` otherwise), jewels (blue diamonds)
  and strongboxes (brown chests); the bandit whose card is being resolved is
  ringed in yellow, a Punch victim in red; under the train the neutral bullet
  supply and the second strongbox;
* the pile, in play order (first played first): the owner's colour, the card's
  name when the viewer may see it, a back otherwise; during Stealin' the cards
  already resolved are faded and the one being resolved is ringed;
* one panel per seat: agent name, character(s), first player and the seat to
  decide; per bandit its place, bullets left (a cylinder of six chambers) and
  received, its loot (purse ids with values where known, jewels, strongboxes,
  ransom) and loot value (what the viewer knows of it); the seat's hand (named
  cards with their counts, or card backs), draw deck and (expert) discard
  sizes and known bullet cards on top; at the end the scores and winners;
* a legend at the bottom.

The variant has no stagecoach or horses (the base game, ``rules/colt_express.md``),
so none are drawn.

Views (§10): ``seat=None`` is the omniscient view: every hand named, the faces
of face-down pile cards (marked ``face down``), every purse value, the loot
value of every bandit, the composition of decks and discards, the cards set
aside in a KEEP decision and the round cards still to come. ``seat=k`` draws
what the observation of seat k holds (``observation``) and nothing else: k's
own hand by name (during k's KEEP decision the cards set aside count in its
discard pile, as §11.3 says), other seats' hands as backs (their sizes as
§10.1 gives them, before a KEEP choice is complete), the faces of pile cards
face up, k's own or already reached by Stealin' (G22), only the purse values
``observation.purse_value_known`` grants k, the composition of k's own deck
and discard but never a deck order, only the revealed round cards, and the
options of the pending decision only when k is the seat to decide. Two
records that differ only in what seat k cannot see (``hidden.resample_hidden``)
give byte-identical drawings for seat k. ``seat=core.svg.SPECTATOR`` draws what
every seat knows and nothing private to one (hands as backs, face-down pile cards
not yet reached, purse values only where public): the picture of
``render_mode="rgb_array"``. The generator, the scripted-chance queue and the
decision counter are never drawn.

Pieces carry classes and ``data-`` attributes for tools and tests: ``car``
(``data-car``, ``data-type``), ``bandit`` (``data-bandit``, ``data-seat``,
``data-character``, ``data-car``, ``data-level`` ``in``/``roof``), ``marshal``
(``data-car``), ``loot`` (one per location: ``data-car``, ``data-level``,
``data-purses``, ``data-purse-ids``, ``data-jewels``, ``data-strongboxes``),
``purse`` (``data-purse``, ``data-value`` only where the viewer knows it),
``supply`` (``data-neutral``, ``data-removed``, ``data-second-strongbox``),
``round-card`` (``data-round``, ``data-card``, ``data-turn``), ``future-round``
(omniscient only: ``data-round``, ``data-card``), ``phase`` (``data-phase``),
``decision`` (``data-decision``, ``data-current``), ``pile-card``
(``data-index``, ``data-owner``, ``data-down``, ``data-status``
``waiting``/``resolving``/``done``, ``data-card`` only where the viewer sees
the face), ``seat`` (``data-seat``, ``data-hand``, ``data-deck``,
``data-discard``, ``data-known-bullets``), ``bandit-card`` (``data-bandit``,
``data-bullets-left``, ``data-bullets-received``, ``data-purses``,
``data-jewels``, ``data-strongboxes``, ``data-ransoms``, ``data-known-value``,
``data-unknown-purses``), ``hand-card`` (``data-seat``, ``data-card``,
``data-count``), ``card-back`` (``data-seat``, ``data-count``),
``aside-card`` (omniscient only, ``data-card``, ``data-count``) and, at the
end, ``score`` (``data-seat``, ``data-score``, ``data-winner``).

Decisions where the brief is silent: character colours, names and phrases
come from ``render`` (``CHARACTER_COLOURS``, the text board's decision texts)
and ``names``; a 2-player seat's panel takes the colour of its first bandit;
at most ``PILE_PER_ROW`` x 2 pile cards and the loot of one location are
drawn one by one while they fit, then summarised (``x N`` and the ids).
"""

from __future__ import annotations

import numpy as np

from ..core.svg import el as _el, fit as _fit, group as _group, num as _num, text as _text
from ..core.svg import SPECTATOR_SEAT, document, record_and_viewer, star as _star, view_label
from ..core.svg import text_width as _text_width
from .data import (BULLET_CARD, BULLETS_PER_BANDIT, DEC_BULLETS, DEC_KEEP, DEC_PICKPOCKET, DEC_PLAN, DECISION_NAMES,
                   EVENT_NAMES, EV_NONE, IN, JEWEL_VALUE, MAX_BANDITS, N_CARD_KINDS_HELD, N_LEVELS, N_ROUNDS,
                   PURSE_IN_BOX, PURSE_ON_BANDIT, PURSE_REMOVED, RANSOM_VALUE, ROOF, ROUND_CARD_EVENT, ROUND_CARD_NAMES,
                   ROUND_CARD_TURNS, STRONGBOX_VALUE, TURN_CODES, TURN_NONE)
from .names import _card_label, _character, _place
from .observation import pile_revealed, purse_value_known
from .render import CHARACTER_COLOURS, _decision_text, _final_results, _round_card
from .actions import card_bandit
from .scoring import loot_value
from .state import NOBODY, STATE_DTYPE

GAME_NAME = "colt_express_v0"

# ---- the sheet (pixels) ---------------------------------------------------------------------------------------
WIDTH, HEIGHT = 1400, 900
MARGIN = 12.0
HEADER_H = 92.0
TRAIN_TOP = 100.0  # top of the roof band
ROOF_Y = 210.0  # the roof line of the cars
FLOOR_Y = 360.0  # the floor of the cars
PURSE_SLOT = 30.0  # pixels per purse drawn one by one
PAWN_SCALE = 1.3  # bandit pawns on the train (the legend's are 0.8)
PILE_TOP = 428.0
PILE_PER_ROW = 12
PILE_CARD_H = 34.0
SEATS_TOP = 516.0
SEATS_BOTTOM = 852.0
LEGEND_TOP = 858.0
INK = "#2b2118"
PAPER = "#fbf6ea"
BACKGROUND = "#efe6d2"
HEADER_FILL = "#3b2a1e"
SKY = "#d7e9f2"
WOOD = "#b9804a"
WOOD_DARK = "#6b4424"
LOCOMOTIVE_FILL = "#4d4d55"
CARD_FACE = "#fff8dc"
CARD_BACK = "#5b3a29"
HIGHLIGHT = "#ffd400"
VICTIM = "#d62828"
PURSE_FILL = "#c89b3c"
JEWEL_FILL = "#3fa7d6"
BOX_FILL = "#7a4e22"
MARSHAL_FILL = "#e0b000"
TURN_WORDS = {"N": "normal", "T": "tunnel (face down)", "S": "speed-up (2 plays)", "R": "switching (reverse)"}
PHASES = ("Schemin'", "round start: bullet cards", "end of Schemin'", "Stealin'", "round event", "game over",
          "truncated")


# ---- small helpers ------------------------------------------------------------------------------------------------
def _int(record: np.void, field: str) -> int:
    return int(record[field])


def _money(amount: int) -> str:
    return f"${amount:,}"


def _agent(seat: int) -> str:
    return f"player_{seat}"


def _ink_on(colour: str) -> str:
    """Black or white text, whichever reads better on ``colour`` (``#rrggbb``)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def _bandit_colour(record: np.void, bandit: int) -> str:
    character = int(record["character"][bandit])
    return CHARACTER_COLOURS[character] if 0 <= character < len(CHARACTER_COLOURS) else "#999999"


def _seat_colour(record: np.void, seat: int) -> str:
    return _bandit_colour(record, seat * _int(record, "bandits_per_seat"))


def _initials(record: np.void, bandit: int) -> str:
    return _character(record, bandit)[:2]


def _n_cars(record: np.void) -> int:
    return _int(record, "n_carriages") + 1


def _car_box(record: np.void, car: int) -> tuple[float, float]:
    """Left edge and width of a car: the last car at the left, the locomotive at the right (as ``render``)."""
    n = _n_cars(record)
    slot = (WIDTH - 2 * MARGIN) / n
    return MARGIN + (n - 1 - car) * slot + 5, slot - 10


# ---- what the viewer may know (§10) ----------------------------------------------------------------------------
def _value_known(record: np.void, purse: int, viewer: int | None) -> bool:
    """The viewer knows the purse's value (§10.3); a spectator only what every seat knows: the starting
    purses, and at the end the purses on the character cards (G35)."""
    if viewer is None:
        return True
    if viewer == SPECTATOR_SEAT:
        on_bandit = PURSE_ON_BANDIT <= int(record["purse_location"][purse]) < PURSE_ON_BANDIT + MAX_BANDITS
        return purse < _int(record, "n_bandits") or (bool(record["done"]) and on_bandit)
    return bool(purse_value_known(record, purse, viewer))


def _in_keep(record: np.void, seat: int) -> bool:
    return _int(record, "decision") == DEC_KEEP and _int(record, "current") == seat


def _card_counts(record: np.void, seat: int, viewer: int | None) -> dict:
    """Hand, deck and discard of ``seat`` as the viewer knows them (module docstring, Views).

    Returns ``hand`` (size), ``deck``, ``discard``, ``hand_codes`` (counts per code, or None: backs only),
    ``deck_bullets`` / ``discard_bullets`` (None when unknown) and ``aside`` (omniscient KEEP only)."""
    hand = [int(c) for c in record["hand"][seat]]
    discard = [int(c) for c in record["discard"][seat]]
    aside = [int(c) for c in record["keep_aside"]] if _in_keep(record, seat) else [0] * N_CARD_KINDS_HELD
    deck = [int(c) for c in record["deck"][seat][:_int_at(record, "deck_size", seat)]]
    out = {"deck": len(deck), "aside": None, "hand_codes": None, "deck_bullets": None, "discard_bullets": None}
    if viewer is None:
        out.update(hand=sum(hand), discard=sum(discard), hand_codes=hand, aside=aside if sum(aside) else None,
                   deck_bullets=deck.count(BULLET_CARD), discard_bullets=discard[BULLET_CARD])
    elif viewer == seat:  # set-aside cards count as discarded for the seat itself (§11.3)
        mine = [d + a for d, a in zip(discard, aside)]
        out.update(hand=sum(hand), discard=sum(mine), hand_codes=hand, deck_bullets=deck.count(BULLET_CARD),
                   discard_bullets=mine[BULLET_CARD])
    else:  # the others see the sizes before the KEEP choice (§10.1)
        out.update(hand=sum(hand) + sum(aside), discard=sum(discard))
    return out


def _int_at(record: np.void, field: str, index: int) -> int:
    return int(record[field][index])


def _pile_face_visible(record: np.void, index: int, viewer: int | None) -> bool:
    """Face up, the viewer's own card, or reached by Stealin' (G22); everything for the omniscient view."""
    return (viewer is None or not record["pile_down"][index]
            or (viewer != SPECTATOR_SEAT and int(record["pile_owner"][index]) == viewer)
            or bool(pile_revealed(record, index)))


def _phase(record: np.void) -> int:
    """Index into ``PHASES``."""
    decision = _int(record, "decision")
    if record["done"]:
        return 5
    if _int(record, "n_decisions") >= _int(record, "max_decisions"):
        return 6
    if decision == DEC_PLAN:
        return 0
    if decision == DEC_BULLETS:
        return 1
    if decision == DEC_KEEP:
        return 2
    if decision == DEC_PICKPOCKET:
        return 4
    return 3


def _options(record: np.void, viewer: int | None) -> list[str] | None:
    """Names of the legal actions of the pending decision, or None where the viewer may not see them."""
    current = _int(record, "current")
    if record["done"] or current < 0 or (viewer is not None and viewer != current):
        return None
    from .game import GAME  # late: the Game binding imports the package's modules

    batch = np.zeros(1, dtype=STATE_DTYPE)
    batch[0] = record
    mask = GAME.legal_mask(batch)[0]
    return [GAME.action_to_string(batch[0], int(a)) for a in np.flatnonzero(mask)]


# ---- header ---------------------------------------------------------------------------------------------------
def _turn_tile(x: float, y: float, code: str, index: int, current: bool) -> str:
    parts = []
    if current:
        parts.append(_el("rect", x=x - 3, y=y - 3, width=28, height=28, rx=6, fill=HIGHLIGHT))
    parts += [_el("rect", x=x, y=y, width=22, height=22, rx=4, fill="#f3ead7", stroke="#000", stroke_width=1),
              _text(x + 11, y + 16, code, 13, text_anchor="middle", font_weight="bold", fill=INK)]
    return _group(parts, class_="turn-icon", data_turn=index, data_icon=code, data_current=int(current))


def _header(record: np.void, viewer: int | None) -> str:
    n, r, phase = _int(record, "num_players"), _int(record, "round"), _phase(record)
    rules = "expert rules" if record["expert"] else "standard rules"
    parts = [_el("rect", x=0, y=0, width=WIDTH, height=HEADER_H, fill=HEADER_FILL),
             _text(16, 30, "Colt Express", 24, fill="#f6d28b", font_weight="bold", font_family="Georgia, serif"),
             _text(200, 29, f"{n} players \u00b7 {rules} \u00b7 round {r + 1} of {N_ROUNDS} \u00b7 first player "
                   f"{_agent(_int(record, 'first_player'))}", 15, fill="#f3ead7"),
             _group([_el("rect", x=760, y=10, width=190, height=26, rx=13, fill="#a33b20"),
                     _text(855, 28, PHASES[phase], 14, text_anchor="middle", fill="#fff", font_weight="bold")],
                    class_="phase", data_phase=PHASES[phase])]
    view = "omniscient view (everything)" if viewer is None else view_label(viewer)
    parts.append(_text(WIDTH - 16, 29, view, 14, text_anchor="end", fill="#f6d28b", font_style="italic",
                       class_="view"))
    # the round card: its name, turn icons (the current Schemin' turn ringed) and event
    card, turn = _round_card(record), _int(record, "turn")
    x = 16.0
    if card != NOBODY:
        name = ROUND_CARD_NAMES[card]
        event = int(ROUND_CARD_EVENT[card])
        title = f"round card: {name}"
        parts.append(_text(x, 62, title, 14, fill="#fff", font_weight="bold"))
        x += _text_width(title, 14, bold=True) + 10
        tiles = []
        for t, icon in enumerate(ROUND_CARD_TURNS[card]):
            if icon == TURN_NONE:
                continue
            tiles.append(_turn_tile(x, 46, TURN_CODES[icon], t, phase == 0 and t == turn))
            x += 28
        parts += tiles
        x += 6
        text = "event: " + (EVENT_NAMES[event] if event != EV_NONE else "none")
        if phase == 0:
            icon = TURN_CODES[int(ROUND_CARD_TURNS[card][turn])]
            text = f"turn {turn + 1}: {TURN_WORDS.get(icon, icon)}"
            if icon == "S":
                text += f", play {_int(record, 'play_in_turn') + 1} of 2"
            text += " \u00b7 " + ("event: " + (EVENT_NAMES[event] if event != EV_NONE else "none"))
        elif phase == 3 and _int(record, "resolving") != NOBODY:
            text = (f"resolving pile card {_int(record, 'resolving') + 1} of {_int(record, 'pile_size')} \u00b7 "
                    + text)
        parts.append(_text(x, 62, text, 13, fill="#f3ead7"))
        parts.append(_group([], class_="round-card", data_round=r, data_card=card, data_turn=turn))
    earlier = [ROUND_CARD_NAMES[int(record["round_deck"][q])] for q in range(r)]
    right = []
    if earlier:
        right.append("earlier: " + ", ".join(earlier))
    futures = []
    if viewer is None:  # the round deck is hidden from everybody (§10.4)
        coming = [ROUND_CARD_NAMES[int(record["round_deck"][q])] for q in range(r + 1, N_ROUNDS)]
        if coming:
            right.append("coming: " + ", ".join(coming))
        futures = [_group([], class_="future-round", data_round=q, data_card=int(record["round_deck"][q]))
                   for q in range(r + 1, N_ROUNDS)]
    if right:
        parts.append(_text(WIDTH - 16, 62, _fit(" \u00b7 ".join(right), 11.5, WIDTH - 40 - x - 380), 11.5,
                           text_anchor="end", fill="#d9c9a8", font_style="italic"))
    parts += futures
    # the pending decision (or the end)
    current = _int(record, "current")
    if phase == 5:
        scores, winners = _final_results(record)
        line = "game over \u2013 winner" + ("s " if len(winners) > 1 else " ") + ", ".join(
            f"{_agent(s)} ({_money(scores[s])})" for s in winners)
    elif phase == 6:
        line = f"truncated: the turn cap of {_int(record, 'max_decisions')} decisions was reached"
    else:
        line = f"\u25b6 {_agent(current)} to decide: {_decision_text(record)}"
    options = _options(record, viewer) if phase < 5 else None
    if options:
        line += "  \u2014  options: " + ", ".join(options)
    parts.append(_group([_text(16, 84, _fit(line, 13, WIDTH - 32), 13, fill="#ffe8b0")], class_="decision",
                        data_decision=DECISION_NAMES[_int(record, "decision")], data_current=current))
    return _group(parts, class_="header")


# ---- the train --------------------------------------------------------------------------------------------------
def _pawn(x: float, y: float, colour: str, label: str, scale: float = 1.0, **attributes) -> str:
    """A bandit pawn standing on ``y`` (``38 * scale`` pixels tall): head and body in the character's colour,
    initials on the body."""
    k = scale
    parts = [_el("path", d=f"M{_num(x - 11 * k)},{_num(y)} L{_num(x - 8 * k)},{_num(y - 22 * k)} "
                 f"Q{_num(x)},{_num(y - 27 * k)} {_num(x + 8 * k)},{_num(y - 22 * k)} L{_num(x + 11 * k)},{_num(y)} Z",
                 fill=colour, stroke="#000", stroke_width=1.2),
             _el("circle", cx=x, cy=y - 31 * k, r=7.5 * k, fill=colour, stroke="#000", stroke_width=1.2),
             _text(x, y - 7 * k, label, 10 * k, text_anchor="middle", font_weight="bold", fill=_ink_on(colour))]
    return _group(parts, **attributes)


def _purse_icon(x: float, y: float, label: str = "", value: str = "") -> list[str]:
    """A purse bag centred at (x, y); its id above and its value (or ``?``) below when given."""
    parts = [_el("path", d=f"M{_num(x - 3)},{_num(y - 6)} L{_num(x - 7)},{_num(y + 2)} Q{_num(x - 7)},{_num(y + 7)} "
                 f"{_num(x)},{_num(y + 7)} Q{_num(x + 7)},{_num(y + 7)} {_num(x + 7)},{_num(y + 2)} "
                 f"L{_num(x + 3)},{_num(y - 6)} Z", fill=PURSE_FILL, stroke="#5a3d0a", stroke_width=1),
             _el("rect", x=x - 4, y=y - 8, width=8, height=2.6, rx=1, fill="#5a3d0a")]
    if label:
        parts.append(_text(x, y - 11, label, 9, text_anchor="middle", fill=INK))
    if value:
        parts.append(_text(x, y + 17, value, 8.5, text_anchor="middle", fill=INK, font_weight="bold"))
    return parts


def _jewel_icon(x: float, y: float, size: float = 7.0) -> str:
    return _el("polygon", points=f"{_num(x)},{_num(y - size)} {_num(x + size)},{_num(y - size * 0.2)} "
               f"{_num(x)},{_num(y + size)} {_num(x - size)},{_num(y - size * 0.2)}", fill=JEWEL_FILL,
               stroke="#0d4a66", stroke_width=1)


def _box_icon(x: float, y: float) -> list[str]:
    return [_el("rect", x=x - 9, y=y - 6, width=18, height=13, rx=2, fill=BOX_FILL, stroke="#2e1c0a",
                stroke_width=1),
            _el("rect", x=x - 9, y=y - 1.5, width=18, height=2.4, fill="#e0b000"),
            _el("rect", x=x - 1.8, y=y - 3, width=3.6, height=5, fill="#e0b000", stroke="#2e1c0a", stroke_width=0.5)]


def _loot_row(record: np.void, car: int, level: int, x: float, y: float, w: float, viewer: int | None) -> str:
    """The loot lying at one location, left to right from ``x``: strongboxes, jewels, then the purses one by one
    (id above, value below) while they fit, else one bag with ``x N`` and the ids."""
    loc = car * N_LEVELS + level
    purses = [int(i) for i in np.flatnonzero(record["purse_location"] == loc)]
    jewels, boxes = int(record["floor_jewels"][loc]), int(record["floor_strongboxes"][loc])
    parts = []
    cx = x + 16
    for _ in range(boxes):
        parts += _box_icon(cx, y)
        cx += 22
    if jewels:
        if jewels <= 3:
            for _ in range(jewels):
                parts.append(_jewel_icon(cx, y))
                cx += 17
        else:
            parts += [_jewel_icon(cx, y), _text(cx + 9, y + 4, f"\u00d7{jewels}", 10, fill=INK, font_weight="bold")]
            cx += 34
    room = x + w - cx
    if purses and room >= PURSE_SLOT * len(purses):
        for i in purses:
            known = _value_known(record, i, viewer)
            value = _money(int(record["purse_value"][i])) if known else "?"
            parts.append(_group(_purse_icon(cx + 2, y, f"#{i}", value), class_="purse", data_purse=i,
                                data_value=int(record["purse_value"][i]) if known else None))
            cx += PURSE_SLOT
    elif purses:
        parts += _purse_icon(cx + 2, y)
        parts.append(_text(cx + 12, y + 4, f"\u00d7{len(purses)}", 10, fill=INK, font_weight="bold"))
        ids = " ".join(f"#{i}" for i in purses)
        parts.append(_text(cx - 6, y + 19, _fit(ids, 8.5, x + w - cx + 4), 8.5, fill=INK))
    return _group(parts, class_="loot", data_car=car, data_level="roof" if level == ROOF else "in",
                  data_purses=len(purses), data_purse_ids=",".join(map(str, purses)), data_jewels=jewels,
                  data_strongboxes=boxes)


def _car(record: np.void, car: int) -> str:
    """The body of one car: the interior box, roof, wheels, windows and its label."""
    x, w = _car_box(record, car)
    fill = LOCOMOTIVE_FILL if car == 0 else WOOD
    parts = [_el("rect", x=x, y=ROOF_Y, width=w, height=FLOOR_Y - ROOF_Y, rx=4, fill=fill, stroke="#1f140a",
                 stroke_width=2),
             _el("rect", x=x + 6, y=ROOF_Y + 6, width=w - 12, height=FLOOR_Y - ROOF_Y - 12, rx=3,
                 fill="#f1e2c6" if car else "#c9ccd3", stroke="#1f140a", stroke_width=1),
             _el("rect", x=x - 4, y=ROOF_Y - 6, width=w + 8, height=7, rx=3, fill="#3a2a1c")]
    for wx in (x + 24, x + w - 24):
        parts.append(_el("circle", cx=wx, cy=FLOOR_Y + 8, r=9, fill="#222", stroke="#777", stroke_width=2))
    if car == 0:  # the funnel and the cab of the locomotive
        parts.append(_el("path", d=f"M{_num(x + w - 40)},{_num(ROOF_Y - 6)} l-4,-22 h22 l-4,22 z", fill="#222"))
    else:  # the coupling towards the next car
        parts.append(_el("rect", x=x + w, y=FLOOR_Y - 14, width=10, height=5, fill="#222"))
    label = _place(car) if car == 0 else f"car {car} \u00b7 type {int(record['car_type'][car])}"
    parts.append(_text(x + w / 2, FLOOR_Y + 34, label, 12, text_anchor="middle", fill=INK, font_weight="bold"))
    return _group(parts, class_="car", data_car=car, data_type=int(record["car_type"][car]))


def _train(record: np.void, viewer: int | None) -> str:
    n_cars = _n_cars(record)
    parts = [_el("rect", x=MARGIN, y=TRAIN_TOP, width=WIDTH - 2 * MARGIN, height=ROOF_Y - TRAIN_TOP - 6, rx=8,
                 fill=SKY),
             _el("rect", x=MARGIN, y=FLOOR_Y + 14, width=WIDTH - 2 * MARGIN, height=4, fill="#5a4a3a"),
             _text(MARGIN + 8, TRAIN_TOP + 14, "roofs", 11, fill="#587a8c", font_style="italic")]
    parts += [_car(record, c) for c in range(n_cars)]
    acting, victim = _int(record, "acting_bandit"), _int(record, "victim")
    bps = max(1, _int(record, "bandits_per_seat"))
    for car in range(n_cars):
        x, w = _car_box(record, car)
        for level in (ROOF, IN):
            here = [b for b in range(_int(record, "n_bandits"))
                    if record["bandit_car"][b] == car and record["bandit_level"][b] == level]
            marshal = level == IN and _int(record, "marshal_car") == car
            count = len(here) + int(marshal)
            step = min(36.0, (w - 20) / max(1, count))
            scale = min(PAWN_SCALE, step / 26)
            base = ROOF_Y - 7 if level == ROOF else ROOF_Y + 82
            px = x + 10 + step / 2
            for b in here:
                ring = []
                mid, rx, ry = base - 19 * scale, 15 * scale + 3, 22 * scale + 4
                if b == acting:
                    ring.append(_el("ellipse", cx=px, cy=mid, rx=rx, ry=ry, fill="none", stroke=HIGHLIGHT,
                                    stroke_width=4, class_="acting"))
                if b == victim:
                    ring.append(_el("ellipse", cx=px, cy=mid, rx=rx, ry=ry, fill="none", stroke=VICTIM,
                                    stroke_width=2.5, stroke_dasharray="4 3", class_="victim"))
                parts.append(_group(ring + [_pawn(px, base, _bandit_colour(record, b), _initials(record, b), scale)],
                                    class_="bandit", data_bandit=b, data_seat=b // bps,
                                    data_character=_character(record, b), data_car=car,
                                    data_level="roof" if level == ROOF else "in"))
                px += step
            if marshal:
                parts.append(_group([_star(px, base - 19 * scale, 19 * scale, fill=MARSHAL_FILL, stroke="#000",
                                           stroke_width=1.2),
                                     _text(px, base - 15 * scale, "M", 11 * scale, text_anchor="middle",
                                           font_weight="bold", fill=INK)], class_="marshal", data_car=car))
            loot_y = TRAIN_TOP + 26 if level == ROOF else FLOOR_Y - 42
            parts.append(_loot_row(record, car, level, x + 2, loot_y, w - 4, viewer))
    supply = "removed from the game" if record["supply_removed"] else str(_int(record, "neutral_supply"))
    box = "placed in the train" if record["second_strongbox_placed"] else "beside the train (Take It All)"
    in_box = int(np.count_nonzero(record["purse_location"] == PURSE_IN_BOX))
    removed = int(np.count_nonzero(record["purse_location"] == PURSE_REMOVED))
    words = f"neutral bullets: {supply}  \u00b7  second strongbox: {box}  \u00b7  purses in the box: {in_box}"
    if removed:
        words += f"  \u00b7  purses lost to Marshal's Revenge: {removed}"
    parts.append(_group([_text(WIDTH - MARGIN - 8, TRAIN_TOP + 14, words, 11, text_anchor="end", fill="#587a8c",
                               font_style="italic")], class_="supply", data_neutral=_int(record, "neutral_supply"),
                        data_removed=int(bool(record["supply_removed"])),
                        data_second_strongbox=int(bool(record["second_strongbox_placed"]))))
    return _group(parts, class_="train")


# ---- the pile ----------------------------------------------------------------------------------------------------
def _card_name_lines(record: np.void, seat: int, code: int) -> tuple[str, str]:
    """The kind of a card and, with 2 players, whose it is (``Fire`` / ``of Tuco``)."""
    label = _card_label(record, seat, code)
    if " of " in label:
        kind, whose = label.split(" of ", 1)
        return kind, "of " + whose
    return label, ""


def _pile(record: np.void, viewer: int | None) -> str:
    size, resolving = _int(record, "pile_size"), _int(record, "resolving")
    w = (WIDTH - 2 * MARGIN - (PILE_PER_ROW - 1) * 6) / PILE_PER_ROW
    head = f"Pile ({size} card{'s' if size != 1 else ''}, first played first"
    head += ", resolved in this order)" if resolving != NOBODY else ")"
    parts = [_text(MARGIN, PILE_TOP - 9, head, 13, font_weight="bold", fill=INK)]
    if size == 0:
        parts.append(_text(MARGIN + 4, PILE_TOP + 24, "empty", 12, fill="#8a7a5a", font_style="italic"))
    for i in range(size):
        x = MARGIN + (i % PILE_PER_ROW) * (w + 6)
        y = PILE_TOP + (i // PILE_PER_ROW) * (PILE_CARD_H + 5)
        owner, code, down = int(record["pile_owner"][i]), int(record["pile_card"][i]), bool(record["pile_down"][i])
        status = "waiting" if resolving == NOBODY or i > resolving else ("resolving" if i == resolving else "done")
        visible = _pile_face_visible(record, i, viewer)
        colour = _bandit_colour(record, card_bandit(record, owner, code)) if visible else _seat_colour(record, owner)
        body = []
        if status == "resolving":
            body.append(_el("rect", x=x - 3, y=y - 3, width=w + 6, height=PILE_CARD_H + 6, rx=6, fill=HIGHLIGHT))
        body.append(_el("rect", x=x, y=y, width=w, height=PILE_CARD_H, rx=4, fill=CARD_FACE if visible else CARD_BACK,
                        stroke="#6b5326", stroke_width=1.2))
        body.append(_el("rect", x=x, y=y, width=8, height=PILE_CARD_H, rx=3, fill=colour, stroke="#000",
                        stroke_width=0.6))
        ink = INK if visible else "#f1d9a7"
        body.append(_text(x + 12, y + 10, f"{i + 1} \u00b7 {_agent(owner)}", 8.5, fill=ink))
        if visible:
            kind, whose = _card_name_lines(record, owner, code)
            body.append(_text(x + 12, y + 22, _fit(kind, 11.5, w - 16, bold=True), 11.5, fill=INK,
                              font_weight="bold"))
            note = whose
            if down:
                note = (note + " \u00b7 down" if note else "face down")
            if note:
                body.append(_text(x + 12, y + 31, _fit(note, 8.5, w - 16), 8.5, fill="#7a5b14",
                                  font_style="italic"))
        else:
            body.append(_text(x + 12, y + 26, "face down", 10, fill="#f1d9a7", font_weight="bold",
                              letter_spacing="1"))
        attrs = dict(class_="pile-card", data_index=i, data_owner=owner, data_down=int(down), data_status=status,
                     data_card=code if visible else None)
        if status == "done":
            attrs["opacity"] = "0.5"
        parts.append(_group(body, **attrs))
    return _group(parts, class_="pile")


# ---- the seats ---------------------------------------------------------------------------------------------------
def _cylinder(x: float, y: float, left: int) -> list[str]:
    """Six chambers in a row, the bullets left filled (§2.4)."""
    parts = []
    for k in range(BULLETS_PER_BANDIT):
        parts.append(_el("circle", cx=x + 5 + k * 11, cy=y, r=4.2, fill="#b08d57" if k < left else "#ffffff",
                         stroke="#3a2a1c", stroke_width=1))
    return parts


def _bandit_block(record: np.void, bandit: int, viewer: int | None, x: float, y: float, w: float) -> tuple[str, float]:
    """One bandit in a seat panel: name and place, bullets, loot; returns the element and its height."""
    colour = _bandit_colour(record, bandit)
    level = "roof of" if record["bandit_level"][bandit] == ROOF else "inside"
    car = _place(int(record["bandit_car"][bandit]))
    parts = [_el("circle", cx=x + 7, cy=y - 4, r=6, fill=colour, stroke="#000", stroke_width=1),
             _text(x + 18, y, _fit(f"{_character(record, bandit)} \u00b7 {level} {car}", 11.5, w - 20, bold=True),
                   11.5, fill=INK, font_weight="bold")]
    left, received = int(record["bullets_left"][bandit]), int(record["bullets_received"][bandit])
    parts += _cylinder(x, y + 13, left)
    parts.append(_text(x + 70, y + 17, _fit(f"{left} left \u00b7 received {received}", 10, w - 72), 10, fill=INK))
    purses = [int(i) for i in np.flatnonzero(record["purse_location"] == PURSE_ON_BANDIT + bandit)]
    known = [i for i in purses if _value_known(record, i, viewer)]
    unknown = len(purses) - len(known)
    jewels, boxes, ransoms = (int(record["jewels_held"][bandit]), int(record["strongboxes_held"][bandit]),
                              int(record["ransoms"][bandit]))
    words = " ".join(f"#{i} {_money(int(record['purse_value'][i]))}" if i in known else f"#{i} ?" for i in purses)
    line = f"purses {len(purses)}" + (f": {words}" if purses else "")
    lines = [line]
    extra = f"jewels {jewels} \u00b7 strongboxes {boxes}"
    if ransoms:
        extra += f" \u00b7 ransom {_money(RANSOM_VALUE * ransoms)}"
    lines.append(extra)
    known_value = (sum(int(record["purse_value"][i]) for i in known) + JEWEL_VALUE * jewels
                   + STRONGBOX_VALUE * boxes + RANSOM_VALUE * ransoms)
    value = f"loot {_money(known_value)}" + (f" + {unknown} unknown purse{'s' if unknown > 1 else ''}"
                                             if unknown else "")
    lines.append(value)
    yy = y + 34
    rows = []
    for i, text_line in enumerate(lines):
        # purse lists may be long: wrap them over two lines at most
        if _text_width(text_line, 10) > w - 4 and i == 0:
            cut = text_line.rfind(" #", 0, int((w - 4) / (10 * 0.56)))
            if cut > 0:
                rows.append((text_line[:cut], False))
                text_line = "  " + text_line[cut + 1:]
        rows.append((text_line, i == 2))
    for text_line, bold in rows:
        parts.append(_text(x, yy, _fit(text_line, 10, w - 2, bold), 10, fill=INK,
                           font_weight="bold" if bold else None))
        yy += 13
    block = _group(parts, class_="bandit-card", data_bandit=bandit, data_bullets_left=left,
                   data_bullets_received=received, data_purses=len(purses), data_jewels=jewels,
                   data_strongboxes=boxes, data_ransoms=ransoms, data_known_value=known_value,
                   data_unknown_purses=unknown)
    return block, yy - y


def _chip(x: float, y: float, w: float, name: str, count: int, back: bool = False, **attributes) -> str:
    fill, ink = (CARD_BACK, "#f1d9a7") if back else (CARD_FACE, INK)
    parts = [_el("rect", x=x, y=y, width=w, height=17, rx=3, fill=fill, stroke="#9c7a2b", stroke_width=1)]
    tag = f"\u00d7{count}" if count > 1 else ""
    parts.append(_text(x + 4, y + 12.5, _fit(name, 9.5, w - 8 - _text_width(tag, 9.5)), 9.5, fill=ink))
    if tag:
        parts.append(_text(x + w - 4, y + 12.5, tag, 9.5, text_anchor="end", fill=ink, font_weight="bold"))
    return _group(parts, **attributes)


def _seat_panel(record: np.void, seat: int, viewer: int | None, x: float, y: float, w: float, h: float,
                results: tuple | None) -> str:
    colour = _seat_colour(record, seat)
    bps = _int(record, "bandits_per_seat")
    current = _int(record, "current") == seat and not record["done"]
    cards = _card_counts(record, seat, viewer)
    parts = [_el("rect", x=x, y=y, width=w, height=h, rx=8, fill=PAPER, stroke="#000" if current else "#8a7a5a",
                 stroke_width=3 if current else 1.2),
             _el("rect", x=x, y=y, width=w, height=26, rx=8, fill=colour, stroke="#000", stroke_width=0.8),
             _el("rect", x=x + 0.5, y=y + 16, width=w - 1, height=10, fill=colour)]
    title = ("\u25b6 " if current else "") + _agent(seat) + (" (you)" if seat == viewer else "")
    marks = "\u2605 first" if seat == _int(record, "first_player") else ""
    ink = _ink_on(colour)
    parts.append(_text(x + 8, y + 18, _fit(title, 13, w - 70, bold=True), 13, fill=ink, font_weight="bold"))
    if marks:
        parts.append(_text(x + w - 8, y + 18, marks, 11.5, fill=ink, text_anchor="end", font_weight="bold"))
    # bandits: stacked (3-6 players) or side by side (2 players, two bandits a seat)
    yy = y + 44
    columns = bps if w > 400 else 1
    col_w = (w - 16) / columns
    height = 0.0
    for k in range(bps):
        col, row = k % columns, k // columns
        block, bh = _bandit_block(record, seat * bps + k, viewer, x + 8 + col * col_w, yy + row * (height + 6),
                                  col_w - 8)
        parts.append(block)
        height = max(height, bh)
    yy += (height + 6) * ((bps + columns - 1) // columns) + 2
    # cards
    sizes = f"deck {cards['deck']}"
    if cards["deck_bullets"] is not None:
        sizes += f" ({cards['deck_bullets']} bullet)"
    if record["expert"]:
        sizes += f" \u00b7 discard {cards['discard']}"
        if cards["discard_bullets"] is not None:
            sizes += f" ({cards['discard_bullets']} bullet)"
        sizes += f" \u00b7 known bullets on top {int(record['known_bullets_on_top'][seat])}"
    parts.append(_el("line", x1=x + 8, y1=yy - 8, x2=x + w - 8, y2=yy - 8, stroke="#d8c9a6", stroke_width=1))
    parts.append(_text(x + 8, yy + 4, f"hand {cards['hand']}", 11, fill=INK, font_weight="bold"))
    parts.append(_text(x + 62, yy + 4, _fit(sizes, 10, w - 70), 10, fill=INK))
    yy += 12
    bottom = y + h - (30 if results is not None else 8)
    per_row = max(1, int((w - 12) // (104 if bps == 1 else 150)))
    chip_w = (w - 16 - (per_row - 1) * 4) / per_row
    chips = []
    if cards["hand_codes"] is not None:
        for code, count in enumerate(cards["hand_codes"]):
            if count:
                chips.append((_card_label(record, seat, code), count, False,
                              dict(class_="hand-card", data_seat=seat, data_card=code, data_count=count)))
        if cards["aside"] is not None:
            for code, count in enumerate(cards["aside"]):
                if count:
                    chips.append(("aside: " + _card_label(record, seat, code), count, False,
                                  dict(class_="aside-card", data_seat=seat, data_card=code, data_count=count)))
    elif cards["hand"]:  # a fan of backs: the count is all the viewer knows (§10.1)
        fan = []
        shown = min(cards["hand"], 12)
        for i in range(shown):
            fan.append(_el("rect", x=x + 10 + i * 7, y=yy, width=16, height=22, rx=2.5, fill=CARD_BACK,
                           stroke="#f1d9a7", stroke_width=1))
        fan.append(_text(x + 10 + (shown - 1) * 7 + 22, yy + 16, f"\u00d7{cards['hand']} hidden", 10.5, fill=INK,
                         font_weight="bold"))
        parts.append(_group(fan, class_="card-back", data_seat=seat, data_count=cards["hand"]))
    rows = max(1, int((bottom - yy) // 20))
    if len(chips) > rows * per_row:
        shown = chips[:rows * per_row - 1]
        hidden = sum(c[1] for c in chips[rows * per_row - 1:])
        chips = shown + [(f"+{hidden} more", 1, False, {})]
    for i, (name, count, back, attrs) in enumerate(chips):
        cx, cy = x + 8 + (i % per_row) * (chip_w + 4), yy + (i // per_row) * 20
        parts.append(_chip(cx, cy, chip_w, name, count, back, **attrs))
    if results is not None:
        scores, winners = results
        won = seat in winners
        bonus = scores[seat] - sum(int(loot_value(record, seat * bps + k)) for k in range(bps))
        score = f"score {_money(scores[seat])}" + (f" (Gunslinger +{_money(bonus)})" if bonus else "")
        score += "  \u2605 WINNER" if won else ""
        parts.append(_group([_el("rect", x=x + 6, y=y + h - 26, width=w - 12, height=20, rx=4,
                                 fill=HIGHLIGHT if won else "#e8dcc0"),
                             _text(x + w / 2, y + h - 11.5, score, 12, text_anchor="middle", font_weight="bold",
                                   fill=INK)], class_="score", data_seat=seat, data_score=scores[seat],
                            data_winner=int(won)))
    return _group(parts, class_="seat", data_seat=seat, data_hand=cards["hand"], data_deck=cards["deck"],
                  data_discard=cards["discard"], data_known_bullets=int(record["known_bullets_on_top"][seat]))


def _seats(record: np.void, viewer: int | None) -> str:
    n = _int(record, "num_players")
    gap = 8.0
    w = (WIDTH - 2 * MARGIN - gap * (n - 1)) / n
    results = _final_results(record) if record["done"] else None
    return _group([_seat_panel(record, s, viewer, MARGIN + s * (w + gap), SEATS_TOP, w, SEATS_BOTTOM - SEATS_TOP,
                               results) for s in range(n)], class_="seats")


# ---- legend -----------------------------------------------------------------------------------------------------
def _legend() -> str:
    y = LEGEND_TOP + 18
    parts = [_el("rect", x=MARGIN, y=LEGEND_TOP, width=WIDTH - 2 * MARGIN, height=HEIGHT - LEGEND_TOP - 6, rx=6,
                 fill="#e6dac0")]
    x = MARGIN + 12
    items = []
    items.append((_pawn(x + 9, y + 9, "#c62828", "Tu", 0.75), 18, "bandit (initials)"))
    items.append((_star(x + 10, y - 2, 11, fill=MARSHAL_FILL, stroke="#000"), 24, "marshal"))
    items.append((_group(_purse_icon(x + 8, y - 1)), 18, "purse (#id, $value or ?)"))
    items.append((_jewel_icon(x + 8, y - 2), 18, f"jewel {_money(JEWEL_VALUE)}"))
    items.append((_group(_box_icon(x + 10, y - 2)), 22, f"strongbox {_money(STRONGBOX_VALUE)}"))
    items.append((_group(_cylinder(x, y - 2, 4)), 68, "bullets left"))
    items.append((_el("rect", x=x, y=y - 10, width=22, height=16, rx=3, fill=CARD_FACE, stroke="#9c7a2b"), 26,
                   "card"))
    items.append((_el("rect", x=x, y=y - 10, width=22, height=16, rx=3, fill=CARD_BACK, stroke="#9c7a2b"), 26,
                   "card back"))
    items.append((_el("rect", x=x - 2, y=y - 12, width=26, height=20, rx=4, fill=HIGHLIGHT), 26, "resolving"))
    for mark, width, name in items:
        parts.append(f'<g transform="translate({_num(x - (MARGIN + 12))},0)">{mark}</g>')
        parts.append(_text(x + width + 4, y + 2, name, 11, fill=INK))
        x += width + 16 + _text_width(name, 11)
    turns = "turns: N normal \u00b7 T tunnel \u00b7 S speed-up \u00b7 R switching"
    parts.append(_text(x, y + 2, turns, 11, fill=INK))
    return _group(parts, class_="legend")


_LEGEND = _legend()


# ---- the document -----------------------------------------------------------------------------------------------
def draw(state: np.ndarray, seat: int | None = None) -> str:
    """The SVG document of one Colt Express record as ``seat`` may see it: every game's ``draw`` (``core.svg``)."""
    record, viewer = record_and_viewer(GAME_NAME, STATE_DTYPE, state, seat)
    title = (f"Colt Express, {_int(record, 'num_players')} players, round {_int(record, 'round') + 1}, "
             f"{PHASES[_phase(record)]} ({view_label(viewer)})")
    return document(WIDTH, HEIGHT, title, BACKGROUND, [
        _header(record, viewer), _train(record, viewer), _pile(record, viewer), _seats(record, viewer), _LEGEND])
