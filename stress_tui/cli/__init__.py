"""The command line: flags, the config file and the commands that tie the layers together."""
