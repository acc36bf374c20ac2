"""Pictures of hands, tables and score sheets drawn with Pillow from game views (bytes out, no chat code)."""
