"""Reports of a grading run.

Text and JSON (`autograder.reports.report`), Gradescope's format and package
(`autograder.reports.gradescope`).
"""
