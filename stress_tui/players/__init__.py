"""The computer players and the headless simulator. Imports only the core."""
