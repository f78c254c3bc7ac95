"""The project's own puzzle library, installed as grader.library."""
