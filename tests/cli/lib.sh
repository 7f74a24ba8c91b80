# lib.sh - helpers shared by the CLI test scripts (run.sh, validate.sh),
# sourced after the script has set:
#   tmp     its temporary directory (out, err and diff files go there)
#   T       the binary `expect` runs
#   PREFIX  what each result line names first ("" or "validate: ")
# It counts results in pass and failed.

pass=0
failed=0

ok() { pass=$((pass + 1)); echo "ok   $PREFIX$1"; }
bad() {
	failed=$((failed + 1))
	echo "FAIL $PREFIX$1: $2"
	sed 's/^/     | /' "$tmp/out" "$tmp/err" | head -n 20
}

# expect NAME CODE PHRASE ARGS...: $T ARGS must exit with CODE and print
# PHRASE (fixed string) on stdout or stderr.
expect() {
	name=$1 code=$2 phrase=$3
	shift 3
	"$T" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ne "$code" ]; then
		bad "$name" "exit status $rc, expected $code"
	elif ! cat "$tmp/out" "$tmp/err" | grep -qF -- "$phrase"; then
		bad "$name" "output lacks \"$phrase\""
	else
		ok "$name"
	fi
}
