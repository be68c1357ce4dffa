"""The web application: the FastAPI app, its routes and what a request passes first.

- :mod:`.app`: the app, its services built once and its background rounds;
- :mod:`.routes`: one router per concern (FastAPI's "bigger applications" layout);
- :mod:`.deps`: what the routes need from a request, as FastAPI dependencies;
- :mod:`.auth`: who is asking, for the routes programs use (API token or session);
- :mod:`.security`: the outer wall every request passes (hosts, origins, headers, rates);
- :mod:`.language`, :mod:`.templating`, :mod:`.rules`: the reader's language, the pages'
  templates and the rules pages.

The top group: it may import every other one; only the package itself (``parlour.server``:
``create_app``, ``run``) imports it.
"""
