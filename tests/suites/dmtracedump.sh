# tier: full
# dmtracedump.sh: the method profile (--report --clock cpu) against AOSP's
# dmtracedump on every legacy corpus trace it reads. Per method, exclusive
# and inclusive µs must agree within 1 µs and calls+recursive calls exactly,
# except the differences listed in golden/dmtracedump/<trace>.txt, each one
# a consequence of a rule in docs/semantics.md and explained in
# docs/dmtracedump.md. A new difference, or a listed one that went away,
# fails (re-bless with `make bless` after checking it).
# Also: the report's total equals the flame graph's on every trace.
. tests/lib.sh

DMT=${DMTRACEDUMP:-dmtracedump}

# dmtracedump's text report -> "name<TAB>exclusive<TAB>inclusive<TAB>calls<TAB>recursive",
# names as aflame-render's report writes them (parameter and return types). (toplevel) is left
# out: it is the time when no method is on the stack, which no flame graph
# draws. Unknown ids all become "(unknown)" in dmtracedump.
dmt_table() {
	awk '
	function params(sig,    out, i, c, dims, name, semi, n, parts, first) {
		if (substr(sig, 1, 1) != "(")
			return sig
		out = "("; i = 2; first = 1
		while (i <= length(sig) && substr(sig, i, 1) != ")") {
			dims = 0
			while (substr(sig, i, 1) == "[") { dims++; i++ }
			c = substr(sig, i, 1)
			if (c == "L") {
				semi = index(substr(sig, i), ";")
				if (!semi)
					return sig
				name = substr(sig, i + 1, semi - 2)
				n = split(name, parts, /[\/.]/)
				name = parts[n]
				i += semi
			} else {
				name = prim[c]
				if (name == "")
					return sig
				i++
			}
			while (dims-- > 0)
				name = name "[]"
			out = out (first ? "" : ", ") name
			first = 0
		}
		out = out ")"
		i++
		dims = 0
		while (substr(sig, i, 1) == "[") { dims++; i++ }
		c = substr(sig, i, 1)
		if (c == "L") {
			semi = index(substr(sig, i), ";")
			name = substr(sig, i + 1, semi - 2)
			n = split(name, parts, /[\/.]/)
			name = parts[n]
		} else {
			name = prim[c]
		}
		while (dims-- > 0)
			name = name "[]"
		return name == "" ? out : out ": " name
	}
	function key(a, b,    k) {
		k = a
		gsub(/\//, ".", k)
		return b == "" ? k : k params(b)
	}
	BEGIN {
		prim["Z"] = "boolean"; prim["B"] = "byte"; prim["C"] = "char"; prim["S"] = "short"
		prim["I"] = "int"; prim["J"] = "long"; prim["F"] = "float"; prim["D"] = "double"
		prim["V"] = "void"
	}
	/^    Usecs  self %/ { sec = "excl"; next }
	/^index  %\/total/ { sec = "incl"; next }
	/^Exclusive elapsed time for each class/ { sec = "" }
	sec == "excl" && $4 ~ /^\[[0-9]+\]$/ { ex[$4] = $1; next }
	sec == "incl" && /^\[[0-9]+\]/ {
		k = key($5, $6)
		if (k == "(toplevel)")
			next
		split($3, c, "+")
		if (!(k in inc)) order[++n] = k
		inc[k] += $4; calls[k] += c[1]; rec[k] += c[2]; exk[k] += ex[$1] + 0
	}
	END { for (i = 1; i <= n; i++) { k = order[i]; print k "\t" exk[k] "\t" inc[k] "\t" calls[k] "\t" rec[k] } }
	' "$1"
}

# Our CSV report -> the same columns; <unknown method 0x...> summed as "(unknown)".
our_table() {
	awk '
	function split_csv(line, f,    n, i, c, q, cur) {
		n = 0; cur = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
				else if (c == "\"") q = 0
				else cur = cur c
			} else if (c == "\"") q = 1
			else if (c == ",") { f[++n] = cur; cur = "" }
			else cur = cur c
		}
		f[++n] = cur
		return n
	}
	NR > 1 {
		split_csv($0, f)
		if (f[3] != "method")
			next
		k = f[2]
		# undo the CSV formula guard: a name starting with = + - @ gets a quote in front
		if (k ~ /^\047[-=+@]/)
			k = substr(k, 2)
		if (k ~ /^<unknown method 0x[0-9a-f]+>$/)
			k = "(unknown)"
		if (!(k in inc)) order[++n] = k
		exk[k] += f[5]; inc[k] += f[7]; calls[k] += f[9]; rec[k] += f[10]
	}
	END { for (i = 1; i <= n; i++) { k = order[i]; print k "\t" exk[k] "\t" inc[k] "\t" calls[k] "\t" rec[k] } }
	' "$1"
}

