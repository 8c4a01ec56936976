"""Play across two terminals: the wire protocol, the host's table, the joiner's end."""
