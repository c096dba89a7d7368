"""A move made on a web page waits in Redis for its chat (`bot.service.posting`): what waits is
what the chats show, all of it, and none of what only the page shows (its board, tray, drawn
buttons and spots on its own drawing), which would make most of its bytes."""

from __future__ import annotations

from bot.exchange.replies import Button, Direct, Message, Reply, Target
from bot.service import posting

DRAWING = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4"/></svg>'


def _menu() -> Message:
    return Message(
        "Choose an official.",
        image=b"\x89PNG picture",
        image_name="choose.png",
        buttons=[[Button("Red Minister", "fc:mo:c:4:RR", "primary", drawing=DRAWING * 40)]],
        choices=[Button("Black Eunuch", "fc:mo:c:4:KK", drawing=DRAWING * 40)],
        names={"7": "Ann"},
        targets=[Target((1, 2, 30, 40), "Red Minister at c3", "fc:mo:c:4:RR", (3.0, 4.0, 5, 6))],
        keys={"Escape": "fc:bk:c:4"},
        board=DRAWING * 200,
        tray=DRAWING * 50,
    )


def test_a_stored_reply_keeps_what_the_chats_show() -> None:
    menu = _menu()
    reply = Reply(public=[Message("Ann moves.", image=b"table")], direct=[Direct("7", menu, True)])
    [public] = posting.load(posting.dump(reply)).public
    [direct] = posting.load(posting.dump(reply)).direct
    assert public == Message("Ann moves.", image=b"table")
    assert direct.user_id == "7" and direct.turn_notice
    shown = direct.message
    assert (shown.text, shown.image, shown.image_name) == (menu.text, menu.image, "choose.png")
    assert shown.buttons == [[Button("Red Minister", "fc:mo:c:4:RR", "primary")]]
    assert shown.choices == [Button("Black Eunuch", "fc:mo:c:4:KK")]
    assert shown.names == {"7": "Ann"} and shown.keys == {"Escape": "fc:bk:c:4"}
    assert shown.targets == [Target((1, 2, 30, 40), "Red Minister at c3", "fc:mo:c:4:RR")]


def test_a_stored_reply_leaves_out_what_only_the_page_shows() -> None:
    stored = posting.dump(Reply(public=[_menu()]))
    assert "<svg" not in stored and "circle" not in stored
    assert len(stored) < 1000  # the drawings were about 30 KB of it
    [shown] = posting.load(stored).public
    assert shown.board == "" and shown.tray == ""