# Join: one line per difference, "method: field ours N, dmtracedump M",
# sorted; the summary "N methods, E equal" on stderr-free fd 3.
compare() {
	awk -F '\t' -v summary="$3" '
	NR == FNR { ex[$1] = $2; inc[$1] = $3; ca[$1] = $4; re[$1] = $5; seen[$1] = 1; next }
	function off(a, b, tol) { d = a - b; if (d < 0) d = -d; return d > tol }
	{
		n++
		k = $1
		if (!(k in seen)) {
			if ($2 + 0 == 0 && $3 + 0 == 0) { equal++; zero++; next }
			print k ": not in dmtracedump (ours: exclusive " $2 ", inclusive " $3 ")"
			next
		}
		delete seen[k]
		bad = 0
		if (off($2, ex[k], 1)) { print k ": exclusive ours " $2 ", dmtracedump " ex[k]; bad = 1 }
		if (off($3, inc[k], 1)) { print k ": inclusive ours " $3 ", dmtracedump " inc[k]; bad = 1 }
		if ($4 != ca[k] || $5 != re[k]) { print k ": calls ours " $4 "+" $5 ", dmtracedump " ca[k] "+" re[k]; bad = 1 }
		if (!bad) equal++
	}
	END {
		for (k in seen) print k ": only in dmtracedump (exclusive " ex[k] ", inclusive " inc[k] ")"
		printf "%d methods, %d equal within 1 us (%d with no time, absent from dmtracedump)\n", n, equal, zero > summary
	}
	' "$1" "$2" | LC_ALL=C sort
}

if ! command -v "$DMT" >/dev/null 2>&1; then
	skip "dmtracedump" "dmtracedump is not installed (Debian package dmtracedump)"
else
	for f in "$DATA"/art/*.trace; do
		name=$(basename "$f" .trace)
		case $name in
		*streaming*|perflib-header) continue ;;  # dmtracedump reads legacy files with data only
		esac
		T=$TMP/dmt-$name
		mkdir -p "$T"
		if ! "$DMT" "$f" >"$T/dmt.txt" 2>"$T/dmt.err"; then
			fail "dmtracedump/$name" "dmtracedump failed: $(head -1 "$T/dmt.err")"
			continue
		fi
		if ! "$AFLAME" --report --clock cpu -o "$T/ours.csv" "$f" 2>"$T/ours.err"; then
			fail "dmtracedump/$name" "aflame-render failed: $(head -1 "$T/ours.err")"
			continue
		fi
		dmt_table "$T/dmt.txt" >"$T/dmt.tsv"
		our_table "$T/ours.csv" >"$T/ours.tsv"
		compare "$T/dmt.tsv" "$T/ours.tsv" "$T/summary" >"$T/differences.txt"
		same_file "dmtracedump/$name: $(cat "$T/summary")" "$T/differences.txt" "golden/dmtracedump/$name.txt"
	done
fi

# The report and the flame graph cut the same time: the sum of the
# exclusive times is the graph's total, on every trace and clock.
for f in "$DATA"/art/*.trace; do
	name=$(basename "$f" .trace)
	[ "$name" = perflib-header ] && continue
	for clock in wall cpu; do
		"$AFLAME" --clock $clock --format tree "$f" >"$TMP/tree" 2>/dev/null || continue
		graph=$(awk '/^[^ ]/ { sub(/.*\[/, ""); sum += $1 } END { print sum + 0 }' "$TMP/tree")
		"$AFLAME" --clock $clock --report -o "$TMP/r.json" "$f" 2>/dev/null
		report=$(sed -n 's/^{.*"total":\([0-9.]*\),.*/\1/p' "$TMP/r.json")
		if [ "$graph" = "$report" ] && [ -n "$report" ]; then
			pass "report-total/$name/$clock ($report)"
		else
			fail "report-total/$name/$clock" "graph total $graph, report total ${report:-none}"
		fi
	done
done
