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
