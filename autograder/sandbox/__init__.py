"""What runs in the worker process, next to the student's code.

The worker (`autograder.sandbox.worker`, run as ``python -m autograder.sandbox.worker``),
the state proxies it hands to the student's agent (`autograder.sandbox.proxy`) and the
student base class (`autograder.sandbox.student`); the classic camelCase view and the
classic ``util`` and ``game`` modules come from `pacman.classic`, which the ``pacman``
command shares. This package is exactly what a submission may import
from the autograder; it imports nothing else of it.
"""
