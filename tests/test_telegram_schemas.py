"""The fake Telegram refuses what the Bot API would, by its published description and the
limits it states in prose (tests/vendor): python-telegram-bot gets the 400 Telegram answers,
and a violation is recorded that would fail the test that sent it (here taken, as meant)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import telegram
from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from tests.fake_telegram import TOKEN, FakeBotApi
from tests.vendor import schemas

PRIVATE, GROUP = 4242, -100_4242


@pytest.fixture
async def bot(api: FakeBotApi) -> AsyncIterator[telegram.Bot]:
    async with telegram.Bot(TOKEN, base_url=api.base_url) as client:
        yield client


def keyboard(button: InlineKeyboardButton) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[button]])


def refusal() -> str:
    [violation] = schemas.take()
    assert violation.platform == "telegram"
    return "; ".join(violation.problems)


async def test_a_script_tag_in_html_is_refused(bot: telegram.Bot, api: FakeBotApi) -> None:
    await bot.send_message(GROUP, "<b>Ada</b> &amp; <i>Bo</i>", parse_mode="HTML")
    with pytest.raises(telegram.error.BadRequest, match="unsupported tag <script>"):
        await bot.send_message(GROUP, "<script>alert(1)</script>", parse_mode="HTML")
    assert "unsupported tag <script>" in refusal()
    assert [c.visible for c in api.sent(GROUP)] == ["Ada & Bo"]


async def test_an_unclosed_tag_or_a_bare_ampersand_is_refused(bot: telegram.Bot) -> None:
    with pytest.raises(telegram.error.BadRequest):
        await bot.send_message(GROUP, "<b>Ada", parse_mode="HTML")
    assert "<b> never closed" in refusal()
    with pytest.raises(telegram.error.BadRequest):
        await bot.send_message(GROUP, "Ada & Bo", parse_mode="HTML")
    assert "a bare '&'" in refusal()


async def test_callback_data_of_65_bytes_is_refused(bot: telegram.Bot, api: FakeBotApi) -> None:
    await bot.send_message(
        GROUP, "Join?", reply_markup=keyboard(InlineKeyboardButton("Join", callback_data="j" * 64))
    )
    with pytest.raises(telegram.error.BadRequest):
        await bot.send_message(
            GROUP,
            "Join?",
            reply_markup=keyboard(InlineKeyboardButton("Join", callback_data="é" * 32 + "j")),
        )
    assert "callback_data of 65 bytes (1-64)" in refusal()
    assert len(api.sent(GROUP)) == 1


async def test_a_web_app_button_is_refused_in_a_group_and_over_http(bot: telegram.Bot) -> None:
    page = InlineKeyboardButton("Table", web_app=WebAppInfo("https://fc.example/t/1"))
    await bot.send_message(PRIVATE, "Your table", reply_markup=keyboard(page))
    with pytest.raises(telegram.error.BadRequest):
        await bot.send_message(GROUP, "The table", reply_markup=keyboard(page))
    assert "web_app button in chat -1004242 (private chats only)" in refusal()
    plain = InlineKeyboardButton("Table", web_app=WebAppInfo("http://fc.example/t/1"))
    with pytest.raises(telegram.error.BadRequest):
        await bot.send_message(PRIVATE, "Your table", reply_markup=keyboard(plain))
    assert "no HTTPS URL" in refusal()


async def test_text_and_captions_count_utf16_units_after_parsing(bot: telegram.Bot) -> None:
    await bot.send_message(GROUP, "<b>" + "a" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(telegram.error.BadRequest):
        await bot.send_message(GROUP, "😀" * 2049)  # 4098 UTF-16 units
    assert "text: 4098 UTF-16 units after parsing (1-4096)" in refusal()
    with pytest.raises(telegram.error.BadRequest):
        await bot.send_photo(
            GROUP, b"\x89PNG", caption="<i>" + "c" * 1025 + "</i>", parse_mode="HTML"
        )
    assert "caption: 1025 UTF-16 units" in refusal()


@pytest.mark.filterwarnings("ignore:Please use:telegram.warnings.PTBUserWarning")
async def test_a_missing_or_mistyped_parameter_is_refused(bot: telegram.Bot) -> None:
    with pytest.raises(telegram.error.BadRequest):
        await bot.do_api_request("sendMessage", api_kwargs={"text": "no chat"})
    assert "'chat_id' is a required property" in refusal()
    with pytest.raises(telegram.error.BadRequest):
        await bot.do_api_request(
            "answerCallbackQuery", api_kwargs={"callback_query_id": "1", "cache_time": "soon"}
        )
    assert "cache_time" in refusal()
