"""The terminal table: keys, drawing, the asyncio app and the replay viewer.

Imports the core, the players and storage; never the command line.
"""
