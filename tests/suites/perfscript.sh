# cost: 12
# perfscript.sh: `perf script` text (issue 35): real files from FlameGraph,
# inferno, speedscope and simpleperf detected and drawn; inferno's expected
# collapsed stacks matched; every -F field left out in turn; several
# events and --event; kernel, JIT and inlined frames marked; --info; bad
# input; damage; simpleperf's report_sample.py output with ART's frames
# shown and hidden. (stackcollapse-perf.pl itself: perfscript-conformance.sh.)
. tests/lib.sh
S=$DATA/perfscript
cmp_py() { python3 tests/tools/perfscript_compare.py "$@"; }

# every real file is perf script text, read plain or gzip'd
for f in "$S"/flamegraph/* "$S"/inferno/*.txt "$S"/speedscope/* "$S"/simpleperf/*; do
	b=${f#$S/}
	"$AFLAME" --info "$f" >"$TMP/info" 2>/dev/null
	check "perfscript/$b: detected from its content" grep -qxF "format: perf-script" "$TMP/info"
done
renders_valid "perfscript/example-perf-stacks" "$S/flamegraph/example-perf-stacks.txt.gz"
renders_valid "perfscript/simpleperf" "$S/simpleperf/perf_display_bitmaps.header.perf-script"

# inferno's expected output for its inputs (those where inferno and
# stackcollapse-perf.pl agree: inferno also demangles Rust's $LT$ escapes
# and draws every event of single-line stacks)
for c in cpp-stacks-std-function:cpp-stacks-std-function-collapsed go-stacks:go-stacks-collapsed \
	java-inline:java-inline-collapsed sourcepawn-jitdump:sourcepawn-jitdump-collapsed-jit \
	versioned-vmlinux:versioned-vmlinux-collapsed-kernel; do
	in=${c%%:*} want=${c#*:}
	"$AFLAME" --format folded -o "$TMP/$in.folded" "$S/inferno/$in.txt" 2>/dev/null
	got=$(cmp_py "$TMP/$in.folded" "$S/inferno/results/$want.txt")
	check "perfscript/inferno $in: every stack and weight as inferno expects ($got)" \
		sh -c "echo '$got' | grep -q '100.00% weight .* 100.000%'"
done

# roots, marks, weights on simpleperf's file
"$AFLAME" --format folded "$S/simpleperf/perf_display_bitmaps.header.perf-script" -o "$TMP/sp.folded" 2>/dev/null
check "perfscript/simpleperf: process > thread as 'name (id)'" grep -q '^process-31850 (31850);RenderThread (31881);' "$TMP/sp.folded"
check "perfscript/simpleperf: kernel frames named and marked _[k], suffixes kept" \
	grep -q ';el0_ia_\[k\];do_el0_ia_bp_hardening.cfi_\[k\];do_mem_abort.cfi_\[k\];do_translation_fault.cfi_\[k\];do_page_fault.cfi_\[k\] 250000$' "$TMP/sp.folded"
check "perfscript/simpleperf: argument lists kept" grep -q ';cached_mask_gamma(float, float, float);' "$TMP/sp.folded"
"$AFLAME" --format folded "$S/simpleperf/perf_display_bitmaps.UiThread.perf-script" -o "$TMP/ui.folded" 2>/dev/null
check "perfscript/simpleperf: a process named after its main thread" \
	grep -q '^com.example.android.displayingbitmaps (31850);com.example.android.displayingbitmaps (31850);__libc_init;main;' "$TMP/ui.folded"
check "perfscript/simpleperf: interpreted and compiled Java frames" \
	grep -q ';com.android.internal.os.ZygoteInit.main;com.android.internal.os.RuntimeInit$MethodAndArgsCaller.run;' "$TMP/ui.folded"
"$AFLAME" --info "$S/simpleperf/perf_display_bitmaps.header.perf-script" >"$TMP/info" 2>/dev/null
for l in "event types: cpu-clock" "samples: 4 drawn, 0 of other event types" "weights: the period of each sample" \
	"threads: 1" "processes: 1" "cmdline: /data/local/tmp/simpleperf record -o /data/local/tmp/perf.data -e cpu-clock -g --duration 0.1 --symfs /data/local/tmp/native_libs/ --app com.example.android.displayingbitmaps"; do
	check "perfscript/simpleperf info: $l" grep -qxF "$l" "$TMP/info"
done
check "perfscript/simpleperf: cpu-clock periods are nanoseconds" grep -q 'RenderThread *4 *1000000 ns' "$TMP/info"

# report_sample.py --show_art_frames with JIT, interpreted and kernel frames
# (written for this test in report_sample.py's layout)
printf '%s\n' 'RenderThread	700/705 [002] 100.000001: 1000 cpu-clock:' \
	'	ffffffc010081234 el0_svc_common ([kernel.kallsyms])' \
	'	      7a00001000 com.example.Foo.bar ([JIT app cache])' \
	'	      7a00002000 art_quick_invoke_stub (/apex/com.android.art/lib64/libart.so)' \
	'	      7a00003000 com.example.Foo.main (/data/app/base.apk!/classes.dex)' \
	'	      7a00004000 art::interpreter::Execute(art::Thread*) (/apex/com.android.art/lib64/libart.so)' \
	'' >"$TMP/art.txt"
"$AFLAME" --format folded -o - "$TMP/art.txt" >"$TMP/art.folded" 2>/dev/null
check "perfscript/report_sample.py: JIT _[j], ART and dex frames kept, kernel _[k]" grep -qxF \
	'process-700 (700);RenderThread (705);art::interpreter::Execute(art::Thread*);com.example.Foo.main;art_quick_invoke_stub;com.example.Foo.bar_[j];el0_svc_common_[k] 1000' "$TMP/art.folded"

# C++ frames in an anonymous namespace are frames (stackcollapse-perf.pl
# skips any symbol opening with '(')
"$AFLAME" --format folded -o "$TMP/pdb.folded" "$S/simpleperf/perf_display_bitmaps.perf-script.gz" 2>/dev/null
check "perfscript/simpleperf: (anonymous namespace):: frames kept" grep -qF \
	';llvm::MPPassManager::runOnModule(llvm::Module&);(anonymous namespace)::GlobalDCE::runOnModule(llvm::Module&);(anonymous namespace)::GlobalDCE::GlobalIsNeeded(llvm::GlobalValue*);(anonymous namespace)::GlobalDCE::MarkUsedGlobalsAsNeeded(llvm::Constant*) 250000' \
	"$TMP/pdb.folded"

# simpleperf's own report_sample.py on AOSP's perf_with_interpreter_frames.data
# (2018's build: tid alone, unindented 16-digit kernel addresses, JIT code
# in its ./TemporaryFile-XXXXXX symbol files), with ART's frames shown and
# hidden: the same samples and weight, ART's interpreter frames only in the
# first, JIT frames _[j] and kernel frames _[k] in both
rs=$S/simpleperf/perf_with_interpreter_frames
"$AFLAME" --format folded -o "$TMP/rs-art.folded" "$rs.show_art_frames.report_sample.txt.gz" 2>/dev/null
"$AFLAME" --format folded -o "$TMP/rs.folded" "$rs.report_sample.txt.gz" 2>/dev/null
check "perfscript/report_sample.py --show_art_frames: interpreted, ART, OSR and JIT frames in order" grep -qF \
	';android.os.Looper.loop;MterpCommonTakenBranchNoFlags;MterpMaybeDoOnStackReplacement;art::jit::Jit::MaybeDoOnStackReplacement(art::Thread*, art::ArtMethod*, unsigned int, int, art::JValue*);art_quick_osr_stub;void android.os.Looper.loop()_[j];android.os.Message android.os.MessageQueue.next()_[j];' \
	"$TMP/rs-art.folded"
check "perfscript/report_sample.py: ART frames hidden, the Java ones kept" grep -qF \
	';android.os.Looper.loop;void android.os.Looper.loop()_[j];android.os.Message android.os.MessageQueue.next()_[j];' "$TMP/rs.folded"
check "perfscript/report_sample.py: no ART interpreter frame when hidden" sh -c "! grep -q 'art::interpreter::' '$TMP/rs.folded'"
check "perfscript/report_sample.py: unindented kernel frames _[k]" grep -qF \
	';__epoll_pwait;[kernel.kallsyms][+ffffffc000086b4a]_[k];' "$TMP/rs-art.folded"
check "perfscript/report_sample.py: a thread root by tid alone" grep -q '^e.sample.tunnel (10419);__libc_init;main;' "$TMP/rs-art.folded"
for f in "$TMP/rs-art.folded" "$TMP/rs.folded"; do
	check "perfscript/report_sample.py: all 105075117 cycles in $(basename "$f")" \
		awk '{ s += $NF } END { exit s != 105075117 }' "$f"
done

"$AFLAME" --format folded -o "$TMP/ks.folded" "$S/simpleperf/perf_with_kernel_symbols_available_true.report_sample.txt.gz" 2>/dev/null
check "perfscript/report_sample.py: named kernel frames _[k], root first" grep -qF \
	';do_vfs_ioctl_[k];binder_ioctl_[k];binder_ioctl_write_read_[k];binder_thread_read_[k] ' "$TMP/ks.folded"

# -F choices: each field left out in turn
ps_case() {   # NAME WANT-FOLDED LINES...
	local name=$1 want=$2
	shift 2
	printf '%s\n' "$@" >"$TMP/in.txt"
	local got
	got=$("$AFLAME" --format folded -o - "$TMP/in.txt" 2>&1 | tr '\n' '|')
	if [ "$got" = "$want" ]; then pass "perfscript/-F $name"; else fail "perfscript/-F $name" "got '$got', want '$want'"; fi
}
ps_case "default (tid, time, period, event)" 'x (7);main;f 10|' \
	'x     7 100.000001:   10 cycles:' '	  401000 f+0x10 (/bin/x)' '	  400000 main+0x4 (/bin/x)' ''
ps_case "without period: 1 a sample" 'x (7);main;f 2|' \
	'x     7 100.000001: cycles:' '	  401000 f (/bin/x)' '	  400000 main (/bin/x)' '' \
	'x     7 100.000002: cycles:' '	  401000 f (/bin/x)' '	  400000 main (/bin/x)' ''
ps_case "without time" 'x (7);main;f 3|' \
	'x     7    3 cycles:' '	  401000 f (/bin/x)' '	  400000 main (/bin/x)' ''
ps_case "pid/tid and cpu" 'process-6 (6);x (7);main;f 3|' \
	'x  6/7  [001] 100.000001:    3 cycles:' '	  401000 f (/bin/x)' '	  400000 main (/bin/x)' ''
ps_case "without ip" 'x (7);main;f 3|' \
	'x     7 100.000001:    3 cycles:' '	f (/bin/x)' '	main (/bin/x)' ''
ps_case "without sym: [file]" 'x (7);[x];[libc.so.6] 3|' \
	'x     7 100.000001:    3 cycles:' '	  401000 (/lib/libc.so.6)' '	  400000 (/bin/x)' ''
ps_case "without dso" 'x (7);main;f 3|' \
	'x     7 100.000001:    3 cycles:' '	  401000 f' '	  400000 main' ''
ps_case "without comm" 'thread-7 (7);main;f 3|' \
	'      7 100.000001:    3 cycles:' '	  401000 f (/bin/x)' '	  400000 main (/bin/x)' ''
ps_case "without callchain (one frame on the header line)" 'x (7);f 3|x (7);g 1|' \
	'  x     7 100.000001:    1 cycles:   401000 g+0x1 (/bin/x)' \
	'  x     7 100.000002:    3 cycles:   401000 f (/bin/x)'
ps_case "comm with blanks" 'V8 WorkerThread (25607);v8 1|' \
	'V8 WorkerThread 25607 4794564.109216: 1 cycles:' '	  401000 v8 (/bin/node)' ''
ps_case "[unknown] in an unknown file" 'x (7);[unknown];f 1|' \
	'x 7 1.0: 1 cycles:' '	  401000 f (/bin/x)' '	  400000 [unknown] ([unknown])' ''
ps_case "kernel by file, module and address" 'x (7);main;sys_read_[k];ext4_x_[k];nf_y_[k];k_[k] 1|' \
	'x 7 1.0: 1 cycles:' '	ffffffff81000000 k' '	ffffffffc0000000 nf_y ([nf_conntrack])' \
	'	ffffffff81000200 ext4_x (/lib/modules/6.1/ext4.ko)' '	ffffffff81000100 sys_read ([kernel.kallsyms])' \
	'	  400000 main (/bin/x)' ''
ps_case "--inline frames and a->b inlined calls" 'x (7);main;a;b_[i];c_[i];inl_[i] 1|' \
	'x 7 1.0: 1 cycles:' '	  401000 inl (inlined)' '	  401000 a->b->c+0x4 (/bin/x)' '	  400000 main (/bin/x)' ''
ps_case "tracepoint fields are not frames" 'x (7);main 1|' \
	'x 7 1.0: sched:sched_switch: prev_comm=x prev_pid=7 ==> next_comm=y' '	  400000 main (/bin/x)' ''
ps_case "a comm that changes (exec) is another root" 'ls (7);main 1|sh (7);main 1|' \
	'sh 7 1.0: 1 cycles:' '	  400000 main (/bin/sh)' '' 'ls 7 2.0: 1 cycles:' '	  400000 main (/bin/ls)' ''
ps_case "# header lines and a last sample without a blank line" 'x (7);main 5|' \
	'# ========' '# cmdline : perf record -g ./x' '#' 'x 7 1.0: 5 cycles:' '	  400000 main (/bin/x)'

# several events: the first sample's, or --event's
f=$S/flamegraph/perf-cycles-instructions-01.txt
"$AFLAME" --info "$f" >"$TMP/info" 2>/dev/null
check "perfscript/events: the first sample's drawn" grep -qxF "event types: instructions, cycles (instructions is drawn: the first sample's)" "$TMP/info"
check "perfscript/events: 333 drawn, 111 other" grep -qxF "samples: 333 drawn, 111 of other event types" "$TMP/info"
"$AFLAME" --info --event cycles "$f" >"$TMP/info" 2>/dev/null
check "perfscript/--event cycles" grep -qxF "samples: 111 drawn, 333 of other event types" "$TMP/info"
"$AFLAME" --event nosuch "$f" -o "$TMP/x.svg" 2>"$TMP/err"
check "perfscript/--event nosuch: refused, naming the file's events" \
	grep -qxF "aflame-render: $f: no event type 'nosuch' in the file (it has: instructions, cycles)" "$TMP/err"
check "perfscript/--event nosuch: no output file" test ! -e "$TMP/x.svg"
printf '%s\n' 'x 7 1.0: 1 cpu-clock:u:' '	  400000 main (/bin/x)' '' >"$TMP/mod.txt"
check "perfscript/--event cpu-clock picks cpu-clock:u" sh -c "'$AFLAME' --event cpu-clock --format folded -o - '$TMP/mod.txt' | grep -qxF 'x (7);main 1'"

# bad input: one line naming the file and line, no output
printf 'x 7 1.0: 1 cycles:\n\t  400000 main (/bin/x)\n\nx 7 2.0: 99999999999999999999 cycles:\n' >"$TMP/big.txt"
"$AFLAME" "$TMP/big.txt" -o "$TMP/x.svg" 2>"$TMP/err"
check "perfscript/a period past 2^64: refused at its line" grep -qxF "aflame-render: $TMP/big.txt:4: a period past 2^64" "$TMP/err"
check "perfscript/a period past 2^64: no output file" test ! -e "$TMP/x.svg"
printf 'x 7 1.0: 1 cycles:\n\t  400000 main (/bin/x)\n\t  40\0000 f\n' >"$TMP/nul.txt"
"$AFLAME" -f perf-script "$TMP/nul.txt" -o "$TMP/x.svg" 2>"$TMP/err"
check "perfscript/a NUL byte: refused at its line" grep -qxF "aflame-render: $TMP/nul.txt:3: a NUL byte: not perf script text" "$TMP/err"

# damage: a small file with most of the above (a header comment, ids,
# kernel, JIT, inlined and unknown frames, a sample without a callchain,
# 2018 report_sample.py's layout, an "(anonymous namespace)" symbol)
{
	printf '%s\n' '# cmdline : perf record -g' 'x  6/7  [001] 100.000001:    3 cycles:' \
		'	ffffffff81000100 sys_read ([kernel.kallsyms])' '	  401000 inl (inlined)' \
		'	  401000 a->b->c+0x4 (/bin/x)' '	  400000 [unknown] ([unknown])' ''
	head -c 300 "$S/inferno/java-inline.txt"
	printf '\n\n%s\n' '  x     7 100.000002:    1 instructions:   401000 g+0x1 (/tmp/perf-7.map)'
	printf '\n'
	printf '%b\n' 'Thread-2\t10461 [000] 1461684.0:\t\t1 cycles:' \
		'ffffffc000fec280\t[kernel.kallsyms][+ffffffc000fec280] ([kernel.kallsyms])' \
		'        99fbdb5c\tvoid android.os.Looper.loop() (./TemporaryFile-3Er3R4)' \
		'      7493d4a6c8\t(anonymous namespace)::f(llvm::Module&) (/vendor/lib64/l.so)'
} >"$TMP/corners.txt"
# a frame line is first compared with the one that followed the line
# before last time: "2 f (/a.so)" is a prefix of "2 f (/a.so)x", which
# must not be taken for it; a different caller after it is read
printf 'prog 10 1.000: cycles:\n\t1 leaf (/a.so)\n\t2 f (/a.so)\n\t3 main (/a.so)\n\n' >"$TMP/next.txt"
printf 'prog 10 2.000: cycles:\n\t1 leaf (/a.so)\n\t2 f (/a.so)x\n\t3 main (/a.so)\n\n' >>"$TMP/next.txt"
printf 'prog 10 3.000: cycles:\n\t1 leaf (/a.so)\n\t2 fg (/a.so)\n\t3 main (/a.so)\n\n' >>"$TMP/next.txt"
printf 'prog 10 4.000: cycles:\n\t1 leaf (/a.so)\n\t2 f (/a.so)\n\t4 other (/a.so)\n' >>"$TMP/next.txt"
got=$("$AFLAME" --format folded "$TMP/next.txt" 2>&1 | tr '\n' '|')
check "perfscript/a line's usual successor is checked to its end (got $got)" test "$got" = \
	"prog (10);3 main;2 f;1 leaf 1|prog (10);3 main;2 f (/a.so)x;1 leaf 1|prog (10);3 main;2 fg;1 leaf 1|prog (10);4 other;2 f;1 leaf 1|"
damage_sweep "perfscript/damage" perfscript "$TMP/corners.txt"

# samples seen before are taken whole (perfscript_cache.c), headers read
# before are compared (perfscript_header.c): each real file given three
# times in one input (a file of more than one chunk of the mapping; and
# through a pipe) draws every stack of the file once read, at three times
# its weight (only the copies after the first are taken whole)
for f in "$S/flamegraph/perf-numa-stacks-01.txt.gz" "$S/speedscope/system-wide.linux-perf.txt.gz" \
	"$S/flamegraph/perf-vertx-stacks-01.txt.gz" "$S/flamegraph/perf-iperf-stacks-pidtid-01.txt.gz" \
	"$S/flamegraph/perf-cycles-instructions-01.txt"; do
	b=$(basename "$f")
	zcat -f "$f" >"$TMP/one.txt"
	printf '\n\n' >>"$TMP/one.txt"
	cat "$TMP/one.txt" "$TMP/one.txt" "$TMP/one.txt" >"$TMP/three.txt"
	"$AFLAME" --format folded "$TMP/one.txt" -o "$TMP/one.folded" 2>/dev/null
	awk '{ i = match($0, / [0-9]+$/); print substr($0, 1, i) 3 * substr($0, i + 1) }' "$TMP/one.folded" >"$TMP/want.folded"
	"$AFLAME" --format folded "$TMP/three.txt" -o "$TMP/three.folded" 2>/dev/null
	check "perfscript/$b three times: every stack three times its weight" cmp -s "$TMP/want.folded" "$TMP/three.folded"
	"$AFLAME" --format folded - -o "$TMP/pipe.folded" <"$TMP/three.txt" 2>/dev/null
	check "perfscript/$b three times through a pipe: the same" cmp -s "$TMP/want.folded" "$TMP/pipe.folded"
done
