"""The game itself: cards, house rules, the rules engine, the notation and the table
on an outside clock. Imports nothing else of the package; no terminal, clock or global random.
"""
