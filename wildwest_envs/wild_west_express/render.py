"""The text board of one Wild West Express game (read-only).

``render_ansi(state)`` is a text board of the public view. The picture (``render_mode="rgb_array"``, the
viewer, the README) is the SVG drawing of ``svg.draw``, rasterized by ``core.raster``; it reads the colours,
map limits and texts below.

It accepts one record (``states[b]``) or a batch of one (``states[b:b+1]``)
and never writes to it.
Action names (``action_to_string``) are in ``names``.

Decisions taken where the brief or the spec is silent:

* **Public view only** (§16.1). The text board shows every piece, cash, VP,
  cargo, the dice, competitions, the deck size and never-drawn count, and for
  each player the NUMBER of held personal cards and how many are bound to
  each train, never their ids; the card just drawn at TELEGRAM_DRAWN is not
  named. Nothing of the deck order, the generator or the scripted-chance queue
  is read. Any player may therefore see them.
* **Space names.** A city or junction is named by its JSON name
  (``Denver``, ``Spokane Junction``), a track space by its id (``145``). The
  text board adds the route and position of a track space:
  ``145 (Salt Lake City - Cheyenne 5/10)``.
* **Agent names** ``player_i`` are used for seat ``i``. In the seat list ``*``
  marks the start player and ``>`` the seat to decide.
"""

from __future__ import annotations


import numpy as np

from ..core.checks import one_record
from .data import (BOARD, CAP_SCORING_DRAW, CARD_BONUS, CARD_CITY, CARD_NAMES, CARGO_EMPTY, CITY_KEYS, CITY_NAMES,
                   DEC_ARRIVAL, DEC_CARD_CITY, DEC_CARD_DESPERADO, DEC_CARD_DYNAMITE_PLACE, DEC_CARD_DYNAMITE_REMOVE,
                   DEC_CARD_HIDEOUT_CITY, DEC_CARD_TRAIN, DEC_DESPERADO_STEP, DEC_DRAFT_CITY, DEC_PLACE_DESPERADO,
                   DEC_PRE_ROLL, DEC_REHIRE_TARGET, DEC_SELECT_TRAIN, DEC_SHERIFF_PIECE, DEC_SHERIFF_SPACE,
                   DEC_TELEGRAM_DRAWN, DEC_TRAIN_STEP, FREE, GOOD_NAMES, MAX_DESPERADOS, MAX_PLAYERS, MAX_TRAINS,
                   NO_CARD, NO_SPACE, N_CITIES, N_DICE, N_SHERIFFS, N_SPACES, PASSENGER_BASE, PHASE_NAMES, ROUTE_SPACES,
                   SPACE_ROUTE, ZONE_NAMES)
from .names import _int, _label
from .scoring import score_seats

MAP_X_LIMITS = (25.0, 640.0)  # board units (§3.1 coordinates)
MAP_Y_LIMITS = (430.0, 15.0)  # y grows downwards on the board
PLAYER_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#ff9f1c", "#8e44ad")  # seats 0..4
BACKGROUND = "#f3ead7"
ROUTE_COLOUR = "#8b7765"
CITIES_PER_TEXT_LINE = 7

