"""A title's full stop ends no sentence in any splitter of English text: an episode compressed
sentence by sentence once kept "I teach geography at St." and lost the school's name."""

import pytest

from memquill.retrieve.spend import sentences
from memquill.write.episodes import SENTENCE

TEXT = "I teach geography at St. Brigid's now. The Luas was packed. Dr. Patel said hi."
SPLIT = ["I teach geography at St. Brigid's now.", "The Luas was packed.", "Dr. Patel said hi."]


def test_episode_sentences_keep_titles() -> None:
    assert [s for s in SENTENCE.split(TEXT) if s] == SPLIT


def test_context_sentences_keep_titles() -> None:
    assert sentences(TEXT) == SPLIT


@pytest.mark.parametrize("title", ["Mr.", "Mrs.", "Ms.", "Prof.", "Mt."])
def test_every_title(title: str) -> None:
    assert len(sentences(f"We met {title} Baker there. It rained.")) == 2
