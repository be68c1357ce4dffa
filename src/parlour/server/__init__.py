"""The web table: ``parlour serve``.

A FastAPI app (:func:`create_app`) with an SQLAlchemy store, websockets for live play and a
static front-end. See ``docs/web.md`` for the architecture and the guarantees it keeps.
"""

from typing import Any

from parlour.core.extras import needs_extra

__all__ = ["create_app", "default_db_url", "normalise_db_url", "run"]


def __getattr__(name: str) -> Any:
    """The app and its configuration load on first use, so that importing this package (as
    ``python -m parlour.server`` does) works without the web extra and the command can say
    which extra to install instead of failing with a traceback."""
    if name == "create_app":
        with needs_extra("web", "the web table"):
            from parlour.server.web.app import create_app

        return create_app
    if name in ("default_db_url", "normalise_db_url"):
        with needs_extra("web", "the web table"):
            from parlour.server.persistence import config

        return getattr(config, name)
    raise AttributeError(f"module 'parlour.server' has no attribute {name!r}")


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    *,
    open_browser: bool = False,
    ai_mode: str = "process",
    ai_delay: float = 0.3,
    ai_deadline: float | None = None,
    log_level: str = "info",
    limits: str | None = None,
    allowed_origins: tuple[str, ...] = (),
    trusted_proxies: tuple[str, ...] = (),
    archive_after: float | None = None,
    allowed_hosts: tuple[str, ...] = (),
    secure_cookies: bool = False,
    smtp: str | None = None,
    public_url: str | None = None,
    metrics: bool = True,
    metrics_from: tuple[str, ...] | None = None,
    log_format: str = "text",
    upgrade: bool = False,
) -> None:
    """Serve until interrupted (blocking).

    ``limits`` is ``"name=value,..."`` over the defaults (and ``$PARLOUR_LIMITS``);
    ``trusted_proxies`` are the addresses of reverse proxies whose ``X-Forwarded-For`` names
    the real client (for the per-client limits); nobody's is trusted by default.
    ``allowed_hosts`` are names the server is served as besides the loopback names and
    ``host`` (a request with another ``Host`` is refused: DNS rebinding). ``metrics`` records
    and serves ``/metrics`` to the addresses or networks ``metrics_from`` (default this machine),
    seen past the trusted proxies; ``log_format`` is ``text`` or ``json``. ``upgrade`` brings
    a database at an older schema revision to the head (else it is refused).
    """
    import socket
    import threading
    import webbrowser

    with needs_extra("web", "the web table"):
        import uvicorn

        from parlour.server.web.app import create_app
    from parlour.server import metrics as measured
    from parlour.server.limits import Limits
    from parlour.server.web import logs
    from parlour.server.web import metrics as served
    from parlour.server.web.security import install_redaction, served_hosts

    measured.configure(on=metrics, process=f"{socket.gethostname()}:{port}")
    watch = served.Settings(on=metrics, trusted=trusted_proxies, allowed=served.networks(
        metrics_from or served.LOOPBACK))

    app = create_app(
        db_url,
        ai_mode=ai_mode,
        ai_delay=ai_delay,
        ai_deadline=ai_deadline,
        limits=Limits.from_text(limits, Limits.from_env()),
        allowed_origins=allowed_origins,
        archive_after=archive_after,
        allowed_hosts=served_hosts(host, allowed_hosts),
        secure_cookies=secure_cookies,
        smtp=smtp,
        public_url=public_url or f"http://{host}:{port}",
        metrics=watch,
        upgrade=upgrade,
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=",".join(trusted_proxies) or None,
        server_header=False,
        # SIGTERM: stop taking connections, close websockets (clients reconnect to another
        # process), give requests in flight this long, then stop the computer players
        timeout_graceful_shutdown=10,
        ws_max_size=65536,
        # game messages are a few kB: compressing each costs more CPU than it saves on a LAN
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        **logs.uvicorn_config(log_format),
    )
    install_redaction()  # uvicorn.Config has just configured its loggers
    server = uvicorn.Server(config)
    if open_browser:

        def _open_when_ready() -> None:
            import time

            while not server.started and not server.should_exit:
                time.sleep(0.05)
            if server.started:
                shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
                webbrowser.open(f"http://{shown}:{port}/")

        threading.Thread(target=_open_when_ready, daemon=True).start()
    server.run()
