"""Which values a present statement may carry to replace a slot without a change cue
(``extract/model.py``, ``_names_thing``): a name, not a lowercase word a span ranker cut."""

from __future__ import annotations

import pytest

from memquill.write.extract.model import _names_thing


@pytest.mark.parametrize(
    ("value", "value_type", "ok"),
    [
        ("Lisbon", "place", True),
        ("青岛", "place", True),
        ("lease", "place", False),  # "got a Rivian R1S on a lease"
        ("neovim", "tech", True),  # the lexicon knows it
        ("helix", "tech", False),
        ("Helix", "tech", True),
        ("kestrel lane", "organisation", False),
        ("a.b@example.com", "email", True),
    ],
)
def test_names_thing(value: str, value_type: str, ok: bool) -> None:
    assert _names_thing(value, value_type) is ok
