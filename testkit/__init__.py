"""Test doubles and gallery data, kept out of the shipped packages: the fake platforms (``fake_bot_api``,
``fake_discord``), the in-memory port (``fakeport``), players that drive them, sample events and the real game
positions the picture gallery and tests use (``positions``). Tests and benchmarks import it from a checkout;
the wheel ships ``core``, ``renderers`` and ``bot`` only."""
