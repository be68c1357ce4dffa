from __future__ import annotations

import time
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message

import pytest

from .helpers import TIMEOUT, ServerProcess, free_port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real server process shared by the tests that do not restart it, configured as
    ``parlour serve`` is by default: computer players think in worker processes."""
    proc = ServerProcess(tmp_path_factory.mktemp("server") / "parlour.db", ai="process").start()
    yield proc
    proc.stop()


# -- e-mail (test_mail.py, test_attacks_round4_mail_streams.py) ------------------------------------
class Inbox:
    """aiosmtpd's handler: keeps every message it is given, and its envelope's recipients."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.recipients: list[list[str]] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        self.recipients.append(list(envelope.rcpt_tos))
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def wait(self, count: int, seconds: float = TIMEOUT) -> list[Message]:
        deadline = time.monotonic() + seconds
        while len(self.messages) < count and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(self.messages) >= count, f"{len(self.messages)} of {count} e-mails came"
        return self.messages


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server (aiosmtpd) in this test process, one for each module that asks;
    its inbox and port."""
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    yield inbox, port
    controller.stop()
