"""The text board of one Colt Express game (read-only).

``render_ansi(state)`` is the text board. The picture (``render_mode="rgb_array"``, the viewer, the README)
is the SVG drawing of ``svg.draw``, rasterized by ``core.raster``; it reads the colours and texts below.

It accepts one record (``states[b]``) or a batch of one (``states[b:b+1]``) and
never writes to it.
Action names (``action_to_string``) are in ``names``; the board uses its card,
character and place names.

Decisions taken where the brief or the spec is silent:

* **Public view.** The text board shows only what is public (§10.1) plus whose
  decision it is: never hand contents (sizes only), never the order of a draw
  deck, never a face-down pile card before it is revealed (``??``), never a
  future round card, never a purse value before the end of the game. During a
  seat's expert KEEP decision its hand and discard sizes are shown as they were
  before the decision (§4.4). Any player, a HumanAgent included, may see them.
  At the end the purse values on the character cards, the scores and the
  winners are shown (§10.1, G35).
* **Train orientation.** The locomotive is drawn at the RIGHT end, like the box
  art; the last car (the caboose) is at the left. Each car is labelled with its
  index and carriage type, and has a ``roof`` row and an ``inside`` row.
* **Loot on the train** is shown as counts: ``P3`` purses, ``J1`` jewels,
  ``S1`` strongboxes; purse ids held by bandits are listed (``#0 #7``), since
  actions name purse tokens by id (§10.3).
* **Revealed pile cards.** A face-down card is revealed when it becomes the card
  being resolved (G22): during Stealin' every card up to ``resolving`` shows its
  face; cards before it are marked ``done``, the one being resolved ``>...<``.
* **Agent names** ``player_i`` are used for seat ``i`` (the PettingZoo names);
  in the seat list ``*`` marks the first player and ``>`` the seat to decide.
* **Title.** An event card is named after its event, so the title shows the
  card name and its turn icons (the current PLAN turn in brackets, ``N [T] S``);
  Tunnel and Bridge read ``(no event)``. Only the current round card is shown.
* **End.** Scores and winners come from the rules' own scoring (``scoring``,
  §9: best score, then fewest bullet cards received); a game that reached its
  turn cap unfinished reads ``truncated``.
"""

from __future__ import annotations

import numpy as np

from ..core.checks import one_record
from .data import (DEC_BULLETS, DEC_FIRE_TARGET, DEC_KEEP, DEC_MARSHAL_DEST, DEC_MOVE_DEST,
                   DEC_PICKPOCKET, DEC_PLAN, DEC_PUNCH_DEST, DEC_PUNCH_LOOT, DEC_PUNCH_TARGET, DEC_ROB_LOOT, EV_NONE,
                   IN, MAX_PLAYERS, N_LEVELS, RANSOM_VALUE, ROOF, ROUND_CARD_EVENT, ROUND_CARD_NAMES,
                   ROUND_CARD_TURNS, TURN_CODES, TURN_NONE, TURN_SPEEDUP, TURN_SWITCH, TURN_TUNNEL, PURSE_ON_BANDIT)
from .names import _card_label, _character, _int, _place
from .scoring import score_seats, tiebreak_seats
from .state import NOBODY

CHARACTER_COLOURS = ("#f4f4f4", "#2e8b3a", "#111111", "#c62828", "#1e5bd8", "#7b2fa8")  # §2.3
TURN_NAMES = ("none", "normal", "tunnel", "speed-up", "switching")  # §2.7
EMPTY_CELL = "."
PILE_PER_TEXT_LINE = 6  # pile cards per line of the text board


# ---- reading a record --------------------------------------------------------------

def _agent(seat: int) -> str:
    """The agent name of a seat."""
    return f"player_{seat}"


# ---- public quantities ------------------------------------------------------------------

def _location_purses(record: np.void, car: int, level: int) -> int:
    """Number of purse tokens lying at (car, level) (§10.1)."""
    return int(np.count_nonzero(record["purse_location"] == car * N_LEVELS + level))


