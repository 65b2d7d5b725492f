"""Back ends: each is a walker over the core IR with exactly one handler per op."""


class MissingHandler(NotImplementedError):
    """A back end met an IR op it has no handler for: a bug in zoospec, never skipped."""
