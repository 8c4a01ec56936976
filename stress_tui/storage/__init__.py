"""What is kept on disk: files written atomically, replays and the record. Imports the core."""
