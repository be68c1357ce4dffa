"""A person and a bot in real Chromium (issue 31), at desktop and phone sizes: the person
challenges a bot run by ``parlour bot --agent random`` from its profile and plays it to the end
by clicking; the bot challenges the person, who accepts from the lobby's notice and plays that
game to the end too; the bot is marked as one at the table, on its profile and on the bots'
leaderboard. Tokens are made and listed on the account page."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.server.helpers import TIMEOUT
from tests.server.helpers import ServerProcess as Server
from tests.server.test_bots import bearer, bot_account

from .conftest import SIZES, Screenshots, named_context
from .pages import horizontal_overflow, wait_my_turn, wait_version, watch_errors
from .test_accounts import _sign_up

PARLOUR = str(Path(sys.executable).with_name("parlour"))


@pytest.fixture(scope="module")
def bot(server: Server, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A bot account played by ``parlour bot --agent random``: its name and token."""
    name = "randombot"
    _browser, token = bot_account(server, name)
    log = tmp_path_factory.mktemp("bot") / "bot.log"
    proc = subprocess.Popen(
        [PARLOUR, "bot", "--server", server.base, "--agent", "random", "--seed", "7"],
        stdout=log.open("ab"), stderr=subprocess.STDOUT,
        env={**os.environ, "PARLOUR_TOKEN": token})
    yield name, token
    proc.terminate()
    assert proc.wait(timeout=TIMEOUT) == 0, log.read_text()[-2000:]


def _play_to_the_end(page: Page) -> dict:
    """Click the first legal move whenever it is this page's turn, until the game ends."""
    while True:
        message = wait_my_turn(page)
        if message["terminal"]:
            return message
        move = message["legal"][0]["s"]
        page.click(f"[data-square='{move[:2]}']")
        page.wait_for_selector(f"[data-square='{move[2:]}'] [data-target]")
        page.click(f"[data-square='{move[2:]}']")
        wait_version(page, message["version"] + 1)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_person_challenges_a_bot_and_plays_it_to_the_end(
    server: Server, browser: Browser, screenshots: Screenshots, bot: tuple[str, str], size: str
):
    bot_name, bot_token = bot
    context = named_context(browser, None, size)
    try:
        page = _sign_up(context, server.base, f"bot-fan-{size}")
        errors = watch_errors(page)
        page.goto(f"{server.base}/players/{bot_name}")
        page.wait_for_selector("#challenge-form")
        assert page.text_content("#player-name") == f"{bot_name} (bot)"
        page.select_option("#challenge-game", "clobber")
        page.select_option("#challenge-clock", "60")
        page.check("#challenge-rated")
        screenshots.save(page, f"bot-challenge-{size}.png")
        assert horizontal_overflow(page) == 0
        page.click("#challenge-send")
        page.wait_for_url(f"{server.base}/play/**", timeout=TIMEOUT * 1000)
        page.wait_for_selector("#seats .tag >> text=bot")
        seat = page.locator("#seats li", has_text=bot_name)
        assert seat.locator(".tag", has_text="bot").count() == 1
        screenshots.save(page, f"bot-game-{size}.png")
        final = _play_to_the_end(page)
        assert final["rated"]
        page.wait_for_selector("#end-panel:not([hidden])")
        screenshots.save(page, f"bot-game-over-{size}.png")

        # the bot challenges the person: a notice in the lobby, accepted there
        sent = httpx.post(server.base + "/api/challenges", headers=bearer(bot_token),
                          json={"opponent": f"bot-fan-{size}", "game": "clobber",
                                "params": {"size": "4x4"}}, timeout=TIMEOUT)
        assert sent.status_code == 201, sent.text
        page.goto(server.base + "/")
        notice = page.wait_for_selector(f"[data-challenge='{sent.json()['id']}']")
        assert f"{bot_name} (bot) challenges you to Clobber" in notice.text_content()
        screenshots.save(page, f"bot-notice-{size}.png", full=False)
        assert horizontal_overflow(page) == 0
        notice.query_selector("button >> text=Accept").click()
        page.wait_for_url(f"{server.base}/play/**", timeout=TIMEOUT * 1000)
        assert not _play_to_the_end(page)["rated"]

        page.goto(f"{server.base}/leaderboard/clobber?bots=1")
        page.locator(f"#top a[href='/players/{bot_name}'], #prov a[href='/players/{bot_name}']"
                     ).first.wait_for()
        assert "Bots' leaderboard" in page.text_content("#board-title")
        page.goto(f"{server.base}/leaderboard/clobber")
        page.wait_for_selector("#board-title >> text=Leaderboard: Clobber")  # rows drawn with it
        assert page.locator(f"a[href='/players/{bot_name}']").count() == 0
        assert not errors, errors
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_tokens_are_made_listed_and_revoked_on_the_account_page(
    server: Server, browser: Browser, screenshots: Screenshots, size: str
):
    context = named_context(browser, None, size)
    try:
        page = _sign_up(context, server.base, f"tokens-{size}")
        page.goto(server.base + "/account")
        page.wait_for_selector("#bots-panel:not([hidden])")
        assert page.is_disabled("#scope-bot-play")
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("#make-bot")
        page.wait_for_selector("#make-bot[hidden]", state="attached")
        assert not page.is_disabled("#scope-bot-play")
        page.fill("#token-name", "my bot")
        page.click("#token-form button[type=submit]")
        secret = page.wait_for_selector("#token-secret").text_content()
        assert secret and secret.startswith("plr_")
        page.wait_for_selector(".token-row >> text=my bot")
        screenshots.save(page, f"account-tokens-{size}.png")
        assert horizontal_overflow(page) == 0
        works = httpx.get(server.base + "/api/challenges", headers=bearer(secret))
        assert works.status_code == 200
        page.click(".token-row button >> text=Revoke")
        page.wait_for_selector("#tokens >> text=No tokens yet.")
        assert httpx.get(server.base + "/api/challenges", headers=bearer(secret)
                         ).status_code == 401
    finally:
        context.close()
