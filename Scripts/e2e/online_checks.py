"""The failure list and check helpers that the online end-to-end scripts share.

A failed check is printed at once and counted; `finish` ends the script with exit code 1 when
any check failed, so one run reports every failure instead of the first.
"""

import sys

failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message, file=sys.stderr, flush=True)


def check(condition, message):
    if not condition:
        fail(message)
    return condition


def finish(script, success):
    """Exits 1 after naming the count of failures, or prints `success` and returns."""
    if failures:
        print(f"{script}: {len(failures)} failure(s)", file=sys.stderr)
        sys.exit(1)
    print(f"{script}: {success}")
