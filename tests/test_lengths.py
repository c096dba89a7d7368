"""`bot.text.lengths`: text cut to a limit as each platform counts, Telegram in UTF-16 units,
Discord in characters, never inside what reads as one character."""

from __future__ import annotations

import pytest

from bot.discord.markup import chunks
from bot.text.lengths import cut, fitting, utf16_length
from bot.text.names import clean_name

DRAGONS = "🐉" * 100  # 100 characters, 200 UTF-16 units


def test_telegram_counts_an_emoji_twice_and_discord_once() -> None:
    assert (len(DRAGONS), utf16_length(DRAGONS)) == (100, 200)
    assert utf16_length("Zo\u00eb \u7f8e\u73b2") == 6


def test_a_text_that_fits_is_kept_whole() -> None:
    assert cut(DRAGONS, 200, utf16_length) == DRAGONS
    assert cut(DRAGONS, 100) == DRAGONS
    assert cut("", 1) == ""


def test_a_cut_fits_the_limit_as_each_platform_counts() -> None:
    text = "It is " + DRAGONS + "'s turn."
    telegram = cut(text, 200, utf16_length)
    assert telegram == "It is " + "🐉" * 96 + "…"  # 6 + 192 + 1 = 199: a 97th would make 201
    discord = cut(text, 100)
    assert discord == "It is " + "🐉" * 93 + "…" and len(discord) == 100


@pytest.mark.parametrize(
    ("whole", "kept"),
    [
        ("👍🏽" * 3, "👍🏽"),  # a skin tone stays with its hand
        ("🇫🇷🇮🇹🇩🇪", "🇫🇷"),  # a flag is two letters
        ("👩‍🚀👩‍🚀", "👩‍🚀"),  # a joined sequence stays whole
        ("❤️❤️❤️", "❤️"),  # the variation selector that makes it an emoji
        ("e\u0301" * 4, "e\u0301"),  # e and a combining accent
    ],
)
def test_no_cut_splits_what_reads_as_one_character(whole: str, kept: str) -> None:
    room = len(kept) + 1  # one more code point than the first character: its next part
    assert whole[: fitting(whole, room)] == kept
    assert cut(whole, room + 1) == kept + "…"


def test_a_word_cut_loses_the_space_before_the_ellipsis() -> None:
    assert cut("Ann and Bob", 5) == "Ann…"


def test_display_names_are_cut_the_same_way() -> None:
    """`clean_name`'s 32 characters: the 32nd is the ellipsis, no tone left alone at the end."""
    name = clean_name("👍🏽" * 20)
    assert name == "👍🏽" * 15 + "…" and len(name) == 31


def test_a_long_discord_message_is_split_between_two_flags() -> None:
    """No line break to split at: the piece ends before the 2000th character rather than
    between the two letters of a flag."""
    text = "x" + "🇫🇷" * 1500
    pieces = chunks(text)
    assert "".join(pieces) == text and [len(p) for p in pieces] == [1999, 1002]
