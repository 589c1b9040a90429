# svg.sh: every corpus trace renders to valid XML, byte-identically twice;
# golden SVGs compared byte for byte (re-bless with `make bless`).
. tests/lib.sh
for f in "$DATA"/art/*.trace; do
	name=$(basename "$f" .trace)
	[ "$name" = perflib-header ] && continue
	renders_valid "svg/$name" "$f"
done

# golden NAME ARGS...: render with ARGS (from tests/data) and compare
golden() {
	local name=$1
	shift
	(cd "$DATA" && "$AFLAME" "$@" -o "$TMP/golden-$name.svg" 2>/dev/null)
	same_file "golden/$name" "$TMP/golden-$name.svg" "golden/svg/$name.svg"
}
golden perflib-exception --no-js -t "AsyncTask #1" art/perflib-exception.trace
golden perflib-basic-all-threads art/perflib-basic.trace
golden yamp-main --no-js -t main art/yamp-legacy.trace
golden ffx-regular-cpu-java --no-js --clock cpu --colors java --minwidth 1 art/ffx-art-regular.trace
golden atrace-decompressed-chart --no-js --flamechart -t 18926 atrace/decompressed_atrace_data.txt

# The interactive SVG's names and frames are deflated on a second thread
# while the rest is written (render/pack.h): the same bytes on one thread,
# on a graph big enough for blends and a deflate that takes a while
AFLAME_NO_THREADS=1 "$AFLAME" -o "$TMP/golden-one-thread.svg" "$DATA/art/perflib-basic.trace" 2>/dev/null
same_file "golden/perflib-basic-all-threads (AFLAME_NO_THREADS)" "$TMP/golden-one-thread.svg" \
	golden/svg/perflib-basic-all-threads.svg
awk 'BEGIN { for (i = 1; i <= 15000; i++) printf "main;a%d;b%d;c%d;d%d %d\n", i % 50, i % 700, i, (i * 7) % 1000, i }' \
	>"$TMP/threads.folded"
"$AFLAME" -o "$TMP/threads.svg" "$TMP/threads.folded" 2>/dev/null
AFLAME_NO_THREADS=1 "$AFLAME" -o "$TMP/threads1.svg" "$TMP/threads.folded" 2>/dev/null
check "svg: 15,000 stacks with blends, the same bytes with AFLAME_NO_THREADS" \
	sh -c "grep -q '<image ' '$TMP/threads.svg' && grep -q 'zn:[0-9]*,z:' '$TMP/threads.svg' && cmp '$TMP/threads.svg' '$TMP/threads1.svg'"
