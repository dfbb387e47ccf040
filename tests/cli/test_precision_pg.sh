# A run's environment replaced as it ends (run --iterations auto stores why
# it stopped there) on PostgreSQL too: the unit test of it against a
# throwaway server (tests/pg-setup).
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ROOT/tests/pg-setup"
case "$VMR" in *asan*) UNIT=$ROOT/build/unit-asan ;; *) UNIT=$ROOT/build/unit ;; esac

if [ ! -x "$UNIT/test_store_env" ]; then
	skip "the environment replaced on PostgreSQL" "build $UNIT/test_store_env first"
	done_testing; exit 0
fi
if ! pg_start; then
	skip "the environment replaced on PostgreSQL" "$PG_SKIP"
	done_testing; exit 0
fi
if pg_psql "CREATE DATABASE envdb OWNER fleet" >/dev/null; then
	url="postgresql://fleet:$PG_PASS@/envdb?host=$PG_DIR"
	out=$(VMR_TEST_STORE=$url "$UNIT/test_store_env" 2>&1); rc=$?
	[ $rc = 0 ] && grep -q "^ok - the new environment is what loads" <<< "$out" \
		&& ok "the environment replaced on PostgreSQL" \
		|| not_ok "the environment replaced on PostgreSQL (exit $rc: $(grep -m1 'not ok' <<< "$out"))"
else
	not_ok "a database for the check"
fi
done_testing
