"""`kittens serve`: a playtest table in the browser.

The server keeps every game and shows each connection only what its seat may
know. The modules, from the inside out:

* ``words``: events, decisions and options put into words for one viewer;
* ``render``: what one seat (or a spectator) is sent: its view, its log, its prompt;
* ``room``: one table: the engine driven by people and bots, reaction windows on a
  clock, every decision stored as it is made;
* ``storage``: rooms and decisions in SQLite;
* ``retire``: when a table closes (its game over for a while, or nobody playing);
* ``rulesets``: the rules a table may use: shipped editions, the server's own
  files, and house rules uploaded in the page, loaded bounded and confined (and
  checked in a process of their own, on a time limit);
* ``quotas``: how many uploads one device and the server keep, which expire;
* ``runner``: every table's rules run off the event loop, on a time budget;
* ``lanes``, ``lane_worker``, ``remote``: uploaded rules run in processes of their own
  (lanes), where a job past its time limit is stopped half-way; a ``RemoteRoom`` stands
  in the server for a table whose room lives in a lane;
* ``tables``: every table of a server: made from the lobby's form, brought back at a
  restart, in the server or in a lane;
* ``social``: the people around a table: names, presence, chat, the next game;
* ``backoff``: a device cut off for flooding waits before it may come back;
* ``site``: what the routes of one server share (settings, tables, rate limits);
* ``routes``: the pages and the lobby's JSON; ``connection``: one websocket;
* ``app``: the ASGI application (Starlette) made of those.

The server's modules (``app``, ``site``, ``routes``, ``connection``, ``tables``) need
the web extra (``pip install 'kittens-engine[web]'``).
"""
