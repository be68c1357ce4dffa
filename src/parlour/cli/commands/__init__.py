"""One module per ``parlour`` command; each defines ``register(app: typer.Typer)``."""
