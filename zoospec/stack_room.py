"""Room on Python's frame stack for long work (a workaround for CPython gh-142183).

Since 3.11 CPython keeps its frames in 16 KiB chunks that it maps and unmaps as the stack grows
and shrinks across a chunk's end. Code whose calls keep crossing one end — every Z3 API call makes
a Python frame (its arguments' `from_param`, its objects' `__init__`) — then makes an mmap and a
munmap per call. Measured here (Python 3.11.7, a pytest-xdist worker, whose deeper base stack put
the end right where the compiler's calls were): 30,000 of each a second, half of the CPU in the
kernel, New York Zoo's transition-relation tests 3x slower than in a plain process. CPython 3.13
and 3.14 keep one spare chunk since March 2026; the Python this project runs on does not.

`run(fn)` calls `fn` from a frame whose own size makes CPython give it a 1 MiB chunk with about
half of it free after it: the ~1,000 frames above it start in the middle of a chunk, far from
either end. The frame's size is its code's `co_stacksize`, raised on a copy of a tiny function's
code (no code is generated). Nested calls on the same thread run `fn` directly (a second room
inside the first would use up the first's free half)."""
from __future__ import annotations

import threading

# Words of the room-making frame: CPython gives a frame of n words a chunk of the smallest power
# of two >= 8 * (n + 1000) bytes; 65,000 words make that 1 MiB with ~528 KiB free above the frame.
ROOM_WORDS = 65_000

_inside = threading.local()


def _call(fn):
    return fn()


_roomy = type(_call)(_call.__code__.replace(co_stacksize=ROOM_WORDS), globals(), "_roomy")


def run(fn):
    """fn() on a stack with room: its calls do not make CPython map and unmap frame chunks."""
    if getattr(_inside, "yes", False):
        return fn()
    _inside.yes = True
    try:
        return _roomy(fn)
    finally:
        _inside.yes = False