def _held_purses(record: np.void, bandit: int) -> list[int]:
    """Ids of the purse tokens on a bandit's character card (§10.3)."""
    return [int(i) for i in np.flatnonzero(record["purse_location"] == PURSE_ON_BANDIT + bandit)]


def _public_sizes(record: np.void, seat: int) -> tuple[int, int, int]:
    """Hand, draw deck and discard sizes of ``seat`` as the other seats see them (§10.1, §4.4).

    During the seat's own KEEP decision the cards already set aside still count
    as in hand, and not yet as discarded.
    """
    hand = int(record["hand"][seat].sum())
    discard = int(record["discard"][seat].sum())
    if _int(record, "decision") == DEC_KEEP and _int(record, "current") == seat:
        hand += int(record["keep_aside"].sum())
    return hand, int(record["deck_size"][seat]), discard


def _is_revealed(record: np.void, index: int) -> bool:
    """Whether pile card ``index`` shows its face to everybody (§4.5 step 2, G22)."""
    if not record["pile_down"][index]:
        return True
    resolving = _int(record, "resolving")
    return resolving != NOBODY and index <= resolving


def _round_card(record: np.void) -> int:
    """Id of the current (revealed) round card, or NOBODY before the first reveal."""
    r = _int(record, "round")
    card = int(record["round_deck"][r]) if 0 <= r < len(record["round_deck"]) else NOBODY
    return card if 0 <= card < len(ROUND_CARD_NAMES) else NOBODY


def _pattern_text(record: np.void, card: int) -> str:
    """The turn icons of ``card``, the current PLAN turn in brackets: ``N [T] S``."""
    marked = _int(record, "turn") if _int(record, "decision") == DEC_PLAN else NOBODY
    icons = []
    for t, icon in enumerate(ROUND_CARD_TURNS[card]):
        if icon != TURN_NONE:
            icons.append(f"[{TURN_CODES[icon]}]" if t == marked else TURN_CODES[icon])
    return " ".join(icons)


def _final_results(record: np.void) -> tuple[list[int], list[int]]:
    """Scores per seat (the rules' §9 scoring) and the winning seats: best score, then best tie-break."""
    n = _int(record, "num_players")
    scores, ties = np.zeros(MAX_PLAYERS, np.int32), np.zeros(MAX_PLAYERS, np.int32)
    score_seats(record, scores)
    tiebreak_seats(record, ties)
    keys = [(int(scores[s]), int(ties[s])) for s in range(n)]
    return [key[0] for key in keys], [s for s in range(n) if keys[s] == max(keys)]


# ---- the text board --------------------------------------------------------------------

def _title_lines(record: np.void) -> list[str]:
    """Game, round, round card with its turns and event, first player (§4.1, §2.6)."""
    n, r = _int(record, "num_players"), _int(record, "round")
    rules = "expert rules" if record["expert"] else "standard rules"
    head = f"Colt Express, {n} players, {rules} - round {r + 1}/5"
    card = _round_card(record)
    if card != NOBODY:  # an event card is named after its event (§2.6)
        no_event = " (no event)" if ROUND_CARD_EVENT[card] == EV_NONE else ""
        head += f": {ROUND_CARD_NAMES[card]}{no_event}  {_pattern_text(record, card)}"
    return [head, f"first player: {_agent(_int(record, 'first_player'))}"]


def _cell(record: np.void, car: int, level: int) -> str:
    """Bandits, marshal and loot at one location: ``Tuco Marshal P3 J1 S1`` or ``.``."""
    words = [_character(record, b) for b in range(_int(record, "n_bandits"))
             if record["bandit_car"][b] == car and record["bandit_level"][b] == level]
    if level == IN and _int(record, "marshal_car") == car:
        words.append("Marshal")
    loc = car * N_LEVELS + level
    for letter, count in (("P", _location_purses(record, car, level)),
                          ("J", int(record["floor_jewels"][loc])), ("S", int(record["floor_strongboxes"][loc]))):
        if count:
            words.append(f"{letter}{count}")
    return " ".join(words) or EMPTY_CELL


