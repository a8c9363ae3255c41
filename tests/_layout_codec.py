"""What the games' observation-decode tests share: the one-hot parts of a layout, the inverse of ``decode``
and the checks made of every game's decoded observations (values, batches, one-hots, re-encoding, a control)."""

from __future__ import annotations

import numpy as np

from wildwest_envs.core.layout import Layout, Part, count


def parts_of(entry) -> tuple:
    """The parts of one layout field, as a tuple (a field of one part holds it bare)."""
    return entry.parts if isinstance(entry.parts, tuple) else (entry.parts,)


def onehot_parts(layout: Layout):
    """``(field name, part)`` of every one-hot part of ``layout``, in layout order."""
    for name, entry in layout.fields.items():
        for part in parts_of(entry):
            if part.kind == "onehot":
                yield name, part


def encode_part(part: Part, value) -> np.ndarray:
    """The floats ``part`` stores for its decoded ``value`` (last axis: the part's width)."""
    value = np.asarray(value)
    if part.kind == "onehot":
        return (np.arange(part.width) + part.first == value[..., None]).astype(np.float32)
    if part.kind == "flag":
        floats = value.astype(np.float32)
    else:
        floats = (value.astype(np.float64) / part.scale).astype(np.float32)
    return floats if part.width > 1 else floats[..., None]


def encode(layout: Layout, decoded: dict, batch: int) -> np.ndarray:
    """The flat observations ``decoded`` describes (the inverse of ``decode``, for these tests)."""
    pieces = []
    for name, entry in layout.fields.items():
        value = decoded[name]
        if isinstance(entry.parts, tuple):
            floats = np.concatenate([encode_part(p, value[p.name]) for p in entry.parts], axis=-1)
        elif entry.parts.kind == "onehot":
            floats = encode_part(entry.parts, value)
        else:
            floats = encode_part(entry.parts, value)[..., 0]
        pieces.append(floats.reshape(batch, -1))
    return np.concatenate(pieces, axis=1)


def by_part(rows: list[dict], parts=None) -> dict:
    """The expected value of a field of rows: each part's values in row order (the parts of ``parts``, by default
    those of the first row)."""
    return {part: [row[part] for row in rows] for part in (rows[0] if parts is None else parts)}


def per_seat_offset(o: int, n: int, row_of, absent: dict, max_players: int) -> dict:
    """The expected value of a field of one row per seat offset, seen by seat o of n: row r is ``row_of(seat)`` of
    the seat r places after o, ``absent`` past the players (up to ``max_players`` rows), by part."""
    return by_part([row_of((o + r) % n) if r < n else absent for r in range(max_players)], absent)


def seen_by(records: np.ndarray, seat: int) -> tuple[np.ndarray, int]:
    """The records with a seat ``seat``, and ``seat`` (the arguments of ``GAME.observe``)."""
    return records[records["num_players"] > seat], seat


def exactly_equal(got, want) -> bool:
    """``got`` and ``want`` are equal arrays (or values)."""
    return np.array_equal(np.asarray(got), np.asarray(want))


def equal_to_float32(got, want) -> bool:
    """Equal, but for real expected values, which need only agree to float32 rounding (how they are stored)."""
    got, want = np.asarray(got), np.asarray(want)
    if want.dtype.kind == "f":
        return got.shape == want.shape and np.allclose(got, want, rtol=1e-6, atol=1e-7)
    return np.array_equal(got, want)


def mismatches(decoded: dict, expected: dict, same=exactly_equal, by_position: tuple = ()) -> list[str]:
    """The fields (``field`` or ``field.part``) whose decoded value differs from the expected one, by ``same``;
    a field named in ``by_position`` (a large array) is reported by the first positions that differ."""
    bad = []
    for name, want in expected.items():
        got = decoded[name]
        if isinstance(want, dict):
            bad += [f"{name}.{part}: {got[part]!r} != {value!r}" for part, value in want.items()
                    if not same(got[part], value)]
        elif name in by_position and not same(got, want):
            bad.append(f"{name}: {np.argwhere(np.asarray(got) != np.asarray(want))[:3].tolist()!r} != ...")
        elif not same(got, want):
            bad.append(f"{name}: {got!r} != {want!r}")
    return bad


def check_every_seat(game, records: np.ndarray, expected_of, same=exactly_equal, by_position: tuple = ()) -> int:
    """Asserts that every seat's decoded observation of every record is ``expected_of(b, record, seat)``
    (``b``: the record's index); returns how many observations were checked."""
    checked = 0
    for b, s in enumerate(records):
        n = int(s["num_players"])
        obs = game.observe(np.repeat(records[b:b + 1], n), np.arange(n))
        for o in range(n):
            bad = mismatches(game.obs_layout.decode(obs[o]), expected_of(b, s, o), same, by_position)
            assert not bad, f"record {b}, seat {o}: {bad[:5]}"
            checked += 1
    return checked


def _value_at(decoded: dict, path: tuple):
    """The decoded value at ``path`` (a field name, then a part name)."""
    for key in path:
        decoded = decoded[key]
    return decoded


def assert_batch_decodes_row_by_row(layout: Layout, obs: np.ndarray, paths: list[tuple]) -> None:
    """``decode`` of the batch ``obs`` (20 rows at least) gives, at rows 0, 7 and 19 and at each of ``paths``
    (``(field,)`` or ``(field, part)``), what decoding that row alone gives."""
    batch = layout.decode(obs)
    for i in (0, 7, 19):
        one = layout.decode(obs[i])
        for path in paths:
            assert np.array_equal(_value_at(batch, path)[i], _value_at(one, path)), (i, path)


def onehots_in_range(layout: Layout, observations) -> tuple[set, set]:
    """Asserts that every one-hot part of each batch of ``observations`` decodes to -1 or an index among its
    values; returns the names (``field.part``) of the one-hot parts and of those that took a value somewhere."""
    names, seen = set(), set()
    for obs in observations:
        decoded = layout.decode(obs)
        for name, part in onehot_parts(layout):
            value = np.asarray(decoded[name][part.name] if isinstance(decoded[name], dict) else decoded[name])
            inside = (value >= part.first) & (value < part.first + part.width)
            assert (inside | (value == -1)).all(), (name, part.name)
            names.add(f"{name}.{part.name}")
            if (value >= 0).any():
                seen.add(f"{name}.{part.name}")
    return names, seen


def assert_reencodes(layout: Layout, obs: np.ndarray, loose: np.ndarray | None = None) -> None:
    """``encode(decode(obs)) == obs`` bit for bit, but for the floats ``loose`` marks, which need only agree to
    float32 rounding; an empty batch passes."""
    if not len(obs):
        return
    again = encode(layout, layout.decode(obs), len(obs))
    exact = np.ones(layout.size, dtype=bool) if loose is None else ~loose
    assert again[:, exact].tobytes() == obs[:, exact].tobytes(), np.argwhere(again != obs)[:5]
    if loose is not None:
        assert np.allclose(again[:, loose], obs[:, loose], rtol=1e-6, atol=1e-6)


def with_part_rescaled(layout: Layout, field: str, part_name: str, scale: float) -> Layout:
    """``layout`` with the count part ``part_name`` of ``field`` read at ``scale`` (a wrong scale, for controls)."""
    fields = []
    for name, entry in layout.fields.items():
        parts = entry.parts
        if name == field:
            parts = (tuple(count(part_name, scale) if p.name == part_name else p for p in parts)
                     if isinstance(parts, tuple) else count(part_name, scale))
        fields.append((name, entry.shape, parts))
    return Layout(*fields)
