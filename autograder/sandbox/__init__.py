"""What runs in the worker process, next to the student's code.

The worker (`autograder.sandbox.worker`, run as ``python -m autograder.sandbox.worker``),
the state proxies it hands to the student's agent (`autograder.sandbox.proxy`), their
classic camelCase view (`autograder.sandbox.classic_state`), the classic ``util`` and
``game`` modules (``classic_shim/``) and the student base class
(`autograder.sandbox.student`). This package is exactly what a submission may import
from the autograder; it imports nothing else of it.
"""
