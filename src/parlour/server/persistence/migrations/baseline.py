# ruff: noqa: E501
"""The schema of revision 0001, frozen: every table as the server made it before migrations.

Revision 0001 builds a new database from this, and brings a database made before migrations
(no ``alembic_version`` table) to it: missing tables are created, missing columns added
(nullable, as the old ``store.migrate`` added them, so that no row has to change) and missing
indexes created (``migrate`` never made the indexes of the columns it added). It is a copy,
not an import of the models: the models go on changing, each change in a revision of its own,
while this stays what revision 0001 was. Never edit it.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()


def _columns(table: str, *names: str) -> list[sa.Column[object]]:
    return [metadata.tables[table].c[name] for name in names]


sa.Table(
    "parlour_accounts", metadata,
    sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
    sa.Column("username", sa.String(length=20), nullable=True),
    sa.Column("username_key", sa.String(length=64), nullable=False),
    sa.Column("password_hash", sa.String(length=256), nullable=True),
    sa.Column("handle", sa.LargeBinary(length=64), nullable=False),
    sa.Column("bot", sa.Boolean(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.Column("deleted_at", sa.Float(), nullable=True),
    sa.Column("email", sa.String(length=254), nullable=True),
    sa.Column("email_confirmed", sa.Boolean(), nullable=True),
    sa.Column("notify_email", sa.Boolean(), nullable=True),
    sa.Column("mail_token_hash", sa.String(length=64), nullable=True),
    sa.Column("language", sa.String(length=16), nullable=True),
    sa.PrimaryKeyConstraint("id"),
    sa.UniqueConstraint("username_key"),
)
sa.Index("ix_parlour_accounts_mail_token_hash", *_columns("parlour_accounts", "mail_token_hash"), unique=False)
sa.Table(
    "parlour_challenges", metadata,
    sa.Column("id", sa.String(length=16), nullable=False),
    sa.Column("challenger_id", sa.Integer(), nullable=False),
    sa.Column("opponent_id", sa.Integer(), nullable=False),
    sa.Column("game", sa.String(length=64), nullable=False),
    sa.Column("params", sa.JSON(), nullable=False),
    sa.Column("rated", sa.Boolean(), nullable=False),
    sa.Column("clock", sa.JSON(), nullable=True),
    sa.Column("status", sa.String(length=12), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.Column("expires_at", sa.Float(), nullable=False),
    sa.Column("answered_at", sa.Float(), nullable=True),
    sa.Column("table_id", sa.String(length=32), nullable=True),
    sa.Column("reason", sa.String(length=120), nullable=True),
    sa.PrimaryKeyConstraint("id"),
)
sa.Index("ix_parlour_challenges_challenger_id", *_columns("parlour_challenges", "challenger_id"), unique=False)
sa.Index("ix_parlour_challenges_opponent_id", *_columns("parlour_challenges", "opponent_id"), unique=False)
sa.Index("ix_parlour_challenges_status", *_columns("parlour_challenges", "status"), unique=False)
sa.Table(
    "parlour_claims", metadata,
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("owner", sa.String(length=96), nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("expires_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("table_id"),
)
sa.Table(
    "parlour_mail_quotas", metadata,
    sa.Column("key", sa.String(length=80), nullable=False),
    sa.Column("sent", sa.JSON(), nullable=False),
    sa.Column("last_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("key"),
)
sa.Index("ix_parlour_mail_quotas_last_at", *_columns("parlour_mail_quotas", "last_at"), unique=False)
sa.Table(
    "parlour_mail_sent", metadata,
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("version", sa.Integer(), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=False),
    sa.Column("sent_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("table_id", "version", "account_id"),
)
sa.Index("ix_parlour_mail_sent_sent_at", *_columns("parlour_mail_sent", "sent_at"), unique=False)
sa.Table(
    "parlour_passkeys", metadata,
    sa.Column("credential_id", sa.String(length=1400), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=False),
    sa.Column("public_key", sa.LargeBinary(length=2048), nullable=False),
    sa.Column("sign_count", sa.Integer(), nullable=False),
    sa.Column("name", sa.String(length=64), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.Column("used_at", sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint("credential_id"),
)
sa.Index("ix_parlour_passkeys_account_id", *_columns("parlour_passkeys", "account_id"), unique=False)
sa.Table(
    "parlour_puzzle_attempts", metadata,
    sa.Column("account_id", sa.Integer(), nullable=False),
    sa.Column("game", sa.String(length=40), nullable=False),
    sa.Column("puzzle_id", sa.String(length=16), nullable=False),
    sa.Column("solved", sa.Boolean(), nullable=False),
    sa.Column("before", sa.Float(), nullable=False),
    sa.Column("after", sa.Float(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("account_id", "game", "puzzle_id"),
)
sa.Index("ix_parlour_puzzle_attempts_created_at", *_columns("parlour_puzzle_attempts", "created_at"), unique=False)
sa.Table(
    "parlour_puzzle_mined", metadata,
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("game", sa.String(length=40), nullable=False),
    sa.Column("mined_at", sa.Float(), nullable=False),
    sa.Column("seconds", sa.Float(), nullable=False),
    sa.Column("tried", sa.Integer(), nullable=False),
    sa.Column("found", sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint("table_id"),
)
sa.Index("ix_parlour_puzzle_mined_mined_at", *_columns("parlour_puzzle_mined", "mined_at"), unique=False)
sa.Table(
    "parlour_puzzle_ratings", metadata,
    sa.Column("account_id", sa.Integer(), nullable=False),
    sa.Column("game", sa.String(length=40), nullable=False),
    sa.Column("rating", sa.Float(), nullable=False),
    sa.Column("rd", sa.Float(), nullable=False),
    sa.Column("volatility", sa.Float(), nullable=False),
    sa.Column("attempts", sa.Integer(), nullable=False),
    sa.Column("solved", sa.Integer(), nullable=False),
    sa.Column("updated_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("account_id", "game"),
)
sa.Table(
    "parlour_puzzles", metadata,
    sa.Column("game", sa.String(length=40), nullable=False),
    sa.Column("id", sa.String(length=16), nullable=False),
    sa.Column("position", sa.Text(), nullable=False),
    sa.Column("line", sa.JSON(), nullable=False),
    sa.Column("rating", sa.Float(), nullable=False),
    sa.Column("rd", sa.Float(), nullable=False),
    sa.Column("volatility", sa.Float(), nullable=False),
    sa.Column("nodes", sa.BigInteger(), nullable=False),
    sa.Column("moves", sa.Integer(), nullable=False),
    sa.Column("source", sa.String(length=200), nullable=False),
    sa.Column("table_id", sa.String(length=32), nullable=True),
    sa.Column("ply", sa.Integer(), nullable=True),
    sa.Column("public", sa.Boolean(), nullable=False),
    sa.Column("attempts", sa.Integer(), nullable=False),
    sa.Column("solved", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("game", "id"),
)
sa.Index("ix_parlour_puzzles_game_rating", *_columns("parlour_puzzles", "game", "rating"), unique=False)
sa.Index("ix_parlour_puzzles_table_id", *_columns("parlour_puzzles", "table_id"), unique=False)
sa.Table(
    "parlour_queue", metadata,
    sa.Column("ticket_hash", sa.String(length=64), nullable=False),
    sa.Column("pool", sa.String(length=120), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=True),
    sa.Column("client", sa.String(length=64), nullable=False),
    sa.Column("name", sa.String(length=64), nullable=False),
    sa.Column("rating", sa.Float(), nullable=False),
    sa.Column("joined_at", sa.Float(), nullable=False),
    sa.Column("seen_at", sa.Float(), nullable=False),
    sa.Column("table_id", sa.String(length=32), nullable=True),
    sa.Column("seat_url", sa.String(length=120), nullable=True),
    sa.Column("details", sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint("ticket_hash"),
    sa.UniqueConstraint("account_id", "pool"),
)
sa.Index("ix_parlour_queue_client", *_columns("parlour_queue", "client"), unique=False)
sa.Index("ix_parlour_queue_pool", *_columns("parlour_queue", "pool"), unique=False)
sa.Index("ix_parlour_queue_seen_at", *_columns("parlour_queue", "seen_at"), unique=False)
sa.Table(
    "parlour_rate_buckets", metadata,
    sa.Column("key", sa.String(length=80), nullable=False),
    sa.Column("tokens", sa.Float(), nullable=False),
    sa.Column("at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("key"),
)
sa.Index("ix_parlour_rate_buckets_at", *_columns("parlour_rate_buckets", "at"), unique=False)
sa.Table(
    "parlour_rating_changes", metadata,
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=False),
    sa.Column("pool", sa.String(length=80), nullable=False),
    sa.Column("before", sa.Float(), nullable=False),
    sa.Column("before_rd", sa.Float(), nullable=False),
    sa.Column("after", sa.Float(), nullable=False),
    sa.Column("after_rd", sa.Float(), nullable=False),
    sa.Column("after_volatility", sa.Float(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("table_id", "seat"),
)
sa.Index("ix_parlour_rating_changes_account_id", *_columns("parlour_rating_changes", "account_id"), unique=False)
sa.Index("ix_parlour_rating_changes_created_at", *_columns("parlour_rating_changes", "created_at"), unique=False)
sa.Table(
    "parlour_ratings", metadata,
    sa.Column("account_id", sa.Integer(), nullable=False),
    sa.Column("pool", sa.String(length=80), nullable=False),
    sa.Column("rating", sa.Float(), nullable=False),
    sa.Column("rd", sa.Float(), nullable=False),
    sa.Column("volatility", sa.Float(), nullable=False),
    sa.Column("games", sa.Integer(), nullable=False),
    sa.Column("wins", sa.Integer(), nullable=False),
    sa.Column("draws", sa.Integer(), nullable=False),
    sa.Column("losses", sa.Integer(), nullable=False),
    sa.Column("updated_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("account_id", "pool"),
)
sa.Table(
    "parlour_results", metadata,
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=True),
    sa.Column("outcome", sa.String(length=8), nullable=False),
    sa.Column("game_return", sa.Float(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("table_id", "seat"),
)
sa.Index("ix_parlour_results_account_id", *_columns("parlour_results", "account_id"), unique=False)
sa.Table(
    "parlour_sessions", metadata,
    sa.Column("id_hash", sa.String(length=64), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.Column("seen_at", sa.Float(), nullable=False),
    sa.Column("expires_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("id_hash"),
)
sa.Index("ix_parlour_sessions_account_id", *_columns("parlour_sessions", "account_id"), unique=False)
sa.Index("ix_parlour_sessions_expires_at", *_columns("parlour_sessions", "expires_at"), unique=False)
sa.Table(
    "parlour_settings", metadata,
    sa.Column("key", sa.String(length=64), nullable=False),
    sa.Column("value", sa.String(length=256), nullable=False),
    sa.PrimaryKeyConstraint("key"),
)
sa.Table(
    "parlour_sign_in_failures", metadata,
    sa.Column("key", sa.String(length=80), nullable=False),
    sa.Column("failures", sa.Integer(), nullable=False),
    sa.Column("last_at", sa.Float(), nullable=False),
    sa.Column("in_flight", sa.Integer(), nullable=True),
    sa.Column("flight_at", sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint("key"),
)
sa.Table(
    "parlour_tables", metadata,
    sa.Column("id", sa.String(length=32), nullable=False),
    sa.Column("game", sa.String(length=64), nullable=False),
    sa.Column("params", sa.JSON(), nullable=False),
    sa.Column("seed", sa.BigInteger(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.Column("finished", sa.Boolean(), nullable=False),
    sa.Column("rematch_of", sa.String(length=32), nullable=True),
    sa.Column("rematch_id", sa.String(length=32), nullable=True),
    sa.Column("to_act", sa.Integer(), nullable=True),
    sa.Column("updated_at", sa.Float(), nullable=True),
    sa.Column("created_by", sa.String(length=64), nullable=True),
    sa.Column("listed", sa.Boolean(), nullable=True),
    sa.Column("clock", sa.JSON(), nullable=True),
    sa.Column("deadline_at", sa.Float(), nullable=True),
    sa.Column("archived", sa.Boolean(), nullable=True),
    sa.Column("rules_version", sa.Integer(), nullable=True),
    sa.Column("rated", sa.Boolean(), nullable=True),
    sa.Column("unrated", sa.String(length=16), nullable=True),
    sa.PrimaryKeyConstraint("id"),
)
sa.Index("ix_parlour_tables_created_by", *_columns("parlour_tables", "created_by"), unique=False)
sa.Index("ix_parlour_tables_deadline_at", *_columns("parlour_tables", "deadline_at"), unique=False)
sa.Index("ix_parlour_tables_finished", *_columns("parlour_tables", "finished"), unique=False)
sa.Index("ix_parlour_tables_listed", *_columns("parlour_tables", "listed"), unique=False)
sa.Index("ix_parlour_tables_to_act", *_columns("parlour_tables", "to_act"), unique=False)
sa.Table(
    "parlour_tokens", metadata,
    sa.Column("id", sa.String(length=16), nullable=False),
    sa.Column("secret_hash", sa.String(length=64), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=False),
    sa.Column("name", sa.String(length=64), nullable=False),
    sa.Column("scopes", sa.JSON(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.Column("used_at", sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint("id"),
    sa.UniqueConstraint("secret_hash"),
)
sa.Index("ix_parlour_tokens_account_id", *_columns("parlour_tokens", "account_id"), unique=False)
sa.Table(
    "parlour_tournament_games", metadata,
    sa.Column("tournament_id", sa.String(length=16), nullable=False),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("board", sa.Integer(), nullable=False),
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("players", sa.JSON(), nullable=False),
    sa.Column("made", sa.Boolean(), nullable=False),
    sa.Column("points", sa.JSON(), nullable=True),
    sa.Column("forfeits", sa.JSON(), nullable=False),
    sa.Column("ended_at", sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint("tournament_id", "round", "board"),
    sa.UniqueConstraint("table_id"),
)
sa.Index("ix_parlour_tournament_games_ended_at", *_columns("parlour_tournament_games", "ended_at"), unique=False)
sa.Table(
    "parlour_tournament_players", metadata,
    sa.Column("tournament_id", sa.String(length=16), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=False),
    sa.Column("joined_at", sa.Float(), nullable=False),
    sa.Column("seed", sa.Integer(), nullable=True),
    sa.Column("rating", sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint("tournament_id", "account_id"),
)
sa.Index("ix_parlour_tournament_players_account_id", *_columns("parlour_tournament_players", "account_id"), unique=False)
sa.Table(
    "parlour_tournament_rounds", metadata,
    sa.Column("tournament_id", sa.String(length=16), nullable=False),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("byes", sa.JSON(), nullable=False),
    sa.Column("started_at", sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint("tournament_id", "round"),
)
sa.Table(
    "parlour_tournaments", metadata,
    sa.Column("id", sa.String(length=16), nullable=False),
    sa.Column("name", sa.String(length=64), nullable=False),
    sa.Column("game", sa.String(length=64), nullable=False),
    sa.Column("params", sa.JSON(), nullable=False),
    sa.Column("players_per_table", sa.Integer(), nullable=False),
    sa.Column("format", sa.String(length=16), nullable=False),
    sa.Column("rounds", sa.Integer(), nullable=False),
    sa.Column("clock", sa.JSON(), nullable=True),
    sa.Column("rated", sa.Boolean(), nullable=False),
    sa.Column("grace", sa.Float(), nullable=False),
    sa.Column("max_players", sa.Integer(), nullable=False),
    sa.Column("created_by", sa.Integer(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.Column("starts_at", sa.Float(), nullable=True),
    sa.Column("status", sa.String(length=16), nullable=False),
    sa.Column("round", sa.Integer(), nullable=False),
    sa.Column("started_at", sa.Float(), nullable=True),
    sa.Column("finished_at", sa.Float(), nullable=True),
    sa.Column("cancelled", sa.String(length=120), nullable=True),
    sa.PrimaryKeyConstraint("id"),
)
sa.Index("ix_parlour_tournaments_created_by", *_columns("parlour_tournaments", "created_by"), unique=False)
sa.Index("ix_parlour_tournaments_starts_at", *_columns("parlour_tournaments", "starts_at"), unique=False)
sa.Index("ix_parlour_tournaments_status", *_columns("parlour_tournaments", "status"), unique=False)
sa.Table(
    "parlour_webauthn_challenges", metadata,
    sa.Column("id_hash", sa.String(length=64), nullable=False),
    sa.Column("challenge", sa.LargeBinary(length=64), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=True),
    sa.Column("purpose", sa.String(length=16), nullable=False),
    sa.Column("expires_at", sa.Float(), nullable=False),
    sa.Column("client", sa.String(length=64), nullable=True),
    sa.PrimaryKeyConstraint("id_hash"),
)
sa.Index("ix_parlour_webauthn_challenges_client", *_columns("parlour_webauthn_challenges", "client"), unique=False)
sa.Index("ix_parlour_webauthn_challenges_expires_at", *_columns("parlour_webauthn_challenges", "expires_at"), unique=False)
sa.Table(
    "parlour_actions", metadata,
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("seq", sa.Integer(), nullable=False),
    sa.Column("action", sa.Integer(), nullable=False),
    sa.Column("player", sa.Integer(), nullable=False),
    sa.Column("client_key", sa.String(length=160), nullable=True),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(["table_id"], ["parlour_tables.id"], ),
    sa.PrimaryKeyConstraint("table_id", "seq"),
    sa.UniqueConstraint("table_id", "client_key"),
)
sa.Table(
    "parlour_chat", metadata,
    sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("channel", sa.String(length=16), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=True),
    sa.Column("name", sa.String(length=64), nullable=False),
    sa.Column("text", sa.String(length=2000), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(["table_id"], ["parlour_tables.id"], ),
    sa.PrimaryKeyConstraint("id"),
)
sa.Index("ix_parlour_chat_table_id", *_columns("parlour_chat", "table_id"), unique=False)
sa.Table(
    "parlour_events", metadata,
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("seq", sa.Integer(), nullable=False),
    sa.Column("at", sa.Integer(), nullable=False),
    sa.Column("kind", sa.String(length=16), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=True),
    sa.Column("data", sa.JSON(), nullable=False),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(["table_id"], ["parlour_tables.id"], ),
    sa.PrimaryKeyConstraint("table_id", "seq"),
)
sa.Table(
    "parlour_hands", metadata,
    sa.Column("token", sa.String(length=64), nullable=False),
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("hand", sa.Integer(), nullable=False),
    sa.Column("seats", sa.JSON(), nullable=False),
    sa.Column("role", sa.String(length=16), nullable=False),
    sa.Column("creator", sa.Boolean(), nullable=False),
    sa.Column("account_id", sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(["table_id"], ["parlour_tables.id"], ),
    sa.PrimaryKeyConstraint("token"),
    sa.UniqueConstraint("table_id", "hand"),
)
sa.Index("ix_parlour_hands_account_id", *_columns("parlour_hands", "account_id"), unique=False)
sa.Index("ix_parlour_hands_table_id", *_columns("parlour_hands", "table_id"), unique=False)
sa.Table(
    "parlour_seats", metadata,
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("seat", sa.Integer(), nullable=False),
    sa.Column("kind", sa.String(length=16), nullable=False),
    sa.Column("agent", sa.String(length=64), nullable=True),
    sa.Column("name", sa.String(length=64), nullable=True),
    sa.Column("account_id", sa.Integer(), nullable=True),
    sa.Column("bot", sa.Boolean(), nullable=True),
    sa.ForeignKeyConstraint(["table_id"], ["parlour_tables.id"], ),
    sa.PrimaryKeyConstraint("table_id", "seat"),
)
sa.Index("ix_parlour_seats_account_id", *_columns("parlour_seats", "account_id"), unique=False)
sa.Table(
    "parlour_taken_back", metadata,
    sa.Column("table_id", sa.String(length=32), nullable=False),
    sa.Column("undo", sa.Integer(), nullable=False),
    sa.Column("seq", sa.Integer(), nullable=False),
    sa.Column("action", sa.Integer(), nullable=False),
    sa.Column("player", sa.Integer(), nullable=False),
    sa.Column("client_key", sa.String(length=160), nullable=True),
    sa.Column("created_at", sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(["table_id"], ["parlour_tables.id"], ),
    sa.PrimaryKeyConstraint("table_id", "undo", "seq"),
)
