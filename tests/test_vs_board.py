"""Die Verbotene Stadt: board text, position files and the engine's own board."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.verbotene_stadt.board import Board, BoardError
from engine.verbotene_stadt.movement import can_enter
from engine.verbotene_stadt.position import PositionError, parse_position
from engine.verbotene_stadt.survey import entry_figures, positions

SPEC_BOARD = """\
+-+-+-+-+
|. . . .|
+ +-+ + +
|.|1|. .|
+ + +-+ +
|s s g #|
+-+-+-+-+"""


def test_the_spec_example_board() -> None:
    board = Board.parse(SPEC_BOARD)
    assert (board.width, board.height) == (4, 3)
    assert board.kind((0, 0)) == "."
    assert board.kind((1, 1)) == "1"
    assert board.kind((3, 2)) == "#"
    assert board.start_squares == ((0, 2), (1, 2))
    assert board.grey_squares == ((2, 2),)
    assert board.pavilions == {1: ((1, 1),)}
    assert board.pavilion_at((1, 1)) == 1
    assert board.pavilion_at((2, 1)) is None
    # walls drawn: | between 0,1 and 1,1 and between 1,1 and 2,1; - under 1,0 and under 2,1
    assert board.wall((0, 1), "E") and board.wall((1, 1), "W")
    assert board.wall((1, 1), "E") and board.wall((2, 1), "W")
    assert board.wall((1, 0), "S") and board.wall((1, 1), "N")
    assert board.wall((2, 1), "S") and board.wall((2, 2), "N")
    assert not board.wall((1, 1), "S")
    assert not board.wall((0, 0), "E")
    # the frame is always a wall
    assert board.wall((0, 0), "N") and board.wall((0, 0), "W") and board.wall((3, 2), "E")
    # the only door of pavilion 1 is its south edge, toward 1,2
    assert board.doors(1) == (((1, 1), "S"),)


def test_a_board_never_changes() -> None:
    board = Board.parse(SPEC_BOARD)
    with pytest.raises(AttributeError, match="never changes"):
        board.width = 5
    assert board.width == 4


def test_board_text_round_trips() -> None:
    board = Board.parse(SPEC_BOARD)
    assert board.to_text() == SPEC_BOARD
    assert Board.parse(board.to_text()) == board


def test_frame_is_a_wall_whatever_it_shows_and_short_lines_are_padded() -> None:
    loose = "         \n|. . . .\n -\n|s s g #\n\n"
    board = Board.parse(loose)
    assert (board.width, board.height) == (4, 2)
    assert board.wall((0, 0), "N") and board.wall((3, 0), "E") and board.wall((0, 1), "S")
    assert board.wall((0, 0), "S") and not board.wall((1, 0), "S")
    assert board.to_text().splitlines()[0] == "+-+-+-+-+"


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("", 1, "empty"),
        ("+-+-\n|.|\n+-+", 1, r"2W\+1"),
        ("+-+-+\n|. .|", 2, r"2H\+1"),
        ("+-+-+\n|. x|\n+-+-+", 2, "square 1,0"),
        ("+-+-+\n|.\n+-+-+", 2, "square 1,0 is missing"),
        ("+-+-+\n|.x.|\n+-+-+", 2, "not | or blank"),
        ("+-+-+\n|. .|\n+=+-+\n|. .|\n+-+-+", 3, "not - or blank"),
        ("+-+-+\n|. .|\n+-+-+-+", 3, "longer"),
        ("+-+-+\n|. .|\n+-+-+\n|. 9|\n+-+-+", 4, "square 1,1"),
    ],
)
def test_bad_board_text_names_the_line(text: str, line: int, reason: str) -> None:
    with pytest.raises(BoardError, match=reason) as caught:
        Board.parse(text)
    assert caught.value.line == line


POSITION = """\
; the spec's example
board:
+-+-+-+-+
|. . . .|
+ +-+ + +
|.|1|. .|
+ + +-+ +
|s s g #|
+-+-+-+-+
end
official RB 0,0
official KK 3,1
open 1
exiled 14
"""


def test_position_file() -> None:
    position = parse_position(POSITION)
    assert position.board == Board.parse(SPEC_BOARD)
    assert position.at == {"RB": (0, 0), "KK": (3, 1)}
    assert position.open == 1
    assert position.exiled == 14


def test_position_defaults_and_the_default_board() -> None:
    position = parse_position("\n   ; nothing yet\nboard: default\nofficial GY 0,2\n")
    assert position.board is Board.default()
    assert position.open is None
    assert position.exiled == 0


@pytest.mark.parametrize(
    ("extra", "line", "reason"),
    [
        ("official XX 0,0", 11, "not an official"),
        ("official RB 0,0\nofficial RB 1,0", 12, "already on the board"),
        ("official RB 0,0\nofficial GG 0,0", 12, "already holds RB"),
        ("official RB 4,0", 11, "off the 4 x 3 board"),
        ("official RB 3,2", 11, "a roof"),
        ("official RB 1,1", 11, "pavilion 1"),
        ("official RB 1;1", 11, "not a square"),
        ("official RB", 11, "official CODE X,Y"),
        ("open 9", 11, "open P"),
        ("open 1\nopen 2", 12, "second open"),
        ("exiled -1", 11, "exiled N"),
        ("exiled 25\nofficial RB 0,0", 11, "only 25"),
        ("move RB N", 11, "unknown statement 'move'"),
        ("board: default", 11, "second board:"),
    ],
)
def test_bad_position_names_the_line(extra: str, line: int, reason: str) -> None:
    text = POSITION.split("official")[0] + extra + "\n"
    with pytest.raises(PositionError, match=reason) as caught:
        parse_position(text)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"line {line}: ")


def test_bad_board_inside_a_position_names_the_file_line() -> None:
    text = "; a comment\nboard:\n+-+-+\n|. ?|\n+-+-+\nend\n"
    with pytest.raises(PositionError, match="square 1,0") as caught:
        parse_position(text)
    assert caught.value.line == 4


def test_unclosed_board_and_missing_board() -> None:
    with pytest.raises(PositionError, match="not closed") as caught:
        parse_position("board:\n+-+\n|.|\n+-+\n")
    assert caught.value.line == 1
    with pytest.raises(PositionError, match="no `board:`"):
        parse_position("official RB 0,0\n")


# ------------------------------------------------------------ the engine's own board
def test_default_board_has_the_required_squares() -> None:
    board = Board.default()
    assert (board.width, board.height) == (15, 15)
    assert sorted(board.start_squares) == [(x, y) for x in range(5, 10) for y in range(5, 10)]
    assert sorted(board.grey_squares) == [(4, 7), (7, 4), (7, 10), (10, 7)]
    assert sorted(board.pavilions) == list(range(1, 9))
    # one pavilion at each corner and at the middle of each edge, each with one or two doors
    places = [(0, 0), (14, 0), (0, 14), (14, 14), (7, 0), (14, 7), (7, 14), (0, 7)]
    assert sorted(board.pavilion_at(sq) or 0 for sq in places) == list(range(1, 9))
    for number in board.pavilions:
        assert 1 <= len(board.doors(number)) <= 2, number


def test_default_board_text_is_its_data_file() -> None:
    board = Board.default()
    assert Board.parse(board.to_text()) == board


def test_every_pavilion_of_the_default_board_is_reachable() -> None:
    """From the start layout, one official at a time may leave the centre and reach each
    pavilion: every pavilion has a door some official can slide through from the floor."""
    board = Board.default()
    floor = [
        (x, y) for y in range(board.height) for x in range(board.width) if board.kind((x, y)) == "."
    ]
    for number in board.pavilions:
        able = [sq for sq in floor if can_enter(board, {"RB": sq}, "RB", number) is not None]
        assert len(able) >= 10, number


def test_default_board_data_file_is_written_as_the_board_command_prints_it() -> None:
    path = Path(__file__).parent.parent / "engine" / "verbotene_stadt" / "data" / "board.txt"
    assert path.read_text(encoding="utf-8") == Board.default().to_text() + "\n"


def test_survey_positions_are_mid_game_positions() -> None:
    board = Board.default()
    found = positions(board, 3, seed=2, exiled=6)
    for position in found:
        assert position.exiled == 6
        assert len(position.at) == 19
        assert len(set(position.at.values())) == 19
        assert all(board.can_stand(sq) for sq in position.at.values())
        # play moved officials off the start squares
        assert any(not board.is_start(sq) for sq in position.at.values())
    figures = entry_figures(board, found)
    assert figures["positions"] == 3
    for number in range(1, 9):
        counts = figures[str(number)]
        assert isinstance(counts, dict)
        assert 0 <= counts["mean"] <= counts["max"] <= 19
