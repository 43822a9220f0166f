#!/usr/bin/env bash
# End to end: accounts, two-factor sign-in, stats and history, by running the built binary.
#
#   bash Scripts/e2e/accounts.sh PATH_TO_TICTACTOE
#
# Exits non-zero with a sentence on the first failed check. Uses a temporary database and
# cheap password hashing (TICTACTOE_PASSWORD_COST=test); TOTP codes come from Python's hmac.
set -euo pipefail

tictactoe=${1:?usage: bash Scripts/e2e/accounts.sh PATH_TO_TICTACTOE}
tictactoe=$(cd "$(dirname "$tictactoe")" && pwd)/$(basename "$tictactoe")
# The system interpreter first: a pyenv or venv python3 earlier on PATH may be broken.
python=$(command -p -v python3 || command -v python3) || {
  echo "accounts.sh: python3 is needed to compute TOTP codes" >&2
  exit 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TICTACTOE_DATABASE="$work/tictactoe.sqlite" TICTACTOE_PASSWORD_COST=test
user=alice
password='correct horse battery'
checks=0

fail() {
  echo "accounts.sh: FAILED: $*" >&2
  exit 1
}

pass() {
  checks=$((checks + 1))
  echo "ok $checks - $*"
}

# The RFC 6238 code (SHA-1, 6 digits, 30 s) for a base32 secret, STEPS steps from now.
totp() {
  "$python" - "$1" "${2:-0}" <<'PYTHON'
import base64, hashlib, hmac, struct, sys, time
secret, steps = sys.argv[1], int(sys.argv[2])
key = base64.b32decode(secret.upper() + "=" * (-len(secret) % 8))
counter = int(time.time()) // 30 + steps
mac = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
offset = mac[-1] & 0x0F
number = (struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000
print(f"{number:06d}")
PYTHON
}

# Runs tictactoe with INPUT on stdin; sets status, output and error.
run() {
  local input=$1
  shift
  set +e
  printf '%s' "$input" | "$tictactoe" "$@" >"$work/out" 2>"$work/err"
  status=$?
  set -e
  output=$(cat "$work/out")
  error=$(cat "$work/err")
}

expect_status() {
  [[ $status == "$1" ]] || fail "$2: exit $status, expected $1 (stderr: $error)"
  pass "$2"
}

# MARK: - Accounts

run "$password"$'\n' account create "$user" --password-stdin
expect_status 0 "account create"

run "" account list --json
expect_status 0 "account list --json"
[[ $output == '{"accounts":[{"id":1,"userName":"alice","twoFactor":false}]}' ]] ||
  fail "account list --json printed $output"

run "wrong password"$'\n' login "$user" --password-stdin
expect_status 1 "login with a wrong password"
run "wrong password"$'\n' login nobody --password-stdin
expect_status 1 "login as an unknown user"
unknown_error=$error
run "wrong password"$'\n' login "$user" --password-stdin
[[ $error == "$unknown_error" ]] || fail "unknown user and wrong password differ: $error"
pass "the message does not reveal whether the user exists"

run "$password"$'\n' login "$user" --password-stdin
expect_status 0 "login with the right password"

# MARK: - Two-factor

# 2fa-enable prints the secret and URI, then waits for a code computed from them. Its output
# goes to a file, so the lines only appear in time if the program flushes them.
mkfifo "$work/enable.in"
"$tictactoe" account 2fa-enable "$user" --password-stdin <"$work/enable.in" \
  >"$work/enable.out" 2>"$work/enable.err" &
enable_pid=$!
exec {to_enable}>"$work/enable.in"
printf '%s\n' "$password" >&"$to_enable"
for _ in $(seq 300); do
  (($(wc -l <"$work/enable.out") >= 2)) && break
  sleep 0.1
done
(($(wc -l <"$work/enable.out") >= 2)) || fail "2fa-enable printed no secret and URI in time"
{ IFS= read -r secret_line && IFS= read -r uri_line; } <"$work/enable.out"
secret=${secret_line#Secret: }
[[ $secret =~ ^[A-Z2-7]{32}$ ]] || fail "2fa-enable printed $secret_line"
[[ $uri_line == "URI: otpauth://totp/"*"secret=$secret"* ]] || fail "2fa-enable printed $uri_line"
pass "2fa-enable shows the secret and the otpauth:// URI"
printf '%s\n' "$(totp "$secret")" >&"$to_enable"
exec {to_enable}>&-
wait "$enable_pid" || fail "2fa-enable failed: $(cat "$work/enable.err")"
mapfile -t enable_rest <"$work/enable.out"
recovery_codes=()
for line in "${enable_rest[@]}"; do
  [[ $line =~ ^[a-z2-7]{5}-[a-z2-7]{5}$ ]] && recovery_codes+=("$line")
done
((${#recovery_codes[@]} == 8)) || fail "expected 8 recovery codes, got: ${enable_rest[*]}"
pass "2fa-enable turns on with a valid code and prints 8 recovery codes"

run "$password"$'\n' login "$user" --password-stdin
expect_status 1 "login without a code when two-factor is on"

# The enabling code used this time step; the next step's code is within the allowed ±1.
code=$(totp "$secret" 1)
run "$password"$'\n'"$code"$'\n' login "$user" --password-stdin
expect_status 0 "login with the TOTP code on the next input line"
run "$password"$'\n' login "$user" --password-stdin --code "$code"
expect_status 1 "the same TOTP code is not accepted twice"
run "$password"$'\n' login "$user" --password-stdin --code "${recovery_codes[0]}"
expect_status 0 "login with a recovery code"
run "$password"$'\n' login "$user" --password-stdin --code "${recovery_codes[0]}"
expect_status 1 "a recovery code works once"

# MARK: - Changes to a two-factor account need a code

run "$password"$'\n' account 2fa-disable "$user" --password-stdin
expect_status 1 "2fa-disable without a code"
[[ $error == *"two-factor on: pass --code CODE"* ]] || fail "2fa-disable without a code said: $error"
run "$password"$'\n'"new password!"$'\n' account passwd "$user" --password-stdin
expect_status 1 "passwd without a code"
run "$password"$'\n' account delete "$user" --password-stdin
expect_status 1 "delete without a code"
run "" stats "$user" --reset --yes
expect_status 2 "stats --reset of an account without its password"
run "$password"$'\n' stats "$user" --reset --yes --password-stdin
expect_status 1 "stats --reset of a two-factor account without a code"
run "" account list
[[ $output == "alice  (two-factor on)" ]] || fail "the account changed: $output"
pass "nothing changed without a code"

run "$password"$'\n' account recovery-codes "$user" --password-stdin --code "${recovery_codes[1]}"
expect_status 0 "recovery-codes with a recovery code"
mapfile -t renewed < <(grep -E '^[a-z2-7]{5}-[a-z2-7]{5}$' <<<"$output")
((${#renewed[@]} == 8)) || fail "recovery-codes printed $output"
run "$password"$'\n' login "$user" --password-stdin --code "${recovery_codes[2]}"
expect_status 1 "an old recovery code after recovery-codes"
recovery_codes=("${renewed[@]}")
run "$password"$'\n' login "$user" --password-stdin --code "${recovery_codes[0]}"
expect_status 0 "a new recovery code"
[[ $output == "Signed in as alice; 7 recovery codes left"* ]] || fail "login printed $output"
pass "login says how many recovery codes are left"

# MARK: - Two set-ups at once

# Two 2fa-enable runs for one account, each waiting for its code: the first code turns
# two-factor on; the second run says it is already on, without claiming it stays off.
run "$password"$'\n' account create dora --password-stdin
expect_status 0 "account create dora"
for side in first second; do
  mkfifo "$work/$side.in"
  "$tictactoe" account 2fa-enable dora --password-stdin <"$work/$side.in" \
    >"$work/$side.out" 2>"$work/$side.err" &
  declare "${side}_pid=$!"
  exec {descriptor}>"$work/$side.in"
  declare "to_${side}=$descriptor"
  printf '%s\n' "$password" >&"$descriptor"
  for _ in $(seq 300); do
    (($(wc -l <"$work/$side.out") >= 2)) && break
    sleep 0.1
  done
  (($(wc -l <"$work/$side.out") >= 2)) || fail "the $side 2fa-enable printed no secret in time"
done
first_secret=$(sed -n 's/^Secret: //p' "$work/first.out")
second_secret=$(sed -n 's/^Secret: //p' "$work/second.out")
printf '%s\n' "$(totp "$first_secret")" >&"$to_first"
exec {to_first}>&-
wait "$first_pid" || fail "the first 2fa-enable failed: $(cat "$work/first.err")"
printf '%s\n' "$(totp "$second_secret")" >&"$to_second"
exec {to_second}>&-
set +e
wait "$second_pid"
second_status=$?
set -e
second_error=$(cat "$work/second.err")
((second_status == 1)) || fail "the second 2fa-enable exited $second_status: $second_error"
[[ $second_error == *"Two-factor is already on for this account."* &&
  $second_error != *"stays off"* ]] || fail "the second 2fa-enable said: $second_error"
pass "a second set-up at once is told two-factor is already on, not that it stays off"

# MARK: - An unknown user costs as much as a wrong password

# Production hashing for this one account, so a difference would show: before the decoy had
# the same cost, an unknown name took twice as long.
TICTACTOE_PASSWORD_COST= run "$password"$'\n' account create timer --password-stdin
expect_status 0 "account create with production hashing"
elapsed() {
  local start end
  start=$(date +%s%N)
  TICTACTOE_PASSWORD_COST= run "not the password"$'\n' login "$1" --password-stdin
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
known=() unknown=()
for _ in 1 2 3; do
  known+=("$(elapsed timer)")
  unknown+=("$(elapsed "ghost$RANDOM")")
done
median() { printf '%s\n' "$@" | sort -n | sed -n 2p; }
known_ms=$(median "${known[@]}")
unknown_ms=$(median "${unknown[@]}")
echo "accounts.sh: a wrong password takes ${known_ms} ms, an unknown user ${unknown_ms} ms"
((unknown_ms * 10 <= known_ms * 14 && known_ms * 10 <= unknown_ms * 14)) ||
  fail "an unknown user takes ${unknown_ms} ms against ${known_ms} ms for a wrong password"
pass "an unknown user and a wrong password take the same time"

# MARK: - Stats and history

run "" stats "$user" --json
expect_status 0 "stats --json"
[[ $output == '{"user":"alice","games":0,'* ]] || fail "stats --json printed $output"
run "" history "$user"
expect_status 0 "history"
[[ $output == "No games recorded for alice." ]] || fail "history printed $output"

# A scripted game in plain mode, signed in as alice (the TOTP codes of this time step are spent,
# so with a second recovery code): alice (X) and a friend at the same keyboard; X takes the
# top row.
run "$password"$'\n'"${recovery_codes[1]}"$'\n'$'a1\na2\nb1\nb2\nc1\n' \
  play --plain --user "$user" --password-stdin --computer none --o Bob
expect_status 0 "play --plain as alice"
[[ $output == *"alice, place your X"* && $output == *"X wins with a1, b1, c1."* ]] ||
  fail "play --plain printed $output"
pass "alice plays a game in plain mode after signing in with two-factor"

run "" stats "$user" --json
expect_status 0 "stats --json after a game"
"$python" -c '
import json, sys
stats = json.loads(sys.argv[1])
assert stats["games"] == 1 and stats["wins"] == 1 and stats["losses"] == 0, stats
assert stats["currentStreak"] == 1 and stats["bestStreak"] == 1, stats
assert stats["opponents"] == [
    {"opponent": "person", "games": 1, "wins": 1, "losses": 0, "draws": 0}], stats
assert stats["recentGames"][0]["board"] == "xxx/oo./...", stats
' "$output" || fail "stats --json printed $output"
pass "stats --json counts the game"

run "" history "$user"
expect_status 0 "history after a game"
[[ $output =~ ^[0-9]+\ \  && $output == *"alice (X) vs Bob (O)  3×3  xxx/oo./...  X won" ]] ||
  fail "history printed $output"
pass "history lists the game"

game_id=${output%% *}
run "" replay "$game_id"
expect_status 0 "replay"
[[ $output == *"X plays a1."*"O plays a2."*"X wins with a1, b1, c1." ]] ||
  fail "replay printed $output"
pass "replay tells the game move by move"

# MARK: - A damaged database is reported and left alone

head -c 8192 /dev/urandom >"$work/damaged.sqlite"
before=$(cksum <"$work/damaged.sqlite")
run "" stats --database "$work/damaged.sqlite"
expect_status 1 "a damaged database fails"
[[ $(cksum <"$work/damaged.sqlite") == "$before" ]] || fail "the damaged database was changed"
pass "the damaged database is unchanged"

# Another program holding the write lock: the command waits its busy timeout, then says so.
before=$(cksum <"$TICTACTOE_DATABASE")
"$python" - "$TICTACTOE_DATABASE" "$work/locked" <<'PYTHON' &
import os, sqlite3, sys, time
database = sqlite3.connect(sys.argv[1], isolation_level=None)
database.execute("BEGIN EXCLUSIVE")
open(sys.argv[2], "w").close()
time.sleep(15)
database.execute("ROLLBACK")
PYTHON
locker=$!
for _ in $(seq 100); do [[ -e $work/locked ]] && break; sleep 0.1; done
run "another password"$'\n' account create bob --password-stdin
kill "$locker" 2>/dev/null || true
wait "$locker" 2>/dev/null || true
expect_status 1 "a locked database fails"
[[ $error == *"is locked by another program"* ]] || fail "a locked database said: $error"
[[ $(cksum <"$TICTACTOE_DATABASE") == "$before" ]] || fail "the locked database was changed"
pass "the locked database is reported and unchanged"

# Another user (run as root only): a database this user cannot read, in a folder it cannot
# write, is said to be unreadable, not read-only; and it is left as it was.
if [[ $(id -u) == 0 ]] && command -v runuser >/dev/null; then
  shared=$(mktemp -d)
  chmod 755 "$shared"
  cp "$tictactoe" "$shared/tictactoe"
  mkdir "$shared/closed"
  cp "$TICTACTOE_DATABASE" "$shared/closed/tictactoe.sqlite"
  chmod 600 "$shared/closed/tictactoe.sqlite"
  chmod 555 "$shared/closed"
  before=$(cksum <"$shared/closed/tictactoe.sqlite")
  set +e
  error=$(printf 'x\n' | runuser -u nobody -- env HOME="$shared" "$shared/tictactoe" login alice \
    --password-stdin --database "$shared/closed/tictactoe.sqlite" 2>&1 >/dev/null)
  status=$?
  set -e
  chmod 755 "$shared/closed"
  [[ $status == 1 && $error == *"cannot be opened: this user may not read or write it"* ]] ||
    { rm -rf "$shared"; fail "an unreadable database in a closed folder said ($status): $error"; }
  [[ $(cksum <"$shared/closed/tictactoe.sqlite") == "$before" ]] ||
    { rm -rf "$shared"; fail "the unreadable database was changed"; }
  [[ $(ls "$shared/closed") == tictactoe.sqlite ]] ||
    { rm -rf "$shared"; fail "files were left beside the unreadable database: $(ls "$shared/closed")"; }
  rm -rf "$shared"
  pass "another user's unreadable database is said to be unreadable and left as it was"
fi

echo "accounts.sh: all $checks checks passed"