DECISION_TEXTS = {  # what the pending decision asks (§17.2); placeholders filled from the record
    DEC_DRAFT_CITY: "draft a start city",
    DEC_PLACE_DESPERADO: "place a desperado in a start city",
    DEC_PRE_ROLL: "pre-roll actions (buy, load, dynamite, cards), then roll",
    DEC_SELECT_TRAIN: "choose the next train to move",
    DEC_TRAIN_STEP: "move train {train} ({steps} steps left{first})",
    DEC_ARRIVAL: "train {train} arrived in {landing}: sell goods or drop passengers, then done",
    DEC_SHERIFF_PIECE: "choose the sheriff to move, or decline",
    DEC_SHERIFF_SPACE: "place sheriff {sheriff}, or decline",
    DEC_TELEGRAM_DRAWN: "a personal telegram was drawn by train {train}: play it now or keep it",
    DEC_CARD_TRAIN: "Armed Guards: choose a train",
    DEC_CARD_DYNAMITE_PLACE: "Crate of Dynamite: place a free token ({left} left), or stop",
    DEC_CARD_DYNAMITE_REMOVE: "Track Crew: remove a token ({left} left), or stop",
    DEC_CARD_CITY: "Land Grant: choose an unowned city",
    DEC_CARD_DESPERADO: "Hideout: choose a desperado",
    DEC_CARD_HIDEOUT_CITY: "Hideout: choose a station for desperado {desperado}",
    DEC_DESPERADO_STEP: "move desperado {desperado} ({steps} steps left{first})",
    DEC_REHIRE_TARGET: "rehire desperado {desperado}: choose a station",
}


# ---- reading a record --------------------------------------------------------------------------------

def _agent(seat: int) -> str:
    """The agent name of a seat."""
    return f"player_{seat}"


def _route_position(space: int) -> str:
    """``Salt Lake City - Cheyenne 5/10``: the route of a track space and its place on it (§3.5)."""
    route = int(SPACE_ROUTE[space])
    if route < 0:
        return ""
    spaces = [int(s) for s in ROUTE_SPACES[route] if s >= 0]
    return f"{BOARD['routes'][route]['name']} {spaces.index(space)}/{len(spaces) - 2}"


def _where(space: int) -> str:
    """A space for the text board: its name, or its id with its route position."""
    if space == NO_SPACE:
        return "off the board"
    if SPACE_ROUTE[space] < 0:
        return _label(space)
    return f"{space} ({_route_position(space)})"


def _cargo_name(code: int) -> str:
    """``Gold``, ``passengers (Pacific)`` or ``empty`` (§4.1, §4.4)."""
    if code == CARGO_EMPTY:
        return "empty"
    if code >= PASSENGER_BASE:
        return f"passengers ({ZONE_NAMES[code - PASSENGER_BASE]})"
    return GOOD_NAMES[code]


# ---- public quantities ------------------------------------------------------------------------------------

def _victory_points(record: np.void) -> list[int]:
    """VP per seat by the rules' own scoring (§14.1)."""
    out = np.zeros(MAX_PLAYERS, np.int32)
    score_seats(record, out)
    return [int(v) for v in out[:_int(record, "num_players")]]


def _winners(record: np.void) -> list[int]:
    """Seats sharing the win of a finished game: most VP, then most cash; nobody in a capped draw (§14.3, §14.4)."""
    if record["capped"] and _int(record, "cap_scoring") == CAP_SCORING_DRAW:
        return []
    keys = [(vp, int(record["cash"][s])) for s, vp in enumerate(_victory_points(record))]
    return [s for s, key in enumerate(keys) if key == max(keys)]


def _held_cards(record: np.void, seat: int, train: int = -1) -> int:
    """Personal cards the seat holds (bound to ``train`` if given): a public count (§16.1)."""
    held = record["card_holder"] == seat
    if train >= 0:
        held &= record["card_bound"] == train
    return int(np.count_nonzero(held))


def _stations(record: np.void, seat: int) -> list[int]:
    """Cities whose station the seat owns."""
    return [c for c in range(N_CITIES) if record["city_owner"][c] == seat]


# ---- the text board ------------------------------------------------------------------------------------------

def _title_lines(record: np.void) -> list[str]:
    """Game, options, round, phase; start player and dice (§6, §16.1)."""
    n, phase = _int(record, "num_players"), _int(record, "phase")
    head = (f"Wild West Express, {n} players, target {_int(record, 'victory_target')} VP - "
            f"round {_int(record, 'round')}/{_int(record, 'max_rounds')}, turn {_int(record, 'turn')}")
    if 0 <= phase < len(PHASE_NAMES):
        head += f" ({PHASE_NAMES[phase]})"
    dice = [int(d) for d in record["dice"][:N_DICE]]
    if any(dice):
        a, b, c = dice
        roll = f"dice: {a} {b} {c} (small train {a + b}, large train {a + b + c}, desperado {a})"
    else:
        roll = "dice: not rolled"
    start = _int(record, "start_player")
    return [head, f"start player: {_agent(start) if start >= 0 else '-'}   {roll}"]


