# output.sh: how output files are written. A device or FIFO is written in
# place (renaming over /dev/null once replaced the device: never again); a
# symlink's target is replaced, not the link; new files follow the umask;
# a replaced file keeps its mode; nothing is left beside the output.
. tests/lib.sh
IN=$DATA/art/perflib-basic.trace
cd "$TMP" || exit 1

mkfifo fifo
cat fifo >from-fifo &
reader=$!
"$AFLAME" "$OLDPWD/$IN" -o fifo 2>/dev/null
rc=$?
wait "$reader"
check "output/a FIFO stays a FIFO" test -p fifo
check "output/the FIFO received the graph" grep -q '</svg>' from-fifo
check "output/writing to a FIFO succeeds" test "$rc" -eq 0

echo old >real.svg
ln -s real.svg link.svg
"$AFLAME" "$OLDPWD/$IN" -o link.svg 2>/dev/null
check "output/a symlink stays a symlink" test -L link.svg
check "output/the symlink's target gets the graph" grep -q '</svg>' real.svg

rm -f new.svg
(umask 077 && "$AFLAME" "$OLDPWD/$IN" -o new.svg 2>/dev/null)
check "output/a new file follows the umask (077: 600)" test "$(stat -c %a new.svg)" = 600
rm -f new.svg
(umask 022 && "$AFLAME" "$OLDPWD/$IN" -o new.svg 2>/dev/null)
check "output/a new file follows the umask (022: 644)" test "$(stat -c %a new.svg)" = 644
chmod 640 new.svg
(umask 022 && "$AFLAME" "$OLDPWD/$IN" -o new.svg 2>/dev/null)
check "output/a replaced file keeps its mode (640)" test "$(stat -c %a new.svg)" = 640

# a name of 255 bytes (NAME_MAX) leaves no room for ".<name>.XXXXXX": the
# temporary file gets a short name in the same directory
long=$(printf 'x%.0s' $(seq 251)).svg
"$AFLAME" "$OLDPWD/$IN" -o "$long" 2>/dev/null
check "output/a 255-byte output name is written" grep -q '</svg>' "$long"
rm -f "$long"

# --max-input-size: /dev/zero, a pipe and a regular file over the cap stop
# with one line and exit 1, and no output file appears
"$AFLAME" --max-input-size 64K /dev/zero -o capped.svg 2>capped.err
check "output/--max-input-size stops /dev/zero (exit 1)" test $? -eq 1
check "output/--max-input-size says why" grep -q 'larger than --max-input-size (65536 bytes)' capped.err
head -c 200000 /dev/zero | "$AFLAME" --max-input-size 100K - -o capped.svg 2>/dev/null
check "output/--max-input-size stops standard input (exit 1)" test $? -eq 1
"$AFLAME" --max-input-size 100 "$OLDPWD/$IN" -o capped.svg 2>/dev/null
check "output/--max-input-size refuses a larger regular file (exit 1)" test $? -eq 1
"$AFLAME" --max-input-size 1M "$OLDPWD/$IN" -o capped.svg 2>/dev/null
check "output/--max-input-size lets a smaller file through" grep -q '</svg>' capped.svg
rm -f capped.svg capped.err

left=$(ls -A | grep -v '^\(fifo\|from-fifo\|real.svg\|link.svg\|new.svg\)$' | tr '\n' ' ')
check "output/no temporary files left" test -z "$left"
cd "$OLDPWD" || exit 1
