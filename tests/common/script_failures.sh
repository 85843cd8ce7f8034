# Sourced by the test scripts: how they fail and show a log.
#   fail MESSAGE   prints "FAIL: MESSAGE" to stderr and exits 1
#   show FILE      prints the last 40 lines of a log after a failure

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

show() {
    echo "---- $1" >&2
    tail -n 40 "$1" >&2
    echo "----" >&2
}