def _train_line(record: np.void, seat: int, t: int) -> str:
    """One train: size, place, direction, cargo and its public marks (§16.1)."""
    large = bool(record["train_large"][seat, t])
    x, came_from = int(record["train_pos"][seat, t]), int(record["train_from"][seat, t])
    direction = "free direction" if came_from == FREE else f"from {_label(came_from)}"
    slots = 2 if large else 1
    cargo = ", ".join(_cargo_name(int(record["train_cargo"][seat, t, j])) for j in range(slots))
    marks = _train_marks(record, seat, t)
    bound = _held_cards(record, seat, t)
    if bound:
        marks.append(f"{bound} card{'s' if bound > 1 else ''} bound")
    text = f"    train {t} {'large' if large else 'small'} at {_where(x)}, {direction}: {cargo}"
    return text + (f" [{', '.join(marks)}]" if marks else "")


def _train_marks(record: np.void, seat: int, t: int, debt: str = "debt ${amount} to {creditor}",
                 armed: str = "armed guards") -> list[str]:
    """A train's public marks in words (§16.1): moved, its wait, its debt (``debt`` formatted with its ``amount``
    and ``creditor``) and ``armed`` for Armed Guards."""
    marks = []
    if record["train_moved"][seat, t]:
        marks.append("moved")
    if record["train_wait"][seat, t]:
        marks.append(f"wait {int(record['train_wait'][seat, t])}")
    if record["train_debt"][seat, t]:
        creditor = _agent(int(record["train_creditor"][seat, t]))
        marks.append(debt.format(amount=int(record["train_debt"][seat, t]), creditor=creditor))
    if record["train_armed"][seat, t]:
        marks.append(armed)
    return marks


def _seat_marks(record: np.void, seat: int) -> str:
    """``*`` for the start player, ``>`` for the seat to decide."""
    first = "*" if seat == _int(record, "start_player") else " "
    return first + (">" if seat == _int(record, "current") else " ")


def _seat_lines(record: np.void) -> list[str]:
    """Per seat: cash, VP, stations, held card count, dynamite bought; then its trains and desperados."""
    lines = ["players (* start player, > to decide):"]
    vps = _victory_points(record)
    for seat in range(_int(record, "num_players")):
        stations = ", ".join(CITY_NAMES[c] for c in _stations(record, seat)) or "none"
        lines.append(f"{_agent(seat)} {_seat_marks(record, seat)} ${int(record['cash'][seat])}, {vps[seat]} VP, "
                     f"personal cards {_held_cards(record, seat)}, dynamite bought "
                     f"{int(record['dynamite_bought'][seat])}; stations: {stations}")
        lines.extend(_train_line(record, seat, t) for t in range(MAX_TRAINS) if record["train_exists"][seat, t])
        for k in range(MAX_DESPERADOS):
            if record["desp_pos"][seat, k] != NO_SPACE:
                lines.append(f"    desperado {k} at {_where(int(record['desp_pos'][seat, k]))}")
    return lines


def _competition_text(record: np.void, slot: int) -> str:
    """A competition slot: its card, target and bonus, and its countdown (§13.4)."""
    card = int(record["comp_card"][slot])
    if card == NO_CARD:
        return f"{slot}: empty"
    what = CARD_NAMES[card]  # the JSON name says the good and city of a contract or race
    if CARD_CITY[card] >= 0 and CITY_NAMES[int(CARD_CITY[card])] not in what:
        what += f" {CITY_NAMES[int(CARD_CITY[card])]}"
    when = f"{int(record['comp_countdown'][slot])} turns left" if record["expiry_rounds"] else "no expiry"
    return f"{slot}: {what} ${int(CARD_BONUS[card])} ({when})"


