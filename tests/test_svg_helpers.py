"""``core.svg``'s text helpers: the fast attribute quoting writes exactly what ``xml.sax.saxutils.quoteattr``
writes (the drawings' bytes must not depend on the shortcut), numbers are written as ``num`` says."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

import numpy as np
import pytest

from wildwest_envs.core.svg import attrs, el, num, quoted, text

AWKWARD = ["", "plain", "#fff", "a & b", "<x>", 'say "hi"', "it's", "it's \"both\"", "tab\there", "two\nlines",
           "cr\r", "12.5", "DejaVu Sans, Verdana"]


@pytest.mark.parametrize("value", AWKWARD)
def test_quoted_is_quoteattr(value):
    assert quoted(value) == quoteattr(value)


def test_attrs_writes_what_quoteattr_of_str_writes_for_every_kind_of_value():
    values = {"x": 1.25, "y": -0.0, "w": 12.0, "n": 7, "i8": np.int8(-3), "u64": np.uint64(2**63), "flag": True,
              "f32": np.float32(2.5), "label": 'a "b" & <c>', "class_": "piece big", "font_size": 11,
              "data_card_id": "it's"}
    expected = "".join(f" {name.rstrip('_').replace('_', '-')}="
                       f"{quoteattr(num(value) if isinstance(value, float) else str(value))}"
                       for name, value in values.items())
    assert attrs(values) == expected
    assert attrs({"x": None, "y": 1}) == ' y="1"'  # None leaves an attribute out


def test_num_keeps_one_decimal_and_drops_a_zero_one():
    assert [num(v) for v in (0, 12.0, 12.04, 12.06, -0.04, 1e20, 3, np.float32(2.5))] == \
        ["0", "12", "12", "12.1", "-0", "100000000000000000000", "3", "2.5"]


def test_elements_and_text_are_escaped():
    assert el("rect", x=0, fill="#fff", class_="a&b") == '<rect x="0" fill="#fff" class="a&amp;b"/>'
    assert text(2, 3, "A & B") == '<text x="2" y="3" font-size="11">A &amp; B</text>'
