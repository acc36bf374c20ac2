"""The chat application: tables, lobby, turn flow and storage, with one adapter per chat platform."""