def _board_lines(record: np.void) -> list[str]:
    """Dynamite, sheriffs, competitions, the deck's public counts and the station owners (§16.1)."""
    dynamite = [_label(x) for x in range(N_SPACES) if record["dynamite"][x]]
    sheriffs = [f"{k} off the board" if record["sheriff_pos"][k] == NO_SPACE
                else f"{k} at {_where(int(record['sheriff_pos'][k]))}" for k in range(N_SHERIFFS)]
    lines = [f"dynamite (supply {_int(record, 'dynamite_supply')}): {', '.join(dynamite) or 'none'}",
             f"sheriffs: {'; '.join(sheriffs)}",
             "competitions: " + " | ".join(_competition_text(record, i) for i in range(len(record["comp_card"]))),
             f"telegram deck: {_int(record, 'deck_size')} cards, {_int(record, 'never_drawn')} never drawn"]
    owners = [f"{CITY_KEYS[c]} {'-' if record['city_owner'][c] < 0 else 'p' + str(int(record['city_owner'][c]))}"
              for c in range(N_CITIES)]
    rows = [", ".join(owners[i:i + CITIES_PER_TEXT_LINE]) for i in range(0, N_CITIES, CITIES_PER_TEXT_LINE)]
    return lines + ["cities: " + rows[0]] + ["        " + row for row in rows[1:]]


def _decision_text(record: np.void) -> str:
    """What the pending decision asks, in words, without any hidden card (§17.2)."""
    decision = _int(record, "decision")
    if decision not in DECISION_TEXTS:
        return "none"
    in_desperado_move = decision in (DEC_DESPERADO_STEP, DEC_REHIRE_TARGET)
    steps = _int(record, "desp_steps") if in_desperado_move else _int(record, "move_steps")
    first = record["desp_from"] == NO_SPACE if in_desperado_move else bool(record["move_first"])
    desperado = _int(record, "desp_index") if in_desperado_move else _int(record, "sel_desperado")
    return DECISION_TEXTS[decision].format(
        train=_int(record, "move_train"), steps=steps, first=", first step" if first else "",
        landing=_label(_int(record, "landing_space")), sheriff=_int(record, "sel_sheriff"),
        left=_int(record, "card_left"), desperado=desperado)


def _end_lines(record: np.void) -> list[str]:
    """The pending decision, or the final VP, cash and winners (§14.3, §14.4)."""
    if not record["done"]:
        if _int(record, "n_decisions") >= _int(record, "max_decisions"):
            return [f"truncated: the cap of {_int(record, 'max_decisions')} decisions was reached"]
        return [f"decision: {_agent(_int(record, 'current'))} - {_decision_text(record)}"]
    winners = _winners(record)
    results = [f"{_agent(s)} {vp} VP ${int(record['cash'][s])}" + (" WINNER" if s in winners else "")
               for s, vp in enumerate(_victory_points(record))]
    how = " (turn cap)" if record["capped"] else ""
    return [f"game over{how} - final: " + " | ".join(results)]


def render_ansi(state: np.ndarray) -> str:
    """A text board of the public view of ``state`` and whose decision it is.

    Shows the round, dice, each player's cash, VP, stations, held card count,
    trains (place, direction, cargo, marks) and desperados, then dynamite,
    sheriffs, competitions, the deck's counts, the station owners and the
    pending decision; at the end the final VP and winners. Never a held or
    drawn card's identity or the deck order, so it is safe to show to any
    player. Deterministic.
    """
    record = one_record(state)
    lines = _title_lines(record) + [""] + _seat_lines(record) + [""] + _board_lines(record)
    return "\n".join(lines + [""] + _end_lines(record)) + "\n"
