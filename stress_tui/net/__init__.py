"""Play across two terminals: the wire protocol, the host's table, the joiner's end."""

DEFAULT_PORT = 7325
"""Where a host listens unless told otherwise (here, where ``host --help`` reads it without
loading the protocol and asyncio)."""
