"""The terminal table: keys, drawing, the asyncio app and the replay viewer.

Imports the core, the players and storage; never the command line.
"""

import os

# blessed asks the terminal two questions when a ``Terminal`` is made (XTGETTCAP and
# XTVERSION), each waiting up to this many seconds, a value read once when blessed is first
# imported (its documented knob). Its own default is 5 s, so a terminal that answers no
# query (an Emacs shell buffer, a serial console, a recorder) took 11.7 s to start. The
# game's questions after those are asked only of a terminal that answers
# (``endpoint.Endpoint.ask``). A value set by the user stands.
os.environ.setdefault("BLESSED_QUERY_TIMEOUT_SECONDS", "0.2")
