"""A table's chat: plain-text messages on the players' or the spectators' channel."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from parlour.server.persistence.repository import Repository
from parlour.server.persistence.rows import ChatRow


class ChatRepo(Repository):
    """Chat messages stored and the latest read back."""

    def add_chat(self, table_id: str, channel: str, seat: int | None, name: str,
                 text_: str, at: float) -> int:
        with self.engine.begin() as connection:
            result = connection.execute(insert(ChatRow).values(
                table_id=table_id, channel=channel, seat=seat, name=name, text=text_,
                created_at=at,
            ))
            key = result.inserted_primary_key
            return int(key[0]) if key else 0

    def chat(self, table_id: str, channel: str, limit: int) -> list[dict[str, Any]]:
        with Session(self.engine) as session:
            rows = session.scalars(
                select(ChatRow)
                .where(ChatRow.table_id == table_id, ChatRow.channel == channel)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
            return [{"id": r.id, "seat": r.seat, "name": r.name, "text": r.text,
                     "at": r.created_at} for r in reversed(rows)]
