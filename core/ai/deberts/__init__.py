"""Computer players for Deberts, one module per role: ``memory`` (what the public events told), ``table``
(the seat's picture of the table), ``easy``, ``normal`` and ``strong`` (``core.ai.player`` calls them)."""
