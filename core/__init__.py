"""The rules core: pure-Python game logic for Thousand, Deberts and Kozel (no chat, no database, no images)."""