def _train_lines(record: np.void) -> list[str]:
    """The train, last car at the left, locomotive at the right, a roof and an inside row (§0.2)."""
    cars = list(range(_int(record, "n_carriages"), -1, -1))
    headers = [_place(c) if c == 0 else f"car {c} (type {int(record['car_type'][c])})" for c in cars]
    rows = {"roof": [_cell(record, c, ROOF) for c in cars], "inside": [_cell(record, c, IN) for c in cars]}
    widths = [max(len(headers[i]), len(rows["roof"][i]), len(rows["inside"][i])) for i in range(len(cars))]
    lines = ["          " + "   ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip()]
    for label, cells in rows.items():
        lines.append(f"  {label:<8}" + "   ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
    return lines


def _loot_text(record: np.void, bandit: int, reveal: bool) -> str:
    """Loot on a bandit's card: purse ids (with values at the end), jewels, strongboxes, ransom."""
    purses = _held_purses(record, bandit)
    ids = " ".join(f"#{i} ${int(record['purse_value'][i])}" if reveal else f"#{i}" for i in purses)
    text = f"purses {len(purses)}" + (f" ({ids})" if purses else "")
    text += f", jewels {int(record['jewels_held'][bandit])}, strongboxes {int(record['strongboxes_held'][bandit])}"
    ransoms = int(record["ransoms"][bandit])
    return text + (f", ransom ${RANSOM_VALUE * ransoms}" if ransoms else "")


def _bandit_line(record: np.void, bandit: int, reveal: bool) -> str:
    """One bandit: location, bullets left and received, loot (§10.1)."""
    level = "roof" if record["bandit_level"][bandit] == ROOF else "inside"
    where = f"{level} {_place(int(record['bandit_car'][bandit]))}"
    return (f"    {_character(record, bandit):<9}{where:<18}bullets {int(record['bullets_left'][bandit])} left, "
            f"{int(record['bullets_received'][bandit])} received; {_loot_text(record, bandit, reveal)}")


def _seat_marks(record: np.void, seat: int) -> str:
    """``*`` for the first player, ``>`` for the seat to decide."""
    first = "*" if seat == _int(record, "first_player") else " "
    return first + (">" if seat == _int(record, "current") else " ")


def _seat_lines(record: np.void) -> list[str]:
    """Per seat: agent, markers, public card counts, then its bandit(s) (§10.1)."""
    lines, bps = ["seats (* first player, > to decide):"], _int(record, "bandits_per_seat")
    reveal = bool(record["done"])
    for seat in range(_int(record, "num_players")):
        hand, deck, discard = _public_sizes(record, seat)
        text = f"{_agent(seat)} {_seat_marks(record, seat)} hand {hand}, deck {deck}"
        if record["expert"]:
            text += f", discard {discard}, known bullets on deck top {int(record['known_bullets_on_top'][seat])}"
        lines.append(text)
        lines.extend(_bandit_line(record, seat * bps + k, reveal) for k in range(bps))
    return lines


def _pile_entry(record: np.void, index: int) -> str:
    """One pile card: ``3 player_1 Fire``, ``??`` while face down, ``(down)`` once revealed, and its mark."""
    owner = int(record["pile_owner"][index])
    face = _card_label(record, owner, int(record["pile_card"][index])) if _is_revealed(record, index) else "??"
    if record["pile_down"][index] and face != "??":
        face += " (down)"
    text = f"{index + 1} {_agent(owner)} {face}"
    resolving = _int(record, "resolving")
    if resolving != NOBODY and index < resolving:
        return text + " done"
    return f">{text}<" if index == resolving else text


def _pile_rows(record: np.void, per_line: int) -> list[str]:
    """The pile in play order, first card played first, ``per_line`` cards a line (§4.3, §4.5)."""
    entries = [_pile_entry(record, i) for i in range(_int(record, "pile_size"))]
    if not entries:
        return ["pile: empty"]
    rows = [" | ".join(entries[i:i + per_line]) for i in range(0, len(entries), per_line)]
    return ["pile: " + rows[0]] + ["      " + row for row in rows[1:]]


def _supply_line(record: np.void) -> str:
    """Neutral bullets and the second strongbox (§2.5, §8.4)."""
    supply = "removed" if record["supply_removed"] else str(int(record["neutral_supply"]))
    box = "placed" if record["second_strongbox_placed"] else "beside the train"
    return f"neutral bullets: {supply}; second strongbox: {box}; marshal: {_place(_int(record, 'marshal_car'))}"


def _plan_text(record: np.void) -> str:
    """The PLAN decision: which turn and play it is (§4.3)."""
    card, turn = _round_card(record), _int(record, "turn")
    icon = int(ROUND_CARD_TURNS[card][turn]) if card != NOBODY else TURN_NONE
    text = f"play a card or draw (turn {turn + 1}, {TURN_NAMES[icon]}"
    if icon == TURN_SPEEDUP:
        text += f", play {_int(record, 'play_in_turn') + 1} of 2"
    if icon == TURN_TUNNEL:
        text += ", face down"
    elif icon == TURN_SWITCH:
        text += ", counter-clockwise"
    return text + ")"


def _decision_text(record: np.void) -> str:
    """What the pending decision asks, in words (§11.3)."""
    decision = _int(record, "decision")
    actor = _character(record, _int(record, "acting_bandit"))
    victim = _character(record, _int(record, "victim"))
    texts = {
        DEC_PLAN: lambda: _plan_text(record),
        DEC_BULLETS: lambda: "discard or keep the bullet cards in hand",
        DEC_KEEP: lambda: "choose the action cards to keep for the next round",
        DEC_MOVE_DEST: lambda: f"where {actor} moves (Move)",
        DEC_FIRE_TARGET: lambda: f"whom {actor} shoots (Fire)",
        DEC_ROB_LOOT: lambda: f"which loot {actor} takes (Rob)",
        DEC_PUNCH_TARGET: lambda: f"whom {actor} punches (Punch)",
        DEC_PUNCH_LOOT: lambda: f"which loot {victim} loses to {actor}'s punch",
        DEC_PUNCH_DEST: lambda: f"where {actor} knocks {victim} (Punch)",
        DEC_MARSHAL_DEST: lambda: f"where the marshal goes ({actor}'s Marshal card)",
        DEC_PICKPOCKET: lambda: f"which purse {actor} picks (Pickpocketing)",
    }
    return texts[decision]() if decision in texts else "none"


def _end_lines(record: np.void) -> list[str]:
    """The pending decision, or the final scores and winners (§9)."""
    if not record["done"]:
        if _int(record, "n_decisions") >= _int(record, "max_decisions"):
            return [f"truncated: the turn cap of {_int(record, 'max_decisions')} decisions was reached"]
        return [f"decision: {_agent(_int(record, 'current'))} - {_decision_text(record)}"]
    scores, winners = _final_results(record)
    results = [f"{_agent(s)} ${score}" + (" WINNER" if s in winners else "") for s, score in enumerate(scores)]
    return ["game over - final scores: " + " | ".join(results)]


def render_ansi(state: np.ndarray) -> str:
    """A text board of the public view of ``state`` and whose decision it is.

    Shows the round card and turn, the train (locomotive at the right), each
    seat's public counts and bandits, the pile, the neutral supply and the
    pending decision; at the end the scores and winners. Never hidden values or
    hand contents, so it is safe to show to any player. Deterministic.
    """
    record = one_record(state)
    lines = _title_lines(record) + [""] + _train_lines(record) + [""] + _seat_lines(record)
    lines += [""] + _pile_rows(record, PILE_PER_TEXT_LINE) + [_supply_line(record), ""] + _end_lines(record)
    return "\n".join(lines) + "\n"
