"""The autograder: grades student search agents against reference trees and real games.

Run it as ``autograder`` (or ``python -m autograder``). The student's code runs only in
worker processes (`autograder.worker`); the grader computes and counts every state the
student's search generates (`autograder.proxy_server`) and reports per test and question
(`autograder.report`).
"""
