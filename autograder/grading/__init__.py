"""Grading: tree tests, game traces and evaluation games, and the suite that runs them.

The grader's side of a test: it starts the worker (`autograder.grading.workers`), answers
its successor requests (`autograder.grading.servers`), computes the expected answers
from our reference searches and names the bug behind a wrong one
(`autograder.grading.catalogue`).
"""
